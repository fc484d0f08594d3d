import Foundation
import Testing

@testable import TrellisCollectionView

/// A spring flow layout as the WWDC sample and BouncyLayout write it: every item on a spring
/// anchored at its flow-layout place; a scroll pushes items by their distance from the touch,
/// and they spring back.
final class SpringyFlowLayout: CollectionViewFlowLayout {
    lazy var animator = DynamicAnimator(collectionViewLayout: self)
    var touch = CGPoint.zero

    override func prepare() {
        super.prepare()
        guard animator.behaviors.isEmpty else { return }
        for item in super.layoutAttributesForElements(in: CGRect(origin: .zero, size: collectionViewContentSize)) ?? [] {
            let spring = AttachmentBehavior(item: item, attachedToAnchor: item.center)
            spring.length = 0
            spring.damping = 0.8
            spring.frequency = 1
            animator.addBehavior(spring)
        }
    }

    override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
        animator.items(in: rect) as? [CollectionViewLayoutAttributes]
    }

    override func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        animator.layoutAttributesForCell(at: indexPath) ?? super.layoutAttributesForItem(at: indexPath)
    }

    override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool {
        guard let view = collectionView else { return false }
        let delta = newBounds.origin.y - view.bounds.origin.y
        for case let spring as AttachmentBehavior in animator.behaviors {
            let item = spring.items[0]
            let resistance = abs(touch.y - spring.anchorPoint.y) / 500
            item.center.y += delta < 0 ? max(delta, delta * resistance) : min(delta, delta * resistance)
            animator.updateItem(usingCurrentState: item)
        }
        return false
    }
}

