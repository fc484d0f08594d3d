import Foundation

#if !canImport(Darwin)
    /// A two-dimensional vector, as Core Graphics defines it where Foundation on Linux lacks it:
    /// what UIKit Dynamics and `UIView.animate(…initialSpringVelocity…)` speak of (a push's
    /// direction, gravity, a velocity).
    ///
    /// ```swift
    /// let gravity = CGVector(dx: 0, dy: 1)
    /// gravity == CGVector(dx: 0, dy: 1)   // true
    /// ```
    public struct CGVector: Equatable, Hashable, Sendable, CustomStringConvertible {
        public var dx: CGFloat
        public var dy: CGFloat

        /// The zero vector.
        public init() {
            dx = 0
            dy = 0
        }

        public init(dx: CGFloat, dy: CGFloat) {
            self.dx = dx
            self.dy = dy
        }

        public init(dx: Double, dy: Double) {
            self.init(dx: CGFloat(dx), dy: CGFloat(dy))
        }

        public init(dx: Int, dy: Int) {
            self.init(dx: CGFloat(dx), dy: CGFloat(dy))
        }

        /// The zero vector.
        public static let zero = CGVector()

        /// Core Graphics' text of a vector: `(dx, dy)`.
        public var description: String { "(\(dx), \(dy))" }
    }
#endif
