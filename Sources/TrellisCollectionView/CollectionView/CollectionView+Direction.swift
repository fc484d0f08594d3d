import Foundation

extension CollectionView {
    // MARK: Right to left

    /// Whether the collection view mirrors its layout: when the layout asks for it
    /// (`flipsHorizontallyInOppositeLayoutDirection`, true for the flow and compositional layouts,
    /// as in UIKit) and the view's ``View/effectiveUserInterfaceLayoutDirection`` is not the
    /// layout's `developmentLayoutDirection`. The layout keeps computing in its own direction;
    /// what the collection view hands out — visible views' frames, `layoutAttributesForItem(at:)`,
    /// `indexPathForItem(at:)`, transitions, target offsets — is mirrored.
    public var isMirroringLayout: Bool {
        let layout = layoutStorage
        return layout.flipsHorizontallyInOppositeLayoutDirection
            && effectiveUserInterfaceLayoutDirection != layout.developmentLayoutDirection
    }

    /// The width the content is mirrored across: the content's, or the visible width when the
    /// content is narrower, so that leading items sit at the view's right edge.
    var mirrorWidth: CGFloat {
        let inset = adjustedContentInset
        return max(contentSize.width, bounds.width - inset.left - inset.right)
    }

    /// A rect of the layout's coordinates in the view's, or back (the mirror is its own inverse).
    package func mirrored(_ rect: CGRect) -> CGRect {
        let r = rect.standardized
        return CGRect(x: mirrorWidth - r.maxX, y: r.minY, width: r.width, height: r.height)
    }

    /// A copy of `attributes` mirrored: its center's x only (an element's content is not mirrored).
    package func mirrored(_ attributes: CollectionViewLayoutAttributes) -> CollectionViewLayoutAttributes {
        attributes.mirroredSnapshot(across: mirrorWidth)
    }

    /// Attributes from the layout as the view shows them.
    func shown(_ attributes: CollectionViewLayoutAttributes?) -> CollectionViewLayoutAttributes? {
        guard let attributes, isMirroringLayout else { return attributes }
        return mirrored(attributes)
    }

    /// A point of the view's content in the layout's coordinates, or back.
    func mirrored(_ point: CGPoint) -> CGPoint {
        CGPoint(x: mirrorWidth - point.x, y: point.y)
    }

    /// A content offset of the view in the layout's coordinates (the origin of the mirrored
    /// viewport), or back.
    func mirroredOffset(_ offset: CGPoint) -> CGPoint {
        CGPoint(x: mirrorWidth - offset.x - bounds.width, y: offset.y)
    }

    /// The layout's `targetContentOffset(forProposedContentOffset:)`, in the view's coordinates.
    func layoutTargetOffset(_ layout: CollectionViewLayout, proposed: CGPoint) -> CGPoint {
        guard isMirroringLayout else { return layout.targetContentOffset(forProposedContentOffset: proposed) }
        return mirroredOffset(layout.targetContentOffset(forProposedContentOffset: mirroredOffset(proposed)))
    }
}
