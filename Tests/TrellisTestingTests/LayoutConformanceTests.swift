import Foundation
import Testing
import TrellisCollectionView
import TrellisTesting

/// Layouts carrying the bugs users report, each found by the conformance check; and layouts
/// without them, which pass.
@Suite("Layout conformance")
struct LayoutConformanceTests {
    static func rules(_ breaches: [LayoutBreach]) -> Set<LayoutBreach.Rule> { Set(breaches.map(\.rule)) }

    @Test("a flow layout with headers and footers, vertical and horizontal, on three sizes: no breach")
    func flowPasses() {
        for direction in [ScrollDirection.vertical, .horizontal] {
            let layout = CollectionViewFlowLayout()
            layout.scrollDirection = direction
            layout.itemSize = CGSize(width: 90, height: 70)
            layout.headerReferenceSize = CGSize(width: 40, height: 40)
            layout.footerReferenceSize = CGSize(width: 20, height: 20)
            layout.sectionInset = EdgeInsets(top: 8, left: 8, bottom: 8, right: 8)
            let host = StaticLayoutHost(layout: layout, itemCounts: [25, 0, 7, 40])
            let breaches = LayoutConformance.check(
                host, sizes: [CGSize(width: 820, height: 1180), CGSize(width: 667, height: 375)],
                registeredKinds: [CollectionView.elementKindSectionHeader, CollectionView.elementKindSectionFooter])
            #expect(breaches.isEmpty, "\(direction): \(breaches)")
        }
    }

    /// What a self-sizing cell of these tests fits: heights from 30 to 110 points by item.
    static func fitting(_ attributes: CollectionViewLayoutAttributes) -> CGSize {
        CGSize(width: attributes.size.width, height: 30 + CGFloat(attributes.indexPath.item % 5) * 20)
    }

    @Test(
        "self-sizing cells: a flow layout with an estimated size passes; a content size kept from the estimates, and a size asked for and never given, are found"
    )
    func selfSizing() {
        let flow = CollectionViewFlowLayout()
        flow.estimatedItemSize = CGSize(width: 100, height: 44)
        flow.minimumLineSpacing = 4
        let flowHost = StaticLayoutHost(layout: flow, itemCounts: [40, 9])
        let flowBreaches = LayoutConformance.check(flowHost, sizes: [CGSize(width: 820, height: 1180)], fitting: Self.fitting)
        #expect(flowBreaches.isEmpty, "\(flowBreaches)")
        // The cells were sized: the first row is the first item's 30 points, not the estimate.
        #expect(flowHost.layoutAttributesForItem(at: IndexPath(item: 0, section: 0))?.size.height == 30)

        let fine = StaticLayoutHost(layout: SelfSizedRows(bug: nil), itemCounts: [40])
        #expect(LayoutConformance.check(fine, fitting: Self.fitting).isEmpty)
        // Without sizing, the estimates agree with themselves: the bug shows only once cells size.
        let stale = StaticLayoutHost(layout: SelfSizedRows(bug: .contentFromEstimates), itemCounts: [40])
        #expect(LayoutConformance.check(stale).isEmpty)
        let found = LayoutConformance.check(stale, fitting: Self.fitting)
        #expect(Self.rules(found) == [.outsideContentSize], "\(found)")
        #expect(found.contains { $0.element == "item [0, 39]" })

        let never = StaticLayoutHost(layout: SelfSizedRows(bug: .neverStores), itemCounts: [40])
        let looping = LayoutConformance.check(never, fitting: Self.fitting)
        #expect(Self.rules(looping) == [.invalidationLoop], "\(looping)")
        #expect(looping.first?.detail.contains("preferred size 375×30 in each of 4 passes and still gives 375×44") == true, "\(looping)")
    }

    @Test("a cache filled once in prepare() keeps attributes for deleted items: found after the data shrinks")
    func staleCache() {
        let layout = CachedOnce()
        let host = StaticLayoutHost(layout: layout, itemCounts: [12])
        #expect(LayoutConformance.check(host).isEmpty)
        host.itemCounts = [5]
        let breaches = LayoutConformance.check(host)
        #expect(Self.rules(breaches).contains(.elementDoesNotExist), "\(breaches)")
        #expect(breaches.contains { $0.element == "item [0, 11]" })
        #expect(breaches.first { $0.rule == .elementDoesNotExist }?.description.contains("the data has 1 sections, with [5] items") == true)
    }

