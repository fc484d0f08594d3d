import Foundation

/// A batch update that breaks UIKit's rules: the case says what is wrong and carries the numbers
/// and index paths involved; ``message`` is what UIKit's `NSInternalInconsistencyException`
/// would say.
///
/// ```swift
/// var batch = BatchUpdate()
/// batch.deleteItems(at: [IndexPath(item: 7, section: 0)])
/// do { _ = try batch.validated(oldCounts: [3], newCounts: [2]) } catch {
///     error   // .itemOutOfRange(.delete, [0, 7], itemCount: 3, afterUpdate: false)
/// }
/// ```
public enum BatchUpdateError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The kind of change an error is about.
    public enum Operation: String, Sendable {
        case insert, delete, reload, move
    }

    /// Two changes that may not be combined.
    public enum Conflict: Sendable {
        /// The same section or item is deleted and reloaded.
        case deleteAndReload
        /// The same section or item is deleted and moved.
        case deleteAndMove
        /// The same section or item is reloaded and moved.
        case reloadAndMove
        /// The same section or item is moved twice.
        case moveTwice
        /// Something is inserted where something else is moved to.
        case insertAndMove
        /// Two moves go to the same place.
        case multipleMoves
        /// An item is inserted where another is reloaded.
        case insertAndReload
        /// An item is moved where another is reloaded.
        case moveAndReload
        /// A section is inserted or moved where another is reloaded.
        case insertOrMoveIntoReload
    }

    /// A section operation names a section outside the counts before (delete, reload, move) or
    /// after (insert, reload) the update.
    case sectionOutOfRange(Operation, section: Int, sectionCount: Int, afterUpdate: Bool)
    /// A section is moved to a place outside the sections after the update.
    case sectionMoveDestinationOutOfRange(from: Int, to: Int, sectionCount: Int)
    /// More sections are deleted than exist.
    case tooManySectionsDeleted(deleted: Int, sectionCount: Int)
    /// Two section operations conflict.
    case sectionConflict(Conflict, section: Int)
    /// The section count after the update is not the count before plus inserts minus deletes.
    case invalidSectionCount(before: Int, after: Int, inserted: Int, deleted: Int)
    /// An index path that is not two non-negative indices.
    case invalidIndexPath(Operation, IndexPath)
    /// An item operation names a section that does not exist before (or after) the update.
    case itemSectionOutOfRange(Operation, IndexPath, sectionCount: Int, afterUpdate: Bool)
    /// An item operation names an item beyond its section's count before (or after) the update.
    case itemOutOfRange(Operation, IndexPath, itemCount: Int, afterUpdate: Bool)
    /// Two item operations conflict at `indexPath`.
    case itemConflict(Conflict, IndexPath)
    /// An item is moved out of a section that is deleted or reloaded.
    case moveOutOfChangingSection(IndexPath, section: Int, sectionOperation: Operation)
    /// An item is moved into a section that is reloaded.
    case moveIntoReloadedSection(IndexPath, section: Int)
    /// A section's item count after the update does not add up.
    case invalidItemCount(
        section: Int, before: Int, after: Int, inserted: Int, deleted: Int,
        movedIn: Int, movedOut: Int)
    /// More items are moved into a new section than it holds after the update.
    case tooManyItemsMovedIn(section: Int, movedIn: Int, itemCount: Int)

    /// What is wrong, in UIKit's words.
    public var message: String {
        switch self {
        case let .sectionOutOfRange(operation, section, count, after):
            if operation == .insert {
                return "attempt to insert section \(section) but there are only \(count) sections after the update"
            }
            return "attempt to \(operation.rawValue) section \(section), but there are only \(count) sections "
                + (after ? "after the update" : "before the update")
        case let .sectionMoveDestinationOutOfRange(from, to, count):
            return "attempt to move section \(from) to section \(to), but there are only \(count) sections after the update"
        case let .tooManySectionsDeleted(deleted, count):
            return "attempt to delete \(deleted) sections, but there are only \(count) sections before the update"
        case let .sectionConflict(conflict, section):
            switch conflict {
            case .moveTwice: return "attempt to move section \(section) twice"
            case .insertOrMoveIntoReload:
                return "attempt to insert or move a section to section \(section), which is being reloaded"
            case .insertAndMove: return "attempt to perform an insert and a move to the same section (\(section))"
            case .multipleMoves: return "attempt to perform multiple moves to the same section (\(section))"
            default: return "attempt to \(Self.verbs(conflict)) the same section (\(section))"
            }
        case let .invalidSectionCount(before, after, inserted, deleted):
            return "Invalid update: invalid number of sections. The number of sections contained in the collection "
                + "view after the update (\(after)) must be equal to the number of sections contained in "
                + "the collection view before the update (\(before)), plus or minus the number of sections "
                + "inserted or deleted (\(inserted) inserted, \(deleted) deleted)."
        case let .invalidIndexPath(operation, path):
            return "attempt to \(operation.rawValue) invalid index path \(Self.describe(path))"
        case let .itemSectionOutOfRange(operation, path, count, after):
            return "attempt to \(operation.rawValue) item \(Self.item(path)) \(after ? "into" : "from") section "
                + "\(Self.section(path)), but there are only \(count) sections \(after ? "after" : "before") the update"
        case let .itemOutOfRange(operation, path, count, after):
            if after {
                return "attempt to \(operation.rawValue) item \(Self.item(path)) into section \(Self.section(path)), "
                    + "but there are only \(count) items in section \(Self.section(path)) after the update"
            }
            return "attempt to \(operation.rawValue) item \(Self.item(path)) from section \(Self.section(path)) "
                + "which only contains \(count) items before the update"
        case let .itemConflict(conflict, path):
            switch conflict {
            case .moveTwice: return "attempt to move the same index path twice (\(Self.describe(path)))"
            case .insertAndMove:
                return "attempt to perform an insert and a move to the same index path (\(Self.describe(path)))"
            case .multipleMoves:
                return "attempt to perform multiple moves to the same index path (\(Self.describe(path)))"
            case .moveAndReload: return "attempt to move to and reload the same index path (\(Self.describe(path)))"
            default: return "attempt to \(Self.verbs(conflict)) the same index path (\(Self.describe(path)))"
            }
        case let .moveOutOfChangingSection(path, section, operation):
            return "attempt to move index path (\(Self.describe(path))) out of section \(section), which is being "
                + (operation == .delete ? "deleted" : "reloaded")
        case let .moveIntoReloadedSection(path, section):
            return "attempt to move index path (\(Self.describe(path))) into section \(section), which is being reloaded"
        case let .invalidItemCount(section, before, after, inserted, deleted, movedIn, movedOut):
            return "Invalid update: invalid number of items in section \(section). The number of items contained "
                + "in an existing section after the update (\(after)) must be equal to the number "
                + "of items contained in that section before the update (\(before)), plus or minus "
                + "the number of items inserted or deleted from that section (\(inserted) inserted, "
                + "\(deleted) deleted) and plus or minus the number of items moved into or out of "
                + "that section (\(movedIn) moved in, \(movedOut) moved out)."
        case let .tooManyItemsMovedIn(section, movedIn, count):
            return "Invalid update: more items moved into section \(section) (\(movedIn)) than it contains "
                + "after the update (\(count))."
        }
    }

    public var description: String { message }

    private static func verbs(_ conflict: Conflict) -> String {
        switch conflict {
        case .deleteAndReload: "delete and reload"
        case .deleteAndMove: "delete and move"
        case .reloadAndMove: "reload and move"
        case .insertAndReload: "insert and reload"
        default: "change"
        }
    }

    private static func section(_ path: IndexPath) -> Int { path.count > 0 ? path[0] : 0 }
    private static func item(_ path: IndexPath) -> Int { path.count > 1 ? path[1] : 0 }

    /// An index path as UIKit prints it inside these messages: `{length = 2, path = 0 - 1}`.
    static func describe(_ path: IndexPath) -> String {
        "{length = \(path.count), path = \(path.map(String.init).joined(separator: " - "))}"
    }
}
