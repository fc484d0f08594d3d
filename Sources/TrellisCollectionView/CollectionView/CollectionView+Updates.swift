import Foundation

extension CollectionView {
    // MARK: Batch updates

    /// Collects the changes made in `updates` (nested calls included) and applies them at once,
    /// as UIKit does. Inside the batch the collection view still reports the old counts; the
    /// data source is asked again at the end.
    ///
    /// A batch that breaks UIKit's rules (where UIKit raises an exception) changes nothing: the
    /// reason is kept in ``lastUpdateError`` and `completion` receives `false`. A valid batch
    /// leaves its animation in ``currentTransition`` and calls `completion` with `true`.
    /// ``applyBatchUpdates(_:)`` is the same with the error thrown and the transition returned.
    public func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {
        do {
            try applyBatchUpdates { updates?() }
            completion?(true)
        } catch {
            completion?(false)
        }
    }

    /// ``performBatchUpdates(_:completion:)`` with the validation error thrown and the
    /// transition returned: every element visible before or after, from where it starts to where
    /// it ends. A nested call returns ``CollectionViewTransition/none``; the outermost applies.
    @discardableResult
    public func applyBatchUpdates(_ updates: () -> Void) throws(BatchUpdateError) -> CollectionViewTransition {
        if batchDepth == 0 {
            // A batch during an interactive move ends the move first: the data changes under it.
            if interactiveMovement != nil { cancelInteractiveMovement() }
            layoutIfNeeded()
            pendingBatch = BatchUpdate()
            // "Before" is what the last layout pass showed, taken while the data is still old.
            if pendingBefore == nil { pendingBefore = captureBefore() }
        }
        batchDepth += 1
        updates()
        batchDepth -= 1
        guard batchDepth == 0 else { return .none }
        let batch = pendingBatch
        pendingBatch = BatchUpdate()
        let before = pendingBefore ?? captureBefore()
        pendingBefore = nil
        do {
            let transition = try commit(batch, before: before)
            lastUpdateError = nil
            return transition
        } catch {
            lastUpdateError = error
            note(.batchRefused(error.message))
            throw error
        }
    }

    /// Applies a batch that arrives whole — a spec's, a diff's — the way an app applies its own:
    /// checks it against the data source's counts, hands the mapping to `updatingData` for the
    /// app to change its model as the batch says (``UpdateMapping/apply(to:newItem:)`` carries
    /// per-item data through it), then performs it, which checks the data source's new counts
    /// against the batch as UIKit does. Nothing changes when the batch is refused.
    @discardableResult
    public func applyBatchUpdates(_ batch: BatchUpdate, updatingData: (UpdateMapping) -> Void)
        throws(BatchUpdateError) -> CollectionViewTransition
    {
        layoutIfNeeded()
        let oldCounts = counts ?? fetchCounts()
        let mapping = try batch.validated(oldCounts: oldCounts, newCounts: try batch.expectedCounts(after: oldCounts))
        // Taken before the app changes its data, as the block form takes it.
        pendingBefore = captureBefore()
        updatingData(mapping)
        return try applyBatchUpdates { record(batch) }
    }

    /// Inserts items (after-positions). Outside a batch it is a batch of its own.
    public func insertItems(at indexPaths: [IndexPath]) {
        change { $0.insertItems(at: indexPaths) }
    }

    /// Deletes items (before-positions).
    public func deleteItems(at indexPaths: [IndexPath]) {
        change { $0.deleteItems(at: indexPaths) }
    }

    /// Reloads items: each is deleted and inserted at the same path, and not animated as a move.
    public func reloadItems(at indexPaths: [IndexPath]) {
        change { $0.reloadItems(at: indexPaths) }
    }

    /// Updates visible cells in place: the data source is asked for each one again and the cell
    /// it dequeues is the one already shown, so nothing is deleted, inserted or animated.
    public func reconfigureItems(at indexPaths: [IndexPath]) {
        guard let dataSource else { return }
        for path in indexPaths where path.count == 2 {
            let id = ElementID(category: .cell, kind: nil, section: path.section, item: path.item)
            guard let cell = visibleViews[id] as? CollectionViewCell else { continue }
            pool.reconfiguring = cell
            let answered = dataSource.collectionView(self, cellForItemAt: path)
            pool.reconfiguring = nil
            if answered !== cell {
                note(.reconfigureDidNotReuse(path))
                pool.enqueue(answered, kind: .cell)
            }
        }
    }

    /// Moves an item from a before-position to an after-position.
    public func moveItem(at indexPath: IndexPath, to newIndexPath: IndexPath) {
        change { $0.moveItem(at: indexPath, to: newIndexPath) }
    }

    /// Inserts sections (after-positions).
    public func insertSections(_ sections: IndexSet) {
        change { $0.insertSections(sections) }
    }

