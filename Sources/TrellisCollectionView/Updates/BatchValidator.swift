import Foundation

/// Checks a ``BatchUpdate`` with UIKit's rules and builds its ``UpdateMapping``. The steps:
/// 1. section operations: ranges, conflicts, the section count;
/// 2. the section mapping;
/// 3. item operations: ranges (absorbing those inside deleted or reloaded sections), conflicts;
/// 4. the item count of every section that exists before and after;
/// 5. the item mapping of every touched section;
/// 6. the update items.
struct BatchValidator {
    let batch: BatchUpdate
    let oldCounts: [Int]
    let newCounts: [Int]

    private var deletedSections = Set<Int>()
    private var reloadedSections = Set<Int>()
    private var insertedSections = Set<Int>()
    private var sectionOldToNew: [Int?] = []
    private var sectionNewToOld: [Int?] = []
    private var deletes = Set<IndexPath>()
    private var reloads = Set<IndexPath>()
    private var inserts = Set<IndexPath>()
    private var moves: [BatchUpdate.Move<IndexPath>] = []

    init(batch: BatchUpdate, oldCounts: [Int], newCounts: [Int]) {
        self.batch = batch
        self.oldCounts = oldCounts
        self.newCounts = newCounts
    }

    typealias Failure = BatchUpdateError

    /// Steps 1–2 only: checks the section operations and returns new section → old section.
    mutating func sectionsOnly() throws(Failure) -> [Int?] {
        try checkSections()
        mapSections()
        return sectionNewToOld
    }

    mutating func run() throws(Failure) -> UpdateMapping {
        try checkSections()
        mapSections()
        try checkItems()
        try checkItemCounts()
        return buildMapping()
    }

    // MARK: 1–2. Sections

    private mutating func checkSections() throws(Failure) {
        let oldCount = oldCounts.count, newCount = newCounts.count
        for s in batch.deletedSections where !(0..<oldCount).contains(s) {
            throw .sectionOutOfRange(.delete, section: s, sectionCount: oldCount, afterUpdate: false)
        }
        for s in batch.reloadedSections where !(0..<oldCount).contains(s) {
            throw .sectionOutOfRange(.reload, section: s, sectionCount: oldCount, afterUpdate: false)
        }
        for s in batch.insertedSections where !(0..<newCount).contains(s) {
            throw .sectionOutOfRange(.insert, section: s, sectionCount: newCount, afterUpdate: true)
        }
        for move in batch.movedSections {
            guard (0..<oldCount).contains(move.from) else {
                throw .sectionOutOfRange(.move, section: move.from, sectionCount: oldCount, afterUpdate: false)
            }
            guard (0..<newCount).contains(move.to) else {
                throw .sectionMoveDestinationOutOfRange(from: move.from, to: move.to, sectionCount: newCount)
            }
        }
        deletedSections = Set(batch.deletedSections)
        reloadedSections = Set(batch.reloadedSections)
        insertedSections = Set(batch.insertedSections)
        for s in batch.deletedSections where reloadedSections.contains(s) {
            throw .sectionConflict(.deleteAndReload, section: s)
        }
        var movedFrom = Set<Int>(), movedTo = Set<Int>()
        for move in batch.movedSections {
            if deletedSections.contains(move.from) { throw .sectionConflict(.deleteAndMove, section: move.from) }
            if reloadedSections.contains(move.from) { throw .sectionConflict(.reloadAndMove, section: move.from) }
            guard movedFrom.insert(move.from).inserted else { throw .sectionConflict(.moveTwice, section: move.from) }
            if insertedSections.contains(move.to) {
                throw .sectionConflict(.insertAndMove, section: move.to)
            }
            guard movedTo.insert(move.to).inserted else {
                throw .sectionConflict(.multipleMoves, section: move.to)
            }
        }
        for s in reloadedSections.sorted() where insertedSections.contains(s) || movedTo.contains(s) {
            throw .sectionConflict(.insertOrMoveIntoReload, section: s)
        }
        for s in reloadedSections.sorted() where s >= newCount {
            throw .sectionOutOfRange(.reload, section: s, sectionCount: newCount, afterUpdate: true)
        }
        guard newCount == oldCount + insertedSections.count - deletedSections.count else {
            throw .invalidSectionCount(
                before: oldCount, after: newCount, inserted: insertedSections.count,
                deleted: deletedSections.count)
        }
    }

