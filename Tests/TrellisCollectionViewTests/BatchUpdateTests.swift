import Testing
import TrellisTestSupport

@_spi(Instrumentation) @testable import TrellisCollectionView

private func ip(_ section: Int, _ item: Int) -> IndexPath { IndexPath(item: item, section: section) }

@Suite("Batch updates")
struct BatchUpdateTests {
    @Test("a wrong item count is refused with UIKit's message naming the section and the six numbers")
    func countMessage() {
        var batch = BatchUpdate()
        batch.insertItems(at: [ip(0, 0), ip(0, 1)])
        batch.deleteItems(at: [ip(0, 3)])
        let expected = BatchUpdateError.invalidItemCount(
            section: 0, before: 4, after: 6, inserted: 2, deleted: 1,
            movedIn: 0, movedOut: 0)
        #expect(throws: expected) { try batch.validated(oldCounts: [4], newCounts: [6]) }
        #expect(
            expected.message == "Invalid update: invalid number of items in section 0. The number of items "
                + "contained in an existing section after the update (6) must be equal to the number of items contained in "
                + "that section before the update (4), plus or minus the number of items inserted or deleted from that "
                + "section (2 inserted, 1 deleted) and plus or minus the number of items moved into or out of that section "
                + "(0 moved in, 0 moved out).")
        #expect((try? batch.validated(oldCounts: [4], newCounts: [5])) != nil)
    }

    @Test(
        "every kind of invalid batch is refused with its message",
        arguments: [
            (
                BatchUpdate.make { $0.deleteItems(at: [ip(0, 5)]) }, [3], [2],
                "attempt to delete item 5 from section 0 which only contains 3 items before the update"
            ),
            (
                BatchUpdate.make { $0.deleteItems(at: [ip(2, 0)]) }, [3], [2],
                "attempt to delete item 0 from section 2, but there are only 1 sections before the update"
            ),
            (
                BatchUpdate.make { $0.insertItems(at: [ip(0, 7)]) }, [4], [5],
                "attempt to insert item 7 into section 0, but there are only 5 items in section 0 after the update"
            ),
            (
                BatchUpdate.make { $0.insertItems(at: [ip(1, 0)]) }, [4], [5],
                "attempt to insert item 0 into section 1, but there are only 1 sections after the update"
            ),
            (
                BatchUpdate.make { $0.reloadItems(at: [ip(0, 3)]) }, [3], [3],
                "attempt to reload item 3 from section 0 which only contains 3 items before the update"
            ),
            (
                BatchUpdate.make { $0.deleteSections([4]) }, [1, 1, 1, 1], [1, 1, 1],
                "attempt to delete section 4, but there are only 4 sections before the update"
            ),
            (
                BatchUpdate.make { $0.insertSections([3]) }, [1, 1], [1, 1, 1],
                "attempt to insert section 3 but there are only 3 sections after the update"
            ),
            (
                BatchUpdate.make { $0.insertSections([0]) }, [1, 1], [1, 1, 1, 1],
                "Invalid update: invalid number of sections. The number of sections contained in the collection view after "
                    + "the update (4) must be equal to the number of sections contained in the collection view before the "
                    + "update (2), plus or minus the number of sections inserted or deleted (1 inserted, 0 deleted)."
            ),
            (
                BatchUpdate.make {
                    $0.deleteItems(at: [ip(0, 1)]); $0.reloadItems(at: [ip(0, 1)])
                }, [3], [2],
                "attempt to delete and reload the same index path ({length = 2, path = 0 - 1})"
            ),
            (
                BatchUpdate.make {
                    $0.deleteItems(at: [ip(0, 1)]); $0.moveItem(at: ip(0, 1), to: ip(0, 0))
                }, [3], [2],
                "attempt to delete and move the same index path ({length = 2, path = 0 - 1})"
            ),
            (
                BatchUpdate.make {
                    $0.insertItems(at: [ip(0, 0)]); $0.moveItem(at: ip(0, 2), to: ip(0, 0))
                }, [3], [4],
                "attempt to perform an insert and a move to the same index path ({length = 2, path = 0 - 0})"
            ),
            (
                BatchUpdate.make {
                    $0.deleteSections([1]); $0.moveItem(at: ip(1, 0), to: ip(0, 0))
                }, [1, 2], [2],
                "attempt to move index path ({length = 2, path = 1 - 0}) out of section 1, which is being deleted"
            ),
            (
                BatchUpdate.make {
                    $0.reloadItems(at: [ip(0, 2)]); $0.moveItem(at: ip(0, 2), to: ip(0, 0))
                }, [3], [3],
                "attempt to reload and move the same index path ({length = 2, path = 0 - 2})"
            ),
            (
                BatchUpdate.make {
                    $0.moveItem(at: ip(0, 0), to: ip(0, 2)); $0.moveItem(at: ip(0, 0), to: ip(0, 1))
                }, [3], [3],
                "attempt to move the same index path twice ({length = 2, path = 0 - 0})"
            ),
            (
                BatchUpdate.make {
                    $0.moveItem(at: ip(0, 0), to: ip(0, 2)); $0.moveItem(at: ip(0, 1), to: ip(0, 2))
                }, [3], [3],
                "attempt to perform multiple moves to the same index path ({length = 2, path = 0 - 2})"
            ),
            (
                BatchUpdate.make {
                    $0.deleteSections([0]); $0.reloadSections([0])
                }, [1, 1], [1],
                "attempt to delete and reload the same section (0)"
            ),
            (
                BatchUpdate.make { $0.moveItem(at: ip(0, 0), to: ip(1, 0)) }, [2, 2], [2, 2],
                "Invalid update: invalid number of items in section 0. The number of items contained in an existing section "
                    + "after the update (2) must be equal to the number of items contained in that section before the update "
                    + "(2), plus or minus the number of items inserted or deleted from that section (0 inserted, 0 deleted) "
                    + "and plus or minus the number of items moved into or out of that section (0 moved in, 1 moved out)."
            ),
        ])
    func invalidBatches(batch: BatchUpdate, old: [Int], new: [Int], message: String) {
        do {
            _ = try batch.validated(oldCounts: old, newCounts: new)
            Issue.record("the batch was accepted")
        } catch {
            #expect(error.message == message)
        }
    }

    @Test("errors carry the numbers and paths a caller needs")
    func typedErrors() {
        var batch = BatchUpdate()
        batch.deleteItems(at: [ip(0, 5)])
        #expect(throws: BatchUpdateError.itemOutOfRange(.delete, ip(0, 5), itemCount: 3, afterUpdate: false)) {
            try batch.validated(oldCounts: [3], newCounts: [2])
        }
        batch = BatchUpdate()
        batch.moveItem(at: ip(0, 0), to: ip(0, 2))
        batch.moveItem(at: ip(0, 1), to: ip(0, 2))
        #expect(throws: BatchUpdateError.itemConflict(.multipleMoves, ip(0, 2))) {
            try batch.validated(oldCounts: [3], newCounts: [3])
        }
    }

    @Test("an invalid batch gives the same message on every run")
    func deterministicMessages() {
        var batch = BatchUpdate()
        batch.reloadItems(at: (0..<20).map { ip(0, $0) })
        batch.insertItems(at: (0..<20).map { ip(0, $0) })
        var messages = Set<String>()
        for _ in 0..<30 {
            do { _ = try batch.validated(oldCounts: [20], newCounts: [40]) } catch { messages.insert(error.message) }
        }
        #expect(messages == ["attempt to insert and reload the same index path ({length = 2, path = 0 - 0})"])
    }

    @Test("deletes apply before inserts; untouched items keep their order in the remaining places")
    func mappingOrder() throws {
        var batch = BatchUpdate()
        batch.deleteItems(at: [ip(0, 1), ip(0, 3)])
        batch.insertItems(at: [ip(0, 0), ip(0, 4)])
        batch.moveItem(at: ip(0, 5), to: ip(0, 1))
        // Old: a b c d e f g → remove b, d, f → a c e g → insert new at 0 and 4, f at 1.
        let mapping = try batch.validated(oldCounts: [7], newCounts: [7])
        let old = (0..<7).map { mapping.newIndexPath(forOld: ip(0, $0))?.item }
        #expect(old == [2, nil, 3, nil, 5, 1, 6])
        let back = (0..<7).map { mapping.oldIndexPath(forNew: ip(0, $0))?.item }
        #expect(back == [nil, 5, 0, 2, nil, 4, 6])
    }

    @Test("item operations inside deleted sections or inserted sections are absorbed")
    func absorption() throws {
        var batch = BatchUpdate()
        batch.deleteSections([0])
        batch.deleteItems(at: [ip(0, 1)])
        batch.insertSections([1])
        batch.insertItems(at: [ip(1, 0), ip(1, 1)])
        let mapping = try batch.validated(oldCounts: [3, 2], newCounts: [2, 2])
        #expect(mapping.newIndexPath(forOld: ip(0, 0)) == nil)
        #expect(mapping.newIndexPath(forOld: ip(1, 1)) == ip(0, 1))
        #expect(mapping.oldIndexPath(forNew: ip(1, 0)) == nil)
        #expect(!mapping.updateItems.contains { $0.indexPathBeforeUpdate == ip(0, 1) })
        #expect(mapping.updateItems.map(\.description) == ["delete [0] -> nil", "insert nil -> [1]"])
    }

    @Test("update items list deletes descending, inserts ascending, then reloads and moves")
    func updateItems() throws {
        var batch = BatchUpdate()
        batch.insertItems(at: [ip(0, 5), ip(0, 1)])
        batch.deleteItems(at: [ip(0, 0), ip(0, 4)])
        batch.reloadItems(at: [ip(0, 2)])
        batch.moveItem(at: ip(0, 3), to: ip(0, 0))
        let mapping = try batch.validated(oldCounts: [6], newCounts: [6])
        #expect(
            mapping.updateItems.map(\.description) == [
                "delete [0, 4] -> nil", "delete [0, 0] -> nil", "insert nil -> [0, 1]", "insert nil -> [0, 5]",
                "reload [0, 2] -> [0, 2]", "move [0, 3] -> [0, 0]",
            ])
        #expect(mapping.newIndexPath(forOld: ip(0, 2)) == nil, "a reloaded item is a new item")
    }

    @Test("sections move, insert and delete with their items")
    func sectionMapping() throws {
        var batch = BatchUpdate()
        batch.moveSection(2, toSection: 0)
        batch.deleteSections([1])
        batch.insertSections([3])
        let mapping = try batch.validated(oldCounts: [1, 2, 3, 4], newCounts: [3, 1, 4, 5])
        #expect((0..<4).map { mapping.newSection(forOld: $0) } == [1, nil, 0, 2])
        #expect((0..<4).map { mapping.oldSection(forNew: $0) } == [2, 0, 3, nil])
        #expect(mapping.newIndexPath(forOld: ip(2, 2)) == ip(0, 2))
    }

    @Test("items move between sections")
    func crossSectionMoves() throws {
        var batch = BatchUpdate()
        batch.moveItem(at: ip(0, 0), to: ip(1, 2))
        let mapping = try batch.validated(oldCounts: [2, 2], newCounts: [1, 3])
        #expect(mapping.newIndexPath(forOld: ip(0, 0)) == ip(1, 2))
        #expect(mapping.newIndexPath(forOld: ip(0, 1)) == ip(0, 0))
        #expect(mapping.oldIndexPath(forNew: ip(1, 2)) == ip(0, 0))
        #expect(mapping.oldIndexPath(forNew: ip(1, 1)) == ip(1, 1))
    }

    @Test("nested batches coalesce into one")
    func nesting() throws {
        var outer = BatchUpdate()
        outer.insertItems(at: [ip(0, 0)])
        var inner = BatchUpdate()
        inner.deleteItems(at: [ip(0, 2)])
        outer.append(inner)
        let mapping = try outer.validated(oldCounts: [3], newCounts: [3])
        #expect((0..<3).map { mapping.newIndexPath(forOld: ip(0, $0))?.item } == [1, 2, nil])
    }

    @Test("a few changes in ten million items: the mapping holds the changes, not the items")
    func largeSections() throws {
        var batch = BatchUpdate()
        batch.deleteItems(at: [ip(0, 9), ip(0, 9_999_999)])
        batch.insertItems(at: [ip(0, 5), ip(1, 0)])
        batch.moveItem(at: ip(0, 3), to: ip(0, 7_000_000))
        batch.moveItem(at: ip(1, 4), to: ip(0, 1))
        batch.reloadItems(at: [ip(1, 2_000_000)])
        let mapping = try batch.validated(oldCounts: [10_000_000, 5_000_000], newCounts: [10_000_000, 5_000_000])
        #expect(mapping.itemMapBytes < 2_000)
        // Section 0: old 0 → 0, the item moved in at 1, old 1, 2 → 2, 3; old 3 is at 7,000,000;
        // old 4 → 4, the insert at 5, old 5…8 → 6…9, old 9 deleted, old 10 → 10.
        #expect(mapping.newIndexPath(forOld: ip(0, 0)) == ip(0, 0))
        #expect(mapping.oldIndexPath(forNew: ip(0, 1)) == ip(1, 4))
        #expect(mapping.newIndexPath(forOld: ip(0, 2)) == ip(0, 3))
        #expect(mapping.newIndexPath(forOld: ip(0, 3)) == ip(0, 7_000_000))
        #expect(mapping.newIndexPath(forOld: ip(0, 4)) == ip(0, 4))
        #expect(mapping.oldIndexPath(forNew: ip(0, 5)) == nil)
        #expect(mapping.newIndexPath(forOld: ip(0, 8)) == ip(0, 9))
        #expect(mapping.newIndexPath(forOld: ip(0, 9)) == nil)
        #expect(mapping.newIndexPath(forOld: ip(0, 10)) == ip(0, 10))
        // Past the moved item's new place: two removed before, three filled before (1, 5, 7,000,000).
        #expect(mapping.newIndexPath(forOld: ip(0, 6_999_999)) == ip(0, 6_999_999))
        #expect(mapping.newIndexPath(forOld: ip(0, 7_000_000)) == ip(0, 7_000_001))
        #expect(mapping.oldIndexPath(forNew: ip(0, 7_000_001)) == ip(0, 7_000_000))
        #expect(mapping.newIndexPath(forOld: ip(0, 9_999_998)) == ip(0, 9_999_999))
        #expect(mapping.newIndexPath(forOld: ip(0, 9_999_999)) == nil)
        // Section 1: the insert at 0, old 0…3 → 1…4, old 4 moved out, old 5 → 5; the reload is gone.
        #expect(mapping.newIndexPath(forOld: ip(1, 3)) == ip(1, 4))
        #expect(mapping.newIndexPath(forOld: ip(1, 4)) == ip(0, 1))
        #expect(mapping.newIndexPath(forOld: ip(1, 5)) == ip(1, 5))
        #expect(mapping.newIndexPath(forOld: ip(1, 2_000_000)) == nil)
        #expect(mapping.oldIndexPath(forNew: ip(1, 2_000_000)) == nil)
        #expect(mapping.oldIndexPath(forNew: ip(1, 4_999_999)) == ip(1, 4_999_999))
    }

    @Test("random valid batches map every surviving item to where it really went", arguments: 0..<4)
    func randomBatches(batchIndex: Int) throws {
        for seed in UInt64(batchIndex * 100)..<UInt64(batchIndex * 100 + 100) {
            var rng = SeededRandom(seed: seed)
            let sectionCount = Int.random(in: 1...4, using: &rng)
            var nextID = 0
            let old: [[Int]] = (0..<sectionCount).map { _ in
                (0..<Int.random(in: 0...12, using: &rng)).map { _ in
                    nextID += 1; return nextID
                }
            }
            // Choose deletions and moves by old position, then build the new data.
            var batch = BatchUpdate()
            var survivors = old.map { _ in [Int]() }
            var placed: [(id: Int, section: Int, from: IndexPath?)] = []
            for (s, items) in old.enumerated() {
                for (i, id) in items.enumerated() {
                    if rng.chance(0.2) {
                        batch.deleteItems(at: [ip(s, i)])
                    } else if rng.chance(0.15) {
                        placed.append((id, Int.random(in: 0..<sectionCount, using: &rng), ip(s, i)))
                    } else {
                        survivors[s].append(id)
                    }
                }
            }
            for _ in 0..<Int.random(in: 0...5, using: &rng) {
                nextID += 1
                placed.append((nextID, Int.random(in: 0..<sectionCount, using: &rng), nil))
            }
            // Place new and moved items at random final positions, in ascending order per section.
            var new = survivors
            var finalPosition: [Int: IndexPath] = [:]
            for s in 0..<sectionCount {
                let here = placed.filter { $0.section == s }
                let total = new[s].count + here.count
                var positions = Array(0..<total).shuffled(using: &rng).prefix(here.count).sorted()
                for (k, item) in here.enumerated() {
                    let position = positions.removeFirst()
                    new[s].insert(item.id, at: position)
                    _ = k
                    if let from = item.from { batch.moveItem(at: from, to: ip(s, position)) } else { batch.insertItems(at: [ip(s, position)]) }
                }
            }
            for (s, items) in new.enumerated() { for (i, id) in items.enumerated() { finalPosition[id] = ip(s, i) } }
            let mapping = try batch.validated(oldCounts: old.map(\.count), newCounts: new.map(\.count))
            // Per-item data carried through the mapping is the new data, new items given 0.
            let inserted = Set(placed.filter { $0.from == nil }.map(\.id))
            #expect(mapping.apply(to: old) { _ in 0 } == new.map { $0.map { inserted.contains($0) ? 0 : $0 } }, "seed \(seed)")
            for (s, items) in old.enumerated() {
                for (i, id) in items.enumerated() {
                    #expect(mapping.newIndexPath(forOld: ip(s, i)) == finalPosition[id], "seed \(seed): item \(id)")
                    if let to = finalPosition[id] { #expect(mapping.oldIndexPath(forNew: to) == ip(s, i), "seed \(seed)") }
                }
            }
        }
    }
}

