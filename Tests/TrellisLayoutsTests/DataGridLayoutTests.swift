import Testing
@_spi(Instrumentation) import TrellisCollectionView
@_spi(Instrumentation) import TrellisLayouts
import TrellisTestSupport

@_spi(Instrumentation) @testable import TrellisGrid

@Suite("Data grid layout")
struct DataGridLayoutTests {
    func makeGrid(rows: Int = 200) throws -> DataGrid {
        var values: [[CellValue]] = (0..<rows).map { r in
            [.text("组\(r + 1)"), .decimal(Double((r * 37) % 100)), .text("note \(r)"), .integer(r), .text("x"), .boolean(r % 2 == 0)]
        }
        values.append([.text("平均"), .decimal(49.5), .missing, .missing, .missing, .missing])
        let columns = [
            Column("组号"), Column("分数", type: .decimal), Column("备注"), Column("n", type: .integer),
            Column("x"), Column("ok", type: .boolean),
        ]
        let grid = DataGrid(bound: try Table(columns: columns, rows: values))
        try grid.pin(.matching(column: "组号", value: "平均"), at: .bottom)
        try grid.pin(.row(0), at: .top)
        try grid.sort(by: [SortKey("分数", .descending)])
        return grid
    }

    func host(_ layout: DataGridLayout) -> StaticLayoutHost {
        StaticLayoutHost(layout: layout, itemCounts: [layout.itemCount], bounds: CGRect(x: 0, y: 0, width: 375, height: 400))
    }

    @Test("a negative number of frozen columns is none")
    func negativeFrozenColumns() throws {
        let layout = DataGridLayout(grid: try makeGrid(rows: 3))
        layout.frozenColumns = -1
        #expect(layout.frozenColumns == 0)
    }

    @Test("rect queries equal a brute-force filter of every element, wherever the viewport is")
    func queriesMatchBruteForce() throws {
        let layout = DataGridLayout(grid: try makeGrid())
        layout.frozenColumns = 1
        layout.columnWidths = [.fixed(60), .fixed(80), .fitContent(maximum: 120), .fixed(100), .fixed(90), .fixed(70)]
        let host = host(layout)
        var rng = SeededRandom(seed: 21)
        func key(_ a: CollectionViewLayoutAttributes) -> String { "\(a.representedElementKind ?? "cell")\(a.item)" }
        for _ in 0..<60 {
            let size = host.contentSize
            let origin = CGPoint(
                x: CGFloat(Int.random(in: -20...Int(max(1, size.width - 300)), using: &rng)),
                y: CGFloat(Int.random(in: -20...Int(size.height), using: &rng)))
            host.setBounds(CGRect(origin: origin, size: CGSize(width: 375, height: 400)))
            host.layoutIfNeeded()
            for rect in [
                host.bounds, host.bounds.insetBy(dx: 50, dy: 80),
                CGRect(x: origin.x + 10, y: origin.y - 200, width: 300, height: 900),
            ] {
                let expected = layout.allElements().filter { LayoutGeometry.intersects($0.frame, rect) }.sorted { key($0) < key($1) }
                let actual = (host.layoutAttributesForElements(in: rect) ?? []).sorted { key($0) < key($1) }
                #expect(actual == expected, "bounds \(host.bounds) rect \(rect)")
            }
        }
    }

