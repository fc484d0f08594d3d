import Foundation

/// The headless collection view: `UICollectionView` without pixels. It drives any
/// ``CollectionViewLayout`` the way UIKit does — layout passes with coalesced invalidation, the
/// visible set with view reuse, batch updates with their transitions, and scrolling — and it is
/// what a layout's `collectionView` is.
///
/// ```swift
/// let layout = CollectionViewFlowLayout()
/// let collectionView = CollectionView(frame: CGRect(x: 0, y: 0, width: 375, height: 667),
///                                     collectionViewLayout: layout)
/// collectionView.register(CollectionViewCell.self, forCellWithReuseIdentifier: "cell")
/// collectionView.dataSource = myDataSource
/// collectionView.layoutIfNeeded()
/// collectionView.indexPathsForVisibleItems  // the items in the viewport, sorted
/// ```
open class CollectionView: ScrollView {
    // MARK: State

    @exclusivity(unchecked) var layoutStorage: CollectionViewLayout

    /// The layout. Setting it replaces the layout without animation, as
    /// ``setCollectionViewLayout(_:animated:)`` does.
    open var collectionViewLayout: CollectionViewLayout {
        get { layoutStorage }
        set { setCollectionViewLayout(newValue, animated: false) }
    }

    /// Supplies counts and views. Setting it reloads the data.
    open weak var dataSource: CollectionViewDataSource? { didSet { reloadData() } }
    /// The delegate; layouts cast it to their own delegate protocols.
    open weak var delegate: CollectionViewDelegate? { didSet { invalidateEverything() } }
    /// Told which items are about to come into view.
    open weak var prefetchDataSource: CollectionViewDataSourcePrefetching?
    /// Whether prefetching is on. Default `true`.
    open var isPrefetchingEnabled = true
    /// A view behind all content.
    open var backgroundView: View?

    /// Whether items can be selected (by a tap, or by ``selectItem(at:animated:scrollPosition:)``).
    /// Default `true`. Turning it off clears the selection.
    open var allowsSelection = true {
        didSet { enforceSelectionRules() }
    }
    /// Whether more than one item can be selected at a time. Default `false`. Turning it off
    /// keeps only the most recently selected item.
    open var allowsMultipleSelection = false {
        didSet { enforceSelectionRules() }
    }

    /// Whether focus, with nothing focused, returns to the item focused last (iOS 9's
    /// `remembersLastFocusedIndexPath`). Default `false`.
    open var remembersLastFocusedIndexPath = false
    /// Whether moving focus selects the focused item, as a tap does (iOS 14). Default `false`.
    open var selectionFollowsFocus = false
    /// The focused item, and the one focused last.
    var focusedItem: IndexPath?
    /// The context menu open (``openContextMenu(forItemsAt:at:)``), its items.
    var openContextMenu: (configuration: ContextMenuConfiguration, menu: Menu, indexPaths: [IndexPath])?
    var lastFocusedItem: IndexPath?

    /// Whether a cell that calls ``View/invalidateIntrinsicContentSize()`` on itself or its
    /// content view is sized again (iOS 16). Default `.enabled`.
    open var selfSizingInvalidation: SelfSizingInvalidation = .enabled

    /// Whether the collection view is in editing mode (iOS 14's `isEditing`): the cells of items
    /// the delegate lets be edited (`collectionView(_:canEditItemAt:)`) show it in their
    /// ``CollectionViewCell/configurationState``, and selection follows
    /// ``allowsSelectionDuringEditing`` and ``allowsMultipleSelectionDuringEditing``. Default `false`.
    open var isEditing = false {
        didSet {
            guard isEditing != oldValue else { return }
            enforceSelectionRules()
            for id in visibleSet.views.keys.sorted() where id.category == .cell {
                let path = IndexPath(item: id.item, section: id.section)
                (visibleSet.views[id] as? CollectionViewCell)?.isEditingItem = isEditing && canEditItem(at: path)
            }
        }
    }
    /// Whether items can be selected in editing mode (as well as ``allowsSelection``, which
    /// rules both modes). Default `false`.
    open var allowsSelectionDuringEditing = false {
        didSet { enforceSelectionRules() }
    }
    /// Whether more than one item can be selected at a time in editing mode. Default `false`.
    open var allowsMultipleSelectionDuringEditing = false {
        didSet { enforceSelectionRules() }
    }
    /// The selected items, in the order they were selected.
    var selection: [IndexPath] = []

