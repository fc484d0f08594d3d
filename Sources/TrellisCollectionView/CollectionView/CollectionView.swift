import Foundation
import TrellisLayout

/// Identifies one element of a collection view: a cell by index path, a supplementary or
/// decoration view by kind and index path.
public struct ElementID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var category: CollectionElementCategory
    public var kind: String?
    public var section: Int
    public var item: Int

    public init(category: CollectionElementCategory, kind: String?, section: Int, item: Int) {
        self.category = category
        self.kind = kind
        self.section = section
        self.item = item
    }

    /// The identity of the element an attributes value describes.
    public init(_ attributes: CollectionViewLayoutAttributes) {
        self.init(category: attributes.representedElementCategory, kind: attributes.representedElementKind,
                  section: attributes.section, item: attributes.item)
    }

    /// The element's index path.
    public var indexPath: IndexPath { IndexPath(item: item, section: section) }

    /// Cells, the most common elements, hash two integers only: this runs for every element
    /// of every layout pass.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(section &* 1_000_003 &+ item)
        if category != .cell {
            hasher.combine(category)
            hasher.combine(kind)
        }
    }

    /// Cells first, then supplementary and decoration views; by kind, section and item.
    public static func < (a: ElementID, b: ElementID) -> Bool {
        let ra = [CollectionElementCategory.cell, .supplementaryView, .decorationView].firstIndex(of: a.category)!
        let rb = [CollectionElementCategory.cell, .supplementaryView, .decorationView].firstIndex(of: b.category)!
        if ra != rb { return ra < rb }
        if a.kind != b.kind { return (a.kind ?? "") < (b.kind ?? "") }
        return (a.section, a.item) < (b.section, b.item)
    }

    public var description: String {
        "\(kind ?? category.rawValue)[\(section), \(item)]"
    }
}

/// The headless collection view: drives any ``CollectionViewLayout`` the way `UICollectionView`
/// does — layout passes with coalesced invalidation, the visible set with view reuse, batch
/// updates with their transitions, and scrolling — without drawing anything.
///
/// ```swift
/// let layout = FlowLayout()
/// let collectionView = CollectionView(frame: CGRect(x: 0, y: 0, width: 375, height: 667),
///                                     collectionViewLayout: layout)
/// collectionView.register(CollectionViewCell.self, forCellWithReuseIdentifier: "cell")
/// collectionView.dataSource = myDataSource
/// collectionView.layoutIfNeeded()
/// collectionView.indexPathsForVisibleItems  // the items in the viewport, sorted
/// ```
open class CollectionView: CollectionViewLayoutHost {
    /// The scroll direction type, as `UICollectionView.ScrollDirection`.
    public typealias ScrollDirection = TrellisLayout.ScrollDirection
    /// The kind of section headers (`UICollectionView.elementKindSectionHeader`).
    public static let elementKindSectionHeader = CollectionElementKind.sectionHeader
    /// The kind of section footers (`UICollectionView.elementKindSectionFooter`).
    public static let elementKindSectionFooter = CollectionElementKind.sectionFooter

    // MARK: State

    /// The layout. Setting it invalidates everything (use ``setCollectionViewLayout(_:animated:)``
    /// for a transition).
    public var collectionViewLayout: CollectionViewLayout {
        didSet {
            guard collectionViewLayout !== oldValue else { return }
            oldValue.attach(to: nil)
            collectionViewLayout.attach(to: self)
            dropPreparedElements()
        }
    }

    /// Supplies counts and views. Setting it reloads the data.
    public weak var dataSource: CollectionViewDataSource? { didSet { reloadData() } }
    /// The delegate; layouts cast it to their own delegate protocols.
    public weak var delegate: (any CollectionViewDelegate)? {
        didSet {
            displayDelegate = delegate as? CollectionViewDisplayDelegate
            invalidateEverything()
        }
    }
    /// The delegate as a display delegate, cast once: casts are costly on a path run per cell.
    weak var displayDelegate: CollectionViewDisplayDelegate?
    /// Told which items are about to come into view.
    public weak var prefetchDataSource: CollectionViewDataSourcePrefetching?
    /// Whether prefetching is on. Default `true`.
    public var isPrefetchingEnabled = true

