import TrellisCollectionView

/// Items of varied heights in equal columns, each to the shortest column: the masonry layout,
/// with CHTCollectionViewWaterfallLayout's properties, delegate and numbers.
///
/// ```swift
/// let layout = WaterfallLayout()
/// layout.columnCount = 3
/// layout.minimumColumnSpacing = 8
/// layout.minimumInteritemSpacing = 8
/// layout.sectionInset = EdgeInsets(top: 8, left: 8, bottom: 8, right: 8)
/// collectionView.collectionViewLayout = layout
/// // the delegate adopts CollectionViewDelegateWaterfallLayout and answers each item's size
/// ```
///
/// Every item is as wide as its column and keeps the aspect ratio of the size its delegate gives;
/// ``itemRenderDirection`` picks the column (shortest first, ties to the leftmost, or in turn);
/// a full-span item (the delegate's `isFullSpanItemAt`) goes below the tallest column across all
/// of them. The rules are CHT's, number for number (see ``WaterfallGeometry``), so a delegate
/// written for it gives the same frames here. The layout scrolls vertically, as CHT's does.
///
/// Changing one item's size keeps every other item in its column: invalidate with a context
/// that names the items (`context.invalidateItems(at:)`), and the columns are kept while the
/// heights are recomputed. Any other invalidation (new data, a batch update, a new width, a
/// property) places the items afresh.
///
/// A bad value does not trap: ``configurationError`` says what and where, and the layout shows
/// nothing until it is fixed.
///
/// - Complexity: `prepare()` O(n·c) for n items in c columns (shortest-first scans the columns);
///   a rect query O(log n + k) for k elements (O(c·log n + k) when tops can go up: turn-by-turn
///   directions, items kept in their columns, negative spacing).
open class WaterfallLayout: CollectionViewLayout {
    /// The reference the section insets are measured from (CHT's `SectionInsetReference`).
    public enum SectionInsetReference: Sendable {
        /// The collection view's content inset.
        case fromContentInset
        /// The collection view's layout margins.
        case fromLayoutMargins
        /// The collection view's safe area.
        case fromSafeArea
    }

    /// The direction items fill the columns in (CHT's `ItemRenderDirection`).
    public typealias ItemRenderDirection = WaterfallItemRenderDirection

    /// The number of columns, unless the delegate answers per section. Default 2.
    open var columnCount: Int = WaterfallLayoutDefaults.columnCount {
        didSet { if columnCount != oldValue { invalidateLayout() } }
    }
    /// The spacing between columns. Default 10.
    open var minimumColumnSpacing: CGFloat = WaterfallLayoutDefaults.spacing {
        didSet { if minimumColumnSpacing != oldValue { invalidateLayout() } }
    }
    /// The spacing between items of one column (not between the header or footer and the
    /// columns). Default 10.
    open var minimumInteritemSpacing: CGFloat = WaterfallLayoutDefaults.spacing {
        didSet { if minimumInteritemSpacing != oldValue { invalidateLayout() } }
    }
    /// The height of each section's header; 0 (the default) means none.
    open var headerHeight: CGFloat = 0 {
        didSet { if headerHeight != oldValue { invalidateLayout() } }
    }
    /// The height of each section's footer; 0 (the default) means none.
    open var footerHeight: CGFloat = 0 {
        didSet { if footerHeight != oldValue { invalidateLayout() } }
    }
    /// The margins around each header. Default zero.
    open var headerInset = EdgeInsets.zero {
        didSet { if headerInset != oldValue { invalidateLayout() } }
    }
    /// The margins around each footer. Default zero.
    open var footerInset = EdgeInsets.zero {
        didSet { if footerInset != oldValue { invalidateLayout() } }
    }
    /// The margins around each section's columns. Default zero.
    open var sectionInset = EdgeInsets.zero {
        didSet { if sectionInset != oldValue { invalidateLayout() } }
    }
    /// The order items fill the columns in. Default `.shortestFirst`.
    open var itemRenderDirection = ItemRenderDirection.shortestFirst {
        didSet { if itemRenderDirection != oldValue { invalidateLayout() } }
    }
    /// The least height of the content (so that a header shows with no items). Default 0.
    open var minimumContentHeight: CGFloat = 0 {
        didSet { if minimumContentHeight != oldValue { invalidateLayout() } }
    }
    /// What the section insets are measured from. Default `.fromContentInset`.
    open var sectionInsetReference = SectionInsetReference.fromContentInset {
        didSet { if sectionInsetReference != oldValue { invalidateLayout() } }
    }

