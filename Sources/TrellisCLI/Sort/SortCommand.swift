import Foundation
import TrellisGrid
import TrellisRender
import TrellisSQL
import TrellisSources
import TrellisText
import TrellisWorkbook

/// `trellis sort FILE.csv [--by KEY]... [--pin-top PRED]... [--pin-bottom PRED]... [--recompute labels|FUNC|LABEL=FUNC,…]
/// [--summary [LABEL=]FUNC:COLUMNS]... [--precision N] [--locale ID] [--nulls last|first|smallest]
/// [--type COLUMN=TYPE]... [--format text|csv|json|html] [-o FILE]`.
enum SortCommand {
    static let definition = CommandDefinition(
        name: "sort",
        overview: "Sort a CSV table, keeping pinned and summary rows in place.",
        arguments: [
            (
                "file",
                "The CSV file (header row; UTF-8, GB18030/GBK or UTF-16, commas, tabs,\nsemicolons or bars), '-' for standard input, an SQLite database,\nor a postgresql:// URL, with --table or --query."
            )
        ],
        options: [
            OptionDefinition(
                names: ["--by"], valueName: "key",
                help: "Sort key COLUMN[:asc|:desc][:natural|:natural-decimal|:lexical|:nocase|:locale];\n"
                    + "a comparator named compares every cell as text. :order=优,良,中,差\nsorts by that list "
                    + "(a column of only 甲乙丙丁, 一月…十二月, 周一…周日,\n优良中差, … is sorted by its list unless a comparator is named).\n"
                    + "Repeat for secondary keys.",
                repeatable: true),
            OptionDefinition(
                names: ["--pin-top"], valueName: "column=value",
                help: "Pin the rows whose COLUMN reads VALUE to the top.", repeatable: true),
            OptionDefinition(
                names: ["--pin-bottom"], valueName: "column=value",
                help: "Pin the rows whose COLUMN reads VALUE to the bottom.", repeatable: true),
            OptionDefinition(
                names: ["--recompute"], valueName: "rule",
                help: "Recompute the numbers of the pinned rows (the file's own 平均 row)\n"
                    + "from the other rows: 'labels' (each by its label: 平均 mean, 合计\n"
                    + "sum, 最高 max, 最低 min, 计数 count), LABEL=FUNC[,…], or one FUNC\n"
                    + "(mean, sum, count, min or max) for rows whose label names none.",
                choices: ["labels", "mean", "sum", "count", "min", "max"]),
            OptionDefinition(
                names: ["--summary"], valueName: "[label=]func:columns",
                help: "Add a summary row at the bottom: mean, sum, count, min or max\nof COLUMN[,COLUMN…] over the body, labelled LABEL.",
                repeatable: true),
            OptionDefinition(
                names: ["--precision"], valueName: "n",
                help: "Write summaries with N decimals (default: as many as the column's\nnumbers have)."),
            OptionDefinition(
                names: ["--locale"], valueName: "id",
                help: "Collate text with this ICU locale (zh: pinyin, zh@collation=stroke,\nde, sv, …) for keys without a text comparator or with :locale."),
            OptionDefinition(
                names: ["--nulls"], valueName: "placement",
                help: "Where blank cells go: last (default, in both directions), first,\nor smallest (first ascending, last descending).",
                choices: ["last", "first", "smallest"]),
            OptionDefinition(
                names: ["--type"], valueName: "column=type",
                help: "Read COLUMN as integer, decimal, text, boolean or date\ninstead of cell by cell.", repeatable: true),
        ] + CSVReading.options + [
            OptionDefinition(
                names: ["--output-encoding"], valueName: "name",
                help: "Write CSV or text output in this encoding. (default: CSV in the\ninput file's encoding and byte order mark, text in UTF-8)"),
            OptionDefinition(
                names: ["--table"], valueName: "name",
                help: "Read this table of the database FILE or URL (read-only)."),
            OptionDefinition(
                names: ["--query"], valueName: "sql",
                help: "Read the rows of this SELECT on the database FILE or URL (read-only)."),
            OptionDefinition(
                names: ["--output-table"], valueName: "name",
                help: "With -o FILE.sqlite (or .db): the table to create. (default: sorted)"),
            OptionDefinition(
                names: ["--format"], valueName: "format",
                help: "Output format: text, csv, json or html. (default: the output\nfile's extension, else text)",
                choices: ["text", "csv", "json", "html"]),
            .output("Write to this file instead of standard output; its extension\n(.csv .tsv .txt .json .html, .sqlite .db) names the format."),
            .force,
            OptionDefinition(
                names: ["--group-by"], valueName: "column",
                help:
                    "Keep subtotal groups together: rows sort within the runs of this\ncolumn's values, each subtotal row (华东 汇总, North Total, 小计) stays\nwith its group, a grand total (总计) at its edge. COLUMN,DETAIL: SQL's\nROLLUP shape, a subtotal row told by a blank (NULL) DETAIL cell.\n(default: found in the file when it has subtotal rows)"
            ),
            OptionDefinition(
                names: ["--group-order"], valueName: "order",
                help: "How the groups are ordered: source (default), subtotal (by the\nfirst key's value in each subtotal row) or label.",
                choices: ["source", "subtotal", "label"]),
            OptionDefinition(
                names: ["--no-groups"], valueName: nil,
                help: "Sort every row together, subtotal rows too, even where the file has\nsubtotal groups."),
            memoryOption,
            OptionDefinition(
                names: ["--interactive"], valueName: nil,
                help:
                    "With --format html: a page whose headers sort it in the browser, in\nTrellis's order (pins and summaries stay), and that reads without script."
            ),
            OptionDefinition(
                names: ["--raw-formulas"], valueName: nil,
                help:
                    "In CSV output from a database, leave cells that start with = + - @\nas they are (by default they get a leading ' so spreadsheets do not\nrun them). A CSV file's own cells are always written as they were."
            ),
            .help,
        ],
        discussion: """
            Sorting reorders the rows and never rewrites a cell: 007, 1.50 and +5 are written back as
            they were read. Each cell is read on its own, as a spreadsheet reads it: a number, a date,
            a truth value or text; a column's type is what most of its cells hold, and cells of other
            kinds sort after (or before) them by kind — numbers < dates < text < truth values — with a
            warning on standard error. Sorting is stable: rows with equal keys keep their order in the
            file, in both directions. Blank cells (and NaN in a number column) go last in both
            directions unless --nulls says otherwise. Pinned rows keep the order in which they were
            pinned and never take part in the sort; summary rows are computed over the body. Text keys
            compare naturally by default (组2 before 组10, 第二组 before 第十组).

            A column is named by its header; columns that share a name are NAME, NAME#2, …, and any
            column is also #N (its place, from 1). A title above the header is passed over with
            --header-row and written back.

            EXAMPLE: trellis sort Examples/groups.csv --by 分数:desc --pin-bottom 组号=平均

            DATABASES are only read. SQLite is opened read-only, and a --query must be one statement
            SQLite finds read-only. On PostgreSQL a --query is sent as one prepared statement in a READ
            ONLY transaction, refused before it runs if the server's plan calls a function, operator or
            cast it marks VOLATILE (pg_sleep, pg_terminate_backend, set_config, nextval, ... however
            spelt, or inside a view), and stopped after 10 minutes unless a statement_timeout is set. A
            view, a WITHOUT ROWID or a virtual table is read whole; a row that cannot be read fails the
            sort (65) and is never written blank.

            OUTPUT FILES (-o): a symbolic link is written through to its file (a dangling or looping one
            is refused); a read-only file is refused unless --force; the output is made beside the file
            (.NAME.PID.partial) and renamed over it once complete, so an error, Ctrl-C, SIGTERM, SIGHUP
            or ulimit -f leaves the old file and nothing else (one left by a killed run is removed by the
            next); a replaced file keeps its mode and, where allowed, its owner, never a set-ID bit; a
            file with other hard links is rewritten in place once complete, so every link sees it.

            EXIT STATUS (sysexits): 0 success; 1 a file cannot be written; 64 usage error (unknown
            column, option or locale); 65 malformed CSV, or data a database refused; 66 no such input
            file; 69 a server cannot be reached; 75 a database locked by another program (try again);
            77 not allowed (a file's permissions, a password, a role without SELECT).
            """)

