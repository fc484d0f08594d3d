import Foundation

/// A minimal collection view for driving a layout without a full host: fixed item counts, a
/// viewport, insets and a delegate. Tests, renderers and the command line use it.
///
/// ```swift
/// let layout = CollectionViewFlowLayout()
/// layout.itemSize = CGSize(width: 100, height: 60)
/// let host = StaticLayoutHost(layout: layout, itemCounts: [7],
///                             bounds: CGRect(x: 0, y: 0, width: 375, height: 667))
/// host.layoutAttributesForElements(in: host.bounds)?.count  // 7
/// ```
///
/// Unlike UIKit's `delegate`, the host keeps a strong reference to its delegate, so a test can
/// pass a delegate object inline.
public final class StaticLayoutHost: CollectionViewLayoutHost {
    /// The layout; attached to this host on assignment (and the previous one detached).
    public var layout: CollectionViewLayout {
        didSet {
            guard layout !== oldValue else { return }
            oldValue.attach(to: nil)
            layout.attach(to: self)
        }
    }
    /// The number of items in each section. Changing it invalidates everything and the counts.
    public var itemCounts: [Int] {
        didSet { invalidate(everything: true) }
    }
    /// The visible rectangle. Use ``setBounds(_:)`` to go through the layout's bounds-change protocol.
    public private(set) var bounds: CGRect
    /// The content inset; also the adjusted inset, since this host adds no system inset.
    public var contentInset: EdgeInsets { didSet { invalidate(everything: true) } }
    /// The safe area, for layouts that measure from it.
    public var safeAreaInsets: EdgeInsets { didSet { invalidate(everything: true) } }
    /// The layout margins, for layouts that measure from them.
    public var layoutMargins: EdgeInsets { didSet { invalidate(everything: true) } }
    /// Pixels per point of the display the layout is computed for.
    public var displayScale: CGFloat { didSet { invalidate(everything: true) } }
    /// The delegate, held strongly (see the type's documentation).
    public var delegate: (any CollectionViewDelegate)? { didSet { invalidate(everything: true) } }

    /// How many layout passes ran ``CollectionViewLayout/prepare()``.
    public private(set) var prepareCount = 0

    /// Creates a host for `layout` and attaches the layout to it.
    public init(layout: CollectionViewLayout, itemCounts: [Int],
                bounds: CGRect = CGRect(x: 0, y: 0, width: 375, height: 667),
                contentInset: EdgeInsets = .zero, safeAreaInsets: EdgeInsets = .zero,
                layoutMargins: EdgeInsets = .zero, displayScale: CGFloat = 2,
                delegate: (any CollectionViewDelegate)? = nil) {
        self.layout = layout
        self.itemCounts = itemCounts
        self.bounds = bounds
        self.contentInset = contentInset
        self.safeAreaInsets = safeAreaInsets
        self.layoutMargins = layoutMargins
        self.displayScale = displayScale
        self.delegate = delegate
        layout.attach(to: self)
    }

    public var numberOfSections: Int { itemCounts.count }

    public func numberOfItems(inSection section: Int) -> Int {
        itemCounts.indices.contains(section) ? itemCounts[section] : 0
    }

    /// Changes the bounds the way a scroll view does: asks the layout whether the change
    /// invalidates it and, if so, passes the layout's own context to `invalidateLayout(with:)`.
    public func setBounds(_ newBounds: CGRect) {
        guard newBounds != bounds else { return }
        if layout.shouldInvalidateLayout(forBoundsChange: newBounds) {
            let context = layout.invalidationContext(forBoundsChange: newBounds)
            bounds = newBounds
            layout.invalidateLayout(with: context)
        } else {
            bounds = newBounds
        }
    }

    /// Runs the layout pass if the layout is stale: one `prepare()` for any number of invalidations.
    public func layoutIfNeeded() {
        if layout.prepareIfNeeded() { prepareCount += 1 }
    }

    /// The content size, after a layout pass if one is due.
    public var contentSize: CGSize {
        layoutIfNeeded()
        return layout.collectionViewContentSize
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
    public func layoutAttributesForSupplementaryElement(ofKind kind: String,
                                                        at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        layoutIfNeeded()
        return layout.layoutAttributesForSupplementaryView(ofKind: kind, at: indexPath)
    }

    private func invalidate(everything: Bool) {
        let context = type(of: layout).invalidationContextClass.init()
        context.setHostFlags(everything: everything, dataSourceCounts: everything)
        layout.invalidateLayout(with: context)
    }
}
