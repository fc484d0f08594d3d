import Testing

@_spi(Instrumentation) @testable import TrellisCollectionView

/// Every rule of `Documentation/FlowLayout.md`, each checked scrolling vertically and, transposed,
/// horizontally.
@Suite("Flow layout rules")
struct FlowLayoutRuleTests {
    static let directions = ScrollDirection.allCases

    @Test("a new flow layout has UIKit's defaults")
    func defaults() {
        let layout = CollectionViewFlowLayout()
        #expect(layout.itemSize == CGSize(width: 50, height: 50))
        #expect(layout.minimumLineSpacing == 10)
        #expect(layout.minimumInteritemSpacing == 10)
        #expect(layout.sectionInset == .zero)
        #expect(layout.headerReferenceSize == .zero)
        #expect(layout.footerReferenceSize == .zero)
        #expect(layout.scrollDirection == .vertical)
        #expect(layout.sectionInsetReference == .fromContentInset)
    }

    @Test("items break into lines greedily and an exact fit stays on the line", arguments: directions)
    func greedyBreaking(direction: ScrollDirection) {
        // 290 = 5·50 + 4·10 exactly: five per line.
        let exact = FlowCase(width: 290, sections: [.init(count: 7)]).run(in: direction)
        #expect(exact.ys() == [0, 0, 0, 0, 0, 60, 60])
        // A hair narrower and only four fit.
        let narrower = FlowCase(width: 289.9, sections: [.init(count: 7)]).run(in: direction)
        #expect(narrower.ys() == [0, 0, 0, 0, 60, 60, 60])
    }

    @Test(
        "a full line is justified: first item at the leading inset, last flush with the trailing one",
        arguments: directions)
    func fullLineJustified(direction: ScrollDirection) {
        let widths: [CGFloat] = [40, 70, 50, 90, 30]
        let sizes = widths.map { CGSize(width: $0, height: 20) }
        let result = FlowCase(
            width: 300, inset: EdgeInsets(top: 0, left: 12, bottom: 0, right: 8),
            sections: [.init(count: 5, sizes: sizes)]
        ).run(in: direction)
        let frames = result.frames(0)
        // Line 1 holds 40, 70, 50, 90 (280 > 260 available with the 5th): leftover spread evenly.
        let gap = (280 - (40 + 70 + 50 + 90)) / 3.0
        #expect(frames[0].minX == 12)
        #expect(frames[3].maxX == 292)
        #expect(abs(frames[1].minX - (12 + 40 + gap)) <= 0.25)
        #expect(abs(frames[2].minX - (12 + 40 + 70 + 2 * gap)) <= 0.25)
        #expect(frames[4].minY == 30)
    }

    @Test("a single item on a full line is centred, even when wider than the line", arguments: directions)
    func singleItemCentred(direction: ScrollDirection) {
        let sizes = [
            CGSize(width: 180, height: 40), CGSize(width: 150, height: 40),
            CGSize(width: 340, height: 40), CGSize(width: 60, height: 40),
        ]
        let result = FlowCase(
            width: 300, inset: EdgeInsets(top: 0, left: 20, bottom: 0, right: 20),
            sections: [.init(count: 4, sizes: sizes)]
        ).run(in: direction)
        // Centred: 20 + (260 − w) / 2; the last item could fit three times, so it starts at the inset.
        #expect(result.xs() == [60, 75, -20, 20])
    }

    @Test(
        "the last line lines up with the columns above (the worked example: x = 0, 80, 160)",
        arguments: directions)
    func lastLineLikeFull(direction: ScrollDirection) {
        let result = FlowCase(
            width: 300, itemSize: CGSize(width: 60, height: 60),
            sections: [.init(count: 3)]
        ).run(in: direction)
        #expect(result.xs() == [0, 80, 160])
        let twoLines = FlowCase(
            width: 300, itemSize: CGSize(width: 60, height: 60),
            sections: [.init(count: 6)]
        ).run(in: direction)
        #expect(twoLines.xs() == [0, 80, 160, 240, 0, 80])
    }

