import Foundation
import TrellisGrid
import TrellisRender

/// `trellis sort FILE.csv [--by KEY]... [--pin-top PRED]... [--pin-bottom PRED]... [--summary FUNC:COLUMNS]...
/// [--locale ID] [--nulls last|first|smallest] [--format text|csv|json|html] [-o FILE]`.
enum SortCommand {
    static let definition = CommandDefinition(
        name: "sort",
        overview: "Sort a CSV table, keeping pinned and summary rows in place.",
        arguments: [("file", "The CSV file (RFC 4180, UTF-8, header row), or '-' for standard input.")],
        options: [
            OptionDefinition(names: ["--by"], valueName: "key",
                             help: "Sort key COLUMN[:asc|:desc][:natural|:lexical|:nocase|:locale];\nrepeat for secondary keys.",
                             repeatable: true),
            OptionDefinition(names: ["--pin-top"], valueName: "column=value",
                             help: "Pin the rows whose COLUMN reads VALUE to the top.", repeatable: true),
            OptionDefinition(names: ["--pin-bottom"], valueName: "column=value",
                             help: "Pin the rows whose COLUMN reads VALUE to the bottom.", repeatable: true),
            OptionDefinition(names: ["--summary"], valueName: "func:columns",
                             help: "Add a summary row at the bottom: mean, sum, count, min or max\nof COLUMN[,COLUMN…] over the body.",
                             repeatable: true),
            OptionDefinition(names: ["--locale"], valueName: "id",
                             help: "Collate text with this ICU locale (zh: pinyin, zh@collation=stroke,\nde, sv, …) for keys without a text comparator or with :locale."),
            OptionDefinition(names: ["--nulls"], valueName: "placement",
                             help: "Where blank cells go: last (default, in both directions), first,\nor smallest (first ascending, last descending)."),
            OptionDefinition(names: ["--type"], valueName: "column=type",
                             help: "Read COLUMN as integer, decimal, text, boolean or date\ninstead of inferring its type.", repeatable: true),
            OptionDefinition(names: ["--format"], valueName: "format",
                             help: "Output format: text, csv, json or html. (default: text)"),
            OptionDefinition(names: ["--output", "-o"], valueName: "file",
                             help: "Write to this file instead of standard output."),
            OptionDefinition(names: ["--raw-formulas"], valueName: nil,
                             help: "In CSV output, leave cells that start with = + - @ as they are\n(by default they get a leading ' so spreadsheets do not run them)."),
            OptionDefinition(names: ["--help", "-h"], valueName: nil, help: "Show help information."),
        ],
        discussion: """
        Sorting is stable: rows with equal keys keep their order in the file, in both directions.
        Blank cells (and NaN) go last in both directions unless --nulls says otherwise. Pinned
        rows keep the order in which they were pinned and never take part in the sort; summary
        rows are computed over the body. Text keys compare naturally by default (组2 before 组10).

        EXAMPLE: trellis sort Examples/groups.csv --by 分数:desc --pin-bottom 组号=平均

        EXIT STATUS: 0 success, 1 a file cannot be read or written, 64 usage error (unknown column
        or option), 65 malformed CSV.
        """)

    enum Format: String { case text, csv, json, html }

