import Foundation
import Testing

@_spi(Instrumentation) @testable import TrellisCollectionView

/// A data source whose items can be moved, recording every question and move.
final class ReorderableDataSource: CollectionViewDataSource {
    var sections: [[Int]]
    var movable: (IndexPath) -> Bool = { _ in true }
    var moves: [(IndexPath, IndexPath)] = []
    var cellRequests: [IndexPath] = []

    init(_ sections: [[Int]]) { self.sections = sections }

    func numberOfSections(in collectionView: CollectionView) -> Int { sections.count }
    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { sections[section].count }
    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
        cellRequests.append(indexPath)
        let cell = collectionView.dequeueReusableCell(withReuseIdentifier: "cell", for: indexPath)
        (cell as? RecordingCell)?.identifier = sections[indexPath.section][indexPath.item]
        return cell
    }
    func collectionView(_ collectionView: CollectionView, canMoveItemAt indexPath: IndexPath) -> Bool { movable(indexPath) }
    func collectionView(_ collectionView: CollectionView, moveItemAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath) {
        moves.append((sourceIndexPath, destinationIndexPath))
        let item = sections[sourceIndexPath.section].remove(at: sourceIndexPath.item)
        sections[destinationIndexPath.section].insert(item, at: destinationIndexPath.item)
    }
}

/// A flow layout that logs the interactive-movement calls it receives, in order.
final class MovementLoggingLayout: CollectionViewFlowLayout {
    var log: [String] = []

    override func targetIndexPath(forInteractivelyMovingItem previousIndexPath: IndexPath, withPosition position: CGPoint) -> IndexPath {
        let target = super.targetIndexPath(forInteractivelyMovingItem: previousIndexPath, withPosition: position)
        log.append("target \(Array(previousIndexPath)) @ \(position.x),\(position.y) → \(Array(target))")
        return target
    }
    override func invalidationContext(
        forInteractivelyMovingItems targetIndexPaths: [IndexPath], withTargetPosition targetPosition: CGPoint,
        previousIndexPaths: [IndexPath], previousPosition: CGPoint
    ) -> CollectionViewLayoutInvalidationContext {
        log.append("moving \(previousIndexPaths.map(Array.init)) → \(targetIndexPaths.map(Array.init)) from \(previousPosition.x),\(previousPosition.y)")
        return super.invalidationContext(
            forInteractivelyMovingItems: targetIndexPaths, withTargetPosition: targetPosition,
            previousIndexPaths: previousIndexPaths, previousPosition: previousPosition)
    }
    override func invalidationContextForEndingInteractiveMovementOfItems(
        toFinalIndexPaths indexPaths: [IndexPath], previousIndexPaths: [IndexPath],
        movementCancelled: Bool
    ) -> CollectionViewLayoutInvalidationContext {
        log.append("ending \(previousIndexPaths.map(Array.init)) → \(indexPaths.map(Array.init))\(movementCancelled ? " cancelled" : "")")
        return super.invalidationContextForEndingInteractiveMovementOfItems(
            toFinalIndexPaths: indexPaths, previousIndexPaths: previousIndexPaths,
            movementCancelled: movementCancelled)
    }
    override func prepare(forCollectionViewUpdates updateItems: [CollectionViewUpdateItem]) {
        super.prepare(forCollectionViewUpdates: updateItems)
        log.append(
            "updates "
                + updateItems.map { "\($0.updateAction) \($0.indexPathBeforeUpdate.map(Array.init) ?? []) → \($0.indexPathAfterUpdate.map(Array.init) ?? [])" }
                .joined(separator: ", "))
    }
}

/// Answers where a moving item may go.
final class MoveDelegate: CollectionViewDelegate {
    var asked: [String] = []
    var rule: (IndexPath, IndexPath, IndexPath) -> IndexPath = { $2 }
    func collectionView(
        _ collectionView: CollectionView, targetIndexPathForMoveOfItemFromOriginalIndexPath originalIndexPath: IndexPath,
        atCurrentIndexPath currentIndexPath: IndexPath, toProposedIndexPath proposedIndexPath: IndexPath
    ) -> IndexPath {
        asked.append("\(Array(originalIndexPath)) \(Array(currentIndexPath)) \(Array(proposedIndexPath))")
        return rule(originalIndexPath, currentIndexPath, proposedIndexPath)
    }
}

