import Foundation

/// The abstract base of every layout: `UICollectionViewLayout` without the prefix.
///
/// A subclass overrides exactly what a `UICollectionViewLayout` subclass overrides. The
/// collection view calls, in each layout pass: ``prepare()`` → ``collectionViewContentSize`` →
/// ``layoutAttributesForElements(in:)`` for a page-sized rect; and for single elements, animations
/// and scrolling, the per-element, initial/final and target-offset methods.
///
/// ```swift
/// final class DiagonalLayout: CollectionViewLayout {
///     override var collectionViewContentSize: CGSize {
///         let n = CGFloat(collectionView?.numberOfItems(inSection: 0) ?? 0)
///         return CGSize(width: n * 50, height: n * 50)
///     }
///     override func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
///         let a = CollectionViewLayoutAttributes(forCellWith: indexPath)
///         a.frame = CGRect(x: CGFloat(indexPath.item) * 50, y: CGFloat(indexPath.item) * 50, width: 50, height: 50)
///         return a
///     }
/// }
/// ```
///
/// Invalidation is lazy, as UIKit's is: ``invalidateLayout()`` only records that the layout
/// is stale (merging any number of calls into one pending context) and the collection view's
/// next layout pass runs one ``prepare()``.
open class CollectionViewLayout: NSObject, NSCoding {
    private weak var host: CollectionView?

    /// The collection view that uses this layout, if any (weak, as in UIKit).
    open var collectionView: CollectionView? { host }

    /// Whether the layout was invalidated since the last ``prepare()``. A new layout starts invalid.
    package private(set) var needsPrepare: Bool = true

    /// The invalidations recorded since the last ``prepare()``, merged into one context: what the
    /// collection view inspects (for example for a content-offset adjustment) before the next pass.
    package private(set) var pendingInvalidationContext: CollectionViewLayoutInvalidationContext?

    /// How many times ``prepare()`` ran through ``prepareIfNeeded()``: hosts compare it with the
    /// value they last saw to know that attributes they cached are stale.
    package private(set) var preparedGeneration = 0

    /// The merged invalidations that the running ``prepare()`` answers: readable from inside
    /// ``prepare()`` (to recompute only what changed), `nil` outside it.
    package private(set) var invalidationContextBeingPrepared: CollectionViewLayoutInvalidationContext?

    /// Decoration view classes registered by kind.
    package private(set) var decorationViewClasses: [String: CollectionReusableView.Type] = [:]

    /// Creates a layout that is not yet attached to a collection view.
    public override init() {
        super.init()
    }

    /// Creates a layout from an archive. Nothing is archived, so this is ``init()``; it exists so
    /// that subclasses written for UIKit (`required init?(coder:)` calling `super`) compile.
    public required init?(coder: NSCoder) {
        super.init()
    }

    /// Archives nothing: layouts are rebuilt from code.
    open func encode(with coder: NSCoder) {}

    // MARK: Attaching to a collection view

    /// Attaches the layout to `collectionView` (or detaches it with `nil`) and invalidates
    /// everything. The collection view calls this when it adopts a layout.
    package final func attach(to collectionView: CollectionView?) {
        host = collectionView
        invalidateLayout(with: Self.makeInvalidationContext(everything: true, dataSourceCounts: true))
    }

    /// Runs ``prepare()`` once if the layout was invalidated since the last pass, however many
    /// times that happened. Returns whether it ran.
    ///
    /// The layout is marked valid and the pending context moved to
    /// ``invalidationContextBeingPrepared`` *before* ``prepare()`` runs, so a query made from
    /// inside ``prepare()`` does not recurse and an invalidation made during it is kept for the
    /// next pass.
    @discardableResult
    package final func prepareIfNeeded() -> Bool {
        guard needsPrepare else { return false }
        needsPrepare = false
        invalidationContextBeingPrepared = pendingInvalidationContext
        pendingInvalidationContext = nil
        prepare()
        invalidationContextBeingPrepared = nil
        preparedGeneration += 1
        return true
    }

