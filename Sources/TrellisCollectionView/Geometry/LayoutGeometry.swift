import Foundation

/// The few geometric rules every Trellis layout and host shares, so that a rect query, its
/// brute-force oracle and a renderer always agree.
public enum LayoutGeometry {
    /// Whether an element's `frame` intersects a query `rect`: the open rectangles overlap on both
    /// axes (`a.minX < b.maxX && b.minX < a.maxX`, likewise for y).
    ///
    /// This is Core Graphics' rule on Apple systems — rectangles that only touch along an edge do
    /// not intersect — and it differs from `CGRect.intersects` in Foundation on Linux, which
    /// counts touching rectangles. A zero-size element strictly inside the rect intersects it.
    /// Rects with negative sizes are standardized first; a NaN anywhere never intersects.
    ///
    /// - Complexity: O(1).
    @inlinable
    public static func intersects(_ frame: CGRect, _ rect: CGRect) -> Bool {
        // Reads the stored fields directly: Foundation's `minX`/`standardized` are not inlinable
        // on every platform, and this runs for every candidate of every rect query.
        var ax = frame.origin.x, aw = frame.size.width, ay = frame.origin.y, ah = frame.size.height
        var bx = rect.origin.x, bw = rect.size.width, by = rect.origin.y, bh = rect.size.height
        if aw < 0 { ax += aw; aw = -aw }
        if ah < 0 { ay += ah; ah = -ah }
        if bw < 0 { bx += bw; bw = -bw }
        if bh < 0 { by += bh; bh = -bh }
        return ax < bx + bw && bx < ax + aw && ay < by + bh && by < ay + ah
    }

    /// A rect that contains every finite element: used to list all elements of a layout.
    public static let everything = CGRect(x: -1e300, y: -1e300, width: 2e300, height: 2e300)

    /// Rounds `value` to the pixel grid of a display with `scale` pixels per point, halves away
    /// from zero: `round(v·scale)/scale`. A scale of 0 or 1 (or any non-finite or non-positive
    /// scale) rounds to whole points. At scale 2, 102.333 → 102.5 and 57.25 → 57.5.
    ///
    /// The product is first quantized to a millionth of a pixel, so that two computations of
    /// the same position that differ only in floating-point noise (for example `k·(w+gap)`
    /// against a running sum) land on the same pixel.
    @inlinable
    public static func snapToPixel(_ value: CGFloat, scale: CGFloat) -> CGFloat {
        let s = (scale.isFinite && scale > 1) ? scale : 1
        let pixels = value * s
        guard pixels.isFinite, abs(pixels) < 1e15 else { return value }
        // Integer conversions truncate toward zero and compile to single instructions, where
        // `rounded(.toNearestOrAwayFromZero)` is a library call; this runs twice per element.
        let whole = Double(Int64(pixels))
        let micro = Int64((pixels - whole) * 1_000_000 + (pixels < whole ? -0.5 : 0.5))
        let step: Double = micro >= 500_000 ? 1 : (micro <= -500_000 ? -1 : 0)
        return (whole + step) / s
    }

    /// `rect` with its axes swapped: how horizontal layouts are computed as vertical ones.
    @inlinable
    public static func transposed(_ rect: CGRect) -> CGRect {
        CGRect(x: rect.origin.y, y: rect.origin.x, width: rect.size.height, height: rect.size.width)
    }

    /// `size` with width and height swapped.
    @inlinable
    public static func transposed(_ size: CGSize) -> CGSize { CGSize(width: size.height, height: size.width) }

    /// `point` with x and y swapped.
    @inlinable
    public static func transposed(_ point: CGPoint) -> CGPoint { CGPoint(x: point.y, y: point.x) }
}
