import Foundation
import Testing
import TrellisTestSupport
import TrellisText

@testable import TrellisGrid

@Suite("Grid sorting in every binding mode")
struct GridSortingTests {
    @Test("the average row stays last, ascending and descending", arguments: GridFixture.modes)
    func averageStaysLast(mode: DataGrid.Mode) throws {
        let grid = GridFixture.userTable(mode)
        try grid.pin(.matching(column: "组号", value: "平均"), at: .bottom)
        for direction in [SortDirection.ascending, .descending] {
            try grid.sort(by: [SortKey("分数", direction)])
            let names = GridFixture.column(grid, 0)
            #expect(names.last == "平均", "\(mode) \(direction)")
            let scores = grid.bodyRows.map { grid.source.value(row: $0, column: 1).number! }
            #expect(scores == (direction == .ascending ? scores.sorted() : scores.sorted(by: >)))
        }
        try grid.sort(by: [SortKey("组号")])
        #expect(GridFixture.column(grid, 0) == (1...12).map { "组\($0)" } + ["平均"], "natural order: 组2 before 组10")
    }

    @Test("ties keep source order in both directions", arguments: GridFixture.modes)
    func tiesKeepSourceOrder(mode: DataGrid.Mode) throws {
        let grid = GridFixture.userTable(mode)
        // 组2, 组4 and 组11 all scored 92.
        for direction in [SortDirection.ascending, .descending] {
            try grid.sort(by: [SortKey("分数", direction)])
            let tied = GridFixture.column(grid, 0).filter { ["组2", "组4", "组11"].contains($0) }
            #expect(tied == ["组2", "组4", "组11"], "\(mode) \(direction)")
        }
    }

    @Test("blanks go last in both directions, or first, or as the smallest value", arguments: GridFixture.modes)
    func blanks(mode: DataGrid.Mode) throws {
        let values: [CellValue] = [.decimal(3), .missing, .decimal(1), .decimal(.nan), .decimal(2)]
        let grid = GridFixture.grid(mode, columns: [Column("v", type: .decimal)], rows: values.map { [$0] })
        func order() -> [String] { GridFixture.column(grid, 0) }
        try grid.sort(by: [SortKey("v")])
        #expect(order() == ["1", "2", "3", "", ""])
        try grid.sort(by: [SortKey("v", .descending)])
        #expect(order() == ["3", "2", "1", "", ""])
        try grid.sort(by: [SortKey("v", nulls: .first)])
        #expect(order() == ["", "", "1", "2", "3"])
        try grid.sort(by: [SortKey("v", .descending, nulls: .first)])
        #expect(order() == ["", "", "3", "2", "1"])
        try grid.sort(by: [SortKey("v", nulls: .asSmallest)])
        #expect(order() == ["", "", "1", "2", "3"])
        try grid.sort(by: [SortKey("v", .descending, nulls: .asSmallest)])
        #expect(order() == ["3", "2", "1", "", ""])
        #expect(grid.bodyRows.suffix(2) == [1, 3], "missing rows keep their source order")
    }