    let pool = ReusePool()
    @exclusivity(unchecked) var counts: [Int]?
    /// The elements on screen and their views.
    @exclusivity(unchecked) var visibleSet = VisibleSet<CollectionReusableView>()
    /// The rect last asked of the layout and its answer.
    @exclusivity(unchecked) var preparedQuery = PreparedQuery()
    /// The cells the prefetch data source was told of.
    @exclusivity(unchecked) var prefetched: Set<IndexPath> = []
    @exclusivity(unchecked) var lastOffset: CGPoint = .zero
    var batchDepth = 0
    var pendingBatch = BatchUpdate()
    /// What was shown when the outermost batch began, before the app's update block changed its
    /// model: the "before" of the batch's transition (the layout is not asked about old index
    /// paths once the data is new).
    var pendingBefore: Before?
    private var boundsChangeContext: CollectionViewLayoutInvalidationContext?
    /// The item being moved interactively, between `beginInteractiveMovementForItem(at:)` and
    /// the end or cancellation of the move.
    var interactiveMovement: InteractiveMovement?
    /// Reuses the mirrored copies of the previous rect query (right to left).
    let mirrorRecycler = AttributesRecycler()
    /// The interactive change of layouts under way, between `startInteractiveTransition(to:)`
    /// and its end.
    var interactiveTransition: InteractiveTransition?

    /// Gives the items a drag that begins here carries (`nil`: no drags begin here).
    open weak var dragDelegate: CollectionViewDragDelegate?
    /// Takes drops (`nil`: none are taken).
    open weak var dropDelegate: CollectionViewDropDelegate?
    /// How soon items make way for a drop. Default `.immediate`.
    open var reorderingCadence: ReorderingCadence = .immediate
    var dragInteractionSetting: Bool?
    /// Drags begun here and not ended.
    var activeDragCount = 0
    /// The drag over the collection view.
    var dropTracking: DropTracking?
    /// Drop placeholders and a drop's gap: items shown that the data source does not have.
    var phantoms: [DropPhantom] = []

    /// The update being animated, while the layout is asked for its initial and final attributes:
    /// what the flow layout's defaults read.
    package internal(set) var updateInProgress: UpdateContext?

    /// How many times the layout's `prepare()` ran for this collection view.
    @_spi(Instrumentation) public internal(set) var prepareCount = 0
    /// How many rect queries (`layoutAttributesForElements(in:)`) the collection view made.
    @_spi(Instrumentation) public internal(set) var layoutQueryCount = 0
    /// How many views were created rather than reused.
    @_spi(Instrumentation) public var createdViewCount: Int { pool.created }

    /// The transition of the last animated change, until it is completed.
    public internal(set) var currentTransition: CollectionViewTransition?
    /// Views that are animating out: kept until ``completeTransition()``.
    public internal(set) var disappearingViews: [CollectionReusableView] = []
    /// Why the last batch update was refused, or `nil` when it was applied. A refused batch
    /// changes nothing (UIKit raises an exception instead).
    public internal(set) var lastUpdateError: BatchUpdateError?

    /// Creates a collection view with a frame (its size is the viewport) and a layout. Unlike a
    /// plain view's, its ``View/preservesSuperviewLayoutMargins`` is `true`: in a view
    /// controller's view it has that view's margins (16 or 20 points at the sides), which an
    /// inset-grouped list's sections are inset by, as in UIKit.
    public init(frame: CGRect, collectionViewLayout layout: CollectionViewLayout) {
        layoutStorage = layout
        super.init(frame: frame)
        preservesSuperviewLayoutMargins = true
        layout.attach(to: self)
    }

