import Foundation
import TrellisText

/// A CSV file that does not follow RFC 4180 or cannot be a table, with what and where.
public struct CSVError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public enum Problem: Equatable, Sendable {
        case invalidUTF8
        case unclosedQuote
        case textAfterQuote
        case quoteInUnquotedField
        /// A row with `found` fields under a header of `expected`.
        case wrongFieldCount(found: Int, expected: Int)
        case emptyFile
        /// A type given for a column the file does not have.
        case unknownColumn(String, columns: [String])
        case fileTooLarge
        case columnTooLarge(String)
        /// Bytes that are text in no encoding tried: neither UTF-8 nor GB18030 nor GBK; `likely` is one the
        /// start of the file is wholly text in.
        case unknownEncoding(likely: TextEncoding?)
        /// A byte that is not text in the encoding named (given, or marked by the file).
        case notInEncoding(String, byte: Int)
        /// Any other problem, told in words.
        case other(String)

        var message: String {
            switch self {
            case .invalidUTF8: return "the file is not valid UTF-8 text; save it as UTF-8"
            case .unclosedQuote: return "a quoted field is never closed; add the closing double quote"
            case .textAfterQuote: return "text after a closing quote; put the whole field in quotes and double any quote inside"
            case .quoteInUnquotedField: return "a double quote inside an unquoted field; quote the whole field and double the quote"
            case .wrongFieldCount(let found, let expected): return "this row has \(found) fields; the header has \(expected)"
            case .emptyFile: return "the file is empty; the first line must name the columns"
            case .unknownColumn(let name, let columns):
                return "no column named \"\(Excerpt.of(name))\" to give a type to; the columns are "
                    + columns.prefix(20).map { "\"\(Excerpt.of($0))\"" }.joined(separator: ", ") + (columns.count > 20 ? ", …" : "")
            case .fileTooLarge: return "the file is larger than 4 GB; split it"
            case .unknownEncoding(let likely):
                return "the file is neither UTF-8 nor GB18030 (or GBK) text"
                    + (likely.map { "; it reads as \($0.name): name its encoding (--encoding \($0.name))" }
                        ?? "; name its encoding (--encoding NAME: \(TextEncoding.names))")
            case .notInEncoding(let name, let byte):
                return "byte \(byte) of the file is not \(name) text; name the file's encoding (--encoding NAME: \(TextEncoding.names))"
            case .columnTooLarge(let name): return "column \"\(Excerpt.of(name))\" holds more than 4 GB of text"
            case .other(let message): return message
            }
        }
    }

    /// The 1-based line of the problem (a line ends at LF, CRLF or a lone CR, inside quotes too).
    public let line: Int
    /// The 1-based character column within that line.
    public let column: Int
    public let problem: Problem
    /// The problem in words, with what fixes it.
    public var message: String { problem.message }

    public init(line: Int, column: Int, problem: Problem) {
        self.line = line
        self.column = column
        self.problem = problem
    }

    /// An error told in words (compared with others by its words).
    public init(line: Int, column: Int, message: String) {
        self.init(line: line, column: column, problem: .other(message))
    }

    public static func == (a: CSVError, b: CSVError) -> Bool {
        a.line == b.line && a.column == b.column && a.message == b.message
    }

    public var description: String { "line \(line), column \(column): \(message)" }
}

/// Reads and writes RFC 4180 CSV.
public enum CSV {
    /// Splits CSV text into records of fields: commas between fields, CRLF, LF or CR between
    /// records, fields in double quotes may hold commas, line breaks and doubled quotes. A UTF-8
    /// byte order mark is skipped. A trailing line break does not start a record.
    public static func parse(_ data: Data) throws(CSVError) -> [[String]] {
        struct Records: CSVSink {
            var records: [[String]] = []
            var record: [String] = []
            mutating func field(_ field: UnsafeBufferPointer<UInt8>, last: Bool, _ position: inout Position) -> Bool {
                record.append(String(decoding: field, as: UTF8.self))
                if last {
                    records.append(record)
                    record = []
                }
                return true
            }
        }
        var sink = Records()
        let error: CSVError? = data.withUnsafeBytes { read($0.bindMemory(to: UInt8.self), &sink) }
        if let error { throw error }
        return sink.records
    }

    /// Loads a table: the first record is the header (column identifiers), every other record a
    /// row with as many fields. Each cell keeps its text; its value is read as the column's type
    /// when `types` names one, and on its own otherwise, the column's type being what most of its
    /// cells hold (see ``ColumnType``). Nothing is returned unless the whole file is valid.
    ///
    /// - Complexity: one pass over the bytes; about 14 bytes per cell besides the text.
    public static func table(_ data: Data, types: [String: ColumnType] = [:]) throws(CSVError) -> Table {
        try table(bytes: [UInt8](data), types: types)
    }

    /// ``table(_:types:)`` over the file's bytes, which the table keeps as the text of its cells
    /// (no copy but of fields with doubled quotes) and whose records CSV output can copy as they are.
    ///
    /// The file may be in any ``TextEncoding``: a byte order mark decides (UTF-8, UTF-16); without
    /// one, UTF-8 is read as it is, UTF-16 is recognised by its zero bytes, and a file that is not
    /// UTF-8 but is GB18030 (Chinese Excel's and LibreOffice's default, GBK included) is read as
    /// GB18030 — as GBK when it holds code page 936's € (0x80) — which
    /// ``CSVFormat/encodingWasGuessed`` says. `encoding` forces one. The delimiter
    /// (comma, tab, semicolon or bar) is found in the first lines unless `delimiter` forces one;
    /// Excel's `sep=;` first line names it too, and is kept.
    ///
    /// The header is the first line (after a `sep=` line), or line `headerRow` of the file: the
    /// lines above it are kept as they are and written back. Columns may share a name or have
    /// none, as spreadsheets allow: each gets a unique ``Column/identifier`` — the name for the
    /// first of a name, `NAME#2` for the second, `#N` for column N without a name — and keeps its
    /// name as its ``Column/title``. A row may leave out trailing columns that have no name
    /// (their cells are blank). What was found is the table's ``Table/csvFormat``, which CSV output
    /// writes back.
    public static func table(bytes input: [UInt8], types: [String: ColumnType] = [:], encoding: TextEncoding? = nil,
                             delimiter: UInt8? = nil, headerRow: Int? = nil, dateOrder: DateOrder? = nil) throws(CSVError) -> Table {
        try table(bytes: input, types: types, encoding: encoding, delimiter: delimiter, headerRow: headerRow, dateOrder: dateOrder,
                  splitAbove: 1 << 22)
    }

