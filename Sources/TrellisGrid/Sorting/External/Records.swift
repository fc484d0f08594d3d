import Foundation
import TrellisText

/// A pinned row of a sort in parts: its place in the file, its record as written, and where its
/// cells are kept for the summaries.
struct PinnedRow {
    var row: Int
    var record: [UInt8]
    var stored: Int
}

/// The record of a row as the output writes it: the file's own bytes, or its fields written
/// again with another delimiter.
struct Records {
    let table: Table
    let outputDelimiter: UInt8?

    init(table: Table, outputDelimiter: UInt8?) {
        self.table = table
        self.outputDelimiter = outputDelimiter.flatMap { $0 == table.csvFormat.delimiter ? nil : $0 }
    }

    /// The file's records, when rows are written as the file holds them.
    var raw: RawRecords? { outputDelimiter == nil ? table.rawRecords : nil }

    func record(_ row: Int) -> [UInt8] {
        if outputDelimiter == nil, let raw = table.rawRecords {
            return Array(raw.bytes[raw.range(row)])
        }
        let delimiter = outputDelimiter ?? table.csvFormat.delimiter
        var record: [UInt8] = []
        for c in 0..<table.storeCount {
            if c > 0 { record.append(delimiter) }
            table.store(c).withText(at: row) { Self.appendField($0, delimiter: delimiter, to: &record) }
        }
        return record
    }

    /// A field as CSV output writes a field of a file: quoted (quotes doubled) when it must be.
    static func appendField(_ text: UnsafeBufferPointer<UInt8>, delimiter: UInt8, to record: inout [UInt8]) {
        guard !text.isEmpty, CSV.needsQuotes(text, delimiter: delimiter) else { record.append(contentsOf: text); return }
        record.append(0x22)
        for c in text {
            record.append(c)
            if c == 0x22 { record.append(0x22) }
        }
        record.append(0x22)
    }
}
