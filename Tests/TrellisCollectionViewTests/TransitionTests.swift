import Testing
import TrellisLayouts

@_spi(Instrumentation) @testable import TrellisCollectionView

private func ip(_ section: Int, _ item: Int) -> IndexPath { IndexPath(item: item, section: section) }
private func cell(_ item: Int) -> ElementID { ElementID(category: .cell, kind: nil, section: 0, item: item) }

/// Records the order in which the layout's update hooks are called.
final class RecordingCircleLayout: CircleLayout {
    var calls: [String] = []
    override func prepare() { calls.append("prepare"); super.prepare() }
    override func prepare(forCollectionViewUpdates updateItems: [CollectionViewUpdateItem]) {
        calls.append("prepareForUpdates \(updateItems.map(\.description))")
        super.prepare(forCollectionViewUpdates: updateItems)
    }
    override func initialLayoutAttributesForAppearingItem(at itemIndexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        calls.append("initial \(itemIndexPath.item)")
        return super.initialLayoutAttributesForAppearingItem(at: itemIndexPath)
    }
    override func finalLayoutAttributesForDisappearingItem(at itemIndexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        calls.append("final \(itemIndexPath.item)")
        return super.finalLayoutAttributesForDisappearingItem(at: itemIndexPath)
    }
    override func finalizeCollectionViewUpdates() { calls.append("finalize"); super.finalizeCollectionViewUpdates() }
}

@Suite("Transitions")
struct TransitionTests {
    @Test("the seed's circle layout: an inserted cell grows out of the centre from alpha 0")
    func circleInsert() throws {
        let layout = RecordingCircleLayout()
        let (view, data) = makeCollectionView([[1, 2, 3]], width: 400, height: 400, layout: layout)
        defer { withExtendedLifetime(data) {} }
        data.sections[0].append(4)
        layout.calls = []
        view.insertItems(at: [ip(0, 3)])
        let transition = try #require(view.currentTransition)
        let inserted = try #require(transition.element(after: cell(3)))
        #expect(inserted.role == .appearing)
        #expect(inserted.from.center == CGPoint(x: 200, y: 200))
        #expect(inserted.from.alpha == 0)
        #expect(Transform3DEqualToTransform(inserted.from.transform3D, Transform3DMakeScale(0.1, 0.1, 1)))
        #expect(inserted.to == view.layoutAttributesForItem(at: ip(0, 3)))
        // The existing cells move around the circle to make room.
        let moved = try #require(transition.element(before: cell(1)))
        #expect(moved.role == .moving && moved.from != moved.to)
        // Halfway, the new cell is half faded in and partly grown.
        let middle = inserted.attributes(atProgress: 0.5)
        #expect(middle.alpha == 0.5)
        #expect(middle.transform3D.m11 > 0.1 && middle.transform3D.m11 < 1)
        #expect(layout.calls == ["prepare", "prepareForUpdates [\"insert nil -> [0, 3]\"]", "initial 3", "finalize"])
    }

