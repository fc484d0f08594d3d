import Foundation

/// Where a grid's rows come from: a number of rows whose cells can be read by position. The grid
/// never asks a source to reorder anything — sorting is a permutation the grid keeps.
///
/// This is the whole of what a source must do. What a source can do beyond it — announce its
/// changes, read a window in one go, search or sort itself, give exact digits, say why a read
/// failed — it says by adopting the capability protocols below (``ObservableDataSource``,
/// ``PrefetchingDataSource``, ``SearchableDataSource``, ``SortingDataSource``,
/// ``ExactNumberDataSource``, ``FallibleDataSource``); the grid asks for each by protocol.
///
/// ```swift
/// final class Scores: GridDataSource {
///     let columns = [Column("组号"), Column("分数", type: .decimal)]
///     var rowCount: Int { 3 }
///     func value(row: Int, column: Int) -> CellValue {
///         column == 0 ? .text("组\(row + 1)") : .decimal(Double(90 - row))
///     }
/// }
/// ```
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
}

extension GridDataSource {
    public func text(row: Int, column: Int) -> String { value(row: row, column: column).description }

    public func values(ofColumn column: Int, rows: [Int]) -> [CellValue] {
        rows.map { value(row: $0, column: column) }
    }
}

/// A source that announces its changes (as `IBindingList.ListChanged` does): the grids bound to
/// it keep their sort, pins and summaries current. The grids of a source that does not adopt it
/// are told with ``DataGrid/reload()``.
public protocol ObservableDataSource: GridDataSource {
    /// Where the source announces its changes.
    var changes: GridChangeNotifier { get }
}

/// A source that fetches rows from elsewhere (a database) and reads a window of them in one go
/// when told which rows are about to be read.
public protocol PrefetchingDataSource: GridDataSource {
    /// A hint that the cells of `rows` are about to be read (a window of the sorted grid).
    func prefetch(rows: [Int])
}

/// A source whose numbers can be wider than a double (a database's `numeric`): sorting asks it
/// for their digits and orders them exactly.
public protocol ExactNumberDataSource: GridDataSource {
    /// The digits of a number column's cells at `rows`, as the source holds them, or `nil` when
    /// the column's numbers are what their values say.
    func numberTexts(ofColumn column: Int, rows: [Int]) -> [String]?
}

/// A source that can order its own rows — a database's `ORDER BY` — when it can give exactly the
/// grid's order.
public protocol SortingDataSource: GridDataSource {
    /// `rows` ordered by `keys` (ties in the order of `rows`), or `nil` for the grid to sort them.
    func sortedRows(_ rows: [Int], by keys: [SortKey]) -> [Int]?
}

/// A source that can search its own cells — a database's `WHERE … LIKE` — which a find (the
/// viewer's `/`) asks once instead of reading every cell.
public protocol SearchableDataSource: GridDataSource {
    /// The rows whose ``GridDataSource/text(row:column:)`` in `column` contains `text` (its UTF-8
    /// bytes, as written), in any order, or `nil` for the grid to read every cell.
    func rows(containing text: String, column: Int) -> [Int]?
}

/// A source whose reads take long enough to want stopping (a database): ``interrupt()``, called
/// from another thread while a sort reads it, makes the read under way fail at once; the grid
/// then keeps the order it had, as after any failed read.
public protocol InterruptibleDataSource: FallibleDataSource {
    /// Stops the read under way, if any. Safe to call from any thread.
    func interrupt()
}

/// A source whose reads can fail after it was opened (a lost connection, a table dropped
/// meanwhile): the cells that could not be read show as blank, and a viewer says why.
public protocol FallibleDataSource: GridDataSource {
    /// Why the last read of cells failed, or `nil` when it succeeded.
    var readFailure: String? { get }
    /// How many reads have failed since the source was made: a grid compares it before and
    /// after a sort to know whether that sort's own reads failed (``readFailure`` may be left from
    /// an earlier read, and a sort may read only cells already held).
    var failedReads: Int { get }
}

/// A source that keeps its cells in Trellis's column storage (a ``Table``): sorting, find,
/// summaries and renderers read the stored bytes and kinds in place.
package protocol ColumnStorageSource: GridDataSource {
    /// How many columns have stores.
    var storeCount: Int { get }
    /// The cells of one column.
    func store(_ column: Int) -> ColumnStore
}

/// A source read from a CSV file that keeps the file's records: a writer copies a row that the
/// grid shows as stored as its record, quoting and all, in the file's encoding, delimiter and
/// line break (a ``Table`` read from a file).
package protocol RecordKeepingSource: ColumnStorageSource {
    /// How the file is written.
    var csvFormat: CSVFormat { get }
    /// The file's records, while the source is as it was read; `nil` once it changed.
    var rawRecords: RawRecords? { get }
    /// Whether some columns were left in the records (read as text when asked for).
    var hasUnreadColumns: Bool { get }
    /// Calls `body` with a view of each column's stored bytes.
    func withViews<R>(_ body: ([CellBytesView]) -> R) -> R
}

/// A source whose cells the grid may set and to which it may add rows (DataGridView editing a
/// bound `DataTable`): a ``Table``, or an app's own.
public protocol EditableDataSource: GridDataSource {
    /// Sets the cell of source row `row` in `column`.
    func setValue(_ value: CellValue, row: Int, column: Int) throws(TableError)
    /// Adds a row at the end.
    func appendRow(values: [CellValue]) throws(TableError)
}

/// A source whose cells a grid edits in memory, written back together when the user saves —
/// as a DataGridView bound to a DataSet keeps its edits in the DataTable until a table adapter's
/// `Update` writes them. A database table read through a read-only connection is one
/// (`SQLiteTableSource`): ``DataGrid/editCell(row:column:text:)`` stages the cell, and the table
/// is written by the source's own save, in one transaction.
public protocol StagingDataSource: GridDataSource {
    /// Sets the cell of source row `row` in `column` to what `text` reads as in that column, in
    /// memory only (the source tells its grids); throws, leaving the cell, when it cannot hold
    /// it. Staging a cell's stored text again un-stages it.
    func stage(text: String, row: Int, column: Int) throws(TableError)
    /// How many cells differ from what is stored.
    var stagedCellCount: Int { get }
    /// Writes every staged cell where the source stores them — all of them or, on a failure,
    /// none — and says how many it wrote.
    func saveStagedEdits() throws -> Int
    /// Where a save writes, for a message (`table "成绩" in school.db`).
    var storageDescription: String { get }
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
/// let observation = table.changes.observe { change in print(change) }
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
