import Foundation

/// How a column's header reacts to clicks (`DataGridViewColumnSortMode`).
public enum SortMode: String, Hashable, Sendable {
    /// A click on the header sorts by the column.
    case automatic
    /// The app sorts by the column in code; clicks do nothing, the glyph shows what the app set.
    case programmatic
    /// The column cannot be sorted.
    case notSortable
}

/// A column: what it is called, what its values are and how it sorts.
public struct Column: Sendable {
    /// The name used to address the column (a CSV header).
    public var identifier: String
    /// The title shown in the header.
    public var title: String
    /// The type of its values.
    public var type: ColumnType
    /// How header clicks sort it.
    public var sortMode: SortMode
    /// How its text compares, unless a sort key says otherwise.
    public var textComparator: TextComparator

    public init(_ identifier: String, title: String? = nil, type: ColumnType = .text, sortMode: SortMode = .automatic,
                textComparator: TextComparator = .natural) {
        self.identifier = identifier
        self.title = title ?? identifier
        self.type = type
        self.sortMode = sortMode
        self.textComparator = textComparator
    }
}

/// Where a grid's rows come from: a fixed number of rows whose cells can be read by position. The
/// grid never asks a source to reorder anything — sorting is a permutation the grid keeps.
public protocol GridDataSource: AnyObject {
    /// The columns.
    var columns: [Column] { get }
    /// The number of rows.
    var rowCount: Int { get }
    /// The value at `row`, `column` (positions in the source's own order).
    func value(row: Int, column: Int) -> CellValue
    /// The values of one column at the given rows, in that order: how sorting reads a key. The
    /// default asks `value(row:column:)` row by row; a source that stores columns can do better.
    func values(ofColumn column: Int, rows: [Int]) -> [CellValue]
    /// Every value of one column in row order, when the source keeps them in an array it can
    /// hand over without copying; `nil` otherwise (the default).
    func storedValues(ofColumn column: Int) -> [CellValue]?
}

extension GridDataSource {
    public func values(ofColumn column: Int, rows: [Int]) -> [CellValue] {
        rows.map { value(row: $0, column: column) }
    }

    public func storedValues(ofColumn column: Int) -> [CellValue]? { nil }
}

/// An in-memory table: the equivalent of the DataTable the user fills in code.
///
/// ```swift
/// let table = Table(columns: [Column("组号"), Column("分数", type: .decimal)])
/// try table.appendRow(["组1", "88.5"])
/// table.value(row: 0, column: 1)   // .decimal(88.5)
/// ```
public final class Table: GridDataSource {
    public private(set) var columns: [Column]
    /// Values column by column: key extraction reads one column at a time.
    private(set) var storage: [[CellValue]]

    /// An empty table with these columns.
    public init(columns: [Column]) {
        self.columns = columns
        self.storage = columns.map { _ in [] }
    }

    /// A table from values, row by row; each row must have one value per column.
    public convenience init(columns: [Column], rows: [[CellValue]]) throws(TableError) {
        self.init(columns: columns)
        for row in rows { try appendRow(values: row) }
    }

    public var rowCount: Int { storage.first?.count ?? 0 }

    public func value(row: Int, column: Int) -> CellValue {
        guard storage.indices.contains(column), storage[column].indices.contains(row) else { return .missing }
        return storage[column][row]
    }

    /// All values of one column, in row order.
    public func values(ofColumn column: Int) -> [CellValue] { storage[column] }

    public func storedValues(ofColumn column: Int) -> [CellValue]? {
        storage.indices.contains(column) ? storage[column] : nil
    }

    public func values(ofColumn column: Int, rows: [Int]) -> [CellValue] {
        guard storage.indices.contains(column) else { return rows.map { _ in .missing } }
        let values = storage[column]
        return rows.map { values.indices.contains($0) ? values[$0] : .missing }
    }

    /// The position of the column named `identifier`, if any.
    public func columnIndex(_ identifier: String) -> Int? { columns.firstIndex { $0.identifier == identifier } }

    /// Appends a row of values.
    public func appendRow(values: [CellValue]) throws(TableError) {
        guard values.count == columns.count else {
            throw TableError("a row needs \(columns.count) values, one per column; it has \(values.count)")
        }
        for (c, value) in values.enumerated() {
            if case .decimal(let d) = value, d.isNaN { storage[c].append(.missing) } else { storage[c].append(value) }
        }
    }

    /// Appends a row of texts, each read as its column's type.
    public func appendRow(_ texts: [String]) throws(TableError) {
        guard texts.count == columns.count else {
            throw TableError("a row needs \(columns.count) values, one per column; it has \(texts.count)")
        }
        try appendRow(values: zip(texts, columns).map { CellValue.parse($0, as: $1.type) })
    }

    /// Removes the row at `row`.
    public func removeRow(at row: Int) throws(TableError) {
        guard row >= 0, row < rowCount else { throw TableError("no row \(row); the table has \(rowCount) rows") }
        for c in storage.indices { storage[c].remove(at: row) }
    }

    /// Sets one value.
    public func setValue(_ value: CellValue, row: Int, column: Int) throws(TableError) {
        guard storage.indices.contains(column), storage[column].indices.contains(row) else {
            throw TableError("no cell at row \(row), column \(column)")
        }
        storage[column][row] = value
    }
}

/// A misuse of a table: a row of the wrong length, a position that does not exist.
public struct TableError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
