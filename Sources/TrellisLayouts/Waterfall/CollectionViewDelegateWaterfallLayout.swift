import TrellisCollectionView

/// The sizes and per-section values a ``WaterfallLayout`` asks of the collection view's delegate,
/// with the names of CHTCollectionViewWaterfallLayout's delegate (its Swift version), so that a
/// delegate written for it ports by renaming the protocol.
///
/// Only `collectionView(_:layout:sizeForItemAt:)` (from ``CollectionViewDelegateSizedItems``,
/// with the header and footer heights) is required; every other method answers with the layout's
/// property when not implemented. The item is as wide as its column and keeps the aspect ratio of
/// its size; a size with a side of 0 gives a zero-height item.
public protocol CollectionViewDelegateWaterfallLayout: CollectionViewDelegateSizedItems {
    /// Whether the item at `indexPath` spans every column (a banner between runs of columns).
    /// Not in CHT; default `false`.
    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        isFullSpanItemAt indexPath: IndexPath
    ) -> Bool
    /// The number of columns of `section`. Default: the layout's `columnCount`.
    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        columnCountFor section: Int
    ) -> Int
    /// The insets around `section`'s columns. Default: the layout's `sectionInset`.
    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        insetsFor section: Int
    ) -> EdgeInsets
    /// The insets around `section`'s header. Default: the layout's `headerInset`.
    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        insetsForHeaderIn section: Int
    ) -> EdgeInsets
    /// The insets around `section`'s footer. Default: the layout's `footerInset`.
    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        insetsForFooterIn section: Int
    ) -> EdgeInsets
    /// The spacing between items of one column in `section`. Default: the layout's
    /// `minimumInteritemSpacing`.
    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        minimumInteritemSpacingFor section: Int
    ) -> CGFloat
    /// The spacing between the columns of `section`. Default: the layout's `minimumColumnSpacing`.
    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        minimumColumnSpacingFor section: Int
    ) -> CGFloat
}

extension CollectionViewDelegateWaterfallLayout {
    public func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        isFullSpanItemAt indexPath: IndexPath
    ) -> Bool { false }

    public func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        columnCountFor section: Int
    ) -> Int {
        (collectionViewLayout as? WaterfallLayout)?.columnCount ?? WaterfallLayoutDefaults.columnCount
    }

    public func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        insetsFor section: Int
    ) -> EdgeInsets {
        (collectionViewLayout as? WaterfallLayout)?.sectionInset ?? .zero
    }

    public func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        insetsForHeaderIn section: Int
    ) -> EdgeInsets {
        (collectionViewLayout as? WaterfallLayout)?.headerInset ?? .zero
    }

    public func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        insetsForFooterIn section: Int
    ) -> EdgeInsets {
        (collectionViewLayout as? WaterfallLayout)?.footerInset ?? .zero
    }

    public func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        minimumInteritemSpacingFor section: Int
    ) -> CGFloat {
        (collectionViewLayout as? WaterfallLayout)?.minimumInteritemSpacing ?? WaterfallLayoutDefaults.spacing
    }

    public func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        minimumColumnSpacingFor section: Int
    ) -> CGFloat {
        (collectionViewLayout as? WaterfallLayout)?.minimumColumnSpacing ?? WaterfallLayoutDefaults.spacing
    }
}
