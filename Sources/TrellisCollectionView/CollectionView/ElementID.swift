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

    /// What ``item`` (and ``section``) hold for an index path without that index: `[0]`, which
    /// UIKit allows for supplementary views, is section 0 and no item — not `[0, 0]`.
    public static let noIndex = Int.min

    /// The identity of the element of this category and kind at `indexPath`, kept as given: a
    /// one-index path (`IndexPath(index: 0)`) is its own element, apart from `[0, 0]`. Paths
    /// longer than two are told apart by their first two indexes.
    public init(category: CollectionView.ElementCategory, kind: String?, indexPath: IndexPath) {
        self.init(
            category: category, kind: kind, section: indexPath.count > 0 ? indexPath[0] : Self.noIndex,
            item: indexPath.count > 1 ? indexPath[1] : Self.noIndex)
    }

    /// The identity of the element an attributes object describes.
    public init(_ attributes: CollectionViewLayoutAttributes) {
        if attributes.hasTwoIndexPath {
            self.init(
                category: attributes.representedElementCategory, kind: attributes.representedElementKind,
                section: attributes.section, item: attributes.item)
        } else {
            self.init(
                category: attributes.representedElementCategory, kind: attributes.representedElementKind,
                indexPath: attributes.indexPath)
        }
    }

    /// The element's index path, as it was given.
    public var indexPath: IndexPath {
        if item != Self.noIndex { return IndexPath(item: item, section: section) }
        return section == Self.noIndex ? IndexPath() : IndexPath(index: section)
    }

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
        "\(kind ?? category.name)\(Array(indexPath))"
    }
}
