import Foundation
import Testing
import TrellisCollectionView
import TrellisTesting

/// Seeded batch updates through a collection view: a sound layout passes them; a layout with an
/// update bug fails, shrunk to the few steps that show it, as Swift that replays it.
@Suite("Layout update fuzzing")
struct LayoutUpdateFuzzerTests {
    static func flow() -> CollectionViewLayout {
        let layout = CollectionViewFlowLayout()
        layout.itemSize = CGSize(width: 80, height: 80)
        layout.headerReferenceSize = CGSize(width: 0, height: 30)
        return layout
    }

    @Test("a flow layout with headers keeps the rules through 40 random updates of items and sections", arguments: [1, 2, 3] as [UInt64])
    func flowPasses(seed: UInt64) {
        let failure = LayoutUpdateFuzzer.run(seed: seed, initialCounts: [6, 0, 11], layout: Self.flow)
        #expect(failure == nil, "\(failure.map { "\($0)\n\($0.swiftCode(layout: "flow()"))" } ?? "")")
    }

    @Test("a cache filled once is found after the first update that removes an item, shrunk to that step, replayed by the code printed")
    func staleCacheShrinks() throws {
        let failure = try #require(LayoutUpdateFuzzer.run(seed: 11, steps: 60, initialCounts: [8, 5], layout: { CachedOnce() }))
        #expect(failure.breaches.contains { $0.rule == .elementDoesNotExist || $0.rule == .missingFromRect || $0.rule == .queriesDisagree })
        #expect(failure.steps.count <= 2, "\(failure)")
        #expect(failure.originalLength >= failure.steps.count)
        // The steps replay to the same breaches; the code says them.
        #expect(LayoutUpdateFuzzer.replay(failure.steps, initialCounts: failure.initialCounts, layout: { CachedOnce() }) == failure.breaches)
        let code = failure.swiftCode(layout: "CachedOnce()")
        #expect(code.hasPrefix("let breaches = LayoutUpdateFuzzer.replay(\n    [\n        ."))
        #expect(code.contains("initialCounts: [8, 5], layout: { CachedOnce() })"))
        // The same seed, the same failure.
        #expect(LayoutUpdateFuzzer.run(seed: 11, steps: 60, initialCounts: [8, 5], layout: { CachedOnce() })?.steps == failure.steps)
    }

    @Test("a bug that needs several updates to show (a section emptied) is shrunk to the steps that empty it")
    func shrinksToTheCause() throws {
        let failure = try #require(LayoutUpdateFuzzer.run(seed: 2, steps: 60, initialCounts: [3, 4], layout: { ShareOfSection() }))
        #expect(failure.breaches.map(\.rule).contains(.frameNotFinite), "\(failure)")
        #expect(failure.steps.count < failure.originalLength, "\(failure)")
        #expect(LayoutUpdateFuzzer.replay(failure.steps, initialCounts: [3, 4], layout: { ShareOfSection() }) == failure.breaches)
        // Each step left out, the rest no longer breaks a rule: nothing is left to take away.
        for k in failure.steps.indices {
            var fewer = failure.steps
            fewer.remove(at: k)
            #expect(LayoutUpdateFuzzer.replay(fewer, initialCounts: [3, 4], layout: { ShareOfSection() }).allSatisfy { $0.rule == .batchRefused })
        }
    }

