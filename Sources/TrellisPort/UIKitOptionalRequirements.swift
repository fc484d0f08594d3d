/// The optional requirements of UIKit's collection-view protocols that Trellis declares as
/// requirements with defaults (the default gives UIKit's answer for a delegate that does not
/// implement the method). A ported `delegate?.collectionView?(…)` of one of these becomes a plain
/// call. A test checks this list against the protocol extensions of `TrellisCollectionView`.
enum UIKitOptionalRequirements {
    static let names: Set<String> = [
        "collectionView(_:canEditItemAt:)",
        "collectionView(_:canMoveItemAt:)",
        "collectionView(_:cancelPrefetchingForItemsAt:)",
        "collectionView(_:didDeselectItemAt:)",
        "collectionView(_:didEndDisplaying:forItemAt:)",
        "collectionView(_:didEndDisplayingSupplementaryView:forElementOfKind:at:)",
        "collectionView(_:didHighlightItemAt:)",
        "collectionView(_:didSelectItemAt:)",
        "collectionView(_:didUnhighlightItemAt:)",
        "collectionView(_:layout:insetForSectionAt:)",
        "collectionView(_:layout:minimumInteritemSpacingForSectionAt:)",
        "collectionView(_:layout:minimumLineSpacingForSectionAt:)",
        "collectionView(_:layout:referenceSizeForFooterInSection:)",
        "collectionView(_:layout:referenceSizeForHeaderInSection:)",
        "collectionView(_:layout:sizeForItemAt:)",
        "collectionView(_:layout:sizesForItemsInSection:)",
        "collectionView(_:moveItemAt:to:)",
        "collectionView(_:shouldDeselectItemAt:)",
        "collectionView(_:shouldHighlightItemAt:)",
        "collectionView(_:shouldSelectItemAt:)",
        "collectionView(_:targetIndexPathForMoveFromItemAt:toProposedIndexPath:)",
        "collectionView(_:transitionLayoutForOldLayout:newLayout:)",
        "collectionView(_:targetIndexPathForMoveOfItemFromOriginalIndexPath:atCurrentIndexPath:toProposedIndexPath:)",
        "collectionView(_:targetContentOffsetForProposedContentOffset:)",
        "collectionView(_:viewForSupplementaryElementOfKind:at:)",
        "collectionView(_:willDisplay:forItemAt:)",
        "collectionView(_:willDisplaySupplementaryView:forElementKind:at:)",
        "numberOfSections(in:)",
        "scrollViewDidEndDecelerating(_:)",
        "scrollViewDidEndDragging(_:willDecelerate:)",
        "scrollViewDidEndScrollingAnimation(_:)",
        "scrollViewDidScroll(_:)",
        "scrollViewWillBeginDecelerating(_:)",
        "scrollViewWillBeginDragging(_:)",
        "scrollViewWillEndDragging(_:withVelocity:targetContentOffset:)",
    ]
}
