import Foundation
import Testing
import TrellisCLI
import TrellisGrid
import TrellisSQL
import TrellisTestSupport

@Suite("PostgreSQL sources", .serialized, .enabled(if: PostgresServer.available))
struct PostgreSQLSourceTests {
    /// A fresh schema-less table name, so that tests do not meet.
    func name(_ stem: String) -> String { "\(stem)_\(UUID().uuidString.prefix(8).lowercased())" }

    func create(_ db: PostgreSQLConnection, _ table: String, _ data: RandomTable) throws {
        let q = PostgreSQLConnection.quote(table)
        _ = try db.query("CREATE TABLE \(q) (id bigint PRIMARY KEY, \"组号\" text, \"分数\" text, big bigint, name text)")
        // 分数 holds numbers and the odd 缺考, as a spreadsheet exported as text would: it is read
        // back as text here, so the in-memory side gets the same texts.
        for chunk in stride(from: 0, to: data.rows.count, by: 500) {
            var sql = "INSERT INTO \(q) VALUES "
            var parameters: [String?] = []
            for (k, row) in data.rows[chunk..<min(data.rows.count, chunk + 500)].enumerated() {
                if k > 0 { sql += ", " }
                sql += "(" + (1...5).map { "$\(parameters.count + $0)" }.joined(separator: ", ") + ")"
                parameters += row.map { value -> String? in
                    switch value {
                    case .null: return nil
                    case .integer(let i): return String(i)
                    case .real(let d): return "\(d)"
                    case .text(let s): return s
                    case .blob: return nil
                    }
                }
            }
            _ = try db.query(sql, parameters)
        }
    }

    @Test("a grid bound to a PostgreSQL table gives the in-memory engine's order for every kind of key", arguments: 0..<3)
    func sameAsInMemory(seed: Int) throws {
        let db = try PostgreSQLConnection(url: PostgresServer.url!)
        var rng = SeededRandom(seed: UInt64(120 + seed))
        let data = RandomTable.make(&rng, rows: Int.random(in: 0...1200, using: &rng))
        let table = name("scores")
        try create(db, table, data)
        let source = try PostgreSQLTableSource(connection: db, table: table)
        // The same cells as PostgreSQL returns them, in memory.
        let memory = Table(columns: source.columns)
        for row in 0..<source.rowCount {
            try memory.appendRow(values: (0..<5).map { source.value(row: row, column: $0) })
        }
        // 分数 is a text column of numbers and the odd 缺考: read as a CSV file's column, a number column.
        #expect(source.columns.map(\.type) == [.integer, .text, .decimal, .integer, .text])
        // Rows are in primary-key order (by the key's value, not its text: 2 before 10).
        #expect((0..<source.rowCount).allSatisfy { source.value(row: $0, column: 0) == .integer($0 + 1) })
        for keys in [
            [SortKey("分数", .descending, comparator: .text(.naturalDecimal))],
            [SortKey("组号", comparator: .text(.natural)), SortKey("big", .descending, nulls: .first)],
            [SortKey("name", comparator: .text(.localized("zh")))],
            [SortKey("name", .descending, comparator: .text(.caseInsensitive), nulls: .asSmallest)],
        ] {
            let a = DataGrid(bound: source), b = DataGrid(bound: memory)
            for grid in [a, b] {
                try grid.pin(.matching(column: "组号", value: "组1"), at: .bottom)
                try grid.sort(by: keys)
            }
            #expect(a.displayedRows == b.displayedRows, "seed \(seed), keys \(keys.map(\.column))")
        }
        _ = try db.query("DROP TABLE \(PostgreSQLConnection.quote(table))")
    }

