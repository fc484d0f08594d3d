import Foundation

/// Something Dynamics moves (`UIDynamicItem`): a centre, bounds and a transform. Layout
/// attributes are ones — what a spring layout hands its animator.
public protocol DynamicItem: AnyObject {
    var center: CGPoint { get set }
    var bounds: CGRect { get }
    var transform: CGAffineTransform { get set }
}

extension CollectionViewLayoutAttributes: DynamicItem {}

/// A physical rule over items (`UIDynamicBehavior`), added to a ``DynamicAnimator``. Its
/// ``action`` runs after every step of the simulation.
open class DynamicBehavior: NSObject {
    /// Runs after every step while the behavior is in an animator.
    open var action: (() -> Void)?
    /// The behaviors this one is made of.
    open private(set) var childBehaviors: [DynamicBehavior] = []
    /// The animator the behavior is in.
    open internal(set) weak var dynamicAnimator: DynamicAnimator?

    public override init() {}

    open func addChildBehavior(_ behavior: DynamicBehavior) { childBehaviors.append(behavior) }
    open func removeChildBehavior(_ behavior: DynamicBehavior) { childBehaviors.removeAll { $0 === behavior } }

    /// Called when the behavior is added to an animator (`nil`: removed).
    open func willMove(to dynamicAnimator: DynamicAnimator?) {}

    /// The accelerations the behavior gives its items now, and rigid positions it sets.
    func apply(_ state: DynamicAnimator.State) {}

    /// After the items moved in a step: what the behavior corrects (a collision puts an item
    /// back outside what it hit and turns its speed).
    func constrain(_ state: DynamicAnimator.State) {}

    /// The items the behavior moves.
    var behaviorItems: [DynamicItem] { [] }
}

/// A spring or a rod between an item and a point, or between two items (`UIAttachmentBehavior`).
///
/// With a ``frequency`` above 0 it is a spring of that frequency (Hz) and ``damping`` ratio (0:
/// none, 1: critical), pulling the item towards ``length`` from the anchor; with 0 it is rigid,
/// holding the item at that length. What a spring layout uses: one per item, anchored at the
/// item's place in the layout, so that a scroll pushes items off it and they spring back.
open class AttachmentBehavior: DynamicBehavior {
    /// What an attachment connects.
    public enum AttachmentType: Int, Sendable { case items, anchor }

    /// The items attached: one (to the anchor) or two.
    public let items: [DynamicItem]
    public let attachedBehaviorType: AttachmentType
    /// The point the item is attached to.
    open var anchorPoint: CGPoint
    /// The distance held or sprung towards.
    open var length: CGFloat
    /// The damping ratio of a spring.
    open var damping: CGFloat = 0
    /// The frequency of a spring, in Hz (0: rigid).
    open var frequency: CGFloat = 0

    /// `item` attached to `point`, at their distance now.
    public init(item: DynamicItem, attachedToAnchor point: CGPoint) {
        items = [item]
        attachedBehaviorType = .anchor
        anchorPoint = point
        length = hypot(item.center.x - point.x, item.center.y - point.y)
        super.init()
    }

    /// `item1` attached to `item2`, at their distance now.
    public init(item item1: DynamicItem, attachedTo item2: DynamicItem) {
        items = [item1, item2]
        attachedBehaviorType = .items
        anchorPoint = .zero
        length = hypot(item1.center.x - item2.center.x, item1.center.y - item2.center.y)
        super.init()
    }

    override var behaviorItems: [DynamicItem] { items }

