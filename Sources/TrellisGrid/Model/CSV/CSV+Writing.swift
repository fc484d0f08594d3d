import Foundation
import TrellisText

extension CSV {
    // MARK: Writing

    /// Whether a field must be quoted: it holds the delimiter, a quote, a line break, or starts or
    /// ends with a space or a tab.
    package static func needsQuotes(_ text: UnsafeBufferPointer<UInt8>, delimiter: UInt8 = 0x2C) -> Bool {
        guard let first = text.first, let last = text.last else { return false }
        if first == 0x20 || last == 0x20 || first == 0x09 || last == 0x09 { return true }
        for c in text where c == delimiter || c == 0x22 || c == 0x0A || c == 0x0D { return true }
        return false
    }

    /// Where each field of one record lies, quotes included (`"a,b"` is one field of five
    /// bytes): what a writer copies of a field as the file wrote it. A quote opens a quoted field
    /// only at the field's start; inside one, two quotes are one.
    package static func fieldExtents(_ record: UnsafeBufferPointer<UInt8>, delimiter: UInt8) -> [Range<Int>] {
        var extents: [Range<Int>] = []
        var start = 0, k = 0, quoted = false
        while k < record.count {
            let c = record[k]
            if quoted {
                if c == 0x22 {
                    if k + 1 < record.count, record[k + 1] == 0x22 { k += 2; continue }
                    quoted = false
                }
            } else if c == 0x22, k == start {
                quoted = true
            } else if c == delimiter {
                extents.append(start..<k)
                start = k + 1
            }
            k += 1
        }
        extents.append(start..<record.count)
        return extents
    }

    /// Whether a spreadsheet would run the text as a formula: it starts with `=`, `+`, `-`, `@`,
    /// a tab or a carriage return and is not a plain number (`-5` and `+1.5e3` are numbers; `-inf`,
    /// `+nan`, `+0x1p3` and `-1+1` are not).
    package static func looksLikeFormula(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = text.first else { return false }
        guard first == 0x3D || first == 0x2B || first == 0x2D || first == 0x40 || first == 0x09 || first == 0x0D else { return false }
        var start = 0, end = text.count
        CellText.trim(text, &start, &end)
        if start < end, let number = CellText.parseNumber(text, start, end), number.kind != .missing { return false }
        return true
    }

    /// One field written for CSV: quoted when it must be, quotes doubled; with
    /// `neutralizeFormulas`, text a spreadsheet would run as a formula gets a leading `'`.
    public static func field(_ text: String, neutralizeFormulas: Bool) -> String {
        let out = FieldWriter()
        var text = text
        text.withUTF8 { out.write($0, neutralizeFormulas: neutralizeFormulas) }
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// Records written as CSV with CRLF line breaks (RFC 4180).
    public static func write(_ records: [[String]], neutralizeFormulas: Bool) -> String {
        let out = FieldWriter()
        for record in records {
            for (k, field) in record.enumerated() {
                if k > 0 { out.bytes.append(0x2C) }
                var field = field
                field.withUTF8 { out.write($0, neutralizeFormulas: neutralizeFormulas) }
            }
            out.bytes.append(0x0D)
            out.bytes.append(0x0A)
        }
        return String(decoding: out.bytes, as: UTF8.self)
    }
}

/// Writes CSV fields into bytes.
final class FieldWriter {
    var bytes: [UInt8] = []

    func write(_ text: UnsafeBufferPointer<UInt8>, neutralizeFormulas: Bool) {
        let formula = neutralizeFormulas && CSV.looksLikeFormula(text)
        guard formula || CSV.needsQuotes(text) else {
            bytes.append(contentsOf: text)
            return
        }
        let quote = CSV.needsQuotes(text)
        if quote { bytes.append(0x22) }
        if formula { bytes.append(0x27) }
        for c in text {
            if c == 0x22 { bytes.append(0x22) }
            bytes.append(c)
        }
        if quote { bytes.append(0x22) }
    }
}

/// What the CSV reader hands each field to.
protocol CSVSink {
    /// Takes a field; `last` when it ends its record. Returns `false` to stop reading.
    mutating func field(_ field: UnsafeBufferPointer<UInt8>, last: Bool, _ position: inout CSV.Position) throws(CSVError) -> Bool
}
