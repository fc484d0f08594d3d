import Foundation

/// A problem a collection view met while running, where UIKit would raise or log: it goes on
/// (a plain view stands in, a count is clamped, a batch is refused) and records what happened in
/// ``CollectionView/diagnostics``.
///
/// ```swift
/// collectionView.register(Banner.self, forCellWithReuseIdentifier: "banner")  // not a cell class
/// collectionView.diagnostics.last   // .notACellClass("Banner"): "Banner is not a CollectionViewCell subclass; …"
/// ```
public enum Diagnostic: Hashable, Sendable, CustomStringConvertible {
    /// The data source reported a count below zero (counted as 0) or above the most a
    /// collection view keeps (counted as that); `what` says of what: `sections`, `items in section 2`.
    case countOutOfRange(reported: Int, what: String, counted: Int)
    /// A class registered for cells that is not a cell class.
    case notACellClass(String)
    /// A class registered for supplementary views of `kind` that is not a reusable view class.
    case notAReusableViewClass(String, kind: String)
    /// A cell dequeued with an identifier nothing was registered for: a plain cell stands in.
    case unregisteredCellIdentifier(String)
    /// The layout invalidated itself in every one of this many passes in a row.
    case layoutDidNotSettle(passes: Int)
    /// A batch update the collection view refused: nothing changed.
    case batchRefused(String)
    /// `reconfigureItems` asked the data source for a cell, and it did not dequeue the one shown.
    case reconfigureDidNotReuse(IndexPath)
    /// `dequeueConfiguredReusableCell(using:for:item:)` was given no item: the cell is unconfigured.
    case noItemToConfigure(IndexPath)
    /// The data source has no supplementary views, and the layout asked for one: a plain view stands in.
    case noSupplementaryViewMethod(kind: String, IndexPath)
    /// A diffable snapshot call that was refused.
    case snapshotOperationRefused(String)
    /// A diffable data source's cell provider gave no cell.
    case noCellFromProvider(IndexPath)
    /// No supplementary view provider answered for `kind`.
    case noSupplementaryViewFromProvider(kind: String, IndexPath)
    /// An interactive move ended, and the data source has no `collectionView(_:moveItemAt:to:)`:
    /// its data did not move.
    case noMoveItemMethod(from: IndexPath, to: IndexPath)
    /// After an interactive move the data source's counts are not the ones shown: it was reloaded.
    case moveCountsDiffer(shown: [Int], reported: [Int])
    /// A drop placeholder was given an index path where no item can be inserted: none was.
    case placeholderOutOfRange(IndexPath)
    /// A placeholder's `commitInsertion` block did not add one item where it stood: reloaded.
    case placeholderCommitDidNotInsert(IndexPath)

    public var description: String {
        switch self {
        case .countOutOfRange(let reported, let what, let counted):
            return "the data source reported \(reported) \(what); counting \(counted)"
        case .notACellClass(let name):
            return "\(name) is not a CollectionViewCell subclass; it cannot be registered for cells"
        case .notAReusableViewClass(let name, let kind):
            return "\(name) is not a CollectionReusableView subclass; it cannot be registered for \(kind)"
        case .unregisteredCellIdentifier(let identifier):
            return "could not dequeue a view of kind: cell with identifier \(identifier) - register a class for the identifier"
        case .layoutDidNotSettle(let passes):
            return "the layout did not settle after \(passes) passes: it invalidates itself "
                + "in every pass (does it set a property in prepare() to a new value each time?)"
        case .batchRefused(let message):
            return "invalid batch update refused: \(message)"
        case .reconfigureDidNotReuse(let path):
            return "reconfigureItems: the data source did not dequeue the existing cell for \(Array(path))"
        case .noItemToConfigure(let path):
            return "dequeueConfiguredReusableCell(using:for:item:) was given no item at \(Array(path)); the cell is unconfigured"
        case .noSupplementaryViewMethod(let kind, let path):
            return "the data source does not implement collectionView(_:viewForSupplementaryElementOfKind:at:); "
                + "a plain view stands in for \(kind) at \(Array(path))"
        case .snapshotOperationRefused(let message):
            return "snapshot: \(message)"
        case .noCellFromProvider(let path):
            return "the cell provider gave no cell for \(Array(path))"
        case .noSupplementaryViewFromProvider(let kind, let path):
            return "no supplementary view provider answered for \(kind) at \(Array(path))"
        case .noMoveItemMethod(let from, let to):
            return "the data source does not implement collectionView(_:moveItemAt:to:); the move of \(Array(from)) "
                + "to \(Array(to)) is shown but its data did not move"
        case .moveCountsDiffer(let shown, let reported):
            return "after the interactive move the data source reports \(reported) items per section, not the \(shown) shown; reloaded"
        case .placeholderOutOfRange(let path):
            return "drop placeholder at \(Array(path)): no item can be inserted there (a section's items run from 0 to its count); "
                + "no placeholder was inserted"
        case .placeholderCommitDidNotInsert(let path):
            return "commitInsertion(dataSourceUpdates:) at \(Array(path)): the block did not insert one item into the data source "
                + "there; reloaded"
        }
    }
}
