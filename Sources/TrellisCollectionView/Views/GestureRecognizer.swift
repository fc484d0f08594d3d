import Foundation

/// A gesture, headless (`UIGestureRecognizer`): what a handler reads — its ``state`` and
/// ``location(in:)`` — played by the app, a test or a recording with ``send(_:at:)`` instead of by
/// touches. Handlers are closures (Swift on Linux has no selectors for target–action).
///
/// ```swift
/// let press = LongPressGestureRecognizer { [unowned self] in self.handleLongPress($0 as! LongPressGestureRecognizer) }
/// collectionView.addGestureRecognizer(press)
/// press.send(.began, at: CGPoint(x: 60, y: 40))     // the handler runs with state .began
/// ```
open class GestureRecognizer: NSObject {
    /// Where a gesture is in its life (`UIGestureRecognizer.State`).
    public enum State: Int, Sendable {
        case possible, began, changed, ended, cancelled, failed
        /// A discrete gesture's recognition: the same as `.ended`.
        public static var recognized: State { .ended }
    }

    /// The gesture's state; ``send(_:at:)`` sets it.
    open internal(set) var state: State = .possible
    /// The view the recognizer is attached to.
    open internal(set) weak var view: View?
    /// A disabled recognizer ignores what it is sent (and a gesture under way is cancelled).
    open var isEnabled = true {
        didSet { if !isEnabled, state == .began || state == .changed { send(.cancelled, at: point) } }
    }
    private var handlers: [(GestureRecognizer) -> Void] = []
    private var point: CGPoint = .zero

    /// A recognizer that calls `handler` at every change of state.
    public init(handler: ((GestureRecognizer) -> Void)? = nil) {
        super.init()
        if let handler { handlers.append(handler) }
    }

    /// Adds a handler, called after the ones added before.
    open func addTarget(_ handler: @escaping (GestureRecognizer) -> Void) {
        handlers.append(handler)
    }

    /// UIKit's target–action, the action a closure that calls the method a selector named (what
    /// `trellis port` writes for `init(target: self, action: #selector(handle(_:)))`): called
    /// with the recognizer at every change of state while `target` lives. Like UIKit, the
    /// recognizer holds no strong reference to its target.
    public convenience init(target: AnyObject?, action: @escaping (GestureRecognizer) -> Void) {
        self.init()
        addTarget(target, action: action)
    }

    /// Adds a target's action (see ``init(target:action:)``), called after the handlers added before.
    open func addTarget(_ target: AnyObject?, action: @escaping (GestureRecognizer) -> Void) {
        guard let target else {
            handlers.append(action)
            return
        }
        handlers.append { [weak target] recognizer in if target != nil { action(recognizer) } }
    }

    /// Where the gesture is, in `view`'s coordinates (its bounds: a scroll view's content). `nil`
    /// or the recognizer's own view gives the point as sent.
    open func location(in view: View?) -> CGPoint {
        guard let own = self.view, let view, view !== own else { return point }
        return view.convertFromRoot(own.convertToRoot(point))
    }

    /// Plays the gesture: it is now in `state` at `location` (in the recognizer's view's
    /// coordinates), and every handler is called. Ignored while disabled, except to cancel.
    open func send(_ state: State, at location: CGPoint) {
        guard isEnabled || state == .cancelled, location.x.isFinite, location.y.isFinite else { return }
        self.state = state
        point = location
        for handler in handlers { handler(self) }
        if state == .ended || state == .cancelled || state == .failed { self.state = .possible }
    }
}

/// A press held in place, then moved (`UILongPressGestureRecognizer`): began, changed as the
/// finger moves, ended on release.
open class LongPressGestureRecognizer: GestureRecognizer {
    /// How long the press must last to begin, in seconds (UIKit's 0.5). Informational: a played
    /// gesture begins when it is sent `.began`.
    open var minimumPressDuration: TimeInterval = 0.5
}

/// Two fingers pinching (`UIPinchGestureRecognizer`): the scale since the gesture began, and
/// its rate of change.
open class PinchGestureRecognizer: GestureRecognizer {
    /// The scale relative to the fingers' distance when the gesture began: below 1 pinching in.
    open var scale: CGFloat = 1
    /// Scale per second.
    open internal(set) var velocity: CGFloat = 0