    @Test("a last line of equal items that fit only once is centred", arguments: directions)
    func lastLineSingleFitCentred(direction: ScrollDirection) {
        let result = FlowCase(
            width: 300, itemSize: CGSize(width: 200, height: 50),
            sections: [.init(count: 2)]
        ).run(in: direction)
        #expect(result.xs() == [50, 50])
    }

    @Test("a last line whose items differ in size is left-aligned with the minimum spacing", arguments: directions)
    func lastLineMixedLeftAligned(direction: ScrollDirection) {
        // One taller item is enough to count as mixed.
        let sizes = [CGSize(width: 60, height: 60), CGSize(width: 60, height: 80), CGSize(width: 60, height: 60)]
        let result = FlowCase(width: 300, sections: [.init(count: 3, sizes: sizes)]).run(in: direction)
        #expect(result.xs() == [0, 70, 140])
    }

    @Test(
        "shorter items are centred vertically in their line; lines are exactly the line spacing apart",
        arguments: directions)
    func verticalCentring(direction: ScrollDirection) {
        let sizes = [
            CGSize(width: 100, height: 40), CGSize(width: 100, height: 80), CGSize(width: 100, height: 30),
            CGSize(width: 100, height: 20),
        ]
        let result = FlowCase(width: 320, lineSpacing: 7, sections: [.init(count: 4, sizes: sizes)]).run(in: direction)
        #expect(result.ys() == [20, 0, 25, 87])
    }

    @Test("line spacing sits only between lines, not next to headers, footers or insets", arguments: directions)
    func lineSpacingOnlyBetweenLines(direction: ScrollDirection) {
        let result = FlowCase(
            width: 100, lineSpacing: 15, inset: EdgeInsets(top: 5, left: 0, bottom: 7, right: 0),
            header: CGSize(width: 0, height: 30), footer: CGSize(width: 0, height: 20),
            sections: [.init(count: 2)]
        ).run(in: direction)
        #expect(result.header(0) == CGRect(x: 0, y: 0, width: 100, height: 30))
        #expect(result.ys() == [35, 100])
        #expect(result.footer(0) == CGRect(x: 0, y: 157, width: 100, height: 20))
        #expect(result.contentSize == CGSize(width: 100, height: 177))
    }

    @Test("sections follow each other with no spacing between them", arguments: directions)
    func sectionsAdjacent(direction: ScrollDirection) {
        let result = FlowCase(width: 100, lineSpacing: 15, sections: [.init(count: 1), .init(count: 1)]).run(in: direction)
        #expect(result.frame(1, 0)?.minY == 50)
    }

    @Test("headers and footers span the full width; section insets do not apply to them", arguments: directions)
    func headersSpanWidth(direction: ScrollDirection) {
        let result = FlowCase(
            width: 320, contentInset: EdgeInsets(top: 0, left: 10, bottom: 0, right: 6),
            inset: EdgeInsets(top: 4, left: 30, bottom: 4, right: 30),
            header: CGSize(width: 77, height: 24), footer: CGSize(width: 5, height: 12),
            sections: [.init(count: 1)]
        ).run(in: direction)
        #expect(result.header(0) == CGRect(x: 0, y: 0, width: 304, height: 24))
        #expect(result.footer(0) == CGRect(x: 0, y: 82, width: 304, height: 12))
        #expect(result.contentSize.width == 304)
    }

    @Test("a header or footer of zero extent along the scroll axis does not exist", arguments: directions)
    func zeroHeaderAbsent(direction: ScrollDirection) {
        let result = FlowCase(
            header: CGSize(width: 300, height: 0), footer: CGSize(width: 300, height: 0),
            sections: [.init(count: 2)]
        ).run(in: direction)
        #expect(result.header(0) == nil)
        #expect(result.footer(0) == nil)
        #expect(result.elements().allSatisfy { $0.category == .cell })
    }