    enum Format: String {
        case text, csv, json, html

        /// The format a file's extension names, and whether it wants tabs (`.tsv`); `nil` for
        /// an extension that names none (or `.sqlite` and `.db`, which are databases).
        init?(extension pathExtension: String) {
            switch pathExtension.lowercased() {
            case "csv": self = .csv
            case "txt", "text": self = .text
            case "json": self = .json
            case "html", "htm": self = .html
            default: return nil
            }
        }

        static func implied(byExtension pathExtension: String) -> (format: Format, tabs: Bool)? {
            if pathExtension.lowercased() == "tsv" { return (.csv, true) }
            return Format(extension: pathExtension).map { ($0, false) }
        }
    }

    static let modifiers = ["asc", "desc", "natural", "natural-decimal", "lexical", "nocase", "locale"]

    static func run(_ arguments: [String], io: inout CommandIO) throws(CommandError) {
        let options = try SortOptions(arguments)
        io.replacesReadOnlyFiles = options.force
        let path = options.input
        var columns = Self.columnsRead(options)
        // A sheet of subtotal groups read for some columns only: its label column and its number
        // columns too, which the subtotal rows are checked in (as the file's head shows them).
        let head = columns == nil ? HeadGroups.notLooked : groupedColumns(options, path: io.url(for: path).path)
        var grouped: Set<String>?
        if case .columns(let needed, _) = head { grouped = needed }
        if let grouped {
            columns = Self.columnsRead(options, also: grouped)
        } else if options.groupBy != nil {
            columns = nil
        }
        // A file larger than the memory is sorted in parts.
        if !options.readsDatabase, path != "-", let size = FileBytes.regularFileSize(io.url(for: path).path),
            size > options.memory.bytes / (leavesRecordsInFile(ofSize: size, columns: columns) ? bytesPerMappedFileByte : bytesPerFileByte),
            case let head = FileBytes.head(io.url(for: path).path, count: 16) ?? [],
            !head.starts(with: SQLiteSourceKind.magic), !CSV.isWorkbook(head)
        {
            try sortInParts(options, path: path, fileSize: size, io: &io)
            return
        }
        // Standard input is read up to what a sort at once may take; more goes to a file beside
        // the output, sorted in parts.
        if path == "-", !options.readsDatabase, let descriptor = io.standardInputDescriptor {
            let (head, ended) = try Self.readStandardInput(descriptor, upTo: options.memory.bytes / Self.bytesPerFileByte)
            if ended {
                io.readStandardInput = { Data(head) }
            } else {
                let spool = try Self.spool(head, rest: descriptor, beside: options.output, io: io)
                defer {
                    unlink(spool)
                    TemporaryPaths.unregister(spool)
                }
                try sortInParts(options, path: spool, shownAs: "-", fileSize: FileBytes.regularFileSize(spool) ?? head.count, io: &io)
                return
            }
        }
        var source = try io.openSource(
            path, table: options.table, query: options.query, types: options.types,
            reading: options.reading, snapshot: true, columns: columns)
        var partly = columns != nil
        // The grouping is looked for once. A sheet whose head did not show its groups is read
        // again whole: its subtotal rows are checked in every number column.
        // (A head that showed none is taken at its word: the columns left in the file are not read for it.)
        // A grouping the head showed is taken as found (as a sort in parts takes it), not looked for again.
        let looked = head == .noGroups
        var found: RowGrouping?
        if options.findsGroups, options.groupBy == nil {
            if case .columns(_, let grouping) = head { found = grouping } else if !looked { found = RowGrouping.detect(in: source) }
        }
        if partly, let grouping = found, !([grouping.column] + (grouping.detail.map { [$0] } ?? [])).allSatisfy({ grouped?.contains($0) ?? false }) {
            source = try io.openSource(
                path, table: options.table, query: options.query, types: options.types,
                reading: options.reading, snapshot: true, columns: nil)
            partly = false
            found = RowGrouping.detect(in: source)
        }
        let told = io.stderr
        var grid = try sorted(source, options, found: found, io: &io)
        // A summary row below the head with a number in a column the head's left blank: the
        // file is read again whole, so that the cell is checked like the others.
        if partly, grouped != nil, let groups = grid.order.groups, let table = source as? Table,
            !table.unreadColumnsHoldingNumbers(inRows: grid.order.subtotalRows.sorted() + groups.grandTotals.map(\.row)).isEmpty
        {
            io.stderr = told
            source = try io.openSource(
                path, table: options.table, query: options.query, types: options.types,
                reading: options.reading, snapshot: true, columns: nil)
            partly = false
            grid = try sorted(source, options, found: found, io: &io)
        }
        try write(grid, options, columnsRead: partly, io: &io)
    }

