import UIKit

/// A horizontal strip that enlarges the tile nearest the middle and always comes to rest with
/// one tile centred.
final class CoverFlowLayout: UICollectionViewFlowLayout {
    let zoomRadius: CGFloat = 200
    let maximumZoom: CGFloat = 0.3

    override init() {
        super.init()
        scrollDirection = .horizontal
        minimumLineSpacing = 40
        itemSize = CGSize(width: 150, height: 150)
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    override func prepare() {
        guard let collectionView = collectionView else { return }
        let insets = collectionView.adjustedContentInset
        let vertical = (collectionView.frame.height - insets.top - insets.bottom - itemSize.height) / 2
        let horizontal = (collectionView.frame.width - insets.left - insets.right - itemSize.width) / 2
        sectionInset = UIEdgeInsets(top: vertical, left: horizontal, bottom: vertical, right: horizontal)
        super.prepare()
    }

    override func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? {
        guard let collectionView = collectionView,
              let attributes = super.layoutAttributesForElements(in: rect)?.compactMap({ $0.copy() as? UICollectionViewLayoutAttributes })
        else { return nil }
        let visible = CGRect(origin: collectionView.contentOffset, size: collectionView.bounds.size)
        for tile in attributes where tile.frame.intersects(visible) {
            let distance = abs(visible.midX - tile.center.x)
            guard distance < zoomRadius else { continue }
            let zoom = 1 + maximumZoom * (1 - distance / zoomRadius)
            tile.transform3D = CATransform3DMakeScale(zoom, zoom, 1)
            tile.zIndex = Int((zoom * 10).rounded())
        }
        return attributes
    }

    override func targetContentOffset(forProposedContentOffset proposedContentOffset: CGPoint,
                                      withScrollingVelocity velocity: CGPoint) -> CGPoint {
        guard let collectionView = collectionView else { return proposedContentOffset }
        let landing = CGRect(origin: CGPoint(x: proposedContentOffset.x, y: 0), size: collectionView.bounds.size)
        let middle = landing.midX
        guard let candidates = super.layoutAttributesForElements(in: landing),
              let nearest = candidates.min(by: { abs($0.center.x - middle) < abs($1.center.x - middle) })
        else { return proposedContentOffset }
        return CGPoint(x: proposedContentOffset.x + nearest.center.x - middle, y: proposedContentOffset.y)
    }

    override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool {
        return true
    }

    override func invalidationContext(forBoundsChange newBounds: CGRect) -> UICollectionViewLayoutInvalidationContext {
        let context = super.invalidationContext(forBoundsChange: newBounds) as! UICollectionViewFlowLayoutInvalidationContext
        context.invalidateFlowLayoutDelegateMetrics = newBounds.size != collectionView?.bounds.size
        return context
    }
}

final class AlbumStrip: NSObject, UICollectionViewDataSource {
    let layout = CoverFlowLayout()
    lazy var collectionView: UICollectionView = {
        let view = UICollectionView(frame: CGRect(x: 0, y: 0, width: 375, height: 300), collectionViewLayout: layout)
        view.decelerationRate = UIScrollView.DecelerationRate.fast
        view.showsHorizontalScrollIndicator = false
        view.register(UICollectionViewCell.self, forCellWithReuseIdentifier: "album")
        view.dataSource = self
        return view
    }()

    func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int { 12 }

    func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        return collectionView.dequeueReusableCell(withReuseIdentifier: "album", for: indexPath)
    }
}

func coverFlowSample() {
    let strip = AlbumStrip()
    let collectionView = strip.collectionView
    collectionView.layoutIfNeeded()
    report("coverflow.decelerationRate", collectionView.decelerationRate.rawValue)
    report("coverflow.sectionInset", strip.layout.sectionInset)
    report("coverflow.contentSize", collectionView.contentSize)
    for item in 0 ..< 3 {
        report("coverflow.item\(item)", strip.layout.layoutAttributesForItem(at: IndexPath(item: item, section: 0))!.frame)
    }
    let visible = strip.layout.layoutAttributesForElements(in: collectionView.bounds) ?? []
    for tile in visible {
        report("coverflow.at0.item\(tile.indexPath.item).zoom", tile.transform3D.m11)
        report("coverflow.at0.item\(tile.indexPath.item).zIndex", tile.zIndex)
    }
    let target = strip.layout.targetContentOffset(forProposedContentOffset: CGPoint(x: 250, y: 0),
                                                  withScrollingVelocity: CGPoint(x: 1.2, y: 0))
    report("coverflow.target", target)
    collectionView.setContentOffset(target, animated: false)
    collectionView.layoutIfNeeded()
    let centred = collectionView.visibleCells.map { collectionView.indexPath(for: $0)!.item }.sorted()
    report("coverflow.visibleAfterSnap", centred)
    let centre = strip.layout.layoutAttributesForElements(in: collectionView.bounds)?
        .first { $0.indexPath.item == 1 }
    report("coverflow.at190.item1.zoom", centre?.transform3D.m11 ?? 0)
}
