import Foundation
import Testing

@testable import TrellisCollectionView

/// A drag and drop delegate over an ``ItemsDataSource``: drags carry an item's number as text
/// and the number itself as the local object; drops reorder the app's own items, insert copies
/// and, from another app, stand in a placeholder until `finishLoads()`.
final class DragDropRecorder: CollectionViewDragDelegate, CollectionViewDropDelegate {
    let data: ItemsDataSource
    var proposal = CollectionViewDropProposal(operation: .move, intent: .insertAtDestinationIndexPath)
    var handles = true
    var usePlaceholders = false
    var events: [String] = []
    var destinations: [IndexPath?] = []
    var coordinators: [CollectionViewDropCoordinator] = []
    var placeholders: [CollectionViewDropPlaceholderContext] = []
    let loaded = LoadedTexts()
    var pendingTexts: [String] { loaded.texts }

    init(data: ItemsDataSource) { self.data = data }

    func collectionView(_ collectionView: CollectionView, itemsForBeginning session: DragSession, at indexPath: IndexPath) -> [DragItem] {
        guard indexPath.item != 9 else { return [] }
        return [item(at: indexPath)]
    }

    func collectionView(
        _ collectionView: CollectionView, itemsForAddingTo session: DragSession, at indexPath: IndexPath, point: CGPoint
    ) -> [DragItem] {
        [item(at: indexPath)]
    }

    private func item(at indexPath: IndexPath) -> DragItem {
        let number = data.sections[indexPath.section][indexPath.item]
        let item = DragItem(itemProvider: ItemProvider(object: "\(number)" as NSString))
        item.localObject = number
        return item
    }

    func collectionView(_ collectionView: CollectionView, dragSessionWillBegin session: DragSession) { events.append("drag begins") }
    func collectionView(_ collectionView: CollectionView, dragSessionDidEnd session: DragSession) { events.append("drag ends") }
    func collectionView(_ collectionView: CollectionView, canHandle session: DropSession) -> Bool { handles }
    func collectionView(_ collectionView: CollectionView, dropSessionDidEnter session: DropSession) { events.append("enter") }
    func collectionView(_ collectionView: CollectionView, dropSessionDidExit session: DropSession) { events.append("exit") }
    func collectionView(_ collectionView: CollectionView, dropSessionDidEnd session: DropSession) { events.append("drop ends") }

    func collectionView(
        _ collectionView: CollectionView, dropSessionDidUpdate session: DropSession, withDestinationIndexPath destinationIndexPath: IndexPath?
    ) -> CollectionViewDropProposal {
        destinations.append(destinationIndexPath)
        return proposal
    }

    func collectionView(_ collectionView: CollectionView, performDropWith coordinator: CollectionViewDropCoordinator) {
        events.append("perform")
        coordinators.append(coordinator)
        let destination =
            coordinator.destinationIndexPath
            ?? IndexPath(item: collectionView.numberOfItems(inSection: 0), section: 0)
        for item in coordinator.items {
            if let source = item.sourceIndexPath, coordinator.proposal.operation == .move {
                collectionView.performBatchUpdates {
                    let number = self.data.sections[source.section].remove(at: source.item)
                    self.data.sections[destination.section].insert(number, at: destination.item)
                    collectionView.deleteItems(at: [source])
                    collectionView.insertItems(at: [destination])
                }
                coordinator.drop(item.dragItem, toItemAt: destination)
            } else if usePlaceholders {
                let placeholder = CollectionViewDropPlaceholder(insertionIndexPath: destination, reuseIdentifier: "cell")
                placeholder.cellUpdateHandler = { ($0 as? RecordingCell)?.identifier = -100 }
                placeholders.append(coordinator.drop(item.dragItem, to: placeholder))
                item.dragItem.itemProvider.loadObject(ofClass: NSString.self) { [loaded] text, _ in
                    loaded.texts.append((text as? NSString).map(String.init) ?? "?")
                }
            } else {
                coordinator.session.loadObjects(ofClass: NSString.self) { texts in
                    let numbers = texts.compactMap { ($0 as? NSString).flatMap { Int(String($0)) } }
                    collectionView.performBatchUpdates {
                        self.data.sections[destination.section].insert(contentsOf: numbers, at: destination.item)
                        collectionView.insertItems(
                            at: numbers.indices.map { IndexPath(item: destination.item + $0, section: destination.section) })
                    }
                }
                coordinator.drop(item.dragItem, toItemAt: destination)
            }
        }
    }
}

