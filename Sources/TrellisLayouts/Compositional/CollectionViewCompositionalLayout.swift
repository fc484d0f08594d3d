import TrellisCollectionView

/// Asked for each section's arrangement, with the section's index and environment: UIKit's
/// `UICollectionViewCompositionalLayoutSectionProvider`.
public typealias CollectionViewCompositionalLayoutSectionProvider = (Int, CollectionLayoutEnvironment) -> CollectionLayoutSection?

/// Sections built from items, groups and supplementaries: UIKit's
/// `UICollectionViewCompositionalLayout`, named so that UIKit code ports by dropping the
/// prefixes, and computing UIKit's frames.
///
/// ```swift
/// let item = CollectionLayoutItem(layoutSize: CollectionLayoutSize(widthDimension: .fractionalWidth(0.25),
///                                                                  heightDimension: .fractionalHeight(1)))
/// let group = CollectionLayoutGroup.horizontal(layoutSize: CollectionLayoutSize(widthDimension: .fractionalWidth(1),
///                                                                               heightDimension: .absolute(80)),
///                                              subitems: [item])
/// let layout = CollectionViewCompositionalLayout(section: CollectionLayoutSection(group: group))
/// // four 80-point-high cells a row, each a quarter of the width
/// ```
///
/// Each section repeats its group for its items. A group whose sizes are all absolute or
/// fractional is resolved once per section, and every frame is a formula of the item's index
/// (nothing stored per item); a section with estimated sizes keeps each item's measured length
/// and the groups' lengths in a sum tree, so one measured cell costs O(log n).
///
/// Not in UIKit, because UIKit keeps it in views: an orthogonally scrolling section's offset
/// lives here (``setOrthogonalContentOffset(_:forSection:)``, or the collection view's
/// `setOrthogonalContentOffset(_:forSection:)`), and the frames this layout reports for such a
/// section are where its cells are on screen, moved by that offset.
///
/// A bad configuration does not trap: ``configurationError`` names the section (and item) and
/// the layout shows nothing until it is fixed.
open class CollectionViewCompositionalLayout: CollectionViewLayout, SwipeActionsProviding, ListAppearanceProviding {
    /// `true`, as UIKit's compositional layout: in a right-to-left collection view groups fill
    /// from the right and orthogonal sections scroll from the right.
    open override var flipsHorizontallyInOppositeLayoutDirection: Bool { true }

    private let fixedSection: CollectionLayoutSection?
    private let sectionProvider: CollectionViewCompositionalLayoutSectionProvider?
    private var storedConfiguration: CollectionViewCompositionalLayoutConfiguration

    /// Every section arranged as `section`.
    public convenience init(section: CollectionLayoutSection) {
        self.init(section: section, configuration: CollectionViewCompositionalLayoutConfiguration())
    }

    public init(section: CollectionLayoutSection, configuration: CollectionViewCompositionalLayoutConfiguration) {
        fixedSection = section
        sectionProvider = nil
        storedConfiguration = configuration.copy()
        super.init()
    }

    /// Each section arranged as `sectionProvider` answers for it.
    public convenience init(sectionProvider: @escaping CollectionViewCompositionalLayoutSectionProvider) {
        self.init(sectionProvider: sectionProvider, configuration: CollectionViewCompositionalLayoutConfiguration())
    }

    public init(
        sectionProvider: @escaping CollectionViewCompositionalLayoutSectionProvider,
        configuration: CollectionViewCompositionalLayoutConfiguration
    ) {
        fixedSection = nil
        self.sectionProvider = sectionProvider
        storedConfiguration = configuration.copy()
        super.init()
    }

    /// Decoding is not supported (a section provider is a closure): this fails.
    public required init?(coder: NSCoder) {
        return nil
    }

    /// A list: every section a list section of `configuration`.
    public class func list(using configuration: CollectionLayoutListConfiguration) -> CollectionViewCompositionalLayout {
        CollectionViewCompositionalLayout(sectionProvider: { _, environment in
            CollectionLayoutSection.list(using: configuration, layoutEnvironment: environment)
        })
    }

    /// The layout-wide configuration (a copy; setting it invalidates the layout).
    open var configuration: CollectionViewCompositionalLayoutConfiguration {
        get { storedConfiguration.copy() }
        set {
            storedConfiguration = newValue.copy()
            invalidateLayout()
        }
    }

