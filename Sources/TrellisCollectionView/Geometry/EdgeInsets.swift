import Foundation

/// Insets for each edge of a rectangle: `UIEdgeInsets` without the prefix.
///
/// ```swift
/// let inset = EdgeInsets(top: 8, left: 16, bottom: 8, right: 16)
/// CGRect(x: 0, y: 0, width: 100, height: 50).inset(by: inset)  // (16.0, 8.0, 68.0, 34.0)
/// ```
public struct EdgeInsets: Hashable, Sendable {
    /// The inset at the top edge.
    public var top: CGFloat
    /// The inset at the left edge.
    public var left: CGFloat
    /// The inset at the bottom edge.
    public var bottom: CGFloat
    /// The inset at the right edge.
    public var right: CGFloat

    /// Insets of zero on every edge.
    public init() {
        self.init(top: 0, left: 0, bottom: 0, right: 0)
    }

    /// Creates insets from the four edges, in UIKit's argument order.
    public init(top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// Insets of zero on every edge.
    public static let zero = EdgeInsets()

    /// `left + right`.
    package var horizontal: CGFloat { left + right }
    /// `top + bottom`.
    package var vertical: CGFloat { top + bottom }

    /// The same insets with the axes swapped (top ↔ left, bottom ↔ right): how a horizontal
    /// layout is computed as a vertical one.
    package var transposed: EdgeInsets { EdgeInsets(top: left, left: top, bottom: right, right: bottom) }

    /// Whether every edge is a finite number.
    package var isFinite: Bool { top.isFinite && left.isFinite && bottom.isFinite && right.isFinite }
}

extension EdgeInsets: CustomStringConvertible {
    /// `{top, left, bottom, right}`, as `NSCoder.string(for: UIEdgeInsets)` writes it.
    public var description: String { "{\(top), \(left), \(bottom), \(right)}" }
}

/// Insets from the four edges (`UIEdgeInsetsMake`).
public func EdgeInsetsMake(_ top: CGFloat, _ left: CGFloat, _ bottom: CGFloat, _ right: CGFloat) -> EdgeInsets {
    EdgeInsets(top: top, left: left, bottom: bottom, right: right)
}

/// `rect` shrunk by `insets` (`UIEdgeInsetsInsetRect`).
public func EdgeInsetsInsetRect(_ rect: CGRect, _ insets: EdgeInsets) -> CGRect {
    rect.inset(by: insets)
}

/// Whether two insets are equal (`UIEdgeInsetsEqualToEdgeInsets`).
public func EdgeInsetsEqualToEdgeInsets(_ insets1: EdgeInsets, _ insets2: EdgeInsets) -> Bool {
    insets1 == insets2
}

extension CGRect {
    /// The rectangle shrunk by `insets` (grown where an inset is negative): UIKit's
    /// `inset(by:)`, with its arithmetic (`width − (left + right)`), so results agree to the bit.
    /// Insets larger than the rectangle give a negative size, as in UIKit.
    public func inset(by insets: EdgeInsets) -> CGRect {
        var rect = self
        rect.origin.x += insets.left
        rect.origin.y += insets.top
        rect.size.width -= (insets.left + insets.right)
        rect.size.height -= (insets.top + insets.bottom)
        return rect
    }
}
