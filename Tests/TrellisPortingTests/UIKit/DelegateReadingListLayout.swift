import UIKit

/// Row heights, asked at every query (a layout that keeps nothing of its own).
protocol UICollectionViewDelegateRowLayout: UICollectionViewDelegate {
    func collectionView(_ collectionView: UICollectionView, layout: UICollectionViewLayout,
                        heightForRowAt indexPath: IndexPath) -> CGFloat
}

/// A one-column list that reads its delegate in every query and answers nothing while the
/// data-source counts are being invalidated, as MagazineLayout does: asked about old index paths
/// once the app's model is new, its delegate would index past the model's end.
final class DelegateReadingListLayout: UICollectionViewLayout {
    var log: [String] = []
    private var countsInvalidated = false

    private var delegate: UICollectionViewDelegateRowLayout? {
        return collectionView?.delegate as? UICollectionViewDelegateRowLayout
    }

    private func note(_ entry: String) {
        // Consecutive queries are one entry: how many a pass makes is not the point.
        if entry == "query", log.last == "query" { return }
        log.append(entry)
    }

    override func invalidateLayout(with context: UICollectionViewLayoutInvalidationContext) {
        if context.invalidateDataSourceCounts {
            countsInvalidated = true
            note("invalidate(counts)")
        }
        super.invalidateLayout(with: context)
    }

    override func prepare() {
        super.prepare()
        countsInvalidated = false
        note("prepare \(collectionView?.numberOfItems(inSection: 0) ?? 0)")
    }

    override func prepare(forCollectionViewUpdates updateItems: [UICollectionViewUpdateItem]) {
        super.prepare(forCollectionViewUpdates: updateItems)
        note("updates " + updateItems.map { item -> String in
            let path = item.updateAction == .delete ? item.indexPathBeforeUpdate! : item.indexPathAfterUpdate!
            return "\(item.updateAction == .delete ? "delete" : "insert") \(path.item)"
        }.joined(separator: ","))
    }

    override func finalizeCollectionViewUpdates() {
        super.finalizeCollectionViewUpdates()
        note("finalize")
    }

    private func frames() -> [CGRect] {
        guard let collectionView = collectionView, let delegate = delegate else { return [] }
        var y: CGFloat = 0
        return (0 ..< collectionView.numberOfItems(inSection: 0)).map { item in
            let height = delegate.collectionView(collectionView, layout: self, heightForRowAt: IndexPath(item: item, section: 0))
            defer { y += height }
            return CGRect(x: 0, y: y, width: collectionView.bounds.width, height: height)
        }
    }

    override var collectionViewContentSize: CGSize {
        return CGSize(width: collectionView?.bounds.width ?? 0, height: frames().last?.maxY ?? 0)
    }

    override func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? {
        if countsInvalidated {
            note("query while the counts are invalid")
            return nil
        }
        note("query")
        return frames().enumerated().filter { $0.element.intersects(rect) }.map { item, frame in
            let attributes = UICollectionViewLayoutAttributes(forCellWith: IndexPath(item: item, section: 0))
            attributes.frame = frame
            return attributes
        }
    }

    override func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
        let all = frames()
        guard indexPath.item < all.count else { return nil }
        let attributes = UICollectionViewLayoutAttributes(forCellWith: indexPath)
        attributes.frame = all[indexPath.item]
        return attributes
    }
}

final class RowsController: NSObject, UICollectionViewDataSource, UICollectionViewDelegateRowLayout {
    var heights: [CGFloat] = [40, 60, 80]
    let layout = DelegateReadingListLayout()
    lazy var collectionView = UICollectionView(frame: CGRect(x: 0, y: 0, width: 300, height: 400), collectionViewLayout: layout)

    func setUp() {
        collectionView.register(UICollectionViewCell.self, forCellWithReuseIdentifier: "row")
        collectionView.dataSource = self
        collectionView.delegate = self
        collectionView.layoutIfNeeded()
    }

    func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
        return heights.count
    }

    func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        return collectionView.dequeueReusableCell(withReuseIdentifier: "row", for: indexPath)
    }

    func collectionView(_ collectionView: UICollectionView, layout: UICollectionViewLayout,
                        heightForRowAt indexPath: IndexPath) -> CGFloat {
        return heights[indexPath.item]   // past the model's end: a crash, as in the real layouts
    }

    func deleteLastRow() {
        collectionView.performBatchUpdates({
            self.layout.log.append("update block")
            self.heights.removeLast()
            self.collectionView.deleteItems(at: [IndexPath(item: self.heights.count, section: 0)])
        }, completion: nil)
    }
}

func delegateReadingSample() {
    let controller = RowsController()
    controller.setUp()
    controller.layout.log = []
    controller.deleteLastRow()
    report("batchOrder.log", controller.layout.log.joined(separator: " | "))
    report("batchOrder.contentSize", controller.collectionView.contentSize)
    report("batchOrder.visible", controller.collectionView.indexPathsForVisibleItems.map { $0.item })
}
