import Foundation

/// Sorting a grid: keys from code, header clicks and their cycle, glyphs, and the hooks'
/// refreshes. The order itself is made by ``DisplayOrder``.
extension DataGrid {
    /// Sorts the body by `keys` (most significant first), replacing any whole-row comparator.
    /// Columns must exist; any column may be sorted from code, whatever its sort mode, as in
    /// DataGridView. Nothing changes when the sort is refused.
    public func sort(by keys: [SortKey]) throws(SortError) {
        // The keys' columns and locales, checked before anything changes.
        _ = try BoundSortPlan(SortPlan(keys: keys), columns: columns)
        let previous = (sortKeys, rowComparator)
        sortKeys = keys
        if rowComparator != nil {
            // Setting the comparator's storage directly: its didSet would sort a second time.
            replaceComparatorQuietly(nil)
        }
        do {
            try refresh()
        } catch {
            // The order is as it was: put back the rules that made it.
            sortKeys = previous.0
            replaceComparatorQuietly(previous.1)
            throw error
        }
        onSorted?(self)
    }

    /// Replaces the grid's sort keys, its own order, pins and summaries with `plan`'s, and makes
    /// the order once — what a command that knows them all at the start does, instead of a
    /// refresh per pin and summary. Pins, summaries and keys are checked in that order before
    /// anything changes; nothing changes when the order cannot be made.
    public func apply(_ plan: SortPlan) throws(SortError) {
        if let grouping = plan.grouping, !columns.contains(where: { $0.identifier == grouping.column }) {
            throw .unknownColumn(grouping.column, columns: columns.map(\.identifier))
        }
        for pin in plan.pins { try check(pin.rows) }
        let bound = try BoundSortPlan(plan, columns: columns)
        try bound.checkSummaryColumns()
        let previous = (keys: sortKeys, pins: pins, summaries: summaries, hook: sortCompare, rows: rowComparator, grouping: grouping)
        func setRules(
            keys: [SortKey], pins: [DisplayOrder.Pin], summaries: [SummaryRow],
            hook: ((SortCompareArguments) -> ComparisonResult?)?, rows: ((Int, Int) -> ComparisonResult)?,
            grouping: RowGrouping?
        ) {
            self.grouping = grouping
            suppressComparatorRefresh = true
            sortCompare = hook
            rowComparator = rows
            suppressComparatorRefresh = false
            sortKeys = rows == nil ? keys : []
            self.pins = pins
            self.summaries = summaries
        }
        setRules(
            keys: plan.keys, pins: plan.pins, summaries: plan.summaries, hook: plan.custom?.hook,
            rows: { if case .rows(let rows)? = plan.custom { return rows } else { return nil } }(), grouping: plan.grouping)
        do {
            try refresh()
        } catch {
            // The order is as it was: put back the rules that made it.
            setRules(
                keys: previous.keys, pins: previous.pins, summaries: previous.summaries, hook: previous.hook, rows: previous.rows,
                grouping: previous.grouping)
            throw error
        }
        onSorted?(self)
    }

    private func replaceComparatorQuietly(_ comparator: ((Int, Int) -> ComparisonResult)?) {
        suppressComparatorRefresh = true
        rowComparator = comparator
        suppressComparatorRefresh = false
    }

    func refreshAfterSorting() {
        guard !suppressComparatorRefresh else { return }
        refreshQuietly()
        onSorted?(self)
    }

    /// Removes the sort and the whole-row comparator: the body goes back to the source's order.
    public func removeSort() {
        sortKeys = []
        replaceComparatorQuietly(nil)
        refreshQuietly()
        onSorted?(self)
    }

    /// A click on a column header. Only `automatic` columns react. Without `addingKey` the column
    /// becomes the only key, moving to its next state (ascending → descending → none, or
    /// ascending ⇄ descending with the DataGridView cycle); with `addingKey` (shift) it is added as
    /// the last key, or moves to its next state where it is. A whole-row comparator is replaced.
    public func clickHeader(_ column: String, addingKey: Bool = false) throws(SortError) {
        guard let definition = columns.first(where: { $0.identifier == column }) else {
            throw .unknownColumn(column, columns: columns.map(\.identifier))
        }
        guard definition.sortMode == .automatic else { return }
        var keys = sortKeys
        if let index = keys.firstIndex(where: { $0.column == column }) {
            let next = nextDirection(keys[index].direction)
            if addingKey {
                if let next { keys[index].direction = next } else { keys.remove(at: index) }
            } else {
                keys =
                    next.map { direction in
                        var key = keys[index]
                        key.direction = direction
                        return [key]
                    } ?? []
            }
        } else if addingKey {
            keys.append(headerKey(column))
        } else {
            keys = [headerKey(column)]
        }
        try sort(by: keys)
    }

