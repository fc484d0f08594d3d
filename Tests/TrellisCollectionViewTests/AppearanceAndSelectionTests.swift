import Testing
import TrellisTestSupport

@_spi(Instrumentation) @testable import TrellisCollectionView

private func ip(_ section: Int, _ item: Int) -> IndexPath { IndexPath(item: item, section: section) }

@Suite("Colours, layers and animations")
struct AppearanceTests {
    @Test("colours keep their components and convert as UIKit's do")
    func colours() {
        let orange: Color = .orange
        #expect(orange.hexString == "#FF8000" && Color.systemBlue.hexString == "#007AFF")
        #expect(Color.clear.hexString == "#00000000" && Color(white: 0.5, alpha: 1).hexString == "#808080")
        #expect(Color(hue: 0.5, saturation: 1, brightness: 1, alpha: 1) == Color.cyan)
        #expect(Color(hue: 1.0 / 3, saturation: 1, brightness: 1, alpha: 1).hexString == "#00FF00")
        var h: CGFloat = 0, s: CGFloat = 0, b: CGFloat = 0, a: CGFloat = 0
        Color(red: 1, green: 0.5, blue: 0, alpha: 0.25).getHue(&h, saturation: &s, brightness: &b, alpha: &a)
        #expect(abs(h - 1.0 / 12) < 1e-12 && s == 1 && b == 1 && a == 0.25)
        var w: CGFloat = 0
        #expect(Color.gray.getWhite(&w, alpha: &a) && w == 0.5)
        #expect(!Color.red.getWhite(&w, alpha: &a))
        #expect(Color.red.withAlphaComponent(0.5).alpha == 0.5)
        #expect(Color(cgColor: Color.systemGray4.cgColor) == Color.systemGray4)
        #expect(Color(cgColor: CGColor(gray: 0.25, alpha: 1)) == Color(white: 0.25, alpha: 1))
        #expect(Color.red != Color.blue && Color.red.hash == Color(red: 1, green: 0, blue: 0, alpha: 1).hash)
    }

    @Test("a view's layer is the view: geometry, transform, opacity, colour and clipping are shared")
    func backingLayer() {
        let view = View(frame: CGRect(x: 10, y: 10, width: 80, height: 40))
        let layer = view.layer
        #expect(layer === view.layer)
        #expect(layer.frame == view.frame && layer.position == CGPoint(x: 50, y: 30))
        layer.transform = Transform3DMakeScale(0.5, 0.5, 1)
        #expect(view.transform == CGAffineTransform(scaleX: 0.5, y: 0.5))
        #expect(view.frame == CGRect(x: 30, y: 20, width: 40, height: 20))
        layer.transform = Transform3DMakeRotation(.pi / 4, 0, 1, 0)
        #expect(!Transform3DIsAffine(layer.transform), "the 3D transform is kept whole")
        view.transform = .identity
        #expect(Transform3DIsIdentity(layer.transform))
        layer.opacity = 0.5
        #expect(view.alpha == 0.5)
        view.isHidden = true
        #expect(layer.isHidden)
        view.backgroundColor = .systemRed
        #expect(layer.backgroundColor == Color.systemRed.cgColor)
        layer.backgroundColor = nil
        #expect(view.backgroundColor == nil)
        layer.masksToBounds = true
        #expect(view.clipsToBounds)
        layer.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        #expect(view.frame == CGRect(x: 0, y: 0, width: 10, height: 10))
    }

    @Test("layers of their own keep their properties and form a tree")
    func ownLayers() {
        let root = CALayer(), a = CALayer(), b = CALayer()
        a.frame = CGRect(x: 0, y: 0, width: 20, height: 10)
        #expect(a.position == CGPoint(x: 10, y: 5) && a.bounds.size == CGSize(width: 20, height: 10))
        root.addSublayer(a)
        root.insertSublayer(b, below: a)
        #expect(root.sublayers?.map(ObjectIdentifier.init) == [ObjectIdentifier(b), ObjectIdentifier(a)])
        a.removeFromSuperlayer()
        #expect(root.sublayers?.count == 1 && a.superlayer == nil)
        b.cornerRadius = 4
        b.maskedCorners = [.layerMinXMinYCorner]
        let copy = CALayer(layer: b)
        #expect(copy.cornerRadius == 4 && copy.maskedCorners == [.layerMinXMinYCorner])
        root.sublayers = nil
        #expect(root.sublayers == nil && b.superlayer == nil)
    }

    @Test("a tint is inherited from the superview until set")
    func tint() {
        let parent = View(frame: .zero), child = View(frame: .zero)
        parent.addSubview(child)
        #expect(child.tintColor == Color.systemBlue)
        parent.tintColor = .systemPink
        #expect(child.tintColor == Color.systemPink)
    }