    /// Deletes sections (before-positions) with their items.
    public func deleteSections(_ sections: IndexSet) {
        change { $0.deleteSections(sections) }
    }

    /// Reloads sections.
    public func reloadSections(_ sections: IndexSet) {
        change { $0.reloadSections(sections) }
    }

    /// Moves a section.
    public func moveSection(_ section: Int, toSection newSection: Int) {
        change { $0.moveSection(section, toSection: newSection) }
    }

    private func change(_ record: (inout BatchUpdate) -> Void) {
        if batchDepth > 0 {
            record(&pendingBatch)
        } else {
            _ = try? applyBatchUpdates { record(&pendingBatch) }
        }
    }

    /// Records a whole batch inside ``applyBatchUpdates(_:)``: what a diffable data source or a
    /// spec hands over at once.
    package func record(_ batch: BatchUpdate) {
        if batchDepth > 0 {
            pendingBatch.append(batch)
        } else {
            _ = try? applyBatchUpdates { pendingBatch.append(batch) }
        }
    }

    /// Completes the current transition: views that animated out go back to the reuse pool.
    public func completeTransition() {
        for view in disappearingViews {
            let id = view.appliedLayoutAttributes.map(ElementID.init)
            pool.enqueue(view, kind: id.map(ReusePool.Kind.init) ?? .cell)
        }
        disappearingViews = []
        currentTransition = nil
    }

    /// The update's steps: validate (nothing changes on failure) → remember what was visible →
    /// take the new counts → invalidate the counts and prepare the layout →
    /// `prepare(forCollectionViewUpdates:)` → settle the offset → the transition through the
    /// initial/final hooks → `finalizeCollectionViewUpdates()` → views.
    func commit(_ batch: BatchUpdate, before: Before, newCounts given: [Int]? = nil) throws(BatchUpdateError) -> CollectionViewTransition {
        let oldCounts = counts ?? fetchCounts()
        // Placeholders keep their places through an app's batch (the data source's counts
        // change, and they are added to them where they now stand).
        let savedPhantoms = given == nil ? mapPhantoms(through: batch, oldCounts: oldCounts) : nil
        let newCounts = given ?? fetchCounts()
        let mapping: UpdateMapping
        do {
            mapping = try batch.validated(oldCounts: oldCounts, newCounts: newCounts)
        } catch {
            if let savedPhantoms {
                for (phantom, path) in zip(phantoms, savedPhantoms) { phantom.indexPath = path }
            }
            throw error
        }
        counts = newCounts
        mapSelection(through: mapping)
        let layout = collectionViewLayout
        layout.invalidateLayout(with: type(of: layout).makeInvalidationContext(dataSourceCounts: true))
        runPrepareIfNeeded()
        let map = ElementMap(mapping: mapping)
        updateInProgress = UpdateContext(map: map, before: before.layoutNearby)
        defer { updateInProgress = nil }
        layout.prepare(forCollectionViewUpdates: mapping.updateItems)
        contentSize = layout.collectionViewContentSize
        let proposed = layoutTargetOffset(layout, proposed: bounds.origin)
        settleOffset(proposed: delegate?.collectionView(self, targetContentOffsetForProposedContentOffset: proposed) ?? proposed)
        let transition = runTransition(
            before: before, map: map, layout: layout,
            initial: { [unowned self] id in self.shown(Self.initialAttributes(layout, id)) },
            final: { [unowned self] id in self.shown(Self.finalAttributes(layout, id)) })
        layout.finalizeCollectionViewUpdates()
        for (id, view) in visibleViews where id.category == .cell {
            (view as? CollectionViewCell)?.isSelected = selection.contains(id.indexPath)
        }
        return transition
    }

    /// Replaces the layout, animating every element from the old layout's attributes to the new
    /// one's. Without animation the transition is still recorded, and completed at once.
    public func setCollectionViewLayout(_ layout: CollectionViewLayout, animated: Bool) {
        setCollectionViewLayout(layout, animated: animated, completion: nil)
    }

    /// Replaces the layout, then calls `completion` with `true`.
    public func setCollectionViewLayout(_ layout: CollectionViewLayout, animated: Bool, completion: ((Bool) -> Void)?) {
        let oldLayout = collectionViewLayout
        guard layout !== oldLayout else { completion?(true); return }
        layoutIfNeeded()
        let before = captureBefore()
        for view in visibleViews.values { view.willTransition(from: oldLayout, to: layout) }
        oldLayout.prepareForTransition(to: layout)
        replaceLayout(with: layout)
        layout.prepareForTransition(from: oldLayout)
        runPrepareIfNeeded()
        contentSize = layout.collectionViewContentSize
        let proposed = layoutTargetOffset(layout, proposed: bounds.origin)
        settleOffset(proposed: delegate?.collectionView(self, targetContentOffsetForProposedContentOffset: proposed) ?? proposed)
        let map = ElementMap(mapping: .identity(counts: counts ?? []))
        updateInProgress = UpdateContext(map: map, before: before.layoutNearby)
        defer { updateInProgress = nil }
        runTransition(
            before: before, map: map, layout: layout,
            initial: { [unowned self] id in self.shown(Self.initialAttributes(layout, id)) },
            final: { [unowned self] id in self.shown(Self.finalAttributes(oldLayout, id)) })
        oldLayout.finalizeLayoutTransition()
        layout.finalizeLayoutTransition()
        for view in visibleViews.values { view.didTransition(from: oldLayout, to: layout) }
        if !animated { completeTransition() }
        completion?(true)
    }

