import Foundation
import Testing
import TrellisCollectionView
import TrellisTestSupport

@testable import TrellisLayouts

/// CHTCollectionViewWaterfallLayout's rules as a plain loop over arrays, written from its
/// documented behaviour: the reference the layout is compared with on random inputs.
enum ReferenceWaterfall {
    struct Result {
        var items: [[CGRect]]
        var headers: [CGRect?]
        var footers: [CGRect?]
        var height: CGFloat
    }

    static func layout(_ model: SizedModel, layout: WaterfallLayout, width: CGFloat, scale: CGFloat) -> Result {
        let floorPixel = { (v: CGFloat) in floor(v * scale) / scale }
        var top: CGFloat = 0
        var result = Result(items: [], headers: [], footers: [], height: 0)
        for (s, items) in model.sections.enumerated() {
            let n = model.columnCounts[s] ?? layout.columnCount
            let inset = layout.sectionInset
            let contentWidth = width - inset.left - inset.right
            let itemWidth = floorPixel((contentWidth - CGFloat(n - 1) * layout.minimumColumnSpacing) / CGFloat(n))
            let header = model.headerHeights[s] ?? layout.headerHeight
            top += layout.headerInset.top
            if header > 0 {
                let f = CGRect(
                    x: layout.headerInset.left, y: top,
                    width: width - layout.headerInset.left - layout.headerInset.right, height: header)
                result.headers.append(f)
                top = f.maxY + layout.headerInset.bottom
            } else {
                result.headers.append(nil)
            }
            top += inset.top
            var columns = Array(repeating: top, count: n)
            var frames: [CGRect] = []
            var turn = 0
            for item in items {
                if item.fullSpan {
                    let y = columns.max()!
                    let w = itemWidth * CGFloat(n) + layout.minimumColumnSpacing * CGFloat(n - 1)
                    let h = item.size.width > 0 && item.size.height > 0 ? floorPixel(item.size.height * w / item.size.width) : 0
                    frames.append(CGRect(x: inset.left, y: y, width: w, height: h))
                    columns = Array(repeating: y + h + layout.minimumInteritemSpacing, count: n)
                    turn = 0
                    continue
                }
                let c: Int
                switch layout.itemRenderDirection {
                case .shortestFirst: c = columns.firstIndex(of: columns.min()!)!
                case .leftToRight: c = turn % n
                case .rightToLeft: c = n - 1 - turn % n
                }
                turn += 1
                let h = item.size.width > 0 && item.size.height > 0 ? floorPixel(item.size.height * itemWidth / item.size.width) : 0
                let f = CGRect(
                    x: inset.left + (itemWidth + layout.minimumColumnSpacing) * CGFloat(c), y: columns[c],
                    width: itemWidth, height: h)
                frames.append(f)
                columns[c] = f.maxY + layout.minimumInteritemSpacing
            }
            result.items.append(frames)
            top = columns.max()! - layout.minimumInteritemSpacing + inset.bottom
            let footer = model.footerHeights[s] ?? layout.footerHeight
            top += layout.footerInset.top
            if footer > 0 {
                let f = CGRect(
                    x: layout.footerInset.left, y: top,
                    width: width - layout.footerInset.left - layout.footerInset.right, height: footer)
                result.footers.append(f)
                top = f.maxY + layout.footerInset.bottom
            } else {
                result.footers.append(nil)
            }
        }
        result.height = top
        return result
    }
}

@Suite("Waterfall layout")
struct WaterfallLayoutTests {
    static func model(_ heights: [CGFloat], width: CGFloat = 100) -> SizedModel {
        SizedModel([heights.enumerated().map { SizedModel.Item(id: $0.offset, size: CGSize(width: width, height: $0.element)) }])
    }

