@_spi(Instrumentation) import TrellisCollectionView
@_spi(Instrumentation) import TrellisGrid
@_spi(Instrumentation) import TrellisLayouts

/// The grid sorting benchmarks: 1,000,000 rows, against the standard library's sort of the same
/// numbers, plus pandas' `sort_values` on the same CSV when pandas is installed.
@MainActor
func gridBenchmarks(runs: Int) -> [(String, String, String)] {
    var rows: [(String, String, String)] = []
    var verdicts: [String] = []
    let count = 1_000_000
    var state: UInt64 = 17
    func next(_ bound: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(bound))
    }
    // A decimal column with 5% missing values.
    let numbers: [CellValue] = (0..<count).map { _ in next(20) == 0 ? .missing : .decimal(Double(next(1_000_000)) / 100) }
    // Natural text keys: 100,000 distinct values like "item123".
    let items: [CellValue] = (0..<count).map { _ in .text("item\(next(100_000))") }
    // Chinese text keys: 100,000 distinct two-to-three character names.
    let syllables = Array("张王李赵刘陈杨黄周吴徐孙胡朱高林何郭马罗梁宋郑谢韩唐冯于董萧程曹袁邓许傅沈曾彭吕苏卢蒋蔡贾丁魏薛叶阎余潘杜戴夏钟汪田任姜范方石姚谭廖邹熊金陆郝孔白崔康毛邱秦江史顾侯邵孟龙万段漕钱汤尹黎易常武乔贺赖龚文")
    let names: [CellValue] = (0..<count).map { _ in
        let n = next(100_000)
        let a = syllables[n % syllables.count], b = syllables[(n / syllables.count) % syllables.count]
        let c = syllables[(n / (syllables.count * syllables.count)) % syllables.count]
        return .text(String([a, b, c]))
    }
    let small: [CellValue] = (0..<count).map { _ in .integer(next(50)) }
    let columns = [Column("v", type: .decimal), Column("item"), Column("name"), Column("k", type: .integer)]
    let table = Table(columns: columns)
    for i in 0..<count { try! table.appendRow(values: [numbers[i], items[i], names[i], small[i]]) }

    // Baseline: the standard library's sort of the same numbers.
    let doubles = numbers.map { $0.number ?? .nan }
    let baseline = measure("Baseline: [Double].sort() of the same 1M numbers", runs: 2 * runs) {
        var copy = doubles
        copy.sort()
        blackHole(copy)
    }
    rows.append((baseline.name, format(Measurement.seconds(baseline.median)), "baseline"))
    let base = Measurement.seconds(baseline.median)

    let grid = DataGrid(bound: table)
    try! grid.pin(.row(count - 1), at: .bottom)
    let decimal = measure("DataGrid sort 1M rows by a decimal column (5% missing, a pinned bottom row)", runs: 2 * runs) {
        try! grid.sort(by: [SortKey("v", .descending)])
    }
    let ratio = Measurement.seconds(decimal.median) / base
    rows.append(
        (
            decimal.name, format(Measurement.seconds(decimal.median)),
            String(format: "%.2f× [Double].sort() (target ≤ 1.5×)", ratio)
        ))
    verdicts.append(String(format: "decimal key, 1M rows: %.2f× sort() — %@", ratio, ratio <= 1.5 ? "meets ≤ 1.5×" : "MISSES ≤ 1.5×"))

    let natural = measure("DataGrid sort 1M rows by a natural text key (100,000 distinct)", runs: max(1, runs / 2)) {
        try! grid.sort(by: [SortKey("item", comparator: .text(.natural))])
    }
    let naturalSeconds = Measurement.seconds(natural.median)
    rows.append((natural.name, format(naturalSeconds), "target < 3 s"))
    verdicts.append(String(format: "natural key: %.2f s — %@", naturalSeconds, naturalSeconds < 3 ? "meets < 3 s" : "MISSES < 3 s"))

    let pinyin = measure("DataGrid sort 1M rows by a zh-localized key (100,000 distinct)", runs: max(1, runs / 2)) {
        try! grid.sort(by: [SortKey("name", comparator: .text(.localized("zh")))])
    }
    let pinyinSeconds = Measurement.seconds(pinyin.median)
    rows.append((pinyin.name, format(pinyinSeconds), "target < 3 s"))
    verdicts.append(String(format: "zh key: %.2f s — %@", pinyinSeconds, pinyinSeconds < 3 ? "meets < 3 s" : "MISSES < 3 s"))

    let three = measure("DataGrid sort 1M rows by three keys (integer, natural text, decimal)", runs: max(1, runs / 2)) {
        try! grid.sort(by: [SortKey("k"), SortKey("item", .descending), SortKey("v")])
    }
    let threeSeconds = Measurement.seconds(three.median)
    rows.append((three.name, format(threeSeconds), "target < 2 s"))
    verdicts.append(String(format: "three keys: %.2f s — %@", threeSeconds, threeSeconds < 2 ? "meets < 2 s" : "MISSES < 2 s"))

    // What the viewer's F, I and Enter on a value compute, over the same million rows (target:
    // < 300 ms each, the viewer's budget for opening a view).
    for (column, label) in [
        (3, "an integer column of 50 values"), (1, "a text column of 100,000 values"),
        (0, "a decimal column of ~630,000 values"),
    ] {
        let frequencies = measure("DataGrid frequencies(ofColumn:) of 1M rows, \(label)", runs: runs) {
            blackHole(grid.frequencies(ofColumn: column).count)
        }
        let seconds = Measurement.seconds(frequencies.median)
        rows.append(
            (frequencies.name, format(seconds), String(format: "%.2f× the decimal sort; target < 300 ms", seconds / Measurement.seconds(decimal.median))))
        verdicts.append(String(format: "frequencies, \(label): %.0f ms — %@", seconds * 1000, seconds < 0.3 ? "meets < 300 ms" : "MISSES < 300 ms"))
    }
    let describe = measure("DataGrid describe() of 1M rows × 4 columns (decimal, two texts, integer)", runs: runs) {
        blackHole(grid.describe().count)
    }
    let describeSeconds = Measurement.seconds(describe.median)
    rows.append(
        (
            describe.name, format(describeSeconds),
            String(format: "%.2f× the decimal sort; target < 300 ms", describeSeconds / Measurement.seconds(decimal.median))
        ))
    verdicts.append(String(format: "describe: %.0f ms — %@", describeSeconds * 1000, describeSeconds < 0.3 ? "meets < 300 ms" : "MISSES < 300 ms"))
    let filtered = DataGrid(bound: table)
    try! filtered.pin(.row(count - 1), at: .bottom)
    try! filtered.sort(by: [SortKey("v", .descending)])
    let filter = measure("DataGrid setFilter(.equal) on 1M rows (1 value of 50), sorted by the decimal column", runs: runs) {
        try! filtered.setFilter(.equal(column: "k", text: "7"))
        try! filtered.setFilter(nil)
    }
    rows.append((filter.name, format(Measurement.seconds(filter.median) / 2), "per change (filter on, then off: the whole body sorted again)"))

    // For scale: a comparison sort of 100,000 strings with Foundation's localized comparison.
    let sample = names.prefix(100_000).map(\.description)
    let foundation = measure("For scale: localizedStandardCompare sort of 100,000 strings", runs: 1) {
        blackHole(sample.sorted { $0.localizedStandardCompare($1) == .orderedAscending })
    }
    rows.append((foundation.name, format(Measurement.seconds(foundation.median)), "not a target"))

    // DataGridLayout viewport queries on the million rows (header, frozen column, pinned row).
    let layout = DataGridLayout(grid: grid)
    layout.frozenColumns = 1
    layout.columnWidths = [.fixed(90), .fixed(120), .fixed(100), .fixed(60)]
    let host = StaticLayoutHost(
        layout: layout, itemCounts: [layout.itemCount],
        bounds: CGRect(x: 0, y: 0, width: 375, height: 800))
    host.layoutIfNeeded()
    let height = host.contentSize.height
    var queryState: UInt64 = 5
    let offsets: [CGFloat] = (0..<20_000).map { _ in
        queryState = queryState &* 6364136223846793005 &+ 1442695040888963407
        return CGFloat(Double(queryState >> 11) / Double(1 << 53)) * (height - 800)
    }
    var returned = 0
    let queries = measure("DataGridLayout layoutAttributesForElements(in:) 375×800 on 1M rows", runs: runs) {
        for y in offsets {
            returned &+= layout.layoutAttributesForElements(in: CGRect(x: 0, y: y, width: 375, height: 800))!.count
        }
    }
    blackHole(returned)
    rows.append(
        (
            queries.name, format(Measurement.seconds(queries.median) / Double(offsets.count)),
            "per query, \(returned / offsets.count / runs) elements each"
        ))

    // Scrolling through a host: each page is a bounds change (pinned elements move), a layout
    // pass and the viewport query. Fitted columns make a pass that re-measured costly, so the
    // ratio to the bare query above shows what a bounds-change pass adds.
    let fitted = DataGridLayout(grid: grid)
    fitted.frozenColumns = 1
    let scroller = StaticLayoutHost(
        layout: fitted, itemCounts: [fitted.itemCount],
        bounds: CGRect(x: 0, y: 0, width: 375, height: 800))
    scroller.layoutIfNeeded()
    var scrolled = 0
    let scrolling = measure("DataGridLayout scrolling through a host, fitted columns, on 1M rows", runs: runs) {
        for y in offsets {
            scroller.setBounds(CGRect(x: 0, y: y, width: 375, height: 800))
            scroller.layoutIfNeeded()
            scrolled &+= scroller.layoutAttributesForElements(in: scroller.bounds)!.count
        }
    }
    blackHole(scrolled)
    let perPage = Measurement.seconds(scrolling.median) / Double(offsets.count)
    let perQuery = Measurement.seconds(queries.median) / Double(offsets.count)
    rows.append(
        (
            scrolling.name, format(perPage),
            String(
                format: "per page, %.2f× the bare query; %d metric passes", perPage / perQuery,
                fitted.metricsComputationCount)
        ))

    // The peer: pandas' sort_values on the same data, when pandas is installed.
    rows.append(
        pandasComparison(
            numbers: numbers, items: items, ours: Measurement.seconds(decimal.median),
            oursNatural: naturalSeconds))
    for verdict in verdicts { rows.append(("• " + verdict, "", "")) }
    return rows
}

