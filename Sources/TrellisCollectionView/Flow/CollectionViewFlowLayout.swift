import Foundation

/// The line-breaking layout (`UICollectionViewFlowLayout`): items flow into lines across the
/// scroll axis, lines follow each other along it, each section with its own insets, spacing,
/// header and footer. `FlowLayout` is a shorter name for the same class.
///
/// ```swift
/// let layout = FlowLayout()
/// layout.itemSize = CGSize(width: 100, height: 60)
/// layout.sectionInset = EdgeInsets(top: 8, left: 16, bottom: 8, right: 16)
/// let host = StaticLayoutHost(layout: layout, itemCounts: [7])
/// host.contentSize                                                  // (375.0, 216.0)
/// host.layoutAttributesForItem(at: IndexPath(item: 3, section: 0))?.frame  // (16.0, 78.0, 100.0, 60.0)
/// ```
///
/// Every rule it follows is in `Documentation/FlowLayout.md`. Values come from the properties
/// or, per section and per item, from a ``CollectionViewDelegateFlowLayout`` delegate of the host.
///
/// It is built to be subclassed the way UIKit's flow layout is: override
/// ``layoutAttributesForElements(in:)`` and the per-element methods, call `super`, then add
/// supplementary or decoration views, adjust what `super` returned, or set custom attributes
/// (in an attributes subclass named by `layoutAttributesClass`).
///
/// - Complexity: ``prepare()`` is O(number of items with delegate-provided sizes) and O(1) per
///   section of equal-sized items; rect queries are O(log n + k).
open class CollectionViewFlowLayout: CollectionViewLayout {
    /// How section insets are measured (`UICollectionViewFlowLayout.SectionInsetReference`).
    public enum SectionInsetReference: Int, Hashable, Sendable, CaseIterable {
        /// From the edges of the content, inside the content inset (the default).
        case fromContentInset = 0
        /// From the safe area of the collection view.
        case fromSafeArea = 1
        /// From the layout margins of the collection view.
        case fromLayoutMargins = 2
    }

    /// The size of each item when the delegate does not give one. Default 50 × 50.
    open var itemSize = CGSize(width: 50, height: 50) {
        didSet { if itemSize != oldValue { invalidateLayout() } }
    }
    /// The minimum spacing between lines. Default 10.
    open var minimumLineSpacing: CGFloat = FlowLayoutDefaults.spacing {
        didSet { if minimumLineSpacing != oldValue { invalidateLayout() } }
    }
    /// The minimum spacing between items on one line. Default 10.
    open var minimumInteritemSpacing: CGFloat = FlowLayoutDefaults.spacing {
        didSet { if minimumInteritemSpacing != oldValue { invalidateLayout() } }
    }
    /// The inset around each section's items (not around headers and footers). Default zero.
    open var sectionInset = EdgeInsets.zero {
        didSet { if sectionInset != oldValue { invalidateLayout() } }
    }
    /// The size of each section header; only the extent along the scroll axis is used, and zero
    /// there means no header. Default zero.
    open var headerReferenceSize = CGSize.zero {
        didSet { if headerReferenceSize != oldValue { invalidateLayout() } }
    }
    /// The size of each section footer, as ``headerReferenceSize``. Default zero.
    open var footerReferenceSize = CGSize.zero {
        didSet { if footerReferenceSize != oldValue { invalidateLayout() } }
    }
    /// The scroll direction. Default vertical.
    open var scrollDirection: CollectionView.ScrollDirection = .vertical {
        didSet { if scrollDirection != oldValue { invalidateLayout() } }
    }
    /// What section insets are measured from. Default `.fromContentInset`.
    open var sectionInsetReference = SectionInsetReference.fromContentInset {
        didSet { if sectionInsetReference != oldValue { invalidateLayout() } }
    }
    /// Whether section headers stick to the top of the visible bounds while their section
    /// scrolls by. Default `false`.
    open var sectionHeadersPinToVisibleBounds = false {
        didSet { if sectionHeadersPinToVisibleBounds != oldValue { invalidateLayout() } }
    }
    /// Whether section footers stick to the bottom of the visible bounds. Default `false`.
    open var sectionFootersPinToVisibleBounds = false {
        didSet { if sectionFootersPinToVisibleBounds != oldValue { invalidateLayout() } }
    }

