import Foundation

/// Gravity on items (`UIGravityBehavior`): a constant acceleration along ``gravityDirection``,
/// whose length is the ``magnitude`` — 1.0 is 1000 points a second², as UIKit documents.
open class GravityBehavior: DynamicBehavior {
    /// The items gravity pulls.
    open private(set) var items: [DynamicItem]
    /// The direction and strength: (0, 1) — down, 1000 points/s² — by default.
    open var gravityDirection = CGVector(dx: 0, dy: 1)

    public init(items: [DynamicItem]) {
        self.items = items
        super.init()
    }

    open func addItem(_ item: DynamicItem) { items.add(item) }
    open func removeItem(_ item: DynamicItem) { items.remove(item) }

    /// The direction, in radians from the positive x axis (down is π/2).
    open var angle: CGFloat {
        get { atan2(gravityDirection.dy, gravityDirection.dx) }
        set { setAngle(newValue, magnitude: magnitude) }
    }

    /// The strength: 1.0 is 1000 points/s².
    open var magnitude: CGFloat {
        get { hypot(gravityDirection.dx, gravityDirection.dy) }
        set { setAngle(angle, magnitude: newValue) }
    }

    /// Sets the direction and strength at once.
    open func setAngle(_ angle: CGFloat, magnitude: CGFloat) {
        gravityDirection = CGVector(dx: cos(angle) * magnitude, dy: sin(angle) * magnitude)
    }

    override var behaviorItems: [DynamicItem] { items }

    override func apply(_ state: DynamicAnimator.State) {
        let g = gravityDirection
        guard g.dx.isFinite, g.dy.isFinite else { return }
        for item in items { state.accelerate(item, by: CGPoint(x: g.dx * 1000, y: g.dy * 1000)) }
    }
}

/// What items are made of (`UIDynamicItemBehavior`): how they bounce (``elasticity``), how air
/// slows them (``resistance``), their ``density`` (mass is area times density), whether they are
/// fixed in place (``isAnchored``), and speeds given to them.
open class DynamicItemBehavior: DynamicBehavior {
    open private(set) var items: [DynamicItem]
    /// How much speed a collision gives back: 0 (none, the default) to 1 (all).
    open var elasticity: CGFloat = 0
    /// Surface friction. Headless, items slide without it: kept for the code that sets it.
    open var friction: CGFloat = 0
    /// Mass per point²: 1 by default.
    open var density: CGFloat = 1
    /// How fast an item's speed fades, per second: the speed loses that share of itself each
    /// second (0, the default: none).
    open var resistance: CGFloat = 0
    /// Whether the items may turn. Headless, items never turn: kept for the code that sets it.
    open var allowsRotation = true
    open var angularResistance: CGFloat = 0
    /// Whether the items are fixed in place: others collide with them, they do not move.
    open var isAnchored = false

    public init(items: [DynamicItem]) {
        self.items = items
        super.init()
    }

    open func addItem(_ item: DynamicItem) { items.add(item) }
    open func removeItem(_ item: DynamicItem) { items.remove(item) }

    /// Adds `velocity` (points a second) to the item's speed.
    open func addLinearVelocity(_ velocity: CGPoint, for item: DynamicItem) {
        guard velocity.x.isFinite, velocity.y.isFinite else { return }
        dynamicAnimator?.addVelocity(velocity, to: item)
    }

    /// The item's speed, in points a second.
    open func linearVelocity(for item: DynamicItem) -> CGPoint {
        dynamicAnimator?.velocity(of: item) ?? .zero
    }

    var clampedElasticity: CGFloat { elasticity.isFinite ? min(1, max(0, elasticity)) : 0 }

    override var behaviorItems: [DynamicItem] { items }

    override func apply(_ state: DynamicAnimator.State) {
        guard resistance.isFinite, resistance > 0 else { return }
        for item in items {
            let v = state.velocity(of: item)
            state.accelerate(item, by: CGPoint(x: -v.x * resistance, y: -v.y * resistance))
        }
    }
}

