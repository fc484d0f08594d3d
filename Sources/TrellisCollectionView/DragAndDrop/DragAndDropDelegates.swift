import Foundation

/// What a collection view's drags carry and how they behave (`UICollectionViewDragDelegate`).
/// Only ``collectionView(_:itemsForBeginning:at:)`` must be written.
public protocol CollectionViewDragDelegate: AnyObject {
    /// The items a drag that begins on the item carries; none and no drag begins.
    func collectionView(_ collectionView: CollectionView, itemsForBeginning session: any DragSession, at indexPath: IndexPath) -> [DragItem]
    /// The items a tap on another item adds to the drag under way (`point` in the collection
    /// view's coordinates); default: none, and nothing is added.
    func collectionView(
        _ collectionView: CollectionView, itemsForAddingTo session: any DragSession, at indexPath: IndexPath, point: CGPoint
    ) -> [DragItem]
    /// How the lifted item's preview looks; default `nil`: the whole cell.
    func collectionView(_ collectionView: CollectionView, dragPreviewParametersForItemAt indexPath: IndexPath) -> DragPreviewParameters?
    /// The drag begins (always followed by ``collectionView(_:dragSessionDidEnd:)``).
    func collectionView(_ collectionView: CollectionView, dragSessionWillBegin session: any DragSession)
    /// The drag ended, dropped or not.
    func collectionView(_ collectionView: CollectionView, dragSessionDidEnd session: any DragSession)
    /// Whether a drop may move the items; default `true`.
    func collectionView(_ collectionView: CollectionView, dragSessionAllowsMoveOperation session: any DragSession) -> Bool
    /// Whether only this app may take the drop; default `false`.
    func collectionView(_ collectionView: CollectionView, dragSessionIsRestrictedToDraggingApplication session: any DragSession) -> Bool
}

extension CollectionViewDragDelegate {
    public func collectionView(
        _ collectionView: CollectionView, itemsForAddingTo session: any DragSession, at indexPath: IndexPath, point: CGPoint
    ) -> [DragItem] {
        []
    }
    public func collectionView(_ collectionView: CollectionView, dragPreviewParametersForItemAt indexPath: IndexPath) -> DragPreviewParameters? {
        nil
    }
    public func collectionView(_ collectionView: CollectionView, dragSessionWillBegin session: any DragSession) {}
    public func collectionView(_ collectionView: CollectionView, dragSessionDidEnd session: any DragSession) {}
    public func collectionView(_ collectionView: CollectionView, dragSessionAllowsMoveOperation session: any DragSession) -> Bool { true }
    public func collectionView(_ collectionView: CollectionView, dragSessionIsRestrictedToDraggingApplication session: any DragSession) -> Bool {
        false
    }
}

/// How a collection view takes drops (`UICollectionViewDropDelegate`). Only
/// ``collectionView(_:performDropWith:)`` must be written.
public protocol CollectionViewDropDelegate: AnyObject {
    /// The touch is lifted over the collection view with a proposal that copies or moves: update
    /// the data (a batch update, or a placeholder) and say where each item lands through the
    /// coordinator. Doing nothing leaves the collection view as it was before the drag entered.
    func collectionView(_ collectionView: CollectionView, performDropWith coordinator: any CollectionViewDropCoordinator)
    /// Whether the collection view takes this drag at all (no: nothing else is asked); default `true`.
    func collectionView(_ collectionView: CollectionView, canHandle session: any DropSession) -> Bool
    /// The drag came over the collection view.
    func collectionView(_ collectionView: CollectionView, dropSessionDidEnter session: any DropSession)
    /// How the drag would be taken at `destinationIndexPath` — the item under the touch; the
    /// section's item count past its last item; `nil` over space with no item — asked at every
    /// move. Default: a copy with no intent (UIKit documents none; see
    /// `Documentation/CollectionView.md`).
    func collectionView(
        _ collectionView: CollectionView, dropSessionDidUpdate session: any DropSession,
        withDestinationIndexPath destinationIndexPath: IndexPath?
    ) -> CollectionViewDropProposal
    /// The drag left the collection view.
    func collectionView(_ collectionView: CollectionView, dropSessionDidExit session: any DropSession)
    /// The drag ended, dropped or not.
    func collectionView(_ collectionView: CollectionView, dropSessionDidEnd session: any DropSession)
    /// How the item dropped onto `indexPath` looks as it lands; default `nil`: the whole cell.
    func collectionView(_ collectionView: CollectionView, dropPreviewParametersForItemAt indexPath: IndexPath) -> DragPreviewParameters?
}

extension CollectionViewDropDelegate {
    public func collectionView(_ collectionView: CollectionView, canHandle session: any DropSession) -> Bool { true }
    public func collectionView(_ collectionView: CollectionView, dropSessionDidEnter session: any DropSession) {}
    public func collectionView(
        _ collectionView: CollectionView, dropSessionDidUpdate session: any DropSession,
        withDestinationIndexPath destinationIndexPath: IndexPath?
    ) -> CollectionViewDropProposal {
        CollectionViewDropProposal(operation: .copy, intent: .unspecified)
    }
    public func collectionView(_ collectionView: CollectionView, dropSessionDidExit session: any DropSession) {}
    public func collectionView(_ collectionView: CollectionView, dropSessionDidEnd session: any DropSession) {}
    public func collectionView(_ collectionView: CollectionView, dropPreviewParametersForItemAt indexPath: IndexPath) -> DragPreviewParameters? {
        nil
    }
}