    /// New sections: inserted and reloaded ones have no old section, moved ones come from their
    /// source, and the remaining old sections fill the remaining places in order.
    private mutating func mapSections() {
        sectionOldToNew = Array(repeating: nil, count: oldCounts.count)
        sectionNewToOld = Array(repeating: nil, count: newCounts.count)
        var fixed = Array(repeating: false, count: newCounts.count)
        for s in insertedSections { fixed[s] = true }
        for s in reloadedSections { fixed[s] = true }
        var movedFrom = Set<Int>()
        for move in batch.movedSections {
            fixed[move.to] = true
            sectionNewToOld[move.to] = move.from
            sectionOldToNew[move.from] = move.to
            movedFrom.insert(move.from)
        }
        var slot = 0
        for old in oldCounts.indices
        where !deletedSections.contains(old) && !reloadedSections.contains(old) && !movedFrom.contains(old) {
            while slot < fixed.count, fixed[slot] { slot += 1 }
            guard slot < fixed.count else { break }
            sectionNewToOld[slot] = old
            sectionOldToNew[old] = slot
            slot += 1
        }
    }

    // MARK: 3–4. Items

    private func checkBefore(_ path: IndexPath, _ operation: Failure.Operation) throws(Failure) {
        try check(path, operation, in: oldCounts, afterUpdate: false)
    }

    private func checkAfter(_ path: IndexPath, _ operation: Failure.Operation) throws(Failure) {
        try check(path, operation, in: newCounts, afterUpdate: true)
    }

    private func check(
        _ path: IndexPath, _ operation: Failure.Operation, in counts: [Int], afterUpdate: Bool
    ) throws(Failure) {
        guard path.count == 2, path.item >= 0 else { throw .invalidIndexPath(operation, path) }
        guard (0..<counts.count).contains(path.section) else {
            throw .itemSectionOutOfRange(operation, path, sectionCount: counts.count, afterUpdate: afterUpdate)
        }
        guard path.item < counts[path.section] else {
            throw .itemOutOfRange(operation, path, itemCount: counts[path.section], afterUpdate: afterUpdate)
        }
    }

    /// Whether an old section's item operations are absorbed by a section delete or reload.
    private func absorbedBefore(_ section: Int) -> Bool {
        deletedSections.contains(section) || reloadedSections.contains(section)
    }

    /// Whether a new section's item inserts are absorbed because the section itself is new.
    private func absorbedAfter(_ section: Int) -> Bool { sectionNewToOld[section] == nil }

