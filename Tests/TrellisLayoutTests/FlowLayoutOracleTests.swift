import Testing
import TrellisTestSupport

@_spi(Instrumentation) @testable import TrellisCollectionView

/// The flow layout against oracles over seeded random inputs: a plain reference implementation
/// of the rules, a brute-force filter for rect queries, and the general algorithm for the
/// uniform fast path.
@Suite("Flow layout oracles")
struct FlowLayoutOracleTests {
    @Test("every frame equals the reference implementation's, in both directions", arguments: 0..<8)
    func matchesReference(batch: Int) {
        for seed in UInt64(batch * 50)..<UInt64(batch * 50 + 50) {
            var rng = SeededRandom(seed: seed)
            let c = ReferenceFlow.randomCase(&rng)
            let expected = ReferenceFlow.layout(c)
            for direction in ScrollDirection.allCases {
                let actual = c.run(in: direction)
                #expect(
                    abs(actual.contentSize.height - expected.contentSize.height) < 1e-6
                        && actual.contentSize.width == expected.contentSize.width,
                    "seed \(seed) \(direction): content size \(actual.contentSize) ≠ \(expected.contentSize)")
                for s in c.sections.indices {
                    let frames = actual.frames(s)
                    let same =
                        frames.count == expected.items[s].count
                        && zip(frames, expected.items[s]).allSatisfy { approximatelyEqual($0, $1, tolerance: 1e-6) }
                    let diff = frameDiff(expected: expected.items[s], actual: frames, section: s)
                    #expect(same, "seed \(seed) \(direction) section \(s) of \(c):\n\(diff)")
                    #expect(actual.header(s) == expected.headers[s], "seed \(seed) \(direction) header \(s)")
                    #expect(actual.footer(s) == expected.footers[s], "seed \(seed) \(direction) footer \(s)")
                }
            }
        }
    }

    @Test("a rect query returns exactly the elements a brute-force filter finds, in order", arguments: 0..<8)
    func rectQueriesMatchBruteForce(batch: Int) {
        for seed in UInt64(1000 + batch * 40)..<UInt64(1000 + batch * 40 + 40) {
            var rng = SeededRandom(seed: seed)
            let c = ReferenceFlow.randomCase(&rng, maxItems: 80)
            for direction in ScrollDirection.allCases {
                let result = c.run(in: direction)
                let all = result.elements()
                #expect(
                    all
                        == ReferenceFlow.layout(c).elements.map { key in
                            all.first {
                                $0.category == key.category && $0.kind == key.kind && $0.section == key.section
                                    && $0.item == key.item
                            } ?? key
                        }, "seed \(seed): listing every element must follow the documented order")
                let height = max(result.contentSize.height, 1)
                for _ in 0..<25 {
                    let rect = CGRect(
                        x: rng.points(-100...Int(c.width) + 50, quarters: true),
                        y: CGFloat(Double.random(in: -0.2...1.1, using: &rng)) * height,
                        width: rng.points(0...400, quarters: true),
                        height: CGFloat(Double.random(in: 0...0.6, using: &rng)) * height)
                    let expected = all.filter { LayoutGeometry.intersects($0.frame, rect) }
                    let actual = result.elements(in: rect)
                    #expect(actual == expected, "seed \(seed) \(direction) rect \(rect)")
                }
            }
        }
    }

    @Test("the uniform fast path computes exactly what the general rules compute", arguments: 0..<4)
    func uniformEqualsGeneral(batch: Int) {
        for seed in UInt64(5000 + batch * 100)..<UInt64(5000 + batch * 100 + 100) {
            var rng = SeededRandom(seed: seed)
            let cross = rng.points(0...600, quarters: true)
            let metrics = FlowSectionMetrics(
                inset: EdgeInsets(
                    top: rng.points(0...20), left: rng.points(0...40), bottom: rng.points(0...20),
                    right: rng.points(0...40)),
                minimumLineSpacing: rng.points(0...20, quarters: true),
                minimumInteritemSpacing: rng.points(0...20, quarters: true),
                headerExtent: rng.points(0...30), footerExtent: rng.points(0...30))
            let size = CGSize(width: rng.points(0...150, quarters: true), height: rng.points(0...150, quarters: true))
            let count = Int.random(in: 0...300, using: &rng)
            let scale = CGFloat([1, 2, 3][Int.random(in: 0...2, using: &rng)])
            var uniform = FlowGeometry.Builder(scrollDirection: .vertical, crossSize: cross, displayScale: scale)
            uniform.appendSection(metrics, itemSize: size, count: count)
            var general = FlowGeometry.Builder(scrollDirection: .vertical, crossSize: cross, displayScale: scale)
            general.appendSection(
                metrics, itemSizes: Array(repeating: size, count: count), transposed: false,
                detectUniform: false)
            let u = uniform.finish(), g = general.finish()
            #expect(abs(u.contentSize.height - g.contentSize.height) < 1e-9, "seed \(seed)")
            let uf = (0..<count).map { u.itemFrame(section: 0, item: $0)! }
            let gf = (0..<count).map { g.itemFrame(section: 0, item: $0)! }
            #expect(uf == gf, "seed \(seed):\n\(frameDiff(expected: gf, actual: uf))")
            let rect = CGRect(x: 0, y: rng.points(0...2000), width: cross, height: rng.points(0...800))
            #expect(u.layoutAttributes(in: rect) == g.layoutAttributes(in: rect), "seed \(seed)")
        }
    }

    @Test("a uniform section stores no per-item data")
    func uniformHasNoPerItemStorage() {
        var builder = FlowGeometry.Builder(scrollDirection: .vertical, crossSize: 375, displayScale: 2)
        builder.appendSection(FlowSectionMetrics(), itemSize: CGSize(width: 100, height: 100), count: 1_000_000)
        let geometry = builder.finish()
        #expect(geometry.storage.frameCount == 0 && geometry.storage.lineCount == 0)
        #expect(geometry.storageBytes < 1024)
        #expect(geometry.itemFrame(section: 0, item: 999_999) != nil)
    }
}

