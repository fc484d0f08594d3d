import Foundation
import Testing
import TrellisCollectionView
import TrellisLayouts
import TrellisTestSupport

/// A random compositional layout, as a recipe that builds the same layout every time.
struct CompositionalRecipe {
    struct Section {
        var archetype: Int
        var columns: Int
        var height: CGFloat
        var spacing: CGFloat
        var interGroup: CGFloat
        var insets: NSDirectionalEdgeInsets
        var itemInsets: CGFloat
        var header: Bool, footer: Bool, pinned: Bool, background: Bool, badges: Bool
        var behavior: CollectionLayoutSectionOrthogonalScrollingBehavior
        var fraction: CGFloat
    }
    var sections: [Section]

    static func random(_ rng: inout SeededRandom, sections: Int) -> CompositionalRecipe {
        CompositionalRecipe(
            sections: (0..<sections).map { _ in
                let archetype = Int.random(in: 0...5, using: &rng)
                return Section(
                    archetype: archetype, columns: Int.random(in: 1...5, using: &rng),
                    height: rng.points(20...160, quarters: true), spacing: rng.points(0...12, quarters: true),
                    interGroup: rng.points(0...16, quarters: true),
                    insets: NSDirectionalEdgeInsets(
                        top: rng.points(0...20, quarters: false), leading: rng.points(0...20, quarters: false),
                        bottom: rng.points(0...20, quarters: false), trailing: rng.points(0...20, quarters: false)),
                    itemInsets: rng.chance(0.5) ? rng.points(0...4, quarters: true) : 0,
                    header: rng.chance(0.5), footer: rng.chance(0.3), pinned: rng.chance(0.3), background: rng.chance(0.4),
                    badges: rng.chance(0.3),
                    behavior: archetype == 3
                        ? CollectionLayoutSectionOrthogonalScrollingBehavior.allCases.filter { $0 != .none }
                            .randomElement(using: &rng)! : .none,
                    fraction: CGFloat(Double.random(in: 0.4...0.95, using: &rng)))
            })
    }

    private static func size(_ w: CollectionLayoutDimension, _ h: CollectionLayoutDimension) -> CollectionLayoutSize {
        CollectionLayoutSize(widthDimension: w, heightDimension: h)
    }

