import Foundation

/// What a collection view's drags carry and how they behave (`UICollectionViewDragDelegate`).
/// Only ``collectionView(_:itemsForBeginning:at:)`` must be written.
public protocol CollectionViewDragDelegate: AnyObject {
    /// The items a drag that begins on the item carries; none and no drag begins.
    func collectionView(_ collectionView: CollectionView, itemsForBeginning session: DragSession, at indexPath: IndexPath) -> [DragItem]
    /// The items a tap on another item adds to the drag under way (`point` in the collection
    /// view's coordinates); default: none, and nothing is added.
    func collectionView(
        _ collectionView: CollectionView, itemsForAddingTo session: DragSession, at indexPath: IndexPath, point: CGPoint
    ) -> [DragItem]
    /// How the lifted item's preview looks; default `nil`: the whole cell.
    func collectionView(_ collectionView: CollectionView, dragPreviewParametersForItemAt indexPath: IndexPath) -> DragPreviewParameters?
    /// The drag begins (always followed by ``collectionView(_:dragSessionDidEnd:)``).
    func collectionView(_ collectionView: CollectionView, dragSessionWillBegin session: DragSession)
    /// The drag ended, dropped or not.
    func collectionView(_ collectionView: CollectionView, dragSessionDidEnd session: DragSession)
    /// Whether a drop may move the items; default `true`.
    func collectionView(_ collectionView: CollectionView, dragSessionAllowsMoveOperation session: DragSession) -> Bool
    /// Whether only this app may take the drop; default `false`.
    func collectionView(_ collectionView: CollectionView, dragSessionIsRestrictedToDraggingApplication session: DragSession) -> Bool
}

extension CollectionViewDragDelegate {
    public func collectionView(
        _ collectionView: CollectionView, itemsForAddingTo session: DragSession, at indexPath: IndexPath, point: CGPoint
    ) -> [DragItem] {
        []
    }
    public func collectionView(_ collectionView: CollectionView, dragPreviewParametersForItemAt indexPath: IndexPath) -> DragPreviewParameters? {
        nil
    }
    public func collectionView(_ collectionView: CollectionView, dragSessionWillBegin session: DragSession) {}
    public func collectionView(_ collectionView: CollectionView, dragSessionDidEnd session: DragSession) {}
    public func collectionView(_ collectionView: CollectionView, dragSessionAllowsMoveOperation session: DragSession) -> Bool { true }
    public func collectionView(_ collectionView: CollectionView, dragSessionIsRestrictedToDraggingApplication session: DragSession) -> Bool {
        false
    }
}

/// How a collection view takes drops (`UICollectionViewDropDelegate`). Only
/// ``collectionView(_:performDropWith:)`` must be written.
public protocol CollectionViewDropDelegate: AnyObject {
    /// The touch is lifted over the collection view with a proposal that copies or moves: update
    /// the data (a batch update, or a placeholder) and say where each item lands through the
    /// coordinator. Doing nothing leaves the collection view as it was before the drag entered.
    func collectionView(_ collectionView: CollectionView, performDropWith coordinator: CollectionViewDropCoordinator)
    /// Whether the collection view takes this drag at all (no: nothing else is asked); default `true`.
    func collectionView(_ collectionView: CollectionView, canHandle session: DropSession) -> Bool
    /// The drag came over the collection view.
    func collectionView(_ collectionView: CollectionView, dropSessionDidEnter session: DropSession)
    /// How the drag would be taken at `destinationIndexPath` — the item under the touch; the
    /// section's item count past its last item; `nil` over space with no item — asked at every
    /// move. Default: a copy with no intent (UIKit documents none; see
    /// `Documentation/CollectionView.md`).
    func collectionView(
        _ collectionView: CollectionView, dropSessionDidUpdate session: DropSession,
        withDestinationIndexPath destinationIndexPath: IndexPath?
    ) -> CollectionViewDropProposal
    /// The drag left the collection view.
    func collectionView(_ collectionView: CollectionView, dropSessionDidExit session: DropSession)
    /// The drag ended, dropped or not.
    func collectionView(_ collectionView: CollectionView, dropSessionDidEnd session: DropSession)
    /// How the item dropped onto `indexPath` looks as it lands; default `nil`: the whole cell.
    func collectionView(_ collectionView: CollectionView, dropPreviewParametersForItemAt indexPath: IndexPath) -> DragPreviewParameters?
}

extension CollectionViewDropDelegate {
    public func collectionView(_ collectionView: CollectionView, canHandle session: DropSession) -> Bool { true }
    public func collectionView(_ collectionView: CollectionView, dropSessionDidEnter session: DropSession) {}
    public func collectionView(
        _ collectionView: CollectionView, dropSessionDidUpdate session: DropSession,
        withDestinationIndexPath destinationIndexPath: IndexPath?
    ) -> CollectionViewDropProposal {
        CollectionViewDropProposal(operation: .copy, intent: .unspecified)
    }
    public func collectionView(_ collectionView: CollectionView, dropSessionDidExit session: DropSession) {}
    public func collectionView(_ collectionView: CollectionView, dropSessionDidEnd session: DropSession) {}
    public func collectionView(_ collectionView: CollectionView, dropPreviewParametersForItemAt indexPath: IndexPath) -> DragPreviewParameters? {
        nil
    }
}

