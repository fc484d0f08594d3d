import Foundation
import Testing
import TrellisCLI
import TrellisTestSupport

/// `trellis sort` on sheets with structure made by LibreOffice: 分类汇总 subtotal groups and a
/// 合计 row whose rate column is a ratio (see `Fixtures/Groups/README.md`).
@Suite("trellis sort on subtotal groups and totals")
struct GroupCommandTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/Groups")

    func run(_ arguments: [String], file: String) throws -> (status: Int32, stdout: String, stderr: String) {
        let result = try runInScratch(arguments, files: ["in.csv": Data(contentsOf: Self.fixtures.appendingPathComponent(file))])
        return (result.status, result.stdout, result.stderr)
    }

    /// The CSV output's records, as lines.
    static func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    @Test("LibreOffice's 分类汇总: found, announced, sorted within each group; the subtotals and the total stay; nothing flagged")
    func libreOfficeSubtotals() throws {
        let result = try run(["sort", "in.csv", "--by", "销售额:desc", "--format", "csv"], file: "libreoffice-zh-subtotals.csv")
        #expect(result.status == 0)
        #expect(
            Self.lines(result.stdout) == [
                "\"地区\",\"城市\",\"销售额\",\"利润\"",
                "\"华东\",\"上海\",125000.5,15000.25", "\"华东\",\"杭州\",98000,9100.1", "\"华东\",\"南京\",76543.21,6000",
                "\"华东 结果\",,299543.71,30100.35",
                "\"华北\",\"北京\",150000,18000", "\"华北\",\"天津\",64000.4,5100.2",
                "\"华北 结果\",,214000.4,23100.2",
                "\"华南\",\"深圳\",132000.1,16500.55", "\"华南\",\"广州\",88000,7900", "\"华南\",\"厦门\",45000,3000",
                "\"华南\",\"福州\",39000,2500",
                "\"华南 结果\",,304000.1,29900.55",
                "\"总计 求和\",,817544.21,83101.1",
            ])
        #expect(
            result.stderr
                == "note: 3 subtotal groups by 地区 (3 subtotal rows such as '华东 结果', 1 grand total): rows sort within their "
                + "groups, each subtotal row stays with its group and the groups keep their order; --no-groups sorts every row together\n")
    }

    @Test("the same sheet under --no-groups sorts its subtotal rows with the others, as before")
    func noGroups() throws {
        let result = try run(["sort", "in.csv", "--by", "销售额:desc", "--format", "csv", "--no-groups"], file: "libreoffice-zh-subtotals.csv")
        #expect(result.status == 0)
        #expect(Self.lines(result.stdout)[1] == "\"总计 求和\",,817544.21,83101.1")
        #expect(result.stderr.isEmpty)
    }

    @Test("an average subtotal (总计 平均值 names the function of the 结果 rows) is checked as a mean; groups ordered by their subtotals")
    func averageSubtotals() throws {
        let result = try run(
            ["sort", "in.csv", "--by", "利润", "--group-order", "subtotal", "--format", "csv"], file: "libreoffice-zh-subtotals-average.csv")
        #expect(result.status == 0)
        let lines = Self.lines(result.stdout)
        #expect(lines[5] == "\"华南 结果\",,76000.025,7475.1375")
        #expect(lines[9] == "\"华东 结果\",,99847.9033333333,10033.45")
        #expect(lines.last == "\"总计 平均值\",,90838.2455555556,9233.45555555556")
        #expect(!result.stderr.contains("warning"), "\(result.stderr)")
    }

    @Test("a stale subtotal is named against its own group's rows; the grand total is checked against the rows, not twice their sum")
    func staleSubtotal() throws {
        let text = try String(contentsOf: Self.fixtures.appendingPathComponent("libreoffice-zh-subtotals.csv"), encoding: .utf8)
        let stale = Data(text.replacingOccurrences(of: "\"华北 结果\",,214000.4", with: "\"华北 结果\",,213000.4").utf8)
        let result = try runInScratch(["sort", "in.csv", "--by", "利润", "--format", "csv"], files: ["in.csv": stale])
        #expect(result.status == 0)
        #expect(result.stderr.contains("warning: row 7: 华北 结果 says 213000.4 in 销售额; the sum of the other rows is 214000.4\n"), "\(result.stderr)")
        #expect(!result.stderr.contains("总计"), "\(result.stderr)")
        // The file's bytes are moved, never rewritten: the stale cell is as it was.
        #expect(result.stdout.contains("\"华北 结果\",,213000.4,23100.2"))
    }

    @Test("--group-by names the column; an unknown one, or with --no-groups, is a usage error")
    func explicitGrouping() throws {
        let given = try run(["sort", "in.csv", "--by", "销售额", "--group-by", "地区", "--format", "csv"], file: "libreoffice-en-subtotals.csv")
        #expect(given.status == 0)
        #expect(Self.lines(given.stdout)[4] == "\"华东 Result\",,299543.71,30100.35")
        #expect(given.stderr.isEmpty, "an explicit grouping is not announced: \(given.stderr)")
        let unknown = try run(["sort", "in.csv", "--group-by", "省份"], file: "libreoffice-en-subtotals.csv")
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("省份"))
        let both = try run(["sort", "in.csv", "--group-by", "地区", "--no-groups"], file: "libreoffice-en-subtotals.csv")
        #expect(both.status == 64)
        let order = try run(["sort", "in.csv", "--group-order", "size"], file: "libreoffice-en-subtotals.csv")
        #expect(order.status == 64)
    }

    @Test("a 合计 row's 利润率 is Σ利润/Σ收入 and its share totals 100%: nothing flagged; --recompute keeps the ratio a ratio")
    func ratioTotal() throws {
        let checked = try run(["sort", "in.csv", "--by", "利润:desc", "--pin-bottom", "部门=合计", "--format", "csv"], file: "libreoffice-zh-total-ratio.csv")
        #expect(checked.status == 0)
        #expect(checked.stderr.isEmpty, "\(checked.stderr)")
        let recomputed = try run(
            ["sort", "in.csv", "--by", "利润:desc", "--pin-bottom", "部门=合计", "--recompute", "labels", "--format", "csv"],
            file: "libreoffice-zh-total-ratio.csv")
        #expect(recomputed.status == 0)
        #expect(Self.lines(recomputed.stdout).last == "合计,\"3,345,677.88\",\"291,678.48\",8.7%,100.0%")
    }
}

