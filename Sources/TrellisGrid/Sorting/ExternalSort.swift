import Foundation
import TrellisText

/// A sort of a CSV file larger than the memory it may use: the file is read in parts that fit,
/// each part's rows are sorted and written to a run file, and the runs are merged into the output.
/// The output is byte for byte what ``DataGrid`` and CSV output give for the whole file read at
/// once — the same column types, pinned rows, ties in file order — with the file's records copied
/// as they are.
///
/// The file is read twice: once for what decides how its columns are read (the type most of a
/// column's cells hold, dates written day first, identifiers of one length), once to sort. Each
/// row's keys are written as bytes whose order is the sort's (see ``KeyBytes``), so that a part
/// is sorted and the runs merged by comparing bytes alone.
///
/// ```swift
/// let sort = try ExternalCSVSort(path: "big.csv", options: .init(memory: 256 << 20))
/// let output = TextOutput(.fileDescriptor(STDOUT_FILENO))
/// let report = try sort.sort(by: [SortKey("score", .descending)], pins: [], to: output)
/// ```
///
/// Run files live in a folder made beside the output (``Options/folder``); each is unlinked as
/// soon as it is opened, so that nothing is left behind however the process ends, and the folder
/// is removed when the sort ends (``TemporaryPaths`` lets a signal handler remove it too).
public final class ExternalCSVSort {
    public struct Options: Sendable {
        /// The memory the sort may use, in bytes, the program's own included: the parts read at
        /// once are about a seventh of what the program leaves (see ``workingMemory(_:)``).
        public var memory: Int
        /// Where the folder of run files is made.
        public var folder: URL
        /// Column types given (`--type`), and how the file is read (`nil`: found as a file read at
        /// once finds it).
        public var types: [String: ColumnType] = [:]
        public var encoding: TextEncoding?
        public var delimiter: UInt8?
        public var headerRow: Int?
        public var dateOrder: DateOrder?
        /// The delimiter written, when not the file's own: records are then written field by field.
        public var outputDelimiter: UInt8?
        /// The encoding the output is written in; `nil`: the file's. An output opened in the
        /// encoding the file was first taken to be (UTF-8) is switched to the one its text turns
        /// out to be in, before anything is written to it.
        public var outputEncoding: TextEncoding?
        /// Called now and then with the share of the work done (0…1) and the rows read so far.
        public var progress: (@Sendable (_ fraction: Double, _ rows: Int) -> Void)?

        public init(memory: Int, folder: URL = URL(fileURLWithPath: NSTemporaryDirectory())) {
            self.memory = memory
            self.folder = folder
        }
    }

    /// What the sort found, for the messages a sort in memory gives.
    public struct Report: Sendable {
        /// The rows of the file (pinned rows included).
        public var rows = 0
        /// How many runs were written (1 for a file that fitted in one part).
        public var runs = 0
        /// How many times the parts were read and sorted: 1, or 2 where a part read alone read a
        /// column otherwise than the whole file does (3 where the file's types then changed too).
        public var readings = 1
        public var typeWarnings: [TypeWarning] = []
        public var unmatchedPins: [RowPin] = []
        /// The first cell of the first and the last two rows, and whether each was pinned: what a
        /// hint about a summary row left in the body looks at.
        public var edgeRows: [(row: Int, label: String, pinned: Bool)] = []
        /// Pinned rows labelled as a summary (平均, 合计, …) whose numbers are not the body's.
        public var summaryDisagreements: [SummaryDisagreement] = []

        public init() {}
    }

    /// What the program itself takes before it reads a byte (its code, the Swift runtime, ICU's
    /// tables): about 32 MB, which the memory given must cover too.
    static let programBytes = 32 << 20

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

    /// A size for messages: `1.2 GB`, `512 MB`, `293 KB`.
    public static func shownSize(_ bytes: Int) -> String {
        let units = ["bytes", "KB", "MB", "GB", "TB"]
        var value = Double(bytes), unit = 0
        while value >= 1024, unit < units.count - 1 { value /= 1024; unit += 1 }
        return unit == 0 ? "\(bytes) bytes" : (value < 10 ? String(format: "%.1f %@", value, units[unit]) : "\(Int(value.rounded())) \(units[unit])")
    }

    /// The longest row a sort in parts takes: a fifth of its working memory (a part's rows are
    /// held about five times over while they are sorted), and never less than a part.
    var largestRow: Int { max(partBytes, Self.workingMemory(options.memory) / 5) }

    /// The memory a sort in parts needs to take a row of `bytes` (at least).
    static func memory(forRowOf bytes: Int) -> Int { bytes * 5 + programBytes }

    /// The memory left for the sort's own work: parts of a seventh of it (a part's table, keys and
    /// order take about six times its bytes), and the runs' read buffers half of it.
    static func workingMemory(_ memory: Int) -> Int { max(memory / 4, memory - programBytes) }

    /// The most runs merged at once; more are merged in groups first.
    nonisolated(unsafe) static var fanIn = 128
    /// The smallest part read at once, whatever the memory given (the tests lower it to make
    /// dozens of runs of a small file; results never depend on it).
    nonisolated(unsafe) static var minimumPartBytes = 64 << 10

    public let path: String
    public let options: Options
    /// The columns, as a file read at once names and types them.
    public private(set) var columns: [Column] = []
    /// How the file is written (encoding, delimiter, line break, lines around the records).
    public private(set) var format = CSVFormat()
    /// The notes a file read at once gives about dates whose order it guessed.
    public private(set) var dateNotes: [DateOrderNote] = []

    private let fileSize: Int
    /// The file's bytes before the first record, and the header record with its line break (raw,
    /// as the file holds them), which every part is read after.
    private var bodyStart = 0
    private var headerRecord: [UInt8] = []
    private var headerLines = 1
    private var firstBodyLine = 2
    private var decisions: [ColumnDecision] = []
    private var exactNumbers: [Bool] = []
    private var encoding: TextEncoding = .utf8
    private var partBytes: Int

