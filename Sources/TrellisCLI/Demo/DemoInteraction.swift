import Foundation
import TrellisCollectionView
import TrellisRender

/// The demo's interaction page: a drag that reorders a photo grid, a pinch between a grid and a
/// list scrubbed through its progress, and one flow layout left to right and right to left —
/// each a real collection view, recorded step by step.
extension DemoCommand {
    /// A cell that shows a photo's name.
    final class PhotoCell: CollectionViewCell {
        var title = ""
    }

    /// Photos in sections, reorderable: what an app's data source does.
    final class PhotoDataSource: CollectionViewDataSource {
        var photos: [[String]]
        var moves: [(IndexPath, IndexPath)] = []
        init(_ photos: [[String]]) { self.photos = photos }
        func numberOfSections(in collectionView: CollectionView) -> Int { photos.count }
        func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { photos[section].count }
        func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
            let cell = collectionView.dequeueReusableCell(withReuseIdentifier: "photo", for: indexPath)
            (cell as? PhotoCell)?.title = photos[indexPath.section][indexPath.item]
            return cell
        }
        func collectionView(_ collectionView: CollectionView, moveItemAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath) {
            moves.append((sourceIndexPath, destinationIndexPath))
            let photo = photos[sourceIndexPath.section].remove(at: sourceIndexPath.item)
            photos[destinationIndexPath.section].insert(photo, at: destinationIndexPath.item)
        }
    }

    /// Takes photos dropped from another app: a gap opens where the finger is, and the photo
    /// lands on a placeholder until its data has loaded.
    final class PhotoDropTarget: CollectionViewDropDelegate {
        let source: PhotoDataSource
        var contexts: [CollectionViewDropPlaceholderContext] = []
        init(_ source: PhotoDataSource) { self.source = source }
        func collectionView(
            _ collectionView: CollectionView, dropSessionDidUpdate session: DropSession, withDestinationIndexPath destinationIndexPath: IndexPath?
        ) -> CollectionViewDropProposal {
            CollectionViewDropProposal(operation: .copy, intent: .insertAtDestinationIndexPath)
        }
        func collectionView(_ collectionView: CollectionView, performDropWith coordinator: CollectionViewDropCoordinator) {
            let destination = coordinator.destinationIndexPath ?? IndexPath(item: collectionView.numberOfItems(inSection: 0), section: 0)
            for item in coordinator.items {
                let placeholder = CollectionViewDropPlaceholder(insertionIndexPath: destination, reuseIdentifier: "photo")
                placeholder.cellUpdateHandler = { ($0 as? PhotoCell)?.title = "loading…" }
                contexts.append(coordinator.drop(item.dragItem, to: placeholder))
            }
        }
        /// The data has arrived: each placeholder becomes its photo.
        func finishLoads() {
            for context in contexts {
                context.dragItem.itemProvider.loadObject(ofClass: NSString.self) { _, _ in }
                let title = (context.dragItem.localObject as? String) ?? "photo"
                context.commitInsertion { self.source.photos[$0.section].insert(title, at: $0.item) }
            }
            contexts = []
        }
    }

    /// A flow layout on springs, as the WWDC sample and BouncyLayout write it: a scroll pushes the
    /// photos by their distance from the touch, and they spring back.
    final class SpringFlowLayout: CollectionViewFlowLayout {
        lazy var animator = DynamicAnimator(collectionViewLayout: self)

        override func prepare() {
            super.prepare()
            guard animator.behaviors.isEmpty else { return }
            for item in super.layoutAttributesForElements(in: CGRect(origin: .zero, size: collectionViewContentSize)) ?? [] {
                let spring = AttachmentBehavior(item: item, attachedToAnchor: item.center)
                spring.length = 0
                spring.damping = 0.5
                spring.frequency = 1.5
                animator.addBehavior(spring)
            }
        }

        override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
            animator.items(in: rect) as? [CollectionViewLayoutAttributes]
        }

        override func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
            animator.layoutAttributesForCell(at: indexPath) ?? super.layoutAttributesForItem(at: indexPath)
        }

        override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool {
            guard let view = collectionView else { return false }
            let delta = newBounds.origin.y - view.bounds.origin.y
            // The touch is at the top of the new viewport: photos further down lag more.
            for case let spring as AttachmentBehavior in animator.behaviors {
                let item = spring.items[0]
                let resistance = min(1, abs(newBounds.minY - spring.anchorPoint.y) / 400)
                item.center.y += delta * resistance
                animator.updateItem(usingCurrentState: item)
            }
            return false
        }
    }

    static func photoView(layout: CollectionViewLayout, count: Int, height: CGFloat) -> (CollectionView, PhotoDataSource) {
        let view = CollectionView(frame: CGRect(x: 0, y: 0, width: 320, height: height), collectionViewLayout: layout)
        view.register(PhotoCell.self, forCellWithReuseIdentifier: "photo")
        let source = PhotoDataSource([(1...count).map { "photo \($0)" }])
        view.dataSource = source
        view.layoutIfNeeded()
        return (view, source)
    }

    static func photoGrid() -> CollectionViewFlowLayout {
        let grid = CollectionViewFlowLayout()
        grid.itemSize = CGSize(width: 96, height: 72)
        grid.minimumInteritemSpacing = 8
        grid.minimumLineSpacing = 8
        grid.sectionInset = EdgeInsets(top: 8, left: 8, bottom: 8, right: 8)
        return grid
    }

    static func photoLabel(_ view: CollectionReusableView, _ attributes: CollectionViewLayoutAttributes) -> String {
        (view as? PhotoCell)?.title ?? SVGRenderer.label(attributes)
    }

    /// Parts as one sentence: capitalized, joined with semicolons, ended with a full stop.
    static func sentence(_ parts: [String]) -> String {
        guard let first = parts.first?.first else { return "" }
        let text = parts.joined(separator: "; ")
        return first.uppercased() + text.dropFirst() + "."
    }

    /// The page, its scenes recorded from collection views driven as a finger and a pinch would.
    static func interactionPage() -> String {
        let n = Markup.number
        // A long press on photo 2, dragged down and across to photo 9's place, and dropped.
        let (grid, gridSource) = photoView(layout: photoGrid(), count: 12, height: 340)
        var events: [String] = []
        let start = grid.layoutAttributesForItem(at: IndexPath(item: 1, section: 0))!.center
        let end = grid.layoutAttributesForItem(at: IndexPath(item: 8, section: 0))!.center
        var actions: [() -> Void] = [{ _ = grid.beginInteractiveMovementForItem(at: IndexPath(item: 1, section: 0)) }]
        for k in 1...16 {
            let t = CGFloat(k) / 16
            // Down first, then across, as a thumb drags.
            let point = CGPoint(x: start.x + (end.x - start.x) * max(0, t * 2 - 1), y: start.y + (end.y - start.y) * min(1, t * 2))
            actions.append {
                let before = grid.indexPathsForVisibleItems
                grid.updateInteractiveMovementTargetPosition(point)
                if let moved = grid.currentTransition?.elements.first(where: { $0.role == .moving && $0.before != $0.after && $0.to.zIndex == Int.max }),
                    before.count > 0
                {
                    events.append("at \(n(point.x)), \(n(point.y)) it takes [\(moved.after!.section), \(moved.after!.item)]")
                    grid.completeTransition()
                }
            }
        }
        actions.append { grid.endInteractiveMovement() }
        let drag = ScrollRecording.record(grid, actions: actions, label: photoLabel)
        let told = gridSource.moves.map { "moveItemAt [\($0.0.section), \($0.0.item)] to [\($0.1.section), \($0.1.item)]" }

        // A pinch from the grid to a list, scrubbed 0 → 1 in tenths, then finished.
        let list = CollectionViewFlowLayout()
        list.itemSize = CGSize(width: 304, height: 44)
        list.minimumLineSpacing = 4
        list.sectionInset = EdgeInsets(top: 8, left: 8, bottom: 8, right: 8)
        let (pinchView, pinchSource) = photoView(layout: photoGrid(), count: 12, height: 340)
        var transition: CollectionViewTransitionLayout?
        var completed: [String] = []
        var pinchActions: [() -> Void] = [
            {
                transition = pinchView.startInteractiveTransition(to: list) { done, finished in completed.append("completion(\(done), \(finished))") }
            }
        ]
        for k in 1...10 {
            pinchActions.append { transition?.transitionProgress = CGFloat(k) / 10 }
        }
        pinchActions.append {
            pinchView.finishInteractiveTransition(); pinchView.completeTransition()
        }
        let pinch = ScrollRecording.record(pinchView, actions: pinchActions, label: photoLabel)

        // A photo dragged in from another app: over the grid a gap opens under the finger and
        // follows it; dropped, a placeholder stands in until the photo's data has loaded.
        let (dropGrid, dropSource) = photoView(layout: photoGrid(), count: 9, height: 340)
        let target = PhotoDropTarget(dropSource)
        dropGrid.dropDelegate = target
        dropGrid.dragInteractionEnabled = true
        let item = DragItem(itemProvider: ItemProvider(object: "photo 10" as NSString))
        item.localObject = "photo 10"
        let incoming = HeadlessDrag(itemsFromAnotherApp: [item])
        var dropEvents: [String] = []
        var dropActions: [() -> Void] = [{}]
        let path = [CGPoint(x: 264, y: 212), CGPoint(x: 160, y: 212), CGPoint(x: 160, y: 128), CGPoint(x: 56, y: 128), CGPoint(x: 56, y: 44)]
        for point in path {
            dropActions.append {
                incoming.move(to: point, over: dropGrid)
                dropGrid.completeTransition()
                if let destination = incoming.destinationIndexPath {
                    dropEvents.append("at \(n(point.x)), \(n(point.y)) the gap is at [\(destination.section), \(destination.item)]")
                }
            }
        }
        dropActions.append {
            incoming.drop()
            dropGrid.completeTransition()
        }
        dropActions.append {
            target.finishLoads()
            dropGrid.completeTransition()
        }
        let drop = ScrollRecording.record(dropGrid, actions: dropActions, label: photoLabel)

        // A spring flow layout pushed by a scroll of 60 points, then stepped a fifteenth of a
        // second at a time until it is at rest on the flow layout's frames.
        let springs = SpringFlowLayout()
        springs.itemSize = CGSize(width: 304, height: 40)
        springs.minimumLineSpacing = 8
        springs.sectionInset = EdgeInsets(top: 8, left: 8, bottom: 8, right: 8)
        let (bouncy, bouncySource) = photoView(layout: springs, count: 14, height: 340)
        var steps = 0
        var springActions: [() -> Void] = [{}, { bouncy.contentOffset = CGPoint(x: 0, y: 60) }]
        for _ in 0..<30 {
            springActions.append {
                guard springs.animator.isRunning else { return }
                springs.animator.step(by: 1.0 / 15)
                steps += 1
            }
        }
        let bounce = ScrollRecording.record(bouncy, actions: springActions, label: photoLabel)

        // The same flow layout, left to right and right to left.
        let (ltr, ltrSource) = photoView(layout: photoGrid(), count: 7, height: 180)
        let (rtl, rtlSource) = photoView(layout: photoGrid(), count: 7, height: 180)
        rtl.semanticContentAttribute = .forceRightToLeft
        let leftToRight = ScrollRecording.record(ltr, actions: [{}], label: photoLabel)
        let rightToLeft = ScrollRecording.record(rtl, actions: [{}], label: photoLabel)
        _ = (gridSource, pinchSource, ltrSource, rtlSource, bouncySource)
        return ScrollingPage.render(
            title: "Interaction: reordering, a drop, springs, a pinch between layouts, right to left",
            scenes: [
                (
                    "A long press lifts photo 2 (beginInteractiveMovementForItem); the finger drags it down and across "
                        + "(updateInteractiveMovementTargetPosition): the layout proposes the item under the finger, the others make way, "
                        + "and the lifted photo follows above them. " + sentence(events) + " On release "
                        + "(endInteractiveMovement) the data source is told once: " + told.joined(separator: ", ") + ".", drag
                ),
                (
                    "A photo dragged in from another app (HeadlessDrag): over the grid the drop delegate proposes a copy inserted "
                        + "at the destination, so a gap opens under the finger and follows it. " + sentence(dropEvents)
                        + " Dropped, the photo lands on a placeholder (UICollectionViewDropPlaceholder) that says loading… until its "
                        + "data has arrived; then commitInsertion puts it in the data source and its own cell replaces the placeholder.",
                    drop
                ),
                (
                    "A flow layout on springs (UIDynamicAnimator, an attachment behaviour per photo): a scroll of 60 points pushes "
                        + "each photo by its distance from the touch, and the springs pull them back, stepped a fifteenth of a second "
                        + "at a time: at rest after \(steps) steps, on the flow layout's frames.", bounce
                ),
                (
                    "A pinch from a grid to a list (startInteractiveTransition): the slider is the pinch, its progress in tenths; "
                        + "every photo is where the grid and the list put it, mixed by the progress. The last step finishes the "
                        + "transition (finishInteractiveTransition, " + completed.joined() + ").", pinch
                ),
                ("A flow layout, left to right: photo 1 at the top left.", leftToRight),
                (
                    "The same flow layout in a right-to-left view (semanticContentAttribute = .forceRightToLeft): the layout "
                        + "computes left to right and the collection view mirrors it; photo 1 at the top right.", rightToLeft
                ),
            ])
    }
}