    @Test("animations land at once and complete")
    func animations() {
        let view = View(frame: .zero)
        var finished: [Bool] = []
        View.animate(withDuration: 0.3, animations: { view.alpha = 0 }) { finished.append($0) }
        View.animate(
            withDuration: 0.3, delay: 0.1, usingSpringWithDamping: 0.7, initialSpringVelocity: 0,
            options: [.curveEaseInOut], animations: { view.alpha = 0.5 }, completion: { finished.append($0) })
        View.performWithoutAnimation { view.isHidden = true }
        #expect(view.alpha == 0.5 && view.isHidden && finished == [true, true])
    }

    @Test("NSIndexPath and NSValue take UIKit's spellings")
    func foundationAdditions() {
        let path = NSIndexPath(item: 3, section: 2)
        #expect(path.section == 2 && path.item == 3 && path.row == 3)
        #expect(path as IndexPath == IndexPath(item: 3, section: 2))
        let rect = CGRect(x: 1, y: 2, width: 3, height: 4)
        #expect(NSValue(cgRect: rect).cgRectValue == rect)
        #expect(NSValue(cgPoint: CGPoint(x: 5, y: 6)).cgPointValue == CGPoint(x: 5, y: 6))
        #expect(NSValue(cgSize: CGSize(width: 7, height: 8)).cgSizeValue == CGSize(width: 7, height: 8))
    }
}

@Suite("Selection")
struct SelectionTests {
    final class Recorder: CollectionViewDelegate {
        var events: [String] = []
        var refuseHighlight: Set<IndexPath> = []
        var refuseDeselect: Set<IndexPath> = []
        func collectionView(_ collectionView: CollectionView, shouldHighlightItemAt indexPath: IndexPath) -> Bool {
            !refuseHighlight.contains(indexPath)
        }
        func collectionView(_ collectionView: CollectionView, didHighlightItemAt indexPath: IndexPath) {
            events.append("highlight \(indexPath.item) \(collectionView.cellForItem(at: indexPath)?.isHighlighted == true)")
        }
        func collectionView(_ collectionView: CollectionView, didUnhighlightItemAt indexPath: IndexPath) {
            events.append("unhighlight \(indexPath.item)")
        }
        func collectionView(_ collectionView: CollectionView, shouldDeselectItemAt indexPath: IndexPath) -> Bool {
            !refuseDeselect.contains(indexPath)
        }
        func collectionView(_ collectionView: CollectionView, didSelectItemAt indexPath: IndexPath) {
            events.append("select \(indexPath.item)")
        }
        func collectionView(_ collectionView: CollectionView, didDeselectItemAt indexPath: IndexPath) {
            events.append("deselect \(indexPath.item)")
        }
    }

    func makeView() -> (CollectionView, ItemsDataSource, Recorder) {
        let (view, data) = makeCollectionView([Array(0..<12)])
        let recorder = Recorder()
        view.delegate = recorder
        view.layoutIfNeeded()
        return (view, data, recorder)
    }

    @Test("a tap highlights, then selects; the highlight can be refused and stops everything")
    func taps() {
        let (view, data, recorder) = makeView()
        defer { withExtendedLifetime((data, recorder)) {} }
        #expect(view.tapItem(at: ip(0, 1)))
        #expect(recorder.events == ["highlight 1 true", "unhighlight 1", "select 1"])
        #expect(view.cellForItem(at: ip(0, 1))?.isSelected == true && view.cellForItem(at: ip(0, 1))?.isHighlighted == false)
        recorder.refuseHighlight = [ip(0, 2)]
        #expect(!view.tapItem(at: ip(0, 2)))
        #expect(view.indexPathsForSelectedItems == [ip(0, 1)])
        #expect(!view.tapItem(at: ip(0, 1)), "the selected item of a single selection stays selected")
        #expect(!view.tapItem(at: ip(0, 99)) && !view.tapItem(at: ip(-1, 0)))
        view.allowsMultipleSelection = true
        view.tapItem(at: ip(0, 3))
        recorder.refuseDeselect = [ip(0, 3)]
        #expect(!view.tapItem(at: ip(0, 3)))
        #expect(view.indexPathsForSelectedItems == [ip(0, 1), ip(0, 3)])
        view.allowsMultipleSelection = false
        #expect(view.indexPathsForSelectedItems == [ip(0, 3)], "the most recent selection is kept")
        view.allowsSelection = false
        #expect(view.indexPathsForSelectedItems == [] && view.cellForItem(at: ip(0, 3))?.isSelected == false)
        recorder.events = []
        #expect(!view.tapItem(at: ip(0, 4)))
        #expect(recorder.events == ["highlight 4 true", "unhighlight 4"], "highlighting still happens")
    }

