import Testing
import TrellisTestSupport

@_spi(Instrumentation) @testable import TrellisCollectionView

private func ip(_ section: Int, _ item: Int) -> IndexPath { IndexPath(item: item, section: section) }

/// A cell that knows its content's size and reports it when asked.
final class SizingCell: CollectionViewCell {
    var trueSize = CGSize.zero
    override func preferredLayoutAttributesFitting(_ layoutAttributes: CollectionViewLayoutAttributes)
        -> CollectionViewLayoutAttributes
    {
        let preferred = super.preferredLayoutAttributesFitting(layoutAttributes)
        preferred.size = trueSize
        return preferred
    }
}

final class SizingDataSource: CollectionViewDataSource, CollectionViewDelegateFlowLayout {
    let sizes: [[CGSize]]
    var asked = Set<IndexPath>()
    init(_ sizes: [[CGSize]]) { self.sizes = sizes }
    func numberOfSections(in collectionView: CollectionView) -> Int { sizes.count }
    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { sizes[section].count }
    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
        let cell = collectionView.dequeueReusableCell(withReuseIdentifier: "sizing", for: indexPath) as! SizingCell
        cell.trueSize = sizes[indexPath.section][indexPath.item]
        asked.insert(indexPath)
        return cell
    }
    /// For the reference layout: the true sizes.
    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        sizesForItemsInSection section: Int
    ) -> [CGSize]? { sizes[section] }
}

@Suite("Self-sizing")
struct SelfSizingTests {
    func makeFlow(_ direction: ScrollDirection, estimated: CGSize) -> CollectionViewFlowLayout {
        let flow = CollectionViewFlowLayout()
        flow.scrollDirection = direction
        flow.estimatedItemSize = estimated
        flow.headerReferenceSize = CGSize(width: 24, height: 24)
        flow.sectionInset = EdgeInsets(top: 6, left: 8, bottom: 6, right: 8)
        return flow
    }

