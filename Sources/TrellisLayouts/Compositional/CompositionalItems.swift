import TrellisCollectionView

/// The smallest piece of a compositional layout, one cell: UIKit's `NSCollectionLayoutItem`.
///
/// Its `layoutSize` is resolved against the group it is in; `contentInsets` then shrink the cell
/// inside the space it takes (the neighbours do not move), while `edgeSpacing` adds space
/// outside it (they do).
public class CollectionLayoutItem: NSObject, @unchecked Sendable {
    /// The size, in the dimensions of the containing group.
    public let layoutSize: CollectionLayoutSize
    /// Space inside the item's slot around the cell.
    public var contentInsets = DirectionalEdgeInsets.zero
    /// Space outside the item that pushes its neighbours away.
    public var edgeSpacing: CollectionLayoutEdgeSpacing?
    var storedSupplementaryItems: [CollectionLayoutSupplementaryItem]

    /// An item of `layoutSize`.
    public convenience init(layoutSize: CollectionLayoutSize) {
        self.init(layoutSize: layoutSize, supplementaryItems: [])
    }

    /// An item of `layoutSize` with supplementary items (badges) attached.
    public init(layoutSize: CollectionLayoutSize, supplementaryItems: [CollectionLayoutSupplementaryItem]) {
        self.layoutSize = layoutSize
        storedSupplementaryItems = supplementaryItems
    }

    /// The supplementary items attached to the item.
    public var supplementaryItems: [CollectionLayoutSupplementaryItem] { storedSupplementaryItems }
}

/// The frame of one item of a custom group, in the group's coordinates: UIKit's
/// `NSCollectionLayoutGroupCustomItem`.
public final class CollectionLayoutGroupCustomItem: NSObject, @unchecked Sendable {
    public let frame: CGRect
    public let zIndex: Int

    public convenience init(frame: CGRect) { self.init(frame: frame, zIndex: 0) }
    public init(frame: CGRect, zIndex: Int) {
        self.frame = frame
        self.zIndex = zIndex
    }
}

/// What a custom group asks for its items: the environment's container is the group's size.
public typealias CollectionLayoutGroupCustomItemProvider = (CollectionLayoutEnvironment) -> [CollectionLayoutGroupCustomItem]

/// Items (or groups) laid out in a line, or where a closure says: UIKit's
/// `NSCollectionLayoutGroup`.
///
/// A `horizontal` or `vertical` group of `subitems` repeats them, in order, for as long as the
/// next one fits along its axis; `subitem:count:` fits exactly `count` of one item, each sized
/// to share the group's length (its own size along the axis is ignored); `repeatingSubitem:count:`
/// repeats one item `count` times at its own size. A section repeats its group for as many items
/// as there are.
public final class CollectionLayoutGroup: CollectionLayoutItem, @unchecked Sendable {
    enum Arrangement {
        case horizontal, vertical
        case custom(CollectionLayoutGroupCustomItemProvider)
    }
    enum Repetition: Equatable {
        /// Repeat the subitems while they fit.
        case fill
        /// Exactly this many copies of the one subitem, sized to share the length.
        case count(Int)
        /// Exactly this many copies, at the subitem's own size.
        case repeating(Int)
    }
    let arrangement: Arrangement
    let repetition: Repetition
    /// The items (and groups) of the group.
    public var subitems: [CollectionLayoutItem] { storedSubitems }
    private var storedSubitems: [CollectionLayoutItem]
    /// The spacing between neighbouring items along the group's axis.
    public var interItemSpacing: CollectionLayoutSpacing?

    init(layoutSize: CollectionLayoutSize, arrangement: Arrangement, repetition: Repetition, subitems: [CollectionLayoutItem]) {
        self.arrangement = arrangement
        self.repetition = repetition
        storedSubitems = subitems
        super.init(layoutSize: layoutSize, supplementaryItems: [])
    }

    /// Groups nested in groups are let go one by one, not by recursion: a chain of a hundred
    /// thousand groups (a loop that wraps a group in a group) would overflow the stack.
    deinit {
        var pending = storedSubitems
        storedSubitems = []
        while !pending.isEmpty {
            guard var group = pending.removeLast() as? CollectionLayoutGroup else { continue }
            // Only a group nobody else holds is taken apart; it then goes with nothing in it.
            if isKnownUniquelyReferenced(&group) {
                pending.append(contentsOf: group.storedSubitems)
                group.storedSubitems = []
            }
        }
    }

