import UIKit

final class ReorderablePhotoCell: UICollectionViewCell {
    var title = ""
}

/// A photo grid the user reorders with a long press, as iOS 9's reordering is written: the
/// gesture's handler drives the collection view's interactive movement.
final class PhotoReorderController: NSObject, UICollectionViewDataSource {
    var photos = ["sunrise", "harbour", "market", "bridge", "tram", "garden", "lighthouse", "station", "rooftops"]
    var moves: [String] = []
    let collectionView: UICollectionView

    override init() {
        let layout = UICollectionViewFlowLayout()
        layout.itemSize = CGSize(width: 100, height: 100)
        layout.minimumInteritemSpacing = 10
        layout.minimumLineSpacing = 10
        collectionView = UICollectionView(frame: CGRect(x: 0, y: 0, width: 320, height: 480), collectionViewLayout: layout)
        super.init()
        collectionView.register(ReorderablePhotoCell.self, forCellWithReuseIdentifier: "photo")
        collectionView.dataSource = self
    }

    @objc func handleLongGesture(_ gesture: UILongPressGestureRecognizer) {
        switch gesture.state {
        case .began:
            guard let selectedIndexPath = collectionView.indexPathForItem(at: gesture.location(in: collectionView)) else {
                break
            }
            collectionView.beginInteractiveMovementForItem(at: selectedIndexPath)
        case .changed:
            collectionView.updateInteractiveMovementTargetPosition(gesture.location(in: gesture.view!))
        case .ended:
            collectionView.endInteractiveMovement()
        default:
            collectionView.cancelInteractiveMovement()
        }
    }

    func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
        return photos.count
    }

    func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        let cell = collectionView.dequeueReusableCell(withReuseIdentifier: "photo", for: indexPath) as! ReorderablePhotoCell
        cell.title = photos[indexPath.item]
        return cell
    }

    func collectionView(_ collectionView: UICollectionView, canMoveItemAt indexPath: IndexPath) -> Bool {
        return true
    }

    func collectionView(_ collectionView: UICollectionView, moveItemAt sourceIndexPath: IndexPath,
                        to destinationIndexPath: IndexPath) {
        moves.append("\(sourceIndexPath.item)→\(destinationIndexPath.item)")
        let photo = photos.remove(at: sourceIndexPath.item)
        photos.insert(photo, at: destinationIndexPath.item)
    }
}

func shownTitles(_ collectionView: UICollectionView) -> String {
    return collectionView.indexPathsForVisibleItems.map { (collectionView.cellForItem(at: $0) as! ReorderablePhotoCell).title }
        .joined(separator: ",")
}

func reorderSample() {
    let controller = PhotoReorderController()
    controller.collectionView.layoutIfNeeded()
    let press = UILongPressGestureRecognizer(target: controller, action: #selector(PhotoReorderController.handleLongGesture(_:)))
    controller.collectionView.addGestureRecognizer(press)
    press.send(.began, at: CGPoint(x: 160, y: 50))       // on "harbour"
    press.send(.changed, at: CGPoint(x: 165, y: 80))
    report("reorder.lifted", controller.collectionView.cellForItem(at: IndexPath(item: 1, section: 0))!.frame)
    press.send(.changed, at: CGPoint(x: 170, y: 165))    // over item 4
    report("reorder.overItem4", shownTitles(controller.collectionView))
    report("reorder.following", controller.collectionView.cellForItem(at: IndexPath(item: 4, section: 0))!.frame)
    press.send(.changed, at: CGPoint(x: 270, y: 160))    // item 5
    press.send(.changed, at: CGPoint(x: 270, y: 270))    // item 8
    press.send(.changed, at: CGPoint(x: 50, y: 270))     // item 6
    report("reorder.beforeRelease", controller.moves.count)
    press.send(.ended, at: CGPoint(x: 50, y: 270))
    report("reorder.moves", controller.moves.joined(separator: ","))
    report("reorder.photos", controller.photos.joined(separator: ","))
    report("reorder.shown", shownTitles(controller.collectionView))
    report("reorder.dropped", controller.collectionView.cellForItem(at: IndexPath(item: 6, section: 0))!.frame)
}
