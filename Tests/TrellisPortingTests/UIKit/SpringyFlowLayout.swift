import UIKit

/// A flow layout whose items hang on springs, in the shape of the spring flow layout of WWDC 2013's
/// "Advanced Techniques with UIKit Dynamics" and of BouncyLayout (MIT licence): each item shown is
/// an attachment behaviour anchored at its flow-layout centre; a scroll pushes each item by the
/// scroll times its distance from the finger over 1500 (never more than the scroll), and the
/// springs pull them back.
final class SpringyFlowLayout: UICollectionViewFlowLayout {
    var dynamicAnimator: UIDynamicAnimator!
    var trackedIndexPaths = Set<IndexPath>()

    override init() {
        super.init()
        dynamicAnimator = UIDynamicAnimator(collectionViewLayout: self)
    }

    required init?(coder: NSCoder) {
        super.init(coder: coder)
        dynamicAnimator = UIDynamicAnimator(collectionViewLayout: self)
    }

    override func prepare() {
        super.prepare()
        guard let collectionView = collectionView else { return }
        let around = CGRect(origin: collectionView.bounds.origin, size: collectionView.frame.size).insetBy(dx: -100, dy: -100)
        let shown = super.layoutAttributesForElements(in: around) ?? []
        let shownPaths = Set(shown.map { $0.indexPath })
        for case let spring as UIAttachmentBehavior in dynamicAnimator.behaviors {
            guard let item = spring.items.first as? UICollectionViewLayoutAttributes, !shownPaths.contains(item.indexPath) else { continue }
            dynamicAnimator.removeBehavior(spring)
            trackedIndexPaths.remove(item.indexPath)
        }
        for item in shown where !trackedIndexPaths.contains(item.indexPath) {
            let spring = UIAttachmentBehavior(item: item, attachedToAnchor: item.center)
            spring.length = 0
            spring.damping = 0.8
            spring.frequency = 1.0
            dynamicAnimator.addBehavior(spring)
            trackedIndexPaths.insert(item.indexPath)
        }
    }

    override func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? {
        return dynamicAnimator.items(in: rect) as? [UICollectionViewLayoutAttributes]
    }

    override func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
        return dynamicAnimator.layoutAttributesForCell(at: indexPath) ?? super.layoutAttributesForItem(at: indexPath)
    }

    override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool {
        guard let collectionView = collectionView else { return false }
        let delta = newBounds.origin.y - collectionView.bounds.origin.y
        let touch = collectionView.panGestureRecognizer.location(in: collectionView)
        for case let spring as UIAttachmentBehavior in dynamicAnimator.behaviors {
            let distance = abs(touch.y - spring.anchorPoint.y) + abs(touch.x - spring.anchorPoint.x)
            let resistance = distance / 1500
            let item = spring.items[0]
            var center = item.center
            center.y += delta < 0 ? max(delta, delta * resistance) : min(delta, delta * resistance)
            item.center = center
            dynamicAnimator.updateItem(usingCurrentState: item)
        }
        return false
    }
}

final class SpringyDataSource: NSObject, UICollectionViewDataSource {
    func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
        return 30
    }

    func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        return collectionView.dequeueReusableCell(withReuseIdentifier: "bubble", for: indexPath)
    }
}
