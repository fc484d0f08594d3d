import Foundation

/// One change of a batch update, as the layout receives it in
/// ``CollectionViewLayout/prepare(forCollectionViewUpdates:)`` (`UICollectionViewUpdateItem`).
///
/// Section operations carry index paths of length one, as in UIKit.
open class CollectionViewUpdateItem: NSObject, @unchecked Sendable {
    /// What an update does (`UICollectionViewUpdateItem.Action`).
    public enum Action: Int, Hashable, Sendable {
        case insert = 0
        case delete = 1
        case reload = 2
        case move = 3
        case none = 4

        package var name: String {
            switch self {
            case .insert: "insert"
            case .delete: "delete"
            case .reload: "reload"
            case .move: "move"
            case .none: "none"
            }
        }
    }

    /// Where the element was before the update; `nil` for inserts.
    public let indexPathBeforeUpdate: IndexPath?
    /// Where the element is after the update; `nil` for deletes.
    public let indexPathAfterUpdate: IndexPath?
    /// What the update does.
    public let updateAction: Action

    /// Creates an update item.
    public init(action: Action, before: IndexPath?, after: IndexPath?) {
        self.updateAction = action
        self.indexPathBeforeUpdate = before
        self.indexPathAfterUpdate = after
        super.init()
    }

    /// Whether this is a section operation (index paths of length one).
    package var isSectionOperation: Bool {
        (indexPathBeforeUpdate ?? indexPathAfterUpdate)?.count == 1
    }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CollectionViewUpdateItem else { return false }
        return updateAction == other.updateAction && indexPathBeforeUpdate == other.indexPathBeforeUpdate
            && indexPathAfterUpdate == other.indexPathAfterUpdate
    }

    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(updateAction)
        hasher.combine(indexPathBeforeUpdate)
        hasher.combine(indexPathAfterUpdate)
        return hasher.finalize()
    }

    open override var description: String {
        let before = indexPathBeforeUpdate.map { "\(Array($0))" } ?? "nil"
        let after = indexPathAfterUpdate.map { "\(Array($0))" } ?? "nil"
        return "\(updateAction.name) \(before) -> \(after)"
    }
}

/// The older spelling of ``CollectionViewUpdateItem/Action`` (`UICollectionUpdateAction`).
public typealias CollectionUpdateAction = CollectionViewUpdateItem.Action
