import Foundation
import Testing
import TrellisCLI
import TrellisGrid
import TrellisSQL
import TrellisTestSupport

/// A fresh database file in a temporary folder, removed when the test ends.
final class ScratchDatabase {
    let path: String
    init() {
        path =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("trellis-sql-\(UUID().uuidString).sqlite").path
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
    func writer() throws -> SQLiteConnection { try SQLiteConnection(path: path, readOnly: false, create: true) }
}

/// A table of random cells of the kinds real files hold, as SQLite stores them and as values.
struct RandomTable {
    static let columns = [("id", "INTEGER"), ("组号", "TEXT"), ("分数", "REAL"), ("big", "INTEGER"), ("name", "TEXT")]
    var rows: [[SQLiteValue]]

    static func make(_ rng: inout SeededRandom, rows count: Int) -> RandomTable {
        let names = ["张三", "李四", "王五", "Émile", "E\u{301}mile", "emile", "Zoë", "zoe", "o'Brien", "Robert'); DROP TABLE t;--"]
        var rows: [[SQLiteValue]] = []
        for i in 0..<count {
            let group: SQLiteValue =
                rng.chance(0.1)
                ? .null
                : .text(
                    rng.chance(0.2)
                        ? "第\(["一", "二", "十", "十一"].randomElement(using: &rng)!)组"
                        : "组\(Int.random(in: 1...12, using: &rng))")
            let score: SQLiteValue =
                rng.chance(0.1)
                ? .null
                : rng.chance(0.08)
                    ? .text("缺考")
                    : .real(Double(Int.random(in: 0...200, using: &rng)) / 2)
            let big: SQLiteValue = rng.chance(0.1) ? .null : .integer(Int64.random(in: Int64.max - 3...Int64.max, using: &rng))
            let name: SQLiteValue = rng.chance(0.1) ? .null : .text(names.randomElement(using: &rng)!)
            rows.append([.integer(Int64(i + 1)), group, score, big, name])
        }
        return RandomTable(rows: rows)
    }

    func write(to db: SQLiteConnection, table: String) throws {
        let quoted = SQLiteConnection.quote(table)
        let definition = Self.columns.map { "\(SQLiteConnection.quote($0.0)) \($0.1)" }.joined(separator: ", ")
        try db.execute("CREATE TABLE \(quoted) (\(definition))")
        let insert = try db.prepare("INSERT INTO \(quoted) VALUES (?, ?, ?, ?, ?)")
        try db.execute("BEGIN")
        for row in rows {
            try insert.bind(row)
            while try insert.step() {}
        }
        try db.execute("COMMIT")
    }

