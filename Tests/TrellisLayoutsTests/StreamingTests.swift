import Foundation
import Testing
import TrellisCollectionView
import TrellisLayouts
import TrellisTestSupport

/// What an attributes object says, for comparing a stream with a rect query.
private func describe(_ a: CollectionViewLayoutAttributes) -> String {
    "\(a.representedElementCategory) \(a.representedElementKind ?? "-") \(a.indexPath) \(a.frame) z\(a.zIndex) "
        + "a\(a.alpha) \(a.transform) \(a.isHidden)"
}

private func size(_ w: CollectionLayoutDimension, _ h: CollectionLayoutDimension) -> CollectionLayoutSize {
    CollectionLayoutSize(widthDimension: w, heightDimension: h)
}

/// The stream of `forEachLayoutAttributes(in:_:)`, read while each object is handed out.
private func streamed(_ layout: CollectionViewLayout, _ rect: CGRect) -> [String] {
    var out: [String] = []
    layout.forEachLayoutAttributes(in: rect) { out.append(describe($0)) }
    return out
}

private func queried(_ layout: CollectionViewLayout, _ rect: CGRect) -> [String] {
    (layout.layoutAttributesForElements(in: rect) ?? []).map(describe)
}

/// The rects a scroll through `content` would ask for, and everything.
private func rects(_ content: CGSize, _ rng: inout SeededRandom) -> [CGRect] {
    var rects = [LayoutGeometry.everything, CGRect(x: 0, y: 0, width: 375, height: 600)]
    for _ in 0..<20 {
        rects.append(
            CGRect(
                x: CGFloat(Double.random(in: -0.1...1, using: &rng)) * max(content.width, 1),
                y: CGFloat(Double.random(in: -0.1...1, using: &rng)) * max(content.height, 1),
                width: CGFloat(Double.random(in: 0...600, using: &rng)),
                height: CGFloat(Double.random(in: 0...900, using: &rng))))
    }
    return rects
}

@Suite("Streaming: every built-in layout streams what its rect query answers")
struct StreamingTests {
    @Test("compositional sections — grids, estimated rows, orthogonal runs, pinned headers, a visible-items handler — stream their query")
    func compositional() {
        var rng = SeededRandom(seed: 41)
        let handled = CollectionLayoutItem(layoutSize: size(.fractionalWidth(1), .fractionalHeight(1)))
        let layout = CollectionViewCompositionalLayout { section, environment in
            switch section % 4 {
            case 0:
                let item = CollectionLayoutItem(layoutSize: size(.fractionalWidth(0.25), .fractionalHeight(1)))
                let s = CollectionLayoutSection(group: .horizontal(layoutSize: size(.fractionalWidth(1), .absolute(60)), subitems: [item]))
                let header = CollectionLayoutBoundarySupplementaryItem(
                    layoutSize: size(.fractionalWidth(1), .absolute(30)),
                    elementKind: CollectionView.elementKindSectionHeader,
                    alignment: .top)
                header.pinToVisibleBounds = true
                s.boundarySupplementaryItems = [header]
                return s
            case 1:
                let item = CollectionLayoutItem(layoutSize: size(.fractionalWidth(1), .estimated(44)))
                return CollectionLayoutSection(group: .vertical(layoutSize: size(.fractionalWidth(1), .estimated(44)), subitems: [item]))
            case 2:
                let s = CollectionLayoutSection(group: .horizontal(layoutSize: size(.absolute(150), .absolute(100)), subitems: [handled]))
                s.orthogonalScrollingBehavior = .continuous
                s.visibleItemsInvalidationHandler = { items, offset, _ in
                    for item in items { item.alpha = max(0.2, 1 - abs(item.frame.midX - offset.x - 187.5) / 375) }
                }
                return s
            default:
                let item = CollectionLayoutItem(layoutSize: size(.estimated(60), .fractionalHeight(1)))
                let s = CollectionLayoutSection(group: .horizontal(layoutSize: size(.estimated(60), .absolute(80)), subitems: [item]))
                s.orthogonalScrollingBehavior = .groupPaging
                return s
            }
        }
        let host = StaticLayoutHost(
            layout: layout, itemCounts: [200, 150, 40, 300, 7, 90],
            bounds: CGRect(x: 0, y: 0, width: 375, height: 600))
        host.layoutIfNeeded()
        layout.setOrthogonalContentOffset(CGPoint(x: 420, y: 0), forSection: 2)
        host.setBounds(CGRect(x: 0, y: 700, width: 375, height: 600))
        for rect in rects(layout.collectionViewContentSize, &rng) {
            #expect(streamed(layout, rect) == queried(layout, rect), "rect \(rect)")
        }
        #expect(streamed(layout, LayoutGeometry.everything).count == 200 + 150 + 40 + 300 + 7 + 90 + 2)
        withExtendedLifetime(host) {}
    }