    // MARK: The layout pass

    /// The class of the attributes objects the layout creates (`layoutAttributesClass`). The
    /// built-in layouts create every object they return through it, so a subclass that returns
    /// its own attributes subclass here gets objects of that class from `super`.
    open class var layoutAttributesClass: AnyClass { CollectionViewLayoutAttributes.self }

    /// The direction the layout's coordinates are written for. Default `.leftToRight`.
    open var developmentLayoutDirection: UserInterfaceLayoutDirection { .leftToRight }

    /// Whether the collection view mirrors the layout when its direction is the opposite of
    /// ``developmentLayoutDirection``. Default `false`; the flow and compositional layouts say
    /// `true`, as UIKit's do. The layout computes in its own direction either way; the collection
    /// view mirrors what it shows and hands out (see ``CollectionView/isMirroringLayout``).
    open var flipsHorizontallyInOppositeLayoutDirection: Bool { false }

    /// ``layoutAttributesClass`` as an attributes type (the base class when it is not one).
    package final var attributesClass: CollectionViewLayoutAttributes.Type {
        (Self.layoutAttributesClass as? CollectionViewLayoutAttributes.Type) ?? CollectionViewLayoutAttributes.self
    }

    /// The class of the contexts ``invalidateLayout()`` creates (`invalidationContextClass`).
    open class var invalidationContextClass: AnyClass { CollectionViewLayoutInvalidationContext.self }

    /// A fresh context of ``invalidationContextClass`` with the host-owned flags set.
    package static func makeInvalidationContext(
        everything: Bool = false,
        dataSourceCounts: Bool = false
    ) -> CollectionViewLayoutInvalidationContext {
        let type =
            (invalidationContextClass as? CollectionViewLayoutInvalidationContext.Type)
            ?? CollectionViewLayoutInvalidationContext.self
        return type.init(invalidatingEverything: everything, invalidatingDataSourceCounts: dataSourceCounts)
    }

    /// Does the layout's up-front work: called once per layout pass after an invalidation.
    /// The default does nothing.
    open func prepare() {}

    /// The size of the whole scrollable content. The default is zero.
    open var collectionViewContentSize: CGSize { .zero }

    /// The attributes of every cell, supplementary and decoration view whose frame intersects
    /// `rect` (see ``LayoutGeometry/intersects(_:_:)``). The default returns `nil` (no elements).
    open func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? { nil }

    /// Calls `body` with the attributes of every element in `rect`, in the order of
    /// ``layoutAttributesForElements(in:)``. The object `body` receives may be reused once it
    /// returns: how a caller that only writes elements out (the command line) goes through a
    /// million of them without holding a million objects. The default iterates
    /// ``layoutAttributesForElements(in:)``.
    ///
    /// Not in UIKit. A layout that knows its elements without building them overrides it. The
    /// built-in layouts stream only when the object is of their own class, so that a subclass
    /// that overrides ``layoutAttributesForElements(in:)`` is always asked through it.
    open func forEachLayoutAttributes(in rect: CGRect, _ body: (CollectionViewLayoutAttributes) -> Void) {
        for attributes in layoutAttributesForElements(in: rect) ?? [] { body(attributes) }
    }

    /// The answer to a rect query of a right-to-left view: the elements in `rect` (the view's
    /// coordinates), each mirrored across `width`, base-class copies taken from `recycler`. The
    /// flow layout, not subclassed, makes its objects mirrored in the first place.
    package func mirroredLayoutAttributesForElements(
        in rect: CGRect, across width: CGFloat,
        recycler: AttributesRecycler
    ) -> [CollectionViewLayoutAttributes] {
        let r = rect.standardized
        let query = CGRect(x: width - r.maxX, y: r.minY, width: r.width, height: r.height)
        recycler.begin()
        return (layoutAttributesForElements(in: query) ?? []).map { attributes in
            type(of: attributes) == CollectionViewLayoutAttributes.self
                ? attributes.mirroredCopy(across: width, recycler: recycler)
                : attributes.mirroredSnapshot(across: width)
        }
    }

