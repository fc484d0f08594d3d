import Foundation
import TrellisGrid
import TrellisText

/// `trellis view`'s command line, as typed values: how the table is read and first sorted and
/// pinned. What names a column (`--by 分数:desc`, `--pin-bottom 组号=平均`) is kept as given and
/// read against the table's columns once it is open.
struct ViewOptions {
    var input: String
    var nulls: NullPlacement
    var locale: String?
    var types: [String: ColumnType]
    var reading: CSVReading
    var table: String?
    var query: String?
    /// `--by`, as given.
    var keys: [String]
    /// `--pin-top` then `--pin-bottom`, as given, with their edges.
    var pins: [(option: String, edge: PinEdge, text: String)]
    /// `--group-by`, as given, and whether subtotal groups are looked for (not `--no-groups`).
    var groupBy: String?
    var findsGroups: Bool

    /// The options of a parsed command line whose file is `input` (checked before the options,
    /// with the terminal: a viewer without one says so first).
    init(_ parsed: ParsedArguments, input: String) throws(CommandError) {
        self.input = input
        nulls = try SortCommand.nulls(parsed)
        locale = try SortCommand.locale(parsed)
        types = try SortCommand.types(parsed)
        reading = try CSVReading(parsed)
        table = parsed.value("--table")
        query = parsed.value("--query")
        keys = parsed.values["--by"] ?? []
        pins = parsed.pinsGiven
        groupBy = parsed.value("--group-by")
        findsGroups = !parsed.flags.contains("--no-groups")
        if groupBy != nil, !findsGroups {
            throw CommandError(.rule("'--group-by' and '--no-groups' contradict each other; leave out one of them"))
        }
    }

    /// Whether the rows come from a database table or query.
    var readsDatabase: Bool { table != nil || query != nil }
}