/// A delegate with only the older question.
final class OldMoveDelegate: CollectionViewDelegate {
    var asked: [String] = []
    func collectionView(
        _ collectionView: CollectionView, targetIndexPathForMoveFromItemAt currentIndexPath: IndexPath,
        toProposedIndexPath proposedIndexPath: IndexPath
    ) -> IndexPath {
        asked.append("\(Array(currentIndexPath)) \(Array(proposedIndexPath))")
        return proposedIndexPath
    }
}

@Suite("Interactive movement")
struct InteractiveMovementTests {
    /// Nine 100-point items in a 320-point flow layout: three a line at x 0, 110, 220; lines 110 apart.
    func make(
        _ sections: [[Int]] = [Array(0..<9)], layout: CollectionViewFlowLayout = MovementLoggingLayout(),
        height: CGFloat = 480
    ) -> (CollectionView, ReorderableDataSource, CollectionViewFlowLayout) {
        layout.itemSize = CGSize(width: 100, height: 100)
        let view = CollectionView(frame: CGRect(x: 0, y: 0, width: 320, height: height), collectionViewLayout: layout)
        view.register(RecordingCell.self, forCellWithReuseIdentifier: "cell")
        let data = ReorderableDataSource(sections)
        view.dataSource = data
        view.layoutIfNeeded()
        return (view, data, layout)
    }

    func identifiers(_ view: CollectionView, section: Int = 0) -> [Int] {
        view.indexPathsForVisibleItems.filter { $0.section == section }
            .map { (view.cellForItem(at: $0) as! RecordingCell).identifier }
    }

