import Testing
import TrellisTestSupport

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
        #expect(diff.deletes == [0, 1, 2, 9, 11, 12])  // much writing is long and phrases
        #expect(diff.inserts == [3, 11])  // latin soft
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
        #expect(
            snapshot.invalidOperations.last?.description
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

@Suite("Diffable members")
struct DiffableMemberTests {
    final class NamedCell: CollectionViewCell {
        var name = ""
        var configured = 0
    }

    func makeSource() -> (CollectionView, CollectionViewDiffableDataSource<String, String>) {
        let layout = CollectionViewFlowLayout()
        layout.itemSize = CGSize(width: 300, height: 40)
        layout.headerReferenceSize = CGSize(width: 0, height: 20)
        let view = CollectionView(frame: CGRect(x: 0, y: 0, width: 320, height: 480), collectionViewLayout: layout)
        view.register(NamedCell.self, forCellWithReuseIdentifier: "cell")
        let source = CollectionViewDiffableDataSource<String, String>(collectionView: view) { view, path, name in
            let cell = view.dequeueReusableCell(withReuseIdentifier: "cell", for: path) as! NamedCell
            cell.name = name
            cell.configured += 1
            return cell
        }
        return (view, source)
    }

    @Test("sections and items move, insert and delete by identifier, as UIKit's snapshot does")
    func snapshotMembers() {
        var snapshot = DiffableDataSourceSnapshot<String, Int>()
        snapshot.appendSections(["a", "c"])
        snapshot.insertSections(["b"], afterSection: "a")
        snapshot.insertSections(["z"], beforeSection: "a")
        #expect(snapshot.sectionIdentifiers == ["z", "a", "b", "c"])
        snapshot.appendItems([1, 2], toSection: "a")
        snapshot.appendItems([3], toSection: "c")
        snapshot.moveItem(1, afterItem: 3)
        #expect(snapshot.itemIdentifiers(inSection: "c") == [3, 1] && snapshot.indexOfItem(1) == 2)
        snapshot.moveSection("z", afterSection: "c")
        snapshot.moveSection("b", beforeSection: "a")
        #expect(snapshot.sectionIdentifiers == ["b", "a", "c", "z"])
        #expect(snapshot.sectionIdentifier(containingItem: 2) == "a")
        snapshot.reloadSections(["a"])
        snapshot.reconfigureItems([2])
        #expect(snapshot.reloadedSectionIdentifiers == ["a"] && snapshot.reconfiguredItemIdentifiers == [2])
        snapshot.deleteSections(["c"])
        #expect(snapshot.itemIdentifiers == [2] && snapshot.indexOfItem(3) == nil)
        snapshot.moveSection("a", beforeSection: "a")
        #expect(snapshot.invalidOperations == [.moveOntoItself("a")])
        snapshot.deleteAllItems()
        #expect(snapshot.numberOfSections == 0 && snapshot.numberOfItems == 0 && snapshot.reconfiguredItemIdentifiers.isEmpty)
    }

    @Test("reconfiguring updates the cells shown in place; reloading a section replaces them")
    func reconfigureAndReload() throws {
        let (view, source) = makeSource()
        var snapshot = DiffableDataSourceSnapshot<String, String>()
        snapshot.appendSections(["s"])
        snapshot.appendItems(["one", "two"])
        source.apply(snapshot, animatingDifferences: false)
        view.layoutIfNeeded()
        let first = try #require(view.cellForItem(at: IndexPath(item: 0, section: 0)) as? NamedCell)
        #expect(first.configured == 1)
        snapshot.reconfigureItems(["one"])
        source.apply(snapshot)
        #expect(view.cellForItem(at: IndexPath(item: 0, section: 0)) === first && first.configured == 2)
        snapshot = source.snapshot()
        snapshot.reloadSections(["s"])
        source.apply(snapshot)
        let transition = try #require(view.currentTransition)
        #expect(transition.elements.contains { $0.role == .disappearing && $0.before?.item == 0 })
        #expect(view.lastUpdateError == nil)
    }