    /// Why the last layout pass laid out nothing, or `nil`.
    public private(set) var configurationError: LayoutConfigurationError?

    /// A list section's row: its section's swipe actions provider for `edge`.
    package func swipeActionsConfiguration(forItemAt indexPath: IndexPath, edge: CollectionView.SwipeEdge) -> SwipeActionsConfiguration? {
        guard sections.indices.contains(indexPath.section), let list = sections[indexPath.section].definition.listConfiguration else { return nil }
        let provider = edge == .leading ? list.leadingSwipeActionsConfigurationProvider : list.trailingSwipeActionsConfigurationProvider
        return provider?(indexPath)
    }

    package func listAppearance(ofSection section: Int) -> ListAppearanceKind? {
        guard sections.indices.contains(section), let list = sections[section].definition.listConfiguration else { return nil }
        return list.appearance.kind
    }

    package func separatorConfiguration(forItemAt indexPath: IndexPath) -> ListSeparatorConfiguration? {
        guard sections.indices.contains(indexPath.section), let list = sections[indexPath.section].definition.listConfiguration,
            list.showsSeparators
        else { return nil }
        return list.itemSeparatorHandler?(indexPath, list.separatorConfiguration) ?? list.separatorConfiguration
    }

    // MARK: State

    @exclusivity(unchecked) private var sections: [SectionLayout] = []
    @exclusivity(unchecked) private var sectionIndex = ExtentIndex()
    @exclusivity(unchecked) private var globals: [PlacedSupplementary] = []
    private var contentSize = CGSize.zero
    private var vertical = true
    private var needsRebuild = true
    private var builtFor: BuildKey?
    /// Measured lengths along the scroll axis waiting for the next pass.
    private var pendingItems: [IndexPath: CGFloat] = [:]
    private var pendingSupplementaries: [String: CGFloat] = [:]
    /// Measured boundary supplementaries, by `kind \u{1F} section \u{1F} index`.
    private var supplementaryMeasured: [String: CGFloat] = [:]
    @exclusivity(unchecked) private var orthogonalOffsets: [Int: CGFloat] = [:]
    private let recycler = AttributesRecycler()
    /// The one object ``forEachLayoutAttributes(in:_:)`` hands out, element after element.
    private let streamRecycler = AttributesRecycler()
    private var environment: LayoutEnvironment?

    private struct BuildKey: Equatable {
        var size: CGSize, insets: EdgeInsets, safeArea: EdgeInsets, margins: EdgeInsets, scale: CGFloat
    }

    /// Bytes held for the last layout, capacity included.
    public var memoryFootprint: Int {
        sections.reduce(0) { $0 + $1.bytes } + sectionIndex.bytes
    }

    // MARK: Invalidation

    /// Recomputes everything on the next pass (the sections are asked for again).
    open override func invalidateLayout() {
        needsRebuild = true
        super.invalidateLayout()
    }

    open override func invalidateLayout(with context: CollectionViewLayoutInvalidationContext) {
        if context.invalidateEverything || context.invalidateDataSourceCounts { needsRebuild = true }
        if context.invalidateDataSourceCounts {
            // The items moved: what was measured belongs to other index paths now.
            supplementaryMeasured = [:]
            pendingItems = [:]
            pendingSupplementaries = [:]
            for s in sections.indices { sections[s].dropMeasurements() }
        }
        super.invalidateLayout(with: context)
    }

    open override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool {
        guard let collectionView else { return false }
        if newBounds.size != collectionView.bounds.size { return true }
        return sections.contains { $0.reactsToScrolling }
    }

    open override func shouldInvalidateLayout(
        forPreferredLayoutAttributes preferredAttributes: CollectionViewLayoutAttributes,
        withOriginalAttributes originalAttributes: CollectionViewLayoutAttributes
    ) -> Bool {
        measuredLength(preferredAttributes, originalAttributes) != nil
    }

