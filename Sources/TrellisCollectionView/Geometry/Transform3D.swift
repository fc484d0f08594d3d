import Foundation

/// A 4×4 homogeneous transform: Core Animation's `CATransform3D` without the prefix. Row vectors,
/// translation in `m41…m43`, `m34` for perspective, and the `Transform3D…` functions that port
/// the `CATransform3D…` ones.
///
/// ```swift
/// let shrink = Transform3DMakeScale(0.1, 0.1, 1)
/// Transform3DIsIdentity(shrink)                                   // false
/// Transform3DConcat(shrink, Transform3DMakeTranslation(5, 0, 0)).m41  // 5.0: scale, then move
/// ```
///
/// As with the C struct, `Transform3D()` is all zeros; `Transform3DIdentity` is the identity.
public struct Transform3D: Sendable {
    /// Row 1: the transformed x axis.
    public var m11: CGFloat, m12: CGFloat, m13: CGFloat, m14: CGFloat
    /// Row 2: the transformed y axis.
    public var m21: CGFloat, m22: CGFloat, m23: CGFloat, m24: CGFloat
    /// Row 3: the transformed z axis (`m34` is the perspective term).
    public var m31: CGFloat, m32: CGFloat, m33: CGFloat, m34: CGFloat
    /// Row 4: the translation (m41, m42, m43) and the homogeneous term.
    public var m41: CGFloat, m42: CGFloat, m43: CGFloat, m44: CGFloat

    /// A transform of all zeros, as the C struct's default initialiser gives.
    public init() {
        self.init(
            m11: 0, m12: 0, m13: 0, m14: 0, m21: 0, m22: 0, m23: 0, m24: 0,
            m31: 0, m32: 0, m33: 0, m34: 0, m41: 0, m42: 0, m43: 0, m44: 0)
    }

    /// Creates a transform from its sixteen entries, row by row.
    public init(
        m11: CGFloat, m12: CGFloat, m13: CGFloat, m14: CGFloat,
        m21: CGFloat, m22: CGFloat, m23: CGFloat, m24: CGFloat,
        m31: CGFloat, m32: CGFloat, m33: CGFloat, m34: CGFloat,
        m41: CGFloat, m42: CGFloat, m43: CGFloat, m44: CGFloat
    ) {
        self.m11 = m11; self.m12 = m12; self.m13 = m13; self.m14 = m14
        self.m21 = m21; self.m22 = m22; self.m23 = m23; self.m24 = m24
        self.m31 = m31; self.m32 = m32; self.m33 = m33; self.m34 = m34
        self.m41 = m41; self.m42 = m42; self.m43 = m43; self.m44 = m44
    }

    package static let identityValue = Transform3D(
        m11: 1, m12: 0, m13: 0, m14: 0, m21: 0, m22: 1, m23: 0, m24: 0,
        m31: 0, m32: 0, m33: 1, m34: 0, m41: 0, m42: 0, m43: 0, m44: 1)

    /// The entries row by row.
    package var rows: [[CGFloat]] {
        [[m11, m12, m13, m14], [m21, m22, m23, m24], [m31, m32, m33, m34], [m41, m42, m43, m44]]
    }

    /// Whether every entry equals `other`'s (`CATransform3DEqualToTransform`).
    package func isEqual(to other: Transform3D) -> Bool {
        m11 == other.m11 && m12 == other.m12 && m13 == other.m13 && m14 == other.m14
            && m21 == other.m21 && m22 == other.m22 && m23 == other.m23 && m24 == other.m24
            && m31 == other.m31 && m32 == other.m32 && m33 == other.m33 && m34 == other.m34
            && m41 == other.m41 && m42 == other.m42 && m43 == other.m43 && m44 == other.m44
    }

    package var isIdentity: Bool { isEqual(to: .identityValue) }

    /// The 2D affine part (`a b c d tx ty`) when the transform has no 3D component, else `nil`:
    /// what SVG's `matrix()` takes.
    package var affineComponents: (a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat)? {
        guard Transform3DIsAffine(self) else { return nil }
        return (m11, m12, m21, m22, m41, m42)
    }