    @Test("a drag from item 0 to item 4's place: the others make way, the item follows the finger above them, the data source is told once")
    func dragAndDrop() throws {
        let (view, data, layout) = make()
        let logging = layout as! MovementLoggingLayout
        #expect(view.beginInteractiveMovementForItem(at: IndexPath(item: 0, section: 0)))
        let lifted = view.cellForItem(at: IndexPath(item: 0, section: 0))!.appliedLayoutAttributes!
        #expect(lifted.zIndex == Int.max && lifted.center == CGPoint(x: 50, y: 50))
        // Within its own place: nothing moves.
        view.updateInteractiveMovementTargetPosition(CGPoint(x: 60, y: 70))
        #expect(identifiers(view) == Array(0..<9))
        #expect(view.cellForItem(at: IndexPath(item: 0, section: 0))!.frame == CGRect(x: 10, y: 20, width: 100, height: 100))
        // Over item 4 (the middle of the second line): items 1–4 move back one place.
        view.updateInteractiveMovementTargetPosition(CGPoint(x: 160, y: 160))
        #expect(identifiers(view) == [1, 2, 3, 4, 0, 5, 6, 7, 8])
        #expect(view.cellForItem(at: IndexPath(item: 0, section: 0))!.frame == CGRect(x: 0, y: 0, width: 100, height: 100))
        #expect(view.cellForItem(at: IndexPath(item: 3, section: 0))!.frame == CGRect(x: 0, y: 110, width: 100, height: 100))
        #expect(view.cellForItem(at: IndexPath(item: 4, section: 0))!.frame == CGRect(x: 110, y: 110, width: 100, height: 100))
        let moving = view.cellForItem(at: IndexPath(item: 4, section: 0))!
        #expect(moving.appliedLayoutAttributes!.zIndex == Int.max)
        let transition = try #require(view.currentTransition)
        #expect(transition.elements.filter { $0.role == .moving && $0.before != $0.after }.count == 5)
        #expect(data.moves.isEmpty, "the data source hears of the move only at its end")
        view.endInteractiveMovement()
        #expect(data.moves.map { [Array($0.0), Array($0.1)] } == [[[0, 0], [0, 4]]])
        #expect(data.sections == [[1, 2, 3, 4, 0, 5, 6, 7, 8]])
        #expect(view.cellForItem(at: IndexPath(item: 4, section: 0)) === moving)
        #expect(moving.frame == CGRect(x: 110, y: 110, width: 100, height: 100))
        #expect(moving.appliedLayoutAttributes!.zIndex == 0)
        #expect(
            logging.log == [
                "target [0, 0] @ 60.0,70.0 → [0, 0]",
                "moving [[0, 0]] → [[0, 0]] from 50.0,50.0",
                "target [0, 0] @ 160.0,160.0 → [0, 4]",
                "moving [[0, 0]] → [[0, 4]] from 60.0,70.0",
                "updates move [0, 0] → [0, 4]",
                "ending [[0, 0]] → [[0, 4]]",
            ])
        #expect(view.diagnostics.isEmpty)
    }

    @Test("following the finger without a change of place recomputes nothing")
    func positionOnlyUpdates() {
        let (view, data, layout) = make()
        defer { withExtendedLifetime(data) {} }
        #expect(view.beginInteractiveMovementForItem(at: IndexPath(item: 2, section: 0)))
        let computations = layout.geometryComputationCount
        for step in 0..<20 { view.updateInteractiveMovementTargetPosition(CGPoint(x: 250 + CGFloat(step), y: 40)) }
        #expect(layout.geometryComputationCount == computations)
        #expect(view.cellForItem(at: IndexPath(item: 2, section: 0))!.frame.origin == CGPoint(x: 219, y: -10))
    }

    @Test("a cancelled drag puts everything back and tells the data source nothing")
    func cancel() {
        let (view, data, layout) = make()
        _ = view.beginInteractiveMovementForItem(at: IndexPath(item: 1, section: 0))
        view.updateInteractiveMovementTargetPosition(CGPoint(x: 50, y: 270))  // over item 6
        #expect(identifiers(view) == [0, 2, 3, 4, 5, 6, 1, 7, 8])
        view.cancelInteractiveMovement()
        #expect(identifiers(view) == Array(0..<9))
        #expect(data.moves.isEmpty && data.sections == [Array(0..<9)])
        #expect(view.cellForItem(at: IndexPath(item: 1, section: 0))!.frame == CGRect(x: 110, y: 0, width: 100, height: 100))
        #expect((layout as! MovementLoggingLayout).log.suffix(2) == ["ending [[0, 1]] → [[0, 1]] cancelled", "updates move [0, 6] → [0, 1]"])
    }

    @Test("the ending context's previous index path is the item's before its last move, not where it started")
    func endingReportsTheLastMove() {
        let (view, data, layout) = make()
        defer { withExtendedLifetime(data) {} }
        let logging = layout as! MovementLoggingLayout
        #expect(view.beginInteractiveMovementForItem(at: IndexPath(item: 0, section: 0)))
        view.updateInteractiveMovementTargetPosition(CGPoint(x: 270, y: 50))  // over item 2
        view.updateInteractiveMovementTargetPosition(CGPoint(x: 160, y: 160))  // over item 4
        view.updateInteractiveMovementTargetPosition(CGPoint(x: 165, y: 165))  // still item 4
        view.endInteractiveMovement()
        #expect(logging.log.contains("ending [[0, 2]] → [[0, 4]]"), "\(logging.log)")
        #expect(data.moves.map { [Array($0.0), Array($0.1)] } == [[[0, 0], [0, 4]]], "the data source hears of one move, from the start")
    }

    @Test("the data source and the delegate decide: a refused item does not lift, a retargeted one goes where the delegate says")
    func delegateDecides() {
        let (view, data, _) = make()
        data.movable = { $0.item != 8 }
        #expect(!view.beginInteractiveMovementForItem(at: IndexPath(item: 8, section: 0)))
        #expect(!view.beginInteractiveMovementForItem(at: IndexPath(item: 9, section: 0)))
        #expect(!view.beginInteractiveMovementForItem(at: IndexPath(item: 0, section: 3)))
        let delegate = MoveDelegate()
        delegate.rule = { _, current, proposed in proposed.item == 8 ? current : proposed }  // the last place is taken
        view.delegate = delegate
        #expect(view.beginInteractiveMovementForItem(at: IndexPath(item: 0, section: 0)))
        #expect(!view.beginInteractiveMovementForItem(at: IndexPath(item: 1, section: 0)), "one move at a time")
        view.updateInteractiveMovementTargetPosition(CGPoint(x: 270, y: 270))  // over item 8: refused
        view.updateInteractiveMovementTargetPosition(CGPoint(x: 160, y: 270))  // over item 7
        #expect(delegate.asked == ["[0, 0] [0, 0] [0, 8]", "[0, 0] [0, 0] [0, 7]"])
        #expect(identifiers(view) == [1, 2, 3, 4, 5, 6, 7, 0, 8])
        view.endInteractiveMovement()
        #expect(data.sections == [[1, 2, 3, 4, 5, 6, 7, 0, 8]])
        // The older question gets the current index path.
        let old = OldMoveDelegate()
        view.delegate = old
        _ = view.beginInteractiveMovementForItem(at: IndexPath(item: 7, section: 0))
        view.updateInteractiveMovementTargetPosition(CGPoint(x: 50, y: 50))
        view.updateInteractiveMovementTargetPosition(CGPoint(x: 160, y: 50))
        #expect(old.asked == ["[0, 7] [0, 0]", "[0, 0] [0, 1]"])
        view.endInteractiveMovement()
        #expect(data.sections == [[1, 0, 2, 3, 4, 5, 6, 7, 8]])
    }

    @Test("cells that come into view during a drag show the data source's items in the order shown")
    func cellsDuringDrag() {
        let (view, data, _) = make([Array(0..<30)], height: 200)
        _ = view.beginInteractiveMovementForItem(at: IndexPath(item: 0, section: 0))
        view.updateInteractiveMovementTargetPosition(CGPoint(x: 160, y: 160))  // item 4's place
        data.cellRequests = []
        view.setContentOffset(CGPoint(x: 0, y: 440), animated: false)
        view.layoutIfNeeded()
        // Shown items 12…17 are the data source's 12…17 (the moved item is above them).
        #expect(identifiers(view) == Array(12...17))
        #expect(data.cellRequests.map(\.item).sorted() == data.cellRequests.map(\.item).sorted().filter { $0 >= 9 })
        view.setContentOffset(.zero, animated: false)
        view.layoutIfNeeded()
        #expect(identifiers(view).prefix(6) == [1, 2, 3, 4, 0, 5])
    }

    @Test("an item dragged into another section leaves one and joins the other")
    func crossSection() {
        let (view, data, _) = make([[0, 1, 2], [10, 11, 12]])
        _ = view.beginInteractiveMovementForItem(at: IndexPath(item: 1, section: 0))
        view.updateInteractiveMovementTargetPosition(CGPoint(x: 160, y: 160))  // [1, 1]
        #expect(view.numberOfItems(inSection: 0) == 2 && view.numberOfItems(inSection: 1) == 4)
        #expect(identifiers(view, section: 1) == [10, 1, 11, 12])
        view.endInteractiveMovement()
        #expect(data.sections == [[0, 2], [10, 1, 11, 12]])
        #expect(view.diagnostics.isEmpty)
    }

    @Test("a batch update or a reload during a drag ends it first; calls without a drag do nothing")
    func interruptions() {
        let (view, data, _) = make()
        view.updateInteractiveMovementTargetPosition(CGPoint(x: 160, y: 160))
        view.endInteractiveMovement()
        view.cancelInteractiveMovement()
        #expect(data.moves.isEmpty && view.currentTransition == nil)
        _ = view.beginInteractiveMovementForItem(at: IndexPath(item: 0, section: 0))
        view.updateInteractiveMovementTargetPosition(CGPoint(x: 160, y: 160))
        data.sections[0].append(9)
        view.insertItems(at: [IndexPath(item: 9, section: 0)])
        #expect(view.lastUpdateError == nil)
        #expect(view.numberOfItems(inSection: 0) == 10 && data.moves.isEmpty)
        #expect(identifiers(view) == Array(0..<10))
        _ = view.beginInteractiveMovementForItem(at: IndexPath(item: 0, section: 0))
        view.reloadData()
        view.layoutIfNeeded()
        #expect(view.beginInteractiveMovementForItem(at: IndexPath(item: 0, section: 0)))
        view.updateInteractiveMovementTargetPosition(CGPoint(x: CGFloat.nan, y: 3))
        view.endInteractiveMovement()
        #expect(data.moves.isEmpty)
    }

    @Test("a data source without moveItemAt: the move is shown and the diagnostics say its data did not move")
    func noMoveMethod() {
        let (view, data) = makeCollectionView([Array(0..<6)])
        defer { withExtendedLifetime(data) {} }
        #expect(view.beginInteractiveMovementForItem(at: IndexPath(item: 0, section: 0)))
        view.updateInteractiveMovementTargetPosition(CGPoint(x: 270, y: 50))
        view.endInteractiveMovement()
        #expect(
            view.diagnostics.map(\.description) == [
                "the data source does not implement collectionView(_:moveItemAt:to:); the move of [0, 0] to [0, 2] is shown but its data did not move"
            ])
    }

    @Test("a diffable data source reorders through its handlers: no handler, no move; then a transaction with both snapshots")
    func diffableReordering() throws {
        let view = CollectionView(
            frame: CGRect(x: 0, y: 0, width: 320, height: 480),
            collectionViewLayout: {
                let flow = CollectionViewFlowLayout(); flow.itemSize = CGSize(width: 100, height: 100); return flow
            }())
        view.register(RecordingCell.self, forCellWithReuseIdentifier: "cell")
        let dataSource = CollectionViewDiffableDataSource<String, String>(collectionView: view) { view, indexPath, _ in
            view.dequeueReusableCell(withReuseIdentifier: "cell", for: indexPath)
        }
        var snapshot = DiffableDataSourceSnapshot<String, String>()
        snapshot.appendSections(["fruit", "veg"])
        snapshot.appendItems(["apple", "pear", "plum", "fig"], toSection: "fruit")
        snapshot.appendItems(["kale", "leek"], toSection: "veg")
        dataSource.apply(snapshot, animatingDifferences: false)
        view.layoutIfNeeded()
        #expect(!view.beginInteractiveMovementForItem(at: IndexPath(item: 0, section: 0)))
        var model = ["apple", "pear", "plum", "fig", "kale", "leek"]
        var events: [String] = []
        dataSource.reorderingHandlers.canReorderItem = { $0 != "fig" }
        dataSource.reorderingHandlers.willReorder = { transaction in
            events.append("will \(transaction.initialSnapshot.itemIdentifiers == dataSource.snapshot().itemIdentifiers)")
        }
        dataSource.reorderingHandlers.didReorder = { transaction in
            events.append("did \(transaction.finalSnapshot.itemIdentifiers == dataSource.snapshot().itemIdentifiers)")
            model = try! #require(model.applying(transaction.difference))
            events.append(transaction.sectionTransactions.map { "\($0.sectionIdentifier) \($0.finalSnapshot.items)" }.joined(separator: "; "))
        }
        #expect(!view.beginInteractiveMovementForItem(at: IndexPath(item: 3, section: 0)))
        #expect(view.beginInteractiveMovementForItem(at: IndexPath(item: 0, section: 0)))
        view.updateInteractiveMovementTargetPosition(CGPoint(x: 50, y: 260))  // over kale, veg's first place: [1, 0]
        view.endInteractiveMovement()
        #expect(events == ["will true", "did true", "fruit [\"pear\", \"plum\", \"fig\"]; veg [\"apple\", \"kale\", \"leek\"]"])
        #expect(model == ["pear", "plum", "fig", "apple", "kale", "leek"])
        #expect(dataSource.snapshot().itemIdentifiers(inSection: "veg") == ["apple", "kale", "leek"])
        #expect(dataSource.itemIdentifier(for: IndexPath(item: 0, section: 1)) == "apple")
    }
}