    /// Creates a collection view from an archive: nothing is archived, so this is a zero-sized
    /// collection view with a flow layout.
    public required init?(coder: NSCoder) {
        layoutStorage = CollectionViewFlowLayout()
        super.init(frame: .zero)
        preservesSuperviewLayoutMargins = true
        layoutStorage.attach(to: self)
    }

    // MARK: Counts

    /// The number of sections, as the data source reported it at the last reload (inside a batch
    /// update, the count before the update).
    open var numberOfSections: Int {
        loadCountsIfNeeded()
        return counts?.count ?? 0
    }

    /// The number of items in `section`; 0 for a section that does not exist.
    open func numberOfItems(inSection section: Int) -> Int {
        loadCountsIfNeeded()
        guard let counts, counts.indices.contains(section) else { return 0 }
        return counts[section]
    }

    /// Asks the data source for its counts. A negative answer counts as zero and one above
    /// ``maximumSectionCount`` or ``maximumItemCount`` as that maximum; each is recorded in
    /// ``diagnostics``.
    func fetchCounts() -> [Int] {
        countsWithPhantoms(fetchDataSourceCounts())
    }

    /// The data source's counts alone (``fetchCounts()`` adds drop placeholders and a drop's gap).
    func fetchDataSourceCounts() -> [Int] {
        guard let dataSource else { return [] }
        let reported = dataSource.numberOfSections(in: self)
        let sections = clampedCount(reported, maximum: Self.maximumSectionCount, what: "sections")
        return (0..<sections).map { section in
            clampedCount(
                dataSource.collectionView(self, numberOfItemsInSection: section), maximum: Self.maximumItemCount,
                what: "items in section \(section)")
        }
    }

    private func clampedCount(_ reported: Int, maximum: Int, what: String) -> Int {
        let counted = min(max(0, reported), maximum)
        if counted != reported { note(.countOutOfRange(reported: reported, what: what, counted: counted)) }
        return counted
    }

    /// The most sections a collection view keeps track of: counts are stored per section, so a
    /// data source that answers `Int.max` must not make the view allocate without bound.
    public static let maximumSectionCount = 1 << 24

    /// The most items a section may hold (2²⁸): a batch update maps every item of the sections
    /// it touches, which must stay within memory.
    public static let maximumItemCount = 1 << 28

    func loadCountsIfNeeded() {
        if counts == nil { counts = fetchCounts() }
    }

    // MARK: Registration and reuse

    /// Registers the class of cells dequeued with `identifier` (`nil` forgets it).
    open func register(_ cellClass: AnyClass?, forCellWithReuseIdentifier identifier: String) {
        guard let cellClass else { pool.unregister(.cell, identifier); return }
        guard let type = cellClass as? CollectionViewCell.Type else {
            note(.notACellClass("\(cellClass)"))
            return
        }
        pool.registerCell(type, identifier)
    }

    /// Registers the class of supplementary views of `kind` dequeued with `identifier`.
    open func register(
        _ viewClass: AnyClass?, forSupplementaryViewOfKind kind: String,
        withReuseIdentifier identifier: String
    ) {
        guard let viewClass else { pool.unregister(.supplementary(kind), identifier); return }
        guard let type = viewClass as? CollectionReusableView.Type else {
            note(.notAReusableViewClass("\(viewClass)", kind: kind))
            return
        }
        pool.registerSupplementary(type, kind: kind, identifier)
    }

    /// A cell for `indexPath`: a waiting one of that identifier (after `prepareForReuse()`), or a
    /// new one of the registered class. An unregistered identifier gives a plain
    /// `CollectionViewCell` and is recorded in ``diagnostics`` (UIKit would raise).
    open func dequeueReusableCell(withReuseIdentifier identifier: String, for indexPath: IndexPath) -> CollectionViewCell {
        let (cell, registered) = pool.dequeueCell(identifier)
        if !registered {
            note(.unregisteredCellIdentifier(identifier))
        }
        cell.dequeuedBy = self
        cell.dequeuedFor = indexPath
        return cell
    }

