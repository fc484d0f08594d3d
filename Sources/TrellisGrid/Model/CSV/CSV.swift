import Foundation
import TrellisText

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
    public static func table(
        bytes input: [UInt8], types: [String: ColumnType] = [:], encoding: TextEncoding? = nil,
        delimiter: UInt8? = nil, headerRow: Int? = nil, dateOrder: DateOrder? = nil
    ) throws(CSVError) -> Table {
        try table(
            bytes: input, types: types, encoding: encoding, delimiter: delimiter, headerRow: headerRow, dateOrder: dateOrder,
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
    public static func table(
        bytes input: [UInt8], types: [String: ColumnType] = [:], encoding: TextEncoding? = nil,
        delimiter: UInt8? = nil, headerRow: Int? = nil, dateOrder: DateOrder? = nil,
        reading columns: ColumnSelection?
    ) throws(CSVError) -> Table {
        try table(
            bytes: input, types: types, encoding: encoding, delimiter: delimiter, headerRow: headerRow, dateOrder: dateOrder,
            splitAbove: 1 << 22, columns: columns)
    }

    /// ``table(bytes:types:encoding:delimiter:headerRow:dateOrder:)``, reading in two halves at once when the file has
    /// more than `splitAbove` bytes (the tests split small files).
    ///
    /// A part of a larger file read on its own (an external sort's) is given the whole file's
    /// `decisions` about its columns instead of making its own, and with `gatherEvidence` keeps
    /// what its cells show (``Table/columnEvidence``) for those decisions.
    static func table(
        bytes input: [UInt8], types: [String: ColumnType], encoding forced: TextEncoding? = nil,
        delimiter forcedDelimiter: UInt8? = nil, headerRow: Int? = nil, dateOrder: DateOrder? = nil,
        splitAbove: Int, decisions: [ColumnDecision]? = nil, gatherEvidence: Bool = false,
        columns: ColumnSelection? = nil
    ) throws(CSVError) -> Table {
        guard input.count < Int(UInt32.max) else {
            throw CSVError(line: 1, column: 1, problem: .fileTooLarge)
        }
        if let headerRow, headerRow < 1 {
            throw CSVError(line: 1, column: 1, problem: .other("the header row is counted from 1; \(headerRow) is not a line of the file"))
        }
        var format = CSVFormat()
        // (A workbook is named whatever encoding is given: no encoding reads it.)
        if forced == nil || isWorkbook(input), let problem = notATextTable(input) { throw problem }
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
                try readText(
                    buffer, owner: .array(text), format: &format, types: types, delimiter: forcedDelimiter, headerRow: headerRow,
                    dateOrder: dateOrder, splitAbove: splitAbove, decisions: decisions, gatherEvidence: gatherEvidence,
                    columns: columns)
            }
        }
        let table: Table
        do {
            table = try read(text)
        } catch  where error.problem == .invalidUTF8 && forced == nil && encoding == .utf8 {
            // UTF-8 but for a character cut at the very end: the file was cut short.
            if let cut = cutShort(input, .utf8) { throw cut }
            // Not UTF-8: Chinese Excel's default is next most likely — GB18030, or GBK as Windows
            // writes it (code page 936 has € at 0x80, which GB18030 lacks).
            guard
                let (guess, text) = [TextEncoding.gb18030, .gbk].lazy
                    .compactMap({ encoding in (try? encoding.decode(input)).map { (encoding, $0) } }).first
            else {
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
    package static func table(
        mapped file: MappedFile, types: [String: ColumnType] = [:], encoding forced: TextEncoding? = nil,
        delimiter: UInt8? = nil, headerRow: Int? = nil, dateOrder: DateOrder? = nil,
        reading columns: ColumnSelection?, splitAbove: Int = 1 << 22
    ) throws(CSVError) -> Table {
        guard file.bytes.count < Int(UInt32.max) else {
            throw CSVError(line: 1, column: 1, problem: .fileTooLarge)
        }
        let head = Array(file.bytes.prefix(4096))
        let marked = TextEncoding.byteOrderMark(of: head)
        if (forced ?? marked?.encoding ?? utf16WithoutMark(head) ?? .utf8) == .utf8, headerRow.map({ $0 >= 1 }) ?? true {
            var format = CSVFormat()
            format.byteOrderMark = marked?.encoding == .utf8
            do {
                let table = try readText(
                    file.bytes, owner: .mapped(file), format: &format, types: types, delimiter: delimiter,
                    headerRow: headerRow, dateOrder: dateOrder, splitAbove: splitAbove, decisions: nil,
                    gatherEvidence: false, columns: columns)
                file.releaseAll()
                format.encoding = .utf8
                format.lineBreak = table.lineBreak
                table.csvFormat = format
                return table
            } catch  where error.problem == .invalidUTF8 && forced == nil {
                // Another encoding, which the reading of a copy finds.
                file.releaseAll()
            }
        }
        return try table(
            bytes: Array(file.bytes), types: types, encoding: forced, delimiter: delimiter, headerRow: headerRow,
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
    static func readText(
        _ text: UnsafeBufferPointer<UInt8>, owner: TextOwner, format: inout CSVFormat,
        types: [String: ColumnType], delimiter forcedDelimiter: UInt8?, headerRow: Int?,
        dateOrder: DateOrder?, splitAbove: Int, decisions: [ColumnDecision]?, gatherEvidence: Bool,
        columns: ColumnSelection?
    ) throws(CSVError) -> Table {
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
        // A header of several lines (pandas' MultiIndex, a row of units): its lines above the
        // last are kept as the lines above a header are, and the columns are named by all of
        // them. Looked for in a file read whole, not told its header row (`--header-row 1`
        // reads the row under the header as a row), not in a part of a file read on its own.
        format.headerLines = 1
        var headerAbove: [[String]] = []
        if headerRow == nil, decisions == nil, !gatherEvidence, format.likelyHeaderLine == nil,
            let block = headerBlock(
                text, from: start, upTo: endOfRecords(text, from: start, delimiter: delimiter), delimiter: delimiter,
                reading: CellReading(decimalComma: delimiter == 0x3B, dateOrder: dateOrder)),
            let last = try? startOfLine(1 + skippedLines + block.rows, in: text, from: start, firstLine: 1 + skippedLines)
        {
            format.leadingLines = Array(text[start..<last])
            format.headerLines = 1 + block.rows
            headerAbove = block.above
            start = last
            skippedLines += block.rows
        }
        // Blank lines after the last record (spreadsheets' exports often end so) are not
        // records: they are kept as they were and written back after the rows.
        var end = endOfRecords(text, from: start, delimiter: delimiter)
        format.trailingLines = Array(text[end...])
        format.footerLine = nil
        do throws(CSVError) {
            let reading = CellReading(decimalComma: delimiter == 0x3B, dateOrder: dateOrder)
            do throws(CSVError) {
                return try parseTable(
                    text, owner: owner, from: start, upTo: end, types: types, reading: reading, delimiter: delimiter,
                    splitAbove: splitAbove, decisions: decisions, gatherEvidence: gatherEvidence, columns: columns,
                    headerAbove: headerAbove)
            } catch {
                guard format.likelyHeaderLine == nil else { throw error }
                // Lines after the table (a statement's totals and notes): from the first line of
                // another width to the end, when no record of the header's width follows. They
                // are kept aside as the blank lines after the records are, and written back.
                guard case .wrongFieldCount = error.problem,
                    let footer = try? footerStart(text, from: start, line: error.line, upTo: end, delimiter: delimiter)
                else { throw error }
                format.trailingLines = Array(text[footer...])
                format.footerLine = error.line + skippedLines
                end = footer
                return try parseTable(
                    text, owner: owner, from: start, upTo: end, types: types, reading: reading, delimiter: delimiter,
                    splitAbove: splitAbove, decisions: decisions, gatherEvidence: gatherEvidence, columns: columns,
                    headerAbove: headerAbove)
            }
        } catch {
            // Lines are counted from the top of the file; a title above the header is named.
            var problem = error.problem
            if case .wrongFieldCount = problem, let likely = format.likelyHeaderLine {
                problem = .other(
                    problem.message + "; line 1 looks like a title above the header (one cell, then a blank line): "
                        + "if the header is line \(likely), give --header-row \(likely)")
            }
            throw CSVError(line: error.line + skippedLines, column: error.column, problem: problem)
        }
    }

    /// Parses UTF-8 text (its bytes from `start` to `end`, the header first) into a table whose
    /// cells keep their text in it; lines are counted from `start`.
    static func parseTable(
        _ whole: UnsafeBufferPointer<UInt8>, owner: TextOwner, from start: Int, upTo end: Int,
        types: [String: ColumnType], reading: CellReading, delimiter: UInt8, splitAbove: Int,
        decisions: [ColumnDecision]?, gatherEvidence: Bool, columns: ColumnSelection?, headerAbove: [[String]] = []
    ) throws(CSVError) -> Table {
        // Offsets stay offsets into the whole text, which the table keeps (or the file, whose
        // records are left there: the cells read are then copied out, each after the others).
        let all = UnsafeBufferPointer(rebasing: whole[..<end])
        var mapped: MappedFile?
        if case .mapped(let file) = owner { mapped = file }
        let inputCount = mapped == nil ? whole.count : 0
        var loader: TableLoader
        // A large file is read in two halves at once, split at a record boundary.
        if all.count - start > splitAbove, ProcessInfo.processInfo.activeProcessorCount > 1,
            let result = readInHalves(
                all, from: start, inputCount: inputCount, types: types, reading: reading, delimiter: delimiter,
                columns: columns, mapped: mapped, headerAbove: headerAbove)
        {
            loader = try result.get()
        } else {
            loader = TableLoader(types: types, inputCount: inputCount, reading: reading, columns: columns, mapped: mapped)
            loader.headerAbove = headerAbove
            if let error = read(all, from: start, delimiter: delimiter, &loader, releasing: mapped) { throw error }
        }
        return try loader.finish(owner, decisions: decisions, gatherEvidence: gatherEvidence)
    }

    /// Reads the header, then the two halves of the body on two threads; `nil` when the body
    /// has no safe place to split.
    static func readInHalves(
        _ all: UnsafeBufferPointer<UInt8>, from start: Int, inputCount: Int, types: [String: ColumnType],
        reading: CellReading, delimiter: UInt8, columns: ColumnSelection?,
        mapped: MappedFile?, headerAbove: [[String]] = []
    ) -> Result<TableLoader, CSVError>? {
        // The header, from the first 64 KB (a longer header is read with the rest, on one thread).
        var header = TableLoader(
            types: types, inputCount: inputCount, reading: reading, headerOnly: true, columns: columns,
            mapped: mapped)
        header.headerAbove = headerAbove
        var prefix = min(all.count, start + (1 << 16))
        while prefix < all.count, (all[prefix] & 0xC0) == 0x80 { prefix += 1 }  // not inside a character
        if let error = read(UnsafeBufferPointer(rebasing: all[0..<prefix]), from: start, delimiter: delimiter, &header) {
            return .failure(error)
        }
        guard header.pastHeader, let bodyStart = header.bodyStart, bodyStart < prefix,
            let split = recordBoundary(all, from: bodyStart, near: bodyStart + (all.count - bodyStart) / 2)
        else { return nil }
        let ranges = [bodyStart..<split, split..<all.count]
        let estimates = ranges.map { estimatedRecords(UnsafeBufferPointer(rebasing: all[$0])) }
        // The first half has room for the whole body reserved (pages untouched until written),
        // so that the second is appended to it without moving it: what is held at the end is
        // the second half twice, not the whole body.
        var halves = [
            TableLoader(
                continuing: header, estimatedRecords: estimates[0] + estimates[1], from: ranges[0].lowerBound,
                cellBytes: ranges[0].count + ranges[1].count),
            TableLoader(
                continuing: header, estimatedRecords: estimates[1], from: ranges[1].lowerBound,
                cellBytes: ranges[1].count),
        ]
        var errors: [CSVError?] = [nil, nil]
        halves.withUnsafeMutableBufferPointer { loaders in
            errors.withUnsafeMutableBufferPointer { errors in
                // Each thread touches only its own half, loader and error.
                let shared = Unchecked((all, loaders, errors))
                Tuning.concurrentPerform(iterations: 2) { k in
                    let (all, loaders, errors) = shared.value
                    errors[k] = readBody(all, ranges[k], delimiter: delimiter, &loaders[k], releasing: mapped)
                }
            }
        }
        for (k, error) in errors.enumerated() {
            guard var error else { continue }
            // Lines are counted from the start of the half.
            error = CSVError(
                line: error.line + lineCount(all, from: start, upTo: ranges[k].lowerBound), column: error.column,
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
    static func recordBoundary(_ b: UnsafeBufferPointer<UInt8>, from start: Int, near middle: Int) -> Int? {
        var inQuotes = false
        var i = start
        while i < middle {
            if b[i] == 0x22 { inQuotes.toggle() }
            i += 1
        }
        while i < b.count {
            let c = b[i]
            if c == 0x22 {
                inQuotes.toggle()
            } else if !inQuotes, c == 0x0A || c == 0x0D {
                if c == 0x0D, i + 1 < b.count, b[i + 1] == 0x0A { i += 1 }
                return i + 1 < b.count ? i + 1 : nil
            }
            i += 1
        }
        return nil
    }

    /// The number of line breaks (LF, CRLF, lone CR) from `start` to `end`.
    static func lineCount(_ b: UnsafeBufferPointer<UInt8>, from start: Int, upTo end: Int) -> Int {
        var count = 0, i = start
        while i < end {
            if b[i] == 0x0A || (b[i] == 0x0D && !(i + 1 < b.count && b[i + 1] == 0x0A)) { count += 1 }
            i += 1
        }
        return count
    }

    /// Reads the records in `range` of `all` (which starts and ends at record boundaries).
    static func readBody<S: CSVSink>(
        _ all: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, delimiter: UInt8,
        _ sink: inout S, releasing mapped: MappedFile? = nil
    ) -> CSVError? {
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
    static func firstInvalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>, at base: Int, releasing mapped: MappedFile?) -> Int? {
        guard let mapped else { return TextEncoding.firstInvalidUTF8(bytes) }
        var from = 0
        while from < bytes.count {
            var to = min(bytes.count, from + mapped.readingStep)
            while to < bytes.count, bytes[to] & 0xC0 == 0x80 { to += 1 }  // not inside a character
            mapped.prepare((base + from)..<(base + to))
            if let bad = TextEncoding.firstInvalidUTF8(UnsafeBufferPointer(rebasing: bytes[from..<to])) { return from + bad }
            mapped.release((base + from)..<(base + to))
            from = to
        }
        return nil
    }
}
