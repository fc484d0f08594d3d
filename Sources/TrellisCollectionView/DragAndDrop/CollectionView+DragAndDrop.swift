import Foundation

/// An item the collection view shows that its data source does not have: the gap a drop opens,
/// or a drop placeholder's cell. Its index path is in the collection view's items (placeholders
/// and the gap counted), before any interactive move.
final class DropPhantom {
    var indexPath: IndexPath
    /// The placeholder's context; `nil` for the gap.
    let context: HeadlessDropPlaceholderContext?

    init(indexPath: IndexPath, context: HeadlessDropPlaceholderContext?) {
        self.indexPath = indexPath
        self.context = context
    }
}

/// A drag over a collection view whose drop delegate takes it: its session, and the delegate's
/// last proposal with its destination.
final class DropTracking {
    let session: HeadlessDropSession
    /// The proposal as the collection view applies it (a move a session may not make is a copy).
    var proposal: CollectionViewDropProposal?
    var destination: IndexPath?
    /// The gap open for the drop, when the items are not this collection view's own.
    var gap: DropPhantom?
    /// Whether the dragged item, lifted from this collection view, is shown where it would land
    /// (an interactive move the drag drives).
    var reordering = false
    /// Where the gap or the lifted item goes once the touch has rested there for the reordering
    /// cadence's delay, and how long it has rested.
    var pending: IndexPath?
    var rested: TimeInterval = 0

    init(session: HeadlessDropSession) {
        self.session = session
    }
}

extension CollectionView {
    // MARK: Drag and drop

    /// How soon items make way for a drop (`UICollectionView.ReorderingCadence`): the gap, or the
    /// lifted item, moves to a new index path once the touch has rested for ``delay``.
    public enum ReorderingCadence: Int, Sendable {
        /// At once.
        case immediate = 0
        /// "Quickly, but with a short delay".
        case fast = 1
        /// "After a delay".
        case slow = 2

        /// The rest, in seconds, before items make way. UIKit publishes no figures; these are
        /// Trellis's: 0, 0.15 and 0.5 s.
        public var delay: TimeInterval {
            switch self {
            case .immediate: 0
            case .fast: 0.15
            case .slow: 0.5
            }
        }
    }

    /// Whether drags begin here and drops are taken (`dragInteractionEnabled`). Default: `true` on
    /// an iPad (the traits' idiom `.pad`), `false` elsewhere, as in UIKit.
    public var dragInteractionEnabled: Bool {
        get { dragInteractionSetting ?? (traitCollection.userInterfaceIdiom == .pad) }
        set { dragInteractionSetting = newValue }
    }

    /// Whether a drag that began here is under way.
    public var hasActiveDrag: Bool { activeDragCount > 0 }

    /// Whether a drag is over the collection view.
    public var hasActiveDrop: Bool { dropTracking != nil }

    /// Whether the collection view shows items its data source does not have yet: drop
    /// placeholders, or a drop's gap or reorder. Don't reload then — `reloadData()` removes them.
    public var hasUncommittedUpdates: Bool {
        !phantoms.isEmpty || dropTracking?.reordering == true
    }

