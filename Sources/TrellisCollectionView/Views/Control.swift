import Foundation

/// A control, headless (`UIControl`): its state (enabled, selected, highlighted) and its
/// target–action, the action a closure (Swift on Linux has no selectors; `trellis port` rewrites
/// `addTarget(self, action: #selector(changed(_:)), for: .valueChanged)` to one that calls the
/// same method). What a touch would do is played with ``sendActions(for:)``.
///
/// ```swift
/// let toggle = Control()
/// toggle.addTarget(self, action: { [weak self] in self?.changed($0) }, for: .valueChanged)
/// toggle.sendActions(for: .valueChanged)   // calls changed(_:) with the control
/// ```
open class Control: View {
    /// The events a control sends (`UIControl.Event`), UIKit's values.
    public struct Event: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        public static let touchDown = Event(rawValue: 1 << 0)
        public static let touchDownRepeat = Event(rawValue: 1 << 1)
        public static let touchDragInside = Event(rawValue: 1 << 2)
        public static let touchDragOutside = Event(rawValue: 1 << 3)
        public static let touchDragEnter = Event(rawValue: 1 << 4)
        public static let touchDragExit = Event(rawValue: 1 << 5)
        public static let touchUpInside = Event(rawValue: 1 << 6)
        public static let touchUpOutside = Event(rawValue: 1 << 7)
        public static let touchCancel = Event(rawValue: 1 << 8)
        public static let valueChanged = Event(rawValue: 1 << 12)
        public static let primaryActionTriggered = Event(rawValue: 1 << 13)
        public static let menuActionTriggered = Event(rawValue: 1 << 14)
        public static let editingDidBegin = Event(rawValue: 1 << 16)
        public static let editingChanged = Event(rawValue: 1 << 17)
        public static let editingDidEnd = Event(rawValue: 1 << 18)
        public static let editingDidEndOnExit = Event(rawValue: 1 << 19)
        public static let allTouchEvents = Event(rawValue: 0x0000_0FFF)
        public static let allEditingEvents = Event(rawValue: 0x000F_0000)
        public static let applicationReserved = Event(rawValue: 0x0F00_0000)
        public static let systemReserved = Event(rawValue: 0xF000_0000)
        public static let allEvents = Event(rawValue: 0xFFFF_FFFF)
    }

    /// A disabled control sends no actions.
    open var isEnabled = true
    open var isSelected = false
    open var isHighlighted = false

    private struct Action {
        weak var target: AnyObject?
        let hasTarget: Bool
        let events: Event
        let call: (Control) -> Void
    }
    private var actions: [Action] = []

    /// Adds `target`'s action for `events`, called with the control while `target` lives (held
    /// weakly, as UIKit does; `nil`: always).
    open func addTarget(_ target: AnyObject?, action: @escaping (Control) -> Void, for events: Event) {
        actions.append(Action(target: target, hasTarget: target != nil, events: events, call: action))
    }

    /// Removes `target`'s actions for `events` (`nil` target: every target's).
    open func removeTarget(_ target: AnyObject?, for events: Event) {
        actions.removeAll { action in
            (target == nil || action.target === target) && !action.events.isDisjoint(with: events)
        }
    }

    /// The events that have actions.
    open var allControlEvents: Event { actions.reduce(Event()) { $0.union($1.events) } }

    /// Sends `events` as a touch would: every action registered for one of them, in the order
    /// added, whose target still lives; nothing while disabled.
    open func sendActions(for events: Event) {
        guard isEnabled else { return }
        for action in actions where !action.events.isDisjoint(with: events) && (!action.hasTarget || action.target != nil) {
            action.call(self)
        }
    }
}

/// A bar button item (`UIBarButtonItem`), headless: its title, style and target–action, the
/// action a closure; ``sendAction()`` plays a tap.
open class BarButtonItem: NSObject {
    /// `UIBarButtonItem.Style`.
    public enum Style: Int, Sendable { case plain = 0, bordered = 1, done = 2 }
    /// `UIBarButtonItem.SystemItem`, UIKit's values.
    public enum SystemItem: Int, Sendable {
        case done, cancel, edit, save, add, flexibleSpace, fixedSpace, compose, reply, action, organize, bookmarks, search, refresh, stop,
            camera, trash, play, pause, rewind, fastForward, undo, redo, pageCurl, close
    }

    open var title: String?
    open var style: Style
    /// The system item it was made as, if any.
    public let systemItem: SystemItem?
    open var isEnabled = true
    open var width: CGFloat = 0
    open var tag = 0
    /// The target, held weakly as UIKit does.
    open weak var target: AnyObject?
    private var hasTarget = false
    /// The action, called with the item.
    open var action: ((BarButtonItem) -> Void)?

    public init(title: String?, style: Style, target: AnyObject?, action: ((BarButtonItem) -> Void)?) {
        self.title = title
        self.style = style
        systemItem = nil
        self.target = target
        hasTarget = target != nil
        self.action = action
        super.init()
    }

    public init(barButtonSystemItem systemItem: SystemItem, target: AnyObject?, action: ((BarButtonItem) -> Void)?) {
        style = systemItem == .done ? .done : .plain
        self.systemItem = systemItem
        self.target = target
        hasTarget = target != nil
        self.action = action
        super.init()
    }

    public override convenience init() {
        self.init(title: nil, style: .plain, target: nil, action: nil)
    }

    /// Plays a tap: the action, while enabled and while its target lives.
    open func sendAction() {
        guard isEnabled, !hasTarget || target != nil else { return }
        action?(self)
    }
}
