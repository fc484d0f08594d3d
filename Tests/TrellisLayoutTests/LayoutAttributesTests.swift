import Testing

@_spi(Instrumentation) @testable import TrellisCollectionView

/// A subclass with a custom attribute, written as UIKit's documentation asks: `copy(with:)` and
/// `isEqual(_:)` overridden.
private final class BadgedAttributes: CollectionViewLayoutAttributes {
    var badge: String?

    override func copy(with zone: NSZone? = nil) -> Any {
        let copy = super.copy(with: zone) as! BadgedAttributes
        copy.badge = badge
        return copy
    }

    override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? BadgedAttributes, other.badge == badge else { return false }
        return super.isEqual(object)
    }
}

@Suite("Layout attributes")
struct LayoutAttributesTests {
    @Test("new attributes have UIKit's defaults")
    func defaults() {
        let path = IndexPath(item: 4, section: 2)
        let cell = CollectionViewLayoutAttributes(forCellWith: path)
        #expect(cell.frame == .zero && cell.alpha == 1 && cell.zIndex == 0 && !cell.isHidden)
        #expect(Transform3DIsIdentity(cell.transform3D) && cell.transform.isIdentity)
        #expect(cell.indexPath == path && cell.representedElementCategory == .cell && cell.representedElementKind == nil)
        let header = CollectionViewLayoutAttributes(forSupplementaryViewOfKind: CollectionElementKindSectionHeader, with: path)
        #expect(header.representedElementCategory == .supplementaryView)
        #expect(header.representedElementKind == CollectionView.elementKindSectionHeader)
        let decoration = CollectionViewLayoutAttributes(forDecorationViewOfKind: "background", with: path)
        #expect(decoration.representedElementCategory == .decorationView && decoration.representedElementKind == "background")
        #expect(CollectionViewLayoutAttributes().indexPath == IndexPath(item: 0, section: 0))
    }

    @Test("frame, center, size and bounds stay consistent; setting the size keeps the center")
    func geometry() {
        let a = CollectionViewLayoutAttributes(forCellWith: IndexPath(item: 0, section: 0))
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
        #expect(a.indexPath.section == 3 && a.indexPath.item == 9)
        // A center set exactly reads back exactly, as UIKit keeps it.
        a.frame = CGRect(x: 0, y: 0, width: 0.3, height: 0.3)
        a.center = CGPoint(x: 0.1, y: 0.7)
        #expect(a.center == CGPoint(x: 0.1, y: 0.7))
    }

    @Test("index paths of any length are kept")
    func indexPaths() {
        let a = CollectionViewLayoutAttributes(forDecorationViewOfKind: "band", with: IndexPath(index: 3))
        #expect(a.indexPath == IndexPath(index: 3))
        let copy = a.copy() as! CollectionViewLayoutAttributes
        #expect(copy.indexPath == IndexPath(index: 3) && copy.isEqual(a))
        copy.indexPath = IndexPath(item: 0, section: 3)
        #expect(!copy.isEqual(a))
    }

    @Test("attributes are objects: a mutation is seen through every reference, a copy is independent")
    func referenceSemantics() {
        let a = CollectionViewLayoutAttributes(forCellWith: IndexPath(item: 0, section: 0))
        let cache = [a]
        a.frame = CGRect(x: 1, y: 2, width: 3, height: 4)
        #expect(cache[0].frame == CGRect(x: 1, y: 2, width: 3, height: 4))
        let copy = a.copy() as! CollectionViewLayoutAttributes
        #expect(copy == a && copy !== a)
        copy.alpha = 0
        #expect(a.alpha == 1 && copy != a)
    }

    @Test("a subclass is copied as itself and its own attribute takes part in equality")
    func subclassCopyAndEquality() {
        let a = BadgedAttributes(forCellWith: IndexPath(item: 1, section: 0))
        a.badge = "new"
        a.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        let copy = a.copy() as! BadgedAttributes
        #expect(copy.badge == "new" && copy.frame == a.frame && copy.indexPath == a.indexPath)
        #expect(copy.isEqual(a))
        copy.badge = "old"
        #expect(!copy.isEqual(a), "a custom attribute must take part in equality")
        let plain = CollectionViewLayoutAttributes(forCellWith: IndexPath(item: 1, section: 0))
        plain.frame = a.frame
        #expect(!a.isEqual(plain) && !plain.isEqual(a), "objects of different classes are never equal")
    }

