import Foundation
import Testing

@testable import TrellisCollectionView

/// A screen that records its life: loads a collection view of `count` items as a subview of its
/// view, as Apple's samples do.
final class RecordingScreen: ViewController {
    var events: [String] = []
    var collectionView: CollectionView!
    let data = ItemsDataSource([Array(0..<5)])

    override func viewDidLoad() {
        super.viewDidLoad()
        events.append("load")
        collectionView = CollectionView(frame: view.bounds, collectionViewLayout: CollectionViewFlowLayout())
        collectionView.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        collectionView.register(RecordingCell.self, forCellWithReuseIdentifier: "cell")
        collectionView.dataSource = data
        view.addSubview(collectionView)
    }

    override func viewWillAppear(_ animated: Bool) { events.append("will appear") }
    override func viewWillLayoutSubviews() { events.append("will lay out") }
    override func viewDidLayoutSubviews() { events.append("did lay out") }
    override func viewDidAppear(_ animated: Bool) { events.append("did appear") }
}

/// A collection view controller subclass written as for UIKit: overrides of the data source and
/// delegate methods.
final class NumbersController: CollectionViewController {
    var selected: [IndexPath] = []
    var scrolled = 0

    override func viewDidLoad() {
        super.viewDidLoad()
        collectionView.register(RecordingCell.self, forCellWithReuseIdentifier: "cell")
    }

    override func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { 12 }

    override func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
        collectionView.dequeueReusableCell(withReuseIdentifier: "cell", for: indexPath)
    }

    override func collectionView(_ collectionView: CollectionView, didSelectItemAt indexPath: IndexPath) { selected.append(indexPath) }

    override func scrollViewDidScroll(_ scrollView: ScrollView) { scrolled += 1 }
}

@Suite("View controllers and layout margins")
struct ViewControllerTests {
    @Test("a view controller's view has the system's minimum margins: 16 at the sides in a compact width, 20 in a regular one")
    func systemMinimum() {
        let screen = ViewController()
        #expect(!screen.isViewLoaded)
        #expect(screen.view.layoutMargins == EdgeInsets(top: 0, left: 16, bottom: 0, right: 16))
        screen.view.traitCollection = TraitCollection(horizontalSizeClass: .regular)
        #expect(screen.view.layoutMargins == EdgeInsets(top: 0, left: 20, bottom: 0, right: 20))
        #expect(screen.systemMinimumLayoutMargins == DirectionalEdgeInsets(top: 0, leading: 20, bottom: 0, trailing: 20))
        // Wider margins asked for are kept; narrower ones are raised to the minimum.
        screen.view.layoutMargins = EdgeInsets(top: 4, left: 30, bottom: 4, right: 2)
        #expect(screen.view.layoutMargins == EdgeInsets(top: 4, left: 30, bottom: 4, right: 20))
        screen.viewRespectsSystemMinimumLayoutMargins = false
        #expect(screen.view.layoutMargins == EdgeInsets(top: 4, left: 30, bottom: 4, right: 2))
        // A plain view keeps UIKit's 8.
        #expect(View(frame: .zero).layoutMargins == EdgeInsets(top: 8, left: 8, bottom: 8, right: 8))
    }

    @Test("margins are measured from the safe area unless told not to")
    func safeArea() {
        let screen = ViewController()
        screen.view.safeAreaInsets = EdgeInsets(top: 47, left: 0, bottom: 34, right: 0)
        #expect(screen.view.layoutMargins == EdgeInsets(top: 47, left: 16, bottom: 34, right: 16))
        screen.view.insetsLayoutMarginsFromSafeArea = false
        #expect(screen.view.layoutMargins == EdgeInsets(top: 0, left: 16, bottom: 0, right: 16))
    }

    @Test("a collection view in a view controller's view takes its margins where they reach into it; a plain view does not")
    func preserved() {
        let screen = RecordingScreen()
        let collectionView = screen.view.subviews[0] as! CollectionView
        #expect(collectionView.preservesSuperviewLayoutMargins)
        #expect(collectionView.layoutMargins == EdgeInsets(top: 8, left: 16, bottom: 8, right: 16))
        // 10 in from the left edge: 16 − 10 = 6 reach in, less than its own 8.
        collectionView.frame = CGRect(x: 10, y: 0, width: 300, height: 400)
        #expect(collectionView.layoutMargins.left == 8 && collectionView.layoutMargins.right == 8, "80 from the right edge")
        let plain = View(frame: screen.view.bounds)
        screen.view.addSubview(plain)
        #expect(plain.layoutMargins.left == 8)
        plain.preservesSuperviewLayoutMargins = true
        #expect(plain.layoutMargins.left == 16)
        // The superview's margins change: the preserving subviews follow.
        screen.view.traitCollection = TraitCollection(horizontalSizeClass: .regular)
        #expect(plain.layoutMargins.left == 20 && collectionView.layoutMargins.left == 10)
    }