    /// Which columns of a file a reading keeps, told the header's columns (their identifiers and
    /// titles; their types are not known yet): the positions to read, or `nil` for every one.
    public typealias ColumnSelection = @Sendable ([Column]) -> Set<Int>?

    /// ``table(bytes:types:encoding:delimiter:headerRow:dateOrder:)`` reading only the columns
    /// `columns` selects (told the header's columns; `nil` reads every one): the others stay in
    /// the file's records and are columns of text — a cell is read from its record when asked for,
    /// a whole column when something needs it whole, and CSV output copies the records as they
    /// were. What a sort to CSV needs of the columns it does not order by: about 14 bytes a cell
    /// and the typing of every cell are saved for each.
    public static func table(bytes input: [UInt8], types: [String: ColumnType] = [:], encoding: TextEncoding? = nil,
                             delimiter: UInt8? = nil, headerRow: Int? = nil, dateOrder: DateOrder? = nil,
                             reading columns: ColumnSelection?) throws(CSVError) -> Table {
        try table(bytes: input, types: types, encoding: encoding, delimiter: delimiter, headerRow: headerRow, dateOrder: dateOrder,
                  splitAbove: 1 << 22, columns: columns)
    }

    /// ``table(bytes:types:encoding:delimiter:headerRow:)``, reading in two halves at once when the file has
    /// more than `splitAbove` bytes (the tests split small files).
    ///
    /// A part of a larger file read on its own (an external sort's) is given the whole file's
    /// `decisions` about its columns instead of making its own, and with `gatherEvidence` keeps
    /// what its cells show (``Table/columnEvidence``) for those decisions.
    static func table(bytes input: [UInt8], types: [String: ColumnType], encoding forced: TextEncoding? = nil,
                      delimiter forcedDelimiter: UInt8? = nil, headerRow: Int? = nil, dateOrder: DateOrder? = nil,
                      splitAbove: Int, decisions: [ColumnDecision]? = nil, gatherEvidence: Bool = false,
                      columns: ColumnSelection? = nil) throws(CSVError) -> Table {
        guard input.count < Int(UInt32.max) else {
            throw CSVError(line: 1, column: 1, problem: .fileTooLarge)
        }
        if let headerRow, headerRow < 1 {
            throw CSVError(line: 1, column: 1, problem: .other("the header row is counted from 1; \(headerRow) is not a line of the file"))
        }
        var format = CSVFormat()
        if forced == nil, let problem = notATextTable(input) { throw problem }
        let marked = TextEncoding.byteOrderMark(of: input)
        // UTF-8 is read in place (the reader skips its mark); any other encoding is decoded first.
        var encoding = forced ?? marked?.encoding ?? utf16WithoutMark(input) ?? .utf8
        format.byteOrderMark = marked != nil && marked?.encoding == encoding
        format.encodingWasGuessed = forced == nil && marked == nil && encoding != .utf8
        var text = input
        if encoding != .utf8 {
            text = try decoded(input, encoding, skipping: format.byteOrderMark ? marked!.length : 0)
        }
        func read(_ text: [UInt8]) throws(CSVError) -> Table {
            try text.withUnsafeBufferPointer { buffer throws(CSVError) in
                try readText(buffer, owner: .array(text), format: &format, types: types, delimiter: forcedDelimiter, headerRow: headerRow,
                             dateOrder: dateOrder, splitAbove: splitAbove, decisions: decisions, gatherEvidence: gatherEvidence,
                             columns: columns)
            }
        }
        let table: Table
        do {
            table = try read(text)
        } catch where error.problem == .invalidUTF8 && forced == nil && encoding == .utf8 {
            // UTF-8 but for a character cut at the very end: the file was cut short.
            if let cut = cutShort(input, .utf8) { throw cut }
            // Not UTF-8: Chinese Excel's default is next most likely — GB18030, or GBK as Windows
            // writes it (code page 936 has € at 0x80, which GB18030 lacks).
            guard let (guess, text) = [TextEncoding.gb18030, .gbk].lazy
                .compactMap({ encoding in (try? encoding.decode(input)).map { (encoding, $0) } }).first else {
                if let cut = cutShort(input, .gb18030) ?? cutShort(input, .gbk) { throw cut }
                throw CSVError(line: error.line, column: error.column, problem: .unknownEncoding(likely: likelyEncoding(input)))
            }
            encoding = guess
            format.encodingWasGuessed = true
            table = try read(text)
        }
        format.encoding = encoding
        format.lineBreak = table.lineBreak
        table.csvFormat = format
        return table
    }

    /// ``table(bytes:types:encoding:delimiter:headerRow:dateOrder:reading:)`` of a file mapped
    /// into memory, reading only the columns `columns` selects and leaving the records in the file:
    /// the cells read are copied out as they are read, each part of the file let go of once read
    /// (``MappedFile/release(_:)``), and the table's CSV output copies the records from the file.
    /// What is held is then the cells read and where each record starts, not the file. A file
    /// that is not UTF-8 (a mark, the encoding given, or what its bytes show) is read as a copy.
    package static func table(mapped file: MappedFile, types: [String: ColumnType] = [:], encoding forced: TextEncoding? = nil,
                              delimiter: UInt8? = nil, headerRow: Int? = nil, dateOrder: DateOrder? = nil,
                              reading columns: ColumnSelection?, splitAbove: Int = 1 << 22) throws(CSVError) -> Table {
        guard file.bytes.count < Int(UInt32.max) else {
            throw CSVError(line: 1, column: 1, problem: .fileTooLarge)
        }
        let head = Array(file.bytes.prefix(4096))
        let marked = TextEncoding.byteOrderMark(of: head)
        if (forced ?? marked?.encoding ?? utf16WithoutMark(head) ?? .utf8) == .utf8, headerRow.map({ $0 >= 1 }) ?? true {
            var format = CSVFormat()
            format.byteOrderMark = marked?.encoding == .utf8
            do {
                let table = try readText(file.bytes, owner: .mapped(file), format: &format, types: types, delimiter: delimiter,
                                         headerRow: headerRow, dateOrder: dateOrder, splitAbove: splitAbove, decisions: nil,
                                         gatherEvidence: false, columns: columns)
                file.releaseAll()
                format.encoding = .utf8
                format.lineBreak = table.lineBreak
                table.csvFormat = format
                return table
            } catch where error.problem == .invalidUTF8 && forced == nil {
                // Another encoding, which the reading of a copy finds.
                file.releaseAll()
            }
        }
        return try table(bytes: Array(file.bytes), types: types, encoding: forced, delimiter: delimiter, headerRow: headerRow,
                         dateOrder: dateOrder, splitAbove: splitAbove, columns: columns)
    }