    open override func invalidationContext(
        forPreferredLayoutAttributes preferredAttributes: CollectionViewLayoutAttributes,
        withOriginalAttributes originalAttributes: CollectionViewLayoutAttributes
    )
        -> CollectionViewLayoutInvalidationContext
    {
        let context = super.invalidationContext(
            forPreferredLayoutAttributes: preferredAttributes,
            withOriginalAttributes: originalAttributes)
        guard let length = measuredLength(preferredAttributes, originalAttributes) else { return context }
        let path = originalAttributes.indexPath
        let old = vertical ? originalAttributes.frame.height : originalAttributes.frame.width
        switch originalAttributes.representedElementCategory {
        case .cell: pendingItems[path] = length
        case .supplementaryView:
            pendingSupplementaries[Self.key(originalAttributes.representedElementKind ?? "", path.section, path.item)] = length
        case .decorationView: break
        }
        // Content above the viewport grew or shrank: keep what is on screen where it is.
        if let collectionView {
            let edge = vertical ? originalAttributes.frame.maxY : originalAttributes.frame.maxX
            let visible = vertical ? collectionView.bounds.minY : collectionView.bounds.minX
            if edge <= visible {
                let delta = length - old
                context.contentOffsetAdjustment = vertical ? CGPoint(x: 0, y: delta) : CGPoint(x: delta, y: 0)
            }
        }
        return context
    }

    /// The new length along the scroll axis when `preferred` changes a measured element.
    private func measuredLength(_ preferred: CollectionViewLayoutAttributes, _ original: CollectionViewLayoutAttributes) -> CGFloat? {
        let path = original.indexPath
        guard path.count == 2, sections.indices.contains(path.section) else { return nil }
        let new = vertical ? preferred.frame.height : preferred.frame.width
        let old = vertical ? original.frame.height : original.frame.width
        guard new.isFinite, new >= 0, new != old else { return nil }
        let section = sections[path.section]
        switch original.representedElementCategory {
        case .cell:
            guard path.item >= 0, path.item < section.count, section.template.leaves[path.item % section.perGroup].estimated
            else { return nil }
            return new
        case .supplementaryView:
            guard
                section.boundaries.contains(where: {
                    $0.kind == original.representedElementKind && $0.index == path.item
                        && $0.estimated
                })
            else { return nil }
            return new
        case .decorationView: return nil
        }
    }

    static func key(_ kind: String, _ section: Int, _ index: Int) -> String { "\(kind)\u{1F}\(section)\u{1F}\(index)" }

    // MARK: The layout pass

    open override func prepare() {
        super.prepare()
        guard let collectionView else { return }
        let key = BuildKey(
            size: collectionView.bounds.size, insets: collectionView.adjustedContentInset,
            safeArea: collectionView.safeAreaInsets, margins: collectionView.layoutMargins,
            scale: collectionView.traitCollection.displayScale)
        do {
            if needsRebuild || key != builtFor || configurationError != nil {
                try build(collectionView)
                builtFor = key
                needsRebuild = false
            } else if !pendingItems.isEmpty || !pendingSupplementaries.isEmpty {
                try applyMeasurements(collectionView)
            }
            configurationError = nil
        } catch {
            sections = []
            sectionIndex.removeAll()
            globals = []
            contentSize = .zero
            configurationError = error
            builtFor = nil
        }
    }

    /// The visible area less the adjusted content inset.
    private func containerSize(_ collectionView: CollectionView) -> CGSize {
        let inset = collectionView.adjustedContentInset
        return CGSize(
            width: max(0, collectionView.bounds.width - inset.left - inset.right),
            height: max(0, collectionView.bounds.height - inset.top - inset.bottom))
    }

    private func referenceInsets(
        _ reference: ContentInsetsReference, _ collectionView: CollectionView,
        _ size: CGSize
    ) -> DirectionalEdgeInsets {
        switch reference {
        case .none: return .zero
        case .automatic, .safeArea:
            let s = collectionView.safeAreaInsets
            return DirectionalEdgeInsets(top: s.top, leading: s.left, bottom: s.bottom, trailing: s.right)
        case .layoutMargins:
            let m = collectionView.layoutMargins
            return DirectionalEdgeInsets(top: m.top, leading: m.left, bottom: m.bottom, trailing: m.right)
        case .readableContent:
            let m = collectionView.layoutMargins
            let readable = min(View.readableWidth, size.width - m.left - m.right)
            let side = (size.width - readable) / 2
            return DirectionalEdgeInsets(top: m.top, leading: max(m.left, side), bottom: m.bottom, trailing: max(m.right, side))
        }
    }

