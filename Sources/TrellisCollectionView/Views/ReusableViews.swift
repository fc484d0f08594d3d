import Foundation

/// A view that a collection view shows for one element and reuses for others:
/// `UICollectionReusableView` without pixels. Subclasses override ``apply(_:)`` to react to new
/// attributes and ``prepareForReuse()`` to reset before being used for another element.
///
/// The collection view creates registered classes through ``init(reuseIdentifier:)``, which
/// calls `init(frame:)`: a subclass written for UIKit (`override init(frame:)` and
/// `required init?(coder:)`) inherits it.
open class CollectionReusableView: View {
    /// The identifier it was registered and dequeued with.
    open internal(set) var reuseIdentifier: String?
    /// The attributes last applied (a copy); `nil` before the first.
    package private(set) var appliedLayoutAttributes: CollectionViewLayoutAttributes?
    /// How many times attributes were applied: unchanged attributes are never applied again.
    package private(set) var applyCount = 0
    /// How many times this view was prepared for reuse.
    package private(set) var reuseCount = 0
    /// The collection view showing the view, while it does.
    weak var shownBy: CollectionView?
    /// The collection view that last handed the view out, and for which index path: what a
    /// list cell's defaults read while its data source configures it, before it is shown.
    weak var dequeuedBy: CollectionView?
    var dequeuedFor: IndexPath?

    /// The view's traits: those set on it, else its superview's, else — once a collection view
    /// has handed it out — the collection view's, as UIKit's cells take their collection view's.
    open override var traitCollection: TraitCollection {
        get {
            if !hasOwnTraits, superview == nil, let owner = shownBy ?? dequeuedBy { return owner.traitCollection }
            return super.traitCollection
        }
        set { super.traitCollection = newValue }
    }

    /// Says that the view needs another size: the collection view showing it asks it for its
    /// preferred attributes again and lays out what changed, unless its
    /// ``CollectionView/selfSizingInvalidation`` is `.disabled`.
    open override func invalidateIntrinsicContentSize() {
        super.invalidateIntrinsicContentSize()
        shownBy?.sizeAgain(self)
    }

    /// A view of the dynamic class for the collection view's reuse pool: `init(frame: .zero)`,
    /// then the identifier.
    public required convenience init(reuseIdentifier: String?) {
        self.init(frame: .zero)
        self.reuseIdentifier = reuseIdentifier
    }

    /// Called with new attributes — only when they differ from the last applied ones
    /// (`isEqual(_:)`). The view's geometry is already set from them. The default does nothing.
    open func apply(_ layoutAttributes: CollectionViewLayoutAttributes) {}

    /// Called before the view is handed out again by a dequeue. The default does nothing.
    open func prepareForReuse() {}

    /// Called before the collection view changes layouts, with the old and new layouts.
    open func willTransition(from oldLayout: CollectionViewLayout, to newLayout: CollectionViewLayout) {}

    /// Called after the collection view changed layouts.
    open func didTransition(from oldLayout: CollectionViewLayout, to newLayout: CollectionViewLayout) {}

    /// The attributes the view would like (self-sizing): the default returns `layoutAttributes`
    /// (a copy the view may change).
    open func preferredLayoutAttributesFitting(_ layoutAttributes: CollectionViewLayoutAttributes)
        -> CollectionViewLayoutAttributes
    {
        layoutAttributes
    }

    /// Applies attributes if they differ from the last applied ones; returns whether they did.
    /// The view keeps a copy, so a layout that later changes its own objects does not change
    /// what the view was given.
    @discardableResult
    final func applyIfChanged(_ attributes: CollectionViewLayoutAttributes) -> Bool {
        if let current = appliedLayoutAttributes, current.isEqualAttributes(attributes) { return false }
        let copy = attributes.snapshot()
        appliedLayoutAttributes = copy
        applyCount += 1
        bounds = CGRect(origin: bounds.origin, size: copy.size)
        center = copy.center
        transform3D = copy.transform3D
        alpha = copy.alpha
        isHidden = copy.isHidden
        apply(copy)
        return true
    }

