import Foundation

/// The animation of a change — a batch update, a layout change, an animated bounds change or a
/// reload — as a value: for every element visible before or after, where it starts and where it
/// ends. Sample it at any time with ``attributes(at:easing:)``.
///
/// ```swift
/// let transition = try collectionView.applyBatchUpdates {
///     collectionView.insertItems(at: [IndexPath(item: 0, section: 0)])
/// }
/// transition.attributes(at: 0.5)   // every animating element halfway, on the default curve
/// collectionView.completeTransition()
/// ```
public struct CollectionViewTransition {
    /// How an element takes part in the transition.
    public enum Role: String, Sendable, Hashable {
        /// New, or brought into view by the change: animates from its initial attributes.
        case appearing
        /// Removed, or taken out of view by the change: animates to its final attributes.
        case disappearing
        /// Present before and after: animates from its old attributes to its new ones.
        case moving
    }

    /// One element's animation.
    public struct Element: Equatable {
        /// The element before the change; `nil` when it appears.
        public var before: ElementID?
        /// The element after the change; `nil` when it disappears.
        public var after: ElementID?
        public var role: Role
        public var from: CollectionViewLayoutAttributes
        public var to: CollectionViewLayoutAttributes

        /// The element's attributes at progress `p` (already eased) in [0, 1]: a new object, of
        /// the class of `to`, with every attribute interpolated from `from` (the custom ones of a
        /// subclass are those of `to`).
        public func attributes(atProgress p: Double) -> CollectionViewLayoutAttributes {
            let a = (p <= 0 ? from : to).copy() as? CollectionViewLayoutAttributes ?? to
            if p <= 0 || p >= 1 { return a }
            let f = CGFloat(p)
            func mix(_ x: CGFloat, _ y: CGFloat) -> CGFloat { x + (y - x) * f }
            a.frame = CGRect(
                x: mix(from.frame.minX, to.frame.minX), y: mix(from.frame.minY, to.frame.minY),
                width: mix(from.frame.width, to.frame.width), height: mix(from.frame.height, to.frame.height))
            a.alpha = mix(from.alpha, to.alpha)
            a.isHidden = from.isHidden && to.isHidden
            if !Transform3DEqualToTransform(from.transform3D, to.transform3D) {
                let x = from.transform3D, y = to.transform3D
                a.transform3D = Transform3D(
                    m11: mix(x.m11, y.m11), m12: mix(x.m12, y.m12), m13: mix(x.m13, y.m13), m14: mix(x.m14, y.m14),
                    m21: mix(x.m21, y.m21), m22: mix(x.m22, y.m22), m23: mix(x.m23, y.m23), m24: mix(x.m24, y.m24),
                    m31: mix(x.m31, y.m31), m32: mix(x.m32, y.m32), m33: mix(x.m33, y.m33), m34: mix(x.m34, y.m34),
                    m41: mix(x.m41, y.m41), m42: mix(x.m42, y.m42), m43: mix(x.m43, y.m43), m44: mix(x.m44, y.m44))
            }
            return a
        }
    }

    /// Every animating element: moving ones, then disappearing, then appearing, each sorted.
    public var elements: [Element]
    /// The content size before and after.
    public var contentSizeBefore: CGSize
    public var contentSizeAfter: CGSize
    /// The content offset before and after.
    public var contentOffsetBefore: CGPoint
    public var contentOffsetAfter: CGPoint

    /// A transition with nothing to animate.
    public static var none: CollectionViewTransition {
        CollectionViewTransition(
            elements: [], contentSizeBefore: .zero, contentSizeAfter: .zero,
            contentOffsetBefore: .zero, contentOffsetAfter: .zero)
    }

    /// Every element's attributes at time `t` in [0, 1] on `easing`; disappearing elements are
    /// included until `t` reaches 1.
    public func attributes(at t: Double, easing: Easing = .easeInOut) -> [CollectionViewLayoutAttributes] {
        let p = easing.progress(at: t)
        return elements.compactMap { element in
            if t >= 1 && element.role == .disappearing { return nil }
            return element.attributes(atProgress: p)
        }
    }

    /// The content offset at time `t`.
    public func contentOffset(at t: Double, easing: Easing = .easeInOut) -> CGPoint {
        let p = CGFloat(easing.progress(at: t))
        return CGPoint(
            x: contentOffsetBefore.x + (contentOffsetAfter.x - contentOffsetBefore.x) * p,
            y: contentOffsetBefore.y + (contentOffsetAfter.y - contentOffsetBefore.y) * p)
    }

    /// The element that ends as `id`, if any.
    public func element(after id: ElementID) -> Element? { elements.first { $0.after == id } }

    /// The element that starts as `id`, if any.
    public func element(before id: ElementID) -> Element? { elements.first { $0.before == id } }
}
