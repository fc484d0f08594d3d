import Foundation
import Testing
import TrellisCollectionView
import TrellisTestSupport

@testable import TrellisLayouts

@Suite("Justified layout")
struct JustifiedLayoutTests {
    static func photos(_ sizes: [CGSize]) -> SizedModel {
        SizedModel([sizes.enumerated().map { SizedModel.Item(id: $0.offset, size: $0.element) }])
    }

    @Test("one section without header or footer is exactly Flickr's container, at the view's width")
    func oneSectionIsFlickrsContainer() throws {
        let fixture = try #require(FlickrCase.all.first { $0.name == "photos 60, 375 wide phone" })
        let sizes = fixture.input.map { item -> CGSize in
            if case .size(let w, let h) = item { return CGSize(width: w, height: h) }
            return CGSize(width: item.aspectRatio, height: 1)
        }
        let layout = JustifiedLayout()
        var configuration = fixture.configuration
        configuration.containerWidth = 1
        layout.configuration = configuration
        let view = host(layout, Self.photos(sizes), width: 375)
        let frames = LayoutOracles.all(layout).map(\.frame)
        #expect(boxDifferences(frames, fixture.expectedBoxes).isEmpty, "\(boxDifferences(frames, fixture.expectedBoxes))")
        #expect(Double(layout.collectionViewContentSize.height) == fixture.output.containerHeight)
        #expect(layout.collectionViewContentSize.width == 375)
        #expect(layout.widowCount(inSection: 0) == fixture.output.widowCount)
        withExtendedLifetime(view) {}
    }

    @Test(
        "items of one aspect ratio keep their repeating rows as one row of boxes: Flickr's boxes bit for bit, nothing per item",
        arguments: 0..<4)
    func repeatedRows(batch: Int) throws {
        for seed in UInt64(500 + batch * 8)..<UInt64(500 + batch * 8 + 8) {
            var rng = SeededRandom(seed: seed)
            let count = [0, 1, 63, 64, 65, 200, 1000, 5000].randomElement(using: &rng)! + Int.random(in: 0...3, using: &rng)
            let size = SizedModel.randomSize(&rng)
            var configuration = JustifiedLayoutConfiguration()
            configuration.targetRowHeight = rng.points(40...400)
            configuration.boxSpacing = .init(
                horizontal: rng.points(0...12, quarters: true),
                vertical: CGFloat(Int.random(in: 0...30, using: &rng)) / 3)
            configuration.containerPadding = EdgeInsets(
                top: rng.points(0...20), left: rng.points(0...20),
                bottom: rng.points(0...20), right: rng.points(0...20))
            if rng.chance(0.3) { configuration.maxNumRows = Int.random(in: 1...400, using: &rng) }
            if rng.chance(0.2) { configuration.forceAspectRatio = rng.points(1...30) / 10 }
            configuration.showWidows = rng.chance(0.8)
            configuration.widowLayoutStyle = [.left, .center, .justify].randomElement(using: &rng)!
            let layout = JustifiedLayout()
            layout.configuration = configuration
            // A forced ratio makes any sizes one ratio: then they vary.
            let sizes = (0..<count).map { _ in configuration.forceAspectRatio == nil ? size : SizedModel.randomSize(&rng) }
            let model = Self.photos(sizes)
            model.answersInBulk = rng.chance(0.5)
            let width = rng.points(280...1200)
            let view = host(layout, model, width: width)
            configuration.containerWidth = width
            let reference = try justifiedLayout(sizes.map { $0.width / $0.height }, configuration)
            let context = "seed \(seed), \(count) items"
            let frames = (0..<reference.boxes.count).map {
                layout.layoutAttributesForItem(at: IndexPath(item: $0, section: 0))?.frame ?? .null
            }
            #expect(frames == reference.boxes, "\(context): \(boxDifferences(frames, reference.boxes))")
            #expect(layout.layoutAttributesForItem(at: IndexPath(item: reference.boxes.count, section: 0)) == nil, "\(context)")
            #expect(layout.collectionViewContentSize.height == reference.containerHeight, "\(context)")
            #expect(layout.widowCount(inSection: 0) == reference.widowCount, "\(context)")
            LayoutOracles.checkRectQueries(layout, &rng, queries: 40, context)
            if reference.rows.count > 200 {
                #expect(layout.memoryFootprint < 64_000, "\(context): \(layout.memoryFootprint) bytes")
            }
            layout.snapsToPixels = true
            view.layoutIfNeeded()
            LayoutOracles.checkRectQueries(layout, &rng, queries: 40, context + ", snapped")
            withExtendedLifetime(view) {}
        }
    }

