import UIKit

final class NameCell: UICollectionViewCell {
    var name = ""

    override func prepareForReuse() {
        super.prepareForReuse()
        name = ""
    }
}

final class FruitListController {
    enum Section: Hashable {
        case fruit
    }

    let collectionView: UICollectionView
    private(set) var dataSource: UICollectionViewDiffableDataSource<Section, String>!

    init() {
        let layout = UICollectionViewFlowLayout()
        layout.itemSize = CGSize(width: 300, height: 44)
        layout.minimumLineSpacing = 0
        collectionView = UICollectionView(frame: CGRect(x: 0, y: 0, width: 320, height: 480), collectionViewLayout: layout)
        collectionView.register(NameCell.self, forCellWithReuseIdentifier: "name")
        dataSource = UICollectionViewDiffableDataSource<Section, String>(collectionView: collectionView) {
            collectionView, indexPath, name in
            let cell = collectionView.dequeueReusableCell(withReuseIdentifier: "name", for: indexPath) as! NameCell
            cell.name = name
            return cell
        }
    }

    func load() {
        var snapshot = NSDiffableDataSourceSnapshot<Section, String>()
        snapshot.appendSections([.fruit])
        snapshot.appendItems(["apple", "banana", "cherry"], toSection: .fruit)
        dataSource.apply(snapshot, animatingDifferences: false)
    }

    func edit() {
        var snapshot = dataSource.snapshot()
        snapshot.deleteItems(["banana"])
        snapshot.insertItems(["blueberry"], afterItem: "apple")
        snapshot.moveItem("cherry", beforeItem: "apple")
        snapshot.appendItems(["date"])
        dataSource.apply(snapshot, animatingDifferences: true)
    }
}

func fruitSample() {
    let controller = FruitListController()
    controller.load()
    controller.collectionView.layoutIfNeeded()
    let names = { (collectionView: UICollectionView) in
        collectionView.indexPathsForVisibleItems.map { (collectionView.cellForItem(at: $0) as! NameCell).name }
    }
    report("fruit.loaded", names(controller.collectionView))
    controller.edit()
    controller.collectionView.layoutIfNeeded()
    report("fruit.edited", names(controller.collectionView))
    let snapshot = controller.dataSource.snapshot()
    report("fruit.items", snapshot.itemIdentifiers)
    report("fruit.indexOfDate", snapshot.indexOfItem("date") ?? -1)
    report("fruit.identifierAt1", controller.dataSource.itemIdentifier(for: IndexPath(item: 1, section: 0)) ?? "none")
    report("fruit.blueberryFrame", controller.collectionView.layoutAttributesForItem(
        at: controller.dataSource.indexPath(for: "blueberry")!)!.frame)
}
