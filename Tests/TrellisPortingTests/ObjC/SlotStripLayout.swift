import UIKit

/// A horizontal strip of equal slots, its `UICollectionViewLayout` overrides kept in an
/// extension, as many codebases organise them.
final class SlotStripLayout: UICollectionViewLayout {
    var slotWidth: CGFloat = 80
    var gap: CGFloat = 10
    fileprivate var slots: [UICollectionViewLayoutAttributes] = []
    fileprivate var preparedCount = 0
}

// MARK: - UICollectionViewLayout

extension SlotStripLayout {
    override func prepare() {
        super.prepare()
        guard let collectionView = collectionView else { return }
        preparedCount += 1
        slots = (0 ..< collectionView.numberOfItems(inSection: 0)).map { item in
            let attributes = UICollectionViewLayoutAttributes(forCellWith: IndexPath(item: item, section: 0))
            attributes.frame = CGRect(x: CGFloat(item) * (slotWidth + gap), y: 0, width: slotWidth,
                                      height: collectionView.bounds.height)
            return attributes
        }
    }

    /// As wide as the slots and the gaps between them.
    override var collectionViewContentSize: CGSize {
        guard let last = slots.last else { return .zero }
        return CGSize(width: last.frame.maxX, height: collectionView?.bounds.height ?? 0)
    }

    override func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? {
        return slots.filter { $0.frame.intersects(rect) }
    }

    override func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
        return slots[indexPath.item]
    }

    @objc func slotCount() -> Int { slots.count }
}

extension UICollectionViewLayoutAttributes {
    override open var debugDescription: String {
        return "slot \(indexPath.item) at \(frame)"
    }
}

final class SlotStripController: NSObject, UICollectionViewDataSource {
    let collectionView = UICollectionView(frame: CGRect(x: 0, y: 0, width: 200, height: 100),
                                          collectionViewLayout: SlotStripLayout())

    override init() {
        super.init()
        collectionView.register(UICollectionViewCell.self, forCellWithReuseIdentifier: "slot")
        collectionView.dataSource = self
    }

    func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int { 4 }

    func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        return collectionView.dequeueReusableCell(withReuseIdentifier: "slot", for: indexPath)
    }
}

func slotStripSample() {
    let controller = SlotStripController()
    controller.collectionView.layoutIfNeeded()
    let layout = controller.collectionView.collectionViewLayout as! SlotStripLayout
    report("objc.strip.contentSize", controller.collectionView.contentSize)
    report("objc.strip.slot3", layout.layoutAttributesForItem(at: IndexPath(item: 3, section: 0))!.frame)
    report("objc.strip.visible", controller.collectionView.visibleCells.count)
    report("objc.strip.slots", layout.slotCount())
}
