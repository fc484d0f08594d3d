import Foundation

#if !canImport(Darwin)
extension CGRect {
    /// Whether the two rectangles overlap, as Core Graphics decides it: rectangles that only
    /// touch along an edge or at a corner do not intersect.
    ///
    /// Foundation on Linux counts touching rectangles as intersecting; ported layouts filter
    /// their rect queries with this method and must get Core Graphics' answer, so this
    /// declaration shadows Foundation's for every file that imports Trellis (and not Foundation
    /// directly: with both imports the call is ambiguous and does not compile; drop the
    /// `import Foundation`, which Trellis re-exports).
    ///
    /// ```swift
    /// let a = CGRect(x: 0, y: 0, width: 10, height: 10)
    /// a.intersects(CGRect(x: 10, y: 0, width: 10, height: 10))  // false: they share an edge
    /// a.intersects(CGRect(x: 9, y: 0, width: 10, height: 10))   // true
    /// ```
    public func intersects(_ rect2: CGRect) -> Bool {
        LayoutGeometry.intersects(self, rect2)
    }
}
#endif
