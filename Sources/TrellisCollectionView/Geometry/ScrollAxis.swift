import Foundation

/// A layout's scroll axis, so that one piece of code lays out either direction: positions and
/// lengths along the axis (`u`: y when scrolling vertically) and across it (`v`).
///
/// ```swift
/// let axis = ScrollAxis(.horizontal)
/// axis.minimum(CGRect(x: 10, y: 20, width: 30, height: 40))   // 10: where the rect starts along x
/// axis.rect(u: 5, v: 0, length: 50, breadth: 100)             // (5, 0, 50, 100)
/// ```
public struct ScrollAxis: Hashable, Sendable {
    /// Whether the axis is vertical.
    public let vertical: Bool

    public init(vertical: Bool) { self.vertical = vertical }

    public init(_ direction: CollectionView.ScrollDirection) { vertical = direction == .vertical }

    /// Where a rect starts and ends along the axis.
    @inline(__always) public func minimum(_ r: CGRect) -> CGFloat { vertical ? r.minY : r.minX }
    @inline(__always) public func maximum(_ r: CGRect) -> CGFloat { vertical ? r.maxY : r.maxX }
    /// Where a rect starts and ends across the axis.
    @inline(__always) public func crossMinimum(_ r: CGRect) -> CGFloat { vertical ? r.minX : r.minY }
    @inline(__always) public func crossMaximum(_ r: CGRect) -> CGFloat { vertical ? r.maxX : r.maxY }
    /// A rect's or a size's extent along the axis.
    @inline(__always) public func length(_ r: CGRect) -> CGFloat { vertical ? r.height : r.width }
    @inline(__always) public func length(_ s: CGSize) -> CGFloat { vertical ? s.height : s.width }
    /// A size's extent across the axis.
    @inline(__always) public func breadth(_ s: CGSize) -> CGFloat { vertical ? s.width : s.height }
    /// A point's position along the axis.
    @inline(__always) public func position(_ p: CGPoint) -> CGFloat { vertical ? p.y : p.x }
    /// The insets at the start and the end of the axis (top and bottom when vertical), and the
    /// two across it added.
    @inline(__always) public func leading(_ i: EdgeInsets) -> CGFloat { vertical ? i.top : i.left }
    @inline(__always) public func trailing(_ i: EdgeInsets) -> CGFloat { vertical ? i.bottom : i.right }
    @inline(__always) public func crossInsets(_ i: EdgeInsets) -> CGFloat { vertical ? i.left + i.right : i.top + i.bottom }
    /// A rect from positions and extents along (`u`, `length`) and across (`v`, `breadth`) the axis.
    @inline(__always) public func rect(u: CGFloat, v: CGFloat, length: CGFloat, breadth: CGFloat) -> CGRect {
        vertical ? CGRect(x: v, y: u, width: breadth, height: length) : CGRect(x: u, y: v, width: length, height: breadth)
    }
    /// A point `u` along the axis and `v` across it.
    @inline(__always) public func point(u: CGFloat, v: CGFloat) -> CGPoint {
        vertical ? CGPoint(x: v, y: u) : CGPoint(x: u, y: v)
    }
    /// A rect moved `u` along the axis and `v` across it.
    @inline(__always) public func offset(_ r: CGRect, u: CGFloat, v: CGFloat) -> CGRect {
        vertical ? r.offsetBy(dx: v, dy: u) : r.offsetBy(dx: u, dy: v)
    }
}
