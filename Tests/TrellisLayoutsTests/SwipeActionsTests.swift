import Foundation
import Testing
import TrellisCollectionView
import TrellisLayouts

/// A list of rows of plain cells.
private final class Rows: CollectionViewDataSource {
    var rows: [String]
    init(_ rows: [String]) { self.rows = rows }
    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { rows.count }
    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
        collectionView.dequeueReusableCell(withReuseIdentifier: "row", for: indexPath)
    }
}

/// A list's swipe actions (`trailingSwipeActionsConfigurationProvider`, `UIContextualAction`),
/// played headless as Apple's list samples use them: delete on a trailing swipe, a leading one
/// on some rows only.
@Suite("Swipe actions")
struct SwipeActionsTests {
    @Test("a trailing swipe shows the row's actions; tapping one runs it with the row's cell, which is swiped until it completes")
    func trailingDelete() throws {
        let data = Rows((0..<30).map { "row \($0)" })
        var configuration = CollectionLayoutListConfiguration(appearance: .insetGrouped)
        var ran: [String] = []
        var finish: ((Bool) -> Void)?
        configuration.trailingSwipeActionsConfigurationProvider = { indexPath in
            let delete = ContextualAction(style: .destructive, title: "Delete") { action, view, completion in
                ran.append("\(action.title ?? "") \(indexPath.item) \((view as? CollectionViewCell)?.configurationState.isSwiped == true)")
                finish = completion
            }
            let flag = ContextualAction(style: .normal, title: "Flag") { _, _, completion in
                ran.append("Flag \(indexPath.item)")
                completion(true)
            }
            return SwipeActionsConfiguration(actions: [delete, flag])
        }
        configuration.leadingSwipeActionsConfigurationProvider = { $0.item % 2 == 0 ? SwipeActionsConfiguration(actions: []) : nil }
        let view = CollectionView(
            frame: CGRect(x: 0, y: 0, width: 375, height: 667),
            collectionViewLayout: CollectionViewCompositionalLayout.list(using: configuration))
        view.register(CollectionViewCell.self, forCellWithReuseIdentifier: "row")
        view.dataSource = data
        view.layoutIfNeeded()

        let actions = try #require(view.swipeActionsConfiguration(forItemAt: IndexPath(item: 3, section: 0), edge: .trailing))
        #expect(actions.actions.map(\.title) == ["Delete", "Flag"])
        #expect(actions.actions[0].backgroundColor == .systemRed && actions.actions[1].backgroundColor == .systemGray)
        #expect(view.swipeActionsConfiguration(forItemAt: IndexPath(item: 3, section: 0), edge: .leading) == nil)
        #expect(view.swipeActionsConfiguration(forItemAt: IndexPath(item: 4, section: 0), edge: .leading) == nil, "no actions: no swipe")
        #expect(view.swipeActionsConfiguration(forItemAt: IndexPath(item: 30, section: 0), edge: .trailing) == nil, "no such row")

        #expect(view.performSwipeAction(forItemAt: IndexPath(item: 3, section: 0), edge: .trailing))
        #expect(ran == ["Delete 3 true"])
        let cell = try #require(view.cellForItem(at: IndexPath(item: 3, section: 0)))
        #expect(cell.configurationState.isSwiped, "swiped until the action completes")
        finish?(true)
        #expect(!cell.configurationState.isSwiped)

        // A full swipe performs the first action; an item off screen is scrolled to first.
        #expect(view.performSwipeAction(forItemAt: IndexPath(item: 25, section: 0), edge: .trailing, fullSwipe: true))
        #expect(ran.last == "Delete 25 true")
        #expect(view.performSwipeAction(at: 1, forItemAt: IndexPath(item: 0, section: 0), edge: .trailing))
        #expect(ran.last == "Flag 0")
        #expect(!view.performSwipeAction(at: 2, forItemAt: IndexPath(item: 0, section: 0), edge: .trailing), "no third action")
    }

    @Test("a flow layout's items have no swipe actions")
    func otherLayouts() {
        let view = CollectionView(frame: CGRect(x: 0, y: 0, width: 320, height: 480), collectionViewLayout: CollectionViewFlowLayout())
        let data = Rows(["a"])
        view.register(CollectionViewCell.self, forCellWithReuseIdentifier: "row")
        view.dataSource = data
        #expect(view.swipeActionsConfiguration(forItemAt: IndexPath(item: 0, section: 0), edge: .trailing) == nil)
        #expect(!view.performSwipeAction(forItemAt: IndexPath(item: 0, section: 0), edge: .trailing))
    }
}
