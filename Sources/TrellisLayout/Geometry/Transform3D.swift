import Foundation

/// A 4×4 homogeneous transform, laid out like Core Animation's `CATransform3D` (row vectors,
/// translation in `m41…m43`), so code that builds transforms ports by dropping the `CA` prefix.
///
/// ```swift
/// let shrink = Transform3DMakeScale(0.1, 0.1, 1)
/// shrink.isIdentity  // false
/// ```
public struct Transform3D: Hashable, Sendable, CustomStringConvertible {
    /// Row 1: the transformed x axis.
    public var m11: CGFloat, m12: CGFloat, m13: CGFloat, m14: CGFloat
    /// Row 2: the transformed y axis.
    public var m21: CGFloat, m22: CGFloat, m23: CGFloat, m24: CGFloat
    /// Row 3: the transformed z axis.
    public var m31: CGFloat, m32: CGFloat, m33: CGFloat, m34: CGFloat
    /// Row 4: the translation (m41, m42, m43) and the homogeneous term.
    public var m41: CGFloat, m42: CGFloat, m43: CGFloat, m44: CGFloat

    /// Creates a transform from its sixteen entries, row by row.
    public init(m11: CGFloat, m12: CGFloat, m13: CGFloat, m14: CGFloat,
                m21: CGFloat, m22: CGFloat, m23: CGFloat, m24: CGFloat,
                m31: CGFloat, m32: CGFloat, m33: CGFloat, m34: CGFloat,
                m41: CGFloat, m42: CGFloat, m43: CGFloat, m44: CGFloat) {
        self.m11 = m11; self.m12 = m12; self.m13 = m13; self.m14 = m14
        self.m21 = m21; self.m22 = m22; self.m23 = m23; self.m24 = m24
        self.m31 = m31; self.m32 = m32; self.m33 = m33; self.m34 = m34
        self.m41 = m41; self.m42 = m42; self.m43 = m43; self.m44 = m44
    }

    /// The identity transform.
    public static let identity = Transform3D(m11: 1, m12: 0, m13: 0, m14: 0,
                                             m21: 0, m22: 1, m23: 0, m24: 0,
                                             m31: 0, m32: 0, m33: 1, m34: 0,
                                             m41: 0, m42: 0, m43: 0, m44: 1)

    /// A scale by `sx`, `sy`, `sz`.
    public init(scaleX sx: CGFloat, y sy: CGFloat, z sz: CGFloat = 1) {
        self = .identity
        m11 = sx; m22 = sy; m33 = sz
    }

    /// A translation by `tx`, `ty`, `tz`.
    public init(translationX tx: CGFloat, y ty: CGFloat, z tz: CGFloat = 0) {
        self = .identity
        m41 = tx; m42 = ty; m43 = tz
    }

    /// A rotation by `angle` radians about the axis (`x`, `y`, `z`), as `CATransform3DMakeRotation`.
    /// A zero axis gives the identity.
    public init(rotationAngle angle: CGFloat, x: CGFloat, y: CGFloat, z: CGFloat) {
        let length = (x * x + y * y + z * z).squareRoot()
        guard length > 0, length.isFinite else { self = .identity; return }
        let (ux, uy, uz) = (x / length, y / length, z / length)
        let c = cos(angle), s = sin(angle), t = 1 - c
        self.init(m11: t * ux * ux + c, m12: t * ux * uy + s * uz, m13: t * ux * uz - s * uy, m14: 0,
                  m21: t * ux * uy - s * uz, m22: t * uy * uy + c, m23: t * uy * uz + s * ux, m24: 0,
                  m31: t * ux * uz + s * uy, m32: t * uy * uz - s * ux, m33: t * uz * uz + c, m34: 0,
                  m41: 0, m42: 0, m43: 0, m44: 1)
    }

    /// Whether this is the identity transform.
    public var isIdentity: Bool { self == .identity }

    /// `self` followed by `other` (`CATransform3DConcat(self, other)`).
    public func concatenating(_ other: Transform3D) -> Transform3D {
        let a = rows, b = other.rows
        var r = [[CGFloat]](repeating: [0, 0, 0, 0], count: 4)
        for i in 0..<4 {
            for j in 0..<4 {
                r[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j] + a[i][3] * b[3][j]
            }
        }
        return Transform3D(m11: r[0][0], m12: r[0][1], m13: r[0][2], m14: r[0][3],
                           m21: r[1][0], m22: r[1][1], m23: r[1][2], m24: r[1][3],
                           m31: r[2][0], m32: r[2][1], m33: r[2][2], m34: r[2][3],
                           m41: r[3][0], m42: r[3][1], m43: r[3][2], m44: r[3][3])
    }

    /// The entries row by row.
    public var rows: [[CGFloat]] {
        [[m11, m12, m13, m14], [m21, m22, m23, m24], [m31, m32, m33, m34], [m41, m42, m43, m44]]
    }

    /// The 2D affine part (`a b c d tx ty`) when the transform has no 3D component, else `nil`.
    /// This is what `CATransform3DGetAffineTransform` returns and what SVG's `matrix()` takes.
    public var affineComponents: (a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat)? {
        guard m13 == 0, m14 == 0, m23 == 0, m24 == 0, m31 == 0, m32 == 0, m33 == 1, m34 == 0,
              m43 == 0, m44 == 1 else { return nil }
        return (m11, m12, m21, m22, m41, m42)
    }

    public var description: String {
        isIdentity ? "identity" : rows.map { "[" + $0.map { "\($0)" }.joined(separator: " ") + "]" }.joined()
    }
}

/// The identity transform (`CATransform3DIdentity`).
public let Transform3DIdentity = Transform3D.identity

/// A scale (`CATransform3DMakeScale`).
public func Transform3DMakeScale(_ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> Transform3D {
    Transform3D(scaleX: sx, y: sy, z: sz)
}

/// A translation (`CATransform3DMakeTranslation`).
public func Transform3DMakeTranslation(_ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> Transform3D {
    Transform3D(translationX: tx, y: ty, z: tz)
}

/// A rotation about an axis (`CATransform3DMakeRotation`).
public func Transform3DMakeRotation(_ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> Transform3D {
    Transform3D(rotationAngle: angle, x: x, y: y, z: z)
}

/// `a` followed by `b` (`CATransform3DConcat`).
public func Transform3DConcat(_ a: Transform3D, _ b: Transform3D) -> Transform3D { a.concatenating(b) }

/// Whether `t` is the identity (`CATransform3DIsIdentity`).
public func Transform3DIsIdentity(_ t: Transform3D) -> Bool { t.isIdentity }