    @Test("the seed's note: the hook is asked for every appearing cell, and only inserted ones grow from the centre")
    func onlyInsertedFromCentre() throws {
        /// A flow layout with the circle layout's insert animation and a log of the hook's calls.
        final class GrowingFlowLayout: CollectionViewFlowLayout {
            var inserted = Set<IndexPath>()
            var asked: [Int] = []
            override func prepare(forCollectionViewUpdates updateItems: [CollectionViewUpdateItem]) {
                super.prepare(forCollectionViewUpdates: updateItems)
                inserted = Set(updateItems.filter { $0.updateAction == .insert }.compactMap(\.indexPathAfterUpdate))
            }
            override func initialLayoutAttributesForAppearingItem(at itemIndexPath: IndexPath) -> CollectionViewLayoutAttributes? {
                asked.append(itemIndexPath.item)
                let attributes = super.initialLayoutAttributesForAppearingItem(at: itemIndexPath)
                if inserted.contains(itemIndexPath) {
                    attributes?.alpha = 0
                    attributes?.center = CGPoint(x: 160, y: 240)
                }
                return attributes
            }
        }
        let layout = GrowingFlowLayout()
        layout.itemSize = CGSize(width: 100, height: 100)
        let (view, data) = makeCollectionView([Array(0..<60)], layout: layout)
        defer { withExtendedLifetime(data) {} }
        // Scrolled so that row 2 (items 6–8) is just above the viewport.
        view.contentOffset = CGPoint(x: 0, y: 330)
        view.layoutIfNeeded()
        // One insert above the viewport, one inside it.
        data.sections[0].insert(1000, at: 3)
        data.sections[0].insert(1001, at: 13)
        view.insertItems(at: [ip(0, 3), ip(0, 13)])
        let transition = try #require(view.currentTransition)
        let inserted = try #require(transition.element(after: cell(13)))
        #expect(inserted.role == .appearing && inserted.before == nil)
        #expect(inserted.from.center == CGPoint(x: 160, y: 240) && inserted.from.alpha == 0)
        // Old item 8, just above the viewport, is pushed to index 9 at the start of the first
        // visible row: it appears without being inserted, and comes from where it was.
        let pushedIn = try #require(transition.element(after: cell(9)))
        #expect(pushedIn.role == .appearing && pushedIn.before == cell(8))
        #expect(layout.asked.contains(9), "the hook is asked for appearing items that were not inserted")
        #expect(pushedIn.from.frame == CGRect(x: 220, y: 220, width: 100, height: 100) && pushedIn.from.alpha == 1)
        for element in transition.elements where element.role == .appearing && element.after != cell(13) {
            #expect(element.from.center != CGPoint(x: 160, y: 240), "\(element.after!) was not inserted")
        }
    }

    @Test("the seed's circle layout: a deleted cell shrinks into the centre and fades")
    func circleDelete() throws {
        let layout = CircleLayout()
        let (view, data) = makeCollectionView([[1, 2, 3, 4]], width: 400, height: 400, layout: layout)
        defer { withExtendedLifetime(data) {} }
        let before = try #require(view.layoutAttributesForItem(at: ip(0, 2)))
        data.sections[0].remove(at: 2)
        view.deleteItems(at: [ip(0, 2)])
        let transition = try #require(view.currentTransition)
        let deleted = try #require(transition.element(before: cell(2)))
        #expect(deleted.role == .disappearing && deleted.after == nil)
        #expect(deleted.from == before)
        #expect(deleted.to.center == CGPoint(x: 200, y: 200) && deleted.to.alpha == 0)
        #expect(transition.attributes(at: 1).count == 3, "a finished transition no longer shows the deleted cell")
        #expect(transition.attributes(at: 0).count == 4)
        #expect(view.disappearingViews.count == 1)
        view.completeTransition()
        #expect(view.disappearingViews.isEmpty && view.currentTransition == nil)
    }

    @Test("without hooks, inserted and deleted cells fade at their place; reloads fade out and in, not move")
    func defaultFade() throws {
        let (view, data) = makeCollectionView([Array(0..<6)])
        defer { withExtendedLifetime(data) {} }
        data.sections[0].remove(at: 1)
        data.sections[0].insert(50, at: 4)
        let transition = try view.applyBatchUpdates {
            view.deleteItems(at: [ip(0, 1)])
            view.insertItems(at: [ip(0, 4)])
            view.reloadItems(at: [ip(0, 0)])
        }
        let deleted = try #require(transition.element(before: cell(1)))
        #expect(deleted.to.frame == deleted.from.frame && deleted.to.alpha == 0)
        let inserted = try #require(transition.element(after: cell(4)))
        #expect(inserted.from.frame == inserted.to.frame && inserted.from.alpha == 0)
        let reloadedOut = try #require(transition.element(before: cell(0)))
        #expect(reloadedOut.role == .disappearing)
        let reloadedIn = try #require(transition.element(after: cell(0)))
        #expect(reloadedIn.role == .appearing && reloadedIn.before == nil)
        let shifted = try #require(transition.element(before: cell(2)))
        #expect(shifted.after == cell(1) && shifted.role == .moving)
    }

