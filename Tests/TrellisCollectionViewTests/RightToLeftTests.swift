import Foundation
import Testing

@_spi(Instrumentation) @testable import TrellisCollectionView

/// Snaps scrolling to multiples of 100 points, in its own (left-to-right) coordinates.
final class SnappingFlowLayout: CollectionViewFlowLayout {
    var asked: [CGPoint] = []
    override func targetContentOffset(
        forProposedContentOffset proposedContentOffset: CGPoint,
        withScrollingVelocity velocity: CGPoint
    ) -> CGPoint {
        asked.append(proposedContentOffset)
        return CGPoint(x: (proposedContentOffset.x / 100).rounded() * 100, y: proposedContentOffset.y)
    }
}

/// A layout that keeps its own frames in any direction (the base class's default).
final class UnflippedLayout: CollectionViewLayout {
    override var collectionViewContentSize: CGSize { CGSize(width: 320, height: 100) }
    override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
        [layoutAttributesForItem(at: IndexPath(item: 0, section: 0))!].filter { $0.frame.intersects(rect) }
    }
    override func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        let attributes = CollectionViewLayoutAttributes(forCellWith: indexPath)
        attributes.frame = CGRect(x: 10, y: 0, width: 50, height: 50)
        return attributes
    }
}

@Suite("Right to left")
struct RightToLeftTests {
    func frame(_ view: CollectionView, _ item: Int, section: Int = 0) -> CGRect? {
        view.cellForItem(at: IndexPath(item: item, section: section))?.frame
    }

