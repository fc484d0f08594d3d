import Foundation
import Testing
@testable import TrellisGrid

/// Filters, unpinning, a find backwards, and the profiles a viewer's frequency and describe views
/// show — in every binding mode (column storage read in place, and a source read cell by cell).
@Suite("Filters and profiles")
struct FilterAndProfileTests {
    @Test("a filter keeps the rows with a value, the 平均 row stays pinned, summaries follow what is shown, and it goes again",
          arguments: GridFixture.modes)
    func filter(_ mode: DataGrid.Mode) throws {
        let grid = GridFixture.userTable(mode)
        try grid.pin(.matching(column: "组号", value: "平均"), at: .bottom)
        try grid.addSummary(SummaryRow(label: "和", .sum, columns: ["分数"]))
        try grid.sort(by: [SortKey("分数", .descending)])
        try grid.setFilter(.equal(column: "分数", text: "92"))
        #expect(GridFixture.column(grid, 0) == ["组2", "组4", "组11", "平均", "和"], "the 92s, in sorted order, then the pins")
        #expect(grid.text(.summary(0), column: 1) == "276", "the sum of the rows shown")
        #expect(grid.summaryDisagreements.isEmpty, "a filtered body is not checked against the file's 平均")
        #expect(grid.displayIndex(ofSourceRow: 0) == nil, "组1 (88.5) is not shown")
        // A sort keeps the filter.
        try grid.sort(by: [SortKey("组号", .descending)])
        #expect(GridFixture.column(grid, 0) == ["组11", "组4", "组2", "平均", "和"])
        // Contains, and two filters at once.
        try grid.setFilter(.all([.contains(column: "组号", text: "1"), .contains(column: "分数", text: ".5")]))
        #expect(GridFixture.column(grid, 0) == ["组1", "平均", "和"])
        // An unknown column is refused and the filter stays.
        #expect(throws: SortError.self) { try grid.setFilter(.equal(column: "分", text: "92")) }
        #expect(GridFixture.column(grid, 0) == ["组1", "平均", "和"])
        try grid.setFilter(nil)
        #expect(grid.displayedRowCount == 14)
        #expect(GridFixture.column(grid, 0).prefix(3) == ["组12", "组11", "组10"])
    }

    @Test("a filtered table follows its edits: a new row with the value shows, one without does not")
    func filterFollowsEdits() throws {
        let table = try Table(columns: [Column("组号"), Column("分数", type: .decimal)],
                              rows: [[.text("组1"), .decimal(92)], [.text("组2"), .decimal(60)]])
        let grid = DataGrid(bound: table)
        try grid.setFilter(.equal(column: "分数", text: "92"))
        try table.appendRow(["组3", "92"])
        try table.appendRow(["组4", "61"])
        #expect(grid.displayedRows.map { grid.text($0, column: 0) } == ["组1", "组3"])
    }

    @Test("unpinning a row puts it back in its sorted place; a pin by value goes whole", arguments: GridFixture.modes)
    func unpin(_ mode: DataGrid.Mode) throws {
        let grid = GridFixture.userTable(mode)
        try grid.sort(by: [SortKey("分数", .descending)])
        try grid.pin(.matching(column: "组号", value: "平均"), at: .bottom)
        try grid.pin(.row(0), at: .top)
        #expect(GridFixture.column(grid, 0).first == "组1")
        #expect(grid.unpin(sourceRow: 0) == .row(0))
        #expect(GridFixture.column(grid, 0).prefix(5) == ["组7", "组2", "组4", "组11", "组1"])
        #expect(grid.unpin(sourceRow: 0) == nil, "no longer pinned")
        #expect(grid.unpin(sourceRow: 12) == .matching(column: "组号", value: "平均"))
        #expect(grid.pinnedBottomCount == 0)
        #expect(GridFixture.column(grid, 0).firstIndex(of: "平均") == 6, "平均 (81.375) sorted among the scores")
        #expect(grid.unpin(sourceRow: 99) == nil && grid.unpin(sourceRow: -1) == nil)
    }