    /// The same cells as an in-memory table.
    func table() throws -> Table {
        let table = Table(columns: Self.columns.map { Column($0.0, type: $0.1 == "TEXT" ? .text : $0.1 == "REAL" ? .decimal : .integer) })
        for row in rows {
            try table.appendRow(
                values: row.map { value in
                    switch value {
                    case .null: return .missing
                    case .integer(let i): return .integer(Int(i))
                    case .real(let d): return .decimal(d)
                    case .text(let s): return .text(s)
                    case .blob: return .missing
                    }
                })
        }
        return table
    }
}

@Suite("SQLite sources")
struct SQLiteSourceTests {
    @Test(
        "a grid bound to an SQLite table sorts, pins and summarises exactly as over the same data in memory",
        arguments: 0..<4)
    func sameAsInMemory(seed: Int) throws {
        var rng = SeededRandom(seed: UInt64(90 + seed))
        let data = RandomTable.make(&rng, rows: Int.random(in: 0...1500, using: &rng))
        let scratch = ScratchDatabase()
        try data.write(to: try scratch.writer(), table: "scores")
        let source = try SQLiteTableSource(connection: try SQLiteConnection(path: scratch.path), table: "scores")
        let memory = try data.table()
        #expect(source.rowCount == memory.rowCount)
        let keys: [[SortKey]] = [
            [SortKey("分数", .descending)],
            [SortKey("组号", comparator: .text(.natural)), SortKey("分数", .descending, nulls: .first)],
            [SortKey("name", comparator: .text(.localized("zh")))],
            [SortKey("name", .descending, comparator: .text(.caseInsensitive), nulls: .asSmallest)],
            [SortKey("big", .descending), SortKey("id")],
            [SortKey("name", comparator: .text(.lexical))],
        ]
        for sortKeys in keys {
            let a = DataGrid(bound: source), b = DataGrid(bound: memory)
            for grid in [a, b] {
                try grid.pin(.matching(column: "组号", value: "组1"), at: .bottom)
                try grid.addSummary(SummaryRow(.mean, columns: ["分数"], label: "平均"))
                try grid.sort(by: sortKeys)
            }
            #expect(a.displayedRows == b.displayedRows, "seed \(seed), keys \(sortKeys.map(\.column))")
            for index in stride(from: 0, to: a.displayedRowCount, by: max(1, a.displayedRowCount / 40)) {
                let ra = a.displayedRow(at: index)!, rb = b.displayedRow(at: index)!
                for column in 0..<5 {
                    #expect(a.value(ra, column: column) == b.value(rb, column: column))
                }
                // Text is as stored: the text columns' exactly (SQLite writes reals its own way, 98.0).
                for column in [1, 4] { #expect(a.text(ra, column: column) == b.text(rb, column: column)) }
            }
        }
    }

    @Test("a prefetched window of the sorted grid reads the cells the blocks would")
    func windows() throws {
        var rng = SeededRandom(seed: 7)
        let data = RandomTable.make(&rng, rows: 3000)
        let scratch = ScratchDatabase()
        try data.write(to: try scratch.writer(), table: "t")
        let connection = try SQLiteConnection(path: scratch.path)
        let windowed = DataGrid(bound: try SQLiteTableSource(connection: connection, table: "t"))
        let plain = DataGrid(bound: try SQLiteTableSource(connection: connection, table: "t"))
        for grid in [windowed, plain] { try grid.sort(by: [SortKey("name", comparator: .text(.localized("zh"))), SortKey("id", .descending)]) }
        for _ in 0..<30 {
            let start = Int.random(in: 0..<2900, using: &rng)
            windowed.prefetch(displayedRows: start..<(start + 100))
            for index in start..<(start + 100) {
                let a = windowed.displayedRow(at: index)!, b = plain.displayedRow(at: index)!
                #expect(a == b)
                for c in 0..<5 {
                    #expect(windowed.value(a, column: c) == plain.value(b, column: c))
                    #expect(windowed.text(a, column: c) == plain.text(b, column: c))
                }
            }
        }
    }

    @Test("values keep their exact type and text: 64-bit integers, reals, text in a number column")
    func exactValues() throws {
        let scratch = ScratchDatabase()
        let db = try scratch.writer()
        try db.execute("CREATE TABLE t (id INTEGER, score REAL, code TEXT)")
        try db.run("INSERT INTO t VALUES (?, ?, ?)", [.integer(9_223_372_036_854_775_807), .real(88.5), .text("007")])
        try db.run("INSERT INTO t VALUES (?, ?, ?)", [.integer(9_223_372_036_854_775_806), .text("缺考"), .text("7")])
        let source = try SQLiteTableSource(connection: try SQLiteConnection(path: scratch.path), table: "t")
        #expect(source.value(row: 0, column: 0) == .integer(9_223_372_036_854_775_807))
        #expect(source.value(row: 1, column: 0) == .integer(9_223_372_036_854_775_806))
        #expect(source.value(row: 1, column: 1) == .text("缺考"))
        #expect(source.text(row: 0, column: 2) == "007")
        #expect(source.value(row: 0, column: 2) == .integer(7), "a text column's cells are read as a CSV file's, their text kept")
        #expect(source.columns.map(\.type) == [.integer, .decimal, .integer])
        let grid = DataGrid(bound: source)
        try grid.sort(by: [SortKey("id")])
        #expect(grid.displayedRows == [.source(1), .source(0)], "18-digit ids do not tie")
    }

    @Test("a table the sqlite3 shell imported (every column TEXT) sorts as the CSV file does, table and query alike")
    func shellImport() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/sqlite3-import.sqlite")
        let db = try SQLiteConnection(path: fixture.path)
        let csv = try CSV.table(Data(contentsOf: fixture.deletingLastPathComponent().appendingPathComponent("../../../Examples/groups.csv")))
        let keys = [SortKey("分数", .descending), SortKey("组号")]
        func order(_ source: GridDataSource) throws -> [String] {
            let grid = DataGrid(bound: source)
            try grid.pin(.matching(column: "组号", value: "平均"), at: .bottom)
            try grid.sort(by: keys)
            return (0..<grid.displayedRowCount).map {
                grid.text(grid.displayedRow(at: $0)!, column: 0) + "=" + grid.text(grid.displayedRow(at: $0)!, column: 2)
            }
        }
        let table = try SQLiteTableSource(connection: db, table: "groups")
        #expect(table.columns.map(\.type) == csv.columns.map(\.type))
        let expected = try order(csv)
        #expect(expected.first == "组7=99" && expected.last == "平均=81.375")
        #expect(try order(table) == expected)
        #expect(try order(try SQLiteQuerySource.table(connection: db, query: "SELECT * FROM groups")) == expected)
        // Wide numbers held as text sort by their digits.
        let scratch = ScratchDatabase()
        let writer = try scratch.writer()
        try writer.execute("CREATE TABLE ids (id TEXT)")
        for id in ["12345678901234567891", "12345678901234567890", "9"] { try writer.run("INSERT INTO ids VALUES (?)", [.text(id)]) }
        let ids = DataGrid(bound: try SQLiteTableSource(connection: try SQLiteConnection(path: scratch.path), table: "ids"))
        try ids.sort(by: [SortKey("id", .descending)])
        #expect(ids.displayedRows == [.source(0), .source(1), .source(2)])
    }

