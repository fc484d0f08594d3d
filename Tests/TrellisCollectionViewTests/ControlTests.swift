import Foundation
import Testing
import TrellisCollectionView

/// Target–action without selectors: controls, bar button items and display links, written as
/// `trellis port` writes a `#selector` (a closure that calls the same method).
@Suite("Controls, bar button items and display links")
struct ControlTests {
    final class Player {
        let toggle = Control()
        var link: DisplayLink?
        var items: [BarButtonItem] = []
        var log: [String] = []

        func install() {
            toggle.addTarget(self, action: { [weak self] in self?.toggled($0) }, for: .valueChanged)
            toggle.addTarget(self, action: { [weak self] _ in self?.slid() }, for: [.touchUpInside, .touchUpOutside])
            let done = BarButtonItem(title: "Done", style: .done, target: self, action: { [weak self] in self?.finish($0) })
            let add = BarButtonItem(barButtonSystemItem: .add, target: self, action: { [weak self] _ in self?.add() })
            items = [done, add]
        }

        func toggled(_ sender: Control) { log.append("toggled \(sender.isSelected)") }
        func slid() { log.append("slid") }
        func finish(_ item: BarButtonItem) { log.append("finish \(item.title ?? "")") }
        func add() { log.append("add") }
        func step(_ link: DisplayLink) { log.append("step") }
    }

    @Test("a control sends each event to the actions registered for it, in order, while enabled and while their target lives")
    func control() {
        let player = Player()
        player.install()
        player.toggle.isSelected = true
        player.toggle.sendActions(for: .valueChanged)
        player.toggle.sendActions(for: .touchUpOutside)
        player.toggle.sendActions(for: .editingChanged)
        #expect(player.log == ["toggled true", "slid"])
        #expect(player.toggle.allControlEvents == [.valueChanged, .touchUpInside, .touchUpOutside])
        player.toggle.isEnabled = false
        player.toggle.sendActions(for: .valueChanged)
        #expect(player.log.count == 2)
        player.toggle.isEnabled = true
        player.toggle.removeTarget(player, for: .valueChanged)
        player.toggle.sendActions(for: [.valueChanged, .touchUpInside])
        #expect(player.log == ["toggled true", "slid", "slid"])
        // The target is held weakly: once it is gone, its actions are not called.
        var calls = 0
        let control = Control()
        do {
            let target = NSObject()
            control.addTarget(target, action: { _ in calls += 1 }, for: .primaryActionTriggered)
            control.sendActions(for: .primaryActionTriggered)
        }
        control.sendActions(for: .primaryActionTriggered)
        #expect(calls == 1)
        #expect(Control.Event.valueChanged.rawValue == 1 << 12 && Control.Event.allEditingEvents.contains(.editingChanged))
    }

    @Test("a bar button item calls its action on a tap, with itself, while enabled and while its target lives")
    func barButtonItem() {
        let player = Player()
        player.install()
        player.items.forEach { $0.sendAction() }
        #expect(player.log == ["finish Done", "add"])
        #expect(player.items[1].systemItem == .add && player.items[0].style == .done)
        player.items[0].isEnabled = false
        player.items[0].sendAction()
        #expect(player.log.count == 2)
        var item: BarButtonItem?
        do {
            let target = NSObject()
            item = BarButtonItem(title: "x", style: .plain, target: target, action: { _ in Issue.record("called after its target went") })
        }
        item?.sendAction()
    }