    /// An element's frame where the layout can tell it without building an attributes object,
    /// for an element of the base attributes class, opaque, unhidden, untransformed, at zIndex 0:
    /// `.some(nil)` when there is no such element, `nil` when the layout cannot tell this way (the
    /// default) and its attributes must be asked. The interactive transition layout asks it of
    /// both ends for every element only one end placed in a rect.
    package func plainFrame(of id: ElementID) -> CGRect?? { nil }

    /// The attributes of the cell at `indexPath`, or `nil`. The default returns `nil`.
    open func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? { nil }

    /// The attributes of the supplementary view of `elementKind` at `indexPath`, or `nil`.
    open func layoutAttributesForSupplementaryView(
        ofKind elementKind: String,
        at indexPath: IndexPath
    ) -> CollectionViewLayoutAttributes? { nil }

    /// The attributes of the decoration view of `elementKind` at `indexPath`, or `nil`.
    open func layoutAttributesForDecorationView(
        ofKind elementKind: String,
        at indexPath: IndexPath
    ) -> CollectionViewLayoutAttributes? { nil }

    /// The attributes of an item being moved interactively to `position`: a copy of its
    /// attributes centred there, above everything else.
    open func layoutAttributesForInteractivelyMovingItem(
        at indexPath: IndexPath,
        withTargetPosition position: CGPoint
    ) -> CollectionViewLayoutAttributes {
        let attributes =
            (layoutAttributesForItem(at: indexPath)?.copy() as? CollectionViewLayoutAttributes)
            ?? attributesClass.init(category: .cell, kind: nil, section: 0, item: 0)
        attributes.indexPath = indexPath
        attributes.center = position
        attributes.zIndex = Int.max
        return attributes
    }

    /// The index path an item being moved interactively takes when it is at `position`: the item
    /// whose frame holds the position (the topmost, where frames overlap), or `previousIndexPath`
    /// where none does — the gaps between items, and the moving item's own place.
    open func targetIndexPath(
        forInteractivelyMovingItem previousIndexPath: IndexPath,
        withPosition position: CGPoint
    ) -> IndexPath {
        guard position.x.isFinite, position.y.isFinite else { return previousIndexPath }
        let probe = CGRect(x: position.x - 0.5, y: position.y - 0.5, width: 1, height: 1)
        var best: CollectionViewLayoutAttributes?
        for attributes in layoutAttributesForElements(in: probe) ?? []
        where attributes.representedElementCategory == .cell && !attributes.isHidden {
            let frame = attributes.frame.standardized
            guard position.x >= frame.minX, position.x < frame.maxX, position.y >= frame.minY, position.y < frame.maxY
            else { continue }
            if best == nil || attributes.zIndex >= best!.zIndex { best = attributes }
        }
        return best?.indexPath ?? previousIndexPath
    }

    /// The context that tells the layout the moving items are now at `targetIndexPaths`, following
    /// `targetPosition`: a fresh context of ``invalidationContextClass`` with the moving items'
    /// properties set. The collection view calls it on every position update, before it moves
    /// the item.
    open func invalidationContext(
        forInteractivelyMovingItems targetIndexPaths: [IndexPath],
        withTargetPosition targetPosition: CGPoint, previousIndexPaths: [IndexPath],
        previousPosition: CGPoint
    ) -> CollectionViewLayoutInvalidationContext {
        let context = Self.makeInvalidationContext()
        context.targetIndexPathsForInteractivelyMovingItems = targetIndexPaths
        context.previousIndexPathsForInteractivelyMovingItems = previousIndexPaths
        context.interactiveMovementTarget = targetPosition
        return context
    }

