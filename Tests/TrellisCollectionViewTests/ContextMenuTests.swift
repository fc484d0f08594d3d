import Foundation
import Testing

@testable import TrellisCollectionView

/// A delegate whose items each have a menu: share, a disabled copy, delete (destructive), a
/// submenu of tags that keeps the menu open; several items at once get a menu of their own.
final class MenuDelegate: CollectionViewDelegate {
    var ran: [String] = []
    func collectionView(_ collectionView: CollectionView, contextMenuConfigurationForItemAt indexPath: IndexPath, point: CGPoint)
        -> ContextMenuConfiguration?
    {
        guard indexPath.item != 3 else { return nil }
        return ContextMenuConfiguration(identifier: nil, previewProvider: nil) { [weak self] _ in
            Menu(children: [
                Action(title: "Share", image: Image(systemName: "square.and.arrow.up")) { _ in self?.ran.append("share \(indexPath.item)") },
                Action(title: "Copy", attributes: .disabled) { _ in self?.ran.append("copy") },
                Action(title: "Delete", attributes: .destructive) { action in self?.ran.append("\(action.title) \(indexPath.item)") },
                Menu(
                    title: "Tag", options: .singleSelection,
                    children: [Action(title: "Red", attributes: .keepsMenuPresented, state: .on) { _ in self?.ran.append("red") }]),
            ])
        }
    }
}

/// Several items' menu through the iOS 16 form.
final class ManyItemsMenuDelegate: CollectionViewDelegate {
    let single = MenuDelegate()
    var ran: [String] = []
    func collectionView(_ collectionView: CollectionView, contextMenuConfigurationForItemsAt indexPaths: [IndexPath], point: CGPoint)
        -> ContextMenuConfiguration?
    {
        if indexPaths.count == 1 { return single.collectionView(collectionView, contextMenuConfigurationForItemAt: indexPaths[0], point: point) }
        return ContextMenuConfiguration(identifier: "many" as NSString, previewProvider: nil) { [weak self] _ in
            Menu(title: "\(indexPaths.count) items", children: [Action(title: "Delete All") { _ in self?.ran.append("all \(indexPaths.count)") }])
        }
    }
}

@Suite("Context menus")
struct ContextMenuTests {
    func path(_ item: Int) -> IndexPath { IndexPath(item: item, section: 0) }

    @Test("a long press opens the item's menu; choosing an action runs it and closes the menu, unless disabled or it keeps the menu open")
    func chooseActions() throws {
        let (view, data) = makeCollectionView([Array(0..<10)])
        let delegate = MenuDelegate()
        view.delegate = delegate
        defer { withExtendedLifetime((data, delegate)) {} }
        let menu = try #require(view.openContextMenu(forItemsAt: [path(2)], at: CGPoint(x: 5, y: 5)))
        #expect(menu.children.map(\.title) == ["Share", "Copy", "Delete", "Tag"])
        #expect(menu.allActions.map(\.title) == ["Share", "Copy", "Delete", "Red"])
        #expect((menu.children[3] as? Menu)?.options == .singleSelection && menu.allActions[3].state == .on)
        #expect(menu.allActions[0].image?.symbolName == "square.and.arrow.up")
        #expect(!view.chooseContextMenuAction(titled: "Copy"), "disabled")
        #expect(!view.chooseContextMenuAction(titled: "Paste"), "no such action")
        #expect(view.chooseContextMenuAction(titled: "Red") && view.presentedContextMenu != nil, "keeps the menu open")
        #expect(view.chooseContextMenuAction(titled: "Delete"))
        #expect(delegate.ran == ["red", "Delete 2"] && view.presentedContextMenu == nil)
        #expect(!view.chooseContextMenuAction(titled: "Share"), "no menu open")
        #expect(view.openContextMenu(forItemsAt: [path(3)], at: .zero) == nil, "the delegate gives item 3 none")
        #expect(view.openContextMenu(forItemsAt: [path(10)], at: .zero) == nil, "no such item")
        #expect(view.openContextMenu(forItemsAt: [path(1), path(2)], at: .zero) == nil, "several items: the one-item form is not asked")
        view.openContextMenu(forItemsAt: [path(4)], at: .zero)
        #expect(view.presentedContextMenu?.indexPaths == [path(4)])
        view.closeContextMenu()
        #expect(view.presentedContextMenu == nil)
    }

    @Test("several items' menu comes from the iOS 16 form")
    func manyItems() throws {
        let (view, data) = makeCollectionView([Array(0..<10)])
        let delegate = ManyItemsMenuDelegate()
        view.delegate = delegate
        defer { withExtendedLifetime((data, delegate)) {} }
        let menu = try #require(view.openContextMenu(forItemsAt: [path(1), path(5)], at: .zero))
        #expect(menu.title == "2 items")
        #expect(view.chooseContextMenuAction(titled: "Delete All") && delegate.ran == ["all 2"])
        #expect(view.openContextMenu(forItemsAt: [path(1)], at: .zero)?.allActions.count == 4)
    }
}