extension BatchUpdate: CustomTestStringConvertible {
    static func make(_ build: (inout BatchUpdate) -> Void) -> BatchUpdate {
        var batch = BatchUpdate()
        build(&batch)
        return batch
    }

    public var testDescription: String { "\(insertedItems.count + deletedItems.count + movedItems.count) changes" }
}

extension BatchUpdateTests {
    @Test("the counts a batch implies are the ones its validation accepts")
    func expectedCounts() throws {
        var batch = BatchUpdate()
        batch.deleteItems(at: [ip(0, 0), ip(0, 1)])
        batch.insertItems(at: [ip(1, 0)])
        batch.moveItem(at: ip(2, 0), to: ip(0, 0))
        batch.insertSections([1])
        batch.insertItems(at: [ip(1, 1)])
        batch.reloadSections([2])
        let counts = try batch.expectedCounts(after: [5, 3, 4])
        // New section 1 is inserted with two items; old section 1 is now 2; old 2 (reloaded, now 3)
        // keeps its count; a move out of a reloaded section is invalid, so validation must say so.
        #expect(counts.count == 4)
        #expect(throws: BatchUpdateError.self) { try batch.validated(oldCounts: [5, 3, 4], newCounts: counts) }
        var simple = BatchUpdate()
        simple.deleteItems(at: [ip(0, 0)])
        simple.insertItems(at: [ip(1, 1), ip(1, 2)])
        simple.moveItem(at: ip(0, 2), to: ip(1, 0))
        let implied = try simple.expectedCounts(after: [4, 1])
        #expect(implied == [2, 4])
        #expect((try? simple.validated(oldCounts: [4, 1], newCounts: implied)) != nil)
    }
}