    /// The context that ends an interactive move: the items settle at `indexPaths` (their
    /// original places when `movementCancelled`), from `previousIndexPaths`.
    open func invalidationContextForEndingInteractiveMovementOfItems(
        toFinalIndexPaths indexPaths: [IndexPath],
        previousIndexPaths: [IndexPath],
        movementCancelled: Bool
    ) -> CollectionViewLayoutInvalidationContext {
        let context = Self.makeInvalidationContext()
        context.targetIndexPathsForInteractivelyMovingItems = indexPaths
        context.previousIndexPathsForInteractivelyMovingItems = previousIndexPaths
        return context
    }

    /// Registers the class of the decoration views of `elementKind` (`nil` removes it). The
    /// collection view creates and reuses views of that class for the decoration attributes the
    /// layout returns.
    open func register(_ viewClass: AnyClass?, forDecorationViewOfKind elementKind: String) {
        decorationViewClasses[elementKind] = viewClass as? CollectionReusableView.Type
    }

    // MARK: Invalidation

    /// Marks the whole layout stale: the next layout pass runs ``prepare()`` once. Goes through
    /// ``invalidateLayout(with:)`` with a fresh context of ``invalidationContextClass``.
    open func invalidateLayout() {
        invalidateLayout(with: Self.makeInvalidationContext())
    }

    /// Records an invalidation. Subclasses override to note what must be recomputed and must
    /// call `super`, which marks the layout stale and merges `context` into the pending one (the
    /// first context after a pass becomes the pending one, so its flags stand as set).
    open func invalidateLayout(with context: CollectionViewLayoutInvalidationContext) {
        needsPrepare = true
        if let pending = pendingInvalidationContext {
            pending.merge(context)
        } else {
            pendingInvalidationContext = context
        }
        host?.layoutDidInvalidate(self)
    }

    /// Whether a change of the collection view's bounds (scrolling changes the origin) needs a
    /// new layout. The default is `false`.
    open func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool { false }

    /// The context for a bounds change that ``shouldInvalidateLayout(forBoundsChange:)`` accepted.
    /// The default is a fresh context of ``invalidationContextClass``.
    open func invalidationContext(forBoundsChange newBounds: CGRect) -> CollectionViewLayoutInvalidationContext {
        Self.makeInvalidationContext()
    }

    /// Whether the collection view asks cells for their preferred attributes when it applies new
    /// ones. A flow layout does only when it sizes cells itself (`estimatedItemSize`); every
    /// other layout is asked, as UIKit asks.
    package var asksForPreferredAttributes: Bool { true }

    /// Whether a cell's preferred attributes (self-sizing) need a new layout. Default `false`.
    open func shouldInvalidateLayout(
        forPreferredLayoutAttributes preferredAttributes: CollectionViewLayoutAttributes,
        withOriginalAttributes originalAttributes: CollectionViewLayoutAttributes
    ) -> Bool {
        false
    }

    /// The context for a preferred-attributes change. The default invalidates that element only.
    open func invalidationContext(
        forPreferredLayoutAttributes preferredAttributes: CollectionViewLayoutAttributes,
        withOriginalAttributes originalAttributes: CollectionViewLayoutAttributes
    )
        -> CollectionViewLayoutInvalidationContext
    {
        let context = Self.makeInvalidationContext()
        let path = originalAttributes.indexPath
        switch originalAttributes.representedElementCategory {
        case .cell: context.invalidateItems(at: [path])
        case .supplementaryView:
            context.invalidateSupplementaryElements(ofKind: originalAttributes.representedElementKind ?? "", at: [path])
        case .decorationView:
            context.invalidateDecorationElements(ofKind: originalAttributes.representedElementKind ?? "", at: [path])
        }
        return context
    }

    // MARK: Updates and animation