    @Test("integers of every width and long numerics keep their value and their text")
    func exact() throws {
        let db = try PostgreSQLConnection(url: PostgresServer.url!)
        let table = name("exact")
        let q = PostgreSQLConnection.quote(table)
        _ = try db.query("CREATE TABLE \(q) (id bigint, amount numeric, code text, ok boolean)")
        _ = try db.query(
            "INSERT INTO \(q) VALUES ($1, $2, $3, $4), ($5, $6, $7, $8)",
            [
                "9223372036854775807", "12345678901234567890.125", "007", "t",
                "9223372036854775806", "12345678901234567890.5", "7", nil,
            ])
        let source = try PostgreSQLTableSource(connection: db, table: table)
        #expect(source.value(row: 0, column: 0) == .integer(9_223_372_036_854_775_807))
        #expect(source.text(row: 0, column: 1) == "12345678901234567890.125")
        #expect(source.text(row: 0, column: 2) == "007")
        #expect(source.value(row: 0, column: 3) == .boolean(true))
        #expect(source.value(row: 1, column: 3) == .missing)
        let grid = DataGrid(bound: source)
        try grid.sort(by: [SortKey("id")])
        #expect(grid.displayedRows == [.source(1), .source(0)])
        try grid.sort(by: [SortKey("amount", .descending)])
        #expect(grid.displayedRows == [.source(1), .source(0)], "long numerics sort by their digits")
        _ = try db.query("DROP TABLE \(q)")
    }

    @Test("names and values that look like SQL are data; a read-only role is enough")
    func safety() throws {
        let db = try PostgreSQLConnection(url: PostgresServer.url!)
        let table = name("t\"; DROP TABLE keep; --")
        let q = PostgreSQLConnection.quote(table)
        _ = try db.query("CREATE TABLE IF NOT EXISTS keep (x int)")
        _ = try db.query("CREATE TABLE \(q) (\"a\"\" int); --\" text)")
        _ = try db.query("INSERT INTO \(q) VALUES ($1)", ["'); DROP TABLE keep; --"])
        let role = name("reader")
        _ = try db.query("CREATE ROLE \(PostgreSQLConnection.quote(role)) LOGIN")
        _ = try db.query("GRANT SELECT ON \(q) TO \(PostgreSQLConnection.quote(role))")
        let reader = try PostgreSQLConnection(url: PostgresServer.url!.replacingOccurrences(of: "postgres@", with: "\(role)@"))
        let source = try PostgreSQLTableSource(connection: reader, table: table)
        #expect(source.columns.map(\.identifier) == ["a\" int); --"])
        #expect(source.text(row: 0, column: 0) == "'); DROP TABLE keep; --")
        #expect(throws: PostgreSQLError.self) { _ = try reader.query("INSERT INTO \(q) VALUES ('x')") }
        #expect(try db.query("SELECT to_regclass('keep') IS NOT NULL").text(0, 0) == "t")
        #expect(throws: PostgreSQLError.self) { _ = try PostgreSQLTableSource(connection: db, table: "missing_table") }
        _ = try db.query("DROP TABLE \(q)")
        _ = try db.query("DROP ROLE \(PostgreSQLConnection.quote(role))")
    }

    @Test(
        "rows inserted, updated and deleted through the source keep the grid as a fresh one would be",
        arguments: ["bigint PRIMARY KEY", "bigint"])
    func changes(idType: String) throws {
        let db = try PostgreSQLConnection(url: PostgresServer.url!)
        let table = name("changes")
        let q = PostgreSQLConnection.quote(table)
        _ = try db.query("CREATE TABLE \(q) (id \(idType), g text, s numeric)")
        _ = try db.query("INSERT INTO \(q) SELECT n, '组' || (n % 5), (n * 37 % 101) FROM generate_series(1, 200) n")
        let source = try PostgreSQLTableSource(connection: db, table: table)
        let grid = DataGrid(bound: source)
        func arrange(_ grid: DataGrid) throws {
            try grid.pin(.matching(column: "g", value: "组0"), at: .bottom)
            try grid.addSummary(SummaryRow(.mean, columns: ["s"], label: "平均"))
            try grid.sort(by: [SortKey("s", .descending), SortKey("id")])
        }
        try arrange(grid)
        var rng = SeededRandom(seed: 5)
        for step in 0..<30 {
            switch step % 3 {
            case 0: try source.insertRow(values: [.integer(1000 + step), .text("组\(step % 5)"), .integer(step)])
            case 1: try source.setValue(.integer(Int.random(in: 0...100, using: &rng)), row: Int.random(in: 0..<source.rowCount, using: &rng), column: 2)
            default: try source.removeRow(at: Int.random(in: 0..<source.rowCount, using: &rng))
            }
        }
        let fresh = DataGrid(bound: try PostgreSQLTableSource(connection: db, table: table))
        try arrange(fresh)
        #expect(grid.displayedRows == fresh.displayedRows)
        #expect(grid.text(.summary(0), column: 2) == fresh.text(.summary(0), column: 2))
        _ = try db.query("DROP TABLE \(q)")
    }

