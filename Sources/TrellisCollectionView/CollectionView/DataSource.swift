import Foundation
import TrellisLayout

/// Supplies a collection view's counts and views (`UICollectionViewDataSource`).
public protocol CollectionViewDataSource: AnyObject {
    /// The number of sections. Defaults to 1.
    func numberOfSections(in collectionView: CollectionView) -> Int
    /// The number of items in `section`.
    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int
    /// The cell for an item: dequeue it with `dequeueReusableCell(withReuseIdentifier:for:)`.
    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell
    /// The view for a supplementary element. The default dequeues a plain view registered (or
    /// not) under the identifier `""`.
    func collectionView(_ collectionView: CollectionView, viewForSupplementaryElementOfKind kind: String,
                        at indexPath: IndexPath) -> CollectionReusableView
}

extension CollectionViewDataSource {
    public func numberOfSections(in collectionView: CollectionView) -> Int { 1 }

    public func collectionView(_ collectionView: CollectionView, viewForSupplementaryElementOfKind kind: String,
                               at indexPath: IndexPath) -> CollectionReusableView {
        collectionView.dequeueReusableSupplementaryView(ofKind: kind, withReuseIdentifier: "", for: indexPath)
    }
}

/// Learns ahead of time which items will soon be shown (`UICollectionViewDataSourcePrefetching`).
public protocol CollectionViewDataSourcePrefetching: AnyObject {
    /// Items about to come into view, in the order they will.
    func collectionView(_ collectionView: CollectionView, prefetchItemsAt indexPaths: [IndexPath])
    /// Items prefetched earlier that are no longer about to come into view.
    func collectionView(_ collectionView: CollectionView, cancelPrefetchingForItemsAt indexPaths: [IndexPath])
}

extension CollectionViewDataSourcePrefetching {
    public func collectionView(_ collectionView: CollectionView, cancelPrefetchingForItemsAt indexPaths: [IndexPath]) {}
}

/// Display and scrolling callbacks of a collection view's delegate.
public protocol CollectionViewDisplayDelegate: CollectionViewDelegate {
    /// A cell is about to be shown.
    func collectionView(_ collectionView: CollectionView, willDisplay cell: CollectionViewCell, forItemAt indexPath: IndexPath)
    /// A cell left the visible set.
    func collectionView(_ collectionView: CollectionView, didEndDisplaying cell: CollectionViewCell,
                        forItemAt indexPath: IndexPath)
    /// A drag ended: the delegate may change where scrolling comes to rest
    /// (`scrollViewWillEndDragging(_:withVelocity:targetContentOffset:)`).
    func scrollViewWillEndDragging(_ collectionView: CollectionView, withVelocity velocity: CGPoint,
                                   targetContentOffset: inout CGPoint)
}

extension CollectionViewDisplayDelegate {
    public func collectionView(_ collectionView: CollectionView, willDisplay cell: CollectionViewCell,
                               forItemAt indexPath: IndexPath) {}
    public func collectionView(_ collectionView: CollectionView, didEndDisplaying cell: CollectionViewCell,
                               forItemAt indexPath: IndexPath) {}
    public func scrollViewWillEndDragging(_ collectionView: CollectionView, withVelocity velocity: CGPoint,
                                          targetContentOffset: inout CGPoint) {}
}
