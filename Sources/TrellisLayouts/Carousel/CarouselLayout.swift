import Foundation
import TrellisCollectionView

/// A horizontal row of equal items whose scrolling always comes to rest with one item centred in
/// the viewport: a flow layout with a `targetContentOffset` that snaps.
///
/// The first and last items can be centred too: the section inset leaves half a viewport less
/// half an item on each side.
open class CarouselLayout: CollectionViewFlowLayout {
    /// Creates a carousel of `itemSize` items `spacing` apart.
    public init(itemSize: CGSize = CGSize(width: 200, height: 300), spacing: CGFloat = 16) {
        super.init()
        // Its rect queries are the flow layout's: it streams them as the flow layout does.
        flowWalkClass = CarouselLayout.self
        scrollDirection = .horizontal
        self.itemSize = itemSize
        minimumLineSpacing = spacing
        minimumInteritemSpacing = spacing
    }

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        flowWalkClass = CarouselLayout.self
        scrollDirection = .horizontal
    }

    open override func prepare() {
        let width = collectionView?.bounds.width ?? 0
        let side = max(0, (width - itemSize.width) / 2)
        let height = collectionView?.bounds.height ?? 0
        let vertical = max(0, (height - itemSize.height) / 2)
        let inset = EdgeInsets(top: vertical, left: side, bottom: vertical, right: side)
        // Setting an equal inset invalidates nothing, so with an unchanged viewport this settles in
        // one pass; a resize costs one more.
        sectionInset = inset
        super.prepare()
    }

    /// The item whose centre is nearest the centre of the proposed viewport ends up centred.
    open override func targetContentOffset(
        forProposedContentOffset proposedContentOffset: CGPoint,
        withScrollingVelocity velocity: CGPoint
    ) -> CGPoint {
        guard let bounds = collectionView?.bounds else { return proposedContentOffset }
        let centre = proposedContentOffset.x + bounds.width / 2
        let probe = CGRect(x: centre - bounds.width, y: -1e9, width: 2 * bounds.width, height: 2e9)
        let candidates = (layoutAttributesForElements(in: probe) ?? []).filter { $0.representedElementCategory == .cell }
        guard let nearest = candidates.min(by: { abs($0.center.x - centre) < abs($1.center.x - centre) }) else {
            return proposedContentOffset
        }
        return CGPoint(x: nearest.center.x - bounds.width / 2, y: proposedContentOffset.y)
    }

    open override func targetContentOffset(forProposedContentOffset proposedContentOffset: CGPoint) -> CGPoint {
        targetContentOffset(forProposedContentOffset: proposedContentOffset, withScrollingVelocity: .zero)
    }
}