    /// The visible rectangle in content coordinates; its origin is the content offset.
    public internal(set) var bounds: CGRect
    /// The content inset.
    public var contentInset: EdgeInsets = .zero { didSet { invalidateEverything() } }
    /// The safe area; added to the content inset when `contentInsetAdjustsForSafeArea`.
    public var safeAreaInsets: EdgeInsets = .zero { didSet { invalidateEverything() } }
    /// Whether the safe area is added to the content inset. Default `false`.
    public var contentInsetAdjustsForSafeArea = false { didSet { invalidateEverything() } }
    /// The layout margins.
    public var layoutMargins: EdgeInsets = .zero { didSet { invalidateEverything() } }
    /// Pixels per point. Default 2.
    public var displayScale: CGFloat = 2 { didSet { invalidateEverything() } }
    /// Whether scrolling stops on multiples of the viewport size.
    public var isPagingEnabled = false
    /// The deceleration rate per millisecond used at the end of a drag (``DecelerationRate``).
    public var decelerationRate: CGFloat = DecelerationRate.normal

    /// The inset applied: the content inset, plus the safe area when it adjusts for it.
    public var adjustedContentInset: EdgeInsets {
        guard contentInsetAdjustsForSafeArea else { return contentInset }
        return EdgeInsets(top: contentInset.top + safeAreaInsets.top, left: contentInset.left + safeAreaInsets.left,
                          bottom: contentInset.bottom + safeAreaInsets.bottom, right: contentInset.right + safeAreaInsets.right)
    }

    /// The content offset (the origin of ``bounds``). Setting it scrolls without animation.
    public var contentOffset: CGPoint {
        get { bounds.origin }
        set { setBounds(CGRect(origin: newValue, size: bounds.size)) }
    }

    /// The content size the layout reported at the last layout pass.
    public internal(set) var contentSize: CGSize = .zero

    let pool = ReusePool()
    var counts: [Int]?
    var visibleViews: [ElementID: CollectionReusableView] = [:]
    var preparedRect: CGRect?
    var preparedElements: [CollectionViewLayoutAttributes] = []
    var preparedGeneration = -1
    var prefetched: Set<IndexPath> = []
    var lastOffset: CGPoint = .zero
    var batchDepth = 0
    var pendingBatch = BatchUpdate()

    /// How many times the layout's `prepare()` ran for this collection view.
    public internal(set) var prepareCount = 0
    /// How many rect queries (`layoutAttributesForElements(in:)`) the collection view made.
    public internal(set) var layoutQueryCount = 0
    /// How many views were created rather than reused.
    public var createdViewCount: Int { pool.created }
    /// The transition of the last animated change, until it is completed.
    public internal(set) var currentTransition: CollectionViewTransition?
    /// Views that are animating out: kept until ``completeTransition()``.
    public internal(set) var disappearingViews: [CollectionReusableView] = []

    /// Creates a collection view with a frame (its size is the viewport) and a layout.
    public init(frame: CGRect, collectionViewLayout layout: CollectionViewLayout) {
        bounds = CGRect(origin: .zero, size: frame.size)
        collectionViewLayout = layout
        layout.attach(to: self)
    }

    // MARK: Counts

    public var numberOfSections: Int {
        loadCountsIfNeeded()
        return counts?.count ?? 0
    }

    public func numberOfItems(inSection section: Int) -> Int {
        loadCountsIfNeeded()
        guard let counts, counts.indices.contains(section) else { return 0 }
        return counts[section]
    }

    /// Asks the data source for its counts; negative answers count as zero.
    func fetchCounts() -> [Int] {
        guard let dataSource else { return [] }
        let sections = max(0, dataSource.numberOfSections(in: self))
        return (0..<sections).map { max(0, dataSource.collectionView(self, numberOfItemsInSection: $0)) }
    }

    func loadCountsIfNeeded() {
        if counts == nil { counts = fetchCounts() }
    }

    // MARK: Registration and reuse

    /// Registers the class of cells dequeued with `identifier`.
    public func register(_ cellClass: CollectionViewCell.Type, forCellWithReuseIdentifier identifier: String) {
        pool.registerCell(cellClass, identifier)
    }

