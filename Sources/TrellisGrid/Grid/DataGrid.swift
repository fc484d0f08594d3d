import Foundation

/// A sortable grid over a data source in one of three modes — the user's grid with sorting that
/// keeps working whatever the binding, pinned rows that the sort never moves, and summary rows.
///
/// ```swift
/// let grid = DataGrid(bound: table)
/// try grid.pin(.matching(column: "组号", value: "平均"), at: .bottom)
/// try grid.sort(by: [SortKey("分数", .descending)])
/// grid.displayedRows.last   // .source(12): the 平均 row, whichever way the table is sorted
/// ```
///
/// Sorting never moves the source's rows: it computes a permutation of the body rows. Removing
/// the sort restores the source order. A source that announces its changes (an
/// ``ObservableDataSource``: a ``Table``, a ``VirtualSource``, the SQL sources) keeps the grid
/// current: its sort, pins, summaries, current row and selection follow every insert, removal
/// and edit.
///
/// The grid is the observable shell around a ``DisplayOrder``: it keeps the rules (keys, hooks,
/// pins, summaries), the last good order, and the error of the last refresh that could not make
/// a new one (``lastError``).
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
    /// The source's column storage, when it keeps one (a ``Table``): read in place.
    let storage: ColumnStorageSource?
    /// The columns of the source.
    public var columns: [Column] { source.columns }

    /// Where every row is shown: the last order the grid could make. A source that does not
    /// announce its changes (a plain array behind a provider) and has gained or lost rows since
    /// is noticed here, at the next read: the grid re-sorts before it answers, so that a pinned
    /// 平均 slot never shows another row.
    public var order: DisplayOrder {
        if storedOrder.sourceRowCount != rowCount, !refreshing { sourceRowCountChanged() }
        return storedOrder
    }
    private var storedOrder = DisplayOrder()
    /// Set while a refresh reads the source, which must not start another.
    private var refreshing = false
    /// The refresh under way and whether another thread asked to stop it (``interruptSort()``).
    private let interruption = NSLock()
    private var refreshNumber = 0, runningRefresh: Int?, interruptedRefresh: Int?
    /// Why the last refresh could not make a new order (a source whose columns changed under a
    /// sort key, …), or `nil` when it could. The grid then shows the last good order, or, when the
    /// source's rows or the pins and summaries changed since, the rows in source order with their
    /// pins and summaries.
    public private(set) var lastError: SortError?

    /// The sort keys, most significant first. Empty: source order (or the whole-row comparator).
    public internal(set) var sortKeys: [SortKey] = []
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
    /// The key a header click adds for a column not sorted yet, ascending: `SortKey(column)` by
    /// default; a viewer that sorts text by a locale, or puts blanks first, says so here. A key
    /// already there keeps its comparator as the click turns its direction.
    public var headerKey: (_ column: String) -> SortKey = { SortKey($0) }
    /// Called after every sort (DataGridView's `Sorted`): `sort(by:)`, a header click, removing
    /// the sort, a new comparator.
    public var onSorted: ((DataGrid) -> Void)?
    var programmaticGlyphs: [String: SortDirection?] = [:]
    /// Set while the grid changes a sorting property itself, so that its `didSet` does not sort.
    var suppressComparatorRefresh = false

    var pins: [DisplayOrder.Pin] = []
    /// Subtotal groups kept together (see ``RowGrouping``); set with ``setGrouping(_:)`` or ``apply(_:)``.
    public internal(set) var grouping: RowGrouping?

    /// The grid's rules as one plan: what its next refresh carries out.
    public var plan: SortPlan {
        SortPlan(
            keys: sortKeys, custom: CustomOrder(hook: sortCompare, rowComparator: rowComparator), pins: pins,
            summaries: summaries, grouping: grouping)
    }
    /// The rows the body shows (``setFilter(_:)``); `nil`: all of them.
    public internal(set) var filter: RowFilter?
    /// Summary rows, computed over the body.
    public internal(set) var summaries: [SummaryRow] = []
    private var sourceObservation: GridObservation?
    let notifier = GridChangeNotifier()

    /// Pins that matched no row at the last refresh.
    public var unmatchedPins: [RowPin] { order.unmatchedPins }
    /// Pinned rows labelled as a summary (平均, total, …) whose numbers differ from that summary
    /// of the body, found at the last refresh. Rows being recomputed are not checked.
    public var summaryDisagreements: [SummaryDisagreement] { order.summaryDisagreements }

    /// A grid that owns an empty table with these columns (unbound mode).
    public init(columns: [Column]) {
        mode = .unbound
        let owned = Table(columns: columns)
        source = owned
        storage = owned
        start()
    }

    /// A grid bound to `source`, whose rows it never reorders (bound mode).
    public init(bound source: GridDataSource) {
        mode = .bound
        self.source = source
        storage = source as? ColumnStorageSource
        start()
    }

    /// A grid in virtual mode: `rowCount` rows whose cells come from `provider`.
    public init(columns: [Column], rowCount: Int, provider: @escaping (Int, Int) -> CellValue) {
        mode = .virtual
        source = VirtualSource(columns: columns, rowCount: rowCount, provider: provider)
        storage = nil
        start()
    }

    private func start() {
        sourceObservation = (source as? ObservableDataSource)?.changes.observe { [weak self] change in
            self?.sourceChanged(change)
        }
        refreshQuietly()
    }

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

    /// Whether a change the source tells now is an edit through ``editCells(_:)``, which leaves
    /// every row where it is and refreshes once its cells are all set.
    var editsInPlace = false
    /// Whether such an edit changed a cell since it began.
    var editedSinceRefresh = false

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
        pins = pins.compactMap { pin in
            guard case .row(let row) = pin.rows else { return pin }
            return moved(row).map { DisplayOrder.Pin(.row($0), at: pin.edge, recomputing: pin.recomputing, precision: pin.precision) }
        }
        // Rows added at the end of a sorted body are placed in it rather than sorted again.
        if case .inserted(let range) = change, range.upperBound == rowCount, lastError == nil {
            refreshQuietly(.rowsAppended(range))
        } else if case .updated = change, editsInPlace {
            editedSinceRefresh = true
        } else if case .reset = change, editsInPlace, storedOrder.sourceRowCount == rowCount {
            // A column read again as another type (``setType(_:ofColumn:)``): its rows are theirs.
            editedSinceRefresh = true
        } else {
            refreshQuietly()
        }
    }

    // MARK: Refreshing

    /// The source's row count is not the order's: rows came or went without a notice. Rows pinned
    /// by position that are gone are let go, and the grid refreshes as after a reset.
    private func sourceRowCountChanged() {
        sourceChanged(.reset)
    }

    /// Stops the sort under way on another thread (a header click or ``sort(by:)`` taking long
    /// over a database): a source that can stop its read (an ``InterruptibleDataSource``) stops it
    /// at once, and the sort then throws ``SortError/interrupted`` with the order as it was. Safe to
    /// call from any thread; does nothing when no sort is under way.
    public func interruptSort() {
        interruption.lock()
        let running = runningRefresh
        interruptedRefresh = running
        interruption.unlock()
        if running != nil { (source as? InterruptibleDataSource)?.interrupt() }
    }

    /// Makes a new order from the rules and tells the observers; on failure nothing changes and
    /// the error is thrown.
    func refresh(_ change: OrderChange = .any) throws(SortError) {
        refreshing = true
        defer { refreshing = false }
        interruption.lock()
        refreshNumber += 1
        let number = refreshNumber
        runningRefresh = number
        interruption.unlock()
        defer {
            interruption.lock()
            runningRefresh = nil
            interruption.unlock()
        }
        /// Whether ``interruptSort()`` asked to stop this refresh.
        func wasInterrupted() -> Bool {
            interruption.lock()
            defer { interruption.unlock() }
            return interruptedRefresh == number
        }
        // The order to fall back on. One in source order is kept without its rows (made again
        // from its pins if needed), so that the sort does not run beside a second copy of them;
        // the update below reads the old body only for a new pin or appended rows.
        var before = storedOrder
        if change == .any, before.releaseSourceOrderRows() {
            _ = storedOrder.releaseSourceOrderRows()
        }
        func fallBack() {
            storedOrder = before
            storedOrder.remakeReleasedRows()
        }
        let fallible = source as? FallibleDataSource
        let failedBefore = fallible?.failedReads ?? 0
        // (The row count is read for a filter only: a source is asked what the update asks, no more.)
        let hidden = filter.flatMap { hiddenRows($0, count: rowCount) }
        do {
            try storedOrder.update(source: source, plan: plan, change: change, hidden: hidden)
        } catch {
            fallBack()
            throw error
        }
        // The source answered what no table can be: the order made from it would be wrong. It stays.
        if let problem = storedOrder.readProblem {
            fallBack()
            throw .sourceAnswerInvalid(problem)
        }
        // Stopped from another thread (whatever the sort had done by then): the order stays.
        if wasInterrupted() {
            fallBack()
            throw .interrupted
        }
        // A read of this refresh failed: ordered by blanks, the order would be wrong. It stays.
        if let fallible, fallible.failedReads != failedBefore {
            fallBack()
            throw .sourceReadFailed(fallible.readFailure ?? "a read failed")
        }
        lastError = nil
        didRefresh()
    }

    /// A refresh that nobody can be thrown at (a change of the source, a new pin or hook): a
    /// failure is kept in ``lastError``. The last good order stays while it still describes the
    /// grid — the same number of source rows, the same pins and summaries; when it cannot, the
    /// rows are shown in source order with their pins and summaries, which needs no sort.
    func refreshQuietly(_ change: OrderChange = .any) {
        do {
            try refresh(change)
        } catch {
            lastError = error
            if storedOrder.sourceRowCount != rowCount || storedOrder.pins.count != pins.count
                || storedOrder.summaries.count != summaries.count
            {
                refreshing = true
                let hidden = filter.flatMap { hiddenRows($0, count: rowCount) }
                try? storedOrder.update(source: source, plan: SortPlan(pins: pins, summaries: summaries), hidden: hidden)
                // Numbers computed from a source's nonsense would be invented: none are shown.
                if storedOrder.readProblem != nil { storedOrder.blankComputedCells() }
                refreshing = false
            }
            didRefresh()
        }
    }

    private func didRefresh() {
        if let row = currentRow, row >= rowCount { currentRow = nil }
        selectedRows.removeAll { $0 >= rowCount }
        notifier.post(.reset)
    }
}
