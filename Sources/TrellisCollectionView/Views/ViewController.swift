import Foundation

/// What a navigation bar shows for a view controller (`UINavigationItem`): headless, kept for
/// the code that sets it.
open class NavigationItem: NSObject {
    open var title: String?
    open var prompt: String?
    open var leftBarButtonItem: BarButtonItem?
    open var rightBarButtonItem: BarButtonItem?
    open var leftBarButtonItems: [BarButtonItem]?
    open var rightBarButtonItems: [BarButtonItem]?
    open var hidesBackButton = false

    public init(title: String) {
        self.title = title
        super.init()
    }

    public override init() {
        super.init()
    }
}

extension TraitCollection {
    /// UIKit's side margin for these traits: 20 points in a regular width, 16 otherwise — a view
    /// controller's least margins and a list cell's.
    var systemSideMargin: CGFloat { horizontalSizeClass == .regular ? 20 : 16 }
}

/// A screen's controller (`UIViewController`): it makes its view when first asked
/// (``loadView()``, then ``viewDidLoad()``), gives that view the system's minimum layout margins —
/// 16 points leading and trailing in a compact width, 20 in a regular one, as UIKit's — and
/// holds child controllers. Headless, nothing appears by itself: ``appear()`` plays what showing
/// the screen does (`viewWillAppear`, a layout pass, `viewDidAppear`).
open class ViewController: NSObject {
    private var loadedView: View?
    private var loading = false

    public override init() {
        super.init()
    }

