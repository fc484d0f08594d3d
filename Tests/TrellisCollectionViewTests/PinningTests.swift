import Testing

@_spi(Instrumentation) @testable import TrellisCollectionView

private func ip(_ section: Int, _ item: Int) -> IndexPath { IndexPath(item: item, section: section) }

@Suite("Pinned headers and footers")
struct PinningTests {
    /// Three sections of 9 items (three lines of 100) under 30-point headers and 20-point footers.
    func pinnedView(direction: ScrollDirection = .vertical) -> (CollectionView, ItemsDataSource, CollectionViewFlowLayout) {
        let flow = CollectionViewFlowLayout()
        flow.scrollDirection = direction
        flow.itemSize = CGSize(width: 100, height: 100)
        flow.headerReferenceSize = CGSize(width: 30, height: 30)
        flow.footerReferenceSize = CGSize(width: 20, height: 20)
        flow.sectionInset = EdgeInsets(top: 5, left: 5, bottom: 5, right: 5)
        flow.sectionHeadersPinToVisibleBounds = true
        flow.sectionFootersPinToVisibleBounds = true
        let (view, data) = makeCollectionView(
            [Array(0..<9), Array(0..<9), Array(0..<9)],
            width: direction == .vertical ? 330 : 480,
            height: direction == .vertical ? 480 : 330, layout: flow)
        return (view, data, flow)
    }

    func header(_ view: CollectionView, _ section: Int) -> CGRect? {
        view.layoutAttributesForSupplementaryElement(ofKind: CollectionView.elementKindSectionHeader, at: ip(section, 0))?.frame
    }

    func footer(_ view: CollectionView, _ section: Int) -> CGRect? {
        view.layoutAttributesForSupplementaryElement(ofKind: CollectionView.elementKindSectionFooter, at: ip(section, 0))?.frame
    }

    @Test("a header sticks to the top of the visible bounds until its section's end pushes it up")
    func headerPinning() {
        let (view, data, _) = pinnedView()
        defer { withExtendedLifetime(data) {} }
        // Section 0: header 0…30, body 30…360 (5 + 3·100 + 2·10 + 5), footer 360…380.
        #expect(header(view, 0)?.minY == 0)
        view.contentOffset = CGPoint(x: 0, y: 100)
        #expect(header(view, 0)?.minY == 100)
        view.contentOffset = CGPoint(x: 0, y: 320)
        #expect(header(view, 0)?.minY == 320)
        view.contentOffset = CGPoint(x: 0, y: 345)
        #expect(header(view, 0)?.minY == 330, "pushed up by the end of its section's body")
        view.contentOffset = CGPoint(x: 0, y: -50)
        #expect(header(view, 0)?.minY == 0, "never above its natural place")
        view.contentInset = EdgeInsets(top: 40, left: 0, bottom: 0, right: 0)
        view.contentOffset = CGPoint(x: 0, y: 60)
        #expect(header(view, 0)?.minY == 100, "sticks below the adjusted top inset")
        #expect(
            view.layoutAttributesForSupplementaryElement(
                ofKind: CollectionView.elementKindSectionHeader,
                at: ip(0, 0))?.zIndex == 1024)
    }

    @Test("a footer sticks to the bottom of the visible bounds until its section's start pushes it down")
    func footerPinning() {
        let (view, data, _) = pinnedView()
        defer { withExtendedLifetime(data) {} }
        // Section 1 starts at 380: header 380…410, body 410…740, footer 740…760.
        view.contentOffset = CGPoint(x: 0, y: 0)
        #expect(footer(view, 0)?.minY == 360, "its natural place is within the viewport")
        #expect(footer(view, 1)?.minY == 460, "pinned to the visible bottom (480 − 20)")
        view.contentOffset = CGPoint(x: 0, y: -100)
        #expect(footer(view, 1)?.minY == 410, "pushed down by the start of its section's body")
    }

    @Test("scrolling recomputes nothing but the pinned elements; a resize recomputes everything")
    func scrollingIsCheap() {
        let (view, data, flow) = pinnedView()
        defer { withExtendedLifetime(data) {} }
        let computations = flow.geometryComputationCount
        let prepares = view.prepareCount
        for step in 1...100 {
            view.contentOffset = CGPoint(x: 0, y: CGFloat(step) * 3.5)
            view.layoutIfNeeded()
        }
        #expect(flow.geometryComputationCount == computations, "no geometry recomputation while scrolling")
        #expect(view.prepareCount == prepares + 100, "each scroll is one (cheap) layout pass")
        #expect(
            view.supplementaryView(forElementKind: CollectionView.elementKindSectionHeader, at: ip(0, 0))?
                .appliedLayoutAttributes?.frame.minY == 330)
        view.frame.size = CGSize(width: 420, height: 480)
        view.layoutIfNeeded()
        #expect(flow.geometryComputationCount == computations + 1)
    }

    @Test("rect queries with pinning equal a brute-force filter of the pinned frames", arguments: ScrollDirection.allCases)
    func pinnedQueries(direction: ScrollDirection) {
        let (view, data, flow) = pinnedView(direction: direction)
        defer { withExtendedLifetime(data) {} }
        for step in 0..<60 {
            let offset = CGFloat(step) * 23 - 40
            view.contentOffset = direction == .vertical ? CGPoint(x: 0, y: offset) : CGPoint(x: offset, y: 0)
            view.layoutIfNeeded()
            let all = flow.layoutAttributesForElements(in: LayoutGeometry.everything) ?? []
            let rect = view.bounds
            let expected = all.filter { LayoutGeometry.intersects($0.frame, rect) }
            #expect(flow.layoutAttributesForElements(in: rect) == expected, "offset \(offset)")
            #expect(view.visibleElementAttributes.count == expected.count)
            let pinnedHeaders = all.filter { $0.representedElementKind == CollectionView.elementKindSectionHeader }
            #expect(pinnedHeaders.allSatisfy { $0.zIndex == 1024 })
        }
    }
}