    private func build(_ collectionView: CollectionView) throws(LayoutConfigurationError) {
        let configuration = storedConfiguration
        vertical = configuration.scrollDirection == .vertical
        try LayoutConfigurationError.checkFinite(configuration.interSectionSpacing, "the configuration's interSectionSpacing")
        let size = containerSize(collectionView)
        let traits = collectionView.traitCollection
        let layoutInsets = referenceInsets(configuration.contentInsetsReference, collectionView, size)
        let environment = LayoutEnvironment(
            container: LayoutContainer(contentSize: size, contentInsets: layoutInsets),
            traitCollection: traits)
        self.environment = environment
        var built: [SectionLayout] = []
        let count = collectionView.numberOfSections
        built.reserveCapacity(count)
        for s in 0..<count {
            let items = collectionView.numberOfItems(inSection: s)
            guard let section = fixedSection ?? sectionProvider?(s, environment) else {
                throw LayoutConfigurationError(section: s, "the section provider returned nil; return a section for every index")
            }
            if !vertical, section.orthogonalScrollingBehavior != .none {
                throw LayoutConfigurationError(
                    section: s,
                    "the section scrolls orthogonally inside a horizontal layout; "
                        + "orthogonal sections need a vertical layout")
            }
            let reference =
                section.contentInsetsReference == .automatic
                ? configuration.contentInsetsReference
                : section.contentInsetsReference
            let insets = referenceInsets(reference, collectionView, size)
            try LayoutConfigurationError.checkFinite(section.interGroupSpacing, "the section's interGroupSpacing", section: s)
            for value in [
                section.contentInsets.top, section.contentInsets.leading, section.contentInsets.bottom,
                section.contentInsets.trailing,
            ] {
                try LayoutConfigurationError.checkFinite(value, "the section's content insets", section: s)
            }
            // The section as the last pass built it, whose measurements carry over when its count did not change.
            let previous = sections.indices.contains(s) ? sections[s] : nil
            built.append(
                try SectionLayout(
                    index: s, section: section, itemCount: items, container: size,
                    referenceInsets: insets, vertical: vertical, traits: traits,
                    keeping: previous, environment: environment))
        }
        sections = built
        applyPending()
        try place(collectionView)
    }

    /// Moves pending measurements into the sections.
    private func applyPending() {
        for (path, length) in pendingItems where sections.indices.contains(path.section) {
            sections[path.section].measure(item: path.item, length: length)
        }
        pendingItems = [:]
        for (key, length) in pendingSupplementaries { supplementaryMeasured[key] = length }
        pendingSupplementaries = [:]
    }

    private func applyMeasurements(_ collectionView: CollectionView) throws(LayoutConfigurationError) {
        applyPending()
        try place(collectionView)
    }

    /// Places the sections one after another along the scroll axis, with the layout's own
    /// boundary supplementaries at either end: O(sections).
    private func place(_ collectionView: CollectionView) throws(LayoutConfigurationError) {
        let configuration = storedConfiguration
        let size = containerSize(collectionView)
        let layoutInsets = referenceInsets(configuration.contentInsetsReference, collectionView, size)
        let axis = ScrollAxis(vertical: vertical)
        let crossStart = vertical ? layoutInsets.leading : layoutInsets.top
        let crossLength = vertical ? size.width - layoutInsets.horizontal : size.height - layoutInsets.vertical
        var cursor: CGFloat = 0
        globals = []
        // The layout's own headers, then footers after the sections.
        var globalEnds: [(Int, CollectionLayoutBoundarySupplementaryItem)] = []
        var counters: [String: Int] = [:]
        var startExtent: CGFloat = 0
        for item in configuration.boundarySupplementaryItems {
            let index = counters[item.elementKind, default: 0]
            counters[item.elementKind] = index + 1
            switch item.end(vertical: vertical) {
            case .end: globalEnds.append((index, item)); continue
            case .start, .side: break
            }
            let placed = try PlacedSupplementary.place(
                item, index: index, section: nil, at: cursor, crossStart: crossStart,
                crossLength: crossLength, fullCross: size, axis: axis,
                measured: supplementaryMeasured[Self.key(item.elementKind, -1, index)])
            globals.append(placed)
            if item.extendsBoundary { startExtent = max(startExtent, axis.length(placed.natural)) }
        }
        cursor += startExtent
        sectionIndex.removeAll()
        for s in sections.indices {
            if s > 0 { cursor += configuration.interSectionSpacing }
            try sections[s].place(at: cursor, measured: supplementaryMeasured)
            cursor = sections[s].end
            let reach = sections[s].reach
            sectionIndex.append(min: reach.lowerBound, max: reach.upperBound)
        }
        sectionIndex.seal()
        var endExtent: CGFloat = 0
        for (index, item) in globalEnds {
            let placed = try PlacedSupplementary.place(
                item, index: index, section: nil, at: cursor, crossStart: crossStart,
                crossLength: crossLength, fullCross: size, axis: axis,
                measured: supplementaryMeasured[Self.key(item.elementKind, -1, index)])
            globals.append(placed)
            if item.extendsBoundary { endExtent = max(endExtent, axis.length(placed.natural)) }
        }
        cursor += endExtent
        contentSize = vertical ? CGSize(width: size.width, height: cursor) : CGSize(width: cursor, height: size.height)
    }

