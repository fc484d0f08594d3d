import Foundation

/// Where every section and item of a collection view went in a batch update: old → new and
/// new → old, plus the update items a layout receives.
///
/// Built by ``BatchUpdate/validated(oldCounts:newCounts:)``: deleted items are removed, moves are
/// a remove and an insert, inserted items take their after-positions, and untouched items keep
/// their relative order in the remaining positions.
public struct UpdateMapping: Sendable {
    /// Item counts per section before the update.
    public let oldCounts: [Int]
    /// Item counts per section after the update.
    public let newCounts: [Int]
    /// Old section → new section, `nil` when deleted or reloaded.
    let sectionOldToNew: [Int?]
    /// New section → old section, `nil` when inserted or reloaded.
    let sectionNewToOld: [Int?]
    /// Per old section: old item → new item, -1 when deleted, reloaded or in a removed section.
    /// Empty for a section whose items map to themselves (nothing touched it).
    let itemOldToNew: [[Int]]
    /// Per new section: new item → old item, -1 when inserted or reloaded.
    let itemNewToOld: [[Int]]
    /// Old sections whose items map to the same positions in `sectionOldToNew`'s target.
    let identitySections: Set<Int>
    /// Items moved from one section to another (marked -3 in the arrays), old → new.
    let crossSectionMoves: [IndexPath: IndexPath]
    /// The same moves, new → old.
    let crossSectionMovesBack: [IndexPath: IndexPath]
    /// The changes as a layout receives them in `prepare(forCollectionViewUpdates:)`.
    public let updateItems: [CollectionViewUpdateItem]
    /// Old index paths of items that were reloaded (a delete plus an insert at the same path).
    public let reloadedItems: Set<IndexPath>
    /// Old sections that were reloaded.
    public let reloadedSections: Set<Int>
    /// New index paths of items inserted by the batch (reload inserts excluded).
    public let insertedItems: Set<IndexPath>
    /// New sections inserted by the batch.
    public let insertedSections: Set<Int>
    /// Old index paths of items deleted by the batch (reload deletes excluded).
    public let deletedItems: Set<IndexPath>
    /// Old sections deleted by the batch.
    public let deletedSections: Set<Int>

    /// The new section of old section `section`, `nil` when it was deleted or reloaded.
    public func newSection(forOld section: Int) -> Int? {
        sectionOldToNew.indices.contains(section) ? sectionOldToNew[section] : nil
    }

    /// The old section of new section `section`, `nil` when it was inserted or reloaded.
    public func oldSection(forNew section: Int) -> Int? {
        sectionNewToOld.indices.contains(section) ? sectionNewToOld[section] : nil
    }

    /// Where the item at `old` is after the update, `nil` when it was deleted or reloaded.
    public func newIndexPath(forOld old: IndexPath) -> IndexPath? {
        guard old.count == 2, oldCounts.indices.contains(old.section), old.item >= 0,
              old.item < oldCounts[old.section], let section = newSection(forOld: old.section) else { return nil }
        if identitySections.contains(old.section) { return IndexPath(item: old.item, section: section) }
        let item = itemOldToNew[old.section][old.item]
        if item == -3 { return crossSectionMoves[old] }
        return item < 0 ? nil : IndexPath(item: item, section: section)
    }

    /// Where the item now at `new` was before the update, `nil` when it is new (inserted or reloaded).
    public func oldIndexPath(forNew new: IndexPath) -> IndexPath? {
        guard new.count == 2, newCounts.indices.contains(new.section), new.item >= 0,
              new.item < newCounts[new.section] else { return nil }
        let section = oldSection(forNew: new.section)
        if let section, identitySections.contains(section) { return IndexPath(item: new.item, section: section) }
        let item = itemNewToOld[new.section][new.item]
        if item == -3 { return crossSectionMovesBack[new] }
        guard let section else { return nil }
        return item < 0 ? nil : IndexPath(item: item, section: section)
    }

    /// Per-item data carried through the update, as an app's model changes with its batch: each
    /// item that survives keeps its value at its new place (moves included), and every new item —
    /// inserted, reloaded, or in a new section — takes `newItem(indexPath)`. An old value missing
    /// from `sections` (a section shorter than its count) is new too.
    ///
    /// ```swift
    /// var batch = BatchUpdate()
    /// batch.insertItems(at: [IndexPath(item: 0, section: 0)])
    /// let mapping = try batch.validated(oldCounts: [2], newCounts: [3])
    /// mapping.apply(to: [["a", "b"]]) { _ in "new" }   // [["new", "a", "b"]]
    /// ```
    ///
    /// - Complexity: O(new items).
    public func apply<Item>(to sections: [[Item]], newItem: (IndexPath) -> Item) -> [[Item]] {
        newCounts.enumerated().map { section, count in
            (0..<count).map { item in
                let path = IndexPath(item: item, section: section)
                guard let old = oldIndexPath(forNew: path), sections.indices.contains(old.section),
                      sections[old.section].indices.contains(old.item) else { return newItem(path) }
                return sections[old.section][old.item]
            }
        }
    }

    /// A mapping for no change at all.
    public static func identity(counts: [Int]) -> UpdateMapping {
        UpdateMapping(oldCounts: counts, newCounts: counts, sectionOldToNew: counts.indices.map { $0 },
                      sectionNewToOld: counts.indices.map { $0 }, itemOldToNew: counts.map { _ in [] },
                      itemNewToOld: counts.map { _ in [] }, identitySections: Set(counts.indices),
                      crossSectionMoves: [:], crossSectionMovesBack: [:], updateItems: [],
                      reloadedItems: [], reloadedSections: [], insertedItems: [], insertedSections: [],
                      deletedItems: [], deletedSections: [])
    }
}