@Suite("UIKit Dynamics")
struct DynamicsTests {
    @Test("a spring layout moves its items off their places as the content scrolls, and they settle back on the flow layout's frames")
    func springsSettle() throws {
        let layout = SpringyFlowLayout()
        layout.itemSize = CGSize(width: 300, height: 40)
        layout.minimumLineSpacing = 10
        let (view, data) = makeCollectionView([Array(0..<20)], layout: layout)
        defer { withExtendedLifetime(data) {} }
        let plain = CollectionViewFlowLayout()
        plain.itemSize = layout.itemSize
        plain.minimumLineSpacing = 10
        let (reference, referenceData) = makeCollectionView([Array(0..<20)], layout: plain)
        defer { withExtendedLifetime(referenceData) {} }
        let frame = { (v: CollectionView, item: Int) in v.layoutAttributesForItem(at: IndexPath(item: item, section: 0))!.frame }
        #expect(frame(view, 5) == frame(reference, 5), "at rest: the flow layout's frames")
        // Springs at their anchors: a step moves nothing, and the animator comes to rest.
        layout.animator.step(by: 1.0 / 60)
        #expect(!layout.animator.isRunning && frame(view, 5) == frame(reference, 5))

        layout.touch = CGPoint(x: 0, y: 0)
        view.contentOffset = CGPoint(x: 0, y: 30)
        view.layoutIfNeeded()
        let pushed = frame(view, 10).minY - frame(reference, 10).minY
        #expect(pushed > 0 && pushed <= 30, "an item far from the touch moves with the scroll, at most as far")
        #expect(frame(view, 0).minY - frame(reference, 0).minY < pushed, "one near the touch moves less")
        #expect(layout.animator.isRunning)

        layout.animator.step(by: 0.1)
        let after = frame(view, 10).minY - frame(reference, 10).minY
        #expect(after < pushed && after > 0, "springing back")
        layout.animator.step(by: 5)
        #expect(!layout.animator.isRunning, "at rest")
        for item in [0, 5, 10, 19] { #expect(abs(frame(view, item).minY - frame(reference, item).minY) < 0.05) }
    }

    @Test("a spring of a given frequency and damping moves as that spring does; a rigid attachment holds its length; two items share a spring")
    func springModel() throws {
        final class Dot: DynamicItem {
            var center: CGPoint
            let bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
            var transform = CGAffineTransform.identity
            init(_ center: CGPoint) { self.center = center }
        }
        let layout = CollectionViewFlowLayout()
        let animator = DynamicAnimator(collectionViewLayout: layout)
        let dot = Dot(CGPoint(x: 100, y: 0))
        let spring = AttachmentBehavior(item: dot, attachedToAnchor: .zero)
        #expect(spring.length == 100 && spring.attachedBehaviorType == .anchor)
        spring.length = 0
        spring.frequency = 1
        spring.damping = 0
        animator.addBehavior(spring)
        // Undamped, 1 Hz: back through the anchor after a quarter period, at the far side after half.
        animator.step(by: 0.25)
        #expect(abs(dot.center.x) < 10, "within the fixed step's error")
        animator.step(by: 0.25)
        #expect(dot.center.x < -90)
        #expect(animator.items(in: CGRect(x: -200, y: -10, width: 150, height: 20)).count == 1)
        #expect(animator.items(in: CGRect(x: 50, y: 50, width: 10, height: 10)).isEmpty)
        animator.removeAllBehaviors()
        #expect(animator.behaviors.isEmpty)

        let a = Dot(CGPoint(x: 0, y: 0)), b = Dot(CGPoint(x: 50, y: 0))
        let rod = AttachmentBehavior(item: a, attachedTo: b)
        rod.length = 20
        animator.addBehavior(rod)
        animator.step(by: 1.0 / 60)
        #expect(abs(hypot(a.center.x - b.center.x, a.center.y - b.center.y) - 20) < 0.001 && abs(a.center.x + b.center.x - 50) < 0.001)

        final class Listener: DynamicAnimatorDelegate {
            var told: [String] = []
            func dynamicAnimatorWillResume(_ animator: DynamicAnimator) { told.append("resume") }
            func dynamicAnimatorDidPause(_ animator: DynamicAnimator) { told.append("pause") }
        }
        let listener = Listener()
        animator.delegate = listener
        animator.step(by: 1)
        #expect(listener.told == ["pause"] && !animator.isRunning)
        animator.updateItem(usingCurrentState: a)
        #expect(listener.told == ["pause", "resume"] && animator.isRunning)
        animator.step(by: .nan)
        animator.step(by: -1)
        #expect(animator.isRunning, "no time given: nothing stepped")
    }

    final class Box: DynamicItem {
        var center: CGPoint
        let bounds: CGRect
        var transform = CGAffineTransform.identity
        init(_ center: CGPoint, size: CGFloat = 20) {
            self.center = center
            bounds = CGRect(x: 0, y: 0, width: size, height: size)
        }
    }

    @Test("gravity of magnitude 1 is 1000 points/s², integrated step by step; its angle and magnitude are its direction's")
    func gravity() {
        let animator = DynamicAnimator(referenceView: View(frame: CGRect(x: 0, y: 0, width: 400, height: 4000)))
        let box = Box(CGPoint(x: 100, y: 0))
        let gravity = GravityBehavior(items: [box])
        #expect(gravity.gravityDirection == CGVector(dx: 0, dy: 1) && abs(gravity.angle - .pi / 2) < 1e-12 && gravity.magnitude == 1)
        animator.addBehavior(gravity)
        animator.step(by: 0.5)
        // 30 steps of 1/60 s: the speed gains 1000/60 a step, the centre the speed's 1/60:
        // 1000/3600 × (1 + 2 + … + 30) = 129.1666….
        #expect(abs(box.center.y - 1000.0 / 3600 * 465) < 1e-9 && box.center.x == 100)
        gravity.setAngle(0, magnitude: 0.5)
        #expect(abs(gravity.gravityDirection.dx - 0.5) < 1e-12 && abs(gravity.gravityDirection.dy) < 1e-12)
        gravity.magnitude = 2
        #expect(abs(gravity.gravityDirection.dx - 2) < 1e-12)
    }

    @Test("a falling item comes to rest on the reference bounds' floor, or on a boundary; an elastic one bounces")
    func boundaries() {
        let view = View(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
        let animator = DynamicAnimator(referenceView: view)
        let box = Box(CGPoint(x: 100, y: 50))
        let collisions = CollisionBehavior(items: [box])
        collisions.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(GravityBehavior(items: [box]))
        animator.addBehavior(collisions)
        animator.step(by: 3)
        #expect(box.center.y == 190 && !animator.isRunning, "on the floor, at rest")

        let bouncy = Box(CGPoint(x: 100, y: 50))
        let elastic = DynamicItemBehavior(items: [bouncy])
        elastic.elasticity = 1
        let bouncing = DynamicAnimator(referenceView: view)
        let walls = CollisionBehavior(items: [bouncy])
        walls.translatesReferenceBoundsIntoBoundary = true
        bouncing.addBehavior(walls)
        bouncing.addBehavior(elastic)
        elastic.addLinearVelocity(CGPoint(x: 0, y: 300), for: bouncy)
        bouncing.step(by: 0.5)
        #expect(elastic.linearVelocity(for: bouncy).y == -300, "turned around at the floor, none of its speed lost")
        #expect(bouncy.center.y < 190)

        let ledge = Box(CGPoint(x: 50, y: 20))
        let onLedge = DynamicAnimator(referenceView: view)
        let boundary = CollisionBehavior(items: [ledge])
        boundary.addBoundary(withIdentifier: "ledge" as NSString, from: CGPoint(x: 0, y: 100), to: CGPoint(x: 120, y: 100))
        #expect(boundary.boundaryIdentifiers?.count == 1)
        onLedge.addBehavior(GravityBehavior(items: [ledge]))
        onLedge.addBehavior(boundary)
        onLedge.step(by: 2)
        #expect(abs(ledge.center.y - 90) < 1e-9, "resting on the segment")
        boundary.removeBoundary(withIdentifier: "ledge" as NSString)
        #expect(boundary.boundaryIdentifiers == nil)
    }

    @Test("items collide: equal masses, fully elastic, exchange their speeds; an anchored item stops another and stays")
    func itemsCollide() {
        let view = View(frame: CGRect(x: 0, y: 0, width: 400, height: 400))
        let animator = DynamicAnimator(referenceView: view)
        let moving = Box(CGPoint(x: 50, y: 100)), resting = Box(CGPoint(x: 100, y: 100))
        let material = DynamicItemBehavior(items: [moving, resting])
        material.elasticity = 1
        animator.addBehavior(CollisionBehavior(items: [moving, resting]))
        animator.addBehavior(material)
        material.addLinearVelocity(CGPoint(x: 120, y: 0), for: moving)
        animator.step(by: 0.5)
        #expect(abs(material.linearVelocity(for: moving).x) < 1e-9 && abs(material.linearVelocity(for: resting).x - 120) < 1e-9)
        #expect(resting.center.x > 100 && abs(moving.center.x - 80) < 2, "stopped where they met, 30 points on")

        let wall = Box(CGPoint(x: 200, y: 300), size: 40), ball = Box(CGPoint(x: 120, y: 300))
        let anchored = DynamicItemBehavior(items: [wall])
        anchored.isAnchored = true
        let other = DynamicAnimator(referenceView: view)
        let ballMaterial = DynamicItemBehavior(items: [ball])
        other.addBehavior(CollisionBehavior(items: [ball, wall]))
        other.addBehavior(anchored)
        other.addBehavior(ballMaterial)
        ballMaterial.addLinearVelocity(CGPoint(x: 200, y: 0), for: ball)
        other.step(by: 1)
        #expect(wall.center == CGPoint(x: 200, y: 300) && ball.center.x == 170 && ballMaterial.linearVelocity(for: ball) == .zero)
    }

    @Test("resistance takes a share of the speed each second")
    func resistance() {
        let animator = DynamicAnimator(referenceView: View(frame: CGRect(x: 0, y: 0, width: 100, height: 100)))
        let box = Box(CGPoint(x: 0, y: 0))
        let air = DynamicItemBehavior(items: [box])
        air.resistance = 2
        animator.addBehavior(air)
        air.addLinearVelocity(CGPoint(x: 100, y: 0), for: box)
        animator.step(by: 1.0 / 60)
        #expect(abs(air.linearVelocity(for: box).x - (100 - 100 * 2 / 60)) < 1e-9)
        animator.step(by: 10)
        #expect(!animator.isRunning && air.linearVelocity(for: box).x < 0.01)
    }
}