    @Test("a find asks the server once and lands where reading every cell would")
    func find() throws {
        let db = try PostgreSQLConnection(url: PostgresServer.url!)
        var rng = SeededRandom(seed: 62)
        let data = RandomTable.make(&rng, rows: 300)
        let table = name("find")
        try create(db, table, data)
        defer { _ = try? db.query("DROP TABLE \(PostgreSQLConnection.quote(table))") }
        let source = try PostgreSQLTableSource(connection: db, table: table)
        #expect(source.rows(containing: "组", column: 1) != nil, "the server searches itself")
        let grid = DataGrid(bound: source)
        try grid.pin(.matching(column: "组号", value: "组1"), at: .bottom)
        try grid.addSummary(SummaryRow(.mean, columns: ["big"], label: "平均"))
        try grid.sort(by: [SortKey("name", comparator: .text(.localized("zh")))])
        FindOracle.check(grid, "PostgreSQL")
    }

    @Test("a sort stopped from another thread (the viewer's Esc) cancels the server's statement; the order and keys stay")
    func interrupted() throws {
        let db = try PostgreSQLConnection(url: PostgresServer.url!)
        let table = name("interrupt")
        _ = try db.query(
            "CREATE TABLE \(PostgreSQLConnection.quote(table)) AS SELECT i AS id, (i::bigint * 7919) % 10007 AS k "
                + "FROM generate_series(1, 500000) AS i")
        defer { _ = try? db.query("DROP TABLE \(PostgreSQLConnection.quote(table))") }
        try InterruptTests.checkStopping(try PostgreSQLTableSource(connection: db, table: table), keyColumn: 1, afterMicroseconds: 30_000)
    }

    @Test("a lost connection is a clear error and the grid keeps the rows it has")
    func lostConnection() throws {
        let db = try PostgreSQLConnection(url: PostgresServer.url!)
        let table = name("lost")
        let q = PostgreSQLConnection.quote(table)
        _ = try db.query("CREATE TABLE \(q) (id int PRIMARY KEY, v text)")
        _ = try db.query("INSERT INTO \(q) SELECT g, 'v' || g FROM generate_series(1, 2000) g")
        let reader = try PostgreSQLConnection(url: PostgresServer.url!)
        let source = try PostgreSQLTableSource(connection: reader, table: table)
        let grid = DataGrid(bound: source)
        try grid.sort(by: [SortKey("v", comparator: .text(.natural))])
        let first = grid.text(grid.displayedRow(at: 0)!, column: 1)
        #expect(first == "v1")
        let pid = try reader.query("SELECT pg_backend_pid()").text(0, 0)
        _ = try db.query("SELECT pg_terminate_backend($1::int)", [pid])
        // Rows never read fail with a message naming the lost connection; rows read stay.
        let far = grid.displayedRow(at: 1999)!
        _ = grid.text(far, column: 1)
        #expect(
            source.lastError?.message.contains("lost") == true || source.lastError?.message.contains("terminat") == true,
            "\(String(describing: source.lastError))")
        #expect(grid.text(grid.displayedRow(at: 0)!, column: 1) == first)
        #expect(source.readFailure == source.lastError?.message && source.readFailure != nil, "what a viewer shows")
        // A sort that cannot read its keys fails, and the order stays: it is not an order of blanks.
        let shown = (0..<5).map { grid.displayedRow(at: $0)! }
        #expect(throws: SortError.self) { try grid.sort(by: [SortKey("id", .descending)]) }
        #expect((0..<5).map { grid.displayedRow(at: $0)! } == shown)
        _ = try db.query("DROP TABLE \(q)")
    }
}

@Suite("trellis sort with PostgreSQL", .serialized, .enabled(if: PostgresServer.available))
struct PostgreSQLCommandTests {
    static let groups = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Examples/groups.csv").standardizedFileURL

