import Foundation
import TrellisText

/// Reading the file: its start (encoding, delimiter, header), its parts, and what its whole
/// reading decides about its columns.
extension ExternalCSVSort {
    /// How many bytes from the descriptor's position end the row under way (at its first line
    /// break outside quotes, `quoted` telling whether it is inside quotes now), read a block at a
    /// time and let go of.
    static func restOfRow(_ fd: Int32, quoted: Bool) -> Int {
        var quoted = quoted, count = 0
        var block = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = block.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; return count }
            if n == 0 { return count }
            for k in 0..<n {
                let c = block[k]
                if c == 0x22 { quoted.toggle() } else if !quoted, c == 0x0A || c == 0x0D { return count + k }
            }
            count += n
        }
    }

    /// A file whose start is UTF-8 and whose text further on is not is read as a file read at once
    /// reads it then: GB18030, else GBK (Windows' code page 936, which has € at 0x80), else it is
    /// in no encoding known — decided when a part turns out not UTF-8 (the sort then starts again
    /// in the encoding found), before anything is written, since CSV output is written in the
    /// file's encoding. A UTF-8 file is read once, not first checked whole.
    func settleEncoding() throws(ExternalSortError) {
        guard options.encoding == nil, !format.byteOrderMark, encoding == .utf8, fileSize > bodyStart else { return }
        guard let invalid = try firstFailure({ block in TextEncoding.firstInvalidUTF8(block) }) else { return }
        for guess in [TextEncoding.gb18030, .gbk]
        where try firstFailure({ block in (try? guess.decode(Array(block))) == nil ? 0 : nil }) == nil {
            try readPrefix(guess: guess)
            return
        }
        // What the file's start reads as (``CSV/likelyEncoding(_:)`` looks at its first 64 KB).
        let start = FileHandle(forReadingAtPath: path).flatMap { try? $0.read(upToCount: (1 << 16) + 1) }.map { [UInt8]($0) } ?? []
        throw .csv(CSVError(line: invalid.line, column: invalid.column, problem: .unknownEncoding(likely: CSV.likelyEncoding(start))))
    }

    /// The line and column of the first byte `check` finds wrong (an offset in the block it is
    /// given), reading the file in blocks of about 4 MB that end at a line feed — which no
    /// character of an encoding read here holds in its bytes — or `nil`.
    func firstFailure(_ check: (UnsafeBufferPointer<UInt8>) -> Int?) throws(ExternalSortError) -> (line: Int, column: Int)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .io("cannot read '\(path)': \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4 << 20)
        var line = 1
        var eof = false
        while !eof || !pending.isEmpty {
            if !eof {
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0 {
                    if errno == EINTR { continue }
                    throw .io("cannot read '\(path)': \(String(cString: strerror(errno)))")
                }
                if n == 0 { eof = true } else { pending += chunk[0..<n] }
            }
            let end = eof ? pending.count : (pending.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0)
            guard end > 0 else { continue }
            // A UTF-8 byte order mark is the text's first character, not text to check.
            let skip = line == 1 && pending.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            let bad = pending.withUnsafeBufferPointer { check(UnsafeBufferPointer(rebasing: $0[skip..<end])) }
            if let bad {
                let before = pending[0..<(skip + bad)]
                let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
                return (line + before.filter { $0 == 0x0A }.count, skip + bad - lineStart + 1)
            }
            line += pending[0..<end].filter { $0 == 0x0A }.count
            pending.removeFirst(end)
        }
        return nil
    }

    // MARK: Reading the file in parts

    /// Reads the file from `bodyStart` in parts of about `partBytes`, each ending at a record
    /// boundary (a line break outside quotes), handing each — after the header record, so that it
    /// reads as a file — with its first line, its first row, whether it is the last and how many
    /// of the file's bytes are read; `body` answers its rows.
    func forEachPart(_ body: (_ part: [UInt8], _ firstLine: Int, _ firstRow: Int, _ last: Bool, _ done: Int) throws(ExternalSortError) -> Int)
        throws(ExternalSortError)
    {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .io("cannot read '\(path)': \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard lseek(fd, off_t(bodyStart), SEEK_SET) == off_t(bodyStart) else { throw .io("cannot read '\(path)': seek failed") }
        var pending: [UInt8] = []
        var eof = false
        let path = self.path
        func fill(_ wanted: Int) throws(ExternalSortError) {
            var chunk = [UInt8](repeating: 0, count: 1 << 20)
            while !eof && pending.count < wanted {
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0 {
                    if errno == EINTR { continue }
                    throw .io("cannot read '\(path)': \(String(cString: strerror(errno)))")
                }
                if n == 0 { eof = true } else { pending.append(contentsOf: chunk[0..<n]) }
            }
        }
        var line = firstBodyLine, row = 0, done = bodyStart
        while true {
            try fill(partBytes)
            if pending.isEmpty { return }
            var quoted = false, lines = 0, i = 0
            var lastBoundary = -1, linesAtBoundary = 0
            var cut = -1, linesAtCut = 0
            var tooLong = false
            let largest = largestRow
            scanning: while true {
                let count = pending.count
                let stop: Bool = pending.withUnsafeBufferPointer { b in
                    while i < count {
                        let c = b[i]
                        if c == 0x22 {
                            quoted.toggle()
                        } else if c == 0x0A || c == 0x0D {
                            if c == 0x0D {
                                if i + 1 == count && !eof { return false }  // CRLF may go on in the next read
                                if i + 1 < count && b[i + 1] == 0x0A { i += 1 }
                            }
                            lines += 1
                            if !quoted {
                                let boundary = i + 1
                                if boundary - max(lastBoundary, 0) > largest {
                                    tooLong = true
                                    return true
                                }
                                if boundary > partBytes {
                                    (cut, linesAtCut) = lastBoundary > 0 ? (lastBoundary, linesAtBoundary) : (boundary, lines)
                                    return true
                                }
                                (lastBoundary, linesAtBoundary) = (boundary, lines)
                            }
                        }
                        i += 1
                    }
                    return false
                }
                if stop && !tooLong { break scanning }
                // One row longer than the memory can sort (a part's rows are held a few times
                // over: the text, the cells, the keys): said, before it is held whole.
                let rowStart = max(lastBoundary, 0)
                if tooLong || pending.count - rowStart > largest {
                    // How long the row is, read on to its end without holding it.
                    let length = tooLong ? i + 1 - rowStart : pending.count - rowStart + Self.restOfRow(fd, quoted: quoted)
                    let shown = Self.shownSize
                    throw .unsupported(
                        "line \(line + linesAtBoundary) of the file starts a row of \(shown(length)), longer than a "
                            + "sort in parts with this memory can hold (rows up to \(shown(largestRow)); a row is held "
                            + "about five times over); give --memory \(shown(Self.memory(forRowOf: length))) or more, or "
                            + "sort a copy without that row")
                }
                if eof && i >= pending.count {
                    (cut, linesAtCut) = (pending.count, lines)
                    break scanning
                }
                try fill(pending.count + (1 << 20))
            }
            let last = eof && cut == pending.count
            // The part as it is read: the header record, then the part's records.
            var part = [UInt8]()
            part.reserveCapacity(headerRecord.count + cut)
            part += headerRecord
            part += pending[0..<cut]
            pending.removeFirst(cut)
            done += cut
            row += try body(part, line, row, last, done)
            line += linesAtCut
            if last { return }
        }
    }

    /// Reads one part (after the header record) as a table: with the file's decisions once they
    /// are made, gathering evidence for them before.
    func table(
        _ bytes: [UInt8], firstLine: Int, last: Bool, decided: Bool,
        reading read: Set<Int>?
    ) throws(ExternalSortError) -> Table {
        let table: Table
        var selection: CSV.ColumnSelection?
        if let read { selection = { _ in read } }
        do {
            table = try CSV.table(
                bytes: bytes, types: options.types, encoding: encoding, delimiter: format.delimiter,
                headerRow: nil, dateOrder: options.dateOrder, splitAbove: 1 << 22,
                decisions: decided ? decisions : nil, gatherEvidence: !decided, columns: selection)
        } catch {
            throw .csv(shifted(error, firstLine: firstLine))
        }
        // Blank lines end a part only at the end of the file: elsewhere they are rows of one field.
        if !last, !table.csvFormat.trailingLines.isEmpty {
            let line = firstLine + Self.lineBreaks(bytes) - Self.lineBreaks(headerRecord) - Self.lineBreaks(table.csvFormat.trailingLines)
            throw .csv(CSVError(line: line, column: 1, problem: .wrongFieldCount(found: 1, expected: columns.count)))
        }
        guard table.columns.count == columns.count else {
            throw .csv(CSVError(line: firstLine, column: 1, problem: .wrongFieldCount(found: table.columns.count, expected: columns.count)))
        }
        return table
    }

    /// An error in a part, its line counted from the top of the file.
    func shifted(_ error: CSVError, firstLine: Int) -> CSVError {
        CSVError(line: max(1, error.line - headerLines + firstLine - 1), column: error.column, problem: error.problem)
    }

    /// The encoding, delimiter, lines above the header and the header itself, from the file's start.
    ///
    /// `guess` is the encoding a file read at once falls back to when its text turns out not to
    /// be UTF-8 further on than this start (GB18030, then GBK): read so, and said to be guessed.
    func readPrefix(guess: TextEncoding? = nil) throws(ExternalSortError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .io("cannot read '\(path)': \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var prefix = [UInt8](repeating: 0, count: min(fileSize, max(1 << 20, min(partBytes, 8 << 20))))
        let n = prefix.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n >= 0 else { throw .io("cannot read '\(path)': \(String(cString: strerror(errno)))") }
        prefix.removeLast(prefix.count - n)
        if let mark = TextEncoding.byteOrderMark(of: prefix), mark.encoding != .utf8 {
            throw .unsupported(
                "'\(path)' is \(mark.encoding.name); a sort in parts reads UTF-8 and the encodings that keep ASCII "
                    + "as it is (GB18030, GBK, Big5, Shift_JIS, Windows-1252, Latin-1): convert it, or give more --memory")
        }
        if let forced = options.encoding, forced == .utf16LittleEndian || forced == .utf16BigEndian {
            throw .unsupported("a sort in parts does not read UTF-16; convert the file to UTF-8, or give more --memory")
        }
        // The prefix cut after its last line break (a file of one unfinished line is all prefix).
        var cut = prefix.count
        if n < fileSize, let lastBreak = prefix.lastIndex(where: { $0 == 0x0A || $0 == 0x0D }) { cut = lastBreak + 1 }
        let head = Array(prefix[0..<cut])
        let table: Table
        do {
            table = try CSV.table(
                bytes: head, types: options.types, encoding: guess ?? options.encoding, delimiter: options.delimiter,
                headerRow: options.headerRow, dateOrder: options.dateOrder, splitAbove: 1 << 22)
        } catch {
            throw .csv(error)
        }
        format = table.csvFormat
        if guess != nil { format.encodingWasGuessed = true }
        encoding = format.encoding
        if encoding == .utf16LittleEndian || encoding == .utf16BigEndian {
            throw .unsupported(
                "'\(path)' is \(encoding.name); a sort in parts reads UTF-8 and the encodings that keep ASCII "
                    + "as it is: convert it, or give more --memory")
        }
        guard let raw = table.rawRecords else { throw .io("cannot read the header of '\(path)'") }
        let lineBreak = table.lineBreak
        // Where the header ends in the decoded text, then in the file's own bytes.
        let decodedEnd = min(raw.bytes.count, raw.header.upperBound + lineBreak.count)
        let header = Array(raw.bytes[raw.header]) + lineBreak
        if encoding == .utf8 {
            bodyStart = decodedEnd
            headerRecord = Array(head[raw.header.lowerBound..<min(head.count, decodedEnd)])
        } else {
            do {
                bodyStart = try encoding.encode(Array(raw.bytes[0..<decodedEnd])).count
                headerRecord = try encoding.encode(header)
            } catch {
                throw .io("cannot read the header of '\(path)': \(error)")
            }
        }
        if header.count == lineBreak.count { headerRecord = [] }
        headerLines = 1 + Self.lineBreaks(Array(header.dropLast(lineBreak.count)))
        firstBodyLine = 1 + Self.lineBreaks(Array(raw.bytes[0..<decodedEnd]))
        columns = table.columns
        if bodyStart > fileSize { bodyStart = fileSize }
        decisions = columns.map { _ in ColumnDecision() }
        exactNumbers = columns.map { _ in false }
    }

    /// Line breaks (LF, CRLF, a lone CR) in `bytes`.
    static func lineBreaks(_ bytes: [UInt8]) -> Int {
        var count = 0
        for i in bytes.indices where bytes[i] == 0x0A || (bytes[i] == 0x0D && !(i + 1 < bytes.count && bytes[i + 1] == 0x0A)) { count += 1 }
        return count
    }

    /// The file's decisions, notes and column types from the evidence of all its parts.
    func decide(from merged: [ColumnEvidence]) {
        decisions = merged.map(\.decision)
        dateNotes = zip(columns, merged).compactMap { column, found in
            options.types[column.identifier] == nil || options.types[column.identifier] == .date ? found.dateNote(column: column.identifier) : nil
        }
        columns = zip(columns, merged).enumerated().map { c, pair in
            let (column, found) = pair
            if decisions[c].identifier && options.types[column.identifier] == nil {
                return Column(column.identifier, title: column.title, type: .text, textComparator: .lexical)
            }
            return Column(column.identifier, title: column.title, type: options.types[column.identifier] ?? found.census.type)
        }
    }

    /// Whether a column holds a number a double cannot order exactly (more than 15 digits, or an
    /// integer past 2⁵³): its numbers are then ordered by their digits.
    static func needsExactNumbers(_ store: ColumnStore) -> Bool {
        for i in 0..<store.count {
            switch store.kinds[i] {
            case .approximate: return true
            case .integer where Int64(bitPattern: store.payload(at: i)).magnitude > 1 << 53: return true
            default: continue
            }
        }
        return false
    }

    /// The header record as the file's decoded text holds it.
    func headerText() -> [UInt8]? {
        guard !headerRecord.isEmpty else { return nil }
        let decoded: [UInt8]
        if encoding == .utf8 {
            decoded = headerRecord
        } else {
            guard let text = try? encoding.decode(headerRecord) else { return nil }
            decoded = text
        }
        return Array(decoded.dropLast(format.lineBreak.count))
    }
}
