import TrellisCollectionView

/// Where a boundary supplementary item sits on its section or layout: UIKit's `NSRectAlignment`.
public enum RectAlignment: Int, Hashable, Sendable, CaseIterable {
    case none, top, topLeading, leading, bottomLeading, bottom, bottomTrailing, trailing, topTrailing
}

/// UIKit's name for ``RectAlignment``.
public typealias NSRectAlignment = RectAlignment

/// What a section's content insets are measured from: UIKit's `UIContentInsetsReference`.
public enum ContentInsetsReference: Int, Hashable, Sendable, CaseIterable {
    /// `.safeArea` on this headless host, as UIKit's default for a compositional layout.
    case automatic
    /// The container's edges.
    case none
    /// The collection view's safe area.
    case safeArea
    /// The collection view's layout margins.
    case layoutMargins
    /// The readable width: layout margins widened, centred, to at most 672 points.
    case readableContent
}

/// One dimension (width or height) of an item, group or supplementary: UIKit's
/// `NSCollectionLayoutDimension`.
///
/// Fractions are of the containing group's size (for a section's top-level group, of the
/// section's content area); `estimated` starts at the estimate and takes what the cell's
/// `preferredLayoutAttributesFitting(_:)` answers; `uniformAcrossSiblings` is `estimated`, with
/// every item of the group taking the largest measured size.
public final class CollectionLayoutDimension: NSObject, @unchecked Sendable {
    enum Kind: Hashable { case fractionalWidth, fractionalHeight, absolute, estimated, uniform }
    let kind: Kind
    /// The fraction, points or estimate.
    public let dimension: CGFloat

    init(_ kind: Kind, _ dimension: CGFloat) {
        self.kind = kind
        self.dimension = dimension
    }

    /// A fraction of the container's width.
    public class func fractionalWidth(_ fractionalWidth: CGFloat) -> CollectionLayoutDimension {
        CollectionLayoutDimension(.fractionalWidth, fractionalWidth)
    }
    /// A fraction of the container's height.
    public class func fractionalHeight(_ fractionalHeight: CGFloat) -> CollectionLayoutDimension {
        CollectionLayoutDimension(.fractionalHeight, fractionalHeight)
    }
    /// A size in points.
    public class func absolute(_ absoluteDimension: CGFloat) -> CollectionLayoutDimension {
        CollectionLayoutDimension(.absolute, absoluteDimension)
    }
    /// An estimate that the cell's measured size replaces.
    public class func estimated(_ estimatedDimension: CGFloat) -> CollectionLayoutDimension {
        CollectionLayoutDimension(.estimated, estimatedDimension)
    }
    /// An estimate; once measured, every item of the group takes the largest of them.
    public class func uniformAcrossSiblings(estimate estimatedDimension: CGFloat) -> CollectionLayoutDimension {
        CollectionLayoutDimension(.uniform, estimatedDimension)
    }

    public var isFractionalWidth: Bool { kind == .fractionalWidth }
    public var isFractionalHeight: Bool { kind == .fractionalHeight }
    public var isAbsolute: Bool { kind == .absolute }
    public var isEstimated: Bool { kind == .estimated || kind == .uniform }
    public var isUniformAcrossSiblings: Bool { kind == .uniform }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CollectionLayoutDimension else { return false }
        return kind == other.kind && dimension == other.dimension
    }
    public override var hash: Int { kind.hashValue ^ dimension.hashValue }

    public override var description: String {
        switch kind {
        case .fractionalWidth: return ".fractionalWidth(\(LayoutConfigurationError.format(dimension)))"
        case .fractionalHeight: return ".fractionalHeight(\(LayoutConfigurationError.format(dimension)))"
        case .absolute: return ".absolute(\(LayoutConfigurationError.format(dimension)))"
        case .estimated: return ".estimated(\(LayoutConfigurationError.format(dimension)))"
        case .uniform: return ".uniformAcrossSiblings(estimate: \(LayoutConfigurationError.format(dimension)))"
        }
    }
}

/// A width and a height: UIKit's `NSCollectionLayoutSize`.
public final class CollectionLayoutSize: NSObject, @unchecked Sendable {
    public let widthDimension: CollectionLayoutDimension
    public let heightDimension: CollectionLayoutDimension

    public init(widthDimension width: CollectionLayoutDimension, heightDimension height: CollectionLayoutDimension) {
        widthDimension = width
        heightDimension = height
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CollectionLayoutSize else { return false }
        return widthDimension.isEqual(other.widthDimension) && heightDimension.isEqual(other.heightDimension)
    }
    public override var hash: Int { widthDimension.hash ^ (heightDimension.hash &* 31) }
    public override var description: String { "(\(widthDimension), \(heightDimension))" }
}

/// Space between items of a group: UIKit's `NSCollectionLayoutSpacing`. `fixed` is exactly
/// that; `flexible` is at least that, the group's leftover space shared out.
public final class CollectionLayoutSpacing: NSObject, @unchecked Sendable {
    public let spacing: CGFloat
    public let isFlexibleSpacing: Bool
    public var isFixedSpacing: Bool { !isFlexibleSpacing }

    init(_ spacing: CGFloat, flexible: Bool) {
        self.spacing = spacing
        isFlexibleSpacing = flexible
    }

