import Foundation
import Testing
import TrellisTestSupport

@testable import TrellisGrid

/// Subtotal groups: how their labels read, how a sheet's rows fall into groups, how a grouped
/// order sorts, and how its subtotal and total rows are checked and recomputed.
@Suite("subtotal groups")
struct RowGroupsTests {
    static func table(_ csv: String) throws -> Table { try CSV.table(Data(csv.utf8)) }

    /// The display's first column, row by row.
    static func labels(_ order: DisplayOrder, _ table: Table, column: Int = 0) -> [String] {
        (0..<order.count).compactMap { index -> String? in
            guard case .source(let row)? = order.row(at: index) else { return nil }
            return table.text(row: row, column: column)
        }
    }

    @Test(
        "labels read as the programs write them",
        arguments: [
            ("华东 汇总", SubtotalLabel.subtotal(group: "华东", .sum)),
            ("华东汇总", .subtotal(group: "华东", .sum)),
            ("华北 求和", .subtotal(group: "华北", .sum)),
            ("华东 结果", .subtotal(group: "华东", nil)),
            ("North Total", .subtotal(group: "North", .sum)),
            ("North Result", .subtotal(group: "North", nil)),
            ("华南 平均值", .subtotal(group: "华南", .mean)),
            ("小计", .subtotal(group: "", .sum)),
            ("总计", .grandTotal(.sum)),
            ("总计 求和", .grandTotal(.sum)),
            ("总计 平均值", .grandTotal(.mean)),
            ("Grand Total", .grandTotal(.sum)),
            ("Grand Sum", .grandTotal(.sum)),
            ("Gesamtergebnis", .grandTotal(.sum)),
        ])
    func labelsRead(text: String, expected: SubtotalLabel) {
        #expect(SubtotalLabel(text) == expected)
        // The quick check on bytes lets every subtotal label through.
        if case .subtotal = expected {
            var bytes = Array((text + "  ").utf8)
            #expect(bytes.withUnsafeMutableBufferPointer { SubtotalLabel.mayBe(UnsafeBufferPointer($0)) })
        }
    }

    @Test("other texts are not subtotal labels", arguments: ["华东", "Subtotals due", "Cost", "Total", "Sum", "组1", "", "上海市"])
    func notLabels(text: String) {
        #expect(SubtotalLabel(text) == nil)
    }

    @Test(
        "the quick check on bytes turns away names and numbers without reading them as labels", arguments: ["张伟", "Shanghai", "12.5", "", "  ", "John Smith"])
    func quickCheck(text: String) {
        var bytes = Array(text.utf8)
        #expect(!bytes.withUnsafeMutableBufferPointer { SubtotalLabel.mayBe(UnsafeBufferPointer($0)) })
    }

    static let sales = """
        地区,城市,销售额
        华东,上海,300
        华东,杭州,100
        华东,南京,200
        华东 汇总,,600
        华北,北京,500
        华北,天津,50
        华北 汇总,,550
        总计,,1150

        """

    @Test("a subtotal sheet is found by its label column and sorts within its groups")
    func sortsWithinGroups() throws {
        let table = try Self.table(Self.sales)
        let grouping = try #require(RowGrouping.detect(in: table))
        #expect(grouping.column == "地区")
        let order = try DisplayOrder(
            source: table, plan: SortPlan(keys: [SortKey("销售额", .descending)], grouping: grouping))
        #expect(Self.labels(order, table, column: 1) == ["上海", "南京", "杭州", "", "北京", "天津", "", ""])
        #expect(Self.labels(order, table) == ["华东", "华东", "华东", "华东 汇总", "华北", "华北", "华北 汇总", "总计"])
        #expect(order.pinnedBottom == [7])
        #expect(order.subtotalRows == [3, 6])
        #expect(order.summaryDisagreements.isEmpty, "\(order.summaryDisagreements)")
        // Without the grouping the subtotals sort into the body, as they did.
        let flat = try DisplayOrder(source: table, plan: SortPlan(keys: [SortKey("销售额", .descending)]))
        #expect(Self.labels(flat, table).first == "总计")
    }

