import Foundation

#if !canImport(Darwin)
    /// A 2D affine transform, as Core Graphics defines it where Foundation on Linux lacks it:
    /// a point (x, y) maps to (a·x + c·y + tx, b·x + d·y + ty).
    ///
    /// ```swift
    /// let t = CGAffineTransform(scaleX: 2, y: 2).translatedBy(x: 10, y: 0)
    /// CGPoint(x: 1, y: 1).applying(t)   // (22.0, 2.0): translate first, then scale
    /// ```
    ///
    /// Initialisers and methods are Core Graphics' and compose the same way: `translatedBy`,
    /// `scaledBy` and `rotated(by:)` apply the new operation *before* `self`, and
    /// `concatenating(t2)` applies `self` first, then `t2`.
    public struct CGAffineTransform: Equatable, Sendable {
        public var a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat

        /// The identity transform.
        public init() {
            self.init(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
        }

        /// A transform from its six entries.
        public init(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) {
            self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
        }

        /// A translation (`CGAffineTransformMakeTranslation`).
        public init(translationX tx: CGFloat, y ty: CGFloat) {
            self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty)
        }

        /// A scale (`CGAffineTransformMakeScale`).
        public init(scaleX sx: CGFloat, y sy: CGFloat) {
            self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
        }

        /// A rotation by `angle` radians; positive angles turn x towards y, which is clockwise on a
        /// screen whose y axis points down (`CGAffineTransformMakeRotation`).
        public init(rotationAngle angle: CGFloat) {
            let s = sin(angle), c = cos(angle)
            self.init(a: c, b: s, c: -s, d: c, tx: 0, ty: 0)
        }

        /// The identity transform.
        public static let identity = CGAffineTransform()

        /// Whether this is the identity transform.
        public var isIdentity: Bool { self == .identity }

        /// `self` followed by `t2` (`CGAffineTransformConcat(self, t2)`).
        public func concatenating(_ t2: CGAffineTransform) -> CGAffineTransform {
            CGAffineTransform(
                a: a * t2.a + b * t2.c, b: a * t2.b + b * t2.d,
                c: c * t2.a + d * t2.c, d: c * t2.b + d * t2.d,
                tx: tx * t2.a + ty * t2.c + t2.tx, ty: tx * t2.b + ty * t2.d + t2.ty)
        }

        /// A translation applied before `self` (`CGAffineTransformTranslate`).
        public func translatedBy(x tx: CGFloat, y ty: CGFloat) -> CGAffineTransform {
            CGAffineTransform(translationX: tx, y: ty).concatenating(self)
        }

        /// A scale applied before `self` (`CGAffineTransformScale`).
        public func scaledBy(x sx: CGFloat, y sy: CGFloat) -> CGAffineTransform {
            CGAffineTransform(scaleX: sx, y: sy).concatenating(self)
        }

        /// A rotation applied before `self` (`CGAffineTransformRotate`).
        public func rotated(by angle: CGFloat) -> CGAffineTransform {
            CGAffineTransform(rotationAngle: angle).concatenating(self)
        }

        /// The inverse; a transform that cannot be inverted (determinant 0) is returned unchanged,
        /// as `CGAffineTransformInvert` does.
        public func inverted() -> CGAffineTransform {
            let determinant = a * d - b * c
            guard determinant != 0, determinant.isFinite else { return self }
            return CGAffineTransform(
                a: d / determinant, b: -b / determinant, c: -c / determinant, d: a / determinant,
                tx: (c * ty - d * tx) / determinant, ty: (b * tx - a * ty) / determinant)
        }
    }

    extension CGPoint {
        /// The point mapped by `t`.
        public func applying(_ t: CGAffineTransform) -> CGPoint {
            CGPoint(x: t.a * x + t.c * y + t.tx, y: t.b * x + t.d * y + t.ty)
        }

        /// Whether the two points are equal (`CGPointEqualToPoint`).
        public func equalTo(_ point2: CGPoint) -> Bool { self == point2 }
    }

    extension CGSize {
        /// The size mapped by `t`'s linear part (translation does not apply to sizes); the result
        /// may be negative, as in Core Graphics.
        public func applying(_ t: CGAffineTransform) -> CGSize {
            CGSize(width: t.a * width + t.c * height, height: t.b * width + t.d * height)
        }

        /// Whether the two sizes are equal (`CGSizeEqualToSize`).
        public func equalTo(_ size2: CGSize) -> Bool { self == size2 }
    }

    extension CGRect {
        /// The smallest rectangle that contains the four corners of this rectangle mapped by `t`.
        /// The null rectangle stays null.
        public func applying(_ t: CGAffineTransform) -> CGRect {
            guard !isNull else { return self }
            let corners = [
                CGPoint(x: minX, y: minY), CGPoint(x: maxX, y: minY),
                CGPoint(x: minX, y: maxY), CGPoint(x: maxX, y: maxY),
            ].map { $0.applying(t) }
            let xs = corners.map(\.x), ys = corners.map(\.y)
            let x0 = xs.min()!, y0 = ys.min()!
            return CGRect(x: x0, y: y0, width: xs.max()! - x0, height: ys.max()! - y0)
        }

        /// Whether the two rectangles are equal (`CGRectEqualToRect`): same origin and size after
        /// standardizing, so `(0, 0, 10, 10)` equals `(10, 10, −10, −10)`.
        public func equalTo(_ rect2: CGRect) -> Bool { standardized == rect2.standardized }
    }
#endif
