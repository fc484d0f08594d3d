import Foundation
import TrellisLayout

extension CollectionView {
    // MARK: Batch updates

    /// Collects the changes made in `updates` (nested calls included) and applies them at once,
    /// as `UICollectionView.performBatchUpdates(_:completion:)` does. Inside the batch the
    /// collection view still reports the old counts; the data source is asked again at the end.
    ///
    /// An invalid batch throws a ``BatchUpdateError`` with UIKit's message and leaves the
    /// collection view exactly as it was. A valid one returns the transition of every element
    /// visible before or after (a nested call returns ``CollectionViewTransition/none``).
    @discardableResult
    public func performBatchUpdates(_ updates: () throws -> Void,
                                    completion: ((Bool) -> Void)? = nil) throws -> CollectionViewTransition {
        if batchDepth == 0 {
            layoutIfNeeded()
            pendingBatch = BatchUpdate()
        }
        batchDepth += 1
        do {
            try updates()
        } catch {
            batchDepth -= 1
            if batchDepth == 0 { pendingBatch = BatchUpdate() }
            throw error
        }
        batchDepth -= 1
        guard batchDepth == 0 else { return .none }
        let batch = pendingBatch
        pendingBatch = BatchUpdate()
        let transition = try commit(batch)
        completion?(true)
        return transition
    }

    /// Inserts items (after-positions). Outside a batch it is a batch of its own.
    @discardableResult
    public func insertItems(at indexPaths: [IndexPath]) throws -> CollectionViewTransition {
        try change { $0.insertItems(at: indexPaths) }
    }

    /// Deletes items (before-positions).
    @discardableResult
    public func deleteItems(at indexPaths: [IndexPath]) throws -> CollectionViewTransition {
        try change { $0.deleteItems(at: indexPaths) }
    }

    /// Reloads items: each is deleted and inserted at the same path, and not animated as a move.
    @discardableResult
    public func reloadItems(at indexPaths: [IndexPath]) throws -> CollectionViewTransition {
        try change { $0.reloadItems(at: indexPaths) }
    }

    /// Moves an item from a before-position to an after-position.
    @discardableResult
    public func moveItem(at indexPath: IndexPath, to newIndexPath: IndexPath) throws -> CollectionViewTransition {
        try change { $0.moveItem(at: indexPath, to: newIndexPath) }
    }

    /// Inserts sections (after-positions).
    @discardableResult
    public func insertSections(_ sections: IndexSet) throws -> CollectionViewTransition {
        try change { $0.insertSections(sections) }
    }

    /// Deletes sections (before-positions) with their items.
    @discardableResult
    public func deleteSections(_ sections: IndexSet) throws -> CollectionViewTransition {
        try change { $0.deleteSections(sections) }
    }

    /// Reloads sections.
    @discardableResult
    public func reloadSections(_ sections: IndexSet) throws -> CollectionViewTransition {
        try change { $0.reloadSections(sections) }
    }

    /// Moves a section.
    @discardableResult
    public func moveSection(_ section: Int, toSection newSection: Int) throws -> CollectionViewTransition {
        try change { $0.moveSection(section, toSection: newSection) }
    }

    private func change(_ record: (inout BatchUpdate) -> Void) throws -> CollectionViewTransition {
        if batchDepth > 0 {
            record(&pendingBatch)
            return .none
        }
        return try performBatchUpdates { record(&pendingBatch) }
    }

    /// Completes the current transition: views that animated out go back to the reuse pool.
    public func completeTransition() {
        for view in disappearingViews { pool.enqueue(view, kind: view.layoutAttributes.map(poolKind) ?? nil) }
        disappearingViews = []
        currentTransition = nil
    }

    func poolKind(_ attributes: CollectionViewLayoutAttributes) -> String? {
        switch attributes.representedElementCategory {
        case .cell: return nil
        case .supplementaryView: return attributes.representedElementKind ?? ""
        case .decorationView: return "decoration:" + (attributes.representedElementKind ?? "")
        }
    }

    /// The update's steps: validate (nothing changes on failure) → remember what was visible →
    /// take the new counts → invalidate the counts and prepare the layout →
    /// `prepare(forCollectionViewUpdates:)` → settle the offset → the new visible set → the
    /// transition through the initial/final hooks → `finalizeCollectionViewUpdates()` → views.
    func commit(_ batch: BatchUpdate) throws -> CollectionViewTransition {
        let oldCounts = counts ?? fetchCounts()
        let newCounts = fetchCounts()
        let mapping = try batch.validated(oldCounts: oldCounts, newCounts: newCounts)
        let before = captureBefore()
        counts = newCounts
        let layout = collectionViewLayout
        let context = type(of: layout).invalidationContextClass.init()
        context.setHostFlags(everything: false, dataSourceCounts: true)
        layout.invalidateLayout(with: context)
        if layout.prepareIfNeeded() { prepareCount += 1 }
        layout.prepare(forCollectionViewUpdates: mapping.updateItems)
        contentSize = layout.collectionViewContentSize
        settleOffset(proposed: layout.targetContentOffset(forProposedContentOffset: bounds.origin))
        let transition = buildTransition(before: before, map: ElementMap(mapping: mapping), layout: layout,
                                         initial: { id in Self.initialAttributes(layout, id) },
                                         final: { id in Self.finalAttributes(layout, id) })
        layout.finalizeCollectionViewUpdates()
        return transition
    }

