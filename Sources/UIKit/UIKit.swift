// `import UIKit` on Linux: UIKit's own names for everything Trellis implements of it, so that a
// file written for iOS compiles here as it is — the collection view, its layouts and their
// objects, the compositional layout (`NSCollectionLayout…`), diffable data sources and
// snapshots, views, colors, screens, trait collections and gesture recognizers — each name the
// Trellis type itself (a type alias: subclassed, overridden, conformed to and extended as on iOS,
// its nested types and static members reached through the UIKit name). Core Graphics' and Core
// Animation's names come with it, as they do with Apple's UIKit. Only built where Apple's UIKit
// is not (see Package.swift); only names UIKit has are given, so that what compiles here
// compiles for iOS.
@_exported import CoreGraphics
@_exported import QuartzCore
@_exported import TrellisCollectionView
@_exported import TrellisLayouts

// MARK: The collection view

public typealias UICollectionView = CollectionView
public typealias UICollectionViewCell = CollectionViewCell
public typealias UICellConfigurationState = CellConfigurationState
public typealias UIContextualAction = ContextualAction
public typealias UISwipeActionsConfiguration = SwipeActionsConfiguration
public typealias UICollectionReusableView = CollectionReusableView
public typealias UICollectionViewListCell = ListCell
public typealias UIListContentConfiguration = ListContentConfiguration
public typealias UIListContentView = ListContentView
public typealias UIContentConfiguration = ContentConfiguration
public typealias UIContentView = ContentView
public typealias UIConfigurationState = ConfigurationState
public typealias UIBackgroundConfiguration = BackgroundConfiguration
public typealias UICellAccessory = CellAccessory
public typealias UIListSeparatorConfiguration = ListSeparatorConfiguration
public typealias UICollectionViewLayout = CollectionViewLayout
public typealias UICollectionViewFlowLayout = CollectionViewFlowLayout
public typealias UICollectionViewLayoutAttributes = CollectionViewLayoutAttributes
public typealias UICollectionViewLayoutInvalidationContext = CollectionViewLayoutInvalidationContext
public typealias UICollectionViewFlowLayoutInvalidationContext = CollectionViewFlowLayoutInvalidationContext
public typealias UICollectionViewTransitionLayout = CollectionViewTransitionLayout
public typealias UICollectionViewUpdateItem = CollectionViewUpdateItem
public typealias UICollectionViewDataSource = CollectionViewDataSource
public typealias UICollectionViewDataSourcePrefetching = CollectionViewDataSourcePrefetching
public typealias UICollectionViewDelegate = CollectionViewDelegate
public typealias UICollectionViewDelegateFlowLayout = CollectionViewDelegateFlowLayout
public typealias UICollectionViewDiffableDataSource<SectionIdentifierType: Hashable, ItemIdentifierType: Hashable> =
    CollectionViewDiffableDataSource<SectionIdentifierType, ItemIdentifierType>

// MARK: The compositional layout

public typealias UICollectionViewCompositionalLayout = CollectionViewCompositionalLayout
public typealias UICollectionViewCompositionalLayoutConfiguration = CollectionViewCompositionalLayoutConfiguration
public typealias UICollectionViewCompositionalLayoutSectionProvider = CollectionViewCompositionalLayoutSectionProvider
public typealias UICollectionLayoutListConfiguration = CollectionLayoutListConfiguration
public typealias UICollectionLayoutSectionOrthogonalScrollingBehavior = CollectionLayoutSectionOrthogonalScrollingBehavior
public typealias UICollectionLayoutSectionOrthogonalScrollingProperties = CollectionLayoutSectionOrthogonalScrollingProperties
public typealias UIContentInsetsReference = ContentInsetsReference
public typealias NSCollectionLayoutSize = CollectionLayoutSize
public typealias NSCollectionLayoutDimension = CollectionLayoutDimension
public typealias NSCollectionLayoutItem = CollectionLayoutItem
public typealias NSCollectionLayoutGroup = CollectionLayoutGroup
public typealias NSCollectionLayoutGroupCustomItem = CollectionLayoutGroupCustomItem
public typealias NSCollectionLayoutGroupCustomItemProvider = CollectionLayoutGroupCustomItemProvider
public typealias NSCollectionLayoutSection = CollectionLayoutSection
public typealias NSCollectionLayoutSectionVisibleItemsInvalidationHandler = CollectionLayoutSectionVisibleItemsInvalidationHandler
public typealias NSCollectionLayoutSpacing = CollectionLayoutSpacing
public typealias NSCollectionLayoutEdgeSpacing = CollectionLayoutEdgeSpacing
public typealias NSCollectionLayoutAnchor = CollectionLayoutAnchor
public typealias NSCollectionLayoutSupplementaryItem = CollectionLayoutSupplementaryItem
public typealias NSCollectionLayoutBoundarySupplementaryItem = CollectionLayoutBoundarySupplementaryItem
public typealias NSCollectionLayoutDecorationItem = CollectionLayoutDecorationItem
public typealias NSCollectionLayoutEnvironment = CollectionLayoutEnvironment
public typealias NSCollectionLayoutContainer = CollectionLayoutContainer
public typealias NSCollectionLayoutVisibleItem = CollectionLayoutVisibleItem

