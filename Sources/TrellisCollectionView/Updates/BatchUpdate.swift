import Foundation

/// The changes of one batch update, collected before they are applied at once: what
/// `performBatchUpdates` gathers from `insertItems(at:)`, `deleteSections(_:)` and the rest.
///
/// ```swift
/// var batch = BatchUpdate()
/// batch.deleteItems(at: [IndexPath(item: 1, section: 0)])
/// batch.insertItems(at: [IndexPath(item: 0, section: 0), IndexPath(item: 4, section: 0)])
/// let mapping = try batch.validated(oldCounts: [4], newCounts: [5])
/// mapping.newIndexPath(forOld: IndexPath(item: 2, section: 0))  // [0, 2]
/// ```
///
/// Index paths follow UIKit's rules: deletes, reloads and move sources name positions *before*
/// the batch; inserts and move destinations name positions *after* it. A reload is a delete and an
/// insert at the same path.
public struct BatchUpdate: Hashable, Sendable {
    /// A move from a position before the batch to one after it.
    public struct Move<Position: Hashable & Sendable>: Hashable, Sendable {
        public var from: Position
        public var to: Position
        public init(from: Position, to: Position) { self.from = from; self.to = to }
    }

    public private(set) var insertedSections: [Int] = []
    public private(set) var deletedSections: [Int] = []
    public private(set) var reloadedSections: [Int] = []
    public private(set) var movedSections: [Move<Int>] = []
    public private(set) var insertedItems: [IndexPath] = []
    public private(set) var deletedItems: [IndexPath] = []
    public private(set) var reloadedItems: [IndexPath] = []
    public private(set) var movedItems: [Move<IndexPath>] = []

    /// An empty batch.
    public init() {}

    /// Whether the batch holds no change.
    public var isEmpty: Bool {
        insertedSections.isEmpty && deletedSections.isEmpty && reloadedSections.isEmpty && movedSections.isEmpty
            && insertedItems.isEmpty && deletedItems.isEmpty && reloadedItems.isEmpty && movedItems.isEmpty
    }

    public mutating func insertItems(at indexPaths: [IndexPath]) { insertedItems += indexPaths }
    public mutating func deleteItems(at indexPaths: [IndexPath]) { deletedItems += indexPaths }
    public mutating func reloadItems(at indexPaths: [IndexPath]) { reloadedItems += indexPaths }
    public mutating func moveItem(at from: IndexPath, to: IndexPath) { movedItems.append(Move(from: from, to: to)) }
    public mutating func insertSections(_ sections: IndexSet) { insertedSections += sections }
    public mutating func deleteSections(_ sections: IndexSet) { deletedSections += sections }
    public mutating func reloadSections(_ sections: IndexSet) { reloadedSections += sections }
    public mutating func moveSection(_ from: Int, toSection to: Int) { movedSections.append(Move(from: from, to: to)) }

    /// Appends another batch's changes: how nested `performBatchUpdates` calls coalesce.
    public mutating func append(_ other: BatchUpdate) {
        insertedSections += other.insertedSections
        deletedSections += other.deletedSections
        reloadedSections += other.reloadedSections
        movedSections += other.movedSections
        insertedItems += other.insertedItems
        deletedItems += other.deletedItems
        reloadedItems += other.reloadedItems
        movedItems += other.movedItems
    }

    /// The item counts the data must have after this batch, by UIKit's counting rule: an existing
    /// section has its old count plus inserts and moves in, minus deletes and moves out; an
    /// inserted section holds what is inserted or moved into it. Throws for a batch whose
    /// section operations are invalid. Useful to a host that applies a batch to its own data.
    public func expectedCounts(after oldCounts: [Int]) throws(BatchUpdateError) -> [Int] {
        let sectionCount = oldCounts.count + Set(insertedSections).count - Set(deletedSections).count
        guard sectionCount >= 0 else {
            throw .tooManySectionsDeleted(deleted: Set(deletedSections).count, sectionCount: oldCounts.count)
        }
        var validator = BatchValidator(
            batch: self, oldCounts: oldCounts,
            newCounts: Array(repeating: 0, count: sectionCount))
        let sectionNewToOld = try validator.sectionsOnly()
        var counts = sectionNewToOld.map { $0.map { oldCounts[$0] } ?? 0 }
        let deletedSections = Set(deletedSections), reloadedSections = Set(reloadedSections)
        // A reloaded section keeps its place and its count.
        for s in reloadedSections where counts.indices.contains(s) && oldCounts.indices.contains(s) {
            counts[s] = oldCounts[s]
        }
        let newSectionOfOld = { (old: Int) in sectionNewToOld.firstIndex(of: old) }
        for path in Set(deletedItems)
        where path.count == 2 && !deletedSections.contains(path.section)
            && !reloadedSections.contains(path.section)
        {
            if let new = newSectionOfOld(path.section) { counts[new] -= 1 }
        }
        for path in Set(insertedItems) where path.count == 2 && counts.indices.contains(path.section) {
            if sectionNewToOld[path.section] != nil { counts[path.section] += 1 }
        }
        for move in movedItems where move.from.count == 2 && move.to.count == 2 {
            if let from = newSectionOfOld(move.from.section) { counts[from] -= 1 }
            if counts.indices.contains(move.to.section) { counts[move.to.section] += 1 }
        }
        // An inserted section holds its inserts (which are otherwise absorbed).
        for path in Set(insertedItems)
        where path.count == 2 && counts.indices.contains(path.section)
            && sectionNewToOld[path.section] == nil && !reloadedSections.contains(path.section)
        {
            counts[path.section] += 1
        }
        return counts.map { max(0, $0) }
    }

    /// Checks the batch against the counts before and after it with UIKit's rules and returns
    /// the mapping from old to new positions. Throws the error UIKit's internal-inconsistency
    /// exception would describe; nothing is changed by a failed validation.
    ///
    /// - Complexity: O(n + k log k) for n items in the touched sections and k changes.
    public func validated(oldCounts: [Int], newCounts: [Int]) throws(BatchUpdateError) -> UpdateMapping {
        var validator = BatchValidator(batch: self, oldCounts: oldCounts, newCounts: newCounts)
        return try validator.run()
    }
}
