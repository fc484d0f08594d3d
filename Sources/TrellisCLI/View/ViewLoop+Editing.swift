import Foundation
import TrellisGrid

/// Editing in the viewer, as in a DataGridView: `e` edits the cell under the cursor (Enter
/// commits, Esc cancels), the row stays where it is until the next sort, summary rows follow at
/// once; `U` undoes the last edit; Ctrl-S saves — to the file it was read from (after a `y`) or
/// to a name typed — with every byte but the edited cells' as the file had them; `q` with edits
/// not saved asks first.
extension ViewLoop {
    /// One cell's change: the cell (a source row and a column) and its text before and after.
    struct CellChange: Equatable {
        var row: Int
        var column: Int
        var before: String
        var after: String
    }

    /// One edit, kept to undo it: the cell typed, then the summary cells that followed it.
    struct Edit: Equatable {
        var changes: [CellChange]
        var row: Int { changes[0].row }
        var column: Int { changes[0].column }
    }

    /// A question on the status line that the next key answers.
    enum Confirmation: Equatable {
        /// Replace the file the table was read from with the edits (`y`).
        case replace(path: String)
        /// Quit with edits not saved (`q` again).
        case quit
        /// Write the staged cells to the database table they were read from (`y`).
        case update
    }

    /// Whether the file's sheet is on screen and whole, so that its cells may change; else the
    /// status line says why not (`what` is the change: "edits", "its columns' types").
    mutating func tableTakesChanges(_ what: String) -> Bool {
        guard sheets.count == 1 else {
            screen.message = "a view keeps its cells: q goes back to the table, where \(what) are made"
            return false
        }
        guard background == nil else {
            screen.message = "the file is still being read: \(what) wait until it is whole"
            return false
        }
        return true
    }

    /// `e`: the current cell's text, to edit on the status line.
    mutating func beginEdit() {
        guard tableTakesChanges("edits") else { return }
        let grid = screen.grid
        guard case .source(let row)? = grid.displayedRow(at: screen.current) else {
            screen.message = "this row is computed (a summary), not one of the file's: it follows the rows it sums"
            return
        }
        if let refusal = Self.editRefusal(grid.source) {
            screen.message = refusal
            return
        }
        prompt = Prompt(kind: .edit(row: row, column: screen.column), text: grid.source.text(row: row, column: screen.column))
    }

    /// Why the cells of `source` cannot be edited here, or `nil`.
    static func editRefusal(_ source: GridDataSource) -> String? {
        if source is Table || source is EditableDataSource || source is StagingDataSource { return nil }
        return "this table is read from a database server, which trellis view opens read-only: its cells are not edited here"
    }

    /// Enter on an edit: the cell takes `text`.
    mutating func commitEdit(row: Int, column: Int, text: String) {
        let grid = screen.grid
        let before = grid.source.text(row: row, column: column)
        guard text != before else {
            screen.message = "unchanged"
            return
        }
        // The summary cells that say now what their label's function of the rows gives: they
        // follow — pinned rows (平均, 合计) over the body, a sheet's subtotal rows over their own
        // group and its grand total over every group.
        let following = Self.summaryCellsThatAgree(grid).filter { $0 != (row, column) }
        let followingGroups = Self.groupCellsThatAgree(grid).filter { $0 != (row, column) }
        do {
            try grid.editCell(row: row, column: column, text: text)
        } catch {
            screen.message = "not edited: \(error)"
            return
        }
        var changes = [CellChange(row: row, column: column, before: before, after: text)]
        let recomputed = Self.recomputed(following, in: grid) + grid.order.recomputedGroupCells(followingGroups, source: grid.source).map { ($0.cell, $0.text) }
        let followed = recomputed.compactMap { cell, text -> CellChange? in
            let was = grid.source.text(row: cell.row, column: cell.column)
            return was == text ? nil : CellChange(row: cell.row, column: cell.column, before: was, after: text)
        }
        // (Set together: the grid refreshes once for them all.)
        if (try? grid.editCells(followed.map { ($0.row, $0.column, $0.after) })) != nil { changes += followed }
        edits.append(Edit(changes: changes))
        editsSinceSave += 1
        for change in changes { noteEdit(ofColumn: change.column) }
        let count = changes.count - 1
        screen.message =
            "edited" + (count > 0 ? ", with \(count) summary cell\(count == 1 ? "" : "s")" : "") + " · U undoes · Ctrl-S saves"
    }

    /// The number cells of the pinned summary rows (rows whose label names a function: 平均, 合计,
    /// Total) that say what that function of the other rows gives: each checked, neither stale nor
    /// of a meaning the check could not establish (a rate, a share). What an edit carries along.
    static func summaryCellsThatAgree(_ grid: DataGrid) -> [(row: Int, column: Int)] {
        let order = grid.order
        // (A sheet's grand total stands pinned, and follows its groups: see groupCellsThatAgree.)
        let grandTotals = Set(order.groups?.grandTotals.map(\.row) ?? [])
        let rows = (order.pinnedTop + order.pinnedBottom).filter { !grandTotals.contains($0) && labelFunction($0, in: grid) != nil }
        return agreeingCells(of: rows, in: grid)
    }

