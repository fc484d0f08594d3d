import Foundation

/// One thing a drag carries (`UIDragItem`): its data, by type, and — within the app — the
/// model object itself.
open class DragItem: NSObject {
    /// The item's data.
    public let itemProvider: ItemProvider
    /// The app's own object, for a drop in the same app (never seen by another app).
    open var localObject: Any?

    public init(itemProvider: ItemProvider) {
        self.itemProvider = itemProvider
        super.init()
    }
}

/// What drag and drop sessions have in common (`UIDragDropSession`, a protocol as in UIKit, so
/// that `any UIDropSession` compiles): the items, where the touch is, and what a drop may do.
public protocol DragDropSession: AnyObject {
    var items: [DragItem] { get }
    var allowsMoveOperation: Bool { get }
    var isRestrictedToDraggingApplication: Bool { get }
    func location(in view: View) -> CGPoint
    func hasItemsConforming(toTypeIdentifiers typeIdentifiers: [String]) -> Bool
    func canLoadObjects(ofClass aClass: any ItemProviderReading.Type) -> Bool
}

/// A drag that began in a collection view of this app (`UIDragSession`).
public protocol DragSession: DragDropSession {
    /// The app's own context for the drag, set by its drag delegate; seen by drops in this app.
    var localContext: Any? { get set }
}

/// A drag as a view that may take its drop sees it (`UIDropSession`).
public protocol DropSession: DragDropSession {
    /// The drag, when it began in this app; `nil` for a drag from another app.
    var localDragSession: (any DragSession)? { get }
    var progressIndicatorStyle: DropSessionProgressIndicatorStyle { get set }
    /// Loads an object of `aClass` from every item that has one, in the items' order.
    @discardableResult
    func loadObjects(ofClass aClass: any ItemProviderReading.Type, completion: @escaping ([any ItemProviderReading]) -> Void) -> Progress
}

/// How the progress of a slow load shows (`UIDropSessionProgressIndicatorStyle`).
public enum DropSessionProgressIndicatorStyle: UInt, Sendable {
    case none = 0
    case `default` = 1
}

/// The sessions of a headless drag: what ``HeadlessDrag`` hands the delegates.
open class HeadlessDragDropSession: NSObject, DragDropSession {
    /// The items dragged, in the order they were added.
    open internal(set) var items: [DragItem]
    /// Whether a drop may move the items rather than copy them (the drag delegate's
    /// `collectionView(_:dragSessionAllowsMoveOperation:)`; a drag from another app: no).
    open internal(set) var allowsMoveOperation: Bool
    /// Whether only the app the drag began in may take the drop.
    open internal(set) var isRestrictedToDraggingApplication: Bool
    /// Where the touch is: the collection view it is over, and the point in that view's content.
    var location: (view: View, point: CGPoint)?

    init(items: [DragItem], allowsMoveOperation: Bool, isRestrictedToDraggingApplication: Bool) {
        self.items = items
        self.allowsMoveOperation = allowsMoveOperation
        self.isRestrictedToDraggingApplication = isRestrictedToDraggingApplication
        super.init()
    }

    /// Where the touch is in `view`'s coordinates: in the collection view it is over, that view's
    /// content coordinates; in one of its cells or other views, relative to that view's frame.
    /// A drag over no view is at `.zero`.
    open func location(in view: View) -> CGPoint {
        guard let (over, point) = location else { return .zero }
        if view === over { return point }
        return CGPoint(x: point.x - view.frame.minX, y: point.y - view.frame.minY)
    }

    /// Whether some item has data of one of `typeIdentifiers`.
    open func hasItemsConforming(toTypeIdentifiers typeIdentifiers: [String]) -> Bool {
        items.contains { item in typeIdentifiers.contains(where: item.itemProvider.hasItemConformingToTypeIdentifier) }
    }

    /// Whether some item can be loaded as an object of `aClass`.
    open func canLoadObjects(ofClass aClass: any ItemProviderReading.Type) -> Bool {
        items.contains { $0.itemProvider.canLoadObject(ofClass: aClass) }
    }
}

