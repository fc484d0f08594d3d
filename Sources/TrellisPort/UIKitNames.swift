import Foundation

/// UIKit's names as Trellis has them: the `UIKit` module's type aliases (and `QuartzCore`'s
/// transform functions), each with the Trellis name it stands for. The porting tests check this
/// list against those modules' sources, so that the porter and the modules never disagree.
public enum UIKitNames {
    /// Prefixed name → Trellis's own name.
    public static let renamed: [String: String] = {
        var names: [String: String] = [:]
        for name in uiPrefixed { names["UI" + name] = name }
        for name in nsPrefixed { names["NS" + name] = name }
        for name in caPrefixed { names["CA" + name] = name }
        names.merge(otherwiseNamed) { _, other in other }
        return names
    }()

    /// UIKit names whose Trellis name is not the name without its prefix.
    static let otherwiseNamed: [String: String] = ["UICollectionViewListCell": "ListCell"]

    /// Names Trellis has under UIKit's own name (nothing to rename).
    public static let kept: Set<String> = ["UIKit", "CALayer", "CACornerMask", "NSDirectionalEdgeInsets", "NSDirectionalRectEdge", "NSRectAlignment"]

    static let uiPrefixed = [
        "CollectionView", "CollectionViewCell", "CollectionReusableView", "CollectionViewLayout", "CollectionViewFlowLayout",
        "CollectionViewLayoutAttributes", "CollectionViewLayoutInvalidationContext", "CollectionViewFlowLayoutInvalidationContext",
        "CollectionViewTransitionLayout", "CollectionViewUpdateItem", "CollectionViewDataSource", "CollectionViewDataSourcePrefetching",
        "CollectionViewDelegate", "CollectionViewDelegateFlowLayout", "CollectionViewDiffableDataSource",
        "CollectionViewCompositionalLayout", "CollectionViewCompositionalLayoutConfiguration", "CollectionViewCompositionalLayoutSectionProvider",
        "CollectionLayoutListConfiguration", "CollectionLayoutSectionOrthogonalScrollingBehavior",
        "CollectionLayoutSectionOrthogonalScrollingProperties", "ContentInsetsReference",
        "View", "ScrollView", "ScrollViewDelegate", "Color", "EdgeInsets", "Screen", "Device", "TraitCollection",
        "TraitEnvironmentLayoutDirection", "UserInterfaceIdiom", "UserInterfaceLayoutDirection", "UserInterfaceSizeClass",
        "UserInterfaceStyle", "ContentSizeCategory", "SemanticContentAttribute", "GestureRecognizer", "LongPressGestureRecognizer",
        "PinchGestureRecognizer", "TapGestureRecognizer", "PanGestureRecognizer", "Control", "BarButtonItem",
        "CellConfigurationState", "ContextualAction", "SwipeActionsConfiguration", "ListContentConfiguration", "ListContentView",
        "ContentConfiguration", "ContentView", "ConfigurationState", "BackgroundConfiguration", "CellAccessory", "Font", "Image", "Axis", "MenuElement", "Menu",
        "Action", "ContextMenuConfiguration", "ListSeparatorConfiguration", "DynamicAnimator", "DynamicAnimatorDelegate", "DynamicItem",
        "DynamicBehavior", "AttachmentBehavior", "GravityBehavior", "CollisionBehavior", "DynamicItemBehavior", "CollectionViewDragDelegate",
        "CollectionViewDropDelegate", "CollectionViewDropCoordinator",
        "CollectionViewDropItem", "CollectionViewDropProposal", "CollectionViewPlaceholder", "CollectionViewDropPlaceholder",
        "CollectionViewDropPlaceholderContext", "DragItem", "DragDropSession", "DragSession", "DropSession", "DropSessionProgressIndicatorStyle",
        "DropOperation", "DropProposal",
        "DragPreviewParameters", "DragAnimating", "ViewAnimatingPosition", "ViewController", "NavigationController", "NavigationItem", "LayoutGuide",
        "CollectionViewController",
    ]

    static let nsPrefixed = [
        "CollectionLayoutSize", "CollectionLayoutDimension", "CollectionLayoutItem", "CollectionLayoutGroup", "CollectionLayoutGroupCustomItem",
        "CollectionLayoutGroupCustomItemProvider", "CollectionLayoutSection", "CollectionLayoutSectionVisibleItemsInvalidationHandler",
        "CollectionLayoutSpacing", "CollectionLayoutEdgeSpacing", "CollectionLayoutAnchor", "CollectionLayoutSupplementaryItem",
        "CollectionLayoutBoundarySupplementaryItem", "CollectionLayoutDecorationItem", "CollectionLayoutEnvironment", "CollectionLayoutContainer",
        "CollectionLayoutVisibleItem", "DiffableDataSourceSnapshot", "DiffableDataSourceSectionSnapshot", "DiffableDataSourceTransaction",
        "DiffableDataSourceSectionTransaction", "ItemProvider", "ItemProviderWriting", "ItemProviderReading",
        "ItemProviderRepresentationVisibility",
    ]

    static let caPrefixed = [
        "Transform3D", "Transform3DIdentity", "Transform3DIsIdentity", "Transform3DEqualToTransform", "Transform3DMakeTranslation",
        "Transform3DMakeScale", "Transform3DMakeRotation", "Transform3DConcat", "Transform3DTranslate", "Transform3DScale", "Transform3DRotate",
        "Transform3DInvert", "Transform3DMakeAffineTransform", "Transform3DIsAffine", "Transform3DGetAffineTransform", "DisplayLink",
        "CurrentMediaTime",
    ]

    /// Whether `name` is UIKit's (or Core Animation's, or one of UIKit's `NS` families): a
    /// prefix of theirs before an uppercase letter. Foundation's `NS` names are not.
    static func looksLikeUIKit(_ name: String) -> Bool {
        let b = Array(name.utf8)
        func upper(_ i: Int) -> Bool { i < b.count && b[i] >= 0x41 && b[i] <= 0x5A }
        if name.hasPrefix("UI") || name.hasPrefix("CA") { return upper(2) }
        return ["NSCollectionLayout", "NSDiffableDataSource", "NSDirectional", "NSRectAlignment", "NSItemProvider"].contains { name.hasPrefix($0) }
    }
}
