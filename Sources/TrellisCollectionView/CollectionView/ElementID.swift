import Foundation

/// Identifies one element of a collection view: a cell by index path, a supplementary or
/// decoration view by kind and index path.
public struct ElementID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var category: CollectionView.ElementCategory
    public var kind: String?
    public var section: Int
    public var item: Int

    public init(category: CollectionView.ElementCategory, kind: String?, section: Int, item: Int) {
        self.category = category
        self.kind = kind
        self.section = section
        self.item = item
    }

    /// The identity of the element an attributes object describes.
    public init(_ attributes: CollectionViewLayoutAttributes) {
        self.init(category: attributes.representedElementCategory, kind: attributes.representedElementKind,
                  section: attributes.section, item: attributes.item)
    }

    /// The element's index path.
    public var indexPath: IndexPath { IndexPath(item: item, section: section) }

    /// Cells, the most common elements, hash two integers only: this runs for every element
    /// of every layout pass.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(section &* 1_000_003 &+ item)
        if category != .cell {
            hasher.combine(category)
            hasher.combine(kind)
        }
    }

    /// Cells first, then supplementary and decoration views; by kind, section and item.
    public static func < (a: ElementID, b: ElementID) -> Bool {
        if a.category != b.category { return a.category.rawValue < b.category.rawValue }
        if a.kind != b.kind { return (a.kind ?? "") < (b.kind ?? "") }
        return (a.section, a.item) < (b.section, b.item)
    }

    public var description: String {
        "\(kind ?? category.name)[\(section), \(item)]"
    }
}