/// A headless drag that began in a collection view of this app.
public final class HeadlessDragSession: HeadlessDragDropSession, DragSession {
    public var localContext: Any?
    /// The collection view the drag began in.
    public internal(set) weak var sourceCollectionView: CollectionView?
    /// The index path each item was lifted from, by item.
    var sourceIndexPaths: [ObjectIdentifier: IndexPath] = [:]

    init(source: CollectionView) {
        sourceCollectionView = source
        super.init(items: [], allowsMoveOperation: true, isRestrictedToDraggingApplication: false)
    }
}

/// A headless drag as a collection view that may take its drop sees it.
public final class HeadlessDropSession: HeadlessDragDropSession, DropSession {
    /// The drag, when it began in this app (the concrete session).
    public let localDrag: HeadlessDragSession?
    public var localDragSession: (any DragSession)? { localDrag }
    /// Default `.default`.
    public var progressIndicatorStyle: DropSessionProgressIndicatorStyle = .default

    init(localDragSession: HeadlessDragSession?, items: [DragItem], allowsMoveOperation: Bool) {
        self.localDrag = localDragSession
        super.init(
            items: items, allowsMoveOperation: allowsMoveOperation,
            isRestrictedToDraggingApplication: localDragSession?.isRestrictedToDraggingApplication ?? false)
    }

    /// Loads an object of `aClass` from every item that has one, in the items' order, and hands
    /// them to `completion` — at once, headless (UIKit calls it later, on the main queue).
    @discardableResult
    public func loadObjects(ofClass aClass: any ItemProviderReading.Type, completion: @escaping ([any ItemProviderReading]) -> Void) -> Progress {
        let loadable = items.filter { $0.itemProvider.canLoadObject(ofClass: aClass) }
        let progress = Progress(totalUnitCount: Int64(loadable.count))
        let loaded = LoadedObjects()
        for item in loadable {
            item.itemProvider.loadObject(ofClass: aClass) { object, _ in
                if let object { loaded.append(object) }
            }
            progress.completedUnitCount += 1
        }
        completion(loaded.objects)
        return progress
    }
}

/// Objects loaded one by one (loads complete before `loadObjects` returns).
private final class LoadedObjects: @unchecked Sendable {
    var objects: [any ItemProviderReading] = []
    func append(_ object: any ItemProviderReading) { objects.append(object) }
}

/// What a drop does with the items (`UIDropOperation`).
public enum DropOperation: UInt, Sendable {
    /// Nothing: the drop is not taken (and the touch is not shown as forbidden).
    case cancel = 0
    /// Not taken, and shown as forbidden.
    case forbidden = 1
    /// The items are copied.
    case copy = 2
    /// The items are moved: only for a drag from this app that allows moving; otherwise taken as
    /// a copy.
    case move = 3
}

/// How a view would take a drop (`UIDropProposal`).
open class DropProposal: NSObject {
    public let operation: DropOperation
    /// Whether the drop needs a precise location (the touch is shown offset). Default `false`.
    open var isPrecise = false
    /// Whether the dragged item's preview is shown at full size. Default `false`.
    open var prefersFullSizePreview = false

    public init(operation: DropOperation) {
        self.operation = operation
        super.init()
    }
}

/// How a collection view would take a drop, and where (`UICollectionViewDropProposal`).
open class CollectionViewDropProposal: DropProposal {
    /// Where the dropped items go (`UICollectionViewDropProposal.Intent`).
    public enum Intent: Int, Sendable {
        /// Not yet known: no gap opens.
        case unspecified = 0
        /// Into items inserted at the destination index path: a gap opens there, as the items
        /// would lie after the drop.
        case insertAtDestinationIndexPath = 1
        /// Into the item at the destination index path (a container): the item is highlighted, no
        /// gap opens.
        case insertIntoDestinationIndexPath = 2
    }

    /// Default `.unspecified`.
    public let intent: Intent

    public init(operation: DropOperation, intent: Intent = .unspecified) {
        self.intent = intent
        super.init(operation: operation)
    }

    public override init(operation: DropOperation) {
        intent = .unspecified
        super.init(operation: operation)
    }
}