    /// Replaces the layout, animating every element from the old layout's attributes to the new
    /// one's (`setCollectionViewLayout(_:animated:)`). Without animation the transition is still
    /// computed and returned, and completed at once.
    @discardableResult
    public func setCollectionViewLayout(_ newLayout: CollectionViewLayout, animated: Bool) -> CollectionViewTransition {
        layoutIfNeeded()
        let oldLayout = collectionViewLayout
        guard newLayout !== oldLayout else { return .none }
        let before = captureBefore()
        oldLayout.prepareForTransition(to: newLayout)
        collectionViewLayout = newLayout
        newLayout.prepareForTransition(from: oldLayout)
        if newLayout.prepareIfNeeded() { prepareCount += 1 }
        contentSize = newLayout.collectionViewContentSize
        settleOffset(proposed: newLayout.targetContentOffset(forProposedContentOffset: bounds.origin))
        let counts = self.counts ?? []
        let transition = buildTransition(before: before, map: ElementMap(mapping: .identity(counts: counts)), layout: newLayout,
                                         initial: { id in Self.initialAttributes(newLayout, id) },
                                         final: { id in Self.finalAttributes(oldLayout, id) })
        oldLayout.finalizeLayoutTransition()
        newLayout.finalizeLayoutTransition()
        if !animated { completeTransition() }
        return transition
    }

    /// Resizes or moves the viewport with an animation: the layout is told with
    /// `prepare(forAnimatedBoundsChange:)`, and elements that come or go fade unless the layout's
    /// initial/final hooks say otherwise.
    @discardableResult
    public func setBounds(_ newBounds: CGRect, animated: Bool) -> CollectionViewTransition {
        guard animated else {
            setBounds(newBounds)
            layoutIfNeeded()
            return .none
        }
        layoutIfNeeded()
        let before = captureBefore()
        let layout = collectionViewLayout
        let oldBounds = bounds
        setBounds(newBounds)
        if layout.prepareIfNeeded() { prepareCount += 1 }
        layout.prepare(forAnimatedBoundsChange: oldBounds)
        contentSize = layout.collectionViewContentSize
        let transition = buildTransition(before: before, map: ElementMap(mapping: .identity(counts: counts ?? [])),
                                         layout: layout,
                                         initial: { id in Self.initialAttributes(layout, id) },
                                         final: { id in Self.finalAttributes(layout, id) })
        layout.finalizeAnimatedBoundsChange()
        return transition
    }

