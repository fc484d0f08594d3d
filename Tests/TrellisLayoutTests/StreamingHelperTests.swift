import Testing

@_spi(Instrumentation) @testable import TrellisCollectionView

/// A layout of its own written on the shared query helpers, as a fifth layout would be: a column
/// of `count` rows of 10 points.
class RowsLayout: CollectionViewLayout {
    var count = 100
    private let recycler = AttributesRecycler()
    private let streamRecycler = AttributesRecycler()

    func rows(in rect: CGRect, _ emit: (LayoutElement) -> Void) {
        let first = max(0, Int((rect.minY / 10).rounded(.down))), last = min(count, Int((rect.maxY / 10).rounded(.up)))
        guard first < last else { return }
        for row in first..<last {
            emit(
                LayoutElement(
                    .cell, section: 0, item: row, frame: CGRect(x: 0, y: CGFloat(row) * 10, width: 100, height: 10),
                    zIndex: row == 0 ? 3 : 0))
        }
    }

    override var collectionViewContentSize: CGSize { CGSize(width: 100, height: CGFloat(count) * 10) }

    override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
        layoutAttributes(recycling: recycler) { rows(in: rect, $0) }
    }

    override func forEachLayoutAttributes(in rect: CGRect, _ body: (CollectionViewLayoutAttributes) -> Void) {
        streamLayoutAttributes(in: rect, walkOf: RowsLayout.self, reusing: streamRecycler, to: body) { rows(in: rect, $0) }
    }
}

/// Attributes of a class of the app's own.
final class TaggedAttributes: CollectionViewLayoutAttributes {
    var tag = 0
}

final class TaggedRowsLayout: RowsLayout {
    override class var layoutAttributesClass: AnyClass { TaggedAttributes.self }

    /// A subclass that changes what a rect query answers: streaming must answer the same.
    override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
        (super.layoutAttributesForElements(in: rect) ?? []).filter { $0.indexPath.item % 2 == 0 }
    }
}

@Suite("The shared rect-query helpers")
struct StreamingHelperTests {
    @Test("the array and the stream list the same elements, zIndex included, for the base class")
    func baseClass() {
        let layout = RowsLayout()
        let rect = CGRect(x: 0, y: 0, width: 100, height: 45)
        let array = (layout.layoutAttributesForElements(in: rect) ?? []).map { "\($0.indexPath) \($0.frame) \($0.zIndex)" }
        var streamed: [String] = []
        layout.forEachLayoutAttributes(in: rect) { streamed.append("\($0.indexPath) \($0.frame) \($0.zIndex)") }
        #expect(array.count == 5 && array == streamed)
        #expect(array.first?.hasSuffix(" 3") == true && array.last?.hasSuffix(" 0") == true)
    }

    @Test("objects a caller keeps are never reset by the next query")
    func keptObjectsStay() {
        let layout = RowsLayout()
        let kept = layout.layoutAttributesForElements(in: CGRect(x: 0, y: 0, width: 100, height: 20)) ?? []
        _ = layout.layoutAttributesForElements(in: CGRect(x: 0, y: 500, width: 100, height: 20))
        #expect(kept.map(\.indexPath.item) == [0, 1] && kept[1].frame.minY == 10)
        var streamedKept: [CollectionViewLayoutAttributes] = []
        layout.forEachLayoutAttributes(in: CGRect(x: 0, y: 0, width: 100, height: 30)) { streamedKept.append($0) }
        #expect(streamedKept.map(\.indexPath.item) == [0, 1, 2], "a streamed object the caller holds is not reused")
    }

    @Test("a subclass gets objects of its attributes class, and its own query is what is streamed")
    func subclass() {
        let layout = TaggedRowsLayout()
        let rect = CGRect(x: 0, y: 0, width: 100, height: 60)
        let array = layout.layoutAttributesForElements(in: rect) ?? []
        #expect(array.allSatisfy { $0 is TaggedAttributes } && array.map(\.indexPath.item) == [0, 2, 4])
        #expect(array.first?.zIndex == 3)
        var streamed: [Int] = []
        layout.forEachLayoutAttributes(in: rect) { streamed.append($0.indexPath.item) }
        #expect(streamed == [0, 2, 4])
    }

    @Test("the scroll axis reads a rect along and across either direction")
    func axis() {
        let rect = CGRect(x: 10, y: 20, width: 30, height: 40)
        let vertical = ScrollAxis(.vertical), horizontal = ScrollAxis(.horizontal)
        #expect(vertical.minimum(rect) == 20 && vertical.maximum(rect) == 60 && vertical.length(rect) == 40)
        #expect(horizontal.minimum(rect) == 10 && horizontal.maximum(rect) == 40 && horizontal.length(rect) == 30)
        #expect(vertical.crossMinimum(rect) == 10 && horizontal.crossMaximum(rect) == 60)
        let insets = EdgeInsets(top: 1, left: 2, bottom: 3, right: 4)
        #expect(vertical.leading(insets) == 1 && vertical.trailing(insets) == 3 && vertical.crossInsets(insets) == 6)
        #expect(horizontal.leading(insets) == 2 && horizontal.trailing(insets) == 4 && horizontal.crossInsets(insets) == 4)
        #expect(horizontal.rect(u: 5, v: 0, length: 50, breadth: 100) == CGRect(x: 5, y: 0, width: 50, height: 100))
        #expect(vertical.point(u: 7, v: 1) == CGPoint(x: 1, y: 7))
    }
}