    /// A new table holding the example's rows (empty cells as NULL): its name and quoted name.
    static func groupsTable(_ db: PostgreSQLConnection, prefix: String) throws -> (String, String) {
        let table = "\(prefix)_\(UUID().uuidString.prefix(8).lowercased())"
        let q = PostgreSQLConnection.quote(table)
        _ = try db.query("CREATE TABLE \(q) (\"组号\" text, \"组长\" text, \"分数\" numeric, \"备注\" text)")
        let csv = try CSV.table(bytes: [UInt8](Data(contentsOf: groups)))
        for row in 0..<csv.rowCount {
            let texts = (0..<4).map { csv.text(row: row, column: $0) }
            _ = try db.query("INSERT INTO \(q) VALUES ($1, $2, $3, $4)", texts.map { $0.isEmpty ? nil : $0 })
        }
        return (table, q)
    }

    func run(_ arguments: [String]) -> (status: Int32, stdout: String, stderr: String) {
        var io = CommandIO(standardInput: { Data() }, currentDirectory: Self.groups.deletingLastPathComponent())
        let status = TrellisCommandLine.run(arguments, io: &io)
        return (status, io.stdout, io.stderr)
    }

    @Test("the example's table in PostgreSQL sorts as the CSV file does, 平均 pinned, cell for cell")
    func sameAsCSV() throws {
        let db = try PostgreSQLConnection(url: PostgresServer.url!)
        let (table, q) = try Self.groupsTable(db, prefix: "groups")
        let options = ["--by", "分数:desc", "--pin-bottom", "组号=平均", "--format", "csv"]
        let fromPG = run(["sort", PostgresServer.url!, "--table", table] + options)
        let fromCSV = run(["sort", "groups.csv"] + options)
        #expect(fromPG.status == 0, "\(fromPG.stderr)")
        #expect(fromPG.stdout == fromCSV.stdout)
        let query = run(["sort", PostgresServer.url!, "--query", "SELECT * FROM \(q) WHERE \"分数\" > 90"] + options)
        #expect(query.status == 0)
        let missing = run(["sort", PostgresServer.url!, "--table", "nope"])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("no table \"nope\""))
        let unreachable = run(["sort", "postgresql://nobody:secret@127.0.0.1:1/x", "--table", "t"])
        #expect(unreachable.status == 69, "EX_UNAVAILABLE")
        #expect(!unreachable.stderr.contains("secret"), "the password is not shown")
        _ = try db.query("DROP TABLE \(q)")
    }

    @Test(
        "a --query is one statement that only reads: two statements, writes (refused by the server), COPY and side-effect functions are refused, the table untouched"
    )
    func readOnlyQueries() throws {
        let db = try PostgreSQLConnection(url: PostgresServer.url!)
        let (_, q) = try Self.groupsTable(db, prefix: "guard")
        let rows = { () throws -> String in try db.query("SELECT count(*) FROM \(q)").text(0, 0) }
        let before = try rows()
        for (sql, fragment) in [
            ("SELECT * FROM \(q); DELETE FROM \(q)", "holds 2 statements"),
            ("WITH d AS (DELETE FROM \(q) RETURNING *) SELECT * FROM d", "read-only transaction"),
            ("SELECT * INTO trellis_copy FROM \(q)", "read-only transaction"),
            ("SELECT * FROM \(q) FOR SHARE", "read-only transaction"),
            ("COPY \(q) TO '/tmp/trellis-copy'", "begins with \"COPY\""),
            ("SELECT lo_export(1, '/tmp/trellis-lo')", "calls lo_export()"),
            ("SELECT pg_reload_conf()", "calls pg_reload_conf()"),
        ] {
            let result = run(["sort", PostgresServer.url!, "--query", sql])
            #expect(result.status == 64, "\(sql): \(result.stderr)")
            #expect(result.stderr.contains(fragment), "\(sql): \(result.stderr)")
        }
        // A function of the database's own that writes is volatile, refused before it runs; one
        // declared STABLE that writes anyway is stopped by the server (and the transaction).
        _ = try db.query("CREATE OR REPLACE FUNCTION trellis_wipe() RETURNS int AS $$ DELETE FROM \(q) RETURNING 1 $$ LANGUAGE sql")
        let sneaky = run(["sort", PostgresServer.url!, "--query", "SELECT trellis_wipe()"])
        #expect(sneaky.status == 64 && sneaky.stderr.contains("calls trellis_wipe()"), "\(sneaky.stderr)")
        _ = try db.query(
            "CREATE OR REPLACE FUNCTION trellis_wipe_stable() RETURNS int AS $$ BEGIN DELETE FROM \(q); RETURN 1; END $$ "
                + "LANGUAGE plpgsql STABLE")
        let liar = run(["sort", PostgresServer.url!, "--query", "SELECT trellis_wipe_stable()"])
        #expect(liar.status == 64 && liar.stderr.contains("non-volatile function"), "\(liar.stderr)")
        #expect(try rows() == before)
        _ = try db.query("DROP FUNCTION trellis_wipe_stable()")
        _ = try db.query("DROP FUNCTION trellis_wipe()")
        _ = try db.query("DROP TABLE \(q)")
    }

    @Test(
        "trellis view browses a PostgreSQL table in a real terminal: sorted, 平均 kept last, a header sort, the end",
        .enabled(if: Tmux.path != nil))
    func view() throws {
        let db = try PostgreSQLConnection(url: PostgresServer.url!)
        let (table, q) = try Self.groupsTable(db, prefix: "view")
        defer { _ = try? db.query("DROP TABLE \(q)") }
        let root = Self.groups.deletingLastPathComponent().deletingLastPathComponent()
        let trellis = ProcessInfo.processInfo.environment["TRELLIS_BINARY"] ?? root.appendingPathComponent(".build/debug/trellis").path
        let terminal = Tmux(session: "trellis-view-pg-\(getpid())")
        defer { terminal.kill() }
        try terminal.start("\(trellis) view '\(PostgresServer.url!)' --table \(table) --by 分数:desc --pin-bottom 组号=平均", in: root.path)
        var lines = try terminal.wait { $0.contains { $0.contains("row 1/13") } }
        #expect(lines[0].contains("分数 ▼1"), "\(lines)")
        #expect(lines[2].hasPrefix("组7"))
        #expect(lines.contains { $0.hasPrefix("平均") && $0.contains("81.375") })
        try terminal.send(["s"])  // 组号 in natural order: 组2 before 组10, as over the CSV file
        lines = try terminal.wait { $0.contains { $0.contains("组号 ▲1") } }
        #expect(lines[2].hasPrefix("组1 ") && lines[3].hasPrefix("组2 "))
        #expect(lines.suffix(3).contains { $0.hasPrefix("平均") }, "平均 stays pinned")
        try terminal.send(["End"])
        lines = try terminal.wait { $0.contains { $0.contains("row 13/13") } }
        #expect(lines.contains { $0.contains("row 13/13") }, "End goes to the last row, the pinned 平均")
        try terminal.send(["q"])
        lines = try terminal.wait { $0.contains("icanon") || $0.contains("-icanon") }
        #expect(lines.contains("EXIT=0"))
        #expect(lines.contains("icanon"))
    }
}