    @Test("text comparators: natural, lexical, case-insensitive, pinyin and stroke", arguments: GridFixture.modes)
    func textComparators(mode: DataGrid.Mode) throws {
        let names = ["张", "王", "李", "阿", "平", "组"]
        let grid = GridFixture.grid(mode, columns: [Column("name")], rows: names.map { [.text($0)] })
        try grid.sort(by: [SortKey("name", comparator: .text(.localized("zh")))])
        #expect(GridFixture.column(grid, 0) == ["阿", "李", "平", "王", "张", "组"])
        try grid.sort(by: [SortKey("name", comparator: .text(.localized("zh@collation=stroke")))])
        let stroke = GridFixture.column(grid, 0)
        #expect(stroke != ["阿", "李", "平", "王", "张", "组"] && stroke.first == "王", "stroke order starts with 王 (4 strokes)")
        let items = GridFixture.grid(
            mode, columns: [Column("item")],
            rows: ["item10", "Item2", "item2", "item1", "b", "A"].map { [.text($0)] })
        try items.sort(by: [SortKey("item", comparator: .text(.natural))])
        #expect(GridFixture.column(items, 0) == ["A", "b", "item1", "Item2", "item2", "item10"])
        try items.sort(by: [SortKey("item", comparator: .text(.lexical))])
        #expect(GridFixture.column(items, 0) == ["A", "Item2", "b", "item1", "item10", "item2"])
        try items.sort(by: [SortKey("item", comparator: .text(.caseInsensitive))])
        #expect(
            GridFixture.column(items, 0) == ["A", "b", "item1", "item10", "Item2", "item2"],
            "Item2 and item2 are equivalent and keep source order")
    }

    @Test(
        "numbers in text keep their value order under a locale: Chinese numerals, full-width digits; names keep their reading",
        arguments: GridFixture.modes)
    func localizedNumbers(mode: DataGrid.Mode) throws {
        let groups = ["第十组", "第二组", "第一组", "第十一组", "组１０", "组２", "二〇二六年", "二〇二四年", "初三", "初一", "十二", "九"]
        let grid = GridFixture.grid(mode, columns: [Column("g")], rows: groups.map { [.text($0)] })
        try grid.sort(by: [SortKey("g", comparator: .text(.localized("zh")))])
        let sorted = GridFixture.column(grid, 0)
        func before(_ a: String, _ b: String) -> Bool { sorted.firstIndex(of: a)! < sorted.firstIndex(of: b)! }
        #expect(before("第一组", "第二组") && before("第二组", "第十组") && before("第十组", "第十一组"), "\(sorted)")
        #expect(before("组２", "组１０") && before("二〇二四年", "二〇二六年") && before("初一", "初三") && before("九", "十二"), "\(sorted)")
        let names = ["王一博", "王安", "张三", "张伟", "阿明"]
        let people = GridFixture.grid(mode, columns: [Column("n")], rows: names.map { [.text($0)] })
        try people.sort(by: [SortKey("n", comparator: .text(.localized("zh")))])
        #expect(GridFixture.column(people, 0) == ["阿明", "王安", "王一博", "张三", "张伟"], "a lone numeral in a name is read as it is said")
        // With numeric collation turned off in the locale id, numerals are characters again.
        try grid.sort(by: [SortKey("g", comparator: .text(.localized("zh-u-kn-false")))])
        let plain = GridFixture.column(grid, 0)
        #expect(plain.firstIndex(of: "组１０")! < plain.firstIndex(of: "组２")!, "\(plain)")
    }

    @Test("rows added at the end of a virtual grid are placed by binary search exactly where a fresh sort puts them", arguments: 0..<6)
    func appendedRowsPlaced(seed: Int) throws {
        var rng = SeededRandom(seed: UInt64(500 + seed))
        func cell(_ column: Int) -> CellValue {
            if rng.chance(0.1) { return .missing }
            switch column {
            case 0:
                return rng.chance(0.05)
                    ? .text("缺考")
                    : rng.chance(0.5)
                        ? .integer(Int.random(in: -5...5, using: &rng))
                        : .decimal(Double(Int.random(in: -20...20, using: &rng)) / 4)
            case 1: return .text(["组2", "组10", "第三组", "item", "Item", "b", "组２"].randomElement(using: &rng)!)
            default: return rng.chance(0.5) ? .boolean(rng.chance(0.5)) : .date(Date(timeIntervalSince1970: Double(Int.random(in: 0...3, using: &rng)) * 86400))
            }
        }
        let box = RowsBox()
        box.rows = (0..<Int.random(in: 0...60, using: &rng)).map { _ in (0..<3).map { cell($0) } }
        let columns = [Column("n", type: .decimal), Column("t"), Column("m")]
        let grid = DataGrid(columns: columns, rowCount: box.rows.count) { row, column in box.rows[row][column] }
        let comparators: [KeyComparator] = [.standard, .text(.lexical), .asText(.natural), .text(.localized("zh"))]
        let keys = (0..<Int.random(in: 1...3, using: &rng)).map { _ in
            SortKey(
                ["n", "t", "m"].randomElement(using: &rng)!, rng.chance(0.5) ? .ascending : .descending,
                comparator: comparators.randomElement(using: &rng)!, nulls: NullPlacement.allCases.randomElement(using: &rng)!)
        }
        try grid.sort(by: keys)
        let pinned = rng.chance(0.5)
        if pinned { try grid.pin(.matching(column: "t", value: "item"), at: .bottom) }
        try grid.addSummary(SummaryRow(.sum, columns: ["n"]))
        for _ in 0..<4 {
            let added = Int.random(in: 1...5, using: &rng)
            for _ in 0..<added { box.rows.append((0..<3).map { cell($0) }) }
            try grid.setRowCount(box.rows.count)
            let fresh = DataGrid(columns: columns, rowCount: box.rows.count) { row, column in box.rows[row][column] }
            if pinned { try fresh.pin(.matching(column: "t", value: "item"), at: .bottom) }
            try fresh.addSummary(SummaryRow(.sum, columns: ["n"]))
            try fresh.sort(by: keys)
            #expect(grid.displayedRows == fresh.displayedRows, "\(keys.map { "\($0.column) \($0.direction) \($0.comparator) \($0.nulls)" })")
            #expect(grid.value(.summary(0), column: 0) == fresh.value(.summary(0), column: 0))
        }
    }

    @Test("a hook that declines costs one call per row, not per pair: the comparison sort starts from the keys' order")
    func decliningHookIsLinear() throws {
        final class Counter: @unchecked Sendable { var calls = 0 }
        let counter = Counter()
        // n log n would be 11 calls a row here; a sorted start costs about one.
        let n = 2_000
        let rows: [[CellValue]] = (0..<n).map { [.integer(($0 * 7919) % 1000), .text("组\($0 % 37)")] }
        let grid = GridFixture.grid(.bound, columns: [Column("k", type: .integer), Column("g")], rows: rows)
        grid.sortCompare = { args in
            counter.calls += 1
            return args.value1 == .integer(-1) ? .orderedAscending : nil
        }
        try grid.sort(by: [SortKey("k", .descending), SortKey("g")])
        #expect(counter.calls < 3 * n, "\(counter.calls) calls for \(n) rows")
        let plain = GridFixture.grid(.bound, columns: [Column("k", type: .integer), Column("g")], rows: rows)
        try plain.sort(by: [SortKey("k", .descending), SortKey("g")])
        #expect(grid.displayedRows == plain.displayedRows, "a hook that declines leaves the keys' order")
        // A hook that answers still decides, wherever the sort starts.
        grid.sortCompare = { args in
            guard case .integer(let a) = args.value1, case .integer(let b) = args.value2 else { return nil }
            return a % 2 == b % 2 ? nil : (a % 2 == 0 ? .orderedAscending : .orderedDescending)
        }
        try grid.sort(by: [SortKey("k")])
        let values = grid.displayedRows.map { grid.value($0, column: 0) }
        let evens = values.prefix { if case .integer(let i) = $0 { i % 2 == 0 } else { false } }
        #expect(evens.count == values.filter { if case .integer(let i) = $0 { i % 2 == 0 } else { false } }.count, "evens first")
    }

    @Test("a comparator that compares every cell as text orders a number among texts as text", arguments: GridFixture.modes)
    func everyCellAsText(mode: DataGrid.Mode) throws {
        let rows: [[CellValue]] = [[.text("1.9.9a")], [.decimal(1.11)], [.text("1.10.1")], [.text("1.9.9b")], [.missing]]
        let grid = GridFixture.grid(mode, columns: [Column("v")], rows: rows)
        try grid.sort(by: [SortKey("v", comparator: .asText(.natural))])
        #expect(GridFixture.column(grid, 0) == ["1.9.9a", "1.9.9b", "1.10.1", "1.11", ""])
        try grid.sort(by: [SortKey("v", .descending, comparator: .asText(.natural))])
        #expect(GridFixture.column(grid, 0) == ["1.11", "1.10.1", "1.9.9b", "1.9.9a", ""])
        try grid.sort(by: [SortKey("v", comparator: .text(.natural))])
        #expect(GridFixture.column(grid, 0).first == "1.11", "with .text the number still sorts by value, before the texts")
    }

    @Test("mixed types sort numbers < text < booleans < errors", arguments: GridFixture.modes)
    func mixedTypes(mode: DataGrid.Mode) throws {
        let values: [CellValue] = [
            .text("b"), .error("#N/A"), .boolean(true), .integer(5), .missing, .decimal(1.5),
            .boolean(false), .text("a"),
        ]
        let grid = GridFixture.grid(mode, columns: [Column("v")], rows: values.map { [$0] })
        try grid.sort(by: [SortKey("v")])
        #expect(GridFixture.column(grid, 0) == ["1.5", "5", "a", "b", "false", "true", "#N/A", ""])
        try grid.sort(by: [SortKey("v", .descending)])
        #expect(GridFixture.column(grid, 0) == ["#N/A", "true", "false", "b", "a", "5", "1.5", ""])
    }

    @Test("a SortCompare hook that declines falls back to the default; one that answers decides", arguments: GridFixture.modes)
    func sortCompareHook(mode: DataGrid.Mode) throws {
        let grid = GridFixture.userTable(mode)
        grid.sortCompare = { _ in nil }
        try grid.sort(by: [SortKey("组号")])
        #expect(GridFixture.column(grid, 0).prefix(3) == ["平均", "组1", "组2"])
        // Answer only for the average row: it sorts after everything.
        grid.sortCompare = { args in
            if args.value1 == .text("平均") { return .orderedDescending }
            if args.value2 == .text("平均") { return .orderedAscending }
            return nil
        }
        #expect(GridFixture.column(grid, 0).last == "平均")
        #expect(GridFixture.column(grid, 0).first == "组1")
    }

    @Test("a whole-row comparator orders the body; ties keep source order", arguments: GridFixture.modes)
    func rowComparator(mode: DataGrid.Mode) throws {
        let grid = GridFixture.userTable(mode)
        let source = grid.source
        grid.rowComparator = { a, b in
            let x = source.value(row: a, column: 1).number!, y = source.value(row: b, column: 1).number!
            return x == y ? .orderedSame : x > y ? .orderedAscending : .orderedDescending
        }
        #expect(grid.bodyRows.first == 6, "组7 scored 99")
        #expect(Array(grid.bodyRows[1...3]) == [1, 3, 10], "the 92s in source order")
    }

    @Test("removing the sort restores the source order", arguments: GridFixture.modes)
    func removeSort(mode: DataGrid.Mode) throws {
        let grid = GridFixture.userTable(mode)
        try grid.sort(by: [SortKey("分数", .descending)])
        #expect(grid.bodyRows != Array(0..<13))
        grid.removeSort()
        #expect(grid.bodyRows == Array(0..<13))
    }

    @Test(
        "a column sorted in a direction: the only key, or a further one, set in place where it is already a key; the order follows",
        arguments: GridFixture.modes)
    func sortColumnInADirection(mode: DataGrid.Mode) throws {
        let columns = [Column("组号"), Column("分数", type: .decimal), Column("note", sortMode: .notSortable)]
        let grid = GridFixture.grid(
            mode, columns: columns,
            rows: [[.text("组2"), .decimal(1), .missing], [.text("组1"), .decimal(3), .missing], [.text("组1"), .decimal(2), .missing]])
        try grid.sortColumn("分数", direction: .descending)
        #expect(GridFixture.column(grid, 1) == ["3", "2", "1"])
        try grid.sortColumn("分数", direction: .descending)
        #expect(grid.sortKeys.map(\.direction) == [.descending], "the same direction again: no cycle")
        try grid.sortColumn("组号", direction: .ascending)
        try grid.sortColumn("分数", direction: .ascending, addingKey: true)
        #expect(grid.sortKeys.map(\.column) == ["组号", "分数"] && GridFixture.column(grid, 1) == ["2", "3", "1"])
        try grid.sortColumn("组号", direction: .descending, addingKey: true)
        #expect(grid.sortKeys.map(\.column) == ["组号", "分数"] && grid.sortKeys[0].direction == .descending, "in place")
        try grid.sortColumn("note", direction: .ascending)
        #expect(grid.sortKeys.map(\.column) == ["组号", "分数"], "a column that ignores clicks ignores this too")
        #expect(throws: SortError.self) { try grid.sortColumn("nope", direction: .ascending) }
    }

    @Test(
        "header clicks cycle, shift adds keys, glyphs follow; other sort modes ignore clicks",
        arguments: GridFixture.modes)
    func headerClicks(mode: DataGrid.Mode) throws {
        let columns = [
            Column("组号"), Column("分数", type: .decimal), Column("note", sortMode: .notSortable),
            Column("rank", sortMode: .programmatic),
        ]
        let grid = GridFixture.grid(
            mode, columns: columns,
            rows: [[.text("组1"), .decimal(1), .missing, .integer(1)]])
        try grid.clickHeader("分数")
        #expect(grid.glyph(for: "分数") == SortGlyph(direction: .ascending, priority: 1))
        try grid.clickHeader("分数")
        #expect(grid.glyph(for: "分数").direction == .descending)
        try grid.clickHeader("分数")
        #expect(grid.sortKeys.isEmpty && grid.glyph(for: "分数") == SortGlyph())
        try grid.clickHeader("分数")
        try grid.clickHeader("组号", addingKey: true)
        #expect(grid.sortKeys.map(\.column) == ["分数", "组号"])
        #expect(grid.glyph(for: "组号") == SortGlyph(direction: .ascending, priority: 2))
        try grid.clickHeader("组号")
        #expect(grid.sortKeys.map(\.column) == ["组号"] && grid.sortKeys[0].direction == .descending)
        try grid.clickHeader("note")
        try grid.clickHeader("rank")
        #expect(grid.sortKeys.map(\.column) == ["组号"])
        try grid.sort(by: [SortKey("note")])
        #expect(grid.sortKeys.map(\.column) == ["note"], "a column that ignores clicks can still be sorted from code")
        try grid.sort(by: [SortKey("rank", .descending)])
        #expect(grid.glyph(for: "rank").direction == .descending, "programmatic columns sort from code")
        grid.sortCycle = .dataGridView
        try grid.clickHeader("分数")
        try grid.clickHeader("分数")
        try grid.clickHeader("分数")
        #expect(grid.glyph(for: "分数").direction == .ascending, "DataGridView never goes back to unsorted")
    }

    @Test("unknown columns are refused with the list of columns", arguments: GridFixture.modes)
    func unknownColumns(mode: DataGrid.Mode) {
        let grid = GridFixture.userTable(mode)
        #expect(throws: SortError.unknownColumn("score", columns: ["组号", "分数"])) {
            try grid.sort(by: [SortKey("score")])
        }
        #expect(throws: SortError.self) { try grid.pin(.matching(column: "group", value: "平均"), at: .bottom) }
        #expect(grid.bodyRows == Array(0..<13), "a refused sort leaves the grid as it was")
    }

    @Test("summary rows are computed over the body and shown pinned", arguments: GridFixture.modes)
    func summaries(mode: DataGrid.Mode) throws {
        let grid = GridFixture.userTable(mode)
        try grid.pin(.matching(column: "组号", value: "平均"), at: .bottom)
        try grid.addSummary(SummaryRow(.mean, columns: ["分数"]))
        try grid.addSummary(SummaryRow(.max, columns: ["分数", "组号"]))
        try grid.addSummary(SummaryRow(.count, columns: ["分数"], edge: .top))
        let rows = grid.displayedRows
        #expect(rows.first == .summary(2))
        #expect(grid.value(rows.first!, column: 1) == .integer(12))
        let mean = grid.value(.summary(0), column: 1).number!
        #expect(abs(mean - 81.375) < 1e-9)
        #expect(grid.value(.summary(0), column: 0) == .text("mean"))
        #expect(grid.value(.summary(1), column: 1) == .decimal(99))
        #expect(grid.value(.summary(1), column: 0) == .text("组12"), "max of text by natural order")
        try grid.sort(by: [SortKey("分数", .descending)])
        #expect(grid.displayedRows.suffix(3) == [.source(12), .summary(0), .summary(1)])
        #expect(grid.displayedRowCount == grid.displayedRows.count && grid.displayedRowCount == 13 + 3)
        #expect(grid.region(of: .source(12)) == .pinnedBottom && grid.region(of: .source(0)) == .body)
    }

    @Test("multi-key sorts equal a reference stable sort on (keys, source index)", arguments: GridFixture.modes)
    func multiKeyOracle(mode: DataGrid.Mode) throws {
        var rng = SeededRandom(seed: 11)
        for round in 0..<20 {
            let rows: [[CellValue]] = (0..<Int.random(in: 0...120, using: &rng)).map { _ in
                let a: CellValue = Int.random(in: 0..<6, using: &rng) == 0 ? .missing : .integer(Int.random(in: 0..<5, using: &rng))
                let b: CellValue =
                    Int.random(in: 0..<8, using: &rng) == 0
                    ? .missing
                    : .text(["组\(Int.random(in: 1...12, using: &rng))", "x", "Y", "z10", "z9"][Int.random(in: 0..<5, using: &rng)])
                let c: CellValue = .decimal(Double(Int.random(in: -3...3, using: &rng)) / 2)
                return [a, b, c]
            }
            let grid = GridFixture.grid(
                mode, columns: [Column("a", type: .integer), Column("b"), Column("c", type: .decimal)],
                rows: rows)
            let keys = [
                SortKey(
                    "a", Bool.random(using: &rng) ? .ascending : .descending,
                    nulls: NullPlacement.allCases.randomElement(using: &rng)!),
                SortKey("b", Bool.random(using: &rng) ? .ascending : .descending),
                SortKey("c", .descending),
            ]
            try grid.sort(by: keys)
            let comparators = keys.map {
                CellValueComparator(
                    .natural, order: $0.direction == .ascending ? .forward : .reverse,
                    nulls: $0.nulls)
            }
            let expected = rows.indices.sorted { x, y in
                for (k, comparator) in comparators.enumerated() {
                    let order = comparator.compare(rows[x][k], rows[y][k])
                    if order != .orderedSame { return order == .orderedAscending }
                }
                return x < y
            }
            #expect(grid.bodyRows == expected, "\(mode) round \(round)")
        }
    }

    @Test("keys folded into one code where their spreads fit together sort as the keys one by one", arguments: 0..<12)
    func foldedKeysOracle(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        // Ranges from one value to the whole of Int64: some neighbours fold, some are too wide.
        let ranges: [ClosedRange<Int>] = [0...0, 0...3, -5...5, 0...999, -100_000...100_000, Int.min...Int.max, 0...(1 << 40)]
        let keyCount = Int.random(in: 2...4, using: &rng)
        let columnRanges = (0..<keyCount).map { _ in ranges.randomElement(using: &rng)! }
        let count = Int.random(in: 2...300, using: &rng)
        let rows: [[CellValue]] = (0..<count).map { _ in columnRanges.map { .integer(Int.random(in: $0, using: &rng)) } }
        let table = try Table(columns: (0..<keyCount).map { Column("k\($0)", type: .integer) }, rows: rows)
        let keys = (0..<keyCount).map { SortKey("k\($0)", Bool.random(using: &rng) ? .ascending : .descending) }
        let order = try SortEngine.permutation(of: Array(0..<count), in: table, by: keys)
        let expected = rows.indices.sorted { x, y in
            for (k, key) in keys.enumerated() {
                guard case .integer(let a) = rows[x][k], case .integer(let b) = rows[y][k], a != b else { continue }
                return key.direction == .ascending ? a < b : a > b
            }
            return x < y
        }
        #expect(order == expected, "ranges \(columnRanges), directions \(keys.map(\.direction))")
    }
}