    /// The entries as text, row by row: `identity` for the identity.
    package var summary: String {
        isIdentity ? "identity" : rows.map { "[" + $0.map { "\($0)" }.joined(separator: " ") + "]" }.joined()
    }
}

/// The identity transform (`CATransform3DIdentity`).
public let Transform3DIdentity = Transform3D.identityValue

/// Whether `t` is the identity (`CATransform3DIsIdentity`).
public func Transform3DIsIdentity(_ t: Transform3D) -> Bool { t.isIdentity }

/// Whether every entry of `a` equals `b`'s (`CATransform3DEqualToTransform`).
public func Transform3DEqualToTransform(_ a: Transform3D, _ b: Transform3D) -> Bool { a.isEqual(to: b) }

/// A translation by (`tx`, `ty`, `tz`) (`CATransform3DMakeTranslation`).
public func Transform3DMakeTranslation(_ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> Transform3D {
    var t = Transform3DIdentity
    t.m41 = tx; t.m42 = ty; t.m43 = tz
    return t
}

/// A scale by (`sx`, `sy`, `sz`) (`CATransform3DMakeScale`).
public func Transform3DMakeScale(_ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> Transform3D {
    var t = Transform3DIdentity
    t.m11 = sx; t.m22 = sy; t.m33 = sz
    return t
}

/// A rotation by `angle` radians about the axis (`x`, `y`, `z`) (`CATransform3DMakeRotation`).
/// The axis is normalised; a zero axis gives the identity.
public func Transform3DMakeRotation(_ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> Transform3D {
    let length = (x * x + y * y + z * z).squareRoot()
    guard length > 0, length.isFinite else { return Transform3DIdentity }
    let (ux, uy, uz) = (x / length, y / length, z / length)
    let c = cos(angle), s = sin(angle), t = 1 - c
    return Transform3D(
        m11: t * ux * ux + c, m12: t * ux * uy + s * uz, m13: t * ux * uz - s * uy, m14: 0,
        m21: t * ux * uy - s * uz, m22: t * uy * uy + c, m23: t * uy * uz + s * ux, m24: 0,
        m31: t * ux * uz + s * uy, m32: t * uy * uz - s * ux, m33: t * uz * uz + c, m34: 0,
        m41: 0, m42: 0, m43: 0, m44: 1)
}

/// `a` followed by `b`: the product `a · b` (`CATransform3DConcat`).
public func Transform3DConcat(_ a: Transform3D, _ b: Transform3D) -> Transform3D {
    Transform3D(
        m11: a.m11 * b.m11 + a.m12 * b.m21 + a.m13 * b.m31 + a.m14 * b.m41,
        m12: a.m11 * b.m12 + a.m12 * b.m22 + a.m13 * b.m32 + a.m14 * b.m42,
        m13: a.m11 * b.m13 + a.m12 * b.m23 + a.m13 * b.m33 + a.m14 * b.m43,
        m14: a.m11 * b.m14 + a.m12 * b.m24 + a.m13 * b.m34 + a.m14 * b.m44,
        m21: a.m21 * b.m11 + a.m22 * b.m21 + a.m23 * b.m31 + a.m24 * b.m41,
        m22: a.m21 * b.m12 + a.m22 * b.m22 + a.m23 * b.m32 + a.m24 * b.m42,
        m23: a.m21 * b.m13 + a.m22 * b.m23 + a.m23 * b.m33 + a.m24 * b.m43,
        m24: a.m21 * b.m14 + a.m22 * b.m24 + a.m23 * b.m34 + a.m24 * b.m44,
        m31: a.m31 * b.m11 + a.m32 * b.m21 + a.m33 * b.m31 + a.m34 * b.m41,
        m32: a.m31 * b.m12 + a.m32 * b.m22 + a.m33 * b.m32 + a.m34 * b.m42,
        m33: a.m31 * b.m13 + a.m32 * b.m23 + a.m33 * b.m33 + a.m34 * b.m43,
        m34: a.m31 * b.m14 + a.m32 * b.m24 + a.m33 * b.m34 + a.m34 * b.m44,
        m41: a.m41 * b.m11 + a.m42 * b.m21 + a.m43 * b.m31 + a.m44 * b.m41,
        m42: a.m41 * b.m12 + a.m42 * b.m22 + a.m43 * b.m32 + a.m44 * b.m42,
        m43: a.m41 * b.m13 + a.m42 * b.m23 + a.m43 * b.m33 + a.m44 * b.m43,
        m44: a.m41 * b.m14 + a.m42 * b.m24 + a.m43 * b.m34 + a.m44 * b.m44)
}

/// `t` translated first by (`tx`, `ty`, `tz`): `translation · t` (`CATransform3DTranslate`).
public func Transform3DTranslate(_ t: Transform3D, _ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> Transform3D {
    Transform3DConcat(Transform3DMakeTranslation(tx, ty, tz), t)
}

/// `t` scaled first by (`sx`, `sy`, `sz`): `scale · t` (`CATransform3DScale`).
public func Transform3DScale(_ t: Transform3D, _ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> Transform3D {
    Transform3DConcat(Transform3DMakeScale(sx, sy, sz), t)
}

/// `t` rotated first about (`x`, `y`, `z`): `rotation · t` (`CATransform3DRotate`).
public func Transform3DRotate(
    _ t: Transform3D, _ angle: CGFloat, _ x: CGFloat, _ y: CGFloat,
    _ z: CGFloat
) -> Transform3D {
    Transform3DConcat(Transform3DMakeRotation(angle, x, y, z), t)
}

/// The inverse of `t`, or `t` itself when it has none (`CATransform3DInvert`). Computed by
/// Gauss–Jordan elimination with partial pivoting.
public func Transform3DInvert(_ t: Transform3D) -> Transform3D {
    var m = t.rows
    var inverse: [[CGFloat]] = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
    for column in 0..<4 {
        var pivot = column
        for row in column..<4 where abs(m[row][column]) > abs(m[pivot][column]) { pivot = row }
        guard m[pivot][column] != 0, m[pivot][column].isFinite else { return t }
        m.swapAt(column, pivot)
        inverse.swapAt(column, pivot)
        let scale = m[column][column]
        for k in 0..<4 {
            m[column][k] /= scale
            inverse[column][k] /= scale
        }
        for row in 0..<4 where row != column {
            let factor = m[row][column]
            guard factor != 0 else { continue }
            for k in 0..<4 {
                m[row][k] -= factor * m[column][k]
                inverse[row][k] -= factor * inverse[column][k]
            }
        }
    }
    let r = inverse
    return Transform3D(
        m11: r[0][0], m12: r[0][1], m13: r[0][2], m14: r[0][3],
        m21: r[1][0], m22: r[1][1], m23: r[1][2], m24: r[1][3],
        m31: r[2][0], m32: r[2][1], m33: r[2][2], m34: r[2][3],
        m41: r[3][0], m42: r[3][1], m43: r[3][2], m44: r[3][3])
}

/// The 3D form of a 2D affine transform (`CATransform3DMakeAffineTransform`).
public func Transform3DMakeAffineTransform(_ m: CGAffineTransform) -> Transform3D {
    Transform3D(
        m11: m.a, m12: m.b, m13: 0, m14: 0, m21: m.c, m22: m.d, m23: 0, m24: 0,
        m31: 0, m32: 0, m33: 1, m34: 0, m41: m.tx, m42: m.ty, m43: 0, m44: 1)
}

/// Whether `t` is a 2D affine transform (`CATransform3DIsAffine`).
public func Transform3DIsAffine(_ t: Transform3D) -> Bool {
    t.m13 == 0 && t.m14 == 0 && t.m23 == 0 && t.m24 == 0 && t.m31 == 0 && t.m32 == 0 && t.m33 == 1
        && t.m34 == 0 && t.m43 == 0 && t.m44 == 1
}

/// The 2D affine part of `t` (`CATransform3DGetAffineTransform`): what it does to the xy plane.
public func Transform3DGetAffineTransform(_ t: Transform3D) -> CGAffineTransform {
    CGAffineTransform(a: t.m11, b: t.m12, c: t.m21, d: t.m22, tx: t.m41, ty: t.m42)
}