/// The proof of the issue: the same random rows in SQLite, in PostgreSQL and in memory give the
/// same order for every kind of key and direction (SQLite's own stray-text case is in its suite;
/// PostgreSQL's columns cannot mix kinds).
@Suite("Three engines, one order", .serialized, .enabled(if: PostgresServer.available))
struct DifferentialTests {
    @Test("SQLite, PostgreSQL and the in-memory engine order random tables alike", arguments: 0..<3)
    func sameOrder(seed: Int) throws {
        var rng = SeededRandom(seed: UInt64(700 + seed))
        var data = RandomTable.make(&rng, rows: Int.random(in: 50...1500, using: &rng))
        // PostgreSQL's double column holds numbers only: a stray text becomes NULL on every side.
        for r in data.rows.indices where { if case .text = data.rows[r][2] { true } else { false } }() { data.rows[r][2] = .null }
        let scratch = ScratchDatabase()
        try data.write(to: try scratch.writer(), table: "t")
        let sqlite = try SQLiteTableSource(connection: try SQLiteConnection(path: scratch.path), table: "t")
        let db = try PostgreSQLConnection(url: PostgresServer.url!)
        let table = "diff_\(UUID().uuidString.prefix(8).lowercased())"
        let q = PostgreSQLConnection.quote(table)
        _ = try db.query("CREATE TABLE \(q) (id bigint PRIMARY KEY, \"组号\" text, \"分数\" double precision, big bigint, name text)")
        for row in data.rows {
            _ = try db.query(
                "INSERT INTO \(q) VALUES ($1, $2, $3, $4, $5)",
                row.map { value -> String? in
                    switch value {
                    case .null, .blob: return nil
                    case .integer(let i): return String(i)
                    case .real(let d): return "\(d)"
                    case .text(let s): return s
                    }
                })
        }
        defer { _ = try? db.query("DROP TABLE \(q)") }
        let postgres = try PostgreSQLTableSource(connection: db, table: table)
        postgres.sortsOnServer = true
        let memory = try data.table()
        let comparators: [KeyComparator] = [
            .standard, .text(.natural), .text(.naturalDecimal), .text(.lexical),
            .text(.caseInsensitive), .text(.localized("zh")), .text(.localized("de")),
            .custom({ a, b in
                a.description.count < b.description.count
                    ? .orderedAscending
                    : a.description.count > b.description.count ? .orderedDescending : .orderedSame
            }),
        ]
        for column in ["id", "组号", "分数", "big", "name"] {
            for comparator in comparators {
                for direction in [SortDirection.ascending, .descending] {
                    for nulls in NullPlacement.allCases {
                        let keys = [SortKey(column, direction, comparator: comparator, nulls: nulls)]
                        let orders = try [sqlite, postgres, memory].map { (source: GridDataSource) -> [DisplayRow] in
                            let grid = DataGrid(bound: source)
                            try grid.pin(.matching(column: "组号", value: "组3"), at: .top)
                            try grid.sort(by: keys)
                            return grid.displayedRows
                        }
                        #expect(orders[0] == orders[2], "SQLite: seed \(seed) \(column) \(comparator) \(direction) \(nulls)")
                        #expect(orders[1] == orders[2], "PostgreSQL: seed \(seed) \(column) \(comparator) \(direction) \(nulls)")
                    }
                }
            }
        }
        // Number keys were sorted by the server, text keys here.
        #expect(postgres.serverSorts == 3 * 2 * 3, "id, 分数 and big by the standard comparator, both ways, three null placements")
        // Two keys, mixed directions, and the row-aware hook.
        let hooked = try [sqlite, postgres, memory].map { (source: GridDataSource) -> [DisplayRow] in
            let grid = DataGrid(bound: source)
            grid.sortCompare = { args in args.column == "组号" && args.row1 % 7 == 0 ? .orderedAscending : nil }
            try grid.sort(by: [SortKey("组号", .descending), SortKey("分数", nulls: .first)])
            return grid.displayedRows
        }
        #expect(hooked[0] == hooked[2] && hooked[1] == hooked[2])
    }
}