/// Texts a load delivered (its completion may run on any thread, in UIKit).
final class LoadedTexts: @unchecked Sendable {
    var texts: [String] = []
}

@Suite("Drag and drop")
struct DragAndDropTests {
    /// A one-column list: rows 320 × 44, 10 apart (the flow layout's line spacing), so row `i`
    /// spans y = 54i to 54i + 44.
    func makeList(_ sections: [[Int]] = [Array(0..<10)], height: CGFloat = 600) -> (CollectionView, ItemsDataSource, DragDropRecorder) {
        let (view, data) = makeCollectionView(sections, height: height, itemSize: CGSize(width: 320, height: 44))
        let recorder = DragDropRecorder(data: data)
        view.dragDelegate = recorder
        view.dropDelegate = recorder
        view.dragInteractionEnabled = true
        return (view, data, recorder)
    }

    func row(_ item: Int) -> CGPoint { CGPoint(x: 100, y: CGFloat(item) * 54 + 22) }
    func path(_ item: Int, _ section: Int = 0) -> IndexPath { IndexPath(item: item, section: section) }
    func shown(_ view: CollectionView) -> [Int] {
        view.indexPathsForVisibleItems.map { (view.cellForItem(at: $0) as? RecordingCell)?.identifier ?? -1 }
    }

    @Test("a drag within the list shows the lifted row where it would land and moves it there when dropped")
    func localReorder() throws {
        let (view, data, recorder) = makeList()
        defer { withExtendedLifetime((data, recorder)) {} }
        let drag = try #require(view.beginDrag(at: row(1)))
        #expect(view.hasActiveDrag && view.hasActiveDrop && recorder.events == ["drag begins", "enter"])
        #expect(drag.dragSession?.items.first?.localObject as? Int == 1)
        #expect(recorder.destinations == [path(1)], "over its own row")
        drag.move(to: row(4), over: view)
        #expect(drag.destinationIndexPath == path(4) && view.hasUncommittedUpdates)
        drag.move(to: CGPoint(x: CGFloat.nan, y: 3), over: view)
        drag.move(to: CGPoint(x: 5, y: -CGFloat.infinity), over: view)
        #expect(drag.destinationIndexPath == path(4) && drag.dropSession.location(in: view) == row(4), "not a place: ignored")
        // Row 1 is shown at 4; 2, 3 and 4 moved up one; the data source was not told.
        #expect(view.layoutAttributesForItem(at: path(1))?.frame.minY == 54)
        #expect(shown(view) == [0, 2, 3, 4, 1, 5, 6, 7, 8, 9] && data.sections[0] == Array(0..<10))
        #expect(drag.drop())
        #expect(recorder.coordinators.count == 1)
        let coordinator = recorder.coordinators[0]
        #expect(coordinator.destinationIndexPath == path(4) && coordinator.proposal.operation == .move)
        #expect(coordinator.proposal.intent == .insertAtDestinationIndexPath)
        #expect(coordinator.items.map(\.sourceIndexPath) == [path(1)] && coordinator.items[0].previewSize == CGSize(width: 320, height: 44))
        #expect(data.sections[0] == [0, 2, 3, 4, 1, 5, 6, 7, 8, 9])
        view.completeTransition()
        view.layoutIfNeeded()
        #expect(shown(view) == data.sections[0])
        #expect(drag.landings == [.item(path(4))])
        #expect(recorder.events == ["drag begins", "enter", "perform", "drop ends", "drag ends"])
        #expect(!view.hasActiveDrag && !view.hasActiveDrop && !view.hasUncommittedUpdates)
    }