    /// Begins a drag on the item at `point` (content coordinates), as a long press and a move
    /// do: the drag delegate gives the items (`collectionView(_:itemsForBeginning:at:)`; none, no
    /// drag), says whether they may be moved and whether only this app may take them, and hears
    /// `dragSessionWillBegin`. Returns the drag, to be moved, dropped or cancelled; `nil` when
    /// ``dragInteractionEnabled`` is off, there is no drag delegate, no item lies at `point`, or
    /// the delegate gives no items. The touch starts over this collection view.
    public func beginDrag(at point: CGPoint) -> HeadlessDrag? {
        guard dragInteractionEnabled, let dragDelegate, let indexPath = indexPathForItem(at: point) else { return nil }
        let session = HeadlessDragSession(source: self)
        session.location = (self, point)
        let items = dragDelegate.collectionView(self, itemsForBeginning: session, at: indexPath)
        guard !items.isEmpty else { return nil }
        session.items = items
        for item in items { session.sourceIndexPaths[ObjectIdentifier(item)] = indexPath }
        _ = dragDelegate.collectionView(self, dragPreviewParametersForItemAt: indexPath)
        session.allowsMoveOperation = dragDelegate.collectionView(self, dragSessionAllowsMoveOperation: session)
        session.isRestrictedToDraggingApplication = dragDelegate.collectionView(self, dragSessionIsRestrictedToDraggingApplication: session)
        dragDelegate.collectionView(self, dragSessionWillBegin: session)
        activeDragCount += 1
        let drag = HeadlessDrag(session: session)
        drag.move(to: point, over: self)
        return drag
    }

    /// Adds the item at `point` to a drag that began here (a tap with another finger): the items
    /// the delegate gives (`collectionView(_:itemsForAddingTo:at:point:)`). Returns how many.
    func addToDrag(_ session: HeadlessDragSession, at point: CGPoint) -> Int {
        guard let dragDelegate, let indexPath = indexPathForItem(at: point) else { return 0 }
        let items = dragDelegate.collectionView(self, itemsForAddingTo: session, at: indexPath, point: point)
        for item in items where !session.items.contains(where: { $0 === item }) {
            session.items.append(item)
            session.sourceIndexPaths[ObjectIdentifier(item)] = indexPath
        }
        return items.count
    }

    func dragDidEnd(_ session: HeadlessDragSession) {
        activeDragCount = max(0, activeDragCount - 1)
        dragDelegate?.collectionView(self, dragSessionDidEnd: session)
    }

    // MARK: The drop side

    /// The drag came over the collection view: the drop delegate is asked whether it takes it.
    /// One that does not (or no drop delegate, or drag interaction off) does not track the drag:
    /// ``hasActiveDrop`` stays `false` and nothing more is asked.
    func dropEntered(_ session: HeadlessDropSession) {
        guard dragInteractionEnabled, let dropDelegate, dropDelegate.collectionView(self, canHandle: session) else { return }
        let tracking = DropTracking(session: session)
        dropTracking = tracking
        dropDelegate.collectionView(self, dropSessionDidEnter: session)
    }

    /// The touch moved to `point` (content coordinates): the destination under it, the
    /// delegate's proposal, and the gap or the lifted item moved as the proposal says.
    func dropMoved(to point: CGPoint) {
        guard let tracking = dropTracking, let dropDelegate else { return }
        layoutIfNeeded()
        let session = tracking.session
        session.location = (self, point)
        // Items added to the drag: no longer one lifted item to show, but a gap.
        if tracking.reordering && liftedItem(of: session) == nil { closeDropGap(tracking, animated: true) }
        if tracking.reordering, var movement = interactiveMovement {
            movement.position = point
            interactiveMovement = movement
            updateVisibleSet()
        }
        let destination = dropDestination(at: point, tracking: tracking)
        let asked = dropDelegate.collectionView(self, dropSessionDidUpdate: session, withDestinationIndexPath: destination)
        let proposal = enforced(asked, session: session, destination: destination)
        tracking.proposal = proposal
        tracking.destination = destination
        let opensGap =
            destination != nil && proposal.intent == .insertAtDestinationIndexPath
            && (proposal.operation == .copy || proposal.operation == .move)
        guard opensGap, let destination else {
            tracking.pending = nil
            closeDropGap(tracking, animated: true)
            return
        }
        let current = tracking.gap?.indexPath ?? (tracking.reordering ? interactiveMovement?.current : nil)
        guard destination != current else {
            tracking.pending = nil
            return
        }
        if tracking.pending != destination {
            tracking.pending = destination
            tracking.rested = 0
        }
        applyPendingDropMove(tracking)
    }