    @Test("a content size that forgets the last row, duplicated headers, a rect query by origin only, a target offset past the end: each named")
    func eachBug() {
        let short = StaticLayoutHost(layout: Rows(bug: .shortContent), itemCounts: [30])
        #expect(Self.rules(LayoutConformance.check(short)) == [.outsideContentSize])

        let twice = StaticLayoutHost(layout: Rows(bug: .headerTwice), itemCounts: [30])
        #expect(Self.rules(LayoutConformance.check(twice)) == [.listedTwice])

        let origins = StaticLayoutHost(layout: Rows(bug: .originsOnly), itemCounts: [30])
        let missing = LayoutConformance.check(origins)
        #expect(Self.rules(missing) == [.missingFromRect], "\(missing)")

        let target = StaticLayoutHost(layout: Rows(bug: .targetPastEnd), itemCounts: [30])
        #expect(Self.rules(LayoutConformance.check(target)) == [.targetOffsetOutOfRange])

        let fine = StaticLayoutHost(layout: Rows(bug: nil), itemCounts: [30])
        #expect(LayoutConformance.check(fine, registeredKinds: ["header"]).isEmpty)
        #expect(Self.rules(LayoutConformance.check(fine, registeredKinds: [])) == [.kindNotRegistered])
    }

    @Test("a subclass that moves super's attributes without copying them: a cached frame mismatch, or queries that disagree")
    func mutatesSuper() {
        // Super keeps its objects: each query moves them again.
        let cached = StaticLayoutHost(layout: ShiftedRows(bug: nil), itemCounts: [20])
        let breaches = LayoutConformance.check(cached, registeredKinds: ["header"])
        #expect(Self.rules(breaches).contains(.mutatedAfterReturn), "\(breaches)")
        #expect(breaches.contains { $0.rule == .mutatedAfterReturn && $0.detail.contains("copy attributes before changing them") })
        // Super makes new objects: the rect query and the item query then disagree.
        let layout = ShiftedFlow()
        layout.itemSize = CGSize(width: 100, height: 100)
        let host = StaticLayoutHost(layout: layout, itemCounts: [20])
        #expect(Self.rules(LayoutConformance.check(host)).contains(.queriesDisagree))
    }

    @Test("a layout that invalidates itself in every pass, one whose frames are not numbers, an unregistered decoration")
    func loopsAndNumbers() {
        let looping = StaticLayoutHost(layout: Rows(bug: .invalidatesInPrepare), itemCounts: [3])
        #expect(Self.rules(LayoutConformance.check(looping)) == [.invalidationLoop])
        let columns = StaticLayoutHost(layout: Rows(bug: .zeroColumns), itemCounts: [3])
        #expect(Self.rules(LayoutConformance.check(columns)) == [.frameNotFinite])
        let decoration = StaticLayoutHost(layout: Rows(bug: .unregisteredDecoration), itemCounts: [3])
        let breaches = LayoutConformance.check(decoration)
        #expect(Self.rules(breaches) == [.kindNotRegistered])
        #expect(breaches.first?.element == "decoration background [0, 0]")
    }
}

/// The tutorial layout whose `prepare()` fills its cache only when it is empty.
final class CachedOnce: CollectionViewLayout {
    private var cache: [CollectionViewLayoutAttributes] = []
    private var height: CGFloat = 0

    override func prepare() {
        guard cache.isEmpty, let collectionView else { return }
        for section in 0..<collectionView.numberOfSections {
            for item in 0..<collectionView.numberOfItems(inSection: section) {
                let a = CollectionViewLayoutAttributes(forCellWith: IndexPath(item: item, section: section))
                a.frame = CGRect(x: 0, y: CGFloat(cache.count) * 50, width: collectionView.bounds.width, height: 50)
                cache.append(a)
            }
        }
        height = CGFloat(cache.count) * 50
    }

    override var collectionViewContentSize: CGSize { CGSize(width: collectionView?.bounds.width ?? 0, height: height) }

    override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
        cache.filter { $0.frame.intersects(rect) }
    }

    override func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        cache.first { $0.indexPath == indexPath }
    }
}

/// Rows of 60 points under a header, with one bug at a time.
class Rows: CollectionViewLayout {
    enum Bug { case shortContent, headerTwice, originsOnly, targetPastEnd, invalidatesInPrepare, zeroColumns, unregisteredDecoration }
    let bug: Bug?
    private var items: [CollectionViewLayoutAttributes] = []
    private var header = CollectionViewLayoutAttributes(forSupplementaryViewOfKind: "header", with: IndexPath(item: 0, section: 0))
    private var background = CollectionViewLayoutAttributes(forDecorationViewOfKind: "background", with: IndexPath(item: 0, section: 0))

    init(bug: Bug?) {
        self.bug = bug
        super.init()
    }

    required init?(coder: NSCoder) { nil }

