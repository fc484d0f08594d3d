import Testing

@_spi(Instrumentation) @testable import TrellisCollectionView

/// The visible set's update, with strings for views.
@Suite("The visible set")
struct VisibleSetTests {
    static func cell(_ item: Int, y: CGFloat) -> CollectionViewLayoutAttributes {
        let attributes = CollectionViewLayoutAttributes(forCellWith: IndexPath(item: item, section: 0))
        attributes.frame = CGRect(x: 0, y: y, width: 100, height: 50)
        return attributes
    }

    @Test("elements that stay keep their views, new ones get views, and views of elements gone are removed")
    func keepAppearDisappear() {
        var set = VisibleSet<String>()
        var appeared: [Int] = [], kept: [Int] = [], removed: [Int] = []
        func update(_ elements: [CollectionViewLayoutAttributes], visible: CGRect) {
            set.update(
                to: elements, visible: visible,
                show: { attributes, id, existing in
                    if let existing { kept.append(id.item); return existing }
                    appeared.append(id.item)
                    return id.item == 9 ? nil : "view \(id.item)"
                }, remove: { id, _ in removed.append(id.item) })
        }
        let viewport = CGRect(x: 0, y: 0, width: 100, height: 120)
        update([Self.cell(0, y: 0), Self.cell(1, y: 50), Self.cell(2, y: 100), Self.cell(3, y: 150)], visible: viewport)
        #expect(appeared == [0, 1, 2] && kept.isEmpty && removed.isEmpty, "item 3 lies below the viewport")
        #expect(set.elements(.cell).map(\.view) == ["view 0", "view 1", "view 2"])

        appeared = []
        update([Self.cell(1, y: 50), Self.cell(2, y: 100), Self.cell(9, y: 60), Self.cell(4, y: 0)], visible: viewport)
        #expect(kept == [1, 2] && appeared == [9, 4] && removed == [0])
        #expect(set.views.keys.map(\.item).sorted() == [1, 2, 4], "an element given no view is not on screen")
        #expect(set.views[ElementID(category: .cell, kind: nil, section: 0, item: 1)] == "view 1", "a kept view is the same")

        removed = []
        update([], visible: viewport)
        #expect(removed.sorted() == [1, 2, 4] && set.views.isEmpty)
    }

    @Test("a prepared query covers a viewport inside its rect until the layout changes")
    func preparedQuery() {
        let query = PreparedQuery(rect: CGRect(x: 0, y: 0, width: 100, height: 1000), elements: [], generation: 3)
        #expect(query.covers(CGRect(x: 0, y: 100, width: 100, height: 500), generation: 3))
        #expect(!query.covers(CGRect(x: 0, y: 600, width: 100, height: 500), generation: 3))
        #expect(!query.covers(CGRect(x: 0, y: 100, width: 100, height: 500), generation: 4))
        #expect(!PreparedQuery().covers(.zero, generation: -1))
    }
}
