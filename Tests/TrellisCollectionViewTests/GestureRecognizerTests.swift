import Foundation
import Testing

@testable import TrellisCollectionView

@Suite("Gesture recognizers")
struct GestureRecognizerTests {
    @Test("a played gesture calls its handlers with its state and location; ended returns it to possible")
    func play() {
        var seen: [String] = []
        let press = LongPressGestureRecognizer { seen.append("\($0.state) \($0.location(in: nil))") }
        press.addTarget { _ in seen.append("second") }
        press.send(.began, at: CGPoint(x: 1, y: 2))
        press.send(.changed, at: CGPoint(x: 3, y: 4))
        press.send(.ended, at: CGPoint(x: 3, y: 4))
        #expect(seen == ["began CGPoint(x: 1.0, y: 2.0)", "second", "changed CGPoint(x: 3.0, y: 4.0)", "second", "ended CGPoint(x: 3.0, y: 4.0)", "second"])
        #expect(press.state == .possible && GestureRecognizer.State.recognized == .ended)
        press.send(.changed, at: CGPoint(x: CGFloat.nan, y: 0))
        #expect(seen.count == 6)
    }

    @Test("target–action: the action runs while its target lives, and the recognizer does not keep the target alive")
    func targetAction() {
        final class Target {
            var states: [GestureRecognizer.State] = []
            func handle(_ recognizer: GestureRecognizer) { states.append(recognizer.state) }
        }
        var target: Target? = Target()
        weak let watched = target
        let press = LongPressGestureRecognizer(target: target, action: { [weak target] in target?.handle($0) })
        var plain: [GestureRecognizer.State] = []
        press.addTarget(nil, action: { plain.append($0.state) })
        press.send(.began, at: .zero)
        #expect(target?.states == [.began] && plain == [.began])
        target = nil
        #expect(watched == nil, "the recognizer holds no strong reference to its target")
        press.send(.changed, at: .zero)
        #expect(plain == [.began, .changed])
    }

    @Test("location(in:) converts between the views of a tree, through a scroll view's offset")
    func locations() {
        let root = View(frame: CGRect(x: 0, y: 0, width: 400, height: 800))
        let scroll = ScrollView(frame: CGRect(x: 20, y: 100, width: 300, height: 400))
        root.addSubview(scroll)
        scroll.bounds.origin = CGPoint(x: 0, y: 250)
        let tap = GestureRecognizer()
        scroll.addGestureRecognizer(tap)
        #expect(tap.view === scroll && scroll.gestureRecognizers.count == 1)
        tap.send(.ended, at: CGPoint(x: 50, y: 300))  // in the scroll view's content
        #expect(tap.location(in: scroll) == CGPoint(x: 50, y: 300))
        #expect(tap.location(in: root) == CGPoint(x: 70, y: 150))
        root.removeGestureRecognizer(tap)
        #expect(tap.view === scroll)
        scroll.gestureRecognizers = []
        #expect(tap.view == nil)
    }

    @Test("a pinch carries its scale; disabling a gesture under way cancels it")
    func pinch() {
        var scales: [CGFloat] = []
        var states: [GestureRecognizer.State] = []
        let pinch = PinchGestureRecognizer { gesture in
            scales.append((gesture as! PinchGestureRecognizer).scale)
            states.append(gesture.state)
        }
        pinch.send(.began, scale: 1, at: .zero)
        pinch.send(.changed, scale: 1.5, velocity: 0.8, at: .zero)
        #expect(pinch.velocity == 0.8)
        pinch.isEnabled = false
        pinch.send(.changed, scale: 2, at: .zero)
        #expect(scales == [1, 1.5, 1.5] && states == [.began, .changed, .cancelled])
    }
}
