import Foundation

/// A CSV file that does not follow RFC 4180, with where the problem is.
public struct CSVError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The 1-based line of the problem (a line ends at LF, CRLF or a lone CR, inside quotes too).
    public let line: Int
    /// The 1-based character column within that line.
    public let column: Int
    public let message: String

    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "line \(line), column \(column): \(message)" }
}

/// Reads and writes RFC 4180 CSV.
public enum CSV {
    /// Splits CSV text into records of fields: commas between fields, CRLF, LF or CR between
    /// records, fields in double quotes may hold commas, line breaks and doubled quotes. A UTF-8
    /// byte order mark is skipped. A trailing line break does not start a record.
    public static func parse(_ data: Data) throws(CSVError) -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        try read(data) { field, isLast, _ in
            record.append(String(decoding: field, as: UTF8.self))
            if isLast {
                records.append(record)
                record = []
            }
            return true
        }
        return records
    }

    /// Loads a table: the first record is the header (column identifiers), every other record a
    /// row with as many fields. Each cell keeps its text; its value is read as the column's type
    /// when `types` names one, and on its own otherwise, the column's type being what most of its
    /// cells hold (see ``ColumnType``). Nothing is returned unless the whole file is valid.
    ///
    /// - Complexity: one pass over the bytes; about 17 bytes per cell besides the text.
    public static func table(_ data: Data, types: [String: ColumnType] = [:]) throws(CSVError) -> Table {
        var header: [String] = []
        var stores: [ColumnStore] = []
        var column = 0
        var recordLine = 1
        var full: String?
        var lineBreak: [UInt8]?
        try read(data) { field, isLast, reader throws(CSVError) in
            if lineBreak == nil { lineBreak = reader.lineBreak }
            if !reader.pastHeader {
                header.append(String(decoding: field, as: UTF8.self))
                if isLast {
                    reader.pastHeader = true
                    try checkHeader(header, types: types)
                    stores = header.map { name in
                        var store = ColumnStore()
                        store.readAs = types[name]
                        store.reserve(reader.estimatedRecords, bytes: reader.byteCount / header.count)
                        return store
                    }
                }
                return true
            }
            if column == 0 { recordLine = reader.recordLine }
            if column < stores.count {
                let cell = CellText.classify(field, as: stores[column].readAs)
                if !stores[column].append(field, cell) {
                    full = header[column]
                    return false
                }
            }
            column += 1
            if isLast {
                guard column == header.count else {
                    throw CSVError(line: recordLine, column: 1, message: "this row has \(column) fields; the header has \(header.count)")
                }
                column = 0
            }
            return true
        }
        if let full {
            throw CSVError(line: recordLine, column: 1, message: "column \"\(Excerpt.of(full))\" holds more than 4 GB of text")
        }
        if header.isEmpty {
            throw CSVError(line: 1, column: 1, message: "the file is empty; the first line must name the columns")
        }
        if stores.isEmpty {
            // The header did not end its record: the file is the header alone.
            try checkHeader(header, types: types)
            stores = header.map { name in
                var store = ColumnStore()
                store.readAs = types[name]
                return store
            }
        }
        let columns = zip(header, stores).map { name, store in Column(name, type: types[name] ?? store.inferredType) }
        let table = Table(columns: columns, stores: stores)
        if let lineBreak { table.lineBreak = lineBreak }
        return table
    }

    private static func checkHeader(_ header: [String], types: [String: ColumnType]) throws(CSVError) {
        if header.count == 1 && header[0].isEmpty {
            throw CSVError(line: 1, column: 1, message: "the file is empty; the first line must name the columns")
        }
        var seen = Set<String>()
        for (c, name) in header.enumerated() where !seen.insert(name).inserted {
            throw CSVError(line: 1, column: header[..<c].reduce(1) { $0 + $1.count + 1 },
                           message: "the column name \"\(Excerpt.of(name))\" appears twice; column names must be unique")
        }
        for name in types.keys.sorted() where !seen.contains(name) {
            throw CSVError(line: 1, column: 1, message: "no column named \"\(Excerpt.of(name))\" to give a type to; the columns are "
                           + header.prefix(20).map { "\"\(Excerpt.of($0))\"" }.joined(separator: ", ")
                           + (header.count > 20 ? ", …" : ""))
        }
    }

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
    }

    /// Calls `field` with each field's bytes (quotes removed, doubled quotes undoubled) and
    /// whether it ends its record; stops early when `field` returns `false`.
    static func read(_ data: Data,
                     _ field: (UnsafeBufferPointer<UInt8>, Bool, inout Position) throws(CSVError) -> Bool) throws(CSVError) {
        let result: CSVError? = data.withUnsafeBytes { raw -> CSVError? in
            let all = raw.bindMemory(to: UInt8.self)
            guard !all.isEmpty else { return nil }
            var base = 0
            if all.count >= 3, all[0] == 0xEF, all[1] == 0xBB, all[2] == 0xBF { base = 3 }
            let bytes = UnsafeBufferPointer(rebasing: all[base...])
            if let bad = firstInvalidUTF8(bytes) {
                let (line, column) = place(bytes, bad)
                return CSVError(line: line, column: column, message: "the file is not valid UTF-8 text; save it as UTF-8")
            }
            do throws(CSVError) {
                try scan(bytes, field)
                return nil
            } catch {
                return error
            }
        }
        if let result { throw result }
    }

    private static func lineBreaks(_ b: UnsafeBufferPointer<UInt8>) -> Int {
        guard var p = b.baseAddress.map(UnsafeRawPointer.init) else { return 0 }
        let end = p + b.count
        var count = 0
        while p < end, let hit = memchr(p, 0x0A, end - p) {
            count += 1
            p = UnsafeRawPointer(hit) + 1
        }
        return count
    }

    private static func scan(_ b: UnsafeBufferPointer<UInt8>,
                             _ field: (UnsafeBufferPointer<UInt8>, Bool, inout Position) throws(CSVError) -> Bool) throws(CSVError) {
        let n = b.count
        var i = 0
        var line = 1, lineStart = 0
        var position = Position(recordLine: 1, pastHeader: false, byteCount: n, estimatedRecords: lineBreaks(b) + 1)
        var scratch: [UInt8] = []
        var atRecordStart = true
        func error(_ message: String, at index: Int, line: Int, lineStart: Int) -> CSVError {
            CSVError(line: line, column: String(decoding: UnsafeBufferPointer(rebasing: b[lineStart..<index]), as: UTF8.self).count + 1,
                     message: message)
        }
        while i < n {
            if atRecordStart {
                position.recordLine = line
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
                    throw error("a quoted field is never closed; add the closing double quote", at: open, line: openLine,
                                lineStart: openStart)
                }
                end = i
                i += 1
                if i < n, b[i] != 0x2C, b[i] != 0x0A, b[i] != 0x0D {
                    throw error("text after a closing quote; put the whole field in quotes and double any quote inside",
                                at: i, line: line, lineStart: lineStart)
                }
            } else {
                while i < n {
                    let c = b[i]
                    if c == 0x2C || c == 0x0A || c == 0x0D { break }
                    if c == 0x22 {
                        throw error("a double quote inside an unquoted field; quote the whole field and double the quote",
                                    at: i, line: line, lineStart: lineStart)
                    }
                    i += 1
                }
                end = i
            }
            var last = true
            if i < n {
                if b[i] == 0x2C {
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
            let keepGoing: Bool
            if doubled {
                scratch.removeAll(keepingCapacity: true)
                var k = start
                while k < end {
                    scratch.append(b[k])
                    k += b[k] == 0x22 ? 2 : 1
                }
                keepGoing = try scratch.withUnsafeBufferPointer { bytes throws(CSVError) in try field(bytes, last, &position) }
            } else {
                keepGoing = try field(UnsafeBufferPointer(rebasing: b[start..<end]), last, &position)
            }
            if !keepGoing { return }
            if !last && i == n {
                // A comma at the very end: one more, empty field ends the record.
                if try !field(UnsafeBufferPointer(rebasing: b[n..<n]), true, &position) { return }
            }
        }
    }

    /// The line and column of byte `index`.
    private static func place(_ b: UnsafeBufferPointer<UInt8>, _ index: Int) -> (Int, Int) {
        var line = 1, lineStart = 0, i = 0
        while i < index {
            if b[i] == 0x0A || (b[i] == 0x0D && !(i + 1 < b.count && b[i + 1] == 0x0A)) { line += 1; lineStart = i + 1 }
            i += 1
        }
        let column = String(decoding: UnsafeBufferPointer(rebasing: b[lineStart..<index]), as: UTF8.self).count + 1
        return (line, column)
    }

    /// The position of the first byte that is not part of valid UTF-8, or `nil`.
    static func firstInvalidUTF8(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = b.count
        var i = 0
        while i < n {
            // Eight ASCII bytes at a time.
            if i + 8 <= n {
                let word = UnsafeRawPointer(b.baseAddress! + i).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 == 0 { i += 8; continue }
            }
            let c = b[i]
            if c < 0x80 { i += 1; continue }
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch c {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return i
            }
            guard i + length <= n, b[i + 1] >= low, b[i + 1] <= high else { return i }
            for k in 2..<max(2, length) where b[i + k] & 0xC0 != 0x80 { return i }
            i += length
        }
        return nil
    }

    // MARK: Writing

    /// Whether a field must be quoted: it holds a comma, a quote, a line break, or starts or ends
    /// with a space.
    package static func needsQuotes(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = text.first, let last = text.last else { return false }
        if first == 0x20 || last == 0x20 || first == 0x09 || last == 0x09 { return true }
        for c in text where c == 0x2C || c == 0x22 || c == 0x0A || c == 0x0D { return true }
        return false
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
