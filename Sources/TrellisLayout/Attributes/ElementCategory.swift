import Foundation

/// What kind of view a set of layout attributes describes (`UICollectionElementCategory`,
/// also spelled `UICollectionView.ElementCategory`).
public enum CollectionElementCategory: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// A cell: one per item, identified by its index path.
    case cell
    /// A supplementary view supplied by the data source (section headers and footers).
    case supplementaryView
    /// A decoration view owned by the layout (backgrounds, separators).
    case decorationView

    public var description: String { rawValue }
}

/// The element kinds the flow layout uses for section headers and footers.
///
/// UIKit spells them `UICollectionView.elementKindSectionHeader` (`UICollectionElementKindSectionHeader`);
/// the top-level constants below port the older spelling, and the headless collection view
/// re-exports them under its own name.
public enum CollectionElementKind {
    /// The kind of a section header.
    public static let sectionHeader = "sectionHeader"
    /// The kind of a section footer.
    public static let sectionFooter = "sectionFooter"
}

/// The kind of a section header (`UICollectionElementKindSectionHeader`).
public let CollectionElementKindSectionHeader = CollectionElementKind.sectionHeader
/// The kind of a section footer (`UICollectionElementKindSectionFooter`).
public let CollectionElementKindSectionFooter = CollectionElementKind.sectionFooter