    @Test("the content inset narrows the container; sizes asked in bulk give the same layout")
    func insetsAndBulkSizes() {
        var rng = SeededRandom(seed: 7)
        let model = SizedModel.random(&rng, sections: 1, items: 40...40)
        let a = JustifiedLayout(), b = JustifiedLayout()
        let viewA = host(a, model, width: 400)
        let bulk = model.duplicate()
        bulk.answersInBulk = true
        let viewB = CollectionView(frame: CGRect(x: 0, y: 0, width: 440, height: 800), collectionViewLayout: b)
        viewB.contentInset = EdgeInsets(top: 0, left: 30, bottom: 0, right: 10)
        viewB.dataSource = bulk
        viewB.delegate = bulk
        viewB.layoutIfNeeded()
        #expect(LayoutOracles.all(a) == LayoutOracles.all(b))
        withExtendedLifetime((viewA, viewB)) {}
    }

    @Test("sections stack under their headers and over their footers")
    func sectionsStack() {
        var rng = SeededRandom(seed: 3)
        let model = SizedModel.random(&rng, sections: 3, items: 5...12)
        model.footerHeights = [1: 20]
        let layout = JustifiedLayout()
        layout.headerHeight = 44
        let view = host(layout, model, width: 390)
        let all = LayoutOracles.all(layout)
        let headers = all.filter { $0.kind == CollectionView.elementKindSectionHeader }
        #expect(headers.map(\.indexPath) == [[0, 0], [1, 0], [2, 0]])
        #expect(headers.allSatisfy { $0.frame.width == 390 && $0.frame.height == 44 })
        #expect(all.filter { $0.kind == CollectionView.elementKindSectionFooter }.map(\.indexPath) == [[1, 0]])
        // Each section's items start one padding below its header.
        for s in 0..<3 {
            let header = headers[s].frame
            let first = all.first { $0.category == .cell && $0.indexPath.section == s }!
            #expect(first.frame.minY == header.maxY + 10)
        }
        #expect(layout.collectionViewContentSize.height == all.map(\.frame.maxY).max()! + 10)
        withExtendedLifetime(view) {}
    }

    @Test("frames are unrounded unless pixel snapping is asked for")
    func snapping() {
        var rng = SeededRandom(seed: 11)
        let model = SizedModel.random(&rng, sections: 1, items: 30...30)
        let layout = JustifiedLayout()
        let view = host(layout, model, width: 391, scale: 3)
        let raw = LayoutOracles.all(layout).map(\.frame)
        #expect(raw.contains { ($0.minX * 3).rounded() != $0.minX * 3 })
        layout.snapsToPixels = true
        view.layoutIfNeeded()
        let snapped = LayoutOracles.all(layout).map(\.frame)
        let onGrid = { (v: CGFloat) in abs((v * 3).rounded() - v * 3) < 1e-9 }
        #expect(snapped.allSatisfy { onGrid($0.minX) && onGrid($0.minY) && onGrid($0.maxX) && onGrid($0.maxY) })
        #expect(zip(raw, snapped).allSatisfy { abs($0.minX - $1.minX) <= 1.0 / 6 + 1e-9 })
        withExtendedLifetime(view) {}
    }