    @Test("a --query is one statement that only reads: two statements, ATTACH and PRAGMA writes are refused, the file's bytes unchanged")
    func readOnlyQueries() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-ro-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("t.sqlite").path
        let db = try SQLiteConnection(path: path, readOnly: false, create: true)
        try db.execute("CREATE TABLE t (a INTEGER, b TEXT); INSERT INTO t VALUES (1, 'x'), (2, 'y');")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        for (sql, fragment) in [
            ("SELECT * FROM t; DELETE FROM t", "holds 2 statements"),
            ("SELECT * FROM t; SELECT 1", "holds 2 statements"),
            ("ATTACH '\(folder.path)/other.sqlite' AS o", "begins with \"ATTACH\""),
            ("PRAGMA user_version = 7", "begins with \"PRAGMA\""),
            ("INSERT INTO t VALUES (3, 'z') RETURNING *", "begins with \"INSERT\""),
        ] {
            var io = CommandIO(standardInput: { Data() }, currentDirectory: folder)
            let status = TrellisCommandLine.run(["sort", "t.sqlite", "--query", sql], io: &io)
            #expect(status == 64, "\(sql): \(io.stderr)")
            #expect(io.stderr.contains(fragment), "\(sql): \(io.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        // Columns spelt like commands are read.
        try db.execute("CREATE TABLE notes (comment TEXT, \"load\" INTEGER); INSERT INTO notes VALUES ('b', 2), ('a', 1);")
        let notesBytes = try Data(contentsOf: URL(fileURLWithPath: path))
        var io = CommandIO(standardInput: { Data() }, currentDirectory: folder)
        #expect(
            TrellisCommandLine.run(
                [
                    "sort", "t.sqlite", "--query", "SELECT comment, load FROM notes", "--by", "comment",
                    "--format", "csv",
                ], io: &io) == 0, "\(io.stderr)")
        #expect(io.stdout == "comment,load\r\na,1\r\nb,2\r\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == notesBytes)
        // SQLite's own check backs the reading of the SQL: a statement it finds writing is refused.
        let reader = try SQLiteConnection(path: path)
        #expect(throws: SQLiteError.self) { try reader.prepareReadOnlyQuery("DELETE FROM t") }
        #expect(throws: SQLiteError.self) { try reader.prepareReadOnlyQuery("SELECT 1; SELECT 2") }
        // Loading an extension (code that could do anything) is not allowed on these connections,
        // however the call is spelt.
        for sql in ["SELECT load_extension('libsqlite3.so.0')", "SELECT \"load_extension\"/**/('libsqlite3.so.0')"] {
            var refused = CommandIO(standardInput: { Data() }, currentDirectory: folder)
            #expect(TrellisCommandLine.run(["sort", "t.sqlite", "--query", sql], io: &refused) == 64)
            #expect(refused.stderr.contains("not authorized"), "\(refused.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == notesBytes)
    }

