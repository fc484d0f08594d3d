import Foundation

/// A sortable grid over a data source in one of three modes — the user's grid with sorting that
/// keeps working whatever the binding, pinned rows that the sort never moves, and summary rows.
///
/// ```swift
/// let grid = DataGrid(bound: table)
/// try grid.pin(.matching(column: "组号", value: "平均"), at: .pinnedBottom)
/// try grid.sort(by: [SortKey("分数", .descending)])
/// grid.displayedRows.last   // .source(12): the 平均 row, whichever way the table is sorted
/// ```
///
/// Sorting never moves the source's rows: it computes a permutation of the body rows. Removing
/// the sort restores the source order. A source that announces its changes (a ``Table``, a
/// ``VirtualSource``) keeps the grid current: its sort, pins, summaries, current row and
/// selection follow every insert, removal and edit.
public final class DataGrid {
    /// The binding mode.
    public enum Mode: String, Sendable {
        /// The grid owns its rows (a table it created).
        case unbound
        /// The rows belong to a source the grid never reorders.
        case bound
        /// The grid knows a row count and asks a provider for cells.
        case virtual
    }

    public let mode: Mode
    public let source: GridDataSource
    /// The source, when it is a table: read straight from its storage.
    package let table: Table?
    /// The columns of the source.
    public var columns: [Column] { source.columns }

    /// The sort keys, most significant first. Empty: source order (or the whole-row comparator).
    public private(set) var sortKeys: [SortKey] = []
    /// A row-aware comparison hook (DataGridView's `SortCompare`): return `nil` to decline, and
    /// the key's own comparison is used. Its answer is ascending; the key's direction is applied.
    public var sortCompare: ((SortCompareArguments) -> ComparisonResult?)? {
        didSet { refreshAfterSorting() }
    }
    /// A whole-row comparator (DataGridView's `Sort(IComparer)`): when set, it alone orders the
    /// body, ascending, ties in source order, and the sort keys are cleared (no header shows a
    /// glyph); a header click or ``sort(by:)`` replaces it again.
    public var rowComparator: ((Int, Int) -> ComparisonResult)? {
        didSet {
            if rowComparator != nil { sortKeys = [] }
            refreshAfterSorting()
        }
    }
    /// What header clicks cycle through.
    public var sortCycle: SortCycle = .ascendingDescendingNone
    /// Called after every sort (DataGridView's `Sorted`): `sort(by:)`, a header click, removing
    /// the sort, a new comparator.
    public var onSorted: ((DataGrid) -> Void)?

    private var pins: [(pin: RowPin, region: RowRegion, recompute: SummaryFunction?)] = []
    /// Summary rows, computed over the body.
    public private(set) var summaries: [SummaryRow] = []
    private var pinnedTopRows: [Int] = []
    private var bodyOrder: [Int] = []
    private var pinnedBottomRows: [Int] = []
    private var summaryCells: [[Int: SummaryCell]] = []
    private var recomputedCells: [Int: [Int: SummaryCell]] = [:]
    /// The displayed position of each source row; −1 for none.
    private var displayIndexOfSource: [Int32] = []
    private var programmaticGlyphs: [String: SortDirection?] = [:]
    private var sourceObservation: GridObservation?
    private let notifier = GridChangeNotifier()

    /// Pins that matched no row at the last refresh.
    public private(set) var unmatchedPins: [RowPin] = []
    /// Pinned rows labelled as a summary (平均, total, …) whose numbers differ from that summary
    /// of the body, found at the last refresh. Rows being recomputed are not checked.
    public private(set) var summaryDisagreements: [SummaryDisagreement] = []

    /// A grid that owns an empty table with these columns (unbound mode).
    public init(columns: [Column]) {
        mode = .unbound
        let owned = Table(columns: columns)
        source = owned
        table = owned
        start()
    }

    /// A grid bound to `source`, whose rows it never reorders (bound mode).
    public init(bound source: GridDataSource) {
        mode = .bound
        self.source = source
        table = source as? Table
        start()
    }

    /// A grid in virtual mode: `rowCount` rows whose cells come from `provider`.
    public init(columns: [Column], rowCount: Int, provider: @escaping (Int, Int) -> CellValue) {
        mode = .virtual
        source = VirtualSource(columns: columns, rowCount: rowCount, provider: provider)
        table = nil
        start()
    }