extension GridSortingTests {
    @Test("after the bound source changes, a reload keeps the sort and the pins")
    func reloadAfterSourceChanges() throws {
        let table = try Table(
            columns: [Column("组号"), Column("分数", type: .decimal)],
            rows: [[.text("组1"), .decimal(50)], [.text("平均"), .decimal(60)], [.text("组2"), .decimal(70)]])
        let grid = DataGrid(bound: table)
        try grid.pin(.matching(column: "组号", value: "平均"), at: .bottom)
        try grid.sort(by: [SortKey("分数", .descending)])
        try table.appendRow(["组3", "99"])
        grid.reload()
        #expect(GridFixture.column(grid, 0) == ["组3", "组2", "组1", "平均"])
        #expect(table.value(row: 3, column: 0) == .text("组3"), "the source's own order is untouched")
    }
}

extension GridSortingTests {
    @Test("summary functions skip missing values and do not overflow")
    func summaryFunctions() {
        let values: [CellValue] = [.integer(Int.max), .integer(1), .missing]
        #expect(SummaryFunction.sum.apply(values) == .decimal(Double(Int.max) + 1))
        #expect(SummaryFunction.sum.apply([.integer(2), .integer(3)]) == .integer(5))
        #expect(SummaryFunction.count.apply(values) == .integer(2))
        #expect(SummaryFunction.mean.apply([.missing]) == .missing)
        #expect(SummaryFunction.min.apply([.text("组10"), .text("组2"), .missing]) == .text("组2"))
        #expect(SummaryFunction.custom("first", { $0.first ?? .missing }).apply([.missing, .integer(7)]) == .integer(7))
    }
}

