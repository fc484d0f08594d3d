import Foundation

/// A misuse of a table: a row of the wrong length, a position that does not exist.
public enum TableError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A row with `found` values where the table has `expected` columns.
    case wrongFieldCount(expected: Int, found: Int)
    /// A row position outside the table.
    case noSuchRow(Int, rowCount: Int)
    /// A column position outside the table.
    case noSuchColumnPosition(Int, columnCount: Int)
    /// A column whose text would pass 4 GB.
    case columnFull(String)
    /// Rows added to a grid that does not own them (a bound or virtual grid).
    case notOwned
    /// A cell its source does not let take the value, with the source's reason.
    case refused(String)

    public var description: String {
        switch self {
        case .wrongFieldCount(let expected, let found):
            return "a row needs \(expected) values, one per column; it has \(found)"
        case .noSuchRow(let row, let count): return "no row \(row); the table has \(count) rows"
        case .noSuchColumnPosition(let column, let count): return "no column \(column); the table has \(count) columns"
        case .columnFull(let column): return "column \"\(Excerpt.of(column))\" cannot hold more than 4 GB of text"
        case .notOwned: return "only an unbound grid owns its rows; change its data source instead"
        case .refused(let reason): return reason
        }
    }
}