    @Test(
        "random layouts pass the oracles: rect queries, no overlap, inside the content, batch = fresh",
        arguments: 0..<6)
    func oracles(batch: Int) throws {
        for seed in UInt64(batch * 20)..<UInt64(batch * 20 + 20) {
            var rng = SeededRandom(seed: seed)
            let model = SizedModel.random(&rng, sections: Int.random(in: 1...3, using: &rng), items: 0...60)
            let configure = { (layout: JustifiedLayout, rng: inout SeededRandom) in
                layout.configuration.targetRowHeight = rng.points(60...300)
                layout.configuration.boxSpacing = .init(horizontal: rng.points(0...12), vertical: rng.points(0...12))
                layout.configuration.containerPadding = EdgeInsets(
                    top: rng.points(0...20), left: rng.points(0...20),
                    bottom: rng.points(0...20), right: rng.points(0...20))
                layout.configuration.widowLayoutStyle = JustifiedLayoutConfiguration.WidowLayoutStyle.allCases
                    .randomElement(using: &rng)!
                if rng.chance(0.3) { layout.configuration.fullWidthBreakoutRowCadence = Int.random(in: 1...4, using: &rng) }
                if rng.chance(0.2) { layout.configuration.maxNumRows = Int.random(in: 1...6, using: &rng) }
                if rng.chance(0.2) { layout.configuration.showWidows = false }
                layout.headerHeight = rng.chance(0.5) ? rng.points(10...40) : 0
                layout.snapsToPixels = rng.chance(0.3)
            }
            let width = rng.points(280...1200)
            var setup = rng
            let layout = JustifiedLayout()
            configure(layout, &setup)
            let view = host(layout, model, width: width)
            let context = "seed \(seed)"
            #expect(layout.configurationError == nil, "\(context): \(String(describing: layout.configurationError))")
            LayoutOracles.checkRectQueries(layout, &rng, context)
            LayoutOracles.checkInsideContent(layout, context)
            if !layout.snapsToPixels { LayoutOracles.checkNoOverlap(layout, context) }
            var again = rng
            try LayoutOracles.checkBatchEqualsFresh(
                {
                    let fresh = JustifiedLayout()
                    var s = rng
                    configure(fresh, &s)
                    return fresh
                }, model, &again, width: width, context)
            withExtendedLifetime(view) {}
        }
    }

    @Test("bad options and sizes are errors that name the place; the layout then shows nothing")
    func badInput() {
        let model = Self.photos([CGSize(width: 4, height: 3), CGSize(width: 0, height: 3)])
        let layout = JustifiedLayout()
        let view = host(layout, model)
        #expect(
            layout.configurationError?.description
                == "section 0, item 1: the size is 0 × 3; give a width and a height above 0 (only their ratio is used)")
        #expect(LayoutOracles.all(layout).isEmpty)
        #expect(layout.collectionViewContentSize == .zero)
        model.sections[0][1].size = CGSize(width: 3, height: 4)
        layout.configuration.targetRowHeight = .nan
        view.layoutIfNeeded()
        #expect(layout.configurationError?.description == "targetRowHeight is NaN; give a finite height above 0")
        layout.configuration.targetRowHeight = 200
        layout.configuration.maxNumRows = 0
        view.layoutIfNeeded()
        #expect(layout.configurationError?.description == "maxNumRows is 0; give at least 1, or no limit")
        layout.configuration.maxNumRows = nil
        layout.configuration.containerPadding = EdgeInsets(top: 0, left: 200, bottom: 0, right: 200)
        view.layoutIfNeeded()
        #expect(layout.configurationError?.description.hasPrefix("section 0: the container is 390 wide") == true)
        layout.configuration.containerPadding = .zero
        view.layoutIfNeeded()
        #expect(layout.configurationError == nil)
        #expect(LayoutOracles.all(layout).count == 2)
        withExtendedLifetime(view) {}
    }

    @Test("an item with no box (past maxNumRows, or a hidden widow) has no attributes")
    func itemsWithoutBoxes() throws {
        let model = Self.photos(Array(repeating: CGSize(width: 3, height: 2), count: 30))
        let layout = JustifiedLayout()
        layout.configuration.maxNumRows = 2
        let view = host(layout, model, width: 600)
        let cells = LayoutOracles.all(layout).filter { $0.category == .cell }
        #expect(cells.count < 30 && !cells.isEmpty)
        #expect(layout.layoutAttributesForItem(at: IndexPath(item: cells.count, section: 0)) == nil)
        #expect(layout.layoutAttributesForItem(at: IndexPath(item: cells.count - 1, section: 0)) != nil)
        withExtendedLifetime(view) {}
    }
}
