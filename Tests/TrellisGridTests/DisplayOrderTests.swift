import Foundation
import Testing
import TrellisTestSupport

@testable import TrellisGrid

/// The pure order under the grid, tested without a grid, and the shell's last good order.
@Suite("DisplayOrder and the grid's last error")
struct DisplayOrderTests {
    static let csv = """
        组号,分数
        组1,88
        平均,85
        组2,92
        组3,75
        合计,255

        """

    static func table() throws -> Table { try CSV.table(Data(csv.utf8)) }

    @Test("pins, the sorted body and summaries each have their place, and every lookup agrees with the others")
    func places() throws {
        let table = try Self.table()
        let order = try DisplayOrder(
            source: table,
            pins: [
                .init(.matching(column: "组号", value: "合计"), at: .top),
                .init(.matching(column: "组号", value: "平均"), at: .bottom),
            ],
            sortKeys: [SortKey("分数", .descending)],
            summaries: [
                SummaryRow(.max, columns: ["分数"], edge: .top),
                SummaryRow(label: "均值", .mean, columns: ["分数"]),
            ])
        #expect(order.pinnedTop == [4] && order.body == [2, 0, 3] && order.pinnedBottom == [1])
        #expect(order.topSummaries == [0] && order.bottomSummaries == [1])
        let shown = (0..<order.count).map { order.row(at: $0) }
        #expect(shown == [.source(4), .summary(0), .source(2), .source(0), .source(3), .source(1), .summary(1)])
        #expect(order.row(at: order.count) == nil && order.row(at: -1) == nil)
        for (index, row) in shown.enumerated() {
            switch row! {
            case .source(let source): #expect(order.displayIndex(ofSourceRow: source) == index)
            case .summary(let summary): #expect(order.displayIndex(ofSummary: summary) == index)
            }
        }
        #expect(order.pinnedTopCount == 2 && order.pinnedBottomCount == 2 && order.bodyStart == 2)
        #expect(order.region(of: .source(4)) == .pinnedTop && order.region(of: .source(0)) == .body)
        #expect(order.region(of: .summary(1)) == .pinnedBottom && order.region(of: .summary(0)) == .pinnedTop)
        let columns = table.columns
        #expect(
            order.summaryCell(1, column: 1, columns: columns).text == "85",
            "the mean of 92, 88 and 75 is 85")
        #expect(order.summaryCell(1, column: 0, columns: columns).text == "均值")
        #expect(order.summaryCell(0, column: 0, columns: columns).text == "max", "a summary without a label shows its function")
        #expect(order.recomputedCell(row: 0, column: 1) == nil)
        #expect(order.summaryDisagreements.isEmpty, "合计 is pinned at the top and 平均 at the bottom; 平均 says the body's mean, 85")
    }

    @Test("a body is rows of Int: compared with arrays, printed as one, out-of-range numbers never equal to a row")
    func rowList() {
        let list: RowList = [2, 0, 3]
        #expect(list == [2, 0, 3] && [2, 0, 3] == list && list != [2, 0] && [2, 3, 0] != list)
        #expect(Array(list) == [2, 0, 3] && list.array == [2, 0, 3] && list.count == 3 && list[1] == 0 && list.last == 3)
        #expect("\(list)" == "[2, 0, 3]" && "\(RowList())" == "[]")
        #expect(RowList([-1, Int(Int32.min) - 1, Int(Int32.max) + 1]).array == [-1, Int(Int32.min), Int(Int32.max)])
        #expect(RowList([5, 6]) == RowList([5, 6]) && RowList([5, 6]).hashValue == RowList([5, 6]).hashValue)
    }

    @Test("a summary's least and most value of equal values written otherwise is the first in the source, whichever way the body is sorted")
    func extremesOfEquals() throws {
        let table = try CSV.table(bytes: Array("name,when,n\nb,12/28/2024,5\na,2024-12-28,5.0\nc,1/2/2024,1\n".utf8), types: [:])
        for direction in [SortDirection.ascending, .descending] {
            let plan = SortPlan(
                keys: [SortKey("name", direction)],
                summaries: [SummaryRow(.max, columns: ["when", "n"]), SummaryRow(.min, columns: ["n"])])
            let order = try DisplayOrder(source: table, plan: plan)
            #expect(order.summaryCell(0, column: 1, columns: table.columns).text == "12/28/2024", "\(direction)")
            #expect(order.summaryCell(0, column: 2, columns: table.columns).text == "5", "\(direction)")
            #expect(order.summaryCell(1, column: 2, columns: table.columns).text == "1", "\(direction)")
        }
    }

    @Test("a refused update leaves the order exactly as it was")
    func refusedUpdate() throws {
        let table = try Self.table()
        var order = try DisplayOrder(source: table, sortKeys: [SortKey("分数")])
        let before = (order.body, order.count)
        #expect(throws: SortError.unknownColumn("score", columns: ["组号", "分数"])) {
            try order.update(
                source: table,
                plan: SortPlan(
                    keys: [SortKey("score")], pins: [.init(.row(0), at: .top)],
                    summaries: [SummaryRow(.sum, columns: ["分数"])]))
        }
        #expect(order.body == before.0 && order.count == before.1 && order.pinnedTop.isEmpty && order.summaries.isEmpty)
    }

    @Test("a new pin on a sorted body gives what sorting afresh gives, without sorting", arguments: 0..<20)
    func keptBody(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let rows: [[CellValue]] = (0..<60).map { i in
            [.text("r\(i)"), Int.random(in: 0..<6, using: &rng) == 0 ? .missing : .integer(Int.random(in: 0..<9, using: &rng))]
        }
        let table = try Table(columns: [Column("name"), Column("n", type: .integer)], rows: rows)
        let keys = [SortKey("n", seed % 2 == 0 ? .ascending : .descending)]
        var pins: [DisplayOrder.Pin] = [.init(.row(Int.random(in: 0..<60, using: &rng)), at: .top)]
        var order = try DisplayOrder(source: table, pins: pins, sortKeys: keys)
        pins.append(.init(.row(Int.random(in: 0..<60, using: &rng)), at: .bottom))
        pins.append(.init(.matching(column: "n", value: "3"), at: .bottom))
        try order.update(source: table, plan: SortPlan(keys: keys, pins: pins), change: .pinsAdded)
        let fresh = try DisplayOrder(source: table, pins: pins, sortKeys: keys)
        #expect(order.pinnedTop == fresh.pinnedTop && order.body == fresh.body && order.pinnedBottom == fresh.pinnedBottom)
        for row in 0..<60 { #expect(order.displayIndex(ofSourceRow: row) == fresh.displayIndex(ofSourceRow: row)) }
    }

    @Test("pins removed (and added again) on a sorted body give what sorting afresh gives, without sorting", arguments: 0..<20)
    func pinsRemoved(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let rows: [[CellValue]] = (0..<60).map { i in
            [.text("r\(i % 7)"), Int.random(in: 0..<6, using: &rng) == 0 ? .missing : .integer(Int.random(in: 0..<9, using: &rng))]
        }
        let table = try Table(columns: [Column("name"), Column("n", type: .integer)], rows: rows)
        let keys = [SortKey("n", seed % 2 == 0 ? .ascending : .descending), SortKey("name")]
        var pins: [DisplayOrder.Pin] = [
            .init(.row(Int.random(in: 0..<60, using: &rng)), at: .top), .init(.matching(column: "n", value: "3"), at: .bottom),
            .init(.row(Int.random(in: 0..<60, using: &rng)), at: .bottom),
        ]
        var order = try DisplayOrder(source: table, pins: pins, sortKeys: keys)
        // One pin at a time taken away, then one put back: each the order a fresh sort makes.
        for step in 0..<4 {
            if step < 3 {
                pins.remove(at: Int.random(in: 0..<pins.count, using: &rng))
                try order.update(source: table, plan: SortPlan(keys: keys, pins: pins), change: .pinsRemoved)
            } else {
                pins.append(.init(.matching(column: "name", value: "r2"), at: .top))
                try order.update(source: table, plan: SortPlan(keys: keys, pins: pins), change: .pinsAdded)
            }
            let fresh = try DisplayOrder(source: table, pins: pins, sortKeys: keys)
            #expect(order.pinnedTop == fresh.pinnedTop && order.body == fresh.body && order.pinnedBottom == fresh.pinnedBottom, "step \(step)")
            for row in 0..<60 { #expect(order.displayIndex(ofSourceRow: row) == fresh.displayIndex(ofSourceRow: row)) }
        }
        // After an edit held its row, the body is sorted again rather than taken from a stale order.
        try table.setText("0", row: order.body[order.body.count - 1], column: 1)
        try order.update(source: table, plan: SortPlan(keys: keys, pins: pins), change: .cellsEdited)
        pins.removeAll()
        try order.update(source: table, plan: SortPlan(keys: keys, pins: pins), change: .pinsRemoved)
        let fresh = try DisplayOrder(source: table, pins: pins, sortKeys: keys)
        #expect(order.body == fresh.body)
    }

    @Test("a source reset that takes away the sort's column is kept as the grid's last error, not swallowed")
    func lastError() throws {
        let source = ResettableSource(columns: ["组号", "分数"], rows: [["组2", "9"], ["组1", "7"], ["组3", "8"]])
        let grid = DataGrid(bound: source)
        try grid.sort(by: [SortKey("分数")])
        #expect(grid.bodyRows == [1, 2, 0] && grid.lastError == nil)

        // Same rows, other columns: the last good order still describes them and stays.
        source.replace(columns: ["组号", "score"], rows: [["组2", "9"], ["组1", "7"], ["组3", "8"]])
        #expect(grid.lastError == .unknownColumn("分数", columns: ["组号", "score"]))
        #expect(grid.bodyRows == [1, 2, 0] && grid.sortKeys.map(\.column) == ["分数"])

        // Fewer rows: the old order cannot describe them; the rows show in source order.
        source.replace(columns: ["组号", "score"], rows: [["组2", "9"], ["组1", "7"]])
        #expect(grid.lastError != nil && grid.bodyRows == [0, 1] && grid.displayedRowCount == 2)

        // A pin on rows shown in source order after a failure does not pass them off as sorted.
        try grid.pin(.row(0), at: .top)
        #expect(grid.lastError != nil && grid.bodyRows == [1])

        // A sort that can be made clears the error.
        try grid.sort(by: [SortKey("score")])
        #expect(grid.lastError == nil && grid.pinnedTopCount == 1 && grid.bodyRows == [1])
        try grid.sort(by: [SortKey("score", .descending)])
        grid.removePins()
        #expect(grid.bodyRows == [0, 1], "9 before 7")
    }

    @Test("a refused sort changes neither the order, nor the keys, nor the last error")
    func refusedSort() throws {
        let grid = DataGrid(bound: try Self.table())
        try grid.sort(by: [SortKey("分数")])
        let before = grid.displayedRows
        #expect(throws: SortError.self) { try grid.sort(by: [SortKey("组号", comparator: .text(.localized("qqqq")))]) }
        #expect(grid.displayedRows == before && grid.sortKeys.map(\.column) == ["分数"] && grid.lastError == nil)
    }
}

/// A source whose columns and rows the test replaces, announcing a reset each time.
private final class ResettableSource: ObservableDataSource {
    private(set) var columns: [Column]
    private var rows: [[String]]
    let changes = GridChangeNotifier()

    init(columns: [String], rows: [[String]]) {
        self.columns = columns.map { Column($0) }
        self.rows = rows
    }

    func replace(columns: [String], rows: [[String]]) {
        self.columns = columns.map { Column($0) }
        self.rows = rows
        changes.post(.reset)
    }

    var rowCount: Int { rows.count }

    func value(row: Int, column: Int) -> CellValue {
        guard rows.indices.contains(row), rows[row].indices.contains(column) else { return .missing }
        return Int(rows[row][column]).map { .integer($0) } ?? .text(rows[row][column])
    }
}
