import Foundation

/// The axis along which a layout scrolls (`UICollectionView.ScrollDirection`).
public enum ScrollDirection: String, Hashable, Sendable, CaseIterable {
    /// Content scrolls up and down; flow lines are rows.
    case vertical
    /// Content scrolls left and right; flow lines are columns.
    case horizontal
}