extension GroupCommandTests {
    /// `trellis sort` of `csv` with `arguments` (the file is `in.csv`).
    func sort(_ csv: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let result = try runInScratch(["sort", "in.csv"] + arguments, files: ["in.csv": Data(csv.utf8)])
        return (result.status, result.stdout, result.stderr)
    }

    static let grades = "姓名,等级\n张三,良\n李四,优\n王五,差\n赵六,中\n"

    @Test("a column of 优良中差 sorts in that order, announced; :natural sorts it as text; :order= gives a list")
    func customLists() throws {
        let found = try sort(Self.grades, ["--by", "等级", "--format", "csv"])
        #expect(found.stdout == "姓名,等级\n李四,优\n张三,良\n赵六,中\n王五,差\n")
        #expect(found.stderr == "note: every value of 等级 is in the list 优, 良, 中, 差: sorted in that order; --by 等级:natural sorts them as text\n")
        let text = try sort(Self.grades, ["--by", "等级:natural", "--format", "csv"])
        #expect(text.stdout == "姓名,等级\n赵六,中\n李四,优\n王五,差\n张三,良\n")
        #expect(text.stderr.isEmpty)
        let given = try sort(Self.grades, ["--by", "等级:order=差,中,良,优:desc", "--format", "csv"])
        #expect(given.stdout == "姓名,等级\n李四,优\n张三,良\n赵六,中\n王五,差\n")
        let bad = try sort(Self.grades, ["--by", "等级:order=差,,优"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("each once"))
    }

    @Test("a sort in parts gives a listed order the same bytes as a sort at once")
    func listInParts() throws {
        var csv = "姓名,等级\n"
        for i in 0..<3000 { csv += "人\(i),\(["优", "良", "中", "差", "及格"][(i * 7) % 5])\n" }
        let once = try sort(csv, ["--by", "等级:order=优,良,及格,中,差", "--format", "csv"])
        let parts = try sort(csv, ["--by", "等级:order=优,良,及格,中,差", "--format", "csv", "--memory", "64K"])
        #expect(once.status == 0 && parts.status == 0, "\(parts.stderr)")
        #expect(once.stdout == parts.stdout)
        #expect(once.stdout.split(separator: "\n")[1].hasSuffix(",优"))
    }
}

extension GroupCommandTests {
    /// A sheet of 400 groups whose subtotal rows leave 利润 blank, except one far below the
    /// file's first 64 KB that says `利润` (given) there.
    static func longSheet(profitInGroup: Int, profit: String) -> Data {
        var csv = "地区,城市,销售额,利润\n"
        for g in 0..<400 {
            var sales = 0
            for r in 0..<10 {
                let value = (g * 37 + r * 11) % 500 + 1
                sales += value
                csv += "区\(g),城\(r),\(value),\(value % 7)\n"
            }
            csv += "区\(g) 汇总,,\(sales),\(g == profitInGroup ? profit : "")\n"
        }
        return Data(csv.utf8)
    }

