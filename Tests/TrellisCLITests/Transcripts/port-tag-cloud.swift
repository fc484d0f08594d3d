import UIKit

/// A left-aligned tag cloud: a flow layout whose items start at the left inset, each a fixed
/// spacing after the one before, asking the delegate for the spacing the way Objective-C-era
/// code asks — `responds(to:)` first, then a forced call.
final class TagCloudFlowLayout: UICollectionViewFlowLayout {
    private func spacing(forSection section: Int) -> CGFloat {
        guard let collectionView = collectionView,
              let delegate = collectionView.delegate,
              delegate.conforms(to: UICollectionViewDelegateFlowLayout.self) else { return minimumInteritemSpacing }
        let flowDelegate = delegate as! UICollectionViewDelegateFlowLayout
        if flowDelegate.responds(to: #selector(UICollectionViewDelegateFlowLayout.collectionView(_:layout:minimumInteritemSpacingForSectionAt:))) {
            return flowDelegate.collectionView!(collectionView, layout: self, minimumInteritemSpacingForSectionAt: section)
        }
        return minimumInteritemSpacing
    }

    override func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? {
        guard let original = super.layoutAttributesForElements(in: rect) else { return nil }
        let attributes = original.map { $0.copy() as! UICollectionViewLayoutAttributes }
        var x = sectionInset.left
        var lineY: CGFloat = -1
        for item in attributes where item.representedElementCategory == .cell {
            if item.frame.minY != lineY {
                x = sectionInset.left
                lineY = item.frame.minY
            }
            item.frame.origin.x = x
            x += item.frame.width + spacing(forSection: item.indexPath.section)
        }
        return attributes
    }

    /// Whether a tag may be selected: the delegate's answer when it gives one, else yes.
    func canSelect(_ indexPath: IndexPath) -> Bool {
        guard let collectionView = collectionView, let delegate = collectionView.delegate else { return true }
        if delegate.responds(to: #selector(UICollectionViewDelegate.collectionView(_:shouldSelectItemAt:))) {
            return delegate.collectionView!(collectionView, shouldSelectItemAt: indexPath)
        }
        return true
    }
}

final class TagCloudController: NSObject, UICollectionViewDataSource, UICollectionViewDelegateFlowLayout {
    let widths: [CGFloat] = [60, 90, 40, 120, 70]
    let collectionView: UICollectionView
    var spacing: CGFloat = 6

    override init() {
        let layout = TagCloudFlowLayout()
        layout.sectionInset = UIEdgeInsets(top: 10, left: 12, bottom: 10, right: 12)
        layout.minimumLineSpacing = 8
        collectionView = UICollectionView(frame: CGRect(x: 0, y: 0, width: 300, height: 400), collectionViewLayout: layout)
        super.init()
        collectionView.register(UICollectionViewCell.self, forCellWithReuseIdentifier: "tag")
        collectionView.dataSource = self
        collectionView.delegate = self
    }

    func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int { widths.count }

    func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        return collectionView.dequeueReusableCell(withReuseIdentifier: "tag", for: indexPath)
    }

    func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                        sizeForItemAt indexPath: IndexPath) -> CGSize {
        return CGSize(width: widths[indexPath.item], height: 30)
    }

    func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                        minimumInteritemSpacingForSectionAt section: Int) -> CGFloat {
        return spacing
    }
}

func tagCloudSample() {
    let controller = TagCloudController()
    controller.collectionView.layoutIfNeeded()
    let layout = controller.collectionView.collectionViewLayout as! TagCloudFlowLayout
    let tags = (layout.layoutAttributesForElements(in: CGRect(x: 0, y: 0, width: 300, height: 400)) ?? [])
        .filter { $0.representedElementCategory == .cell }
    for tag in tags { report("objc.tags.item\(tag.indexPath.item)", tag.frame) }
    report("objc.tags.canSelect", layout.canSelect(IndexPath(item: 0, section: 0)))
}