    @Test("the groups ordered by their subtotals or their labels, in the first key's direction")
    func groupOrders() throws {
        let table = try Self.table(Self.sales)
        let bySubtotal = try DisplayOrder(
            source: table,
            plan: SortPlan(keys: [SortKey("销售额", .ascending)], grouping: RowGrouping(column: "地区", order: .subtotal)))
        #expect(Self.labels(bySubtotal, table) == ["华北", "华北", "华北 汇总", "华东", "华东", "华东", "华东 汇总", "总计"])
        let byLabel = try DisplayOrder(
            source: table,
            plan: SortPlan(keys: [SortKey("销售额", .descending)], grouping: RowGrouping(column: "地区", order: .label)))
        // 华北 (U+5317) after 华东 (U+4E1C): descending puts it first.
        #expect(Self.labels(byLabel, table).prefix(3) == ["华北", "华北", "华北 汇总"])
    }

    @Test("subtotal rows above their groups stay above them; a bare 小计 closes the run above it")
    func placements() throws {
        let above = try Self.table("地区,值\n华东 汇总,5\n华东,2\n华东,3\n华北 汇总,9\n华北,4\n华北,5\n")
        let groups = RowGroups(source: above, column: 0)
        #expect(groups.groups.map(\.subtotals) == [[0], [3]])
        #expect(groups.groups.map(\.rows) == [[1, 2], [4, 5]])
        #expect(groups.groups.allSatisfy { $0.subtotalsFirst })
        let order = try DisplayOrder(
            source: above, plan: SortPlan(keys: [SortKey("值", .descending)], grouping: RowGrouping(column: "地区")))
        #expect(Self.labels(order, above, column: 1) == ["5", "3", "2", "9", "5", "4"])

        let bare = try Self.table("组,值\nA,1\nA,2\n小计,3\nB,5\nB,6\n小计,11\n合计,14\n")
        let found = RowGroups(source: bare, column: 0)
        #expect(found.groups.map(\.rows) == [[0, 1], [3, 4]])
        #expect(found.groups.map(\.subtotals) == [[2], [5]])
        #expect(found.grandTotals.map(\.row) == [6])
        #expect(RowGrouping.detect(in: bare)?.column == "组")
    }

    @Test("a subtotal is checked against its own group's rows, a grand total against every group's rows, never the subtotals")
    func checks() throws {
        // 华北 汇总 is stale (says 500, its rows give 550); the grand total is right (1150, not
        // 1150 + the subtotals).
        let table = try Self.table(Self.sales.replacingOccurrences(of: "华北 汇总,,550", with: "华北 汇总,,500"))
        let order = try DisplayOrder(source: table, plan: SortPlan(grouping: RowGrouping(column: "地区")))
        #expect(order.summaryDisagreements.count == 1)
        let disagreement = try #require(order.summaryDisagreements.first)
        #expect(disagreement.row == 6)
        #expect(disagreement.says == "500")
        #expect(disagreement.computed == "550")
    }

    @Test("a 合计 row's rate is a ratio of its row's sums, and a share rounded cell by cell still totals 100%")
    func ratiosAndShares() throws {
        // Shares rounded to 0.1% each add up to 99.9%; the total's 100.0% is right. 利润率 is
        // 利润/收入 of the total row (26/260 = 10.0%), not the sum of the rates (35.0%).
        let csv = """
            部门,收入,利润,利润率,占比
            A,100,15,15.0%,33.3%
            B,100,5,5.0%,33.3%
            C,60,6,10.0%,33.3%
            合计,260,26,10.0%,100.0%

            """
        let table = try Self.table(csv)
        let plan = SortPlan(keys: [SortKey("利润")], pins: [.init(.matching(column: "部门", value: "合计"), at: .bottom)])
        let order = try DisplayOrder(source: table, plan: plan)
        #expect(order.summaryDisagreements.isEmpty, "\(order.summaryDisagreements)")
        #expect(order.uncheckedSummaryCells.isEmpty, "\(order.uncheckedSummaryCells)")

        // Recomputed: the rate as the ratio of the recomputed sums, never the sum of the rates.
        var recompute = plan
        recompute.pins[0].recomputing = .sum
        let recomputed = try DisplayOrder(source: table, plan: recompute)
        #expect(recomputed.recomputedCell(row: 3, column: 3)?.text == "10.0%")
        #expect(recomputed.recomputedCell(row: 3, column: 1)?.text == "260")
    }

