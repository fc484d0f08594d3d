import Testing

@_spi(Instrumentation) @testable import TrellisCollectionView

private func close(_ a: CGFloat, _ b: CGFloat) -> Bool { abs(a - b) < 1e-12 }
private func close(_ a: CGPoint, _ b: CGPoint) -> Bool { close(a.x, b.x) && close(a.y, b.y) }

@Suite("Core Graphics and Core Animation helpers")
struct GeometryTests {
    @Test("affine transforms map points as Core Graphics does: (a·x + c·y + tx, b·x + d·y + ty)")
    func affineBasics() {
        let p = CGPoint(x: 2, y: 3)
        #expect(p.applying(CGAffineTransform(translationX: 10, y: -1)) == CGPoint(x: 12, y: 2))
        #expect(p.applying(CGAffineTransform(scaleX: 2, y: 0.5)) == CGPoint(x: 4, y: 1.5))
        #expect(close(CGPoint(x: 1, y: 0).applying(CGAffineTransform(rotationAngle: .pi / 2)), CGPoint(x: 0, y: 1)))
        #expect(CGAffineTransform.identity.isIdentity && CGAffineTransform().isIdentity)
        #expect(!CGAffineTransform(scaleX: 2, y: 2).isIdentity)
        #expect(
            CGSize(width: 10, height: 4).applying(CGAffineTransform(scaleX: -1, y: 2).translatedBy(x: 50, y: 50))
                == CGSize(width: -10, height: 8), "sizes ignore translation and may turn negative")
    }

    @Test("composition applies the new operation first, and concatenating applies self first")
    func affineComposition() {
        let p = CGPoint(x: 1, y: 1)
        // translatedBy: translate, then scale.
        #expect(p.applying(CGAffineTransform(scaleX: 2, y: 2).translatedBy(x: 10, y: 0)) == CGPoint(x: 22, y: 2))
        // concatenating: scale, then translate.
        #expect(
            p.applying(CGAffineTransform(scaleX: 2, y: 2).concatenating(CGAffineTransform(translationX: 10, y: 0)))
                == CGPoint(x: 12, y: 2))
        #expect(p.applying(CGAffineTransform.identity.scaledBy(x: 3, y: 1).rotated(by: 0)) == CGPoint(x: 3, y: 1))
    }

    @Test("a transform and its inverse cancel; a transform without one is returned unchanged")
    func affineInverse() {
        let t = CGAffineTransform(a: 2, b: 1, c: -1, d: 3, tx: 5, ty: -7)
        let p = CGPoint(x: 4, y: 9)
        #expect(close(p.applying(t).applying(t.inverted()), p))
        let flat = CGAffineTransform(scaleX: 0, y: 1)
        #expect(flat.inverted() == flat)
    }

    @Test("a rect maps to the box around its mapped corners; equalTo compares standardized rects")
    func rectApplying() {
        let r = CGRect(x: 0, y: 0, width: 20, height: 10)
        let turned = r.applying(CGAffineTransform(rotationAngle: .pi / 2))
        #expect(close(turned.minX, -10) && close(turned.minY, 0) && close(turned.width, 10) && close(turned.height, 20))
        #expect(r.applying(CGAffineTransform(scaleX: -1, y: 1)) == CGRect(x: -20, y: 0, width: 20, height: 10))
        #expect(CGRect.null.applying(CGAffineTransform(scaleX: 2, y: 2)).isNull)
        #expect(CGRect(x: 0, y: 0, width: 10, height: 10).equalTo(CGRect(x: 10, y: 10, width: -10, height: -10)))
        #expect(CGSize(width: 1, height: 2).equalTo(CGSize(width: 1, height: 2)) && CGPoint.zero.equalTo(.zero))
    }

    @Test("Core Graphics' intersects: overlap counts, touching does not, null never does")
    func intersects() {
        let a = CGRect(x: 0, y: 0, width: 10, height: 10)
        #expect(a.intersects(CGRect(x: 9.999, y: 0, width: 5, height: 5)))
        #expect(!a.intersects(CGRect(x: 10, y: 0, width: 5, height: 5)))
        #expect(!a.intersects(CGRect(x: 0, y: -5, width: 5, height: 5)))
        #expect(!a.intersects(.null) && !CGRect.null.intersects(a))
        #expect(a.intersects(CGRect(x: 3, y: 3, width: 0, height: 0)), "a point inside counts")
        #expect(a.intersects(.infinite))
    }

    @Test("3D transforms compose like Core Animation's: Concat(a, b) is a then b; Scale/Translate/Rotate go first")
    func transform3D() {
        let scale = Transform3DMakeScale(2, 3, 1), move = Transform3DMakeTranslation(10, 20, 0)
        let both = Transform3DConcat(scale, move)
        #expect(both.m11 == 2 && both.m22 == 3 && both.m41 == 10 && both.m42 == 20)
        let other = Transform3DConcat(move, scale)
        #expect(other.m41 == 20 && other.m42 == 60, "translating first scales the translation")
        #expect(Transform3DEqualToTransform(Transform3DTranslate(scale, 10, 20, 0), other))
        #expect(Transform3DEqualToTransform(Transform3DScale(move, 2, 3, 1), both))
        #expect(
            Transform3DEqualToTransform(
                Transform3DRotate(Transform3DIdentity, 0.3, 0, 0, 1),
                Transform3DMakeRotation(0.3, 0, 0, 1)))
        let quarter = Transform3DMakeRotation(.pi / 2, 0, 0, 1)
        #expect(abs(quarter.m11) < 1e-12 && abs(quarter.m12 - 1) < 1e-12 && abs(quarter.m21 + 1) < 1e-12)
        #expect(Transform3DIsIdentity(Transform3DMakeRotation(1, 0, 0, 0)), "a zero axis gives the identity")
        #expect(!Transform3DIsIdentity(Transform3D()) && Transform3D().m11 == 0, "the default is all zeros, as in C")
    }

    @Test("inverting a 3D transform undoes it; one without an inverse is returned unchanged")
    func transform3DInvert() {
        var t = Transform3DConcat(Transform3DMakeRotation(0.7, 1, 2, 3), Transform3DMakeTranslation(4, -2, 9))
        t.m34 = -1 / 500
        let product = Transform3DConcat(t, Transform3DInvert(t))
        let rows = product.rows, identity = Transform3DIdentity.rows
        for i in 0..<4 { for j in 0..<4 { #expect(abs(rows[i][j] - identity[i][j]) < 1e-9) } }
        let flat = Transform3DMakeScale(1, 0, 1)
        #expect(Transform3DEqualToTransform(Transform3DInvert(flat), flat))
    }

    @Test("affine and 3D transforms convert both ways")
    func affineIn3D() {
        let affine = CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        let t = Transform3DMakeAffineTransform(affine)
        #expect(Transform3DIsAffine(t) && Transform3DGetAffineTransform(t) == affine)
        var perspective = t
        perspective.m34 = 0.01
        #expect(!Transform3DIsAffine(perspective))
    }

    @Test("insets shrink a rect with UIKit's arithmetic, and may make it negative")
    func insets() {
        let r = CGRect(x: 0, y: 0, width: 100, height: 50)
        #expect(r.inset(by: EdgeInsets(top: 8, left: 16, bottom: 8, right: 16)) == CGRect(x: 16, y: 8, width: 68, height: 34))
        #expect(r.inset(by: EdgeInsets(top: -5, left: 0, bottom: 0, right: 0)) == CGRect(x: 0, y: -5, width: 100, height: 55))
        #expect(r.inset(by: EdgeInsets(top: 0, left: 60, bottom: 0, right: 60)).size.width == -20)
        #expect(EdgeInsetsMake(1, 2, 3, 4) == EdgeInsets(top: 1, left: 2, bottom: 3, right: 4))
        #expect(EdgeInsetsInsetRect(r, .zero) == r && EdgeInsets() == .zero)
        #expect(EdgeInsets(top: 1, left: 2, bottom: 3, right: 4).description == "{1.0, 2.0, 3.0, 4.0}")
    }

    @Test("index paths have UIKit's item, row and section")
    func indexPaths() {
        var path = IndexPath(row: 4, section: 2)
        #expect(path.item == 4 && path.row == 4 && path.section == 2 && path == IndexPath(item: 4, section: 2))
        path.row = 7
        #expect(path == IndexPath(item: 7, section: 2))
    }
}
