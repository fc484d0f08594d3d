import Foundation

#if !canImport(Darwin)
    extension CGRect {
        /// Whether the two rectangles overlap, as Core Graphics decides it: rectangles that only
        /// touch along an edge or at a corner do not intersect.
        ///
        /// Foundation on Linux counts touching rectangles as intersecting; ported layouts filter
        /// their rect queries with `frame.intersects(rect)` and must get Core Graphics' answer, in
        /// every file, including the many that import Foundation beside UIKit.
        ///
        /// It is declared as a property holding the test, not as a method, because that is the one
        /// form Swift's overload resolution prefers to Foundation's method of the same name whatever
        /// the file imports: a method of the same signature is ambiguous in a file that imports
        /// Foundation itself (the rule that lets a module's declarations shadow those of a module it
        /// imports applies only where that module is not imported directly), and any other
        /// signature (an extra defaulted parameter, a generic) ranks below Foundation's. Every way a
        /// call is written — `a.intersects(b)`, `!a.intersects(b)`, `rects.filter(a.intersects)`,
        /// `optional?.intersects(b)` — reads the property and calls it, so a call site cannot tell
        /// the difference, and in optimized builds the closure is inlined away.
        ///
        /// ```swift
        /// let a = CGRect(x: 0, y: 0, width: 10, height: 10)
        /// a.intersects(CGRect(x: 10, y: 0, width: 10, height: 10))  // false: they share an edge
        /// a.intersects(CGRect(x: 9, y: 0, width: 10, height: 10))   // true
        /// ```
        ///
        /// What stays Foundation's: the unapplied reference through the type
        /// (`CGRect.intersects(a)(b)`), and a file compiled with the `MemberImportVisibility`
        /// feature that imports Foundation but neither Trellis, UIKit nor CoreGraphics.
        @inlinable
        public var intersects: (CGRect) -> Bool {
            { [self] rect2 in LayoutGeometry.intersects(self, rect2) }
        }
    }
#endif