    private mutating func checkItems() throws(Failure) {
        for path in batch.deletedItems {
            try checkBefore(path, .delete)
            if !absorbedBefore(path.section) { deletes.insert(path) }
        }
        for path in batch.reloadedItems {
            try checkBefore(path, .reload)
            if absorbedBefore(path.section) { continue }
            if deletes.contains(path) { throw .itemConflict(.deleteAndReload, path) }
            reloads.insert(path)
        }
        for path in batch.insertedItems {
            try checkAfter(path, .insert)
            if !absorbedAfter(path.section) { inserts.insert(path) }
        }
        var movedFrom = Set<IndexPath>(), movedTo = Set<IndexPath>()
        for move in batch.movedItems {
            try checkBefore(move.from, .move)
            try checkAfter(move.to, .move)
            if deletedSections.contains(move.from.section) {
                throw .moveOutOfChangingSection(move.from, section: move.from.section, sectionOperation: .delete)
            }
            if reloadedSections.contains(move.from.section) {
                throw .moveOutOfChangingSection(move.from, section: move.from.section, sectionOperation: .reload)
            }
            if let old = sectionNewToOld[move.to.section], reloadedSections.contains(old) && old == move.to.section {
                throw .moveIntoReloadedSection(move.from, section: move.to.section)
            }
            if reloadedSections.contains(move.to.section) && sectionNewToOld[move.to.section] == nil
                && !insertedSections.contains(move.to.section)
            {
                throw .moveIntoReloadedSection(move.from, section: move.to.section)
            }
            if deletes.contains(move.from) {
                throw .itemConflict(.deleteAndMove, move.from)
            }
            if reloads.contains(move.from) {
                throw .itemConflict(.reloadAndMove, move.from)
            }
            guard movedFrom.insert(move.from).inserted else {
                throw .itemConflict(.moveTwice, move.from)
            }
            if inserts.contains(move.to) {
                throw .itemConflict(.insertAndMove, move.to)
            }
            guard movedTo.insert(move.to).inserted else {
                throw .itemConflict(.multipleMoves, move.to)
            }
            moves.append(move)
        }
        for path in reloads.sorted() {
            let after = reloadTarget(path)
            try checkAfter(after, .reload)
            if inserts.contains(after) {
                throw .itemConflict(.insertAndReload, after)
            }
            if movedTo.contains(after) {
                throw .itemConflict(.moveAndReload, after)
            }
        }
    }

    /// A reload is a delete and an insert at the same path, in the section's new place.
    private func reloadTarget(_ path: IndexPath) -> IndexPath {
        IndexPath(item: path.item, section: sectionOldToNew[path.section] ?? path.section)
    }

    private func checkItemCounts() throws(Failure) {
        var inserted = [Int](repeating: 0, count: newCounts.count)
        var movedIn = [Int](repeating: 0, count: newCounts.count)
        var deleted = [Int](repeating: 0, count: oldCounts.count)
        var movedOut = [Int](repeating: 0, count: oldCounts.count)
        for path in inserts { inserted[path.section] += 1 }
        for path in deletes { deleted[path.section] += 1 }
        for move in moves {
            movedIn[move.to.section] += 1
            movedOut[move.from.section] += 1
        }
        for new in newCounts.indices {
            guard let old = sectionNewToOld[new] else { continue }
            let expected = oldCounts[old] + inserted[new] - deleted[old] + movedIn[new] - movedOut[old]
            guard newCounts[new] == expected else {
                throw .invalidItemCount(
                    section: new, before: oldCounts[old], after: newCounts[new], inserted: inserted[new],
                    deleted: deleted[old], movedIn: movedIn[new], movedOut: movedOut[old])
            }
            // An inserted section's items are new; a moved-in item must still fit.
        }
        for new in newCounts.indices where sectionNewToOld[new] == nil && movedIn[new] > newCounts[new] {
            throw .tooManyItemsMovedIn(section: new, movedIn: movedIn[new], itemCount: newCounts[new])
        }
    }

    // MARK: 5–6. Mapping