    @Test("an empty section still has its header, insets and footer", arguments: directions)
    func emptySection(direction: ScrollDirection) {
        let result = FlowCase(
            inset: EdgeInsets(top: 5, left: 0, bottom: 6, right: 0),
            header: CGSize(width: 0, height: 20), footer: CGSize(width: 0, height: 10),
            sections: [.init(count: 0), .init(count: 1)]
        ).run(in: direction)
        #expect(result.header(0)?.minY == 0)
        #expect(result.footer(0)?.minY == 31)
        #expect(result.header(1)?.minY == 41)
        #expect(result.frame(1, 0)?.minY == 66)
    }

    @Test(
        "the content is as wide as the view less the content inset and ends with the last section",
        arguments: directions)
    func contentSize(direction: ScrollDirection) {
        let result = FlowCase(
            width: 375, contentInset: EdgeInsets(top: 20, left: 8, bottom: 30, right: 12),
            sections: [.init(count: 7)]
        ).run(in: direction)
        // 355 wide: six per line.
        #expect(result.contentSize == CGSize(width: 355, height: 110))
        #expect(FlowCase(sections: []).run(in: direction).contentSize == CGSize(width: 300, height: 0))
    }

    @Test(
        "origins snap to the pixel grid, halves away from zero; sizes and content size do not",
        arguments: directions)
    func pixelSnapping(direction: ScrollDirection) {
        // available 200; three items of 50.5: gap (200 − 151.5) / 2 = 24.25 → x = 0, 74.75, 149.5.
        let sized = FlowCase(
            width: 200, itemSize: CGSize(width: 50.5, height: 33.3),
            sections: [.init(count: 3)])
        let at2 = sized.run(in: direction)
        #expect(at2.xs() == [0, 75, 149.5])
        #expect(at2.frames(0)[0].size == CGSize(width: 50.5, height: 33.3))
        #expect(at2.contentSize.height == 33.3)
        var at1 = sized
        at1.scale = 1
        #expect(at1.run(in: direction).xs() == [0, 75, 150])
        var at0 = sized
        at0.scale = 0
        #expect(at0.run(in: direction).xs() == [0, 75, 150])
        var at3 = sized
        at3.scale = 3
        #expect(at3.run(in: direction).xs() == [0, CGFloat(224) / 3, CGFloat(449) / 3])
    }

    @Test(
        "the snapping function rounds to the display grid",
        arguments: [
            (102.333, 2.0, 102.5), (57.25, 2.0, 57.5), (57.24, 2.0, 57.0), (-0.25, 2.0, -0.5), (10.5, 1.0, 11.0),
            (10.5, 0.0, 11.0), (1.17, 3.0, 4.0 / 3.0), (1.16, 3.0, 1.0),
        ])
    func snapping(value: Double, scale: Double, expected: Double) {
        #expect(abs(LayoutGeometry.snapToPixel(value, scale: scale) - expected) < 1e-12)
    }

    @Test("per-section values and per-item sizes come from the delegate", arguments: directions)
    func delegateOverrides(direction: ScrollDirection) {
        let result = FlowCase(
            width: 200,
            sections: [
                .init(
                    count: 3, inset: EdgeInsets(top: 10, left: 10, bottom: 10, right: 10), lineSpacing: 4,
                    interitemSpacing: 0, header: CGSize(width: 0, height: 12)),
                .init(count: 2, sizes: [CGSize(width: 30, height: 30), CGSize(width: 40, height: 20)]),
            ]
        ).run(in: direction)
        // 180 available, 50-wide items with no spacing: three fit on one line, spaced as if full.
        #expect(result.header(0)?.height == 12)
        #expect(result.xs(0) == [10, 75, 140])
        // Section 0 ends at 12 + 10 + 50 + 10 = 82; the shorter item is centred in its line.
        #expect(result.ys(1) == [82, 87])
        #expect(result.xs(1) == [0, 40])
    }