    /// Reloads everything and returns the transition from what was shown to what is shown now:
    /// an element at the same index path before and after moves from its old attributes to its
    /// new ones (its content may have changed — a reload cannot know), others fade out or in.
    /// The layout's initial/final hooks are not asked, since nothing was inserted or deleted.
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
        return buildTransition(before: before, map: ElementMap(mapping: .identity(counts: oldCounts)),
                               layout: collectionViewLayout, initial: { _ in nil }, final: { _ in nil })
    }

    // MARK: Building transitions

    struct Before {
        var visible: [ElementID: CollectionViewLayoutAttributes]
        var nearby: [ElementID: CollectionViewLayoutAttributes]
        var offset: CGPoint
        var size: CGSize
    }

    /// What was visible (as last applied), and the old layout's elements a page around the
    /// viewport: where elements that the change brings into view come from.
    func captureBefore() -> Before {
        var visible: [ElementID: CollectionViewLayoutAttributes] = [:]
        for (id, view) in visibleViews { if let attributes = view.layoutAttributes { visible[id] = attributes } }
        let around = bounds.insetBy(dx: -bounds.width, dy: -bounds.height)
        layoutQueryCount += 1
        var nearby: [ElementID: CollectionViewLayoutAttributes] = [:]
        for attributes in collectionViewLayout.layoutAttributesForElements(in: around) ?? [] {
            nearby[ElementID(attributes)] = attributes
        }
        return Before(visible: visible, nearby: nearby, offset: bounds.origin, size: contentSize)
    }

    /// Clamps a proposed offset to the content (plus insets) and moves the viewport there.
    func settleOffset(proposed: CGPoint) {
        let clamped = clampedOffset(proposed)
        if clamped != bounds.origin { setBounds(CGRect(origin: clamped, size: bounds.size)) }
        if collectionViewLayout.prepareIfNeeded() { prepareCount += 1 }
    }

    /// Old ↔ new identities of elements through an update mapping: cells by index path,
    /// supplementary and decoration views by section.
    struct ElementMap {
        let mapping: UpdateMapping

        func new(_ old: ElementID) -> ElementID? {
            var id = old
            if old.category == .cell {
                guard let path = mapping.newIndexPath(forOld: old.indexPath) else { return nil }
                id.section = path.section
                id.item = path.item
            } else {
                guard let section = mapping.newSection(forOld: old.section) else { return nil }
                id.section = section
            }
            return id
        }

        func old(_ new: ElementID) -> ElementID? {
            var id = new
            if new.category == .cell {
                guard let path = mapping.oldIndexPath(forNew: new.indexPath) else { return nil }
                id.section = path.section
                id.item = path.item
            } else {
                guard let section = mapping.oldSection(forNew: new.section) else { return nil }
                id.section = section
            }
            return id
        }
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
        case .cell: return layout.initialLayoutAttributesForAppearingItem(at: id.indexPath)
        case .supplementaryView:
            return layout.initialLayoutAttributesForAppearingSupplementaryElement(ofKind: id.kind ?? "", at: id.indexPath)
        case .decorationView:
            return layout.initialLayoutAttributesForAppearingDecorationElement(ofKind: id.kind ?? "", at: id.indexPath)
        }
    }

    static func finalAttributes(_ layout: CollectionViewLayout, _ id: ElementID) -> CollectionViewLayoutAttributes? {
        switch id.category {
        case .cell: return layout.finalLayoutAttributesForDisappearingItem(at: id.indexPath)
        case .supplementaryView:
            return layout.finalLayoutAttributesForDisappearingSupplementaryElement(ofKind: id.kind ?? "", at: id.indexPath)
        case .decorationView:
            return layout.finalLayoutAttributesForDisappearingDecorationElement(ofKind: id.kind ?? "", at: id.indexPath)
        }
    }

    static func faded(_ attributes: CollectionViewLayoutAttributes) -> CollectionViewLayoutAttributes {
        var faded = attributes
        faded.alpha = 0
        return faded
    }

    /// Pairs what was visible with what is visible now:
    /// - visible before and still present: moves from its old to its new attributes (asked of
    ///   the layout when it ends outside the viewport);
    /// - visible before and gone: disappears to the layout's final attributes, or fades out;
    /// - visible now and not paired: appears from the layout's initial attributes — asked for
    ///   every appearing element, inserted or not — else from where it was before the change if
    ///   that was near the viewport, else fades in.
    /// Then the views follow: moving ones keep their view, disappearing ones are kept until the
    /// transition completes, appearing ones are dequeued.
    func buildTransition(before: Before, map: ElementMap, layout: CollectionViewLayout,
                         initial: (ElementID) -> CollectionViewLayoutAttributes?,
                         final: (ElementID) -> CollectionViewLayoutAttributes?) -> CollectionViewTransition {
        completeTransition()
        dropPreparedElements()
        let nowVisible = visibleElements()
        var after: [ElementID: CollectionViewLayoutAttributes] = [:]
        for attributes in nowVisible { after[ElementID(attributes)] = attributes }
        var moving: [CollectionViewTransition.Element] = []
        var disappearing: [CollectionViewTransition.Element] = []
        var appearing: [CollectionViewTransition.Element] = []
        var paired = Set<ElementID>()
        var views: [ElementID: CollectionReusableView] = [:]
        var leaving: [CollectionReusableView] = []
        for (oldID, from) in before.visible.sorted(by: { $0.key < $1.key }) {
            let view = visibleViews[oldID]
            if let newID = map.new(oldID), let to = after[newID] ?? Self.attributes(layout, newID) {
                moving.append(.init(before: oldID, after: newID, role: .moving, from: from, to: to))
                paired.insert(newID)
                if after[newID] != nil, let view { views[newID] = view } else if let view { leaving.append(view) }
            } else {
                disappearing.append(.init(before: oldID, after: nil, role: .disappearing, from: from,
                                          to: final(oldID) ?? Self.faded(from)))
                if let view { leaving.append(view) }
            }
        }
        for (newID, to) in after.sorted(by: { $0.key < $1.key }) where !paired.contains(newID) {
            let oldID = map.old(newID)
            let from = initial(newID) ?? oldID.flatMap { before.nearby[$0] } ?? Self.faded(to)
            appearing.append(.init(before: oldID, after: newID, role: .appearing, from: from, to: to))
        }
        // Views: keep the moving ones, hold the leaving ones until completion, dequeue the rest.
        for (id, view) in visibleViews where !views.values.contains(where: { $0 === view })
            && !leaving.contains(where: { $0 === view }) {
            endDisplaying(id, view)
        }
        visibleViews = views
        disappearingViews = leaving
        updateVisibleSet()
        let transition = CollectionViewTransition(elements: moving + disappearing + appearing,
                                                  contentSizeBefore: before.size, contentSizeAfter: contentSize,
                                                  contentOffsetBefore: before.offset, contentOffsetAfter: bounds.origin)
        currentTransition = transition
        return transition
    }
}
