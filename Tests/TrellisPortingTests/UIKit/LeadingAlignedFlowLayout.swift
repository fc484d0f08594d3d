import UIKit

/// Tags that start each line at the leading inset and sit the minimum spacing apart.
class LeadingAlignedFlowLayout: UICollectionViewFlowLayout {
    override var flipsHorizontallyInOppositeLayoutDirection: Bool {
        return true
    }

    override func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? {
        guard let original = super.layoutAttributesForElements(in: rect) else { return nil }
        return original.map { attributes in
            guard attributes.representedElementCategory == .cell else { return attributes }
            return layoutAttributesForItem(at: attributes.indexPath) ?? attributes
        }
    }

    override func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
        guard let attributes = super.layoutAttributesForItem(at: indexPath)?.copy() as? UICollectionViewLayoutAttributes else {
            return nil
        }
        attributes.frame.origin.x = leadingEdge(for: attributes)
        return attributes
    }

    /// The leading inset for the first tag of a line; otherwise just after the previous tag.
    private func leadingEdge(for attributes: UICollectionViewLayoutAttributes) -> CGFloat {
        let indexPath = attributes.indexPath
        guard indexPath.item > 0, let collectionView = collectionView,
              let previous = layoutAttributesForItem(at: IndexPath(item: indexPath.item - 1, section: indexPath.section))
        else { return sectionInset.left }
        // The band of this tag's line, across the whole width: the previous tag is on the same
        // line if it overlaps the band.
        let line = CGRect(x: 0, y: attributes.frame.minY, width: collectionView.frame.width, height: attributes.frame.height)
        guard line.intersects(previous.frame) else { return sectionInset.left }
        return previous.frame.maxX + minimumInteritemSpacing
    }
}

final class TagCloud: NSObject, UICollectionViewDataSource, UICollectionViewDelegateFlowLayout {
    let widths: [CGFloat] = [100, 80, 120, 60, 90]

    func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
        return widths.count
    }

    func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        return collectionView.dequeueReusableCell(withReuseIdentifier: "tag", for: indexPath)
    }

    func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                        sizeForItemAt indexPath: IndexPath) -> CGSize {
        return CGSize(width: widths[indexPath.item], height: 40)
    }
}

func leadingAlignedSample() {
    let layout = LeadingAlignedFlowLayout()
    layout.minimumLineSpacing = 0
    layout.sectionInset = UIEdgeInsets(top: 0, left: 10, bottom: 0, right: 10)
    let collectionView = UICollectionView(frame: CGRect(x: 0, y: 0, width: 300, height: 200), collectionViewLayout: layout)
    collectionView.register(UICollectionViewCell.self, forCellWithReuseIdentifier: "tag")
    let cloud = TagCloud()
    collectionView.dataSource = cloud
    collectionView.delegate = cloud
    collectionView.layoutIfNeeded()
    let all = layout.layoutAttributesForElements(in: CGRect(x: 0, y: 0, width: 300, height: 200)) ?? []
    for attributes in all {
        report("aligned.item\(attributes.indexPath.item)", attributes.frame)
    }
    let band = layout.layoutAttributesForElements(in: CGRect(x: 0, y: 30, width: 300, height: 10)) ?? []
    report("aligned.band", band.map { $0.indexPath.item })
    let cells = collectionView.visibleCells.sorted { $0.frame.minY < $1.frame.minY || ($0.frame.minY == $1.frame.minY && $0.frame.minX < $1.frame.minX) }
    report("aligned.cellOrigins", cells.map { "\(Int($0.frame.minX)),\(Int($0.frame.minY))" })
}