@Suite("PostgreSQL windows of a server sort", .serialized, .enabled(if: PostgresServer.available))
struct PostgreSQLWindowTests {
    @Test("rank jumps and keyset pages give the grid's order, with NULLs and mixed directions", arguments: 0..<3)
    func windows(seed: Int) throws {
        var rng = SeededRandom(seed: UInt64(800 + seed))
        let db = try PostgreSQLConnection(url: PostgresServer.url!)
        let table = "win_\(UUID().uuidString.prefix(8).lowercased())"
        let q = PostgreSQLConnection.quote(table)
        _ = try db.query("CREATE TABLE \(q) (id bigint\(seed == 2 ? "" : " PRIMARY KEY"), a integer, b double precision, c numeric)")
        let n = Int.random(in: 200...700, using: &rng)
        var parameters: [String?] = []
        var sql = "INSERT INTO \(q) VALUES "
        for i in 0..<n {
            if i > 0 { sql += ", " }
            sql += "($\(parameters.count + 1), $\(parameters.count + 2), $\(parameters.count + 3), $\(parameters.count + 4))"
            parameters += [
                String(i + 1),
                rng.chance(0.2) ? nil : String(Int.random(in: 0...6, using: &rng)),
                rng.chance(0.2) ? nil : rng.chance(0.05) ? "NaN" : String(Double(Int.random(in: 0...20, using: &rng)) / 4),
                rng.chance(0.2) ? nil : "1234567890123456789.\(Int.random(in: 0...3, using: &rng))",
            ]
        }
        _ = try db.query(sql, parameters)
        defer { _ = try? db.query("DROP TABLE \(q)") }
        let source = try PostgreSQLTableSource(connection: db, table: table)
        // The same cells in memory, from their texts, so that the numerics keep their digits.
        let memory = Table(columns: source.columns)
        for row in 0..<source.rowCount { try memory.appendRow((0..<4).map { source.text(row: row, column: $0) }) }
        for keys in [
            [SortKey("a", .descending, nulls: .first), SortKey("b")],
            [SortKey("b", .descending), SortKey("a", nulls: .asSmallest), SortKey("c", .descending, nulls: .first)],
            [SortKey("c"), SortKey("a", .descending)],
        ] {
            let grid = DataGrid(bound: memory)
            try grid.sort(by: keys)
            let expected = grid.displayedRows.map { row -> String in
                guard case .source(let p) = row else { return "" }
                return memory.text(row: p, column: 0)
            }
            let windows = try PostgreSQLSortedWindows(source: source, keys: keys)
            #expect(windows.count == n)
            // Keyset pages from the start to the end.
            var seen: [String] = []
            var page = try windows.rows(at: 0, count: 37)
            while !page.isEmpty {
                seen += page.map { $0.texts[0] }
                page = try windows.rows(after: page.last!, count: 37)
            }
            // The keyset predicate alone, as for rows deleted since the ranking.
            var keyset: [String] = []
            page = try windows.rows(at: 0, count: 53)
            while !page.isEmpty {
                keyset += page.map { $0.texts[0] }
                page = try windows.keysetRows(after: page.last!, count: 53)
            }
            #expect(keyset == expected, "keyset predicate, seed \(seed)")
            #expect(seen == expected, "keyset pages, seed \(seed), keys \(keys.map { "\($0.column) \($0.direction) \($0.nulls)" })")
            // Jumps by rank.
            for _ in 0..<10 {
                let at = Int.random(in: 0..<n, using: &rng)
                let jump = try windows.rows(at: at, count: 25).map { $0.texts[0] }
                #expect(jump == Array(expected[at..<min(n, at + 25)]))
            }
        }
        #expect(throws: PostgreSQLError.self) {
            _ = try PostgreSQLSortedWindows(source: source, keys: [SortKey("a", comparator: .text(.natural))])
        }
    }
}