    @Test("each item goes to the shortest column, ties to the leftmost; columns are floored to the pixel grid")
    func shortestColumn() {
        let layout = WaterfallLayout()
        layout.columnCount = 3
        // (320 − 2·10) / 3 = 100 wide; sizes 100 wide keep their heights.
        let view = host(layout, Self.model([50, 80, 50, 30, 20, 40]), width: 320)
        let frames = LayoutOracles.all(layout).map(\.frame)
        #expect(
            frames == [
                CGRect(x: 0, y: 0, width: 100, height: 50), CGRect(x: 110, y: 0, width: 100, height: 80),
                CGRect(x: 220, y: 0, width: 100, height: 50),
                CGRect(x: 0, y: 60, width: 100, height: 30),  // columns at 60, 90, 60: the leftmost of the two
                CGRect(x: 220, y: 60, width: 100, height: 20),  // 100, 90, 60
                CGRect(x: 110, y: 90, width: 100, height: 40),  // 100, 90, 90: the leftmost of the two
            ])
        #expect(layout.collectionViewContentSize == CGSize(width: 320, height: 130))
        // 3 columns in 321 points at 2×: (321 − 20) / 3 = 100.33 → 100.0 on the half-pixel grid.
        view.frame = CGRect(x: 0, y: 0, width: 321, height: 600)
        view.layoutIfNeeded()
        #expect(layout.itemWidth(inSection: 0) == 100)
        withExtendedLifetime(view) {}
    }

    @Test("left-to-right and right-to-left fill the columns in turn; a full-span item restarts the turn")
    func renderDirections() {
        let model = Self.model([50, 80, 50, 30, 20])
        model.sections[0][3].fullSpan = true
        let layout = WaterfallLayout()
        layout.columnCount = 2
        layout.itemRenderDirection = .rightToLeft
        let view = host(layout, model, width: 210)
        let frames = LayoutOracles.all(layout).map(\.frame)
        // Columns 100 wide at x 0 and 110: items 0, 1, 2 go right, left, right.
        #expect(frames[0].minX == 110 && frames[1].minX == 0 && frames[2].minX == 110)
        // The banner is below the tallest column (80 + 10 and 50 + 10 + 50 + 10 = 120), 210 wide
        // and scaled to it: 30 · 210 / 100 = 63.
        #expect(frames[3] == CGRect(x: 0, y: 120, width: 210, height: 63))
        #expect(frames[4] == CGRect(x: 110, y: 193, width: 100, height: 20))
        #expect(layout.column(ofItemAt: IndexPath(item: 3, section: 0)) == -1)
        withExtendedLifetime(view) {}
    }

    @Test("headers and footers span the view less their insets; an empty section still loses one spacing")
    func headersAndFooters() {
        let model = SizedModel([[], [SizedModel.Item(id: 1, size: CGSize(width: 10, height: 10))]])
        let layout = WaterfallLayout()
        layout.headerHeight = 40
        layout.footerHeight = 20
        layout.headerInset = EdgeInsets(top: 5, left: 8, bottom: 6, right: 8)
        layout.sectionInset = EdgeInsets(top: 10, left: 0, bottom: 12, right: 0)
        let view = host(layout, model, width: 300)
        let header0 = layout.layoutAttributesForSupplementaryView(
            ofKind: CollectionView.elementKindSectionHeader,
            at: IndexPath(item: 0, section: 0))?.frame
        #expect(header0 == CGRect(x: 8, y: 5, width: 284, height: 40))
        // Header ends at 45, + 6 + 10 = 61 for the columns; empty: 61 − 10 + 12 = 63 for the footer.
        let footer0 = layout.layoutAttributesForSupplementaryView(
            ofKind: CollectionView.elementKindSectionFooter,
            at: IndexPath(item: 0, section: 0))?.frame
        #expect(footer0 == CGRect(x: 0, y: 63, width: 300, height: 20))
        layout.minimumContentHeight = 2000
        view.layoutIfNeeded()
        #expect(layout.collectionViewContentSize == CGSize(width: 300, height: 2000))
        withExtendedLifetime(view) {}
    }

    @Test("per-section column counts come from the delegate")
    func perSectionColumns() {
        var rng = SeededRandom(seed: 5)
        let model = SizedModel.random(&rng, sections: 3, items: 10...10)
        model.columnCounts = [0: 1, 2: 4]
        let layout = WaterfallLayout()
        let view = host(layout, model, width: 400)
        let widths = (0..<3).map { layout.itemWidth(inSection: $0) }
        #expect(widths == [400, 195, 92.5])
        withExtendedLifetime(view) {}
    }

    @Test("random waterfalls give the reference's frames and pass the oracles", arguments: 0..<6)
    func oracles(batch: Int) throws {
        for seed in UInt64(batch * 20)..<UInt64(batch * 20 + 20) {
            var rng = SeededRandom(seed: seed)
            let model = SizedModel.random(&rng, sections: Int.random(in: 1...3, using: &rng), items: 0...60)
            for s in model.sections.indices {
                for i in model.sections[s].indices where rng.chance(0.05) { model.sections[s][i].fullSpan = true }
                if rng.chance(0.3) { model.columnCounts[s] = Int.random(in: 1...6, using: &rng) }
                if rng.chance(0.3) { model.headerHeights[s] = rng.points(0...40) }
            }
            let configure = { (layout: WaterfallLayout, rng: inout SeededRandom) in
                layout.columnCount = Int.random(in: 1...8, using: &rng)
                layout.minimumColumnSpacing = rng.points(0...12, quarters: true)
                layout.minimumInteritemSpacing = rng.points(0...12, quarters: true)
                layout.sectionInset = EdgeInsets(
                    top: rng.points(0...20), left: rng.points(0...20),
                    bottom: rng.points(0...20), right: rng.points(0...20))
                layout.headerInset = EdgeInsets(
                    top: rng.points(0...8), left: rng.points(0...8),
                    bottom: rng.points(0...8), right: rng.points(0...8))
                layout.footerHeight = rng.chance(0.5) ? rng.points(1...30) : 0
                layout.itemRenderDirection = WaterfallItemRenderDirection.allCases.randomElement(using: &rng)!
            }
            let width = rng.points(280...1200)
            var setup = rng
            let layout = WaterfallLayout()
            configure(layout, &setup)
            let view = host(layout, model, width: width)
            let context = "seed \(seed)"
            #expect(layout.configurationError == nil, "\(context): \(String(describing: layout.configurationError))")
            let reference = ReferenceWaterfall.layout(model, layout: layout, width: width, scale: 2)
            for s in model.sections.indices {
                let frames = (0..<model.sections[s].count).map {
                    layout.layoutAttributesForItem(at: IndexPath(item: $0, section: s))!.frame
                }
                #expect(frames == reference.items[s], "\(context) section \(s): \(boxDifferences(frames, reference.items[s]))")
            }
            #expect(layout.collectionViewContentSize == CGSize(width: width, height: reference.height), "\(context)")
            LayoutOracles.checkRectQueries(layout, &rng, context)
            LayoutOracles.checkInsideContent(layout, context)
            LayoutOracles.checkNoOverlap(layout, context)
            var again = rng
            try LayoutOracles.checkBatchEqualsFresh(
                {
                    let fresh = WaterfallLayout()
                    var s = rng
                    configure(fresh, &s)
                    return fresh
                }, model, &again, width: width, context)
            withExtendedLifetime(view) {}
        }
    }

    @Test("sections of equal items store nothing per item and give the reference's frames, bit for bit", arguments: 0..<4)
    func repeatedRows(batch: Int) throws {
        for seed in UInt64(1000 + batch * 10)..<UInt64(1000 + batch * 10 + 10) {
            var rng = SeededRandom(seed: seed)
            // Sections alike and unlike, long enough to cross many checkpoints; spacings and
            // scales that make the tops inexact (thirds of a point), and some that cancel.
            let size = SizedModel.randomSize(&rng)
            var id = 0
            let model = SizedModel(
                (0..<Int.random(in: 1...4, using: &rng)).map { s in
                    let count = rng.chance(0.2) ? 0 : Int.random(in: 1...3000, using: &rng)
                    let alike = rng.chance(0.75)
                    return (0..<count).map { _ in
                        id += 1
                        return SizedModel.Item(id: id, size: alike ? size : SizedModel.randomSize(&rng))
                    }
                })
            model.answersInBulk = rng.chance(0.5)
            let layout = WaterfallLayout()
            layout.columnCount = Int.random(in: 1...7, using: &rng)
            layout.minimumColumnSpacing = rng.points(0...12, quarters: true)
            layout.minimumInteritemSpacing = rng.chance(0.1) ? -100_000 : CGFloat(Int.random(in: 0...40, using: &rng)) / 3
            layout.sectionInset = EdgeInsets(top: rng.points(0...20), left: rng.points(0...20), bottom: rng.points(0...20), right: 0)
            layout.headerHeight = rng.chance(0.5) ? rng.points(1...30) : 0
            layout.footerHeight = rng.chance(0.5) ? rng.points(1...30) : 0
            layout.itemRenderDirection = WaterfallItemRenderDirection.allCases.randomElement(using: &rng)!
            let width = rng.points(280...1200), scale: CGFloat = [1, 2, 3].randomElement(using: &rng)!
            let view = host(layout, model, width: width, scale: scale)
            let context = "seed \(seed)"
            #expect(layout.configurationError == nil, "\(context): \(String(describing: layout.configurationError))")
            let reference = ReferenceWaterfall.layout(model, layout: layout, width: width, scale: scale)
            for s in model.sections.indices {
                let frames = (0..<model.sections[s].count).map {
                    layout.layoutAttributesForItem(at: IndexPath(item: $0, section: s))!.frame
                }
                #expect(frames == reference.items[s], "\(context) section \(s): \(boxDifferences(frames, reference.items[s]))")
                let columns = (0..<model.sections[s].count).map { layout.column(ofItemAt: IndexPath(item: $0, section: s))! }
                let expectedColumns = reference.items[s].map {
                    Int((($0.minX - layout.sectionInset.left) / (layout.itemWidth(inSection: s) + layout.minimumColumnSpacing)).rounded())
                }
                #expect(columns == expectedColumns, "\(context) section \(s): columns")
            }
            // (A content size is never negative: spacing that runs the columns upwards ends at 0.)
            #expect(layout.collectionViewContentSize == CGSize(width: width, height: max(0, reference.height)), "\(context)")
            LayoutOracles.checkRectQueries(layout, &rng, queries: 60, context)
            // Items alike in rows that go down: a few bytes a section whatever its count.
            let alike = model.sections.allSatisfy { section in section.allSatisfy { $0.size == size } }
            if alike, layout.minimumInteritemSpacing >= 0 {
                #expect(layout.memoryFootprint < 4_096 + model.sections.count * 512, "\(context): \(layout.memoryFootprint) bytes")
            }
            withExtendedLifetime(view) {}
        }
    }

    @Test("a million equal items hold kilobytes, and a query deep in them answers the same as a fresh count would")
    func millionAlike() {
        let model = SizedModel([[SizedModel.Item(id: 0, size: CGSize(width: 3, height: 7))]])
        model.sections[0] = (0..<1_000_000).map { SizedModel.Item(id: $0, size: CGSize(width: 3, height: 7)) }
        let layout = WaterfallLayout()
        layout.columnCount = 3
        layout.minimumInteritemSpacing = 1.0 / 3
        let view = host(layout, model, width: 390, scale: 3)
        #expect(layout.memoryFootprint < 200_000)
        // The reference adds row by row; so must the layout, at any depth.
        let reference = ReferenceWaterfall.layout(model, layout: layout, width: 390, scale: 3)
        for item in [0, 1, 2, 3, 191, 192, 193, 500_000, 999_998, 999_999] {
            #expect(layout.layoutAttributesForItem(at: IndexPath(item: item, section: 0))?.frame == reference.items[0][item])
        }
        let deep = reference.items[0][777_777]
        let hits = layout.layoutAttributesForElements(in: CGRect(x: 0, y: deep.minY, width: 390, height: 1)) ?? []
        #expect(hits.map(\.indexPath.item) == [777_777 - 777_777 % 3, 777_777 - 777_777 % 3 + 1, 777_777 - 777_777 % 3 + 2])
        #expect(layout.collectionViewContentSize.height == reference.height)
        withExtendedLifetime(view) {}
    }

    @Test("a size change keeps every other item in its column")
    func sizeChangeKeepsColumns() {
        var rng = SeededRandom(seed: 21)
        let model = SizedModel.random(&rng, sections: 1, items: 200...200)
        let layout = WaterfallLayout()
        layout.columnCount = 4
        let view = host(layout, model, width: 400)
        let before = (0..<200).map { layout.column(ofItemAt: IndexPath(item: $0, section: 0))! }
        model.sections[0][3].size.height *= 6
        let context = CollectionViewLayoutInvalidationContext()
        context.invalidateItems(at: [IndexPath(item: 3, section: 0)])
        layout.invalidateLayout(with: context)
        view.layoutIfNeeded()
        let after = (0..<200).map { layout.column(ofItemAt: IndexPath(item: $0, section: 0))! }
        #expect(after == before)
        // Only the items below it in its column moved.
        let frame3 = layout.layoutAttributesForItem(at: IndexPath(item: 3, section: 0))!.frame
        #expect(frame3.height > 0)
        LayoutOracles.checkNoOverlap(layout, "after the size change")
        LayoutOracles.checkRectQueries(layout, &rng, "after the size change")
        // A plain invalidation places every item afresh by the rule.
        layout.invalidateLayout()
        view.layoutIfNeeded()
        let fresh = (0..<200).map { layout.column(ofItemAt: IndexPath(item: $0, section: 0))! }
        #expect(fresh != before)
        withExtendedLifetime(view) {}
    }

    @Test("bad values are errors that name the section and item; the layout then shows nothing")
    func badInput() {
        let model = Self.model([50, 80])
        let layout = WaterfallLayout()
        layout.columnCount = 0
        let view = host(layout, model, width: 300)
        #expect(layout.configurationError?.description == "section 0: the column count is 0; give a column count of at least 1")
        #expect(LayoutOracles.all(layout).isEmpty)
        layout.columnCount = 2
        model.sections[0][1].size = CGSize(width: 10, height: -CGFloat.infinity)
        layout.invalidateLayout()
        view.layoutIfNeeded()
        #expect(
            layout.configurationError?.description
                == "section 0, item 1: the size is 10 × -infinity; give a finite width and height of 0 or more")
        model.sections[0][1].size = CGSize(width: 10, height: 10)
        layout.minimumColumnSpacing = 400
        view.layoutIfNeeded()
        #expect(layout.configurationError?.description.hasPrefix("section 0: 2 columns 400 apart do not fit in 300 points") == true)
        layout.minimumColumnSpacing = .nan
        view.layoutIfNeeded()
        #expect(layout.configurationError?.description == "section 0: the column spacing is NaN; give a finite number")
        layout.minimumColumnSpacing = 10
        view.layoutIfNeeded()
        #expect(layout.configurationError == nil && LayoutOracles.all(layout).count == 2)
        withExtendedLifetime(view) {}
    }
}