    final func recycle() {
        shownBy = nil
        // A cell waiting for reuse is not updated: it is, once shown again.
        (self as? CollectionViewCell)?.changeState(then: .none) { cell in
            cell.isSwipedItem = false
            cell.isFocusedItem = false
            cell.isExpandedItem = false
        }
        reuseCount += 1
        appliedLayoutAttributes = nil
        prepareForReuse()
    }
}

/// A cell (`UICollectionViewCell`): a reusable view with a content view for what it shows.
open class CollectionViewCell: CollectionReusableView {
    /// The view that holds the cell's content, sized to the cell — at once, as UIKit's
    /// autoresizing content view is, whenever the cell's size changes.
    public var contentView: View {
        if let storedContentView { return storedContentView }
        let view = View(frame: CGRect(origin: .zero, size: bounds.size))
        addSubview(view)
        storedContentView = view
        return view
    }
    private var storedContentView: View?

    /// Whether `view` is the cell's content view.
    func holdsContentView(_ view: View) -> Bool { storedContentView === view }

    /// What the cell shows, as a value (`contentConfiguration`): setting it makes the cell's
    /// content view from it — or hands it to the content view there, when that view was made
    /// from one of its kind (``ContentView/supports(_:)``). `nil` gives the cell a plain content
    /// view again.
    open var contentConfiguration: ContentConfiguration? {
        didSet { showContentConfiguration() }
    }
    /// Whether a change of the cell's state updates its ``contentConfiguration`` for the new
    /// state (`updated(for:)`) before ``updateConfiguration(using:)``. Default `true`.
    open var automaticallyUpdatesContentConfiguration = true
    /// The cell's background as a value (`backgroundConfiguration`), which a renderer draws.
    open var backgroundConfiguration: BackgroundConfiguration?
    /// Whether a change of the cell's state updates its ``backgroundConfiguration`` for the new
    /// state. Default `true`.
    open var automaticallyUpdatesBackgroundConfiguration = true

    /// Makes or updates the content view for ``contentConfiguration``.
    private func showContentConfiguration() {
        guard let configuration = contentConfiguration else {
            if storedContentView is ContentView { replaceContentView(with: View(frame: CGRect(origin: .zero, size: bounds.size))) }
            return
        }
        if let view = storedContentView as? View & ContentView, view.supports(configuration) {
            view.configuration = configuration
            return
        }
        let view = configuration.makeContentView()
        view.frame = CGRect(origin: .zero, size: bounds.size)
        replaceContentView(with: view)
    }

    private func replaceContentView(with view: View) {
        storedContentView?.removeFromSuperview()
        addSubview(view)
        storedContentView = view
        contentViewDidChange()
    }

    /// Called when the content view was replaced (a subclass lays it out again).
    func contentViewDidChange() {}
    /// A view drawn behind the content.
    open var backgroundView: View?
    /// A view drawn behind the content while the cell is selected.
    open var selectedBackgroundView: View?
    /// Whether the cell is selected.
    open var isSelected = false {
        didSet { if isSelected != oldValue { setNeedsUpdateConfiguration() } }
    }
    /// Whether the cell is highlighted.
    open var isHighlighted = false {
        didSet { if isHighlighted != oldValue { setNeedsUpdateConfiguration() } }
    }
    /// Whether the collection view is editing and its delegate lets this cell's item be edited:
    /// set by the collection view.
    var isEditingItem = false {
        didSet { if isEditingItem != oldValue { setNeedsUpdateConfiguration() } }
    }
    /// Whether the cell's item has focus (``CollectionView/moveFocus(_:)``).
    var isFocusedItem = false {
        didSet { if isFocusedItem != oldValue { setNeedsUpdateConfiguration() } }
    }
    /// Whether a swipe shows the cell's actions (``CollectionView/performSwipeAction(at:forItemAt:edge:fullSwipe:)``).
    var isSwipedItem = false {
        didSet { if isSwipedItem != oldValue { setNeedsUpdateConfiguration() } }
    }
    /// Whether the cell's item is expanded in its section's outline (a diffable data source's).
    var isExpandedItem = false {
        didSet { if isExpandedItem != oldValue { setNeedsUpdateConfiguration() } }
    }