    override func apply(_ state: DynamicAnimator.State) {
        let spring = frequency.isFinite && frequency > 0
        let first = items[0]
        let other = items.count > 1 ? items[1] : nil
        let from = other?.center ?? anchorPoint
        let offset = CGPoint(x: first.center.x - from.x, y: first.center.y - from.y)
        let distance = hypot(offset.x, offset.y)
        let direction = distance > 0 ? CGPoint(x: offset.x / distance, y: offset.y / distance) : .zero
        let rest = length.isFinite ? max(0, length) : 0
        guard spring else {
            // Rigid: the item at the length from the anchor (two items share the correction).
            let target = CGPoint(x: from.x + direction.x * rest, y: from.y + direction.y * rest)
            if let other {
                let shift = CGPoint(x: (target.x - first.center.x) / 2, y: (target.y - first.center.y) / 2)
                state.place(first, at: CGPoint(x: first.center.x + shift.x, y: first.center.y + shift.y))
                state.place(other, at: CGPoint(x: other.center.x - shift.x, y: other.center.y - shift.y))
            } else {
                state.place(first, at: target)
            }
            return
        }
        let omega = 2 * CGFloat.pi * frequency
        let zeta = damping.isFinite ? max(0, damping) : 0
        let stretch = distance - rest
        // Along the line between them: the spring's pull and the damping of the speed apart.
        let relative = CGPoint(
            x: state.velocity(of: first).x - (other.map { state.velocity(of: $0).x } ?? 0),
            y: state.velocity(of: first).y - (other.map { state.velocity(of: $0).y } ?? 0))
        let pull = -omega * omega * stretch
        let acceleration = CGPoint(
            x: pull * direction.x - 2 * zeta * omega * relative.x, y: pull * direction.y - 2 * zeta * omega * relative.y)
        if let other {
            // Two items of one mass share the force.
            state.accelerate(first, by: CGPoint(x: acceleration.x / 2, y: acceleration.y / 2))
            state.accelerate(other, by: CGPoint(x: -acceleration.x / 2, y: -acceleration.y / 2))
        } else {
            state.accelerate(first, by: acceleration)
        }
    }
}

/// What an animator tells when it comes to rest and starts again (`UIDynamicAnimatorDelegate`).
public protocol DynamicAnimatorDelegate: AnyObject {
    func dynamicAnimatorWillResume(_ animator: DynamicAnimator)
    func dynamicAnimatorDidPause(_ animator: DynamicAnimator)
}

extension DynamicAnimatorDelegate {
    public func dynamicAnimatorWillResume(_ animator: DynamicAnimator) {}
    public func dynamicAnimatorDidPause(_ animator: DynamicAnimator) {}
}

/// UIKit Dynamics for a collection-view layout (`UIDynamicAnimator`): behaviors move their items
/// — layout attributes — in a simulation of fixed steps of 1/60 s, and the layout answers its
/// queries from the items (``items(in:)``, ``layoutAttributesForCell(at:)``) where they are.
///
/// Headless, the simulation advances when asked (``step(by:)``: what the display's frames would
/// do), each step integrating every item's acceleration into its speed and then its speed into
/// its centre (semi-implicit Euler), so that the same steps give the same frames on every
/// machine. After a step that moved something the layout is invalidated, as UIKit's animator
/// does; the animator pauses (``isRunning`` false, the delegate told) once no item moves, or
/// would be sped up in a step, by more than 0.01 point a second. Springs and rods
/// (``AttachmentBehavior``), gravity (``GravityBehavior``), collisions with the reference bounds,
/// boundaries and other items (``CollisionBehavior``) and items' own properties
/// (``DynamicItemBehavior``) are modelled; items do not rotate.
open class DynamicAnimator: NSObject {
    /// The layout whose items it moves, if any.
    open private(set) weak var collectionViewLayout: CollectionViewLayout?
    /// The view whose subviews it moves, if any.
    open private(set) weak var referenceView: View?
    /// The behaviors added, in order.
    open private(set) var behaviors: [DynamicBehavior] = []
    /// Simulated seconds since it last started running.
    open private(set) var elapsedTime: TimeInterval = 0
    /// Whether something is still moving.
    open private(set) var isRunning = false
    open weak var delegate: DynamicAnimatorDelegate?

    /// The simulation's step: 1/60 s.
    public static let stepDuration: TimeInterval = 1.0 / 60

    /// Each item's speed, by identity, in points a second.
    private var velocities: [ObjectIdentifier: CGPoint] = [:]

    /// An animator whose items are `layout`'s attributes.
    public init(collectionViewLayout layout: CollectionViewLayout) {
        collectionViewLayout = layout
        super.init()
    }

    /// An animator whose items are views in `view`.
    public init(referenceView view: View) {
        referenceView = view
        super.init()
    }

    open func addBehavior(_ behavior: DynamicBehavior) {
        guard !behaviors.contains(where: { $0 === behavior }) else { return }
        behavior.willMove(to: self)
        behaviors.append(behavior)
        behavior.dynamicAnimator = self
        resume()
    }