    private func buildMapping() -> UpdateMapping {
        // Which sections any item operation touches.
        var touchedOld = Set<Int>(), touchedNew = Set<Int>()
        for path in deletes { touchedOld.insert(path.section) }
        for path in reloads { touchedOld.insert(path.section); touchedNew.insert(reloadTarget(path).section) }
        for path in inserts { touchedNew.insert(path.section) }
        for move in moves { touchedOld.insert(move.from.section); touchedNew.insert(move.to.section) }
        for (old, new) in sectionOldToNew.enumerated() {
            if let new, touchedNew.contains(new) { touchedOld.insert(old) }
            if let new, touchedOld.contains(old) { touchedNew.insert(new) }
        }
        // Sections no item operation touches keep item i at i: they need no map.
        let identity = Set(oldCounts.indices.filter { sectionOldToNew[$0] != nil && !touchedOld.contains($0) })
        var maps: [Int: SectionItemMap] = [:]
        // Moves between sections are kept in a table; same-section ones live in the maps.
        var crossOldToNew: [IndexPath: IndexPath] = [:], crossNewToOld: [IndexPath: IndexPath] = [:]
        let movesByTarget = Dictionary(grouping: moves, by: { $0.to.section })
        let reloadsByTarget = Dictionary(grouping: reloads, by: { reloadTarget($0).section })
        let insertsBySection = Dictionary(grouping: inserts, by: \.section)
        let removedByOld = Dictionary(grouping: Array(deletes) + Array(reloads) + moves.map(\.from), by: \.section)
        let movedOutByOld = Dictionary(
            grouping: moves.filter { move in
                sectionOldToNew[move.from.section] != move.to.section
            }, by: \.from.section)
        for new in newCounts.indices where sectionNewToOld[new] == nil || touchedNew.contains(new) {
            let old = sectionNewToOld[new]
            var filled: [Int: Int] = [:]
            for path in insertsBySection[new] ?? [] { filled[path.item] = SectionItemMap.new }
            for path in reloadsByTarget[new] ?? [] { filled[reloadTarget(path).item] = SectionItemMap.new }
            for move in movesByTarget[new] ?? [] {
                if move.from.section == old {
                    filled[move.to.item] = move.from.item
                } else {
                    filled[move.to.item] = SectionItemMap.crossSection
                    crossOldToNew[move.from] = move.to
                    crossNewToOld[move.to] = move.from
                }
            }
            maps[new] = SectionItemMap(
                filled: filled, removed: old.map { (removedByOld[$0] ?? []).map(\.item) },
                movedOut: Set(old.map { (movedOutByOld[$0] ?? []).map(\.from.item) } ?? []))
        }
        return UpdateMapping(
            oldCounts: oldCounts, newCounts: newCounts, sectionOldToNew: sectionOldToNew,
            sectionNewToOld: sectionNewToOld, itemMaps: maps,
            identitySections: identity, crossSectionMoves: crossOldToNew,
            crossSectionMovesBack: crossNewToOld, updateItems: updateItems(),
            reloadedItems: reloads, reloadedSections: reloadedSections,
            insertedItems: inserts, insertedSections: insertedSections,
            deletedItems: deletes, deletedSections: deletedSections)
    }

    /// Section deletes and item deletes (descending), then section and item inserts (ascending),
    /// then reloads, then moves in the order given.
    private func updateItems() -> [CollectionViewUpdateItem] {
        var items: [CollectionViewUpdateItem] = []
        for s in deletedSections.sorted(by: >) {
            items.append(CollectionViewUpdateItem(action: .delete, before: IndexPath(index: s), after: nil))
        }
        for path in deletes.sorted(by: >) { items.append(CollectionViewUpdateItem(action: .delete, before: path, after: nil)) }
        for s in insertedSections.sorted() {
            items.append(CollectionViewUpdateItem(action: .insert, before: nil, after: IndexPath(index: s)))
        }
        for path in inserts.sorted() { items.append(CollectionViewUpdateItem(action: .insert, before: nil, after: path)) }
        for s in reloadedSections.sorted() {
            items.append(CollectionViewUpdateItem(action: .reload, before: IndexPath(index: s), after: IndexPath(index: s)))
        }
        for path in reloads.sorted() {
            items.append(CollectionViewUpdateItem(action: .reload, before: path, after: reloadTarget(path)))
        }
        for move in batch.movedSections {
            items.append(
                CollectionViewUpdateItem(
                    action: .move, before: IndexPath(index: move.from),
                    after: IndexPath(index: move.to)))
        }
        for move in moves { items.append(CollectionViewUpdateItem(action: .move, before: move.from, after: move.to)) }
        return items
    }
}
