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
        /// Summary cells whose meaning could not be established: left as they were, unchecked.
        public var uncheckedSummaryCells: [UncheckedSummaryCell] = []
        /// The subtotal groups a grouped sort kept (as ``DisplayOrder/groups`` finds them,
        /// without their rows, which the sort does not keep: each group's ``RowGroups/Group/rowCount``
        /// says how many it has); `nil` for a sort without a grouping.
        public var groups: RowGroups.Summary?

        public init() {}
    }

    /// What the program itself takes before it reads a byte (its code, the Swift runtime, ICU's
    /// tables): about 32 MB, which the memory given must cover too.
    static let programBytes = 32 << 20

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

    /// The most runs merged at once; more are merged in groups first (``Tuning/fanIn``).
    static var fanIn: Int { Tuning.current.fanIn }
    /// The smallest part read at once, whatever the memory given (``Tuning/minimumPartBytes``).
    static var minimumPartBytes: Int { Tuning.current.minimumPartBytes }

    public let path: String
    public let options: Options
    /// The columns, as a file read at once names and types them.
    public internal(set) var columns: [Column] = []
    /// How the file is written (encoding, delimiter, line break, lines around the records).
    public internal(set) var format = CSVFormat()
    /// The notes a file read at once gives about dates whose order it guessed.
    public internal(set) var dateNotes: [DateOrderNote] = []

    let fileSize: Int
    /// The file's bytes before the first record, and the header record with its line break (raw,
    /// as the file holds them), which every part is read after.
    var bodyStart = 0
    var headerRecord: [UInt8] = []
    var headerLines = 1
    var firstBodyLine = 2
    var decisions: [ColumnDecision] = []
    var exactNumbers: [Bool] = []
    var encoding: TextEncoding = .utf8
    var partBytes: Int

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
    var encodingSettled = true

    /// The blank lines the file ends with, as a file read at once keeps them.
    var trailingLines: [UInt8] = []
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
