import Foundation
import Testing
import TrellisGrid

/// A bound source that can be told to answer nonsense, one way at a time.
final class MisbehavingSource: GridDataSource, SortingDataSource {
    enum Fault { case none, shortColumn, longColumn, flickeringCount, hugeCount, nonFiniteNumbers, duplicateOrder, droppingOrder }
    var fault: Fault = .none
    private var reads = 0
    let columns = [Column("分数", type: .decimal), Column("名字")]
    let count = 60

    var rowCount: Int {
        reads += 1
        switch fault {
        case .flickeringCount: return reads % 2 == 0 ? count : count / 3
        case .hugeCount: return .max
        default: return count
        }
    }

    func value(row: Int, column: Int) -> CellValue {
        guard row >= 0, row < count else { return .missing }
        if column == 1 { return .text("名\(row % 11)") }
        if fault == .nonFiniteNumbers, row % 4 == 0 { return .decimal([.nan, .infinity, -.infinity][row % 3]) }
        return .decimal(Double((row * 37) % 23))
    }

    func values(ofColumn column: Int, rows: [Int]) -> [CellValue] {
        let values = rows.map { value(row: $0, column: column) }
        switch fault {
        case .shortColumn: return Array(values.dropLast(7))
        case .longColumn: return values + [.text("one more")]
        default: return values
        }
    }

    func sortedRows(_ rows: [Int], by keys: [SortKey]) -> [Int]? {
        switch fault {
        case .duplicateOrder: return rows.map { _ in rows[0] }
        case .droppingOrder: return Array(rows.dropFirst()) + [-5]
        default: return nil
        }
    }
}

@Suite("A data source answering nonsense")
struct SourceMisuseTests {
    private func sourceRows(_ grid: DataGrid) -> [Int] {
        grid.displayedRows.compactMap { if case .source(let row) = $0 { row } else { nil } }
    }

    @Test(
        "one value too few or too many for the rows asked: the sort is refused, naming the column, and the order stays",
        arguments: [MisbehavingSource.Fault.shortColumn, .longColumn])
    func wrongColumnLength(fault: MisbehavingSource.Fault) throws {
        let source = MisbehavingSource()
        let grid = DataGrid(bound: source)
        try grid.sort(by: [SortKey("名字")])
        let before = sourceRows(grid)
        source.fault = fault
        #expect {
            try grid.sort(by: [SortKey("分数", .descending)])
        } throws: { error in
            let message = (error as? SortError)?.description ?? ""
            return message.contains("values(ofColumn:rows:) gave") && message.contains("column \"分数\"")
                && message.hasSuffix("the order is as it was")
        }
        #expect(sourceRows(grid) == before)
        // Fixed, the same sort goes through.
        source.fault = .none
        try grid.sort(by: [SortKey("分数", .descending)])
        #expect(sourceRows(grid).count == source.count && sourceRows(grid) != before)
    }

    @Test("SortEngine, called without a grid, refuses the same answers")
    func engineAlone() throws {
        let source = MisbehavingSource()
        source.fault = .shortColumn
        #expect(throws: SortError.self) {
            _ = try SortEngine.permutation(of: Array(0..<source.count), in: source, by: [SortKey("分数")])
        }
        source.fault = .none
        let order = try SortEngine.permutation(of: Array(0..<source.count), in: source, by: [SortKey("分数")])
        #expect(order.sorted() == Array(0..<source.count), "a good answer after a bad one sorts")
    }

    @Test("a summary over a column answered short is refused the same way")
    func summaryOverShortColumn() throws {
        let source = MisbehavingSource()
        let grid = DataGrid(bound: source)
        source.fault = .shortColumn
        try grid.addSummary(SummaryRow(label: "平均", .mean, columns: ["分数"]))
        #expect(grid.lastError?.description.contains("gave 53 values for 60 rows of column \"分数\"") == true)
        // The summary row is there, with its label and no number made from half a column.
        let summary = try #require(grid.displayedRows.last)
        #expect(summary == .summary(0))
        #expect(grid.text(summary, column: 0) == "")
        #expect(grid.text(summary, column: 1) == "平均")
        source.fault = .none
        grid.reload()
        #expect(grid.lastError == nil)
        #expect(grid.text(summary, column: 0) != "")
    }

    @Test("a row count past what a grid holds is refused at once, not allocated or walked")
    func hugeCount() throws {
        let source = MisbehavingSource()
        source.fault = .hugeCount
        let grid = DataGrid(bound: source)
        #expect(grid.lastError?.description.contains("rowCount is 9223372036854775807") == true)
        #expect(grid.displayedRows.isEmpty)
        #expect(throws: SortError.self) { try grid.sort(by: [SortKey("分数")]) }
    }

    @Test(
        "a source's own order that repeats or drops rows is not taken: the grid sorts, every row once",
        arguments: [MisbehavingSource.Fault.duplicateOrder, .droppingOrder])
    func badOwnOrder(fault: MisbehavingSource.Fault) throws {
        let source = MisbehavingSource()
        source.fault = fault
        let grid = DataGrid(bound: source)
        try grid.sort(by: [SortKey("分数"), SortKey("名字")])
        let rows = sourceRows(grid)
        #expect(rows.sorted() == Array(0..<source.count))
        let scores = rows.map { Double((($0 * 37) % 23)) }
        #expect(scores == scores.sorted())
    }

    @Test("a row count that changes between reads, and NaN or infinite numbers: no trap, every row shown once")
    func flickeringAndNonFinite() throws {
        for fault in [MisbehavingSource.Fault.flickeringCount, .nonFiniteNumbers] {
            let source = MisbehavingSource()
            source.fault = fault
            let grid = DataGrid(bound: source)
            for _ in 0..<4 {
                try? grid.sort(by: [SortKey("分数", .descending)])
                let rows = sourceRows(grid)
                #expect(Set(rows).count == rows.count, "\(fault): a row shown twice")
                #expect(rows.allSatisfy { $0 >= 0 && $0 < source.count }, "\(fault)")
            }
        }
    }
}