    /// A supplementary view of `kind` for `indexPath`, reused when one waits.
    open func dequeueReusableSupplementaryView(
        ofKind kind: String, withReuseIdentifier identifier: String,
        for indexPath: IndexPath
    ) -> CollectionReusableView {
        let view = pool.dequeue(.supplementary(kind), identifier)
        view.dequeuedBy = self
        view.dequeuedFor = indexPath
        return view
    }

    /// Problems found while running (an unregistered identifier, a negative count), oldest first;
    /// one that repeats the last is not added again.
    public private(set) var diagnostics: [Diagnostic] = []

    package func note(_ diagnostic: Diagnostic) {
        if diagnostics.last != diagnostic { diagnostics.append(diagnostic) }
    }

    // MARK: The layout pass

    /// Runs a layout pass: counts, one `prepare()` for any number of invalidations, the content
    /// size, then the visible set. Cheap when nothing changed.
    open override func layoutIfNeeded() {
        layoutPass()
    }

    /// The collection view lays out its content here, as UIKit's does.
    open override func layoutSubviews() {
        super.layoutSubviews()
        layoutPass()
    }

    private func layoutPass() {
        // Cells that size themselves change the layout while the visible set is being built;
        // the pass repeats until it settles (each repetition only measures newly shown cells).
        for _ in 0..<Self.maximumPassesPerLayout {
            applyPendingOffsetAdjustment()
            prepareLayoutIfNeeded()
            let generation = layoutStorage.preparedGeneration
            updateVisibleSet()
            if generation == layoutStorage.preparedGeneration && !layoutStorage.needsPrepare { return }
        }
        note(.layoutDidNotSettle(passes: Self.maximumPassesPerLayout))
    }

    static let maximumPassesPerLayout = 16

    /// Runs the layout's `prepare()` if it is stale, and counts it: every place that prepares the
    /// layout goes through here.
    func runPrepareIfNeeded() {
        if layoutStorage.prepareIfNeeded() { prepareCount += 1 }
    }

    /// The layout half of a pass, without views: counts, `prepare()` if the layout is stale, and
    /// the content size. What a host that only reads attributes (``StaticLayoutHost``) runs.
    package func prepareLayoutIfNeeded() {
        loadCountsIfNeeded()
        runPrepareIfNeeded()
        contentSize = layoutStorage.collectionViewContentSize
    }

    /// Reloads everything: counts are asked again, the layout is invalidated entirely, every
    /// visible view goes back to the reuse pool and the next pass dequeues anew.
    open func reloadData() {
        interactiveMovement = nil
        // Placeholders and a drop's gap go: their contexts' commits then answer `false`.
        phantoms = []
        dropTracking?.gap = nil
        dropTracking?.reordering = false
        selection = []
        counts = nil
        pendingBatch = BatchUpdate()
        currentTransition = nil
        for (id, view) in visibleViews { endDisplaying(id, view) }
        visibleViews = [:]
        invalidateEverything()
    }

    func invalidateEverything() {
        layoutStorage.invalidateLayout(
            with: type(of: layoutStorage).makeInvalidationContext(
                everything: true,
                dataSourceCounts: true))
        dropPreparedElements()
    }

    /// Called by the layout whenever it is invalidated (UIKit marks the view as needing layout).
    func layoutDidInvalidate(_ layout: CollectionViewLayout) {
        setNeedsLayout()
    }

    func dropPreparedElements() {
        preparedQuery = PreparedQuery()
    }

    /// The views on screen, by element.
    var visibleViews: [ElementID: CollectionReusableView] {
        get { visibleSet.views }
        set { visibleSet.views = newValue }
    }

    /// The layout's answer for the rect last asked.
    var preparedElements: [CollectionViewLayoutAttributes] { preparedQuery.elements }