    /// The size unmeasured items are laid out at while cells report their real size
    /// (self-sizing). Zero, the default, turns self-sizing off; ``automaticSize`` uses `itemSize`
    /// as the estimate.
    open var estimatedItemSize = CGSize.zero {
        didSet { if estimatedItemSize != oldValue { invalidateLayout() } }
    }

    /// The value of ``estimatedItemSize`` that asks for self-sizing with `itemSize` as the estimate
    /// (`UICollectionViewFlowLayout.automaticSize`).
    public static let automaticSize = CGSize(width: CGFloat.greatestFiniteMagnitude, height: CGFloat.greatestFiniteMagnitude)

    /// Sizes that cells reported (output coordinates), by index path. They are kept across
    /// scrolling and resizing, and dropped when the data changes (counts or a reload), after which
    /// visible cells report again.
    package private(set) var measuredSizes: [IndexPath: CGSize] = [:]

    /// Whether cells size themselves.
    package var isSelfSizing: Bool { estimatedItemSize != .zero }

    /// How many times ``prepare()`` recomputed the geometry (a prepare for a scroll that only
    /// moves pinned headers and footers does not, nor one that applies measured sizes in place).
    @_spi(Instrumentation) public private(set) var geometryComputationCount = 0

    /// How many measured sizes were applied in place, without a full recomputation.
    @_spi(Instrumentation) public private(set) var incrementalUpdateCount = 0

    /// The geometry computed by the last ``prepare()``.
    @_spi(Instrumentation) public private(set) var flowGeometry = CollectionViewFlowLayout.emptyGeometry

    static var emptyGeometry: FlowGeometry {
        FlowGeometry.Builder(scrollDirection: .vertical, crossSize: 0, displayScale: 2).finish()
    }

    /// The bounds the last ``prepare()`` used: a bounds change across the scroll axis invalidates.
    package private(set) var preparedBounds: CGRect = .zero

    /// Reuses the objects of earlier queries that no one holds any more.
    private let recycler = AttributesRecycler()
    /// The one object `forEachLayoutAttributes(in:_:)` hands out, element after element.
    private let streamRecycler = AttributesRecycler()

    /// Set by the delegate's default `sizeForItemAt`, so the layout can tell an implemented method
    /// from the default and keep equal-sized sections free of per-item work.
    var delegateAnsweredWithDefault = false

    /// Creates a flow layout with UIKit's defaults.
    public override init() { super.init() }

    /// Creates a flow layout with UIKit's defaults (nothing is archived).
    public required init?(coder: NSCoder) { super.init(coder: coder) }

    open override class var invalidationContextClass: AnyClass {
        CollectionViewFlowLayoutInvalidationContext.self
    }

    /// `true`, as UIKit's flow layout: in a right-to-left collection view lines run from the right.
    open override var flipsHorizontallyInOppositeLayoutDirection: Bool { true }