    /// Whether the collection view is setting several parts of the state together, and whether
    /// one of them changed meanwhile (see ``changeState(then:_:)``).
    private var gatheringChanges = false
    private var changedWhileGathering = false

    /// What follows a change of several parts of the state at once.
    enum UpdateAfterChanges { case once, ifChanged, none }

    /// Sets several parts of the cell's state together (`change`), then updates its
    /// configuration once — always (`.once`: before the cell is shown), when a part changed, or
    /// not at all (a cell put away for reuse).
    func changeState(then update: UpdateAfterChanges, _ change: (CollectionViewCell) -> Void) {
        let outer = gatheringChanges
        gatheringChanges = true
        change(self)
        gatheringChanges = outer
        guard !outer else { return }
        let changed = changedWhileGathering
        changedWhileGathering = false
        if update == .once || (update == .ifChanged && changed) { setNeedsUpdateConfiguration() }
    }

    /// Called with the cell and its state whenever the state changes, after
    /// ``updateConfiguration(using:)`` (`UICollectionViewCell.ConfigurationUpdateHandler`).
    public typealias ConfigurationUpdateHandler = (_ cell: CollectionViewCell, _ state: CellConfigurationState) -> Void

    /// What to do with a new state instead of overriding ``updateConfiguration(using:)``: set
    /// the cell's configuration for it. Setting it runs it at once with the current state.
    open var configurationUpdateHandler: ConfigurationUpdateHandler? {
        didSet { setNeedsUpdateConfiguration() }
    }

    /// The cell's state now: its traits, selection, highlight and editing.
    open var configurationState: CellConfigurationState {
        var state = CellConfigurationState(traitCollection: traitCollection)
        state.isSelected = isSelected
        state.isHighlighted = isHighlighted
        state.isEditing = isEditingItem
        state.isSwiped = isSwipedItem
        state.isFocused = isFocusedItem
        state.isExpanded = isExpandedItem
        return state
    }

    /// Asks the cell to update its configuration for its current state. The collection view
    /// calls it when the state changes and before the cell is shown; headless, the update runs
    /// at once (UIKit may gather requests into one update before the next frame, which shows the
    /// same).
    open func setNeedsUpdateConfiguration() {
        if gatheringChanges {
            changedWhileGathering = true
            return
        }
        let state = configurationState
        if automaticallyUpdatesContentConfiguration, let configuration = contentConfiguration {
            contentConfiguration = configuration.updated(for: state)
        }
        if automaticallyUpdatesBackgroundConfiguration, let background = backgroundConfiguration {
            backgroundConfiguration = background.updated(for: state)
        }
        updateConfiguration(using: state)
        configurationUpdateHandler?(self, state)
    }

    /// Updates the cell's configuration for `state`: override it (calling `super`) in a
    /// subclass, or set ``configurationUpdateHandler``. Call ``setNeedsUpdateConfiguration()``
    /// rather than this.
    open func updateConfiguration(using state: CellConfigurationState) {}

    override func boundsDidChange(from oldBounds: CGRect) {
        super.boundsDidChange(from: oldBounds)
        guard let content = storedContentView, bounds.size != oldBounds.size else { return }
        // Autoresizing: the content view keeps its margins to the cell's edges, whatever its
        // transform (its bounds grow, and its center moves by its anchor's share).
        let dw = bounds.width - oldBounds.width, dh = bounds.height - oldBounds.height
        var contentBounds = content.bounds
        contentBounds.size = CGSize(width: contentBounds.width + dw, height: contentBounds.height + dh)
        content.bounds = contentBounds
        content.center = CGPoint(x: content.center.x + dw * content.anchor.x, y: content.center.y + dh * content.anchor.y)
    }
}

/// The views waiting to be reused, by kind and identifier. A class, so that taking a view out on
/// the per-cell path is not a checked mutation of the collection view's stored properties.
///
/// Each identifier has a slot (a class, so that taking a view out needs no copy of the list);
/// the slot used last is remembered, since a collection view mostly dequeues one identifier
/// over and over and hashing the identifier is the largest cost here.
final class ReusePool {
    /// What a waiting view is: a cell, a supplementary view of a kind, or a decoration view of a
    /// kind. A supplementary and a decoration view of one kind never share a queue.
    enum Kind: Hashable {
        case cell
        case supplementary(String)
        case decoration(String)

