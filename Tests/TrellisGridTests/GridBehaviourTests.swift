import Foundation
import Testing
import TrellisTestSupport
import TrellisText

@testable import TrellisGrid

/// The 平均 row done properly, and DataGridView's features in every mode.
@Suite("Summaries, pins and DataGridView parity")
struct GridBehaviourTests {
    static let groups = """
        组号,组长,分数,备注
        组1,张伟,88.5,
        组2,王芳,92,
        组3,李娜,75.25,
        组4,刘洋,92,
        平均,,81.375,
        """

    static func grid(_ csv: String = groups) throws -> DataGrid {
        DataGrid(bound: try CSV.table(Data((csv + "\n").utf8)))
    }

    static func column(_ grid: DataGrid, _ c: Int) -> [String] {
        grid.displayedRows.map { grid.text($0, column: c) }
    }

    @Test("a summary row has a label, follows the column's decimals or a precision, and min and max keep the text")
    func labelledSummaries() throws {
        let grid = try Self.grid()
        try grid.pin(.matching(column: "组号", value: "平均"), at: .top)
        try grid.addSummary(SummaryRow(label: "平均", .mean, columns: ["分数"]))
        try grid.addSummary(SummaryRow(.sum, columns: ["分数"], precision: 3))
        try grid.addSummary(SummaryRow(label: "最高", .max, columns: ["分数", "组号"]))
        try grid.addSummary(SummaryRow(.min, columns: ["分数"]))
        let rows = grid.displayedRows
        #expect(
            grid.text(rows[5], column: 0) == "平均" && grid.text(rows[5], column: 2) == "86.94",
            "mean 86.9375, written with the column's two decimals (75.25), half away from zero")
        #expect(grid.value(rows[5], column: 2) == .decimal(86.9375), "the value is exact")
        #expect(grid.text(rows[6], column: 0) == "sum" && grid.text(rows[6], column: 2) == "347.750")
        #expect(grid.text(rows[7], column: 1) == "最高" && grid.text(rows[7], column: 2) == "92" && grid.text(rows[7], column: 0) == "组4")
        #expect(grid.text(rows[8], column: 2) == "75.25")
        #expect(DecimalFormat.format(2.5, decimals: 0) == "3" && DecimalFormat.format(-2.5, decimals: 0) == "-3")
        #expect(DecimalFormat.format(1.005, decimals: 2) == "1.00", "1.005 is 1.00499… as a double")
        #expect(DecimalFormat.format(-0.001, decimals: 2) == "0.00" && DecimalFormat.format(999.995, decimals: 2) == "1000.00")
    }

    /// The quick comparison a summary cell's check makes agrees with writing both numbers, at
    /// halves, at their neighbours, at −0 and at sizes where the scaled doubles lose the fraction.
    @Test("two numbers are the same when written exactly when their texts are")
    func sameWhenWritten() {
        var random = SplitMix64(state: 7)
        func check(_ a: Double, _ b: Double, _ d: Int) {
            let expected = DecimalFormat.format(a, decimals: d) == DecimalFormat.format(b, decimals: d)
            #expect(DecimalFormat.sameWhenWritten(a, b, decimals: d) == expected, "\(a) \(b) \(d)")
        }
        for _ in 0..<3000 {
            let d = Int(random.next() % 7)
            let unit = pow(10, -Double(d))
            // A value at a half of the last decimal, a neighbour of it, or anywhere.
            let whole = Double(Int64(bitPattern: random.next()) % 10_000_000) * unit
            let half = whole + unit / 2
            let a: Double
            switch random.next() % 4 {
            case 0: a = half
            case 1: a = half.nextUp
            case 2: a = half.nextDown
            default: a = Double(bitPattern: random.next() % 0x7FF0_0000_0000_0000) * (random.next() % 2 == 0 ? 1 : -1)
            }
            let b = random.next() % 3 == 0 ? a : (random.next() % 2 == 0 ? whole : a + unit * Double(Int(random.next() % 3) - 1))
            check(a, b, d)
            check(-a, -b, d)
        }
        check(0, -0.0, 2)
        check(-0.004, 0.004, 2)
        check(1.005, 1.0, 2)
        check(2.5, 3, 0)
        check(0x1p52 + 1, 0x1p52, 0)
        check(.infinity, .infinity, 1)
        check(.nan, 1, 1)
    }

    /// A source that counts the cells read.
    final class Counting: GridDataSource {
        let columns = [Column("v", type: .decimal)]
        let rowCount = 1000
        var reads = 0
        func value(row: Int, column: Int) -> CellValue { reads += 1; return .decimal(Double(row % 97)) }
    }

    @Test("summaries are computed once per refresh, not on every read, and min and max are one pass")
    func summariesComputedOnce() throws {
        let source = Counting()
        let grid = DataGrid(bound: source)
        try grid.addSummary(SummaryRow(.max, columns: ["v"]))
        try grid.addSummary(SummaryRow(.mean, columns: ["v"]))
        let before = source.reads
        for _ in 0..<100 { _ = grid.value(.summary(0), column: 0); _ = grid.text(.summary(1), column: 0) }
        #expect(source.reads - before <= 2, "reading a summary reads its one source cell at most (max shows the row's own text)")
        #expect(grid.value(.summary(0), column: 0) == .decimal(96))
    }

    @Test("the file's own 平均 row can be recomputed in place, or it is reported when it disagrees")
    func existingSummaryRow() throws {
        let wrong = Self.groups.replacingOccurrences(of: "81.375", with: "80")
        let checked = try Self.grid(wrong)
        try checked.pin(.matching(column: "组号", value: "平均"), at: .bottom)
        #expect(checked.summaryDisagreements.map(\.description) == ["平均 says 80 in 分数; the mean of the other rows is 86.94"])
        let fine = try Self.grid(Self.groups.replacingOccurrences(of: "81.375", with: "86.9375"))
        try fine.pin(.matching(column: "组号", value: "平均"), at: .bottom)
        #expect(fine.summaryDisagreements.isEmpty)
        let recomputed = try Self.grid(wrong)
        try recomputed.pin(.matching(column: "组号", value: "平均"), at: .bottom, recomputing: .mean)
        try recomputed.sort(by: [SortKey("分数", .descending)])
        #expect(Self.column(recomputed, 2) == ["92", "92", "88.5", "75.25", "86.94"])
        #expect(recomputed.summaryDisagreements.isEmpty)
        // It follows the data.
        try (recomputed.source as! Table).setText("100", row: 0, column: 2)
        #expect(Self.column(recomputed, 2).last == "89.81")
    }

    @Test("a recomputed row fills only the cells it had as numbers, each with its own decimals (at least the column's)")
    func recomputeOnlyNumbers() throws {
        let csv = "学号,分数,订单数,备注\n1001,88,3,\n1002,92,5,班长\n1003,75,2,\n平均,0.00,,\n合计,,1,共3人\n"
        let grid = try Self.grid(csv)
        try grid.pin(.matching(column: "学号", value: "平均"), at: .bottom, recomputing: SummaryFunction(label: "平均"))
        try grid.pin(.matching(column: "学号", value: "合计"), at: .bottom, recomputing: SummaryFunction(label: "合计"))
        let rows = (0..<grid.displayedRowCount).map { index in (0..<4).map { grid.text(grid.displayedRow(at: index)!, column: $0) } }
        #expect(rows[3] == ["平均", "85.00", "", ""], "the mean of integers written as the row wrote its own; blanks stay blank")
        #expect(rows[4] == ["合计", "", "10", "共3人"], "the student numbers are not summed; the note stays")
        let precise = try Self.grid(csv)
        try precise.pin(.matching(column: "学号", value: "平均"), at: .bottom, recomputing: .mean, precision: 3)
        #expect(precise.text(precise.displayedRow(at: 4)!, column: 1) == "85.000", "合计 stays in the body, its blank score unread")
    }

    @Test("a sort string as BindingSource.Sort takes it; sortedColumn and sortOrder as DataGridView names them")
    func sortString() throws {
        let grid = try Self.grid()
        try grid.sort("分数 DESC, 组号 ASC")
        #expect(grid.sortKeys.map { "\($0.column) \($0.direction)" } == ["分数 descending", "组号 ascending"])
        #expect(grid.sortString == "分数 DESC, 组号 ASC" && grid.sortedColumn?.identifier == "分数" && grid.sortOrder == .descending)
        try grid.sort("  组号 , [分数] desc ")
        #expect(grid.sortString == "组号 ASC, 分数 DESC" && grid.sortOrder == .ascending)
        let columns = ["Final score", "a]b", "x"]
        #expect(try SortString.parse("[Final score] DESC, [a]]b], x", columns: columns).map(\.column) == columns)
        #expect(
            SortString.write(try SortString.parse("[Final score] DESC, [a]]b], x", columns: columns))
                == "[Final score] DESC, [a]]b] ASC, x ASC")
        for (bad, message) in [
            ("分数 DOWN", "'DOWN' is not a direction"), ("分数,", "a key without a column name"),
            ("[分数 DESC", "never closed"), ("分 DESC", "no column named '分'"), ("[分数] DESC 组号", "expected a comma"),
        ] {
            #expect(throws: SortString.ParseError.self) { try grid.sort(bad) }
            do { try grid.sort(bad) } catch { #expect(error.message.contains(message), "\(bad): \(error)") }
            #expect(grid.sortString == "组号 ASC, 分数 DESC", "a string that cannot be read changes nothing")
        }
        try grid.sort("")
        #expect(grid.sortKeys.isEmpty && grid.sortedColumn == nil && grid.sortOrder == .none)
    }

    @Test("random sort strings parse or fail with a position inside the text, never crash; written keys read back")
    func sortStringFuzz() throws {
        var rng = SeededRandom(seed: 19)
        let pieces = ["分数", "组号", " ", ",", "[", "]", "]]", "ASC", "desc", "x", "\t", "[组号]", "DESC,"]
        let columns = ["分数", "组号", "a b", "c]d"]
        for _ in 0..<3000 {
            let text = (0..<Int.random(in: 0...8, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            do {
                let keys = try SortString.parse(text, columns: columns)
                #expect(try SortString.parse(SortString.write(keys), columns: columns).map(\.column) == keys.map(\.column))
            } catch {
                #expect(error.position >= 1 && error.position <= text.unicodeScalars.count + 1, "\(text.debugDescription): \(error)")
            }
        }
    }

    /// A source that announces nothing: a plain array an app changes behind the grid's back.
    final class PlainArraySource: GridDataSource {
        let columns = [Column("组号"), Column("分数", type: .decimal)]
        var rows: [[CellValue]]
        init(_ rows: [[CellValue]]) { self.rows = rows }
        var rowCount: Int { rows.count }
        func value(row: Int, column: Int) -> CellValue { rows.indices.contains(row) ? rows[row][column] : .missing }
    }

    @Test("a source without change notices that gains or loses rows is re-sorted at the next read; the 平均 slot holds 平均")
    func silentRowCountChange() throws {
        let source = PlainArraySource([[.text("组1"), .decimal(80)], [.text("组2"), .decimal(90)], [.text("平均"), .decimal(85)]])
        let grid = DataGrid(bound: source)
        try grid.pin(.matching(column: "组号", value: "平均"), at: .bottom)
        try grid.sort(by: [SortKey("分数", .descending)])
        func shown() -> [String] { (0..<grid.displayedRowCount).map { grid.text(grid.displayedRow(at: $0)!, column: 0) } }
        #expect(shown() == ["组2", "组1", "平均"])
        // A row inserted before 平均 (its position moves): the slot follows the row, not the position.
        source.rows.insert([.text("组3"), .decimal(95)], at: 2)
        #expect(shown() == ["组3", "组2", "组1", "平均"])
        #expect(grid.region(of: grid.displayedRow(at: 3)!) == .pinnedBottom)
        source.rows.remove(at: 0)
        #expect(shown() == ["组3", "组2", "平均"] && grid.lastError == nil)
        source.rows.removeAll()
        #expect(grid.displayedRowCount == 0)
    }

    @Test("virtual mode: a header click reads each key cell once, summaries come from the same reads; a grown row count reads only the new rows")
    func virtualReads() throws {
        final class Counter: @unchecked Sendable { var calls = 0 }
        let counter = Counter()
        let n = 20_000
        let data = (0..<n).map { ($0 * 7919) % 1000 }
        var rows = data
        let grid = DataGrid(columns: [Column("k", type: .integer), Column("label")], rowCount: n) { row, column in
            counter.calls += 1
            return column == 0 ? .integer(rows[row]) : .text("r\(row)")
        }
        try grid.addSummary(SummaryRow(.mean, columns: ["k"], label: "平均"))
        counter.calls = 0
        try grid.clickHeader("k")
        #expect(counter.calls <= n, "one read per key cell, the mean from the same reads: \(counter.calls)")
        #expect(grid.value(grid.displayedRow(at: grid.displayedRowCount - 1)!, column: 0) == .decimal(Double(data.reduce(0, +)) / Double(n)))
        counter.calls = 0
        rows.append(-1)
        try grid.setRowCount(n + 1)
        #expect(counter.calls <= 4, "only the new row is read: \(counter.calls)")
        #expect(grid.displayedRow(at: 0) == .source(n), "the new row takes its place in the sort")
        counter.calls = 0
        rows[5] = 5000
        grid.reload()
        #expect(counter.calls >= n, "reload() reads the source again: \(counter.calls)")
        #expect(grid.displayedRow(at: n) == .source(5))
        // Rows removed in the middle: the rest move up, nothing is read.
        counter.calls = 0
        rows.remove(at: 5)
        try grid.removeVirtualRows(5..<6)
        #expect(counter.calls == 0 && grid.rowCount == n && grid.displayedRow(at: n - 1) != .source(5))
        #expect(grid.bodyRows.sorted() == Array(0..<n))
        // A summary of another column reads that column once too, whatever it shows.
        let other = DataGrid(columns: [Column("k", type: .integer), Column("v", type: .decimal)], rowCount: n) { row, column in
            counter.calls += 1
            return column == 0 ? .integer(data[row]) : .decimal(Double(row) / 4)
        }
        try other.addSummary(SummaryRow(.mean, columns: ["v"], label: "平均"))
        try other.addSummary(SummaryRow(.max, columns: ["v"], label: "最高"))
        counter.calls = 0
        try other.clickHeader("k")
        #expect(counter.calls <= 2 * n, "each key cell and each summarised cell once: \(counter.calls)")
    }

    @Test("pins ignore surrounding spaces, match numbers by value, and report when they match nothing")
    func pinMatching() throws {
        let grid = try Self.grid(Self.groups.replacingOccurrences(of: "平均,", with: " 平均 ,"))
        try grid.pin(.matching(column: "组号", value: "平均"), at: .bottom)
        try grid.pin(.matching(column: "分数", value: "92.0"), at: .top)
        try grid.pin(.matching(column: "组号", value: "合计"), at: .bottom)
        #expect(Self.column(grid, 0) == ["组2", "组4", "组1", "组3", " 平均 "])
        #expect(grid.unmatchedPins == [.matching(column: "组号", value: "合计")])
    }

    @Test("SortCompare is told the direction and the key, so a hook can keep a row last either way")
    func sortCompareKnowsDirection() throws {
        for direction in [SortDirection.ascending, .descending] {
            let grid = try Self.grid()
            var seen: Set<String> = []
            grid.sortCompare = { args in
                seen.insert("\(args.direction) \(args.keyIndex)")
                let last: ComparisonResult = args.direction == .ascending ? .orderedDescending : .orderedAscending
                if args.value1 == .text("平均") { return last }
                if args.value2 == .text("平均") { return last.reversed }
                return nil
            }
            try grid.sort(by: [SortKey("组号", direction), SortKey("分数")])
            #expect(Self.column(grid, 0).last == "平均", "\(direction)")
            #expect(seen.contains("\(direction) 0"))
        }
    }

    @Test("a bound table's changes keep the sort, the pins, the summaries, the current row and the selection", arguments: [false, true])
    func followsChanges(virtual: Bool) throws {
        let table = try CSV.table(Data((Self.groups + "\n").utf8))
        var data: [[CellValue]] = (0..<table.rowCount).map { r in (0..<4).map { table.value(row: r, column: $0) } }
        let grid: DataGrid
        if virtual {
            grid = DataGrid(columns: table.columns, rowCount: data.count) { data[$0][$1] }
            grid.cellValuePushed = { row, column, value in data[row][column] = value }
        } else {
            grid = DataGrid(bound: table)
        }
        try grid.pin(.matching(column: "组号", value: "平均"), at: .bottom)
        try grid.addSummary(SummaryRow(.count, columns: ["分数"]))
        try grid.sort(by: [SortKey("分数", .descending)])
        var sorted = 0
        grid.onSorted = { _ in sorted += 1 }
        grid.currentRow = 2  // 组3
        grid.select(row: 0)  // 组1
        grid.select(row: 3, extending: true)
        if virtual {
            // The app inserts into its own data and tells the grid where.
            data.insert([.text("组0"), .text("孔"), .decimal(99), .missing], at: 0)
            try grid.insertVirtualRows(0..<1)
        } else {
            try table.insertRow(["组0", "孔", "99", ""], at: 0)
        }
        #expect(Self.column(grid, 0) == ["组0", "组2", "组4", "组1", "组3", "平均", "count"])
        #expect(grid.text(.summary(0), column: 2) == "5")
        #expect(grid.currentRow == 3 && grid.selectedRows == [1, 4], "they follow their rows")
        #expect(grid.displayIndex(ofSourceRow: 3) == 4 && grid.displayIndex(ofSourceRow: 5) == 5)
        try grid.setValue(.decimal(50), row: 1, column: 2)  // 组1
        #expect(Self.column(grid, 0) == ["组0", "组2", "组4", "组3", "组1", "平均", "count"])
        if !virtual {
            try table.removeRow(at: 2)  // 组2
            #expect(Self.column(grid, 0) == ["组0", "组4", "组3", "组1", "平均", "count"])
            #expect(grid.currentRow == 2 && grid.selectedRows == [1, 3])
            try table.removeRow(at: 2)  // 组3, the current row
            #expect(grid.currentRow == nil)
        }
        #expect(sorted == 0, "changes of the source are not sorts")
        try grid.sort(by: [SortKey("组号")])
        #expect(sorted == 1)
    }

    @Test("a whole-row comparator and header clicks agree; code may sort any column; a programmatic glyph is set")
    func comparatorAndGlyphs() throws {
        let table = try CSV.table(Data((Self.groups + "\n").utf8))
        let grid = DataGrid(bound: table)
        try grid.sort(by: [SortKey("分数")])
        grid.rowComparator = { a, b in a > b ? .orderedAscending : a < b ? .orderedDescending : .orderedSame }
        #expect(grid.sortKeys.isEmpty && grid.glyph(for: "分数") == SortGlyph(), "no glyph claims an order the comparator replaced")
        #expect(grid.bodyRows == [4, 3, 2, 1, 0])
        try grid.clickHeader("分数")
        #expect(grid.rowComparator == nil && grid.glyph(for: "分数").direction == .ascending)
        #expect(Self.column(grid, 2) == ["75.25", "81.375", "88.5", "92", "92"])
        let columns = [Column("a", sortMode: .notSortable), Column("b", sortMode: .programmatic)]
        let other = try DataGrid(bound: Table(columns: columns, rows: [[.text("y"), .integer(1)], [.text("x"), .integer(2)]]))
        try other.clickHeader("a")
        #expect(other.sortKeys.isEmpty)
        try other.sort(by: [SortKey("a")])
        #expect(other.bodyRows == [1, 0], "DataGridView sorts a NotSortable column from code")
        try other.setGlyph(.descending, for: "b")
        #expect(other.glyph(for: "b").direction == .descending)
        try other.setGlyph(.descending, for: "a")
        #expect(other.glyph(for: "a").direction == .ascending, "only a programmatic column's glyph is set by hand")
    }

    /// A source that returns nonsense.
    final class Nonsense: GridDataSource {
        var columns: [Column] = [Column("a"), Column("b")]
        var rowCount = -5
        func value(row: Int, column: Int) -> CellValue { column == 0 ? .integer(row) : .missing }
    }

    @Test("no trap from a source's nonsense or out-of-range questions")
    func noTraps() throws {
        let source = Nonsense()
        let grid = DataGrid(bound: source)
        #expect(grid.displayedRowCount == 0)
        source.rowCount = 3
        grid.reload()
        try grid.sort(by: [SortKey("a", .descending)])
        #expect(grid.bodyRows == [2, 1, 0])
        source.columns = [Column("a")]  // a column went away
        grid.reload()
        #expect(
            grid.value(.source(0), column: 5) == .missing && grid.lastError == nil,
            "a column position the source lacks reads as missing; the sort's column is still there")
        #expect(grid.region(of: .summary(7)) == .body && grid.value(.summary(7), column: 0) == .missing)
        #expect(grid.text(.summary(-1), column: 0) == "" && grid.displayedRow(at: -1) == nil && grid.displayedRow(at: 99) == nil)
        #expect(grid.displayIndex(ofSourceRow: -3) == nil)
        let table = try Table(columns: [Column("x")], rows: [[.integer(1)]])
        #expect(throws: TableError.noSuchColumnPosition(4, columnCount: 1)) { try table.values(ofColumn: 4) }
        #expect(table.value(row: -1, column: 0) == .missing && table.text(row: 9, column: 9) == "")
        #expect(throws: TableError.noSuchRow(5, rowCount: 1)) { try table.removeRow(at: 5) }
        #expect(throws: TableError.notOwned) { try grid.setRowCount(4) }
    }

    @Test("type warnings leave out pinned rows, and say where the cells go in the grid's own direction")
    func typeWarnings() throws {
        let grid = try Self.grid("组号,分数\n组1,88\n组2,缺考\n组3,92\n组4,75\n组5,60\n平均,见下")
        #expect(
            grid.typeWarnings.map(\.description)
                == ["分数: 2 cells are not numbers (row 2: 缺考, row 6: 见下); they sort after the numbers"])
        try grid.pin(.matching(column: "组号", value: "平均"), at: .bottom)
        #expect(
            grid.typeWarnings.map(\.description) == ["分数: 1 cell is not a number (row 2: 缺考); it sorts after the numbers"],
            "the pinned 平均 row is not data")
        try grid.sort(by: [SortKey("分数", .descending)])
        #expect(grid.typeWarnings.map(\.description) == ["分数: 1 cell is not a number (row 2: 缺考); it sorts before the numbers"])
        #expect(grid.displayedRows.first == .source(1), "and it does come first")
        try grid.sort(by: [SortKey("组号", .descending)])
        #expect(grid.typeWarnings.first?.description.hasSuffix("after the numbers") == true, "a sort by another column says ascending")
    }
}
