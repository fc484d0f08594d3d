import Foundation

/// The layout a collection view uses while it changes layouts interactively
/// (`UICollectionViewTransitionLayout`): every element is where ``currentLayout`` and
/// ``nextLayout`` put it, mixed by ``transitionProgress`` — frame, alpha and 3D transform linearly
/// (as the animated transitions of ``CollectionViewTransition`` mix them); an element that only
/// one of the layouts has fades, out as the progress grows if it is the current layout's, in if
/// it is the next one's. The content size is mixed the same way.
///
/// ```swift
/// let transition = collectionView.startInteractiveTransition(to: listLayout)
/// transition.transitionProgress = 0.5      // from a pinch, a slider…
/// collectionView.layoutIfNeeded()          // every visible element halfway
/// collectionView.finishInteractiveTransition()
/// ```
///
/// Subclass it to move elements another way (follow a finger, take a curved path): override the
/// same methods as any layout and read `transitionProgress` and ``value(forAnimatedKey:)``.
open class CollectionViewTransitionLayout: CollectionViewLayout {
    /// The layout the transition starts from.
    public let currentLayout: CollectionViewLayout
    /// The layout the transition ends at.
    public let nextLayout: CollectionViewLayout

    /// How far the transition has gone: 0 is the current layout, 1 the next one. Setting it
    /// invalidates the layout; a value that is not finite is ignored.
    open var transitionProgress: CGFloat = 0 {
        didSet {
            if !transitionProgress.isFinite { transitionProgress = oldValue; return }
            if transitionProgress != oldValue { invalidateLayout() }
        }
    }

    private var animatedValues: [String: CGFloat] = [:]

    /// A transition from `currentLayout` to `newLayout`, at progress 0.
    public init(currentLayout: CollectionViewLayout, nextLayout newLayout: CollectionViewLayout) {
        self.currentLayout = currentLayout
        self.nextLayout = newLayout
        super.init()
    }

    /// A transition between two empty flow layouts (nothing is archived).
    public required init?(coder: NSCoder) {
        currentLayout = CollectionViewFlowLayout()
        nextLayout = CollectionViewFlowLayout()
        super.init(coder: coder)
    }

    /// Records a value of your own for `key` (a finger's position, a scale), to read back in
    /// your overrides with ``value(forAnimatedKey:)``.
    open func updateValue(_ value: CGFloat, forAnimatedKey key: String) {
        animatedValues[key] = value
    }

    /// The value last recorded for `key`; 0 when none was.
    open func value(forAnimatedKey key: String) -> CGFloat {
        animatedValues[key] ?? 0
    }

    // MARK: The layout pass

    /// Prepares both layouts (each only when it is stale).
    open override func prepare() {
        super.prepare()
        prepareEnds()
    }

    /// Either end may have been invalidated on its own (by a bounds change it asked for).
    private func prepareEnds() {
        currentLayout.prepareIfNeeded()
        nextLayout.prepareIfNeeded()
    }

    /// The two layouts' content sizes, mixed by the progress.
    open override var collectionViewContentSize: CGSize {
        prepareEnds()
        let a = currentLayout.collectionViewContentSize, b = nextLayout.collectionViewContentSize
        return CGSize(width: mix(a.width, b.width), height: mix(a.height, b.height))
    }