    private func applyPendingOffsetAdjustment() {
        guard let adjustment = layoutStorage.pendingInvalidationContext?.contentOffsetAdjustment,
            adjustment != .zero
        else { return }
        shiftOrigin(by: isMirroringLayout ? CGPoint(x: -adjustment.x, y: adjustment.y) : adjustment)
    }

    /// Moves the content offset without asking the layout: an adjustment the layout asked for.
    func shiftOrigin(by adjustment: CGPoint) {
        guard adjustment.x.isFinite, adjustment.y.isFinite else { return }
        applyingAdjustment = true
        defer { applyingAdjustment = false }
        bounds.origin = CGPoint(x: bounds.origin.x + adjustment.x, y: bounds.origin.y + adjustment.y)
    }

    private var applyingAdjustment = false

    // MARK: Bounds, insets and traits

    /// Asks the layout whether the new bounds invalidate it — while ``bounds`` still has its old
    /// value, as in UIKit, so a layout may compare the two — and passes the layout's own context
    /// to `invalidateLayout(with:)` once the bounds changed.
    override func boundsWillChange(to newBounds: CGRect) {
        guard !applyingAdjustment else { return }
        let layout = layoutStorage
        // Mirrored, the layout sees the new viewport in its own coordinates.
        var asked = newBounds
        if isMirroringLayout {
            let inset = adjustedContentInset
            let width = max(contentSize.width, newBounds.width - inset.left - inset.right)
            asked.origin.x = width - newBounds.maxX
        }
        if layout.shouldInvalidateLayout(forBoundsChange: asked) {
            boundsChangeContext = layout.invalidationContext(forBoundsChange: asked)
        }
    }

    override func boundsDidChange(from oldBounds: CGRect) {
        if let context = boundsChangeContext {
            boundsChangeContext = nil
            layoutStorage.invalidateLayout(with: context)
        }
        if oldBounds.origin != bounds.origin { delegate?.scrollViewDidScroll(self) }
    }

    open override func adjustedContentInsetDidChange() {
        super.adjustedContentInsetDidChange()
        invalidateEverything()
    }

    open override func layoutMarginsDidChange() {
        super.layoutMarginsDidChange()
        invalidateEverything()
    }

    /// Mirrors the content when it turns the view right to left (or back).
    open override var semanticContentAttribute: SemanticContentAttribute {
        didSet { if semanticContentAttribute != oldValue { dropPreparedElements(); setNeedsLayout() } }
    }

    open override func traitCollectionDidChange(_ previousTraitCollection: TraitCollection?) {
        super.traitCollectionDidChange(previousTraitCollection)
        invalidateEverything()
    }

    /// A headless shorthand for `traitCollection.displayScale`: pixels per point of the display the
    /// layout is computed for. Setting it replaces the traits' display scale.
    public var displayScale: CGFloat {
        get { traitCollection.displayScale }
        set {
            let traits = traitCollection
            traitCollection = TraitCollection(
                displayScale: newValue, horizontalSizeClass: traits.horizontalSizeClass,
                verticalSizeClass: traits.verticalSizeClass,
                layoutDirection: traits.layoutDirection,
                userInterfaceIdiom: traits.userInterfaceIdiom,
                userInterfaceStyle: traits.userInterfaceStyle,
                preferredContentSizeCategory: traits.preferredContentSizeCategory)
        }
    }

    // MARK: The visible set

    /// The rect asked of the layout: the viewport extended by half a viewport on every side, so
    /// that scrolling within it needs no new query.
    func pageRect(around visible: CGRect) -> CGRect {
        visible.insetBy(dx: -visible.width / 2, dy: -visible.height / 2)
    }