    @Test(
        "once every cell has reported its size, the layout equals one computed from the true sizes",
        arguments: 0..<6)
    func convergesToTrueLayout(seed: Int) throws {
        var rng = SeededRandom(seed: UInt64(seed))
        let direction: ScrollDirection = seed % 2 == 0 ? .vertical : .horizontal
        let sizes = (0..<Int.random(in: 1...3, using: &rng)).map { _ in
            (0..<Int.random(in: 0...120, using: &rng)).map { _ in
                CGSize(width: CGFloat(Int.random(in: 20...140, using: &rng)), height: CGFloat(Int.random(in: 20...140, using: &rng)))
            }
        }
        let data = SizingDataSource(sizes)
        let view = CollectionView(
            frame: CGRect(x: 0, y: 0, width: 320, height: 400),
            collectionViewLayout: makeFlow(direction, estimated: CGSize(width: 60, height: 50)))
        view.register(SizingCell.self, forCellWithReuseIdentifier: "sizing")
        view.dataSource = data
        view.layoutIfNeeded()
        // Show every item at least once.
        let all = sizes.enumerated().flatMap { s, items in items.indices.map { ip(s, $0) } }
        var steps = 0
        while let next = all.first(where: { !data.asked.contains($0) }), steps < 2000 {
            view.scrollToItem(at: next, at: direction == .vertical ? .top : .left, animated: false)
            steps += 1
        }
        #expect(data.asked.count == all.count, "seed \(seed): every cell was shown")
        let flow = view.collectionViewLayout as! CollectionViewFlowLayout
        #expect(flow.measuredSizes.count == all.count)
        // The reference: the same layout, told the true sizes from the start.
        let reference = makeFlow(direction, estimated: .zero)
        let host = StaticLayoutHost(
            layout: reference, itemCounts: sizes.map(\.count),
            bounds: CGRect(x: 0, y: 0, width: 320, height: 400), delegate: data)
        let expectedSize = host.contentSize
        #expect(
            abs(view.contentSize.width - expectedSize.width) < 1e-6 && abs(view.contentSize.height - expectedSize.height) < 1e-6,
            "seed \(seed): \(view.contentSize) ≠ \(expectedSize)")
        for path in all {
            let actual = flow.layoutAttributesForItem(at: path)!.frame
            let expected = host.layoutAttributesForItem(at: path)!.frame
            #expect(
                abs(actual.minX - expected.minX) < 1e-6 && abs(actual.minY - expected.minY) < 1e-6
                    && actual.size == expected.size, "seed \(seed) \(path): \(actual) ≠ \(expected)")
        }
        let everything = flow.layoutAttributesForElements(in: LayoutGeometry.everything) ?? []
        let expectedAll = host.layoutAttributesForElements(in: LayoutGeometry.everything) ?? []
        #expect(everything.count == expectedAll.count)
    }

    @Test("cells measured above the viewport move the offset so that what is on screen does not jump")
    func noJump() throws {
        let sizes = [(0..<400).map { CGSize(width: 300, height: CGFloat(40 + ($0 * 37) % 90)) }]
        let data = SizingDataSource(sizes)
        let flow = makeFlow(.vertical, estimated: CGSize(width: 300, height: 50))
        let view = CollectionView(frame: CGRect(x: 0, y: 0, width: 320, height: 400), collectionViewLayout: flow)
        view.register(SizingCell.self, forCellWithReuseIdentifier: "sizing")
        view.dataSource = data
        view.contentOffset = CGPoint(x: 0, y: 6000)
        view.layoutIfNeeded()
        // The first item fully on screen, and where it is on screen.
        let anchor = try #require(
            view.indexPathsForVisibleItems.first { path in
                (flow.layoutAttributesForItem(at: path)?.frame.minY ?? 0) >= view.contentOffset.y
            })
        let before = flow.layoutAttributesForItem(at: anchor)!.frame.minY - view.contentOffset.y
        // Scroll up a little: cells above come into view, partly above its top, and are measured.
        view.contentOffset = CGPoint(x: 0, y: view.contentOffset.y - 120)
        view.layoutIfNeeded()
        let after = flow.layoutAttributesForItem(at: anchor)!.frame.minY - view.contentOffset.y
        #expect(abs(after - (before + 120)) < 1, "the anchor moved by the scroll only: \(before) → \(after)")
    }

    @Test("a shown cell whose content says it needs another size is sized again and the items after it move; not when disabled")
    func invalidatedIntrinsicSize() throws {
        for mode in [CollectionView.SelfSizingInvalidation.enabled, .enabledIncludingConstraints, .disabled] {
            let data = SizingDataSource([Array(repeating: CGSize(width: 300, height: 40), count: 30)])
            let flow = makeFlow(.vertical, estimated: CGSize(width: 300, height: 50))
            let view = CollectionView(frame: CGRect(x: 0, y: 0, width: 320, height: 400), collectionViewLayout: flow)
            view.register(SizingCell.self, forCellWithReuseIdentifier: "sizing")
            view.dataSource = data
            view.selfSizingInvalidation = mode
            view.layoutIfNeeded()
            let cell = try #require(view.cellForItem(at: ip(0, 2)) as? SizingCell)
            let next = try #require(flow.layoutAttributesForItem(at: ip(0, 3))).frame.minY
            #expect(cell.frame.height == 40)
            // Its text grew by a line (what a cell's label reports by invalidating its content view).
            cell.trueSize = CGSize(width: 300, height: 64)
            cell.contentView.invalidateIntrinsicContentSize()
            let grown: CGFloat = mode == .disabled ? 0 : 24
            #expect(cell.frame.height == 40 + grown, "\(mode)")
            #expect(flow.layoutAttributesForItem(at: ip(0, 3))?.frame.minY == next + grown, "\(mode)")
            #expect(view.cellForItem(at: ip(0, 3))?.frame.minY == next + grown, "the cell below is moved on screen too (\(mode))")
        }
    }

    @Test("a measured size changes one line and a shift structure, not the whole layout")
    func measurementsApplyInPlace() {
        // Full-width cells: a new height never changes where lines break.
        let sizes = [(0..<5000).map { CGSize(width: 300, height: CGFloat(30 + ($0 * 13) % 70)) }]
        let data = SizingDataSource(sizes)
        let flow = makeFlow(.vertical, estimated: CGSize(width: 300, height: 50))
        let view = CollectionView(frame: CGRect(x: 0, y: 0, width: 320, height: 400), collectionViewLayout: flow)
        view.register(SizingCell.self, forCellWithReuseIdentifier: "sizing")
        view.dataSource = data
        view.layoutIfNeeded()
        let computations = flow.geometryComputationCount
        let incremental = flow.incrementalUpdateCount
        for step in 1...50 {
            view.contentOffset = CGPoint(x: 0, y: CGFloat(step) * 400)
            view.layoutIfNeeded()
        }
        #expect(flow.incrementalUpdateCount - incremental > 100)
        #expect(flow.geometryComputationCount - computations <= 1, "at most the first measurement rebuilds (uniform → per item)")
        // Every measured cell sits where the true sizes put it.
        let host = StaticLayoutHost(
            layout: makeFlow(.vertical, estimated: .zero), itemCounts: [5000],
            bounds: view.bounds, delegate: data)
        for path in flow.measuredSizes.keys.sorted().prefix(200) {
            let actual = flow.layoutAttributesForItem(at: path)!.frame
            // Only items before the first unmeasured one are comparable with the reference.
            guard path.item < (0..<5000).first(where: { flow.measuredSizes[ip(0, $0)] == nil }) ?? 5000 else { break }
            #expect(abs(actual.minY - host.layoutAttributesForItem(at: path)!.frame.minY) < 1e-6, "\(path)")
        }
    }

    @Test(
        "measurements for items that do not exist are dropped, never trapped on",
        arguments: [
            ip(0, -1), ip(-1, 0), ip(0, 1_000_000), ip(7, 0), ip(Int.min, Int.max),
        ])
    func nonsenseMeasurements(path: IndexPath) {
        let sizes = [(0..<30).map { CGSize(width: 100, height: CGFloat(40 + $0 % 3 * 10)) }]
        let data = SizingDataSource(sizes)
        let flow = makeFlow(.vertical, estimated: CGSize(width: 100, height: 50))
        let view = CollectionView(frame: CGRect(x: 0, y: 0, width: 320, height: 400), collectionViewLayout: flow)
        view.register(SizingCell.self, forCellWithReuseIdentifier: "sizing")
        view.dataSource = data
        view.layoutIfNeeded()
        let before = (flow.layoutAttributesForElements(in: LayoutGeometry.everything) ?? []).map { $0.snapshot() }
        let original = CollectionViewLayoutAttributes(forCellWith: path)
        original.frame = CGRect(x: 0, y: 0, width: 100, height: 50)
        let preferred = original.copy() as! CollectionViewLayoutAttributes
        preferred.size = CGSize(width: 100, height: 90)
        #expect(flow.shouldInvalidateLayout(forPreferredLayoutAttributes: preferred, withOriginalAttributes: original))
        let context = flow.invalidationContext(forPreferredLayoutAttributes: preferred, withOriginalAttributes: original)
        flow.invalidateLayout(with: context)
        view.layoutIfNeeded()
        #expect(flow.measuredSizes[path] == nil)
        let after = (flow.layoutAttributesForElements(in: LayoutGeometry.everything) ?? []).map { $0.snapshot() }
        #expect(after.count == before.count && zip(after, before).allSatisfy { $0.isEqualAttributes($1) })
    }
}