extension BatchUpdateTests {
    @Test("a whole batch is checked, handed to the app to change its data, and performed; a refused one changes nothing")
    func wholeBatch() throws {
        let (view, data) = makeCollectionView([[1, 2, 3], [4, 5]])
        var batch = BatchUpdate()
        batch.deleteItems(at: [ip(0, 0)])
        batch.insertItems(at: [ip(1, 1)])
        batch.moveItem(at: ip(1, 0), to: ip(0, 0))
        let transition = try view.applyBatchUpdates(batch) { mapping in
            data.sections = mapping.apply(to: data.sections) { _ in 99 }
        }
        #expect(data.sections == [[4, 2, 3], [5, 99]])
        #expect(view.numberOfItems(inSection: 0) == 3 && view.numberOfItems(inSection: 1) == 2)
        #expect(!transition.elements.isEmpty)

        var bad = BatchUpdate()
        bad.deleteItems(at: [ip(0, 7)])
        var called = false
        #expect(throws: BatchUpdateError.self) { try view.applyBatchUpdates(bad) { _ in called = true } }
        #expect(!called && data.sections == [[4, 2, 3], [5, 99]], "the app is not asked to change anything")

        // The app that does not change its data as the batch says is caught, as UIKit catches it.
        var insert = BatchUpdate()
        insert.insertItems(at: [ip(0, 0)])
        #expect(throws: BatchUpdateError.self) { try view.applyBatchUpdates(insert) { _ in } }
    }
}

