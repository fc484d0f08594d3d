import Foundation
import Testing
import TrellisCollectionView
import TrellisLayouts
import TrellisTestSupport

private func size(_ w: CollectionLayoutDimension, _ h: CollectionLayoutDimension) -> CollectionLayoutSize {
    CollectionLayoutSize(widthDimension: w, heightDimension: h)
}

private let half = CollectionLayoutItem(layoutSize: size(.fractionalWidth(0.5), .absolute(40)))
private let row = size(.fractionalWidth(1), .absolute(40))

/// Each a section provider answers nonsense with, and the start of the diagnostic it gets.
private let nonsense: [(String, @Sendable () -> CollectionLayoutSection?, String)] = [
    (
        "a count of 0", { CollectionLayoutSection(group: .horizontal(layoutSize: row, subitem: half, count: 0)) },
        "section 0: a group's count is 0; give a count of 1 to 10000"
    ),
    (
        "a count of Int.max", { CollectionLayoutSection(group: .vertical(layoutSize: row, subitem: half, count: .max)) },
        "section 0: a group's count is 9223372036854775807"
    ),
    (
        "repeating Int.max times", { CollectionLayoutSection(group: .horizontal(layoutSize: row, repeatingSubitem: half, count: .max)) },
        "section 0: a group's count is 9223372036854775807"
    ),
    (
        "no subitems", { CollectionLayoutSection(group: .horizontal(layoutSize: row, subitems: [])) },
        "section 0: a group has no subitems"
    ),
    (
        "groups nested 100,000 deep",
        {
            var group = CollectionLayoutGroup.horizontal(layoutSize: row, subitems: [half])
            for _ in 0..<100_000 { group = .vertical(layoutSize: size(.fractionalWidth(1), .fractionalHeight(1)), subitems: [group]) }
            return CollectionLayoutSection(group: group)
        }, "section 0: groups are nested more than 256 deep"
    ),
    (
        "a NaN spacing",
        {
            let section = CollectionLayoutSection(group: .horizontal(layoutSize: row, subitems: [half]))
            section.interGroupSpacing = .nan
            return section
        }, "section 0: the section's interGroupSpacing is NaN"
    ),
    ("nil", { nil }, "section 0: the section provider returned nil"),
]