/// Writes the numbers and items to a CSV, times pandas' `sort_values` on them in a separate
/// process, and reports the ratio to our time; skipped with a message when pandas is missing.
func pandasComparison(numbers: [CellValue], items: [CellValue], ours: Double, oursNatural: Double) -> (String, String, String) {
    let name = "Peer: pandas DataFrame.sort_values, same 1M rows (decimal key)"
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-bench-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let csv = folder.appendingPathComponent("data.csv")
    var text = "v,item\n"
    for (n, i) in zip(numbers, items) { text += "\(n.description),\(i.description)\n" }
    try? Data(text.utf8).write(to: csv)
    let script = """
        import sys, time
        try:
            import pandas as pd
        except ImportError:
            print("missing"); sys.exit(0)
        df = pd.read_csv(sys.argv[1])
        best = None
        for _ in range(3):
            t = time.perf_counter()
            df.sort_values("v", ascending=False, na_position="last", kind="stable")
            d = time.perf_counter() - t
            best = d if best is None or d < best else best
        print(best)
        """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, csv.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = Pipe()
    do { try process.run() } catch { return (name, "skipped", "python3 could not be started") }
    process.waitUntilExit()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        .trimmingCharacters(in: .whitespacesAndNewlines)
    guard let seconds = Double(output) else {
        return (name, "skipped", output == "missing" ? "pandas is not installed (pip install pandas)" : "pandas failed")
    }
    return (name, format(seconds), String(format: "ours is %.2f× pandas (stable sort, fastest of 3)", ours / seconds))
}
