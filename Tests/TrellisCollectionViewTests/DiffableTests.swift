import TrellisTestSupport
import Testing
@_spi(Instrumentation) @testable import TrellisCollectionView

private func ip(_ section: Int, _ item: Int) -> IndexPath { IndexPath(item: item, section: section) }

@Suite("Diffable data source")
struct DiffableTests {
    static let old = "much writing is like snow , a mass of long words and phrases falls upon the relevant facts covering up the details ."
        .split(separator: " ").map(String.init)
    static let new = "a mass of latin words falls upon the relevant facts like soft snow , covering up the details ."
        .split(separator: " ").map(String.init)

    @Test("Heckel's algorithm finds the paper's differences in its worked example")
    func paperExample() {
        let diff = HeckelDiff(old: Self.old, new: Self.new)
        #expect(diff.deletes == [0, 1, 2, 9, 11, 12])   // much writing is long and phrases
        #expect(diff.inserts == [3, 11])                // latin soft
        #expect(diff.deletes.map { Self.old[$0] } == ["much", "writing", "is", "long", "and", "phrases"])
        for match in diff.matches { #expect(Self.old[match.old] == Self.new[match.new]) }
        #expect(diff.matches.count == Self.new.count - 2)
    }

    @Test("repeated elements are matched through their unique neighbours")
    func duplicates() {
        let diff = HeckelDiff(old: ["a", "x", "x", "b"], new: ["a", "x", "x", "b", "x"])
        #expect(diff.inserts == [4])
        #expect(diff.deletes.isEmpty)
        #expect(HeckelDiff(old: [Int](), new: [1, 2]).inserts == [0, 1])
        #expect(HeckelDiff(old: [1, 2], new: [Int]()).deletes == [0, 1])
    }

    @Test("the longest increasing run is found, so the fewest items move")
    func fewestMoves() {
        #expect(longestIncreasingSubsequence([1, 2, 3, 0]).count == 3)
        #expect(longestIncreasingSubsequence([3, 0, 1, 2]) == [1, 2, 3])
        #expect(longestIncreasingSubsequence([]).isEmpty)
    }

    @Test("snapshots refuse unknown and duplicate identifiers, change nothing, and record why")
    func snapshotErrors() throws {
        var snapshot = DiffableDataSourceSnapshot<String, Int>()
        snapshot.appendItems([1])
        #expect(snapshot.invalidOperations == [.noSections] && snapshot.numberOfItems == 0)
        snapshot.appendSections(["a"])
        snapshot.appendItems([1, 2, 3])
        snapshot.appendItems([4, 2])
        #expect(snapshot.itemIdentifiers == [1, 2, 3], "a refused call changes nothing")
        #expect(snapshot.invalidOperations.last == .duplicateItem("2"))
        #expect(snapshot.invalidOperations.last?.description
                == "Item identifier 2 is already in the snapshot: identifiers must be unique")
        snapshot.deleteItems([9])
        #expect(snapshot.invalidOperations.last == .unknownItem("9"))
        #expect(throws: SnapshotError.noSections) { try snapshot.validate() }
        snapshot.moveItem(3, beforeItem: 1)
        #expect(snapshot.itemIdentifiers == [3, 1, 2])
        snapshot.insertItems([7], afterItem: 1)
        #expect(snapshot.itemIdentifiers == [3, 1, 7, 2])
        #expect(snapshot.indexPath(ofItem: 7) == ip(0, 2))
    }

    struct Row: Hashable { var id: Int; var title: String }

    @Test("applying random snapshots animates to exactly what a fresh collection view shows", arguments: 0..<4)
    func randomSnapshots(batch: Int) throws {
        for seed in UInt64(700 + batch * 30)..<UInt64(700 + batch * 30 + 30) {
            var rng = SeededRandom(seed: seed)
            let flow = CollectionViewFlowLayout()
            flow.itemSize = CGSize(width: 90, height: 60)
            flow.headerReferenceSize = CGSize(width: 0, height: 20)
            let view = CollectionView(frame: CGRect(x: 0, y: 0, width: 320, height: 400), collectionViewLayout: flow)
            view.register(CollectionViewCell.self, forCellWithReuseIdentifier: "cell")
            let source = CollectionViewDiffableDataSource<Int, Row>(collectionView: view, identity: { $0.id }) { v, path, _ in
                v.dequeueReusableCell(withReuseIdentifier: "cell", for: path)
            }
            var next = 0
            func randomSnapshot(_ previous: DiffableDataSourceSnapshot<Int, Row>?) throws -> DiffableDataSourceSnapshot<Int, Row> {
                var snapshot = DiffableDataSourceSnapshot<Int, Row>()
                var sectionIDs = previous?.sectionIdentifiers.filter { _ in !rng.chance(0.15) } ?? []
                if rng.chance(0.4) || sectionIDs.isEmpty { next += 1; sectionIDs.insert(1000 + next, at: Int.random(in: 0...sectionIDs.count, using: &rng)) }
                if rng.chance(0.2) { sectionIDs.shuffle(using: &rng) }
                snapshot.appendSections(sectionIDs)
                var pool = previous?.itemIdentifiers.filter { _ in !rng.chance(0.2) } ?? []
                pool = pool.map { rng.chance(0.1) ? Row(id: $0.id, title: $0.title + "'") : $0 }
                for _ in 0..<Int.random(in: 0...12, using: &rng) { next += 1; pool.append(Row(id: next, title: "r\(next)")) }
                if rng.chance(0.5) { pool.shuffle(using: &rng) } else if pool.count > 1 && rng.chance(0.5) { pool.swapAt(0, pool.count - 1) }
                for row in pool { snapshot.appendItems([row], toSection: sectionIDs[Int.random(in: 0..<sectionIDs.count, using: &rng)]) }
                return snapshot
            }
            var snapshot = try randomSnapshot(nil)
            source.apply(snapshot, animatingDifferences: false)
            for _ in 0..<4 {
                let previous = snapshot
                snapshot = try randomSnapshot(previous)
                view.contentOffset = CGPoint(x: 0, y: CGFloat(Int.random(in: 0...200, using: &rng)))
                view.layoutIfNeeded()
                source.apply(snapshot)
                let transition = try #require(view.currentTransition, "seed \(seed)")
                // The collection view now shows what a fresh one shows for the new snapshot.
                let freshFlow = CollectionViewFlowLayout()
                freshFlow.itemSize = flow.itemSize
                freshFlow.headerReferenceSize = flow.headerReferenceSize
                let fresh = CollectionView(frame: view.bounds, collectionViewLayout: freshFlow)
                let freshSource = CollectionViewDiffableDataSource<Int, Row>(collectionView: fresh, identity: { $0.id }) { v, p, _ in
                    v.dequeueReusableCell(withReuseIdentifier: "cell", for: p)
                }
                freshSource.apply(snapshot, animatingDifferences: false)
                fresh.contentOffset = view.contentOffset
                fresh.layoutIfNeeded()
                #expect(view.visibleElementAttributes == fresh.visibleElementAttributes, "seed \(seed)")
                // Unchanged items that were visible before and after animate as moves from where they were.
                for element in transition.elements where element.role == .moving && element.before?.category == .cell {
                    let before = previous.items[element.before!.section][element.before!.item]
                    let after = snapshot.items[element.after!.section][element.after!.item]
                    #expect(before.id == after.id, "seed \(seed): \(element.before!) → \(element.after!)")
                }
            }
        }
    }
}
