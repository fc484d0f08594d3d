import Foundation

/// Rows pinned to an edge, and summary rows.
extension DataGrid {
    /// Pins rows (by position or by a cell's value) to the top or the bottom edge; pinned rows keep
    /// the order in which they were pinned and are never sorted. With `recomputing`, the pinned
    /// rows are the user's own summary rows: their cells that hold numbers, in number columns,
    /// show that function of the body (blanks, labels and notes stay as they are), written with
    /// `precision` decimals — by default as many as the row's own cell has, at least the column's
    /// — and follow every change. `SummaryFunction(label:)` gives the function a row's label
    /// names (平均 → mean, 合计 → sum).
    public func pin(_ pin: RowPin, at edge: PinEdge, recomputing: SummaryFunction? = nil, precision: Int? = nil) throws(SortError) {
        try check(pin)
        pins.append(DisplayOrder.Pin(pin, at: edge, recomputing: recomputing, precision: precision))
        // Pinning only takes rows out of the body: the rest keep their sorted order — when the
        // body is sorted, that is, and not shown in source order after a refresh that failed.
        refreshQuietly(lastError == nil ? .pinsAdded : .any)
    }

    /// Takes `row` (a source position) out of the pin that holds it and back into the body, in
    /// its sorted place: a pin of that row alone is removed; a pin by value (`组号 = 平均`) is
    /// removed whole, so every row it held goes back. Returns the pin removed, or `nil` when the
    /// row was not pinned.
    @discardableResult
    public func unpin(sourceRow row: Int) -> RowPin? {
        guard row >= 0, row < rowCount else { return nil }
        for (index, pin) in pins.enumerated() {
            let holds: Bool
            switch pin.rows {
            case .row(let pinned): holds = pinned == row
            case .matching(let column, let value):
                guard let c = columns.firstIndex(where: { $0.identifier == column }) else { holds = false; break }
                var text = source.text(row: row, column: c)
                let target = PinTarget(value)
                holds = text.withUTF8 { target.matches($0) }
            }
            guard holds else { continue }
            pins.remove(at: index)
            refreshQuietly(.pinsRemoved)
            return pin.rows
        }
        return nil
    }

    /// Removes every pin.
    public func removePins() {
        pins = []
        refreshQuietly(.pinsRemoved)
    }

    /// Adds a summary row computed over the body.
    public func addSummary(_ summary: SummaryRow) throws(SortError) {
        try BoundSortPlan(SortPlan(summaries: [summary]), columns: columns).checkSummaryColumns()
        summaries.append(summary)
        refreshQuietly()
    }

    /// Removes every summary row.
    public func removeSummaries() {
        summaries = []
        refreshQuietly()
    }

    /// Throws for a pin of a column the source lacks or of a row it does not have.
    func check(_ pin: RowPin) throws(SortError) {
        if case .matching(let column, _) = pin, !columns.contains(where: { $0.identifier == column }) {
            throw .unknownColumn(column, columns: columns.map(\.identifier))
        }
        if case .row(let row) = pin, !(0..<rowCount).contains(row) {
            throw .noSuchRow(row, rowCount: rowCount)
        }
    }
}

extension DataGrid {
    /// Keeps subtotal groups together (see ``RowGrouping``), or, with `nil`, sorts every row
    /// together again. Throws for a column the source lacks; the grid is then as it was.
    public func setGrouping(_ grouping: RowGrouping?) throws(SortError) {
        if let grouping, !columns.contains(where: { $0.identifier == grouping.column }) {
            throw .unknownColumn(grouping.column, columns: columns.map(\.identifier))
        }
        try change(\.grouping, to: grouping)
    }
}