    @Test("a drag from another app opens a gap; dropped onto a placeholder, the data source's cell replaces it when committed")
    func placeholderFromAnotherApp() throws {
        let (view, data, recorder) = makeList()
        recorder.usePlaceholders = true
        defer { withExtendedLifetime((data, recorder)) {} }
        let drag = HeadlessDrag(itemsFromAnotherApp: [DragItem(itemProvider: ItemProvider(object: "42" as NSString))])
        drag.move(to: row(2), over: view)
        // Asked a move, the drag from another app is taken as a copy.
        #expect(drag.proposal?.operation == .copy && drag.destinationIndexPath == path(2))
        #expect(view.numberOfItems(inSection: 0) == 11 && data.sections[0].count == 10)
        #expect(view.cellForItem(at: path(2)) == nil, "the gap shows nothing")
        #expect(shown(view) == [0, 1, 3, 4, 5, 6, 7, 8, 9, 10].map { $0 < 2 ? $0 : $0 - 1 })
        drag.move(to: row(5), over: view)
        #expect(drag.destinationIndexPath == path(5) && view.layoutAttributesForItem(at: path(2))?.frame.minY == 2 * 54)
        #expect(drag.drop())
        #expect(recorder.coordinators[0].destinationIndexPath == path(5) && recorder.coordinators[0].items[0].sourceIndexPath == nil)
        #expect(drag.landings == [.placeholder(path(5))] && recorder.pendingTexts == ["42"])
        view.completeTransition()
        view.layoutIfNeeded()
        #expect(view.numberOfItems(inSection: 0) == 11 && view.hasUncommittedUpdates)
        #expect((view.cellForItem(at: path(5)) as? RecordingCell)?.identifier == -100, "the placeholder's cell, by its handler")
        #expect(shown(view) == [0, 1, 2, 3, 4, -100, 5, 6, 7, 8, 9])
        // The data arrives: the app inserts it where the placeholder stands.
        var given: IndexPath?
        #expect(
            recorder.placeholders[0].commitInsertion { path in
                given = path
                data.sections[0].insert(42, at: path.item)
            })
        #expect(given == path(5))
        view.completeTransition()
        view.layoutIfNeeded()
        #expect(shown(view) == [0, 1, 2, 3, 4, 42, 5, 6, 7, 8, 9] && !view.hasUncommittedUpdates)
        #expect(!recorder.placeholders[0].commitInsertion { _ in Issue.record("run twice") }, "committed already")
        #expect(!recorder.placeholders[0].deletePlaceholder())
    }

    @Test("placeholders keep their place through the app's batches; deleting one, or reloading, takes it away")
    func placeholderThroughUpdates() throws {
        let (view, data, recorder) = makeList()
        recorder.usePlaceholders = true
        recorder.proposal = CollectionViewDropProposal(operation: .copy, intent: .insertAtDestinationIndexPath)
        defer { withExtendedLifetime((data, recorder)) {} }
        for target in [3, 6] {
            let drag = HeadlessDrag(itemsFromAnotherApp: [DragItem(itemProvider: ItemProvider(object: "7\(target)" as NSString))])
            drag.move(to: row(target), over: view)
            drag.drop()
            view.completeTransition()
        }
        #expect(view.numberOfItems(inSection: 0) == 12)
        // The app inserts two rows at the top: both placeholders move down two.
        view.performBatchUpdates {
            data.sections[0].insert(contentsOf: [100, 101], at: 0)
            view.insertItems(at: [path(0), path(1)])
        }
        #expect(view.lastUpdateError == nil && view.numberOfItems(inSection: 0) == 14)
        view.completeTransition()
        view.layoutIfNeeded()
        #expect(shown(view).prefix(10) == [100, 101, 0, 1, 2, -100, 3, 4, -100, 5])
        var given: IndexPath?
        #expect(
            recorder.placeholders[1].commitInsertion {
                given = $0; data.sections[0].insert(76, at: $0.item)
            })
        // Shown at 8, the one placeholder before it is not the data source's: the data index is 7.
        #expect(given == path(7))
        view.completeTransition()
        #expect(recorder.placeholders[0].deletePlaceholder())
        view.completeTransition()
        view.layoutIfNeeded()
        #expect(shown(view).prefix(9) == [100, 101, 0, 1, 2, 3, 4, 76, 5] && view.numberOfItems(inSection: 0) == 13)
        // A third one, then a reload: it is gone and its commit does nothing.
        let drag = HeadlessDrag(itemsFromAnotherApp: [DragItem(itemProvider: ItemProvider(object: "9" as NSString))])
        drag.move(to: row(1), over: view)
        drag.drop()
        view.reloadData()
        view.layoutIfNeeded()
        #expect(view.numberOfItems(inSection: 0) == 13)
        #expect(!recorder.placeholders[2].commitInsertion { _ in Issue.record("ran after a reload") })
    }

    @Test("a gap moving past a placeholder leaves the placeholder between the same items")
    func gapPastPlaceholder() throws {
        let (view, data, recorder) = makeList()
        recorder.usePlaceholders = true
        recorder.proposal = CollectionViewDropProposal(operation: .copy, intent: .insertAtDestinationIndexPath)
        defer { withExtendedLifetime((data, recorder)) {} }
        let first = HeadlessDrag(itemsFromAnotherApp: [DragItem(itemProvider: ItemProvider(object: "50" as NSString))])
        first.move(to: row(3), over: view)
        first.drop()
        view.completeTransition()
        let second = HeadlessDrag(itemsFromAnotherApp: [DragItem(itemProvider: ItemProvider(object: "51" as NSString))])
        second.move(to: row(1), over: view)
        view.completeTransition()
        view.layoutIfNeeded()
        // The gap (no cell) at 1 pushes the placeholder from 3 to 4.
        #expect(view.cellForItem(at: path(1)) == nil && (view.cellForItem(at: path(4)) as? RecordingCell)?.identifier == -100)
        second.move(to: row(6), over: view)
        view.completeTransition()
        view.layoutIfNeeded()
        #expect(second.destinationIndexPath == path(6))
        // Moved past it to 6, the gap lets the placeholder back to 3, still between 2 and 3.
        #expect(view.cellForItem(at: path(6)) == nil && (view.cellForItem(at: path(3)) as? RecordingCell)?.identifier == -100)
        #expect(shown(view).prefix(7) == [0, 1, 2, -100, 3, 4, 5])
        second.cancel()
        view.completeTransition()
        view.layoutIfNeeded()
        #expect(shown(view).prefix(6) == [0, 1, 2, -100, 3, 4] && view.numberOfItems(inSection: 0) == 11)
    }

    @Test("with a slow cadence the gap moves only once the touch has rested half a second")
    func cadence() throws {
        let (view, data, recorder) = makeList()
        recorder.proposal = CollectionViewDropProposal(operation: .copy, intent: .insertAtDestinationIndexPath)
        view.reorderingCadence = .slow
        defer { withExtendedLifetime((data, recorder)) {} }
        let drag = HeadlessDrag(itemsFromAnotherApp: [DragItem(itemProvider: ItemProvider(object: "5" as NSString))])
        drag.move(to: row(2), over: view)
        #expect(view.numberOfItems(inSection: 0) == 10, "no gap yet")
        drag.wait(0.3)
        #expect(view.numberOfItems(inSection: 0) == 10)
        drag.move(to: row(3), over: view)
        drag.wait(0.3)
        #expect(view.numberOfItems(inSection: 0) == 10, "moving on starts the rest again")
        drag.wait(0.2)
        #expect(view.numberOfItems(inSection: 0) == 11 && view.cellForItem(at: path(3)) == nil)
        drag.cancel()
        #expect(view.numberOfItems(inSection: 0) == 10 && recorder.coordinators.isEmpty)
        #expect(recorder.events == ["enter", "drop ends"])
    }

    @Test("where a drop would go: the row under the touch, the section's count past its last row, nil elsewhere")
    func destinations() throws {
        let (view, data, recorder) = makeList([[0, 1, 2], [3, 4]])
        // 20 points below each section: section 0's rows end at 152, section 1's start at 172.
        (view.collectionViewLayout as? CollectionViewFlowLayout)?.sectionInset = EdgeInsets(top: 0, left: 0, bottom: 20, right: 0)
        recorder.proposal = CollectionViewDropProposal(operation: .copy)
        defer { withExtendedLifetime((data, recorder)) {} }
        let drag = HeadlessDrag(itemsFromAnotherApp: [DragItem(itemProvider: ItemProvider(object: "5" as NSString))])
        drag.move(to: row(1), over: view)
        #expect(drag.destinationIndexPath == path(1))
        // Between the sections: past section 0's end.
        drag.move(to: CGPoint(x: 100, y: 160), over: view)
        #expect(drag.destinationIndexPath == path(3, 0))
        drag.move(to: CGPoint(x: 100, y: 172 + 54 + 20), over: view)
        #expect(drag.destinationIndexPath == path(1, 1))
        drag.move(to: CGPoint(x: 100, y: 500), over: view)
        #expect(drag.destinationIndexPath == path(2, 1))
        // Between the two rows of section 1 (their line spacing): no item, not past the end.
        drag.move(to: CGPoint(x: 100, y: 172 + 48), over: view)
        #expect(drag.destinationIndexPath == nil)
        drag.move(to: CGPoint(x: 100, y: -20), over: view)
        #expect(drag.destinationIndexPath == nil)
        #expect(drag.drop())
        // No destination: the intent is unspecified whatever the delegate asked.
        #expect(recorder.coordinators[0].destinationIndexPath == nil && recorder.coordinators[0].proposal.intent == .unspecified)
        #expect(data.sections[0] == [0, 1, 2, 5], "the delegate appended it")
    }

    @Test("a collection view that cannot handle the drag is asked nothing more; leaving one closes its gap")
    func refusalAndExit() throws {
        let (view, data, recorder) = makeList()
        recorder.handles = false
        defer { withExtendedLifetime((data, recorder)) {} }
        let drag = HeadlessDrag(itemsFromAnotherApp: [DragItem(itemProvider: ItemProvider(object: "5" as NSString))])
        drag.move(to: row(2), over: view)
        #expect(drag.proposal == nil && recorder.destinations.isEmpty && !view.hasActiveDrop, "not tracked")
        #expect(!drag.drop() && recorder.events.isEmpty && !view.hasActiveDrop)

        recorder.handles = true
        recorder.proposal = CollectionViewDropProposal(operation: .copy, intent: .insertAtDestinationIndexPath)
        let second = HeadlessDrag(itemsFromAnotherApp: [DragItem(itemProvider: ItemProvider(object: "6" as NSString))])
        second.move(to: row(2), over: view)
        #expect(view.numberOfItems(inSection: 0) == 11)
        second.move(to: .zero, over: nil)
        #expect(view.numberOfItems(inSection: 0) == 10 && !view.hasActiveDrop && recorder.events == ["enter", "exit"])
        #expect(!second.drop(), "dropped over nothing")
        #expect(recorder.events == ["enter", "exit"])
    }

    @Test("the intent 'into' opens no gap; a forbidden proposal drops nothing")
    func intoAndForbidden() throws {
        let (view, data, recorder) = makeList()
        recorder.proposal = CollectionViewDropProposal(operation: .copy, intent: .insertIntoDestinationIndexPath)
        defer { withExtendedLifetime((data, recorder)) {} }
        let drag = HeadlessDrag(itemsFromAnotherApp: [DragItem(itemProvider: ItemProvider(object: "5" as NSString))])
        drag.move(to: row(2), over: view)
        #expect(view.numberOfItems(inSection: 0) == 10 && drag.destinationIndexPath == path(2))
        recorder.proposal = CollectionViewDropProposal(operation: .forbidden)
        drag.move(to: row(3), over: view)
        #expect(!drag.drop() && recorder.coordinators.isEmpty && recorder.events == ["enter", "drop ends"])
    }

    @Test("drags begin only where drag interaction is on and the delegate gives items; more items can be added")
    func beginning() throws {
        let (view, data, recorder) = makeList()
        defer { withExtendedLifetime((data, recorder)) {} }
        view.dragInteractionEnabled = false
        #expect(view.beginDrag(at: row(1)) == nil)
        let phone = CollectionView(frame: CGRect(x: 0, y: 0, width: 100, height: 100), collectionViewLayout: CollectionViewFlowLayout())
        #expect(!phone.dragInteractionEnabled, "off on a phone, as in UIKit")
        phone.traitCollection = TraitCollection(userInterfaceIdiom: .pad)
        #expect(phone.dragInteractionEnabled)
        view.dragInteractionEnabled = true
        #expect(view.beginDrag(at: row(9)) == nil, "the delegate gives row 9 no items")
        #expect(view.beginDrag(at: CGPoint(x: 100, y: 10 * 54 + 5)) == nil, "no row there")
        #expect(!view.hasActiveDrag && recorder.events.isEmpty)
        let drag = try #require(view.beginDrag(at: row(0)))
        #expect(drag.addItem(at: row(3)) == 1 && drag.dropSession.items.count == 2)
        #expect(drag.dropSession.canLoadObjects(ofClass: NSString.self))
        #expect(drag.dropSession.hasItemsConforming(toTypeIdentifiers: ["public.utf8-plain-text"]))
        #expect(drag.dropSession.location(in: view) == row(0))
        // Two items of this collection view: no reorder, a gap, and a move of both.
        drag.move(to: row(6), over: view)
        #expect(view.numberOfItems(inSection: 0) == 11 && drag.proposal?.operation == .move)
        drag.cancel()
        #expect(view.numberOfItems(inSection: 0) == 10 && !view.hasActiveDrag)
        #expect(recorder.events == ["drag begins", "enter", "drop ends", "drag ends"])
    }
}