    func section(_ index: Int) -> CollectionLayoutSection {
        let r = sections[index % sections.count]
        let n = CGFloat(r.columns)
        var badge: [CollectionLayoutSupplementaryItem] = []
        if r.badges {
            badge = [
                CollectionLayoutSupplementaryItem(
                    layoutSize: Self.size(.absolute(12), .absolute(12)), elementKind: "badge",
                    containerAnchor: CollectionLayoutAnchor(edges: [.top, .trailing]))
            ]
        }
        let group: CollectionLayoutGroup
        switch r.archetype {
        case 0:
            let item = CollectionLayoutItem(layoutSize: Self.size(.fractionalWidth(1 / n), .fractionalHeight(1)), supplementaryItems: badge)
            item.contentInsets = NSDirectionalEdgeInsets(top: r.itemInsets, leading: r.itemInsets, bottom: r.itemInsets, trailing: r.itemInsets)
            group = .horizontal(layoutSize: Self.size(.fractionalWidth(1), .absolute(r.height)), subitems: [item])
        case 1:
            let leading = CollectionLayoutItem(layoutSize: Self.size(.fractionalWidth(0.6), .fractionalHeight(1)), supplementaryItems: badge)
            let small = CollectionLayoutItem(layoutSize: Self.size(.fractionalWidth(1), .fractionalHeight(0.5)))
            small.contentInsets = NSDirectionalEdgeInsets(top: r.itemInsets, leading: r.itemInsets, bottom: r.itemInsets, trailing: r.itemInsets)
            let trailing = CollectionLayoutGroup.vertical(
                layoutSize: Self.size(.fractionalWidth(0.4), .fractionalHeight(1)),
                subitem: small, count: max(1, r.columns - 1))
            group = .horizontal(layoutSize: Self.size(.fractionalWidth(1), .absolute(r.height * 2)), subitems: [leading, trailing])
        case 2:
            let item = CollectionLayoutItem(layoutSize: Self.size(.fractionalWidth(1 / n), .estimated(r.height)), supplementaryItems: badge)
            group = .horizontal(layoutSize: Self.size(.fractionalWidth(1), .estimated(r.height)), subitems: [item])
        case 3:
            let item = CollectionLayoutItem(layoutSize: Self.size(.fractionalWidth(1), .fractionalHeight(1)), supplementaryItems: badge)
            group = .horizontal(layoutSize: Self.size(.fractionalWidth(r.fraction), .absolute(r.height)), subitems: [item])
        case 4:
            let height = r.height, columns = r.columns
            group = .custom(layoutSize: Self.size(.fractionalWidth(1), .absolute(height))) { environment in
                let w = environment.container.contentSize.width / CGFloat(columns)
                return (0..<columns).map {
                    CollectionLayoutGroupCustomItem(
                        frame: CGRect(
                            x: CGFloat($0) * w, y: CGFloat($0 % 2) * height / 4,
                            width: w, height: height * 3 / 4))
                }
            }
        default:
            let item = CollectionLayoutItem(layoutSize: Self.size(.absolute(1), .fractionalHeight(1)), supplementaryItems: badge)
            let g = CollectionLayoutGroup.horizontal(layoutSize: Self.size(.fractionalWidth(1), .absolute(r.height)), subitem: item, count: r.columns)
            g.interItemSpacing = .fixed(r.spacing)
            group = g
        }
        let section = CollectionLayoutSection(group: group)
        section.interGroupSpacing = r.interGroup
        section.contentInsets = r.insets
        section.orthogonalScrollingBehavior = r.behavior
        if r.header {
            let header = CollectionLayoutBoundarySupplementaryItem(
                layoutSize: Self.size(.fractionalWidth(1), .absolute(30)),
                elementKind: CollectionView.elementKindSectionHeader, alignment: .top)
            header.pinToVisibleBounds = r.pinned
            section.boundarySupplementaryItems.append(header)
        }
        if r.footer {
            section.boundarySupplementaryItems.append(
                CollectionLayoutBoundarySupplementaryItem(
                    layoutSize: Self.size(.fractionalWidth(1), .estimated(20)), elementKind: CollectionView.elementKindSectionFooter,
                    alignment: .bottom))
        }
        if r.background { section.decorationItems = [.background(elementKind: "background")] }
        return section
    }

    func layout() -> CollectionViewCompositionalLayout {
        CollectionViewCompositionalLayout(sectionProvider: { index, _ in section(index) })
    }
}

