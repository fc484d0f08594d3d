import UIKit

/// A header that grows when the content is pulled down past its top.
class StretchyHeaderLayout: UICollectionViewFlowLayout {
    override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool {
        return true
    }

    override func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? {
        let attributes = super.layoutAttributesForElements(in: rect)
        attributes?.forEach { element in
            guard element.representedElementKind == UICollectionView.elementKindSectionHeader,
                  element.indexPath.section == 0, let collectionView = collectionView else { return }
            let pull = collectionView.contentOffset.y + collectionView.adjustedContentInset.top
            if pull < 0 {
                element.frame = CGRect(x: 0, y: pull, width: collectionView.frame.width,
                                       height: element.frame.height - pull)
            }
        }
        return attributes
    }
}

final class BannerView: UICollectionReusableView {
    private(set) var appliedHeights: [CGFloat] = []

    override init(frame: CGRect) {
        super.init(frame: frame)
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    override func apply(_ layoutAttributes: UICollectionViewLayoutAttributes) {
        super.apply(layoutAttributes)
        appliedHeights.append(layoutAttributes.size.height)
    }
}

final class ProfileController: NSObject, UICollectionViewDataSource {
    func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int { 6 }

    func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        return collectionView.dequeueReusableCell(withReuseIdentifier: "post", for: indexPath)
    }

    func collectionView(_ collectionView: UICollectionView, viewForSupplementaryElementOfKind kind: String,
                        at indexPath: IndexPath) -> UICollectionReusableView {
        return collectionView.dequeueReusableSupplementaryView(ofKind: kind, withReuseIdentifier: "banner", for: indexPath)
    }
}

func stretchyHeaderSample() {
    let layout = StretchyHeaderLayout()
    layout.itemSize = CGSize(width: 100, height: 100)
    layout.headerReferenceSize = CGSize(width: 0, height: 200)
    let collectionView = UICollectionView(frame: CGRect(x: 0, y: 0, width: 320, height: 480), collectionViewLayout: layout)
    collectionView.register(UICollectionViewCell.self, forCellWithReuseIdentifier: "post")
    collectionView.register(BannerView.self, forSupplementaryViewOfKind: UICollectionView.elementKindSectionHeader,
                            withReuseIdentifier: "banner")
    let controller = ProfileController()
    collectionView.dataSource = controller
    collectionView.layoutIfNeeded()
    let header = IndexPath(item: 0, section: 0)
    report("stretchy.headerAtRest", collectionView.supplementaryView(forElementKind: UICollectionView.elementKindSectionHeader, at: header)!.frame)
    report("stretchy.contentSize", collectionView.contentSize)
    collectionView.contentOffset = CGPoint(x: 0, y: -80)
    collectionView.layoutIfNeeded()
    let banner = collectionView.supplementaryView(forElementKind: UICollectionView.elementKindSectionHeader, at: header) as! BannerView
    report("stretchy.headerPulled", banner.frame)
    report("stretchy.appliedHeights", banner.appliedHeights)
    report("stretchy.firstCell", collectionView.cellForItem(at: IndexPath(item: 0, section: 0))!.frame)
}
