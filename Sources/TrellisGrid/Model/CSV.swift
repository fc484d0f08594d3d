import Foundation

/// A CSV file that does not follow RFC 4180, with where the problem is.
public struct CSVError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The 1-based line of the problem.
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
    /// Splits CSV text into records of fields: commas between fields, CRLF or LF between records,
    /// fields in double quotes may hold commas, line breaks and doubled quotes. A UTF-8 byte order
    /// mark is skipped. A trailing line break does not start a record.
    public static func parse(_ data: Data) throws(CSVError) -> [[String]] {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            var line = 1, column = 1, i = 0
            while i < bytes.count {
                let length = utf8Length(bytes, i)
                if length == 0 { break }
                if bytes[i] == 0x0A { line += 1; column = 1 } else { column += 1 }
                i += length
            }
            throw CSVError(line: line, column: column, message: "the file is not valid UTF-8 text; save it as UTF-8")
        }
        var records: [[String]] = []
        var record: [String] = []
        var field: [UInt8] = []
        var i = 0, line = 1, lineStart = 0
        func column(_ at: Int) -> Int { String(decoding: bytes[lineStart..<at], as: UTF8.self).count + 1 }
        var atFieldStart = true
        while i < bytes.count {
            let b = bytes[i]
            if atFieldStart && b == 0x22 {
                // A quoted field.
                let openLine = line, openColumn = column(i)
                i += 1
                var closed = false
                while i < bytes.count {
                    if bytes[i] == 0x22 {
                        if i + 1 < bytes.count, bytes[i + 1] == 0x22 { field.append(0x22); i += 2; continue }
                        i += 1
                        closed = true
                        break
                    }
                    if bytes[i] == 0x0A { line += 1; lineStart = i + 1 }
                    field.append(bytes[i])
                    i += 1
                }
                guard closed else {
                    throw CSVError(line: openLine, column: openColumn,
                                   message: "a quoted field is never closed; add the closing double quote")
                }
                if i < bytes.count, bytes[i] != 0x2C, bytes[i] != 0x0A, !(bytes[i] == 0x0D) {
                    throw CSVError(line: line, column: column(i),
                                   message: "text after a closing quote; put the whole field in quotes and double any quote inside")
                }
                atFieldStart = false
                continue
            }
            switch b {
            case 0x2C:
                record.append(String(decoding: field, as: UTF8.self))
                field = []
                atFieldStart = true
                i += 1
            case 0x0D where i + 1 < bytes.count && bytes[i + 1] == 0x0A:
                i += 1
            case 0x0A, 0x0D:
                record.append(String(decoding: field, as: UTF8.self))
                records.append(record)
                record = []
                field = []
                atFieldStart = true
                i += 1
                line += 1
                lineStart = i
            case 0x22:
                throw CSVError(line: line, column: column(i),
                               message: "a double quote inside an unquoted field; quote the whole field and double the quote")
            default:
                field.append(b)
                atFieldStart = false
                i += 1
            }
        }
        if !atFieldStart || !field.isEmpty || !record.isEmpty {
            record.append(String(decoding: field, as: UTF8.self))
            records.append(record)
        }
        return records
    }

    private static func utf8Length(_ bytes: [UInt8], _ i: Int) -> Int {
        let b = bytes[i]
        let length = b < 0x80 ? 1 : b >> 5 == 0x6 ? 2 : b >> 4 == 0xE ? 3 : b >> 3 == 0x1E ? 4 : 0
        guard length > 0, i + length <= bytes.count else { return 0 }
        for k in 1..<length where bytes[i + k] >> 6 != 0x2 { return 0 }
        return length
    }

    /// Loads a table: the first record is the header (column identifiers), every other record a
    /// row with as many fields. Column types are inferred from the values unless `types` names
    /// them. Nothing is returned unless the whole file is valid.
    public static func table(_ data: Data, types: [String: ColumnType] = [:]) throws(CSVError) -> Table {
        let records = try parse(data)
        guard let header = records.first, !(header.count == 1 && header[0].isEmpty) else {
            throw CSVError(line: 1, column: 1, message: "the file is empty; the first line must name the columns")
        }
        var seen = Set<String>()
        for (c, name) in header.enumerated() where !seen.insert(name).inserted {
            throw CSVError(line: 1, column: header[..<c].reduce(1) { $0 + $1.count + 1 },
                           message: "the column name \"\(name)\" appears twice; column names must be unique")
        }
        for name in types.keys where !seen.contains(name) {
            throw CSVError(line: 1, column: 1, message: "no column named \"\(name)\" to give a type to; the columns are "
                           + header.map { "\"\($0)\"" }.joined(separator: ", "))
        }
        let rows = Array(records.dropFirst())
        for (r, row) in rows.enumerated() where row.count != header.count {
            throw CSVError(line: lineNumber(ofRecord: r + 1, in: records), column: 1,
                           message: "this row has \(row.count) fields; the header has \(header.count)")
        }
        let columns = header.enumerated().map { c, name in
            Column(name, type: types[name] ?? ColumnType.infer(rows.lazy.map { $0[c] }))
        }
        let table = Table(columns: columns)
        for row in rows { try? table.appendRow(row) }
        return table
    }

    /// The line on which record `index` starts (records may span lines).
    private static func lineNumber(ofRecord index: Int, in records: [[String]]) -> Int {
        var line = 1
        for record in records.prefix(index) {
            line += 1 + record.reduce(0) { $0 + $1.filter { $0 == "\n" }.count }
        }
        return line
    }

    /// One field written for CSV: quoted when it holds a comma, a quote, a line break or leading
    /// or trailing spaces; quotes doubled. With `neutralizeFormulas`, text that a spreadsheet would
    /// run as a formula (starting with `=`, `+`, `-`, `@`, tab or carriage return, and not a plain
    /// number) gets a leading `'`.
    public static func field(_ text: String, neutralizeFormulas: Bool) -> String {
        var text = text
        if neutralizeFormulas, let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first),
           Double(text.trimmingCharacters(in: .whitespaces)) == nil {
            text = "'" + text
        }
        let needsQuotes = text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
            || text.hasPrefix(" ") || text.hasSuffix(" ")
        return needsQuotes ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }

    /// Records written as CSV with CRLF line breaks (RFC 4180).
    public static func write(_ records: [[String]], neutralizeFormulas: Bool) -> String {
        records.map { $0.map { field($0, neutralizeFormulas: neutralizeFormulas) }.joined(separator: ",") }
            .joined(separator: "\r\n") + "\r\n"
    }
}