    private func start() {
        sourceObservation = source.changes?.observe { [weak self] change in self?.sourceChanged(change) }
        refreshQuietly()
    }

    // MARK: Rows and edits

    /// The number of rows of the source.
    public var rowCount: Int { max(0, source.rowCount) }

    /// Sets the number of rows of a virtual grid (`RowCount`); the grid keeps its sort, pins and
    /// summaries current. Other grids take their count from their source.
    public func setRowCount(_ count: Int) throws(TableError) {
        guard let virtual = source as? VirtualSource else { throw .notOwned }
        virtual.rowCount = max(0, count)
    }

    /// Called with each edited cell of a virtual grid (`CellValuePushed`): the source row, the
    /// column and the new value, for the app to store.
    public var cellValuePushed: ((Int, Int, CellValue) -> Void)? {
        get { (source as? VirtualSource)?.cellValuePushed }
        set { (source as? VirtualSource)?.cellValuePushed = newValue }
    }

    /// Appends a row to an unbound grid.
    public func addRow(_ values: [CellValue]) throws(TableError) {
        guard mode == .unbound, let table = source as? Table else { throw .notOwned }
        try table.appendRow(values: values)
    }

    /// Edits a cell, by source row: a table's cell is set (a bound table, or the unbound grid's
    /// own), a virtual grid's is pushed to ``cellValuePushed``. Other sources cannot be edited
    /// through the grid.
    public func setValue(_ value: CellValue, row: Int, column: Int) throws(TableError) {
        if let table = source as? Table { try table.setValue(value, row: row, column: column); return }
        guard let virtual = source as? VirtualSource else { throw .notOwned }
        guard row >= 0, row < virtual.rowCount else { throw .noSuchRow(row, rowCount: virtual.rowCount) }
        guard columns.indices.contains(column) else { throw .noSuchColumnPosition(column, columnCount: columns.count) }
        virtual.push(row: row, column: column, value: value)
    }

    /// Reads the source again — after a source that does not announce its changes changed —
    /// keeping the sort keys, pins and summaries.
    public func reload() {
        refreshQuietly()
    }

    /// Calls `handler` after every refresh of what the grid displays (a sort, a pin, a change of
    /// the source); a layout invalidates itself here.
    public func observe(_ handler: @escaping () -> Void) -> GridObservation {
        notifier.observe { _ in handler() }
    }

    // MARK: Sorting

    /// Sorts the body by `keys` (most significant first), replacing any whole-row comparator.
    /// Columns must exist; any column may be sorted from code, whatever its sort mode, as in
    /// DataGridView. Nothing changes when the sort is refused.
    public func sort(by keys: [SortKey]) throws(SortError) {
        let names = columns.map(\.identifier)
        for key in keys {
            guard let column = columns.first(where: { $0.identifier == key.column }) else {
                throw .unknownColumn(key.column, columns: names)
            }
            if let error = SortEngine.comparator(for: key, column: column).checkLocale() { throw error }
        }
        let previous = (sortKeys, rowComparator)
        sortKeys = keys
        if rowComparator != nil {
            // Setting the comparator's storage directly: its didSet would sort a second time.
            replaceComparatorQuietly(nil)
        }
        do {
            try refresh()
        } catch {
            sortKeys = previous.0
            replaceComparatorQuietly(previous.1)
            refreshQuietly()
            throw error
        }
        onSorted?(self)
    }

    private var suppressComparatorRefresh = false

    private func replaceComparatorQuietly(_ comparator: ((Int, Int) -> ComparisonResult)?) {
        suppressComparatorRefresh = true
        rowComparator = comparator
        suppressComparatorRefresh = false
    }

