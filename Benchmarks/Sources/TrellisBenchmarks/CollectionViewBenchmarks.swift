@_spi(Instrumentation) import TrellisCollectionView

/// A data source and flow delegate over an array of sizes that can be swapped for the data
/// after a batch.
final class SizesDataSource: CollectionViewDataSource, CollectionViewDelegateFlowLayout {
    var sizes: [CGSize]
    init(_ sizes: [CGSize]) { self.sizes = sizes }

    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { sizes.count }

    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
        collectionView.dequeueReusableCell(withReuseIdentifier: "cell", for: indexPath)
    }

    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        sizesForItemsInSection section: Int
    ) -> [CGSize]? { sizes }

    /// The end of an interactive move: the item's size moves with it.
    func collectionView(_ collectionView: CollectionView, moveItemAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath) {
        sizes.insert(sizes.remove(at: sourceIndexPath.item), at: destinationIndexPath.item)
    }
}

/// A headless collection view over `sizes` in a 375 × 800 viewport, laid out once.
func makeCollectionView(_ source: SizesDataSource) -> CollectionView {
    let view = CollectionView(
        frame: CGRect(x: 0, y: 0, width: 375, height: 800),
        collectionViewLayout: CollectionViewFlowLayout())
    view.register(CollectionViewCell.self, forCellWithReuseIdentifier: "cell")
    view.dataSource = source
    view.delegate = source
    view.layoutIfNeeded()
    return view
}

/// A valid random batch of `operations` changes on one section of `count` items (deletes,
/// inserts and moves), from a fixed seed, with the item counts after it.
func randomBatch(count: Int, operations: Int, seed: UInt64 = 9) -> (BatchUpdate, newCount: Int) {
    var state = seed
    func next(_ bound: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(bound))
    }
    let deletes = operations / 2, moves = operations / 10, inserts = operations - deletes - moves
    var touched = Set<Int>()
    func fresh() -> Int { while true { let i = next(count); if touched.insert(i).inserted { return i } } }
    var batch = BatchUpdate()
    batch.deleteItems(at: (0..<deletes).map { _ in IndexPath(item: fresh(), section: 0) })
    let movedFrom = (0..<moves).map { _ in fresh() }
    let newCount = count - deletes + inserts
    var targets = Set<Int>()
    func target() -> Int { while true { let i = next(newCount); if targets.insert(i).inserted { return i } } }
    batch.insertItems(at: (0..<inserts).map { _ in IndexPath(item: target(), section: 0) })
    for from in movedFrom { batch.moveItem(at: IndexPath(item: from, section: 0), to: IndexPath(item: target(), section: 0)) }
    return (batch, newCount)
}
