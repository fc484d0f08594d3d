import Foundation
import Testing
import TrellisCollectionView
import TrellisTestSupport

@testable import TrellisLayouts

@Suite("Grid layout")
struct GridLayoutTests {
    static func items(_ counts: [Int]) -> SizedModel {
        SizedModel(counts.map { n in (0..<n).map { SizedModel.Item(id: $0, size: CGSize(width: 1, height: 1)) } })
    }

    @Test("three square columns share the width; rows follow at the line spacing")
    func fixedColumns() {
        let layout = GridLayout()
        layout.sectionInset = EdgeInsets(top: 4, left: 10, bottom: 6, right: 10)
        let view = host(layout, Self.items([7]), width: 320)
        // (320 − 20 − 2·10) / 3 = 93.33 wide and high; x at 10, 113.33, 216.67 on the 2× grid.
        let frames = LayoutOracles.all(layout).map(\.frame)
        #expect(frames[0] == CGRect(x: 10, y: 4, width: 93.5, height: 93.5))
        #expect(frames[1] == CGRect(x: 113.5, y: 4, width: 93, height: 93.5))
        #expect(frames[2] == CGRect(x: 216.5, y: 4, width: 93.5, height: 93.5))
        #expect(frames[3].minY == 107.5 && frames[6].minY == 210.5 && frames[6].minX == 10)
        // 4 + 3 rows of 93.33 + 2 spacings + 6.
        #expect(abs(layout.collectionViewContentSize.height - (4 + 3 * 280.0 / 3 + 20 + 6)) < 1e-9)
        withExtendedLifetime(view) {}
    }

    @Test("a minimum width gives as many columns as fit, and at least one")
    func adaptiveColumns() {
        let layout = GridLayout()
        layout.columns = .minimumWidth(100)
        layout.interitemSpacing = 8
        let view = host(layout, Self.items([10]), width: 430)
        #expect(layout.numberOfColumns == 4)  // 4·100 + 3·8 = 424 ≤ 430; 5 would need 532
        view.frame = CGRect(x: 0, y: 0, width: 60, height: 600)
        view.layoutIfNeeded()
        #expect(layout.numberOfColumns == 1)
        #expect(LayoutOracles.all(layout)[0].frame.width == 60)
        withExtendedLifetime(view) {}
    }

    @Test("a horizontal grid is the vertical one with the axes swapped")
    func horizontal() {
        let vertical = GridLayout(), horizontal = GridLayout()
        for layout in [vertical, horizontal] {
            layout.columns = .count(4)
            layout.itemHeight = .fixed(70)
            layout.headerHeight = 30
            layout.footerHeight = 12
            layout.lineSpacing = 3
        }
        horizontal.scrollDirection = .horizontal
        vertical.sectionInset = EdgeInsets(top: 1, left: 2, bottom: 3, right: 4)
        horizontal.sectionInset = EdgeInsets(top: 2, left: 1, bottom: 4, right: 3)
        let a = host(vertical, Self.items([9, 0, 5]), width: 300, height: 500)
        let b = host(horizontal, Self.items([9, 0, 5]), width: 500, height: 300)
        #expect(LayoutOracles.all(vertical).map { Element.transposedFrame($0) } == LayoutOracles.all(horizontal))
        #expect(LayoutGeometry.transposed(vertical.collectionViewContentSize) == horizontal.collectionViewContentSize)
        withExtendedLifetime((a, b)) {}
    }

    @Test("random grids pass the oracles in both directions", arguments: 0..<4)
    func oracles(batch: Int) throws {
        for seed in UInt64(batch * 25)..<UInt64(batch * 25 + 25) {
            var rng = SeededRandom(seed: seed)
            let model = SizedModel.random(&rng, sections: Int.random(in: 1...4, using: &rng), items: 0...80)
            let configure = { (layout: GridLayout, rng: inout SeededRandom) in
                layout.columns =
                    rng.chance(0.5)
                    ? .count(Int.random(in: 1...7, using: &rng))
                    : .minimumWidth(rng.points(20...200, quarters: true))
                layout.itemHeight =
                    rng.chance(0.5)
                    ? .aspectRatio(CGFloat(Double.random(in: 0.3...3, using: &rng)))
                    : .fixed(rng.points(0...120, quarters: true))
                layout.interitemSpacing = rng.points(0...12, quarters: true)
                layout.lineSpacing = rng.points(0...12, quarters: true)
                layout.sectionInset = EdgeInsets(
                    top: rng.points(0...20), left: rng.points(0...20),
                    bottom: rng.points(0...20), right: rng.points(0...20))
                layout.headerHeight = rng.chance(0.5) ? rng.points(1...40) : 0
                layout.footerHeight = rng.chance(0.3) ? rng.points(1...40) : 0
                layout.scrollDirection = rng.chance(0.5) ? .vertical : .horizontal
            }
            let width = rng.points(280...1000)
            var setup = rng
            let layout = GridLayout()
            configure(layout, &setup)
            let view = host(layout, model, width: width, height: 700)
            let context = "seed \(seed)"
            #expect(layout.configurationError == nil, "\(context): \(String(describing: layout.configurationError))")
            LayoutOracles.checkRectQueries(layout, &rng, context)
            LayoutOracles.checkInsideContent(layout, context)
            LayoutOracles.checkNoOverlap(layout, context)
            var again = rng
            try LayoutOracles.checkBatchEqualsFresh(
                {
                    let fresh = GridLayout()
                    var s = rng
                    configure(fresh, &s)
                    return fresh
                }, model, &again, width: width, context)
            withExtendedLifetime(view) {}
        }
    }

    @Test("bad values are errors; the layout then shows nothing")
    func badInput() {
        let layout = GridLayout()
        layout.columns = .count(0)
        let view = host(layout, Self.items([3]), width: 300)
        #expect(layout.configurationError?.description == "the column count is 0; give a column count of at least 1")
        #expect(LayoutOracles.all(layout).isEmpty)
        layout.columns = .minimumWidth(-4)
        view.layoutIfNeeded()
        #expect(layout.configurationError?.description == "the minimum column width is -4; give a finite width above 0")
        layout.columns = .count(3)
        layout.itemHeight = .aspectRatio(.nan)
        view.layoutIfNeeded()
        #expect(layout.configurationError?.description == "the aspect ratio is NaN; give a finite width / height above 0")
        layout.itemHeight = .fixed(40)
        layout.interitemSpacing = 200
        view.layoutIfNeeded()
        #expect(layout.configurationError?.description.hasPrefix("3 columns 200 apart do not fit in 300 points") == true)
        layout.interitemSpacing = 10
        view.layoutIfNeeded()
        #expect(layout.configurationError == nil && LayoutOracles.all(layout).count == 3)
        withExtendedLifetime(view) {}
    }
}

extension Element {
    /// The element with its frame's axes swapped.
    static func transposedFrame(_ e: Element) -> Element {
        var copy = e
        copy.frame = LayoutGeometry.transposed(e.frame)
        return copy
    }
}