    /// What a file's first megabyte says of its subtotal groups.
    enum HeadGroups: Equatable {
        /// Not looked at (not a regular file, UTF-16, not readable as CSV).
        case notLooked
        /// No subtotal row in it.
        case noGroups
        /// Groups by the column `grouping`, and the columns a sort of them reads besides its
        /// keys: the label column and the number columns (which the subtotal rows are checked in).
        case columns(Set<String>, grouping: RowGrouping)
    }

    /// What the first megabyte of the file at `path` says of its subtotal groups — and, for a
    /// larger file whose head shows none, its last 64 KB (read under the head's header), where a
    /// sheet whose first group is longer than the head closes its last group before its grand
    /// total.
    static func groupedColumns(_ options: SortOptions, path: String) -> HeadGroups {
        guard options.findsGroups, !options.readsDatabase, options.input != "-",
            var head = FileBytes.head(path, count: 1 << 20), !head.isEmpty
        else { return .notLooked }
        // Whole lines only; a UTF-16 file (its mark, or a zero byte) is not cut so.
        if head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF]) || head.prefix(4096).contains(0) { return .notLooked }
        // A workbook's bytes are compressed: its groups are looked for once it is read.
        if CSV.isWorkbook(Array(head.prefix(8))) { return .notLooked }
        let whole = 1 << 20
        let longer = head.count == whole && (FileBytes.regularFileSize(path) ?? 0) > whole
        if head.count == whole, let end = head.lastIndex(of: 0x0A) { head.removeSubrange((end + 1)...) }
        // A UTF-8 text without a word of a subtotal label has no subtotal row: not read as a table.
        let quick = options.groupBy == nil && (options.reading.encoding == nil || options.reading.encoding == .utf8)
        func mayHoldGroups(_ bytes: [UInt8]) -> Bool {
            !quick || SubtotalLabel.mayAppear(inFileHead: bytes)
        }
        // Its first 64 KB first, where a sheet's first group mostly closes; then the megabyte.
        var first = Array(head.prefix(1 << 16))
        if first.count < head.count, let end = first.lastIndex(of: 0x0A) { first.removeSubrange((end + 1)...) }
        if mayHoldGroups(head) {
            for part in first.count < head.count ? [first, head] : [head] {
                switch groups(inSample: part, options) {
                case .columns(let needed, let grouping): return .columns(needed, grouping: grouping)
                case .notLooked where part.count == head.count: return .notLooked
                default: continue
                }
            }
        } else if RolledUp.mayAppear(in: first), case .columns(let needed, let grouping) = groups(inSample: first, options) {
            // Without a word, a subtotal row can only be of SQL's ROLLUP shape (a blank or NULL
            // detail cell): looked for in the first 64 KB.
            return .columns(needed, grouping: grouping)
        }
        guard longer, var tail = FileBytes.tail(path, count: 1 << 16), let start = tail.firstIndex(of: 0x0A) else { return .noGroups }
        tail.removeSubrange(...start)
        guard mayHoldGroups(tail) else { return .noGroups }
        return groups(inSample: first + tail, options)
    }

    /// The groups of a sample of a file's lines (its header first): the columns a sort of them
    /// reads, `.noGroups` for none, `.notLooked` when it is not read as a table.
    private static func groups(inSample part: [UInt8], _ options: SortOptions) -> HeadGroups {
        let reading = options.reading
        guard
            let sample = try? CSV.table(
                bytes: part, types: options.types, encoding: reading.encoding, delimiter: reading.delimiter,
                headerRow: reading.headerRow, dateOrder: reading.dateOrder)
        else { return .notLooked }
        let given = options.groupBy.flatMap { try? givenGrouping($0, names: ColumnNames(sample.columns)) }
        guard let grouping = given ?? RowGrouping.detect(in: sample) else { return .noGroups }
        // The number columns its subtotal and grand total rows fill: one they leave blank
        // has nothing to check (a later summary row with a number in one is found after
        // the read, and the file read again whole).
        guard let label = sample.columnIndex(grouping.column) else { return .notLooked }
        let detail = grouping.detail.flatMap { sample.columnIndex($0) }
        let found = RowGroups(source: sample, column: label, detail: detail)
        let summaryRows = found.groups.flatMap(\.subtotals) + found.grandTotals.map(\.row)
        let filled = sample.columns.indices.filter { c in
            sample.columns[c].type.isNumeric && summaryRows.contains { sample.value(row: $0, column: c).number != nil }
        }
        return .columns(Set([grouping.column] + (grouping.detail.map { [$0] } ?? []) + filled.map { sample.columns[$0].identifier }), grouping: grouping)
    }

    /// The grouping the options ask for (`--group-by`), or the one the source's subtotal rows
    /// announce (unless `--no-groups`), said on standard error.
    /// - Parameter found: the grouping already looked for (`nil`: look now).
    static func grouping(
        _ source: GridDataSource, _ options: SortOptions, names: ColumnNames, found given: RowGrouping?? = nil
    ) throws(CommandError) -> RowGrouping? {
        if let given = options.groupBy { return try givenGrouping(given, names: names, order: options.groupOrder) }
        guard options.findsGroups, var found = given ?? RowGrouping.detect(in: source) else {
            if options.groupOrder != .source {
                throw CommandError(.rule("'--group-order' orders subtotal groups, and the table has none; name them with --group-by COLUMN"))
            }
            return nil
        }
        found.order = options.groupOrder
        return found
    }

    /// The grouping `--group-by` names: a label column, or a label column and the column SQL's
    /// `ROLLUP` leaves blank in a subtotal row (`--group-by 地区,产品`, as `ROLLUP(地区, 产品)`).
    static func givenGrouping(_ given: String, names: ColumnNames, order: RowGrouping.GroupOrder = .source) throws(CommandError) -> RowGrouping {
        let option = "--group-by \(given)"
        if let column = try? names.resolve(given, in: option) { return RowGrouping(column: column, order: order) }
        let parts = given.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingSpaces() }
        guard parts.count == 2 else { return RowGrouping(column: try names.resolve(given, in: option), order: order) }
        let label = try names.resolve(parts[0], in: option), detail = try names.resolve(parts[1], in: option)
        guard label != detail else {
            throw CommandError(.rule("'\(option)' names one column twice; give the label column, then the column its subtotal rows leave blank"))
        }
        return RowGrouping(column: label, detail: detail, order: order)
    }

    /// The note a found grouping is announced with.
    static func groupingNote(_ grid: DataGrid, _ grouping: RowGrouping, given: Bool) -> String? {
        guard !given, let groups = grid.order.groups else { return nil }
        let example = groups.groups.first { !$0.subtotals.isEmpty }.map { groups.label(ofSummaryRow: $0.subtotals[0], in: grid.source) }
        return groupingNote(groups.groups, grandTotals: groups.grandTotals.count, example: example, grouping)
    }

    /// The note groups found are announced with: how many, with an example of their subtotal rows.
    static func groupingNote(_ groups: [RowGroups.Group], grandTotals: Int, example: String?, _ grouping: RowGrouping) -> String {
        let subtotals = groups.reduce(0) { $0 + $1.subtotals.count }
        let column = grouping.column.contains(" ") ? "\"\(grouping.column)\"" : grouping.column
        var note = "\(groups.count) subtotal group\(groups.count == 1 ? "" : "s") by \(Excerpt.of(column))"
        note += " ("
        if let detail = grouping.detail {
            note += "SQL's ROLLUP shape, a subtotal row leaving \(Excerpt.of(detail.contains(" ") ? "\"\(detail)\"" : detail)) blank or NULL: "
        }
        note += "\(subtotals) subtotal row\(subtotals == 1 ? "" : "s")"
        if let example { note += " such as '\(Excerpt.of(example.trimmingSpaces()))'" }
        if grandTotals > 0 { note += ", \(grandTotals) grand total" }
        note += "): rows sort within their groups, each subtotal row stays with its group"
        switch grouping.order {
        case .source: note += " and the groups keep their order"
        case .subtotal: note += " and the groups are ordered by their subtotals"
        case .label: note += " and the groups are ordered by their labels"
        }
        return note + "; --no-groups sorts every row together"
    }

    /// The sort the options ask for, read against a table's column names: its keys, then its
    /// pins (each with the option that gave it, for the warnings), then its summaries.
    static func plan(_ options: SortOptions, names: ColumnNames) throws(CommandError)
        -> (plan: SortPlan, pinOptions: [(option: String, pin: DisplayOrder.Pin)])
    {
        var keys: [SortKey] = []
        for text in options.keys {
            keys.append(try key(text, names: names, locale: options.locale, nulls: options.nulls))
        }
        let pinOptions = try pins(options, names: names)
        var summaries: [SummaryRow] = []
        for text in options.summaries {
            summaries.append(try summary(text, precision: options.precision, names: names))
        }
        return (SortPlan(keys: keys, pins: pinOptions.map(\.pin), summaries: summaries), pinOptions)
    }

    /// `source` in a grid sorted as the options say, its warnings said.
    /// - Parameter found: the grouping of the source, when it was already looked for.
    static func sorted(
        _ source: GridDataSource, _ options: SortOptions, found: RowGrouping?? = nil, io: inout CommandIO
    ) throws(CommandError) -> DataGrid {
        let names = ColumnNames(source)
        var (plan, pinOptions) = try Self.plan(options, names: names)
        let keys = plan.keys
        plan.grouping = try grouping(source, options, names: names, found: found)
        for note in listedKeys(&plan, source: source) { io.stderr += "note: \(note)\n" }
        let grid = DataGrid(bound: source)
        do {
            try grid.apply(plan)
        } catch {
            if case SortError.sourceReadFailed(let message) = error {
                throw Self.readFailure(of: source, shownPath: Excerpt.of(options.input, limit: 200), message, sorting: true)
            }
            throw CommandError.from(error)
        }
        if let grouping = plan.grouping, let note = groupingNote(grid, grouping, given: options.groupBy != nil) {
            io.stderr += "note: \(note)\n"
        }
        // The file's own subtotal and grand total rows are checked; only pinned rows are recomputed.
        let groups = grid.order.groups
        let ownRows = grid.order.subtotalRows.union(groups?.grandTotals.map(\.row) ?? [])
        let rowNumber = Self.rowNumbering(source)
        warn(
            names: names, typeWarnings: grid.sortKeyTypeWarnings, unmatchedPins: grid.unmatchedPins, pinOptions: pinOptions,
            disagreements: grid.summaryDisagreements, unchecked: grid.order.uncheckedSummaryCells,
            notRecomputed: ownRows, hint: keys.isEmpty || groups != nil ? nil : Self.unpinnedSummaryHint(grid, rowNumber: rowNumber),
            rowNumber: rowNumber, io: &io)
        return grid
    }

    /// Writes the sorted grid where and as the options say: an SQLite table, an interactive page,
    /// or text, CSV, JSON or HTML. `columnsRead`: the source was read for some columns only, and
    /// the output copies the records as they are.
    static func write(_ grid: DataGrid, _ options: SortOptions, columnsRead: Bool, io: inout CommandIO) throws(CommandError) {
        let source = grid.source, path = options.input
        // A row whose cells could not be read is never written blank: the output fails instead.
        let failedBefore = (source as? FallibleDataSource)?.failedReads ?? 0
        /// Why a read failed since the sort, if one did.
        func readsFailed() -> String? {
            guard let fallible = source as? FallibleDataSource, fallible.failedReads != failedBefore else { return nil }
            return fallible.readFailure ?? "a read failed"
        }
        func checkReads() throws(CommandError) {
            if let failure = readsFailed() { throw Self.readFailure(of: source, shownPath: Excerpt.of(path, limit: 200), failure) }
        }
        let title =
            path == "-"
            ? "Sorted table"
            : "Sorted " + (options.table ?? (ConnectionSecrets.isConnectionString(path) ? "query" : (path as NSString).lastPathComponent))
        // A CSV file's cells go back as the file held them: writing them adds nothing a spreadsheet
        // would not already have run. Cells from a database are guarded, unless told otherwise.
        let guardFormulas = options.readsDatabase && !options.rawFormulas
        if options.writesSQLite, let output = options.output {
            guard !options.formatGiven else {
                throw CommandError(.rule("'-o \(Excerpt.of(output))' writes an SQLite table; leave out '--format'"))
            }
            let name = options.outputTable ?? "sorted"
            // Resolved as every output is (through links, a read-only file refused unless --force).
            let file = try OutputFile.resolve(
                io.url(for: output).path, shown: Excerpt.of(output, limit: 200),
                replacingReadOnly: io.replacesReadOnlyFiles)
            if case .special = file.kind {
                throw .failure(
                    "cannot write '\(Excerpt.of(output, limit: 200))': an SQLite database is a regular file, and this is "
                        + "a device or a pipe")
            }
            let target = file.path
            // Into the database it reads: the sort is done, so the read snapshot is let go (it
            // would hold the lock the new table's commit needs); the new table is added beside the
            // others, and an existing one is never replaced.
            if let table = source as? SQLiteTableSource, Self.sameFile(table.connection.path, target) {
                table.connection.endSnapshot()
            }
            do {
                let report = try SQLiteExport.write(grid, to: target, table: name, check: readsFailed)
                for (column, example) in report.untypedColumns {
                    io.stderr +=
                        "warning: column '\(Excerpt.of(column))' is written without a type, so that texts such as "
                        + "'\(Excerpt.of(example))' stay as they are\n"
                }
            } catch {
                try checkReads()
                throw .failure("\(Excerpt.of(output, limit: 200)): \(error.message)")
            }
            return
        }
        if options.writesWorkbook, let output = options.output {
            try writeWorkbook(grid, to: output, options, io: &io)
            return
        }
        if options.interactive {
            guard options.format == .html else { throw CommandError(.rule("'--interactive' makes an HTML page; add '--format html'")) }
            let page: String
            do {
                page = try InteractiveGridPage.render(grid, title: title) { column, direction in
                    SortKey(column, direction, comparator: options.locale.map { .text(.localized($0)) } ?? .standard, nulls: options.nulls)
                }
            } catch {
                throw .data("\(error)")
            }
            try io.write(page, to: options.output)
            return
        }
        if options.outputTable != nil {
            throw CommandError(.rule("'--output-table' names the table of an SQLite output; give -o FILE.sqlite"))
        }
        // CSV goes back in the file's own encoding (and byte order mark); text to a terminal in UTF-8.
        let format = options.format
        let encoding = options.outputEncoding ?? (format == .csv ? (source as? Table)?.csvFormat.encoding ?? .utf8 : .utf8)
        if options.outputEncoding != nil, format == .json || format == .html {
            throw CommandError(.rule("'--output-encoding' applies to csv and text output; JSON and HTML are written in UTF-8"))
        }
        var guarded = 0
        // Records left in their file are copied from it: a file changed since it was read would
        // give other bytes (or, cut shorter, none), so its output is not kept.
        let mapped = (source as? Table)?.rawRecords?.mapped
        func checkUnchanged() throws(CommandError) {
            if let mapped, !mapped.isUnchanged() {
                throw .data(
                    "\(Excerpt.of(path, limit: 200)) changed while it was sorted, so its records could not be copied "
                        + "as they were read; sort it again")
            }
        }
        try checkUnchanged()
        // An output that copies the records as they are (the only one read for some columns):
        // the cells read for the sort are let go before it is made (they would be read again
        // from the records if asked for).
        if columnsRead, let table = source as? Table { table.releaseCells() }
        try io.stream(to: options.output, encoding: encoding) { out throws(CommandError) in
            switch format {
            case .text: GridRenderer.writeText(grid, to: out)
            case .csv: guarded = GridRenderer.writeCSV(grid, neutralizeFormulas: guardFormulas, delimiter: options.outputDelimiter, to: out)
            case .json: GridRenderer.writeJSON(grid, to: out)
            case .html: GridRenderer.writeHTML(grid, title: title, to: out)
            }
            try checkUnchanged()
            try checkReads()
        }
        if let table = source as? SQLiteTableSource, table.showedLargeBlobs {
            io.stderr +=
                "note: BLOB cells larger than 1 MiB (\(SQLiteTableSource.largestBlobShown) bytes) are written as their size, "
                + "'(BLOB, N bytes)', not their bytes\n"
        }
        if guarded > 0 {
            io.stderr +=
                "note: \(guarded) cell\(guarded == 1 ? "" : "s") from the database that a spreadsheet would run as a formula "
                + "(starting with = + - @, a tab or a carriage return, and not a number) got a leading '; --raw-formulas writes them as they are\n"
        }
    }

    /// Writes the workbook the rows were read from back to `output` with the sheet's rows in the
    /// grid's order and nothing else changed (``Workbook/reordered(sheet:rows:order:)``).
    static func writeWorkbook(_ grid: DataGrid, to output: String, _ options: SortOptions, io: inout CommandIO) throws(CommandError) {
        let shown = Excerpt.of(output, limit: 200)
        let written: Workbook.Kind = (output as NSString).pathExtension.lowercased() == "ods" ? .ods : .xlsx
        guard let origin = (grid.source as? Table)?.origin as? SheetOrigin else {
            throw CommandError(
                .rule(
                    "'-o \(shown)' writes a workbook back with its rows moved, so the input must be an .\(written.rawValue) workbook; "
                        + "\(Excerpt.of(options.input, limit: 200)) is not one — write CSV (-o FILE.csv)"))
        }
        guard !options.formatGiven else { throw CommandError(.rule("'-o \(shown)' writes a workbook; leave out '--format'")) }
        guard origin.workbook.kind == written else {
            let from =
                switch origin.workbook.kind {
                case .xls: "a legacy .xls workbook (read only)"
                case .ods: "an .ods workbook"
                case .xlsx: "an .xlsx workbook"
                }
            throw CommandError(
                .rule(
                    "'-o \(shown)' would write an .\(written.rawValue) from \(from); a workbook is written back as the kind it is: "
                        + "write .csv, or open it in LibreOffice and save it as .\(written.rawValue) first"))
        }
        let macros = origin.workbook.isMacroEnabled
        if written == .xlsx, macros != ((output as NSString).pathExtension.lowercased() == "xlsm") {
            throw CommandError(
                .rule(
                    macros
                        ? "the workbook holds macros: write it as .xlsm, which Excel opens with them (an .xlsx with macros it refuses)"
                        : "'-o \(shown)': .xlsm is a workbook with macros, and this one has none; write .xlsx"))
        }
        if options.recompute != nil {
            throw CommandError(.rule("'--recompute' rewrites cells, and a workbook is written back with its cells as they are; leave it out"))
        }
        var order: [Int] = []
        order.reserveCapacity(origin.rows.count)
        for row in grid.displayedRows {
            guard case .source(let k) = row else {
                throw CommandError(.rule("'--summary' adds rows the workbook does not have; write CSV to keep them (-o FILE.csv)"))
            }
            order.append(k)
        }
        let bytes: [UInt8]
        do {
            bytes = try origin.workbook.reordered(sheet: origin.sheet, rows: origin.rows, order: order)
        } catch {
            throw error.usage ? CommandError(.rule(error.problem)) : .data("\(Excerpt.of(options.input, limit: 200)): \(error)")
        }
        try io.stream(to: output) { out in out.write(bytes: bytes) }
    }

    /// What a sort says on standard error once it is done, in this order: how names were taken,
    /// cells not of their column's type, pins that took no row, 平均 rows that no longer say what
    /// the body gives, and a summary row left in the body.
    static func warn(
        names: ColumnNames, typeWarnings: [TypeWarning], unmatchedPins: [RowPin],
        pinOptions: [(option: String, pin: DisplayOrder.Pin)], disagreements: [SummaryDisagreement],
        unchecked: [UncheckedSummaryCell] = [], notRecomputed: Set<Int> = [], hint: String?, rowNumber: (Int) -> Int = { $0 + 1 },
        io: inout CommandIO
    ) {
        for note in names.notes { io.stderr += "note: \(note)\n" }
        for warning in typeWarnings { io.stderr += "warning: \(warning.described(rowNumber: rowNumber))\n" }
        for unmatched in unmatchedPins {
            if let option = pinOptions.first(where: { $0.pin.rows == unmatched })?.option {
                io.stderr += "warning: '\(Excerpt.of(option))' matches no row\n"
            }
        }
        // A sheet of thousands of columns says the first few, then how many more.
        let listed = disagreements.count > 12 ? 10 : disagreements.count
        for disagreement in disagreements.prefix(listed) {
            io.stderr +=
                notRecomputed.contains(disagreement.row)
                ? "warning: row \(rowNumber(disagreement.row)): \(disagreement)\n"
                : "warning: \(disagreement); --recompute labels recomputes it\n"
        }
        if disagreements.count > listed {
            let rest = disagreements.dropFirst(listed)
            let columns = Set(rest.map(\.column)).count
            io.stderr +=
                "warning: \(rest.count) more cells of pinned rows do not say what the other rows give (in \(columns) "
                + "more column\(columns == 1 ? "" : "s")); --recompute labels recomputes them\n"
        }
        let shown = unchecked.count > 12 ? 10 : unchecked.count
        for cell in unchecked.prefix(shown) { io.stderr += "note: row \(rowNumber(cell.row)): \(cell)\n" }
        if unchecked.count > shown {
            io.stderr += "note: \(unchecked.count - shown) more cells of summary rows are neither checked nor recomputed\n"
        }
        if let hint { io.stderr += "hint: \(hint)\n" }
    }

    /// The `--pin-top` and `--pin-bottom` options, in order, each with what `--recompute` says
    /// of its rows.
    static func pins(_ options: SortOptions, names: ColumnNames) throws(CommandError) -> [(option: String, pin: DisplayOrder.Pin)] {
        var pins: [(option: String, pin: DisplayOrder.Pin)] = []
        let recompute = options.recompute
        for (option, edge, text) in options.pins {
            let (column, value) = try split(text, at: "=", option: "\(option) <column=value>", example: "组号=平均")
            let pin = RowPin.matching(column: try names.resolve(column, in: "\(option) \(text)"), value: value)
            let function = try recompute?.function(forLabel: value, option: "\(option) \(text)")
            pins.append(
                (
                    "\(option) \(text)",
                    DisplayOrder.Pin(
                        pin, at: edge, recomputing: function,
                        precision: function == nil ? nil : options.precision)
                ))
        }
        if recompute != nil && pins.isEmpty {
            throw CommandError(.rule("'--recompute' recomputes pinned rows; pin them with --pin-bottom or --pin-top"))
        }
        if let label = recompute?.unusedLabel(pinned: pins.compactMap { if case .matching(_, let value) = $0.pin.rows { value } else { nil } }) {
            throw CommandError(.rule("'--recompute' names '\(Excerpt.of(label))', which no --pin-top or --pin-bottom pins"))
        }
        return pins
    }

    /// A row at the start or end of the source whose first cell reads as a summary's label (平均,
    /// 合计, Total, …) that the sort moved into the body: the option that keeps it where it was.
    /// How messages number a source's rows: from 1 after the header, or, for a workbook's
    /// sheet, by the sheet's own row numbers (what the user sees in Excel).
    static func rowNumbering(_ source: GridDataSource) -> (Int) -> Int {
        guard let origin = (source as? Table)?.origin as? SheetOrigin else { return { $0 + 1 } }
        let rows = origin.rows
        return { $0 >= 0 && $0 < rows.count ? rows[$0] : $0 + 1 }
    }

    static func unpinnedSummaryHint(_ grid: DataGrid, rowNumber: (Int) -> Int = { $0 + 1 }) -> String? {
        let count = grid.rowCount
        guard count > 1, let first = grid.columns.first else { return nil }
        let order = grid.order
        let rows = Array(Set([0, count - 2, count - 1].filter { $0 >= 0 && $0 < count })).sorted().map { row in
            (
                row: row, label: grid.source.text(row: row, column: 0),
                pinned: order.pinnedTop.contains(row) || order.pinnedBottom.contains(row)
            )
        }
        return unpinnedSummaryHint(rowCount: count, firstColumn: first.identifier, rows: rows, rowNumber: rowNumber)
    }

    /// ``unpinnedSummaryHint(_:rowNumber:)`` from the first cells of the first and last two rows (and
    /// whether each is pinned) of a table of `rowCount` rows.
    static func unpinnedSummaryHint(
        rowCount count: Int, firstColumn: String, rows: [(row: Int, label: String, pinned: Bool)], rowNumber: (Int) -> Int = { $0 + 1 }
    ) -> String? {
        guard count > 1 else { return nil }
        for (row, text, pinned) in rows.sorted(by: { $0.row < $1.row }) where row == 0 || row >= count - 2 {
            let label = text.trimmingSpaces()
            guard !label.isEmpty, let function = SummaryFunction(label: label) else { continue }
            // Only the labels a table's own summary row carries (a mean, a sum), not max or count.
            switch function {
            case .mean, .sum: break
            default: continue
            }
            // Still in the body, not pinned: where the sort put it.
            guard !pinned else { continue }
            let option = row == 0 ? "--pin-top" : "--pin-bottom"
            let column = firstColumn.contains(" ") ? "\"\(firstColumn)\"" : firstColumn
            return "row \(rowNumber(row)) ('\(Excerpt.of(label))') looks like a summary row and is sorted with the others; "
                + "\(option) \(column)=\(Excerpt.of(label)) keeps it \(row == 0 ? "first" : "last")"
        }
        return nil
    }

    /// The columns of a CSV file a sort to CSV reads: those it orders by and those it summarises.
    /// The others go back as the file's records held them, so their cells are neither read nor
    /// typed (they are read as text if anything asks for them). `nil` — every column — where
    /// more is needed: text, JSON, HTML and SQLite output show each cell's type; CSV with another
    /// delimiter (a .tsv output) is written field by field; pinned rows are checked against every
    /// number column (a 平均 row that no longer says what the body gives), and --recompute
    /// recomputes them. A name that does not resolve reads every column, and the sort then says
    /// what is wrong with it.
    /// - Parameter also: the identifiers of more columns to read (a grouping's).
    static func columnsRead(_ options: SortOptions, also: Set<String> = []) -> CSV.ColumnSelection? {
        guard options.format == .csv, options.outputDelimiter == nil, options.recompute == nil, options.pins.isEmpty,
            !options.interactive, !options.writesSQLite
        else { return nil }
        let keys = options.keys, summaries = options.summaries, locale = options.locale, nulls = options.nulls
        let groupBy = options.groupBy
        return { columns in
            let names = ColumnNames(columns)
            var read = Set(columns.indices.filter { also.contains(columns[$0].identifier) })
            if let groupBy {
                guard let grouping = try? givenGrouping(groupBy, names: names) else { return nil }
                for name in [grouping.column] + (grouping.detail.map { [$0] } ?? []) {
                    guard let c = columns.firstIndex(where: { $0.identifier == name }) else { return nil }
                    read.insert(c)
                }
            }
            for text in keys {
                guard let key = try? key(text, names: names, locale: locale, nulls: nulls),
                    let c = columns.firstIndex(where: { $0.identifier == key.column })
                else { return nil }
                read.insert(c)
            }
            for text in summaries {
                guard let summary = try? summary(text, precision: nil, names: names) else { return nil }
                for column in summary.columns {
                    guard let c = columns.firstIndex(where: { $0.identifier == column }) else { return nil }
                    read.insert(c)
                }
            }
            return read
        }
    }

    /// `--nulls`, shared by sort and view: last unless told.
    static func nulls(_ parsed: ParsedArguments) throws(CommandError) -> NullPlacement {
        try value(
            parsed.value("--nulls"), option: "--nulls <placement>", expected: "last, first or smallest",
            NullPlacement.init(rawValue:)) ?? .last
    }

    /// `--locale`, checked against ICU's collations.
    static func locale(_ parsed: ParsedArguments) throws(CommandError) -> String? {
        let locale = parsed.value("--locale")
        if let locale, let error = TextComparator.localized(locale).checkLocale() {
            throw CommandError(.rule("Invalid value '\(Excerpt.of(locale))' for '--locale <id>': \(error)"))
        }
        return locale
    }

    /// `--type COLUMN=TYPE`, each.
    static func types(_ parsed: ParsedArguments) throws(CommandError) -> [String: ColumnType] {
        var types: [String: ColumnType] = [:]
        for text in parsed.values["--type"] ?? [] {
            let (column, name) = try split(text, at: "=", option: "--type <column=type>", example: "score=decimal")
            guard let type = ColumnType(rawValue: name.lowercased()) else {
                throw CommandError(.invalidPart(kind: "type", part: name, given: "--type \(text)", expected: "integer, decimal, text, boolean or date"))
            }
            types[column] = type
        }
        return types
    }

    /// Whether two paths name one file (its device and inode), as a link or another spelling may.
    static func sameFile(_ a: String, _ b: String) -> Bool {
        var x = stat(), y = stat()
        guard stat(a, &x) == 0, stat(b, &y) == 0 else { return false }
        return x.st_dev == y.st_dev && x.st_ino == y.st_ino
    }

    /// The error of a source whose cells could not be read while its rows were written: a server
    /// lost or out of reach is unavailable (69), anything else the data's (65).
    static func readFailure(of source: GridDataSource, shownPath: String, _ message: String?, sorting: Bool = false) -> CommandError {
        let text =
            "\(shownPath): \(message ?? "a read failed")"
            + (sorting ? "; the rows could not be read to sort them" : "; the output was not made, since rows would have been written blank")
        if let table = source as? PostgreSQLTableSource, let kind = table.lastError?.kind,
            kind == .connectionLost || kind == .unreachable
        {
            return .unavailable(text)
        }
        return .data(text)
    }

    /// A `--by` value: the column (which may itself hold colons), then modifiers in any case.
    static func key(_ text: String, names: ColumnNames, locale: String?, nulls: NullPlacement) throws(CommandError) -> SortKey {
        var column = text
        var suffixes: [String] = []
        var listed: [String]?
        while !names.names(column), let colon = column.lastIndex(of: ":") {
            let suffix = String(column[column.index(after: colon)...])
            // :order=优,良,中,差 — the key's own list.
            if suffix.lowercased().hasPrefix("order="), listed == nil {
                let items = suffix.dropFirst("order=".count).split(separator: ",", omittingEmptySubsequences: false).map {
                    $0.trimmingSpaces()
                }
                guard !items.isEmpty, !items.contains(where: \.isEmpty), Set(items).count == items.count else {
                    throw CommandError(
                        .invalidPart(
                            kind: "order", part: suffix, given: "--by \(text)",
                            expected: "order= and the values in order, each once, separated by commas (等级:order=优,良,中,差)"))
                }
                listed = items
                column = String(column[..<colon])
                continue
            }
            guard modifiers.contains(suffix.lowercased()) else {
                let rest = String(column[..<colon])
                if names.names(rest) || suffixes.count > 0 {
                    throw CommandError(
                        .invalidPart(
                            kind: "sort modifier", part: suffix, given: "--by \(text)",
                            expected: modifiers.joined(separator: ", ")))
                }
                break
            }
            suffixes.insert(suffix.lowercased(), at: 0)
            column = String(column[..<colon])
        }
        column = try names.resolve(column, in: "--by \(text)")
        var direction = SortDirection.ascending
        var comparator: KeyComparator = locale.map { .text(.localized($0)) } ?? .standard
        for suffix in suffixes {
            switch suffix {
            case "asc": direction = .ascending
            case "desc": direction = .descending
            // A comparator named on the key compares every cell as text (1.11 among versions).
            case "natural": comparator = .asText(.natural)
            case "natural-decimal": comparator = .asText(.naturalDecimal)
            case "lexical": comparator = .asText(.lexical)
            case "nocase": comparator = .asText(.caseInsensitive)
            default: comparator = .asText(.localized(locale ?? "root"))
            }
        }
        if let listed { comparator = .asText(.listed(listed)) }
        return SortKey(column, direction, comparator: comparator, nulls: nulls)
    }

    /// The keys of `plan` whose comparator was not named, each on a text column whose values all
    /// belong to one of the built-in lists (天干, 一月…十二月, 优良中差, …): sorted by the list, with
    /// the note that says so.
    static func listedKeys(_ plan: inout SortPlan, source: GridDataSource) -> [String] {
        var notes: [String] = []
        for (k, key) in plan.keys.enumerated() {
            // A comparator named on the key (`:natural`, `:order=`…) is `.asText`: kept.
            switch key.comparator {
            case .standard, .text(.localized): break
            default: continue
            }
            guard let c = source.columns.firstIndex(where: { $0.identifier == key.column }), !source.columns[c].type.isNumeric else { continue }
            guard let list = CustomList.matching(column: c, in: source) else { continue }
            plan.keys[k].comparator = .asText(list.comparator)
            let title = key.column.contains(" ") ? "\"\(key.column)\"" : key.column
            notes.append(
                "every value of \(Excerpt.of(title)) is in the list \(list.items.joined(separator: ", ")): sorted in that order; "
                    + "--by \(Excerpt.of(title)):natural sorts them as text")
        }
        return notes
    }

    /// A `--summary` value: `[LABEL=]FUNC:COLUMN[,COLUMN…]`.
    static func summary(_ text: String, precision: Int?, names: ColumnNames) throws(CommandError) -> SummaryRow {
        let (head, list) = try split(text, at: ":", option: "--summary <[label=]func:columns>", example: "平均=mean:分数")
        var label: String?
        var name = head
        if let equals = head.lastIndex(of: "=") {
            label = String(head[..<equals])
            name = String(head[head.index(after: equals)...])
        }
        guard let function = SummaryFunction(name: name) else {
            throw CommandError(.invalidPart(kind: "function", part: name, given: "--summary \(text)", expected: "mean, sum, count, min or max"))
        }
        let columns = try list.components(separatedBy: ",").map { (column: String) throws(CommandError) -> String in
            try names.resolve(column, in: "--summary \(text)")
        }
        return SummaryRow(function, columns: columns, label: label, precision: precision)
    }

    static func value<T>(_ text: String?, option: String, expected: String, _ make: (String) -> T?) throws(CommandError) -> T? {
        guard let text else { return nil }
        guard let value = make(text) ?? make(text.lowercased()) else {
            throw CommandError(.invalidValue(text, option: option, expected: expected))
        }
        return value
    }

    static func split(
        _ text: String, at separator: Character, option: String,
        example: String
    ) throws(CommandError) -> (String, String) {
        guard let index = text.firstIndex(of: separator), index != text.startIndex else {
            throw CommandError(.invalidValue(text, option: option, expected: "something like \(example)"))
        }
        return (String(text[..<index]), String(text[text.index(after: index)...]))
    }
}
