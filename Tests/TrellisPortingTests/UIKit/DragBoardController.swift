import UIKit

final class StickerCell: UICollectionViewCell {
    var label = ""

    override func prepareForReuse() {
        super.prepareForReuse()
        label = ""
    }
}

/// A board of stickers reordered by drag and drop, in the shape UIKit's drag and drop code takes
/// in Apple's "Supporting Drag and Drop in Collection Views" article and the apps written after
/// it: a drag carries the sticker's text with the sticker as its local object; a drop from this
/// collection view moves it (`.move`, a gap at the destination), a drop from elsewhere copies it
/// onto a placeholder until its text has loaded; with no destination, the sticker goes last.
final class DragBoardController: NSObject, UICollectionViewDataSource, UICollectionViewDragDelegate, UICollectionViewDropDelegate {
    let collectionView: UICollectionView
    var stickers = ["A", "B", "C", "D", "E", "F", "G", "H"]
    var log: [String] = []
    var placeholderContexts: [UICollectionViewDropPlaceholderContext] = []
    var loadedTexts: [String] = []

    override init() {
        let layout = UICollectionViewFlowLayout()
        layout.itemSize = CGSize(width: 100, height: 100)
        collectionView = UICollectionView(frame: CGRect(x: 0, y: 0, width: 375, height: 667), collectionViewLayout: layout)
        super.init()
        collectionView.register(StickerCell.self, forCellWithReuseIdentifier: "sticker")
        collectionView.register(StickerCell.self, forCellWithReuseIdentifier: "placeholder")
        collectionView.dataSource = self
        collectionView.dragDelegate = self
        collectionView.dropDelegate = self
        collectionView.dragInteractionEnabled = true
        collectionView.reorderingCadence = .fast
    }

    func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
        return stickers.count
    }

    func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        let cell = collectionView.dequeueReusableCell(withReuseIdentifier: "sticker", for: indexPath) as! StickerCell
        cell.label = stickers[indexPath.item]
        return cell
    }

    // MARK: UICollectionViewDragDelegate

    func collectionView(_ collectionView: UICollectionView, itemsForBeginning session: any UIDragSession,
                        at indexPath: IndexPath) -> [UIDragItem] {
        let sticker = stickers[indexPath.item]
        let itemProvider = NSItemProvider(object: sticker as NSString)
        let dragItem = UIDragItem(itemProvider: itemProvider)
        dragItem.localObject = sticker
        return [dragItem]
    }

    func collectionView(_ collectionView: UICollectionView, dragSessionWillBegin session: UIDragSession) {
        log.append("drag will begin")
    }

    func collectionView(_ collectionView: UICollectionView, dragSessionDidEnd session: UIDragSession) {
        log.append("drag did end")
    }

    // MARK: UICollectionViewDropDelegate

    func collectionView(_ collectionView: UICollectionView, canHandle session: any UIDropSession) -> Bool {
        return session.canLoadObjects(ofClass: NSString.self)
    }

    func collectionView(_ collectionView: UICollectionView, dropSessionDidUpdate session: any UIDropSession,
                        withDestinationIndexPath destinationIndexPath: IndexPath?) -> UICollectionViewDropProposal {
        if collectionView.hasActiveDrag {
            return UICollectionViewDropProposal(operation: .move, intent: .insertAtDestinationIndexPath)
        }
        return UICollectionViewDropProposal(operation: .copy, intent: .insertAtDestinationIndexPath)
    }

    func collectionView(_ collectionView: UICollectionView, performDropWith coordinator: any UICollectionViewDropCoordinator) {
        let destinationIndexPath: IndexPath
        if let indexPath = coordinator.destinationIndexPath {
            destinationIndexPath = indexPath
        } else {
            destinationIndexPath = IndexPath(item: collectionView.numberOfItems(inSection: 0), section: 0)
        }
        switch coordinator.proposal.operation {
        case .move:
            reorder(coordinator: coordinator, to: destinationIndexPath)
        case .copy:
            copy(coordinator: coordinator, to: destinationIndexPath)
        default:
            return
        }
    }

    private func reorder(coordinator: UICollectionViewDropCoordinator, to destinationIndexPath: IndexPath) {
        guard let item = coordinator.items.first, let sourceIndexPath = item.sourceIndexPath else { return }
        collectionView.performBatchUpdates({
            let sticker = self.stickers.remove(at: sourceIndexPath.item)
            self.stickers.insert(sticker, at: destinationIndexPath.item)
            self.collectionView.deleteItems(at: [sourceIndexPath])
            self.collectionView.insertItems(at: [destinationIndexPath])
        }, completion: nil)
        coordinator.drop(item.dragItem, toItemAt: destinationIndexPath)
        log.append("moved \(sourceIndexPath.item) to \(destinationIndexPath.item)")
    }

    private func copy(coordinator: UICollectionViewDropCoordinator, to destinationIndexPath: IndexPath) {
        for (offset, item) in coordinator.items.enumerated() {
            let indexPath = IndexPath(item: destinationIndexPath.item + offset, section: destinationIndexPath.section)
            let placeholder = UICollectionViewDropPlaceholder(insertionIndexPath: indexPath, reuseIdentifier: "placeholder")
            placeholder.cellUpdateHandler = { cell in
                (cell as? StickerCell)?.label = "…"
            }
            let context = coordinator.drop(item.dragItem, to: placeholder)
            placeholderContexts.append(context)
            item.dragItem.itemProvider.loadObject(ofClass: NSString.self) { object, _ in
                if let text = object as? NSString {
                    self.loadedTexts.append(text as String)
                }
            }
        }
        log.append("copied \(coordinator.items.count) to \(destinationIndexPath.item)")
    }

    /// What the data loads did, once they are back: each placeholder becomes its sticker.
    func finishLoads() {
        for (context, text) in zip(placeholderContexts, loadedTexts) {
            context.commitInsertion { insertionIndexPath in
                self.stickers.insert(text, at: insertionIndexPath.item)
            }
        }
        placeholderContexts = []
        loadedTexts = []
    }

    func labels() -> [String] {
        return (0 ..< collectionView.numberOfItems(inSection: 0)).map { item in
            (collectionView.cellForItem(at: IndexPath(item: item, section: 0)) as? StickerCell)?.label ?? "gap"
        }
    }
}