    /// Computes every section's geometry: gathers the metrics and sizes (from the delegate where
    /// it answers, from the properties otherwise), transposes them for horizontal scrolling, and
    /// runs the flow rules. Sizes that are negative or not finite count as zero, as do spacings
    /// and insets that are not finite (negative spacing and insets are allowed).
    open override func prepare() {
        super.prepare()
        if let context = fastPathContext {
            let paths = context.invalidatedItemIndexPaths ?? []
            if paths.isEmpty { return }  // only pinned elements moved
            if applyMeasuredSizesInPlace(paths) { return }  // self-sizing, in place
        }
        if let context = invalidationContextBeingPrepared,
            context.invalidateEverything || context.invalidateDataSourceCounts
        {
            measuredSizes = [:]
        }
        geometryComputationCount += 1
        guard let host = collectionView else {
            flowGeometry = FlowGeometry.Builder(scrollDirection: scrollDirection, crossSize: 0, displayScale: 2).finish()
            return
        }
        let bounds = host.bounds
        preparedBounds = bounds
        let inset = host.adjustedContentInset
        let crossSize = max(0, Self.clean(axis.breadth(bounds.size) - axis.crossInsets(inset)))
        let reference = referenceInsets(host)
        let delegate = host.delegate as? CollectionViewDelegateFlowLayout
        let sectionCount = max(0, host.numberOfSections)
        var gathered: [(FlowSectionMetrics, SectionSizes)] = []
        gathered.reserveCapacity(sectionCount)
        var variedItems = 0
        for section in 0..<sectionCount {
            let metrics = sectionMetrics(section, host: host, delegate: delegate, reference: reference)
            let sizes = itemSizes(section, host: host, delegate: delegate)
            switch sizes {
            case .varied(let list), .measured(let list): variedItems += list.count
            case .uniform: break
            }
            gathered.append((metrics, sizes))
        }
        // The old geometry's storage is reused when nothing else holds it (a caller may have
        // kept a copy of `flowGeometry`, whose frames must not change under it).
        var old: FlowStorage? = flowGeometry.storage
        flowGeometry = Self.emptyGeometry
        let recyclable = isKnownUniquelyReferenced(&old)
        var builder = FlowGeometry.Builder(
            scrollDirection: scrollDirection, crossSize: crossSize,
            displayScale: host.traitCollection.displayScale, reservingItems: variedItems,
            recycling: recyclable ? old : nil)
        old = nil
        for (metrics, sizes) in gathered {
            switch sizes {
            case .uniform(let size, let count): builder.appendSection(metrics, itemSize: size, count: count)
            case .varied(let list):
                // Sizes are cleaned (and transposed) as the builder reads them, without a copy.
                builder.appendSection(metrics, itemSizes: list, transposed: scrollDirection == .horizontal)
            case .measured(let list):
                builder.appendSection(
                    metrics, itemSizes: list, transposed: scrollDirection == .horizontal,
                    detectUniform: false)
            }
        }
        flowGeometry = builder.finish()
    }

    /// The context of the pass being prepared when it asks for no recomputation: a scroll that
    /// moves pinned elements (their frames follow the bounds at query time) or cells that reported
    /// their sizes (applied in place). `nil` when the geometry must be computed again.
    private var fastPathContext: CollectionViewFlowLayoutInvalidationContext? {
        guard geometryComputationCount > 0,
            let context = invalidationContextBeingPrepared as? CollectionViewFlowLayoutInvalidationContext,
            !context.invalidateEverything, !context.invalidateDataSourceCounts,
            !context.invalidateFlowLayoutDelegateMetrics, !context.invalidateFlowLayoutAttributes
        else {
            return nil
        }
        return context
    }

    /// Applies measured sizes to the geometry one item at a time; `false` when one of them
    /// changes where lines break (the caller then recomputes everything).
    private func applyMeasuredSizesInPlace(_ paths: [IndexPath]) -> Bool {
        let transpose = scrollDirection == .horizontal
        for path in paths {
            guard let measured = measuredSizes[path] else { continue }
            let size = Self.clean(transpose ? LayoutGeometry.transposed(measured) : measured)
            guard flowGeometry.resizeItem(section: path.section, item: path.item, to: size) != nil else { return false }
            incrementalUpdateCount += 1
        }
        return true
    }

    /// The scroll axis, for code that lays out either direction.
    private var axis: ScrollAxis { ScrollAxis(scrollDirection) }

    /// Where pinned headers and footers stick now, in the scroll frame; `nil` without pinning.
    package var pinning: FlowGeometry.Pinning? {
        guard sectionHeadersPinToVisibleBounds || sectionFootersPinToVisibleBounds, let host = collectionView else {
            return nil
        }
        let bounds = host.bounds, inset = host.adjustedContentInset
        return FlowGeometry.Pinning(
            headers: sectionHeadersPinToVisibleBounds, footers: sectionFootersPinToVisibleBounds,
            visibleMin: axis.minimum(bounds) + axis.leading(inset),
            visibleMax: axis.maximum(bounds) - axis.trailing(inset))
    }

    open override var collectionViewContentSize: CGSize {
        prepareIfNeeded()
        return flowGeometry.contentSize
    }