    open override var collectionViewContentSize: CGSize { contentSize }

    // MARK: Orthogonal scrolling

    /// The offset of an orthogonally scrolling section's content (zero for other sections).
    public func orthogonalContentOffset(forSection section: Int) -> CGPoint {
        let offset = orthogonalOffsets[section] ?? 0
        return vertical ? CGPoint(x: offset, y: 0) : CGPoint(x: 0, y: offset)
    }

    /// Scrolls an orthogonal section's content to `offset` (its cross-axis part), clamped to the
    /// section's content. The next layout pass draws it there; other sections are untouched.
    public func setOrthogonalContentOffset(_ offset: CGPoint, forSection section: Int) {
        guard sections.indices.contains(section), sections[section].isOrthogonal else { return }
        let value = vertical ? offset.x : offset.y
        guard value.isFinite else { return }
        let range = sections[section].orthogonalOffsetRange(containerLength: orthogonalViewport)
        let clamped = min(max(value, range.lowerBound), range.upperBound)
        guard orthogonalOffsets[section] != clamped else { return }
        orthogonalOffsets[section] = clamped
        invalidateLayout(with: CollectionViewLayoutInvalidationContext())
    }

    /// The deceleration rate an orthogonal section's own properties give, or `nil` for
    /// `.automatic` (and for other sections).
    func orthogonalDecelerationRate(forSection section: Int) -> CGFloat? {
        guard sections.indices.contains(section), sections[section].isOrthogonal else { return nil }
        let rate = sections[section].definition.orthogonalScrollingProperties.decelerationRate
        return rate == .automatic ? nil : rate.rawValue
    }

    /// The size of an orthogonal section's scrolling content, or `nil` for other sections.
    public func orthogonalContentSize(forSection section: Int) -> CGSize? {
        guard sections.indices.contains(section), sections[section].isOrthogonal else { return nil }
        let s = sections[section]
        return CGSize(width: s.orthogonalLength, height: s.end - s.start)
    }

    private var orthogonalViewport: CGFloat {
        guard let collectionView else { return 0 }
        let size = containerSize(collectionView)
        return vertical ? size.width : size.height
    }

