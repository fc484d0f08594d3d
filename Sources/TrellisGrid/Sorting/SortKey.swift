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
    /// As `standard`, with text compared by this comparator: numbers still by value, before text.
    case text(TextComparator)
    /// Every cell compared as its text by this comparator — numbers, dates and truth values
    /// too — so that `1.11` among versions is a version (`1.9.9a < 1.10.1 < 1.11` naturally),
    /// not a number before them. What an explicit `:natural` (or `:lexical`, …) asks for.
    case asText(TextComparator)
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

    public init(
        _ column: String, _ direction: SortDirection = .ascending, comparator: KeyComparator = .standard,
        nulls: NullPlacement = .last
    ) {
        self.column = column
        self.direction = direction
        self.comparator = comparator
        self.nulls = nulls
    }
}

/// The arguments of a row-aware comparison hook: DataGridView's `SortCompare` event, which here
/// works in every binding mode.
///
/// A hook answers in ascending order; the grid applies the key's direction. A hook that must keep
/// a row in place whichever the direction (the forum's trick for an average row) reads
/// ``direction`` — though pinning the row is the better tool.
public struct SortCompareArguments: Sendable {
    /// The column being compared.
    public var column: String
    /// The two values (never missing: missing values are placed by the key's null placement).
    public var value1: CellValue
    public var value2: CellValue
    /// The two rows, as positions in the data source.
    public var row1: Int
    public var row2: Int
    /// The direction of the key being compared.
    public var direction: SortDirection
    /// The key's position among the sort keys, from 0 (the most significant).
    public var keyIndex: Int
}

/// A sort that cannot be done, or a pin or summary that names what does not exist.
public enum SortError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A column name that the source does not have.
    case unknownColumn(String, columns: [String])
    /// A locale whose language ICU has no collation for; `suggestion` is a close one.
    case unknownLocale(String, suggestion: String?)
    /// A pin of a row position the source does not have.
    case noSuchRow(Int, rowCount: Int)
    /// The source could not read the cells the sort or a summary needs (a lost connection, a
    /// table dropped meanwhile): the order is left as it was.
    case sourceReadFailed(String)
    /// The source answered what no table can be (one value too many or too few for the rows
    /// asked, more rows than a grid can hold): the order is left as it was.
    case sourceAnswerInvalid(String)
    /// ``DataGrid/interruptSort()`` stopped the sort under way: the order is left as it was.
    case interrupted

    public var description: String {
        switch self {
        case .unknownColumn(let name, let columns):
            return "unknown column \"\(Excerpt.of(name))\"; the columns are "
                + columns.prefix(20).map { "\"\(Excerpt.of($0))\"" }.joined(separator: ", ") + (columns.count > 20 ? ", …" : "")
        case .unknownLocale(let id, let suggestion):
            return "unknown locale \"\(Excerpt.of(id))\"" + (suggestion.map { "; did you mean \"\($0)\"?" } ?? "; use an ICU locale such as zh, de or sv")
        case .noSuchRow(let row, let count): return "no row \(row) to pin; the source has \(count) rows"
        case .sourceReadFailed(let message): return "the source could not be read (\(message)); the order is as it was"
        case .sourceAnswerInvalid(let message): return "the data source answered what no table can be: \(message); the order is as it was"
        case .interrupted: return "the sort was stopped; the order is as it was"
        }
    }
}