    @Test(
        "sizes that are negative or not numbers count as zero instead of breaking the layout",
        arguments: directions)
    func badDelegateValues(direction: ScrollDirection) {
        let result = FlowCase(
            width: 200,
            sections: [
                .init(
                    count: 3,
                    sizes: [
                        CGSize(width: -5, height: 20), CGSize(width: CGFloat.nan, height: CGFloat.infinity),
                        CGSize(width: 40, height: 40),
                    ], lineSpacing: CGFloat.nan)
            ]
        ).run(in: direction)
        #expect(result.frames(0).allSatisfy { $0.width >= 0 && $0.height >= 0 && $0.minX.isFinite && $0.minY.isFinite })
        #expect(result.contentSize.height.isFinite)
    }

    @Test("section insets can be measured from the safe area")
    func insetReferenceSafeArea() {
        let layout = CollectionViewFlowLayout()
        layout.sectionInsetReference = .fromSafeArea
        layout.sectionInset = EdgeInsets(top: 0, left: 5, bottom: 0, right: 5)
        let host = StaticLayoutHost(
            layout: layout, itemCounts: [1],
            bounds: CGRect(x: 0, y: 0, width: 300, height: 500),
            safeAreaInsets: EdgeInsets(top: 40, left: 20, bottom: 30, right: 20))
        // 20 + 5 on each side: one item of 50 in 250 available, spaced as if five fit.
        #expect(host.layoutAttributesForItem(at: IndexPath(item: 0, section: 0))?.frame.minX == 25)
        layout.sectionInsetReference = .fromContentInset
        #expect(host.layoutAttributesForItem(at: IndexPath(item: 0, section: 0))?.frame.minX == 5)
    }

    @Test("horizontal headers use the reference width and span the full height at y = 0")
    func horizontalHeaderGeometry() {
        let layout = CollectionViewFlowLayout()
        layout.scrollDirection = .horizontal
        layout.headerReferenceSize = CGSize(width: 36, height: 999)
        layout.itemSize = CGSize(width: 70, height: 50)
        let host = StaticLayoutHost(
            layout: layout, itemCounts: [3],
            bounds: CGRect(x: 0, y: 0, width: 600, height: 240))
        let header = host.layoutAttributesForSupplementaryElement(
            ofKind: CollectionElementKindSectionHeader,
            at: IndexPath(item: 0, section: 0))
        #expect(header?.frame == CGRect(x: 0, y: 0, width: 36, height: 240))
        #expect(host.contentSize == CGSize(width: 106, height: 240))
        // Columns fill top to bottom.
        #expect(host.layoutAttributesForItem(at: IndexPath(item: 1, section: 0))?.frame.minX == 36)
    }

    @Test("an item narrower than its column is centred in it when scrolling horizontally")
    func horizontalNarrowItemCentred() {
        let layout = CollectionViewFlowLayout()
        layout.scrollDirection = .horizontal
        final class Sizes: CollectionViewDelegateFlowLayout {
            func collectionView(
                _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
                sizeForItemAt indexPath: IndexPath
            ) -> CGSize {
                indexPath.item == 0 ? CGSize(width: 100, height: 50) : CGSize(width: 60, height: 50)
            }
        }
        let host = StaticLayoutHost(
            layout: layout, itemCounts: [2],
            bounds: CGRect(x: 0, y: 0, width: 500, height: 200), delegate: Sizes())
        #expect(host.layoutAttributesForItem(at: IndexPath(item: 1, section: 0))?.frame.minX == 20)
    }