    /// The elements either layout places in `rect`, each mixed, and kept where the mixed frame
    /// meets `rect` (an element whose mixed frame misses the rect costs no object).
    open override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
        prepareEnds()
        let from = currentLayout.layoutAttributesForElements(in: rect) ?? []
        let to = nextLayout.layoutAttributesForElements(in: rect) ?? []
        var next: [ElementID: CollectionViewLayoutAttributes] = [:]
        next.reserveCapacity(to.count)
        for attributes in to { next[ElementID(attributes)] = attributes }
        var result: [CollectionViewLayoutAttributes] = []
        result.reserveCapacity(from.count + to.count)
        recycler.begin()
        let t = transitionProgress
        // An element both answers hold is taken out of `next` when the current layout's is met,
        // so the next layout's loop sees only its own (in its answer's order).
        for attributes in from {
            let id = ElementID(attributes)
            let other = next.removeValue(forKey: id).map(End.init) ?? Self.end(of: id, in: nextLayout)
            if let mixed = mixed(id, from: End(attributes), to: other, within: rect, progress: t) { result.append(mixed) }
        }
        for attributes in to {
            let id = ElementID(attributes)
            guard next.removeValue(forKey: id) != nil else { continue }
            if let mixed = mixed(id, from: Self.end(of: id, in: currentLayout), to: End(attributes), within: rect, progress: t) {
                result.append(mixed)
            }
        }
        return result
    }

    /// One end of an element's transition: its attributes, or only a plain frame where the layout
    /// gives one without building them.
    struct End {
        var frame: CGRect
        var object: CollectionViewLayoutAttributes?
        init(_ attributes: CollectionViewLayoutAttributes) { frame = attributes.frame; object = attributes }
        init(frame: CGRect) { self.frame = frame; object = nil }
        /// Of the base class, without a transform (a plain frame is).
        var isPlain: Bool {
            object.map { type(of: $0) == CollectionViewLayoutAttributes.self && Transform3DIsIdentity($0.transform3D) } ?? true
        }
        var alpha: CGFloat { object?.alpha ?? 1 }
        var zIndex: Int { object?.zIndex ?? 0 }
        var isHidden: Bool { object?.isHidden ?? false }
        /// The attributes object, made from the plain frame when there is none.
        func attributes(_ id: ElementID) -> CollectionViewLayoutAttributes {
            if let object { return object }
            let made = CollectionViewLayoutAttributes(category: id.category, kind: id.kind, section: id.section, item: id.item)
            if id.item == ElementID.noIndex { made.indexPath = id.indexPath }
            made.frame = frame
            return made
        }
    }

    /// An element's end in `layout`, or `nil` when the layout has no such element.
    static func end(of id: ElementID, in layout: CollectionViewLayout) -> End? {
        if let plain = layout.plainFrame(of: id) { return plain.map { End(frame: $0) } }
        return attributes(of: id, in: layout).map(End.init)
    }

    open override func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        element(ElementID(category: .cell, kind: nil, indexPath: indexPath))
    }

    open override func layoutAttributesForSupplementaryView(
        ofKind elementKind: String,
        at indexPath: IndexPath
    ) -> CollectionViewLayoutAttributes? {
        element(ElementID(category: .supplementaryView, kind: elementKind, indexPath: indexPath))
    }

    open override func layoutAttributesForDecorationView(
        ofKind elementKind: String,
        at indexPath: IndexPath
    ) -> CollectionViewLayoutAttributes? {
        element(ElementID(category: .decorationView, kind: elementKind, indexPath: indexPath))
    }

    /// A change of the data or of everything reaches both layouts; a bounds change that either
    /// layout wants invalidates the transition.
    open override func invalidateLayout(with context: CollectionViewLayoutInvalidationContext) {
        if context.invalidateEverything || context.invalidateDataSourceCounts {
            for layout in [currentLayout, nextLayout] {
                layout.invalidateLayout(
                    with: type(of: layout).makeInvalidationContext(
                        everything: context.invalidateEverything, dataSourceCounts: context.invalidateDataSourceCounts))
            }
        }
        super.invalidateLayout(with: context)
    }

    open override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool {
        let current = currentLayout.shouldInvalidateLayout(forBoundsChange: newBounds)
        let next = nextLayout.shouldInvalidateLayout(forBoundsChange: newBounds)
        if current { currentLayout.invalidateLayout(with: currentLayout.invalidationContext(forBoundsChange: newBounds)) }
        if next { nextLayout.invalidateLayout(with: nextLayout.invalidationContext(forBoundsChange: newBounds)) }
        return current || next
    }

    // MARK: Mixing

    private func mix(_ a: CGFloat, _ b: CGFloat) -> CGFloat { a + (b - a) * transitionProgress }

    private func element(_ id: ElementID) -> CollectionViewLayoutAttributes? {
        prepareEnds()
        let from = Self.attributes(of: id, in: currentLayout), to = Self.attributes(of: id, in: nextLayout)
        guard from != nil || to != nil else { return nil }
        return mixed(id, from: from, to: to)
    }

    /// Reuses the objects of the previous rect query that no one holds any more.
    private let recycler = AttributesRecycler()

    /// The mixed frame of an element: both ends' frames interpolated, or the one end's.
    private func mixedFrame(_ from: End?, _ to: End?, _ t: CGFloat) -> CGRect {
        guard let from else { return to?.frame ?? .zero }
        guard let to else { return from.frame }
        let a = from.frame, b = to.frame
        return CGRect(
            x: a.minX + (b.minX - a.minX) * t, y: a.minY + (b.minY - a.minY) * t,
            width: max(0, a.width + (b.width - a.width) * t), height: max(0, a.height + (b.height - a.height) * t))
    }

    /// One element of a rect query mixed, or `nil` when its mixed frame misses `rect`. Plain
    /// elements are made from the recycler; others as ``mixed(_:from:to:)``.
    private func mixed(_ id: ElementID, from: End?, to: End?, within rect: CGRect, progress t: CGFloat) -> CollectionViewLayoutAttributes? {
        let frame = mixedFrame(from, to, t)
        guard LayoutGeometry.intersects(frame, rect) else { return nil }
        guard from?.isPlain ?? true, to?.isPlain ?? true, attributesClass == CollectionViewLayoutAttributes.self else {
            return mixed(id, from: from?.attributes(id), to: to?.attributes(id))
        }
        let p = min(max(t, 0), 1)
        let alpha: CGFloat
        switch (from, to) {
        case let (a?, b?): alpha = a.alpha + (b.alpha - a.alpha) * p
        case let (a?, nil): alpha = a.alpha * (1 - p)
        case let (nil, b?): alpha = b.alpha * p
        case (nil, nil): alpha = 0
        }
        let attributes = recycler.make(category: id.category, kind: id.kind, section: id.section, item: id.item, frame: frame)
        if id.item == ElementID.noIndex { attributes.indexPath = id.indexPath }
        if alpha != 1 { attributes.alpha = alpha }
        let z = t < 0.5 ? (from ?? to)!.zIndex : (to ?? from)!.zIndex
        if z != 0 { attributes.zIndex = z }
        if (from?.isHidden ?? true) && (to?.isHidden ?? true) { attributes.isHidden = true }
        return attributes
    }

    /// One element mixed: both ends interpolated, or the one end faded.
    private func mixed(
        _ id: ElementID, from: CollectionViewLayoutAttributes?,
        to: CollectionViewLayoutAttributes?
    ) -> CollectionViewLayoutAttributes {
        let start: CollectionViewLayoutAttributes, end: CollectionViewLayoutAttributes
        switch (from, to) {
        case let (a?, b?): (start, end) = (a, b)
        case let (a?, nil): (start, end) = (a, CollectionView.faded(a))
        case let (nil, b?): (start, end) = (CollectionView.faded(b), b)
        case (nil, nil):
            let empty = attributesClass.init(category: id.category, kind: id.kind, section: 0, item: 0)
            empty.indexPath = id.indexPath
            return empty
        }
        let element = CollectionViewTransition.Element(before: id, after: id, role: .moving, from: start, to: end)
        let p = Double(transitionProgress)
        // Progress past either end extrapolates the frame, as a rubber-banding pinch shows.
        let result = element.attributes(atProgress: min(max(p, 0), 1))
        if p < 0 || p > 1 {
            let t = transitionProgress
            result.frame = CGRect(
                x: start.frame.minX + (end.frame.minX - start.frame.minX) * t,
                y: start.frame.minY + (end.frame.minY - start.frame.minY) * t,
                width: max(0, start.frame.width + (end.frame.width - start.frame.width) * t),
                height: max(0, start.frame.height + (end.frame.height - start.frame.height) * t))
        }
        result.zIndex = transitionProgress < 0.5 ? start.zIndex : end.zIndex
        return result
    }

    static func attributes(of id: ElementID, in layout: CollectionViewLayout) -> CollectionViewLayoutAttributes? {
        CollectionView.attributes(layout, id)
    }
}