    private func refreshAfterSorting() {
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
                keys = next.map { direction in
                    var key = keys[index]
                    key.direction = direction
                    return [key]
                } ?? []
            }
        } else if addingKey {
            keys.append(SortKey(column))
        } else {
            keys = [SortKey(column)]
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

    // MARK: Pinning and summaries

    /// Pins rows (by position or by a cell's value) to the top or the bottom; pinned rows keep the
    /// order in which they were pinned and are never sorted. With `recomputing`, the pinned rows
    /// are the user's own summary rows: their cells in number columns show that function of the
    /// body, written with the column's decimals, and follow every change.
    public func pin(_ pin: RowPin, at region: RowRegion, recomputing: SummaryFunction? = nil) throws(SortError) {
        guard region != .body else { throw .pinToBody }
        if case .matching(let column, _) = pin, !columns.contains(where: { $0.identifier == column }) {
            throw .unknownColumn(column, columns: columns.map(\.identifier))
        }
        if case .row(let row) = pin, !(0..<rowCount).contains(row) {
            throw .noSuchRow(row, rowCount: rowCount)
        }
        pins.append((pin, region, recomputing))
        // Pinning only takes rows out of the body: the rest keep their sorted order.
        try? refresh(reusingOrder: true)
    }

    /// Removes every pin.
    public func removePins() {
        pins = []
        refreshQuietly()
    }

    /// Adds a summary row computed over the body.
    public func addSummary(_ summary: SummaryRow) throws(SortError) {
        for column in summary.columns where !columns.contains(where: { $0.identifier == column }) {
            throw .unknownColumn(column, columns: columns.map(\.identifier))
        }
        summaries.append(summary)
        topSummaryCountCached = summaries.reduce(0) { $0 + ($1.atTop ? 1 : 0) }
        refreshQuietly()
    }

    /// Removes every summary row.
    public func removeSummaries() {
        summaries = []
        topSummaryCountCached = 0
        refreshQuietly()
    }

    // MARK: Reading

    /// Every row as shown: pinned top rows, top summaries, the sorted body, pinned bottom rows,
    /// bottom summaries.
    public var displayedRows: [DisplayRow] {
        (0..<displayedRowCount).map { displayedRow(at: $0)! }
    }

    /// Tells the source which rows the displayed rows in `range` are, so that one that fetches
    /// rows from elsewhere (a database) reads that window in one go before its cells are read:
    /// what a virtual-scrolling view calls for its visible rows.
    public func prefetch(displayedRows range: Range<Int>) {
        var rows: [Int] = []
        rows.reserveCapacity(range.count)
        for index in range.clamped(to: 0..<displayedRowCount) {
            if case .source(let row)? = displayedRow(at: index) { rows.append(row) }
        }
        if !rows.isEmpty { source.prefetch(rows: rows) }
    }

    /// The number of ``displayedRows``, without building them.
    public var displayedRowCount: Int {
        pinnedTopRows.count + summaries.count + bodyOrder.count + pinnedBottomRows.count
    }

    private var topSummaryCount: Int { topSummaryCountCached }
    private var topSummaryCountCached = 0

    /// The row shown at `index` of the display, or `nil` outside it. O(1) but for the summaries.
    public func displayedRow(at index: Int) -> DisplayRow? {
        guard index >= 0 else { return nil }
        var i = index
        if i < pinnedTopRows.count { return .source(pinnedTopRows[i]) }
        i -= pinnedTopRows.count
        let top = topSummaryCount
        if i < top { return .summary(nthSummary(i, atTop: true)) }
        i -= top
        if i < bodyOrder.count { return .source(bodyOrder[i]) }
        i -= bodyOrder.count
        if i < pinnedBottomRows.count { return .source(pinnedBottomRows[i]) }
        i -= pinnedBottomRows.count
        let bottom = summaries.count - top
        return i < bottom ? .summary(nthSummary(i, atTop: false)) : nil
    }

    private func nthSummary(_ n: Int, atTop: Bool) -> Int {
        var seen = 0
        for (index, summary) in summaries.enumerated() where summary.atTop == atTop {
            if seen == n { return index }
            seen += 1
        }
        return 0
    }

    /// The first displayed row after `index` — going down, wrapping around to the top, `index`
    /// itself last — whose text in `column` contains `query`, or `nil` when none does. Texts are
    /// matched as they are shown, byte for byte (case and accents as written).
    ///
    /// ```swift
    /// grid.displayIndex(ofRowContaining: "组10", column: 0, after: -1)   // the first 组10, 组100, …
    /// ```
    ///
    /// A table's cells are searched in place, one chunk of rows per core (a million rows in a
    /// few milliseconds); a source that can search itself (``GridDataSource/rows(containing:column:)``,
    /// the SQL sources) is asked once; other sources are read cell by cell.
    public func displayIndex(ofRowContaining query: String, column: Int, after index: Int) -> Int? {
        let count = displayedRowCount
        guard count > 0, !query.isEmpty, columns.indices.contains(column) else { return nil }
        let needle = Array(query.utf8)
        let start = min(max(index, -1), count - 1)
        /// How far after `start` a display index is, wrapping: the nearest wins.
        @inline(__always) func distance(_ d: Int) -> Int { (d - start - 1 + count) % count }
        var best: Int?
        func consider(_ d: Int) {
            if best.map({ distance(d) < distance($0) }) ?? true { best = d }
        }
        let inverse = displayIndexOfSource
        let recomputed = recomputedCells
        /// A source row shown as the source holds it, whose own text the search below reads.
        @inline(__always) func shownAsStored(_ row: Int) -> Bool {
            inverse[row] >= 0 && (recomputed.isEmpty || recomputed[row]?[column] == nil)
        }
        if let table = source as? Table, column < table.stores.count {
            let store = table.stores[column]
            let rows = min(store.count, inverse.count)
            let found: [Int?] = needle.withUnsafeBufferPointer { needle in
                let shared = Unchecked(needle)
                return Parallel.map(Parallel.chunks(rows)) { _, range in
                    var nearest: Int?
                    for row in range where shownAsStored(row) {
                        let d = Int(inverse[row])
                        if let n = nearest, distance(n) <= distance(d) { continue }
                        if store.withText(at: row, { Self.contains($0, shared.value) }) { nearest = d }
                    }
                    return nearest
                }
            }
            for d in found.compactMap({ $0 }) { consider(d) }
        } else if let rows = source.rows(containing: query, column: column) {
            // The source searched itself (a database).
            for row in rows where row >= 0 && row < inverse.count && shownAsStored(row) { consider(Int(inverse[row])) }
        } else {
            for row in 0..<min(rowCount, inverse.count) where shownAsStored(row) {
                if Self.contains(source.text(row: row, column: column), needle) { consider(Int(inverse[row])) }
            }
        }
        // Recomputed cells (a user's summary row) are checked as they are shown.
        for (row, cells) in recomputed where cells[column] != nil && row < inverse.count && inverse[row] >= 0 {
            if Self.contains(text(.source(row), column: column), needle) { consider(Int(inverse[row])) }
        }
        // Summary rows are not source rows: each is checked where it is shown.
        let top = topSummaryCount
        var topSeen = 0, bottomSeen = 0
        let bottomStart = pinnedTopRows.count + top + bodyOrder.count + pinnedBottomRows.count
        for (i, summary) in summaries.enumerated() {
            let d = summary.atTop ? pinnedTopRows.count + topSeen : bottomStart + bottomSeen
            if summary.atTop { topSeen += 1 } else { bottomSeen += 1 }
            if Self.contains(text(.summary(i), column: column), needle) { consider(d) }
        }
        return best
    }

    private static func contains(_ text: String, _ needle: [UInt8]) -> Bool {
        var text = text
        return text.withUTF8 { haystack in needle.withUnsafeBufferPointer { contains(haystack, $0) } }
    }

    /// Whether `needle`'s bytes occur in `haystack`.
    @inline(__always)
    private static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = needle.count, h = haystack.count
        guard n > 0, n <= h, let hp = haystack.baseAddress, let np = needle.baseAddress else { return n == 0 }
        let first = np[0]
        var i = 0
        while i <= h - n {
            if hp[i] == first && memcmp(hp + i, np, n) == 0 { return true }
            i += 1
        }
        return false
    }

    /// Where a source row is shown, or `nil` when it is not. O(1).
    public func displayIndex(ofSourceRow row: Int) -> Int? {
        guard row >= 0, row < displayIndexOfSource.count else { return nil }
        let index = displayIndexOfSource[row]
        return index < 0 ? nil : Int(index)
    }

    /// The body rows (source positions) in their displayed order.
    public var bodyRows: [Int] { bodyOrder }

    /// How many displayed rows are pinned to the top (pinned rows and top summaries).
    public var pinnedTopCount: Int { pinnedTopRows.count + topSummaryCount }

    /// How many displayed rows are pinned to the bottom (pinned rows and bottom summaries).
    public var pinnedBottomCount: Int { pinnedBottomRows.count + summaries.count - topSummaryCount }

    /// The region of a displayed row (`.body` for a row that is not displayed).
    public func region(of row: DisplayRow) -> RowRegion {
        switch row {
        case .source(let index):
            guard let shown = displayIndex(ofSourceRow: index) else { return .body }
            if shown < pinnedTopRows.count { return .pinnedTop }
            if shown >= pinnedTopRows.count + topSummaryCount + bodyOrder.count { return .pinnedBottom }
            return .body
        case .summary(let index):
            guard summaries.indices.contains(index) else { return .body }
            return summaries[index].atTop ? .pinnedTop : .pinnedBottom
        }
    }

    /// The value shown in `row` and `column` (a position in ``columns``). A summary row shows its
    /// function's result in its columns and its label in the first other column; a recomputed
    /// pinned row shows its function's result in its number columns.
    public func value(_ row: DisplayRow, column: Int) -> CellValue {
        switch row {
        case .source(let index):
            if let cell = recomputedCells[index]?[column] { return cell.value }
            return source.value(row: index, column: column)
        case .summary(let index):
            guard summaries.indices.contains(index), columns.indices.contains(column) else { return .missing }
            if let cell = summaryCells[index][column] { return cell.value }
            return labelColumn(of: summaries[index]) == column ? .text(label(of: summaries[index])) : .missing
        }
    }

    /// The text shown in `row` and `column`: a source cell's own text (never rewritten), or a
    /// summary written with its column's decimals.
    public func text(_ row: DisplayRow, column: Int) -> String {
        switch row {
        case .source(let index):
            if let cell = recomputedCells[index]?[column] { return cell.text }
            return source.text(row: index, column: column)
        case .summary(let index):
            guard summaries.indices.contains(index), columns.indices.contains(column) else { return "" }
            if let cell = summaryCells[index][column] { return cell.text }
            return labelColumn(of: summaries[index]) == column ? label(of: summaries[index]) : ""
        }
    }

    /// The source row shown at display `index` when it is shown as the source holds it (not a
    /// summary, not recomputed): renderers read such rows straight from the table.
    @inline(__always)
    package func plainSourceRow(at index: Int) -> Int? {
        guard index >= 0 else { return nil }
        func plain(_ row: Int) -> Int? { recomputedCells.isEmpty || recomputedCells[row] == nil ? row : nil }
        var i = index
        if i < pinnedTopRows.count { return plain(pinnedTopRows[i]) }
        i -= pinnedTopRows.count + topSummaryCountCached
        guard i >= 0 else { return nil }
        if i < bodyOrder.count { return bodyOrder[i] }   // body rows are never recomputed
        i -= bodyOrder.count
        return i < pinnedBottomRows.count ? plain(pinnedBottomRows[i]) : nil
    }

    /// Calls `body` with the UTF-8 text of a cell: straight from a table's storage when it can,
    /// which is how renderers write a million rows without making a `String` per cell.
    package func withText<R>(_ row: DisplayRow, column: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if case .source(let index) = row, recomputedCells.isEmpty || recomputedCells[index] == nil,
           let table, table.stores.indices.contains(column), index >= 0, index < table.stores[column].count {
            return table.stores[column].withText(at: index, body)
        }
        var text = self.text(row, column: column)
        return text.withUTF8(body)
    }

    /// The line break of CSV written from the grid: its table's own, CRLF otherwise.
    package var csvLineBreak: [UInt8] { (source as? Table)?.lineBreak ?? [0x0D, 0x0A] }

    /// Whether the cell shown holds a number or a date (renderers align them to the right, as
    /// spreadsheets do).
    package func isNumber(_ row: DisplayRow, column: Int) -> Bool {
        if case .source(let index) = row, recomputedCells.isEmpty || recomputedCells[index] == nil,
           let table, table.stores.indices.contains(column), index >= 0, index < table.stores[column].count {
            let kind = table.stores[column].kinds[index]
            return kind.isNumber || kind == .date
        }
        switch value(row, column: column) {
        case .integer, .decimal, .date: return true
        default: return false
        }
    }

    private func labelColumn(of summary: SummaryRow) -> Int? {
        columns.firstIndex { !summary.columns.contains($0.identifier) }
    }

    private func label(of summary: SummaryRow) -> String { summary.label ?? summary.function.description }

    // MARK: Current row and selection

    /// The current row, as a source position (DataGridView's `CurrentRow`): it stays on its row
    /// through sorts, pins and changes of the source; `nil` when the row goes away.
    public var currentRow: Int? {
        didSet { if let row = currentRow, !(0..<rowCount).contains(row) { currentRow = nil } }
    }

    /// The selected rows, as source positions, in the order they were selected.
    public private(set) var selectedRows: [Int] = []

    /// Adds a source row to the selection (`extending: false` replaces it).
    public func select(row: Int, extending: Bool = false) {
        guard (0..<rowCount).contains(row) else { return }
        if !extending { selectedRows = [] }
        if !selectedRows.contains(row) { selectedRows.append(row) }
    }

    /// Removes a source row from the selection.
    public func deselect(row: Int) { selectedRows.removeAll { $0 == row } }

    /// Clears the selection.
    public func clearSelection() { selectedRows = [] }

    // MARK: Following the source

    private func sourceChanged(_ change: GridChange) {
        func moved(_ row: Int) -> Int? {
            switch change {
            case .inserted(let range): return row >= range.lowerBound ? row + range.count : row
            case .removed(let range):
                if range.contains(row) { return nil }
                return row >= range.upperBound ? row - range.count : row
            case .updated: return row
            case .reset: return row < rowCount ? row : nil
            }
        }
        currentRow = currentRow.flatMap(moved)
        selectedRows = selectedRows.compactMap(moved)
        pins = pins.compactMap { entry in
            guard case .row(let row) = entry.pin else { return entry }
            return moved(row).map { (RowPin.row($0), entry.region, entry.recompute) }
        }
        refreshQuietly()
    }

    // MARK: Recomputing

    private func refreshQuietly() { try? refresh() }

    /// Partitions the rows (pins first, in pin order), sorts the body, computes the summaries and
    /// tells the observers. `reusingOrder`: when the new body is part of the old one and the sort
    /// is by keys, the old order less the rows that left is the new order (the sort is a total
    /// order, ties by source position), so no sort runs — what a new pin costs.
    private func refresh(reusingOrder: Bool = false) throws(SortError) {
        let count = rowCount
        var top: [Int] = [], bottom: [Int] = []
        var isPinned = [Bool](repeating: false, count: pins.isEmpty ? 0 : count)
        var recomputed: [Int: SummaryFunction] = [:]
        var unmatched: [RowPin] = []
        var labelled: [(row: Int, label: String)] = []
        for (pin, region, recompute) in pins {
            let rows = matchingRows(pin, count: count)
            if rows.isEmpty { unmatched.append(pin) }
            for row in rows where !isPinned[row] {
                isPinned[row] = true
                if region == .pinnedTop { top.append(row) } else { bottom.append(row) }
                if let recompute { recomputed[row] = recompute }
                else if case .matching(_, let value) = pin { labelled.append((row, value)) }
            }
        }
        let order: [Int]
        // Where the old body was shown: a row not pinned now must have been in it.
        let shown = displayIndexOfSource, oldStart = Int32(pinnedTopRows.count + topSummaryCount)
        let oldEnd = oldStart + Int32(bodyOrder.count)
        if reusingOrder, sortCompare == nil, rowComparator == nil, !isPinned.isEmpty, shown.count == count,
           (0..<count).allSatisfy({ isPinned[$0] || (shown[$0] >= oldStart && shown[$0] < oldEnd) }) {
            order = bodyOrder.filter { !isPinned[$0] }
        } else {
            let body = pins.isEmpty ? Array(0..<count) : (0..<count).filter { !isPinned[$0] }
            order = try SortEngine.permutation(of: body, in: source, by: sortKeys, hook: sortCompare,
                                               rowComparator: rowComparator)
        }
        pinnedTopRows = top
        bodyOrder = order
        pinnedBottomRows = bottom
        unmatchedPins = unmatched
        computeSummaries(recomputed: recomputed, labelled: labelled)
        var inverse = [Int32](repeating: -1, count: count)
        for (position, row) in top.enumerated() { inverse[row] = Int32(position) }
        let bodyStart = top.count + topSummaryCount
        inverse.withUnsafeMutableBufferPointer { inverse in
            order.withUnsafeBufferPointer { order in
                // Rows are distinct: each chunk writes its own.
                let shared = Unchecked((inverse, order))
                Parallel.forEach(Parallel.chunks(order.count)) { _, range in
                    let (inverse, order) = shared.value
                    for position in range { inverse[order[position]] = Int32(bodyStart + position) }
                }
            }
        }
        for (position, row) in bottom.enumerated() { inverse[row] = Int32(bodyStart + order.count + position) }
        displayIndexOfSource = inverse
        if let row = currentRow, row >= count { currentRow = nil }
        selectedRows.removeAll { $0 >= count }
        notifier.post(.reset)
    }

    /// The rows a pin takes, in source order.
    private func matchingRows(_ pin: RowPin, count: Int) -> [Int] {
        switch pin {
        case .row(let row): return row >= 0 && row < count ? [row] : []
        case .matching(let column, let value):
            guard let c = columns.firstIndex(where: { $0.identifier == column }) else { return [] }
            let wanted = PinTarget(value)
            if let table = source as? Table {
                let store = table.stores[c]
                return (0..<min(count, store.count)).filter { row in store.withText(at: row) { wanted.matches($0) } }
            }
            return (0..<count).filter { row in
                var text = source.text(row: row, column: c)
                return text.withUTF8 { wanted.matches($0) }
            }
        }
    }

    private func computeSummaries(recomputed: [Int: SummaryFunction], labelled: [(row: Int, label: String)]) {
        var decimalsCache: [Int: Int] = [:]
        /// The most decimals the body's numbers of a column have.
        func decimals(_ column: Int) -> Int {
            if let known = decimalsCache[column] { return known }
            var digits = 0
            if let table = source as? Table {
                var store = table.stores[column]
                if pinnedTopRows.isEmpty && pinnedBottomRows.isEmpty {
                    digits = Int(store.fractionDigits())
                } else {
                    for row in bodyOrder where store.kinds[row].isNumber {
                        digits = max(digits, store.withText(at: row) { CellText.fractionDigits($0) })
                    }
                }
            } else {
                for row in bodyOrder where source.value(row: row, column: column).number != nil {
                    digits = max(digits, DecimalFormat.fractionDigits(source.text(row: row, column: column)))
                }
            }
            decimalsCache[column] = digits
            return digits
        }
        summaryCells = summaries.map { summary in
            var cells: [Int: SummaryCell] = [:]
            for name in summary.columns {
                guard let c = columns.firstIndex(where: { $0.identifier == name }) else { continue }
                cells[c] = summarize(summary.function, column: c, decimals: summary.precision ?? decimals(c))
            }
            return cells
        }
        recomputedCells = [:]
        for (row, function) in recomputed {
            var cells: [Int: SummaryCell] = [:]
            for (c, column) in columns.enumerated() where column.type.isNumeric {
                cells[c] = summarize(function, column: c, decimals: decimals(c))
            }
            recomputedCells[row] = cells
        }
        var disagreements: [SummaryDisagreement] = []
        for (row, label) in labelled.sorted(by: { $0.row < $1.row }) {
            guard let function = SummaryFunction(label: label) else { continue }
            for (c, column) in columns.enumerated() where column.type.isNumeric {
                guard let says = source.value(row: row, column: c).number else { continue }
                let saysText = source.text(row: row, column: c)
                let computed = summarize(function, column: c, decimals: decimals(c))
                guard let value = computed.value.number else { continue }
                let precision = DecimalFormat.fractionDigits(saysText)
                if DecimalFormat.format(value, decimals: precision) != DecimalFormat.format(says, decimals: precision) {
                    disagreements.append(SummaryDisagreement(row: row, label: label.trimmingCharacters(in: .whitespaces),
                                                             column: column.identifier, function: function.description,
                                                             says: saysText.trimmingCharacters(in: .whitespaces),
                                                             computed: computed.text))
                }
            }
        }
        summaryDisagreements = disagreements
    }

    /// One summary of one column over the body.
    private func summarize(_ function: SummaryFunction, column: Int, decimals: Int) -> SummaryCell {
        switch function {
        case .count:
            var present = 0
            if let table = source as? Table {
                let kinds = table.stores[column].kinds
                let numeric = columns[column].type.isNumeric
                for row in bodyOrder where kinds[row] != .missing && !(numeric && kinds[row] == .notANumber) { present += 1 }
            } else {
                for row in bodyOrder where !source.value(row: row, column: column).isMissing { present += 1 }
            }
            return SummaryCell(value: .integer(present), text: String(present))
        case .sum, .mean:
            var adder = NumberSum()
            if let table = source as? Table {
                let store = table.stores[column]
                for row in bodyOrder {
                    switch store.kinds[row] {
                    case .integer: adder.add(Int64(bitPattern: store.payload(at: row)))
                    case .decimal, .approximate: adder.add(Double(bitPattern: store.payload(at: row)))
                    default: break
                    }
                }
            } else {
                for row in bodyOrder {
                    switch source.value(row: row, column: column) {
                    case .integer(let i): adder.add(Int64(i))
                    case .decimal(let d) where d.isFinite: adder.add(d)
                    default: break
                    }
                }
            }
            let value: CellValue
            if case .sum = function { value = adder.sum } else { value = adder.mean }
            switch value {
            case .integer(let i): return SummaryCell(value: value, text: String(i))
            case .decimal(let d): return SummaryCell(value: value, text: DecimalFormat.format(d, decimals: decimals))
            default: return SummaryCell(value: .missing, text: "")
            }
        case .min, .max:
            // One pass over the body's codes: the smallest or largest present value.
            let rows = bodyOrder
            guard !rows.isEmpty else { return SummaryCell(value: .missing, text: "") }
            let input: KeyInput = (source as? Table).map { KeyInput(table: $0, column: column, rows: rows) }
                ?? KeyInput(source: source, column: column, rows: rows)
            let codes = KeyCodes(input, text: columns[column].textComparator, direction: .ascending, nulls: .last)
            var best: Int?
            for position in rows.indices
            where KeyCodes.kindRank(input.kinds[position], numericColumn: input.numericColumn) != nil {
                guard let current = best else { best = position; continue }
                let order = codes.compare(position, current)
                if case .min = function, order == .orderedAscending { best = position }
                if case .max = function, order == .orderedDescending { best = position }
            }
            guard let best else { return SummaryCell(value: .missing, text: "") }
            return SummaryCell(value: source.value(row: rows[best], column: column), text: source.text(row: rows[best], column: column))
        case .custom:
            let result = function.apply(source.values(ofColumn: column, rows: bodyOrder))
            return SummaryCell(value: result, text: result.description)
        }
    }
}

/// What a `.matching` pin looks for: a text, compared without surrounding spaces, and the value
/// it reads as, compared when both are numbers.
struct PinTarget {
    private let text: [UInt8]
    private let number: ExactDecimal?

    init(_ value: String) {
        var value = value
        let (text, number) = value.withUTF8 { buffer -> ([UInt8], ExactDecimal?) in
            var start = 0, end = buffer.count
            CellText.trim(buffer, &start, &end)
            return (Array(buffer[start..<end]), ExactDecimal(buffer))
        }
        self.text = text
        self.number = number
    }

    func matches(_ cell: UnsafeBufferPointer<UInt8>) -> Bool {
        var start = 0, end = cell.count
        CellText.trim(cell, &start, &end)
        if end - start == text.count, text.withUnsafeBufferPointer({ t in
            t.isEmpty || memcmp(t.baseAddress!, cell.baseAddress! + start, t.count) == 0
        }) {
            return true
        }
        guard let number, let first = cell.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+")
                || first == UInt8(ascii: ".") || first == 0x20 || (first &- 48) < 10 else { return false }
        return ExactDecimal(cell) == number
    }
}