    @Test("every standard attribute takes part in equality")
    func equality() {
        let base = CollectionViewLayoutAttributes(forCellWith: IndexPath(item: 0, section: 0))
        func changed(_ change: (CollectionViewLayoutAttributes) -> Void) -> CollectionViewLayoutAttributes {
            let copy = base.copy() as! CollectionViewLayoutAttributes
            change(copy)
            return copy
        }
        let changes = [
            changed { $0.frame.origin.x = 1 }, changed { $0.alpha = 0.5 }, changed { $0.zIndex = 1 },
            changed { $0.isHidden = true }, changed { $0.transform3D = Transform3DMakeScale(2, 2, 1) },
            changed { $0.indexPath = IndexPath(item: 1, section: 0) },
            CollectionViewLayoutAttributes(forSupplementaryViewOfKind: "x", with: IndexPath(item: 0, section: 0)),
        ]
        for attributes in changes { #expect(!attributes.isEqual(base) && attributes != base) }
        #expect(changed { _ in }.isEqual(base) && changed { _ in }.hash == base.hash)
    }

    @Test("the attributes' transform is the affine part of transform3D, both ways")
    func transforms() {
        let a = CollectionViewLayoutAttributes(forCellWith: IndexPath(item: 0, section: 0))
        a.transform = CGAffineTransform(scaleX: 0.5, y: 0.5)
        #expect(a.transform3D.m11 == 0.5 && a.transform3D.m22 == 0.5 && a.transform3D.m33 == 1)
        a.transform3D = Transform3DMakeTranslation(3, 4, 5)
        #expect(a.transform == CGAffineTransform(translationX: 3, y: 4))
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
        // CGRect's own method gives Core Graphics' answer for code that imports this module.
        #expect(!a.intersects(CGRect(x: 10, y: 0, width: 10, height: 10)))
        #expect(a.intersects(CGRect(x: 9.5, y: 0, width: 10, height: 10)))
        #expect(!a.intersects(.null))
    }
}

@Suite("Recycled attributes")
struct RecyclingTests {
    @Test("the tests run with the storage's invariant checks compiled in")
    func checksAreOn() {
        #expect(FlowGeometry.invariantChecksEnabled)
    }

    @Test("objects a caller holds are never changed by later queries; dropped ones are reused")
    func heldObjectsAreNeverReused() throws {
        let layout = CollectionViewFlowLayout()
        layout.itemSize = CGSize(width: 100, height: 100)
        let host = StaticLayoutHost(layout: layout, itemCounts: [100], bounds: CGRect(x: 0, y: 0, width: 320, height: 480))
        let top = CGRect(x: 0, y: 0, width: 320, height: 200)
        let kept = try #require(host.layoutAttributesForElements(in: top))
        let frames = kept.map(\.frame), paths = kept.map(\.indexPath)
        let lower = try #require(host.layoutAttributesForElements(in: CGRect(x: 0, y: 1000, width: 320, height: 200)))
        #expect(kept.map(\.frame) == frames && kept.map(\.indexPath) == paths, "held objects keep their values")
        #expect(Set(lower.map(ObjectIdentifier.init)).isDisjoint(with: kept.map(ObjectIdentifier.init)))
        let one = kept[0]
        let identities = Set(lower.map(ObjectIdentifier.init))
        _ = consume lower
        let again = try #require(host.layoutAttributesForElements(in: top))
        #expect(again.map(\.frame) == frames && again.map(\.indexPath) == paths)
        #expect(!Set(again.map(ObjectIdentifier.init)).isDisjoint(with: identities), "dropped objects are reused")
        #expect(!again.contains { $0 === one }, "an object still held is not reused")
        #expect(one.frame == frames[0] && one.alpha == 1)
    }
}
