import Foundation
import Testing
import TrellisTestSupport

@testable import TrellisGrid

/// Filters, unpinning, a find backwards, and the profiles a viewer's frequency and describe views
/// show — in every binding mode (column storage read in place, and a source read cell by cell).
@Suite("Filters and profiles")
struct FilterAndProfileTests {
    @Test(
        "a filter keeps the rows with a value, the 平均 row stays pinned, summaries follow what is shown, and it goes again",
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
        let table = try Table(
            columns: [Column("组号"), Column("分数", type: .decimal)],
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

    @Test(
        "a column's frequencies count the body (not the pinned 平均 row), blanks as \"\", in order of first appearance",
        arguments: GridFixture.modes)
    func frequencies(_ mode: DataGrid.Mode) throws {
        let grid = GridFixture.grid(
            mode, columns: [Column("组号"), Column("分数", type: .decimal)],
            rows: [
                [.text("组1"), .decimal(92)], [.text("组2"), .missing], [.text("组1"), .decimal(92)],
                [.text("组3"), .text("缺考")], [.text("组2"), .decimal(60.5)], [.text("平均"), .decimal(81.5)],
            ])
        try grid.pin(.matching(column: "组号", value: "平均"), at: .bottom)
        #expect(
            grid.frequencies(ofColumn: 0) == [
                ValueFrequency(text: "组1", count: 2), ValueFrequency(text: "组2", count: 2),
                ValueFrequency(text: "组3", count: 1),
            ])
        #expect(grid.frequencies(ofColumn: 1).map(\.count) == [2, 1, 1, 1])
        #expect(grid.frequencies(ofColumn: 1).map(\.text).contains(""), "the blank is a value of its own")
        #expect(grid.frequencies(ofColumn: 7).isEmpty)
        // A filter narrows the count.
        try grid.setFilter(.equal(column: "组号", text: "组2"))
        #expect(grid.frequencies(ofColumn: 0) == [ValueFrequency(text: "组2", count: 2)])
    }

    @Test("describe: count, blanks, distinct, min and max as written, mean and median of a number column", arguments: GridFixture.modes)
    func describe(_ mode: DataGrid.Mode) throws {
        let grid = GridFixture.grid(
            mode, columns: [Column("组号"), Column("分数", type: .decimal), Column("备注")],
            rows: [
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

    @Test("frequencies agree with a plain count on 60,000 generated rows of every shape, in both storage paths")
    func frequenciesAgreeWithCounting() throws {
        var state: UInt64 = 99
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        let shapes: [() -> String] = [
            { "组\(next(40))" }, { String(next(30_000)) }, { "" }, { " " }, { "缺考" },
            { String(repeating: "长", count: 1 + next(20)) + "\(next(3))" }, { "\(next(100)).\(next(10))0" },
        ]
        let texts = (0..<60_000).map { _ in shapes[next(shapes.count)]() }
        var expected: [String: Int] = [:], firstSeen: [String] = []
        for text in texts {
            if expected[text] == nil { firstSeen.append(text) }
            expected[text, default: 0] += 1
        }
        // (Read as a file is: appending rows one by one checks the storage after each in a debug build.)
        let table = try CSV.table(Data(("v\n" + texts.map { $0 + "\n" }.joined()).utf8))
        let stored = DataGrid(bound: table)
        let virtual = DataGrid(columns: [Column("v")], rowCount: texts.count) { row, _ in .text(texts[row]) }
        for grid in [stored, virtual] {
            // Texts as written: " " and "" are two values.
            let found = grid.frequencies(ofColumn: 0)
            let sameOrder = found.map(\.text) == firstSeen, sameCounts = found.map(\.count) == firstSeen.map { expected[$0]! }
            #expect(sameOrder && sameCounts, "\(grid.mode): \(found.count) values found, \(firstSeen.count) expected")
            #expect(found.reduce(0) { $0 + $1.count } == texts.count)
        }
        // Both ways of grouping — a table per core, buckets by hash — give the same groups and each
        // row's group, over every row and over every third; a sort numbers its texts by them.
        let store = table.store(0)
        for rows in [Array(0..<texts.count), Array(stride(from: 0, to: texts.count, by: 3))] {
            let tables = try #require(ByteSliceSet.tableGroups(store, rows: rows, limit: 1 << 20, ids: true))
            #expect(ByteSliceSet.tableGroups(store, rows: rows, limit: 100, ids: true) == nil, "too many texts for a small table")
            // With 6 bits of the hash only, many texts share each hash: told apart all the same.
            for bits in [64, 6] {
                let buckets = ByteSliceSet.partitionGroups(store, rows: rows, bits: bits, ids: true)
                #expect(buckets.first == tables.first && buckets.count == tables.count && buckets.ids == tables.ids, "\(bits) bits")
            }
            #expect(ByteSliceSet.groups(store, rows: rows).ids.isEmpty, "ids only when asked for")
            #expect(
                tables.ids.enumerated().allSatisfy {
                    tables.first[Int($0.element)] <= $0.offset
                        && store.text(at: rows[tables.first[Int($0.element)]]) == store.text(at: rows[$0.offset])
                })
        }
    }

    @Test("a sample tells a column of many distinct texts from one of few, which is counted in tables first")
    func distinctEstimate() throws {
        var seed: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        func store(_ distinct: Int) throws -> ColumnStore {
            let text = "v\n" + (0..<60_000).map { _ in "组\(next(distinct))\n" }.joined()
            return try CSV.table(Data(text.utf8)).store(0)
        }
        let rows = Array(0..<60_000)
        // 8,192 texts a chunk is the tables' limit: 2,000 texts are few, 50,000 many.
        #expect(!ByteSliceSet.manyDistinct(try store(2_000), rows: rows, limit: 8192))
        #expect(!ByteSliceSet.manyDistinct(try store(8_000), rows: rows, limit: 8192))
        #expect(ByteSliceSet.manyDistinct(try store(50_000), rows: rows, limit: 8192))
        // Too few rows to be worth a sample: the tables are tried.
        #expect(!ByteSliceSet.manyDistinct(try store(50_000), rows: Array(0..<4000), limit: 8192))
        // Either way, the groups are the same.
        let many = try store(50_000)
        let counted = ByteSliceSet.groups(many, rows: rows, ids: true)
        let tables = try #require(ByteSliceSet.tableGroups(many, rows: rows, limit: .max, ids: true))
        #expect(counted.first == tables.first && counted.count == tables.count && counted.ids == tables.ids)
    }

    @Test("a frequency table: the value typed as its column, counts, percents rounded half away from zero, in both paths")
    func frequencyTable() throws {
        let texts = ["92", "88.5", "92", "缺考", "92", "", "88.5", "70"]
        let grids = [
            DataGrid(bound: try Table(columns: [Column("分数", type: .decimal)], rows: texts.map { [$0.isEmpty ? .missing : CellValue.parse($0)] })),
            DataGrid(columns: [Column("分数", type: .decimal)], rowCount: texts.count) { row, _ in
                texts[row].isEmpty ? .missing : CellValue.parse(texts[row])
            },
        ]
        for grid in grids {
            let table = grid.frequencyTable(ofColumn: 0)
            #expect(table.columns.map(\.identifier) == ["value", "count", "percent"])
            #expect(table.columns.map(\.title) == ["分数", "count", "%"] && table.columns[0].type == .decimal)
            let rows = (0..<table.rowCount).map { row in (0..<3).map { table.text(row: row, column: $0) } }
            #expect(rows == [["92", "3", "37.50"], ["88.5", "2", "25.00"], ["缺考", "1", "12.50"], ["", "1", "12.50"], ["70", "1", "12.50"]])
            #expect(table.value(row: 0, column: 0).number == 92 && table.value(row: 0, column: 1) == .integer(3))
            #expect(grid.maximum(ofColumn: 0) == 92)
        }
        // The values are read as their column reads them: a summary over the frequency table writes
        // the decimals the values were written with (from the column's storage, where they are kept
        // apart from the cells' kinds).
        let written = DataGrid(bound: try CSV.table(Data("分数\n88.50\n92\n88.50\n".utf8)))
        let valuesGrid = DataGrid(bound: written.frequencyTable(ofColumn: 0))
        try valuesGrid.addSummary(SummaryRow(.mean, columns: ["value"], label: "平均"))
        #expect(valuesGrid.text(.summary(0), column: 0) == "90.25", "the mean of 88.50 and 92 at two decimals")
        let thirds = DataGrid(bound: try Table(columns: [Column("k")], rows: [[.text("a")], [.text("b")], [.text("b")]]))
        #expect((0..<2).map { thirds.frequencyTable(ofColumn: 0).text(row: $0, column: 2) } == ["33.33", "66.67"])
    }

    @Test(
        "a comparator's extremes are the first and last of its sort, for 10,000 texts and for one",
        arguments: [
            TextComparator.natural, .lexical, .caseInsensitive, .localized("zh"),
        ])
    func extremes(_ comparator: TextComparator) throws {
        var state: UInt64 = 7
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        let pieces = ["组", "第", "张", "item", "Item", "十", "二", "a", "B", "é", "e\u{301}"]
        let texts = (0..<10_000).map { _ in (0..<(1 + next(3))).map { _ in pieces[next(pieces.count)] }.joined() + String(next(500)) }
        let (least, most) = try #require(comparator.extremes(of: texts))
        for text in texts {
            #expect(comparator.compare(texts[least], text) != .orderedDescending)
            #expect(comparator.compare(texts[most], text) != .orderedAscending)
        }
        #expect(texts.firstIndex { comparator.compare($0, texts[least]) == .orderedSame } == least, "the first of equals")
        #expect(comparator.extremes(of: ["组1"])! == (0, 0) && comparator.extremes(of: []) == nil)
    }
}

extension FilterAndProfileTests {
    @Test("describe sorts numbers as the standard library does, scaled to whole numbers or by their bits")
    func sortedNumbers() {
        var rng = SeededRandom(seed: 41)
        for decimals in 0...3 {
            let scale = pow(10, Double(decimals))
            // Numbers written with `decimals` decimals: negative, zero of both signs, repeated.
            var numbers = (0..<5_000).map { _ in Double(Int.random(in: -99_999...99_999, using: &rng)) / scale }
            numbers += [0, -0.0, 0, 1 / scale, -1 / scale]
            #expect(DataGrid.scaledCodes(numbers, decimals: decimals) != nil, "whole numbers of 10^-\(decimals)")
            #expect(DataGrid.sorted(numbers, decimals: decimals) == numbers.sorted())
            // Told too few decimals, or given a number no scale holds: sorted by their bits.
            if decimals > 0 { #expect(DataGrid.scaledCodes(numbers, decimals: decimals - 1) == nil) }
            #expect(DataGrid.sorted(numbers, decimals: max(0, decimals - 1)) == numbers.sorted())
            let odd = numbers + [1e-20, 0.1 + 0.2, 1e300, -9_007_199_254_740_992, -9_007_199_254_740_994]
            #expect(DataGrid.scaledCodes(odd, decimals: decimals) == nil)
            #expect(DataGrid.sorted(odd, decimals: decimals) == odd.sorted())
        }
    }
}
