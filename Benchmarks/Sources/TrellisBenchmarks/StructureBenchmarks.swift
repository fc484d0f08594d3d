import Foundation
import TrellisGrid

/// `trellis sort` end to end on sheets with structure, each beside the same work without it, in
/// turn in one run: a file of 1,000 subtotal groups sorted within its groups against the same
/// file sorted flat (`--no-groups`); a key sorted by a built-in list (优良中差) against the same
/// key sorted as natural text; and the text keys of a second workload (100,000 distinct `组N` and
/// three-character Chinese names) against its decimal key. Times are medians of the runs; a
/// ratio is the median of the run-by-run ratios (``pairedRatio(_:_:)``), which the machine's
/// load drifting between runs moves less.
func structureBenchmarks(runs: Int, count: Int = 1_000_000) -> (rows: [(String, String, String)], verdicts: [String]) {
    var rows: [(String, String, String)] = []
    var verdicts: [String] = []
    let folder = scratchFolder("trellis-structure-bench")
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("out.csv").path
    let label = count >= 1_000_000 ? "\(count / 1_000_000)M" : "\(count / 1000)k"
    var random = BenchmarkRandom(seed: 20261205)
    let grades = ["优", "良", "中", "差"]
    let surnames = Array("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈")
    let given = Array("伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰萍红鹏飞建国志文斌宇浩然子轩梓涵一诺欣怡")

    // 1. Subtotal groups: 1,000 groups of count/1,000 rows, each closed by `G… 汇总`, a 总计 last.
    let grouped = folder.appendingPathComponent("groups.csv")
    var text = "地区,城市,销售额,利润\n"
    text.reserveCapacity(count * 32)
    let groups = 1000, perGroup = max(1, count / 1000)
    var total = 0
    for g in 0..<groups {
        var sum = 0
        for r in 0..<perGroup {
            let value = Int(random.next() % 1_000_000)
            sum += value
            text += "区\(g),城\(r),\(value / 100).\(value % 100 < 10 ? "0" : "")\(value % 100),\(value % 977)\n"
        }
        total += sum
        text += "区\(g) 汇总,,\(sum / 100).\(sum % 100 < 10 ? "0" : "")\(sum % 100),\n"
    }
    text += "总计,,\(total / 100).\(total % 100 < 10 ? "0" : "")\(total % 100),\n"
    try? Data(text.utf8).write(to: grouped)

    // 2. A grade column (优良中差) beside a decimal one.
    let graded = folder.appendingPathComponent("grades.csv")
    text = "学号,等级,分数\n"
    for i in 0..<count { text += "S\(i),\(grades[Int(random.next() % 4)]),\(random.next() % 10000)\n" }
    try? Data(text.utf8).write(to: graded)

    // 3. The second text workload: 组N of 100,000 distinct values, three-character names.
    let named = folder.appendingPathComponent("names.csv")
    text = "group,name,score\n"
    for _ in 0..<count {
        let name = String([
            surnames[Int(random.next() % UInt64(surnames.count))], given[Int(random.next() % UInt64(given.count))],
            given[Int(random.next() % UInt64(given.count))],
        ])
        let score = random.next() % 100_000
        text += "组\(random.next() % 100_000),\(name),\(score / 100).\(score % 100)\n"
    }
    try? Data(text.utf8).write(to: named)
    text = ""

    let trellis = CommandLine.arguments[0]
    func sort(_ file: URL, _ arguments: [String]) -> () -> ProcessResult {
        { run([trellis, "trellis", "sort", file.path] + arguments + ["--format", "csv", "-o", out]) }
    }
    // The flat sort reads the key column alone; with the grand total pinned (checked) it reads
    // every number column, as the sort within groups does to check the subtotals.
    let groupTimes = interleavedMedians(
        runs,
        [
            sort(grouped, ["--by", "销售额:desc", "--no-groups"]),
            sort(grouped, ["--by", "销售额:desc", "--no-groups", "--pin-bottom", "地区=总计"]),
            sort(grouped, ["--by", "销售额:desc"]),
        ])
    // The target is against the plain sort of the same file (`--no-groups`).
    let groupRatio = pairedRatio(groupTimes[2], groupTimes[0])
    rows.append(
        (
            "trellis sort \(label) rows in 1,000 subtotal groups, flat (--no-groups)", format(groupTimes[0].wall),
            String(format: "peak %.0f MB", groupTimes[0].peakMB)
        ))
    rows.append(
        (
            "… flat, the grand total pinned and checked", format(groupTimes[1].wall),
            String(format: "%.2f× the flat sort; peak %.0f MB", pairedRatio(groupTimes[1], groupTimes[0]), groupTimes[1].peakMB)
        ))
    rows.append(
        (
            "… within their groups (found, every subtotal checked)", format(groupTimes[2].wall),
            String(
                format: "%.2f× the flat sort, %.2f× the flat sort with its total checked, in turn (target ≤ 1.15× the flat sort); peak %.0f MB",
                groupRatio, pairedRatio(groupTimes[2], groupTimes[1]), groupTimes[2].peakMB)
        ))
    verdicts.append(
        String(
            format: "sort within 1,000 groups: %.2f× the flat sort (--no-groups) — %@ ≤ 1.15× (%.2f× the flat sort reading the same columns)",
            groupRatio, groupRatio <= 1.15 ? "meets" : "misses", pairedRatio(groupTimes[2], groupTimes[1])))

    // The same file sorted in parts (a quarter of its size in memory each time, as a file larger
    // than the memory is): within its groups against flat.
    let partsTimes = interleavedMedians(
        runs,
        [
            sort(grouped, ["--by", "销售额:desc", "--no-groups", "--memory", "48M"]),
            sort(grouped, ["--by", "销售额:desc", "--memory", "48M"]),
        ])
    rows.append(("trellis sort \(label) rows in 1,000 subtotal groups in parts (--memory 48M), flat", format(partsTimes[0].wall), ""))
    rows.append(
        (
            "… in parts, within their groups", format(partsTimes[1].wall),
            String(format: "%.2f× the flat sort in parts, in turn; peak %.0f MB", pairedRatio(partsTimes[1], partsTimes[0]), partsTimes[1].peakMB)
        ))
    verdicts.append(String(format: "sort within 1,000 groups in parts: %.2f× the flat sort in parts", pairedRatio(partsTimes[1], partsTimes[0])))

    // The same in memory: the order of one table with and without its grouping.
    if let table = try? CSV.table(bytes: [UInt8](Data(contentsOf: grouped))) {
        let key = [SortKey("销售额", .descending)]
        let timed = (0..<runs).map { _ -> (Double, Double) in
            let flat = measure("", runs: 1) { blackHole(try? DisplayOrder(source: table, plan: SortPlan(keys: key))) }.median
            let within = measure("", runs: 1) {
                blackHole(try? DisplayOrder(source: table, plan: SortPlan(keys: key, grouping: RowGrouping(column: "地区"))))
            }.median
            return (Measurement.seconds(flat), Measurement.seconds(within))
        }
        let flat = timed.map(\.0).sorted()[runs / 2], within = timed.map(\.1).sorted()[runs / 2]
        rows.append(("DisplayOrder of the same \(label) rows, flat", format(flat), ""))
        rows.append(
            ("… within 1,000 groups (found, each run sorted, checked)", format(within), String(format: "%.2f× the flat order in turn with it", within / flat)))
        verdicts.append(String(format: "an order within 1,000 groups in memory: %.2f× the flat order", within / flat))
    }

    let listTimes = interleavedMedians(
        runs, [sort(graded, ["--by", "等级:natural"]), sort(graded, ["--by", "等级:order=优,良,中,差"]), sort(graded, ["--by", "等级"])])
    let listRatio = pairedRatio(listTimes[1], listTimes[0])
    rows.append(("trellis sort \(label) rows by a grade column as natural text", format(listTimes[0].wall), ""))
    rows.append(
        (
            "… by its list, given (:order=优,良,中,差)", format(listTimes[1].wall),
            String(format: "%.2f× the natural key in turn with it (target ≤ 1.05×)", listRatio)
        ))
    rows.append(
        (
            "… by its list, found (every cell checked against the lists)", format(listTimes[2].wall),
            String(format: "%.2f× the natural key in turn with it", pairedRatio(listTimes[2], listTimes[0]))
        ))
    verdicts.append(String(format: "a list key: %.2f× a natural key — %@ ≤ 1.05×", listRatio, listRatio <= 1.05 ? "meets" : "misses"))

    let textTimes = interleavedMedians(
        runs, [sort(named, ["--by", "score:desc"]), sort(named, ["--by", "group"]), sort(named, ["--by", "name", "--locale", "zh"])])
    rows.append(("trellis sort \(label) rows (组N, names) by the decimal key", format(textTimes[0].wall), ""))
    for (k, what) in [(1, "by group (组N, 100,000 distinct)"), (2, "by name --locale zh (three-character names)")] {
        let ratio = pairedRatio(textTimes[k], textTimes[0])
        rows.append(("… \(what)", format(textTimes[k].wall), String(format: "%.2f× the decimal key in turn with it (target ≤ 1.3×)", ratio)))
        verdicts.append(String(format: "second workload %@: %.2f× the decimal key — %@ ≤ 1.3×", what, ratio, ratio <= 1.3 ? "meets" : "misses"))
    }
    // What looking for groups and lists costs a file that has neither (the sort group's file).
    let plain = folder.appendingPathComponent("plain.csv")
    try? Data(generatedCSV(rows: count).utf8).write(to: plain)
    // (A text key's column is checked against the lists until its first value of none: one cell.)
    let lookTimes = interleavedMedians(
        runs, [sort(plain, ["--by", "score:desc", "--no-groups"]), sort(plain, ["--by", "score:desc"])])
    let groupsLook = pairedRatio(lookTimes[1], lookTimes[0])
    rows.append(("trellis sort \(label) plain rows by a decimal key, --no-groups", format(lookTimes[0].wall), ""))
    rows.append(("… groups looked for (none)", format(lookTimes[1].wall), String(format: "%.2f× in turn with it (target ≤ 1.03×)", groupsLook)))
    verdicts.append(String(format: "looking for groups in a file of none: %.2f× — %@ ≤ 1.03×", groupsLook, groupsLook <= 1.03 ? "meets" : "misses"))
    return (rows, verdicts)
}
