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

        // The same flow layout, left to right and right to left.
        let (ltr, ltrSource) = photoView(layout: photoGrid(), count: 7, height: 180)
        let (rtl, rtlSource) = photoView(layout: photoGrid(), count: 7, height: 180)
        rtl.semanticContentAttribute = .forceRightToLeft
        let leftToRight = ScrollRecording.record(ltr, actions: [{}], label: photoLabel)
        let rightToLeft = ScrollRecording.record(rtl, actions: [{}], label: photoLabel)
        _ = (gridSource, pinchSource, ltrSource, rtlSource)
        return ScrollingPage.render(
            title: "Interaction: reordering, a pinch between layouts, right to left",
            scenes: [
                (
                    "A long press lifts photo 2 (beginInteractiveMovementForItem); the finger drags it down and across "
                        + "(updateInteractiveMovementTargetPosition): the layout proposes the item under the finger, the others make way, "
                        + "and the lifted photo follows above them. " + sentence(events) + " On release "
                        + "(endInteractiveMovement) the data source is told once: " + told.joined(separator: ", ") + ".", drag
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