    @Test("a diffable snapshot step applies the difference from the data as it is then: replayed, it reorders, removes and adds")
    func snapshotStep() throws {
        let steps: [LayoutUpdateStep] = [
            .deleteItem(IndexPath(item: 0, section: 0)),
            .applySnapshot(sections: [1, 0], items: [[4, 9], [3, 2, 1]]),
        ]
        #expect(LayoutUpdateFuzzer.replay(steps, initialCounts: [3, 2], layout: Self.flow).isEmpty)
        #expect("\(steps[1])" == ".applySnapshot(sections: [1, 0], items: [[4, 9], [3, 2, 1]])")
        // A section the snapshot inserts holds its items (the data's count, which the batch does
        // not list): no section of ShareOfSection is left empty.
        #expect(
            LayoutUpdateFuzzer.replay(
                [.applySnapshot(sections: [2, 1], items: [[10, 11, 12], [13, 8]])], initialCounts: [3, 4], layout: { ShareOfSection() }
            ).isEmpty)
        // The cache filled once shows the stale rows after a snapshot too.
        let stale = LayoutUpdateFuzzer.replay([steps[1]], initialCounts: [3, 2], layout: { CachedOnce() })
        #expect(!stale.isEmpty)
    }

    @Test("a replayed step that does not fit the data is the collection view's refusal, with UIKit's reason")
    func invalidBatch() {
        let breaches = LayoutUpdateFuzzer.replay(
            [.insertItem(IndexPath(item: 0, section: 0)), .deleteItem(IndexPath(item: 9, section: 0))], initialCounts: [3], layout: Self.flow)
        #expect(breaches.map(\.rule) == [.batchRefused], "\(breaches)")
        #expect(breaches.first?.context == ".deleteItem(IndexPath(item: 9, section: 0)) on [4] items")
        #expect(breaches.first?.detail.isEmpty == false)
    }

    @Test("an appearing item's initial attributes that are not numbers: found in the update's animation")
    func appearingNaN() throws {
        let steps: [LayoutUpdateStep] = [.insertItem(IndexPath(item: 0, section: 0))]
        let breaches = LayoutUpdateFuzzer.replay(steps, initialCounts: [3], layout: { NaNAppearing() })
        #expect(breaches.map(\.rule) == [.frameNotFinite], "\(breaches)")
        #expect(breaches.first?.detail.contains("its animation's start (appearing)") == true, "\(breaches)")
        #expect(breaches.first?.context == "after .insertItem(IndexPath(item: 0, section: 0))")
    }
}

/// Rows whose height is a share of the section's 300 points: a section emptied divides by zero.
final class ShareOfSection: CollectionViewLayout {
    private var cache: [CollectionViewLayoutAttributes] = []
    private var height: CGFloat = 0

    override func prepare() {
        cache = []
        guard let collectionView else { return }
        var y: CGFloat = 0
        for section in 0..<collectionView.numberOfSections {
            let count = collectionView.numberOfItems(inSection: section)
            let share = 300 / CGFloat(count)
            // The section's band: an empty one is as tall as its share, not a number.
            let band = CollectionViewLayoutAttributes(forDecorationViewOfKind: "band", with: IndexPath(item: 0, section: section))
            band.frame = CGRect(x: 0, y: y, width: 100, height: share * CGFloat(max(count, 1)))
            cache.append(band)
            for item in 0..<count {
                let a = CollectionViewLayoutAttributes(forCellWith: IndexPath(item: item, section: section))
                a.frame = CGRect(x: 0, y: y + CGFloat(item) * share, width: 100, height: share)
                cache.append(a)
            }
            y += 300
        }
        height = y
    }

    override init() {
        super.init()
        register(CollectionReusableView.self, forDecorationViewOfKind: "band")
    }

    required init?(coder: NSCoder) { nil }

    override var collectionViewContentSize: CGSize { CGSize(width: 100, height: height) }

    override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
        cache.filter { !$0.frame.height.isFinite || $0.frame.intersects(rect) }
    }

    override func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        cache.first { $0.representedElementCategory == .cell && $0.indexPath == indexPath }
    }

    override func layoutAttributesForDecorationView(ofKind elementKind: String, at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        cache.first { $0.representedElementCategory == .decorationView && $0.indexPath == indexPath }
    }
}

/// A flow layout whose appearing items start from a frame that is not a number.
final class NaNAppearing: CollectionViewFlowLayout {
    override init() {
        super.init()
        itemSize = CGSize(width: 50, height: 50)
    }

    required init?(coder: NSCoder) { nil }

    override func initialLayoutAttributesForAppearingItem(at itemIndexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        let a = super.initialLayoutAttributesForAppearingItem(at: itemIndexPath)?.copy() as? CollectionViewLayoutAttributes
        a?.frame = CGRect(x: CGFloat.nan, y: 0, width: 50, height: 50)
        return a
    }
}