    /// Registers the class of supplementary views of `kind` dequeued with `identifier`.
    public func register(_ viewClass: CollectionReusableView.Type, forSupplementaryViewOfKind kind: String,
                         withReuseIdentifier identifier: String) {
        pool.registerSupplementary(viewClass, kind: kind, identifier)
    }

    /// A cell for `indexPath`: a waiting one of that identifier (after `prepareForReuse()`), or a
    /// new one of the registered class. An unregistered identifier gives a plain
    /// `CollectionViewCell` and is recorded in ``diagnostics`` (UIKit would raise).
    public func dequeueReusableCell(withReuseIdentifier identifier: String, for indexPath: IndexPath) -> CollectionViewCell {
        let (cell, registered) = pool.dequeueCell(identifier)
        if !registered {
            note("could not dequeue a view of kind: cell with identifier \(identifier) - register a class for the identifier")
        }
        return cell
    }

    /// A supplementary view of `kind` for `indexPath`, reused when one waits.
    public func dequeueReusableSupplementaryView(ofKind kind: String, withReuseIdentifier identifier: String,
                                                 for indexPath: IndexPath) -> CollectionReusableView {
        pool.dequeueSupplementary(kind: kind, identifier)
    }

    /// Problems found while running (an unregistered identifier, say), oldest first.
    public private(set) var diagnostics: [String] = []

    func note(_ message: String) {
        if diagnostics.last != message { diagnostics.append(message) }
    }

    // MARK: The layout pass

    /// Runs a layout pass if anything is stale: counts, one `prepare()` for any number of
    /// invalidations, the content size, then the visible set.
    public func layoutIfNeeded() {
        loadCountsIfNeeded()
        // Cells that size themselves change the layout while the visible set is being built;
        // the pass repeats until it settles (each repetition only measures newly shown cells).
        for _ in 0..<16 {
            applyPendingOffsetAdjustment()
            if collectionViewLayout.prepareIfNeeded() { prepareCount += 1 }
            contentSize = collectionViewLayout.collectionViewContentSize
            let generation = collectionViewLayout.preparedGeneration
            updateVisibleSet()
            if generation == collectionViewLayout.preparedGeneration && !collectionViewLayout.needsPrepare { break }
        }
    }

    /// Reloads everything: counts are asked again, the layout is invalidated entirely, every
    /// visible view goes back to the reuse pool and the next pass dequeues anew.
    public func reloadData() {
        counts = nil
        pendingBatch = BatchUpdate()
        currentTransition = nil
        for (id, view) in visibleViews { endDisplaying(id, view) }
        visibleViews = [:]
        invalidateEverything()
    }

    func invalidateEverything() {
        let context = type(of: collectionViewLayout).invalidationContextClass.init()
        context.setHostFlags(everything: true, dataSourceCounts: true)
        collectionViewLayout.invalidateLayout(with: context)
        dropPreparedElements()
    }

    func dropPreparedElements() {
        preparedRect = nil
        preparedElements = []
    }

    private func applyPendingOffsetAdjustment() {
        guard let adjustment = collectionViewLayout.pendingInvalidationContext?.contentOffsetAdjustment,
              adjustment != .zero else { return }
        bounds.origin.x += adjustment.x
        bounds.origin.y += adjustment.y
    }

    /// Moves or resizes the viewport the way a scroll view does: the layout is asked whether
    /// the change invalidates it, and if so its own context is passed to `invalidateLayout(with:)`.
    public func setBounds(_ newBounds: CGRect) {
        guard newBounds != bounds else { return }
        let layout = collectionViewLayout
        if layout.shouldInvalidateLayout(forBoundsChange: newBounds) {
            let context = layout.invalidationContext(forBoundsChange: newBounds)
            bounds = newBounds
            layout.invalidateLayout(with: context)
        } else {
            bounds = newBounds
        }
    }

    /// Changes the viewport size (keeping the offset), as rotating a device does.
    public func setFrameSize(_ size: CGSize) {
        setBounds(CGRect(origin: bounds.origin, size: size))
    }

    // MARK: The visible set

