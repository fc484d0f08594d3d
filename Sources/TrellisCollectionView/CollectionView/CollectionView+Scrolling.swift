import Foundation
import TrellisLayout

/// Deceleration rates per millisecond (`UIScrollView.DecelerationRate`).
public enum DecelerationRate {
    /// 0.998 per millisecond.
    public static let normal: CGFloat = 0.998
    /// 0.99 per millisecond.
    public static let fast: CGFloat = 0.99
}

/// Where to put an item when scrolling to it (`UICollectionView.ScrollPosition`).
public struct ScrollPosition: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let top = ScrollPosition(rawValue: 1 << 0)
    public static let centeredVertically = ScrollPosition(rawValue: 1 << 1)
    public static let bottom = ScrollPosition(rawValue: 1 << 2)
    public static let left = ScrollPosition(rawValue: 1 << 3)
    public static let centeredHorizontally = ScrollPosition(rawValue: 1 << 4)
    public static let right = ScrollPosition(rawValue: 1 << 5)
}

extension CollectionView {
    /// The smallest and largest content offsets: the content plus its adjusted inset.
    public var contentOffsetRange: (min: CGPoint, max: CGPoint) {
        let inset = adjustedContentInset
        let minimum = CGPoint(x: 0 - inset.left, y: 0 - inset.top)   // 0 − 0 is +0, where −0 would leak into offsets
        let maximum = CGPoint(x: max(minimum.x, contentSize.width + inset.right - bounds.width),
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

    /// Scrolls to `offset`. Animated, it returns a transition that carries the offsets (elements
    /// do not change, only the viewport moves); otherwise ``CollectionViewTransition/none``.
    @discardableResult
    public func setContentOffset(_ offset: CGPoint, animated: Bool) -> CollectionViewTransition {
        layoutIfNeeded()
        let start = bounds.origin
        setBounds(CGRect(origin: offset, size: bounds.size))
        layoutIfNeeded()
        guard animated else { return .none }
        return CollectionViewTransition(elements: [], contentSizeBefore: contentSize, contentSizeAfter: contentSize,
                                        contentOffsetBefore: start, contentOffsetAfter: offset)
    }

    /// Scrolls so that an item sits at `position` (UIKit's rules: top/centred/bottom along y,
    /// left/centred/right along x, an empty set leaves that axis as it is), clamped to the content.
    @discardableResult
    public func scrollToItem(at indexPath: IndexPath, at position: ScrollPosition,
                             animated: Bool) -> CollectionViewTransition {
        guard let frame = layoutAttributesForItem(at: indexPath)?.frame else { return .none }
        let inset = adjustedContentInset
        var offset = bounds.origin
        let height = bounds.height - inset.top - inset.bottom, width = bounds.width - inset.left - inset.right
        if position.contains(.top) { offset.y = frame.minY - inset.top }
        else if position.contains(.centeredVertically) { offset.y = frame.midY - inset.top - height / 2 }
        else if position.contains(.bottom) { offset.y = frame.maxY - inset.top - height }
        if position.contains(.left) { offset.x = frame.minX - inset.left }
        else if position.contains(.centeredHorizontally) { offset.x = frame.midX - inset.left - width / 2 }
        else if position.contains(.right) { offset.x = frame.maxX - inset.left - width }
        return setContentOffset(clampedOffset(offset), animated: animated)
    }

    /// Where a scroll would come to rest on its own, starting from the current offset with
    /// `velocity` in points per millisecond and `rate` per millisecond: the geometric sum of the
    /// decaying velocity, `velocity · rate / (1 − rate)`.
    public func projectedOffset(velocity: CGPoint, decelerationRate rate: CGFloat) -> CGPoint {
        let factor = rate > 0 && rate < 1 ? rate / (1 - rate) : 0
        return CGPoint(x: bounds.origin.x + velocity.x * factor, y: bounds.origin.y + velocity.y * factor)
    }

    /// Ends a drag: projects where the scroll would stop, lets paging, the layout's
    /// `targetContentOffset(forProposedContentOffset:withScrollingVelocity:)` and the delegate's
    /// `scrollViewWillEndDragging` adjust it, clamps it to the content, scrolls there and returns it.
    @discardableResult
    public func endDragging(withVelocity velocity: CGPoint) -> CGPoint {
        layoutIfNeeded()
        var target = projectedOffset(velocity: velocity, decelerationRate: decelerationRate)
        if isPagingEnabled { target = pagedOffset(proposed: target, velocity: velocity) }
        target = collectionViewLayout.targetContentOffset(forProposedContentOffset: target, withScrollingVelocity: velocity)
        displayDelegate?.scrollViewWillEndDragging(self, withVelocity: velocity,
                                                                               targetContentOffset: &target)
        target = clampedOffset(target)
        setBounds(CGRect(origin: target, size: bounds.size))
        layoutIfNeeded()
        return target
    }

    /// Paging: the page boundary nearest the projected offset, but at most one page away from the
    /// current page, in the direction of the velocity when there is one.
    func pagedOffset(proposed: CGPoint, velocity: CGPoint) -> CGPoint {
        func page(_ current: CGFloat, _ proposed: CGFloat, _ velocity: CGFloat, _ size: CGFloat) -> CGFloat {
            guard size > 0 else { return current }
            let here = (current / size).rounded()
            var target = (proposed / size).rounded()
            if velocity > 0 { target = max(here, min(target, here + 1)) }
            else if velocity < 0 { target = min(here, max(target, here - 1)) }
            else { target = min(max(target, here - 1), here + 1) }
            return target * size
        }
        return CGPoint(x: page(bounds.origin.x, proposed.x, velocity.x, bounds.width),
                       y: page(bounds.origin.y, proposed.y, velocity.y, bounds.height))
    }
}