    /// The supplementary items attached to the group (settable, as UIKit's).
    public override var supplementaryItems: [CollectionLayoutSupplementaryItem] {
        get { storedSupplementaryItems }
        set { storedSupplementaryItems = newValue }
    }

    /// `subitems` left to right, repeated while they fit.
    public class func horizontal(layoutSize: CollectionLayoutSize, subitems: [CollectionLayoutItem]) -> CollectionLayoutGroup {
        CollectionLayoutGroup(layoutSize: layoutSize, arrangement: .horizontal, repetition: .fill, subitems: subitems)
    }
    /// Exactly `count` of `subitem` left to right, each sized to share the width.
    public class func horizontal(layoutSize: CollectionLayoutSize, subitem: CollectionLayoutItem, count: Int) -> CollectionLayoutGroup {
        CollectionLayoutGroup(layoutSize: layoutSize, arrangement: .horizontal, repetition: .count(count), subitems: [subitem])
    }
    /// `subitem` `count` times left to right, at its own size.
    public class func horizontal(
        layoutSize: CollectionLayoutSize, repeatingSubitem subitem: CollectionLayoutItem,
        count: Int
    ) -> CollectionLayoutGroup {
        CollectionLayoutGroup(layoutSize: layoutSize, arrangement: .horizontal, repetition: .repeating(count), subitems: [subitem])
    }
    /// `subitems` top to bottom, repeated while they fit.
    public class func vertical(layoutSize: CollectionLayoutSize, subitems: [CollectionLayoutItem]) -> CollectionLayoutGroup {
        CollectionLayoutGroup(layoutSize: layoutSize, arrangement: .vertical, repetition: .fill, subitems: subitems)
    }
    /// Exactly `count` of `subitem` top to bottom, each sized to share the height.
    public class func vertical(layoutSize: CollectionLayoutSize, subitem: CollectionLayoutItem, count: Int) -> CollectionLayoutGroup {
        CollectionLayoutGroup(layoutSize: layoutSize, arrangement: .vertical, repetition: .count(count), subitems: [subitem])
    }
    /// `subitem` `count` times top to bottom, at its own size.
    public class func vertical(
        layoutSize: CollectionLayoutSize, repeatingSubitem subitem: CollectionLayoutItem,
        count: Int
    ) -> CollectionLayoutGroup {
        CollectionLayoutGroup(layoutSize: layoutSize, arrangement: .vertical, repetition: .repeating(count), subitems: [subitem])
    }
    /// Items where `itemProvider` puts them, in the group's coordinates; each frame must lie
    /// inside the group. The provider is asked once per section and layout pass (it is told
    /// nothing that differs between the section's groups).
    public class func custom(
        layoutSize: CollectionLayoutSize,
        itemProvider: @escaping CollectionLayoutGroupCustomItemProvider
    ) -> CollectionLayoutGroup {
        CollectionLayoutGroup(layoutSize: layoutSize, arrangement: .custom(itemProvider), repetition: .fill, subitems: [])
    }
}

/// A view attached to an item or group (a badge): UIKit's `NSCollectionLayoutSupplementaryItem`.
/// Its index path is its item's (a group's: its first item's).
public class CollectionLayoutSupplementaryItem: CollectionLayoutItem, @unchecked Sendable {
    /// The element kind its view is registered for.
    public let elementKind: String
    /// Where it attaches to its item or group.
    public let containerAnchor: CollectionLayoutAnchor
    /// Which point of it lies on the container anchor's point; `nil`: the container anchor's
    /// edges alone place it.
    public let itemAnchor: CollectionLayoutAnchor?
    /// Its z-index. Default 1: above cells.
    public var zIndex = 1

    public convenience init(layoutSize: CollectionLayoutSize, elementKind: String, containerAnchor: CollectionLayoutAnchor) {
        self.init(layoutSize: layoutSize, elementKind: elementKind, containerAnchor: containerAnchor, itemAnchor: nil)
    }