extension PostgreSQLCommandTests {
    /// A new table declared by `columns` holding `rows` (`nil` is NULL): its name and quoted name.
    static func scratchTable(_ db: PostgreSQLConnection, prefix: String, columns: String, rows: [[String?]]) throws -> (String, String) {
        let table = "\(prefix)_\(UUID().uuidString.prefix(8).lowercased())"
        let q = PostgreSQLConnection.quote(table)
        _ = try db.query("CREATE TABLE \(q) (\(columns))")
        for row in rows {
            _ = try db.query("INSERT INTO \(q) VALUES (\(row.indices.map { "$\($0 + 1)" }.joined(separator: ", ")))", row)
        }
        return (table, q)
    }

    @Test(
        "a GROUP BY ROLLUP query's subtotal rows (NULL in the rolled-up column) keep their groups: found, sorted within, each cell checked as the aggregate it agrees with"
    )
    func rollupQuery() throws {
        let db = try PostgreSQLConnection(url: PostgresServer.url!)
        let (_, q) = try Self.scratchTable(
            db, prefix: "sales", columns: "\"地区\" text, \"产品\" text, \"销售额\" numeric(10,2), \"单价\" numeric(10,2)",
            rows: [
                ["华东", "电视", "1200.50", "3000.00"], ["华东", "冰箱", "800.00", "2500.00"], ["华东", "空调", "2300.25", "4100.00"],
                ["华北", "电视", "640.00", "2800.00"], ["华北", "冰箱", "1990.10", "2600.00"],
                ["华南", "空调", "3100.00", "3900.00"], ["华南", "电视", "150.00", "2700.00"], ["华南", "洗衣机", "410.40", "1800.00"],
            ])
        defer { _ = try? db.query("DROP TABLE \(q)") }
        // What a report query writes: each region's products, its subtotal (产品 NULL), the grand total (both NULL).
        let rollup =
            "SELECT \"地区\", \"产品\", SUM(\"销售额\") AS \"销售额\", COUNT(*) AS \"笔数\", MAX(\"单价\") AS \"最高单价\" FROM \(q) "
            + "GROUP BY ROLLUP(\"地区\", \"产品\") ORDER BY \"地区\", \"产品\""
        let sorted = run(["sort", PostgresServer.url!, "--query", rollup, "--by", "销售额:desc", "--format", "csv"])
        #expect(sorted.status == 0, "\(sorted.stderr)")
        #expect(sorted.stderr.contains("note: 3 subtotal groups by 地区 (SQL's ROLLUP shape"), "\(sorted.stderr)")
        #expect(!sorted.stderr.contains("warning") && !sorted.stderr.contains("unchecked"), "sum, count and max each agree: \(sorted.stderr)")
        let lines = sorted.stdout.split(whereSeparator: \.isNewline).map {
            $0.split(separator: ",", omittingEmptySubsequences: false).prefix(3).joined(separator: ",")
        }
        // PostgreSQL orders 华东 (U+4E1C) before 华北 (U+5317) before 华南 (U+5357); within each, by 销售额.
        #expect(
            lines == [
                "地区,产品,销售额",
                "华东,空调,2300.25", "华东,电视,1200.50", "华东,冰箱,800.00", "华东,,4300.75",
                "华北,冰箱,1990.10", "华北,电视,640.00", "华北,,2630.10",
                "华南,空调,3100.00", "华南,洗衣机,410.40", "华南,电视,150.00", "华南,,3660.40",
                ",,10591.25",
            ], "\(sorted.stdout)")
        // GROUPING SETS with the subtotal first (NULLS FIRST) and COALESCE's words: the same groups.
        let sets =
            "SELECT COALESCE(\"地区\", '总计') AS \"地区\", COALESCE(\"产品\", '小计') AS \"产品\", SUM(\"销售额\") AS \"销售额\" FROM \(q) "
            + "s GROUP BY GROUPING SETS ((s.\"地区\", s.\"产品\"), (s.\"地区\"), ()) ORDER BY s.\"地区\" NULLS FIRST, s.\"产品\" NULLS FIRST"
        let first = run(["sort", PostgresServer.url!, "--query", sets, "--by", "销售额", "--format", "csv"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("subtotal groups by 地区 (SQL's ROLLUP shape"), "\(first.stderr)")
        let firstLines = first.stdout.split(whereSeparator: \.isNewline).map(String.init)
        #expect(firstLines.contains("华北,小计,2630.10"))
        let north = try #require(firstLines.firstIndex(of: "华北,小计,2630.10"))
        #expect(Array(firstLines[(north + 1)...].prefix(2)) == ["华北,电视,640.00", "华北,冰箱,1990.10"], "\(first.stdout)")
    }
}