    @Test("a subtotal far below the head with a number in a column the head's subtotals leave blank is still checked")
    func numberBelowTheHead() throws {
        let data = Self.longSheet(profitInGroup: 350, profit: "1")
        #expect(data.count > 1 << 16)
        let result = try runInScratch(["sort", "in.csv", "--by", "销售额:desc", "--format", "csv"], files: ["in.csv": data])
        #expect(result.status == 0)
        #expect(result.stderr.contains("区350 汇总 says 1 in 利润"), "\(result.stderr)")
        // A right one is not flagged, and the sort is the same as when every column is read.
        var profit = 0
        for r in 0..<10 { profit += ((350 * 37 + r * 11) % 500 + 1) % 7 }
        let right = try runInScratch(
            ["sort", "in.csv", "--by", "销售额:desc", "--format", "csv"], files: ["in.csv": Self.longSheet(profitInGroup: 350, profit: String(profit))])
        #expect(!right.stderr.contains("warning"), "\(right.stderr)")
        // (A pin makes the sort read every column; this one takes no row.)
        let whole = try runInScratch(
            ["sort", "in.csv", "--by", "销售额:desc", "--pin-top", "城市=无", "--format", "csv"],
            files: ["in.csv": Self.longSheet(profitInGroup: 350, profit: String(profit))])
        #expect(whole.status == 0)
        #expect(whole.stdout == right.stdout)
    }
}

extension GroupCommandTests {
    /// A sheet of `groups` groups of 10 rows, each closed by `区N 汇总` (group `stale` says one
    /// more than its rows), then a 总计 of every row (or of `total`).
    static func subtotalSheet(groups: Int, stale: Int? = nil, total: String? = nil) -> String {
        var csv = "地区,城市,销售额,利润\n"
        var all = 0, allProfit = 0
        for g in 0..<groups {
            var sales = 0, profit = 0
            for r in 0..<10 {
                let value = (g * 53 + r * 29) % 700 + 1
                sales += value
                profit += value % 13
                csv += "区\(g),城\(r),\(value),\(value % 13 / 10).\(value % 13 % 10)\n"
            }
            all += sales
            allProfit += profit
            let says = g == stale ? sales + 1 : sales
            csv += "区\(g) 汇总,,\(says),\(profit / 10).\(profit % 10)\n"
        }
        csv += "总计,,\(total ?? String(all)),\(allProfit / 10).\(allProfit % 10)\n"
        return csv
    }

    @Test("a subtotal sheet sorted in parts: the same bytes and the same notes and warnings as a sort at once")
    func groupsInParts() throws {
        for csv in [Self.subtotalSheet(groups: 300), Self.subtotalSheet(groups: 300, stale: 250, total: "1")] {
            for arguments in [["--by", "销售额:desc"], ["--by", "城市", "--by", "利润:desc"], ["--group-by", "地区", "--by", "利润"]] {
                let once = try sort(csv, arguments + ["--format", "csv"])
                let parts = try sort(csv, arguments + ["--format", "csv", "--memory", "64K"])
                #expect(once.status == 0 && parts.status == 0, "\(parts.stderr)")
                #expect(once.stdout == parts.stdout, "\(arguments)")
                #expect(once.stderr == parts.stderr, "\(arguments)")
            }
        }
        let stale = try sort(Self.subtotalSheet(groups: 300, stale: 250, total: "1"), ["--by", "销售额", "--format", "csv", "--memory", "64K"])
        #expect(stale.stderr.contains("区250 汇总 says"), "\(stale.stderr)")
        #expect(stale.stderr.contains("总计 says 1 in 销售额"), "\(stale.stderr)")
        // The groups stay in their order, each subtotal after its rows.
        let lines = stale.stdout.split(separator: "\n")
        #expect(lines[11].hasPrefix("区0 汇总,") && lines[22].hasPrefix("区1 汇总,") && lines.last!.hasPrefix("总计,"))
    }