    /// Resizes or moves the viewport with an animation: the layout is told with
    /// `prepare(forAnimatedBoundsChange:)`, and elements that come or go take the layout's
    /// initial/final attributes. Returns (and records) the transition.
    @discardableResult
    public func setBounds(_ newBounds: CGRect, animated: Bool) -> CollectionViewTransition {
        guard animated else {
            bounds = newBounds
            layoutIfNeeded()
            return .none
        }
        layoutIfNeeded()
        let before = captureBefore()
        let layout = collectionViewLayout
        let oldBounds = bounds
        bounds = newBounds
        runPrepareIfNeeded()
        layout.prepare(forAnimatedBoundsChange: oldBounds)
        contentSize = layout.collectionViewContentSize
        let map = ElementMap(mapping: .identity(counts: counts ?? []))
        updateInProgress = UpdateContext(map: map, before: before.layoutNearby)
        defer { updateInProgress = nil }
        let transition = runTransition(
            before: before, map: map, layout: layout,
            initial: { [unowned self] id in self.shown(Self.initialAttributes(layout, id)) },
            final: { [unowned self] id in self.shown(Self.finalAttributes(layout, id)) })
        layout.finalizeAnimatedBoundsChange()
        return transition
    }

    /// Reloads everything and returns (and records) the transition from what was shown to what
    /// is shown now: an element at the same index path before and after moves from its old
    /// attributes to its new ones (its content may have changed — a reload cannot know), others
    /// fade out or in where they are. The layout's initial/final hooks are not asked, since
    /// nothing was inserted or deleted.
    @discardableResult
    public func reloadData(animated: Bool) -> CollectionViewTransition {
        guard animated else {
            reloadData()
            layoutIfNeeded()
            return .none
        }
        layoutIfNeeded()
        let before = captureBefore()
        let oldCounts = counts ?? []
        reloadData()
        layoutIfNeeded()
        let layout = collectionViewLayout
        return runTransition(
            before: before, map: ElementMap(mapping: .identity(counts: oldCounts)), layout: layout,
            initial: { [unowned self] id in self.shown(Self.attributes(layout, id)).map { Self.faded($0) } },
            final: { id in before.nearby[id].map { Self.faded($0) } })
    }

    // MARK: Building transitions

    /// What was visible (as last applied), and the old layout's elements a viewport around the
    /// viewport: where elements that the change brings into view come from.
    struct Before {
        var visible: [ElementID: CollectionViewLayoutAttributes]
        var nearby: [ElementID: CollectionViewLayoutAttributes]
        /// `nearby` in the layout's coordinates (the same but for a right-to-left view): what a
        /// layout's initial and final hooks read.
        var layoutNearby: [ElementID: CollectionViewLayoutAttributes]
        var offset: CGPoint
        var size: CGSize
    }

    /// What is shown now, and the elements a viewport around it holds (which may move into
    /// view), asked of the layout before it is invalidated: in a batch's block form, before the
    /// block changes the app's data.
    func captureBefore() -> Before {
        var visible: [ElementID: CollectionViewLayoutAttributes] = [:]
        for (id, view) in visibleViews {
            if let attributes = view.appliedLayoutAttributes { visible[id] = attributes }
        }
        var nearby: [ElementID: CollectionViewLayoutAttributes] = [:]
        let around = bounds.insetBy(dx: -bounds.width, dy: -bounds.height)
        layoutQueryCount += 1
        let mirroring = isMirroringLayout
        var layoutNearby: [ElementID: CollectionViewLayoutAttributes] = [:]
        for attributes in collectionViewLayout.layoutAttributesForElements(in: mirroring ? mirrored(around) : around) ?? [] {
            let id = ElementID(attributes)
            let snapshot = TransitionPlanner.snapshot(attributes)
            layoutNearby[id] = snapshot
            nearby[id] = mirroring ? mirrored(snapshot) : snapshot
        }
        for (id, attributes) in visible where nearby[id] == nil {
            nearby[id] = attributes
            layoutNearby[id] = mirroring ? mirrored(attributes) : attributes
        }
        return Before(visible: visible, nearby: nearby, layoutNearby: layoutNearby, offset: bounds.origin, size: contentSize)
    }

