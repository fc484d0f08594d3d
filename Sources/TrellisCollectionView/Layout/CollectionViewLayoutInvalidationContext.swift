import Foundation

/// What part of a layout an invalidation concerns (`UICollectionViewLayoutInvalidationContext`).
///
/// `invalidateLayout()` passes a fresh context with nothing set; the collection view sets
/// ``invalidateEverything`` when the layout, the data source or all data change and
/// ``invalidateDataSourceCounts`` for inserts, deletes and reloads. Several invalidations before
/// the next layout pass are merged into one context, which the layout's `prepare()` answers.
///
/// Subclasses add their own flags, as in UIKit, and a layout reads them in its override of
/// `invalidateLayout(with:)`.
open class CollectionViewLayoutInvalidationContext: NSObject {
    /// Whether the whole layout must be recomputed. Set by the collection view.
    public private(set) var invalidateEverything: Bool = false
    /// Whether item and section counts changed. Set by the collection view.
    public private(set) var invalidateDataSourceCounts: Bool = false
    /// Item index paths whose attributes are invalid: deduplicated, in the order first added.
    public private(set) var invalidatedItemIndexPaths: [IndexPath]? = nil
    /// Supplementary index paths per kind, deduplicated, in the order first added.
    public private(set) var invalidatedSupplementaryIndexPaths: [String: [IndexPath]]? = nil
    /// Decoration index paths per kind, deduplicated, in the order first added.
    public private(set) var invalidatedDecorationIndexPaths: [String: [IndexPath]]? = nil
    /// How far the collection view should move its content offset after the layout pass.
    open var contentOffsetAdjustment: CGPoint = .zero
    /// How much the content size changes; a layout may add it to its own estimate.
    open var contentSizeAdjustment: CGSize = .zero
    /// During an interactive move, where the moving items were before this update; at its end,
    /// where they were before the last update. Set by the layout's interactive-movement contexts.
    public internal(set) var previousIndexPathsForInteractivelyMovingItems: [IndexPath]? = nil
    /// During an interactive move, where the moving items go; at its end, their final places
    /// (their original ones when the move was cancelled).
    public internal(set) var targetIndexPathsForInteractivelyMovingItems: [IndexPath]? = nil
    /// The position the moving items follow, in the collection view's content coordinates.
    public internal(set) var interactiveMovementTarget: CGPoint = .zero

    /// A context that invalidates nothing in particular.
    public override init() {
        super.init()
    }

    /// A context with the collection view's flags set: how the collection view and
    /// `invalidateLayout()` create contexts of a layout's `invalidationContextClass`.
    public required convenience init(invalidatingEverything everything: Bool, invalidatingDataSourceCounts counts: Bool) {
        self.init()
        invalidateEverything = everything
        invalidateDataSourceCounts = counts || everything
    }

    /// Marks items as invalid.
    open func invalidateItems(at indexPaths: [IndexPath]) {
        invalidatedItemIndexPaths = Self.appendingUnique(invalidatedItemIndexPaths ?? [], indexPaths)
    }

    /// Marks supplementary elements of `elementKind` as invalid.
    open func invalidateSupplementaryElements(ofKind elementKind: String, at indexPaths: [IndexPath]) {
        var all = invalidatedSupplementaryIndexPaths ?? [:]
        all[elementKind] = Self.appendingUnique(all[elementKind] ?? [], indexPaths)
        invalidatedSupplementaryIndexPaths = all
    }

    /// Marks decoration elements of `elementKind` as invalid.
    open func invalidateDecorationElements(ofKind elementKind: String, at indexPaths: [IndexPath]) {
        var all = invalidatedDecorationIndexPaths ?? [:]
        all[elementKind] = Self.appendingUnique(all[elementKind] ?? [], indexPaths)
        invalidatedDecorationIndexPaths = all
    }

    /// Folds `other` into this context: flags are or-ed, index paths unioned (first occurrence
    /// kept), adjustments summed. The built-in contexts with flags of their own extend it.
    package func merge(_ other: CollectionViewLayoutInvalidationContext) {
        invalidateEverything = invalidateEverything || other.invalidateEverything
        invalidateDataSourceCounts = invalidateDataSourceCounts || other.invalidateDataSourceCounts
        if let items = other.invalidatedItemIndexPaths { invalidateItems(at: items) }
        for (kind, paths) in (other.invalidatedSupplementaryIndexPaths ?? [:]).sorted(by: { $0.key < $1.key }) {
            invalidateSupplementaryElements(ofKind: kind, at: paths)
        }
        for (kind, paths) in (other.invalidatedDecorationIndexPaths ?? [:]).sorted(by: { $0.key < $1.key }) {
            invalidateDecorationElements(ofKind: kind, at: paths)
        }
        contentOffsetAdjustment.x += other.contentOffsetAdjustment.x
        contentOffsetAdjustment.y += other.contentOffsetAdjustment.y
        contentSizeAdjustment.width += other.contentSizeAdjustment.width
        contentSizeAdjustment.height += other.contentSizeAdjustment.height
        // The later movement wins: it says where the moving items are now.
        if let targets = other.targetIndexPathsForInteractivelyMovingItems {
            targetIndexPathsForInteractivelyMovingItems = targets
            previousIndexPathsForInteractivelyMovingItems = other.previousIndexPathsForInteractivelyMovingItems
            interactiveMovementTarget = other.interactiveMovementTarget
        }
        mergeFlags(from: other)
    }

    /// Merges the flags a built-in subclass adds; the base has none.
    package func mergeFlags(from other: CollectionViewLayoutInvalidationContext) {}

    private static func appendingUnique(_ existing: [IndexPath], _ new: [IndexPath]) -> [IndexPath] {
        var seen = Set(existing)
        var result = existing
        for path in new where seen.insert(path).inserted { result.append(path) }
        return result
    }
}