    @Test("a sort whose keys cannot be read (the table dropped meanwhile, the rows too many to be held) fails and leaves the order as it was")
    func sortThatCannotRead() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-gone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("t.sqlite").path
        let writer = try SQLiteConnection(path: path, readOnly: false, create: true)
        try writer.execute(
            "CREATE TABLE t (a INTEGER, b TEXT); "
                + (0..<2000).map { "INSERT INTO t VALUES (\($0 * 7 % 2000), 'r\($0)');" }.joined())
        let source = try SQLiteTableSource(connection: SQLiteConnection(path: path), table: "t")
        let grid = DataGrid(bound: source)
        try grid.sort(by: [SortKey("a")])
        let shown = (0..<10).map { grid.displayedRow(at: $0)! }
        try writer.execute("DROP TABLE t")
        #expect(throws: SortError.sourceReadFailed("no such table: t")) { try grid.sort(by: [SortKey("b", .descending)]) }
        #expect((0..<10).map { grid.displayedRow(at: $0)! } == shown)
        #expect(grid.sortKeys.map(\.column) == ["a"])
        // The table back, the failure of an earlier read does not fail the next sort, whose reads succeed.
        try writer.execute(
            "CREATE TABLE t (a INTEGER, b TEXT); "
                + (0..<2000).map { "INSERT INTO t VALUES (\($0 * 7 % 2000), 'r\($0)');" }.joined())
        #expect(source.readFailure != nil)
        try grid.sort(by: [SortKey("b", .descending)])
        #expect(grid.text(grid.displayedRow(at: 0)!, column: 1) == "r1999")
    }