    @Test(
        "easing curves follow CSS's cubic Béziers",
        arguments: [
            (Easing.linear, 0.25, 0.25), (.easeInOut, 0.5, 0.5), (.easeIn, 0.5, 0.3153568), (.easeOut, 0.5, 0.6846432),
            (.cubicBezier(0.25, 0.1, 0.25, 1), 0.5, 0.8024033), (.easeInOut, 0, 0), (.easeInOut, 1, 1), (.easeIn, -1, 0), (.easeIn, 3, 1),
        ])
    func easing(curve: Easing, t: Double, expected: Double) {
        #expect(abs(curve.progress(at: t) - expected) < 1e-6)
    }

    @Test("changing the layout animates every element from the old layout's place to the new one's")
    func layoutChange() throws {
        let (view, data) = makeCollectionView([Array(0..<6)], width: 400, height: 400)
        defer { withExtendedLifetime(data) {} }
        let old = view.visibleElementAttributes
        let circle = CircleLayout()
        view.setCollectionViewLayout(circle, animated: true)
        let transition = try #require(view.currentTransition)
        #expect(transition.elements.count == 6 && transition.elements.allSatisfy { $0.role == .moving })
        #expect(transition.elements.map(\.from) == old)
        #expect(transition.elements.map(\.to) == view.visibleElementAttributes)
        #expect(circle.collectionView === view)
    }

    @Test("an animated resize moves every element from its old place to its new one")
    func animatedBoundsChange() throws {
        let (view, data) = makeCollectionView([Array(0..<30)], width: 320, height: 300)
        defer { withExtendedLifetime(data) {} }
        let before = Dictionary(uniqueKeysWithValues: view.visibleElementAttributes.map { (ElementID($0), $0.frame) })
        let transition = view.setBounds(CGRect(x: 0, y: 0, width: 220, height: 300), animated: true)
        #expect(transition.elements.contains { $0.role == .moving && $0.from.frame != $0.to.frame })
        // Items 6–8 (the third row of three) are pushed out of view: they slide to their new
        // places (the fourth row of two), as everything else does, rather than fading.
        let leaving = transition.elements.filter { !view.indexPathsForVisibleItems.contains(($0.after ?? cell(-1)).indexPath) }
        #expect(leaving.compactMap(\.before).map(\.item) == [6, 7, 8])
        for element in transition.elements {
            let id = try #require(element.before)
            #expect(element.role == .moving && element.from.frame == before[id] && element.to.alpha == 1)
            #expect(element.to.frame == view.collectionViewLayout.layoutAttributesForItem(at: id.indexPath)?.frame)
        }
        #expect(view.disappearingViews.count == 3, "the views of items pushed out stay until the animation ends")
        #expect(view.indexPathsForVisibleItems.count == 6)
    }
}

extension TransitionTests {
    @Test("an animated reload moves what keeps its index path and fades what comes or goes")
    func animatedReload() {
        let (view, data) = makeCollectionView([Array(0..<8)])
        defer { withExtendedLifetime(data) {} }
        data.sections[0] = Array(0..<4)
        let transition = view.reloadData(animated: true)
        #expect(transition.elements.filter { $0.role == .moving }.compactMap(\.after).map(\.item) == [0, 1, 2, 3])
        let gone = transition.elements.filter { $0.role == .disappearing }
        #expect(gone.compactMap(\.before).map(\.item) == [4, 5, 6, 7])
        #expect(gone.allSatisfy { $0.to.alpha == 0 && $0.to.frame == $0.from.frame })
        #expect(view.indexPathsForVisibleItems.count == 4)
        view.completeTransition()
        #expect(view.disappearingViews.isEmpty)
    }
}