/// What a drop delegate is handed when the touch is lifted (`UICollectionViewDropCoordinator`, a
/// protocol as in UIKit): the items, where they would go, the proposal, and the ways to say where
/// each lands.
public protocol CollectionViewDropCoordinator: AnyObject {
    /// The items, in the drag's order.
    var items: [any CollectionViewDropItem] { get }
    /// The last index path found under the touch (where a gap is open, the gap's); `nil` over
    /// space with no item, and then the proposal's intent is `.unspecified`.
    var destinationIndexPath: IndexPath? { get }
    /// The proposal at the time of the drop.
    var proposal: CollectionViewDropProposal { get }
    var session: any DropSession { get }
    /// Lands `dragItem` on a placeholder cell inserted at the placeholder's index path without
    /// asking the data source; the context returned swaps it for the real item once its data
    /// has arrived.
    @discardableResult
    func drop(_ dragItem: DragItem, to placeholder: CollectionViewDropPlaceholder) -> any CollectionViewDropPlaceholderContext
    /// Lands `dragItem` on the item at `indexPath`, which the app inserted (by a batch update)
    /// before calling this.
    @discardableResult
    func drop(_ dragItem: DragItem, toItemAt indexPath: IndexPath) -> any DragAnimating
    /// Lands `dragItem` inside `rect` (the cell's coordinates) of the existing item at `indexPath`.
    @discardableResult
    func drop(_ dragItem: DragItem, intoItemAt indexPath: IndexPath, rect: CGRect) -> any DragAnimating
}

/// A placeholder inserted for a dropped item (`UICollectionViewDropPlaceholderContext`, a
/// protocol as in UIKit): swapped for the real item when its data has arrived, or deleted.
public protocol CollectionViewDropPlaceholderContext: DragAnimating {
    /// The item dropped onto the placeholder.
    var dragItem: DragItem { get }
    /// Swaps the placeholder for the real item: `dataSourceUpdates` inserts it into the app's
    /// data at the index path given (where the placeholder stands now, counted among the data
    /// source's items), then the cell the data source gives replaces the placeholder's. `false`,
    /// and the block not run, when the placeholder is gone (deleted, or dropped by `reloadData()`).
    @discardableResult
    func commitInsertion(dataSourceUpdates: (IndexPath) -> Void) -> Bool
    /// Removes the placeholder (animated as a deletion). `false` when it is already gone.
    @discardableResult
    func deletePlaceholder() -> Bool
    /// Calls the placeholder's `cellUpdateHandler` again on its cell, when the cell is shown.
    func setNeedsCellUpdate()
}

/// The coordinator of a headless drop.
final class HeadlessDropCoordinator: CollectionViewDropCoordinator {
    let items: [any CollectionViewDropItem]
    let destinationIndexPath: IndexPath?
    let proposal: CollectionViewDropProposal
    let session: any DropSession
    private weak var collectionView: CollectionView?
    /// Where each item was said to land, in the order said.
    private(set) var landings: [(item: DragItem, landing: DropLanding)] = []
    private(set) var animations: [DropAnimation] = []

    init(
        items: [any CollectionViewDropItem], destinationIndexPath: IndexPath?, proposal: CollectionViewDropProposal,
        session: any DropSession, collectionView: CollectionView
    ) {
        self.items = items
        self.destinationIndexPath = destinationIndexPath
        self.proposal = proposal
        self.session = session
        self.collectionView = collectionView
    }

    func drop(_ dragItem: DragItem, to placeholder: CollectionViewDropPlaceholder) -> any CollectionViewDropPlaceholderContext {
        let context = HeadlessDropPlaceholderContext(dragItem: dragItem, placeholder: placeholder)
        if let collectionView, collectionView.insertPlaceholder(context) {
            landings.append((dragItem, .placeholder(placeholder.insertionIndexPath)))
        }
        animations.append(context.animation)
        return context
    }

    func drop(_ dragItem: DragItem, toItemAt indexPath: IndexPath) -> any DragAnimating {
        _ = collectionView.flatMap { $0.dropDelegate?.collectionView($0, dropPreviewParametersForItemAt: indexPath) }
        return land(dragItem, .item(indexPath))
    }

    func drop(_ dragItem: DragItem, intoItemAt indexPath: IndexPath, rect: CGRect) -> any DragAnimating {
        land(dragItem, .intoItem(indexPath, rect))
    }

    private func land(_ dragItem: DragItem, _ landing: DropLanding) -> any DragAnimating {
        landings.append((dragItem, landing))
        let animation = DropAnimation()
        animations.append(animation)
        return animation
    }
}

/// The context of a headless drop's placeholder.
final class HeadlessDropPlaceholderContext: NSObject, CollectionViewDropPlaceholderContext {
    let dragItem: DragItem
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
    func commitInsertion(dataSourceUpdates: (IndexPath) -> Void) -> Bool {
        collectionView?.commitPlaceholder(self, dataSourceUpdates: dataSourceUpdates) ?? false
    }

    /// Removes the placeholder (animated as a deletion). `false` when it is already gone.
    @discardableResult
    func deletePlaceholder() -> Bool {
        collectionView?.deletePlaceholder(self) ?? false
    }

    /// Calls the placeholder's `cellUpdateHandler` again on its cell, when the cell is shown.
    func setNeedsCellUpdate() {
        collectionView?.updatePlaceholderCell(self)
    }

    func addAnimations(_ animations: @escaping () -> Void) { animation.addAnimations(animations) }
    func addCompletion(_ completion: @escaping (ViewAnimatingPosition) -> Void) { animation.addCompletion(completion) }
}
