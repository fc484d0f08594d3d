import Foundation
import TrellisText

extension CSV {
    // MARK: The reader

    /// Where the reader is, for the field handler.
    struct Position {
        /// The line the current record started on.
        var recordLine = 1
        /// Set by the handler once it has taken the header.
        var pastHeader = false
        /// The size of the input, and a guess at how many records it holds (its line breaks).
        var byteCount = 0
        var estimatedRecords = 0
        /// The first record's line break (CRLF, LF or CR), `nil` before the first.
        var lineBreak: [UInt8]?
        /// Where the current field's bytes are in the input, when they are there as they are
        /// (`nil` for a field whose doubled quotes were undoubled).
        var fieldOffset: Int?
        /// Where the current record starts and (once its last field is read) ends in the input,
        /// its line break excluded.
        var recordStart = 0
        var recordEnd = 0
        /// Where reading goes on after the current field.
        var nextRecordStart = 0
    }

    /// Hands `sink` each field's bytes (quotes removed, doubled quotes undoubled) and whether it
    /// ends its record, until the sink returns `false`; offsets in ``Position`` are into `all`.
    /// Returns the first error.
    static func read<S: CSVSink>(
        _ all: UnsafeBufferPointer<UInt8>, from start: Int = 0, delimiter: UInt8 = 0x2C,
        _ sink: inout S, releasing mapped: MappedFile? = nil
    ) -> CSVError? {
        guard all.count > start else { return nil }
        var base = start
        if all.count >= start + 3, all[start] == 0xEF, all[start + 1] == 0xBB, all[start + 2] == 0xBF { base = start + 3 }
        let bytes = UnsafeBufferPointer(rebasing: all[base...])
        if let bad = firstInvalidUTF8(bytes, at: base, releasing: mapped) {
            let (line, column) = place(bytes, bad)
            return CSVError(line: line, column: column, problem: .invalidUTF8)
        }
        do throws(CSVError) {
            try scan(bytes, base: base, delimiter: delimiter, &sink)
            return nil
        } catch {
            return error
        }
    }

    /// How many records bytes probably hold, for reserving room: the line breaks of a 256 KB
    /// sample, scaled to the whole (counted exactly when the bytes are no larger), plus a tenth.
    static func estimatedRecords(_ b: UnsafeBufferPointer<UInt8>) -> Int {
        let sample = 1 << 18
        guard b.count > sample * 2 else { return lineBreaks(b) + 1 }
        let counted = lineBreaks(UnsafeBufferPointer(rebasing: b[0..<sample]))
        return Int(Double(counted + 1) * Double(b.count) / Double(sample) * 1.1) + 16
    }

    static func lineBreaks(_ b: UnsafeBufferPointer<UInt8>) -> Int {
        guard var p = b.baseAddress.map(UnsafeRawPointer.init) else { return 0 }
        let end = p + b.count
        var count = 0
        while p < end, let hit = memchr(p, 0x0A, end - p) {
            count += 1
            p = UnsafeRawPointer(hit) + 1
        }
        return count
    }