    @Test("the header sticks to the top, frozen columns to the left, and the average row to the bottom")
    func pinning() throws {
        let grid = try makeGrid()
        let layout = DataGridLayout(grid: grid)
        layout.frozenColumns = 1
        layout.columnWidths = Array(repeating: .fixed(100), count: 6)
        let host = host(layout)
        host.setBounds(CGRect(x: 150, y: 2000, width: 375, height: 400))
        host.layoutIfNeeded()
        let visible = host.layoutAttributesForElements(in: host.bounds) ?? []
        let headers = visible.filter { $0.representedElementKind == DataGridLayout.columnHeaderKind }
        #expect(headers.allSatisfy { $0.frame.minY == 2000 && $0.zIndex >= 4 })
        #expect(headers.first { $0.item == 0 }?.frame.minX == 150, "the frozen column's header stays at the left")
        let columns = grid.columns.count
        let averageRow = grid.displayedRows.count - 1
        let average = visible.filter { $0.representedElementCategory == .cell && $0.item / columns == averageRow }
        #expect(
            !average.isEmpty && average.allSatisfy { $0.frame.maxY == 2400 && $0.zIndex >= 2 },
            "the average row sits at the bottom of the viewport")
        let pinnedTop = visible.filter { $0.representedElementCategory == .cell && $0.item / columns == 0 }
        #expect(pinnedTop.allSatisfy { $0.frame.minY == 2000 + 36 }, "the pinned top row sits under the header")
        let frozen = visible.filter { $0.representedElementCategory == .cell && $0.item % columns == 0 }
        #expect(frozen.allSatisfy { $0.frame.minX == 150 && $0.zIndex % 2 == 1 })
        // Scrolled to the end, the average row is in its own place.
        host.setBounds(CGRect(x: 0, y: host.contentSize.height - 400, width: 375, height: 400))
        host.layoutIfNeeded()
        let end = layout.layoutAttributesForItem(at: IndexPath(item: averageRow * columns, section: 0))!
        #expect(end.frame.maxY == host.contentSize.height)
    }

    @Test("scrolling keeps the measured metrics; an invalidation after a re-sort reads the new order")
    func scrollingKeepsMetrics() throws {
        let grid = try makeGrid()
        let layout = DataGridLayout(grid: grid)
        // The 备注 column fits the pinned top row and the first body row: "note 27" leads by 分数.
        layout.columnWidths = [.fixed(60), .fixed(60), .fitContent(maximum: 500, sample: 2)]
        let host = host(layout)
        host.layoutIfNeeded()
        #expect(layout.metricsComputationCount == 1)
        #expect(layout.columnEdges[3] - layout.columnEdges[2] == CGFloat(7 * 8 + 16))
        let columns = grid.columns.count
        for y in stride(from: 0, through: 3000, by: 250) {
            host.setBounds(CGRect(x: 0, y: CGFloat(y), width: 375, height: 400))
            host.layoutIfNeeded()
            let average = layout.layoutAttributesForItem(at: IndexPath(item: (grid.displayedRows.count - 1) * columns, section: 0))
            #expect(average?.frame.maxY == min(CGFloat(y) + 400, host.contentSize.height), "pinned rows still follow the bounds")
        }
        #expect(layout.metricsComputationCount == 1, "no scroll re-read the rows or re-measured the columns")

        try grid.sort(by: [SortKey("n", .descending)])
        layout.invalidateLayout()
        host.setBounds(CGRect(x: 0, y: 0, width: 375, height: 400))
        host.layoutIfNeeded()
        #expect(layout.metricsComputationCount == 2, "a scroll merged after an invalidation does not cancel it")
        #expect(layout.columnEdges[3] - layout.columnEdges[2] == CGFloat(8 * 8 + 16), "measured on \"note 199\", now first")
    }

    @Test("columns fit their content up to a maximum, measuring wide characters as two")
    func columnWidths() throws {
        let layout = DataGridLayout(grid: try makeGrid(rows: 20))
        layout.columnWidths = [.fitContent(maximum: 500), .fitContent(maximum: 30)]
        let host = host(layout)
        host.layoutIfNeeded()
        // "组号" + glyph room: 4 + 2 = 6 columns; values like "组20" take 4.
        #expect(layout.columnEdges[1] == CGFloat(6 * 8 + 16))
        #expect(layout.columnEdges[2] - layout.columnEdges[1] == CGFloat(30))
    }

    @Test("a rect query on a million rows touches only what it returns")
    func millionRows() throws {
        let grid = DataGrid(columns: [Column("a", type: .integer), Column("b")], rowCount: 1_000_000) { row, column in
            column == 0 ? .integer(row) : .text("r\(row)")
        }
        let layout = DataGridLayout(grid: grid)
        layout.columnWidths = [.fixed(100), .fixed(100)]
        let host = StaticLayoutHost(
            layout: layout, itemCounts: [layout.itemCount],
            bounds: CGRect(x: 0, y: 16_000_000, width: 200, height: 320))
        let elements = host.layoutAttributesForElements(in: host.bounds) ?? []
        #expect(elements.count == 2 * 11 + 2, "ten rows (one cut), two columns, two headers")
    }
}
