import TrellisCollectionView

/// How a section scrolls across the layout's axis: UIKit's
/// `UICollectionLayoutSectionOrthogonalScrollingBehavior`.
///
/// Any value but `none` lays the section's groups out in one line across the scroll axis, which
/// scrolls on its own (the host keeps its offset: `CollectionView.setOrthogonalContentOffset`).
/// Where it comes to rest after a swipe:
public enum CollectionLayoutSectionOrthogonalScrollingBehavior: Int, Hashable, Sendable, CaseIterable {
    /// It does not scroll across: groups repeat along the layout's axis.
    case none
    /// Wherever momentum takes it.
    case continuous
    /// Where momentum takes it, moved to the nearest group's leading edge.
    case continuousGroupLeadingBoundary
    /// A page (the container's width) at a time.
    case paging
    /// A group at a time, a group's leading edge at the section's leading inset.
    case groupPaging
    /// A group at a time, the group centred in the container.
    case groupPagingCentered
}

/// An element on screen, as a section's `visibleItemsInvalidationHandler` sees and changes it:
/// UIKit's `NSCollectionLayoutVisibleItem`. Frames are in the section's coordinates before its
/// orthogonal scrolling (subtract the handler's offset for where it is on screen).
public protocol CollectionLayoutVisibleItem: AnyObject {
    var alpha: CGFloat { get set }
    var zIndex: Int { get set }
    var isHidden: Bool { get set }
    var center: CGPoint { get set }
    var transform: CGAffineTransform { get set }
    var transform3D: Transform3D { get set }
    var name: String { get }
    var indexPath: IndexPath { get }
    var frame: CGRect { get }
    var bounds: CGRect { get }
    var representedElementCategory: CollectionView.ElementCategory { get }
    var representedElementKind: String? { get }
}

/// Called with a section's visible elements whenever the visible set is computed (every
/// scroll), the section's scroll offset and the environment: UIKit's
/// `NSCollectionLayoutSectionVisibleItemsInvalidationHandler`.
public typealias CollectionLayoutSectionVisibleItemsInvalidationHandler =
    ([CollectionLayoutVisibleItem], CGPoint, CollectionLayoutEnvironment) -> Void

/// How an orthogonally scrolling section's content moves when a swipe ends (iOS 17's
/// `UICollectionLayoutSectionOrthogonalScrollingProperties`).
public final class CollectionLayoutSectionOrthogonalScrollingProperties: NSObject, @unchecked Sendable {
    /// Whether the content bounces past its ends and back (`Bounce`). Headless content is
    /// never dragged past its ends, so this is kept for the renderers and for code that sets it.
    public enum Bounce: Int, Sendable {
        case automatic = 0
        case always = 1
        case never = 2
    }

    /// The fraction of its velocity a swipe keeps per millisecond after the finger lifts
    /// (`DecelerationRate`).
    public struct DecelerationRate: RawRepresentable, Hashable, Sendable {
        public var rawValue: CGFloat
        public init(rawValue: CGFloat) { self.rawValue = rawValue }
        /// The collection view's own rate (``ScrollView/decelerationRate``).
        public static let automatic = DecelerationRate(rawValue: 0)
        /// 0.998 per millisecond.
        public static let normal = DecelerationRate(rawValue: ScrollView.DecelerationRate.normal.rawValue)
        /// 0.99 per millisecond.
        public static let fast = DecelerationRate(rawValue: ScrollView.DecelerationRate.fast.rawValue)
    }

    public var bounce = Bounce.automatic
    public var decelerationRate = DecelerationRate.automatic

    public override init() {}
}

/// One section's arrangement: its group, repeated for its items, with insets, spacing,
/// supplementaries and decorations: UIKit's `NSCollectionLayoutSection`.
public final class CollectionLayoutSection: NSObject, @unchecked Sendable {
    /// The group repeated for the section's items.
    public let group: CollectionLayoutGroup
    /// Space between the section's edges and its groups.
    public var contentInsets = DirectionalEdgeInsets.zero
    /// What the content insets are measured from.
    public var contentInsetsReference = ContentInsetsReference.automatic
    /// What the boundary supplementaries' insets are measured from.
    public var supplementaryContentInsetsReference = ContentInsetsReference.automatic
    /// Space between neighbouring groups.
    public var interGroupSpacing: CGFloat = 0
    /// How the section scrolls across the layout's axis.
    public var orthogonalScrollingBehavior = CollectionLayoutSectionOrthogonalScrollingBehavior.none
    /// How its content slows down when a swipe of it ends
    /// (`CollectionView.endOrthogonalDragging(inSection:withVelocity:)`).
    public let orthogonalScrollingProperties = CollectionLayoutSectionOrthogonalScrollingProperties()
    /// Headers, footers and other views on the section's edges.
    public var boundarySupplementaryItems: [CollectionLayoutBoundarySupplementaryItem] = []
    /// Whether boundary supplementaries are inset by the section's leading and trailing content
    /// insets (default `true`).
    public var supplementariesFollowContentInsets = true
    /// Called with the visible elements on every scroll (the carousel-scaling hook).
    public var visibleItemsInvalidationHandler: CollectionLayoutSectionVisibleItemsInvalidationHandler?
    /// Views drawn behind the section.
    public var decorationItems: [CollectionLayoutDecorationItem] = []
    /// Space above the section's header (a list's `headerTopPadding`).
    var listTopPadding: CGFloat = 0
    /// The list configuration the section was made from, for its rows' swipe actions.
    var listConfiguration: CollectionLayoutListConfiguration?

