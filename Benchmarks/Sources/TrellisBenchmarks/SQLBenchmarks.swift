import Foundation
import TrellisGrid
import TrellisSQL

/// A grid bound to a 1,000,000-row SQLite table: binding, sorting, and windows of 100 rows at
/// random positions of the sorted grid (a virtual-scrolling view's visible rows).
func sqlBenchmarks(runs: Int) -> [(String, String, String)] {
    var rows: [(String, String, String)] = []
    var verdicts: [String] = []
    let count = 1_000_000
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-bench-\(getpid()).sqlite").path
    try? FileManager.default.removeItem(atPath: path)
    defer { try? FileManager.default.removeItem(atPath: path) }
    do {
        let writer = try SQLiteConnection(path: path, readOnly: false, create: true)
        try writer.execute("CREATE TABLE scores (id INTEGER, 组号 TEXT, name TEXT, 分数 REAL)")
        let insert = try writer.prepare("INSERT INTO scores VALUES (?, ?, ?, ?)")
        var random = BenchmarkRandom(seed: 5)
        try writer.execute("BEGIN")
        for i in 0..<count {
            let r = random.next()
            try insert.bind([
                .integer(Int64(1_000_000_000_000_000 + i)), .text("组\(r % 500)"),
                .text("name \(r >> 20 % 100_000)"), .real(Double(r % 2001) / 20),
            ])
            while try insert.step() {}
        }
        try writer.execute("COMMIT")
    } catch {
        return [("SQLite benchmark setup failed: \(error)", "", "")]
    }
    let connection = try! SQLiteConnection(path: path)
    var source: SQLiteTableSource!
    let bind = measure("SQLiteTableSource bind, 1M rows (read the rowids)", runs: runs) {
        source = try! SQLiteTableSource(connection: connection, table: "scores")
    }
    rows.append((bind.name, format(Measurement.seconds(bind.median)), ""))
    let grid = DataGrid(bound: source)
    let numeric = measure("Sort by 分数 descending, 1M rows (key column read, sorted here)", runs: runs) {
        try! grid.sort(by: [SortKey("分数", .descending)])
    }
    rows.append((numeric.name, format(Measurement.seconds(numeric.median)), ""))
    // What the same order costs when SQLite sorts (ORDER BY, rowids back): the push-down path.
    let pushed = measure("… the same order by SQLite: ORDER BY 分数 DESC NULLS LAST, rowid", runs: runs) {
        var n = 0
        try! connection.rows("SELECT rowid FROM scores ORDER BY \"分数\" DESC NULLS LAST, rowid") { _ in n += 1 }
        blackHole(n)
    }
    rows.append(
        (
            pushed.name, format(Measurement.seconds(pushed.median)),
            String(format: "%.2f× sorting here", Measurement.seconds(pushed.median) / Measurement.seconds(numeric.median))
        ))
    let natural = measure("Sort by 组号 natural then 分数, 1M rows", runs: runs) {
        try! grid.sort(by: [SortKey("组号", comparator: .text(.natural)), SortKey("分数", .descending)])
    }
    rows.append((natural.name, format(Measurement.seconds(natural.median)), ""))
    // Windows: 100 displayed rows at random positions, prefetched and every cell's text read.
    var random = BenchmarkRandom(seed: 9)
    let positions = (0..<200).map { _ in Int(random.next() % UInt64(count - 100)) }
    var read = 0
    var times: [Double] = []
    for p in positions {
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            grid.prefetch(displayedRows: p..<(p + 100))
            for index in p..<(p + 100) {
                let row = grid.displayedRow(at: index)!
                for c in 0..<4 { read &+= grid.text(row, column: c).utf8.count }
            }
        }
        times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
    times.sort()
    let median = times[times.count / 2], worst = times.last!
    rows.append(
        (
            "Window of 100 sorted rows at a random position, 1M rows", format(median),
            String(format: "median of 200; worst %@ (target < 5 ms)", format(worst))
        ))
    verdicts.append(
        String(
            format: "SQLite window of 100 rows: median %@, worst %@ — %@", format(median), format(worst),
            worst < 5e-3 ? "meets < 5 ms" : "MISSES < 5 ms"))
    rows += postgresBenchmarks(runs: runs, count: count, verdicts: &verdicts)
    rows.append(("", "", ""))
    for verdict in verdicts { rows.append(("• " + verdict, "", "")) }
    blackHole(read)
    return rows
}