    /// Where an orthogonal section comes to rest when a swipe would take it to `proposed` with
    /// `velocity` (points per millisecond), by its `orthogonalScrollingBehavior`, as UIKit's:
    /// `continuous` anywhere; `continuousGroupLeadingBoundary` the nearest group's leading edge;
    /// `paging` page by page (the container's width), at most one page from the current one;
    /// `groupPaging` group by group, at most one group; `groupPagingCentered` likewise with the
    /// group centred.
    open func targetOrthogonalContentOffset(
        forProposedContentOffset proposed: CGPoint, withScrollingVelocity velocity: CGPoint,
        inSection section: Int
    ) -> CGPoint {
        guard sections.indices.contains(section), sections[section].isOrthogonal else { return proposed }
        let s = sections[section]
        let viewport = orthogonalViewport
        let current = orthogonalOffsets[section] ?? 0
        let p = vertical ? proposed.x : proposed.y, v = vertical ? velocity.x : velocity.y
        let range = s.orthogonalOffsetRange(containerLength: viewport)
        func clamp(_ x: CGFloat) -> CGFloat { min(max(x, range.lowerBound), range.upperBound) }
        /// The stop nearest `p` from `stops(i)`, at most one step from the current one when `paged`.
        func snap(step: CGFloat, origin: CGFloat, paged: Bool) -> CGFloat {
            guard step > 0 else { return clamp(p) }
            let here = ((current - origin) / step).rounded()
            var target = ((p - origin) / step).rounded()
            if paged {
                if v > 0 {
                    target = max(here, min(target, here + 1))
                } else if v < 0 {
                    target = min(here, max(target, here - 1))
                } else {
                    target = min(max(target, here - 1), here + 1)
                }
            }
            return clamp(origin + target * step)
        }
        let result: CGFloat
        switch s.behavior {
        case .none, .continuous: result = clamp(p)
        case .continuousGroupLeadingBoundary: result = snap(step: s.pitch, origin: 0, paged: false)
        case .paging: result = snap(step: viewport, origin: 0, paged: true)
        case .groupPaging: result = snap(step: s.pitch, origin: 0, paged: true)
        case .groupPagingCentered:
            result = snap(step: s.pitch, origin: s.crossLead + s.groupCross / 2 - viewport / 2, paged: true)
        }
        return vertical ? CGPoint(x: result, y: proposed.y) : CGPoint(x: proposed.x, y: result)
    }

    // MARK: Queries

    private var scrollState: ScrollState {
        guard let collectionView else { return ScrollState(visibleStart: 0, visibleEnd: 0, offset: .zero) }
        let inset = collectionView.adjustedContentInset
        let b = collectionView.bounds
        return vertical
            ? ScrollState(visibleStart: b.minY + inset.top, visibleEnd: b.maxY - inset.bottom, offset: b.origin)
            : ScrollState(visibleStart: b.minX + inset.left, visibleEnd: b.maxX - inset.right, offset: b.origin)
    }

    /// The attributes class to instantiate, or `nil` for the base class (whose objects the
    /// recycler hands out again).
    private var subclassOfAttributes: CollectionViewLayoutAttributes.Type? {
        let type = Swift.type(of: self).layoutAttributesClass as? CollectionViewLayoutAttributes.Type
        return type == nil || type == CollectionViewLayoutAttributes.self ? nil : type
    }

    private func make(_ element: LayoutElement, as subclass: CollectionViewLayoutAttributes.Type?) -> CollectionViewLayoutAttributes {
        subclass == nil ? recycler.make(element) : makeLayoutAttributes(element)
    }

    private func make(_ element: LayoutElement) -> CollectionViewLayoutAttributes { make(element, as: subclassOfAttributes) }