    @Test("a rate whose meaning cannot be established is left: not flagged, never recomputed")
    func unknownRatesLeft() throws {
        // 及格率's 合计 (90%) is neither the sum of the rates nor a ratio of two cells of the row.
        let csv = "班级,人数,及格率\n一班,40,80%\n二班,50,70%\n合计,90,90%\n"
        let table = try Self.table(csv)
        var plan = SortPlan(keys: [SortKey("人数")], pins: [.init(.matching(column: "班级", value: "合计"), at: .bottom)])
        let order = try DisplayOrder(source: table, plan: plan)
        #expect(order.summaryDisagreements.isEmpty)
        #expect(order.uncheckedSummaryCells.map(\.column) == ["及格率"])
        plan.pins[0].recomputing = .sum
        let recomputed = try DisplayOrder(source: table, plan: plan)
        #expect(recomputed.recomputedCell(row: 2, column: 2) == nil)
        #expect(recomputed.recomputedCell(row: 2, column: 1)?.text == "90")
        #expect(recomputed.uncheckedSummaryCells.map(\.column) == ["及格率"])
    }

    @Test("property: a grouped sort keeps each group's rows a permutation of themselves, its subtotals with it, and changes no cell", arguments: 1...12)
    func property(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(seed))
        let groupCount = Int.random(in: 1...12, using: &random)
        var csv = "组,值,备注,级\n"
        var expectedGroups: [[Int]] = []
        var row = 0
        for g in 0..<groupCount {
            var rows: [Int] = []
            var sum = 0
            for _ in 0..<Int.random(in: 1...9, using: &random) {
                let value = Int.random(in: -50...50, using: &random)
                let blank = Int.random(in: 0..<6, using: &random) == 0
                csv += "G\(g),\(blank ? "" : String(value)),n\(row),\(["甲", "乙", ""].randomElement(using: &random)!)\n"
                sum += blank ? 0 : value
                rows.append(row)
                row += 1
            }
            csv += "G\(g) 汇总,\(sum),,\n"
            expectedGroups.append(rows)
            row += 1
        }
        csv += "总计,0,,\n"
        let table = try Self.table(csv)
        let direction: SortDirection = Bool.random(using: &random) ? .ascending : .descending
        // Half the time by two keys (级 first): the runs are sorted by each in turn.
        let keys = Bool.random(using: &random) ? [SortKey("级", direction), SortKey("值", direction)] : [SortKey("值", direction)]
        var plan = SortPlan(
            keys: keys,
            grouping: RowGrouping(column: "组", order: RowGrouping.GroupOrder.allCases.randomElement(using: &random)!))
        // Half the time with a SortCompare hook that leaves every pair to the key: the groups'
        // rows are then sorted alone, and the hook is never asked about a subtotal row.
        let summaryRows = Set((0..<table.rowCount).filter { table.text(row: $0, column: 0).contains("汇总") || table.text(row: $0, column: 0) == "总计" })
        let asked = Box<Set<Int>>([])
        if Bool.random(using: &random) {
            plan.custom = .compareHook { arguments in
                asked.value.formUnion([arguments.row1, arguments.row2])
                return nil
            }
        }
        let order = try DisplayOrder(source: table, plan: plan)
        #expect(asked.value.isDisjoint(with: summaryRows))
        let groups = try #require(order.groups)
        #expect(groups.groups.map(\.rows) == expectedGroups)
        // The body is each group's rows (in some order) then its subtotal, group after group.
        var position = 0
        var seen = Set<Int>()
        while position < order.body.count {
            let first = order.body[position]
            let g = try #require(groups.groups.firstIndex { $0.rows.contains(first) })
            let group = groups.groups[g]
            let run = (position..<position + group.rows.count).map { order.body[$0] }
            #expect(Set(run) == Set(group.rows))
            // Exactly the group's rows sorted on their own (ties in source order).
            #expect(run == (try SortEngine.permutation(of: group.rows, in: table, by: keys)))
            #expect(order.body[position + group.rows.count] == group.subtotals[0])
            #expect(seen.insert(g).inserted)
            // Within the group, sorted by the key (blanks last).
            let values = run.map { table.value(row: $0, column: 1) }
            let present = values.filter { !$0.isMissing }.compactMap(\.number)
            if keys.count == 1 {
                #expect(present == (direction == .ascending ? present.sorted() : present.sorted(by: >)))
                #expect(values.drop { !$0.isMissing }.allSatisfy { $0.isMissing })
            }
            position += group.rows.count + 1
        }
        #expect(seen.count == groupCount)
        #expect(order.pinnedBottom == [table.rowCount - 1])
        // The grand total says 0: flagged against the groups' rows (never counting a subtotal).
        let detailSum = expectedGroups.joined().reduce(0) { $0 + Int(table.value(row: $1, column: 1).number ?? 0) }
        let totalFlag = order.summaryDisagreements.first { $0.row == table.rowCount - 1 }
        #expect((totalFlag == nil) == (detailSum == 0))
        if let totalFlag { #expect(totalFlag.computed == String(detailSum)) }
        // No subtotal is flagged: each is its group's sum.
        #expect(order.summaryDisagreements.allSatisfy { $0.row == table.rowCount - 1 })
    }