    /// The rect asked of the layout: the viewport extended by half a viewport before and after it
    /// along the scroll axis, so that scrolling within it needs no new query.
    func pageRect(around visible: CGRect) -> CGRect {
        visible.insetBy(dx: -visible.width / 2, dy: -visible.height / 2)
    }

    func elementsInPreparedRect(covering visible: CGRect) -> [CollectionViewLayoutAttributes] {
        let generation = collectionViewLayout.preparedGeneration
        if let rect = preparedRect, generation == preparedGeneration, rect.contains(visible) {
            return preparedElements
        }
        let rect = pageRect(around: visible)
        preparedRect = rect
        preparedGeneration = generation
        layoutQueryCount += 1
        preparedElements = collectionViewLayout.layoutAttributesForElements(in: rect) ?? []
        return preparedElements
    }

    /// The elements whose frames intersect the viewport, as the layout last computed them.
    func visibleElements() -> [CollectionViewLayoutAttributes] {
        let visible = bounds
        return elementsInPreparedRect(covering: visible).filter { LayoutGeometry.intersects($0.frame, visible) }
    }

    func updateVisibleSet() {
        let visible = bounds
        let elements = elementsInPreparedRect(covering: visible)
        // Work on locals: every access to a stored property of a class is checked for
        // exclusivity at run time, and this loop runs for every visible element of every pass.
        var previous = visibleViews
        visibleViews = [:]
        var next: [ElementID: CollectionReusableView] = [:]
        next.reserveCapacity(elements.count)
        let dataSource = self.dataSource
        for attributes in elements where LayoutGeometry.intersects(attributes.frame, visible) {
            let id = ElementID(attributes)
            let view = previous.removeValue(forKey: id) ?? makeView(for: attributes, id: id, dataSource: dataSource)
            if let view {
                if view.applyIfChanged(attributes), id.category == .cell { selfSize(view, attributes) }
                next[id] = view
            }
        }
        for (id, view) in previous { endDisplaying(id, view) }
        visibleViews = next
        prefetch()
        lastOffset = bounds.origin
    }

    /// Asks a cell whose attributes changed for its preferred attributes; when the layout wants
    /// them, the layout is invalidated for that item and prepared at once — an in-place update for
    /// a self-sizing flow layout — and the content offset moves as the layout asks, so that what
    /// is on screen does not jump.
    func selfSize(_ view: CollectionReusableView, _ attributes: CollectionViewLayoutAttributes) {
        let preferred = view.preferredLayoutAttributesFitting(attributes)
        let layout = collectionViewLayout
        guard layout.shouldInvalidateLayout(forPreferredLayoutAttributes: preferred, withOriginalAttributes: attributes),
              preferred != attributes else {
            return
        }
        let context = layout.invalidationContext(forPreferredLayoutAttributes: preferred, withOriginalAttributes: attributes)
        let adjustment = context.contentOffsetAdjustment
        context.contentOffsetAdjustment = .zero
        layout.invalidateLayout(with: context)
        if layout.prepareIfNeeded() { prepareCount += 1 }
        bounds.origin.x += adjustment.x
        bounds.origin.y += adjustment.y
    }

    func makeView(for attributes: CollectionViewLayoutAttributes, id: ElementID,
                  dataSource: CollectionViewDataSource?) -> CollectionReusableView? {
        switch attributes.representedElementCategory {
        case .cell:
            guard let dataSource else { return nil }
            let cell = dataSource.collectionView(self, cellForItemAt: id.indexPath)
            displayDelegate?.collectionView(self, willDisplay: cell, forItemAt: id.indexPath)
            return cell
        case .supplementaryView:
            return dataSource?.collectionView(self, viewForSupplementaryElementOfKind: id.kind ?? "", at: id.indexPath)
        case .decorationView:
            let view = pool.dequeueSupplementary(kind: "decoration:" + (id.kind ?? ""), id.kind ?? "")
            return view
        }
    }

    func endDisplaying(_ id: ElementID, _ view: CollectionReusableView) {
        if id.category == .cell, let displayDelegate, let cell = view as? CollectionViewCell {
            displayDelegate.collectionView(self, didEndDisplaying: cell, forItemAt: id.indexPath)
        }
        let kind: String? = switch id.category {
        case .cell: nil
        case .supplementaryView: id.kind ?? ""
        case .decorationView: "decoration:" + (id.kind ?? "")
        }
        pool.enqueue(view, kind: kind)
    }