    /// Where the text a table is read from is kept: an array the table keeps, or a mapped file
    /// the records are left in (the cells read are then copied out).
    enum TextOwner {
        case array([UInt8])
        case mapped(MappedFile)
    }

    /// Reads UTF-8 `text` (a mark, a `sep=` line and lines above the header skipped as `format`
    /// and `headerRow` say) into a table, filling in what `format` finds.
    private static func readText(_ text: UnsafeBufferPointer<UInt8>, owner: TextOwner, format: inout CSVFormat,
                                 types: [String: ColumnType], delimiter forcedDelimiter: UInt8?, headerRow: Int?,
                                 dateOrder: DateOrder?, splitAbove: Int, decisions: [ColumnDecision]?, gatherEvidence: Bool,
                                 columns: ColumnSelection?) throws(CSVError) -> Table {
        // Where the text starts (after a UTF-8 mark), and where the header does.
        let textStart = text.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var start = textStart
        var skippedLines = 0
        format.separatorLine = nil
        format.leadingLines = []
        format.likelyHeaderLine = nil
        if let (separator, length) = separatorLine(text, from: textStart) {
            format.separatorLine = Array(text[start..<(start + length)])
            start += length
            skippedLines = 1
            if forcedDelimiter == nil { format.delimiter = separator }
        }
        if let headerRow, headerRow > 1 + skippedLines {
            let lineStart = try startOfLine(headerRow, in: text, from: start, firstLine: 1 + skippedLines)
            // The lines passed over are text too (and tell a file that is not UTF-8).
            let leading = UnsafeBufferPointer(rebasing: text[start..<lineStart])
            if let (line, column) = TextEncoding.firstInvalidUTF8(leading).map({ place(leading, $0) }) {
                throw CSVError(line: line + skippedLines, column: column, problem: .invalidUTF8)
            }
            format.leadingLines = Array(text[start..<lineStart])
            start = lineStart
            skippedLines = headerRow - 1
        }
        let delimiter = forcedDelimiter ?? (format.separatorLine != nil ? format.delimiter : CSVFormat.detectDelimiter(text[start...]))
        format.delimiter = delimiter
        format.delimiterWasDetected = forcedDelimiter == nil && format.separatorLine == nil && delimiter != 0x2C
        if headerRow == nil, let line = likelyHeaderLine(text, from: start) {
            format.likelyHeaderLine = line + skippedLines
        }
        // Blank lines after the last record (spreadsheets' exports often end so) are not
        // records: they are kept as they were and written back after the rows.
        let end = endOfRecords(text, from: start, delimiter: delimiter)
        format.trailingLines = Array(text[end...])
        do {
            let reading = CellReading(decimalComma: delimiter == 0x3B, dateOrder: dateOrder)
            return try parseTable(text, owner: owner, from: start, upTo: end, types: types, reading: reading, delimiter: delimiter,
                                  splitAbove: splitAbove, decisions: decisions, gatherEvidence: gatherEvidence, columns: columns)
        } catch {
            // Lines are counted from the top of the file; a title above the header is named.
            var problem = error.problem
            if case .wrongFieldCount = problem, let likely = format.likelyHeaderLine {
                problem = .other(problem.message + "; line 1 looks like a title above the header (one cell, then a blank line): "
                                 + "if the header is line \(likely), give --header-row \(likely)")
            }
            throw CSVError(line: error.line + skippedLines, column: error.column, problem: problem)
        }
    }

    /// Excel's first line `sep=C` (C one of the delimiters), and its length with its line break.
    static func separatorLine(_ text: UnsafeBufferPointer<UInt8>, from start: Int) -> (delimiter: UInt8, length: Int)? {
        let prefix = Array("sep=".utf8)
        guard text.count >= start + 5, Array(text[start..<(start + 4)]).map({ $0 | 0x20 }) == prefix,
              CSVFormat.delimiters.contains(text[start + 4]) else { return nil }
        var end = start + 5
        guard end == text.count || text[end] == 0x0A || text[end] == 0x0D else { return nil }
        if end < text.count { end += text[end] == 0x0D && end + 1 < text.count && text[end + 1] == 0x0A ? 2 : 1 }
        return (text[start + 4], end - start)
    }

    /// Where line `line` of the file starts, `text[from...]` being line `firstLine`; an error when
    /// the file is shorter or the line starts inside a quoted field.
    static func startOfLine(_ line: Int, in text: UnsafeBufferPointer<UInt8>, from start: Int, firstLine: Int) throws(CSVError) -> Int {
        guard start < text.count else { throw CSVError(line: 1, column: 1, problem: .emptyFile) }
        var current = firstLine, quoted = false, quoteLine = firstLine
        var i = start
        while i < text.count, current < line {
            let c = text[i]
            if c == 0x22 {
                quoted.toggle()
                if quoted { quoteLine = current }
            } else if c == 0x0A || c == 0x0D {
                if c == 0x0D, i + 1 < text.count, text[i + 1] == 0x0A { i += 1 }
                current += 1
            }
            i += 1
        }
        guard current == line, i < text.count else {
            throw CSVError(line: 1, column: 1, problem: .other(
                "the file has \(current) line\(current == 1 ? "" : "s"); the header row \(line) is past its end"))
        }
        guard !quoted else {
            throw CSVError(line: line, column: 1, problem: .other(
                "line \(line) is inside a quoted field that starts on line \(quoteLine); name the line the header starts on"))
        }
        return i
    }

