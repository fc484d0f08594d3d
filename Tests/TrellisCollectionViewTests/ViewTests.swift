import Testing
import TrellisTestSupport

@_spi(Instrumentation) @testable import TrellisCollectionView

private func ip(_ section: Int, _ item: Int) -> IndexPath { IndexPath(item: item, section: section) }

@Suite("Views, scroll views and the collection view as a host")
struct ViewTests {
    @Test("a view's frame is its bounds' size around its center, and the box of its transform")
    func viewGeometry() {
        let view = View(frame: CGRect(x: 10, y: 20, width: 100, height: 50))
        #expect(view.center == CGPoint(x: 60, y: 45) && view.bounds == CGRect(x: 0, y: 0, width: 100, height: 50))
        view.bounds.origin = CGPoint(x: 5, y: 5)
        #expect(view.frame == CGRect(x: 10, y: 20, width: 100, height: 50), "the bounds origin does not move the frame")
        view.transform = CGAffineTransform(scaleX: 2, y: 2)
        #expect(view.frame == CGRect(x: -40, y: -5, width: 200, height: 100))
        view.transform = .identity
        view.frame = CGRect(x: 0, y: 0, width: 30, height: 30)
        #expect(view.center == CGPoint(x: 15, y: 15) && view.bounds.size == CGSize(width: 30, height: 30))
        #expect(View().frame == .zero)
    }

    @Test("views form a tree; a subview reads its superview's traits until it has its own")
    func treeAndTraits() {
        final class Watching: View {
            var changes = 0
            override func traitCollectionDidChange(_ previousTraitCollection: TraitCollection?) { changes += 1 }
        }
        let root = View(frame: .zero), child = Watching(frame: .zero)
        root.addSubview(child)
        #expect(child.superview === root && root.subviews.count == 1 && child.isDescendant(of: root))
        #expect(child.traitCollection.displayScale == 2, "the main screen's scale")
        root.traitCollection = TraitCollection(displayScale: 3, layoutDirection: .rightToLeft)
        #expect(child.traitCollection.displayScale == 3)
        #expect(child.effectiveUserInterfaceLayoutDirection == .rightToLeft)
        child.semanticContentAttribute = .forceLeftToRight
        #expect(child.effectiveUserInterfaceLayoutDirection == .leftToRight)
        child.traitCollection = TraitCollection(displayScale: 1)
        child.traitCollection = TraitCollection(displayScale: 1)
        #expect(child.changes == 1, "only a change of traits is reported")
        child.removeFromSuperview()
        #expect(child.superview == nil && root.subviews.isEmpty)
        let merged = TraitCollection(traitsFrom: [TraitCollection(displayScale: 2), TraitCollection(horizontalSizeClass: .compact)])
        #expect(merged.displayScale == 2 && merged.horizontalSizeClass == .compact)
        #expect(merged.containsTraits(in: TraitCollection(horizontalSizeClass: .compact)))
        #expect(!merged.containsTraits(in: TraitCollection(horizontalSizeClass: .regular)))
    }

