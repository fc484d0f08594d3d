import Foundation
import Testing
import TrellisRender

@testable import TrellisGrid

/// A cell edited through the grid (`DataGrid.editCell`) as DataGridView and Excel edit one: the
/// row stays where it is until the next sort, a recomputed summary row follows at once; and a
/// table written back after edits copies every record and field the edits did not touch, byte for
/// byte.
@Suite("Editing cells")
struct CellEditTests {
    static let csv = "名字,分数\n甲,70\n乙,90\n丙,80\n平均,80\n"

    static func grid() throws -> (DataGrid, Table) {
        let table = try CSV.table(Data(csv.utf8))
        let grid = DataGrid(bound: table)
        try grid.pin(.matching(column: "名字", value: "平均"), at: .bottom, recomputing: .mean, precision: 1)
        try grid.sort(by: [SortKey("分数", .descending)])
        return (grid, table)
    }

    static func shown(_ grid: DataGrid) -> [String] {
        grid.displayedRows.map { row in (0..<grid.columns.count).map { grid.text(row, column: $0) }.joined(separator: ",") }
    }

    @Test("an edited row stays where it is, the summary row follows at once, and the next sort places it")
    func rowStaysUntilTheNextSort() throws {
        let (grid, table) = try Self.grid()
        #expect(Self.shown(grid) == ["乙,90", "丙,80", "甲,70", "平均,80.0"])
        // 乙 (source row 1) falls to 10: it stays first, the mean is 53.3.
        try grid.editCell(row: 1, column: 1, text: "10")
        #expect(table.text(row: 1, column: 1) == "10")
        #expect(table.value(row: 1, column: 1) == .integer(10), "read as the column's type")
        #expect(Self.shown(grid) == ["乙,10", "丙,80", "甲,70", "平均,53.3"])
        // The next sort puts it in its place.
        try grid.sort(by: [SortKey("分数", .descending)])
        #expect(Self.shown(grid) == ["丙,80", "甲,70", "乙,10", "平均,53.3"])
        // A change of the source itself (not an edit in the grid) sorts at once, as before.
        try table.setText("95", row: 1, column: 1)
        #expect(Self.shown(grid) == ["乙,95", "丙,80", "甲,70", "平均,81.7"])
    }

    @Test("DataGrid.setType leaves the rows where they are until the next sort; the table's own setType sorts again")
    func typeKeepsRows() throws {
        let table = try CSV.table(Data("名字,分\n甲,10\n乙,9\n丙,100\n丁,9.5\n".utf8))
        let grid = DataGrid(bound: table)
        try grid.sort(by: [SortKey("分", comparator: .text(.lexical))])
        #expect(grid.bodyRows == [1, 3, 0, 2], "9, 9.5, 10, 100 by value")
        try grid.setType(.text, ofColumn: 1)
        #expect(grid.columns[1].type == .text && grid.bodyRows == [1, 3, 0, 2], "the rows stay")
        try grid.sort(by: [SortKey("分", comparator: .text(.lexical))])
        #expect(grid.bodyRows == [0, 2, 1, 3], "10, 100, 9, 9.5 as texts")
        try table.setType(.decimal, ofColumn: 1)
        #expect(grid.bodyRows == [1, 3, 0, 2], "the table's own type change is a change of the source: the grid sorts again")
        let virtual = DataGrid(columns: [Column("a")], rowCount: 1) { _, _ in .integer(1) }
        #expect(throws: TableError.notOwned) { try virtual.setType(.text, ofColumn: 0) }
    }

    @Test("a text column's distinct texts are kept between sorts and through a type change; a change of any cell, an insert or a removal lets them go")
    func distinctTextsFollowChanges() throws {
        let table = try CSV.table(Data("名字,组\n甲,组3\n乙,组1\n丙,组2\n丁,组1\n".utf8))
        let grid = DataGrid(bound: table)
        func names() -> [String] { grid.displayedRows.map { grid.text($0, column: 0) } }
        try grid.sort(by: [SortKey("组")])
        #expect(names() == ["乙", "丁", "丙", "甲"])
        try grid.sort(by: [SortKey("组", .descending)])
        #expect(names() == ["甲", "丙", "乙", "丁"], "the kept texts give the same order")
        try grid.sort(by: [SortKey("名字", comparator: .text(.localized("zh")))])
        let byName = names()
        try table.setText("组0", row: 0, column: 1)
        try grid.sort(by: [SortKey("组")])
        #expect(names() == ["甲", "乙", "丁", "丙"], "the changed cell counts")
        try grid.sort(by: [SortKey("名字", comparator: .text(.localized("zh")))])
        #expect(names() == byName, "another column's texts, kept, are still its own")
        try table.setType(.text, ofColumn: 1)
        try grid.sort(by: [SortKey("组", .descending)])
        #expect(names() == ["丙", "乙", "丁", "甲"], "a type change keeps the column's texts (its bytes), ordered as the new type reads them")
        // A number column read as text and back: its cells as texts, then as numbers again.
        let scores = try CSV.table(Data("名字,分\n甲,10\n乙,9\n丙,100\n".utf8))
        let byScore = DataGrid(bound: scores)
        try byScore.sort(by: [SortKey("分", comparator: .text(.lexical))])
        #expect(byScore.displayedRows.map { byScore.text($0, column: 0) } == ["乙", "甲", "丙"], "numbers by value")
        try scores.setType(.text, ofColumn: 1)
        #expect(byScore.displayedRows.map { byScore.text($0, column: 0) } == ["甲", "丙", "乙"], "texts by their characters: 10 < 100 < 9")
        try scores.setType(.integer, ofColumn: 1)
        #expect(byScore.displayedRows.map { byScore.text($0, column: 0) } == ["乙", "甲", "丙"])
        try table.insertRow(["戊", "组00"], at: 4)
        try grid.sort(by: [SortKey("组")])
        #expect(names().first == "甲" && names()[1] == "戊", "组0 < 组00 naturally, the new row counts")
        try table.removeRow(at: 0)
        try grid.sort(by: [SortKey("组")])
        #expect(names() == ["戊", "乙", "丁", "丙"])
    }