    /// A section that repeats `group`.
    public init(group: CollectionLayoutGroup) {
        self.group = group
    }

    /// A list section: one full-width row per item, with the configuration's appearance.
    public static func list(
        using configuration: CollectionLayoutListConfiguration,
        layoutEnvironment: CollectionLayoutEnvironment
    ) -> CollectionLayoutSection {
        configuration.section(in: layoutEnvironment)
    }
}

/// A list: UIKit's `UICollectionLayoutListConfiguration`, the common case of a compositional
/// layout. Rows are full width and self-sizing from an estimate of 44 points; headers and
/// footers are boundary supplementaries of UIKit's header and footer kinds.
///
/// | appearance | rows | section insets | header, footer estimates |
/// |---|---|---|---|
/// | `plain`, `sidebarPlain` | full width | none | 28, 28; plain headers pin |
/// | `grouped`, `sidebar` | full width | 35 above the first section's rows, 35 below each | 38, 38 |
/// | `insetGrouped` | inset by the collection view's layout margins | as grouped | 38, 38 |
public struct CollectionLayoutListConfiguration: @unchecked Sendable {
    public enum Appearance: Int, Hashable, Sendable, CaseIterable { case plain, grouped, insetGrouped, sidebar, sidebarPlain }
    /// The swipe actions of a row, by its index path (`nil`: none from that edge).
    public typealias SwipeActionsConfigurationProvider = (_ indexPath: IndexPath) -> SwipeActionsConfiguration?
    public enum HeaderMode: Int, Hashable, Sendable, CaseIterable { case none, supplementary, firstItemInSection }
    public enum FooterMode: Int, Hashable, Sendable, CaseIterable { case none, supplementary }

    public let appearance: Appearance
    public var headerMode = HeaderMode.none
    public var footerMode = FooterMode.none
    public var showsSeparators = true
    /// The lines between rows, for every row (``ListSeparatorConfiguration``).
    public var separatorConfiguration: ListSeparatorConfiguration
    /// Changes the separators of one row, given its index path and the list's.
    public typealias ItemSeparatorHandler = (_ indexPath: IndexPath, _ sectionSeparatorConfiguration: ListSeparatorConfiguration) -> ListSeparatorConfiguration
    /// The separators of each row, from the list's (``separatorConfiguration``); `nil`: the list's.
    public var itemSeparatorHandler: ItemSeparatorHandler?
    /// Extra space above each section's header (default: none on plain lists).
    public var headerTopPadding: CGFloat?
    public var backgroundColor: Color?
    /// The actions a swipe from a row's leading edge shows
    /// (``CollectionView/performSwipeAction(at:forItemAt:edge:fullSwipe:)`` plays one).
    public var leadingSwipeActionsConfigurationProvider: SwipeActionsConfigurationProvider?
    /// The actions a swipe from a row's trailing edge shows.
    public var trailingSwipeActionsConfigurationProvider: SwipeActionsConfigurationProvider?

    public init(appearance: Appearance) {
        self.appearance = appearance
        separatorConfiguration = ListSeparatorConfiguration(listAppearance: appearance)
    }

    var isGrouped: Bool { appearance == .grouped || appearance == .insetGrouped || appearance == .sidebar }

