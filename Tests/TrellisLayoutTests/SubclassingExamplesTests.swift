import Testing

@_spi(Instrumentation) @testable import TrellisCollectionView

// The three reasons to subclass the flow layout that seed 003 lists, each as a working example.

/// 1. New supplementary or decoration views: a background behind each section's inset box,
/// cached in `prepare()` as UIKit layouts do.
final class SectionBackgroundFlowLayout: CollectionViewFlowLayout {
    static let backgroundKind = "sectionBackground"
    private var backgrounds: [CollectionViewLayoutAttributes] = []

    override func prepare() {
        super.prepare()
        backgrounds = (0..<flowGeometry.numberOfSections).map { section in
            let attributes = CollectionViewLayoutAttributes(
                forDecorationViewOfKind: Self.backgroundKind,
                with: IndexPath(item: 0, section: section))
            attributes.frame = flowGeometry.sectionBodyFrame(section: section)!
            attributes.zIndex = -1
            return attributes
        }
    }

    override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
        var result = super.layoutAttributesForElements(in: rect) ?? []
        result += backgrounds.filter { $0.frame.intersects(rect) }
        return result
    }

    override func layoutAttributesForDecorationView(
        ofKind elementKind: String,
        at indexPath: IndexPath
    ) -> CollectionViewLayoutAttributes? {
        guard elementKind == Self.backgroundKind, backgrounds.indices.contains(indexPath.section) else {
            return super.layoutAttributesForDecorationView(ofKind: elementKind, at: indexPath)
        }
        return backgrounds[indexPath.section]
    }
}

/// 2. Tweaking what `super` returns: every line left-aligned with the minimum spacing, by
/// changing the objects `super` hands out.
final class LeftAlignedFlowLayout: CollectionViewFlowLayout {
    override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
        // Left-aligning only moves items toward the leading edge, so ask for the full lines.
        let lines = CGRect(
            x: -.greatestFiniteMagnitude / 4, y: rect.minY,
            width: .greatestFiniteMagnitude / 2, height: rect.height)
        return super.layoutAttributesForElements(in: lines)?.compactMap { attributes in
            let adjusted =
                attributes.representedElementCategory == .cell
                ? layoutAttributesForItem(at: attributes.indexPath) : attributes
            return adjusted.flatMap { $0.frame.intersects(rect) ? $0 : nil }
        }
    }

    override func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        guard let current = super.layoutAttributesForItem(at: indexPath) else { return nil }
        // Walk back to the start of the line: in a flow line, x grows from item to item.
        var x = sectionInset.left
        var item = indexPath.item
        var widths: CGFloat = 0, count = 0
        var next = current.frame
        while item > 0, let previous = super.layoutAttributesForItem(at: IndexPath(item: item - 1, section: indexPath.section)),
            previous.frame.minX < next.minX, previous.frame.minY < next.maxY, next.minY < previous.frame.maxY
        {
            widths += previous.frame.width
            count += 1
            next = previous.frame
            item -= 1
        }
        x += widths + CGFloat(count) * minimumInteritemSpacing
        current.frame.origin.x = x
        return current
    }
}

/// 3. New layout attributes: a corner radius and a "featured" flag carried by every cell, in an
/// attributes subclass that the layout's `layoutAttributesClass` names.
final class CardAttributes: CollectionViewLayoutAttributes {
    var cornerRadius: CGFloat = 0
    var isFeatured = false

    override func copy(with zone: NSZone? = nil) -> Any {
        let copy = super.copy(with: zone) as! CardAttributes
        copy.cornerRadius = cornerRadius
        copy.isFeatured = isFeatured
        return copy
    }

    override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CardAttributes,
            other.cornerRadius == cornerRadius, other.isFeatured == isFeatured
        else { return false }
        return super.isEqual(object)
    }
}

final class CardFlowLayout: CollectionViewFlowLayout {
    var cornerRadius: CGFloat = 12 { didSet { invalidateLayout() } }

    override class var layoutAttributesClass: AnyClass { CardAttributes.self }

    override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
        let attributes = super.layoutAttributesForElements(in: rect)
        attributes?.forEach(decorate)
        return attributes
    }

    override func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        let attributes = super.layoutAttributesForItem(at: indexPath)
        attributes.map(decorate)
        return attributes
    }

    private func decorate(_ attributes: CollectionViewLayoutAttributes) {
        guard attributes.representedElementCategory == .cell, let card = attributes as? CardAttributes else { return }
        card.cornerRadius = cornerRadius
        card.isFeatured = attributes.indexPath.item == 0
    }
}

