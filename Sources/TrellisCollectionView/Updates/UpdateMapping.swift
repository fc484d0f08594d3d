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
    /// Per new section an item operation touched (or inserted): its items' mapping, kept as the
    /// changed positions only.
    let itemMaps: [Int: SectionItemMap]
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
            old.item < oldCounts[old.section], let section = newSection(forOld: old.section)
        else { return nil }
        if identitySections.contains(old.section) { return IndexPath(item: old.item, section: section) }
        guard let map = itemMaps[section] else { return nil }
        let item = map.newItem(forOld: old.item)
        if item == SectionItemMap.crossSection { return crossSectionMoves[old] }
        return item < 0 ? nil : IndexPath(item: item, section: section)
    }

    /// Where the item now at `new` was before the update, `nil` when it is new (inserted or reloaded).
    public func oldIndexPath(forNew new: IndexPath) -> IndexPath? {
        guard new.count == 2, newCounts.indices.contains(new.section), new.item >= 0,
            new.item < newCounts[new.section]
        else { return nil }
        let section = oldSection(forNew: new.section)
        if let section, identitySections.contains(section) { return IndexPath(item: new.item, section: section) }
        guard let map = itemMaps[new.section] else { return nil }
        let item = map.oldItem(forNew: new.item)
        if item == SectionItemMap.crossSection { return crossSectionMovesBack[new] }
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
                    sections[old.section].indices.contains(old.item)
                else { return newItem(path) }
                return sections[old.section][old.item]
            }
        }
    }

    /// Bytes the item maps hold, about: O(changes), whatever the sections' sizes.
    var itemMapBytes: Int { itemMaps.values.reduce(0) { $0 + $1.bytes } }

    /// A mapping for no change at all.
    public static func identity(counts: [Int]) -> UpdateMapping {
        UpdateMapping(
            oldCounts: counts, newCounts: counts, sectionOldToNew: counts.indices.map { $0 },
            sectionNewToOld: counts.indices.map { $0 }, itemMaps: [:], identitySections: Set(counts.indices),
            crossSectionMoves: [:], crossSectionMovesBack: [:], updateItems: [],
            reloadedItems: [], reloadedSections: [], insertedItems: [], insertedSections: [],
            deletedItems: [], deletedSections: [])
    }
}

/// Where the items of one section went in a batch, kept as what changed: the new positions that
/// the batch fills (inserts, reloads, moves in) and the old items it takes away (deletes,
/// reloads, moves out). Every other item survives, and the survivors keep their order in the
/// positions left free — so the k-th survivor's place follows from the two sorted lists by
/// binary search, and a batch of a few changes in a section of ten million items holds a few
/// numbers, not two arrays of ten million.
///
/// - Complexity: lookups O(log k) for k changes in the section; memory O(k).
struct SectionItemMap: Sendable {
    static let new = -1
    static let crossSection = -3

    /// The new positions the batch fills, ascending, and what each holds: ``new`` (inserted or
    /// reloaded), ``crossSection`` (moved from another section), or the old item moved there.
    private let filled: [Int]
    private let sources: [Int]
    /// The old items that do not survive in place, ascending (empty for an inserted section).
    private let removed: [Int]
    /// Old items moved within the section, to their new positions; old items moved out of it.
    private let movedWithin: [Int: Int]
    private let movedOut: Set<Int>
    /// Whether the section has an old one (an inserted section's free places are new items).
    private let hasOldSection: Bool

    /// `filled` maps new positions to what they hold; `removed` are the old items taken away
    /// (`nil` for a section that is new).
    init(filled: [Int: Int], removed: [Int]?, movedOut: Set<Int>) {
        let positions = filled.keys.sorted()
        self.filled = positions
        sources = positions.map { filled[$0]! }
        self.removed = (removed ?? []).sorted()
        hasOldSection = removed != nil
        var within: [Int: Int] = [:]
        for (position, source) in filled where source >= 0 { within[source] = position }
        movedWithin = within
        self.movedOut = movedOut
    }

    /// How many values of the ascending `list` are below `value`.
    private static func count(_ list: [Int], below value: Int) -> Int {
        var low = 0, high = list.count
        while low < high {
            let mid = (low + high) >> 1
            if list[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The `rank`-th (from 0) non-negative integer not in the ascending `list`.
    private static func select(_ rank: Int, notIn list: [Int]) -> Int {
        // list[j] − j is how many integers outside the list come before list[j]: the answer is
        // `rank` plus the number of list entries whose count is at most `rank`.
        var low = 0, high = list.count
        while low < high {
            let mid = (low + high) >> 1
            if list[mid] - mid <= rank { low = mid + 1 } else { high = mid }
        }
        return rank + low
    }

    /// What the new position `item` holds: an old item, ``new`` or ``crossSection``.
    func oldItem(forNew item: Int) -> Int {
        let index = Self.count(filled, below: item)
        if index < filled.count, filled[index] == item { return sources[index] }
        guard hasOldSection else { return Self.new }
        return Self.select(item - index, notIn: removed)
    }

    /// Where the old item `item` is now: a new position, ``new`` (deleted or reloaded: gone) or
    /// ``crossSection``.
    func newItem(forOld item: Int) -> Int {
        let index = Self.count(removed, below: item)
        if index < removed.count, removed[index] == item {
            if let position = movedWithin[item] { return position }
            return movedOut.contains(item) ? Self.crossSection : Self.new
        }
        return Self.select(item - index, notIn: filled)
    }

    /// Bytes held, about.
    var bytes: Int { (filled.capacity + sources.capacity + removed.capacity) * 8 + (movedWithin.count + movedOut.count) * 24 }
}
