import Foundation

/// Where a grid's rows come from: a number of rows whose cells can be read by position. The grid
/// never asks a source to reorder anything — sorting is a permutation the grid keeps.
///
/// A source that changes tells its grids through ``changes`` (as `IBindingList.ListChanged`
/// does), and they keep their sort, pins and summaries current.
public protocol GridDataSource: AnyObject {
    /// The columns.
    var columns: [Column] { get }
    /// The number of rows. A negative count is read as none.
    var rowCount: Int { get }
    /// The value at `row`, `column` (positions in the source's own order); `.missing` outside.
    func value(row: Int, column: Int) -> CellValue
    /// The cell's text as the source holds it — `007`, `1.50`, `+5` — which renderers write back.
    /// The default is the value's ``CellValue/description``.
    func text(row: Int, column: Int) -> String
    /// The values of one column at the given rows, in that order: how sorting reads a key. The
    /// default asks `value(row:column:)` row by row.
    func values(ofColumn column: Int, rows: [Int]) -> [CellValue]
    /// Where the source announces its changes; `nil` (the default) for a source that does not,
    /// whose grids are told with ``DataGrid/reload()``.
    var changes: GridChangeNotifier? { get }
    /// A hint that the cells of `rows` are about to be read (a window of the sorted grid): a
    /// source that fetches rows from elsewhere reads them in one go. The default does nothing.
    func prefetch(rows: [Int])
    /// The digits of a number column's cells at `rows`, as the source holds them, when its numbers
    /// can be wider than a double (a database's `numeric`): sorting then orders them exactly.
    /// The default (`nil`) is for sources whose numbers are what their values say.
    func numberTexts(ofColumn column: Int, rows: [Int]) -> [String]?
    /// `rows` ordered by `keys` by the source itself — a database's `ORDER BY` — when it can give
    /// exactly the grid's order (ties in source order), or `nil` for the grid to sort them. The
    /// default is `nil`.
    func sortedRows(_ rows: [Int], by keys: [SortKey]) -> [Int]?
    /// The rows whose ``text(row:column:)`` in `column` contains `text` (its UTF-8 bytes, as
    /// written), in any order — a database's `WHERE … LIKE` — or `nil` for the grid to read every
    /// cell. What a find (the viewer's `/`) asks. The default is `nil`.
    func rows(containing text: String, column: Int) -> [Int]?
    /// Why the last read of cells failed (a lost connection, a table dropped meanwhile), or `nil`
    /// when it succeeded: the cells that could not be read show as blank, and a viewer says why.
    /// The default is `nil`.
    var readFailure: String? { get }
}

extension GridDataSource {
    public func text(row: Int, column: Int) -> String { value(row: row, column: column).description }

    public func values(ofColumn column: Int, rows: [Int]) -> [CellValue] {
        rows.map { value(row: $0, column: column) }
    }

    public var changes: GridChangeNotifier? { nil }

    public func prefetch(rows: [Int]) {}

    public func numberTexts(ofColumn column: Int, rows: [Int]) -> [String]? { nil }

    public func sortedRows(_ rows: [Int], by keys: [SortKey]) -> [Int]? { nil }

    public func rows(containing text: String, column: Int) -> [Int]? { nil }

    public var readFailure: String? { nil }
}

/// A change to a source's rows (`ListChangedType`). Rows are positions in the source.
public enum GridChange: Equatable, Sendable {
    /// Rows were inserted at these positions (after the change); later rows moved down.
    case inserted(Range<Int>)
    /// Rows at these positions (before the change) were removed; later rows moved up.
    case removed(Range<Int>)
    /// The cells of these rows changed.
    case updated(Range<Int>)
    /// Anything may have changed: the columns, every row.
    case reset
}

/// Announces a source's changes to whoever observes it: the grids bound to it.
///
/// ```swift
/// let observation = table.changes?.observe { change in print(change) }
/// try table.appendRow(["组13", "90"])   // prints inserted(13..<14)
/// ```
public final class GridChangeNotifier: @unchecked Sendable {
    private var observers: [Int: (GridChange) -> Void] = [:]
    private var next = 0
    private let lock = NSLock()

    public init() {}

    /// Calls `handler` with every change until the returned observation is cancelled or released.
    public func observe(_ handler: @escaping (GridChange) -> Void) -> GridObservation {
        lock.lock()
        let id = next
        next += 1
        observers[id] = handler
        lock.unlock()
        return GridObservation { [weak self] in
            guard let self else { return }
            self.lock.lock()
            self.observers[id] = nil
            self.lock.unlock()
        }
    }

    /// Tells every observer about `change`, in the order they started observing.
    public func post(_ change: GridChange) {
        lock.lock()
        let handlers = observers.sorted { $0.key < $1.key }.map(\.value)
        lock.unlock()
        for handler in handlers { handler(change) }
    }
}

/// An observation of a source's changes; it ends when cancelled or released.
public final class GridObservation: @unchecked Sendable {
    private var cancellation: (() -> Void)?

    init(_ cancellation: @escaping () -> Void) { self.cancellation = cancellation }

    /// Stops the observation.
    public func cancel() {
        cancellation?()
        cancellation = nil
    }

    deinit { cancel() }
}
