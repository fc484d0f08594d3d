import Testing

@_spi(Instrumentation) @testable import TrellisCollectionView

/// The base class's defaults and the lazy-invalidation protocol of the layout pass.
@Suite("Layout lifecycle")
struct LayoutLifecycleTests {
    /// Counts calls and records the contexts it is invalidated with.
    final class CountingLayout: CollectionViewLayout {
        var prepareCount = 0
        var contexts: [CollectionViewLayoutInvalidationContext] = []
        var queriedDuringPrepare: [CollectionViewLayoutAttributes]?
        var seenDuringPrepare: CollectionViewLayoutInvalidationContext?

        override func prepare() {
            super.prepare()
            prepareCount += 1
            seenDuringPrepare = invalidationContextBeingPrepared
            queriedDuringPrepare = layoutAttributesForElements(in: CGRect(x: 0, y: 0, width: 10, height: 10))
        }

        override func invalidateLayout(with context: CollectionViewLayoutInvalidationContext) {
            contexts.append(context)
            super.invalidateLayout(with: context)
        }

        override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
            prepareIfNeeded()
            return []
        }
    }

    @Test("the base class answers with UIKit's defaults")
    func baseDefaults() {
        let layout = CollectionViewLayout()
        let path = IndexPath(item: 0, section: 0)
        #expect(layout.collectionView == nil)
        #expect(layout.collectionViewContentSize == .zero)
        #expect(layout.layoutAttributesForElements(in: CGRect(x: 0, y: 0, width: 100, height: 100)) == nil)
        #expect(layout.layoutAttributesForItem(at: path) == nil)
        #expect(layout.layoutAttributesForSupplementaryView(ofKind: CollectionElementKindSectionHeader, at: path) == nil)
        #expect(layout.layoutAttributesForDecorationView(ofKind: "background", at: path) == nil)
        #expect(!layout.shouldInvalidateLayout(forBoundsChange: CGRect(x: 0, y: 0, width: 1, height: 1)))
        let context = layout.invalidationContext(forBoundsChange: .zero)
        #expect(type(of: context) == CollectionViewLayoutInvalidationContext.self)
        #expect(!context.invalidateEverything && !context.invalidateDataSourceCounts)
        #expect(layout.initialLayoutAttributesForAppearingItem(at: path) == nil)
        #expect(layout.finalLayoutAttributesForDisappearingItem(at: path) == nil)
        #expect(layout.initialLayoutAttributesForAppearingSupplementaryElement(ofKind: "k", at: path) == nil)
        #expect(layout.finalLayoutAttributesForDisappearingSupplementaryElement(ofKind: "k", at: path) == nil)
        #expect(layout.initialLayoutAttributesForAppearingDecorationElement(ofKind: "k", at: path) == nil)
        #expect(layout.finalLayoutAttributesForDisappearingDecorationElement(ofKind: "k", at: path) == nil)
        #expect(layout.indexPathsToInsertForSupplementaryView(ofKind: "k").isEmpty)
        #expect(layout.indexPathsToDeleteForSupplementaryView(ofKind: "k").isEmpty)
        #expect(layout.indexPathsToInsertForDecorationView(ofKind: "k").isEmpty)
        #expect(layout.indexPathsToDeleteForDecorationView(ofKind: "k").isEmpty)
        let proposed = CGPoint(x: 12, y: 345)
        #expect(layout.targetContentOffset(forProposedContentOffset: proposed) == proposed)
        #expect(
            layout.targetContentOffset(
                forProposedContentOffset: proposed,
                withScrollingVelocity: CGPoint(x: 0, y: 3)) == proposed)
        let attributes = CollectionViewLayoutAttributes(forCellWith: path)
        attributes.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        let preferred = attributes.copy() as! CollectionViewLayoutAttributes
        preferred.size = CGSize(width: 20, height: 20)
        #expect(!layout.shouldInvalidateLayout(forPreferredLayoutAttributes: preferred, withOriginalAttributes: attributes))
        let sizing = layout.invalidationContext(forPreferredLayoutAttributes: preferred, withOriginalAttributes: attributes)
        #expect(sizing.invalidatedItemIndexPaths == [path])
        // The update and transition hooks exist and do nothing by default.
        layout.prepare(forCollectionViewUpdates: [CollectionViewUpdateItem(action: .insert, before: nil, after: path)])
        layout.finalizeCollectionViewUpdates()
        layout.prepare(forAnimatedBoundsChange: .zero)
        layout.finalizeAnimatedBoundsChange()
        layout.prepareForTransition(to: CollectionViewLayout())
        layout.prepareForTransition(from: CollectionViewLayout())
        layout.finalizeLayoutTransition()
        #expect(layout.needsPrepare)
    }

    @Test("invalidating any number of times causes exactly one prepare at the next layout pass")
    func invalidationCoalesces() {
        let layout = CountingLayout()
        let host = StaticLayoutHost(layout: layout, itemCounts: [3])
        host.layoutIfNeeded()
        #expect(layout.prepareCount == 1)
        for _ in 0..<25 { layout.invalidateLayout() }
        #expect(layout.prepareCount == 1, "invalidateLayout() must only mark the layout dirty")
        host.layoutIfNeeded()
        host.layoutIfNeeded()
        #expect(layout.prepareCount == 2)
        host.layoutIfNeeded()
        #expect(layout.prepareCount == 2)
    }

    @Test("the first query after an invalidation runs the pending prepare, and a query inside prepare does not recurse")
    func firstQueryPrepares() {
        let layout = CountingLayout()
        _ = StaticLayoutHost(layout: layout, itemCounts: [1])
        layout.invalidateLayout()
        layout.invalidateLayout()
        _ = layout.layoutAttributesForElements(in: .zero)
        _ = layout.layoutAttributesForElements(in: .zero)
        #expect(layout.prepareCount == 1)
        #expect(layout.queriedDuringPrepare == [])
    }

    @Test("invalidateLayout() goes through invalidateLayout(with:) with a fresh context that sets no flags")
    func invalidateUsesFreshContext() {
        let layout = CountingLayout()
        layout.invalidateLayout()
        layout.invalidateLayout()
        #expect(layout.contexts.count == 2)
        #expect(layout.contexts[0] !== layout.contexts[1])
        #expect(layout.contexts.allSatisfy { !$0.invalidateEverything && !$0.invalidateDataSourceCounts })
    }

    @Test("attaching to a host and host changes invalidate everything and the counts")
    func hostInvalidatesEverything() {
        let layout = CountingLayout()
        let host = StaticLayoutHost(layout: layout, itemCounts: [1])
        #expect(layout.contexts.last?.invalidateEverything == true)
        #expect(layout.collectionView === host.collectionView)
        host.layoutIfNeeded()
        #expect(layout.seenDuringPrepare?.invalidateEverything == true)
        #expect(layout.invalidationContextBeingPrepared == nil)
        host.itemCounts = [4]
        #expect(layout.pendingInvalidationContext?.invalidateDataSourceCounts == true)
        host.layoutIfNeeded()
        #expect(layout.pendingInvalidationContext == nil)
    }

    @Test("merged contexts keep index paths once, in first order, and sum the adjustments")
    func contextMerging() {
        let layout = CountingLayout()
        _ = StaticLayoutHost(layout: layout, itemCounts: [10])
        _ = layout.layoutAttributesForElements(in: .zero)
        let a = CollectionViewLayoutInvalidationContext()
        a.invalidateItems(at: [IndexPath(item: 3, section: 0), IndexPath(item: 1, section: 0)])
        a.invalidateSupplementaryElements(ofKind: CollectionElementKindSectionHeader, at: [IndexPath(item: 0, section: 0)])
        a.contentOffsetAdjustment = CGPoint(x: 0, y: 10)
        let b = CollectionViewLayoutInvalidationContext()
        b.invalidateItems(at: [IndexPath(item: 1, section: 0), IndexPath(item: 7, section: 0), IndexPath(item: 3, section: 0)])
        b.invalidateSupplementaryElements(
            ofKind: CollectionElementKindSectionHeader,
            at: [IndexPath(item: 0, section: 0), IndexPath(item: 0, section: 2)])
        b.invalidateDecorationElements(ofKind: "background", at: [IndexPath(item: 0, section: 1)])
        b.contentOffsetAdjustment = CGPoint(x: 2, y: -4)
        b.contentSizeAdjustment = CGSize(width: 0, height: 30)
        layout.invalidateLayout(with: a)
        layout.invalidateLayout(with: b)
        let pending = layout.pendingInvalidationContext
        #expect(
            pending?.invalidatedItemIndexPaths == [
                IndexPath(item: 3, section: 0), IndexPath(item: 1, section: 0),
                IndexPath(item: 7, section: 0),
            ])
        #expect(
            pending?.invalidatedSupplementaryIndexPaths?[CollectionElementKindSectionHeader]
                == [IndexPath(item: 0, section: 0), IndexPath(item: 0, section: 2)])
        #expect(pending?.invalidatedDecorationIndexPaths?["background"] == [IndexPath(item: 0, section: 1)])
        #expect(pending?.contentOffsetAdjustment == CGPoint(x: 2, y: 6))
        #expect(pending?.contentSizeAdjustment == CGSize(width: 0, height: 30))
        #expect(pending?.invalidateEverything == false)
    }

    @Test("a flow layout's contexts carry its own flags, merged by or")
    func flowContextFlags() {
        let layout = CollectionViewFlowLayout()
        _ = StaticLayoutHost(layout: layout, itemCounts: [1])
        _ = layout.collectionViewContentSize
        let context = CollectionViewFlowLayoutInvalidationContext()
        #expect(context.invalidateFlowLayoutDelegateMetrics && context.invalidateFlowLayoutAttributes)
        context.invalidateFlowLayoutDelegateMetrics = false
        layout.invalidateLayout(with: context)
        let pending = layout.pendingInvalidationContext as? CollectionViewFlowLayoutInvalidationContext
        #expect(pending?.invalidateFlowLayoutDelegateMetrics == false)
        #expect(pending?.invalidateFlowLayoutAttributes == true)
        layout.invalidateLayout()
        #expect(pending?.invalidateFlowLayoutDelegateMetrics == true)
        #expect(type(of: layout.invalidationContext(forBoundsChange: .zero)) == CollectionViewFlowLayoutInvalidationContext.self)
    }

    @Test("the host asks the layout on every bounds change and passes its context along")
    func boundsChangeProtocol() {
        final class Eager: CollectionViewLayout {
            var asked: [CGRect] = []
            override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool {
                asked.append(newBounds)
                return newBounds.minY > 100
            }
            override func invalidationContext(forBoundsChange newBounds: CGRect) -> CollectionViewLayoutInvalidationContext {
                let context = super.invalidationContext(forBoundsChange: newBounds)
                context.invalidateSupplementaryElements(
                    ofKind: CollectionElementKindSectionHeader,
                    at: [IndexPath(item: 0, section: 0)])
                return context
            }
        }
        let layout = Eager()
        let host = StaticLayoutHost(layout: layout, itemCounts: [1])
        host.layoutIfNeeded()
        host.setBounds(CGRect(x: 0, y: 50, width: 375, height: 667))
        #expect(!layout.needsPrepare)
        host.setBounds(CGRect(x: 0, y: 150, width: 375, height: 667))
        #expect(layout.needsPrepare)
        #expect(
            layout.pendingInvalidationContext?.invalidatedSupplementaryIndexPaths?[CollectionElementKindSectionHeader]
                == [IndexPath(item: 0, section: 0)])
        #expect(layout.asked.map(\.minY) == [50, 150])
        #expect(host.collectionView.contentOffset == CGPoint(x: 0, y: 150))
    }

    @Test("update items report their paths and whether they are section operations")
    func updateItems() {
        let move = CollectionViewUpdateItem(
            action: .move, before: IndexPath(item: 2, section: 0),
            after: IndexPath(item: 0, section: 1))
        #expect(move.description == "move [0, 2] -> [1, 0]")
        #expect(!move.isSectionOperation)
        let deleteSection = CollectionViewUpdateItem(action: .delete, before: IndexPath(index: 3), after: nil)
        #expect(deleteSection.isSectionOperation)
        #expect(deleteSection.indexPathAfterUpdate == nil)
    }
}

extension LayoutLifecycleTests {
    @Test("swapping a host's layout detaches the old one and attaches the new one")
    func swappingLayouts() {
        let first = CollectionViewFlowLayout(), second = CollectionViewFlowLayout()
        let host = StaticLayoutHost(layout: first, itemCounts: [2])
        host.layout = second
        #expect(first.collectionView == nil)
        #expect(second.collectionView === host.collectionView)
        #expect(host.layoutAttributesForItem(at: IndexPath(item: 1, section: 0)) != nil)
    }
}
