import Foundation

/// What a grid shows: its displayed rows, and each one's cells.
extension DataGrid {
    /// Every row as shown: pinned top rows, top summaries, the sorted body, pinned bottom rows,
    /// bottom summaries.
    public var displayedRows: [DisplayRow] {
        // One order for every row: a source whose row count moves between reads would make
        // another at the next read of `order`, under the loop.
        let order = self.order
        return (0..<order.count).map { order.row(at: $0)! }
    }

    /// The number of ``displayedRows``, without building them.
    public var displayedRowCount: Int { order.count }

    /// The row shown at `index` of the display, or `nil` outside it. O(1).
    public func displayedRow(at index: Int) -> DisplayRow? { order.row(at: index) }

    /// Where a source row is shown, or `nil` when it is not. O(1).
    public func displayIndex(ofSourceRow row: Int) -> Int? { order.displayIndex(ofSourceRow: row) }

    /// The body rows (source positions) in their displayed order.
    public var bodyRows: RowList { order.body }

    /// How many displayed rows are pinned to the top (pinned rows and top summaries).
    public var pinnedTopCount: Int { order.pinnedTopCount }

    /// How many displayed rows are pinned to the bottom (pinned rows and bottom summaries).
    public var pinnedBottomCount: Int { order.pinnedBottomCount }

    /// The region of a displayed row (`.body` for a row that is not displayed).
    public func region(of row: DisplayRow) -> RowRegion { order.region(of: row) }

    /// Tells a source that fetches rows from elsewhere (a ``PrefetchingDataSource``: a database)
    /// which rows the displayed rows in `range` are, so that it reads that window in one go before
    /// its cells are read: what a virtual-scrolling view calls for its visible rows.
    public func prefetch(displayedRows range: Range<Int>) {
        guard let prefetching = source as? PrefetchingDataSource else { return }
        var rows: [Int] = []
        rows.reserveCapacity(range.count)
        for index in range.clamped(to: 0..<order.count) {
            if case .source(let row)? = order.row(at: index) { rows.append(row) }
        }
        if !rows.isEmpty { prefetching.prefetch(rows: rows) }
    }

    /// The value shown in `row` and `column` (a position in ``columns``). A summary row shows its
    /// function's result in its columns and its label in the first other column; a recomputed
    /// pinned row shows its function's result in its number columns.
    public func value(_ row: DisplayRow, column: Int) -> CellValue {
        switch row {
        case .source(let index):
            if let cell = order.recomputedCell(row: index, column: column) { return cell.value }
            return source.value(row: index, column: column)
        case .summary(let index):
            return order.summaryCell(index, column: column, columns: columns).value
        }
    }

    /// The text shown in `row` and `column`: a source cell's own text (never rewritten), or a
    /// summary written with its column's decimals.
    public func text(_ row: DisplayRow, column: Int) -> String {
        switch row {
        case .source(let index):
            if let cell = order.recomputedCell(row: index, column: column) { return cell.text }
            return source.text(row: index, column: column)
        case .summary(let index):
            return order.summaryCell(index, column: column, columns: columns).text
        }
    }

    /// Why the source's last read of cells failed, when it can fail (a ``FallibleDataSource``).
    public var readFailure: String? { (source as? FallibleDataSource)?.readFailure }

    /// The source row shown at display `index` when it is shown as the source holds it (not a
    /// summary, not recomputed): renderers read such rows straight from the table.
    @inline(__always)
    package func plainSourceRow(at index: Int) -> Int? { order.plainSourceRow(at: index) }

    /// The column store of `column` when the grid's source keeps one that covers `row`.
    @inline(__always)
    func store(row: Int, column: Int) -> ColumnStore? {
        guard let storage, column >= 0, column < storage.storeCount else { return nil }
        let store = storage.store(column)
        return row >= 0 && row < store.count ? store : nil
    }

    /// Calls `body` with the UTF-8 text of a cell: straight from a table's storage when it can,
    /// which is how renderers write a million rows without making a `String` per cell.
    package func withText<R>(_ row: DisplayRow, column: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if case .source(let index) = row, order.showsAsStored(index), let store = store(row: index, column: column) {
            return store.withText(at: index, body)
        }
        var text = self.text(row, column: column)
        return text.withUTF8(body)
    }

    /// The source's stored cells and the CSV records it was read from, for writers that copy
    /// stored bytes: `nil` for a source that keeps none.
    package var records: RecordKeepingSource? { storage as? RecordKeepingSource }

    /// How CSV written from the grid is written: as its source's file was (encoding, byte order
    /// mark, delimiter, line break), RFC 4180 otherwise.
    package var csvFormat: CSVFormat { records?.csvFormat ?? CSVFormat() }

    /// Whether the cell shown holds a number or a date (renderers align them to the right, as
    /// spreadsheets do).
    package func isNumber(_ row: DisplayRow, column: Int) -> Bool {
        if case .source(let index) = row, order.showsAsStored(index), let store = store(row: index, column: column) {
            let kind = store.kinds[index]
            return kind.isNumber || kind == .date
        }
        switch value(row, column: column) {
        case .integer, .decimal, .date: return true
        default: return false
        }
    }
}
