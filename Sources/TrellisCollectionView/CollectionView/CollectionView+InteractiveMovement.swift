import Foundation

/// An item being moved interactively: where it started, where it is shown now, and the
/// position it follows.
struct InteractiveMovement {
    var original: IndexPath
    var current: IndexPath
    var position: CGPoint
    /// Where the item was before its last move (the original place before any): what the
    /// ending context reports as its previous index path, as UIKit's does.
    var beforeLastMove: IndexPath
}

extension CollectionView {
    // MARK: Interactive movement

    /// Starts moving the item at `indexPath` interactively, as a long press does: `false` when
    /// a move is under way, the index path names no item, or the data source's
    /// `collectionView(_:canMoveItemAt:)` says no. The item's view then shows the layout's
    /// `layoutAttributesForInteractivelyMovingItem(at:withTargetPosition:)` — its own attributes,
    /// centred on the position it follows and above every other element.
    @discardableResult
    public func beginInteractiveMovementForItem(at indexPath: IndexPath) -> Bool {
        guard interactiveMovement == nil, batchDepth == 0 else { return false }
        layoutIfNeeded()
        guard indexPath.count == 2, indexPath.section >= 0, indexPath.section < numberOfSections,
            indexPath.item >= 0, indexPath.item < numberOfItems(inSection: indexPath.section),
            let dataSource, dataSource.collectionView(self, canMoveItemAt: indexPath),
            let attributes = collectionViewLayout.layoutAttributesForItem(at: indexPath)
        else { return false }
        interactiveMovement = InteractiveMovement(
            original: indexPath, current: indexPath,
            position: isMirroringLayout ? mirrored(attributes.center) : attributes.center, beforeLastMove: indexPath)
        updateVisibleSet()
        return true
    }

    /// Moves the item being moved to follow `targetPosition`. The layout proposes an index path
    /// (`targetIndexPath(forInteractivelyMovingItem:withPosition:)`), the delegate decides
    /// (`collectionView(_:targetIndexPathForMoveOfItemFromOriginalIndexPath:atCurrentIndexPath:toProposedIndexPath:)`),
    /// and the layout is invalidated with
    /// `invalidationContext(forInteractivelyMovingItems:withTargetPosition:previousIndexPaths:previousPosition:)`.
    /// When the index path changes the item moves there as in a batch update of one move — the
    /// other items make way, animated by ``currentTransition`` — without asking the data source:
    /// it is told once, when the move ends. An answer that names no place the item can take
    /// keeps it where it is. Does nothing when no move is under way.
    public func updateInteractiveMovementTargetPosition(_ targetPosition: CGPoint) {
        guard var movement = interactiveMovement, targetPosition.x.isFinite, targetPosition.y.isFinite else { return }
        layoutIfNeeded()
        let layout = collectionViewLayout
        let inLayout = isMirroringLayout ? mirrored(targetPosition) : targetPosition
        let proposed = layout.targetIndexPath(forInteractivelyMovingItem: movement.current, withPosition: inLayout)
        var target = proposed
        if proposed != movement.current, let delegate {
            target = delegate.collectionView(
                self, targetIndexPathForMoveOfItemFromOriginalIndexPath: movement.original,
                atCurrentIndexPath: movement.current, toProposedIndexPath: proposed)
        }
        if !canTakeMovingItem(target, from: movement.current) { target = movement.current }
        let context = layout.invalidationContext(
            forInteractivelyMovingItems: [target], withTargetPosition: inLayout,
            previousIndexPaths: [movement.current],
            previousPosition: isMirroringLayout ? mirrored(movement.position) : movement.position)
        let previous = movement.current
        if target != previous { movement.beforeLastMove = previous }
        movement.current = target
        movement.position = targetPosition
        if target == previous {
            interactiveMovement = movement
            layout.invalidateLayout(with: context)
            layoutIfNeeded()
            return
        }
        let before = captureBefore()
        interactiveMovement = movement
        layout.invalidateLayout(with: context)
        commitMove(from: previous, to: target, before: before)
    }

    /// Ends the move where the item is shown: the layout is invalidated with
    /// `invalidationContextForEndingInteractiveMovementOfItems(toFinalIndexPaths:previousIndexPaths:movementCancelled:)`
    /// (its previous index path the one the item had before its last move, as UIKit gives it),
    /// the data source's `collectionView(_:moveItemAt:to:)` is called once, from the original to
    /// the final index path (not when they are the same), and the item settles into its place
    /// (``currentTransition``).
    public func endInteractiveMovement() {
        guard let movement = interactiveMovement else { return }
        layoutIfNeeded()
        let layout = collectionViewLayout
        let before = captureBefore()
        let context = layout.invalidationContextForEndingInteractiveMovementOfItems(
            toFinalIndexPaths: [movement.current], previousIndexPaths: [movement.beforeLastMove], movementCancelled: false)
        interactiveMovement = nil
        if movement.original != movement.current {
            dataSource?.collectionView(self, moveItemAt: movement.original, to: movement.current)
        }
        let shown = counts ?? []
        let reported = fetchCounts()
        if reported != shown {
            note(.moveCountsDiffer(shown: shown, reported: reported))
            counts = reported
            layout.invalidateLayout(with: type(of: layout).makeInvalidationContext(everything: true, dataSourceCounts: true))
        }
        layout.invalidateLayout(with: context)
        settle(before: before, layout: layout)
    }

