import Foundation

/// The elements on screen and what shows each: what a collection view keeps between layout
/// passes. Its update is pure — from the elements the layout answered and the viewport, which
/// views stay, which elements appear, which views go — so it is tested with plain values for
/// views, without a collection view.
///
/// ```swift
/// var set = VisibleSet<String>()
/// set.update(to: attributes, visible: viewport, show: { _, id, existing in existing ?? "view of \(id)" },
///            remove: { id, _ in print("gone:", id) })
/// ```
struct VisibleSet<View> {
    /// What shows each element on screen.
    var views: [ElementID: View] = [:]

    /// Moves the set to the elements of `elements` whose frames meet `visible`, in their order:
    /// `show` is called for each with the view that already shows it (kept) or `nil` (appearing)
    /// and returns the view that shows it now (`nil`: none); then `remove` is called for each view
    /// whose element is no longer on screen.
    ///
    /// - Complexity: O(elements + views before), one dictionary pass each.
    @inline(__always)
    mutating func update(
        to elements: [CollectionViewLayoutAttributes], visible: CGRect,
        show: (CollectionViewLayoutAttributes, ElementID, View?) -> View?,
        remove: (ElementID, View) -> Void
    ) {
        var previous = views
        views = [:]
        var next: [ElementID: View] = [:]
        next.reserveCapacity(elements.count)
        for attributes in elements where LayoutGeometry.intersects(attributes.frame, visible) {
            let id = ElementID(attributes)
            if let view = show(attributes, id, previous.removeValue(forKey: id)) { next[id] = view }
        }
        for (id, view) in previous { remove(id, view) }
        views = next
    }

    /// The elements on screen of `category` (and `kind`, when given), in identity order.
    func elements(_ category: CollectionView.ElementCategory, kind: String? = nil) -> [(id: ElementID, view: View)] {
        views.filter { $0.key.category == category && (kind == nil || $0.key.kind == kind) }
            .sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}

/// The rect a collection view last asked its layout about, the answer, and the layout's
/// generation then: a viewport inside the rect needs no new query until the layout changes.
struct PreparedQuery {
    var rect: CGRect?
    var elements: [CollectionViewLayoutAttributes] = []
    var generation = -1
    /// The width the answer was mirrored across (right to left), or `nil`.
    var mirror: CGFloat?

    /// Whether the answer still covers `visible` for a layout at `generation`, mirrored alike.
    func covers(_ visible: CGRect, generation: Int, mirror: CGFloat? = nil) -> Bool {
        guard let rect else { return false }
        return self.generation == generation && self.mirror == mirror && rect.contains(visible)
    }
}