    /// Tells the prefetch data source about the cells of the prepared rect that lie ahead of the
    /// viewport in the direction of scrolling.
    func prefetch() {
        guard isPrefetchingEnabled, let prefetchDataSource else { return }
        let visible = bounds
        let dy = visible.minY - lastOffset.y, dx = visible.minX - lastOffset.x
        let ahead = preparedElements.filter { attributes in
            guard attributes.representedElementCategory == .cell,
                  !LayoutGeometry.intersects(attributes.frame, visible) else { return false }
            if dy > 0 || dx > 0 { return attributes.frame.minY >= visible.maxY || attributes.frame.minX >= visible.maxX }
            if dy < 0 || dx < 0 { return attributes.frame.maxY <= visible.minY || attributes.frame.maxX <= visible.minX }
            return attributes.frame.minY >= visible.maxY || attributes.frame.minX >= visible.maxX
        }.map(\.indexPath)
        let new = ahead.filter { !prefetched.contains($0) }
        let stale = prefetched.subtracting(ahead).filter { path in !visibleViews.keys.contains {
            $0.category == .cell && $0.indexPath == path } }
        if !stale.isEmpty { prefetchDataSource.collectionView(self, cancelPrefetchingForItemsAt: stale.sorted()) }
        if !new.isEmpty { prefetchDataSource.collectionView(self, prefetchItemsAt: new) }
        prefetched = Set(ahead)
    }

    // MARK: Reading the visible set

    /// The visible cells, in index-path order.
    public var visibleCells: [CollectionViewCell] {
        visibleViews.filter { $0.key.category == .cell }.sorted { $0.key < $1.key }.compactMap { $0.value as? CollectionViewCell }
    }

    /// The index paths of the visible items, sorted.
    public var indexPathsForVisibleItems: [IndexPath] {
        visibleViews.keys.filter { $0.category == .cell }.map(\.indexPath).sorted()
    }

    /// The visible cell of an item, or `nil` when it is not visible.
    public func cellForItem(at indexPath: IndexPath) -> CollectionViewCell? {
        visibleViews[ElementID(category: .cell, kind: nil, section: indexPath.section, item: indexPath.item)]
            as? CollectionViewCell
    }

    /// The visible supplementary view of `kind` at `indexPath`, if any.
    public func supplementaryView(forElementKind kind: String, at indexPath: IndexPath) -> CollectionReusableView? {
        visibleViews[ElementID(category: .supplementaryView, kind: kind, section: indexPath.section, item: indexPath.item)]
    }

    /// The index paths of visible supplementary views of `kind`, sorted.
    public func indexPathsForVisibleSupplementaryElements(ofKind kind: String) -> [IndexPath] {
        visibleViews.keys.filter { $0.category == .supplementaryView && $0.kind == kind }.map(\.indexPath).sorted()
    }

    /// Every visible element with the attributes last applied to it, sorted by identity.
    public var visibleElementAttributes: [CollectionViewLayoutAttributes] {
        visibleViews.sorted { $0.key < $1.key }.compactMap { $0.value.layoutAttributes }
    }

    /// The attributes of an item, from the layout (after a layout pass if one is due).
    public func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        layoutIfNeeded()
        return collectionViewLayout.layoutAttributesForItem(at: indexPath)
    }

    /// The attributes of a supplementary element, from the layout.
    public func layoutAttributesForSupplementaryElement(ofKind kind: String,
                                                        at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        layoutIfNeeded()
        return collectionViewLayout.layoutAttributesForSupplementaryView(ofKind: kind, at: indexPath)
    }

    /// The item whose frame contains `point` (content coordinates), if any.
    public func indexPathForItem(at point: CGPoint) -> IndexPath? {
        layoutIfNeeded()
        let probe = CGRect(x: point.x - 0.5, y: point.y - 0.5, width: 1, height: 1)
        return (collectionViewLayout.layoutAttributesForElements(in: probe) ?? [])
            .filter { $0.representedElementCategory == .cell && $0.frame.contains(point) }
            .max { $0.zIndex < $1.zIndex }?.indexPath
    }
}
