import Foundation

extension CollectionView {
    /// What kind of view a set of layout attributes describes (`UICollectionView.ElementCategory`,
    /// also spelled `UICollectionElementCategory`).
    public enum ElementCategory: UInt, Hashable, Sendable, CaseIterable {
        /// A cell: one per item, identified by its index path.
        case cell = 0
        /// A supplementary view supplied by the data source (section headers and footers).
        case supplementaryView = 1
        /// A decoration view owned by the layout (backgrounds, separators).
        case decorationView = 2

        /// The case's name, as the renderers and the command line write it.
        package var name: String {
            switch self {
            case .cell: "cell"
            case .supplementaryView: "supplementaryView"
            case .decorationView: "decorationView"
            }
        }
    }

    /// The kind of section headers (`UICollectionView.elementKindSectionHeader`).
    public static let elementKindSectionHeader = "sectionHeader"
    /// The kind of section footers (`UICollectionView.elementKindSectionFooter`).
    public static let elementKindSectionFooter = "sectionFooter"
}

/// The older spelling of ``CollectionView/ElementCategory`` (`UICollectionElementCategory`).
public typealias CollectionElementCategory = CollectionView.ElementCategory

/// The kind of a section header (`UICollectionElementKindSectionHeader`).
public let CollectionElementKindSectionHeader = CollectionView.elementKindSectionHeader
/// The kind of a section footer (`UICollectionElementKindSectionFooter`).
public let CollectionElementKindSectionFooter = CollectionView.elementKindSectionFooter