    static func run(_ arguments: [String], io: inout CommandIO) throws(CommandError) {
        let parsed = try definition.parse(arguments)
        guard let path = parsed.positionals.first else { throw .usage("Missing expected argument '<file>'") }
        if parsed.positionals.count > 1 { throw .usage("Unexpected argument '\(parsed.positionals[1])'") }
        let format: Format
        if let text = parsed.value("--format") {
            guard let f = Format(rawValue: text) else {
                throw .usage("Invalid value '\(text)' for '--format <format>'; expected text, csv, json or html")
            }
            format = f
        } else {
            format = .text
        }
        var nulls = NullPlacement.last
        if let text = parsed.value("--nulls") {
            guard let n = NullPlacement(rawValue: text) else {
                throw .usage("Invalid value '\(text)' for '--nulls <placement>'; expected last, first or smallest")
            }
            nulls = n
        }
        var types: [String: ColumnType] = [:]
        for text in parsed.values["--type"] ?? [] {
            let (column, name) = try split(text, at: "=", option: "--type <column=type>", example: "score=decimal")
            guard let type = ColumnType(rawValue: name) else {
                throw .usage("Invalid type '\(name)' in '--type \(text)'; expected integer, decimal, text, boolean or date")
            }
            types[column] = type
        }
        let data = try io.read(path)
        let table: Table
        do { table = try CSV.table(data, types: types) } catch { throw .data("\(path): \(error)") }
        let names = table.columns.map(\.identifier)
        func known(_ column: String, _ option: String) throws(CommandError) {
            guard names.contains(column) else {
                var message = "Unknown column '\(column)' in '\(option)'"
                if let guess = closest(column, in: names) { message += "; did you mean '\(guess)'?" }
                else { message += "; the columns are " + names.map { "'\($0)'" }.joined(separator: ", ") }
                throw .usage(message)
            }
        }
        let locale = parsed.value("--locale")
        var keys: [SortKey] = []
        for text in parsed.values["--by"] ?? [] {
            var parts = text.components(separatedBy: ":")
            var direction = SortDirection.ascending
            var comparator: KeyComparator = locale.map { .text(.localized($0)) } ?? .standard
            var modifiers = 0
            while parts.count > 1, modifiers < 2, let last = parts.last {
                switch last {
                case "asc": direction = .ascending
                case "desc": direction = .descending
                case "natural": comparator = .text(.natural)
                case "lexical": comparator = .text(.lexical)
                case "nocase": comparator = .text(.caseInsensitive)
                case "locale": comparator = .text(.localized(locale ?? "root"))
                default: modifiers = 2; continue
                }
                parts.removeLast()
                modifiers += 1
            }
            let column = parts.joined(separator: ":")
            try known(column, "--by \(text)")
            keys.append(SortKey(column, direction, comparator: comparator, nulls: nulls))
        }
        let grid = DataGrid(bound: table)
        do {
            for (option, region) in [("--pin-top", RowRegion.pinnedTop), ("--pin-bottom", .pinnedBottom)] {
                for text in parsed.values[option] ?? [] {
                    let (column, value) = try split(text, at: "=", option: "\(option) <column=value>", example: "组号=平均")
                    try known(column, "\(option) \(text)")
                    try grid.pin(.matching(column: column, value: value), at: region)
                }
            }
            for text in parsed.values["--summary"] ?? [] {
                let (name, list) = try split(text, at: ":", option: "--summary <func:columns>", example: "mean:分数")
                guard let function = SummaryFunction(name: name) else {
                    throw CommandError.usage("Invalid function '\(name)' in '--summary \(text)'; expected mean, sum, count, min or max")
                }
                let columns = list.components(separatedBy: ",")
                for column in columns { try known(column, "--summary \(text)") }
                try grid.addSummary(SummaryRow(function, columns: columns))
            }
            try grid.sort(by: keys)
        } catch let error as CommandError {
            throw error
        } catch {
            throw .usage("\(error)")
        }
        let output: String
        switch format {
        case .text: output = GridRenderer.text(grid)
        case .csv: output = GridRenderer.csv(grid, neutralizeFormulas: !parsed.flags.contains("--raw-formulas"))
        case .json: output = GridRenderer.json(grid).serialized()
        case .html: output = GridRenderer.html(grid, title: path == "-" ? "Sorted table" : "Sorted \(path)")
        }
        try io.write(output, to: parsed.value("--output"))
    }

    static func split(_ text: String, at separator: Character, option: String,
                      example: String) throws(CommandError) -> (String, String) {
        guard let index = text.firstIndex(of: separator), index != text.startIndex else {
            throw .usage("Invalid value '\(text)' for '\(option)'; expected something like \(example)")
        }
        return (String(text[..<index]), String(text[text.index(after: index)...]))
    }
}