    /// Why the last `prepare()` laid out nothing, or `nil` when it succeeded.
    public private(set) var configurationError: LayoutConfigurationError?

    @exclusivity(unchecked) private var geometry = WaterfallGeometry(boundsWidth: 0, referenceWidth: 0, scale: 1)
    private var contentSize = CGSize.zero
    /// Whether every invalidation since the last pass named items only: then the columns stay.
    private var onlyItemsInvalidated = false
    private let recycler = AttributesRecycler()
    /// The one object `forEachLayoutAttributes(in:_:)` hands out, element after element.
    private let elementRecycler = AttributesRecycler()
    /// The hits of a rect query, reused from query to query.
    @exclusivity(unchecked) private var scratch: [Int] = []

    /// The width of each column of `section` (CHT's `itemWidth(inSection:)`).
    open func itemWidth(inSection section: Int) -> CGFloat {
        guard let collectionView else { return 0 }
        let metrics = self.metrics(section, collectionView, collectionView.delegate as? CollectionViewDelegateWaterfallLayout)
        return WaterfallGeometry(
            boundsWidth: collectionView.bounds.width, referenceWidth: referenceWidth(collectionView),
            scale: collectionView.traitCollection.displayScale
        ).itemWidth(metrics)
    }

    /// The column of the item at `indexPath` after the last layout (-1 for a full-span item),
    /// or `nil`.
    open func column(ofItemAt indexPath: IndexPath) -> Int? {
        guard isValid(indexPath) else { return nil }
        return geometry.column(section: indexPath.section, item: indexPath.item)
    }

    /// Bytes held for the last layout, capacity included.
    public var memoryFootprint: Int { geometry.bytes }

    // MARK: The layout pass

    open override func invalidateLayout(with context: CollectionViewLayoutInvalidationContext) {
        let namesItemsOnly =
            !context.invalidateEverything && !context.invalidateDataSourceCounts
            && !(context.invalidatedItemIndexPaths ?? []).isEmpty
        // The first invalidation after a pass decides, later ones can only widen it.
        onlyItemsInvalidated = namesItemsOnly && (onlyItemsInvalidated || !isInvalidated)
        isInvalidated = true
        super.invalidateLayout(with: context)
    }

    private var isInvalidated = true

    open override func prepare() {
        super.prepare()
        let keepColumns = onlyItemsInvalidated
        onlyItemsInvalidated = false
        isInvalidated = false
        let previous = geometry
        configurationError = nil
        guard let collectionView else {
            geometry = WaterfallGeometry(boundsWidth: 0, referenceWidth: 0, scale: 1)
            contentSize = .zero
            return
        }
        do {
            try build(collectionView, keeping: keepColumns ? previous : nil)
        } catch {
            geometry = WaterfallGeometry(boundsWidth: 0, referenceWidth: 0, scale: 1)
            contentSize = .zero
            configurationError = error
        }
    }

    private func referenceWidth(_ collectionView: CollectionView) -> CGFloat {
        let insets: EdgeInsets
        switch sectionInsetReference {
        case .fromContentInset: insets = collectionView.contentInset
        case .fromLayoutMargins: insets = collectionView.layoutMargins
        case .fromSafeArea: insets = collectionView.safeAreaInsets
        }
        return collectionView.bounds.width - insets.left - insets.right
    }

    private func metrics(
        _ section: Int, _ collectionView: CollectionView,
        _ delegate: CollectionViewDelegateWaterfallLayout?
    ) -> WaterfallSectionMetrics {
        guard let delegate else {
            return WaterfallSectionMetrics(
                columnCount: columnCount, columnSpacing: minimumColumnSpacing,
                interitemSpacing: minimumInteritemSpacing, sectionInset: sectionInset,
                headerHeight: headerHeight, headerInset: headerInset,
                footerHeight: footerHeight, footerInset: footerInset)
        }
        return WaterfallSectionMetrics(
            columnCount: delegate.collectionView(collectionView, layout: self, columnCountFor: section),
            columnSpacing: delegate.collectionView(collectionView, layout: self, minimumColumnSpacingFor: section),
            interitemSpacing: delegate.collectionView(collectionView, layout: self, minimumInteritemSpacingFor: section),
            sectionInset: delegate.collectionView(collectionView, layout: self, insetsFor: section),
            headerHeight: delegate.collectionView(collectionView, layout: self, heightForHeaderIn: section),
            headerInset: delegate.collectionView(collectionView, layout: self, insetsForHeaderIn: section),
            footerHeight: delegate.collectionView(collectionView, layout: self, heightForFooterIn: section),
            footerInset: delegate.collectionView(collectionView, layout: self, insetsForFooterIn: section))
    }