extension GridSortingTests {
    /// The chunked loops of a sort (codes, distinct texts, radix passes, one chunk per core) give
    /// the order one thread gives: run here with chunks of a few rows so that small tables cross
    /// every chunk boundary, against a reference stable sort by the cell comparator.
    @Test("sorts cut into chunks for several cores give the reference order")
    func chunkedSorts() throws {
        var rng = SeededRandom(seed: 29)
        for round in 0..<24 {
            // Every other round, distinct texts are numbered through the buckets by hash.
            try Tuning.$current.withValue(
                Tuning(
                    workers: [2, 3, 5][round % 3], minimumChunk: [1, 4, 16][round % 3],
                    textTableLimit: round % 2 == 0 ? nil : 3)
            ) {
                let count = Int.random(in: 0...400, using: &rng)
                var csv = "n,t\n"
                for _ in 0..<count {
                    let n: String
                    switch Int.random(in: 0..<9, using: &rng) {
                    case 0: n = ""
                    case 1: n = "缺考"
                    case 2: n = "#N/A"
                    case 3: n = String(Int.random(in: -4...4, using: &rng))
                    case 4: n = "12345678901234567890"
                    default: n = String(format: "%.2f", Double(Int.random(in: -400...400, using: &rng)) / 100)
                    }
                    let t =
                        Int.random(in: 0..<6, using: &rng) == 0
                        ? ""
                        : ["组\(Int.random(in: 1...14, using: &rng))", "x", "Y", "z10", "z9", "é", "e\u{301}"].randomElement(using: &rng)!
                    csv += "\(n),\(t)\n"
                }
                let table = try CSV.table(Data(csv.utf8))
                let keys = [
                    SortKey("n", Bool.random(using: &rng) ? .ascending : .descending, nulls: NullPlacement.allCases.randomElement(using: &rng)!),
                    SortKey("t", Bool.random(using: &rng) ? .ascending : .descending, nulls: NullPlacement.allCases.randomElement(using: &rng)!),
                ]
                let shuffled = Array(0..<table.rowCount).shuffled(using: &rng)
                for rows in [Array(0..<table.rowCount), shuffled] {
                    let pinyin = SortKey("t", keys[1].direction, comparator: .text(.localized("zh")), nulls: keys[1].nulls)
                    for used in [Array(keys.prefix(1)), Array(keys.suffix(1)), keys, [pinyin]] {
                        let sorted = try SortEngine.permutation(of: rows, in: table, by: used)
                        let values = used.map { key in table.values(ofColumn: table.columns.firstIndex { $0.identifier == key.column }!, rows: rows) }
                        let comparators = used.map { key -> CellValueComparator in
                            var text = TextComparator.natural
                            if case .text(let t) = key.comparator { text = t }
                            return CellValueComparator(text, order: key.direction == .ascending ? .forward : .reverse, nulls: key.nulls)
                        }
                        let expected = rows.indices.sorted { x, y in
                            for (k, comparator) in comparators.enumerated() {
                                let order = comparator.compare(values[k][x], values[k][y])
                                if order != .orderedSame { return order == .orderedAscending }
                            }
                            return x < y
                        }.map { rows[$0] }
                        #expect(sorted == expected, "round \(round), \(used.map(\.column)), \(rows == shuffled ? "shuffled" : "in order")")
                    }
                }
            }
        }
    }
}

