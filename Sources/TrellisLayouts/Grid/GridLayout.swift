import TrellisCollectionView

/// Equal cells in a fixed number of columns, or as many columns as fit a minimum width: the grid
/// every photo picker and icon view uses, closed-form (nothing stored per item).
///
/// ```swift
/// let layout = GridLayout()
/// layout.columns = .minimumWidth(100)   // as many columns of at least 100 points as fit
/// layout.itemHeight = .aspectRatio(1)   // square cells
/// layout.interitemSpacing = 2
/// layout.lineSpacing = 2
/// ```
///
/// Columns share the width between the section insets equally, with `interitemSpacing` between
/// them; rows are `lineSpacing` apart. Each section is its header (`headerHeight`, full width),
/// its rows between `sectionInset`, and its footer. Edges snap to the display's pixel grid. With
/// `scrollDirection = .horizontal` the same holds with the axes swapped: "columns" run across the
/// height, rows go to the right, and heights are widths.
///
/// A bad value does not trap: ``configurationError`` says what, and the layout shows nothing
/// until it is fixed.
///
/// - Complexity: `prepare()` O(sections); an item's frame O(1); a rect query O(log s + k) for
///   k elements.
open class GridLayout: CollectionViewLayout {
    /// How many columns there are.
    public enum ColumnRule: Equatable, Sendable {
        /// Exactly this many.
        case count(Int)
        /// As many as fit with each at least this wide (at least one).
        case minimumWidth(CGFloat)
    }

    /// How tall each cell is (how wide, in a horizontal grid).
    public enum ItemHeight: Equatable, Sendable {
        /// The column width divided by this ratio (width / height): 1 is square, 16/9 wide.
        case aspectRatio(CGFloat)
        /// This many points, whatever the width.
        case fixed(CGFloat)
    }

    /// The scroll direction. Default `.vertical`.
    open var scrollDirection = CollectionView.ScrollDirection.vertical {
        didSet { if scrollDirection != oldValue { invalidateLayout() } }
    }
    /// The columns. Default `.count(3)`.
    open var columns = ColumnRule.count(3) {
        didSet { if columns != oldValue { invalidateLayout() } }
    }
    /// The cells' height. Default `.aspectRatio(1)`.
    open var itemHeight = ItemHeight.aspectRatio(1) {
        didSet { if itemHeight != oldValue { invalidateLayout() } }
    }
    /// The spacing between columns. Default 10.
    open var interitemSpacing: CGFloat = 10 {
        didSet { if interitemSpacing != oldValue { invalidateLayout() } }
    }
    /// The spacing between rows. Default 10.
    open var lineSpacing: CGFloat = 10 {
        didSet { if lineSpacing != oldValue { invalidateLayout() } }
    }
    /// The margins around each section's rows. Default zero.
    open var sectionInset = EdgeInsets.zero {
        didSet { if sectionInset != oldValue { invalidateLayout() } }
    }
    /// The height of each section's header (its width in a horizontal grid); 0, the default, is none.
    open var headerHeight: CGFloat = 0 {
        didSet { if headerHeight != oldValue { invalidateLayout() } }
    }
    /// The height of each section's footer; 0, the default, is none.
    open var footerHeight: CGFloat = 0 {
        didSet { if footerHeight != oldValue { invalidateLayout() } }
    }

    /// Why the last `prepare()` laid out nothing, or `nil` when it succeeded.
    public private(set) var configurationError: LayoutConfigurationError?

    private var geometry: GridGeometry?
    private var transposed = false
    private let recycler = AttributesRecycler()
    /// The one object `forEachLayoutAttributes(in:_:)` hands out, element after element.
    private let elementRecycler = AttributesRecycler()

    /// The number of columns of the last layout (0 before one).
    open var numberOfColumns: Int { geometry?.columns ?? 0 }

    open override func prepare() {
        super.prepare()
        geometry = nil
        configurationError = nil
        guard let collectionView else { return }
        transposed = scrollDirection == .horizontal
        let inset = collectionView.contentInset
        let cross =
            transposed
            ? collectionView.bounds.height - inset.top - inset.bottom
            : collectionView.bounds.width - inset.left - inset.right
        let counts = (0..<collectionView.numberOfSections).map { collectionView.numberOfItems(inSection: $0) }
        do {
            geometry = try GridGeometry(
                width: max(0, cross), scale: collectionView.traitCollection.displayScale,
                rule: columns, itemHeight: itemHeight, interitemSpacing: interitemSpacing,
                lineSpacing: lineSpacing, inset: transposed ? sectionInset.transposedEdges : sectionInset,
                headerHeight: headerHeight, footerHeight: footerHeight, counts: counts)
        } catch {
            configurationError = error
        }
    }

    open override var collectionViewContentSize: CGSize {
        guard let geometry else { return .zero }
        // On the pixel grid, as the last footer's (or row's) snapped edge is.
        let size = CGSize(width: geometry.width, height: LayoutGeometry.snapToPixel(geometry.height, scale: geometry.scale))
        return transposed ? LayoutGeometry.transposed(size) : size
    }

    open override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool {
        guard let bounds = collectionView?.bounds else { return false }
        return transposed ? newBounds.height != bounds.height : newBounds.width != bounds.width
    }

    private func oriented(_ rect: CGRect) -> CGRect { transposed ? LayoutGeometry.transposed(rect) : rect }

    open override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
        layoutAttributes(recycling: recycler) { elements(in: rect, $0) }
    }

    open override func forEachLayoutAttributes(in rect: CGRect, _ body: (CollectionViewLayoutAttributes) -> Void) {
        streamLayoutAttributes(in: rect, walkOf: GridLayout.self, reusing: elementRecycler, to: body) { elements(in: rect, $0) }
    }

    /// Every element whose frame meets `rect`, in the geometry's order.
    private func elements(in rect: CGRect, _ emit: (LayoutElement) -> Void) {
        geometry?.forEachElement(in: oriented(rect.standardized)) { category, kind, section, item, frame in
            emit(LayoutElement(category, kind: kind, section: section, item: item, frame: oriented(frame)))
        }
    }

    open override func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        guard let geometry, indexPath.count == 2, geometry.sections.indices.contains(indexPath.section),
            indexPath.item >= 0, indexPath.item < geometry.sections[indexPath.section].count
        else { return nil }
        return makeAttributes(
            .cell, nil, indexPath.section, indexPath.item,
            oriented(geometry.itemFrame(section: indexPath.section, item: indexPath.item)))
    }

    /// Headers and footers, of UIKit's kinds, at `[section, 0]`.
    open override func layoutAttributesForSupplementaryView(
        ofKind elementKind: String,
        at indexPath: IndexPath
    ) -> CollectionViewLayoutAttributes? {
        guard let geometry, indexPath.count == 2, indexPath.item == 0,
            geometry.sections.indices.contains(indexPath.section)
        else { return nil }
        let frame: CGRect?
        switch elementKind {
        case CollectionView.elementKindSectionHeader: frame = geometry.headerFrame(section: indexPath.section)
        case CollectionView.elementKindSectionFooter: frame = geometry.footerFrame(section: indexPath.section)
        default: return nil
        }
        return frame.map { makeAttributes(.supplementaryView, elementKind, indexPath.section, 0, oriented($0)) }
    }
}

extension EdgeInsets {
    /// The insets with the axes swapped (top ↔ left, bottom ↔ right).
    var transposedEdges: EdgeInsets { EdgeInsets(top: left, left: top, bottom: right, right: bottom) }
}
