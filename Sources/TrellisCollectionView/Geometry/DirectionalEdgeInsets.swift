import Foundation

/// Insets measured from the leading and trailing edges rather than left and right: UIKit's
/// `NSDirectionalEdgeInsets`. Leading is left in a left-to-right layout and right in a
/// right-to-left one.
public struct DirectionalEdgeInsets: Hashable, Sendable {
    public var top: CGFloat
    public var leading: CGFloat
    public var bottom: CGFloat
    public var trailing: CGFloat

    /// Insets of zero.
    public init() { self.init(top: 0, leading: 0, bottom: 0, trailing: 0) }

    /// Insets from the four edges, in UIKit's argument order.
    public init(top: CGFloat, leading: CGFloat, bottom: CGFloat, trailing: CGFloat) {
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }

    /// Insets of zero.
    public static let zero = DirectionalEdgeInsets()

    /// The same insets as left-and-right insets, leading being left.
    public var edgeInsets: EdgeInsets { EdgeInsets(top: top, left: leading, bottom: bottom, right: trailing) }

    /// Leading and trailing together.
    package var horizontal: CGFloat { leading + trailing }
    /// Top and bottom together.
    package var vertical: CGFloat { top + bottom }
}

/// UIKit's name for ``DirectionalEdgeInsets``, so that code keeps it after the mechanical step.
public typealias NSDirectionalEdgeInsets = DirectionalEdgeInsets

/// The edges of a rectangle, leading and trailing rather than left and right: UIKit's
/// `NSDirectionalRectEdge`.
public struct DirectionalRectEdge: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let top = DirectionalRectEdge(rawValue: 1 << 0)
    public static let leading = DirectionalRectEdge(rawValue: 1 << 1)
    public static let bottom = DirectionalRectEdge(rawValue: 1 << 2)
    public static let trailing = DirectionalRectEdge(rawValue: 1 << 3)
    public static let all: DirectionalRectEdge = [.top, .leading, .bottom, .trailing]
}

/// UIKit's name for ``DirectionalRectEdge``.
public typealias NSDirectionalRectEdge = DirectionalRectEdge