/// Collisions (`UICollisionBehavior`): its items bounce off the reference bounds (when
/// ``translatesReferenceBoundsIntoBoundary``), off boundaries given as segments, and off each
/// other, each item its bounds' rectangle around its centre. A collision puts an item back
/// outside what it hit and turns its speed into it around, kept in the share of the item's
/// elasticity (``DynamicItemBehavior``; two items, the mean of theirs).
open class CollisionBehavior: DynamicBehavior {
    /// What collides with what (`UICollisionBehavior.Mode`).
    public struct Mode: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let items = Mode(rawValue: 1 << 0)
        public static let boundaries = Mode(rawValue: 1 << 1)
        public static let everything: Mode = [.items, .boundaries]
    }

    open private(set) var items: [DynamicItem]
    /// Default `.everything`.
    open var collisionMode: Mode = .everything
    /// Whether the reference bounds (inset by ``referenceBoundsInsets``) are a boundary.
    open var translatesReferenceBoundsIntoBoundary = false
    private(set) var referenceBoundsInsets: EdgeInsets = .zero
    private var boundaries: [(identifier: NSCopying & NSObjectProtocol, from: CGPoint, to: CGPoint)] = []

    public init(items: [DynamicItem]) {
        self.items = items
        super.init()
    }

    open func addItem(_ item: DynamicItem) { items.add(item) }
    open func removeItem(_ item: DynamicItem) { items.remove(item) }

    /// Makes the reference bounds, inset by `insets`, a boundary.
    open func setTranslatesReferenceBoundsIntoBoundary(with insets: EdgeInsets) {
        translatesReferenceBoundsIntoBoundary = true
        referenceBoundsInsets = insets
    }

    /// Adds a boundary: the segment from `p1` to `p2`, named `identifier` (a boundary of that
    /// name is replaced).
    open func addBoundary(withIdentifier identifier: NSCopying & NSObjectProtocol, from p1: CGPoint, to p2: CGPoint) {
        removeBoundary(withIdentifier: identifier)
        guard p1.x.isFinite, p1.y.isFinite, p2.x.isFinite, p2.y.isFinite else { return }
        boundaries.append((identifier, p1, p2))
    }

    open func removeBoundary(withIdentifier identifier: NSCopying & NSObjectProtocol) {
        boundaries.removeAll { $0.identifier.isEqual(identifier) }
    }

    open func removeAllBoundaries() {
        boundaries = []
    }

    /// The boundaries' names, in the order added.
    open var boundaryIdentifiers: [NSCopying & NSObjectProtocol]? {
        boundaries.isEmpty ? nil : boundaries.map(\.identifier)
    }

    override var behaviorItems: [DynamicItem] { items }

    private static func frame(_ item: DynamicItem) -> CGRect {
        CGRect(
            x: item.center.x - item.bounds.width / 2, y: item.center.y - item.bounds.height / 2, width: item.bounds.width,
            height: item.bounds.height)
    }

    override func constrain(_ state: DynamicAnimator.State) {
        if collisionMode.contains(.items) { collideItems(state) }
        guard collisionMode.contains(.boundaries) else { return }
        for item in items where !state.isAnchored(item) {
            if translatesReferenceBoundsIntoBoundary { keepInside(item, state) }
            for boundary in boundaries { collide(item, from: boundary.from, to: boundary.to, state) }
        }
    }

    /// The reference bounds hold the item: pushed back in, its speed out of them turned around.
    private func keepInside(_ item: DynamicItem, _ state: DynamicAnimator.State) {
        let i = referenceBoundsInsets, b = state.referenceBounds
        let box = CGRect(x: b.minX + i.left, y: b.minY + i.top, width: b.width - i.left - i.right, height: b.height - i.top - i.bottom)
        let f = Self.frame(item), e = state.elasticity(of: item)
        var v = state.velocity(of: item), c = item.center
        if f.minX < box.minX {
            c.x += box.minX - f.minX
            if v.x < 0 { v.x = -v.x * e }
        } else if f.maxX > box.maxX {
            c.x -= f.maxX - box.maxX
            if v.x > 0 { v.x = -v.x * e }
        }
        if f.minY < box.minY {
            c.y += box.minY - f.minY
            if v.y < 0 { v.y = -v.y * e }
        } else if f.maxY > box.maxY {
            c.y -= f.maxY - box.maxY
            if v.y > 0 { v.y = -v.y * e }
        }
        item.center = c
        state.setVelocity(v, of: item)
    }

    /// A segment boundary: the corner of the item furthest past its line, where it lies along the
    /// segment, is put back on it, and the speed into the line is turned around.
    private func collide(_ item: DynamicItem, from p: CGPoint, to q: CGPoint, _ state: DynamicAnimator.State) {
        let d = CGPoint(x: q.x - p.x, y: q.y - p.y), length = hypot(d.x, d.y)
        guard length > 0 else { return }
        // The normal towards the item's centre.
        var n = CGPoint(x: -d.y / length, y: d.x / length)
        let c = item.center
        if (c.x - p.x) * n.x + (c.y - p.y) * n.y < 0 { n = CGPoint(x: -n.x, y: -n.y) }
        let f = Self.frame(item)
        var depth: CGFloat = 0
        for corner in [CGPoint(x: f.minX, y: f.minY), CGPoint(x: f.maxX, y: f.minY), CGPoint(x: f.minX, y: f.maxY), CGPoint(x: f.maxX, y: f.maxY)] {
            let along = ((corner.x - p.x) * d.x + (corner.y - p.y) * d.y) / (length * length)
            guard along >= 0, along <= 1 else { continue }
            depth = max(depth, -((corner.x - p.x) * n.x + (corner.y - p.y) * n.y))
        }
        guard depth > 0 else { return }
        item.center = CGPoint(x: c.x + n.x * depth, y: c.y + n.y * depth)
        var v = state.velocity(of: item)
        let into = v.x * n.x + v.y * n.y
        if into < 0 {
            let e = state.elasticity(of: item)
            v = CGPoint(x: v.x - (1 + e) * into * n.x, y: v.y - (1 + e) * into * n.y)
            state.setVelocity(v, of: item)
        }
    }

    /// Overlapping items are parted along the axis they overlap least on, each moved by the
    /// other's share of their mass, and their speeds towards each other exchanged as an impulse.
    private func collideItems(_ state: DynamicAnimator.State) {
        guard items.count > 1 else { return }
        for i in 0..<(items.count - 1) {
            for j in (i + 1)..<items.count {
                let a = items[i], b = items[j]
                let fa = Self.frame(a), fb = Self.frame(b)
                let overlapX = min(fa.maxX, fb.maxX) - max(fa.minX, fb.minX)
                let overlapY = min(fa.maxY, fb.maxY) - max(fa.minY, fb.minY)
                guard overlapX > 0, overlapY > 0 else { continue }
                let alongX = overlapX < overlapY
                let sign: CGFloat = alongX ? (a.center.x <= b.center.x ? -1 : 1) : (a.center.y <= b.center.y ? -1 : 1)
                let n = alongX ? CGPoint(x: sign, y: 0) : CGPoint(x: 0, y: sign)
                let anchoredA = state.isAnchored(a), anchoredB = state.isAnchored(b)
                guard !(anchoredA && anchoredB) else { continue }
                let inverseA = anchoredA ? 0 : 1 / state.mass(of: a), inverseB = anchoredB ? 0 : 1 / state.mass(of: b)
                let depth = alongX ? overlapX : overlapY
                let shareA = inverseA / (inverseA + inverseB), shareB = inverseB / (inverseA + inverseB)
                a.center = CGPoint(x: a.center.x + n.x * depth * shareA, y: a.center.y + n.y * depth * shareA)
                b.center = CGPoint(x: b.center.x - n.x * depth * shareB, y: b.center.y - n.y * depth * shareB)
                let va = state.velocity(of: a), vb = state.velocity(of: b)
                let closing = (va.x - vb.x) * n.x + (va.y - vb.y) * n.y
                guard closing < 0 else { continue }
                let e = (state.elasticity(of: a) + state.elasticity(of: b)) / 2
                let impulse = -(1 + e) * closing / (inverseA + inverseB)
                if !anchoredA { state.setVelocity(CGPoint(x: va.x + impulse * inverseA * n.x, y: va.y + impulse * inverseA * n.y), of: a) }
                if !anchoredB { state.setVelocity(CGPoint(x: vb.x - impulse * inverseB * n.x, y: vb.y - impulse * inverseB * n.y), of: b) }
            }
        }
    }
}

extension [DynamicItem] {
    /// Adds an item once.
    mutating func add(_ item: DynamicItem) {
        if !contains(where: { $0 === item }) { append(item) }
    }

    /// Removes an item.
    mutating func remove(_ item: DynamicItem) {
        removeAll { $0 === item }
    }
}