@Suite("The public API under misuse")
struct MisuseTests {
    @Test(
        "a section provider answering nonsense gets a diagnostic naming the section, and the layout shows nothing",
        arguments: nonsense.indices)
    func providerNonsense(case index: Int) {
        let (name, make, expected) = nonsense[index]
        let layout = CollectionViewCompositionalLayout { _, _ in make() }
        let host = StaticLayoutHost(layout: layout, itemCounts: [40], bounds: CGRect(x: 0, y: 0, width: 375, height: 600))
        host.layoutIfNeeded()
        #expect(
            layout.configurationError?.description.hasPrefix(expected) == true,
            "\(name): \(String(describing: layout.configurationError))")
        #expect((layout.layoutAttributesForElements(in: LayoutGeometry.everything) ?? []).isEmpty, "\(name)")
        withExtendedLifetime(host) {}
    }

    @Test("a hundred thousand nested groups are let go without overflowing the stack")
    func deepChainIsFreed() {
        weak var innermost: CollectionLayoutGroup?
        do {
            let first = CollectionLayoutGroup.horizontal(layoutSize: row, subitems: [half])
            innermost = first
            var group = first
            for _ in 0..<100_000 { group = .vertical(layoutSize: size(.fractionalWidth(1), .fractionalHeight(1)), subitems: [group]) }
            #expect(group.subitems.count == 1)
        }
        #expect(innermost == nil)
        // A group held elsewhere stays whole when the chain around it goes.
        let kept = CollectionLayoutGroup.horizontal(layoutSize: row, subitems: [half, half])
        do {
            _ = CollectionLayoutGroup.vertical(layoutSize: row, subitems: [CollectionLayoutGroup.vertical(layoutSize: row, subitems: [kept])])
        }
        #expect(kept.subitems.count == 2)
    }

    final class Reentrant: NSObject, CollectionViewDataSource, CollectionViewDelegateWaterfallLayout,
        CollectionViewDelegateJustifiedLayout
    {
        /// Counts that change on every question, and a size question that invalidates the layout.
        var questions = 0
        func numberOfSections(in collectionView: CollectionView) -> Int { questions += 1; return questions % 3 + 1 }
        func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int {
            questions += 1
            return (questions * 7) % 50
        }
        func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
            collectionView.dequeueReusableCell(withReuseIdentifier: "c", for: indexPath)
        }
        func collectionView(
            _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
            sizeForItemAt indexPath: IndexPath
        ) -> CGSize {
            collectionViewLayout.invalidateLayout()
            return CGSize(width: 10 + indexPath.item, height: 20)
        }
    }

    final class SelfInvalidatingWaterfall: WaterfallLayout {
        override func prepare() { super.prepare(); invalidateLayout() }
    }
    final class SelfInvalidatingCompositional: CollectionViewCompositionalLayout {
        override func prepare() { invalidateLayout(); super.prepare() }
    }
    final class SelfInvalidatingGrid: GridLayout {
        override func prepare() { super.prepare(); invalidateLayout() }
    }

    @Test("invalidating inside prepare() or a delegate's answer, counts changing on every question: the pass ends, says why")
    func reentrantInvalidation() {
        let layouts: [(CollectionViewLayout, settles: Bool)] = [
            (SelfInvalidatingWaterfall(), false), (SelfInvalidatingGrid(), false),
            (SelfInvalidatingCompositional(section: CollectionLayoutSection(group: .horizontal(layoutSize: row, subitems: [half]))), false),
            (WaterfallLayout(), false), (JustifiedLayout(), false),  // their delegate invalidates
            (GridLayout(), true), (CollectionViewFlowLayout(), true), (CarouselLayout(), true), (CircleLayout(), true),
        ]
        for (layout, settles) in layouts {
            let model = Reentrant()
            let view = CollectionView(frame: CGRect(x: 0, y: 0, width: 375, height: 600), collectionViewLayout: layout)
            view.register(CollectionViewCell.self, forCellWithReuseIdentifier: "c")
            view.dataSource = model
            view.delegate = model
            for step in 0..<4 {
                view.layoutIfNeeded()
                view.contentOffset = CGPoint(x: 0, y: step * 100)
                view.reloadData()
            }
            view.layoutIfNeeded()
            let name = "\(type(of: layout))"
            let unsettled = view.diagnostics.contains { "\($0)".hasPrefix("the layout did not settle after 16 passes") }
            #expect(unsettled == !settles, "\(name): \(view.diagnostics)")
            let elements = layout.layoutAttributesForElements(in: LayoutGeometry.everything) ?? []
            #expect(elements.allSatisfy { $0.frame.minX.isFinite && $0.frame.minY.isFinite && $0.frame.width.isFinite }, "\(name)")
            withExtendedLifetime((view, model)) {}
        }
    }

    @Test("a waterfall delegate answering NaN or negative heights: the item is named, nothing is shown")
    func waterfallNonsenseSizes() {
        for (bad, shown) in [
            (CGSize(width: 10, height: CGFloat.nan), "NaN"), (CGSize(width: 10, height: -3), "-3"),
            (CGSize(width: -.infinity, height: 4), "-infinity"),
        ] {
            let model = SizedModel([(0..<5).map { SizedModel.Item(id: $0, size: CGSize(width: 4, height: 3)) }])
            model.sections[0][3].size = bad
            let layout = WaterfallLayout()
            let view = host(layout, model)
            #expect(
                layout.configurationError?.description.hasPrefix("section 0, item 3: the size is") == true
                    && layout.configurationError?.description.contains(shown) == true, "\(String(describing: layout.configurationError))")
            #expect((layout.layoutAttributesForElements(in: LayoutGeometry.everything) ?? []).isEmpty)
            withExtendedLifetime(view) {}
        }
    }
}