    @Test("the safe area adds to the content inset as the adjustment behavior says")
    func adjustedInsets() {
        let scroll = ScrollView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        scroll.contentInset = EdgeInsets(top: 1, left: 1, bottom: 1, right: 1)
        scroll.safeAreaInsets = EdgeInsets(top: 20, left: 30, bottom: 10, right: 30)
        #expect(scroll.adjustedContentInset == EdgeInsets(top: 21, left: 1, bottom: 11, right: 1), "automatic: top and bottom")
        scroll.contentSize = CGSize(width: 500, height: 50)
        #expect(
            scroll.adjustedContentInset == EdgeInsets(top: 21, left: 31, bottom: 11, right: 31),
            "automatic: left and right too once the content scrolls horizontally")
        scroll.contentInsetAdjustmentBehavior = .scrollableAxes
        #expect(scroll.adjustedContentInset == EdgeInsets(top: 1, left: 31, bottom: 1, right: 31))
        scroll.contentInsetAdjustmentBehavior = .never
        #expect(scroll.adjustedContentInset == scroll.contentInset)
        scroll.contentInsetAdjustmentBehavior = .always
        #expect(scroll.adjustedContentInset == EdgeInsets(top: 21, left: 31, bottom: 11, right: 31))
        #expect(ScrollView.DecelerationRate.fast.rawValue == 0.99 && ScrollView.DecelerationRate.normal.rawValue == 0.998)
    }

    @Test("the layout is asked about a bounds change while the bounds still have their old value")
    func boundsAskedBeforeChange() {
        final class Recording: CollectionViewFlowLayout {
            var seen: [(old: CGRect, new: CGRect)] = []
            override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool {
                seen.append((collectionView!.bounds, newBounds))
                return newBounds.size != collectionView!.bounds.size
            }
        }
        let layout = Recording()
        let (view, data) = makeCollectionView([Array(0..<30)], layout: layout)
        defer { withExtendedLifetime(data) {} }
        let prepares = view.prepareCount
        view.contentOffset = CGPoint(x: 0, y: 100)
        view.layoutIfNeeded()
        view.frame.size = CGSize(width: 200, height: 480)
        view.layoutIfNeeded()
        #expect(layout.seen.map(\.old.origin.y) == [0, 100] && layout.seen.map(\.new.origin.y) == [100, 100])
        #expect(layout.seen.last?.old.width == 320 && layout.seen.last?.new.width == 200)
        #expect(view.prepareCount == prepares + 1, "only the size change invalidated")
    }

    @Test("new traits and layout margins invalidate the layout; equal ones do not")
    func traitsInvalidate() {
        let (view, data) = makeCollectionView([Array(0..<10)])
        defer { withExtendedLifetime(data) {} }
        let prepares = view.prepareCount
        view.traitCollection = TraitCollection(displayScale: 3)
        view.layoutIfNeeded()
        #expect(view.prepareCount == prepares + 1)
        view.layoutMargins = view.layoutMargins
        view.layoutIfNeeded()
        #expect(view.prepareCount == prepares + 1)
        view.layoutMargins = EdgeInsets(top: 0, left: 20, bottom: 0, right: 20)
        view.layoutIfNeeded()
        #expect(view.prepareCount == prepares + 2)
    }

    @Test("the delegate hears scrolling, and may move a drag's target through the pointer")
    func scrollDelegate() {
        final class Listener: NSObject, CollectionViewDelegate {
            var calls: [String] = []
            func scrollViewDidScroll(_ scrollView: ScrollView) { calls.append("scroll") }
            func scrollViewWillBeginDragging(_ scrollView: ScrollView) { calls.append("begin") }
            func scrollViewWillEndDragging(
                _ scrollView: ScrollView, withVelocity velocity: CGPoint,
                targetContentOffset: UnsafeMutablePointer<CGPoint>
            ) {
                calls.append("willEnd")
                targetContentOffset.pointee = CGPoint(x: 0, y: 330)
            }
            func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {
                calls.append("didEnd \(decelerate)")
            }
            func scrollViewDidEndDecelerating(_ scrollView: ScrollView) { calls.append("stopped") }
        }
        let (view, data) = makeCollectionView([Array(0..<300)])
        defer { withExtendedLifetime(data) {} }
        let listener = Listener()
        view.delegate = listener
        let target = view.endDragging(withVelocity: CGPoint(x: 0, y: 1))
        #expect(target == CGPoint(x: 0, y: 330) && view.contentOffset == target)
        #expect(listener.calls == ["begin", "willEnd", "didEnd true", "scroll", "stopped"])
    }

    @Test("registration takes UIKit's AnyClass: nil forgets, a class that is no cell is refused with a note")
    func registration() {
        final class Badge: CollectionViewCell {}
        let (view, data) = makeCollectionView([[1]])
        defer { withExtendedLifetime(data) {} }
        view.register(Badge.self, forCellWithReuseIdentifier: "badge")
        #expect(view.dequeueReusableCell(withReuseIdentifier: "badge", for: ip(0, 0)) is Badge)
        view.register(nil, forCellWithReuseIdentifier: "badge")
        #expect(!(view.dequeueReusableCell(withReuseIdentifier: "badge", for: ip(0, 0)) is Badge))
        view.register(NSObject.self, forCellWithReuseIdentifier: "odd")
        #expect(view.diagnostics.last == .notACellClass("NSObject"))
        #expect(view.diagnostics.last?.description == "NSObject is not a CollectionViewCell subclass; it cannot be registered for cells")
    }

    @Test("a data source's nonsense counts are clamped and noted, never trusted")
    func nonsenseCounts() {
        final class Nonsense: NSObject, CollectionViewDataSource {
            func numberOfSections(in collectionView: CollectionView) -> Int { 3 }
            func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int {
                [-5, Int.max, 2][section]
            }
            func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
                collectionView.dequeueReusableCell(withReuseIdentifier: "cell", for: indexPath)
            }
        }
        let layout = CollectionViewFlowLayout()
        let view = CollectionView(frame: CGRect(x: 0, y: 0, width: 320, height: 480), collectionViewLayout: layout)
        view.register(CollectionViewCell.self, forCellWithReuseIdentifier: "cell")
        let source = Nonsense()
        view.dataSource = source
        view.layoutIfNeeded()
        #expect(view.numberOfItems(inSection: 0) == 0 && view.numberOfItems(inSection: 1) == CollectionView.maximumItemCount)
        #expect(view.diagnostics.contains(.countOutOfRange(reported: -5, what: "items in section 0", counted: 0)))
        #expect(view.diagnostics.contains { $0.description == "the data source reported -5 items in section 0; counting 0" })
        #expect(view.layoutAttributesForItem(at: ip(1, CollectionView.maximumItemCount - 1)) != nil)
        #expect(view.layoutAttributesForItem(at: ip(1, CollectionView.maximumItemCount)) == nil)
        #expect(view.layoutAttributesForItem(at: ip(-1, 0)) == nil && view.layoutAttributesForItem(at: ip(0, -1)) == nil)
        #expect(view.indexPathForItem(at: CGPoint(x: CGFloat.nan, y: 0)) == nil)
    }

    @Test("a layout's registered decoration class is what the collection view creates for it")
    func decorationViews() {
        final class Stripe: CollectionReusableView {}
        final class Striped: CollectionViewFlowLayout {
            override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
                let stripe = CollectionViewLayoutAttributes(forDecorationViewOfKind: "stripe", with: IndexPath(item: 0, section: 0))
                stripe.frame = CGRect(x: 0, y: 0, width: 320, height: 5)
                return (super.layoutAttributesForElements(in: rect) ?? []) + [stripe]
            }
        }
        let layout = Striped()
        layout.register(Stripe.self, forDecorationViewOfKind: "stripe")
        let (view, data) = makeCollectionView([[1, 2]], layout: layout)
        defer { withExtendedLifetime(data) {} }
        let decorations = view.visibleViews.filter { $0.key.category == .decorationView }
        #expect(decorations.count == 1 && decorations.first?.value is Stripe)
    }
}

