import Foundation
import TrellisGrid
import TrellisText

/// The views a viewer opens over a column: its frequency table, its description, the rows of one value.
extension ViewLoop {
    /// `F`: the current column's distinct values with their counts, percentages and bars, in
    /// the column's sort order (by the sheet's key on it, else as a header click sorts it).
    mutating func openFrequency() {
        let clock = ContinuousClock()
        let start = clock.now
        let parent = screen.grid, c = screen.column
        let column = parent.columns[c]
        let table = parent.frequencyTable(ofColumn: c)
        let grid = DataGrid(bound: table)
        let key = parent.sortKeys.first { $0.column == column.identifier } ?? parent.headerKey(column.identifier)
        grid.headerKey = { name in name == "value" ? SortKey("value", comparator: key.comparator, nulls: key.nulls) : SortKey(name) }
        try? grid.sort(by: [SortKey("value", key.direction, comparator: key.comparator, nulls: key.nulls)])
        var sheet = GridScreen(grid: grid, width: width, height: height)
        sheet.name = "values of \(column.title)"
        sheet.bar = 1
        sheet.message =
            "\(Self.counted(table.rowCount, "value")) in \(Self.counted(parent.bodyRows.count, "row")), "
            + String(format: "%.0f ms", Self.milliseconds(clock.now - start)) + " · Enter: its rows"
        sheets.append(Sheet(screen: sheet, kind: .frequency(column: c)))
    }

    /// `I`: every column of the sheet, described.
    /// What a description depends on besides each column's own cells: the rows of the body (not
    /// their order).
    struct DescribedRows: Equatable {
        var rowCount: Int
        var pinnedTop: [Int]
        var pinnedBottom: [Int]
    }

    /// What one column's description is made of, the rows aside: its cells' texts (how many
    /// times they were edited) and the type they are read as — a column read as another type
    /// and back is what it was.
    struct DescribedColumn: Hashable {
        var column: Int
        var edits: Int
        var type: ColumnType
    }

    /// The file's sheet's rows and columns as they are now.
    var describedRows: DescribedRows {
        let grid = sheets[0].screen.grid
        return DescribedRows(rowCount: grid.rowCount, pinnedTop: grid.order.pinnedTop, pinnedBottom: grid.order.pinnedBottom)
    }

    func describedColumn(_ column: Int) -> DescribedColumn {
        DescribedColumn(
            column: column, edits: column < columnEdits.count ? columnEdits[column] : 0,
            type: sheets[0].screen.grid.columns[column].type)
    }

    /// Notes that cells of `column` were edited (or an edit undone): its description is made
    /// again, the others' kept.
    mutating func noteEdit(ofColumn column: Int) {
        if columnEdits.count <= column { columnEdits += [Int](repeating: 0, count: column + 1 - columnEdits.count) }
        columnEdits[column] += 1
    }

    /// The file's sheet described as it is now: each column's description made before for what
    /// it is now taken again, the others made (every column when the rows changed).
    mutating func currentDescription() -> [ColumnProfile] {
        let grid = sheets[0].screen.grid
        let rows = describedRows
        if descriptions.rows != rows { descriptions = (rows, [:]) }
        let wanted = grid.columns.indices.map(describedColumn)
        let missing = wanted.indices.filter { descriptions.columns[wanted[$0]] == nil }
        if !missing.isEmpty {
            let made = missing.count == wanted.count ? grid.describe() : grid.describe(columns: missing)
            for (c, profile) in zip(missing, made) { descriptions.columns[wanted[c]] = profile }
        }
        // Descriptions of cells edited since are let go once they pile up.
        if descriptions.columns.count > 8 * max(1, wanted.count) {
            descriptions.columns = descriptions.columns.filter { $0.key.edits == describedColumn($0.key.column).edits }
        }
        return wanted.map { descriptions.columns[$0]! }
    }

    /// Whether some column's description is missing or out of date.
    var descriptionIsStale: Bool {
        descriptions.rows != describedRows
            || sheets[0].screen.grid.columns.indices.contains { descriptions.columns[describedColumn($0)] == nil }
    }

    /// Whether the file's sheet is described ahead while idle: a table read into memory of at most
    /// ten million cells (a million rows of ten columns: some 70 ms on two cores), which a key
    /// typed meanwhile waits for; a larger one, or a database's, is described when `I` asks.
    var describesAhead: Bool {
        let grid = sheets[0].screen.grid
        return grid.source is Table && grid.rowCount * max(1, grid.columns.count) <= 10_000_000
    }

    /// Makes the file's sheet's description ahead of `I` (while no key comes).
    mutating func describeAhead() {
        _ = currentDescription()
    }