    @Test("layout guides: the margins' rectangle, the safe area's, and the readable width centred within the margins")
    func guides() {
        let screen = ViewController()
        let view: View = screen.view
        view.frame = CGRect(x: 0, y: 0, width: 1024, height: 768)
        view.safeAreaInsets = EdgeInsets(top: 24, left: 0, bottom: 20, right: 0)
        view.traitCollection = TraitCollection(horizontalSizeClass: .regular)
        #expect(view.safeAreaLayoutGuide.layoutFrame == CGRect(x: 0, y: 24, width: 1024, height: 724))
        // Margins 20 at the sides (regular), the safe area's above and below.
        #expect(view.layoutMarginsGuide.layoutFrame == CGRect(x: 20, y: 24, width: 984, height: 724))
        // 672 wide, centred: (1024 − 672) / 2 = 176 from each side.
        #expect(view.readableContentGuide.layoutFrame == CGRect(x: 176, y: 24, width: 672, height: 724))
        #expect(view.readableContentGuide === view.readableContentGuide && view.readableContentGuide.owningView === view)
        // Narrower than the readable width: the margins' rectangle.
        view.frame = CGRect(x: 0, y: 0, width: 390, height: 844)
        view.traitCollection = TraitCollection(horizontalSizeClass: .compact)
        #expect(view.readableContentGuide.layoutFrame.minX == 16 && view.readableContentGuide.layoutFrame.width == 358)
        let own = LayoutGuide()
        view.addLayoutGuide(own)
        own.frameForOwnGuide = CGRect(x: 1, y: 2, width: 3, height: 4)
        #expect(view.layoutGuides.count == 1 && own.layoutFrame == CGRect(x: 1, y: 2, width: 3, height: 4))
        view.removeLayoutGuide(own)
        #expect(view.layoutGuides.isEmpty && own.owningView == nil)
    }

    @Test("a view that resizes with its superview takes the change in its flexible parts")
    func autoresizing() {
        let screen = RecordingScreen()
        let collectionView = screen.view.subviews[0]
        let pinned = View(frame: CGRect(x: 300, y: 10, width: 50, height: 20))
        pinned.autoresizingMask = [.flexibleLeftMargin]
        let centred = View(frame: CGRect(x: 95, y: 0, width: 200, height: 20))
        centred.autoresizingMask = [.flexibleLeftMargin, .flexibleRightMargin]
        screen.view.addSubview(pinned)
        screen.view.addSubview(centred)
        screen.view.frame = CGRect(x: 0, y: 0, width: 430, height: 932)
        #expect(collectionView.frame == CGRect(x: 0, y: 0, width: 430, height: 932))
        #expect(pinned.frame == CGRect(x: 340, y: 10, width: 50, height: 20), "the 40 points more go to its left margin")
        // Margins of 95 and 95 share the 40 equally.
        #expect(centred.frame == CGRect(x: 115, y: 0, width: 200, height: 20))
    }

    @Test("the view is made once, when first asked; appearing plays the callbacks in UIKit's order")
    func lifecycle() {
        let screen = RecordingScreen()
        #expect(screen.events.isEmpty && screen.viewIfLoaded == nil)
        screen.appear()
        #expect(screen.events == ["load", "will appear", "will lay out", "did lay out", "did appear"])
        #expect(screen.collectionView.visibleCells.count == 5, "laid out")
        _ = screen.view
        #expect(screen.events.filter { $0 == "load" }.count == 1)
    }

    @Test("a navigation controller's stack: pushed controllers appear and know their navigation controller")
    func navigation() {
        let root = RecordingScreen()
        root.title = "Numbers"
        let navigation = NavigationController(rootViewController: root)
        #expect(root.navigationController === navigation && root.navigationItem.title == "Numbers")
        let detail = RecordingScreen()
        navigation.pushViewController(detail, animated: true)
        #expect(navigation.topViewController === detail && detail.events.last == "did appear")
        #expect(navigation.popViewController(animated: true) === detail && detail.navigationController == nil)
        #expect(navigation.popViewController(animated: true) == nil, "the root stays")
    }

    @Test("a collection view controller is its view's data source and delegate; a subclass's overrides are called")
    func collectionViewController() {
        let controller = NumbersController(collectionViewLayout: CollectionViewFlowLayout())
        controller.appear()
        let collectionView: CollectionView = controller.collectionView
        #expect(controller.view === collectionView && collectionView.numberOfItems(inSection: 0) == 12)
        #expect(collectionView.layoutMargins == EdgeInsets(top: 0, left: 16, bottom: 0, right: 16))
        collectionView.selectItem(at: IndexPath(item: 3, section: 0), animated: false, scrollPosition: [])
        collectionView.tapItem(at: IndexPath(item: 4, section: 0))
        #expect(controller.selected == [IndexPath(item: 4, section: 0)])
        collectionView.contentOffset = CGPoint(x: 0, y: 50)
        #expect(controller.scrolled == 1)
        controller.appear()
        #expect(collectionView.indexPathsForSelectedItems == [], "cleared when it appears again")
        #expect(controller.collectionViewLayout === collectionView.collectionViewLayout)
        // The edit button turns editing on for the controller and its collection view, and back.
        #expect(controller.editButtonItem.title == "Edit" && !collectionView.isEditing)
        controller.editButtonItem.sendAction()
        #expect(controller.isEditing && collectionView.isEditing && controller.editButtonItem.title == "Done")
        controller.isEditing = false
        #expect(!collectionView.isEditing && controller.editButtonItem.title == "Edit" && controller.editButtonItem.style == .plain)
    }
}