    @Test("a find backwards goes up from a row and round the top to the bottom", arguments: GridFixture.modes)
    func findBackwards(_ mode: DataGrid.Mode) {
        let grid = GridFixture.userTable(mode)
        // 组1, 组10, 组11, 组12 at 0, 9, 10, 11.
        #expect(grid.displayIndex(ofRowContaining: "组1", column: 0, before: 10) == 9)
        #expect(grid.displayIndex(ofRowContaining: "组1", column: 0, before: 9) == 0)
        #expect(grid.displayIndex(ofRowContaining: "组1", column: 0, before: 0) == 11, "round the top")
        #expect(grid.displayIndex(ofRowContaining: "组1", column: 0, before: 13) == 11, "from past the end")
        #expect(grid.displayIndex(ofRowContaining: "组13", column: 0, before: 5) == nil)
        #expect(grid.displayIndex(ofRowContaining: "组1", column: 0, after: 11) == 0, "forwards, round the bottom")
    }

    @Test("a column's frequencies count the body (not the pinned 平均 row), blanks as \"\", in order of first appearance",
          arguments: GridFixture.modes)
    func frequencies(_ mode: DataGrid.Mode) throws {
        let grid = GridFixture.grid(mode, columns: [Column("组号"), Column("分数", type: .decimal)], rows: [
            [.text("组1"), .decimal(92)], [.text("组2"), .missing], [.text("组1"), .decimal(92)],
            [.text("组3"), .text("缺考")], [.text("组2"), .decimal(60.5)], [.text("平均"), .decimal(81.5)],
        ])
        try grid.pin(.matching(column: "组号", value: "平均"), at: .bottom)
        #expect(grid.frequencies(ofColumn: 0) == [ValueFrequency(text: "组1", count: 2), ValueFrequency(text: "组2", count: 2),
                                                  ValueFrequency(text: "组3", count: 1)])
        #expect(grid.frequencies(ofColumn: 1).map(\.count) == [2, 1, 1, 1])
        #expect(grid.frequencies(ofColumn: 1).map(\.text).contains(""), "the blank is a value of its own")
        #expect(grid.frequencies(ofColumn: 7).isEmpty)
        // A filter narrows the count.
        try grid.setFilter(.equal(column: "组号", text: "组2"))
        #expect(grid.frequencies(ofColumn: 0) == [ValueFrequency(text: "组2", count: 2)])
    }

    @Test("describe: count, blanks, distinct, min and max as written, mean and median of a number column", arguments: GridFixture.modes)
    func describe(_ mode: DataGrid.Mode) throws {
        let grid = GridFixture.grid(mode, columns: [Column("组号"), Column("分数", type: .decimal), Column("备注")], rows: [
            [.text("组10"), .decimal(92), .text("")], [.text("组2"), .missing, .text("b")], [.text("组1"), .decimal(92), .missing],
            [.text("组3"), .text("缺考"), .text("a")], [.text("组2"), .decimal(60.5), .text("b")], [.text("平均"), .decimal(81.5), .text("")],
        ])
        try grid.pin(.matching(column: "组号", value: "平均"), at: .bottom)
        let profiles = grid.describe()
        #expect(profiles.map(\.column) == ["组号", "分数", "备注"])
        let group = profiles[0], score = profiles[1], note = profiles[2]
        #expect(group.count == 5 && group.blanks == 0 && group.distinct == 4)
        #expect(group.minimum == "组1" && group.maximum == "组10", "natural order: 组2 before 组10")
        #expect(group.mean == nil && group.median == nil)
        #expect(score.count == 5 && score.blanks == 1 && score.distinct == 3, "92, 缺考, 60.5")
        #expect(score.minimum == "60.5" && score.maximum == "92")
        #expect(score.mean == "81.500", "(92 + 92 + 60.5) / 3, two decimals more than the column's one")
        #expect(score.median == "92", "the middle of three, as written")
        #expect(note.blanks == 2 && note.distinct == 2 && note.minimum == "a" && note.maximum == "b")
        // An even count: the median is the mean of the two middle numbers.
        try grid.setFilter(.contains(column: "组号", text: "组1"))
        let two = grid.describe()[1]
        #expect(two.count == 2 && two.median == "92.0" && two.mean == "92.00", "组1 and 组10: 92 twice, no decimals written")
        try grid.setFilter(.equal(column: "组号", text: "组3"))
        let none = grid.describe()[1]
        #expect(none.mean == nil && none.median == nil && none.minimum == "缺考", "no numbers: the text is its min and max")
    }
}