    @Test("per-element queries answer for every valid index path and nil for others")
    func perElementQueries() {
        let result = FlowCase(header: CGSize(width: 0, height: 10), sections: [.init(count: 3)]).run(in: .vertical)
        let host = result.host
        #expect(host.layoutAttributesForItem(at: IndexPath(item: 2, section: 0)) != nil)
        #expect(host.layoutAttributesForItem(at: IndexPath(item: 3, section: 0)) == nil)
        #expect(host.layoutAttributesForItem(at: IndexPath(item: -1, section: 0)) == nil)
        #expect(host.layoutAttributesForItem(at: IndexPath(item: 0, section: 1)) == nil)
        #expect(host.layoutAttributesForItem(at: IndexPath(index: 0)) == nil)
        #expect(host.layoutAttributesForSupplementaryElement(ofKind: "badge", at: IndexPath(item: 0, section: 0)) == nil)
        #expect(
            host.layoutAttributesForSupplementaryElement(
                ofKind: CollectionElementKindSectionHeader,
                at: IndexPath(item: 1, section: 0)) == nil)
        #expect(host.layout.layoutAttributesForDecorationView(ofKind: "background", at: IndexPath(item: 0, section: 0)) == nil)
    }

    @Test(
        "rect queries take any rect: negative origins, larger than the content, touching edges excluded",
        arguments: directions)
    func rectQueryEdges(direction: ScrollDirection) {
        let result = FlowCase(width: 110, sections: [.init(count: 4)]).run(in: direction)
        #expect(result.elements(in: CGRect(x: -1000, y: -1000, width: 5000, height: 5000)).count == 4)
        // Row 2 starts at y = 60: a rect ending exactly there touches it without overlapping.
        #expect(result.elements(in: CGRect(x: 0, y: -10, width: 110, height: 70)).map(\.item) == [0, 1])
        #expect(result.elements(in: CGRect(x: 0, y: -10, width: 110, height: 70.01)).map(\.item) == [0, 1, 2, 3])
        #expect(result.elements(in: CGRect(x: 60, y: 0, width: -10, height: 10)).isEmpty)
        #expect(result.elements(in: CGRect(x: 60, y: 0, width: -20, height: 10)).map(\.item) == [0])
        #expect(result.elements(in: CGRect(x: CGFloat.nan, y: 0, width: 10, height: 10)).isEmpty)
        #expect(result.elements(in: CGRect(x: 0, y: 500, width: 100, height: 100)).isEmpty)
    }

    @Test("scrolling does not invalidate a flow layout; a change of width (height when horizontal) does")
    func boundsInvalidation() {
        for direction in ScrollDirection.allCases {
            let layout = CollectionViewFlowLayout()
            layout.scrollDirection = direction
            let host = StaticLayoutHost(layout: layout, itemCounts: [10])
            host.layoutIfNeeded()
            #expect(!layout.shouldInvalidateLayout(forBoundsChange: CGRect(x: 0, y: 200, width: 375, height: 667)))
            #expect(!layout.shouldInvalidateLayout(forBoundsChange: CGRect(x: 30, y: 0, width: 375, height: 667)))
            let resized =
                direction == .vertical
                ? CGRect(x: 0, y: 0, width: 414, height: 667)
                : CGRect(x: 0, y: 0, width: 375, height: 700)
            #expect(layout.shouldInvalidateLayout(forBoundsChange: resized))
            host.setBounds(CGRect(x: 0, y: 300, width: 375, height: 667))
            #expect(!layout.needsPrepare)
            host.setBounds(resized)
            #expect(layout.needsPrepare)
            host.layoutIfNeeded()
            #expect(host.prepareCount == 2)
        }
    }

    @Test("changing a property invalidates the layout; the next query sees the new value")
    func propertyInvalidates() {
        let layout = CollectionViewFlowLayout()
        let host = StaticLayoutHost(layout: layout, itemCounts: [2])
        #expect(host.layoutAttributesForItem(at: IndexPath(item: 0, section: 0))?.frame.size == CGSize(width: 50, height: 50))
        layout.itemSize = CGSize(width: 80, height: 20)
        #expect(layout.needsPrepare)
        #expect(host.layoutAttributesForItem(at: IndexPath(item: 0, section: 0))?.frame.size == CGSize(width: 80, height: 20))
    }
}