    open func removeBehavior(_ behavior: DynamicBehavior) {
        guard behaviors.contains(where: { $0 === behavior }) else { return }
        behavior.willMove(to: nil)
        behaviors.removeAll { $0 === behavior }
        behavior.dynamicAnimator = nil
        let kept = Set(allItems.map(ObjectIdentifier.init))
        velocities = velocities.filter { kept.contains($0.key) }
    }

    open func removeAllBehaviors() {
        for behavior in behaviors { removeBehavior(behavior) }
    }

    /// Every item of every behavior, each once, in the order first added.
    private var allItems: [DynamicItem] {
        var seen: Set<ObjectIdentifier> = [], items: [DynamicItem] = []
        func collect(_ behavior: DynamicBehavior) {
            for item in behavior.behaviorItems where seen.insert(ObjectIdentifier(item)).inserted { items.append(item) }
            for child in behavior.childBehaviors { collect(child) }
        }
        for behavior in behaviors { collect(behavior) }
        return items
    }

    /// The reference bounds collisions keep items in: the layout's content, or the reference
    /// view's bounds.
    open var referenceBounds: CGRect {
        if let layout = collectionViewLayout { return CGRect(origin: .zero, size: layout.collectionViewContentSize) }
        return referenceView?.bounds ?? .zero
    }

    /// The items whose frames meet `rect`, in the order first added.
    open func items(in rect: CGRect) -> [DynamicItem] {
        allItems.filter { item in
            let frame =
                (item as? CollectionViewLayoutAttributes)?.frame
                ?? CGRect(
                    x: item.center.x - item.bounds.width / 2, y: item.center.y - item.bounds.height / 2, width: item.bounds.width,
                    height: item.bounds.height)
            return LayoutGeometry.intersects(frame, rect)
        }
    }

    /// The item that is the cell at `indexPath`'s attributes.
    open func layoutAttributesForCell(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        attributes(.cell, kind: nil, at: indexPath)
    }

    /// The item that is the supplementary view of `kind` at `indexPath`'s attributes.
    open func layoutAttributesForSupplementaryView(ofKind kind: String, at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        attributes(.supplementaryView, kind: kind, at: indexPath)
    }

    /// The item that is the decoration view of `kind` at `indexPath`'s attributes.
    open func layoutAttributesForDecorationView(ofKind kind: String, at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        attributes(.decorationView, kind: kind, at: indexPath)
    }

    private func attributes(_ category: CollectionView.ElementCategory, kind: String?, at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        for case let attributes as CollectionViewLayoutAttributes in allItems
        where attributes.representedElementCategory == category && attributes.indexPath == indexPath
            && (kind == nil || attributes.representedElementKind == kind)
        {
            return attributes
        }
        return nil
    }

    /// Adds to an item's speed (``DynamicItemBehavior/addLinearVelocity(_:for:)``).
    func addVelocity(_ velocity: CGPoint, to item: DynamicItem) {
        let id = ObjectIdentifier(item), now = velocities[id] ?? .zero
        velocities[id] = CGPoint(x: now.x + velocity.x, y: now.y + velocity.y)
        resume()
    }

    /// An item's speed, in points a second.
    func velocity(of item: DynamicItem) -> CGPoint { velocities[ObjectIdentifier(item)] ?? .zero }

    /// Takes `item`'s centre and transform as they are now (set by the app), keeping its speed.
    open func updateItem(usingCurrentState item: DynamicItem) {
        resume()
    }

    /// Advances the simulation by `seconds`, in steps of ``stepDuration`` (a part of a step is
    /// kept for the next call), then invalidates the layout if anything moved.
    open func step(by seconds: TimeInterval) {
        guard seconds.isFinite, seconds > 0 else { return }
        pending += seconds
        var moved = false
        while pending >= Self.stepDuration - 1e-9 {
            pending -= Self.stepDuration
            guard isRunning else { continue }
            moved = true
            advance()
        }
        if moved { collectionViewLayout?.invalidateLayout() }
    }
    private var pending: TimeInterval = 0

