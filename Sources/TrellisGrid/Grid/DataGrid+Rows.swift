import Foundation

/// A grid's rows and edits: the row count of a virtual grid, rows added, cells set, a reload.
extension DataGrid {
    /// The number of rows of the source.
    public var rowCount: Int { max(0, source.rowCount) }

    /// Sets the number of rows of a virtual grid (`RowCount`): rows are added or taken at the end,
    /// and the grid keeps its sort, pins and summaries current, reading only the rows added.
    /// Other grids take their count from their source.
    public func setRowCount(_ count: Int) throws(TableError) {
        guard let virtual = source as? VirtualSource else { throw .notOwned }
        virtual.rowCount = max(0, count)
    }

    /// Tells a virtual grid that the app inserted rows at `rows` (positions after the insert):
    /// the sort, pins and summaries stay current, the current row and the selection follow their
    /// rows, and only the new rows are read.
    public func insertVirtualRows(_ rows: Range<Int>) throws(TableError) {
        guard let virtual = source as? VirtualSource else { throw .notOwned }
        virtual.insertRows(rows)
    }

    /// Tells a virtual grid that the app removed the rows that were at `rows`.
    public func removeVirtualRows(_ rows: Range<Int>) throws(TableError) {
        guard let virtual = source as? VirtualSource else { throw .notOwned }
        virtual.removeRows(rows)
    }

    /// Called with each edited cell of a virtual grid (`CellValuePushed`): the source row, the
    /// column and the new value, for the app to store.
    public var cellValuePushed: ((Int, Int, CellValue) -> Void)? {
        get { (source as? VirtualSource)?.cellValuePushed }
        set { (source as? VirtualSource)?.cellValuePushed = newValue }
    }

    /// Appends a row to an unbound grid.
    public func addRow(_ values: [CellValue]) throws(TableError) {
        guard mode == .unbound, let table = source as? EditableDataSource else { throw .notOwned }
        try table.appendRow(values: values)
    }

    /// Edits a cell, by source row: an editable source's cell is set (a bound table, or the
    /// unbound grid's own), a virtual grid's is pushed to ``cellValuePushed``. Other sources
    /// cannot be edited through the grid.
    public func setValue(_ value: CellValue, row: Int, column: Int) throws(TableError) {
        if let editable = source as? EditableDataSource { try editable.setValue(value, row: row, column: column); return }
        guard let virtual = source as? VirtualSource else { throw .notOwned }
        guard row >= 0, row < virtual.rowCount else { throw .noSuchRow(row, rowCount: virtual.rowCount) }
        guard columns.indices.contains(column) else { throw .noSuchColumnPosition(column, columnCount: columns.count) }
        virtual.push(row: row, column: column, value: value)
    }

    /// Edits a cell as a person edits one in the grid (DataGridView's committed cell edit, a
    /// cell typed in Excel), by source row: `text` is read as its column's type would read it in
    /// the file, the row stays where it is until the next sort, a row a pin now matches is
    /// pinned, and the summaries and recomputed rows follow the new value at once. A table's cell
    /// is set; a staging source's is staged (``StagingDataSource``: written when it is saved); an
    /// editable source's gets the value the text reads as; a virtual grid's is pushed to
    /// ``cellValuePushed``.
    ///
    /// ``setValue(_:row:column:)`` sets a cell as a change of the source: a sorted grid sorts again.
    public func editCell(row: Int, column: Int, text: String) throws(TableError) {
        try editCells([(row, column, text)])
    }

    /// Reads a column of the grid's table as `type` (`nil`: as inferred from its cells) — a
    /// VisiData type key, a cell format changed in Excel: the cells keep their texts, and the rows
    /// stay where they are until the next sort, as after an edit; summaries and recomputed rows
    /// follow the values the cells now read as at once. (``Table/setType(_:ofColumn:)`` on a
    /// grid's table sorts it again.) Throws for a grid not bound to a table.
    public func setType(_ type: ColumnType?, ofColumn column: Int) throws(TableError) {
        guard let table = source as? Table else { throw .notOwned }
        editsInPlace = true
        editedSinceRefresh = false
        defer {
            editsInPlace = false
            if editedSinceRefresh { refreshQuietly(lastError == nil ? .cellsEdited : .any) }
        }
        try table.setType(type, ofColumn: column)
    }

    /// ``editCell(row:column:text:)`` of several cells at once (an edit and the cells that follow
    /// it, or its undo), with one refresh after them all. A cell that cannot be set throws; the
    /// cells before it are set, and the grid follows them.
    public func editCells(_ cells: [(row: Int, column: Int, text: String)]) throws(TableError) {
        for cell in cells where !columns.indices.contains(cell.column) {
            throw .noSuchColumnPosition(cell.column, columnCount: columns.count)
        }
        // The source's notices of these cells are taken as one edit, refreshed once at the end.
        editsInPlace = true
        editedSinceRefresh = false
        defer {
            editsInPlace = false
            if editedSinceRefresh { refreshQuietly(lastError == nil ? .cellsEdited : .any) }
        }
        for (row, column, text) in cells {
            if let table = source as? Table {
                try table.setText(text, row: row, column: column)
            } else if let staging = source as? StagingDataSource {
                try staging.stage(text: text, row: row, column: column)
            } else {
                let numeric = columns[column].type.isNumeric
                let value = CellValue(CellText.classify(text, CellReading(type: columns[column].type)), text: text, numericColumn: numeric)
                try setValue(value, row: row, column: column)
                // (A virtual source tells no change: its grid follows the pushed value here.)
                if source is VirtualSource { editedSinceRefresh = true }
            }
        }
    }

    /// Reads the source again — after a source that does not announce its changes changed —
    /// keeping the sort keys, pins and summaries. A failure is kept in ``lastError``.
    public func reload() {
        // A virtual source forgets the columns it kept; its reset refreshes the grid.
        if let virtual = source as? VirtualSource { virtual.reset() } else { refreshQuietly() }
    }

    /// Calls `handler` after every refresh of what the grid displays (a sort, a pin, a change of
    /// the source); a layout invalidates itself here.
    public func observe(_ handler: @escaping () -> Void) -> GridObservation {
        notifier.observe { _ in handler() }
    }
}
