import Testing
import TrellisTestSupport

@_spi(Instrumentation) @testable import TrellisCollectionView

private func ip(_ section: Int, _ item: Int) -> IndexPath { IndexPath(item: item, section: section) }

@Suite("Headless collection view")
struct CollectionViewTests {
    @Test("the visible set equals a brute-force filter of every element, wherever the viewport is", arguments: 0..<4)
    func visibleSetMatchesBruteForce(batch: Int) {
        for seed in UInt64(batch * 25)..<UInt64(batch * 25 + 25) {
            var rng = SeededRandom(seed: seed)
            let sections = (0..<Int.random(in: 1...3, using: &rng)).map { s in
                (0..<Int.random(in: 0...60, using: &rng)).map { s * 1000 + $0 }
            }
            let flow = CollectionViewFlowLayout()
            flow.itemSize = CGSize(
                width: CGFloat(Int.random(in: 20...150, using: &rng)),
                height: CGFloat(Int.random(in: 20...150, using: &rng)))
            flow.headerReferenceSize = CGSize(width: 0, height: CGFloat(Int.random(in: 0...40, using: &rng)))
            flow.scrollDirection = rng.chance(0.5) ? .vertical : .horizontal
            let (view, data) = makeCollectionView(sections, layout: flow)
            defer { withExtendedLifetime(data) {} }
            let all = flow.layoutAttributesForElements(in: LayoutGeometry.everything) ?? []
            for _ in 0..<10 {
                let offset = CGPoint(
                    x: flow.scrollDirection == .horizontal ? CGFloat.random(in: -50...view.contentSize.width, using: &rng) : 0,
                    y: flow.scrollDirection == .vertical ? CGFloat.random(in: -50...view.contentSize.height, using: &rng) : 0)
                view.contentOffset = offset
                view.layoutIfNeeded()
                let expected = all.filter { LayoutGeometry.intersects($0.frame, view.bounds) }
                #expect(
                    view.visibleElementAttributes.sorted { ElementID($0) < ElementID($1) }
                        == expected.sorted { ElementID($0) < ElementID($1) }, "seed \(seed) offset \(offset)")
                #expect(
                    view.indexPathsForVisibleItems
                        == expected.filter { $0.representedElementCategory == .cell }
                        .map(\.indexPath).sorted())
            }
        }
    }

    @Test("cells are dequeued for visible items, reused as they scroll off, and get attributes only when they change")
    func reuseAndApply() throws {
        let (view, data) = makeCollectionView([Array(0..<300)])
        #expect(view.indexPathsForVisibleItems.count == 15)
        let first = try #require(view.cellForItem(at: ip(0, 0)) as? RecordingCell)
        #expect(first.applied.count == 1 && first.identifier == 0)
        view.layoutIfNeeded()
        view.layoutIfNeeded()
        #expect(first.applied.count == 1, "unchanged attributes must not be applied again")
        for step in 1...40 {
            view.contentOffset = CGPoint(x: 0, y: CGFloat(step) * 97)
            view.layoutIfNeeded()
        }
        #expect(view.createdViewCount <= 24, "scrolling reuses cells instead of creating one per item")
        #expect(view.visibleCells.contains { ($0 as! RecordingCell).reused > 0 })
        #expect(data.cellRequests > 100)
        #expect(view.cellForItem(at: ip(0, 0)) == nil)
    }

    @Test("any number of invalidations cause one prepare at the next layout pass; scrolling a flow layout causes none")
    func coalescedInvalidation() {
        let (view, data) = makeCollectionView([Array(0..<100)])
        defer { withExtendedLifetime(data) {} }
        let prepares = view.prepareCount
        for _ in 0..<10 { view.collectionViewLayout.invalidateLayout() }
        view.layoutIfNeeded()
        #expect(view.prepareCount == prepares + 1)
        view.contentOffset = CGPoint(x: 0, y: 300)
        view.layoutIfNeeded()
        #expect(view.prepareCount == prepares + 1)
        view.frame.size = CGSize(width: 400, height: 480)
        view.layoutIfNeeded()
        #expect(view.prepareCount == prepares + 2)
        view.reloadData()
        view.layoutIfNeeded()
        #expect(view.prepareCount == prepares + 3)
    }

    @Test("a page of scrolling asks the layout at most once and touches only what is near the viewport")
    func scrollingQueries() {
        let (view, data) = makeCollectionView([Array(0..<100_000)])
        defer { withExtendedLifetime(data) {} }
        let queries = view.layoutQueryCount
        for step in 1...100 {
            view.contentOffset = CGPoint(x: 0, y: CGFloat(step) * 480)
            view.layoutIfNeeded()
        }
        #expect(view.layoutQueryCount - queries <= 100)
        #expect(view.preparedElements.count <= 2 * 3 * 6 + 6)
    }

    @Test("cells about to come into view are prefetched in the direction of scrolling")
    func prefetching() {
        let (view, data) = makeCollectionView([Array(0..<200)])
        view.contentOffset = CGPoint(x: 0, y: 50)
        view.layoutIfNeeded()
        let ahead = data.prefetchedBatches.flatMap { $0 }
        #expect(!ahead.isEmpty)
        #expect(ahead.allSatisfy { !view.indexPathsForVisibleItems.contains($0) })
        #expect(ahead.allSatisfy { $0.item >= view.indexPathsForVisibleItems.last!.item })
    }

    @Test("an invalid batch is refused with UIKit's message and leaves everything as it was")
    func invalidBatchChangesNothing() throws {
        let (view, data) = makeCollectionView([Array(0..<10)])
        let visible = view.visibleElementAttributes
        let prepares = view.prepareCount
        data.sections[0].append(99)
        #expect(throws: BatchUpdateError.self) {
            try view.applyBatchUpdates { view.deleteItems(at: [ip(0, 0)]) }
        }
        #expect(view.numberOfItems(inSection: 0) == 10)
        #expect(view.visibleElementAttributes == visible)
        #expect(view.prepareCount == prepares)
        // UIKit's non-throwing calls: nothing changes, the completion hears `false`, the error is kept.
        var finished: Bool?
        view.performBatchUpdates({ view.insertItems(at: [ip(0, 12)]) }, completion: { finished = $0 })
        #expect(finished == false)
        #expect(view.lastUpdateError == .itemOutOfRange(.insert, ip(0, 12), itemCount: 11, afterUpdate: true))
        #expect(
            view.lastUpdateError?.message == "attempt to insert item 12 into section 0, but there are only 11 items "
                + "in section 0 after the update")
        #expect(view.numberOfItems(inSection: 0) == 10 && view.visibleElementAttributes == visible)
        view.insertItems(at: [ip(0, 10)])
        #expect(view.lastUpdateError == nil && view.numberOfItems(inSection: 0) == 11)
    }

    @Test("inside a batch the old counts are reported; the data source is asked again at the end")
    func oldCountsInsideBatch() throws {
        let (view, data) = makeCollectionView([Array(0..<5)])
        data.sections[0].insert(100, at: 0)
        var inside = -1
        try view.applyBatchUpdates {
            inside = view.numberOfItems(inSection: 0)
            view.performBatchUpdates({ view.insertItems(at: [ip(0, 0)]) })
        }
        #expect(inside == 5)
        #expect(view.numberOfItems(inSection: 0) == 6)
    }

    @Test("after any valid batch, the layout equals a fresh layout of the new data", arguments: 0..<4)
    func batchEqualsFreshLayout(batch: Int) throws {
        for seed in UInt64(300 + batch * 25)..<UInt64(300 + batch * 25 + 25) {
            var rng = SeededRandom(seed: seed)
            var next = 0
            let old = (0..<Int.random(in: 1...3, using: &rng)).map { _ in
                (0..<Int.random(in: 0...40, using: &rng)).map { _ in
                    next += 1; return next
                }
            }
            var sizes: [Int: CGSize] = [:]
            for id in 0...(next + 20) {
                let width = CGFloat(30 + (id * 37) % 90), height = CGFloat(30 + (id * 53) % 70)
                sizes[id] = CGSize(width: width, height: height)
            }
            final class Sizes: CollectionViewDelegateFlowLayout {
                let data: ItemsDataSource, sizes: [Int: CGSize]
                init(_ data: ItemsDataSource, _ sizes: [Int: CGSize]) { self.data = data; self.sizes = sizes }
                func collectionView(
                    _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
                    sizeForItemAt indexPath: IndexPath
                ) -> CGSize {
                    sizes[data.sections[indexPath.section][indexPath.item]]!
                }
            }
            let (view, data) = makeCollectionView(old)
            let sizer = Sizes(data, sizes)
            defer { withExtendedLifetime(sizer) {} }
            view.delegate = sizer
            view.contentOffset = CGPoint(x: 0, y: CGFloat(Int.random(in: 0...300, using: &rng)))
            view.layoutIfNeeded()
            // Random deletes and inserts per section.
            var new = old
            var deletes: [IndexPath] = [], inserts: [IndexPath] = []
            for s in old.indices {
                for i in old[s].indices.reversed() where rng.chance(0.25) {
                    new[s].remove(at: i)
                    deletes.append(ip(s, i))
                }
                for _ in 0..<Int.random(in: 0...3, using: &rng) {
                    let at = Int.random(in: 0...new[s].count, using: &rng)
                    next += 1
                    new[s].insert(min(next, sizes.count - 1), at: at)
                    inserts = inserts.map { $0.section == s && $0.item >= at ? ip(s, $0.item + 1) : $0 }
                    inserts.append(ip(s, at))
                }
            }
            data.sections = new
            let transition = try view.applyBatchUpdates {
                view.deleteItems(at: deletes)
                view.insertItems(at: inserts)
            }
            let (fresh, freshData) = makeCollectionView(new)
            defer { withExtendedLifetime(freshData) {} }
            let freshSizer = Sizes(freshData, sizes)
            defer { withExtendedLifetime(freshSizer) {} }
            fresh.delegate = freshSizer
            fresh.contentOffset = view.contentOffset
            fresh.layoutIfNeeded()
            #expect(view.contentSize == fresh.contentSize, "seed \(seed)")
            #expect(view.visibleElementAttributes == fresh.visibleElementAttributes, "seed \(seed)")
            // Every element visible after the batch ends the transition where the fresh layout has it.
            let ends: [ElementID: CollectionViewLayoutAttributes] = Dictionary(
                transition.elements.compactMap { e in e.after.map { ($0, e.to) } }, uniquingKeysWith: { a, _ in a })
            for attributes in fresh.visibleElementAttributes {
                #expect(ends[ElementID(attributes)] == attributes, "seed \(seed): \(ElementID(attributes))")
            }
        }
    }
}