    func elementsInPreparedRect(covering visible: CGRect) -> [CollectionViewLayoutAttributes] {
        let generation = layoutStorage.preparedGeneration
        // Mirrored, the answer is kept as shown, for the width it was mirrored across.
        let mirror: CGFloat? = isMirroringLayout ? mirrorWidth : nil
        if preparedQuery.covers(visible, generation: generation, mirror: mirror) { return presented(preparedQuery.elements) }
        let rect = pageRect(around: visible)
        layoutQueryCount += 1
        var elements: [CollectionViewLayoutAttributes]
        // The last answer's objects are let go first, so that the layout (or the mirror) can
        // reuse them.
        preparedQuery = PreparedQuery()
        if let mirror {
            elements = layoutStorage.mirroredLayoutAttributesForElements(in: rect, across: mirror, recycler: mirrorRecycler)
        } else {
            elements = layoutStorage.layoutAttributesForElements(in: rect) ?? []
        }
        preparedQuery = PreparedQuery(rect: rect, elements: elements, generation: generation, mirror: mirror)
        return presented(elements)
    }

    /// The elements whose frames intersect the viewport, as the layout last computed them.
    func visibleElements() -> [CollectionViewLayoutAttributes] {
        let visible = bounds
        return elementsInPreparedRect(covering: visible).filter { LayoutGeometry.intersects($0.frame, visible) }
    }

    func updateVisibleSet() {
        let visible = bounds
        let elements = elementsInPreparedRect(covering: visible)
        // The set is updated as a local: the data source and the delegate, asked for new views,
        // find no views on screen meanwhile, and no access to a stored property is held across
        // their calls (every such access is checked for exclusivity at run time).
        var set = visibleSet
        visibleSet = VisibleSet()
        let dataSource = self.dataSource
        set.update(
            to: elements, visible: visible,
            show: { attributes, id, kept in
                guard let view = kept ?? makeView(for: attributes, id: id, dataSource: dataSource) else { return nil }
                view.shownBy = self
                if view.applyIfChanged(attributes), id.category == .cell { selfSize(view, attributes) }
                return view
            }, remove: endDisplaying)
        visibleSet = set
        prefetch()
        lastOffset = bounds.origin
    }

    /// How a cell's ``View/invalidateIntrinsicContentSize()`` (or its content view's) is taken
    /// (`UICollectionView.SelfSizingInvalidation`).
    public enum SelfSizingInvalidation: Int, Sendable {
        /// Not at all: the cell keeps its size until the layout is invalidated otherwise.
        case disabled = 0
        /// The cell is asked for its preferred attributes again and laid out at once.
        case enabled = 1
        /// As `.enabled` (UIKit adds the changes of Auto Layout constraints, which headless views
        /// do not have).
        case enabledIncludingConstraints = 2
    }

    /// A cell shown by this collection view says it needs another size: asked for its preferred
    /// attributes at its current ones, as when it was shown, and what moves is laid out.
    func sizeAgain(_ view: CollectionReusableView) {
        guard selfSizingInvalidation != .disabled, let shown = view.appliedLayoutAttributes,
            shown.representedElementCategory == .cell, visibleSet.views.values.contains(where: { $0 === view })
        else { return }
        selfSize(view, shown)
        updateVisibleSet()
    }

    /// Asks a cell whose attributes changed for its preferred attributes; when the layout wants
    /// them, the layout is invalidated for that item and prepared at once — an in-place update for
    /// a self-sizing flow layout — and the content offset moves as the layout asks, so that what
    /// is on screen does not jump.
    func selfSize(_ view: CollectionReusableView, _ shownAttributes: CollectionViewLayoutAttributes) {
        guard layoutStorage.asksForPreferredAttributes else { return }
        selfSize(preferred: view.preferredLayoutAttributesFitting(shownAttributes.snapshot()), shown: shownAttributes)
    }