    func section(in environment: CollectionLayoutEnvironment) -> CollectionLayoutSection {
        let row = CollectionLayoutItem(
            layoutSize: CollectionLayoutSize(
                widthDimension: .fractionalWidth(1),
                heightDimension: .estimated(44)))
        let group = CollectionLayoutGroup.vertical(
            layoutSize: CollectionLayoutSize(
                widthDimension: .fractionalWidth(1),
                heightDimension: .estimated(44)),
            subitems: [row])
        let section = CollectionLayoutSection(group: group)
        section.listConfiguration = self
        let supplementaryEstimate: CGFloat = isGrouped ? 38 : 28
        if isGrouped {
            section.contentInsets = DirectionalEdgeInsets(top: 0, leading: 0, bottom: 35, trailing: 0)
        }
        section.contentInsetsReference = appearance == .insetGrouped ? .layoutMargins : .automatic
        if headerMode == .supplementary {
            let header = CollectionLayoutBoundarySupplementaryItem(
                layoutSize: CollectionLayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .estimated(supplementaryEstimate)),
                elementKind: CollectionView.elementKindSectionHeader, alignment: .top,
                absoluteOffset: .zero)
            header.pinToVisibleBounds = !isGrouped
            section.boundarySupplementaryItems.append(header)
        }
        if footerMode == .supplementary {
            section.boundarySupplementaryItems.append(
                CollectionLayoutBoundarySupplementaryItem(
                    layoutSize: CollectionLayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .estimated(supplementaryEstimate)),
                    elementKind: CollectionView.elementKindSectionFooter, alignment: .bottom))
        }
        if let padding = headerTopPadding ?? (isGrouped ? 35 : nil) {
            // The space above a section's header: on the first section above the rows as well.
            section.listTopPadding = padding
        }
        return section
    }
}

/// How the layout as a whole is arranged: UIKit's `UICollectionViewCompositionalLayoutConfiguration`.
public final class CollectionViewCompositionalLayoutConfiguration: NSObject, @unchecked Sendable {
    /// The layout's scroll axis. Default vertical.
    public var scrollDirection = CollectionView.ScrollDirection.vertical
    /// Space between neighbouring sections.
    public var interSectionSpacing: CGFloat = 0
    /// Headers and footers of the whole layout.
    public var boundarySupplementaryItems: [CollectionLayoutBoundarySupplementaryItem] = []
    /// What the sections' insets are measured from by default.
    public var contentInsetsReference = ContentInsetsReference.automatic

    public override init() {}

    func copy() -> CollectionViewCompositionalLayoutConfiguration {
        let copy = CollectionViewCompositionalLayoutConfiguration()
        copy.scrollDirection = scrollDirection
        copy.interSectionSpacing = interSectionSpacing
        copy.boundarySupplementaryItems = boundarySupplementaryItems
        copy.contentInsetsReference = contentInsetsReference
        return copy
    }
}

/// A section's element as its visible-items handler sees it: the attributes it will return,
/// in the section's coordinates before orthogonal scrolling.
final class VisibleItem: NSObject, CollectionLayoutVisibleItem {
    let attributes: CollectionViewLayoutAttributes
    /// What the layout moved the frame by for orthogonal scrolling.
    let shift: CGPoint
    init(_ attributes: CollectionViewLayoutAttributes, shift: CGPoint) {
        self.attributes = attributes
        self.shift = shift
    }
    var alpha: CGFloat {
        get { attributes.alpha }
        set { attributes.alpha = newValue }
    }
    var zIndex: Int {
        get { attributes.zIndex }
        set { attributes.zIndex = newValue }
    }
    var isHidden: Bool {
        get { attributes.isHidden }
        set { attributes.isHidden = newValue }
    }
    var center: CGPoint {
        get { CGPoint(x: attributes.center.x + shift.x, y: attributes.center.y + shift.y) }
        set { attributes.center = CGPoint(x: newValue.x - shift.x, y: newValue.y - shift.y) }
    }
    var transform: CGAffineTransform {
        get { attributes.transform }
        set { attributes.transform = newValue }
    }
    var transform3D: Transform3D {
        get { attributes.transform3D }
        set { attributes.transform3D = newValue }
    }
    var name: String {
        switch attributes.representedElementCategory {
        case .cell: return "cell"
        case .supplementaryView, .decorationView: return attributes.representedElementKind ?? ""
        }
    }
    var indexPath: IndexPath { attributes.indexPath }
    var frame: CGRect { attributes.frame.offsetBy(dx: shift.x, dy: shift.y) }
    var bounds: CGRect { attributes.bounds }
    var representedElementCategory: CollectionView.ElementCategory { attributes.representedElementCategory }
    var representedElementKind: String? { attributes.representedElementKind }
}

extension CollectionLayoutListConfiguration.Appearance {
    /// The look as a list cell's defaults need it.
    var kind: ListAppearanceKind {
        switch self {
        case .plain: return .plain
        case .grouped: return .grouped
        case .insetGrouped: return .insetGrouped
        case .sidebar: return .sidebar
        case .sidebarPlain: return .sidebarPlain
        }
    }
}

extension ListSeparatorConfiguration {
    /// The separators of a list of `listAppearance`, every part automatic.
    public init(listAppearance: CollectionLayoutListConfiguration.Appearance) {
        self.init(appearance: listAppearance.kind)
    }
}
