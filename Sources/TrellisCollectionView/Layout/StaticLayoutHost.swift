import Foundation

/// Drives a layout from item counts alone: a ``CollectionView`` whose data source is a list of
/// counts and which builds no views. Tests, renderers and the command line use it; the layout
/// sees an ordinary collection view.
///
/// ```swift
/// let layout = CollectionViewFlowLayout()
/// layout.itemSize = CGSize(width: 100, height: 60)
/// let host = StaticLayoutHost(layout: layout, itemCounts: [7],
///                             bounds: CGRect(x: 0, y: 0, width: 375, height: 667))
/// host.layoutAttributesForElements(in: host.bounds)?.count  // 7
/// ```
///
/// Unlike a collection view's `delegate`, the host keeps a strong reference to its delegate, so a
/// test can pass a delegate object inline.
public final class StaticLayoutHost {
    /// The collection view the layout is attached to.
    public let collectionView: CollectionView
    private let counts: CountsDataSource

    /// The layout; attached to the collection view on assignment (and the previous one detached).
    public var layout: CollectionViewLayout {
        get { collectionView.collectionViewLayout }
        set {
            guard newValue !== collectionView.collectionViewLayout else { return }
            collectionView.replaceLayout(with: newValue)
        }
    }

    /// The number of items in each section. Changing it reloads the data.
    public var itemCounts: [Int] {
        get { counts.itemCounts }
        set {
            counts.itemCounts = newValue
            collectionView.reloadData()
        }
    }

    /// The visible rectangle. Use ``setBounds(_:)`` to change it.
    public var bounds: CGRect { collectionView.bounds }
    /// The content inset.
    public var contentInset: EdgeInsets {
        get { collectionView.contentInset }
        set { collectionView.contentInset = newValue }
    }
    /// The safe area, for layouts that measure from it.
    public var safeAreaInsets: EdgeInsets {
        get { collectionView.safeAreaInsets }
        set { collectionView.safeAreaInsets = newValue }
    }
    /// The layout margins, for layouts that measure from them.
    public var layoutMargins: EdgeInsets {
        get { collectionView.layoutMargins }
        set { collectionView.layoutMargins = newValue }
    }
    /// Pixels per point of the display the layout is computed for.
    public var displayScale: CGFloat {
        get { collectionView.displayScale }
        set { collectionView.displayScale = newValue }
    }
    /// The delegate, held strongly (see the type's documentation).
    public var delegate: CollectionViewDelegate? {
        didSet { collectionView.delegate = delegate }
    }

    /// How many layout passes ran the layout's `prepare()`.
    @_spi(Instrumentation) public var prepareCount: Int { collectionView.prepareCount }

    /// Creates a host for `layout` and attaches the layout to its collection view. The layout
    /// margins default to zero here (a plain view's are 8 points).
    public init(
        layout: CollectionViewLayout, itemCounts: [Int],
        bounds: CGRect = CGRect(x: 0, y: 0, width: 375, height: 667),
        contentInset: EdgeInsets = .zero, safeAreaInsets: EdgeInsets = .zero,
        layoutMargins: EdgeInsets = .zero, displayScale: CGFloat = 2,
        delegate: CollectionViewDelegate? = nil
    ) {
        counts = CountsDataSource(itemCounts: itemCounts)
        collectionView = CollectionView(frame: CGRect(origin: .zero, size: bounds.size), collectionViewLayout: layout)
        collectionView.bounds = bounds
        collectionView.contentInsetAdjustmentBehavior = .never
        collectionView.contentInset = contentInset
        collectionView.safeAreaInsets = safeAreaInsets
        collectionView.layoutMargins = layoutMargins
        collectionView.displayScale = displayScale
        self.delegate = delegate
        collectionView.delegate = delegate
        collectionView.dataSource = counts
    }

    /// Changes the bounds the way scrolling or resizing does: the layout is asked whether the
    /// change invalidates it and, if so, its own context is passed to `invalidateLayout(with:)`.
    public func setBounds(_ newBounds: CGRect) {
        collectionView.bounds = newBounds
    }

    /// Runs the layout pass if the layout is stale: one `prepare()` for any number of invalidations.
    public func layoutIfNeeded() {
        collectionView.prepareLayoutIfNeeded()
    }

    /// The content size, after a layout pass if one is due.
    public var contentSize: CGSize {
        layoutIfNeeded()
        return collectionView.contentSize
    }

    /// The elements in `rect`, after a layout pass if one is due.
    public func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
        layoutIfNeeded()
        return layout.layoutAttributesForElements(in: rect)
    }

    /// The attributes of one item, after a layout pass if one is due.
    public func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        layoutIfNeeded()
        return layout.layoutAttributesForItem(at: indexPath)
    }

    /// The attributes of one supplementary view, after a layout pass if one is due.
    public func layoutAttributesForSupplementaryElement(
        ofKind kind: String,
        at indexPath: IndexPath
    ) -> CollectionViewLayoutAttributes? {
        layoutIfNeeded()
        return layout.layoutAttributesForSupplementaryView(ofKind: kind, at: indexPath)
    }
}

/// The data source of a ``StaticLayoutHost``: counts, and plain cells should anything ask.
private final class CountsDataSource: CollectionViewDataSource {
    var itemCounts: [Int]

    init(itemCounts: [Int]) { self.itemCounts = itemCounts }

    func numberOfSections(in collectionView: CollectionView) -> Int { itemCounts.count }

    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int {
        itemCounts.indices.contains(section) ? itemCounts[section] : 0
    }

    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
        collectionView.dequeueReusableCell(withReuseIdentifier: "", for: indexPath)
    }
}