    public class func fixed(_ fixedSpacing: CGFloat) -> CollectionLayoutSpacing { CollectionLayoutSpacing(fixedSpacing, flexible: false) }
    public class func flexible(_ flexibleSpacing: CGFloat) -> CollectionLayoutSpacing { CollectionLayoutSpacing(flexibleSpacing, flexible: true) }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CollectionLayoutSpacing else { return false }
        return spacing == other.spacing && isFlexibleSpacing == other.isFlexibleSpacing
    }
    public override var hash: Int { spacing.hashValue ^ (isFlexibleSpacing ? 1 : 0) }
}

/// Space around an item, outside it, that pushes its neighbours away: UIKit's
/// `NSCollectionLayoutEdgeSpacing`.
public final class CollectionLayoutEdgeSpacing: NSObject, @unchecked Sendable {
    public let leading: CollectionLayoutSpacing?
    public let top: CollectionLayoutSpacing?
    public let trailing: CollectionLayoutSpacing?
    public let bottom: CollectionLayoutSpacing?

    public init(
        leading: CollectionLayoutSpacing?, top: CollectionLayoutSpacing?, trailing: CollectionLayoutSpacing?,
        bottom: CollectionLayoutSpacing?
    ) {
        self.leading = leading
        self.top = top
        self.trailing = trailing
        self.bottom = bottom
    }
}

/// Where a supplementary item is attached to its item or group: UIKit's
/// `NSCollectionLayoutAnchor`.
///
/// With `edges` naming one horizontal edge (leading or trailing) the supplementary's matching
/// edge lies on the container's; naming neither (or both), it is centred across; likewise
/// vertically. The offset moves it from there: in points (`absoluteOffset`) or in fractions of
/// the supplementary's own size (`fractionalOffset`: `(0.5, -0.5)` puts a badge's centre on a
/// top-trailing corner).
public final class CollectionLayoutAnchor: NSObject, @unchecked Sendable {
    public let edges: DirectionalRectEdge
    public let offset: CGPoint
    public let isAbsoluteOffset: Bool
    public let isFractionalOffset: Bool

    public init(edges: DirectionalRectEdge) {
        self.edges = edges
        offset = .zero
        isAbsoluteOffset = false
        isFractionalOffset = false
    }

    public init(edges: DirectionalRectEdge, absoluteOffset: CGPoint) {
        self.edges = edges
        offset = absoluteOffset
        isAbsoluteOffset = true
        isFractionalOffset = false
    }

    public init(edges: DirectionalRectEdge, fractionalOffset: CGPoint) {
        self.edges = edges
        offset = fractionalOffset
        isAbsoluteOffset = false
        isFractionalOffset = true
    }

    /// The frame of a supplementary of `size` anchored to `container`.
    func frame(of size: CGSize, in container: CGRect) -> CGRect {
        let leading = edges.contains(.leading), trailing = edges.contains(.trailing)
        let top = edges.contains(.top), bottom = edges.contains(.bottom)
        var x = container.midX - size.width / 2, y = container.midY - size.height / 2
        if leading && !trailing { x = container.minX } else if trailing && !leading { x = container.maxX - size.width }
        if top && !bottom { y = container.minY } else if bottom && !top { y = container.maxY - size.height }
        if isAbsoluteOffset {
            x += offset.x
            y += offset.y
        } else if isFractionalOffset {
            x += offset.x * size.width
            y += offset.y * size.height
        }
        return CGRect(x: x, y: y, width: size.width, height: size.height)
    }
}

/// The space a section (or the layout) is laid out in: UIKit's `NSCollectionLayoutContainer`.
public protocol CollectionLayoutContainer: AnyObject {
    /// The size of the container: the collection view's visible size.
    var contentSize: CGSize { get }
    /// The container's size less its content insets.
    var effectiveContentSize: CGSize { get }
    /// The insets of the content insets reference (safe area, layout margins…).
    var contentInsets: DirectionalEdgeInsets { get }
    /// The same insets (the layout draws left to right).
    var effectiveContentInsets: DirectionalEdgeInsets { get }
}

/// What a section provider is told about where the section goes: UIKit's
/// `NSCollectionLayoutEnvironment`.
public protocol CollectionLayoutEnvironment: AnyObject {
    var container: CollectionLayoutContainer { get }
    var traitCollection: TraitCollection { get }
}

/// The container and environment the layout hands its section providers and custom groups.
final class LayoutContainer: NSObject, CollectionLayoutContainer {
    let contentSize: CGSize
    let contentInsets: DirectionalEdgeInsets
    init(contentSize: CGSize, contentInsets: DirectionalEdgeInsets) {
        self.contentSize = contentSize
        self.contentInsets = contentInsets
    }
    var effectiveContentSize: CGSize {
        CGSize(
            width: max(0, contentSize.width - contentInsets.horizontal),
            height: max(0, contentSize.height - contentInsets.vertical))
    }
    var effectiveContentInsets: DirectionalEdgeInsets { contentInsets }
}

final class LayoutEnvironment: NSObject, CollectionLayoutEnvironment {
    let container: CollectionLayoutContainer
    let traitCollection: TraitCollection
    init(container: CollectionLayoutContainer, traitCollection: TraitCollection) {
        self.container = container
        self.traitCollection = traitCollection
    }
}