    /// ``selfSize(_:_:)`` with the preferred attributes a view gave for `shownAttributes`
    /// (what the testing kit gives for views it does not build). Whether the layout took them.
    @discardableResult
    package func selfSize(preferred: CollectionViewLayoutAttributes, shown shownAttributes: CollectionViewLayoutAttributes) -> Bool {
        let layout = layoutStorage
        guard layout.asksForPreferredAttributes else { return false }
        var preferred = preferred
        guard !preferred.isEqualAttributes(shownAttributes) else { return false }
        // The layout hears of both in its own coordinates.
        var attributes = shownAttributes
        if isMirroringLayout {
            attributes = mirrored(shownAttributes)
            preferred = mirrored(preferred)
        }
        guard
            layout.shouldInvalidateLayout(forPreferredLayoutAttributes: preferred, withOriginalAttributes: attributes)
        else { return false }
        let context = layout.invalidationContext(forPreferredLayoutAttributes: preferred, withOriginalAttributes: attributes)
        var adjustment = context.contentOffsetAdjustment
        if isMirroringLayout { adjustment.x = -adjustment.x }
        context.contentOffsetAdjustment = .zero
        layout.invalidateLayout(with: context)
        runPrepareIfNeeded()
        shiftOrigin(by: adjustment)
        return true
    }

    func makeView(
        for attributes: CollectionViewLayoutAttributes, id: ElementID,
        dataSource: CollectionViewDataSource?
    ) -> CollectionReusableView? {
        switch attributes.representedElementCategory {
        case .cell:
            guard let dataSource else { return nil }
            let path = attributes.indexPath
            // A drop's gap shows nothing; a placeholder its own cell, not the data source's.
            if let phantom = phantom(atShown: path) { return placeholderCell(for: phantom, at: path) }
            // During an interactive move the cells show the data source's items in the order
            // shown: the data source is asked at the item's own index path.
            let cell = dataSource.collectionView(self, cellForItemAt: dataSourceIndexPath(forShown: path))
            // Its state, then one update of its configuration before it is shown.
            cell.changeState(then: .once) { cell in
                cell.isSelected = !selection.isEmpty && selection.contains(path)
                cell.isEditingItem = isEditing && canEditItem(at: path)
                cell.isFocusedItem = focusedItem == path
                cell.isExpandedItem = (dataSource as? OutlineToggling)?.isExpanded(itemAt: path) ?? false
            }
            delegate?.collectionView(self, willDisplay: cell, forItemAt: attributes.indexPath)
            return cell
        case .supplementaryView:
            guard let dataSource else { return nil }
            let kind = id.kind ?? ""
            let view = dataSource.collectionView(self, viewForSupplementaryElementOfKind: kind, at: attributes.indexPath)
            delegate?.collectionView(self, willDisplaySupplementaryView: view, forElementKind: kind, at: attributes.indexPath)
            return view
        case .decorationView:
            let kind = id.kind ?? ""
            let type = layoutStorage.decorationViewClasses[kind] ?? CollectionReusableView.self
            return pool.dequeue(.decoration(kind), kind, default: type)
        }
    }

    func endDisplaying(_ id: ElementID, _ view: CollectionReusableView) {
        view.shownBy = nil
        if let delegate {
            switch id.category {
            case .cell:
                if let cell = view as? CollectionViewCell {
                    delegate.collectionView(self, didEndDisplaying: cell, forItemAt: id.indexPath)
                }
            case .supplementaryView:
                delegate.collectionView(
                    self, didEndDisplayingSupplementaryView: view, forElementOfKind: id.kind ?? "",
                    at: id.indexPath)
            case .decorationView: break
            }
        }
        pool.enqueue(view, kind: ReusePool.Kind(id))
    }

    /// Tells the prefetch data source about the cells of the prepared rect that lie ahead of the
    /// viewport in the direction of scrolling.
    func prefetch() {
        guard isPrefetchingEnabled, let prefetchDataSource else { return }
        let visible = bounds
        let dy = visible.minY - lastOffset.y, dx = visible.minX - lastOffset.x
        // Ahead is below or to the right, unless the view only scrolled back up or left.
        let backwards = !(dy > 0 || dx > 0) && (dy < 0 || dx < 0)
        let ahead = preparedElements.filter { attributes in
            guard attributes.representedElementCategory == .cell,
                !LayoutGeometry.intersects(attributes.frame, visible)
            else { return false }
            let frame = attributes.frame
            return backwards
                ? frame.maxY <= visible.minY || frame.maxX <= visible.minX
                : frame.minY >= visible.maxY || frame.minX >= visible.maxX
        }.map(\.indexPath)
        let new = ahead.filter { !prefetched.contains($0) }
        let stale = prefetched.subtracting(ahead).filter { path in
            !visibleViews.keys.contains {
                $0.category == .cell && $0.indexPath == path
            }
        }
        if !stale.isEmpty { prefetchDataSource.collectionView(self, cancelPrefetchingForItemsAt: stale.sorted()) }
        if !new.isEmpty { prefetchDataSource.collectionView(self, prefetchItemsAt: new) }
        prefetched = Set(ahead)
    }