    /// Plays the pinch: `state`, the fingers' midpoint and the scale.
    open func send(_ state: State, scale: CGFloat, velocity: CGFloat = 0, at location: CGPoint) {
        guard scale.isFinite, velocity.isFinite else { return }
        self.scale = scale
        self.velocity = velocity
        send(state, at: location)
    }
}

/// A tap (`UITapGestureRecognizer`): a discrete gesture, recognized once the taps it asks for
/// are made — played with `send(.ended, at:)`.
open class TapGestureRecognizer: GestureRecognizer {
    /// How many taps make the gesture (UIKit's 1). Informational: a played tap is recognized
    /// when it is sent `.ended`.
    open var numberOfTapsRequired = 1
    /// How many fingers (UIKit's 1).
    open var numberOfTouchesRequired = 1
}

/// A finger dragged (`UIPanGestureRecognizer`): began, changed as it moves, ended on release;
/// the translation since it began and the velocity, in a view's coordinates.
open class PanGestureRecognizer: GestureRecognizer {
    open var minimumNumberOfTouches = 1
    open var maximumNumberOfTouches = Int.max
    private var start: CGPoint?
    private var offset: CGPoint = .zero
    private var speed: CGPoint = .zero

    /// How far the finger moved since the gesture began (or since ``setTranslation(_:in:)``).
    /// Translations do not depend on the view's origin: the same in any view of the same scale.
    open func translation(in view: View?) -> CGPoint {
        guard let start else { return offset }
        let here = location(in: self.view)
        return CGPoint(x: offset.x + here.x - start.x, y: offset.y + here.y - start.y)
    }

    /// Makes the translation `translation` from here on (a handler that applies it as it goes sets
    /// it back to zero).
    open func setTranslation(_ translation: CGPoint, in view: View?) {
        offset = translation
        start = location(in: self.view)
    }

    /// Points per second, as last played.
    open func velocity(in view: View?) -> CGPoint { speed }

    /// Plays the pan: `state`, where the finger is, and how fast it moves.
    open func send(_ state: State, at location: CGPoint, velocity: CGPoint) {
        guard velocity.x.isFinite, velocity.y.isFinite else { return }
        speed = velocity
        send(state, at: location)
    }

    open override func send(_ state: State, at location: CGPoint) {
        if state == .began {
            start = location
            offset = .zero
        }
        super.send(state, at: location)
    }
}

extension View {
    /// The gesture recognizers attached to the view, in the order they were added.
    public var gestureRecognizers: [GestureRecognizer] {
        get { attachedRecognizers }
        set {
            for recognizer in attachedRecognizers { recognizer.view = nil }
            attachedRecognizers = []
            for recognizer in newValue { addGestureRecognizer(recognizer) }
        }
    }

    /// Attaches `gestureRecognizer` (moving it from the view it was attached to).
    public func addGestureRecognizer(_ gestureRecognizer: GestureRecognizer) {
        gestureRecognizer.view?.removeGestureRecognizer(gestureRecognizer)
        attachedRecognizers.append(gestureRecognizer)
        gestureRecognizer.view = self
    }

    /// Detaches `gestureRecognizer`.
    public func removeGestureRecognizer(_ gestureRecognizer: GestureRecognizer) {
        attachedRecognizers.removeAll { $0 === gestureRecognizer }
        if gestureRecognizer.view === self { gestureRecognizer.view = nil }
    }

    /// A point of the view's bounds in the bounds of the topmost view above it (each step up:
    /// less the view's bounds origin, plus its frame origin).
    func convertToRoot(_ point: CGPoint) -> CGPoint {
        var p = point
        var view = self
        while let parent = view.superview {
            p = CGPoint(x: p.x - view.bounds.minX + view.frame.minX, y: p.y - view.bounds.minY + view.frame.minY)
            view = parent
        }
        return p
    }

    /// A point of the topmost view's coordinates in this view's bounds.
    func convertFromRoot(_ point: CGPoint) -> CGPoint {
        let origin = convertToRoot(.zero)
        return CGPoint(x: point.x - origin.x, y: point.y - origin.y)
    }
}
