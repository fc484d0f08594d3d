import Foundation
import TrellisCollectionView

/// What a collection view showed at each offset of a scroll: the views on screen, which element
/// each one showed, where, and which views were reused — read from the collection view itself
/// (``CollectionView/visibleCells``, ``CollectionView/visibleSupplementaryViews(ofKind:)``), so
/// the recording is what a host using it would have on screen.
///
/// ```swift
/// let recording = ScrollRecording.record(collectionView, offsets: (0...10).map { CGPoint(x: 0, y: $0 * 80) })
/// recording.steps[3].views.count        // the views on screen at y = 240
/// recording.viewsMade                   // how many views the scroll needed in all
/// ```
public struct ScrollRecording: Sendable, Equatable {
    /// One view on screen.
    public struct View: Sendable, Equatable {
        /// `0·3`, `header 1`, …: the element the view shows.
        public var label: String
        /// The view object, numbered in the order the views first appeared (1, 2, …).
        public var view: Int
        public var category: CollectionView.ElementCategory
        /// Where the view is, in content coordinates.
        public var frame: CGRect
        /// The view showed another element before (it came from the reuse queue) and shows this
        /// one for the first step.
        public var reused: Bool
        /// A supplementary view away from its place in the layout: pinned to the visible bounds.
        public var pinned: Bool
        /// Its stacking order and opacity (a lifted item is above the others; a fading one is
        /// partly transparent).
        public var zIndex: Int = 0
        public var alpha: CGFloat = 1
    }

    /// The screen at one offset.
    public struct Step: Sendable, Equatable {
        public var offset: CGPoint
        /// The views on screen, cells first, each group in index-path order.
        public var views: [View]
        /// Elements that came on screen at this step, and those that left it.
        public var shown: [String]
        public var hidden: [String]
        /// Views made so far (the distinct view objects seen).
        public var viewsMade: Int
    }

    /// The viewport's size.
    public var viewport: CGSize
    public var contentSize: CGSize
    /// Every element of the layout at its own place (nothing pinned): the whole content.
    public var elements: [(label: String, category: CollectionView.ElementCategory, frame: CGRect)]
    public var steps: [Step]

    /// The views the whole scroll needed.
    public var viewsMade: Int { steps.last?.viewsMade ?? 0 }
    /// The most views on screen at once.
    public var mostOnScreen: Int { steps.map(\.views.count).max() ?? 0 }

    public static func == (a: ScrollRecording, b: ScrollRecording) -> Bool {
        a.viewport == b.viewport && a.contentSize == b.contentSize && a.steps == b.steps
            && a.elements.map(\.label) == b.elements.map(\.label) && a.elements.map(\.frame) == b.elements.map(\.frame)
    }

    /// Scrolls `collectionView` to each offset in turn (without animation) and records the
    /// screen after each layout pass. Its data source must dequeue its cells and supplementary
    /// views as any app's does.
    public static func record(_ collectionView: CollectionView, offsets: [CGPoint]) -> ScrollRecording {
        record(collectionView, actions: offsets.map { offset in { collectionView.setContentOffset(offset, animated: false) } })
    }

    /// Runs each action in turn (a drag's next position, a transition's next progress) and
    /// records the screen after each, as ``record(_:offsets:)`` does for scrolling. `label`
    /// names what a view shows (by default its element, `0·3`): a cell's content, say, to follow
    /// items that move.
    public static func record(
        _ collectionView: CollectionView, actions: [() -> Void],
        label: ((CollectionReusableView, CollectionViewLayoutAttributes) -> String)? = nil
    ) -> ScrollRecording {
        collectionView.layoutIfNeeded()
        let layout = collectionView.collectionViewLayout
        let content = CGRect(origin: .zero, size: layout.collectionViewContentSize)
        // The whole content at its own places: queried with the viewport at the origin, where
        // nothing is pinned away from its place.
        let start = collectionView.bounds.origin
        collectionView.setContentOffset(.zero, animated: false)
        let mirroring = collectionView.isMirroringLayout
        let natural = (layout.layoutAttributesForElements(in: content) ?? [])
            .filter { $0.representedElementCategory != .decorationView }
            .map { mirroring ? collectionView.mirrored($0) : $0 }
            .map { (SVGRenderer.label($0), $0.representedElementCategory, $0.frame) }
        var home: [String: CGRect] = [:]
        for (label, _, frame) in natural { home[label] = frame }
        collectionView.setContentOffset(start, animated: false)

        var numbers: [ObjectIdentifier: Int] = [:]
        var lastShown: [Int: String] = [:]
        var previous: [View] = []
        var steps: [Step] = []
        for action in actions {
            action()
            collectionView.layoutIfNeeded()
            var shownViews: [(CollectionReusableView, CollectionViewLayoutAttributes)] = []
            for cell in collectionView.visibleCells {
                if let attributes = cell.appliedLayoutAttributes { shownViews.append((cell, attributes)) }
            }
            let kinds = Set(
                collectionView.visibleElementAttributes.compactMap {
                    $0.representedElementCategory == .supplementaryView ? $0.representedElementKind : nil
                }
            ).sorted()
            for kind in kinds {
                for view in collectionView.visibleSupplementaryViews(ofKind: kind) {
                    if let attributes = view.appliedLayoutAttributes { shownViews.append((view, attributes)) }
                }
            }
            var views: [View] = []
            for (view, attributes) in shownViews {
                let id = ObjectIdentifier(view)
                let number =
                    numbers[id]
                    ?? {
                        let next = numbers.count + 1
                        numbers[id] = next
                        return next
                    }()
                let element = SVGRenderer.label(attributes)
                let label = label?(view, attributes) ?? element
                let reused = lastShown[number].map { $0 != label } ?? false
                lastShown[number] = label
                let pinned =
                    attributes.representedElementCategory == .supplementaryView
                    && home[element].map { $0 != attributes.frame } ?? false
                views.append(
                    View(
                        label: label, view: number, category: attributes.representedElementCategory,
                        frame: attributes.frame, reused: reused, pinned: pinned,
                        zIndex: attributes.zIndex, alpha: attributes.isHidden ? 0 : attributes.alpha))
            }
            let labels = Set(views.map(\.label)), before = Set(previous.map(\.label))
            steps.append(
                Step(
                    offset: collectionView.bounds.origin, views: views,
                    shown: views.map(\.label).filter { !before.contains($0) },
                    hidden: previous.map(\.label).filter { !labels.contains($0) },
                    viewsMade: numbers.count))
            previous = views
        }
        return ScrollRecording(
            viewport: collectionView.bounds.size, contentSize: content.size,
            elements: natural, steps: steps)
    }
}