    @Test("in parts, groups ordered by their subtotals or labels are refused with the reason; --no-groups sorts every row")
    func groupOrderInParts() throws {
        let csv = Self.subtotalSheet(groups: 300)
        let refused = try runInScratch(
            ["sort", "in.csv", "--by", "销售额", "--group-order", "subtotal", "--memory", "64K", "-o", "out.csv"], files: ["in.csv": Data(csv.utf8)])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("a sort in parts keeps subtotal groups in their order"), "\(refused.stderr)")
        #expect(refused.left.keys.sorted() == ["in.csv"], "a refused sort leaves nothing behind")
        let flat = try sort(csv, ["--by", "销售额:desc", "--no-groups", "--format", "csv", "--memory", "64K"])
        #expect(flat.status == 0)
        #expect(flat.stdout.split(separator: "\n")[1].hasPrefix("总计,"))
    }
}

extension GroupCommandTests {
    @Test("property: sheets of every subtotal shape sort in parts to the bytes and messages of a sort at once", arguments: 1...5)
    func shapesInParts(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(seed * 7919))
        var csv = "地区,名称,金额\n"
        let grandAtTop = Bool.random(using: &random)
        if grandAtTop { csv += "总计,,1\n" }
        for g in 0..<Int.random(in: 150...250, using: &random) {
            let first = Int.random(in: 0..<5, using: &random) == 0
            let bare = Int.random(in: 0..<6, using: &random) == 0
            var sum = 0
            var rows = ""
            for r in 0..<Int.random(in: 1...14, using: &random) {
                let value = Int.random(in: -500...500, using: &random)
                sum += value
                // A blank label continues the run.
                let label: String = r > 0 && Int.random(in: 0..<7, using: &random) == 0 ? "" : "组\(g)"
                rows += "\(label),项\(r),\(value)\n"
            }
            let says = Int.random(in: 0..<20, using: &random) == 0 ? sum + 3 : sum
            let subtotal: String = bare && !first ? "小计,,\(says)\n" : "组\(g) 汇总,,\(says)\n"
            csv += first ? subtotal + rows : rows + subtotal
        }
        if !grandAtTop { csv += "总计,,0\n" }
        let direction = Bool.random(using: &random) ? "金额" : "金额:desc"
        let once = try sort(csv, ["--by", direction, "--format", "csv"])
        let parts = try sort(csv, ["--by", direction, "--format", "csv", "--memory", "64K"])
        #expect(once.status == 0 && parts.status == 0, "\(parts.stderr)")
        #expect(once.stdout == parts.stdout)
        #expect(once.stderr == parts.stderr)
        #expect(once.stderr.contains("subtotal groups by 地区"), "\(once.stderr)")
    }
}

extension GroupCommandTests {
    @Test("a first group longer than the file's first megabyte is found by its last subtotal and grand total, at once and in parts")
    func groupLongerThanTheHead() throws {
        var csv = "地区,城市,销售额\n"
        var east = 0
        for r in 0..<80_000 {
            let value = (r * 37) % 900 + 1
            east += value
            csv += "华东,城\(r),\(value)\n"
        }
        csv += "华东 汇总,,\(east)\n华北,甲,5\n华北,乙,9\n华北 汇总,,14\n总计,,\(east + 14)\n"
        #expect(csv.utf8.count > 1 << 20)
        let once = try sort(csv, ["--by", "销售额:desc", "--format", "csv"])
        #expect(once.status == 0)
        #expect(once.stderr.hasPrefix("note: 2 subtotal groups by 地区"), "\(once.stderr)")
        let lines = Self.lines(once.stdout)
        #expect(lines[80_001] == "华东 汇总,,\(east)")
        #expect(lines.suffix(4) == ["华北,乙,9", "华北,甲,5", "华北 汇总,,14", "总计,,\(east + 14)"])
        let parts = try sort(csv, ["--by", "销售额:desc", "--format", "csv", "--memory", "1M"])
        #expect(parts.status == 0)
        #expect(parts.stdout == once.stdout)
        #expect(parts.stderr == once.stderr)
    }
}