    open override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
        var result: [CollectionViewLayoutAttributes] = []
        result.reserveCapacity(max(16, recycler.begin()))
        let subclass = subclassOfAttributes
        walk(in: rect, make: { make($0, as: subclass) }, keep: { make($0, as: subclass) }) { result.append($0) }
        return result
    }

    /// Streams the elements through one reused object, section by section, holding none of
    /// them — but for a section with a visible-items handler, whose items the handler sees (and
    /// may change) together before they are handed on; a subclass is asked through its own
    /// ``layoutAttributesForElements(in:)``.
    open override func forEachLayoutAttributes(in rect: CGRect, _ body: (CollectionViewLayoutAttributes) -> Void) {
        // (Of this very class, its attributes are of the base class too.)
        guard Swift.type(of: self) == CollectionViewCompositionalLayout.self else {
            for attributes in layoutAttributesForElements(in: rect) ?? [] { body(attributes) }
            return
        }
        walk(
            in: rect,
            make: { element in
                streamRecycler.begin()
                return streamRecycler.make(element)
            }, keep: makeLayoutAttributes, body)
    }

    /// Every element in `rect`, in order: the layout's boundary supplementaries, then section by
    /// section. A section with a visible-items handler is made in full, by `keep` (which makes
    /// objects that stay distinct), before the handler runs.
    private func walk(
        in rect: CGRect, make: (LayoutElement) -> CollectionViewLayoutAttributes,
        keep: (LayoutElement) -> CollectionViewLayoutAttributes, _ body: (CollectionViewLayoutAttributes) -> Void
    ) {
        let rect = rect.standardized
        // Where the host is scrolled is asked of it only when a section places something by it
        // (boundary supplementaries, a visible-items handler), once.
        var known: ScrollState?
        func state() -> ScrollState {
            if let known { return known }
            let state = scrollState
            known = state
            return state
        }
        for g in globals where LayoutGeometry.intersects(g.natural, rect) {
            body(
                make(
                    LayoutElement(
                        .supplementaryView, kind: g.kind, section: 0, item: g.index,
                        frame: g.natural, zIndex: g.zIndex)))
        }
        let axis = ScrollAxis(vertical: vertical)
        let candidates = sectionIndex.candidates(from: axis.minimum(rect), to: axis.maximum(rect))
        // Each section read where the array holds it, not copied out (and destroyed) per query.
        sections.withUnsafeBufferPointer { sections in
            for s in candidates {
                let offset = orthogonalOffsets.isEmpty ? 0 : orthogonalOffsets[s] ?? 0
                let placed = sections[s].boundaries.isEmpty ? ScrollState.unused : state()
                guard let handler = sections[s].handler, let environment else {
                    sections[s].elements(in: rect, state: placed, orthogonalOffset: offset) { body(make($0)) }
                    continue
                }
                let scroll = state()
                var made: [CollectionViewLayoutAttributes] = []
                sections[s].elements(in: rect, state: scroll, orthogonalOffset: offset) { made.append(keep($0)) }
                let shift = sections[s].isOrthogonal ? offset : 0
                let moved = vertical ? CGPoint(x: shift, y: 0) : CGPoint(x: 0, y: shift)
                let visible = made.map { VisibleItem($0, shift: moved) }
                handler(visible, sections[s].isOrthogonal ? moved : scroll.offset, environment)
                for attributes in made { body(attributes) }
            }
        }
    }

    open override func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        guard indexPath.count == 2, sections.indices.contains(indexPath.section) else { return nil }
        let s = indexPath.section
        guard let element = sections[s].item(indexPath.item, orthogonalOffset: orthogonalOffsets[s] ?? 0) else { return nil }
        return make(element).copy() as? CollectionViewLayoutAttributes
    }

    open override func layoutAttributesForSupplementaryView(
        ofKind elementKind: String,
        at indexPath: IndexPath
    ) -> CollectionViewLayoutAttributes? {
        guard indexPath.count == 2 else { return nil }
        if indexPath.section == 0, let g = globals.first(where: { $0.kind == elementKind && $0.index == indexPath.item }),
            !(sections.first?.hasSupplementary(kind: elementKind, index: indexPath.item) ?? false)
        {
            return make(
                LayoutElement(
                    .supplementaryView, kind: g.kind, section: 0, item: g.index, frame: g.natural,
                    zIndex: g.zIndex)
            ).copy() as? CollectionViewLayoutAttributes
        }
        guard sections.indices.contains(indexPath.section) else { return nil }
        let s = indexPath.section
        guard
            let element = sections[s].supplementary(
                kind: elementKind, index: indexPath.item, state: scrollState,
                orthogonalOffset: orthogonalOffsets[s] ?? 0)
        else { return nil }
        return make(element).copy() as? CollectionViewLayoutAttributes
    }

    open override func layoutAttributesForDecorationView(
        ofKind elementKind: String,
        at indexPath: IndexPath
    ) -> CollectionViewLayoutAttributes? {
        guard indexPath.count == 2, sections.indices.contains(indexPath.section) else { return nil }
        guard let element = sections[indexPath.section].decoration(kind: elementKind, index: indexPath.item) else { return nil }
        return make(element).copy() as? CollectionViewLayoutAttributes
    }
}

/// Where the host is scrolled, along the layout's axis.
struct ScrollState {
    var visibleStart: CGFloat
    var visibleEnd: CGFloat
    var offset: CGPoint

    /// What a section that places nothing by the scroll position is given.
    static let unused = ScrollState(visibleStart: 0, visibleEnd: 0, offset: .zero)
}