    /// What one step reads and writes: accelerations and rigid placements, by item.
    final class State {
        var velocities: [ObjectIdentifier: CGPoint]
        var accelerations: [ObjectIdentifier: CGPoint] = [:]
        var placements: [(DynamicItem, CGPoint)] = []
        /// The reference bounds: the layout's content, or the reference view's bounds.
        var referenceBounds: CGRect = .zero
        /// Each item's properties (elasticity, resistance, density, anchoring), by item.
        var properties: [ObjectIdentifier: DynamicItemBehavior] = [:]
        init(velocities: [ObjectIdentifier: CGPoint]) { self.velocities = velocities }
        func setVelocity(_ v: CGPoint, of item: DynamicItem) { velocities[ObjectIdentifier(item)] = v }
        func elasticity(of item: DynamicItem) -> CGFloat { properties[ObjectIdentifier(item)]?.clampedElasticity ?? 0 }
        func isAnchored(_ item: DynamicItem) -> Bool { properties[ObjectIdentifier(item)]?.isAnchored ?? false }
        /// The item's mass: its area times its density (1 by default).
        func mass(of item: DynamicItem) -> CGFloat {
            let density = properties[ObjectIdentifier(item)]?.density ?? 1
            let area = max(1, item.bounds.width * item.bounds.height)
            return area * (density.isFinite && density > 0 ? density : 1)
        }
        func velocity(of item: DynamicItem) -> CGPoint { velocities[ObjectIdentifier(item)] ?? .zero }
        func accelerate(_ item: DynamicItem, by a: CGPoint) {
            let id = ObjectIdentifier(item), now = accelerations[id] ?? .zero
            accelerations[id] = CGPoint(x: now.x + a.x, y: now.y + a.y)
        }
        func place(_ item: DynamicItem, at point: CGPoint) { placements.append((item, point)) }
    }

    private func advance() {
        let dt = CGFloat(Self.stepDuration)
        let state = State(velocities: velocities)
        state.referenceBounds = referenceBounds
        func each(_ behavior: DynamicBehavior, _ body: (DynamicBehavior) -> Void) {
            body(behavior)
            for child in behavior.childBehaviors { each(child, body) }
        }
        for behavior in behaviors {
            each(behavior) {
                if let properties = $0 as? DynamicItemBehavior { for item in properties.items { state.properties[ObjectIdentifier(item)] = properties } }
            }
        }
        for behavior in behaviors { each(behavior) { $0.apply(state) } }
        let items = allItems
        var before: [ObjectIdentifier: CGPoint] = [:]
        for item in items {
            let id = ObjectIdentifier(item)
            before[id] = state.velocities[id] ?? .zero
            // An anchored item does not move.
            if state.isAnchored(item) {
                state.velocities[id] = .zero
                continue
            }
            let a = state.accelerations[id] ?? .zero
            var v = state.velocities[id] ?? .zero
            v = CGPoint(x: v.x + a.x * dt, y: v.y + a.y * dt)
            item.center = CGPoint(x: item.center.x + v.x * dt, y: item.center.y + v.y * dt)
            state.velocities[id] = v
        }
        for behavior in behaviors { each(behavior) { $0.constrain(state) } }
        // At rest once no item moves, or is sped up in the step (collisions included), by more
        // than 0.01 point a second.
        var resting = true
        for item in items {
            let id = ObjectIdentifier(item)
            let v = state.velocities[id] ?? .zero, v0 = before[id] ?? .zero
            velocities[id] = v
            if hypot(v.x, v.y) > 0.01 || hypot(v.x - v0.x, v.y - v0.y) > 0.01 { resting = false }
        }
        for (item, point) in state.placements {
            if hypot(item.center.x - point.x, item.center.y - point.y) > 0.01 { resting = false }
            item.center = point
            velocities[ObjectIdentifier(item)] = .zero
        }
        elapsedTime += Self.stepDuration
        for behavior in behaviors { behavior.action?() }
        if resting { pause() }
    }

    private func resume() {
        guard !isRunning else { return }
        isRunning = true
        elapsedTime = 0
        delegate?.dynamicAnimatorWillResume(self)
    }

    private func pause() {
        guard isRunning else { return }
        isRunning = false
        delegate?.dynamicAnimatorDidPause(self)
    }
}