@Suite("Compositional layout oracles")
struct CompositionalOracleTests {
    @Test("rect queries equal brute force, elements stay inside the content, cells never overlap", arguments: 0..<12)
    func oracles(seed: Int) {
        var rng = SeededRandom(seed: UInt64(300 + seed))
        let recipe = CompositionalRecipe.random(&rng, sections: Int.random(in: 1...4, using: &rng))
        let layout = recipe.layout()
        let counts = recipe.sections.map { _ in Int.random(in: 0...40, using: &rng) }
        let host = StaticLayoutHost(layout: layout, itemCounts: counts, bounds: CGRect(x: 0, y: 0, width: 390, height: 700))
        host.layoutIfNeeded()
        #expect(layout.configurationError == nil, "seed \(seed): \(String(describing: layout.configurationError))")
        // Measure some estimated cells, as a host's self-sizing cells would.
        for (s, count) in counts.enumerated() where recipe.sections[s].archetype == 2 && count > 0 {
            for _ in 0..<min(count, 6) {
                let path = IndexPath(item: Int.random(in: 0..<count, using: &rng), section: s)
                guard let original = layout.layoutAttributesForItem(at: path) else { continue }
                let preferred = original.copy() as! CollectionViewLayoutAttributes
                preferred.frame.size.height = rng.points(10...200, quarters: true)
                if layout.shouldInvalidateLayout(forPreferredLayoutAttributes: preferred, withOriginalAttributes: original) {
                    layout.invalidateLayout(
                        with: layout.invalidationContext(
                            forPreferredLayoutAttributes: preferred,
                            withOriginalAttributes: original))
                }
            }
        }
        for (s, section) in recipe.sections.enumerated() where section.archetype == 3 {
            layout.setOrthogonalContentOffset(CGPoint(x: rng.points(0...400, quarters: false), y: 0), forSection: s)
        }
        host.layoutIfNeeded()
        let cells = LayoutOracles.all(layout).filter { $0.category == .cell }.count
        #expect(cells == counts.reduce(0, +), "seed \(seed): every item has a cell")
        LayoutOracles.checkRectQueries(layout, &rng, "seed \(seed)")
        LayoutOracles.checkNoOverlap(layout, "seed \(seed)")
        // Orthogonal sections scroll their own content: only the others must fit the content size.
        let size = layout.collectionViewContentSize
        for element in LayoutOracles.all(layout) where recipe.sections[element.indexPath.section].archetype != 3 {
            let f = element.frame
            #expect(
                f.minX >= -1e-6 && f.minY >= -1e-6 && f.maxX <= size.width + 1e-6 && f.maxY <= size.height + 1e-6,
                "seed \(seed): \(element) lies outside \(size)")
        }
        // The same measurements given to a fresh layout give the same frames.
        withExtendedLifetime(host) {}
    }

    /// Gives each of `items` (of section 0) a measured height, as a host's self-sizing cell would.
    static func measure(_ layout: CollectionViewCompositionalLayout, items: [Int], _ rng: inout SeededRandom) {
        for item in items {
            guard let original = layout.layoutAttributesForItem(at: IndexPath(item: item, section: 0)) else { continue }
            let preferred = original.copy() as! CollectionViewLayoutAttributes
            preferred.frame.size.height = rng.points(10...200, quarters: true)
            if layout.shouldInvalidateLayout(forPreferredLayoutAttributes: preferred, withOriginalAttributes: original) {
                layout.invalidateLayout(
                    with: layout.invalidationContext(
                        forPreferredLayoutAttributes: preferred,
                        withOriginalAttributes: original))
            }
        }
    }

    /// An estimated list keeps its rows' lengths in blocks of 64 with a sum per block: a query
    /// finds its first row through the block sums, then the block's rows one by one. Lists long
    /// enough to span many blocks, uniform and with rows measured (the last row too), answer
    /// every rect as brute force does.
    @Test("estimated lists of many blocks of rows answer rect queries as brute force does", arguments: 0..<4)
    func estimatedBlocks(seed: Int) {
        var rng = SeededRandom(seed: UInt64(350 + seed))
        let layout = CollectionViewCompositionalLayout.list(using: CollectionLayoutListConfiguration(appearance: .plain))
        let count = [63, 64, 65, 1_000][seed] + Int.random(in: 0...200, using: &rng)
        let host = StaticLayoutHost(layout: layout, itemCounts: [count], bounds: CGRect(x: 0, y: 0, width: 390, height: 700))
        host.layoutIfNeeded()
        LayoutOracles.checkRectQueries(layout, &rng, queries: 60, "seed \(seed), uniform")
        let measured = [count - 1, 0, 63, 64] + (0..<12).map { _ in Int.random(in: 0..<count, using: &rng) }
        Self.measure(layout, items: measured.filter { $0 < count }, &rng)
        host.layoutIfNeeded()
        LayoutOracles.checkRectQueries(layout, &rng, queries: 60, "seed \(seed), measured")
        #expect(LayoutOracles.all(layout).filter { $0.category == .cell }.count == count)
        withExtendedLifetime(host) {}
    }

    /// A negative inter-group spacing pulls each group back over the one before; one longer
    /// than a group sets each group before the one it follows. Either way every cell is laid out,
    /// found by its own query and by every rect that meets it, and nothing traps.
    @Test(
        "negative inter-group spacing, shorter or longer than a group: groups overlap, every rect query equals brute force",
        arguments: [0, 2, 3, 5], [-4.0, -1.0, -2.5])
    func negativeInterGroupSpacing(archetype: Int, spacing: Double) {
        var rng = SeededRandom(seed: UInt64(400 + archetype))
        var recipe = CompositionalRecipe.random(&rng, sections: 2)
        for s in recipe.sections.indices {
            recipe.sections[s].archetype = archetype
            recipe.sections[s].behavior = archetype == 3 ? .continuous : .none
            // −4 points, or a multiple of the group's length (its height, twice it for archetype 1).
            recipe.sections[s].interGroup = spacing == -4 ? -4 : CGFloat(spacing) * recipe.sections[s].height
        }
        let layout = recipe.layout()
        let counts = [Int.random(in: 1...30, using: &rng), Int.random(in: 0...30, using: &rng)]
        let host = StaticLayoutHost(layout: layout, itemCounts: counts, bounds: CGRect(x: 0, y: 0, width: 390, height: 700))
        host.layoutIfNeeded()
        if archetype == 2 {
            Self.measure(layout, items: (0..<min(counts[0], 5)).map { $0 * 3 % counts[0] }, &rng)
            host.layoutIfNeeded()
        }
        #expect(layout.configurationError == nil)
        let all = LayoutOracles.all(layout)
        #expect(all.filter { $0.category == .cell }.count == counts.reduce(0, +), "every item has a cell")
        for (s, count) in counts.enumerated() {
            for item in 0..<count {
                let single = layout.layoutAttributesForItem(at: IndexPath(item: item, section: s)).map(Element.init)
                #expect(single != nil && all.contains(single!), "item \(item) of section \(s)")
            }
        }
        LayoutOracles.checkRectQueries(layout, &rng, queries: 40, "archetype \(archetype), spacing \(spacing)")
        withExtendedLifetime(host) {}
    }

    @Test("a batch update and a new layout pass equal a fresh layout of the new data", arguments: 0..<8)
    func batch(seed: Int) throws {
        var rng = SeededRandom(seed: UInt64(400 + seed))
        let recipe = CompositionalRecipe.random(&rng, sections: Int.random(in: 1...3, using: &rng))
        let model = SizedModel.random(&rng, sections: recipe.sections.count, items: 0...30)
        try LayoutOracles.checkBatchEqualsFresh({ recipe.layout() }, model, &rng, width: 390, "seed \(seed)")
    }

    @Test("a measured cell gives the frames of a fresh layout measured the same way")
    func measuredEqualsFresh() {
        let item = CollectionLayoutItem(layoutSize: CollectionLayoutSize(widthDimension: .fractionalWidth(0.5), heightDimension: .estimated(40)))
        let group = CollectionLayoutGroup.horizontal(
            layoutSize: CollectionLayoutSize(
                widthDimension: .fractionalWidth(1),
                heightDimension: .estimated(40)), subitems: [item])
        func make() -> (CollectionViewCompositionalLayout, StaticLayoutHost) {
            let section = CollectionLayoutSection(group: group)
            section.interGroupSpacing = 3.3
            let layout = CollectionViewCompositionalLayout(section: section)
            let host = StaticLayoutHost(layout: layout, itemCounts: [501], bounds: CGRect(x: 0, y: 0, width: 320, height: 480))
            host.layoutIfNeeded()
            return (layout, host)
        }
        func measure(_ layout: CollectionViewCompositionalLayout, _ host: StaticLayoutHost, _ item: Int, _ height: CGFloat) {
            let original = host.layoutAttributesForItem(at: IndexPath(item: item, section: 0))!
            let preferred = original.copy() as! CollectionViewLayoutAttributes
            preferred.frame.size.height = height
            layout.invalidateLayout(with: layout.invalidationContext(forPreferredLayoutAttributes: preferred, withOriginalAttributes: original))
            host.layoutIfNeeded()
        }
        let (a, hostA) = make()
        let (b, hostB) = make()
        // The same heights in another order, one of them set twice.
        for (item, h) in [(7, 61.7), (300, 12.1), (7, 90.3), (499, 33.3)] { measure(a, hostA, item, h) }
        for (item, h) in [(499, 33.3), (7, 90.3), (300, 12.1)] { measure(b, hostB, item, h) }
        let all = CGRect(x: -1e6, y: -1e6, width: 2e6, height: 2e7)
        #expect(a.layoutAttributesForElements(in: all)!.map(\.frame) == b.layoutAttributesForElements(in: all)!.map(\.frame))
        #expect(a.collectionViewContentSize == b.collectionViewContentSize)
        // Across the sum tree's blocks of 64 groups, rect queries still equal brute force.
        var rng = SeededRandom(seed: 77)
        for _ in 0..<40 { measure(a, hostA, Int.random(in: 0..<501, using: &rng), rng.points(5...120, quarters: true)) }
        LayoutOracles.checkRectQueries(a, &rng, queries: 60, "measured list")
    }
}