    /// The line (counted from `start`, which is line 1) that is most likely the header when line 1
    /// looks like a title above it: for some delimiter, line 1 has one cell that is not blank,
    /// one or more lines of nothing but delimiters follow, and then a line of two or more cells
    /// that are not blank. `nil` when the file does not start so.
    static func likelyHeaderLine(_ text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var lines: [Slice<UnsafeBufferPointer<UInt8>>] = []
        var i = start, lineStart = start
        while i < text.count, lines.count < 12, i - start < 1 << 16 {
            let c = text[i]
            if c == 0x0A || c == 0x0D {
                lines.append(text[lineStart..<i])
                if c == 0x0D, i + 1 < text.count, text[i + 1] == 0x0A { i += 1 }
                lineStart = i + 1
            }
            i += 1
        }
        if lineStart < text.count, lines.count < 12 { lines.append(text[lineStart..<min(text.count, lineStart + (1 << 16))]) }
        guard lines.count >= 3 else { return nil }
        for delimiter in CSVFormat.delimiters {
            func filled(_ line: Slice<UnsafeBufferPointer<UInt8>>) -> Int {
                line.split(separator: delimiter, omittingEmptySubsequences: false)
                    .filter { $0.contains { $0 != 0x20 && $0 != 0x09 && $0 != 0x22 } }.count
            }
            guard filled(lines[0]) == 1 else { continue }
            var k = 1
            while k < lines.count, filled(lines[k]) == 0 { k += 1 }
            if k > 1, k < lines.count, filled(lines[k]) >= 2 { return k + 1 }
        }
        return nil
    }

    /// `input` (after a mark of `skipping` bytes) decoded from `encoding` to UTF-8, or the error
    /// that says where it is not text in that encoding.
    private static func decoded(_ input: [UInt8], _ encoding: TextEncoding, skipping: Int) throws(CSVError) -> [UInt8] {
        let body = skipping == 0 ? input : Array(input[skipping...])
        do {
            return try encoding.decode(body)
        } catch {
            // The line of the byte that failed, counting line feeds in any ASCII-compatible
            // encoding and in UTF-16 alike (a zero byte beside each).
            let upTo = body.prefix(error.offset)
            let line = upTo.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
            throw CSVError(line: line, column: 1, problem: .notInEncoding(encoding.name, byte: skipping + error.offset))
        }
    }