    static func scan<S: CSVSink>(
        _ b: UnsafeBufferPointer<UInt8>, base: Int, delimiter: UInt8,
        _ sink: inout S
    ) throws(CSVError) {
        let n = b.count
        let delimiterMask = delimiterWord(delimiter)
        var i = 0
        var line = 1, lineStart = 0
        var position = Position(recordLine: 1, pastHeader: false, byteCount: n, estimatedRecords: estimatedRecords(b))
        var scratch: [UInt8] = []
        var atRecordStart = true
        func error(_ problem: CSVError.Problem, at index: Int, line: Int, lineStart: Int) -> CSVError {
            CSVError(
                line: line, column: String(decoding: UnsafeBufferPointer(rebasing: b[lineStart..<index]), as: UTF8.self).count + 1,
                problem: problem)
        }
        while i < n {
            if atRecordStart {
                position.recordLine = line
                position.recordStart = base + i
                atRecordStart = false
            }
            var start = i, end = i, doubled = false
            if b[i] == 0x22 {
                let openLine = line, openStart = lineStart, open = i
                i += 1
                start = i
                var closed = false
                while i < n {
                    let c = b[i]
                    if c == 0x22 {
                        if i + 1 < n, b[i + 1] == 0x22 { doubled = true; i += 2; continue }
                        closed = true
                        break
                    }
                    if c == 0x0A || (c == 0x0D && !(i + 1 < n && b[i + 1] == 0x0A)) { line += 1; lineStart = i + 1 }
                    i += 1
                }
                guard closed else {
                    throw error(
                        .unclosedQuote, at: open, line: openLine,
                        lineStart: openStart)
                }
                end = i
                i += 1
                if i < n, b[i] != delimiter, b[i] != 0x0A, b[i] != 0x0D {
                    throw error(
                        .textAfterQuote,
                        at: i, line: line, lineStart: lineStart)
                }
            } else {
                // Eight bytes at a time to the first delimiter, line break or quote.
                if let base = b.baseAddress {
                    let raw = UnsafeRawPointer(base)
                    while i + 8 <= n {
                        let stop = Self.stops(in: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self), delimiter: delimiterMask)
                        if stop != 0 { i += stop.trailingZeroBitCount >> 3; break }
                        i += 8
                    }
                }
                while i < n {
                    let c = b[i]
                    if c == delimiter || c == 0x0A || c == 0x0D { break }
                    if c == 0x22 {
                        throw error(
                            .quoteInUnquotedField,
                            at: i, line: line, lineStart: lineStart)
                    }
                    i += 1
                }
                end = i
            }
            var last = true
            position.recordEnd = base + i
            if i < n {
                if b[i] == delimiter {
                    last = false
                    i += 1
                } else {
                    if position.lineBreak == nil {
                        position.lineBreak = b[i] == 0x0A ? [0x0A] : (i + 1 < n && b[i + 1] == 0x0A ? [0x0D, 0x0A] : [0x0D])
                    }
                    if b[i] == 0x0D, i + 1 < n, b[i + 1] == 0x0A { i += 1 }
                    i += 1
                    line += 1
                    lineStart = i
                    atRecordStart = true
                }
            }
            position.nextRecordStart = base + i
            let keepGoing: Bool
            if doubled {
                scratch.removeAll(keepingCapacity: true)
                var k = start
                while k < end {
                    scratch.append(b[k])
                    k += b[k] == 0x22 ? 2 : 1
                }
                position.fieldOffset = nil
                keepGoing = try scratch.withUnsafeBufferPointer { bytes throws(CSVError) in try sink.field(bytes, last: last, &position) }
            } else {
                position.fieldOffset = base + start
                keepGoing = try sink.field(UnsafeBufferPointer(rebasing: b[start..<end]), last: last, &position)
            }
            if !keepGoing { return }
            if !last && i == n {
                // A delimiter at the very end: one more, empty field ends the record.
                position.fieldOffset = base + n
                position.recordEnd = base + n
                if try !sink.field(UnsafeBufferPointer(rebasing: b[n..<n]), last: true, &position) { return }
            }
        }
    }

    /// Keeps one field of a record.
    struct FieldPicker: CSVSink {
        let wanted: Int
        var column = 0
        var text: [UInt8] = []

        mutating func field(_ field: UnsafeBufferPointer<UInt8>, last: Bool, _ position: inout Position) throws(CSVError) -> Bool {
            if column == wanted {
                text = Array(field)
                return false
            }
            column += 1
            return !last
        }
    }

    /// Field `column` of a record (its bytes without the line break) as the reader hands it to
    /// the column: quotes removed, doubled quotes undoubled; empty where the record stops
    /// before it (trailing columns without a name may be left out).
    static func field(_ column: Int, of record: UnsafeBufferPointer<UInt8>, delimiter: UInt8) -> [UInt8] {
        var picker = FieldPicker(wanted: column)
        do throws(CSVError) {
            try scan(record, base: 0, delimiter: delimiter, &picker)
        } catch {
            // The file was read whole before, so its records scan; an error leaves what was found.
        }
        return picker.text
    }

    /// A column of a table read without it, or whose cells it let go (see ``Table/store(_:)``),
    /// read from the file's records with `reading` — as text for the first, as the column was
    /// read for the second: every cell keeps its text, and is read as it was.
    static func store(ofField column: Int, records: RawRecords, delimiter: UInt8, reading: CellReading) -> ColumnStore {
        var store = ColumnStore()
        store.reading = reading
        records.withBytes { file in
            for row in 0..<records.count {
                let record = UnsafeBufferPointer(rebasing: file[records.range(row)])
                let text = field(column, of: record, delimiter: delimiter)
                text.withUnsafeBufferPointer { _ = store.append($0, CellText.classify($0, reading)) }
            }
        }
        return store
    }

    /// `delimiter` in every byte of a word, for ``stops(in:delimiter:)``.
    @inline(__always)
    static func delimiterWord(_ delimiter: UInt8) -> UInt64 { 0x0101_0101_0101_0101 &* UInt64(delimiter) }

    /// A mask with the high bit set in the lowest byte of `word` (little-endian) that is the
    /// delimiter (given in every byte, by ``delimiterWord(_:)``), a line feed, a carriage return
    /// or a double quote; bits above it may be set too.
    @inline(__always)
    static func stops(in word: UInt64, delimiter: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func zeroBytes(_ v: UInt64) -> UInt64 { (v &- ones) & ~v & highs }
        return zeroBytes(word ^ delimiter) | zeroBytes(word ^ (ones &* 0x0A)) | zeroBytes(word ^ (ones &* 0x0D))
            | zeroBytes(word ^ (ones &* 0x22))
    }

    /// The line and column of byte `index`.
    static func place(_ b: UnsafeBufferPointer<UInt8>, _ index: Int) -> (Int, Int) {
        var line = 1, lineStart = 0, i = 0
        while i < index {
            if b[i] == 0x0A || (b[i] == 0x0D && !(i + 1 < b.count && b[i + 1] == 0x0A)) { line += 1; lineStart = i + 1 }
            i += 1
        }
        let column = String(decoding: UnsafeBufferPointer(rebasing: b[lineStart..<index]), as: UTF8.self).count + 1
        return (line, column)
    }
}
