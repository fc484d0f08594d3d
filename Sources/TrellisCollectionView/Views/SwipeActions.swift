import Foundation

/// An action a swipe on a row shows (`UIContextualAction`): a title, a colour and what it does.
/// Its handler gets the action, the view swiped (the cell) and a completion to call with whether
/// it was done; the swipe ends then.
open class ContextualAction: NSObject {
    /// How an action looks and what a destructive one does to its row (`UIContextualAction.Style`).
    public enum Style: Int, Sendable {
        case normal = 0
        case destructive = 1
    }

    /// What an action does (`UIContextualAction.Handler`).
    public typealias Handler = (_ action: ContextualAction, _ sourceView: View, _ completion: @escaping (Bool) -> Void) -> Void

    public let style: Style
    public let handler: Handler
    open var title: String?
    /// The action's background: system red for a destructive one, system gray otherwise, unless set.
    open var backgroundColor: Color

    public init(style: Style, title: String?, handler: @escaping Handler) {
        self.style = style
        self.title = title
        self.handler = handler
        backgroundColor = style == .destructive ? .systemRed : .systemGray
        super.init()
    }
}

/// The actions a swipe from one edge of a row shows, the first nearest the edge
/// (`UISwipeActionsConfiguration`).
open class SwipeActionsConfiguration: NSObject {
    public let actions: [ContextualAction]
    /// Whether a full swipe performs the first action. Default `true`.
    open var performsFirstActionWithFullSwipe = true

    public init(actions: [ContextualAction]) {
        self.actions = actions
        super.init()
    }
}

/// A layout whose items may have swipe actions (a list's rows).
package protocol SwipeActionsProviding {
    func swipeActionsConfiguration(forItemAt indexPath: IndexPath, edge: CollectionView.SwipeEdge) -> SwipeActionsConfiguration?
}

extension CollectionView {
    /// The edge a row is swiped from: leading (right to left it is the right edge) or trailing.
    public enum SwipeEdge: Sendable { case leading, trailing }

    /// The actions a swipe from `edge` shows on the item — what its list section's swipe actions
    /// provider gives (`leadingSwipeActionsConfigurationProvider` or the trailing one) — or
    /// `nil` when the item cannot be swiped from there.
    public func swipeActionsConfiguration(forItemAt indexPath: IndexPath, edge: SwipeEdge) -> SwipeActionsConfiguration? {
        guard isItem(indexPath) else { return nil }
        layoutIfNeeded()
        guard let configuration = (collectionViewLayout as? SwipeActionsProviding)?.swipeActionsConfiguration(forItemAt: indexPath, edge: edge),
            !configuration.actions.isEmpty
        else { return nil }
        return configuration
    }

    /// Plays a swipe from `edge` on the item and a tap on its action at `index` — or, with
    /// `fullSwipe`, a swipe all the way across, which performs the first action when the
    /// configuration allows. The action's handler runs with the item's cell (scrolled to it
    /// first when off screen); the cell's ``CollectionViewCell/configurationState`` says it is
    /// swiped until the handler calls its completion. Returns whether an action ran.
    @discardableResult
    public func performSwipeAction(at index: Int = 0, forItemAt indexPath: IndexPath, edge: SwipeEdge, fullSwipe: Bool = false) -> Bool {
        guard let configuration = swipeActionsConfiguration(forItemAt: indexPath, edge: edge) else { return false }
        if fullSwipe, !configuration.performsFirstActionWithFullSwipe { return false }
        let chosen = fullSwipe ? 0 : index
        guard configuration.actions.indices.contains(chosen) else { return false }
        guard let cell = showItem(at: indexPath) else { return false }
        let action = configuration.actions[chosen]
        cell.isSwipedItem = true
        var finished = false
        action.handler(action, cell) { [weak cell] _ in
            guard !finished else { return }
            finished = true
            cell?.isSwipedItem = false
        }
        return true
    }
}
