import Foundation

/// How a column's header reacts to clicks (`DataGridViewColumnSortMode`).
public enum SortMode: String, Hashable, Sendable {
    /// A click on the header sorts by the column.
    case automatic
    /// The app sorts by the column in code and sets its glyph; clicks do nothing.
    case programmatic
    /// Clicks do nothing; the app may still sort by the column in code, as DataGridView allows.
    case notSortable
}

/// A column: what it is called, what its values are and how it sorts.
public struct Column: Sendable, Equatable {
    /// The name used to address the column (a CSV header).
    public var identifier: String
    /// The title shown in the header.
    public var title: String
    /// The type of its values: what most of its cells hold (see ``ColumnType``).
    public var type: ColumnType
    /// How header clicks sort it.
    public var sortMode: SortMode
    /// How its text compares, unless a sort key says otherwise.
    public var textComparator: TextComparator

    public init(
        _ identifier: String, title: String? = nil, type: ColumnType = .text, sortMode: SortMode = .automatic,
        textComparator: TextComparator = .natural
    ) {
        self.identifier = identifier
        self.title = title ?? identifier
        self.type = type
        self.sortMode = sortMode
        self.textComparator = textComparator
    }
}
