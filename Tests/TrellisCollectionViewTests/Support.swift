@_spi(Instrumentation) @testable import TrellisCollectionView

/// A data source over an array of item identifiers per section, with a cell class that records
/// what happened to it.
final class ItemsDataSource: CollectionViewDataSource, CollectionViewDataSourcePrefetching {
    var sections: [[Int]]
    var cellRequests = 0
    var prefetchedBatches: [[IndexPath]] = []
    var cancelled: [[IndexPath]] = []

    init(_ sections: [[Int]]) { self.sections = sections }

    func numberOfSections(in collectionView: CollectionView) -> Int { sections.count }

    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int {
        sections[section].count
    }

    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
        cellRequests += 1
        let cell = collectionView.dequeueReusableCell(withReuseIdentifier: "cell", for: indexPath)
        (cell as? RecordingCell)?.identifier = sections[indexPath.section][indexPath.item]
        return cell
    }

    func collectionView(_ collectionView: CollectionView, prefetchItemsAt indexPaths: [IndexPath]) {
        prefetchedBatches.append(indexPaths)
    }

    func collectionView(_ collectionView: CollectionView, cancelPrefetchingForItemsAt indexPaths: [IndexPath]) {
        cancelled.append(indexPaths)
    }
}

final class RecordingCell: CollectionViewCell {
    var identifier = -1
    var applied: [CollectionViewLayoutAttributes] = []
    var reused = 0
    override func apply(_ layoutAttributes: CollectionViewLayoutAttributes) { applied.append(layoutAttributes) }
    override func prepareForReuse() { reused += 1 }
}

/// A collection view over `sections` with a flow layout of `itemSize` items.
func makeCollectionView(
    _ sections: [[Int]], width: CGFloat = 320, height: CGFloat = 480,
    itemSize: CGSize = CGSize(width: 100, height: 100),
    layout: CollectionViewLayout? = nil
) -> (CollectionView, ItemsDataSource) {
    let flow = CollectionViewFlowLayout()
    flow.itemSize = itemSize
    let view = CollectionView(
        frame: CGRect(x: 0, y: 0, width: width, height: height),
        collectionViewLayout: layout ?? flow)
    view.register(RecordingCell.self, forCellWithReuseIdentifier: "cell")
    let data = ItemsDataSource(sections)
    view.dataSource = data
    view.prefetchDataSource = data
    view.layoutIfNeeded()
    return (view, data)
}
