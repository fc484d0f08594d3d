import TrellisCollectionView

extension CollectionViewLayout {
    /// An attributes object of the layout's `layoutAttributesClass` describing one element: what
    /// the built-in layouts answer single-element queries with (a subclass's own attributes class
    /// included).
    func makeAttributes(
        _ category: CollectionView.ElementCategory, _ kind: String?, _ section: Int, _ item: Int,
        _ frame: CGRect
    ) -> CollectionViewLayoutAttributes {
        makeLayoutAttributes(LayoutElement(category, kind: kind, section: section, item: item, frame: frame))
    }
}