    @Test("a grid keeps its grouping through header sorts, and refuses a grouping column it lacks", arguments: GridFixture.modes)
    func grid(mode: DataGrid.Mode) throws {
        let table = try Self.table(Self.sales)
        let rows = (0..<table.rowCount).map { row in table.columns.indices.map { table.value(row: row, column: $0) } }
        let grid = GridFixture.grid(mode, columns: table.columns, rows: rows)
        try grid.setGrouping(RowGrouping(column: "地区"))
        try grid.sort(by: [SortKey("销售额", .ascending)])
        #expect(GridFixture.column(grid, 1) == ["杭州", "南京", "上海", "", "天津", "北京", "", ""])
        #expect(grid.plan.grouping == RowGrouping(column: "地区"))
        #expect(throws: SortError.self) { try grid.setGrouping(RowGrouping(column: "省份")) }
        #expect(grid.grouping == RowGrouping(column: "地区"))
        try grid.setGrouping(nil)
        #expect(GridFixture.column(grid, 0).first == "华北")
    }
}

/// A value a closure changes.
final class Box<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

extension RowGroupsTests {
    @Test("a file's head without a word of a subtotal label is passed over; one with such a word is looked at")
    func wordsInAHead() {
        #expect(!SubtotalLabel.mayAppear(in: Array("name,score\n张伟,88\nitem10,5\n".utf8)))
        #expect(SubtotalLabel.mayAppear(in: Array("地区,值\n华东,1\n华东 汇总,1\n".utf8)))
        #expect(SubtotalLabel.mayAppear(in: Array("Region,Sales\nNorth,1\nNorth Total,1\n".utf8)))
        // A word that starts with a space, found wherever it stands; not at the very start of
        // the text, where no space is before it; not in a text of many spaces without it.
        #expect(SubtotalLabel.mayAppear(in: Array("a b c d,1\nEast Sum,2".utf8)))
        #expect(!SubtotalLabel.mayAppear(in: Array("Total of it,1\n".utf8)))
        #expect(!SubtotalLabel.mayAppear(in: Array(String(repeating: "a b T o t a l S u m ", count: 2000).utf8)))
        #expect(SubtotalLabel.mayAppear(in: Array("a\n华东 结果,1".utf8)))
        #expect(!SubtotalLabel.mayAppear(in: []))
        // The words at the very end, and a word cut short there.
        #expect(SubtotalLabel.mayAppear(in: Array("x,1\n合计".utf8)))
        #expect(SubtotalLabel.mayAppear(in: Array("x Sum".utf8)))
        #expect(!SubtotalLabel.mayAppear(in: Array("x,1\nNorth Tota".utf8)))
        #expect(!SubtotalLabel.mayAppear(in: Array("合".utf8)))
        // A file's head, looked through in halves at once: a word or a byte that is not UTF-8 in
        // either half, at either side of the cut.
        let lines = String(repeating: "张伟,88,item10\n", count: 6000)
        #expect(!SubtotalLabel.mayAppear(inFileHead: Array(lines.utf8)))
        #expect(SubtotalLabel.mayAppear(inFileHead: Array((lines + "华东 汇总,1\n").utf8)))
        #expect(SubtotalLabel.mayAppear(inFileHead: Array(("华东 汇总,1\n" + lines).utf8)))
        for at in [0, lines.utf8.count / 2 - 1, lines.utf8.count / 2, lines.utf8.count / 2 + 1, lines.utf8.count - 1] {
            var bytes = Array(lines.utf8)
            bytes[at] = 0xFF
            #expect(SubtotalLabel.mayAppear(inFileHead: bytes), "a byte that is not UTF-8 at \(at)")
        }
        let middle = lines.utf8.count / 2
        let split =
            String(decoding: Array(lines.utf8)[..<middle], as: UTF8.self) + "North Total,1\n" + String(decoding: Array(lines.utf8)[middle...], as: UTF8.self)
        #expect(SubtotalLabel.mayAppear(inFileHead: Array(split.utf8)), "a word at the middle")
    }