    /// The number cells of a sheet's subtotal and grand total rows that say what their label's
    /// function of the rows they summarise gives: each checked, neither stale nor of a meaning
    /// the check could not establish (and not of a row that names no function).
    static func groupCellsThatAgree(_ grid: DataGrid) -> [(row: Int, column: Int)] {
        guard let groups = grid.order.groups else { return [] }
        let named = zip(groups.groups.flatMap(\.subtotals), groups.groups.flatMap(\.functions)) + groups.grandTotals.map { ($0.row, $0.function) }
        return agreeingCells(of: named.filter { $0.1 != nil }.map(\.0), in: grid)
    }

    /// The number cells of `rows` the order's checks found neither stale nor unknown.
    static func agreeingCells(of rows: [Int], in grid: DataGrid) -> [(row: Int, column: Int)] {
        let order = grid.order
        guard !rows.isEmpty else { return [] }
        /// A summary cell as the checks name it: its row and its column's identifier.
        struct Named: Hashable {
            var row: Int
            var column: String
        }
        let doubtful = Set(
            order.summaryDisagreements.map { Named(row: $0.row, column: $0.column) }
                + order.uncheckedSummaryCells.map { Named(row: $0.row, column: $0.column) })
        var cells: [(row: Int, column: Int)] = []
        for row in rows {
            for (c, column) in grid.columns.enumerated() where column.type.isNumeric && grid.source.value(row: row, column: c).number != nil {
                if !doubtful.contains(Named(row: row, column: column.identifier)) { cells.append((row, c)) }
            }
        }
        return cells
    }

    /// The function a row's label names (its first cell that reads as one: 平均, 合计, Total).
    static func labelFunction(_ row: Int, in grid: DataGrid) -> SummaryFunction? {
        for (c, column) in grid.columns.enumerated().prefix(8) where !column.type.isNumeric {
            let text = grid.source.text(row: row, column: c).trimmingCharacters(in: .whitespaces)
            if !text.isEmpty, let function = SummaryFunction(label: text) { return function }
        }
        return nil
    }

    /// What `cells` of pinned summary rows say once recomputed, by the rules of `--recompute`:
    /// the grid's pins each recomputing its rows' label's function (written with as many
    /// decimals as the cell had), a cell whose meaning is a ratio of other cells recomputed as
    /// that ratio.
    static func recomputed(_ cells: [(row: Int, column: Int)], in grid: DataGrid) -> [((row: Int, column: Int), String)] {
        guard !cells.isEmpty else { return [] }
        // One order of the source's rows as they are (no sort), its pins recomputing.
        let pins = grid.plan.pins.map { pin -> DisplayOrder.Pin in
            let function: SummaryFunction?
            switch pin.rows {
            case .row(let row): function = labelFunction(row, in: grid)
            case .matching(_, let value): function = SummaryFunction(label: value.trimmingCharacters(in: .whitespaces))
            }
            return DisplayOrder.Pin(pin.rows, at: pin.edge, recomputing: function)
        }
        // (With the grid's groups: a sheet's subtotal rows are not rows a pinned row summarises.)
        guard let order = try? DisplayOrder(source: grid.source, plan: SortPlan(pins: pins, grouping: grid.plan.grouping)) else { return [] }
        return cells.compactMap { cell in order.recomputedChange(row: cell.row, column: cell.column, in: grid.source).map { (cell, $0) } }
    }

    /// `U`: the last edit undone (the cell takes its text before it).
    mutating func undoEdit() {
        guard sheets.count == 1 else {
            screen.message = "U undoes an edit of the table: q goes back to it"
            return
        }
        guard let last = edits.popLast() else {
            screen.message = "nothing to undo"
            return
        }
        do {
            try screen.grid.editCells(last.changes.reversed().map { ($0.row, $0.column, $0.before) })
        } catch {
            screen.message = "not undone: \(error)"
            return
        }
        editsSinceSave += 1
        for change in last.changes { noteEdit(ofColumn: change.column) }
        if let index = screen.grid.displayIndex(ofSourceRow: last.row) { screen.current = index }
        screen.column = last.column
        screen.message = edits.isEmpty ? "undone: no edits left" : "undone · \(edits.count) edit\(edits.count == 1 ? "" : "s") left"
    }