@Suite("Subclassing the flow layout")
struct SubclassingExamplesTests {
    @Test("a subclass adds a decoration view behind each section")
    func sectionBackgrounds() {
        let layout = SectionBackgroundFlowLayout()
        layout.sectionInset = EdgeInsets(top: 10, left: 10, bottom: 10, right: 10)
        layout.headerReferenceSize = CGSize(width: 0, height: 30)
        let host = StaticLayoutHost(layout: layout, itemCounts: [7, 2], bounds: CGRect(x: 0, y: 0, width: 320, height: 400))
        let all = host.layoutAttributesForElements(in: LayoutGeometry.everything) ?? []
        let backgrounds = all.filter { $0.representedElementCategory == .decorationView }
        #expect(backgrounds.count == 2)
        #expect(backgrounds.allSatisfy { $0.zIndex == -1 && $0.representedElementKind == "sectionBackground" })
        // Section 0: header 30, then insets around two lines of 50 (five fit in 300) → 10 + 50 + 10 + 50 + 10.
        #expect(backgrounds[0].frame == CGRect(x: 0, y: 30, width: 320, height: 130))
        for cell in all where cell.representedElementCategory == .cell {
            #expect(backgrounds[cell.indexPath.section].frame.contains(cell.frame))
        }
        let second = layout.layoutAttributesForDecorationView(ofKind: "sectionBackground", at: IndexPath(item: 0, section: 1))
        #expect(second == backgrounds[1])
        #expect(layout.layoutAttributesForDecorationView(ofKind: "sectionBackground", at: IndexPath(item: 0, section: 2)) == nil)
        // Only the backgrounds that intersect a rect are returned with it.
        let lower = host.layoutAttributesForElements(in: CGRect(x: 0, y: 200, width: 320, height: 20)) ?? []
        #expect(lower.filter { $0.representedElementCategory == .decorationView }.map(\.indexPath.section) == [1])
    }

    @Test("a subclass adjusts what super returns: lines left-aligned with the minimum spacing")
    func leftAligned() {
        let layout = LeftAlignedFlowLayout()
        layout.sectionInset = EdgeInsets(top: 0, left: 8, bottom: 0, right: 8)
        final class Sizes: CollectionViewDelegateFlowLayout {
            let widths: [CGFloat] = [60, 90, 40, 120, 70, 50]
            func collectionView(
                _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
                sizeForItemAt indexPath: IndexPath
            ) -> CGSize {
                CGSize(width: widths[indexPath.item], height: 30)
            }
        }
        let host = StaticLayoutHost(
            layout: layout, itemCounts: [6], bounds: CGRect(x: 0, y: 0, width: 300, height: 400),
            delegate: Sizes())
        let cells = (host.layoutAttributesForElements(in: LayoutGeometry.everything) ?? [])
        // Line 1: 60, 90, 40 (+120 would not fit in 284); line 2: 120, 70, 50.
        #expect(cells.map(\.frame.minX) == [8, 78, 178, 8, 138, 218])
        #expect(cells.map(\.frame.minY) == [0, 0, 0, 40, 40, 40])
        // A narrow rect on the left finds the moved items, which the plain flow layout would miss.
        let left = host.layoutAttributesForElements(in: CGRect(x: 150, y: 0, width: 30, height: 80)) ?? []
        #expect(left.map(\.indexPath.item) == [1, 2, 4])
    }

    @Test("a subclass carries its own attributes, which take part in equality")
    func customAttributes() {
        let layout = CardFlowLayout()
        let host = StaticLayoutHost(layout: layout, itemCounts: [3])
        let cells = (host.layoutAttributesForElements(in: LayoutGeometry.everything) ?? []).compactMap { $0 as? CardAttributes }
        #expect(cells.count == 3, "super creates its objects through layoutAttributesClass")
        #expect(cells.map(\.cornerRadius) == [12, 12, 12])
        #expect(cells.map(\.isFeatured) == [true, false, false])
        let single = host.layoutAttributesForItem(at: IndexPath(item: 0, section: 0))
        #expect(single == cells[0])
        #expect((single?.copy() as? CardAttributes)?.cornerRadius == 12, "a copy is of the subclass, with its attributes")
        let plain = StaticLayoutHost(layout: CollectionViewFlowLayout(), itemCounts: [3])
            .layoutAttributesForItem(at: IndexPath(item: 0, section: 0))
        #expect(plain?.frame == single?.frame)
        #expect(plain != single, "the custom attributes must make the difference visible to the host")
        layout.cornerRadius = 4
        #expect(host.layoutAttributesForItem(at: IndexPath(item: 0, section: 0)) != single)
    }
}
