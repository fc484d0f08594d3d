import TrellisCollectionView

/// Scrolling an orthogonal section of a compositional layout. UIKit gives each such section a
/// scroll view of its own that the user swipes; a headless host has none, so these stand for the
/// swipe: the offset is kept by the layout and every pass draws the section there.
extension CollectionView {
    /// The content offset of an orthogonally scrolling section (zero for any other section, or
    /// when the layout is not compositional).
    public func orthogonalContentOffset(forSection section: Int) -> CGPoint {
        (collectionViewLayout as? CollectionViewCompositionalLayout)?.orthogonalContentOffset(forSection: section) ?? .zero
    }

    /// Scrolls an orthogonal section to `offset` (clamped to its content) and lays out, as a
    /// drag of that section's scroll view would.
    public func setOrthogonalContentOffset(_ offset: CGPoint, forSection section: Int) {
        guard let layout = collectionViewLayout as? CollectionViewCompositionalLayout else { return }
        layoutIfNeeded()
        layout.setOrthogonalContentOffset(offset, forSection: section)
        layoutIfNeeded()
    }

    /// Ends a (simulated) swipe of an orthogonal section with `velocity` in points per
    /// millisecond: projects where it would stop at the section's
    /// `orthogonalScrollingProperties.decelerationRate` (`.automatic`: ``ScrollView/decelerationRate``),
    /// lets the section's `orthogonalScrollingBehavior` pick the resting place, scrolls there and
    /// returns it.
    @discardableResult
    public func endOrthogonalDragging(inSection section: Int, withVelocity velocity: CGPoint) -> CGPoint {
        guard let layout = collectionViewLayout as? CollectionViewCompositionalLayout else { return .zero }
        layoutIfNeeded()
        let current = layout.orthogonalContentOffset(forSection: section)
        let r = layout.orthogonalDecelerationRate(forSection: section) ?? decelerationRate.rawValue
        let factor = r > 0 && r < 1 ? r / (1 - r) : 0
        let projected = CGPoint(x: current.x + velocity.x * factor, y: current.y + velocity.y * factor)
        let target = layout.targetOrthogonalContentOffset(
            forProposedContentOffset: projected, withScrollingVelocity: velocity,
            inSection: section)
        layout.setOrthogonalContentOffset(target, forSection: section)
        layoutIfNeeded()
        return layout.orthogonalContentOffset(forSection: section)
    }
}