    /// VisiData's type keys: the current column read as integers (`#`), decimals (`%`, and `$`
    /// for amounts, which a decimal column reads with their symbols and separators), text (`~`)
    /// or dates (`@`). The cells' texts stay as they are (and are saved as they are), and so do
    /// the rows, until the next sort: as VisiData's, and as after an edit.
    mutating func setColumnType(_ key: Character) {
        let types: [Character: ColumnType] = ["#": .integer, "%": .decimal, "$": .decimal, "~": .text, "@": .date]
        guard let type = types[key], tableTakesChanges("type changes") else { return }
        let grid = screen.grid
        guard let table = grid.source as? Table else {
            screen.message = "a database's columns have the database's types"
            return
        }
        let column = screen.column
        do {
            // The rows stay where they are until the next sort (as VisiData's do, and as after an edit).
            try grid.setType(type, ofColumn: column)
        } catch {
            screen.message = "\(error)"
            return
        }
        let others = table.cellsNotOfType(column: column)
        let key = grid.sortKeys.contains { $0.column == grid.columns[column].identifier }
        screen.message =
            "\(grid.columns[column].title) read as \(type.rawValue)"
            + (others > 0 ? " · \(GridScreen.grouped(others)) cell\(others == 1 ? " is" : "s are") not (a sort puts them after)" : "")
            + (key ? " · the rows stay until the next sort" : "")
    }

    /// Ctrl-S: the name to save to, the file's own offered.
    mutating func beginSave() {
        guard sheets.count == 1 else {
            screen.message = "Ctrl-S saves the table: q goes back to it"
            return
        }
        guard saveFile != nil else {
            screen.message = "this table cannot be saved from here"
            return
        }
        if let refusal = saveRefusal { screen.message = refusal; return }
        if let staging = screen.grid.source as? StagingDataSource {
            // A database table: its edited cells written back to it, after a `y`.
            let count = staging.stagedCellCount
            guard count > 0 else {
                screen.message = "nothing to save: \(staging.storageDescription) holds what is shown"
                return
            }
            confirmation = .update
            // (The key first: a narrow terminal cuts the line's end.)
            screen.question =
                "y writes \(count) edited cell\(count == 1 ? "" : "s") to \(staging.storageDescription) (UPDATE, one transaction)"
                + " · any other key does not"
            return
        }
        prompt = Prompt(kind: .save, text: sourcePath ?? "")
    }

    /// Enter on the save prompt: the file it names written, after a `y` when it is the file read.
    mutating func commitSave(to path: String) {
        let path = path.trimmingCharacters(in: .whitespaces)
        guard !path.isEmpty else {
            screen.message = "not saved: type a file name"
            return
        }
        if let sourcePath, SortCommand.sameFile(resolved(path), resolved(sourcePath)) {
            confirmation = .replace(path: path)
            screen.question = "replace \(Excerpt.of(path)) with the edits? y saves · any other key does not"
            return
        }
        save(to: path)
    }

    /// Writes the table to `path`.
    mutating func save(to path: String) {
        guard let saveFile else { return }
        do {
            screen.message = try saveFile(screen.grid, path)
            editsSinceSave = 0
        } catch {
            screen.message = "not saved: \(error.message)"
        }
    }

    /// Writes the staged cells to the database table (all or none), and says so.
    mutating func saveStagedEdits() {
        guard let staging = screen.grid.source as? StagingDataSource else { return }
        do {
            let written = try staging.saveStagedEdits()
            editsSinceSave = 0
            screen.message = "saved \(written) cell\(written == 1 ? "" : "s") to \(staging.storageDescription) in one transaction"
        } catch {
            screen.message = "not saved (nothing written): \(error)"
        }
    }

    /// A name typed, as a path from the folder the viewer was started in.
    func resolved(_ path: String) -> String { URL(fileURLWithPath: path, relativeTo: workingDirectory).path }

    /// The key that answers a question on the status line.
    mutating func answer(_ confirmation: Confirmation, with event: Event) -> Outcome {
        self.confirmation = nil
        screen.question = nil
        switch (confirmation, event) {
        case (.replace(let path), .character("y")), (.replace(let path), .character("Y")):
            save(to: path)
        case (.update, .character("y")), (.update, .character("Y")):
            saveStagedEdits()
        case (.replace, _), (.update, _):
            screen.message = "not saved"
        case (.quit, .character("q")):
            return .quit
        case (.quit, .save):
            beginSave()
        case (.quit, .interrupt):
            interrupted = true
            return .quit
        case (.quit, _):
            screen.message = "still here: Ctrl-S saves, q quits"
        }
        return .go
    }

    /// `q` on the table: quit, or ask first when edits are not saved.
    mutating func quitOrAsk() -> Outcome {
        guard editsSinceSave > 0 else { return .quit }
        confirmation = .quit
        screen.question =
            "\(editsSinceSave) change\(editsSinceSave == 1 ? "" : "s") not saved: q quits without saving · Ctrl-S saves · any other key stays"
        return .go
    }
}