    @Test("the supplementary view provider supplies headers; a section snapshot shows its visible items")
    func providersAndOutlines() {
        let (view, source) = makeSource()
        final class Title: CollectionReusableView { var text = "" }
        view.register(Title.self, forSupplementaryViewOfKind: CollectionView.elementKindSectionHeader, withReuseIdentifier: "title")
        source.supplementaryViewProvider = { view, kind, path in
            let title = view.dequeueReusableSupplementaryView(ofKind: kind, withReuseIdentifier: "title", for: path) as? Title
            title?.text = "Section \(path.section)"
            return title
        }
        var outline = DiffableDataSourceSectionSnapshot<String>()
        outline.append(["Fruit", "Vegetables"])
        outline.append(["Apple", "Pear"], to: "Fruit")
        outline.append(["Leek"], to: "Vegetables")
        #expect(outline.visibleItems == ["Fruit", "Vegetables"] && outline.items == ["Fruit", "Apple", "Pear", "Vegetables", "Leek"])
        #expect(outline.level(of: "Pear") == 1 && outline.parent(of: "Pear") == "Fruit" && !outline.isVisible("Pear"))
        outline.expand(["Fruit"])
        #expect(outline.visibleItems == ["Fruit", "Apple", "Pear", "Vegetables"])
        source.apply(outline, to: "garden", animatingDifferences: false)
        view.layoutIfNeeded()
        #expect(source.snapshot().itemIdentifiers == ["Fruit", "Apple", "Pear", "Vegetables"])
        #expect(
            (view.supplementaryView(
                forElementKind: CollectionView.elementKindSectionHeader,
                at: IndexPath(item: 0, section: 0)) as? Title)?.text == "Section 0")
        outline.collapse(["Fruit"])
        outline.delete(["Vegetables"])
        source.apply(outline, to: "garden")
        #expect(source.snapshot().itemIdentifiers == ["Fruit"])
        #expect(source.snapshot(for: "garden").items == ["Fruit", "Apple", "Pear"], "the outline applied, its hierarchy kept")
        #expect(source.snapshot(for: "garden").visibleItems == ["Fruit"])
        let sub = outline.snapshot(of: "Fruit", includingParent: true)
        #expect(sub.rootItems == ["Fruit"] && sub.items == ["Fruit", "Apple", "Pear"])
        outline.append(["Apple"])
        #expect(outline.invalidOperations == [.duplicateItem("Apple")])
        #expect(outline.visualDescription() == "- Fruit\n    Apple\n    Pear")
    }

    @Test("a tap on an outline disclosure expands and collapses as the handlers allow, children given lazily; the section's outline is kept")
    func outlineDisclosure() {
        let (view, source) = makeSource()
        var outline = DiffableDataSourceSectionSnapshot<String>()
        outline.append(["Fruit", "Nuts", "Stones"])
        outline.append(["Apple", "Pear"], to: "Fruit")
        source.apply(outline, to: "garden", animatingDifferences: false)
        var told: [String] = []
        source.sectionSnapshotHandlers.willExpandItem = { told.append("expand \($0)") }
        source.sectionSnapshotHandlers.willCollapseItem = { told.append("collapse \($0)") }
        source.sectionSnapshotHandlers.shouldCollapseItem = { $0 != "Nuts" }
        #expect(source.tapOutlineDisclosure(ofItemAt: IndexPath(item: 0, section: 0)))
        #expect(source.snapshot().itemIdentifiers == ["Fruit", "Apple", "Pear", "Nuts", "Stones"])
        #expect(view.cellForItem(at: IndexPath(item: 1, section: 0)) != nil)
        #expect(!source.tapOutlineDisclosure(ofItemAt: IndexPath(item: 4, section: 0)), "Stones has no children and no provider")
        // Children loaded as the item expands.
        source.sectionSnapshotHandlers.snapshotForExpandingParent = { parent, children in
            var loaded = children
            if parent == "Nuts" { loaded.append(["Almond", "Walnut"]) }
            return loaded
        }
        #expect(source.tapOutlineDisclosure(ofItemAt: IndexPath(item: 3, section: 0)))
        #expect(source.snapshot().itemIdentifiers == ["Fruit", "Apple", "Pear", "Nuts", "Almond", "Walnut", "Stones"])
        #expect(!source.tapOutlineDisclosure(ofItemAt: IndexPath(item: 3, section: 0)), "Nuts may not collapse")
        #expect(source.tapOutlineDisclosure(ofItemAt: IndexPath(item: 0, section: 0)))
        #expect(source.snapshot().itemIdentifiers == ["Fruit", "Nuts", "Almond", "Walnut", "Stones"])
        #expect(told == ["expand Fruit", "expand Nuts", "collapse Fruit"])
        #expect(source.snapshot(for: "garden").isExpanded("Nuts") && source.snapshot(for: "garden").level(of: "Walnut") == 1)
        // A flat snapshot applied over it: the outline is no longer what the section shows.
        var flat = source.snapshot()
        flat.deleteItems(["Walnut"])
        source.apply(flat, animatingDifferences: false)
        #expect(source.snapshot(for: "garden").rootItems == ["Fruit", "Nuts", "Almond", "Stones"])
    }

    @Test("a snapshot applied by reloading shows the new items without a transition")
    func reloadingApply() {
        let (view, source) = makeSource()
        var snapshot = DiffableDataSourceSnapshot<String, String>()
        snapshot.appendSections(["s"])
        snapshot.appendItems(["x", "y", "z"])
        source.applySnapshotUsingReloadData(snapshot)
        #expect(view.indexPathsForVisibleItems.count == 3 && view.currentTransition == nil)
        #expect(source.itemIdentifier(for: IndexPath(item: 2, section: 0)) == "z" && source.sectionIdentifier(for: 0) == "s")
        #expect(source.index(for: "s") == 0 && source.indexPath(for: "y") == IndexPath(item: 1, section: 0))
    }
}