extension GroupCommandTests {
    @Test("DuckDB's GROUP BY ROLLUP: found by the blank 产品 of its subtotal rows, sorted within; each cell agrees with a function or a ratio")
    func duckdbRollup() throws {
        let result = try run(["sort", "in.csv", "--by", "销售额:desc", "--format", "csv"], file: "duckdb-rollup.csv")
        #expect(result.status == 0)
        #expect(
            Self.lines(result.stdout) == [
                "地区,产品,销售额,数量,订单数,平均单笔",
                "华东,空调,2300.25,5,1,2300.25", "华东,电视,1510.50,4,2,755.25", "华东,冰箱,800.00,2,1,800.0", "华东,,4610.75,11,4,1152.69",
                "华北,冰箱,1990.10,4,1,1990.1", "华北,电视,640.00,2,1,640.0", "华北,洗衣机,120.00,1,1,120.0", "华北,,2750.10,7,3,916.7",
                "华南,空调,3100.00,6,1,3100.0", "华南,洗衣机,410.40,2,1,410.4", "华南,电视,150.00,1,1,150.0", "华南,冰箱,77.70,1,1,77.7",
                "华南,,3738.10,10,4,934.52",
                ",,11098.95,28,11,1009.0",
            ])
        // 平均单笔 is each region's 销售额 / 订单数 (not the mean of the products' means): nothing flagged, nothing left.
        #expect(
            result.stderr
                == "note: 3 subtotal groups by 地区 (SQL's ROLLUP shape, a subtotal row leaving 产品 blank or NULL: 3 subtotal rows such as "
                + "'华东 (产品 blank)', 1 grand total): rows sort within their groups, each subtotal row stays with its group and the "
                + "groups keep their order; --no-groups sorts every row together\n")
        // Named, the same; --no-groups sorts the subtotal rows among the products.
        let named = try run(["sort", "in.csv", "--by", "销售额:desc", "--format", "csv", "--group-by", "地区,产品"], file: "duckdb-rollup.csv")
        #expect(named.stdout == result.stdout)
        #expect(named.stderr.isEmpty)
        let flat = try run(["sort", "in.csv", "--by", "销售额:desc", "--format", "csv", "--no-groups"], file: "duckdb-rollup.csv")
        #expect(Self.lines(flat.stdout)[1] == ",,11098.95,28,11,1009.0")
        let twice = try run(["sort", "in.csv", "--by", "销售额", "--group-by", "地区,地区"], file: "duckdb-rollup.csv")
        #expect(twice.status == 64)
        #expect(twice.stderr.contains("names one column twice"), "\(twice.stderr)")
    }

    @Test("DuckDB's GROUPING SETS written NULL first: the grand total and each subtotal stay above their rows")
    func duckdbGroupingSetsFirst() throws {
        let result = try run(["sort", "in.csv", "--by", "数量", "--format", "csv"], file: "duckdb-grouping-sets-null-first.csv")
        #expect(result.status == 0)
        #expect(
            Self.lines(result.stdout) == [
                "地区,产品,销售额,数量",
                "NULL,NULL,11098.95,28",
                "华东,NULL,4610.75,11", "华东,冰箱,800.00,2", "华东,电视,1510.50,4", "华东,空调,2300.25,5",
                "华北,NULL,2750.10,7", "华北,洗衣机,120.00,1", "华北,电视,640.00,2", "华北,冰箱,1990.10,4",
                "华南,NULL,3738.10,10", "华南,冰箱,77.70,1", "华南,电视,150.00,1", "华南,洗衣机,410.40,2", "华南,空调,3100.00,6",
            ])
        #expect(result.stderr.contains("such as '华东 (产品 NULL)'"), "\(result.stderr)")
        #expect(!result.stderr.contains("unchecked") && !result.stderr.contains("warning"), "\(result.stderr)")
    }

    /// A report of `regions` regions of five products each in the ROLLUP shape; region `odd`'s
    /// subtotal says one more than its rows.
    static func rollupReport(regions: Int, odd: Int) -> String {
        var csv = "地区,产品,销售额\n"
        var all = 0
        for g in 0..<regions {
            var sum = 0
            for p in 0..<5 {
                let value = (g * 53 + p * 17) % 400 + 1
                sum += value
                csv += "区\(g),品\(p),\(value)\n"
            }
            all += sum
            csv += "区\(g),,\(g == odd ? sum + 1 : sum)\n"
        }
        return csv + ",,\(all)\n"
    }

    @Test("a ROLLUP report in parts sorts to the bytes and messages of a sort at once; a subtotal no function gives is left, not flagged")
    func rollupInParts() throws {
        let csv = Self.rollupReport(regions: 3000, odd: 2500)
        #expect(csv.utf8.count > 1 << 16)
        let once = try sort(csv, ["--by", "销售额:desc", "--format", "csv"])
        let parts = try sort(csv, ["--by", "销售额:desc", "--format", "csv", "--memory", "64K"])
        #expect(once.status == 0 && parts.status == 0, "\(parts.stderr)")
        #expect(once.stdout == parts.stdout)
        #expect(once.stderr == parts.stderr)
        #expect(once.stderr.contains("3000 subtotal groups by 地区 (SQL's ROLLUP shape"), "\(once.stderr)")
        #expect(once.stderr.contains("区2500 (产品 blank)'s 销售额"), "\(once.stderr)")
        #expect(once.stderr.contains("left as it is, unchecked") && !once.stderr.contains("warning"), "\(once.stderr)")
        let lines = Self.lines(once.stdout)
        #expect(lines[6].hasPrefix("区0,,") && lines.last!.hasPrefix(",,"))
    }

    @Test("a table with blank cells is no ROLLUP report: a blank inside a run of its label, or beside one group only, groups nothing")
    func blanksAreNoRollup() throws {
        let inside = "姓名,城市,分数\n张三,北京,1\n张三,,2\n张三,上海,3\n李四,广州,4\n李四,,5\n李四,深圳,6\n"
        #expect(try sort(inside, ["--by", "分数:desc", "--format", "csv"]).stderr.isEmpty)
        let once = "姓名,城市,分数\n张三,北京,1\n张三,,2\n李四,广州,4\n李四,深圳,6\n"
        #expect(try sort(once, ["--by", "分数:desc", "--format", "csv"]).stderr.isEmpty)
    }
}