    @Test("a file that is not an SQLite database, or one cut short, is refused naming the fault, and left as it was")
    func notADatabase() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-notdb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = folder.appendingPathComponent("good.sqlite").path
        let db = try SQLiteConnection(path: good, readOnly: false, create: true)
        try db.execute("CREATE TABLE t (a TEXT); " + (0..<300).map { "INSERT INTO t VALUES ('\(String(repeating: "x", count: 40))\($0)');" }.joined())
        let bytes = try Data(contentsOf: URL(fileURLWithPath: good))
        let files: [(String, Data, String)] = [
            ("text.sqlite", Data("just some text, not a database\n".utf8), "file is not a database: it is not an SQLite file"),
            ("cut.sqlite", bytes.prefix(bytes.count / 2), "database disk image is malformed: the file is damaged or cut short"),
        ]
        for (name, data, message) in files {
            try data.write(to: folder.appendingPathComponent(name))
            var io = CommandIO(standardInput: { Data() }, currentDirectory: folder)
            let status = TrellisCommandLine.run(["sort", name, "--table", "t", "--by", "a"], io: &io)
            #expect(status == 65 && io.stderr.contains(message), "\(name): \(io.stderr)")
            #expect(try Data(contentsOf: folder.appendingPathComponent(name)) == data)
        }
    }

    @Test("a database another program holds locked: a bounded wait, then a clear message; a lock let go in time is waited out")
    func lockedDatabase() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-lock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("t.sqlite").path
        let writer = try SQLiteConnection(path: path, readOnly: false, create: true)
        try writer.execute("CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1), (2);")
        try writer.execute("BEGIN EXCLUSIVE; INSERT INTO t VALUES (3);")
        let started = Date()
        #expect {
            _ = try SQLiteTableSource(connection: SQLiteConnection(path: path, busyTimeout: 0.3), table: "t")
        } throws: { error in
            let message = (error as? SQLiteError)?.message ?? ""
            return message.hasPrefix("database is locked: another program is writing to it; waited 0 s")
        }
        let waited = Date().timeIntervalSince(started)
        #expect(waited >= 0.25 && waited < 5, "waited \(waited) s")
        // Let go of the lock while a reader waits: it reads the table as it was.
        let release = DispatchWorkItem { try? writer.execute("ROLLBACK") }
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3, execute: release)
        let source = try SQLiteTableSource(connection: SQLiteConnection(path: path, busyTimeout: 10), table: "t")
        #expect(source.rowCount == 2)
        release.wait()
    }

    @Test("a read-only connection is enough, and it writes nothing")
    func readOnly() throws {
        let scratch = ScratchDatabase()
        let db = try scratch.writer()
        try db.execute("CREATE TABLE t (a INTEGER)")
        try db.run("INSERT INTO t VALUES (1)")
        let reader = try SQLiteConnection(path: scratch.path)
        #expect(throws: SQLiteError.self) { try reader.run("INSERT INTO t VALUES (2)") }
        let grid = DataGrid(bound: try SQLiteTableSource(connection: reader, table: "t"))
        try grid.sort(by: [SortKey("a", .descending)])
        #expect(grid.displayedRowCount == 1)
    }

    @Test("names and values that look like SQL are data")
    func injection() throws {
        let scratch = ScratchDatabase()
        let db = try scratch.writer()
        let name = "scores\"; DROP TABLE keep; --"
        let column = "a\" INTEGER); DROP TABLE keep; --"
        try db.execute("CREATE TABLE keep (x INTEGER)")
        try db.execute("CREATE TABLE \(SQLiteConnection.quote(name)) (\(SQLiteConnection.quote(column)) TEXT)")
        try db.run("INSERT INTO \(SQLiteConnection.quote(name)) VALUES (?)", [.text("'); DROP TABLE keep; --")])
        let source = try SQLiteTableSource(connection: try SQLiteConnection(path: scratch.path), table: name)
        #expect(source.columns.map(\.identifier) == [column])
        #expect(source.text(row: 0, column: 0) == "'); DROP TABLE keep; --")
        let grid = DataGrid(bound: source)
        try grid.sort(by: [SortKey(column)])
        var tables: [String] = []
        try db.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") { tables.append($0.text(0)) }
        #expect(tables.contains("keep"))
        #expect(throws: SQLiteError.self) { _ = try SQLiteTableSource(connection: db, table: "missing") }
    }

    @Test("after changes made elsewhere, a refresh keeps the grid's sort and pins current")
    func refresh() throws {
        let scratch = ScratchDatabase()
        let db = try scratch.writer()
        try db.execute("CREATE TABLE t (g TEXT, s REAL)")
        for (g, s) in [("组1", 3.0), ("平均", 2.0), ("组2", 1.0)] { try db.run("INSERT INTO t VALUES (?, ?)", [.text(g), .real(s)]) }
        let source = try SQLiteTableSource(connection: try SQLiteConnection(path: scratch.path), table: "t")
        let grid = DataGrid(bound: source)
        try grid.pin(.matching(column: "g", value: "平均"), at: .bottom)
        try grid.sort(by: [SortKey("s")])
        #expect(grid.displayedRows == [.source(2), .source(0), .source(1)])
        try db.run("INSERT INTO t VALUES (?, ?)", [.text("组3"), .real(0.5)])
        try source.refresh()
        #expect(grid.displayedRows == [.source(3), .source(2), .source(0), .source(1)])
    }

    @Test("rows inserted, updated and deleted through the source keep the grid as a fresh one would be")
    func changes() throws {
        var rng = SeededRandom(seed: 31)
        let data = RandomTable.make(&rng, rows: 300)
        let scratch = ScratchDatabase()
        try data.write(to: try scratch.writer(), table: "t")
        let source = try SQLiteTableSource(connection: try scratch.writer(), table: "t")
        let grid = DataGrid(bound: source)
        func arrange(_ grid: DataGrid) throws {
            try grid.pin(.matching(column: "组号", value: "组1"), at: .bottom)
            try grid.addSummary(SummaryRow(.mean, columns: ["分数"], label: "平均"))
            try grid.sort(by: [SortKey("分数", .descending), SortKey("name", comparator: .text(.natural))])
        }
        try arrange(grid)
        for step in 0..<60 {
            switch step % 3 {
            case 0: try source.insertRow(values: [.integer(1000 + step), .text("组\(step % 4)"), .decimal(Double(step)), .missing, .text("new")])
            case 1:
                try source.setValue(.decimal(Double(Int.random(in: 0...100, using: &rng))), row: Int.random(in: 0..<source.rowCount, using: &rng), column: 2)
            default: try source.removeRow(at: Int.random(in: 0..<source.rowCount, using: &rng))
            }
        }
        let fresh = DataGrid(bound: try SQLiteTableSource(connection: try SQLiteConnection(path: scratch.path), table: "t"))
        try arrange(fresh)
        #expect(grid.displayedRows == fresh.displayedRows)
        #expect(grid.text(.summary(0), column: 2) == fresh.text(.summary(0), column: 2))
        let reader = try SQLiteTableSource(connection: try SQLiteConnection(path: scratch.path), table: "t")
        #expect(throws: SQLiteError.self) { try reader.removeRow(at: 0) }
        #expect(reader.rowCount == source.rowCount, "a refused write changes nothing")
    }

    @Test("a query's rows, in its order and with its types")
    func query() throws {
        let scratch = ScratchDatabase()
        let db = try scratch.writer()
        try db.execute("CREATE TABLE t (a INTEGER, b TEXT); INSERT INTO t VALUES (2, 'x'), (1, 'y'), (3, NULL);")
        let table = try SQLiteQuerySource.table(
            connection: try SQLiteConnection(path: scratch.path),
            query: "SELECT a, b FROM t WHERE a > 1 ORDER BY a DESC")
        #expect(table.rowCount == 2)
        #expect(table.value(row: 0, column: 0) == .integer(3))
        #expect(table.value(row: 0, column: 1) == .missing)
    }
}

