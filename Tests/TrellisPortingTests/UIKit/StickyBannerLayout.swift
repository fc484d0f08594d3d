import UIKit

/// A flow layout with section headers and, above everything, one banner of the same kind at a
/// one-index index path (`IndexPath(index: 0)`), as sticky and parallax header layouts place theirs.
final class StickyBannerLayout: UICollectionViewFlowLayout {
    let bannerHeight: CGFloat = 50

    override var collectionViewContentSize: CGSize {
        let size = super.collectionViewContentSize
        return CGSize(width: size.width, height: size.height + bannerHeight)
    }

    private func shifted(_ attributes: UICollectionViewLayoutAttributes) -> UICollectionViewLayoutAttributes {
        let copy = attributes.copy() as! UICollectionViewLayoutAttributes
        copy.frame = copy.frame.offsetBy(dx: 0, dy: bannerHeight)
        return copy
    }

    private func banner() -> UICollectionViewLayoutAttributes {
        let attributes = UICollectionViewLayoutAttributes(forSupplementaryViewOfKind: UICollectionView.elementKindSectionHeader,
                                                          with: IndexPath(index: 0))
        let offset = max(0, collectionView?.contentOffset.y ?? 0)
        attributes.frame = CGRect(x: 0, y: offset, width: collectionView?.bounds.width ?? 0, height: bannerHeight)
        attributes.zIndex = 10
        return attributes
    }

    override func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? {
        let moved = rect.offsetBy(dx: 0, dy: -bannerHeight)
        var all = (super.layoutAttributesForElements(in: moved) ?? []).map(shifted)
        let top = banner()
        if top.frame.intersects(rect) { all.append(top) }
        return all
    }

    override func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
        return super.layoutAttributesForItem(at: indexPath).map(shifted)
    }

    override func layoutAttributesForSupplementaryView(ofKind elementKind: String,
                                                       at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
        if indexPath.count == 1 { return banner() }
        return super.layoutAttributesForSupplementaryView(ofKind: elementKind, at: indexPath).map(shifted)
    }

    override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool {
        return true
    }
}

final class BannerController: NSObject, UICollectionViewDataSource {
    let collectionView: UICollectionView

    override init() {
        let layout = StickyBannerLayout()
        layout.itemSize = CGSize(width: 100, height: 100)
        layout.headerReferenceSize = CGSize(width: 0, height: 30)
        collectionView = UICollectionView(frame: CGRect(x: 0, y: 0, width: 320, height: 200), collectionViewLayout: layout)
        super.init()
        collectionView.register(UICollectionViewCell.self, forCellWithReuseIdentifier: "cell")
        collectionView.register(UICollectionReusableView.self, forSupplementaryViewOfKind: UICollectionView.elementKindSectionHeader,
                                withReuseIdentifier: "header")
        collectionView.dataSource = self
    }

    func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
        return 6
    }

    func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        return collectionView.dequeueReusableCell(withReuseIdentifier: "cell", for: indexPath)
    }

    func collectionView(_ collectionView: UICollectionView, viewForSupplementaryElementOfKind kind: String,
                        at indexPath: IndexPath) -> UICollectionReusableView {
        return collectionView.dequeueReusableSupplementaryView(ofKind: kind, withReuseIdentifier: "header", for: indexPath)
    }
}

func stickyBannerSample() {
    let controller = BannerController()
    let view = controller.collectionView
    view.layoutIfNeeded()
    let kind = UICollectionView.elementKindSectionHeader
    report("banner.headers", view.indexPathsForVisibleSupplementaryElements(ofKind: kind).map { "\(Array($0))" })
    report("banner.atOneIndex", view.supplementaryView(forElementKind: kind, at: IndexPath(index: 0))!.frame)
    report("banner.sectionHeader", view.supplementaryView(forElementKind: kind, at: IndexPath(item: 0, section: 0))!.frame)
    view.contentOffset = CGPoint(x: 0, y: 120)
    view.layoutIfNeeded()
    report("banner.stuck", view.supplementaryView(forElementKind: kind, at: IndexPath(index: 0))!.frame)
    report("banner.sectionHeaderGone", view.supplementaryView(forElementKind: kind, at: IndexPath(item: 0, section: 0)) == nil)
}