    /// Sorts by `column` in `direction`: as the only key, or with `addingKey` as a further key
    /// (where the column already is a key, its direction changes in place) — VisiData's `[` and
    /// `]`, and `g[` `g]`. Only `automatic` columns react, as to a click. A whole-row comparator
    /// is replaced.
    public func sortColumn(_ column: String, direction: SortDirection, addingKey: Bool = false) throws(SortError) {
        guard let definition = columns.first(where: { $0.identifier == column }) else {
            throw .unknownColumn(column, columns: columns.map(\.identifier))
        }
        guard definition.sortMode == .automatic else { return }
        var keys = sortKeys
        var key = keys.first { $0.column == column } ?? headerKey(column)
        key.direction = direction
        if addingKey {
            if let index = keys.firstIndex(where: { $0.column == column }) { keys[index] = key } else { keys.append(key) }
        } else {
            keys = [key]
        }
        try sort(by: keys)
    }

    private func nextDirection(_ direction: SortDirection) -> SortDirection? {
        switch (direction, sortCycle) {
        case (.ascending, _): return .descending
        case (.descending, .ascendingDescendingNone): return nil
        case (.descending, .dataGridView): return .ascending
        }
    }

    /// The glyph of a column's header: the one set with ``setGlyph(_:for:)`` for a programmatic
    /// column, otherwise the column's sort key.
    public func glyph(for column: String) -> SortGlyph {
        if let set = programmaticGlyphs[column] {
            return SortGlyph(direction: set, priority: sortKeys.firstIndex { $0.column == column }.map { $0 + 1 })
        }
        guard let index = sortKeys.firstIndex(where: { $0.column == column }) else { return SortGlyph() }
        return SortGlyph(direction: sortKeys[index].direction, priority: index + 1)
    }

    /// Sets the glyph a programmatic column shows (`SortGlyphDirection`), as an app that sorts
    /// by it in its own way does; `nil` shows none. Other columns' glyphs follow the sort.
    public func setGlyph(_ direction: SortDirection?, for column: String) throws(SortError) {
        guard let definition = columns.first(where: { $0.identifier == column }) else {
            throw .unknownColumn(column, columns: columns.map(\.identifier))
        }
        guard definition.sortMode == .programmatic else { return }
        programmaticGlyphs[column] = .some(direction)
        notifier.post(.reset)
    }

    /// The cells of the table's typed columns that are not of their column's type, among the body
    /// rows (a pinned row — the file's 平均 row — is not data), told for the grid's sort: where a
    /// key sorts the column descending, the kinds' order is reversed, and cells that sort after
    /// the values ascending come before them. A source without column storage (a database
    /// table) is checked in its sort keys' columns, which the sort reads anyway: the same warning
    /// for the same cells, whatever holds them.
    public var typeWarnings: [TypeWarning] {
        let order = self.order
        let pinned = order.pinnedTopCount > 0 || order.pinnedBottomCount > 0
        let found =
            storage?.storedTypeWarnings(amongRows: { row in !pinned || order.region(of: .source(row)) == .body })
            ?? keyColumnTypeWarnings()
        return found.map { warning in
            var warning = warning
            warning.descending = sortKeys.first { $0.column == warning.column }?.direction == .descending
            return warning
        }
    }

    /// ``typeWarnings`` of the columns the sort keys read: what `trellis sort` says, whatever
    /// holds the cells — cells of another kind elsewhere do not change the order.
    public var sortKeyTypeWarnings: [TypeWarning] {
        let keyed = Set(sortKeys.map(\.column))
        return keyed.isEmpty ? [] : typeWarnings.filter { keyed.contains($0.column) }
    }

    /// ``typeWarnings`` of a source without column storage, in the columns the sort keys read.
    private func keyColumnTypeWarnings() -> [TypeWarning] {
        var warnings: [TypeWarning] = []
        var seen = Set<String>()
        let rows = bodyInSourceOrder
        for key in sortKeys where seen.insert(key.column).inserted {
            guard let c = columns.firstIndex(where: { $0.identifier == key.column }), columns[c].type != .text else { continue }
            let expected = columns[c].type
            var before: [Int] = [], after: [Int] = []
            for (position, value) in source.checkedValues(ofColumn: c, rows: rows).values.enumerated() {
                let belongs: Bool =
                    switch (value, expected) {
                    case (.missing, _), (.integer, .integer), (.integer, .decimal), (.decimal, .integer), (.decimal, .decimal),
                        (.date, .date), (.boolean, .boolean):
                        true
                    default: false
                    }
                guard !belongs else { continue }
                if let kind = value.kind, kind < ValueKind(expected) { before.append(rows[position]) } else { after.append(rows[position]) }
            }
            for (found, sortsAfter) in [(before, false), (after, true)] where !found.isEmpty {
                let examples = found.prefix(3).map { (row: $0, text: source.text(row: $0, column: c)) }
                warnings.append(
                    TypeWarning(
                        column: key.column, type: expected, count: found.count, examples: examples,
                        sortsAfter: sortsAfter))
            }
        }
        return warnings
    }
}