/// How a dragged or dropped item's preview looks (`UIDragPreviewParameters`). Headless, only its
/// background colour is kept: nothing is drawn during a drag.
open class DragPreviewParameters: NSObject {
    /// The colour behind the preview's content. Default: none.
    open var backgroundColor: Color?
}

/// Where an animation of a drop is (`UIViewAnimatingPosition`).
public enum ViewAnimatingPosition: Int, Sendable {
    case end = 0
    case start = 1
    case current = 2
}

/// An animation of a drop that animations and completions can be added to (`UIDragAnimating`).
/// Headless, the animations run and the completions are called with `.end` when the drop is done.
public protocol DragAnimating: AnyObject {
    func addAnimations(_ animations: @escaping () -> Void)
    func addCompletion(_ completion: @escaping (ViewAnimatingPosition) -> Void)
}

/// The animation of one dropped item: run when the drop ends.
final class DropAnimation: DragAnimating {
    private var animations: [() -> Void] = []
    private var completions: [(ViewAnimatingPosition) -> Void] = []
    func addAnimations(_ animations: @escaping () -> Void) { self.animations.append(animations) }
    func addCompletion(_ completion: @escaping (ViewAnimatingPosition) -> Void) { completions.append(completion) }
    func finish() {
        let (animations, completions) = (self.animations, self.completions)
        self.animations = []
        self.completions = []
        for animation in animations { animation() }
        for completion in completions { completion(.end) }
    }
}

/// An item of a drop into a collection view (`UICollectionViewDropItem`, a protocol as in UIKit).
public protocol CollectionViewDropItem: AnyObject {
    var dragItem: DragItem { get }
    /// Where the item was lifted from, when the drag began in this collection view; otherwise `nil`.
    var sourceIndexPath: IndexPath? { get }
    /// The size of the item's preview: the source cell's, or zero when it has none here.
    var previewSize: CGSize { get }
}

/// An item of a headless drop.
public final class HeadlessDropItem: NSObject, CollectionViewDropItem {
    public let dragItem: DragItem
    /// Where the item was lifted from, when the drag began in this collection view; otherwise `nil`.
    public let sourceIndexPath: IndexPath?
    /// The size of the item's preview: the source cell's, or zero when it has none here.
    public let previewSize: CGSize

    init(dragItem: DragItem, sourceIndexPath: IndexPath?, previewSize: CGSize) {
        self.dragItem = dragItem
        self.sourceIndexPath = sourceIndexPath
        self.previewSize = previewSize
    }
}

/// Where a dropped item lands, as the drop delegate said through the coordinator.
public enum DropLanding: Equatable, Sendable {
    /// Onto the item the app inserted at the index path (`drop(_:toItemAt:)`).
    case item(IndexPath)
    /// Into a rect of an existing item, in the cell's coordinates (`drop(_:intoItemAt:rect:)`).
    case intoItem(IndexPath, CGRect)
    /// Onto a placeholder inserted at the index path (`drop(_:to:)` with a placeholder).
    case placeholder(IndexPath)
}

/// A cell that stands in the collection view for a dropped item until its data arrives
/// (`UICollectionViewPlaceholder`): dequeued with `reuseIdentifier`, configured by
/// ``cellUpdateHandler`` whenever it is shown; the data source is not asked for it.
open class CollectionViewPlaceholder: NSObject {
    public let insertionIndexPath: IndexPath
    public let reuseIdentifier: String
    /// Configures the placeholder's cell each time it is shown.
    open var cellUpdateHandler: ((CollectionViewCell) -> Void)?

    public init(insertionIndexPath: IndexPath, reuseIdentifier: String) {
        self.insertionIndexPath = insertionIndexPath
        self.reuseIdentifier = reuseIdentifier
        super.init()
    }
}

/// A placeholder for a dropped item (`UICollectionViewDropPlaceholder`).
open class CollectionViewDropPlaceholder: CollectionViewPlaceholder {
    /// The preview parameters of the item dropped onto the placeholder's cell.
    open var previewParametersProvider: ((CollectionViewCell) -> DragPreviewParameters?)?
}
