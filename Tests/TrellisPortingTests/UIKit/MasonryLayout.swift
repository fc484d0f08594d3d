import UIKit

/// Asks for the height of each tile of a masonry wall.
protocol MasonryLayoutDelegate: AnyObject {
    func collectionView(_ collectionView: UICollectionView, heightForTileAt indexPath: IndexPath,
                        tileWidth: CGFloat) -> CGFloat
}

/// Columns of tiles; each tile goes into the column that is shortest so far.
final class MasonryLayout: UICollectionViewLayout {
    weak var delegate: MasonryLayoutDelegate?
    var columnCount = 2
    var tilePadding: CGFloat = 4

    private var tiles: [UICollectionViewLayoutAttributes] = []
    private var wallHeight: CGFloat = 0

    private var wallWidth: CGFloat {
        guard let collectionView = collectionView else { return 0 }
        let insets = collectionView.contentInset
        return collectionView.bounds.width - (insets.left + insets.right)
    }

    override var collectionViewContentSize: CGSize {
        return CGSize(width: wallWidth, height: wallHeight)
    }

    override func invalidateLayout() {
        super.invalidateLayout()
        tiles.removeAll()
        wallHeight = 0
    }

    override func prepare() {
        super.prepare()
        guard tiles.isEmpty, let collectionView = collectionView else { return }
        let columnWidth = wallWidth / CGFloat(columnCount)
        let scale = collectionView.traitCollection.displayScale
        var columnBottoms = [CGFloat](repeating: 0, count: columnCount)
        for item in 0 ..< collectionView.numberOfItems(inSection: 0) {
            let indexPath = IndexPath(item: item, section: 0)
            let column = columnBottoms.firstIndex(of: columnBottoms.min()!)!
            let tileWidth = columnWidth - 2 * tilePadding
            let height = delegate?.collectionView(collectionView, heightForTileAt: indexPath, tileWidth: tileWidth) ?? 100
            let slot = CGRect(x: CGFloat(column) * columnWidth, y: columnBottoms[column],
                              width: columnWidth, height: height + 2 * tilePadding)
            let tile = slot.insetBy(dx: tilePadding, dy: tilePadding)
            let attributes = UICollectionViewLayoutAttributes(forCellWith: indexPath)
            // Origins on the pixel grid, as the screen draws them.
            attributes.frame = CGRect(x: (tile.minX * scale).rounded() / scale, y: (tile.minY * scale).rounded() / scale,
                                      width: tile.width, height: tile.height)
            tiles.append(attributes)
            columnBottoms[column] = slot.maxY
            wallHeight = max(wallHeight, slot.maxY)
        }
    }

    override func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? {
        return tiles.filter { $0.frame.intersects(rect) }
    }

    override func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
        return indexPath.item < tiles.count ? tiles[indexPath.item] : nil
    }
}

final class PhotoWallController: NSObject, UICollectionViewDataSource, MasonryLayoutDelegate {
    let photoHeights: [CGFloat] = [120, 80, 60, 150, 90, 40]
    let layout = MasonryLayout()
    let collectionView: UICollectionView

    override init() {
        collectionView = UICollectionView(frame: CGRect(x: 0, y: 0, width: 321.3, height: 480), collectionViewLayout: layout)
        super.init()
        layout.delegate = self
        collectionView.register(UICollectionViewCell.self, forCellWithReuseIdentifier: "photo")
        collectionView.dataSource = self
    }

    func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
        return photoHeights.count
    }

    func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        return collectionView.dequeueReusableCell(withReuseIdentifier: "photo", for: indexPath)
    }

    func collectionView(_ collectionView: UICollectionView, heightForTileAt indexPath: IndexPath,
                        tileWidth: CGFloat) -> CGFloat {
        return photoHeights[indexPath.item]
    }
}

func masonrySample() {
    let controller = PhotoWallController()
    controller.collectionView.layoutIfNeeded()
    for item in 0 ..< controller.photoHeights.count {
        let attributes = controller.collectionView.layoutAttributesForItem(at: IndexPath(item: item, section: 0))!
        report("masonry.tile\(item)", attributes.frame)
    }
    report("masonry.contentSize", controller.collectionView.contentSize)
    let band = controller.layout.layoutAttributesForElements(in: CGRect(x: 0, y: 150, width: 321.3, height: 10)) ?? []
    report("masonry.band", band.map { $0.indexPath.item })
    report("masonry.visibleCells", controller.collectionView.visibleCells.count)
}