@Suite("Documented examples")
struct DocumentedExampleTests {
    @Test("the examples in the README and the doc comments print what they say")
    func examples() {
        let layout = FlowLayout()
        layout.itemSize = CGSize(width: 100, height: 60)
        layout.sectionInset = EdgeInsets(top: 8, left: 16, bottom: 8, right: 16)
        let host = StaticLayoutHost(layout: layout, itemCounts: [7], bounds: CGRect(x: 0, y: 0, width: 375, height: 667))
        #expect(host.contentSize == CGSize(width: 375, height: 216))
        #expect(host.layoutAttributesForItem(at: IndexPath(item: 3, section: 0))?.frame == CGRect(x: 16, y: 78, width: 100, height: 60))
        #expect(host.layoutAttributesForElements(in: host.bounds)?.count == 7)

        var builder = FlowGeometry.Builder(scrollDirection: .vertical, crossSize: 300, displayScale: 2)
        builder.appendSection(FlowSectionMetrics(), itemSize: CGSize(width: 60, height: 60), count: 7)
        #expect(builder.finish().itemFrame(section: 0, item: 5) == CGRect(x: 80, y: 70, width: 60, height: 60))

        let attributes = CollectionViewLayoutAttributes(forCellWith: IndexPath(item: 2, section: 0))
        attributes.frame = CGRect(x: 16, y: 8, width: 100, height: 60)
        #expect(attributes.center == CGPoint(x: 66, y: 38))
        attributes.size = CGSize(width: 50, height: 30)
        #expect(attributes.frame == CGRect(x: 41, y: 23, width: 50, height: 30))
    }
}

/// The custom layout of `Documentation/CustomLayouts.md`, kept here so the guide stays true.
final class DiagonalLayout: CollectionViewLayout {
    let side: CGFloat = 50

    override var collectionViewContentSize: CGSize {
        let n = CGFloat(collectionView?.numberOfItems(inSection: 0) ?? 0)
        return CGSize(width: n * side, height: n * side)
    }

    override func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        guard indexPath.item < collectionView?.numberOfItems(inSection: 0) ?? 0 else { return nil }
        let attributes = CollectionViewLayoutAttributes(forCellWith: indexPath)
        attributes.frame = CGRect(
            x: CGFloat(indexPath.item) * side, y: CGFloat(indexPath.item) * side,
            width: side, height: side)
        return attributes
    }

    override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
        let count = collectionView?.numberOfItems(inSection: 0) ?? 0
        let low = (rect.minY / side).rounded(.down), high = (rect.maxY / side).rounded(.up)
        guard count > 0, !low.isNaN, !high.isNaN else { return [] }
        // Clamp before converting: a rect may be huge (or infinite) and Int() would trap.
        let first = Int(max(0, min(low, CGFloat(count - 1))))
        let last = Int(max(0, min(high, CGFloat(count - 1))))
        guard first <= last else { return [] }
        return (first...last).compactMap { layoutAttributesForItem(at: IndexPath(item: $0, section: 0)) }
            .filter { LayoutGeometry.intersects($0.frame, rect) }
    }
}

extension DocumentedExampleTests {
    @Test("the custom layout of the porting guide answers as the guide says")
    func diagonalLayout() {
        let host = StaticLayoutHost(layout: DiagonalLayout(), itemCounts: [100])
        #expect(host.layoutAttributesForElements(in: CGRect(x: 0, y: 120, width: 375, height: 100))?.map(\.item) == [2, 3, 4])
        #expect(host.contentSize == CGSize(width: 5000, height: 5000))
        #expect(host.layoutAttributesForElements(in: LayoutGeometry.everything)?.count == 100)
        let all = (0..<100).map { host.layoutAttributesForItem(at: IndexPath(item: $0, section: 0))! }
        for y in stride(from: -100.0, through: 5100, by: 37.5) {
            let rect = CGRect(x: 0, y: y, width: 5000, height: 80)
            #expect(host.layoutAttributesForElements(in: rect) == all.filter { LayoutGeometry.intersects($0.frame, rect) })
        }
    }
}
