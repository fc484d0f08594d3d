import UIKit

/// Cells on a ring; inserted cells grow out of the middle, deleted ones shrink into it.
class RingLayout: UICollectionViewLayout {
    private var ringCenter = CGPoint.zero
    private var radius: CGFloat = 0
    private var cellCount = 0
    private let cellSide: CGFloat = 60
    private var insertions: [IndexPath] = []
    private var deletions: [IndexPath] = []

    override func prepare() {
        super.prepare()
        guard let collectionView = collectionView else { return }
        let size = collectionView.frame.size
        cellCount = collectionView.numberOfItems(inSection: 0)
        ringCenter = CGPoint(x: size.width / 2, y: size.height / 2)
        radius = min(size.width, size.height) / 2.5
    }

    override var collectionViewContentSize: CGSize {
        return collectionView?.frame.size ?? .zero
    }

    override func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
        let attributes = UICollectionViewLayoutAttributes(forCellWith: indexPath)
        attributes.size = CGSize(width: cellSide, height: cellSide)
        let angle = 2 * CGFloat.pi * CGFloat(indexPath.row) / CGFloat(cellCount)
        attributes.center = CGPoint(x: ringCenter.x + radius * cos(angle), y: ringCenter.y + radius * sin(angle))
        return attributes
    }

    override func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? {
        var attributes: [UICollectionViewLayoutAttributes] = []
        for index in 0 ..< cellCount {
            if let cell = layoutAttributesForItem(at: IndexPath(row: index, section: 0)), cell.frame.intersects(rect) {
                attributes.append(cell)
            }
        }
        return attributes
    }

    override func prepare(forCollectionViewUpdates updateItems: [UICollectionViewUpdateItem]) {
        super.prepare(forCollectionViewUpdates: updateItems)
        for update in updateItems {
            if update.updateAction == .insert, let indexPath = update.indexPathAfterUpdate {
                insertions.append(indexPath)
            } else if update.updateAction == .delete, let indexPath = update.indexPathBeforeUpdate {
                deletions.append(indexPath)
            }
        }
    }

    override func finalizeCollectionViewUpdates() {
        super.finalizeCollectionViewUpdates()
        insertions = []
        deletions = []
    }

    override func initialLayoutAttributesForAppearingItem(at itemIndexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
        var attributes = super.initialLayoutAttributesForAppearingItem(at: itemIndexPath)
        if insertions.contains(itemIndexPath) {
            if attributes == nil {
                attributes = layoutAttributesForItem(at: itemIndexPath)
            }
            attributes?.alpha = 0
            attributes?.center = ringCenter
        }
        return attributes
    }

    override func finalLayoutAttributesForDisappearingItem(at itemIndexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
        var attributes = super.finalLayoutAttributesForDisappearingItem(at: itemIndexPath)
        if deletions.contains(itemIndexPath) {
            if attributes == nil {
                attributes = layoutAttributesForItem(at: itemIndexPath)
            }
            attributes?.alpha = 0
            attributes?.center = ringCenter
            attributes?.transform3D = CATransform3DMakeScale(0.1, 0.1, 1.0)
        }
        return attributes
    }
}

final class RingController: NSObject, UICollectionViewDataSource {
    var count = 4
    let collectionView = UICollectionView(frame: CGRect(x: 0, y: 0, width: 300, height: 300), collectionViewLayout: RingLayout())

    override init() {
        super.init()
        collectionView.register(UICollectionViewCell.self, forCellWithReuseIdentifier: "dot")
        collectionView.dataSource = self
    }

    func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int { count }

    func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        return collectionView.dequeueReusableCell(withReuseIdentifier: "dot", for: indexPath)
    }

    func addDot() {
        collectionView.performBatchUpdates({
            self.count += 1
            self.collectionView.insertItems(at: [IndexPath(item: self.count - 1, section: 0)])
        }, completion: nil)
    }

    func removeFirstDot() {
        collectionView.performBatchUpdates({
            self.count -= 1
            self.collectionView.deleteItems(at: [IndexPath(item: 0, section: 0)])
        }, completion: nil)
    }
}
