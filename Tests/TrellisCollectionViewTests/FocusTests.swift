import Foundation
import Testing

@_spi(Instrumentation) @testable import TrellisCollectionView

/// A delegate that refuses focus to some items and prefers one.
final class FocusDelegate: CollectionViewDelegate {
    var refused: Set<Int> = []
    var preferred: IndexPath?
    var selected: [Int] = []
    func collectionView(_ collectionView: CollectionView, canFocusItemAt indexPath: IndexPath) -> Bool { !refused.contains(indexPath.item) }
    func indexPathForPreferredFocusedView(in collectionView: CollectionView) -> IndexPath? { preferred }
    func collectionView(_ collectionView: CollectionView, didSelectItemAt indexPath: IndexPath) { selected.append(indexPath.item) }
}

/// Focus moved by keys over a grid of three 100-point squares a line (at x 0, 110, 220; lines
/// 110 apart).
@Suite("Focus")
struct FocusTests {
    func path(_ item: Int) -> IndexPath { IndexPath(item: item, section: 0) }

    @Test("arrows go to the nearest item that way, tab and shift-tab in order; the cell shows it; nothing past the edges")
    func arrows() throws {
        let (view, data) = makeCollectionView([Array(0..<30)])
        let delegate = FocusDelegate()
        view.delegate = delegate
        defer { withExtendedLifetime((data, delegate)) {} }
        #expect(view.indexPathForFocusedItem == nil)
        #expect(view.moveFocus(.right) == path(0), "nothing focused: the first item")
        #expect(view.cellForItem(at: path(0))?.configurationState.isFocused == true)
        #expect(view.moveFocus(.right) == path(1))
        #expect(view.cellForItem(at: path(0))?.configurationState.isFocused == false)
        #expect(view.moveFocus(.down) == path(4))
        #expect(view.moveFocus(.left) == path(3))
        #expect(view.moveFocus(.left) == path(3), "nothing further left: focus stays")
        #expect(view.moveFocus(.up) == path(0))
        #expect(view.moveFocus(.previous) == path(0))
        #expect(view.moveFocus(.next) == path(1))
        delegate.refused = [4]
        #expect(view.moveFocus(.down) == path(3), "item 4 refuses: the nearest of the rest, the first of equals")
        // Down the column to the end: the view scrolls to each.
        for _ in 0..<12 { view.moveFocus(.down) }
        #expect(view.indexPathForFocusedItem == path(27))
        #expect(view.bounds.maxY >= 9 * 110, "scrolled to the last line")
        #expect(view.cellForItem(at: path(27))?.configurationState.isFocused == true)
        #expect(delegate.selected.isEmpty, "focus does not select by default")
    }

    @Test("an arrow crosses a gap longer than the viewport to the next section's items; tab crosses sections both ways")
    func acrossSections() {
        let flow = CollectionViewFlowLayout()
        flow.itemSize = CGSize(width: 100, height: 100)
        flow.sectionInset = EdgeInsets(top: 0, left: 0, bottom: 1500, right: 0)
        let (view, data) = makeCollectionView([Array(0..<3), Array(0..<3), []], layout: flow)
        defer { withExtendedLifetime(data) {} }
        view.moveFocus(.down)
        #expect(view.moveFocus(.right) == path(1))
        #expect(view.moveFocus(.down) == IndexPath(item: 1, section: 1), "1,500 points below, three viewports away")
        #expect(view.moveFocus(.down) == IndexPath(item: 1, section: 1), "nothing further down")
        #expect(view.moveFocus(.previous) == IndexPath(item: 0, section: 1))
        #expect(view.moveFocus(.previous) == path(2))
        #expect(view.moveFocus(.next) == IndexPath(item: 0, section: 1))
        view.moveFocus(.next)
        view.moveFocus(.next)
        #expect(view.moveFocus(.next) == IndexPath(item: 2, section: 1), "the last item: the empty section after it has none")
    }

    @Test("focus comes back to the remembered item, else the delegate's preferred one; selection can follow it")
    func rememberAndSelect() {
        let (view, data) = makeCollectionView([Array(0..<30)])
        let delegate = FocusDelegate()
        view.delegate = delegate
        defer { withExtendedLifetime((data, delegate)) {} }
        delegate.preferred = path(5)
        #expect(view.moveFocus(.down) == path(5))
        view.moveFocus(.left)
        view.resignFocus()
        #expect(view.indexPathForFocusedItem == nil && view.cellForItem(at: path(4))?.configurationState.isFocused == false)
        #expect(view.moveFocus(.down) == path(5), "not remembered: the preferred item")
        view.remembersLastFocusedIndexPath = true
        view.moveFocus(.left)
        view.resignFocus()
        #expect(view.moveFocus(.down) == path(4), "remembered")
        view.selectionFollowsFocus = true
        view.moveFocus(.right)
        view.moveFocus(.right)
        #expect(view.indexPathsForSelectedItems == [path(5)], "the second press found nothing to the right")
        view.moveFocus(.left)
        #expect(view.indexPathsForSelectedItems == [path(4)])
        #expect(delegate.selected == [5, 4], "selected as a tap selects, the delegate told")
    }
}
