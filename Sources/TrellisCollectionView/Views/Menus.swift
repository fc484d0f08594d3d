import Foundation

/// An entry of a menu (`UIMenuElement`): an ``Action`` or a ``Menu``.
open class MenuElement: NSObject, @unchecked Sendable {
    /// What the entry says.
    public let title: String
    /// A second line under the title.
    public let subtitle: String?
    /// The entry's image.
    public let image: Image?

    init(title: String, subtitle: String?, image: Image?) {
        self.title = title
        self.subtitle = subtitle
        self.image = image
    }
}

/// A menu (`UIMenu`): a title and its entries, shown as a submenu or inline in its parent.
open class Menu: MenuElement, @unchecked Sendable {
    /// How a menu shows (`UIMenu.Options`).
    public struct Options: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// Its entries shown in the parent, between separators.
        public static let displayInline = Options(rawValue: 1 << 0)
        /// Its title in red.
        public static let destructive = Options(rawValue: 1 << 1)
        /// One of its actions on at a time.
        public static let singleSelection = Options(rawValue: 1 << 5)
        /// Its entries in a row of images.
        public static let displayAsPalette = Options(rawValue: 1 << 7)
    }

    /// A menu's name (`UIMenu.Identifier`).
    public struct Identifier: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }
    }

    public let identifier: Identifier
    public let options: Options
    /// The entries, in order.
    public let children: [MenuElement]

    /// A menu of `children`.
    public init(
        title: String = "", subtitle: String? = nil, image: Image? = nil, identifier: Identifier? = nil, options: Options = [],
        children: [MenuElement] = []
    ) {
        self.identifier = identifier ?? Identifier("menu.\(UUIDText.next())")
        self.options = options
        self.children = children
        super.init(title: title, subtitle: subtitle, image: image)
    }

    /// The same menu with other entries.
    open func replacingChildren(_ newChildren: [MenuElement]) -> Menu {
        Menu(title: title, subtitle: subtitle, image: image, identifier: identifier, options: options, children: newChildren)
    }

    /// Every action of the menu and its submenus, in the order they are shown.
    public var allActions: [Action] {
        children.flatMap { element -> [Action] in
            if let action = element as? Action { return [action] }
            return (element as? Menu)?.allActions ?? []
        }
    }
}

/// A command in a menu (`UIAction`): a title, an image, attributes and what choosing it does.
open class Action: MenuElement, @unchecked Sendable {
    /// How an action shows (`UIMenuElement.Attributes`).
    public struct Attributes: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// Shown but not chosen.
        public static let disabled = Attributes(rawValue: 1 << 0)
        /// Shown in red.
        public static let destructive = Attributes(rawValue: 1 << 1)
        /// Not shown.
        public static let hidden = Attributes(rawValue: 1 << 2)
        /// Choosing it leaves the menu open.
        public static let keepsMenuPresented = Attributes(rawValue: 1 << 3)
    }

    /// Whether an action shows a checkmark (`UIMenuElement.State`).
    public enum State: Int, Sendable { case off, on, mixed }

    /// An action's name (`UIAction.Identifier`).
    public struct Identifier: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }
    }

    /// What choosing an action does, given the action.
    public typealias Handler = (Action) -> Void

    public let identifier: Identifier
    public let discoverabilityTitle: String?
    public var attributes: Attributes
    public var state: State
    let handler: Handler

    /// An action that runs `handler` when chosen.
    public init(
        title: String = "", subtitle: String? = nil, image: Image? = nil, identifier: Identifier? = nil,
        discoverabilityTitle: String? = nil, attributes: Attributes = [], state: State = .off, handler: @escaping Handler
    ) {
        self.identifier = identifier ?? Identifier("action.\(UUIDText.next())")
        self.discoverabilityTitle = discoverabilityTitle
        self.attributes = attributes
        self.state = state
        self.handler = handler
        super.init(title: title, subtitle: subtitle, image: image)
    }
}

/// Identifiers made one after another: the same program makes the same ones, run after run.
enum UUIDText {
    nonisolated(unsafe) private static var count = 0
    private static let lock = NSLock()
    static func next() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }
}

/// What a long press on items shows (`UIContextMenuConfiguration`): a menu made when it opens,
/// and a preview.
open class ContextMenuConfiguration: NSObject, @unchecked Sendable {
    /// The menu, given the actions the system suggests (none, headless).
    public typealias ActionProvider = (_ suggestedActions: [MenuElement]) -> Menu?
    /// The preview shown above the menu (headless: not shown).
    public typealias PreviewProvider = () -> AnyObject?

    public let identifier: NSCopying
    let previewProvider: PreviewProvider?
    let actionProvider: ActionProvider?

    public init(identifier: NSCopying? = nil, previewProvider: PreviewProvider?, actionProvider: ActionProvider?) {
        self.identifier = identifier ?? NSString(string: "context-menu.\(UUIDText.next())")
        self.previewProvider = previewProvider
        self.actionProvider = actionProvider
    }
}

extension CollectionView {
    /// Opens the context menu of `indexPaths` as a long press at `point` would: the delegate's
    /// configuration for them (`collectionView(_:contextMenuConfigurationForItemsAt:point:)`),
    /// its menu made. Returns the menu, or `nil` when the delegate gives none (no menu opens).
    @discardableResult
    public func openContextMenu(forItemsAt indexPaths: [IndexPath], at point: CGPoint) -> Menu? {
        closeContextMenu()
        guard !indexPaths.isEmpty, indexPaths.allSatisfy(isValidItemPath),
            let configuration = delegate?.collectionView(self, contextMenuConfigurationForItemsAt: indexPaths, point: point),
            let menu = configuration.actionProvider?([])
        else { return nil }
        openContextMenu = (configuration, menu, indexPaths)
        return menu
    }

    /// The context menu open, with the items it was opened for.
    public var presentedContextMenu: (menu: Menu, indexPaths: [IndexPath])? {
        openContextMenu.map { ($0.menu, $0.indexPaths) }
    }

    /// Chooses the action of the open context menu titled `title` (the first, in the order shown):
    /// runs its handler and closes the menu (unless the action keeps it open). Returns whether an
    /// action was chosen — not when no menu is open, none has that title, or it is disabled or
    /// hidden.
    @discardableResult
    public func chooseContextMenuAction(titled title: String) -> Bool {
        guard let open = openContextMenu,
            let action = open.menu.allActions.first(where: { $0.title == title }),
            action.attributes.isDisjoint(with: [.disabled, .hidden])
        else { return false }
        if !action.attributes.contains(.keepsMenuPresented) { closeContextMenu() }
        action.handler(action)
        return true
    }

    /// Closes the open context menu, if any.
    public func closeContextMenu() {
        openContextMenu = nil
    }

    private func isValidItemPath(_ indexPath: IndexPath) -> Bool {
        indexPath.count == 2 && indexPath.section >= 0 && indexPath.section < numberOfSections
            && indexPath.item >= 0 && indexPath.item < numberOfItems(inSection: indexPath.section)
    }
}