/// A layout with a header above every section at the one-index path `[0]` — which UIKit allows
/// and parallax or sticky header layouts use — beside the flow layout's own section header at
/// `[0, 0]` of the same kind.
final class GlobalHeaderLayout: CollectionViewFlowLayout {
    static let global = IndexPath(index: 0)

    override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
        var all = super.layoutAttributesForElements(in: rect) ?? []
        if let header = layoutAttributesForSupplementaryView(ofKind: CollectionView.elementKindSectionHeader, at: Self.global),
            header.frame.intersects(rect)
        {
            all.append(header)
        }
        return all
    }

    override func layoutAttributesForSupplementaryView(ofKind elementKind: String, at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        guard indexPath.count == 1 else { return super.layoutAttributesForSupplementaryView(ofKind: elementKind, at: indexPath) }
        let attributes = CollectionViewLayoutAttributes(forSupplementaryViewOfKind: elementKind, with: indexPath)
        attributes.frame = CGRect(x: 0, y: 0, width: 320, height: 30)
        attributes.zIndex = 10
        return attributes
    }
}

final class HeaderSource: CollectionViewDataSource {
    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { 4 }
    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
        collectionView.dequeueReusableCell(withReuseIdentifier: "cell", for: indexPath)
    }
    func collectionView(
        _ collectionView: CollectionView, viewForSupplementaryElementOfKind kind: String,
        at indexPath: IndexPath
    ) -> CollectionReusableView {
        collectionView.dequeueReusableSupplementaryView(ofKind: kind, withReuseIdentifier: "header", for: indexPath)
    }
}

@Suite("One-index index paths")
@MainActor
struct OneIndexPathTests {
    @Test("a supplementary view at [0] is its own element: found at [0], apart from the one at [0, 0] of the same kind")
    func oneIndexSupplementary() {
        let layout = GlobalHeaderLayout()
        layout.itemSize = CGSize(width: 100, height: 100)
        layout.headerReferenceSize = CGSize(width: 0, height: 50)
        let view = CollectionView(frame: CGRect(x: 0, y: 0, width: 320, height: 480), collectionViewLayout: layout)
        view.register(CollectionViewCell.self, forCellWithReuseIdentifier: "cell")
        view.register(
            CollectionReusableView.self, forSupplementaryViewOfKind: CollectionView.elementKindSectionHeader,
            withReuseIdentifier: "header")
        let source = HeaderSource()
        view.dataSource = source
        view.layoutIfNeeded()
        let kind = CollectionView.elementKindSectionHeader
        let global = view.supplementaryView(forElementKind: kind, at: IndexPath(index: 0))
        let section = view.supplementaryView(forElementKind: kind, at: IndexPath(item: 0, section: 0))
        #expect(global?.frame == CGRect(x: 0, y: 0, width: 320, height: 30))
        #expect(section?.frame == CGRect(x: 0, y: 0, width: 320, height: 50))
        #expect(global !== section && view.visibleSupplementaryViews(ofKind: kind).count == 2)
        #expect(ElementID(category: .supplementaryView, kind: kind, indexPath: IndexPath(index: 0)).indexPath == IndexPath(index: 0))
        #expect(ElementID(category: .supplementaryView, kind: kind, indexPath: IndexPath(index: 0)).description == "\(kind)[0]")
        #expect(view.indexPathsForVisibleSupplementaryElements(ofKind: kind).sorted() == [IndexPath(index: 0), IndexPath(item: 0, section: 0)])
    }
}
