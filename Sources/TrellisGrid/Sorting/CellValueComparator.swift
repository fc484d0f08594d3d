import Foundation

/// The standard order of cell values as a Foundation `SortComparator`, so that
/// `values.sorted(using: CellValueComparator(.natural))` reads as it does anywhere in Swift.
///
/// ```swift
/// let cells: [CellValue] = [.text("组10"), .missing, .text("组2")]
/// cells.sorted(using: CellValueComparator(.natural, order: .reverse))
/// // [.text("组10"), .text("组2"), .missing]: missing values stay last in both orders
/// ```
public struct CellValueComparator: SortComparator, Hashable, Sendable {
    /// How text compares.
    public var text: TextComparator
    /// Ascending (`.forward`) or descending (`.reverse`).
    public var order: SortOrder
    /// Where missing values go.
    public var nulls: NullPlacement

    public init(_ text: TextComparator = .natural, order: SortOrder = .forward, nulls: NullPlacement = .last) {
        self.text = text
        self.order = order
        self.nulls = nulls
    }

    public func compare(_ lhs: CellValue, _ rhs: CellValue) -> ComparisonResult {
        let descending = order == .reverse
        if let placed = nulls.order(lhs, rhs, descending: descending) { return placed }
        let result = SortEngine.standardCompare(lhs, rhs, text: text)
        return descending ? result.reversed : result
    }
}

/// A ``TextComparator`` as a Foundation `SortComparator` of strings:
/// `["组10", "组2"].sorted(using: TextSortComparator(.natural))` gives `["组2", "组10"]`.
public struct TextSortComparator: SortComparator, Hashable, Sendable {
    /// How the strings compare.
    public var text: TextComparator
    /// Ascending (`.forward`) or descending (`.reverse`).
    public var order: SortOrder

    public init(_ text: TextComparator = .natural, order: SortOrder = .forward) {
        self.text = text
        self.order = order
    }

    public func compare(_ lhs: String, _ rhs: String) -> ComparisonResult {
        let result = text.compare(lhs, rhs)
        return order == .reverse ? result.reversed : result
    }
}