    /// Why `input` is not a table of text any encoding read here holds, when its first bytes say
    /// so: a UTF-32 file (by its mark, or by the three zero bytes beside each ASCII character), a
    /// workbook (a ZIP archive, or the compound file of a legacy .xls), or a NUL byte in a file
    /// that is not UTF-16 — each named with what it is and what to do, where reading on would
    /// give garbled cells or a row count that says nothing.
    static func notATextTable(_ input: [UInt8]) -> CSVError? {
        let head = input.prefix(1 << 16)
        func at(_ offset: Int, _ problem: String) -> CSVError {
            CSVError(line: head.prefix(offset).reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }, column: 1, problem: .other(problem))
        }
        func utf32(_ how: String) -> String {
            "the file is UTF-32 text (\(how)), which is not read here: save it as UTF-8 (or UTF-16), e.g. iconv -f UTF-32 -t UTF-8"
        }
        if head.starts(with: [0xFF, 0xFE, 0x00, 0x00]) || head.starts(with: [0x00, 0x00, 0xFE, 0xFF]) {
            return at(0, utf32("its byte order mark says so"))
        }
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            return at(0, "the file is a ZIP archive — an .xlsx or .ods workbook? Save the sheet as CSV (UTF-8) from the "
                      + "spreadsheet program and sort that")
        }
        if head.starts(with: [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) {
            return at(0, "the file is a legacy Excel workbook (.xls); save the sheet as CSV (UTF-8) from the spreadsheet program "
                      + "and sort that")
        }
        guard let firstZero = head.firstIndex(of: 0) else { return nil }
        if TextEncoding.byteOrderMark(of: head).map({ $0.encoding != .utf8 }) == true || utf16WithoutMark(Array(head.prefix(4096))) != nil {
            return nil
        }
        // Four bytes a character, three of them zero beside ASCII.
        let groups = head.count / 4
        if groups >= 2 {
            var little = 0, big = 0
            for g in 0..<groups {
                let b = head.startIndex + g * 4
                if head[b + 1] == 0, head[b + 2] == 0, head[b + 3] == 0 { little += 1 }
                if head[b] == 0, head[b + 1] == 0, head[b + 2] == 0 { big += 1 }
            }
            if little * 10 >= groups * 9 || big * 10 >= groups * 9 { return at(0, utf32("four bytes a character, without a byte order mark")) }
        }
        return at(firstZero, "byte \(firstZero + 1) of the file is a NUL (0x00), which no text holds: the file is not a table of "
                  + "text (a binary file?), or UTF-16 without its byte order mark (--encoding utf-16le or utf-16be)")
    }

    /// The error of a file that is text in `encoding` but for its last character, cut off in the
    /// middle (a copy or a download that stopped): where, and what to do. `nil` otherwise.
    static func cutShort(_ input: [UInt8], _ encoding: TextEncoding) -> CSVError? {
        for cut in 1...3 where input.count > cut {
            let whole = Array(input.dropLast(cut))
            guard (try? encoding.decode(whole)) != nil else { continue }
            // The bytes left over must begin a character (a lead byte), not be any bytes at all.
            let lead = input[input.count - cut]
            let begins = encoding == .utf8 ? lead >= 0xC2 && lead <= 0xF4 : lead >= 0x81 && lead <= 0xFE
            guard begins else { return nil }
            let line = whole.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
            let lineStart = whole.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
            let column = ((try? encoding.decode(Array(whole[lineStart...]))).map { String(decoding: $0, as: UTF8.self).count } ?? 0) + 1
            let name = encoding == .utf8 ? "UTF-8" : encoding == .gbk ? "GBK" : "GB18030 (or GBK)"
            return CSVError(line: line, column: column, problem: .other(
                "the file ends in the middle of a character (byte \(whole.count + 1) of \(input.count), "
                    + String(format: "0x%02X", lead) + "): it is \(name) text cut short — a copy or download that stopped? "
                    + "Get the whole file again, or remove its incomplete last line"))
        }
        return nil
    }

    /// UTF-16 without a byte order mark, told by its zero bytes, which text in any other encoding
    /// read here does not have: in the first 4 KB, the high byte of every ASCII character — the
    /// delimiters, line breaks and digits of a table, a fifth of the characters at least — is
    /// zero, at odd offsets (little-endian) or even ones (big-endian), and zeros on the other side
    /// are rare (U+4E00 一 has one).
    private static func utf16WithoutMark(_ input: [UInt8]) -> TextEncoding? {
        let sample = input.prefix(4096)
        guard sample.count >= 4 else { return nil }
        var evenZeros = 0, oddZeros = 0
        for (i, byte) in sample.enumerated() where byte == 0 {
            if i % 2 == 0 { evenZeros += 1 } else { oddZeros += 1 }
        }
        let characters = sample.count / 2
        // A line break, where there is one, must be a UTF-16 one: 0A 00 at an even offset
        // (little-endian) or 00 0A at an odd one — not a byte of ASCII beside a stray zero.
        let bytes = Array(sample)
        let feeds = bytes.indices.filter { bytes[$0] == 0x0A }
        func breaks(littleEndian: Bool) -> Bool {
            feeds.isEmpty || feeds.contains { i in
                littleEndian ? i % 2 == 0 && i + 1 < bytes.count && bytes[i + 1] == 0 : i % 2 == 1 && bytes[i - 1] == 0
            }
        }
        if oddZeros * 5 >= characters && evenZeros * 4 <= oddZeros && breaks(littleEndian: true) { return .utf16LittleEndian }
        if evenZeros * 5 >= characters && oddZeros * 4 <= evenZeros && breaks(littleEndian: false) { return .utf16BigEndian }
        return nil
    }

    /// The encoding a file that is neither UTF-8 nor GB18030 nor GBK most likely is: the first of
    /// Shift_JIS, Big5 and Windows-1252 it is wholly text in.
    static func likelyEncoding(_ input: [UInt8]) -> TextEncoding? {
        // Whole lines of the start: a character cut at the end would fail every encoding.
        var sample = Array(input.prefix(1 << 16))
        if sample.count < input.count, let lastFeed = sample.lastIndex(of: 0x0A) { sample.removeSubrange((lastFeed + 1)...) }
        return [TextEncoding.shiftJIS, .big5, .windows1252].first { (try? $0.decode(sample)) != nil }
    }

    /// Where the records of `text` end: after the line break that ends the last line holding
    /// anything, when only line breaks follow it — the blank lines an export ends with — and only
    /// in a table of two or more columns (in a one-column table an empty line is an empty cell).
    static func endOfRecords(_ text: UnsafeBufferPointer<UInt8>, from start: Int = 0, delimiter: UInt8) -> Int {
        var end = text.count
        while end > start, text[end - 1] == 0x0A || text[end - 1] == 0x0D { end -= 1 }
        guard end > start, end < text.count else { return text.count }
        // The line break of the last line: CRLF, LF or CR.
        let lastBreak = text[end] == 0x0D && end + 1 < text.count && text[end + 1] == 0x0A ? end + 2 : end + 1
        guard lastBreak < text.count else { return text.count }
        // A header of one column keeps its empty lines as cells.
        var quoted = false
        for c in text[start...] {
            if c == 0x22 { quoted.toggle() }
            else if !quoted, c == delimiter { return lastBreak }
            else if !quoted, c == 0x0A || c == 0x0D { break }
        }
        return text.count
    }

    /// Parses UTF-8 text (its bytes from `start` to `end`, the header first) into a table whose
    /// cells keep their text in it; lines are counted from `start`.
    private static func parseTable(_ whole: UnsafeBufferPointer<UInt8>, owner: TextOwner, from start: Int, upTo end: Int,
                                   types: [String: ColumnType], reading: CellReading, delimiter: UInt8, splitAbove: Int,
                                   decisions: [ColumnDecision]?, gatherEvidence: Bool, columns: ColumnSelection?) throws(CSVError) -> Table {
        // Offsets stay offsets into the whole text, which the table keeps (or the file, whose
        // records are left there: the cells read are then copied out, each after the others).
        let all = UnsafeBufferPointer(rebasing: whole[..<end])
        var mapped: MappedFile?
        if case .mapped(let file) = owner { mapped = file }
        let inputCount = mapped == nil ? whole.count : 0
        var loader: TableLoader
        // A large file is read in two halves at once, split at a record boundary.
        if all.count - start > splitAbove, ProcessInfo.processInfo.activeProcessorCount > 1,
           let result = readInHalves(all, from: start, inputCount: inputCount, types: types, reading: reading, delimiter: delimiter,
                                     columns: columns, mapped: mapped) {
            loader = try result.get()
        } else {
            loader = TableLoader(types: types, inputCount: inputCount, reading: reading, columns: columns, mapped: mapped)
            if let error = read(all, from: start, delimiter: delimiter, &loader, releasing: mapped) { throw error }
        }
        return try loader.finish(owner, decisions: decisions, gatherEvidence: gatherEvidence)
    }

    /// Reads the header, then the two halves of the body on two threads; `nil` when the body
    /// has no safe place to split.
    private static func readInHalves(_ all: UnsafeBufferPointer<UInt8>, from start: Int, inputCount: Int, types: [String: ColumnType],
                                     reading: CellReading, delimiter: UInt8, columns: ColumnSelection?,
                                     mapped: MappedFile?) -> Result<TableLoader, CSVError>? {
        // The header, from the first 64 KB (a longer header is read with the rest, on one thread).
        var header = TableLoader(types: types, inputCount: inputCount, reading: reading, headerOnly: true, columns: columns,
                                 mapped: mapped)
        var prefix = min(all.count, start + (1 << 16))
        while prefix < all.count, (all[prefix] & 0xC0) == 0x80 { prefix += 1 }   // not inside a character
        if let error = read(UnsafeBufferPointer(rebasing: all[0..<prefix]), from: start, delimiter: delimiter, &header) {
            return .failure(error)
        }
        guard header.pastHeader, let bodyStart = header.bodyStart, bodyStart < prefix,
              let split = recordBoundary(all, from: bodyStart, near: bodyStart + (all.count - bodyStart) / 2) else { return nil }
        let ranges = [bodyStart..<split, split..<all.count]
        let estimates = ranges.map { estimatedRecords(UnsafeBufferPointer(rebasing: all[$0])) }
        // The first half has room for the whole body reserved (pages untouched until written),
        // so that the second is appended to it without moving it: what is held at the end is
        // the second half twice, not the whole body.
        var halves = [TableLoader(continuing: header, estimatedRecords: estimates[0] + estimates[1], from: ranges[0].lowerBound,
                                  cellBytes: ranges[0].count + ranges[1].count),
                      TableLoader(continuing: header, estimatedRecords: estimates[1], from: ranges[1].lowerBound,
                                  cellBytes: ranges[1].count)]
        var errors: [CSVError?] = [nil, nil]
        halves.withUnsafeMutableBufferPointer { loaders in
            errors.withUnsafeMutableBufferPointer { errors in
                // Each thread touches only its own half, loader and error.
                let shared = Unchecked((all, loaders, errors))
                DispatchQueue.concurrentPerform(iterations: 2) { k in
                    let (all, loaders, errors) = shared.value
                    errors[k] = readBody(all, ranges[k], delimiter: delimiter, &loaders[k], releasing: mapped)
                }
            }
        }
        for (k, error) in errors.enumerated() {
            guard var error else { continue }
            // Lines are counted from the start of the half.
            error = CSVError(line: error.line + lineCount(all, from: start, upTo: ranges[k].lowerBound), column: error.column,
                             problem: error.problem)
            return .failure(error)
        }
        // Taken out of the array, so that the first half's records are appended to in place
        // rather than copied (the array would still share them).
        var second = halves.removeLast()
        var merged = halves.removeLast()
        merged.append(draining: &second)
        return .success(merged)
    }

    /// The start of a record near `middle`: after the first line break past it that is not in
    /// a quoted field (quotes counted from `start`, where a record starts).
    private static func recordBoundary(_ b: UnsafeBufferPointer<UInt8>, from start: Int, near middle: Int) -> Int? {
        var inQuotes = false
        var i = start
        while i < middle {
            if b[i] == 0x22 { inQuotes.toggle() }
            i += 1
        }
        while i < b.count {
            let c = b[i]
            if c == 0x22 { inQuotes.toggle() }
            else if !inQuotes, c == 0x0A || c == 0x0D {
                if c == 0x0D, i + 1 < b.count, b[i + 1] == 0x0A { i += 1 }
                return i + 1 < b.count ? i + 1 : nil
            }
            i += 1
        }
        return nil
    }

    /// The number of line breaks (LF, CRLF, lone CR) from `start` to `end`.
    private static func lineCount(_ b: UnsafeBufferPointer<UInt8>, from start: Int, upTo end: Int) -> Int {
        var count = 0, i = start
        while i < end {
            if b[i] == 0x0A || (b[i] == 0x0D && !(i + 1 < b.count && b[i + 1] == 0x0A)) { count += 1 }
            i += 1
        }
        return count
    }

    /// Reads the records in `range` of `all` (which starts and ends at record boundaries).
    private static func readBody<S: CSVSink>(_ all: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, delimiter: UInt8,
                                             _ sink: inout S, releasing mapped: MappedFile? = nil) -> CSVError? {
        let bytes = UnsafeBufferPointer(rebasing: all[range])
        if let bad = firstInvalidUTF8(bytes, at: range.lowerBound, releasing: mapped) {
            let (line, column) = place(bytes, bad)
            return CSVError(line: line, column: column, problem: .invalidUTF8)
        }
        do throws(CSVError) {
            try scan(bytes, base: range.lowerBound, delimiter: delimiter, &sink)
            return nil
        } catch {
            return error
        }
    }

    /// Where `bytes` (at `base` in the text) are first not UTF-8; with a mapped file, checked a
    /// part at a time, each part let go of once checked (the reading then brings it back).
    private static func firstInvalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>, at base: Int, releasing mapped: MappedFile?) -> Int? {
        guard let mapped else { return TextEncoding.firstInvalidUTF8(bytes) }
        var from = 0
        while from < bytes.count {
            var to = min(bytes.count, from + mapped.readingStep)
            while to < bytes.count, bytes[to] & 0xC0 == 0x80 { to += 1 }   // not inside a character
            mapped.prepare((base + from)..<(base + to))
            if let bad = TextEncoding.firstInvalidUTF8(UnsafeBufferPointer(rebasing: bytes[from..<to])) { return from + bad }
            mapped.release((base + from)..<(base + to))
            from = to
        }
        return nil
    }

    /// Builds a table from the fields of a file as they are read.
    struct TableLoader: CSVSink {
        let types: [String: ColumnType]
        let inputCount: Int
        var header: [String] = []
        /// The columns' unique identifiers (see ``CSV/identifiers(of:)``).
        var identifiers: [String] = []
        /// The first of the trailing columns without a name, which a row may leave out.
        var unnamedTail = 0
        var readAs: [CellReading] = []
        /// How the file's cells are read, but for their types (a `;` file's decimal comma, a date order).
        let reading: CellReading
        var builders: [ColumnBuilder] = []
        /// The builders, unretained, for the per-field path (``builders`` keeps them alive).
        var builderRefs: [Unmanaged<ColumnBuilder>] = []
        var column = 0
        var recordLine = 1
        var lineBreak: [UInt8]?
        var side: [UInt8] = []
        var records = RawRecords()
        var risky = false
        /// Whether the header has been read; with `headerOnly`, reading stops there.
        var pastHeader = false
        let headerOnly: Bool
        /// Where the first record after the header starts.
        var bodyStart: Int?
        /// Which columns to read, asked once the header is read.
        let selection: ColumnSelection?
        /// Whether each column is read (empty: every one); the others are left in the records.
        var kept: [Bool] = []
        /// The mapped file the records are left in, whose cells read are copied to ``side``
        /// (``inputCount`` is then 0) and which is let go of behind the reading.
        let mapped: MappedFile?
        /// Where in the file the reading has not let go of yet, and where it has not asked the
        /// system to map the pages ahead of it (``MappedFile/prepare(_:)``) from.
        var unreleased = 0
        var unprepared = 0

        init(types: [String: ColumnType], inputCount: Int, reading: CellReading, headerOnly: Bool = false,
             columns: ColumnSelection? = nil, mapped: MappedFile? = nil) {
            self.reading = reading
            self.types = types
            self.inputCount = inputCount
            self.headerOnly = headerOnly
            selection = columns
            self.mapped = mapped
        }

        /// Whether column `c`'s cells are read.
        @inline(__always)
        func keeps(_ c: Int) -> Bool { kept.isEmpty || kept[c] }

        /// A loader for part of the body of the file whose header `header` read, the part starting
        /// at `start`; with a mapped file, room is reserved for `cellBytes` bytes of cells copied
        /// out (pages untouched until written).
        init(continuing header: TableLoader, estimatedRecords: Int, from start: Int, cellBytes: Int) {
            mapped = header.mapped
            unreleased = start
            unprepared = start
            if mapped != nil { side = [UInt8](largeCapacity: cellBytes) }
            types = header.types
            inputCount = header.inputCount
            headerOnly = false
            reading = header.reading
            self.header = header.header
            identifiers = header.identifiers
            unnamedTail = header.unnamedTail
            readAs = header.readAs
            selection = header.selection
            kept = header.kept
            lineBreak = header.lineBreak
            pastHeader = true
            records.header = header.records.header
            records.headerRisky = header.records.headerRisky
            records.gap = header.records.gap
            records.reserve(estimatedRecords)
            makeBuilders(estimatedRecords)
        }

        private mutating func makeBuilders(_ capacity: Int) {
            builders = header.indices.map { ColumnBuilder(capacity: keeps($0) ? capacity : 0) }
            builderRefs = builders.map { .passUnretained($0) }
        }

        /// Moves onto this loader's cells and records those another loader read after them; the
        /// other is left without them (its memory given back as they are copied).
        mutating func append(draining other: inout TableLoader) {
            for (mine, theirs) in zip(builders, other.builders) {
                mine.append(draining: theirs, shiftingFrom: inputCount, by: side.count)
            }
            records.append(draining: &other.records)
            side += other.side
            other.side = []
        }

        @inline(__always)
        mutating func field(_ field: UnsafeBufferPointer<UInt8>, last isLast: Bool, _ reader: inout Position) throws(CSVError) -> Bool {
            if let first = field.first, first == 0x3D || first == 0x2B || first == 0x2D || first == 0x40 || first == 0x09
                || first == 0x0D, looksLikeFormula(field) {
                risky = true
            }
            guard pastHeader else {
                try takeHeader(field, isLast, &reader)
                return !(pastHeader && headerOnly)
            }
            if column == 0 { recordLine = reader.recordLine }
            if column < builderRefs.count, keeps(column) {
                let cell = CellText.classify(field, readAs[column])
                let builder = builderRefs[column]
                // Text that starts with a digit may be a day-first date (25/12/2023), which the
                // column's reading looks at once the file is read.
                if cell.kind == .text, let first = field.first, (first &- 48) < 10 {
                    builder._withUnsafeGuaranteedRef { $0.sawTextStartingWithDigit = true }
                }
                if mapped == nil, let offset = reader.fieldOffset {
                    builder._withUnsafeGuaranteedRef { $0.append(start: offset, length: field.count, cell) }
                } else {
                    let start = inputCount + side.count
                    builder._withUnsafeGuaranteedRef { $0.append(start: start, length: field.count, cell) }
                    side.append(contentsOf: field)
                }
            }
            column += 1
            if isLast {
                if column < header.count, column >= unnamedTail {
                    // Trailing columns without a name, left out (as Excel does past a sheet's 16th
                    // row): blank cells, the record kept as it is.
                    for c in column..<header.count where keeps(c) {
                        builderRefs[c]._withUnsafeGuaranteedRef { $0.append(start: reader.recordEnd, length: 0, .missing) }
                    }
                    column = header.count
                }
                guard column == header.count else {
                    throw CSVError(line: recordLine, column: 1, problem: .wrongFieldCount(found: column, expected: header.count))
                }
                records.append(reader.recordStart..<reader.recordEnd, risky: risky)
                risky = false
                column = 0
                if let mapped, reader.recordEnd - unreleased > mapped.readingStep || reader.recordEnd >= unprepared {
                    if reader.recordEnd - unreleased > mapped.readingStep {
                        mapped.release(unreleased..<reader.recordEnd)
                        unreleased = reader.recordEnd
                    }
                    if reader.recordEnd >= unprepared {
                        unprepared = reader.recordEnd + mapped.readingStep
                        mapped.prepare(reader.recordEnd..<unprepared)
                    }
                }
            }
            return true
        }

        private mutating func takeHeader(_ field: UnsafeBufferPointer<UInt8>, _ isLast: Bool, _ reader: inout Position) throws(CSVError) {
            header.append(String(decoding: field, as: UTF8.self))
            guard isLast else { return }
            pastHeader = true
            lineBreak = reader.lineBreak
            bodyStart = reader.nextRecordStart
            identifiers = CSV.identifiers(of: header)
            try checkHeader(header, identifiers: identifiers, types: types)
            unnamedTail = (header.lastIndex { !$0.isEmpty } ?? -1) + 1
            if let selection, let chosen = selection(header.indices.map { Column(identifiers[$0], title: header[$0], type: .text) }) {
                kept = header.indices.map { chosen.contains($0) }
            }
            readAs = identifiers.map { identifier in
                var reading = reading
                reading.type = types[identifier]
                return reading
            }
            if !headerOnly { makeBuilders(reader.estimatedRecords) }
            records.header = reader.recordStart..<reader.recordEnd
            records.headerRisky = risky
            records.gap = reader.lineBreak?.count ?? 1
            records.reserve(reader.estimatedRecords)
            risky = false
        }

        mutating func finish(_ owner: TextOwner, decisions: [ColumnDecision]? = nil, gatherEvidence: Bool = false) throws(CSVError) -> Table {
            guard inputCount + side.count < Int(UInt32.max) else {
                throw CSVError(line: 1, column: 1, problem: .fileTooLarge)
            }
            if header.isEmpty {
                throw CSVError(line: 1, column: 1, problem: .emptyFile)
            }
            var shared: [UInt8]
            switch owner {
            case .array(let input):
                shared = input
                if !side.isEmpty { shared.append(contentsOf: side) }
            case .mapped(let file):
                // The cells read are all in the side buffer; the records stay in the file, none
                // of whose pages is kept (the last stretches read, the header's).
                shared = side
                side = []
                records.mapped = file
                file.releaseAll()
            }
            var stores = builders.indices.map { c in
                keeps(c) ? ColumnStore(builders[c], shared: shared, reading: readAs[c]) : ColumnStore(hollowRows: records.count)
            }
            // Dates whose year comes last (3/1/2024) are read month first unless told: a column
            // whose dates can only be day first (25/12/2023) and never only month first is read so.
            var dateNotes: [DateOrderNote] = []
            let decided = decisions.flatMap { $0.count == stores.count ? $0 : nil }
            var evidence = gatherEvidence ? stores.map { _ in ColumnEvidence() } : []
            for c in stores.indices where keeps(c) && readAs[c].dateOrder == nil && (readAs[c].type == nil || readAs[c].type == .date)
                && (decided != nil || stores[c].census.dates > 0 || builders[c].sawTextStartingWithDigit) {
                if let decided {
                    if decided[c].dayFirst {
                        var reading = readAs[c]
                        reading.dateOrder = .dmy
                        stores[c].reread(reading)
                    }
                    continue
                }
                let found = stores[c].yearLastDates()
                if gatherEvidence { evidence[c].dates = found }
                if found.dayFirst > 0 && found.monthFirst == 0 {
                    var reading = readAs[c]
                    reading.dateOrder = .dmy
                    stores[c].reread(reading)
                } else if found.dayFirst > 0 || (found.either > 0 && found.monthFirst == 0) {
                    let example = found.example ?? ""
                    dateNotes.append(DateOrderNote(column: identifiers[c], example: example, mixed: found.dayFirst > 0))
                }
            }
            // Identifiers of one length, a few with a letter last (身份证号 ending in the check
            // digit X): one run of text in byte order, not numbers with texts after them.
            var identifierColumns = Set<Int>()
            if gatherEvidence {
                for c in stores.indices where keeps(c) && readAs[c].type == nil {
                    evidence[c].census = stores[c].census
                    evidence[c].identifier = stores[c].identifierEvidence()
                }
            }
            for c in stores.indices where keeps(c) && readAs[c].type == nil && (decided.map { $0[c].identifier } ?? stores[c].isIdentifierColumn()) {
                var reading = readAs[c]
                reading.type = .text
                stores[c].reread(reading)
                identifierColumns.insert(c)
            }
            builderRefs = []
            builders = []
            if case .array = owner { records.bytes = shared }
            let columns = header.indices.map { c in
                !keeps(c) ? Column(identifiers[c], title: header[c], type: .text)
                    : identifierColumns.contains(c)
                    ? Column(identifiers[c], title: header[c], type: .text, textComparator: .lexical)
                    : Column(identifiers[c], title: header[c], type: types[identifiers[c]] ?? stores[c].inferredType)
            }
            let table = Table(columns: columns, stores: stores)
            table.dateNotes = dateNotes
            if gatherEvidence { table.columnEvidence = evidence }
            if let lineBreak { table.lineBreak = lineBreak }
            table.rawRecords = records
            return table
        }
    }

    private static func checkHeader(_ header: [String], identifiers: [String], types: [String: ColumnType]) throws(CSVError) {
        if header.count == 1 && header[0].isEmpty {
            throw CSVError(line: 1, column: 1, problem: .emptyFile)
        }
        let known = Set(identifiers)
        for name in types.keys.sorted() where !known.contains(name) {
            throw CSVError(line: 1, column: 1, problem: .unknownColumn(name, columns: identifiers))
        }
    }

    /// Unique identifiers for the columns of a header whose names may repeat or be empty: a
    /// name is its first column's identifier; a later column of the same name is `NAME#2`,
    /// `NAME#3`…; a column without a name is `#N`, N its place from 1. A made identifier that
    /// is already some column's name gets `#N` (and then `#N#2`…) instead.
    public static func identifiers(of header: [String]) -> [String] {
        var used = Set<String>()
        var identifiers = [String?](repeating: nil, count: header.count)
        // Names first: a column's own name is never taken by a made identifier.
        for (c, name) in header.enumerated() where !name.isEmpty && used.insert(name).inserted { identifiers[c] = name }
        var occurrences: [String: Int] = [:]
        for (c, name) in header.enumerated() {
            occurrences[name, default: 0] += 1
            guard identifiers[c] == nil else { continue }
            var candidates = name.isEmpty ? [] : ["\(name)#\(occurrences[name]!)"]
            candidates.append("#\(c + 1)")
            var made = candidates.first { !used.contains($0) }
            var k = 2
            while made == nil {
                if !used.contains("#\(c + 1)#\(k)") { made = "#\(c + 1)#\(k)" }
                k += 1
            }
            used.insert(made!)
            identifiers[c] = made
        }
        return identifiers.map { $0! }
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
    static func read<S: CSVSink>(_ all: UnsafeBufferPointer<UInt8>, from start: Int = 0, delimiter: UInt8 = 0x2C,
                                 _ sink: inout S, releasing mapped: MappedFile? = nil) -> CSVError? {
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
    private static func estimatedRecords(_ b: UnsafeBufferPointer<UInt8>) -> Int {
        let sample = 1 << 18
        guard b.count > sample * 2 else { return lineBreaks(b) + 1 }
        let counted = lineBreaks(UnsafeBufferPointer(rebasing: b[0..<sample]))
        return Int(Double(counted + 1) * Double(b.count) / Double(sample) * 1.1) + 16
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

    private static func scan<S: CSVSink>(_ b: UnsafeBufferPointer<UInt8>, base: Int, delimiter: UInt8,
                                         _ sink: inout S) throws(CSVError) {
        let n = b.count
        let delimiterMask = delimiterWord(delimiter)
        var i = 0
        var line = 1, lineStart = 0
        var position = Position(recordLine: 1, pastHeader: false, byteCount: n, estimatedRecords: estimatedRecords(b))
        var scratch: [UInt8] = []
        var atRecordStart = true
        func error(_ problem: CSVError.Problem, at index: Int, line: Int, lineStart: Int) -> CSVError {
            CSVError(line: line, column: String(decoding: UnsafeBufferPointer(rebasing: b[lineStart..<index]), as: UTF8.self).count + 1,
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
                    throw error(.unclosedQuote, at: open, line: openLine,
                                lineStart: openStart)
                }
                end = i
                i += 1
                if i < n, b[i] != delimiter, b[i] != 0x0A, b[i] != 0x0D {
                    throw error(.textAfterQuote,
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
                        throw error(.quoteInUnquotedField,
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
    private struct FieldPicker: CSVSink {
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
    private static func place(_ b: UnsafeBufferPointer<UInt8>, _ index: Int) -> (Int, Int) {
        var line = 1, lineStart = 0, i = 0
        while i < index {
            if b[i] == 0x0A || (b[i] == 0x0D && !(i + 1 < b.count && b[i + 1] == 0x0A)) { line += 1; lineStart = i + 1 }
            i += 1
        }
        let column = String(decoding: UnsafeBufferPointer(rebasing: b[lineStart..<index]), as: UTF8.self).count + 1
        return (line, column)
    }

    // MARK: Writing

    /// Whether a field must be quoted: it holds the delimiter, a quote, a line break, or starts or
    /// ends with a space or a tab.
    package static func needsQuotes(_ text: UnsafeBufferPointer<UInt8>, delimiter: UInt8 = 0x2C) -> Bool {
        guard let first = text.first, let last = text.last else { return false }
        if first == 0x20 || last == 0x20 || first == 0x09 || last == 0x09 { return true }
        for c in text where c == delimiter || c == 0x22 || c == 0x0A || c == 0x0D { return true }
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

/// What the CSV reader hands each field to.
protocol CSVSink {
    /// Takes a field; `last` when it ends its record. Returns `false` to stop reading.
    mutating func field(_ field: UnsafeBufferPointer<UInt8>, last: Bool, _ position: inout CSV.Position) throws(CSVError) -> Bool
}