    // MARK: Reading the visible set

    /// The visible cells, in index-path order.
    open var visibleCells: [CollectionViewCell] {
        visibleSet.elements(.cell).compactMap { $0.view as? CollectionViewCell }
    }

    /// The index paths of the visible items, sorted.
    open var indexPathsForVisibleItems: [IndexPath] {
        visibleViews.keys.filter { $0.category == .cell }.map(\.indexPath).sorted()
    }

    /// The visible cell of an item, or `nil` when it is not visible.
    open func cellForItem(at indexPath: IndexPath) -> CollectionViewCell? {
        guard indexPath.count == 2 else { return nil }
        return visibleViews[ElementID(category: .cell, kind: nil, indexPath: indexPath)]
            as? CollectionViewCell
    }

    /// The index path of a visible cell, or `nil`.
    open func indexPath(for cell: CollectionViewCell) -> IndexPath? {
        visibleViews.first { $0.key.category == .cell && $0.value === cell }?.key.indexPath
    }

    /// The visible supplementary view of `kind` at `indexPath`, if any.
    open func supplementaryView(forElementKind elementKind: String, at indexPath: IndexPath) -> CollectionReusableView? {
        visibleViews[ElementID(category: .supplementaryView, kind: elementKind, indexPath: indexPath)]
    }

    /// The visible supplementary views of `kind`, in index-path order.
    open func visibleSupplementaryViews(ofKind elementKind: String) -> [CollectionReusableView] {
        visibleSet.elements(.supplementaryView, kind: elementKind).map(\.view)
    }

    /// The index paths of visible supplementary views of `kind`, sorted.
    open func indexPathsForVisibleSupplementaryElements(ofKind elementKind: String) -> [IndexPath] {
        visibleViews.keys.filter { $0.category == .supplementaryView && $0.kind == elementKind }.map(\.indexPath).sorted()
    }

    /// Every visible element with the attributes last applied to it, sorted by identity.
    public var visibleElementAttributes: [CollectionViewLayoutAttributes] {
        visibleViews.sorted { $0.key < $1.key }.compactMap { $0.value.appliedLayoutAttributes }
    }

    /// The attributes of an item, from the layout (after a layout pass if one is due).
    open func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        layoutIfNeeded()
        return shown(layoutStorage.layoutAttributesForItem(at: indexPath))
    }

    /// The attributes of a supplementary element, from the layout.
    open func layoutAttributesForSupplementaryElement(
        ofKind kind: String,
        at indexPath: IndexPath
    ) -> CollectionViewLayoutAttributes? {
        layoutIfNeeded()
        return shown(layoutStorage.layoutAttributesForSupplementaryView(ofKind: kind, at: indexPath))
    }

    /// The item whose frame contains `point` (content coordinates), if any: the topmost one.
    open func indexPathForItem(at point: CGPoint) -> IndexPath? {
        layoutIfNeeded()
        guard point.x.isFinite, point.y.isFinite else { return nil }
        let point = isMirroringLayout ? mirrored(point) : point
        let probe = CGRect(x: point.x - 0.5, y: point.y - 0.5, width: 1, height: 1)
        return (layoutStorage.layoutAttributesForElements(in: probe) ?? [])
            .filter { $0.representedElementCategory == .cell && $0.frame.contains(point) }
            .max { $0.zIndex < $1.zIndex }?.indexPath
    }
}