    /// The touch rested `seconds` where it is: items make way once the cadence's delay is up.
    func dropWaited(_ seconds: TimeInterval) {
        guard let tracking = dropTracking, tracking.pending != nil, seconds.isFinite, seconds > 0 else { return }
        tracking.rested += seconds
        applyPendingDropMove(tracking)
    }

    private func applyPendingDropMove(_ tracking: DropTracking) {
        guard let target = tracking.pending, tracking.rested >= reorderingCadence.delay else { return }
        tracking.pending = nil
        if tracking.reordering, let movement = interactiveMovement {
            moveLiftedItem(movement, to: target)
        } else if let gap = tracking.gap {
            let from = gap.indexPath
            let before = captureBefore()
            // The other phantoms keep their places among the items, as a move of one item maps them.
            phantoms.removeAll { $0 === gap }
            shiftPhantoms(inSection: from.section, from: from.item + 1, by: -1)
            shiftPhantoms(inSection: target.section, from: target.item, by: 1)
            gap.indexPath = target
            phantoms.append(gap)
            var batch = BatchUpdate()
            batch.moveItem(at: from, to: target)
            commitInternal(batch, before: before)
        } else if let source = liftedItem(of: tracking.session), tracking.proposal?.operation == .move {
            // This collection view's own item: it is shown where it would land.
            interactiveMovement = InteractiveMovement(
                original: source, current: source, position: tracking.session.location?.point ?? .zero, beforeLastMove: source)
            tracking.reordering = true
            if target == source {
                updateVisibleSet()
            } else {
                moveLiftedItem(interactiveMovement!, to: target)
            }
        } else {
            let gap = DropPhantom(indexPath: target, context: nil)
            tracking.gap = gap
            insertPhantom(gap)
        }
    }

    /// The item lifted from here that a drop may show where it would land: the session's only
    /// item, when it came from this collection view.
    private func liftedItem(of session: HeadlessDropSession) -> IndexPath? {
        guard let drag = session.localDrag, drag.sourceCollectionView === self, drag.items.count == 1,
            let path = drag.sourceIndexPaths[ObjectIdentifier(drag.items[0])]
        else { return nil }
        return path
    }

    private func moveLiftedItem(_ movement: InteractiveMovement, to target: IndexPath) {
        guard canTakeMovingItem(target, from: movement.current) else { return }
        var moved = movement
        moved.beforeLastMove = movement.current
        moved.current = target
        let before = captureBefore()
        interactiveMovement = moved
        commitMove(from: movement.current, to: target, before: before)
    }

    /// Where a drop at `point` would go: with a gap open or the lifted item shown, the index path
    /// the layout proposes for it there (`targetIndexPath(forInteractivelyMovingItem:withPosition:)`),
    /// or the end of a section the touch is past; otherwise the item under the touch, the item
    /// count of a section the touch is past the last item of, or `nil`.
    private func dropDestination(at point: CGPoint, tracking: DropTracking) -> IndexPath? {
        guard point.x.isFinite, point.y.isFinite else { return nil }
        let inLayout = isMirroringLayout ? mirrored(point) : point
        let layout = collectionViewLayout
        if let current = tracking.gap?.indexPath ?? (tracking.reordering ? interactiveMovement?.current : nil) {
            let proposed = layout.targetIndexPath(forInteractivelyMovingItem: current, withPosition: inLayout)
            if proposed != current { return canTakeMovingItem(proposed, from: current) ? proposed : current }
            if let frame = layout.layoutAttributesForItem(at: current)?.frame, frame.contains(inLayout) { return current }
            guard let end = endOfSection(at: inLayout) else { return current }
            // Past the last item of the moving item's own section, it is the last.
            return end.section == current.section ? IndexPath(item: max(0, end.item - 1), section: end.section) : end
        }
        if let item = indexPathForItem(at: point) { return item }
        return endOfSection(at: inLayout)
    }

