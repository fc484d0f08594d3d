import Foundation
@_spi(Instrumentation) import TrellisGrid

/// The comparison paths a DataGridView program calls: the public text comparators a million
/// times, a `SortCompare` hook over a million rows, a whole-row comparator, and virtual mode's
/// provider calls per header click — each beside a baseline of the same run.
@MainActor
func comparatorBenchmarks(runs: Int) -> [(String, String, String)] {
    var rows: [(String, String, String)] = []
    var state: UInt64 = 23
    func next(_ bound: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(bound))
    }
    let syllables = Array("张王李赵刘陈杨黄周吴徐孙胡朱高林何郭马罗梁宋郑谢韩唐冯于董萧程曹袁邓许傅沈曾彭吕苏卢蒋蔡贾丁魏薛叶")
    let pairs = 1_000_000
    let items = (0..<pairs).map { _ in ("item\(next(100_000))", "item\(next(100_000))") }
    let groups = (0..<pairs).map { _ in ("组\(next(1000))", "组\(next(1000))") }
    let names = (0..<pairs).map { _ in
        (
            String([syllables[next(syllables.count)], syllables[next(syllables.count)]]),
            String([syllables[next(syllables.count)], syllables[next(syllables.count)]])
        )
    }
    // Baseline: the standard library's comparison of the same strings.
    let baseline = measure("Baseline: 1M String < comparisons (item123 pairs)", runs: runs) {
        var n = 0
        for (a, b) in items where precedes(a, b) { n += 1 }
        blackHole(n)
    }
    let base = Measurement.seconds(baseline.median)
    rows.append((baseline.name, format(base), "baseline"))
    for (label, comparator, data) in [
        ("natural, item123", TextComparator.natural, items), ("natural, 组N", .natural, groups),
        ("natural, Chinese names", .natural, names), ("zh (pinyin), Chinese names", .localized("zh"), names),
    ] {
        let m = measure("1M TextComparator.compare calls: \(label)", runs: runs) {
            var n = 0
            for (a, b) in data where comparator.compare(a, b) == .orderedAscending { n += 1 }
            blackHole(n)
        }
        let seconds = Measurement.seconds(m.median)
        rows.append((m.name, format(seconds), String(format: "%.2f M calls/s (target ≥ 1); %.1f× String <", 1 / seconds, seconds / base)))
    }

    // A SortCompare hook over 1M rows that declines every pair, against the same sort without it.
    let count = 1_000_000
    let table = Table(columns: [Column("k", type: .integer), Column("g")])
    for _ in 0..<count { try! table.appendRow(values: [.integer(next(1_000_000)), .text("组\(next(1000))")]) }
    let plain = DataGrid(bound: table)
    let keys = [SortKey("k", .descending)]
    let noHook = measure("DataGrid sort 1M rows by an integer key", runs: runs) { try! plain.sort(by: keys) }
    rows.append((noHook.name, format(Measurement.seconds(noHook.median)), "baseline"))
    let hooked = DataGrid(bound: table)
    nonisolated(unsafe) var calls = 0
    hooked.sortCompare = { _ in
        calls += 1; return nil
    }
    let withHook = measure("The same with a SortCompare hook that declines every pair", runs: max(1, runs / 2)) {
        calls = 0
        try! hooked.sort(by: keys)
    }
    rows.append(
        (
            withHook.name, format(Measurement.seconds(withHook.median)),
            String(
                format: "%.1f× without; %d hook calls (%.2f a row)",
                Measurement.seconds(withHook.median)
                    / Measurement.seconds(noHook.median), calls, Double(calls) / Double(count))
        ))
    // A whole-row comparator that calls the public natural comparator, over 100,000 rows.
    let small = Table(columns: [Column("g")])
    let labels = (0..<100_000).map { _ in "组\(next(1000))" }
    for label in labels { try! small.appendRow(values: [.text(label)]) }
    let byRows = DataGrid(bound: small)
    let rowSort = measure("rowComparator calling TextComparator.natural.compare, 100,000 rows", runs: max(1, runs / 2)) {
        byRows.rowComparator = { a, b in TextComparator.natural.compare(labels[a], labels[b]) }
    }
    let keyed = DataGrid(bound: small)
    let keySort = measure("The same order by a natural key", runs: runs) { try! keyed.sort(by: [SortKey("g", comparator: .text(.natural))]) }
    rows.append((keySort.name, format(Measurement.seconds(keySort.median)), "baseline"))
    rows.append(
        (
            rowSort.name, format(Measurement.seconds(rowSort.median)),
            String(format: "%.1f× the key sort", Measurement.seconds(rowSort.median) / Measurement.seconds(keySort.median))
        ))

    // Virtual mode: provider calls and time for one header click with a mean summary, 1M rows.
    let values = (0..<count).map { _ in next(1_000_000) }
    nonisolated(unsafe) var needed = 0
    let virtual = DataGrid(columns: [Column("k", type: .integer)], rowCount: count) { row, _ in
        needed += 1
        return .integer(row < values.count ? values[row] : -1)
    }
    needed = 0
    let click = measure("Virtual mode, 1M rows: a mean summary and a header click", runs: 1) {
        try! virtual.addSummary(SummaryRow(.mean, columns: ["k"], label: "平均"))
        try! virtual.clickHeader("k")
    }
    rows.append(
        (
            click.name, format(Measurement.seconds(click.median)),
            String(format: "%d CellValueNeeded calls (%.2f a row)", needed, Double(needed) / Double(count))
        ))
    needed = 0
    let again = measure("The second click (descending): the column is kept", runs: 1) { try! virtual.clickHeader("k") }
    rows.append((again.name, format(Measurement.seconds(again.median)), "\(needed) CellValueNeeded calls"))
    needed = 0
    let grown = measure("setRowCount(+1)", runs: 1) { try! virtual.setRowCount(count + 1) }
    rows.append((grown.name, format(Measurement.seconds(grown.median)), "\(needed) CellValueNeeded calls"))
    return rows
}

@inline(never)
func precedes(_ a: String, _ b: String) -> Bool { a < b }