    @Test("property: a head holds a word exactly where a search for each word finds one", arguments: 1...8)
    func wordsFoundAsASearchFindsThem(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed))
        // Pieces of the words and their neighbours: most texts come near a word, some hold one.
        let pieces = [
            "汇", "总", "求和", "小", "计", "合", " ", "T", "otal", " Tot", "al", "Sum", "s", "um", "Grand", "结果", "平均", "值", ",", "\n", "a", "Ergeb", "nis",
        ]
        let words = [
            "汇总", "求和", "小计", "合计", "结果", "总计", "平均值", "计数", "最大值", "最小值", " Total", " Sum", " Result", " Average",
            " Count", "Subtotal", "Grand ", "Ergebnis", " Summe", " Somme", " Suma", " total", " sum", " result",
        ]
        for _ in 0..<300 {
            let text = (0..<Int.random(in: 0...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            #expect(
                SubtotalLabel.mayAppear(in: Array(text.utf8))
                    == words.contains { text.utf8.count >= $0.utf8.count && Array(text.utf8).firstRange(of: Array($0.utf8)) != nil }, "\(text)")
        }
    }
}

extension RowGroupsTests {
    @Test("a sheet whose first group is longer than the rows looked at first is found by the subtotal at its end")
    func longFirstGroup() throws {
        var csv = "地区,值\n"
        for r in 0..<120_000 { csv += "华东,\(r % 7)\n" }
        csv += "华东 汇总,1\n华北,2\n华北 汇总,2\n"
        let table = try Self.table(csv)
        #expect(RowGrouping.detect(in: table)?.column == "地区")
        // Neither at the start nor at the end: told with --group-by.
        csv += String(repeating: "其他,1\n", count: 20_000)
        #expect(RowGrouping.detect(in: try Self.table(csv)) == nil)
    }
}

extension RowGroupsTests {
    /// A GROUP BY ROLLUP(地区, 产品) report: SUM(销售额), MAX(单价) and AVG(销售额) per region, its
    /// subtotals after (or before) the products, the grand total last (or first).
    static func rollup(subtotalsFirst: Bool = false, null: String = "") -> String {
        let regions: [(String, [(String, Int, Int)])] = [
            ("华东", [("冰箱", 800, 2500), ("电视", 1510, 3000), ("空调", 2300, 4100)]),
            ("华北", [("冰箱", 1990, 2600), ("电视", 640, 2800)]),
        ]
        var lines: [String] = []
        var all = 0, allMax = 0, count = 0
        for (region, products) in regions {
            let sum = products.reduce(0) { $0 + $1.1 }, top = products.map(\.2).max()!
            let mean = String(format: "%.2f", Double(sum) / Double(products.count))
            let rows = products.map { "\(region),\($0.0),\($0.1),\($0.2),\($0.1).00" }
            let subtotal = "\(region),\(null),\(sum),\(top),\(mean)"
            lines += subtotalsFirst ? [subtotal] + rows : rows + [subtotal]
            all += sum
            allMax = max(allMax, top)
            count += products.count
        }
        let total = "\(null),\(null),\(all),\(allMax),\(String(format: "%.2f", Double(all) / Double(count)))"
        lines = subtotalsFirst ? [total] + lines : lines + [total]
        return "地区,产品,销售额,最高单价,平均额\n" + lines.joined(separator: "\n") + "\n"
    }