/// A flow layout that logs every call a batch makes of it, with a flag for the state its data
/// is in: `old` before the app's update block changes the model, `new` after.
final class LoggingFlowLayout: CollectionViewFlowLayout {
    var log: [String] = []
    var dataIsNew = false

    override func prepare() {
        log.append("prepare")
        super.prepare()
    }
    override func invalidateLayout(with context: CollectionViewLayoutInvalidationContext) {
        log.append(context.invalidateDataSourceCounts ? "invalidate(dataSourceCounts)" : "invalidate")
        super.invalidateLayout(with: context)
    }
    override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
        log.append("elements(in:)" + (dataIsNew ? " with new data" : ""))
        return super.layoutAttributesForElements(in: rect)
    }
    override func prepare(forCollectionViewUpdates updateItems: [CollectionViewUpdateItem]) {
        log.append("prepare(forCollectionViewUpdates:)")
        super.prepare(forCollectionViewUpdates: updateItems)
    }
    override func initialLayoutAttributesForAppearingItem(at itemIndexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        if log.last != "initial" { log.append("initial") }
        return super.initialLayoutAttributesForAppearingItem(at: itemIndexPath)
    }
    override func finalLayoutAttributesForDisappearingItem(at itemIndexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        if log.last != "final" { log.append("final") }
        return super.finalLayoutAttributesForDisappearingItem(at: itemIndexPath)
    }
    override func finalizeCollectionViewUpdates() {
        log.append("finalizeCollectionViewUpdates")
        super.finalizeCollectionViewUpdates()
    }
}