extension PostgreSQLCommandTests {
    @Test(
        "a grouped sort of a table holding subtotal rows, with sortsOnServer, is ordered by the server's ORDER BY and dealt to its groups: the order of the same rows in memory"
    )
    func groupedSortOnServer() throws {
        let db = try PostgreSQLConnection(url: PostgresServer.url!)
        let rows: [(String?, String?, String?)] = [
            ("华东", "电视", "1200.50"), ("华东", "冰箱", nil), ("华东", "空调", "2300.25"), ("华东", nil, "3500.75"),
            ("华北", "电视", "640.00"), ("华北", "冰箱", "1990.10"), ("华北", nil, "2630.10"),
            (nil, nil, "6130.85"),
        ]
        let (table, q) = try Self.scratchTable(
            db, prefix: "subtotals", columns: "id integer PRIMARY KEY, \"地区\" text, \"产品\" text, \"销售额\" numeric(10,2)",
            rows: rows.enumerated().map { [String($0 + 1), $1.0, $1.1, $1.2] })
        defer { _ = try? db.query("DROP TABLE \(q)") }
        let postgres = try PostgreSQLTableSource(connection: db, table: table)
        postgres.sortsOnServer = true
        let memory = try CSV.table(
            bytes: Array(("id,地区,产品,销售额\n" + rows.enumerated().map { "\($0 + 1),\($1.0 ?? ""),\($1.1 ?? ""),\($1.2 ?? "")" }.joined(separator: "\n")).utf8))
        #expect(RowGrouping.detect(in: postgres) == RowGrouping(column: "地区", detail: "产品"))
        for direction in [SortDirection.ascending, .descending] {
            let orders = try [postgres, memory].map { (source: GridDataSource) -> [DisplayRow] in
                let grid = DataGrid(bound: source)
                try grid.setGrouping(RowGrouping(column: "地区", detail: "产品"))
                try grid.sort(by: [SortKey("销售额", direction)])
                return grid.displayedRows
            }
            #expect(orders[0] == orders[1], "\(direction)")
        }
        #expect(postgres.serverSorts == 2, "both sorts ran on the server")
    }
}
