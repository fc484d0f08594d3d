import UIKit

/// Inserted items pop in from half size; deleted ones shrink away. Other items keep the flow
/// layout's own animation.
class PopInFlowLayout: UICollectionViewFlowLayout {
    private var insertedIndexPaths = Set<IndexPath>()
    private var deletedIndexPaths = Set<IndexPath>()

    override func prepare(forCollectionViewUpdates updateItems: [UICollectionViewUpdateItem]) {
        super.prepare(forCollectionViewUpdates: updateItems)
        for update in updateItems {
            switch update.updateAction {
            case .insert:
                if let indexPath = update.indexPathAfterUpdate { insertedIndexPaths.insert(indexPath) }
            case .delete:
                if let indexPath = update.indexPathBeforeUpdate { deletedIndexPaths.insert(indexPath) }
            default:
                break
            }
        }
    }

    override func finalizeCollectionViewUpdates() {
        super.finalizeCollectionViewUpdates()
        insertedIndexPaths.removeAll()
        deletedIndexPaths.removeAll()
    }

    override func initialLayoutAttributesForAppearingItem(at itemIndexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
        let attributes = super.initialLayoutAttributesForAppearingItem(at: itemIndexPath)
        if insertedIndexPaths.contains(itemIndexPath) {
            attributes?.alpha = 0
            attributes?.transform = CGAffineTransform(scaleX: 0.5, y: 0.5)
        }
        return attributes
    }

    override func finalLayoutAttributesForDisappearingItem(at itemIndexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
        let attributes = super.finalLayoutAttributesForDisappearingItem(at: itemIndexPath)
        if deletedIndexPaths.contains(itemIndexPath) {
            attributes?.transform3D = CATransform3DMakeScale(0.1, 0.1, 1)
        }
        return attributes
    }
}

final class InboxController: NSObject, UICollectionViewDataSource {
    var messages = ["a", "b", "c", "d"]
    let layout = PopInFlowLayout()
    lazy var collectionView: UICollectionView = {
        layout.itemSize = CGSize(width: 100, height: 100)
        let view = UICollectionView(frame: CGRect(x: 0, y: 0, width: 320, height: 480), collectionViewLayout: layout)
        view.register(UICollectionViewCell.self, forCellWithReuseIdentifier: "message")
        view.dataSource = self
        return view
    }()

    func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
        return messages.count
    }

    func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        return collectionView.dequeueReusableCell(withReuseIdentifier: "message", for: indexPath)
    }

    func receive(_ message: String, at index: Int, completion: @escaping (Bool) -> Void) {
        collectionView.performBatchUpdates({
            self.messages.insert(message, at: index)
            self.collectionView.insertItems(at: [IndexPath(item: index, section: 0)])
        }, completion: completion)
    }

    func archive(at index: Int, completion: @escaping (Bool) -> Void) {
        collectionView.performBatchUpdates({
            self.messages.remove(at: index)
            self.collectionView.deleteItems(at: [IndexPath(item: index, section: 0)])
        }, completion: completion)
    }

    /// A mistake UIKit punishes with an exception: the data does not change with the update.
    func forgetToInsert(completion: @escaping (Bool) -> Void) {
        collectionView.performBatchUpdates({
            self.collectionView.insertItems(at: [IndexPath(item: 0, section: 0)])
        }, completion: completion)
    }
}