    /// Lays every section out; with `previous`, items keep the columns they had there (when the
    /// counts are the same).
    private func build(_ collectionView: CollectionView, keeping previous: WaterfallGeometry?) throws(LayoutConfigurationError) {
        let sections = collectionView.numberOfSections
        let delegate = collectionView.delegate as? CollectionViewDelegateWaterfallLayout
        let counts = (0..<sections).map { collectionView.numberOfItems(inSection: $0) }
        let geometry = WaterfallGeometry(
            boundsWidth: collectionView.bounds.width,
            referenceWidth: referenceWidth(collectionView),
            scale: collectionView.traitCollection.displayScale)
        let keep = previous.flatMap { p in
            p.sectionCount == sections && (0..<sections).allSatisfy { p.count(ofSection: $0) == counts[$0] } ? p : nil
        }
        var itemsFromHere = counts.reduce(0, +)
        for section in 0..<sections {
            let count = counts[section]
            defer { itemsFromHere -= count }
            guard count == 0 || delegate != nil else {
                throw LayoutConfigurationError(
                    section: section,
                    "the collection view's delegate does not adopt "
                        + "CollectionViewDelegateWaterfallLayout, so no item has a size; "
                        + "adopt it and answer sizeForItemAt")
            }
            let metrics = self.metrics(section, collectionView, delegate)
            // The sizes first, then which items span (unless they keep their columns): one
            // question per item each, nothing stored while the sizes are all one.
            var sizes = SizeList()
            var spans: [Int] = []
            let kept = keep.map { $0.columns(ofSection: section) }
            if let delegate, count > 0 {
                if let bulk = delegate.collectionView(collectionView, layout: self, sizesForItemsInSection: section) {
                    guard bulk.count == count else {
                        throw LayoutConfigurationError(
                            section: section,
                            "the delegate gave \(bulk.count) sizes for "
                                + "\(count) items; give one size per item, or nil to be asked "
                                + "item by item")
                    }
                    sizes = SizeList(bulk)
                } else {
                    for item in 0..<count {
                        sizes.append(
                            delegate.collectionView(
                                collectionView, layout: self,
                                sizeForItemAt: IndexPath(item: item, section: section)))
                    }
                }
                if kept == nil {
                    for item in 0..<count
                    where delegate.collectionView(collectionView, layout: self, isFullSpanItemAt: IndexPath(item: item, section: section)) {
                        spans.append(item)
                    }
                }
            }
            try geometry.appendSection(
                metrics, count: count, direction: itemRenderDirection, keeping: kept,
                section: section, sizes: sizes, spans: spans, itemsFromHere: itemsFromHere)
        }
        geometry.seal()
        self.geometry = geometry
        contentSize =
            sections == 0
            ? .zero
            : CGSize(width: collectionView.bounds.width, height: max(geometry.height, minimumContentHeight))
    }

    open override var collectionViewContentSize: CGSize { contentSize }

    open override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool {
        newBounds.width != collectionView?.bounds.width
    }

    // MARK: Queries

    private func isValid(_ indexPath: IndexPath) -> Bool {
        indexPath.count == 2 && indexPath.section >= 0 && indexPath.section < geometry.sectionCount
            && indexPath.item >= 0 && indexPath.item < geometry.count(ofSection: indexPath.section)
    }

