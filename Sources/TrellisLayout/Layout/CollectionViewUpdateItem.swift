import Foundation

/// One change of a batch update, as the layout receives it in
/// ``CollectionViewLayout/prepare(forCollectionViewUpdates:)`` (`UICollectionViewUpdateItem`).
///
/// Section operations carry index paths of length one, as in UIKit.
public struct CollectionViewUpdateItem: Hashable, Sendable, CustomStringConvertible {
    /// What the update does.
    public enum Action: String, Hashable, Sendable {
        case insert, delete, reload, move, none
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
    }

    /// Whether this is a section operation (index paths of length one).
    public var isSectionOperation: Bool {
        (indexPathBeforeUpdate ?? indexPathAfterUpdate)?.count == 1
    }

    public var description: String {
        let before = indexPathBeforeUpdate.map { "\(Array($0))" } ?? "nil"
        let after = indexPathAfterUpdate.map { "\(Array($0))" } ?? "nil"
        return "\(updateAction) \(before) -> \(after)"
    }
}