    open override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
        prepareIfNeeded()
        return flowGeometry.layoutAttributes(in: rect, pinning: pinning, class: attributesClass, recycler: recycler)
    }

    /// A cell's frame straight from the geometry, for the plain flow layout (a subclass may
    /// answer otherwise, and is asked).
    package override func plainFrame(of id: ElementID) -> CGRect?? {
        guard type(of: self) == CollectionViewFlowLayout.self, id.category == .cell, id.kind == nil,
            id.section != ElementID.noIndex, id.item != ElementID.noIndex
        else { return nil }
        prepareIfNeeded()
        return .some(flowGeometry.itemFrame(section: id.section, item: id.item))
    }

    /// Mirrored, the plain flow layout makes each object at its mirrored place (a subclass, which
    /// may change what a rect query answers, is asked and its answer mirrored).
    package override func mirroredLayoutAttributesForElements(
        in rect: CGRect, across width: CGFloat,
        recycler: AttributesRecycler
    ) -> [CollectionViewLayoutAttributes] {
        guard type(of: self) == CollectionViewFlowLayout.self else {
            return super.mirroredLayoutAttributesForElements(in: rect, across: width, recycler: recycler)
        }
        prepareIfNeeded()
        let r = rect.standardized
        return flowGeometry.layoutAttributes(
            in: CGRect(x: width - r.maxX, y: r.minY, width: r.width, height: r.height),
            pinning: pinning, class: attributesClass, recycler: self.recycler, mirrorAcross: width)
    }

    /// The class whose rect queries are the flow layout's own: a built-in subclass that leaves them
    /// as they are (the carousel) names itself when it is made, so that it streams too; a subclass
    /// of that class is still asked through its own rect query.
    package var flowWalkClass: AnyClass = CollectionViewFlowLayout.self

    /// Streams the elements straight from the geometry through one reused object — unless a
    /// subclass may have changed what a rect query answers, in which case it asks that.
    open override func forEachLayoutAttributes(in rect: CGRect, _ body: (CollectionViewLayoutAttributes) -> Void) {
        streamLayoutAttributes(in: rect, walkOf: flowWalkClass, reusing: streamRecycler, to: body) { emit in
            prepareIfNeeded()
            let pinning = self.pinning
            flowGeometry.forEachElement(in: rect, pinning: pinning) { category, kind, section, item, frame in
                let pinned =
                    category == .supplementaryView
                    && pinning.map {
                        ($0.headers && kind == CollectionView.elementKindSectionHeader)
                            || ($0.footers && kind == CollectionView.elementKindSectionFooter)
                    } == true
                emit(
                    LayoutElement(
                        category, kind: kind, section: section, item: item, frame: frame,
                        zIndex: pinned ? FlowGeometry.pinnedZIndex : 0))
            }
        }
    }

    open override func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        prepareIfNeeded()
        guard indexPath.count == 2,
            let frame = flowGeometry.itemFrame(section: indexPath.section, item: indexPath.item)
        else { return nil }
        let attributes = attributesClass.init(category: .cell, kind: nil, section: indexPath.section, item: indexPath.item)
        attributes.frame = frame
        return attributes
    }

    /// Section headers and footers exist at `[section, 0]` when their reference size is non-zero
    /// along the scroll axis.
    open override func layoutAttributesForSupplementaryView(
        ofKind elementKind: String,
        at indexPath: IndexPath
    ) -> CollectionViewLayoutAttributes? {
        prepareIfNeeded()
        guard indexPath.count == 2, indexPath.item == 0 else { return nil }
        let frame: CGRect?, pinned: Bool
        let pinning = self.pinning
        switch elementKind {
        case CollectionView.elementKindSectionHeader:
            frame = flowGeometry.headerFrame(section: indexPath.section, pinning: pinning)
            pinned = sectionHeadersPinToVisibleBounds
        case CollectionView.elementKindSectionFooter:
            frame = flowGeometry.footerFrame(section: indexPath.section, pinning: pinning)
            pinned = sectionFootersPinToVisibleBounds
        default: return nil
        }
        return frame.map {
            let attributes = attributesClass.init(
                category: .supplementaryView, kind: elementKind,
                section: indexPath.section, item: 0)
            attributes.frame = $0
            if pinned { attributes.zIndex = FlowGeometry.pinnedZIndex }
            return attributes
        }
    }

    // MARK: Animating updates

    /// Where an appearing item starts: UIKit's flow layout animates what an update changes. An
    /// item that was there before the update starts where it was (a copy of its attributes then);
    /// an inserted or reloaded one starts at its new place with alpha 0 (a fade in). Outside an
    /// update (an animated bounds change or a change of layouts) the answer is `nil`, as the base
    /// class gives. A subclass calls `super` and adjusts the copy it gets.
    open override func initialLayoutAttributesForAppearingItem(at itemIndexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        guard itemIndexPath.count == 2 else { return nil }
        return appearing(ElementID(category: .cell, kind: nil, indexPath: itemIndexPath)) {
            layoutAttributesForItem(at: $0.indexPath)
        }
    }

    /// Where a disappearing item ends: a deleted or reloaded one at its old place with alpha 0 (a
    /// fade out); one that moved away at its new place (a copy of its attributes after the
    /// update). `nil` outside an update.
    open override func finalLayoutAttributesForDisappearingItem(at itemIndexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        guard itemIndexPath.count == 2 else { return nil }
        return disappearing(ElementID(category: .cell, kind: nil, indexPath: itemIndexPath)) {
            layoutAttributesForItem(at: $0.indexPath)
        }
    }

    /// Headers and footers follow the rules of items, by section: those of an inserted section
    /// fade in, those of a section that stays start where they were.
    open override func initialLayoutAttributesForAppearingSupplementaryElement(
        ofKind elementKind: String,
        at elementIndexPath: IndexPath
    )
        -> CollectionViewLayoutAttributes?
    {
        guard elementIndexPath.count == 2 else { return nil }
        let id = ElementID(category: .supplementaryView, kind: elementKind, indexPath: elementIndexPath)
        return appearing(id) { layoutAttributesForSupplementaryView(ofKind: elementKind, at: $0.indexPath) }
    }

    /// Headers and footers of a deleted section fade out; those of a section that stays end at
    /// their new place.
    open override func finalLayoutAttributesForDisappearingSupplementaryElement(
        ofKind elementKind: String,
        at elementIndexPath: IndexPath
    )
        -> CollectionViewLayoutAttributes?
    {
        guard elementIndexPath.count == 2 else { return nil }
        let id = ElementID(category: .supplementaryView, kind: elementKind, indexPath: elementIndexPath)
        return disappearing(id) { layoutAttributesForSupplementaryView(ofKind: elementKind, at: $0.indexPath) }
    }

    /// Decoration views a subclass adds follow the same rules, through its
    /// `layoutAttributesForDecorationView(ofKind:at:)`.
    open override func initialLayoutAttributesForAppearingDecorationElement(
        ofKind elementKind: String,
        at decorationIndexPath: IndexPath
    )
        -> CollectionViewLayoutAttributes?
    {
        guard decorationIndexPath.count == 2 else { return nil }
        let id = ElementID(category: .decorationView, kind: elementKind, indexPath: decorationIndexPath)
        return appearing(id) { layoutAttributesForDecorationView(ofKind: elementKind, at: $0.indexPath) }
    }

    /// Decoration views of a deleted section fade out; the others end at their new place.
    open override func finalLayoutAttributesForDisappearingDecorationElement(
        ofKind elementKind: String,
        at decorationIndexPath: IndexPath
    )
        -> CollectionViewLayoutAttributes?
    {
        guard decorationIndexPath.count == 2 else { return nil }
        let id = ElementID(category: .decorationView, kind: elementKind, indexPath: decorationIndexPath)
        return disappearing(id) { layoutAttributesForDecorationView(ofKind: elementKind, at: $0.indexPath) }
    }

    /// The initial attributes of the element `id` (after the update): where it was, or faded at
    /// its new place when it is new.
    private func appearing(
        _ id: ElementID,
        now: (ElementID) -> CollectionViewLayoutAttributes?
    ) -> CollectionViewLayoutAttributes? {
        guard let update = collectionView?.updateInProgress else { return nil }
        if let oldID = update.map.old(id), let old = update.before[oldID],
            let start = old.copy() as? CollectionViewLayoutAttributes
        {
            start.indexPath = id.indexPath
            return start
        }
        guard let start = now(id)?.copy() as? CollectionViewLayoutAttributes else { return nil }
        if update.map.old(id) == nil { start.alpha = 0 }
        return start
    }

    /// The final attributes of the element `id` (before the update): where it goes, or faded at
    /// its old place when it is removed.
    private func disappearing(
        _ id: ElementID,
        now: (ElementID) -> CollectionViewLayoutAttributes?
    ) -> CollectionViewLayoutAttributes? {
        guard let update = collectionView?.updateInProgress else { return nil }
        if let newID = update.map.new(id), let end = now(newID)?.copy() as? CollectionViewLayoutAttributes {
            end.indexPath = id.indexPath
            return end
        }
        guard let end = update.before[id]?.copy() as? CollectionViewLayoutAttributes else { return nil }
        end.alpha = 0
        return end
    }

    package override var asksForPreferredAttributes: Bool { isSelfSizing }

    /// With self-sizing, a cell whose preferred size differs from its attributes' invalidates the
    /// layout.
    open override func shouldInvalidateLayout(
        forPreferredLayoutAttributes preferredAttributes: CollectionViewLayoutAttributes,
        withOriginalAttributes originalAttributes: CollectionViewLayoutAttributes
    ) -> Bool {
        isSelfSizing && originalAttributes.representedElementCategory == .cell
            && Self.clean(preferredAttributes.size) != originalAttributes.size
    }

    /// Records the measured size and returns a context that recomputes only that item's line;
    /// when the item lies above the visible top, the content offset moves by the line's change of
    /// height so that what is on screen does not jump.
    open override func invalidationContext(
        forPreferredLayoutAttributes preferredAttributes: CollectionViewLayoutAttributes,
        withOriginalAttributes originalAttributes: CollectionViewLayoutAttributes
    )
        -> CollectionViewLayoutInvalidationContext
    {
        let context = super.invalidationContext(
            forPreferredLayoutAttributes: preferredAttributes,
            withOriginalAttributes: originalAttributes)
        let path = originalAttributes.indexPath
        let size = Self.clean(preferredAttributes.size)
        // A measurement for an item that does not exist (a negative or stale index path) is
        // dropped: there is nothing to size.
        guard let host = collectionView, path.count == 2, path.section >= 0, path.item >= 0,
            path.section < host.numberOfSections, path.item < host.numberOfItems(inSection: path.section)
        else {
            return context
        }
        measuredSizes[path] = size
        guard let flow = context as? CollectionViewFlowLayoutInvalidationContext else { return context }
        flow.invalidateFlowLayoutDelegateMetrics = false
        flow.invalidateFlowLayoutAttributes = false
        do {
            let axis = self.axis
            let visibleTop = axis.minimum(host.bounds) + axis.leading(host.adjustedContentInset)
            if axis.minimum(originalAttributes.frame) < visibleTop {
                let scrollSize = axis.vertical ? size : LayoutGeometry.transposed(size)
                let change =
                    flowGeometry.lineHeightChange(section: path.section, item: path.item, to: scrollSize)
                    ?? axis.length(size) - axis.length(originalAttributes.size)
                flow.contentOffsetAdjustment = axis.point(u: change, v: 0)
            }
        }
        return flow
    }

    /// A flow layout must be recomputed when the viewport's size across the scroll axis changes
    /// (its width when scrolling vertically); scrolling alone does not invalidate it.
    /// With pinned headers or footers, every scroll does too — but only for the pinned elements
    /// (see ``invalidationContext(forBoundsChange:)``).
    /// A move that only follows the position changes nothing the flow computes (the moving
    /// item's attributes are its slot's, centred on the position): the context keeps the geometry.
    /// A move to another index path is a batch update of its own, which recomputes it.
    open override func invalidationContext(
        forInteractivelyMovingItems targetIndexPaths: [IndexPath],
        withTargetPosition targetPosition: CGPoint, previousIndexPaths: [IndexPath],
        previousPosition: CGPoint
    ) -> CollectionViewLayoutInvalidationContext {
        let context = super.invalidationContext(
            forInteractivelyMovingItems: targetIndexPaths, withTargetPosition: targetPosition,
            previousIndexPaths: previousIndexPaths, previousPosition: previousPosition)
        if let flow = context as? CollectionViewFlowLayoutInvalidationContext {
            flow.invalidateFlowLayoutDelegateMetrics = false
            flow.invalidateFlowLayoutAttributes = false
        }
        return context
    }

    open override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool {
        crossSizeChanges(newBounds) || sectionHeadersPinToVisibleBounds || sectionFootersPinToVisibleBounds
    }

    /// For a scroll with pinning: a context that recomputes nothing but names the headers and
    /// footers of the sections in view. For a change of size across the scroll axis: everything.
    open override func invalidationContext(forBoundsChange newBounds: CGRect) -> CollectionViewLayoutInvalidationContext {
        let context = super.invalidationContext(forBoundsChange: newBounds)
        guard !crossSizeChanges(newBounds), let flow = context as? CollectionViewFlowLayoutInvalidationContext else {
            return context
        }
        flow.invalidateFlowLayoutDelegateMetrics = false
        flow.invalidateFlowLayoutAttributes = false
        let range = flowGeometry.sections(meeting: axis.minimum(newBounds), axis.maximum(newBounds))
        let paths = range.map { IndexPath(item: 0, section: $0) }
        if sectionHeadersPinToVisibleBounds {
            flow.invalidateSupplementaryElements(ofKind: CollectionView.elementKindSectionHeader, at: paths)
        }
        if sectionFootersPinToVisibleBounds {
            flow.invalidateSupplementaryElements(ofKind: CollectionView.elementKindSectionFooter, at: paths)
        }
        return flow
    }

    private func crossSizeChanges(_ newBounds: CGRect) -> Bool {
        axis.breadth(newBounds.size) != axis.breadth(preparedBounds.size)
    }

    // MARK: Gathering inputs

    /// A section's item sizes as gathered: uniform ones already cleaned and transposed, varied
    /// ones exactly as the delegate gave them.
    enum SectionSizes {
        case uniform(CGSize, Int)
        case varied([CGSize])
        /// Self-sized items: per-item storage even when the sizes happen to be equal.
        case measured([CGSize])
    }

    private func itemSizes(
        _ section: Int, host: CollectionView,
        delegate: (any CollectionViewDelegateFlowLayout)?
    ) -> SectionSizes {
        let count = max(0, host.numberOfItems(inSection: section))
        if isSelfSizing { return selfSizingSizes(section, count: count) }
        let transpose = scrollDirection == .horizontal
        let fixed = Self.clean(transpose ? LayoutGeometry.transposed(itemSize) : itemSize)
        guard let delegate, count > 0 else { return .uniform(fixed, count) }
        if var list = delegate.collectionView(host, layout: self, sizesForItemsInSection: section) {
            // Missing sizes take `itemSize`, extra ones are ignored; the usual exact list is not copied.
            if list.count != count {
                list = Array(list.prefix(count)) + Array(repeating: itemSize, count: max(0, count - list.count))
            }
            return .varied(list)
        }
        delegateAnsweredWithDefault = false
        let first = delegate.collectionView(host, layout: self, sizeForItemAt: IndexPath(item: 0, section: section))
        if delegateAnsweredWithDefault { return .uniform(fixed, count) }
        var sizes = [CGSize]()
        sizes.reserveCapacity(count)
        sizes.append(first)
        for item in 1..<count {
            sizes.append(delegate.collectionView(host, layout: self, sizeForItemAt: IndexPath(item: item, section: section)))
        }
        return .varied(sizes)
    }

    /// With self-sizing, unmeasured items take the estimate and measured ones their size; a
    /// section with any measurement keeps per-item storage, so later measurements apply in place.
    private func selfSizingSizes(_ section: Int, count: Int) -> SectionSizes {
        let estimate = Self.clean(estimatedItemSize == Self.automaticSize ? itemSize : estimatedItemSize)
        let measured = measuredSizes.filter { $0.key.section == section && $0.key.item >= 0 && $0.key.item < count }
        guard !measured.isEmpty else {
            return .uniform(scrollDirection == .horizontal ? LayoutGeometry.transposed(estimate) : estimate, count)
        }
        var sizes = [CGSize](repeating: estimate, count: count)
        for (path, size) in measured { sizes[path.item] = size }
        return .measured(sizes)
    }

    private func sectionMetrics(
        _ section: Int, host: CollectionView,
        delegate: (any CollectionViewDelegateFlowLayout)?,
        reference: EdgeInsets
    ) -> FlowSectionMetrics {
        var inset = delegate?.collectionView(host, layout: self, insetForSectionAt: section) ?? sectionInset
        let lineSpacing =
            delegate?.collectionView(host, layout: self, minimumLineSpacingForSectionAt: section)
            ?? minimumLineSpacing
        let interitemSpacing =
            delegate?.collectionView(host, layout: self, minimumInteritemSpacingForSectionAt: section)
            ?? minimumInteritemSpacing
        let header =
            delegate?.collectionView(host, layout: self, referenceSizeForHeaderInSection: section)
            ?? headerReferenceSize
        let footer =
            delegate?.collectionView(host, layout: self, referenceSizeForFooterInSection: section)
            ?? footerReferenceSize
        inset = EdgeInsets(
            top: Self.finite(inset.top), left: Self.finite(inset.left) + reference.left,
            bottom: Self.finite(inset.bottom), right: Self.finite(inset.right) + reference.right)
        return FlowSectionMetrics(
            inset: axis.vertical ? inset : inset.transposed,
            minimumLineSpacing: Self.finite(lineSpacing),
            minimumInteritemSpacing: Self.finite(interitemSpacing),
            headerExtent: Self.clean(axis.length(header)),
            footerExtent: Self.clean(axis.length(footer)))
    }

    /// The extra inset that `sectionInsetReference` adds across the scroll axis (left and right
    /// when vertical, in output coordinates): how far the safe area or layout margins reach past
    /// the content inset.
    private func referenceInsets(_ host: CollectionView) -> EdgeInsets {
        let content = host.adjustedContentInset
        let target: EdgeInsets
        switch sectionInsetReference {
        case .fromContentInset: return .zero
        case .fromSafeArea: target = host.safeAreaInsets
        case .fromLayoutMargins: target = host.layoutMargins
        }
        let extra = EdgeInsets(
            top: max(0, target.top - content.top), left: max(0, target.left - content.left),
            bottom: max(0, target.bottom - content.bottom), right: max(0, target.right - content.right))
        return scrollDirection == .vertical
            ? EdgeInsets(top: 0, left: extra.left, bottom: 0, right: extra.right)
            : EdgeInsets(top: extra.top, left: 0, bottom: extra.bottom, right: 0)
    }

    /// Spacing and insets may be negative (overlapping items are a known flow-layout technique);
    /// only a value that is not a number counts as zero.
    @inline(__always) static func finite(_ value: CGFloat) -> CGFloat { value.isFinite ? value : 0 }
    @inline(__always) static func clean(_ value: CGFloat) -> CGFloat { value.isFinite && value > 0 ? value : 0 }
    @inline(__always) static func clean(_ size: CGSize) -> CGSize {
        CGSize(width: clean(size.width), height: clean(size.height))
    }
}