    @Test("a display link calls its action each frame on the run loop it was added to, keeps its target until invalidated, and stops then")
    func displayLink() throws {
        let player = Player()
        let link = DisplayLink(target: player, action: { [weak player] in player?.step($0) })
        link.preferredFramesPerSecond = 120
        #expect(abs(link.duration - 1.0 / 120) < 1e-12)
        link.add(to: .current, forMode: .default)
        let start = CurrentMediaTime()
        // Frames come from the run loop (however slowly a loaded machine runs it).
        let deadline = Date().addingTimeInterval(10)
        while player.log.count < 3, Date() < deadline { RunLoop.current.run(until: Date().addingTimeInterval(0.02)) }
        #expect(player.log.count >= 3, "frames from the run loop: \(player.log.count)")
        #expect(link.timestamp >= start && link.targetTimestamp > link.timestamp)
        link.isPaused = true
        let paused = player.log.count
        RunLoop.current.run(until: Date().addingTimeInterval(0.05))
        #expect(player.log.count == paused)
        link.isPaused = false
        link.invalidate()
        let stopped = player.log.count
        RunLoop.current.run(until: Date().addingTimeInterval(0.05))
        #expect(player.log.count == stopped)
        link.fire()
        #expect(player.log.count == stopped + 1, "fire() plays one frame by hand")
        // The link holds its target until it is invalidated, then lets go of it.
        weak var held: NSObject?
        let other: DisplayLink
        do {
            let target = NSObject()
            held = target
            other = DisplayLink(target: target, action: { _ in })
        }
        #expect(held != nil)
        other.invalidate()
        #expect(held == nil)
    }
}

extension ControlTests {
    @Test("a tap is recognized when played ended; a pan reports its translation since it began, reset by setTranslation, and its velocity")
    func tapAndPan() {
        var taps: [GestureRecognizer.State] = []
        let tap = TapGestureRecognizer(target: nil) { taps.append($0.state) }
        tap.numberOfTapsRequired = 2
        tap.send(.ended, at: CGPoint(x: 4, y: 4))
        #expect(taps == [.ended] && tap.state == .possible)

        let view = View(frame: CGRect(x: 0, y: 0, width: 300, height: 300))
        var moved: [CGPoint] = []
        let pan = PanGestureRecognizer(target: nil) { recognizer in
            let pan = recognizer as! PanGestureRecognizer
            moved.append(pan.translation(in: pan.view))
            pan.setTranslation(.zero, in: pan.view)  // applied as it goes
        }
        view.addGestureRecognizer(pan)
        pan.send(.began, at: CGPoint(x: 100, y: 100), velocity: .zero)
        pan.send(.changed, at: CGPoint(x: 130, y: 90), velocity: CGPoint(x: 300, y: -100))
        pan.send(.changed, at: CGPoint(x: 135, y: 95), velocity: CGPoint(x: 50, y: 50))
        #expect(moved == [.zero, CGPoint(x: 30, y: -10), CGPoint(x: 5, y: 5)])
        #expect(pan.velocity(in: view) == CGPoint(x: 50, y: 50))
        pan.send(.ended, at: CGPoint(x: 135, y: 95), velocity: CGPoint(x: CGFloat.nan, y: 0))
        #expect(moved.count == 3, "a velocity that is not a number is not played")
    }

    /// A layout that reads the finger as a bouncy layout does: where it is when the bounds change.
    final class FingerReading: CollectionViewFlowLayout {
        var touches: [CGPoint] = []
        override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool {
            if let collectionView { touches.append(collectionView.panGestureRecognizer.location(in: collectionView)) }
            return super.shouldInvalidateLayout(forBoundsChange: newBounds)
        }
    }

    @Test("a collection view's pan recognizer is attached to it, and a layout reads the finger played on it while the content scrolls")
    func scrollViewPan() {
        let layout = FingerReading()
        layout.itemSize = CGSize(width: 100, height: 100)
        let host = StaticLayoutHost(layout: layout, itemCounts: [40], bounds: CGRect(x: 0, y: 0, width: 320, height: 480))
        let collectionView = host.collectionView
        let pan = collectionView.panGestureRecognizer
        #expect(pan === collectionView.panGestureRecognizer, "one recognizer")
        #expect(pan.view === collectionView && collectionView.gestureRecognizers.contains { $0 === pan })
        pan.send(.began, at: CGPoint(x: 160, y: 300), velocity: .zero)
        collectionView.contentOffset = CGPoint(x: 0, y: 40)
        pan.send(.changed, at: CGPoint(x: 160, y: 260), velocity: CGPoint(x: 0, y: -400))
        #expect(layout.touches.last == CGPoint(x: 160, y: 300))
        #expect(pan.translation(in: collectionView) == CGPoint(x: 0, y: -40))
        #expect(pan.velocity(in: collectionView) == CGPoint(x: 0, y: -400))
        #expect(CGVector(dx: 0, dy: 1) == CGVector(dx: 0.0, dy: 1.0) && CGVector.zero == CGVector())
    }
}