/// The same on PostgreSQL, when `TRELLIS_POSTGRES_URL` names a server the benchmark may create a
/// table on (it drops it afterwards).
func postgresBenchmarks(runs: Int, count: Int, verdicts: inout [String]) -> [(String, String, String)] {
    guard let url = ProcessInfo.processInfo.environment["TRELLIS_POSTGRES_URL"], !url.isEmpty else {
        verdicts.append("PostgreSQL not measured: set TRELLIS_POSTGRES_URL to a server the benchmark may write to")
        return []
    }
    var rows: [(String, String, String)] = []
    let table = "trellis_bench_\(getpid())"
    do {
        let db = try PostgreSQLConnection(url: url)
        _ = try db.query("CREATE TABLE \(table) (id bigint PRIMARY KEY, \"组号\" text, name text, \"分数\" double precision)")
        _ = try db.query(
            """
            INSERT INTO \(table) SELECT 1000000000000000000 + g, '组' || (g::bigint * 7919 % 500), 'name ' || (g::bigint * 104729 % 100000),
            (g::bigint * 31 % 2001) / 20.0 FROM generate_series(0, \(count - 1)) g
            """)
        _ = try db.query("ANALYZE \(table)")
        defer { _ = try? db.query("DROP TABLE \(table)") }
        var source: PostgreSQLTableSource!
        let bind = measure("PostgreSQLTableSource bind, 1M rows (read the keys)", runs: runs) {
            source = try! PostgreSQLTableSource(connection: db, table: table)
        }
        rows.append((bind.name, format(Measurement.seconds(bind.median)), ""))
        let grid = DataGrid(bound: source)
        // The server's ORDER BY (a number key, `sortsOnServer`) against reading the key column and
        // sorting here (the default), the same order. Each on a fresh binding, so that nothing read
        // before is reused.
        let pushed = measure("Sort by 分数 descending, 1M rows on PostgreSQL: the server's ORDER BY", runs: runs) {
            let fresh = try! PostgreSQLTableSource(connection: db, table: table)
            fresh.sortsOnServer = true
            try! DataGrid(bound: fresh).sort(by: [SortKey("分数", .descending)])
        }
        let local = measure("… the same order, key column read and sorted here", runs: runs) {
            let fresh = try! PostgreSQLTableSource(connection: db, table: table)
            try! DataGrid(bound: fresh).sort(by: [SortKey("分数", .descending)])
        }
        rows.append((pushed.name, format(Measurement.seconds(pushed.median) - Measurement.seconds(bind.median)), "less the binding"))
        rows.append((local.name, format(Measurement.seconds(local.median) - Measurement.seconds(bind.median)), "less the binding"))
        let sort = measure("Sort by 分数 descending again, 1M rows on PostgreSQL (same binding)", runs: runs) {
            try! grid.sort(by: [SortKey("分数", .descending, comparator: .text(.natural))])
        }
        rows.append((sort.name, format(Measurement.seconds(sort.median)), "the key column already read"))
        var random = BenchmarkRandom(seed: 9)
        var times: [Double] = []
        var read = 0
        for _ in 0..<200 {
            let p = Int(random.next() % UInt64(count - 100))
            let elapsed = ContinuousClock().measure {
                grid.prefetch(displayedRows: p..<(p + 100))
                for index in p..<(p + 100) {
                    let row = grid.displayedRow(at: index)!
                    for c in 0..<4 { read &+= grid.text(row, column: c).utf8.count }
                }
            }
            times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        times.sort()
        rows.append(
            (
                "Window of 100 sorted rows at a random position, 1M rows on PostgreSQL", format(times[100]),
                String(format: "median of 200; worst %@", format(times.last!))
            ))
        verdicts.append(String(format: "PostgreSQL window of 100 rows: median %@, worst %@", format(times[100]), format(times.last!)))
        // A sort the server keeps: its rank once, then windows by rank jumps and keyset pages.
        var windows: PostgreSQLSortedWindows!
        let rank = measure("PostgreSQLSortedWindows: the server ranks 1M rows by 分数 desc (once per sort)", runs: 3) {
            windows = try! PostgreSQLSortedWindows(source: source, keys: [SortKey("分数", .descending)])
        }
        rows.append((rank.name, format(Measurement.seconds(rank.median)), ""))
        var jumps: [Double] = [], pages: [Double] = []
        for _ in 0..<200 {
            let p = Int(random.next() % UInt64(count - 100))
            var page: [PostgreSQLSortedWindows.Row] = []
            let jump = ContinuousClock().measure { page = try! windows.rows(at: p, count: 100) }
            let next = ContinuousClock().measure { blackHole(try! windows.rows(after: page.last!, count: 100).count) }
            jumps.append(Double(jump.components.attoseconds) / 1e18 + Double(jump.components.seconds))
            pages.append(Double(next.components.attoseconds) / 1e18 + Double(next.components.seconds))
        }
        jumps.sort()
        pages.sort()
        var keysets: [Double] = []
        for _ in 0..<20 {
            let p = Int(random.next() % UInt64(count - 100))
            let page = try! windows.rows(at: p, count: 100)
            let next = ContinuousClock().measure { blackHole(try! windows.keysetRows(after: page.last!, count: 100).count) }
            keysets.append(Double(next.components.attoseconds) / 1e18 + Double(next.components.seconds))
        }
        keysets.sort()
        rows.append(
            (
                "… a jump to a random position: 100 rows by rank", format(jumps[100]),
                String(format: "median of 200; worst %@", format(jumps.last!))
            ))
        rows.append(
            (
                "… the next page: 100 rows after the last (its rank by key)", format(pages[100]),
                String(format: "median of 200; worst %@", format(pages.last!))
            ))
        rows.append(
            (
                "… the next page by the keyset predicate alone (no index on the sort)", format(keysets[10]),
                String(format: "median of 20; worst %@", format(keysets.last!))
            ))
        blackHole(read)
    } catch {
        verdicts.append("PostgreSQL benchmark failed: \(error)")
    }
    return rows
}

/// `trellis sort DB --table T --by KEY -o out.csv` against the same export unsorted, end to end,
/// at each size, from SQLite and (when `TRELLIS_POSTGRES_URL` names a server the benchmark may
/// write to) PostgreSQL: a sorted output reads its rows in sorted order, a window of them a query,
/// and must cost at most twice the unsorted export, which reads them in the table's order.
/// Both outputs are checked to hold the same rows.
func sqlExportBenchmarks(runs: Int, sizes: [Int]) -> (rows: [(String, String, String)], verdicts: [String]) {
    var rows: [(String, String, String)] = []
    var verdicts: [String] = []
    let folder = scratchFolder("trellis-sql-export-bench")
    defer { try? FileManager.default.removeItem(at: folder) }
    let sorted = folder.appendingPathComponent("sorted.csv").path, plain = folder.appendingPathComponent("plain.csv").path
    func sameRows() -> Bool {
        let a = (try? String(contentsOfFile: sorted, encoding: .utf8))?.split(whereSeparator: \.isNewline).sorted()
        let b = (try? String(contentsOfFile: plain, encoding: .utf8))?.split(whereSeparator: \.isNewline).sorted()
        return a != nil && a == b
    }
    func compare(_ database: String, _ label: String, source: [String]) {
        let times = interleavedMedians(
            runs,
            [
                { run([CommandLine.arguments[0], "trellis", "sort"] + source + ["--by", "score", "-o", sorted]) },
                { run([CommandLine.arguments[0], "trellis", "sort"] + source + ["-o", plain]) },
            ])
        let ratio = times[0].wall / times[1].wall
        rows.append(
            (
                "trellis sort \(database) \(label) rows --by score -o CSV", format(times[0].wall),
                String(format: "%.2f× the unsorted export (target ≤ 2×); peak %.0f MB", ratio, times[0].peakMB)
            ))
        rows.append(("… the same export unsorted", format(times[1].wall), String(format: "peak %.0f MB", times[1].peakMB)))
        verdicts.append(
            String(
                format: "%@ sorted export, %@ rows: %.2f× unsorted — %@; the same rows: %@", database, label, ratio,
                ratio <= 2 ? "meets ≤ 2×" : "MISSES ≤ 2×", sameRows() ? "yes" : "NO"))
    }
    for count in sizes {
        let label = count >= 1_000_000 ? "\(count / 1_000_000)M" : "\(count / 1000)k"
        let path = folder.appendingPathComponent("scores-\(count).sqlite").path
        do {
            let writer = try SQLiteConnection(path: path, readOnly: false, create: true)
            try writer.execute("CREATE TABLE scores (id INTEGER PRIMARY KEY, score INTEGER, name TEXT, note TEXT)")
            let insert = try writer.prepare("INSERT INTO scores VALUES (?, ?, ?, ?)")
            try writer.execute("BEGIN")
            for i in 0..<count {
                try insert.bind([.integer(Int64(i)), .integer(Int64((i &* 7919) % count)), .text("name \(i)"), .text("row \(i) of the table")])
                while try insert.step() {}
            }
            try writer.execute("COMMIT")
        } catch {
            verdicts.append("SQLite export benchmark setup failed: \(error)")
            continue
        }
        compare("SQLite", label, source: [path, "--table", "scores"])
        if let url = ProcessInfo.processInfo.environment["TRELLIS_POSTGRES_URL"], !url.isEmpty,
            let db = try? PostgreSQLConnection(url: url)
        {
            let table = "trellis_export_\(getpid())_\(count)"
            do {
                _ = try db.query("CREATE TABLE \(table) (id bigint PRIMARY KEY, score bigint, name text, note text)")
                _ = try db.query(
                    "INSERT INTO \(table) SELECT g, g::bigint * 7919 % \(count), 'name ' || g, 'row ' || g || ' of the table' "
                        + "FROM generate_series(0, \(count - 1)) g")
                _ = try db.query("ANALYZE \(table)")
                compare("PostgreSQL", label, source: [url, "--table", table])
            } catch {
                verdicts.append("PostgreSQL export benchmark failed: \(error)")
            }
            _ = try? db.query("DROP TABLE IF EXISTS \(table)")
        } else if count == sizes.first {
            verdicts.append("PostgreSQL not measured: set TRELLIS_POSTGRES_URL to a server the benchmark may write to")
        }
    }
    return (rows, verdicts)
}
