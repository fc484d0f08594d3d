import Foundation

/// A row as the grid shows it.
public enum DisplayRow: Hashable, Sendable {
    /// A row of the data source (its position there), pinned or in the body.
    case source(Int)
    /// The summary row at this position in the grid's `summaries`.
    case summary(Int)
}

/// The edge of the grid where a pinned row or a summary row stays, whatever the sort.
public enum PinEdge: String, Hashable, Sendable {
    case top, bottom

    /// The edge a grid pinned to by a ``RowRegion`` before pins took an edge.
    @available(*, deprecated, renamed: "top")
    public static var pinnedTop: PinEdge { .top }
    @available(*, deprecated, renamed: "bottom")
    public static var pinnedBottom: PinEdge { .bottom }
}

/// Which part of the grid a displayed row is in.
public enum RowRegion: String, Hashable, Sendable {
    case pinnedTop, body, pinnedBottom
}

/// The sort glyph a header shows.
public struct SortGlyph: Hashable, Sendable {
    /// The direction, `nil` when the column shows no glyph.
    public var direction: SortDirection?
    /// The key's position among the sort keys, from 1; `nil` when not sorted.
    public var priority: Int?

    public init(direction: SortDirection? = nil, priority: Int? = nil) {
        self.direction = direction
        self.priority = priority
    }
}

/// What a click on a header does next.
public enum SortCycle: String, Hashable, Sendable {
    /// Ascending → descending → no sort (AG Grid, TanStack).
    case ascendingDescendingNone
    /// Ascending ⇄ descending, never back to unsorted (DataGridView).
    case dataGridView
}

/// Which rows a pin takes out of the body.
public enum RowPin: Sendable, Equatable {
    /// The row at this position in the data source; it follows the row when rows are inserted
    /// or removed before it.
    case row(Int)
    /// Every row whose cell in `column` reads `value` — the same text once surrounding spaces are
    /// set aside, or the same value (`92` and `92.0`) — e.g. `组号 == "平均"`.
    case matching(column: String, value: String)
}