    public init(
        layoutSize: CollectionLayoutSize, elementKind: String, containerAnchor: CollectionLayoutAnchor,
        itemAnchor: CollectionLayoutAnchor?
    ) {
        self.elementKind = elementKind
        self.containerAnchor = containerAnchor
        self.itemAnchor = itemAnchor
        super.init(layoutSize: layoutSize, supplementaryItems: [])
    }

    /// The frame of a supplementary of `size` attached to `container`.
    func frame(of size: CGSize, attachedTo container: CGRect) -> CGRect {
        guard let itemAnchor else { return containerAnchor.frame(of: size, in: container) }
        // The container's anchor point, and the point of the supplementary that goes on it.
        let target = containerAnchor.frame(of: .zero, in: container).origin
        let own = itemAnchor.frame(of: .zero, in: CGRect(origin: .zero, size: size)).origin
        return CGRect(x: target.x - own.x, y: target.y - own.y, width: size.width, height: size.height)
    }
}

/// A header, footer or other view on an edge of a section or of the whole layout: UIKit's
/// `NSCollectionLayoutBoundarySupplementaryItem`.
public final class CollectionLayoutBoundarySupplementaryItem: CollectionLayoutSupplementaryItem, @unchecked Sendable {
    /// The edge (and corner) it sits on.
    public let alignment: RectAlignment
    /// Moves it from its place, in points.
    public let offset: CGPoint
    /// Whether the section grows to hold it (default `true`); `false` lays it over the content.
    public var extendsBoundary = true
    /// Whether it stays in view while its section scrolls through (a sticky header).
    public var pinToVisibleBounds = false

    public convenience init(layoutSize: CollectionLayoutSize, elementKind: String, alignment: RectAlignment) {
        self.init(layoutSize: layoutSize, elementKind: elementKind, alignment: alignment, absoluteOffset: .zero)
    }

    public init(layoutSize: CollectionLayoutSize, elementKind: String, alignment: RectAlignment, absoluteOffset: CGPoint) {
        self.alignment = alignment
        offset = absoluteOffset
        super.init(
            layoutSize: layoutSize, elementKind: elementKind,
            containerAnchor: CollectionLayoutAnchor(edges: Self.edges(of: alignment)), itemAnchor: nil)
    }

    static func edges(of alignment: RectAlignment) -> DirectionalRectEdge {
        switch alignment {
        case .none: return []
        case .top: return .top
        case .topLeading: return [.top, .leading]
        case .leading: return .leading
        case .bottomLeading: return [.bottom, .leading]
        case .bottom: return .bottom
        case .bottomTrailing: return [.bottom, .trailing]
        case .trailing: return .trailing
        case .topTrailing: return [.top, .trailing]
        }
    }

    /// Whether it sits on the section's leading edge along the scroll axis (a header) or its
    /// trailing one (a footer), for `vertical` scrolling; `nil` for the side edges.
    func end(vertical: Bool) -> BoundaryEnd {
        let edges = Self.edges(of: alignment)
        if vertical {
            if edges.contains(.top) { return .start }
            if edges.contains(.bottom) { return .end }
        } else {
            if edges.contains(.leading) { return .start }
            if edges.contains(.trailing) { return .end }
        }
        return .side
    }

    enum BoundaryEnd { case start, end, side }
}

/// A view drawn behind a section, such as its background: UIKit's
/// `NSCollectionLayoutDecorationItem`. Register its view class with the layout's
/// `register(_:forDecorationViewOfKind:)`. Its frame is the section's, `contentInsets` inside.
public final class CollectionLayoutDecorationItem: CollectionLayoutItem, @unchecked Sendable {
    /// The element kind its view class is registered for.
    public let elementKind: String
    /// Its z-index. Default 0; decorations are listed (and drawn) before a section's cells.
    public var zIndex = 0

    init(elementKind: String) {
        self.elementKind = elementKind
        super.init(
            layoutSize: CollectionLayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .fractionalHeight(1)),
            supplementaryItems: [])
    }

    /// A background the size of the section.
    public class func background(elementKind: String) -> CollectionLayoutDecorationItem {
        CollectionLayoutDecorationItem(elementKind: elementKind)
    }
}