    @Test("a flow grid in a right-to-left view: lines run from the right; the layout's own answers stay left to right")
    func mirroredGrid() throws {
        let (view, data) = makeCollectionView([Array(0..<7)])
        defer { withExtendedLifetime(data) {} }
        #expect(frame(view, 0) == CGRect(x: 0, y: 0, width: 100, height: 100))
        view.semanticContentAttribute = .forceRightToLeft
        view.layoutIfNeeded()
        #expect(view.isMirroringLayout)
        #expect(frame(view, 0) == CGRect(x: 220, y: 0, width: 100, height: 100))
        #expect(frame(view, 2) == CGRect(x: 0, y: 0, width: 100, height: 100))
        #expect(frame(view, 6) == CGRect(x: 220, y: 220, width: 100, height: 100))
        #expect(view.layoutAttributesForItem(at: IndexPath(item: 1, section: 0))?.frame == CGRect(x: 110, y: 0, width: 100, height: 100))
        #expect(view.layoutAttributesForItem(at: IndexPath(item: 3, section: 0))?.frame == CGRect(x: 220, y: 110, width: 100, height: 100))
        #expect(
            view.collectionViewLayout.layoutAttributesForItem(at: IndexPath(item: 3, section: 0))?.frame
                == CGRect(x: 0, y: 110, width: 100, height: 100))
        #expect(view.indexPathForItem(at: CGPoint(x: 250, y: 50)) == IndexPath(item: 0, section: 0))
        #expect(view.indexPathForItem(at: CGPoint(x: 50, y: 50)) == IndexPath(item: 2, section: 0))
        // Back to left to right.
        view.semanticContentAttribute = .forceLeftToRight
        view.layoutIfNeeded()
        #expect(frame(view, 0) == CGRect(x: 0, y: 0, width: 100, height: 100))
    }

    @Test("the direction comes from the traits unless the semantic attribute forces one; a layout that does not flip is not mirrored")
    func whenToMirror() {
        let (view, data) = makeCollectionView([Array(0..<3)])
        defer { withExtendedLifetime(data) {} }
        view.traitCollection = TraitCollection(traitsFrom: [view.traitCollection, TraitCollection(layoutDirection: .rightToLeft)])
        view.layoutIfNeeded()
        #expect(view.isMirroringLayout && frame(view, 0)?.minX == 220)
        view.semanticContentAttribute = .playback
        view.layoutIfNeeded()
        #expect(!view.isMirroringLayout && frame(view, 0)?.minX == 0)
        let plain = makeCollectionView([[0]], layout: UnflippedLayout())
        defer { withExtendedLifetime(plain.1) {} }
        plain.0.semanticContentAttribute = .forceRightToLeft
        plain.0.layoutIfNeeded()
        #expect(!plain.0.isMirroringLayout && frame(plain.0, 0) == CGRect(x: 10, y: 0, width: 50, height: 50))
    }

    @Test("horizontal scrolling: the first item is at the right end of the content; scrolling to it and snapping work in the view's coordinates")
    func horizontal() {
        let layout = SnappingFlowLayout()
        layout.scrollDirection = .horizontal
        layout.minimumLineSpacing = 0
        layout.itemSize = CGSize(width: 100, height: 100)
        let (view, data) = makeCollectionView([Array(0..<10)], height: 100, layout: layout)
        defer { withExtendedLifetime(data) {} }
        view.semanticContentAttribute = .forceRightToLeft
        view.layoutIfNeeded()
        #expect(view.contentSize == CGSize(width: 1000, height: 100))
        #expect(view.layoutAttributesForItem(at: IndexPath(item: 0, section: 0))?.frame == CGRect(x: 900, y: 0, width: 100, height: 100))
        view.scrollToItem(at: IndexPath(item: 0, section: 0), at: .right, animated: false)
        #expect(view.contentOffset.x == 680)
        #expect(view.indexPathsForVisibleItems.map(\.item) == [0, 1, 2, 3])
        #expect(frame(view, 0) == CGRect(x: 900, y: 0, width: 100, height: 100))
        // A fling to the left (towards later items) ends where the layout snaps, mirrored: the
        // layout sees an offset of 1000 − 680 − 320 = 0 moving right.
        let target = view.endDragging(withVelocity: CGPoint(x: -0.3, y: 0))
        #expect(layout.asked.count == 1)
        #expect(target.x == 1000 - 320 - (layout.asked[0].x / 100).rounded() * 100)
    }

    @Test("a batch insert in a right-to-left view animates in the view's coordinates")
    func batchInRightToLeft() throws {
        let (view, data) = makeCollectionView([Array(0..<4)])
        view.semanticContentAttribute = .forceRightToLeft
        view.layoutIfNeeded()
        data.sections[0].insert(99, at: 0)
        let transition = try view.applyBatchUpdates { view.insertItems(at: [IndexPath(item: 0, section: 0)]) }
        let moved = try #require(transition.element(after: ElementID(category: .cell, kind: nil, section: 0, item: 1)))
        #expect(moved.from.frame == CGRect(x: 220, y: 0, width: 100, height: 100))
        #expect(moved.to.frame == CGRect(x: 110, y: 0, width: 100, height: 100))
        let inserted = try #require(transition.element(after: ElementID(category: .cell, kind: nil, section: 0, item: 0)))
        #expect(inserted.to.frame == CGRect(x: 220, y: 0, width: 100, height: 100) && inserted.from.alpha == 0)
        #expect(frame(view, 3) == CGRect(x: 220, y: 110, width: 100, height: 100))
    }

    @Test("a drag in a right-to-left view follows the finger in the view's coordinates")
    func dragInRightToLeft() {
        let flow = CollectionViewFlowLayout()
        flow.itemSize = CGSize(width: 100, height: 100)
        let view = CollectionView(frame: CGRect(x: 0, y: 0, width: 320, height: 480), collectionViewLayout: flow)
        view.register(RecordingCell.self, forCellWithReuseIdentifier: "cell")
        let data = ReorderableDataSource([Array(0..<6)])
        view.dataSource = data
        view.semanticContentAttribute = .forceRightToLeft
        view.layoutIfNeeded()
        #expect(view.beginInteractiveMovementForItem(at: IndexPath(item: 0, section: 0)))
        #expect(frame(view, 0) == CGRect(x: 220, y: 0, width: 100, height: 100))
        view.updateInteractiveMovementTargetPosition(CGPoint(x: 150, y: 60))  // over item 1 (110…210 shown)
        #expect(frame(view, 1) == CGRect(x: 100, y: 10, width: 100, height: 100))
        #expect(view.cellForItem(at: IndexPath(item: 0, section: 0)).map { ($0 as! RecordingCell).identifier } == 1)
        view.endInteractiveMovement()
        #expect(data.sections == [[1, 0, 2, 3, 4, 5]])
        #expect(frame(view, 1) == CGRect(x: 110, y: 0, width: 100, height: 100))
    }
}
