import Foundation
import TrellisCollectionView

/// Items on a circle around the centre of the viewport — the classic example of custom insert and
/// delete animations: an inserted cell grows out of the centre from alpha 0, a deleted one shrinks
/// into the centre and fades. Only the index paths actually inserted or deleted get that
/// animation: the hooks are asked for every appearing and disappearing element, so the layout
/// remembers what ``prepare(forCollectionViewUpdates:)`` told it.
///
/// ```swift
/// let layout = CircleLayout()
/// let collectionView = CollectionView(frame: CGRect(x: 0, y: 0, width: 400, height: 400),
///                                     collectionViewLayout: layout)
/// ```
open class CircleLayout: CollectionViewLayout {
    /// The side of each item. Default 70; a negative or non-finite side counts as zero.
    open var itemSize: CGFloat = 70 {
        didSet { if itemSize != oldValue { invalidateLayout() } }
    }
    /// How small an appearing or disappearing item is at the centre. Default 0.1.
    open var collapsedScale: CGFloat = 0.1

    private var center = CGPoint.zero
    private var radius: CGFloat = 0
    private var count = 0
    private var inserted = Set<IndexPath>()
    private var deleted = Set<IndexPath>()

    public override init() { super.init() }

    public required init?(coder: NSCoder) { super.init(coder: coder) }

    private var side: CGFloat { itemSize.isFinite && itemSize > 0 ? itemSize : 0 }

    open override func prepare() {
        super.prepare()
        let size = collectionView?.bounds.size ?? .zero
        center = CGPoint(x: size.width / 2, y: size.height / 2)
        radius = max(0, min(size.width, size.height) / 2.5)
        count = max(0, collectionView?.numberOfItems(inSection: 0) ?? 0)
    }

    open override var collectionViewContentSize: CGSize { collectionView?.bounds.size ?? .zero }

    open override func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        guard indexPath.count == 2, indexPath.section == 0, (0..<count).contains(indexPath.item) else { return nil }
        let attributes = attributesClass.init(category: .cell, kind: nil, section: 0, item: indexPath.item)
        attributes.frame = frame(of: indexPath.item)
        return attributes
    }

    private func frame(of item: Int) -> CGRect {
        let angle = 2 * CGFloat.pi * CGFloat(item) / CGFloat(count)
        return CGRect(
            x: center.x + radius * cos(angle) - side / 2,
            y: center.y + radius * sin(angle) - side / 2, width: side, height: side)
    }

    /// Every item is on screen, so the query is the items themselves, filtered by the rect.
    private func elements(in rect: CGRect, _ emit: (LayoutElement) -> Void) {
        for item in 0..<count {
            let frame = frame(of: item)
            if LayoutGeometry.intersects(frame, rect) { emit(LayoutElement(.cell, section: 0, item: item, frame: frame)) }
        }
    }

    private let recycler = AttributesRecycler()
    /// The one object ``forEachLayoutAttributes(in:_:)`` hands out, element after element.
    private let streamRecycler = AttributesRecycler()

    open override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
        layoutAttributes(recycling: recycler) { elements(in: rect, $0) }
    }

    /// Streams the items through one reused object (a subclass is asked through its own query).
    open override func forEachLayoutAttributes(in rect: CGRect, _ body: (CollectionViewLayoutAttributes) -> Void) {
        streamLayoutAttributes(in: rect, walkOf: CircleLayout.self, reusing: streamRecycler, to: body) { elements(in: rect, $0) }
    }

    open override func prepare(forCollectionViewUpdates updateItems: [CollectionViewUpdateItem]) {
        super.prepare(forCollectionViewUpdates: updateItems)
        inserted = Set(updateItems.filter { $0.updateAction == .insert }.compactMap(\.indexPathAfterUpdate))
        deleted = Set(updateItems.filter { $0.updateAction == .delete }.compactMap(\.indexPathBeforeUpdate))
    }

    open override func finalizeCollectionViewUpdates() {
        super.finalizeCollectionViewUpdates()
        inserted = []
        deleted = []
    }

    /// Inserted items start collapsed at the centre with alpha 0; other appearing items use the
    /// default.
    open override func initialLayoutAttributesForAppearingItem(at itemIndexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        guard inserted.contains(itemIndexPath), let attributes = layoutAttributesForItem(at: itemIndexPath) else { return nil }
        collapse(attributes)
        return attributes
    }

    /// Deleted items end collapsed at the centre with alpha 0; other disappearing items use the
    /// default.
    open override func finalLayoutAttributesForDisappearingItem(at itemIndexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        guard deleted.contains(itemIndexPath) else { return nil }
        let attributes = attributesClass.init(category: .cell, kind: nil, section: 0, item: 0)
        attributes.indexPath = itemIndexPath
        attributes.frame = CGRect(x: 0, y: 0, width: side, height: side)
        collapse(attributes)
        return attributes
    }

    private func collapse(_ attributes: CollectionViewLayoutAttributes) {
        attributes.alpha = 0
        attributes.center = center
        attributes.transform3D = Transform3DMakeScale(collapsedScale, collapsedScale, 1)
    }
}