/// What a drop delegate is handed when the touch is lifted (`UICollectionViewDropCoordinator`):
/// the items, where they would go, the proposal, and the ways to say where each lands.
public final class CollectionViewDropCoordinator: NSObject {
    /// The items, in the drag's order.
    public let items: [CollectionViewDropItem]
    /// The last index path found under the touch (where a gap is open, the gap's); `nil` over
    /// space with no item, and then the proposal's intent is `.unspecified`.
    public let destinationIndexPath: IndexPath?
    /// The proposal at the time of the drop.
    public let proposal: CollectionViewDropProposal
    public let session: DropSession
    private weak var collectionView: CollectionView?
    /// Where each item was said to land, in the order said.
    private(set) var landings: [(item: DragItem, landing: DropLanding)] = []
    private(set) var animations: [DropAnimation] = []

    init(
        items: [CollectionViewDropItem], destinationIndexPath: IndexPath?, proposal: CollectionViewDropProposal,
        session: DropSession, collectionView: CollectionView
    ) {
        self.items = items
        self.destinationIndexPath = destinationIndexPath
        self.proposal = proposal
        self.session = session
        self.collectionView = collectionView
    }

    /// Lands `dragItem` on a placeholder cell inserted at the placeholder's index path without
    /// asking the data source; the context returned swaps it for the real item once its data
    /// has arrived (``CollectionViewDropPlaceholderContext/commitInsertion(dataSourceUpdates:)``).
    @discardableResult
    public func drop(_ dragItem: DragItem, to placeholder: CollectionViewDropPlaceholder) -> CollectionViewDropPlaceholderContext {
        let context = CollectionViewDropPlaceholderContext(dragItem: dragItem, placeholder: placeholder)
        if let collectionView, collectionView.insertPlaceholder(context) {
            landings.append((dragItem, .placeholder(placeholder.insertionIndexPath)))
        }
        animations.append(context.animation)
        return context
    }

    /// Lands `dragItem` on the item at `indexPath`, which the app inserted (by a batch update)
    /// before calling this.
    @discardableResult
    public func drop(_ dragItem: DragItem, toItemAt indexPath: IndexPath) -> any DragAnimating {
        _ = collectionView.flatMap { $0.dropDelegate?.collectionView($0, dropPreviewParametersForItemAt: indexPath) }
        landings.append((dragItem, .item(indexPath)))
        let animation = DropAnimation()
        animations.append(animation)
        return animation
    }

    /// Lands `dragItem` inside `rect` (the cell's coordinates) of the existing item at `indexPath`.
    @discardableResult
    public func drop(_ dragItem: DragItem, intoItemAt indexPath: IndexPath, rect: CGRect) -> any DragAnimating {
        landings.append((dragItem, .intoItem(indexPath, rect)))
        let animation = DropAnimation()
        animations.append(animation)
        return animation
    }
}

/// A placeholder inserted for a dropped item (`UICollectionViewDropPlaceholderContext`): swapped
/// for the real item when its data has arrived, or deleted.
public final class CollectionViewDropPlaceholderContext: NSObject, DragAnimating {
    /// The item dropped onto the placeholder.
    public let dragItem: DragItem
    let placeholder: CollectionViewDropPlaceholder
    weak var collectionView: CollectionView?
    let animation = DropAnimation()

    init(dragItem: DragItem, placeholder: CollectionViewDropPlaceholder) {
        self.dragItem = dragItem
        self.placeholder = placeholder
    }

    /// Swaps the placeholder for the real item: `dataSourceUpdates` inserts it into the app's
    /// data at the index path given (where the placeholder stands now, counted among the data
    /// source's items), then the cell the data source gives replaces the placeholder's. `false`,
    /// and the block not run, when the placeholder is gone (deleted, or dropped by `reloadData()`).
    @discardableResult
    public func commitInsertion(dataSourceUpdates: (IndexPath) -> Void) -> Bool {
        collectionView?.commitPlaceholder(self, dataSourceUpdates: dataSourceUpdates) ?? false
    }

    /// Removes the placeholder (animated as a deletion). `false` when it is already gone.
    @discardableResult
    public func deletePlaceholder() -> Bool {
        collectionView?.deletePlaceholder(self) ?? false
    }

    /// Calls the placeholder's `cellUpdateHandler` again on its cell, when the cell is shown.
    public func setNeedsCellUpdate() {
        collectionView?.updatePlaceholderCell(self)
    }

    public func addAnimations(_ animations: @escaping () -> Void) { animation.addAnimations(animations) }
    public func addCompletion(_ completion: @escaping (ViewAnimatingPosition) -> Void) { animation.addCompletion(completion) }
}
