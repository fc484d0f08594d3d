import Foundation

/// Insets for each edge of a rectangle: `UIEdgeInsets` without the prefix.
///
/// ```swift
/// let inset = EdgeInsets(top: 8, left: 16, bottom: 8, right: 16)
/// inset.horizontal  // 32
/// ```
public struct EdgeInsets: Hashable, Sendable, CustomStringConvertible {
    /// The inset at the top edge.
    public var top: CGFloat
    /// The inset at the left edge.
    public var left: CGFloat
    /// The inset at the bottom edge.
    public var bottom: CGFloat
    /// The inset at the right edge.
    public var right: CGFloat

    /// Creates insets from the four edges, in UIKit's argument order.
    public init(top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// Insets of zero on every edge.
    public static let zero = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)

    /// `left + right`.
    public var horizontal: CGFloat { left + right }
    /// `top + bottom`.
    public var vertical: CGFloat { top + bottom }

    /// The same insets with the axes swapped (top ↔ left, bottom ↔ right): how a horizontal
    /// layout is computed as a vertical one.
    public var transposed: EdgeInsets { EdgeInsets(top: left, left: top, bottom: right, right: bottom) }

    /// Whether every edge is a finite number.
    public var isFinite: Bool { top.isFinite && left.isFinite && bottom.isFinite && right.isFinite }

    public var description: String { "{\(top), \(left), \(bottom), \(right)}" }
}

extension CGRect {
    /// The rectangle shrunk by `insets` (grown where an inset is negative): `inset(by:)` in UIKit.
    public func inset(by insets: EdgeInsets) -> CGRect {
        CGRect(x: minX + insets.left, y: minY + insets.top,
               width: width - insets.horizontal, height: height - insets.vertical)
    }
}
