import Foundation
import Testing
import TrellisCLI
import TrellisGrid
import TrellisSQL

private func run(_ arguments: [String]) -> (status: Int32, stdout: String, stderr: String) {
    var io = CommandIO(standardInput: { Data() })
    let status = TrellisCommandLine.run(arguments, io: &io)
    return (status, io.stdout, io.stderr)
}

@Suite("SQLite objects without a rowid, and rows that cannot be read")
struct SQLiteObjectTests {
    /// A database holding one object of each kind over the same rows.
    static func database() throws -> ScratchDatabase {
        let scratch = ScratchDatabase()
        let db = try scratch.writer()
        try db.execute(
            """
            CREATE TABLE scores (组号 TEXT, 分数 REAL, 备注 TEXT);
            INSERT INTO scores VALUES ('组2', 92, '好'), ('组10', 60.5, NULL), ('组1', 88.5, '进步'), ('平均', 80.33, NULL),
                                      ('组3', NULL, '缺考'), ('组7', 99, '=1+1');
            CREATE VIEW passed AS SELECT 组号, 分数 * 2 AS doubled, 备注 FROM scores WHERE 分数 > 61 OR 分数 IS NULL;
            CREATE TABLE keyed (组号 TEXT PRIMARY KEY, 分数 REAL, 备注 TEXT) WITHOUT ROWID;
            INSERT INTO keyed SELECT * FROM scores;
            CREATE VIRTUAL TABLE notes USING fts5(组号, 备注);
            INSERT INTO notes SELECT 组号, 备注 FROM scores;
            """)
        return scratch
    }

    @Test(
        "a view, a WITHOUT ROWID table and a virtual table given to --table give the rows and cells of --query 'SELECT * FROM' it",
        arguments: [("passed", "doubled:desc"), ("keyed", "分数"), ("notes", "组号"), ("passed", "组号"), ("keyed", "备注:desc")])
    func objectsWithoutRowid(object: String, key: String) throws {
        let scratch = try Self.database()
        let table = run(["sort", scratch.path, "--table", object, "--by", key, "--format", "csv"])
        let query = run(["sort", scratch.path, "--query", "SELECT * FROM \(object)", "--by", key, "--format", "csv"])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(query.status == 0, "\(query.stderr)")
        #expect(table.stdout == query.stdout)
        // Every row has its cells: none is written blank.
        let lines = table.stdout.split(whereSeparator: \.isNewline).dropFirst()
        #expect(!lines.isEmpty)
        for line in lines { #expect(line.split(separator: ",", omittingEmptySubsequences: true).count >= 1, "\(table.stdout)") }
        #expect(table.stdout.contains("组7"))
    }

    @Test("a view is read whole, in SELECT *'s order; a grid sorts it; rows cannot be written through it, and the database is unchanged")
    func viewAsSource() throws {
        let scratch = try Self.database()
        let before = try Data(contentsOf: URL(fileURLWithPath: scratch.path))
        let source = try SQLiteTableSource(connection: try SQLiteConnection(path: scratch.path), table: "passed")
        #expect(source.readsWhole)
        #expect(source.rowCount == 5)
        #expect((0..<source.rowCount).map { source.text(row: $0, column: 0) } == ["组2", "组1", "平均", "组3", "组7"])
        #expect(source.value(row: 0, column: 1) == .decimal(184))
        #expect(source.rows(containing: "组", column: 0) == [0, 1, 3, 4])
        let grid = DataGrid(bound: source)
        try grid.sort(by: [SortKey("doubled", .descending)])
        #expect(
            grid.displayedRows.map { row -> String in
                guard case .source(let r) = row else { return "" }; return source.text(row: r, column: 0)
            } == ["组7", "组2", "组1", "平均", "组3"])
        let writer = try SQLiteTableSource(connection: try scratch.writer(), table: "keyed")
        #expect(writer.readsWhole)
        #expect(throws: SQLiteError.self) { try writer.setValue(.integer(1), row: 0, column: 1) }
        #expect(throws: SQLiteError.self) { try writer.removeRow(at: 0) }
        #expect(throws: SQLiteError.self) { try writer.insertRow(values: [.text("x"), .integer(1), .missing]) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path)) == before)
        // An ordinary table is still read by rowid, on demand.
        #expect(!(try SQLiteTableSource(connection: try SQLiteConnection(path: scratch.path), table: "scores")).readsWhole)
    }

    /// A database whose table's second row keeps its long note on an overflow page that is then
    /// overwritten: the row's keys and its short cells read, its note does not (SQLITE_CORRUPT).
    /// With more than a few blocks of rows a sort reads its key column alone, and the failure
    /// comes as the rows are written; with fewer, as the sort reads them.
    static func corruptDatabase(rows: Int) throws -> ScratchDatabase {
        let scratch = ScratchDatabase()
        let db = try scratch.writer()
        try db.execute("CREATE TABLE t (k INTEGER, name TEXT, note BLOB)")
        let insert = try db.prepare("INSERT INTO t VALUES (?, ?, ?)")
        for i in 0..<rows {
            try insert.bind([.integer(Int64((i * 7) % rows)), .text("row\(i)"), .text(i == 1 ? String(repeating: "长", count: 20_000) : "n\(i)")])
            while try insert.step() {}
        }
        var overflow: [Int64] = []
        try db.rows("SELECT pageno FROM dbstat WHERE name = 't' AND pagetype = 'overflow' ORDER BY pageno") { overflow.append($0.int64(0)) }
        var pageSize: Int64 = 0
        try db.rows("PRAGMA page_size") { pageSize = $0.int64(0) }
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: scratch.path))
        defer { try? handle.close() }
        try #require(overflow.count > 2)
        try handle.seek(toOffset: UInt64((overflow[1] - 1) * pageSize))
        try handle.write(contentsOf: Data(repeating: 0xA5, count: Int(pageSize)))
        return scratch
    }

    @Test(
        "a row whose cells cannot be read fails the sort (65, the reason named) and leaves no output: never a blank row",
        arguments: ["csv", "json", "sqlite"], [40, 1100])
    func unreadableRowFails(format: String, rows: Int) throws {
        let scratch = try Self.corruptDatabase(rows: rows)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-unreadable-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.\(format)").path
        let result = run(["sort", scratch.path, "--table", "t", "--by", "k", "-o", output])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("malformed"), "\(result.stderr)")
        if rows > 1024 { #expect(result.stderr.contains("the output was not made"), "\(result.stderr)") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "nothing is left behind")
        // The key column alone reads: a sort to standard output fails the same way after its rows.
        let shown = run(["sort", scratch.path, "--table", "t", "--by", "k", "--format", "csv"])
        #expect(shown.status == 65, "\(shown.stderr)")
    }

    @Test("data the database refuses as it reads exits 65, as help says, without the usage text; a query refused as written exits 64")
    func dataRefused() throws {
        let scratch = try Self.database()
        for sql in ["SELECT abs(-9223372036854775807 - 1) AS x", "SELECT json('not json') AS x"] {
            let result = run(["sort", scratch.path, "--query", sql])
            #expect(result.status == 65, "\(sql): \(result.stderr)")
            #expect(!result.stderr.contains("Usage:"), "\(sql): \(result.stderr)")
        }
        let written = run(["sort", scratch.path, "--query", "SELECT nosuchcolumn FROM scores"])
        #expect(written.status == 64 && written.stderr.contains("no such column"), "\(written.stderr)")
    }
}