extension GridSortingTests {
    /// `/` in the viewer: the next displayed row containing a text, against the plain loop over
    /// the displayed rows, with pins, summaries, a recomputed row and small chunks.
    @Test(
        "finding the next row that contains a text gives what a walk down the displayed rows gives",
        arguments: GridFixture.modes)
    func findNext(mode: DataGrid.Mode) throws {
        var rng = SeededRandom(seed: 41)
        let words = ["组1", "组10", "组2", "平均", "x", "组", "é", "e\u{301}", ""]
        for round in 0..<12 {
            try Tuning.$current.withValue(Tuning(workers: 3, minimumChunk: 5)) {
                let rows: [[CellValue]] = (0..<Int.random(in: 0...60, using: &rng)).map { _ in
                    let w = words.randomElement(using: &rng)!
                    return [w.isEmpty ? .missing : .text(w), .decimal(Double(Int.random(in: 0...20, using: &rng)) / 2)]
                }
                let grid = GridFixture.grid(mode, columns: [Column("组号"), Column("分数", type: .decimal)], rows: rows)
                try grid.pin(.matching(column: "组号", value: "平均"), at: .bottom, recomputing: round % 2 == 0 ? .mean : nil)
                if round % 3 == 0 { try grid.addSummary(SummaryRow(.mean, columns: ["分数"], edge: round % 2 == 1 ? .top : .bottom, label: "平均值")) }
                try grid.sort(by: [SortKey("分数", round % 2 == 0 ? .ascending : .descending)])
                let count = grid.displayedRowCount
                for query in ["组1", "组", "平均", "1", "e\u{301}", "é", "5", "zz"] {
                    for column in 0..<2 {
                        for after in [-1, 0, count / 2, count - 1] {
                            let expected = firstMatch(count: count, after: after) { index in
                                grid.displayedRow(at: index).map { grid.text($0, column: column).utf8.containsRun(query.utf8) } ?? false
                            }
                            #expect(
                                grid.displayIndex(ofRowContaining: query, column: column, after: after) == expected,
                                "\(mode) round \(round) \(query) col \(column) after \(after)")
                        }
                    }
                }
            }
        }
    }
}