    /// The section whose last item `point` (layout coordinates) lies past — after it in reading
    /// order and before the next section's first item — as the index path one past its last item.
    private func endOfSection(at point: CGPoint) -> IndexPath? {
        let layout = collectionViewLayout
        let vertical = !scrollsHorizontally
        func after(_ frame: CGRect) -> Bool {
            vertical
                ? point.y >= frame.maxY || (point.y >= frame.minY && point.x >= frame.maxX)
                : point.x >= frame.maxX || (point.x >= frame.minX && point.y >= frame.maxY)
        }
        func before(_ frame: CGRect) -> Bool { vertical ? point.y < frame.minY : point.x < frame.minX }
        var found: IndexPath?
        for section in 0..<numberOfSections {
            let count = numberOfItems(inSection: section)
            guard count > 0, let first = layout.layoutAttributesForItem(at: IndexPath(item: 0, section: section))?.frame,
                let last = layout.layoutAttributesForItem(at: IndexPath(item: count - 1, section: section))?.frame
            else { continue }
            if found != nil && before(first) { return found }
            found = after(last) ? IndexPath(item: count, section: section) : nil
        }
        return found
    }

    /// Whether the layout scrolls sideways: a horizontal flow layout, or content wider than the
    /// view and no taller.
    private var scrollsHorizontally: Bool {
        if let flow = collectionViewLayout as? CollectionViewFlowLayout { return flow.scrollDirection == .horizontal }
        return contentSize.width > bounds.width && contentSize.height <= bounds.height
    }

    /// The proposal as UIKit enforces it: a move only for a drag from this app that allows
    /// moving (a copy otherwise), and no intent without a destination.
    private func enforced(_ proposal: CollectionViewDropProposal, session: HeadlessDropSession, destination: IndexPath?) -> CollectionViewDropProposal {
        var operation = proposal.operation
        if operation == .move && !(session.localDragSession != nil && session.allowsMoveOperation) { operation = .copy }
        let intent = destination == nil ? .unspecified : proposal.intent
        guard operation != proposal.operation || intent != proposal.intent else { return proposal }
        let made = CollectionViewDropProposal(operation: operation, intent: intent)
        made.isPrecise = proposal.isPrecise
        made.prefersFullSizePreview = proposal.prefersFullSizePreview
        return made
    }

    /// Closes the drop's gap, or puts the lifted item back where it was lifted from.
    private func closeDropGap(_ tracking: DropTracking, animated: Bool) {
        if let gap = tracking.gap {
            tracking.gap = nil
            removePhantom(gap)
        }
        if tracking.reordering, let movement = interactiveMovement {
            tracking.reordering = false
            let before = captureBefore()
            interactiveMovement = nil
            if movement.current != movement.original {
                commitMove(from: movement.current, to: movement.original, before: before)
            } else {
                updateVisibleSet()
            }
        }
        if !animated { completeTransition() }
    }

    /// The drag left the collection view.
    func dropExited() {
        guard let tracking = dropTracking else { return }
        closeDropGap(tracking, animated: true)
        dropTracking = nil
        dropDelegate?.collectionView(self, dropSessionDidExit: tracking.session)
    }

    /// The touch was lifted here: when the proposal copies or moves, the gap closes (the lifted
    /// item goes back), the drop delegate performs the drop through a coordinator, and the
    /// animations it added run. Returns the coordinator, or `nil` when nothing was dropped.
    func performDrop() -> HeadlessDropCoordinator? {
        guard let tracking = dropTracking, let dropDelegate, let proposal = tracking.proposal,
            proposal.operation == .copy || proposal.operation == .move
        else { return nil }
        // The destination the touch shows: the gap's, or where the lifted item is shown.
        let destination =
            tracking.gap?.indexPath
            ?? (tracking.reordering ? interactiveMovement?.current : nil) ?? tracking.destination
        tracking.pending = nil
        closeDropGap(tracking, animated: false)
        let session = tracking.session
        let own = session.localDrag?.sourceCollectionView === self
        let items = session.items.map { item -> any CollectionViewDropItem in
            let source = own ? session.localDrag?.sourceIndexPaths[ObjectIdentifier(item)] : nil
            let size = source.flatMap { layoutAttributesForItem(at: $0)?.size } ?? .zero
            return HeadlessDropItem(dragItem: item, sourceIndexPath: source, previewSize: size)
        }
        let coordinator = HeadlessDropCoordinator(
            items: items, destinationIndexPath: destination,
            proposal: destination == nil ? enforced(proposal, session: session, destination: nil) : proposal, session: session,
            collectionView: self)
        dropDelegate.collectionView(self, performDropWith: coordinator)
        for animation in coordinator.animations { animation.finish() }
        return coordinator
    }