    /// Called before a batch update is animated, with every change in it. The default does nothing.
    open func prepare(forCollectionViewUpdates updateItems: [CollectionViewUpdateItem]) {}

    /// Called after the update's animations were set up. The default does nothing.
    open func finalizeCollectionViewUpdates() {}

    /// Called before an animated bounds change. The default does nothing.
    open func prepare(forAnimatedBoundsChange oldBounds: CGRect) {}

    /// Called after an animated bounds change was set up. The default does nothing.
    open func finalizeAnimatedBoundsChange() {}

    /// Called on the layout being installed, before an animated change of layouts.
    open func prepareForTransition(from oldLayout: CollectionViewLayout) {}

    /// Called on the layout being removed, before an animated change of layouts.
    open func prepareForTransition(to newLayout: CollectionViewLayout) {}

    /// Called after an animated change of layouts was set up.
    open func finalizeLayoutTransition() {}

    /// Where an appearing item starts its animation. `nil` (the default) means the collection
    /// view uses the item's final attributes for both ends of the animation.
    open func initialLayoutAttributesForAppearingItem(at itemIndexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        nil
    }

    /// Where a disappearing item ends its animation. `nil` (the default) means the collection
    /// view uses the item's current attributes for both ends.
    open func finalLayoutAttributesForDisappearingItem(at itemIndexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        nil
    }

    /// Where an appearing supplementary view starts its animation; `nil` by default.
    open func initialLayoutAttributesForAppearingSupplementaryElement(
        ofKind elementKind: String,
        at elementIndexPath: IndexPath
    )
        -> CollectionViewLayoutAttributes?
    { nil }

    /// Where a disappearing supplementary view ends its animation; `nil` by default.
    open func finalLayoutAttributesForDisappearingSupplementaryElement(
        ofKind elementKind: String,
        at elementIndexPath: IndexPath
    )
        -> CollectionViewLayoutAttributes?
    { nil }

    /// Where an appearing decoration view starts its animation; `nil` by default.
    open func initialLayoutAttributesForAppearingDecorationElement(
        ofKind elementKind: String,
        at decorationIndexPath: IndexPath
    )
        -> CollectionViewLayoutAttributes?
    { nil }

    /// Where a disappearing decoration view ends its animation; `nil` by default.
    open func finalLayoutAttributesForDisappearingDecorationElement(
        ofKind elementKind: String,
        at decorationIndexPath: IndexPath
    )
        -> CollectionViewLayoutAttributes?
    { nil }

    /// Supplementary views of `elementKind` that the update removes beyond those of deleted
    /// sections and items. The default is none.
    open func indexPathsToDeleteForSupplementaryView(ofKind elementKind: String) -> [IndexPath] { [] }

    /// Supplementary views of `elementKind` that the update adds. The default is none.
    open func indexPathsToInsertForSupplementaryView(ofKind elementKind: String) -> [IndexPath] { [] }

    /// Decoration views of `elementKind` that the update removes. The default is none.
    open func indexPathsToDeleteForDecorationView(ofKind elementKind: String) -> [IndexPath] { [] }

    /// Decoration views of `elementKind` that the update adds. The default is none.
    open func indexPathsToInsertForDecorationView(ofKind elementKind: String) -> [IndexPath] { [] }

    // MARK: Scrolling

    /// Where scrolling should come to rest when it is not driven by a gesture (after an update or
    /// a layout change). The default returns `proposedContentOffset`.
    open func targetContentOffset(forProposedContentOffset proposedContentOffset: CGPoint) -> CGPoint {
        proposedContentOffset
    }

    /// Where a decelerating scroll should come to rest, given where it would stop on its own and
    /// its velocity in points per millisecond. The default returns `proposedContentOffset`.
    open func targetContentOffset(
        forProposedContentOffset proposedContentOffset: CGPoint,
        withScrollingVelocity velocity: CGPoint
    ) -> CGPoint {
        proposedContentOffset
    }
}