@Suite("The call order of a batch")
@MainActor
struct BatchCallOrderTests {
    @Test("performBatchUpdates never asks the layout about old index paths once the block has changed the data")
    func callOrder() {
        let layout = LoggingFlowLayout()
        layout.itemSize = CGSize(width: 100, height: 100)
        let (view, data) = makeCollectionView([Array(0..<20)], layout: layout)
        layout.log = []
        view.performBatchUpdates({
            layout.log.append("block")
            data.sections[0].remove(at: 2)
            data.sections[0].insert(99, at: 0)
            layout.dataIsNew = true
            view.deleteItems(at: [IndexPath(item: 2, section: 0)])
            view.insertItems(at: [IndexPath(item: 0, section: 0)])
        })
        let log = layout.log
        let block = log.firstIndex(of: "block")!, invalidation = log.firstIndex(of: "invalidate(dataSourceCounts)")!
        #expect(!log[block..<invalidation].contains { $0.hasPrefix("elements(in:)") }, "\(log)")
        #expect(log.prefix(block).contains("elements(in:)"), "before is taken while the data is old: \(log)")
        // UIKit's order after the block: invalidation with the new counts, prepare, the updates,
        // the initial and final queries, finalize.
        let order = ["invalidate(dataSourceCounts)", "prepare", "prepare(forCollectionViewUpdates:)", "finalizeCollectionViewUpdates"]
        let positions = order.map { step in log[invalidation...].firstIndex(of: step) }
        #expect(positions.allSatisfy { $0 != nil } && positions.map { $0! } == positions.map { $0! }.sorted(), "\(log)")
        let appearing = log.firstIndex(of: "initial"), disappearing = log.firstIndex(of: "final")
        let updates = log.firstIndex(of: "prepare(forCollectionViewUpdates:)")!, finalize = log.firstIndex(of: "finalizeCollectionViewUpdates")!
        #expect(
            appearing != nil && disappearing != nil && appearing! > updates && disappearing! > updates
                && appearing! < finalize && disappearing! < finalize, "\(log)")
    }
}