    /// The drag ended (dropped or not): the delegate hears it and the tracking ends.
    func dropEnded() {
        guard let tracking = dropTracking else { return }
        closeDropGap(tracking, animated: true)
        dropTracking = nil
        dropDelegate?.collectionView(self, dropSessionDidEnd: tracking.session)
    }

    // MARK: Placeholders and the gap

    /// The phantom shown at `path` (a shown index path), if any.
    func phantom(atShown path: IndexPath) -> DropPhantom? {
        guard !phantoms.isEmpty, path.count == 2 else { return nil }
        let unmoved = undoingInteractiveMove(path)
        return phantoms.first { $0.indexPath == unmoved }
    }

    /// A path counted with the phantoms as the data source counts it: less the phantoms before it
    /// in its section.
    func dataIndexPath(forPhantomSpace path: IndexPath) -> IndexPath {
        let before = phantoms.count { $0.indexPath.section == path.section && $0.indexPath.item < path.item }
        return IndexPath(item: path.item - before, section: path.section)
    }

    /// Moves the phantoms of `section` at or after `item` by `delta`.
    func shiftPhantoms(inSection section: Int, from item: Int, by delta: Int) {
        for phantom in phantoms where phantom.indexPath.section == section && phantom.indexPath.item >= item {
            phantom.indexPath = IndexPath(item: phantom.indexPath.item + delta, section: section)
        }
    }

    /// The counts shown: the data source's with each phantom added to its section.
    func countsWithPhantoms(_ dataSourceCounts: [Int]) -> [Int] {
        guard !phantoms.isEmpty else { return dataSourceCounts }
        var counts = dataSourceCounts
        for phantom in phantoms where counts.indices.contains(phantom.indexPath.section) {
            counts[phantom.indexPath.section] += 1
        }
        return counts
    }

    /// Maps the phantoms through an app's batch, as UIKit keeps placeholders where they stand:
    /// a phantom whose place the batch deletes (its section) is dropped. Returns the phantoms'
    /// paths before, to put back when the batch is refused.
    func mapPhantoms(through batch: BatchUpdate, oldCounts: [Int]) -> [IndexPath]? {
        guard !phantoms.isEmpty, let expected = try? batch.expectedCounts(after: oldCounts),
            let mapping = try? batch.validated(oldCounts: oldCounts, newCounts: expected)
        else { return nil }
        let saved = phantoms.map(\.indexPath)
        for phantom in phantoms {
            if let new = mapping.newIndexPath(forOld: phantom.indexPath) {
                phantom.indexPath = new
            } else {
                phantom.indexPath = IndexPath(item: -1, section: -1)
            }
        }
        phantoms.removeAll { $0.indexPath.section < 0 }
        return saved
    }

    /// Applies a batch of the collection view's own (a gap or a placeholder coming or going),
    /// the phantoms already changed: the counts are the data source's with the phantoms.
    func commitInternal(_ batch: BatchUpdate, before: Before) {
        do {
            _ = try commit(batch, before: before, newCounts: fetchCounts())
            lastUpdateError = nil
        } catch {
            lastUpdateError = error
            note(.batchRefused(error.message))
        }
    }

