import Foundation
import Testing
import TrellisLayout


private enum Badge: LayoutAttributeKey { static let defaultValue: String? = nil }

@Suite("Layout attributes")
struct LayoutAttributesTests {
    @Test("new attributes have UIKit's defaults")
    func defaults() {
        let path = IndexPath(item: 4, section: 2)
        let cell = CollectionViewLayoutAttributes(forCellWith: path)
        #expect(cell.frame == .zero && cell.alpha == 1 && cell.zIndex == 0 && !cell.isHidden)
        #expect(cell.transform3D == .identity)
        #expect(cell.indexPath == path && cell.representedElementCategory == .cell && cell.representedElementKind == nil)
        let header = CollectionViewLayoutAttributes(forSupplementaryViewOfKind: CollectionElementKindSectionHeader, with: path)
        #expect(header.representedElementCategory == .supplementaryView)
        #expect(header.representedElementKind == "sectionHeader")
        let decoration = CollectionViewLayoutAttributes(forDecorationViewOfKind: "background", with: path)
        #expect(decoration.representedElementCategory == .decorationView && decoration.representedElementKind == "background")
    }

    @Test("frame, center, size and bounds stay consistent; setting the size keeps the center")
    func geometry() {
        var a = CollectionViewLayoutAttributes(forCellWith: IndexPath(item: 0, section: 0))
        a.frame = CGRect(x: 16, y: 8, width: 100, height: 60)
        #expect(a.center == CGPoint(x: 66, y: 38))
        #expect(a.bounds == CGRect(x: 0, y: 0, width: 100, height: 60))
        a.size = CGSize(width: 50, height: 30)
        #expect(a.frame == CGRect(x: 41, y: 23, width: 50, height: 30))
        a.center = CGPoint(x: 0, y: 0)
        #expect(a.frame == CGRect(x: -25, y: -15, width: 50, height: 30))
        a.bounds = CGRect(x: 99, y: 99, width: 10, height: 10)
        #expect(a.frame == CGRect(x: -5, y: -5, width: 10, height: 10))
        a.indexPath = IndexPath(item: 9, section: 3)
        #expect(a.section == 3 && a.item == 9)
    }

    @Test("custom attributes take part in equality and survive copying")
    func customAttributes() {
        var a = CollectionViewLayoutAttributes(forCellWith: IndexPath(item: 0, section: 0))
        #expect(a[CornerRadius.self] == 0)
        var b = a
        a[CornerRadius.self] = 12
        #expect(a != b, "a custom attribute must take part in equality")
        #expect(b[CornerRadius.self] == 0, "a copy must not see later changes")
        b[CornerRadius.self] = 12
        #expect(a == b)
        let copy = a
        #expect(copy[CornerRadius.self] == 12)
        a[Badge.self] = "new"
        #expect(a != b)
        b[Badge.self] = "old"
        #expect(a != b)
        b[Badge.self] = "new"
        #expect(a == b)
        #expect(a.customAttributes.map(\.name) == ["Badge", "CornerRadius"])
        #expect(a.description.contains("CornerRadius: 12"))
    }

    @Test("every standard attribute takes part in equality")
    func equality() {
        let base = CollectionViewLayoutAttributes(forCellWith: IndexPath(item: 0, section: 0))
        var changes: [CollectionViewLayoutAttributes] = []
        var c = base; c.frame.origin.x = 1; changes.append(c)
        c = base; c.alpha = 0.5; changes.append(c)
        c = base; c.zIndex = 1; changes.append(c)
        c = base; c.isHidden = true; changes.append(c)
        c = base; c.transform3D = Transform3DMakeScale(2, 2, 1); changes.append(c)
        c = base; c.item = 1; changes.append(c)
        changes.append(CollectionViewLayoutAttributes(forSupplementaryViewOfKind: "x", with: IndexPath(item: 0, section: 0)))
        for changed in changes { #expect(changed != base) }
    }

    @Test("transforms compose like Core Animation's")
    func transforms() {
        let scale = Transform3DMakeScale(2, 3, 1)
        let move = Transform3DMakeTranslation(10, 20, 0)
        let both = Transform3DConcat(scale, move)
        #expect(both.m11 == 2 && both.m22 == 3 && both.m41 == 10 && both.m42 == 20)
        #expect(Transform3DIsIdentity(Transform3DIdentity))
        let quarter = Transform3DMakeRotation(.pi / 2, 0, 0, 1)
        #expect(abs(quarter.m11) < 1e-12 && abs(quarter.m12 - 1) < 1e-12 && abs(quarter.m21 + 1) < 1e-12)
        #expect(Transform3DMakeRotation(1, 0, 0, 0).isIdentity)
        #expect(scale.affineComponents?.a == 2)
        var a = CollectionViewLayoutAttributes(forCellWith: IndexPath(item: 0, section: 0))
        a.transform = AffineTransform(scaleByX: 0.5, byY: 0.5)
        #expect(a.transform3D.m11 == 0.5 && a.transform3D.m33 == 1)
    }

    @Test("rects intersect only when they overlap; touching edges do not count")
    func intersection() {
        let a = CGRect(x: 0, y: 0, width: 10, height: 10)
        #expect(LayoutGeometry.intersects(a, CGRect(x: 5, y: 5, width: 10, height: 10)))
        #expect(!LayoutGeometry.intersects(a, CGRect(x: 10, y: 0, width: 10, height: 10)))
        #expect(!LayoutGeometry.intersects(a, CGRect(x: 0, y: 10, width: 10, height: 10)))
        #expect(LayoutGeometry.intersects(CGRect(x: 5, y: 5, width: 0, height: 0), a))
        #expect(!LayoutGeometry.intersects(CGRect(x: 10, y: 5, width: 0, height: 0), a))
        #expect(LayoutGeometry.intersects(a, CGRect(x: 8, y: 8, width: -4, height: -4)))
    }
}