    /// Every element whose frame intersects `rect`, section by section: header, items, footer.
    private func elements(in rect: CGRect, _ emit: (LayoutElement) -> Void) {
        let rect = rect.standardized
        guard rect.minY < rect.maxY else { return }
        let geometry = self.geometry
        let frames = geometry.frames
        // Stored items when their tops can go up: every hit, found column by column, in item
        // order (a few per query); otherwise each section walks its items from the first that
        // may reach into the rect.
        let byColumn = !geometry.columnIndex.isEmpty
        scratch.removeAll(keepingCapacity: true)
        if byColumn {
            for c in geometry.columnIndex.indices {
                let list = geometry.columnItems[c], index = geometry.columnIndex[c]
                guard index.minsAreSorted else {
                    for position in index.candidates(from: rect.minY, to: rect.maxY) {
                        let item = Int(list[position])
                        if LayoutGeometry.intersects(frames[item], rect) { scratch.append(item) }
                    }
                    continue
                }
                // A column's items stack downwards: walk from the first that reaches into the rect
                // to the first that starts below it (one search per column, not two).
                var position = index.firstCandidate(reachingPast: rect.minY)
                while position < list.count {
                    let item = Int(list[position])
                    let frame = frames[item]
                    if frame.minY >= rect.maxY { break }
                    if LayoutGeometry.intersects(frame, rect) { scratch.append(item) }
                    position += 1
                }
            }
            scratch.sort()
        }
        var nextHit = 0
        let firstStored = byColumn ? 0 : geometry.itemIndex.firstCandidate(reachingPast: rect.minY)
        for section in geometry.sectionIndex.candidates(from: rect.minY, to: rect.maxY) {
            if let frame = geometry.headers[section], LayoutGeometry.intersects(frame, rect) {
                emit(LayoutElement(.supplementaryView, kind: CollectionView.elementKindSectionHeader, section: section, item: 0, frame: frame))
            }
            let start = geometry.storedStart[section], end = geometry.storedStart[section + 1]
            if let run = geometry.runs[section] {
                run.rows.forEachRow(reaching: rect.minY) { row, top in
                    guard top <= rect.maxY else { return false }
                    let first = row * run.columns
                    for item in first..<min(first + run.columns, run.count) {
                        let frame = run.frame(item, top: top)
                        if LayoutGeometry.intersects(frame, rect) { emit(LayoutElement(.cell, section: section, item: item, frame: frame)) }
                    }
                    return true
                }
            } else if byColumn {
                while nextHit < scratch.count, scratch[nextHit] < start { nextHit += 1 }
                while nextHit < scratch.count, scratch[nextHit] < end {
                    let item = scratch[nextHit]
                    emit(LayoutElement(.cell, section: section, item: item - start, frame: frames[item]))
                    nextHit += 1
                }
            } else {
                // The items start in order: walk from the first that may reach into the rect to
                // the first that starts below it.
                var item = max(firstStored, start)
                while item < end {
                    let frame = frames[item]
                    if frame.minY >= rect.maxY { break }
                    if LayoutGeometry.intersects(frame, rect) { emit(LayoutElement(.cell, section: section, item: item - start, frame: frame)) }
                    item += 1
                }
            }
            if let frame = geometry.footers[section], LayoutGeometry.intersects(frame, rect) {
                emit(LayoutElement(.supplementaryView, kind: CollectionView.elementKindSectionFooter, section: section, item: 0, frame: frame))
            }
        }
    }

    open override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
        layoutAttributes(recycling: recycler) { elements(in: rect, $0) }
    }

    open override func forEachLayoutAttributes(in rect: CGRect, _ body: (CollectionViewLayoutAttributes) -> Void) {
        streamLayoutAttributes(in: rect, walkOf: WaterfallLayout.self, reusing: elementRecycler, to: body) { elements(in: rect, $0) }
    }

    open override func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        guard isValid(indexPath) else { return nil }
        return makeAttributes(
            .cell, nil, indexPath.section, indexPath.item,
            geometry.frame(section: indexPath.section, item: indexPath.item))
    }

    /// Headers and footers, of UIKit's kinds, at `[section, 0]`.
    open override func layoutAttributesForSupplementaryView(
        ofKind elementKind: String,
        at indexPath: IndexPath
    ) -> CollectionViewLayoutAttributes? {
        guard indexPath.count == 2, indexPath.item == 0, geometry.headers.indices.contains(indexPath.section) else { return nil }
        let frame: CGRect?
        switch elementKind {
        case CollectionView.elementKindSectionHeader: frame = geometry.headers[indexPath.section]
        case CollectionView.elementKindSectionFooter: frame = geometry.footers[indexPath.section]
        default: return nil
        }
        return frame.map { makeAttributes(.supplementaryView, elementKind, indexPath.section, 0, $0) }
    }
}

/// CHT's defaults, named once: 2 columns, 10 points between columns and between items — a new
/// layout's, and what a delegate that says nothing of a section answers when its layout is not a
/// waterfall. Not members of the layout class, which a subclass may give members of these names.
enum WaterfallLayoutDefaults {
    static let columnCount = 2
    static let spacing: CGFloat = 10
}
