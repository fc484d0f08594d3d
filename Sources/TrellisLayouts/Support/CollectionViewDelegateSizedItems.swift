import TrellisCollectionView

/// What the layouts that scale items by their natural size (``WaterfallLayout``,
/// ``JustifiedLayout``) ask of the collection view's delegate in common: the sizes, and the
/// heights of headers and footers. Their own delegate protocols refine it, so one delegate can
/// serve both layouts (a gallery that switches between masonry and rows) with one set of methods.
public protocol CollectionViewDelegateSizedItems: CollectionViewDelegate {
    /// The natural size of the item at `indexPath` (a photo's pixel size will do): the layouts
    /// keep its aspect ratio.
    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        sizeForItemAt indexPath: IndexPath
    ) -> CGSize
    /// The sizes of every item of `section` in one call, or `nil` (the default) to be asked item by
    /// item: one array instead of a million index paths.
    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        sizesForItemsInSection section: Int
    ) -> [CGSize]?
    /// The height of `section`'s header; 0 means none. Default: the layout's `headerHeight`.
    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        heightForHeaderIn section: Int
    ) -> CGFloat
    /// The height of `section`'s footer; 0 means none. Default: the layout's `footerHeight`.
    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        heightForFooterIn section: Int
    ) -> CGFloat
}

extension CollectionViewDelegateSizedItems {
    public func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        sizesForItemsInSection section: Int
    ) -> [CGSize]? { nil }

    public func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        heightForHeaderIn section: Int
    ) -> CGFloat {
        (collectionViewLayout as? WaterfallLayout)?.headerHeight ?? (collectionViewLayout as? JustifiedLayout)?.headerHeight ?? 0
    }

    public func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        heightForFooterIn section: Int
    ) -> CGFloat {
        (collectionViewLayout as? WaterfallLayout)?.footerHeight ?? (collectionViewLayout as? JustifiedLayout)?.footerHeight ?? 0
    }
}