    /// Inserts a placeholder's cell at its insertion index path (shown items counted). `false`
    /// when that index path names no place an item can be inserted.
    func insertPlaceholder(_ context: HeadlessDropPlaceholderContext) -> Bool {
        layoutIfNeeded()
        let path = context.placeholder.insertionIndexPath
        guard path.count == 2, path.section >= 0, path.section < numberOfSections, path.item >= 0,
            path.item <= numberOfItems(inSection: path.section)
        else {
            note(.placeholderOutOfRange(path))
            return false
        }
        context.collectionView = self
        insertPhantom(DropPhantom(indexPath: path, context: context))
        return true
    }

    func commitPlaceholder(_ context: HeadlessDropPlaceholderContext, dataSourceUpdates: (IndexPath) -> Void) -> Bool {
        guard let phantom = phantoms.first(where: { $0.context === context }) else { return false }
        layoutIfNeeded()
        let before = captureBefore()
        let path = phantom.indexPath
        dataSourceUpdates(dataIndexPath(forPhantomSpace: path))
        phantoms.removeAll { $0 === phantom }
        // The data source now has the item where the placeholder stood: its cell replaces the
        // placeholder's.
        var batch = BatchUpdate()
        batch.reloadItems(at: [path])
        do {
            _ = try commit(batch, before: before, newCounts: fetchCounts())
            lastUpdateError = nil
        } catch {
            // The data source did not gain one item there: show what it has.
            note(.placeholderCommitDidNotInsert(path))
            reloadData()
        }
        return true
    }

    func deletePlaceholder(_ context: HeadlessDropPlaceholderContext) -> Bool {
        guard let phantom = phantoms.first(where: { $0.context === context }) else { return false }
        layoutIfNeeded()
        removePhantom(phantom)
        return true
    }

    /// Shows a phantom at its index path: the phantoms after it move down one, and its insertion
    /// is animated.
    private func insertPhantom(_ phantom: DropPhantom) {
        let before = captureBefore()
        let path = phantom.indexPath
        shiftPhantoms(inSection: path.section, from: path.item, by: 1)
        phantoms.append(phantom)
        var batch = BatchUpdate()
        batch.insertItems(at: [path])
        commitInternal(batch, before: before)
    }

    /// Takes a phantom away, its deletion animated.
    private func removePhantom(_ phantom: DropPhantom) {
        let before = captureBefore()
        phantoms.removeAll { $0 === phantom }
        shiftPhantoms(inSection: phantom.indexPath.section, from: phantom.indexPath.item + 1, by: -1)
        var batch = BatchUpdate()
        batch.deleteItems(at: [phantom.indexPath])
        commitInternal(batch, before: before)
    }

    func updatePlaceholderCell(_ context: HeadlessDropPlaceholderContext) {
        guard let phantom = phantoms.first(where: { $0.context === context }) else { return }
        let shown = redoingInteractiveMove(phantom.indexPath)
        guard let cell = cellForItem(at: shown) else { return }
        context.placeholder.cellUpdateHandler?(cell)
    }

    /// The cell of a phantom: none for the gap; for a placeholder, one dequeued with its reuse
    /// identifier and handed to its `cellUpdateHandler`.
    func placeholderCell(for phantom: DropPhantom, at path: IndexPath) -> CollectionViewCell? {
        guard let placeholder = phantom.context?.placeholder else { return nil }
        let cell = dequeueReusableCell(withReuseIdentifier: placeholder.reuseIdentifier, for: path)
        placeholder.cellUpdateHandler?(cell)
        return cell
    }
}