    @Test("the selection follows moves, and deletes, reloads and reloadData clear it")
    func throughUpdates() {
        let (view, data, recorder) = makeView()
        defer { withExtendedLifetime((data, recorder)) {} }
        view.allowsMultipleSelection = true
        for item in [1, 4, 7] { view.selectItem(at: ip(0, item), animated: false, scrollPosition: []) }
        view.selectItem(at: ip(0, 50), animated: false, scrollPosition: [])
        #expect(recorder.events.isEmpty, "selecting in code tells nobody")
        view.performBatchUpdates(
            {
                data.sections[0].remove(at: 1)
                data.sections[0].insert(100, at: 0)
                view.deleteItems(at: [ip(0, 1)])
                view.insertItems(at: [ip(0, 0)])
            }, completion: nil)
        view.completeTransition()
        #expect(view.indexPathsForSelectedItems == [ip(0, 4), ip(0, 7)])
        view.reloadItems(at: [ip(0, 4)])
        view.completeTransition()
        #expect(view.indexPathsForSelectedItems == [ip(0, 7)])
        #expect(view.cellForItem(at: ip(0, 7))?.isSelected == true)
        view.performBatchUpdates(
            {
                let moved = data.sections[0].remove(at: 7)
                data.sections[0].insert(moved, at: 0)
                view.moveItem(at: ip(0, 7), to: ip(0, 0))
            }, completion: nil)
        view.completeTransition()
        #expect(view.indexPathsForSelectedItems == [ip(0, 0)])
        #expect(view.cellForItem(at: ip(0, 0))?.isSelected == true && view.cellForItem(at: ip(0, 1))?.isSelected == false)
        view.selectItem(at: nil, animated: false, scrollPosition: [])
        #expect(view.indexPathsForSelectedItems == [])
        view.selectItem(at: ip(0, 2), animated: false, scrollPosition: [])
        view.reloadData()
        #expect(view.indexPathsForSelectedItems == [])
    }

    @Test("selecting an item out of view scrolls it into view when asked, and its cell comes selected")
    func offscreen() {
        let (view, data, recorder) = makeView()
        defer { withExtendedLifetime((data, recorder)) {} }
        view.selectItem(at: ip(0, 11), animated: false, scrollPosition: .bottom)
        view.layoutIfNeeded()
        #expect(view.cellForItem(at: ip(0, 11))?.isSelected == true)
        view.deselectItem(at: ip(0, 11), animated: false)
        #expect(view.cellForItem(at: ip(0, 11))?.isSelected == false && recorder.events.isEmpty)
    }
}

@Suite("Cell and supplementary registrations")
struct RegistrationTests {
    final class Tag: CollectionViewCell { var text = "" }
    final class Caption: CollectionReusableView { var text = "" }

    final class Source: CollectionViewDataSource {
        let names = ["ant", "bee", "cat"]
        let tags = CollectionView.CellRegistration<Tag, String> { cell, indexPath, name in cell.text = "\(indexPath.item):\(name)" }
        let other = CollectionView.CellRegistration<Tag, String> { cell, _, name in cell.text = name.uppercased() }
        let captions = CollectionView.SupplementaryRegistration<Caption>(elementKind: CollectionView.elementKindSectionHeader) {
            view, kind, indexPath in view.text = "\(kind) \(indexPath.section)"
        }
        func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { names.count }
        func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
            collectionView.dequeueConfiguredReusableCell(
                using: indexPath.item == 2 ? other : tags, for: indexPath,
                item: names[indexPath.item])
        }
        func collectionView(
            _ collectionView: CollectionView, viewForSupplementaryElementOfKind kind: String,
            at indexPath: IndexPath
        ) -> CollectionReusableView {
            collectionView.dequeueConfiguredReusableSupplementary(using: captions, for: indexPath)
        }
    }

    @Test("registrations register their class on first use and configure every dequeued view")
    func registrations() {
        let flow = CollectionViewFlowLayout()
        flow.headerReferenceSize = CGSize(width: 0, height: 20)
        let view = CollectionView(frame: CGRect(x: 0, y: 0, width: 320, height: 480), collectionViewLayout: flow)
        let source = Source()
        view.dataSource = source
        view.layoutIfNeeded()
        let texts = view.visibleCells.map { ($0 as? Tag)?.text ?? "-" }
        #expect(texts == ["0:ant", "1:bee", "CAT"])
        let header = view.supplementaryView(forElementKind: CollectionView.elementKindSectionHeader, at: ip(0, 0))
        #expect((header as? Caption)?.text == "\(CollectionView.elementKindSectionHeader) 0")
        let created = view.createdViewCount
        view.reloadData()
        view.layoutIfNeeded()
        #expect(view.createdViewCount == created, "reloaded cells come from the pool")
        #expect(view.visibleCells.map { ($0 as? Tag)?.text ?? "-" } == ["0:ant", "1:bee", "CAT"])
        #expect(view.diagnostics.isEmpty, "\(view.diagnostics)")
        let unconfigured = view.dequeueConfiguredReusableCell(using: source.tags, for: ip(0, 0), item: nil)
        #expect(unconfigured.text == "" && view.diagnostics.last == .noItemToConfigure(ip(0, 0)))
    }
}