extension GridSortingTests {
    @Test("pinning rows after a sort keeps the rest in the order a fresh sort gives", arguments: GridFixture.modes)
    func pinAfterSort(mode: DataGrid.Mode) throws {
        var rng = SeededRandom(seed: 53)
        for round in 0..<16 {
            let rows: [[CellValue]] = (0..<Int.random(in: 1...80, using: &rng)).map { _ in
                [
                    .text(["组1", "组2", "组10", "平均"].randomElement(using: &rng)!),
                    Int.random(in: 0..<5, using: &rng) == 0 ? .missing : .integer(Int.random(in: 0...6, using: &rng)),
                ]
            }
            let columns = [Column("组号"), Column("分数", type: .integer)]
            let keys = [SortKey("分数", round % 2 == 0 ? .ascending : .descending), SortKey("组号", .descending)]
            let pins: [(RowPin, PinEdge)] = [
                (.row(Int.random(in: 0..<rows.count, using: &rng)), .top),
                (.matching(column: "组号", value: "平均"), .bottom),
                (.row(Int.random(in: 0..<rows.count, using: &rng)), .bottom),
            ]
            let grid = GridFixture.grid(mode, columns: columns, rows: rows)
            try grid.sort(by: keys)
            for (pin, region) in pins { try grid.pin(pin, at: region) }
            let fresh = GridFixture.grid(mode, columns: columns, rows: rows)
            for (pin, region) in pins { try fresh.pin(pin, at: region) }
            try fresh.sort(by: keys)
            #expect(grid.displayedRows == fresh.displayedRows, "\(mode) round \(round)")
            #expect(grid.bodyRows == fresh.bodyRows)
        }
    }
}

/// Rows an app keeps and changes behind a virtual grid.
final class RowsBox: @unchecked Sendable {
    var rows: [[CellValue]] = []
}
