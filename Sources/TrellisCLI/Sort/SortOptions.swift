import Foundation
import TrellisGrid
import TrellisText

/// `trellis sort`'s command line, parsed once into typed values. The values are checked in the
/// order the options are told in the help, so that the first wrong one is the one a message
/// names; what needs the table's columns (a `--by` column, a `--pin-bottom` column) is kept as
/// given and read against them once the table is open.
struct SortOptions {
    /// What to sort: a file, `-`, or a connection string.
    var input: String
    var format: SortCommand.Format
    /// Whether `--format` was given (an SQLite output takes none).
    var formatGiven: Bool
    /// The delimiter written, when the output's extension asks for one the input may not have (`.tsv`).
    var outputDelimiter: UInt8?
    var nulls: NullPlacement
    var recompute: RecomputeRule?
    var precision: Int?
    var locale: String?
    var types: [String: ColumnType]
    var table: String?
    var query: String?
    var reading: CSVReading
    var outputEncoding: TextEncoding?
    /// `--memory` in bytes (half of the machine's when not given), and the text given.
    var memory: (bytes: Int, given: Bool)
    var memoryText: String?
    /// `--by`, as given.
    var keys: [String]
    /// `--pin-top` then `--pin-bottom`, as given, with their edges.
    var pins: [(option: String, edge: PinEdge, text: String)]
    /// `--summary`, as given.
    var summaries: [String]
    var output: String?
    var outputTable: String?
    var force: Bool
    var interactive: Bool
    var rawFormulas: Bool
    /// `--group-by`, as given; `--no-groups`; `--group-order`.
    var groupBy: String?
    var findsGroups: Bool
    var groupOrder: RowGrouping.GroupOrder

    init(_ arguments: [String]) throws(CommandError) {
        let parsed = try SortCommand.definition.parse(arguments)
        force = parsed.flags.contains("--force")
        interactive = parsed.flags.contains("--interactive")
        rawFormulas = parsed.flags.contains("--raw-formulas")
        guard let path = parsed.positionals.first else { throw CommandError(.missingArgument("<file>")) }
        if parsed.positionals.count > 1 { throw CommandError(.unexpectedArgument(parsed.positionals[1])) }
        input = path
        output = parsed.value("--output")
        let given = try SortCommand.value(
            parsed.value("--format"), option: "--format <format>", expected: "text, csv, json or html",
            SortCommand.Format.init(rawValue:))
        // The output file's extension names its format, as `-o x.sqlite` names a database. A
        // `.txt` output of a `.txt` input is the input's own format (Excel's "Unicode 文本": tabs,
        // UTF-16), as a `.csv` output of a CSV file is; `--format csv` writes a `.txt` so too.
        if let output, (output as NSString).pathExtension.lowercased() == "xls" {
            throw CommandError(
                .rule(
                    "'-o \(Excerpt.of(output))' would write a legacy .xls workbook, which is read only; write .xlsx from an "
                        + ".xlsx, .ods from an .ods, or CSV (-o \(Excerpt.of(((output as NSString).deletingPathExtension as String) + ".csv"))), "
                        + "which every spreadsheet opens"))
        }
        var implied = output.flatMap { SortCommand.Format.implied(byExtension: ($0 as NSString).pathExtension) }
        let textFile = { (name: String) in ["txt", "text"].contains((name as NSString).pathExtension.lowercased()) }
        if let output, textFile(output), (textFile(path) && given == nil) || given == .csv {
            implied = (.csv, false)
        }
        if let given, let implied, given != implied.format, let output {
            throw CommandError(
                .rule(
                    "'--format \(given.rawValue)' contradicts '-o \(Excerpt.of(output))', "
                        + "which writes \(implied.format.rawValue); leave out one of them"))
        }
        formatGiven = given != nil
        format = given ?? implied?.format ?? .text
        // A .tsv file is CSV with tabs.
        outputDelimiter = implied?.tabs == true ? 0x09 : nil
        nulls = try SortCommand.nulls(parsed)
        recompute = try parsed.value("--recompute").map { (text: String) throws(CommandError) -> RecomputeRule in
            try RecomputeRule(text)
        }
        if let text = parsed.value("--precision") {
            guard let n = Int(text), (0...20).contains(n) else {
                throw CommandError(.invalidValue(text, option: "--precision <n>", expected: "a number of decimals from 0 to 20"))
            }
            precision = n
        }
        locale = try SortCommand.locale(parsed)
        types = try SortCommand.types(parsed)
        table = parsed.value("--table")
        query = parsed.value("--query")
        reading = try CSVReading(parsed)
        outputEncoding = try parsed.value("--output-encoding").map { (name: String) throws(CommandError) -> TextEncoding in
            try CSVReading.encoding(name, option: "--output-encoding <name>")
        }
        memory = try SortCommand.memory(parsed)
        memoryText = parsed.value("--memory")
        if memory.given, table != nil || query != nil {
            throw CommandError(.rule("'--memory' bounds the sort of a CSV file; a database sorts with its own memory"))
        }
        keys = parsed.values["--by"] ?? []
        pins = parsed.pinsGiven
        summaries = parsed.values["--summary"] ?? []
        outputTable = parsed.value("--output-table")
        groupBy = parsed.value("--group-by")
        findsGroups = !parsed.flags.contains("--no-groups")
        if groupBy != nil, !findsGroups {
            throw CommandError(.rule("'--group-by' and '--no-groups' contradict each other; leave out one of them"))
        }
        groupOrder =
            try SortCommand.value(
                parsed.value("--group-order"), option: "--group-order <order>", expected: "source, subtotal or label",
                RowGrouping.GroupOrder.init(rawValue:)) ?? .source
    }

    /// Whether the rows come from a database table or query.
    var readsDatabase: Bool { table != nil || query != nil }

    /// Whether the output is a workbook written back with its rows moved (`-o FILE.xlsx`, `.xlsm`,
    /// `.ods`).
    var writesWorkbook: Bool {
        output.map { ["xlsx", "xlsm", "ods"].contains(($0 as NSString).pathExtension.lowercased()) } ?? false
    }

    /// Whether the output is an SQLite database (`-o FILE.sqlite`, `.sqlite3`, `.db`).
    var writesSQLite: Bool {
        output.map { ["sqlite", "sqlite3", "db"].contains(($0 as NSString).pathExtension.lowercased()) } ?? false
    }
}

extension ParsedArguments {
    /// `--pin-top` then `--pin-bottom`, as given, with their edges (`sort` and `view` take both).
    var pinsGiven: [(option: String, edge: PinEdge, text: String)] {
        [("--pin-top", PinEdge.top), ("--pin-bottom", .bottom)].flatMap { option, edge in
            (values[option] ?? []).map { (option: option, edge: edge, text: $0) }
        }
    }
}