@Suite("Anchor points")
struct AnchorPointTests {
    @Test("moving the anchor point moves the frame and keeps the position, as in Core Animation")
    func anchor() {
        let view = View(frame: CGRect(x: 0, y: 0, width: 100, height: 50))
        view.layer.anchorPoint = CGPoint(x: 1, y: 0.5)
        #expect(view.center == CGPoint(x: 50, y: 25))
        #expect(view.frame == CGRect(x: -50, y: 0, width: 100, height: 50))
        // The usual fix-up: move the position by the anchor's shift so that the frame stays.
        view.layer.position = CGPoint(x: 100, y: 25)
        #expect(view.frame == CGRect(x: 0, y: 0, width: 100, height: 50))
        // A transform turns around the anchor: scaling by half keeps the right edge.
        view.transform = CGAffineTransform(scaleX: 0.5, y: 0.5)
        #expect(view.frame == CGRect(x: 50, y: 12.5, width: 50, height: 25))
        view.transform = .identity
        view.frame = CGRect(x: 10, y: 10, width: 20, height: 20)
        #expect(view.center == CGPoint(x: 30, y: 20), "setting the frame places the anchor")
        let own = CALayer()
        own.anchorPoint = .zero
        own.frame = CGRect(x: 5, y: 5, width: 10, height: 10)
        #expect(own.position == CGPoint(x: 5, y: 5))
        let copy = CALayer(layer: own)
        #expect(copy.frame == own.frame && copy.anchorPoint == .zero)
    }
}

@Suite("Content views")
struct ContentViewTests {
    @Test("a cell's content view follows the cell's size at once, keeping its margins")
    func autoresizing() {
        let cell = CollectionViewCell(frame: CGRect(x: 0, y: 0, width: 100, height: 50))
        #expect(cell.contentView.frame == CGRect(x: 0, y: 0, width: 100, height: 50))
        cell.frame = CGRect(x: 20, y: 20, width: 300, height: 80)
        #expect(cell.contentView.frame == CGRect(x: 0, y: 0, width: 300, height: 80))
        cell.contentView.frame = CGRect(x: 10, y: 5, width: 280, height: 70)
        cell.bounds.size = CGSize(width: 200, height: 60)
        #expect(cell.contentView.frame == CGRect(x: 10, y: 5, width: 180, height: 50))
        cell.contentView.transform = CGAffineTransform(scaleX: 0.5, y: 0.5)
        cell.bounds.size = CGSize(width: 220, height: 60)
        #expect(cell.contentView.bounds.size == CGSize(width: 200, height: 50), "bounds grow under a transform")
    }
}

@Suite("Traits")
struct TraitTests {
    @Test("views start with the main screen's traits; merged traits keep what a change leaves out; text sizes are ordered")
    func traits() {
        let view = View(frame: .zero)
        #expect(view.traitCollection.userInterfaceStyle == .light && view.traitCollection.userInterfaceIdiom == .phone)
        #expect(view.traitCollection.preferredContentSizeCategory == .large)
        view.traitCollection = TraitCollection(traitsFrom: [view.traitCollection, TraitCollection(userInterfaceStyle: .dark)])
        #expect(view.traitCollection.userInterfaceStyle == .dark && view.traitCollection.displayScale == 2)
        view.traitCollection = TraitCollection(traitsFrom: [
            view.traitCollection,
            TraitCollection(preferredContentSizeCategory: .accessibilityLarge),
        ])
        #expect(view.traitCollection.userInterfaceStyle == .dark)
        #expect(view.traitCollection.preferredContentSizeCategory.isAccessibilityCategory)
        #expect(ContentSizeCategory.extraSmall < .large && ContentSizeCategory.extraExtraExtraLarge < .accessibilityMedium)
        #expect(!ContentSizeCategory.extraExtraExtraLarge.isAccessibilityCategory)
        #expect(Device.current.userInterfaceIdiom == .phone)
        #expect(
            TraitCollection(traitsFrom: [TraitCollection(userInterfaceStyle: .dark), TraitCollection(displayScale: 3)])
                .containsTraits(in: TraitCollection(userInterfaceStyle: .dark)))
    }
}