    /// Clamps a proposed offset to the content (plus insets) and moves the viewport there.
    func settleOffset(proposed: CGPoint) {
        let clamped = clampedOffset(proposed)
        if clamped != bounds.origin { bounds.origin = clamped }
        runPrepareIfNeeded()
    }

    /// A copy of `attributes` with alpha 0.
    static func faded(_ attributes: CollectionViewLayoutAttributes) -> CollectionViewLayoutAttributes {
        let copy = TransitionPlanner.snapshot(attributes)
        copy.alpha = 0
        return copy
    }

    static func attributes(_ layout: CollectionViewLayout, _ id: ElementID) -> CollectionViewLayoutAttributes? {
        switch id.category {
        case .cell: return layout.layoutAttributesForItem(at: id.indexPath)
        case .supplementaryView: return layout.layoutAttributesForSupplementaryView(ofKind: id.kind ?? "", at: id.indexPath)
        case .decorationView: return layout.layoutAttributesForDecorationView(ofKind: id.kind ?? "", at: id.indexPath)
        }
    }

    static func initialAttributes(_ layout: CollectionViewLayout, _ id: ElementID) -> CollectionViewLayoutAttributes? {
        switch id.category {
        case .cell: layout.initialLayoutAttributesForAppearingItem(at: id.indexPath)
        case .supplementaryView: layout.initialLayoutAttributesForAppearingSupplementaryElement(ofKind: id.kind ?? "", at: id.indexPath)
        case .decorationView: layout.initialLayoutAttributesForAppearingDecorationElement(ofKind: id.kind ?? "", at: id.indexPath)
        }
    }

    static func finalAttributes(_ layout: CollectionViewLayout, _ id: ElementID) -> CollectionViewLayoutAttributes? {
        switch id.category {
        case .cell: layout.finalLayoutAttributesForDisappearingItem(at: id.indexPath)
        case .supplementaryView: layout.finalLayoutAttributesForDisappearingSupplementaryElement(ofKind: id.kind ?? "", at: id.indexPath)
        case .decorationView: layout.finalLayoutAttributesForDisappearingDecorationElement(ofKind: id.kind ?? "", at: id.indexPath)
        }
    }

    /// Plans the transition (``TransitionPlanner``), then the views follow it: moving ones that
    /// stay visible keep their view, the others are held until the transition completes, and
    /// appearing ones are dequeued by the next visible-set pass.
    @discardableResult
    func runTransition(
        before: Before, map: ElementMap, layout: CollectionViewLayout,
        initial: @escaping (ElementID) -> CollectionViewLayoutAttributes?,
        final: @escaping (ElementID) -> CollectionViewLayoutAttributes?
    ) -> CollectionViewTransition {
        completeTransition()
        dropPreparedElements()
        var after: [ElementID: CollectionViewLayoutAttributes] = [:]
        for attributes in visibleElements() { after[ElementID(attributes)] = attributes }
        // The layout's answers, as the view shows them (`initial` and `final` give them so).
        let show: (CollectionViewLayoutAttributes?) -> CollectionViewLayoutAttributes? =
            isMirroringLayout ? { [unowned self] in $0.map { self.mirrored($0) } } : { $0 }
        let elements = TransitionPlanner.plan(
            .init(
                visibleBefore: before.visible, visibleAfter: after, map: map,
                attributesAfter: { show(Self.attributes(layout, $0)) },
                initial: initial, final: final))
        var kept: [ElementID: CollectionReusableView] = [:]
        var leaving: [CollectionReusableView] = []
        var used = Set<ObjectIdentifier>()
        for element in elements where element.role != .appearing {
            guard let oldID = element.before, let view = visibleViews[oldID] else { continue }
            used.insert(ObjectIdentifier(view))
            if element.role == .moving, let newID = element.after, after[newID] != nil {
                kept[newID] = view
            } else {
                leaving.append(view)
            }
        }
        for (id, view) in visibleViews where !used.contains(ObjectIdentifier(view)) { endDisplaying(id, view) }
        visibleViews = kept
        disappearingViews = leaving
        updateVisibleSet()
        let transition = CollectionViewTransition(
            elements: elements, contentSizeBefore: before.size,
            contentSizeAfter: contentSize, contentOffsetBefore: before.offset,
            contentOffsetAfter: bounds.origin)
        currentTransition = transition
        return transition
    }

    /// Swaps the layout object: the old one is detached, the new one attached and invalidated.
    func replaceLayout(with layout: CollectionViewLayout) {
        let old = layoutStorage
        old.attach(to: nil)
        layoutStorage = layout
        layout.attach(to: self)
        dropPreparedElements()
    }
}