// MARK: Diffable data

public typealias NSDiffableDataSourceSnapshot<SectionIdentifierType: Hashable, ItemIdentifierType: Hashable> =
    DiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>
public typealias NSDiffableDataSourceSectionSnapshot<ItemIdentifierType: Hashable> = DiffableDataSourceSectionSnapshot<ItemIdentifierType>
public typealias NSDiffableDataSourceTransaction<SectionIdentifierType: Hashable, ItemIdentifierType: Hashable> =
    DiffableDataSourceTransaction<SectionIdentifierType, ItemIdentifierType>
public typealias NSDiffableDataSourceSectionTransaction<SectionIdentifierType: Hashable, ItemIdentifierType: Hashable> =
    DiffableDataSourceSectionTransaction<SectionIdentifierType, ItemIdentifierType>

// MARK: Views, screens, traits, gestures

public typealias UIView = View
public typealias UIScrollView = ScrollView
public typealias UIScrollViewDelegate = ScrollViewDelegate
public typealias UIColor = Color
public typealias UIFont = Font
public typealias UIImage = Image
public typealias UIAxis = Axis
public typealias UIEdgeInsets = EdgeInsets
public typealias UIScreen = Screen
public typealias UIDevice = Device
public typealias UITraitCollection = TraitCollection
public typealias UITraitEnvironmentLayoutDirection = TraitEnvironmentLayoutDirection
public typealias UIUserInterfaceIdiom = UserInterfaceIdiom
public typealias UIUserInterfaceLayoutDirection = UserInterfaceLayoutDirection
public typealias UIUserInterfaceSizeClass = UserInterfaceSizeClass
public typealias UIUserInterfaceStyle = UserInterfaceStyle
public typealias UIContentSizeCategory = ContentSizeCategory
public typealias UISemanticContentAttribute = SemanticContentAttribute
public typealias UIGestureRecognizer = GestureRecognizer
public typealias UIControl = Control
public typealias UIBarButtonItem = BarButtonItem
public typealias UIMenuElement = MenuElement
public typealias UIMenu = Menu
public typealias UIAction = Action
public typealias UIContextMenuConfiguration = ContextMenuConfiguration
public typealias UIDynamicAnimator = DynamicAnimator
public typealias UIDynamicAnimatorDelegate = DynamicAnimatorDelegate
public typealias UIDynamicItem = DynamicItem
public typealias UIDynamicBehavior = DynamicBehavior
public typealias UIAttachmentBehavior = AttachmentBehavior
public typealias UIGravityBehavior = GravityBehavior
public typealias UICollisionBehavior = CollisionBehavior
public typealias UIDynamicItemBehavior = DynamicItemBehavior
public typealias UIViewController = ViewController
public typealias UILayoutGuide = LayoutGuide
public typealias UINavigationController = NavigationController
public typealias UINavigationItem = NavigationItem
public typealias UICollectionViewController = CollectionViewController
public typealias UICollectionViewDragDelegate = CollectionViewDragDelegate
public typealias UICollectionViewDropDelegate = CollectionViewDropDelegate
public typealias UICollectionViewDropCoordinator = CollectionViewDropCoordinator
public typealias UICollectionViewDropItem = CollectionViewDropItem
public typealias UICollectionViewDropProposal = CollectionViewDropProposal
public typealias UICollectionViewPlaceholder = CollectionViewPlaceholder
public typealias UICollectionViewDropPlaceholder = CollectionViewDropPlaceholder
public typealias UICollectionViewDropPlaceholderContext = CollectionViewDropPlaceholderContext
public typealias UIDragItem = DragItem
public typealias UIDragDropSession = DragDropSession
public typealias UIDragSession = DragSession
public typealias UIDropSession = DropSession
public typealias UIDropSessionProgressIndicatorStyle = DropSessionProgressIndicatorStyle
public typealias UIDropOperation = DropOperation
public typealias UIDropProposal = DropProposal
public typealias UIDragPreviewParameters = DragPreviewParameters
public typealias UIDragAnimating = DragAnimating
public typealias UIViewAnimatingPosition = ViewAnimatingPosition
public typealias NSItemProvider = ItemProvider
public typealias NSItemProviderWriting = ItemProviderWriting
public typealias NSItemProviderReading = ItemProviderReading
public typealias NSItemProviderRepresentationVisibility = ItemProviderRepresentationVisibility
public typealias UILongPressGestureRecognizer = LongPressGestureRecognizer
public typealias UIPinchGestureRecognizer = PinchGestureRecognizer
public typealias UITapGestureRecognizer = TapGestureRecognizer
public typealias UIPanGestureRecognizer = PanGestureRecognizer