    /// Opens the file and reads what the sort needs to know first: its encoding, delimiter,
    /// header and columns (typed as the file's start shows them until the sort has read it all).
    public init(path: String, options: Options) throws(ExternalSortError) {
        self.path = path
        self.options = options
        var info = stat()
        guard stat(path, &info) == 0 else { throw .io("cannot read '\(path)': \(String(cString: strerror(errno)))") }
        fileSize = Int(info.st_size)
        partBytes = max(Self.minimumPartBytes, Self.workingMemory(options.memory) / 7)
        try readPrefix()
        // UTF-8 so far, but not yet read to the end: settled by the sort's first reading.
        encodingSettled = !(options.encoding == nil && !format.byteOrderMark && encoding == .utf8 && fileSize > bodyStart)
    }

    /// Whether the file's encoding is known for the whole file: `false` while it is UTF-8 as far
    /// as it was read (its start), which the sort's first reading of every part then checks.
    private var encodingSettled = true

    /// A file whose start is UTF-8 and whose text further on is not is read as a file read at once
    /// reads it then: GB18030, else GBK (Windows' code page 936, which has € at 0x80), else it is
    /// in no encoding known — decided when a part turns out not UTF-8 (the sort then starts again
    /// in the encoding found), before anything is written, since CSV output is written in the
    /// file's encoding. A UTF-8 file is read once, not first checked whole.
    private func settleEncoding() throws(ExternalSortError) {
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
    private func firstFailure(_ check: (UnsafeBufferPointer<UInt8>) -> Int?) throws(ExternalSortError) -> (line: Int, column: Int)? {
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
    private func forEachPart(_ body: (_ part: [UInt8], _ firstLine: Int, _ firstRow: Int, _ last: Bool, _ done: Int) throws(ExternalSortError) -> Int)
        throws(ExternalSortError) {
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
                                if i + 1 == count && !eof { return false }   // CRLF may go on in the next read
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
                    throw .unsupported("line \(line + linesAtBoundary) of the file starts a row of \(shown(length)), longer than a "
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
    private func table(_ bytes: [UInt8], firstLine: Int, last: Bool, decided: Bool,
                       reading read: Set<Int>?) throws(ExternalSortError) -> Table {
        let table: Table
        var selection: CSV.ColumnSelection?
        if let read { selection = { _ in read } }
        do {
            table = try CSV.table(bytes: bytes, types: options.types, encoding: encoding, delimiter: format.delimiter,
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
    private func shifted(_ error: CSVError, firstLine: Int) -> CSVError {
        CSVError(line: max(1, error.line - headerLines + firstLine - 1), column: error.column, problem: error.problem)
    }

    /// The encoding, delimiter, lines above the header and the header itself, from the file's start.
    ///
    /// `guess` is the encoding a file read at once falls back to when its text turns out not to
    /// be UTF-8 further on than this start (GB18030, then GBK): read so, and said to be guessed.
    private func readPrefix(guess: TextEncoding? = nil) throws(ExternalSortError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .io("cannot read '\(path)': \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var prefix = [UInt8](repeating: 0, count: min(fileSize, max(1 << 20, min(partBytes, 8 << 20))))
        let n = prefix.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n >= 0 else { throw .io("cannot read '\(path)': \(String(cString: strerror(errno)))") }
        prefix.removeLast(prefix.count - n)
        if let mark = TextEncoding.byteOrderMark(of: prefix), mark.encoding != .utf8 {
            throw .unsupported("'\(path)' is \(mark.encoding.name); a sort in parts reads UTF-8 and the encodings that keep ASCII "
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
            table = try CSV.table(bytes: head, types: options.types, encoding: guess ?? options.encoding, delimiter: options.delimiter,
                                  headerRow: options.headerRow, dateOrder: options.dateOrder, splitAbove: 1 << 22)
        } catch {
            throw .csv(error)
        }
        format = table.csvFormat
        if guess != nil { format.encodingWasGuessed = true }
        encoding = format.encoding
        if encoding == .utf16LittleEndian || encoding == .utf16BigEndian {
            throw .unsupported("'\(path)' is \(encoding.name); a sort in parts reads UTF-8 and the encodings that keep ASCII "
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
    private func decide(from merged: [ColumnEvidence]) {
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

    // MARK: Sorting

    /// Sorts the file by `keys`, `pins` taking their rows out first (in pin order, each row to the
    /// first pin that takes it), and writes it as CSV to `output`, with `summaries` computed over
    /// the body — as a ``DataGrid`` bound to the whole file with these pins and summaries writes it.
    public func sort(by keys: [SortKey], pins: [DisplayOrder.Pin], summaries: [SummaryRow] = [],
                     to output: TextOutput) throws(ExternalSortError) -> Report {
        try sort(SortPlan(keys: keys, pins: pins, summaries: summaries), to: output)
    }

    /// Carries out `plan` on the file and writes the result as CSV to `output`: byte for byte
    /// what a ``DataGrid`` bound to the whole file with this plan writes. An app's own order and
    /// custom comparators and summary functions are closures of the app, which a sort in parts
    /// does not call: such a plan is refused.
    public func sort(_ plan: SortPlan, to output: TextOutput) throws(ExternalSortError) -> Report {
        let firstTaken = format.encoding
        do {
            return try sortOnce(plan, to: output, firstTaken: firstTaken)
        } catch .csv(let error) where !encodingSettled {
            guard case .invalidUTF8 = error.problem else { throw .csv(error) }
            // A part is not UTF-8: what is the whole file in? (Throws when it is in none known.)
            try settleEncoding()
            encodingSettled = true
            guard encoding != .utf8 else { throw .csv(error) }
            return try sortOnce(plan, to: output, firstTaken: firstTaken)
        }
    }

    private func sortOnce(_ plan: SortPlan, to output: TextOutput, firstTaken: TextEncoding) throws(ExternalSortError) -> Report {
        if plan.custom != nil { throw .unsupported("a sort in parts orders by the sort keys only, not by an app's own order") }
        if plan.summaries.contains(where: { if case .custom = $0.function { true } else { false } }) {
            throw .unsupported("a sort in parts computes the built-in summaries only")
        }
        if plan.keys.contains(where: { if case .custom = $0.comparator { true } else { false } }) {
            throw .unsupported("a sort in parts compares with the built-in comparators only")
        }
        let bound: BoundSortPlan
        do throws(SortError) {
            bound = try BoundSortPlan(plan, columns: columns)
            try bound.checkSummaryColumns()
        } catch {
            throw .sort(error)
        }
        let pins = plan.pins, summaries = plan.summaries, keys = plan.keys
        let resolved = bound.keys
        let extremes = bound.extremeColumns
        let folder = try TemporaryPaths.makeFolder(in: options.folder)
        defer { TemporaryPaths.removeFolder(folder) }
        var report = Report()
        var runs: [RunFile] = []
        var pinned = [[PinnedRow]](repeating: [], count: pins.count)
        var pinnedStores: [ColumnStore] = []
        var parts = PartsSummary(columnCount: 0, everyRowInBody: true, extremes: [])
        var typeCounts = [TypeCounts](repeating: TypeCounts(), count: columns.count)
        var matched = [Bool](repeating: false, count: pins.count)
        let total = max(1, fileSize)
        var lastLabels: [(row: Int, label: String, pinned: Bool)] = []
        // The types the first reading found are those of its parts' own readings of their dates;
        // read with the file's, a key column that turns out a number column (or stops being one)
        // reads NaN otherwise, and the parts are sorted again.
        // The first reading reads each part as the part alone shows its columns, and types them
        // as the file's start does; it is the sort when the whole file, once read, agrees — each
        // part's reading of its dates and identifiers, the columns' types and comparators, numbers
        // a double holds — which is nearly always. Otherwise the parts are read again, each told
        // what the file decided.
        var evidence: [ColumnEvidence]?
        var partDecisions = Set<[ColumnDecision]>()
        var exactSeen = columns.map { _ in false }
        let keyColumns = Set(resolved.map(\.column))
        // What a sort at once to CSV reads: the key and summary columns, unless pins check every
        // number column or the records are written again field by field; the others stay in
        // each part's records.
        let read: Set<Int>? = pins.isEmpty && options.outputDelimiter == nil
            ? keyColumns.union(summaries.flatMap(\.columns).compactMap { name in columns.firstIndex { $0.identifier == name } })
            : nil
        for attempt in 0..<3 {
        let decided = attempt > 0
        report = Report()
        report.readings = attempt + 1
        runs = []
        pinned = [[PinnedRow]](repeating: [], count: pins.count)
        pinnedStores = columns.map { _ in ColumnStore() }
        parts = PartsSummary(columnCount: columns.count, everyRowInBody: pins.isEmpty, extremes: extremes)
        typeCounts = [TypeCounts](repeating: TypeCounts(), count: columns.count)
        matched = [Bool](repeating: false, count: pins.count)
        lastLabels = []
        var census = [KindCensus](repeating: KindCensus(), count: columns.count)
        try forEachPart { part, firstLine, firstRow, last, done throws(ExternalSortError) in
            let parsed = try self.table(part, firstLine: firstLine, last: last, decided: decided, reading: read)
            if last { self.trailingLines = parsed.csvFormat.trailingLines }
            if !decided {
                let found = parsed.columnEvidence ?? []
                partDecisions.insert(found.map(\.decision))
                evidence = evidence.map { zip($0, found).map { $0.merged(with: $1) } } ?? found
            }
            for c in 0..<parsed.storeCount where !exactSeen[c] && !parsed.isUnread(c) {
                exactSeen[c] = Self.needsExactNumbers(parsed.store(c))
            }
            for c in census.indices where !parsed.isUnread(c) { census[c].add(parsed.store(c).census) }
            let table = parsed.withColumns(self.columns)
            let count = table.rowCount
            // Rows taken by pins, in pin order.
            let pinOf = bound.assignPins(count: count, firstRow: firstRow, matched: &matched) { row, column, target in
                table.store(column).withText(at: row) { target.matches($0) }
            }
            let body = pins.isEmpty ? Array(0..<count) : (0..<count).filter { pinOf[$0] < 0 }
            let records = Records(table: table, outputDelimiter: self.options.outputDelimiter)
            for row in 0..<count where !pins.isEmpty && pinOf[row] >= 0 {
                // The pinned row, kept with its cells for the summaries that check or recompute it.
                let at = pinnedStores.first?.count ?? 0
                for c in pinnedStores.indices {
                    let store = table.store(c)
                    let cell = store.cell(at: row)
                    _ = store.withText(at: row) { pinnedStores[c].append($0, cell) }
                }
                pinned[Int(pinOf[row])].append(PinnedRow(row: firstRow + row, record: records.record(row), stored: at))
            }
            if !summaries.isEmpty || !pins.isEmpty { parts.add(table, body: body, exactNumbers: self.exactNumbers) }
            for c in keyColumns { typeCounts[c].count(table.store(c), rows: body, firstRow: firstRow) }
            // The rows a summary-row hint looks at.
            if firstRow == 0, count > 0 {
                report.edgeRows.append((0, table.text(row: 0, column: 0), !pins.isEmpty && pinOf[0] >= 0))
            }
            for row in max(0, count - 2)..<count {
                lastLabels.append((firstRow + row, table.text(row: row, column: 0), !pins.isEmpty && pinOf[row] >= 0))
            }
            lastLabels = Array(lastLabels.suffix(2))
            // The body's rows by their keys' bytes, written as a run.
            let keyBytes = KeyBytes(table: table, rows: body, firstRow: firstRow, keys: resolved, exactNumbers: self.exactNumbers)
            let order = keyBytes.sortedPositions()
            var writer = try RunWriter(in: folder)
            try keyBytes.withKeys { key throws(ExternalSortError) in
                if let raw = records.raw {
                    // Each row's record span, in the body's order (read in sequence), then the
                    // rows in key order with one jump each into the keys and the part.
                    let spans = body.map { raw.place($0) }
                    try raw.bytes.withUnsafeBufferPointer { part throws(ExternalSortError) in
                        for position in order {
                            let span = spans[position]
                            let record = UnsafeBufferPointer(rebasing: part[Int(span >> 32)..<Int(span & 0xFFFF_FFFF)])
                            try writer.append(key: key(position), record: record)
                        }
                    }
                } else {
                    for position in order {
                        let record = records.record(body[position])
                        try record.withUnsafeBufferPointer { record throws(ExternalSortError) in
                            try writer.append(key: key(position), record: record)
                        }
                    }
                }
            }
            runs.append(try writer.finish())
            report.rows += count
            options.progress?(0.3 + 0.4 * Double(done) / Double(total), report.rows)
            return count
        }
        if !decided {
            // What the whole file decides, against what the first reading assumed.
            let assumed = columns
            let merged = evidence ?? columns.map { _ in ColumnEvidence() }
            decide(from: merged)
            let partsAgree = partDecisions.allSatisfy { $0 == decisions }
            // (A column left in the records is text in every part, whatever the file's start showed.)
            let sameColumns = columns.indices.allSatisfy { c in
                read.map { !$0.contains(c) } == true
                    || (assumed[c].type.isNumeric == columns[c].type.isNumeric && assumed[c].textComparator == columns[c].textComparator)
            }
            let keyed = keyColumns.union(extremes)
            let sameNumbers = keyed.allSatisfy { !exactSeen[$0] }
            exactNumbers = exactSeen
            if partsAgree && sameColumns && sameNumbers { break }
            continue
        }
        var redo = false
        for c in columns.indices where !(decisions[c].identifier && options.types[columns[c].identifier] == nil)
            && options.types[columns[c].identifier] == nil {
            let type = census[c].type
            if type.isNumeric != columns[c].type.isNumeric, keyColumns.contains(c) { redo = true }
            columns[c].type = type
        }
        if !redo || attempt == 2 { break }
        }
        report.edgeRows += lastLabels.filter { last in !report.edgeRows.contains { $0.row == last.row } }
        report.runs = runs.count
        report.unmatchedPins = pins.indices.filter { !matched[$0] }.map { pins[$0].rows }
        // As a sort at once says them: in the columns the keys read.
        report.typeWarnings = columns.enumerated().flatMap { c, column in
            keyColumns.contains(c) ? typeCounts[c].warnings(column) : []
        }.map { warning in
            var warning = warning
            warning.descending = keys.first { $0.column == warning.column }?.direction == .descending
            return warning
        }
        // The summaries of the body: the pinned rows checked or recomputed, the summary rows.
        let pinnedTable = Table(columns: columns, stores: pinnedStores)
        var arithmetic = SummaryArithmetic(pinned: pinnedTable, parts: parts)
        var recomputed: [Int: [Int: SummaryCell]] = [:]
        var labelled: [(row: Int, stored: Int, label: String)] = []
        for (p, rows) in pinned.enumerated() {
            for row in rows {
                switch bound.cells(ofPin: p) {
                case .recomputed(let function, let precision):
                    recomputed[row.stored] = arithmetic.recomputedCells(function, row: row.stored, precision: precision, columns: columns)
                case .checked(let label): labelled.append((row.row, row.stored, label))
                case .plain: break
                }
            }
        }
        report.summaryDisagreements = labelled.sorted { $0.row < $1.row }.flatMap {
            arithmetic.disagreements(row: $0.stored, label: $0.label, columns: columns)
        }
        let summaryCells = summaries.map { arithmetic.cells(of: $0, columns: columns) }
        /// A pinned or summary row written field by field.
        func writeFields(_ text: (Int) -> String) {
            var record: [UInt8] = []
            for c in columns.indices {
                if c > 0 { record.append(delimiter) }
                var cell = text(c)
                cell.withUTF8 { Records.appendField($0, delimiter: delimiter, to: &record) }
            }
            output.write(bytes: record)
            output.write(bytes: lineBreak)
        }
        func writePinned(_ edge: PinEdge) {
            for (p, rows) in pinned.enumerated() where pins[p].edge == edge {
                for row in rows {
                    if let cells = recomputed[row.stored], !cells.isEmpty {
                        writeFields { c in cells[c]?.text ?? pinnedTable.text(row: row.stored, column: c) }
                    } else {
                        output.write(bytes: row.record)
                        output.write(bytes: lineBreak)
                    }
                }
            }
        }
        func writeSummaries(_ edge: PinEdge) {
            for (s, summary) in summaries.enumerated() where summary.edge == edge {
                let labelColumn = columns.firstIndex { !summary.columns.contains($0.identifier) }
                writeFields { c in
                    if let cell = summaryCells[s][c] { return cell.text }
                    return c == labelColumn ? summary.label ?? summary.function.description : ""
                }
            }
        }
        // Many runs are merged in groups first, so that few files are open at once.
        while runs.count > Self.fanIn {
            var merged: [RunFile] = []
            for start in stride(from: 0, to: runs.count, by: Self.fanIn) {
                let group = Array(runs[start..<min(runs.count, start + Self.fanIn)])
                var writer = try RunWriter(in: folder)
                try Self.merge(group, bufferBytes: Self.workingMemory(options.memory) / 2) { key, record throws(ExternalSortError) in
                    try writer.append(key: key, record: record)
                }
                merged.append(try writer.finish())
            }
            runs = merged
        }
        // The output: as CSV output of the whole table writes it — in the file's encoding, found
        // to be another than it was first taken to be, when the output was opened in that one.
        if options.outputEncoding == nil, format.encoding != firstTaken, output.encoding == firstTaken,
           !output.handOn(in: format.encoding) {
            throw .io("the output was written to before the file's encoding (\(format.encoding.name)) was known")
        }
        let delimiter = options.outputDelimiter ?? format.delimiter
        let lineBreak = format.lineBreak
        format.writeLinesAboveHeader(to: output, delimiter: delimiter)
        if delimiter == format.delimiter, let header = headerText() {
            output.write(bytes: header)
        } else {
            for (c, column) in columns.enumerated() {
                if c > 0 { output.write(byte: delimiter) }
                var title = column.title
                var field: [UInt8] = []
                title.withUTF8 { Records.appendField($0, delimiter: delimiter, to: &field) }
                output.write(bytes: field)
            }
        }
        output.write(bytes: lineBreak)
        writePinned(.top)
        writeSummaries(.top)
        var written = 0
        let bodyRows = report.rows - pinned.reduce(0) { $0 + $1.count }
        try Self.merge(runs, bufferBytes: Self.workingMemory(options.memory) / 2) { _, record throws(ExternalSortError) in
            output.write(bytes: record)
            output.write(bytes: lineBreak)
            written += 1
            if written & 0xFFFF == 0 { options.progress?(0.7 + 0.3 * Double(written) / Double(max(1, bodyRows)), report.rows) }
        }
        writePinned(.bottom)
        writeSummaries(.bottom)
        output.write(bytes: trailingLines)
        options.progress?(1, report.rows)
        return report
    }

    /// The blank lines the file ends with, as a file read at once keeps them.
    private var trailingLines: [UInt8] = []

    /// The header record as the file's decoded text holds it.
    private func headerText() -> [UInt8]? {
        guard !headerRecord.isEmpty else { return nil }
        let decoded: [UInt8]
        if encoding == .utf8 { decoded = headerRecord } else {
            guard let text = try? encoding.decode(headerRecord) else { return nil }
            decoded = text
        }
        return Array(decoded.dropLast(format.lineBreak.count))
    }

    /// Merges runs whose entries are in key order, handing each entry on in order.
    static func merge(_ runs: [RunFile], bufferBytes: Int,
                      _ emit: (_ key: UnsafeBufferPointer<UInt8>, _ record: UnsafeBufferPointer<UInt8>) throws(ExternalSortError) -> Void)
        throws(ExternalSortError) {
        let readers = try runs.map { run throws(ExternalSortError) in
            try RunReader(run, bufferBytes: max(64 << 10, bufferBytes / max(1, runs.count)))
        }
        // A binary heap of the readers that have an entry, smallest key first.
        var heap: [Int] = []
        for (i, reader) in readers.enumerated() where try reader.advance() { heap.append(i) }
        func less(_ a: Int, _ b: Int) -> Bool { readers[a].compareKey(with: readers[b]) < 0 }
        func siftDown(_ start: Int) {
            var i = start
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < heap.count, less(heap[l], heap[m]) { m = l }
                if r < heap.count, less(heap[r], heap[m]) { m = r }
                if m == i { return }
                heap.swapAt(i, m)
                i = m
            }
        }
        for i in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(i) }
        while let top = heap.first {
            let reader = readers[top]
            try reader.withEntry { key, record throws(ExternalSortError) in try emit(key, record) }
            if try reader.advance() {
                siftDown(0)
            } else {
                heap[0] = heap[heap.count - 1]
                heap.removeLast()
                if !heap.isEmpty { siftDown(0) }
            }
        }
    }
}

/// A pinned row of a sort in parts: its place in the file, its record as written, and where its
/// cells are kept for the summaries.
struct PinnedRow {
    var row: Int
    var record: [UInt8]
    var stored: Int
}

/// What can stop a sort in parts.
public enum ExternalSortError: Error, Sendable, CustomStringConvertible {
    /// The file is not valid CSV (the line is counted from the top of the file).
    case csv(CSVError)
    /// A key or pin that cannot be sorted by.
    case sort(SortError)
    /// A file that cannot be read or written (the run files included).
    case io(String)
    /// What a sort in parts cannot do.
    case unsupported(String)

    public var description: String {
        switch self {
        case .csv(let error): return "\(error)"
        case .sort(let error): return "\(error)"
        case .io(let message), .unsupported(let message): return message
        }
    }
}

// MARK: - Key bytes

/// Each row's sort keys as bytes whose order (compared as unsigned bytes, a shorter prefix
/// first) is the order ``SortEngine`` gives, the row's place in the file last so that ties keep
/// their order. Per key: a class byte — blanks before or after every value as the key's nulls
/// say, values by kind (numbers < dates < text < truth values < errors, reversed descending) —
/// then the value: a number as its double's ordered bits, or for a column with numbers a double
/// cannot hold exactly, its digits (sign, exponent, digits); a date as its instant's ordered bits;
/// a truth value as one byte; a text or an error as its comparator's sort key, escaped so that it
/// ends with two zero bytes. A descending key's value bytes are inverted.
struct KeyBytes {
    private(set) var bytes: [UInt8] = []
    private(set) var ends: [Int] = []

    /// Each key's text comparator is its column's as `table` has it: the file's reading may have
    /// settled a column's type and comparator since the plan was bound.
    init(table: Table, rows: [Int], firstRow: Int, keys: [BoundSortPlan.Key], exactNumbers: [Bool]) {
        let n = rows.count
        struct Prepared {
            var input: KeyInput
            var texts: [[UInt8]]
            var ids: [Int32]
            var store: ColumnStore
            var descending: Bool
            var missingFirst: Bool
            var exact: Bool
        }
        let prepared: [Prepared] = keys.map { bound in
            let key = bound.key, column = bound.column
            var input = KeyInput(storage: table, column: column, rows: rows)
            if bound.asText { input = input.everyCellAsText() }
            let comparator = BoundSortPlan.comparator(for: key, column: table.columns[column])
            // One sort key per distinct text (errors compare as lexical text), of the cells that
            // are texts: a number column's numbers need none.
            let textual = (0..<n).filter { i in
                switch input.kinds[i] {
                case .text, .error: return true
                case .notANumber: return !input.numericColumn
                default: return false
                }
            }
            var ids = [Int32](repeating: 0, count: textual.isEmpty ? 0 : n)
            var texts: [String] = []
            if textual.count == n {
                (ids, texts) = input.distinct(nil)
            } else if !textual.isEmpty {
                let found = input.distinct(textual)
                texts = found.texts
                for (k, i) in textual.enumerated() { ids[i] = found.ids[k] }
            }
            let hasErrors = input.kinds.contains(.error)
            let keyed: [[UInt8]] = texts.map { comparator.sortKey($0) }
            let errorKeyed: [[UInt8]] = hasErrors ? texts.map { TextComparator.lexical.sortKey($0) } : []
            let descending = key.direction == .descending
            var prepared = Prepared(input: input, texts: keyed, ids: ids, store: table.store(column), descending: descending,
                                    missingFirst: key.nulls.missingFirst(descending: descending), exact: exactNumbers[column])
            if hasErrors {
                // Errors' positions get their lexical keys: ids past the comparator's.
                let base = Int32(keyed.count)
                prepared.texts += errorKeyed
                for i in 0..<n where input.kinds[i] == .error { prepared.ids[i] += base }
            }
            return prepared
        }
        // Each key's cells first, column by column, into flat arrays (key k's cell i at k·n + i):
        // the class byte, a tag for the value's form and the value.
        // Tags: 0 none (a blank), 1 eight bytes, 2 one byte, 3 a text's key (by id), 4 exact digits.
        let m = prepared.count
        var classes = [UInt8](repeating: 0, count: n * m), tags = [UInt8](repeating: 0, count: n * m)
        var values = [UInt64](repeating: 0, count: n * m)
        // The texts' keys of every key in one buffer: key k's text id j at textStarts[k][j].
        var textBytes: [UInt8] = [], textEnds: [Int] = [], textBase: [Int] = []
        for (k, p) in prepared.enumerated() {
            textBase.append(textEnds.count)
            for key in p.texts {
                textBytes += key
                textEnds.append(textBytes.count)
            }
            let kinds = p.input.kinds, payloads = p.input.payloads, numeric = p.input.numericColumn
            for i in 0..<n {
                let at = k * n + i
                let kind = kinds[i]
                guard let rank = ValueKind(kind, numericColumn: numeric) else {
                    classes[at] = p.missingFirst ? 0x00 : 0x20
                    continue
                }
                classes[at] = 0x10 | (p.descending ? 4 - rank.rawValue : rank.rawValue)
                let payload = payloads.isEmpty ? 0 : payloads[i]
                switch kind {
                case .integer, .decimal, .approximate:
                    if p.exact {
                        tags[at] = 4
                    } else {
                        tags[at] = 1
                        values[at] = KeyCodes.orderedBits(kind == .integer ? Double(Int64(bitPattern: payload)) : Double(bitPattern: payload))
                    }
                case .date:
                    tags[at] = 1
                    values[at] = KeyCodes.orderedBits(Double(bitPattern: payload))
                case .boolean:
                    tags[at] = 2
                    values[at] = payload + 1
                case .text, .notANumber, .error:
                    tags[at] = 3
                    values[at] = UInt64(textBase[k] + Int(p.ids[i]))
                case .missing: break
                }
            }
        }
        let descending = prepared.map(\.descending)
        let stores = prepared.map(\.store)
        // Then row by row, into one buffer.
        var out = [UInt8]()
        out.reserveCapacity(n * (9 + m * 10))
        var ends = [Int]()
        ends.reserveCapacity(n)
        var scratch: [UInt8] = []
        classes.withUnsafeBufferPointer { classes in
            tags.withUnsafeBufferPointer { tags in
                values.withUnsafeBufferPointer { values in
                    textBytes.withUnsafeBufferPointer { textBytes in
                        textEnds.withUnsafeBufferPointer { textEnds in
                            for i in 0..<n {
                                for k in 0..<m {
                                    let at = k * n + i
                                    out.append(classes[at])
                                    let start = out.count
                                    let value = values[at]
                                    switch tags[at] {
                                    case 1: Self.appendBigEndian(value, to: &out)
                                    case 2: out.append(UInt8(truncatingIfNeeded: value))
                                    case 3:
                                        let id = Int(value)
                                        let from = id == 0 ? 0 : textEnds[id - 1]
                                        Self.appendEscaped(UnsafeBufferPointer(rebasing: textBytes[from..<textEnds[id]]), to: &out)
                                    case 4:
                                        scratch.removeAll(keepingCapacity: true)
                                        Self.appendExact(stores[k].withText(at: rows[i]) { ExactDecimal($0) } ?? .zero, to: &scratch)
                                        out += scratch
                                    default: continue
                                    }
                                    if descending[k] {
                                        out.withUnsafeMutableBufferPointer { b in
                                            for j in start..<b.count { b[j] = ~b[j] }
                                        }
                                    }
                                }
                                Self.appendBigEndian(UInt64(firstRow + rows[i]), to: &out)
                                ends.append(out.count)
                            }
                        }
                    }
                }
            }
        }
        bytes = out
        self.ends = ends
    }

    var count: Int { ends.count }

    func key(_ i: Int) -> ArraySlice<UInt8> { bytes[(i == 0 ? 0 : ends[i - 1])..<ends[i]] }

    /// Calls `body` with a function that gives key `i` in place.
    func withKeys<E: Error>(_ body: ((Int) -> UnsafeBufferPointer<UInt8>) throws(E) -> Void) throws(E) {
        try bytes.withUnsafeBufferPointer { all throws(E) in
            try ends.withUnsafeBufferPointer { ends throws(E) in
                try body { i in UnsafeBufferPointer(rebasing: all[(i == 0 ? 0 : ends[i - 1])..<ends[i]]) }
            }
        }
    }

    /// The positions in key order (keys are distinct: each ends with its row), as
    /// ``SortKeys/sortedPositions(_:ends:)`` orders keys.
    func sortedPositions() -> [Int] {
        bytes.withUnsafeBufferPointer { all in
            ends.withUnsafeBufferPointer { ends in SortKeys.sortedPositions(all, ends: ends).map { Int($0) } }
        }
    }

    @inline(__always)
    static func appendBigEndian(_ value: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// A sort key, each zero byte written as 00 FF, ended by 00 00: the order of the keys, and
    /// no key's bytes a prefix of another's, so that keys after it compare only on ties.
    @inline(__always)
    static func appendEscaped(_ key: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        for b in key {
            bytes.append(b)
            if b == 0 { bytes.append(0xFF) }
        }
        bytes.append(0)
        bytes.append(0)
    }

    /// An exact number in bytes of its order: 0x40 negative (the rest inverted), 0x80 zero,
    /// 0xC0 positive; then the exponent (offset by 2³¹), the digits (1…10) and a 0.
    static func appendExact(_ number: ExactDecimal, to bytes: inout [UInt8]) {
        if number.digits.isEmpty { bytes.append(0x80); return }
        bytes.append(number.negative ? 0x40 : 0xC0)
        let start = bytes.count
        let exponent = UInt32(truncatingIfNeeded: Int64(number.exponent) + (1 << 31))
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: exponent >> UInt32(shift))) }
        for digit in number.digits { bytes.append(digit + 1) }
        bytes.append(0)
        if number.negative { for k in start..<bytes.count { bytes[k] = ~bytes[k] } }
    }
}

// MARK: - Records and run files

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

/// A run: entries (key, record) in key order, in a file unlinked as soon as it was made.
final class RunFile {
    let fd: Int32

    private init(fd: Int32) { self.fd = fd }

    deinit { close(fd) }

    static func create(in folder: String) throws(ExternalSortError) -> RunFile {
        guard let (fd, path) = TemporaryPaths.makeFile(in: folder, prefix: "run-") else {
            throw .io("cannot write a run file in '\(folder)': \(String(cString: strerror(errno)))")
        }
        // Gone from the folder at once: the file lives while it is open, and no exit leaves it.
        unlink(path)
        return RunFile(fd: fd)
    }

    /// Writes every byte of `bytes`.
    func write(_ bytes: UnsafeRawBufferPointer) throws(ExternalSortError) {
        var offset = 0
        while offset < bytes.count {
            let n = Foundation.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw .io("cannot write a run file: \(String(cString: strerror(errno))) (a sort in parts writes about the input's size beside the output)")
            }
            offset += n
        }
    }

    /// Back to the start, for reading.
    func rewind() throws(ExternalSortError) {
        guard lseek(fd, 0, SEEK_SET) == 0 else { throw .io("cannot read a run file back") }
    }
}

/// Writes a run's entries — a 4-byte length and the key, a 4-byte length and the record —
/// through a buffer of 1 MB.
struct RunWriter {
    let run: RunFile
    private let buffer: UnsafeMutableRawBufferPointer
    private var used = 0

    init(in folder: String) throws(ExternalSortError) {
        run = try RunFile.create(in: folder)
        buffer = .allocate(byteCount: 1 << 20, alignment: 8)
    }

    @inline(__always)
    mutating func append(key: UnsafeBufferPointer<UInt8>, record: UnsafeBufferPointer<UInt8>) throws(ExternalSortError) {
        let size = 8 + key.count + record.count
        if used + size > buffer.count {
            try flush()
            if size > buffer.count {
                var entry = [UInt8]()
                entry.reserveCapacity(size)
                Self.appendLength(key.count, to: &entry)
                entry.append(contentsOf: key)
                Self.appendLength(record.count, to: &entry)
                entry.append(contentsOf: record)
                let failure: ExternalSortError? = entry.withUnsafeBytes { bytes in
                    do throws(ExternalSortError) { try run.write(bytes); return nil } catch { return error }
                }
                if let failure { throw failure }
                return
            }
        }
        let base = buffer.baseAddress! + used
        base.storeBytes(of: UInt32(truncatingIfNeeded: key.count).littleEndian, as: UInt32.self)
        if !key.isEmpty { (base + 4).copyMemory(from: key.baseAddress!, byteCount: key.count) }
        (base + 4 + key.count).storeBytes(of: UInt32(truncatingIfNeeded: record.count).littleEndian, as: UInt32.self)
        if !record.isEmpty { (base + 8 + key.count).copyMemory(from: record.baseAddress!, byteCount: record.count) }
        used += size
    }

    private static func appendLength(_ n: Int, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: UInt32(truncatingIfNeeded: n).littleEndian) { bytes.append(contentsOf: $0) }
    }

    private mutating func flush() throws(ExternalSortError) {
        try run.write(UnsafeRawBufferPointer(rebasing: buffer[0..<used]))
        used = 0
    }

    /// Writes what is buffered, frees the buffer and hands the run over for reading.
    mutating func finish() throws(ExternalSortError) -> RunFile {
        defer { buffer.deallocate() }
        try flush()
        try run.rewind()
        return run
    }
}

/// Reads a run's entries in order.
final class RunReader {
    let run: RunFile
    // The merge reads these for every entry of every run, each access checked at run time for
    // overlapping ones (a class's stored properties are): 9% of a sort in parts went to those
    // checks. No method here holds one of them across a call that reaches another.
    @exclusivity(unchecked) private var buffer: [UInt8]
    @exclusivity(unchecked) private var start = 0
    @exclusivity(unchecked) private var end = 0
    @exclusivity(unchecked) private var eof = false
    /// The current entry: its key and record in `buffer`.
    @exclusivity(unchecked) private var key = 0..<0
    @exclusivity(unchecked) private var record = 0..<0

    init(_ run: RunFile, bufferBytes: Int) throws(ExternalSortError) {
        self.run = run
        buffer = [UInt8](repeating: 0, count: bufferBytes)
    }

    /// Makes sure `count` bytes from `start` are in the buffer; false at the end of the run.
    private func ensure(_ count: Int) throws(ExternalSortError) -> Bool {
        while end - start < count {
            if eof { return false }
            if start > 0 {
                buffer.withUnsafeMutableBytes { b in _ = memmove(b.baseAddress!, b.baseAddress! + start, end - start) }
                end -= start
                start = 0
            }
            if count > buffer.count { buffer += [UInt8](repeating: 0, count: count - buffer.count) }
            let n = buffer.withUnsafeMutableBytes { b in read(run.fd, b.baseAddress! + end, b.count - end) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .io("cannot read a run file: \(String(cString: strerror(errno)))")
            }
            if n == 0 { eof = true } else { end += n }
        }
        return true
    }

    private func length(at i: Int) -> Int {
        Int(buffer[i]) | Int(buffer[i + 1]) << 8 | Int(buffer[i + 2]) << 16 | Int(buffer[i + 3]) << 24
    }

    /// Moves to the next entry; false when the run is done.
    func advance() throws(ExternalSortError) -> Bool {
        start = record.upperBound > start ? record.upperBound : start
        guard try ensure(4) else { return false }
        let keyLength = length(at: start)
        guard try ensure(8 + keyLength) else { throw .io("a run file ends inside an entry") }
        let recordLength = length(at: start + 4 + keyLength)
        guard try ensure(8 + keyLength + recordLength) else { throw .io("a run file ends inside an entry") }
        key = (start + 4)..<(start + 4 + keyLength)
        record = (key.upperBound + 4)..<(key.upperBound + 4 + recordLength)
        return true
    }

    func withEntry(_ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) throws(ExternalSortError) -> Void) throws(ExternalSortError) {
        let (key, record) = (self.key, self.record)
        let result: ExternalSortError? = buffer.withUnsafeBufferPointer { b in
            do throws(ExternalSortError) {
                try body(UnsafeBufferPointer(rebasing: b[key]), UnsafeBufferPointer(rebasing: b[record]))
                return nil
            } catch {
                return error
            }
        }
        if let result { throw result }
    }

    /// The order of this reader's key against another's (negative, zero, positive).
    func compareKey(with other: RunReader) -> Int {
        buffer.withUnsafeBufferPointer { a in
            other.buffer.withUnsafeBufferPointer { b in
                switch SortKeys.order(UnsafeBufferPointer(rebasing: a[key]), UnsafeBufferPointer(rebasing: b[other.key])) {
                case .orderedAscending: return -1
                case .orderedSame: return 0
                case .orderedDescending: return 1
                }
            }
        }
    }
}

// MARK: - Type warnings in parts

/// A column's cells of each kind among the body rows, with the first three of each, so that the
/// warnings of the whole file are made once its column types are known.
struct TypeCounts {
    var counts = [Int](repeating: 0, count: ValueKind.allCases.count)
    var examples = [[(row: Int, text: String)]](repeating: [], count: ValueKind.allCases.count)

    mutating func count(_ store: ColumnStore, rows: [Int], firstRow: Int) {
        for row in rows {
            guard let kind = Table.warnedKind(store.kinds[row]) else { continue }
            counts[Int(kind.rawValue)] += 1
            if examples[Int(kind.rawValue)].count < 3 { examples[Int(kind.rawValue)].append((firstRow + row, store.text(at: row))) }
        }
    }

    /// The warnings ``Table/typeWarnings(amongRows:)`` gives for the column.
    func warnings(_ column: Column) -> [TypeWarning] {
        guard column.type != .text else { return [] }
        let expected = Int(ValueKind(column.type).rawValue)
        var result: [TypeWarning] = []
        for (ranks, after) in [(0..<expected, false), ((expected + 1)..<ValueKind.allCases.count, true)] {
            let count = ranks.reduce(0) { $0 + counts[$1] }
            guard count > 0 else { continue }
            let first = ranks.flatMap { examples[$0] }.sorted { $0.row < $1.row }.prefix(3)
            result.append(TypeWarning(column: column.identifier, type: column.type, count: count, examples: Array(first),
                                      sortsAfter: after))
        }
        return result
    }
}

// MARK: - Temporary paths

/// The folders of run files being written, which a signal handler removes
/// (``removeAll()`` is async-signal-safe: it only calls `rmdir` and `unlink`).
public enum TemporaryPaths {
    private static let capacity = 16
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let slots = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        slots.initialize(repeating: nil, count: capacity)
        return slots
    }()
    nonisolated(unsafe) private static let isFolder: UnsafeMutablePointer<Bool> = {
        let flags = UnsafeMutablePointer<Bool>.allocate(capacity: capacity)
        flags.initialize(repeating: false, count: capacity)
        return flags
    }()
    private static let lock = NSLock()

    /// Remembers a path to remove (a file, or an empty folder) if the process is stopped.
    public static func register(_ path: String, folder: Bool = false) {
        lock.lock()
        defer { lock.unlock() }
        for i in 0..<capacity where slots[i] == nil {
            isFolder[i] = folder
            slots[i] = strdup(path)
            return
        }
    }

    /// Forgets a path (it was removed, or kept on purpose).
    public static func unregister(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        for i in 0..<capacity {
            if let p = slots[i], String(cString: p) == path {
                slots[i] = nil
                free(p)
            }
        }
    }

    /// Removes every registered path: for a signal handler.
    public static func removeAll() {
        for i in 0..<capacity {
            guard let p = slots[i] else { continue }
            if isFolder[i] { rmdir(p) } else { unlink(p) }
        }
    }

    /// A new file in `folder` named `prefix` and six characters that no other file there has
    /// (`mkstemp`'s template), open for reading and writing: its descriptor and path; `nil`, with
    /// `errno` saying why, when it cannot be made.
    public static func makeFile(in folder: String, prefix: String) -> (descriptor: Int32, path: String)? {
        var template = Array(((folder.hasSuffix("/") ? folder : folder + "/") + prefix + "XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return nil }
        return (fd, String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// The name a file made to replace `path` has while it is made: `.NAME.PID.partial` beside
    /// it (so that a rename puts it in place), PID the process making it.
    public static func partialName(for path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return (folder.isEmpty ? "" : folder + "/") + ".\((path as NSString).lastPathComponent).\(getpid()).partial"
    }

    /// Removes the partial files (``partialName(for:)``, and an SQLite journal of one) beside
    /// `path` whose process is gone: a run killed outright, which no signal handler saw.
    public static func removeLeftovers(for path: String) {
        let folder = (path as NSString).deletingLastPathComponent
        let prefix = ".\((path as NSString).lastPathComponent)."
        guard let directory = opendir(folder.isEmpty ? "." : folder) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            // (An SQLite database's journal goes with it.)
            guard name.hasPrefix(prefix), let suffix = [".partial", ".partial-journal"].first(where: name.hasSuffix) else { continue }
            let middle = name.dropFirst(prefix.count).dropLast(suffix.count)
            guard !middle.isEmpty, middle.allSatisfy(\.isASCII), middle.allSatisfy(\.isNumber), let pid = pid_t(middle) else { continue }
            if pid == getpid() || (kill(pid, 0) != 0 && errno == ESRCH) {
                unlink((folder.isEmpty ? "" : folder + "/") + name)
            }
        }
    }

    /// A new folder for run files in `parent`, registered.
    static func makeFolder(in parent: URL) throws(ExternalSortError) -> String {
        // mkdtemp's template: six characters it replaces with a name no other folder there has.
        var template = Array((parent.path + "/.trellis-sort-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else {
            throw .io("cannot make a folder for run files in '\(parent.path)': \(String(cString: strerror(errno)))")
        }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        register(path, folder: true)
        return path
    }

    static func removeFolder(_ path: String) {
        rmdir(path)
        unregister(path)
    }
}