    @Test("SQL's ROLLUP shape: a subtotal row leaves the detail column blank or NULL; found, grouped, each cell checked as the function it agrees with")
    func rolledUp() throws {
        for (first, null) in [(false, ""), (true, "NULL"), (false, "\\N")] {
            let table = try Self.table(Self.rollup(subtotalsFirst: first, null: null))
            let grouping = try #require(RowGrouping.detect(in: table))
            #expect(grouping == RowGrouping(column: "地区", detail: "产品"))
            let order = try DisplayOrder(source: table, plan: SortPlan(keys: [SortKey("销售额", .descending)], grouping: grouping))
            let groups = try #require(order.groups)
            #expect(groups.groups.map(\.label) == ["华东", "华北"])
            #expect(groups.groups.map(\.rows.count) == [3, 2])
            #expect(groups.groups.allSatisfy { $0.subtotalsFirst == first && $0.functions == [nil] })
            #expect(groups.grandTotals.map(\.row) == [first ? 0 : table.rowCount - 1])
            // SUM, MAX and AVG each agree with one of the functions: nothing flagged, nothing left.
            #expect(order.summaryDisagreements.isEmpty)
            #expect(order.uncheckedSummaryCells.isEmpty, "\(order.uncheckedSummaryCells)")
            let shown = Self.labels(order, table, column: 2)
            #expect(
                shown
                    == (first
                        ? ["7240", "4610", "2300", "1510", "800", "2630", "1990", "640"] : ["2300", "1510", "800", "4610", "1990", "640", "2630", "7240"]))
            #expect(groups.label(ofSummaryRow: groups.groups[0].subtotals[0], in: table) == "华东 (产品 \(null.isEmpty ? "blank" : null))")
        }
    }

    @Test("a ROLLUP subtotal that no function of its rows gives is left unchecked, never flagged as stale")
    func rolledUpUnknown() throws {
        let csv = Self.rollup().replacingOccurrences(of: "华北,,2630,", with: "华北,,2631,")
        let table = try Self.table(csv)
        let order = try DisplayOrder(source: table, plan: SortPlan(keys: [SortKey("销售额")], grouping: RowGrouping(column: "地区", detail: "产品")))
        #expect(order.summaryDisagreements.isEmpty)
        #expect(order.uncheckedSummaryCells.map(\.column) == ["销售额"])
        #expect(order.uncheckedSummaryCells.first?.label == "华北 (产品 blank)")
    }

    @Test("COALESCE's words in the detail column (小计, 全部, All) mark subtotal rows, not a bare 小计 closing each product")
    func rolledUpWords() throws {
        for word in ["小计", "全部", "All", "Total"] {
            let table = try Self.table(Self.rollup(null: word).replacingOccurrences(of: "\(word),\(word),", with: "总计,\(word),"))
            #expect(RowGrouping.detect(in: table) == RowGrouping(column: "地区", detail: "产品"), "\(word)")
            let groups = RowGroups(source: table, column: 0, detail: 1)
            #expect(groups.groups.map(\.subtotals) == [[3], [6]])
            #expect(groups.grandTotals.map(\.row) == [7])
        }
        // Blanks that are only missing values: inside a run, or closing one group only.
        let inside = try Self.table("姓名,城市,分数\n张三,北京,1\n张三,,2\n张三,上海,3\n李四,广州,4\n李四,,5\n李四,深圳,6\n")
        #expect(RowGrouping.detect(in: inside) == nil)
        let once = try Self.table("姓名,城市,分数\n张三,北京,1\n张三,,2\n李四,广州,4\n李四,深圳,6\n")
        #expect(RowGrouping.detect(in: once) == nil)
    }

    @Test("a grid keeps a ROLLUP grouping through header sorts in every mode; a detail column it lacks is refused", arguments: GridFixture.modes)
    func rolledUpGrid(mode: DataGrid.Mode) throws {
        let table = try Self.table(Self.rollup())
        let rows = (0..<table.rowCount).map { row in table.columns.indices.map { table.value(row: row, column: $0) } }
        let grid = GridFixture.grid(mode, columns: table.columns, rows: rows)
        try grid.setGrouping(RowGrouping(column: "地区", detail: "产品"))
        try grid.sort(by: [SortKey("销售额", .ascending)])
        #expect(GridFixture.column(grid, 1) == ["冰箱", "电视", "空调", "", "电视", "冰箱", "", ""])
        #expect(throws: SortError.self) { try grid.setGrouping(RowGrouping(column: "地区", detail: "型号")) }
    }
}