        /// The kind of view that shows `element`.
        init(_ element: ElementID) {
            switch element.category {
            case .cell: self = .cell
            case .supplementaryView: self = .supplementary(element.kind ?? "")
            case .decorationView: self = .decoration(element.kind ?? "")
            }
        }
    }

    /// Which views a key names: views of one kind with one identifier.
    struct Key: Hashable {
        var kind: Kind
        var identifier: String
    }

    final class Slot {
        let type: CollectionReusableView.Type
        let registered: Bool
        var waiting: [CollectionReusableView] = []
        init(type: CollectionReusableView.Type, registered: Bool) {
            self.type = type
            self.registered = registered
        }
    }

    private var slots: [Key: Slot] = [:]
    private var lastKey: Key?
    private var lastSlot: Slot?
    /// How many views were created (not reused).
    private(set) var created = 0

    func registerCell(_ type: CollectionViewCell.Type, _ identifier: String) {
        register(type, Key(kind: .cell, identifier: identifier))
    }

    func registerSupplementary(_ type: CollectionReusableView.Type, kind: String, _ identifier: String) {
        register(type, Key(kind: .supplementary(kind), identifier: identifier))
    }

    /// Forgets the class registered for `identifier`: later dequeues give plain views.
    func unregister(_ kind: Kind, _ identifier: String) {
        slots[Key(kind: kind, identifier: identifier)] = nil
        lastKey = nil
        lastSlot = nil
    }

    /// Whether a class is registered for views of `kind` with `identifier`.
    func isRegistered(_ kind: Kind, _ identifier: String) -> Bool {
        slots[Key(kind: kind, identifier: identifier)]?.registered ?? false
    }

    private func register(_ type: CollectionReusableView.Type, _ key: Key) {
        let slot = Slot(type: type, registered: true)
        slot.waiting = slots[key]?.waiting.filter { Swift.type(of: $0) == type } ?? []
        slots[key] = slot
        lastKey = nil
        lastSlot = nil
    }

    private func slot(_ key: Key, default type: CollectionReusableView.Type) -> Slot {
        if let lastSlot, lastKey == key { return lastSlot }
        let slot =
            slots[key]
            ?? {
                let made = Slot(type: type, registered: false)
                slots[key] = made
                return made
            }()
        lastKey = key
        lastSlot = slot
        return slot
    }

    /// The cell that `reconfigureItems(at:)` is asking the data source about: the next dequeue
    /// of its identifier returns it as it is.
    var reconfiguring: CollectionViewCell?

    /// A cell for `identifier`, and whether its class was registered.
    func dequeueCell(_ identifier: String) -> (CollectionViewCell, registered: Bool) {
        if let cell = reconfiguring, cell.reuseIdentifier == identifier {
            reconfiguring = nil
            return (cell, true)
        }
        let slot = slot(Key(kind: .cell, identifier: identifier), default: CollectionViewCell.self)
        if let view = slot.waiting.popLast() as? CollectionViewCell {
            view.recycle()
            return (view, slot.registered)
        }
        created += 1
        let cell = (slot.type as? CollectionViewCell.Type ?? CollectionViewCell.self).init(reuseIdentifier: identifier)
        return (cell, slot.registered)
    }

    /// A supplementary or decoration view of `kind` for `identifier`; an unregistered one is of
    /// `type`.
    func dequeue(
        _ kind: Kind, _ identifier: String,
        default type: CollectionReusableView.Type = CollectionReusableView.self
    ) -> CollectionReusableView {
        let slot = slot(Key(kind: kind, identifier: identifier), default: type)
        if let view = slot.waiting.popLast() {
            view.recycle()
            return view
        }
        created += 1
        return slot.type.init(reuseIdentifier: identifier)
    }

    func enqueue(_ view: CollectionReusableView, kind: Kind) {
        slot(Key(kind: kind, identifier: view.reuseIdentifier ?? ""), default: type(of: view)).waiting.append(view)
    }
}