@Suite("Streaming the elements")
struct StreamingElementsTests {
    @Test("streaming a rect gives what the rect query returns, pinned headers included", arguments: [false, true])
    func streamMatchesQuery(pinned: Bool) {
        let flow = CollectionViewFlowLayout()
        flow.headerReferenceSize = CGSize(width: 30, height: 30)
        flow.footerReferenceSize = CGSize(width: 20, height: 20)
        flow.sectionInset = EdgeInsets(top: 5, left: 5, bottom: 5, right: 5)
        flow.sectionHeadersPinToVisibleBounds = pinned
        flow.sectionFootersPinToVisibleBounds = pinned
        final class Varied: CollectionViewDelegateFlowLayout {
            func collectionView(
                _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
                sizeForItemAt indexPath: IndexPath
            ) -> CGSize {
                let k = indexPath.item + indexPath.section
                return CGSize(width: 40 + Double(k % 7) * 13, height: 30 + Double(k % 5) * 11.5)
            }
        }
        let delegate = Varied()
        let (view, data) = makeCollectionView(
            [Array(0..<200), Array(0..<50), [], Array(0..<120)], width: 330, height: 480,
            layout: flow)
        defer { withExtendedLifetime((data, delegate)) {} }
        flow.itemSize = CGSize(width: 60, height: 45)
        view.delegate = delegate
        flow.invalidateLayout()
        for offset in stride(from: 0.0, through: 3_000, by: 377.5) {
            view.contentOffset = CGPoint(x: 0, y: offset)
            view.layoutIfNeeded()
            for rect in [view.bounds, CGRect(x: 0, y: offset, width: 330, height: 100), LayoutGeometry.everything] {
                let queried = (flow.layoutAttributesForElements(in: rect) ?? []).map { $0.snapshot() }
                var streamed: [CollectionViewLayoutAttributes] = []
                flow.forEachLayoutAttributes(in: rect) { streamed.append($0.snapshot()) }
                #expect(streamed.count == queried.count)
                #expect(zip(streamed, queried).allSatisfy { $0.isEqualAttributes($1) }, "offset \(offset), rect \(rect)")
            }
        }
    }
}
