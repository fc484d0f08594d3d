import Foundation
import Testing

@_spi(Instrumentation) @testable import TrellisCollectionView

/// A delegate that lets the odd items be edited (0, 2, 4… may not), and records selections.
final class EditingDelegate: CollectionViewDelegate {
    var selected: [IndexPath] = []
    func collectionView(_ collectionView: CollectionView, canEditItemAt indexPath: IndexPath) -> Bool { indexPath.item % 2 == 1 }
    func collectionView(_ collectionView: CollectionView, didSelectItemAt indexPath: IndexPath) { selected.append(indexPath) }
}

/// Editing mode and the cells' configuration state (iOS 14's `isEditing`,
/// `allowsSelectionDuringEditing`, `UICellConfigurationState`, `configurationUpdateHandler`).
@Suite("Editing mode and configuration state")
struct EditingTests {
    @Test("a cell's handler runs before it is shown and at each change of its state, with that state")
    func updatesFollowState() throws {
        let (view, data) = makeCollectionView([Array(0..<9)])
        defer { withExtendedLifetime(data) {} }
        let cell = try #require(view.cellForItem(at: IndexPath(item: 1, section: 0)))
        var states: [CellConfigurationState] = []
        cell.configurationUpdateHandler = { _, state in states.append(state) }
        #expect(states.count == 1 && states[0] == cell.configurationState, "setting the handler runs it with the state now")
        view.selectItem(at: IndexPath(item: 1, section: 0), animated: false, scrollPosition: [])
        #expect(states.last?.isSelected == true && states.count == 2)
        view.selectItem(at: IndexPath(item: 1, section: 0), animated: false, scrollPosition: [])
        #expect(states.count == 2, "no change, no update")
        cell.isHighlighted = true
        #expect(states.last?.isHighlighted == true && states.last?.isSelected == true)
    }

    /// A cell that records each update of its configuration.
    final class UpdatingCell: CollectionViewCell {
        var updates: [CellConfigurationState] = []
        override func updateConfiguration(using state: CellConfigurationState) { updates.append(state) }
    }

    @Test("a cell shown selected and editing updates once, with its whole state; put away and shown again, once more")
    func oneUpdateBeforeShown() throws {
        let view = CollectionView(
            frame: CGRect(x: 0, y: 0, width: 320, height: 480),
            collectionViewLayout: {
                let flow = CollectionViewFlowLayout()
                flow.itemSize = CGSize(width: 300, height: 100)
                return flow
            }())
        view.register(UpdatingCell.self, forCellWithReuseIdentifier: "cell")
        let data = ItemsDataSource([Array(0..<40)])
        view.dataSource = data
        defer { withExtendedLifetime(data) {} }
        view.allowsSelectionDuringEditing = true
        view.isEditing = true
        view.selectItem(at: IndexPath(item: 1, section: 0), animated: false, scrollPosition: [])
        view.layoutIfNeeded()
        let cell = try #require(view.cellForItem(at: IndexPath(item: 1, section: 0)) as? UpdatingCell)
        #expect(cell.updates.count == 1, "\(cell.updates.count) updates")
        #expect(cell.updates.first.map { $0.isSelected && $0.isEditing } == true)
        // Scrolled away (the cell waits for reuse, not updated) and the row shown again by a reused cell.
        view.contentOffset = CGPoint(x: 0, y: 2000)
        view.layoutIfNeeded()
        view.contentOffset = .zero
        view.layoutIfNeeded()
        // Each cell shown now was updated for its own row: only row 1 selected.
        for path in view.indexPathsForVisibleItems {
            let shown = try #require(view.cellForItem(at: path) as? UpdatingCell)
            #expect(shown.updates.last?.isSelected == (path.item == 1), "\(path)")
        }
    }

    @Test("editing mode: the items the delegate lets be edited show it; selection follows the during-editing flags, and allowsSelection rules both")
    func editingMode() throws {
        let (view, data) = makeCollectionView([Array(0..<9)])
        let delegate = EditingDelegate()
        view.delegate = delegate
        defer { withExtendedLifetime((data, delegate)) {} }
        view.allowsMultipleSelection = true
        view.selectItem(at: IndexPath(item: 0, section: 0), animated: false, scrollPosition: [])
        view.selectItem(at: IndexPath(item: 3, section: 0), animated: false, scrollPosition: [])
        #expect(view.indexPathsForSelectedItems?.count == 2)

        view.isEditing = true
        #expect(view.indexPathsForSelectedItems == [], "no selection during editing by default: cleared")
        #expect(view.cellForItem(at: IndexPath(item: 1, section: 0))?.configurationState.isEditing == true)
        #expect(view.cellForItem(at: IndexPath(item: 2, section: 0))?.configurationState.isEditing == false, "the delegate says no")
        #expect(!view.tapItem(at: IndexPath(item: 1, section: 0)))

        view.allowsSelectionDuringEditing = true
        #expect(view.tapItem(at: IndexPath(item: 1, section: 0)) && view.tapItem(at: IndexPath(item: 5, section: 0)))
        #expect(view.indexPathsForSelectedItems == [IndexPath(item: 5, section: 0)], "single selection while editing, whatever allowsMultipleSelection says")
        view.allowsMultipleSelectionDuringEditing = true
        #expect(view.tapItem(at: IndexPath(item: 7, section: 0)))
        #expect(view.indexPathsForSelectedItems == [IndexPath(item: 5, section: 0), IndexPath(item: 7, section: 0)])
        #expect(delegate.selected == [1, 5, 7].map { IndexPath(item: $0, section: 0) })

        view.allowsSelection = false
        #expect(view.indexPathsForSelectedItems == [] && !view.tapItem(at: IndexPath(item: 3, section: 0)), "allowsSelection rules both modes")

        view.allowsSelection = true
        view.isEditing = false
        #expect(view.cellForItem(at: IndexPath(item: 1, section: 0))?.configurationState.isEditing == false)
        // A cell shown for the first time while editing starts edited.
        view.isEditing = true
        view.contentOffset = CGPoint(x: 0, y: 300)
        view.layoutIfNeeded()
        #expect(view.cellForItem(at: IndexPath(item: 7, section: 0))?.configurationState.isEditing == true)
    }
}