    mutating func openDescription() {
        let clock = ContinuousClock()
        let start = clock.now
        let parent = screen.grid
        // The description made ahead, where it is the file's sheet's as it is now.
        let ready = sheets.count == 1 && !descriptionIsStale
        let profiles = sheets.count == 1 ? currentDescription() : parent.describe()
        let table = Table(columns: [
            Column("column", title: "column"), Column("type", title: "type"),
            Column("count", title: "count", type: .integer), Column("blanks", title: "blanks", type: .integer),
            Column("distinct", title: "distinct", type: .integer),
            Column("min", title: "min"), Column("max", title: "max"),
            Column("mean", title: "mean", type: .decimal), Column("median", title: "median", type: .decimal),
        ])
        do {
            for (c, profile) in profiles.enumerated() {
                try table.appendRow([
                    parent.columns[c].title, profile.type.rawValue, String(profile.count), String(profile.blanks),
                    String(profile.distinct), profile.minimum ?? "", profile.maximum ?? "",
                    profile.mean ?? "", profile.median ?? "",
                ])
            }
        } catch {
            screen.message = "\(error)"
            return
        }
        var sheet = GridScreen(grid: DataGrid(bound: table), width: width, height: height)
        sheet.name = "columns described"
        sheet.current = screen.column
        sheet.message =
            "\(Self.counted(profiles.count, "column")), "
            + (ready ? "described ahead" : String(format: "%.0f ms", Self.milliseconds(clock.now - start)))
            + " · Enter: go to it"
        sheets.append(Sheet(screen: sheet, kind: .describe))
    }

    /// Enter: on a frequency row, the rows of the sheet below with that value; on a described
    /// column, back to the sheet below at that column.
    mutating func enter() {
        let sheet = sheets[sheets.count - 1]
        guard sheets.count > 1 else { return }
        let below = sheets[sheets.count - 2].screen
        switch sheet.kind {
        case .frequency(let c):
            guard case .source(let row)? = sheet.screen.grid.displayedRow(at: sheet.screen.current) else { return }
            let value = sheet.screen.grid.source.text(row: row, column: 0)
            let parent = below.grid
            let column = parent.columns[c]
            let grid = DataGrid(bound: parent.source)
            grid.headerKey = parent.headerKey
            do {
                for pin in parent.order.pins { try grid.pin(pin.rows, at: pin.edge, recomputing: pin.recomputing, precision: pin.precision) }
                for summary in parent.summaries { try grid.addSummary(summary) }
                let mine = RowFilter.equal(column: column.identifier, text: value)
                try grid.setFilter(parent.filter.map { .all([$0, mine]) } ?? mine)
                try grid.sort(by: parent.sortKeys)
            } catch {
                screen.message = "\(error)"
                return
            }
            var filtered = GridScreen(grid: grid, width: width, height: height)
            filtered.name = "\(column.title) = \(value.isEmpty ? "(blank)" : value)"
            filtered.column = c
            filtered.hiddenColumns = below.hiddenColumns
            filtered.widthOverrides = below.widthOverrides
            filtered.warnings = below.warnings
            filtered.message = "\(Self.counted(grid.bodyRows.count, "row")) · q goes back"
            sheets.append(Sheet(screen: filtered, kind: .filtered))
        case .describe:
            let c = sheet.screen.current
            sheets.removeLast()
            if screen.grid.columns.indices.contains(c) {
                screen.hiddenColumns.remove(c)
                screen.column = c
                screen.viewport.reveal(column: c)
            }
        case .file, .filtered: break
        }
    }

    /// `1 row`, `12,000 rows`.
    static func counted(_ n: Int, _ noun: String) -> String {
        "\(GridScreen.grouped(n)) \(noun)\(n == 1 ? "" : "s")"
    }

    /// The whole file, once read, in place of its first lines: the file's sheet keeps its sort,
    /// pins, current row and column; views opened from the first lines stay as they were.
    mutating func finishReading() {
        guard let background, let (outcome, readNotes) = background.take() else { return }
        standardError += readNotes
        self.background = nil
        sheets[0].screen.progress = nil
        let seconds = Self.milliseconds(ContinuousClock.now - background.started) / 1000
        switch outcome {
        case .failure(let error):
            sheets[0].screen.message = "the rest of \(background.name) could not be read: \(error.message)"
        case .success(let table):
            let old = sheets[0].screen.grid
            let grid = DataGrid(bound: table)
            grid.headerKey = old.headerKey
            do {
                for pin in old.order.pins { try grid.pin(pin.rows, at: pin.edge, recomputing: pin.recomputing, precision: pin.precision) }
                try grid.sort(by: old.sortKeys)
            } catch {
                sheets[0].screen.message = "\(error)"
            }
            sheets[0].screen.grid = grid
            sheets[0].screen.warnings = notes + grid.typeWarnings.map { "\($0)" }
            sheets[0].screen.message =
                "\(background.name) read: \(Self.counted(grid.rowCount, "row")) in "
                + String(format: "%.1f s", seconds)
        }
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
}