@Suite("Item providers")
struct ItemProviderTests {
    @Test("text is loaded as the object registered, or from its data by a class that reads the type")
    func loads() {
        let provider = ItemProvider(object: "Gulf Fritillary" as NSString)
        #expect(provider.registeredTypeIdentifiers == ["public.utf8-plain-text"])
        #expect(provider.canLoadObject(ofClass: NSString.self))
        nonisolated(unsafe) var loaded: String?
        provider.loadObject(ofClass: NSString.self) { object, _ in loaded = (object as? NSString).map(String.init) }
        #expect(loaded == "Gulf Fritillary")

        let data = ItemProvider()
        data.registerDataRepresentation(forTypeIdentifier: "public.plain-text", visibility: .all) { completion in
            completion(Data("数据".utf8), nil)
            return nil
        }
        #expect(data.canLoadObject(ofClass: NSString.self))
        data.loadObject(ofClass: NSString.self) { object, _ in loaded = (object as? NSString).map(String.init) }
        #expect(loaded == "数据")
    }

    @Test("a type that is not there is an error naming what is")
    func missing() {
        let provider = ItemProvider()
        provider.registerDataRepresentation(forTypeIdentifier: "public.png", visibility: .all) { completion in
            completion(Data([0x89]), nil)
            return nil
        }
        #expect(!provider.canLoadObject(ofClass: NSString.self))
        nonisolated(unsafe) var failure: String?
        provider.loadObject(ofClass: NSString.self) { _, error in failure = error.map { "\($0)" } }
        #expect(failure == "the item provider has no NSString (it has public.png)")
        let notText = ItemProvider()
        notText.registerDataRepresentation(forTypeIdentifier: "public.utf8-plain-text", visibility: .all) { completion in
            completion(Data([0xFF, 0xFE]), nil)
            return nil
        }
        notText.loadObject(ofClass: NSString.self) { _, error in failure = error.map { "\($0)" } }
        #expect(failure == "the data of public.utf8-plain-text is not UTF-8 text")
    }
}