@Suite("Searching")
struct SearchTests {
    @Test("a search started from any guess finds the same partition point as a binary search")
    func gallopingMatchesBinarySearch() {
        var rng = SeededRandom(seed: 99)
        for _ in 0..<300 {
            let count = Int.random(in: 0...200, using: &rng)
            let answer = Int.random(in: 0...count, using: &rng)
            let expected = partitionPoint(count) { $0 < answer }
            #expect(expected == answer)
            for guess in [-5, 0, count / 2, count - 1, count, count + 7, Int.random(in: 0...max(count, 1), using: &rng)] {
                #expect(partitionPoint(count, from: guess) { $0 < answer } == answer, "count \(count) guess \(guess)")
            }
        }
    }
}

@Suite("Extreme inputs")
struct ExtremeInputTests {
    @Test(
        "extreme sizes, spacings and insets never crash or hang the layout, and queries stay answerable",
        arguments: [CGFloat(0), 1e-300, 1e-9, 0.5, 1e9, 1e300, .greatestFiniteMagnitude])
    func extremes(value: CGFloat) {
        for direction in ScrollDirection.allCases {
            let cases: [FlowCase] = [
                FlowCase(
                    width: 300, itemSize: CGSize(width: value, height: value), lineSpacing: 0, interitemSpacing: 0,
                    sections: [.init(count: 1000)]),
                FlowCase(width: value, itemSize: CGSize(width: 10, height: 10), sections: [.init(count: 50)]),
                FlowCase(
                    width: 300, inset: EdgeInsets(top: value, left: value, bottom: -value, right: value),
                    sections: [.init(count: 20, sizes: (0..<20).map { CGSize(width: CGFloat($0) * value, height: value) })]),
                FlowCase(
                    width: 300, itemSize: CGSize(width: 20, height: 20), lineSpacing: -value, interitemSpacing: -value,
                    sections: [.init(count: 100)]),
            ]
            for c in cases {
                let result = c.run(in: direction)
                _ = result.contentSize
                _ = result.elements()
                _ = result.elements(in: CGRect(x: -value, y: -value, width: value, height: value))
                _ = result.elements(in: CGRect(x: 0, y: 0, width: CGFloat.infinity, height: CGFloat.infinity))
                #expect(result.frame(0, 0) != nil || c.sections[0].count == 0)
            }
        }
    }
}

@Suite("Re-layout")
struct RelayoutTests {
    final class Sizes: CollectionViewDelegateFlowLayout {
        var sizes: [CGSize]
        init(_ sizes: [CGSize]) { self.sizes = sizes }
        func collectionView(
            _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
            sizesForItemsInSection section: Int
        ) -> [CGSize]? { sizes }
    }

    @Test("a re-layout reuses the old storage only when nobody holds the old geometry, and equals a fresh layout")
    func recycling() {
        var rng = SeededRandom(seed: 4)
        let first = (0..<500).map { _ in CGSize(width: rng.points(10...150), height: rng.points(10...90)) }
        let delegate = Sizes(first)
        let layout = CollectionViewFlowLayout()
        let host = StaticLayoutHost(layout: layout, itemCounts: [500], delegate: delegate)
        host.layoutIfNeeded()
        let kept = layout.flowGeometry
        let keptFrames = (0..<500).map { kept.itemFrame(section: 0, item: $0)! }
        for round in 0..<5 {
            delegate.sizes = (0..<500).map { _ in CGSize(width: rng.points(10...150), height: rng.points(10...90)) }
            layout.invalidateLayout()
            host.layoutIfNeeded()
            let fresh = StaticLayoutHost(layout: CollectionViewFlowLayout(), itemCounts: [500], delegate: Sizes(delegate.sizes))
            for item in 0..<500 {
                #expect(
                    host.layoutAttributesForItem(at: IndexPath(item: item, section: 0))
                        == fresh.layoutAttributesForItem(at: IndexPath(item: item, section: 0)), "round \(round) item \(item)")
            }
        }
        #expect(
            (0..<500).map { kept.itemFrame(section: 0, item: $0)! } == keptFrames,
            "a geometry someone kept must not change when the layout is recomputed")
    }
}