    override func prepare() {
        guard let collectionView else { return }
        let width = collectionView.bounds.width
        let columns: CGFloat = bug == .zeroColumns ? 0 : 1
        header.frame = CGRect(x: 0, y: 0, width: width, height: 44)
        items = (0..<collectionView.numberOfItems(inSection: 0)).map { item in
            let a = CollectionViewLayoutAttributes(forCellWith: IndexPath(item: item, section: 0))
            a.frame = CGRect(x: 0, y: 44 + CGFloat(item) * 60, width: width / columns, height: 60)
            return a
        }
        background.frame = CGRect(x: 0, y: 0, width: width, height: 44 + CGFloat(items.count) * 60)
        background.zIndex = -1
        if bug == .invalidatesInPrepare { invalidateLayout() }
    }

    override var collectionViewContentSize: CGSize {
        let rows = CGFloat(items.count - (bug == .shortContent ? 1 : 0))
        return CGSize(width: collectionView?.bounds.width ?? 0, height: 44 + rows * 60)
    }

    override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
        var found = items.filter { bug == .originsOnly ? rect.contains($0.frame.origin) : $0.frame.intersects(rect) }
        if header.frame.intersects(rect) { found.append(header) }
        if bug == .headerTwice, header.frame.intersects(rect) { found.append(header) }
        if bug == .unregisteredDecoration, background.frame.intersects(rect) { found.append(background) }
        return found
    }

    override func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        items.indices.contains(indexPath.item) ? items[indexPath.item] : nil
    }

    override func layoutAttributesForSupplementaryView(ofKind elementKind: String, at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        elementKind == "header" ? header : nil
    }

    override func layoutAttributesForDecorationView(ofKind elementKind: String, at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        elementKind == "background" ? background : nil
    }

    override func targetContentOffset(forProposedContentOffset proposedContentOffset: CGPoint, withScrollingVelocity velocity: CGPoint) -> CGPoint {
        bug == .targetPastEnd ? CGPoint(x: proposedContentOffset.x, y: proposedContentOffset.y + 5000) : proposedContentOffset
    }
}

/// Rows of self-sizing cells, 44 points estimated, each one's height taken from its preferred
/// attributes; with one bug at a time: a content size kept from the estimates, or a size asked for
/// and never stored.
final class SelfSizedRows: CollectionViewLayout {
    enum Bug { case contentFromEstimates, neverStores }
    let bug: Bug?
    private var heights: [Int: CGFloat] = [:]
    private var items: [CollectionViewLayoutAttributes] = []

    init(bug: Bug?) {
        self.bug = bug
        super.init()
    }

    required init?(coder: NSCoder) { nil }

    override func prepare() {
        guard let collectionView else { return }
        var y: CGFloat = 0
        items = (0..<collectionView.numberOfItems(inSection: 0)).map { item in
            let a = CollectionViewLayoutAttributes(forCellWith: IndexPath(item: item, section: 0))
            let height = heights[item] ?? 44
            a.frame = CGRect(x: 0, y: y, width: collectionView.bounds.width, height: height)
            y += height
            return a
        }
    }

    override var collectionViewContentSize: CGSize {
        let height = bug == .contentFromEstimates ? CGFloat(items.count) * 44 : items.last?.frame.maxY ?? 0
        return CGSize(width: collectionView?.bounds.width ?? 0, height: height)
    }

    override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
        items.filter { $0.frame.intersects(rect) }
    }

    override func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        items.indices.contains(indexPath.item) ? items[indexPath.item] : nil
    }

    override func shouldInvalidateLayout(
        forPreferredLayoutAttributes preferredAttributes: CollectionViewLayoutAttributes,
        withOriginalAttributes originalAttributes: CollectionViewLayoutAttributes
    ) -> Bool {
        preferredAttributes.size.height != originalAttributes.size.height
    }

    override func invalidationContext(
        forPreferredLayoutAttributes preferredAttributes: CollectionViewLayoutAttributes,
        withOriginalAttributes originalAttributes: CollectionViewLayoutAttributes
    ) -> CollectionViewLayoutInvalidationContext {
        if bug != .neverStores { heights[preferredAttributes.indexPath.item] = preferredAttributes.size.height }
        return super.invalidationContext(forPreferredLayoutAttributes: preferredAttributes, withOriginalAttributes: originalAttributes)
    }
}

/// Rows moved down by 10 points by changing super's objects in place.
final class ShiftedRows: Rows {
    override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
        let attributes = super.layoutAttributesForElements(in: rect)
        for a in attributes ?? [] { a.frame.origin.y += 10 }
        return attributes
    }
}

/// A flow layout moved down by 10 points by changing super's objects in place.
final class ShiftedFlow: CollectionViewFlowLayout {
    override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
        let attributes = super.layoutAttributesForElements(in: rect)
        for a in attributes ?? [] { a.frame.origin.y += 10 }
        return attributes
    }
}
