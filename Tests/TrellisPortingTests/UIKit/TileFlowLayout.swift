import UIKit

/// As many columns of tiles as fit at a minimum width, sized in prepare() from the margins.
class TileFlowLayout: UICollectionViewFlowLayout {
    let minimumTileWidth: CGFloat = 140
    let tileHeight: CGFloat = 70
    private(set) var preparations = 0

    override func prepare() {
        super.prepare()
        preparations += 1
        guard let collectionView = collectionView else { return }
        let usableWidth = collectionView.bounds.inset(by: collectionView.layoutMargins).width
        let columns = max(1, Int(usableWidth / minimumTileWidth))
        let tileWidth = (usableWidth / CGFloat(columns)).rounded(.down)
        itemSize = CGSize(width: tileWidth, height: tileHeight)
        sectionInset = UIEdgeInsets(top: minimumInteritemSpacing, left: 0, bottom: 0, right: 0)
        sectionInsetReference = .fromSafeArea
    }
}

final class TileSource: NSObject, UICollectionViewDataSource {
    func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int { 7 }

    func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        return collectionView.dequeueReusableCell(withReuseIdentifier: "tile", for: indexPath)
    }
}

func tileSample() {
    let layout = TileFlowLayout()
    let collectionView = UICollectionView(frame: CGRect(x: 0, y: 0, width: 375, height: 667), collectionViewLayout: layout)
    collectionView.register(UICollectionViewCell.self, forCellWithReuseIdentifier: "tile")
    let source = TileSource()
    collectionView.dataSource = source
    collectionView.layoutIfNeeded()
    report("tiles.itemSize", layout.itemSize)
    for item in 0 ..< 7 {
        report("tiles.item\(item)", layout.layoutAttributesForItem(at: IndexPath(item: item, section: 0))!.frame)
    }
    report("tiles.contentSize", layout.collectionViewContentSize)
    report("tiles.preparations", layout.preparations)
    for step in 1 ... 10 {
        collectionView.contentOffset = CGPoint(x: 0, y: CGFloat(step) * 20)
        collectionView.layoutIfNeeded()
    }
    report("tiles.preparationsAfterScrolling", layout.preparations)
    withExtendedLifetime(source) {}
}