/// A find over a bound SQL source, asked of the database, against reading every cell as shown.
enum FindOracle {
    static let queries = ["组", "1", "第十", "Émile", "E\u{301}", "mile", "'", "DROP", "98", "-", "缺考", "zz", "9223372036854775807"]

    static func check(_ grid: DataGrid, _ label: String) {
        let count = grid.displayedRowCount
        for query in queries {
            for column in 0..<grid.columns.count {
                for after in [-1, count / 3, count - 1] {
                    let expected = firstMatch(count: count, after: after) { index in
                        grid.displayedRow(at: index).map { grid.text($0, column: column).utf8.containsRun(query.utf8) } ?? false
                    }
                    #expect(
                        grid.displayIndex(ofRowContaining: query, column: column, after: after) == expected,
                        "\(label): \(query) in column \(column) after \(after)")
                }
            }
        }
    }
}

extension SQLiteSourceTests {
    @Test("a find asks SQLite once and lands where reading every cell would")
    func find() throws {
        var rng = SeededRandom(seed: 61)
        let data = RandomTable.make(&rng, rows: 400)
        let scratch = ScratchDatabase()
        try data.write(to: try scratch.writer(), table: "scores")
        let source = try SQLiteTableSource(connection: try SQLiteConnection(path: scratch.path), table: "scores")
        #expect(source.rows(containing: "组", column: 1) != nil, "SQLite searches itself")
        let grid = DataGrid(bound: source)
        try grid.pin(.matching(column: "组号", value: "组1"), at: .bottom)
        try grid.addSummary(SummaryRow(.mean, columns: ["分数"], label: "平均"))
        try grid.sort(by: [SortKey("分数", .descending)])
        FindOracle.check(grid, "SQLite")
    }
}

extension SQLiteSourceTests {
    @Test("a read that fails is said by the source, and the grid keeps the rows it has")
    func failedRead() throws {
        var rng = SeededRandom(seed: 63)
        let data = RandomTable.make(&rng, rows: 2000)
        let scratch = ScratchDatabase()
        let writer = try scratch.writer()
        try data.write(to: writer, table: "scores")
        let source = try SQLiteTableSource(connection: try SQLiteConnection(path: scratch.path), table: "scores")
        let first = source.text(row: 0, column: 4)
        #expect(source.readFailure == nil)
        try writer.execute("DROP TABLE scores")
        // A block not read yet fails; the one read stays.
        #expect(source.text(row: 1999, column: 4) == "")
        #expect(source.readFailure?.contains("no such table") == true, "\(String(describing: source.readFailure))")
        #expect(source.text(row: 0, column: 4) == first)
    }
}