/// A drag driven headless (what a finger does on a screen): begun on a collection view's item
/// (``CollectionView/beginDrag(at:)``) or brought from another app
/// (``init(itemsFromAnotherApp:)``), moved over collection views, rested, then dropped or
/// cancelled. Each step calls the delegates as UIKit does.
///
/// ```swift
/// let drag = collectionView.beginDrag(at: CGPoint(x: 40, y: 22))!   // lifts the first row
/// drag.move(to: CGPoint(x: 40, y: 200), over: collectionView)        // the gap opens there
/// drag.drop()                                                          // performDropWith runs
/// ```
public final class HeadlessDrag {
    /// The drag as the collection views it passes over see it.
    public let dropSession: HeadlessDropSession
    /// The drag as the collection view it began in sees it; `nil` for a drag from another app.
    public var dragSession: HeadlessDragSession? { dropSession.localDrag }
    /// The collection view the touch is over.
    public private(set) var collectionView: CollectionView?
    /// Whether the drag was dropped or cancelled.
    public private(set) var isEnded = false
    /// Where the dropped items landed, as the drop delegate said.
    public private(set) var landings: [DropLanding] = []

    init(session: HeadlessDragSession) {
        dropSession = HeadlessDropSession(localDragSession: session, items: session.items, allowsMoveOperation: session.allowsMoveOperation)
    }

    /// A drag of `items` from another app: never a move.
    public init(itemsFromAnotherApp items: [DragItem]) {
        dropSession = HeadlessDropSession(localDragSession: nil, items: items, allowsMoveOperation: false)
    }

    /// The proposal of the collection view the touch is over, as it applies it; `nil` over none
    /// or one that does not take the drag.
    public var proposal: CollectionViewDropProposal? { collectionView?.dropTracking?.proposal }

    /// The destination under the touch, as last given to the drop delegate.
    public var destinationIndexPath: IndexPath? { collectionView?.dropTracking?.destination }

    /// Moves the touch to `point` in `collectionView`'s content (`nil`: over no collection view):
    /// leaving one tells its drop delegate, entering one asks whether it takes the drag, and over
    /// one the delegate proposes what a drop there would do. A point that is not a number is
    /// ignored.
    public func move(to point: CGPoint, over collectionView: CollectionView?) {
        // A point that is not a number is no place a touch can be: the touch stays.
        guard !isEnded, point.x.isFinite, point.y.isFinite else { return }
        if collectionView !== self.collectionView {
            self.collectionView?.dropExited()
            self.collectionView = collectionView
            collectionView?.dropEntered(dropSession)
        }
        dropSession.location = collectionView.map { ($0, point) }
        dropSession.localDrag?.location = dropSession.location
        collectionView?.dropMoved(to: point)
    }

    /// Rests the touch for `seconds`: items make way once the collection view's
    /// ``CollectionView/reorderingCadence`` delay is up.
    public func wait(_ seconds: TimeInterval) {
        guard !isEnded else { return }
        collectionView?.dropWaited(seconds)
    }

    /// Adds the item at `point` of the collection view the drag began in (a tap with another
    /// finger): the drag delegate's `itemsForAddingTo`. Returns how many items were added.
    @discardableResult
    public func addItem(at point: CGPoint) -> Int {
        guard !isEnded, let session = dragSession, let source = session.sourceCollectionView else { return 0 }
        let added = source.addToDrag(session, at: point)
        dropSession.items = session.items
        return added
    }

    /// Lifts the touch: over a collection view whose proposal copies or moves, its drop delegate
    /// performs the drop. Either way the drag ends (`dropSessionDidEnd`, `dragSessionDidEnd`).
    /// Returns whether a drop was performed.
    @discardableResult
    public func drop() -> Bool {
        guard !isEnded else { return false }
        let coordinator = collectionView?.performDrop()
        landings = coordinator?.landings.map(\.landing) ?? []
        finish()
        return coordinator != nil
    }

    /// Ends the drag without a drop: a gap closes, a lifted item goes back.
    public func cancel() {
        guard !isEnded else { return }
        finish()
    }

    private func finish() {
        isEnded = true
        collectionView?.dropEnded()
        collectionView = nil
        if let session = dragSession { session.sourceCollectionView?.dragDidEnd(session) }
    }
}
