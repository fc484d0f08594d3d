import Foundation

/// Ascending or descending.
public enum SortDirection: String, Hashable, Sendable {
    case ascending, descending

    /// The other direction.
    public var reversed: SortDirection { self == .ascending ? .descending : .ascending }
}

/// Where missing values go (`na_position` in pandas).
public enum NullPlacement: String, Hashable, Sendable, CaseIterable {
    /// After every value, in both directions (Excel, LibreOffice, pandas' default).
    case last
    /// Before every value, in both directions.
    case first
    /// As the smallest value: first ascending, last descending (DataView's behaviour).
    case asSmallest = "smallest"

    /// Whether missing values come before present ones in a sort of this direction.
    public func missingFirst(descending: Bool) -> Bool {
        switch self {
        case .last: return false
        case .first: return true
        case .asSmallest: return !descending
        }
    }

    /// The order of two values when at least one is missing, `nil` when both are present. Two
    /// missing values are equivalent.
    public func order(_ a: CellValue, _ b: CellValue, descending: Bool) -> ComparisonResult? {
        switch (a.isMissing, b.isMissing) {
        case (false, false): return nil
        case (true, true): return .orderedSame
        default: return a.isMissing == missingFirst(descending: descending) ? .orderedAscending : .orderedDescending
        }
    }
}

/// How a key compares its values.
public enum KeyComparator: Sendable {
    /// Numbers by value, text by the column's text comparator, booleans false < true, errors by
    /// their text; mixed types by kind: numbers < text < booleans < errors.
    case standard
    /// As `standard`, with text compared by this comparator.
    case text(TextComparator)
    /// A comparator of two non-missing values, answering ascending order (a per-column comparator).
    case custom(@Sendable (CellValue, CellValue) -> ComparisonResult)
}

/// One key of a sort: a column, a direction, a comparator and where missing values go.
///
/// ```swift
/// SortKey("分数", .descending)
/// SortKey("组号", comparator: .text(.natural))
/// ```
public struct SortKey: Sendable {
    public var column: String
    public var direction: SortDirection
    public var comparator: KeyComparator
    public var nulls: NullPlacement

    public init(_ column: String, _ direction: SortDirection = .ascending, comparator: KeyComparator = .standard,
                nulls: NullPlacement = .last) {
        self.column = column
        self.direction = direction
        self.comparator = comparator
        self.nulls = nulls
    }
}

/// The arguments of a row-aware comparison hook: DataGridView's `SortCompare` event, which here
/// works in every binding mode.
public struct SortCompareArguments: Sendable {
    /// The column being compared.
    public var column: String
    /// The two values (never missing: missing values are placed by the key's null placement).
    public var value1: CellValue
    public var value2: CellValue
    /// The two rows, as positions in the data source.
    public var row1: Int
    public var row2: Int
}

/// A sort that cannot be done: an unknown column, a column that is not sortable.
public struct SortError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
