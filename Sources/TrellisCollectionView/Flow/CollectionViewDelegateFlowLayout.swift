import Foundation

/// Per-section and per-item values for a ``CollectionViewFlowLayout``
/// (`UICollectionViewDelegateFlowLayout`), asked of the collection view's delegate. Every method
/// is optional: an unimplemented one answers with the layout's own property.
///
/// The signatures are UIKit's with the prefixes dropped, so a ported delegate's methods are the
/// ones called.
public protocol CollectionViewDelegateFlowLayout: CollectionViewDelegate {
    /// The size of the item at `indexPath`.
    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        sizeForItemAt indexPath: IndexPath
    ) -> CGSize
    /// The sizes of all items of `section` in one call, or `nil` to be asked item by item.
    ///
    /// Not in UIKit: a section with a million items costs a million `IndexPath` values when
    /// asked item by item, and one array when asked here.
    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        sizesForItemsInSection section: Int
    ) -> [CGSize]?
    /// The inset of `section`.
    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        insetForSectionAt section: Int
    ) -> EdgeInsets
    /// The minimum spacing between lines of `section`.
    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        minimumLineSpacingForSectionAt section: Int
    ) -> CGFloat
    /// The minimum spacing between items on a line of `section`.
    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        minimumInteritemSpacingForSectionAt section: Int
    ) -> CGFloat
    /// The reference size of the header of `section`; zero along the scroll axis means no header.
    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        referenceSizeForHeaderInSection section: Int
    ) -> CGSize
    /// The reference size of the footer of `section`; zero along the scroll axis means no footer.
    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        referenceSizeForFooterInSection section: Int
    ) -> CGSize
}

extension CollectionViewDelegateFlowLayout {
    public func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        sizeForItemAt indexPath: IndexPath
    ) -> CGSize {
        guard let flow = collectionViewLayout as? CollectionViewFlowLayout else { return .zero }
        flow.delegateAnsweredWithDefault = true
        return flow.itemSize
    }

    public func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        sizesForItemsInSection section: Int
    ) -> [CGSize]? { nil }

    public func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        insetForSectionAt section: Int
    ) -> EdgeInsets {
        (collectionViewLayout as? CollectionViewFlowLayout)?.sectionInset ?? .zero
    }

    public func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        minimumLineSpacingForSectionAt section: Int
    ) -> CGFloat {
        (collectionViewLayout as? CollectionViewFlowLayout)?.minimumLineSpacing ?? FlowLayoutDefaults.spacing
    }

    public func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        minimumInteritemSpacingForSectionAt section: Int
    ) -> CGFloat {
        (collectionViewLayout as? CollectionViewFlowLayout)?.minimumInteritemSpacing ?? FlowLayoutDefaults.spacing
    }

    public func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        referenceSizeForHeaderInSection section: Int
    ) -> CGSize {
        (collectionViewLayout as? CollectionViewFlowLayout)?.headerReferenceSize ?? .zero
    }

    public func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        referenceSizeForFooterInSection section: Int
    ) -> CGSize {
        (collectionViewLayout as? CollectionViewFlowLayout)?.footerReferenceSize ?? .zero
    }
}
