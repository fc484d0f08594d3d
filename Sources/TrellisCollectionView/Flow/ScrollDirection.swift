import Foundation

extension CollectionView {
    /// The axis along which a layout scrolls (`UICollectionView.ScrollDirection`).
    public enum ScrollDirection: Int, Hashable, Sendable, CaseIterable {
        /// Content scrolls up and down; flow lines are rows.
        case vertical = 0
        /// Content scrolls left and right; flow lines are columns.
        case horizontal = 1

        /// The case's name, as specs and renderers write it.
        package var name: String { self == .vertical ? "vertical" : "horizontal" }
    }
}

/// The older spelling of ``CollectionView/ScrollDirection`` (`UICollectionViewScrollDirection`).
public typealias CollectionViewScrollDirection = CollectionView.ScrollDirection

/// The scroll direction, as the package's own code spells it.
package typealias ScrollDirection = CollectionView.ScrollDirection