/// The shorter name of ``CollectionViewFlowLayout``.
public typealias FlowLayout = CollectionViewFlowLayout

/// The invalidation context of a flow layout (`UICollectionViewFlowLayoutInvalidationContext`).
open class CollectionViewFlowLayoutInvalidationContext: CollectionViewLayoutInvalidationContext {
    /// Whether sizes, insets and spacing must be asked of the delegate again. Default `true`.
    open var invalidateFlowLayoutDelegateMetrics = true
    /// Whether the computed attributes must be recomputed. Default `true`.
    open var invalidateFlowLayoutAttributes = true

    public override init() { super.init() }

    package override func mergeFlags(from other: CollectionViewLayoutInvalidationContext) {
        if let flow = other as? CollectionViewFlowLayoutInvalidationContext {
            invalidateFlowLayoutDelegateMetrics = invalidateFlowLayoutDelegateMetrics || flow.invalidateFlowLayoutDelegateMetrics
            invalidateFlowLayoutAttributes = invalidateFlowLayoutAttributes || flow.invalidateFlowLayoutAttributes
        }
    }
}

/// UIKit's defaults for a flow layout, named once: a new layout's, and what a delegate that says
/// nothing of a section answers when its layout is another. Not members of the layout class, which
/// mirrors UIKit's and which a subclass may give members of these names.
enum FlowLayoutDefaults {
    /// The spacing between lines and between items: 10 points.
    static let spacing: CGFloat = 10
}