    /// A controller made from a nib: there are none headless; the view is made by ``loadView()``.
    public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
        super.init()
    }

    /// A controller from an archive: nothing is archived; the view is made by ``loadView()``.
    public required init?(coder: NSCoder) {
        super.init()
    }

    // MARK: The view

    /// The controller's view, made (``loadView()``, ``viewDidLoad()``) the first time it is read.
    open var view: View! {
        get {
            loadViewIfNeeded()
            return loadedView
        }
        set {
            loadedView?.owningViewController = nil
            loadedView = newValue
            newValue?.owningViewController = self
            newValue?.becameRootView()
            newValue?.marginsChanged()
        }
    }

    /// The view, if it was made; never makes it.
    open var viewIfLoaded: View? { loadedView }

    /// Whether the view was made.
    open var isViewLoaded: Bool { loadedView != nil }

    /// Makes the view: by default a plain view the size of the main screen. Override to make
    /// another (set ``view``); don't call `super` then.
    open func loadView() {
        view = View(frame: Screen.main.bounds)
    }

    /// Makes the view if it was not made yet, then calls ``viewDidLoad()``.
    open func loadViewIfNeeded() {
        guard loadedView == nil, !loading else { return }
        loading = true
        loadView()
        if loadedView == nil { view = View(frame: Screen.main.bounds) }
        loading = false
        viewDidLoad()
    }

    /// The view was made.
    open func viewDidLoad() {}
    /// The view is about to be shown.
    open func viewWillAppear(_ animated: Bool) {}
    /// The view is shown.
    open func viewDidAppear(_ animated: Bool) {}
    /// The view is about to be hidden.
    open func viewWillDisappear(_ animated: Bool) {}
    /// The view is hidden.
    open func viewDidDisappear(_ animated: Bool) {}
    /// The view is about to lay out its subviews.
    open func viewWillLayoutSubviews() {}
    /// The view laid out its subviews.
    open func viewDidLayoutSubviews() {}

    /// Plays what showing the screen does: the view is made if needed, `viewWillAppear(false)`,
    /// a layout pass of the view and its subviews (`viewWillLayoutSubviews`,
    /// `viewDidLayoutSubviews` around it), `viewDidAppear(false)`.
    open func appear() {
        loadViewIfNeeded()
        viewWillAppear(false)
        viewWillLayoutSubviews()
        layOut(view)
        viewDidLayoutSubviews()
        viewDidAppear(false)
    }

    private func layOut(_ view: View) {
        view.layoutIfNeeded()
        for subview in view.subviews { layOut(subview) }
    }

    /// The title a navigation bar shows (and the navigation item's, when that has none).
    open var title: String? {
        didSet { if navigationItem.title == nil || navigationItem.title == oldValue { navigationItem.title = title } }
    }

    /// What a navigation bar shows for the controller.
    open private(set) lazy var navigationItem = NavigationItem()

    /// The navigation controller whose stack holds this controller.
    open var navigationController: NavigationController? {
        var current = parent
        while let controller = current {
            if let navigation = controller as? NavigationController { return navigation }
            current = controller.parent
        }
        return nil
    }

    /// The view's traits (the main screen's until the view is made).
    open var traitCollection: TraitCollection { loadedView?.traitCollection ?? Screen.main.traitCollection }

    /// The least leading and trailing margins the view has: 20 points in a regular width, 16
    /// otherwise, none above or below.
    open var systemMinimumLayoutMargins: DirectionalEdgeInsets {
        let side = traitCollection.systemSideMargin
        return DirectionalEdgeInsets(top: 0, leading: side, bottom: 0, trailing: side)
    }

    /// Whether the view's margins are at least ``systemMinimumLayoutMargins``. Default `true`.
    open var viewRespectsSystemMinimumLayoutMargins = true {
        didSet { loadedView?.marginsChanged() }
    }

    // MARK: Editing

    /// Whether the controller's screen is in editing mode. Setting it calls
    /// ``setEditing(_:animated:)`` without animation.
    open var isEditing: Bool {
        get { editing }
        set { setEditing(newValue, animated: false) }
    }
    private var editing = false

    /// Turns editing mode on or off; ``editButtonItem`` says Done while on and Edit while off.
    /// A subclass passes it on to its views (a collection view controller's collection view).
    open func setEditing(_ editing: Bool, animated: Bool) {
        self.editing = editing
        editButtonItem.title = editing ? "Done" : "Edit"
        editButtonItem.style = editing ? .done : .plain
    }

    /// A bar button item that turns editing mode on and off (``setEditing(_:animated:)``).
    open private(set) lazy var editButtonItem: BarButtonItem = BarButtonItem(title: "Edit", style: .plain, target: self) {
        [unowned self] _ in
        self.setEditing(!self.isEditing, animated: true)
    }

    /// The size the controller would like to be shown at (zero: no preference).
    open var preferredContentSize: CGSize = .zero

    // MARK: Children

    /// The controller this one is a child of.
    open private(set) weak var parent: ViewController?
    /// The child controllers, in the order added.
    open private(set) var children: [ViewController] = []

    /// Adds `child` (removing it from its old parent). Add its view yourself, then call
    /// `child.didMove(toParent: self)`.
    open func addChild(_ child: ViewController) {
        guard child !== self else { return }
        child.removeFromParent()
        child.willMove(toParent: self)
        children.append(child)
        child.parent = self
    }

    /// Removes the controller from its parent.
    open func removeFromParent() {
        guard let parent else { return }
        parent.children.removeAll { $0 === self }
        self.parent = nil
    }

    /// The controller is about to be added to or removed from (`nil`) a parent.
    open func willMove(toParent parent: ViewController?) {}
    /// The controller was added to or removed from (`nil`) a parent.
    open func didMove(toParent parent: ViewController?) {}
}

/// A stack of view controllers (`UINavigationController`): the top one is shown. Headless, a push
/// or a pop changes the stack at once, and the controller pushed appears (``ViewController/appear()``).
open class NavigationController: ViewController {
    /// The stack, the root first.
    open private(set) var viewControllers: [ViewController] = []

    public init(rootViewController: ViewController) {
        super.init()
        push(rootViewController)
    }

    public override init() {
        super.init()
    }

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    /// The controller on top.
    open var topViewController: ViewController? { viewControllers.last }

    /// Pushes `viewController` on the stack; it appears.
    open func pushViewController(_ viewController: ViewController, animated: Bool) {
        push(viewController)
        viewController.appear()
    }

    private func push(_ viewController: ViewController) {
        addChild(viewController)
        viewControllers.append(viewController)
        viewController.didMove(toParent: self)
    }

    /// Pops the top controller (not the root); returns it.
    @discardableResult
    open func popViewController(animated: Bool) -> ViewController? {
        guard viewControllers.count > 1, let top = viewControllers.popLast() else { return nil }
        top.willMove(toParent: nil)
        top.removeFromParent()
        return top
    }
}