    @Test("the carousel streams as the flow layout does; a subclass that changes the query is streamed through it")
    func carousel() {
        var rng = SeededRandom(seed: 42)
        let layout = CarouselLayout(itemSize: CGSize(width: 200, height: 300), spacing: 16)
        let host = StaticLayoutHost(layout: layout, itemCounts: [500], bounds: CGRect(x: 0, y: 0, width: 375, height: 600))
        host.layoutIfNeeded()
        for rect in rects(layout.collectionViewContentSize, &rng) {
            #expect(streamed(layout, rect) == queried(layout, rect), "rect \(rect)")
        }
        final class EveryOther: CarouselLayout {
            override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
                super.layoutAttributesForElements(in: rect)?.filter { $0.indexPath.item % 2 == 0 }
            }
        }
        let other = EveryOther()
        let otherHost = StaticLayoutHost(layout: other, itemCounts: [50], bounds: CGRect(x: 0, y: 0, width: 375, height: 600))
        otherHost.layoutIfNeeded()
        let all = streamed(other, LayoutGeometry.everything)
        #expect(all.count == 25 && all == queried(other, LayoutGeometry.everything))
        withExtendedLifetime((host, otherHost)) {}
    }

    @Test("the circle streams its items, and answers a query without a second copy of them")
    func circle() {
        var rng = SeededRandom(seed: 44)
        let layout = CircleLayout()
        let host = StaticLayoutHost(layout: layout, itemCounts: [360], bounds: CGRect(x: 0, y: 0, width: 375, height: 600))
        host.layoutIfNeeded()
        for rect in rects(layout.collectionViewContentSize, &rng) {
            #expect(streamed(layout, rect) == queried(layout, rect), "rect \(rect)")
        }
        #expect(streamed(layout, LayoutGeometry.everything).count == 360)
        withExtendedLifetime(host) {}
    }

    @Test("waterfalls and justified rows, alike and unlike, stream their query")
    func sized() {
        var rng = SeededRandom(seed: 43)
        for alike in [true, false] {
            var id = 0
            let model = SizedModel(
                (0..<3).map { s in
                    (0..<(s == 1 ? 0 : 700)).map { _ in
                        id += 1
                        return SizedModel.Item(id: id, size: alike ? CGSize(width: 4, height: 3) : SizedModel.randomSize(&rng))
                    }
                })
            model.headerHeights = [0: 20, 1: 10, 2: 30]
            let waterfall = WaterfallLayout()
            waterfall.columnCount = 3
            waterfall.footerHeight = 12
            let justified = JustifiedLayout()
            for layout in [waterfall as CollectionViewLayout, justified] {
                let view = host(layout, model, width: 375)
                for rect in rects(layout.collectionViewContentSize, &rng) {
                    #expect(streamed(layout, rect) == queried(layout, rect), "\(type(of: layout)) alike \(alike) rect \(rect)")
                }
                withExtendedLifetime(view) {}
            }
        }
    }
}