    /// Ends the move by putting the item back where it started: the other items return as in a
    /// batch update of one move, the layout's ending context says `movementCancelled`, and the
    /// data source is not told.
    public func cancelInteractiveMovement() {
        guard let movement = interactiveMovement else { return }
        layoutIfNeeded()
        let layout = collectionViewLayout
        let before = captureBefore()
        let context = layout.invalidationContextForEndingInteractiveMovementOfItems(
            toFinalIndexPaths: [movement.original], previousIndexPaths: [movement.beforeLastMove], movementCancelled: true)
        interactiveMovement = nil
        layout.invalidateLayout(with: context)
        if movement.current != movement.original {
            commitMove(from: movement.current, to: movement.original, before: before)
        } else {
            settle(before: before, layout: layout)
        }
    }

    /// The index path the data source knows the shown item at `path` by: the same, except during
    /// an interactive move, whose item is shown at its current place while the data source still
    /// holds it at its original one, and after drop placeholders or a drop's gap, which the data
    /// source does not count.
    func dataSourceIndexPath(forShown path: IndexPath) -> IndexPath {
        let unmoved = undoingInteractiveMove(path)
        return phantoms.isEmpty ? unmoved : dataIndexPath(forPhantomSpace: unmoved)
    }

    /// Where the item shown at `path` was before the interactive move under way.
    func undoingInteractiveMove(_ path: IndexPath) -> IndexPath {
        guard let movement = interactiveMovement, path.count == 2 else { return path }
        if path == movement.current { return movement.original }
        var item = path.item
        if path.section == movement.current.section && item > movement.current.item { item -= 1 }
        if path.section == movement.original.section && item >= movement.original.item { item += 1 }
        return IndexPath(item: item, section: path.section)
    }

    /// Where the item at `path` before the interactive move under way is shown now.
    func redoingInteractiveMove(_ path: IndexPath) -> IndexPath {
        guard let movement = interactiveMovement, path.count == 2 else { return path }
        if path == movement.original { return movement.current }
        var item = path.item
        if path.section == movement.original.section && item > movement.original.item { item -= 1 }
        if path.section == movement.current.section && item >= movement.current.item { item += 1 }
        return IndexPath(item: item, section: path.section)
    }

    /// The elements to show: the layout's, with the moving item's attributes in place of its
    /// slot's during an interactive move.
    func presented(_ elements: [CollectionViewLayoutAttributes]) -> [CollectionViewLayoutAttributes] {
        guard let movement = interactiveMovement else { return elements }
        var result = elements.filter { !($0.representedElementCategory == .cell && $0.indexPath == movement.current) }
        let mirroring = isMirroringLayout
        let moving = collectionViewLayout.layoutAttributesForInteractivelyMovingItem(
            at: movement.current, withTargetPosition: mirroring ? mirrored(movement.position) : movement.position)
        result.append(mirroring ? mirrored(moving) : moving)
        return result
    }

    /// Whether the moving item, shown at `current`, can be shown at `target`: an item's place in
    /// its own section, or any place up to the end of another.
    func canTakeMovingItem(_ target: IndexPath, from current: IndexPath) -> Bool {
        guard target.count == 2, target.section >= 0, target.section < numberOfSections, target.item >= 0 else { return false }
        let count = numberOfItems(inSection: target.section)
        return target.section == current.section ? target.item < count : target.item <= count
    }

    /// Shows the moving item at `to` instead of `from`: a batch update of that one move, with the
    /// counts shown (an item that changes sections moves one from one count to the other).
    func commitMove(from: IndexPath, to: IndexPath, before: Before) {
        var batch = BatchUpdate()
        batch.moveItem(at: from, to: to)
        var shown = counts ?? fetchCounts()
        if from.section != to.section, shown.indices.contains(from.section), shown.indices.contains(to.section) {
            shown[from.section] -= 1
            shown[to.section] += 1
        }
        do {
            _ = try commit(batch, before: before, newCounts: shown)
            lastUpdateError = nil
        } catch {
            // The target was checked against the counts; a refusal here is a bug to report.
            lastUpdateError = error
            note(.batchRefused(error.message))
        }
    }

    /// Lays out after the end of a move and records the settling as the current transition.
    private func settle(before: Before, layout: CollectionViewLayout) {
        runPrepareIfNeeded()
        contentSize = layout.collectionViewContentSize
        let map = ElementMap(mapping: .identity(counts: counts ?? []))
        runTransition(
            before: before, map: map, layout: layout,
            initial: { [unowned self] id in self.shown(Self.attributes(layout, id)) },
            final: { [unowned self] id in self.shown(Self.attributes(layout, id)) })
    }
}
