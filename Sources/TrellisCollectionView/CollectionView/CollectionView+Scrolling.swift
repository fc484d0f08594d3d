import Foundation

extension CollectionView {
    /// Where to put an item when scrolling to it (`UICollectionView.ScrollPosition`).
    public struct ScrollPosition: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// Leave the item where it is (an empty set).
        public static let none = ScrollPosition([])
        public static let top = ScrollPosition(rawValue: 1 << 0)
        public static let centeredVertically = ScrollPosition(rawValue: 1 << 1)
        public static let bottom = ScrollPosition(rawValue: 1 << 2)
        public static let left = ScrollPosition(rawValue: 1 << 3)
        public static let centeredHorizontally = ScrollPosition(rawValue: 1 << 4)
        public static let right = ScrollPosition(rawValue: 1 << 5)
    }

    /// The smallest and largest content offsets: the content plus its adjusted inset.
    public var contentOffsetRange: (min: CGPoint, max: CGPoint) {
        let inset = adjustedContentInset
        let minimum = CGPoint(x: 0 - inset.left, y: 0 - inset.top)  // 0 − 0 is +0, where −0 would leak into offsets
        let maximum = CGPoint(
            x: max(minimum.x, contentSize.width + inset.right - bounds.width),
            y: max(minimum.y, contentSize.height + inset.bottom - bounds.height))
        return (minimum, maximum)
    }

    /// `offset` clamped to ``contentOffsetRange``; a coordinate that is not a number stays put.
    public func clampedOffset(_ offset: CGPoint) -> CGPoint {
        let range = contentOffsetRange
        let x = offset.x.isNaN ? bounds.origin.x : min(max(offset.x, range.min.x), range.max.x)
        let y = offset.y.isNaN ? bounds.origin.y : min(max(offset.y, range.min.y), range.max.y)
        return CGPoint(x: x, y: y)
    }

    /// Scrolls to `contentOffset`. Animated, the move is recorded as ``currentTransition`` (only
    /// the offsets change) and the delegate hears `scrollViewDidEndScrollingAnimation(_:)`.
    public func setContentOffset(_ contentOffset: CGPoint, animated: Bool) {
        layoutIfNeeded()
        let start = bounds.origin
        guard contentOffset.x.isFinite, contentOffset.y.isFinite else { return }
        bounds.origin = contentOffset
        layoutIfNeeded()
        guard animated else { return }
        currentTransition = CollectionViewTransition(
            elements: [], contentSizeBefore: contentSize,
            contentSizeAfter: contentSize,
            contentOffsetBefore: start, contentOffsetAfter: contentOffset)
        delegate?.scrollViewDidEndScrollingAnimation(self)
    }

    /// Scrolls so that an item sits at `scrollPosition` (UIKit's rules: top/centred/bottom along
    /// y, left/centred/right along x, an empty set leaves that axis as it is), clamped to the
    /// content. An index path the layout does not know is ignored.
    public func scrollToItem(at indexPath: IndexPath, at scrollPosition: ScrollPosition, animated: Bool) {
        guard let frame = layoutAttributesForItem(at: indexPath)?.frame else { return }
        let inset = adjustedContentInset
        var offset = bounds.origin
        let height = bounds.height - inset.top - inset.bottom, width = bounds.width - inset.left - inset.right
        // Along each axis: the near edge, the middle or the far edge of the item at that of the view.
        func place(
            _ start: ScrollPosition, _ middle: ScrollPosition, _ end: ScrollPosition,
            min: CGFloat, mid: CGFloat, max: CGFloat, inset: CGFloat, length: CGFloat
        ) -> CGFloat? {
            if scrollPosition.contains(start) { return min - inset }
            if scrollPosition.contains(middle) { return mid - inset - length / 2 }
            if scrollPosition.contains(end) { return max - inset - length }
            return nil
        }
        if let y = place(.top, .centeredVertically, .bottom, min: frame.minY, mid: frame.midY, max: frame.maxY, inset: inset.top, length: height) {
            offset.y = y
        }
        if let x = place(.left, .centeredHorizontally, .right, min: frame.minX, mid: frame.midX, max: frame.maxX, inset: inset.left, length: width) {
            offset.x = x
        }
        setContentOffset(clampedOffset(offset), animated: animated)
    }

    /// Where a scroll would come to rest on its own, starting from the current offset with
    /// `velocity` in points per millisecond and `rate` per millisecond: the geometric sum of the
    /// decaying velocity, `velocity · rate / (1 − rate)`.
    public func projectedOffset(velocity: CGPoint, decelerationRate rate: DecelerationRate) -> CGPoint {
        let r = rate.rawValue
        let factor = r > 0 && r < 1 ? r / (1 - r) : 0
        return CGPoint(x: bounds.origin.x + velocity.x * factor, y: bounds.origin.y + velocity.y * factor)
    }

    /// Ends a (simulated) drag with `velocity` in points per millisecond, as a finger lifting off:
    /// projects where the scroll would stop with ``ScrollView/decelerationRate``, lets paging, the
    /// layout's `targetContentOffset(forProposedContentOffset:withScrollingVelocity:)` and the
    /// delegate's `scrollViewWillEndDragging(_:withVelocity:targetContentOffset:)` adjust it,
    /// clamps it to the content, scrolls there and returns it.
    @discardableResult
    public func endDragging(withVelocity velocity: CGPoint) -> CGPoint {
        layoutIfNeeded()
        guard isScrollEnabled else { return bounds.origin }
        isDragging = true
        delegate?.scrollViewWillBeginDragging(self)
        var target = projectedOffset(velocity: velocity, decelerationRate: decelerationRate)
        if isPagingEnabled { target = pagedOffset(proposed: target, velocity: velocity) }
        if isMirroringLayout {
            // The layout picks in its own coordinates, where a leftward fling runs the other way.
            let chosen = collectionViewLayout.targetContentOffset(
                forProposedContentOffset: mirroredOffset(target),
                withScrollingVelocity: CGPoint(x: -velocity.x, y: velocity.y))
            target = mirroredOffset(chosen)
        } else {
            target = collectionViewLayout.targetContentOffset(forProposedContentOffset: target, withScrollingVelocity: velocity)
        }
        withUnsafeMutablePointer(to: &target) { pointer in
            delegate?.scrollViewWillEndDragging(self, withVelocity: velocity, targetContentOffset: pointer)
        }
        target = clampedOffset(target)
        isDragging = false
        let decelerates = target != bounds.origin
        delegate?.scrollViewDidEndDragging(self, willDecelerate: decelerates)
        if decelerates {
            isDecelerating = true
            delegate?.scrollViewWillBeginDecelerating(self)
        }
        bounds.origin = target
        layoutIfNeeded()
        if decelerates {
            isDecelerating = false
            delegate?.scrollViewDidEndDecelerating(self)
        }
        return target
    }

    /// Paging: the page boundary nearest the projected offset, but at most one page away from the
    /// current page, in the direction of the velocity when there is one.
    func pagedOffset(proposed: CGPoint, velocity: CGPoint) -> CGPoint {
        func page(_ current: CGFloat, _ proposed: CGFloat, _ velocity: CGFloat, _ size: CGFloat) -> CGFloat {
            guard size > 0 else { return current }
            let here = (current / size).rounded()
            var target = (proposed / size).rounded()
            if velocity > 0 {
                target = max(here, min(target, here + 1))
            } else if velocity < 0 {
                target = min(here, max(target, here - 1))
            } else {
                target = min(max(target, here - 1), here + 1)
            }
            return target * size
        }
        return CGPoint(
            x: page(bounds.origin.x, proposed.x, velocity.x, bounds.width),
            y: page(bounds.origin.y, proposed.y, velocity.y, bounds.height))
    }
}

/// The older spelling of ``CollectionView/ScrollPosition`` (`UICollectionViewScrollPosition`).
public typealias CollectionViewScrollPosition = CollectionView.ScrollPosition