    @Test("without pins too, an edited row stays where it is and no sort runs")
    func noPins() throws {
        let table = try CSV.table(Data(Self.csv.utf8))
        let grid = DataGrid(bound: table)
        try grid.sort(by: [SortKey("分数", .descending)])
        #expect(Self.shown(grid) == ["乙,90", "丙,80", "平均,80", "甲,70"])
        try grid.editCell(row: 1, column: 1, text: "10")
        #expect(Self.shown(grid) == ["乙,10", "丙,80", "平均,80", "甲,70"])
    }

    @Test("an edit that makes a row match a pin pins it; rows appended after an edit are sorted in, not searched into place")
    func pinsAndAppends() throws {
        let (grid, table) = try Self.grid()
        try grid.editCell(row: 0, column: 0, text: "平均")
        // Both 平均 rows pinned, in source order, each recomputed as the mean of the body left (90, 80).
        #expect(Self.shown(grid) == ["乙,90", "丙,80", "平均,85.0", "平均,85.0"])
        #expect(grid.pinnedBottomCount == 2, "the edited row matches the pin")
        #expect(table.text(row: 0, column: 1) == "70", "a recomputed row shows the mean; its own cell stays")
        let (other, otherTable) = try Self.grid()
        try other.editCell(row: 1, column: 1, text: "10")
        try otherTable.appendRow(["丁", "85"])
        #expect(Self.shown(other) == ["丁,85", "丙,80", "甲,70", "乙,10", "平均,61.3"], "a sort: the body held after an edit is not in order")
    }

    @Test("several cells edited at once refresh the grid once, and the rows stay; a bad column sets nothing")
    func editSeveral() throws {
        let (grid, table) = try Self.grid()
        var refreshes = 0
        let observation = grid.observe { refreshes += 1 }
        try grid.editCells([(1, 1, "10"), (2, 1, "5")])
        #expect(refreshes == 1)
        #expect(Self.shown(grid) == ["乙,10", "丙,5", "甲,70", "平均,28.3"])
        #expect(throws: TableError.noSuchColumnPosition(7, columnCount: 2)) { try grid.editCells([(0, 1, "1"), (0, 7, "x")]) }
        #expect(table.text(row: 0, column: 1) == "70", "checked before any cell is set")
        withExtendedLifetime(observation) {}
    }

    @Test("edits through a grid of an editable source and of a virtual source")
    func otherSources() throws {
        var pushed: [(Int, Int, CellValue)] = []
        let virtual = DataGrid(columns: [Column("n", type: .integer)], rowCount: 3) { row, _ in .integer([5, 9, 1][row]) }
        virtual.cellValuePushed = { pushed.append(($0, $1, $2)) }
        try virtual.sort(by: [SortKey("n")])
        try virtual.editCell(row: 1, column: 0, text: "0")
        #expect(pushed.count == 1 && pushed[0].0 == 1 && pushed[0].2 == .integer(0), "the value the text reads as, pushed")
        #expect(throws: TableError.noSuchColumnPosition(4, columnCount: 1)) { try virtual.editCell(row: 0, column: 4, text: "1") }
    }

    @Test("written back after edits, every record and field not edited is the file's bytes, quotes, BOM and line breaks kept")
    func writtenBackByteForByte() throws {
        let bytes = Array("\u{FEFF}名字,\"分数\",备注\r\n\"甲\",\"70\",\"a, b\"\r\n乙,90,  x\r\n丙,80,\"say \"\"hi\"\"\"\r\n".utf8)
        let table = try CSV.table(bytes: bytes)
        let grid = DataGrid(bound: table)
        try grid.sort(by: [SortKey("分数")])
        try grid.editCell(row: 0, column: 1, text: "71")
        try grid.editCell(row: 2, column: 2, text: "new, \"quoted\"")
        let written = GridRenderer.csv(DataGrid(bound: table), neutralizeFormulas: false)
        let expected = "\u{FEFF}名字,\"分数\",备注\r\n\"甲\",71,\"a, b\"\r\n乙,90,  x\r\n丙,80,\"new, \"\"quoted\"\"\"\r\n"
        #expect(written == expected)
        // An edit undone is the file's bytes again but for the quotes the edited field had.
        try grid.editCell(row: 2, column: 2, text: "say \"hi\"")
        #expect(GridRenderer.csv(DataGrid(bound: table), neutralizeFormulas: false).hasSuffix("丙,80,\"say \"\"hi\"\"\"\r\n"))
        // Guarded output: an edited field a spreadsheet would run gets its leading ', the others stay.
        try grid.editCell(row: 1, column: 2, text: "=1+1")
        #expect(GridRenderer.csv(DataGrid(bound: table), neutralizeFormulas: true).contains("乙,90,'=1+1\r\n"))
        // The grid shows the edited cells, not the records' old bytes.
        #expect(grid.text(.source(0), column: 1) == "71")
    }
}