extension GroupCommandTests {
    @Test("property: ROLLUP reports of every shape sort in parts to the bytes and messages of a sort at once; no cell changes", arguments: 1...4)
    func rollupShapesInParts(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(seed * 104_729))
        let first = Bool.random(using: &random)
        let null = ["", "NULL", "\\N"].randomElement(using: &random)!
        var lines: [String] = []
        var all = 0
        for g in 0..<Int.random(in: 300...500, using: &random) {
            var sum = 0
            var rows: [String] = []
            for p in 0..<Int.random(in: 1...9, using: &random) {
                let value = Int.random(in: 1...900, using: &random)
                sum += value
                rows.append("区\(g),品\(p),\(value),1")
            }
            all += sum
            // Now and then a subtotal no function gives (left, never flagged).
            let says = Int.random(in: 0..<25, using: &random) == 0 ? sum + 1 : sum
            let subtotal = "区\(g),\(null),\(says),\(rows.count)"
            lines += first ? [subtotal] + rows : rows + [subtotal]
        }
        let total = "\(null),\(null),\(all),\(lines.count)"
        lines = first ? [total] + lines : lines + [total]
        let csv = "地区,产品,销售额,笔数\n" + lines.joined(separator: "\n") + "\n"
        let direction = Bool.random(using: &random) ? "销售额" : "销售额:desc"
        let once = try sort(csv, ["--by", direction, "--format", "csv"])
        let parts = try sort(csv, ["--by", direction, "--format", "csv", "--memory", "64K"])
        #expect(once.status == 0 && parts.status == 0, "\(parts.stderr)")
        #expect(once.stdout == parts.stdout)
        #expect(once.stderr == parts.stderr)
        #expect(once.stderr.contains("(SQL's ROLLUP shape"), "\(once.stderr)")
        #expect(!once.stderr.contains("warning"), "\(once.stderr)")
        // A permutation of the lines: no cell changed; each subtotal beside its group's rows.
        let sorted = Self.lines(once.stdout).dropFirst()
        #expect(sorted.sorted() == lines.sorted())
        let out = Array(sorted)
        for (i, line) in out.enumerated() where line.split(separator: ",", omittingEmptySubsequences: false)[1] == Substring(null) {
            let label = line.split(separator: ",", omittingEmptySubsequences: false)[0]
            guard !label.isEmpty, label != Substring(null) else { continue }
            let neighbour = first ? out[i + 1] : out[i - 1]
            #expect(neighbour.hasPrefix("\(label),品"), "\(line)")
        }
    }
}
