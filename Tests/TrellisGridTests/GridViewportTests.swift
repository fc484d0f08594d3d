import Foundation
import Testing
import TrellisTestSupport

@testable import TrellisGrid

/// The one viewport every view of a grid reads, tested once.
@Suite("GridViewport")
struct GridViewportTests {
    @Test("pinned rows are always on screen and the body's window scrolls between them")
    func rows() {
        var viewport = GridViewport(bodyCapacity: 3)
        viewport.setRows(pinnedTop: 2, body: 10, pinnedBottom: 1)
        #expect(viewport.visibleRows == [0, 1, 2, 3, 4, 12])
        #expect(viewport.bodyWindow == 2..<5 && viewport.rowCount == 13 && viewport.bodyEnd == 12)
        viewport.reveal(row: 9)
        #expect(viewport.firstBodyRow == 5 && viewport.visibleRows == [0, 1, 7, 8, 9, 12], "scrolled just enough")
        viewport.reveal(row: 0)
        #expect(viewport.firstBodyRow == 5, "a pinned row needs no scrolling")
        viewport.reveal(row: 3)
        #expect(viewport.firstBodyRow == 1)
        viewport.scrollBody(by: 100)
        #expect(viewport.firstBodyRow == 7, "never past the last full window")
        viewport.scrollBody(by: Int.min)
        #expect(viewport.firstBodyRow == 0)
        viewport.scrollBody(to: 7)
        viewport.setRows(pinnedTop: 2, body: 4, pinnedBottom: 1)
        #expect(viewport.firstBodyRow == 1, "fewer rows pull the window back")
        viewport.setBodyCapacity(10)
        #expect(viewport.firstBodyRow == 0 && viewport.bodyWindow == 2..<6)
        #expect(viewport.region(ofRow: 1) == .pinnedTop && viewport.region(ofRow: 2) == .body && viewport.region(ofRow: 6) == .pinnedBottom)
    }

    @Test("frozen columns stay, the others scroll, and a point finds its column")
    func columns() {
        var viewport = GridViewport(frozenColumns: 1, width: 30)
        viewport.setColumnWidths([5, 10, 10, 10, 10])
        viewport.scroll(toColumn: 0)
        #expect(viewport.firstScrolledColumn == 1, "the first scrolled column comes after the frozen ones")
        #expect(viewport.visibleColumns == [0, 1, 2, 3], "column 3 starts at 25, within 30; column 4 at 35 does not")
        #expect(viewport.column(atX: 4) == 0 && viewport.column(atX: 5) == 1 && viewport.column(atX: 29) == 3)
        #expect(viewport.column(atX: 36) == nil && viewport.column(atX: -1) == nil)
        viewport.reveal(column: 4)
        #expect(viewport.firstScrolledColumn == 3 && viewport.visibleColumns == [0, 3, 4], "4 ends at 25 once 3 is first")
        #expect(viewport.x(ofColumn: 0) == 0 && viewport.x(ofColumn: 3) == 5 && viewport.x(ofColumn: 2) == nil)
        viewport.reveal(column: 2)
        #expect(viewport.firstScrolledColumn == 2)
        viewport.reveal(column: 0)
        #expect(viewport.firstScrolledColumn == 2, "a frozen column is always on screen")
        viewport.setColumnWidths([5, 10])
        #expect(viewport.firstScrolledColumn == 1, "fewer columns pull the scroll back")
        viewport.setColumnWidths([.nan, -3, .infinity])
        #expect(viewport.columnEdges == [0, 0, 0, 0], "widths that are not sizes are nothing")
    }

    @Test("a viewport showing a whole order puts its pinned rows around the whole body")
    func wholeOrder() throws {
        let table = try CSV.table(Data("组号,分数\n组1,88\n平均,85\n组2,92\n".utf8))
        let order = try DisplayOrder(
            source: table, pins: [.init(.matching(column: "组号", value: "平均"), at: .bottom)],
            summaries: [SummaryRow(.max, columns: ["分数"], edge: .top)])
        let viewport = GridViewport(showingAllOf: order)
        #expect(viewport.pinnedTopCount == 1 && viewport.bodyWindow == 1..<3 && viewport.pinnedBottomCount == 1)
        #expect(viewport.visibleRows == Array(0..<order.count))
    }

    @Test("after any sequence of changes the scroll is in range", arguments: 0..<40)
    func scrollStaysInRange(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        var viewport = GridViewport(
            frozenColumns: Int.random(in: -1...3, using: &rng), bodyCapacity: Int.random(in: -2...8, using: &rng),
            width: Double(Int.random(in: 0...60, using: &rng)))
        for _ in 0..<60 {
            switch Int.random(in: 0..<7, using: &rng) {
            case 0:
                viewport.setRows(
                    pinnedTop: Int.random(in: -1...3, using: &rng), body: Int.random(in: -1...30, using: &rng),
                    pinnedBottom: Int.random(in: 0...2, using: &rng))
            case 1: viewport.setBodyCapacity(Int.random(in: -1...12, using: &rng))
            case 2: viewport.reveal(row: Int.random(in: -2...40, using: &rng))
            case 3: viewport.scrollBody(by: Int.random(in: -20...20, using: &rng))
            case 4: viewport.setColumnWidths((0..<Int.random(in: 0...6, using: &rng)).map { _ in Double(Int.random(in: 0...20, using: &rng)) })
            case 5: viewport.reveal(column: Int.random(in: -1...7, using: &rng))
            default: viewport.scroll(toColumn: Int.random(in: -3...9, using: &rng))
            }
            #expect(viewport.firstBodyRow >= 0 && viewport.firstBodyRow <= max(0, viewport.bodyCount - 1))
            #expect(
                viewport.visibleRows.count == viewport.pinnedTopCount + viewport.pinnedBottomCount
                    + min(viewport.bodyCapacity, viewport.bodyCount))
            #expect(viewport.visibleRows == viewport.visibleRows.sorted() && Set(viewport.visibleRows).count == viewport.visibleRows.count)
            #expect(viewport.visibleRows.allSatisfy { $0 >= 0 && $0 < viewport.rowCount })
            let columns = viewport.visibleColumns
            #expect(columns.allSatisfy { $0 >= 0 && $0 < viewport.columnCount } && columns == columns.sorted())
            #expect(Array(columns.prefix(min(viewport.frozenColumns, viewport.columnCount))) == Array(0..<min(viewport.frozenColumns, viewport.columnCount)))
        }
    }
}
