import Foundation
import Testing
import TrellisCLI
import TrellisGrid
import TrellisSQL
import TrellisTestSupport

/// The SHA-256-free fingerprint a test needs: the file's bytes, compared whole.
private func bytes(_ path: String) -> Data { (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data() }

private func run(_ arguments: [String]) -> (status: Int32, stdout: String, stderr: String) {
    var io = CommandIO(standardInput: { Data() })
    let status = TrellisCommandLine.run(arguments, io: &io)
    return (status, io.stdout, io.stderr)
}

/// A writer on its own thread and connection, committing batches until told to stop: each batch
/// moves `a` and `b` of a third of the rows up by one together and appends ten rows with
/// `a == b`, so any one snapshot has `a == b` in every row and a row count of 20,000 plus a
/// multiple of ten.
private final class BusyWriter: @unchecked Sendable {
    private let path: String
    private let stop = NSLock()
    private var stopped = false
    private(set) var commits = 0
    private let done = DispatchSemaphore(value: 0)

    init(path: String) { self.path = path }

    func start() {
        Thread.detachNewThread { [self] in
            defer { done.signal() }
            guard let db = try? SQLiteConnection(path: path, readOnly: false, busyTimeout: 10) else { return }
            var k = 0
            while true {
                stop.lock()
                let finish = stopped
                stop.unlock()
                if finish { return }
                k += 1
                do {
                    try db.execute("BEGIN IMMEDIATE")
                    try db.run("UPDATE t SET a = a + 1, b = b + 1 WHERE id % 3 = ?", [.integer(Int64(k % 3))])
                    for _ in 0..<10 { try db.run("INSERT INTO t (a, b) VALUES (?, ?)", [.integer(Int64(k)), .integer(Int64(k))]) }
                    try db.execute("COMMIT")
                    commits += 1
                } catch {
                    try? db.execute("ROLLBACK")
                }
            }
        }
    }

    /// Stops the writer and waits for it (once; later calls return at once).
    func finish() {
        stop.lock()
        let first = !stopped
        stopped = true
        stop.unlock()
        if first { done.wait() }
    }
}

@Suite("SQLite databases that fight back", .serialized)
struct SQLiteFaultTests {
    func waldb(rows: Int) throws -> ScratchDatabase {
        let scratch = ScratchDatabase()
        let db = try scratch.writer()
        try db.execute("PRAGMA journal_mode = WAL")
        try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER, note TEXT)")
        try db.execute("BEGIN")
        for i in 0..<rows { try db.run("INSERT INTO t (a, b, note) VALUES (?, ?, 'n')", [.integer(Int64(i % 97)), .integer(Int64(i % 97))]) }
        try db.execute("COMMIT")
        return scratch
    }

    @Test("a sort of a WAL database another program writes meanwhile reads one snapshot: every row as one commit left it, in order")
    func sortDuringWrites() throws {
        let scratch = try waldb(rows: 20_000)
        let writer = BusyWriter(path: scratch.path)
        writer.start()
        defer { writer.finish() }
        for _ in 0..<4 {
            let result = run(["sort", scratch.path, "--table", "t", "--by", "a", "--by", "b:desc", "--format", "csv"])
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\r\n", omittingEmptySubsequences: true).dropFirst()
            let rows = lines.map { $0.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) ?? -1 } }
            #expect((rows.count - 20_000) % 10 == 0, "\(rows.count) rows: not a whole number of commits")
            #expect(rows.allSatisfy { $0.count == 4 && $0[1] == $0[2] }, "a row from two commits")
            #expect(zip(rows, rows.dropFirst()).allSatisfy { $0[1] <= $1[1] }, "the order is not the cells' order")
        }
        writer.finish()
        #expect(writer.commits > 0, "the writer never got in")
    }

    @Test("a source over a WAL database keeps its snapshot until refresh(), then shows the new rows sorted; writers are never blocked")
    func refreshSeesNewRows() throws {
        let scratch = try waldb(rows: 300)
        let reader = try SQLiteConnection(path: scratch.path)
        let source = try SQLiteTableSource(connection: reader, table: "t")
        let grid = DataGrid(bound: source)
        try grid.sort(by: [SortKey("a", .descending)])
        let writer = try SQLiteConnection(path: scratch.path, readOnly: false, busyTimeout: 0)
        try writer.run("INSERT INTO t (a, b, note) VALUES (1000, 1000, 'new')")  // not blocked by the reader
        #expect(grid.rowCount == 300, "a refresh, not a write elsewhere, moves the snapshot on")
        try source.refresh()
        #expect(grid.rowCount == 301)
        #expect(grid.text(grid.displayedRow(at: 0)!, column: 3) == "new")
        // A database in the default journal mode: the source holds no transaction between reads.
        let plain = ScratchDatabase()
        let db = try plain.writer()
        try db.execute("CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1), (2);")
        let other = try SQLiteTableSource(connection: SQLiteConnection(path: plain.path), table: "t")
        let busy = try SQLiteConnection(path: plain.path, readOnly: false, busyTimeout: 0)
        try busy.run("INSERT INTO t VALUES (3)")
        try other.refresh()
        #expect(other.rowCount == 3)
    }

    @Test(
        "a gigabyte BLOB (SQLite's largest) in a sorted table is never read: shown as its size, the sort done in bounded memory, the file unchanged",
        .enabled(if: ChildProcess.find(["sh"]) != nil))
    func gigabyteBlob() throws {
        let scratch = ScratchDatabase()
        let db = try scratch.writer()
        try db.execute("CREATE TABLE photos (name TEXT, score INTEGER, data BLOB)")
        try db.execute("INSERT INTO photos VALUES ('big', 2, zeroblob(999000000)), ('small', 1, x'00ff'), ('none', 3, NULL), ('text', 4, CAST('组一' AS BLOB))")
        let before = try FileManager.default.attributesOfItem(atPath: scratch.path)[.size] as? Int ?? 0
        #expect(before > 999_000_000)
        // In process: the cells the grid shows.
        let source = try SQLiteTableSource(connection: SQLiteConnection(path: scratch.path), table: "photos")
        let grid = DataGrid(bound: source)
        try grid.sort(by: [SortKey("data")])
        let texts = (0..<4).map { grid.text(grid.displayedRow(at: $0)!, column: 2) }
        // Bytes that are not text as hex; UTF-8 kept in a BLOB as its text, as it was written.
        #expect(texts.contains("(BLOB, 999000000 bytes)") && texts.contains("x'00ff'") && texts.contains("组一"), "\(texts)")
        // As a command, with 700 MB of address space: reading the BLOB would not fit.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL
        let trellis = ProcessInfo.processInfo.environment["TRELLIS_BINARY"] ?? root.appendingPathComponent(".build/debug/trellis").path
        guard FileManager.default.isExecutableFile(atPath: trellis) else { return }
        let result = try ChildProcess.run(
            [
                "/bin/sh", "-c", "ulimit -v 2500000; exec \"$0\" sort \"$1\" --table photos --by score:desc",
                trellis, scratch.path,
            ], mergeStandardError: true, timeout: 120)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("(BLOB, 999000000 bytes)"))
        #expect(result.output.contains("note: BLOB cells larger than 1 MiB (1048576 bytes) are written as their size"))
        let after = try FileManager.default.attributesOfItem(atPath: scratch.path)[.size] as? Int ?? 0
        #expect(after == before)
    }

    @Test(
        "-o onto the database it reads adds the sorted table beside the others (through a link too, in either journal mode); an existing table is never replaced",
        arguments: ["delete", "wal"])
    func outputIntoInput(journal: String) throws {
        let scratch = ScratchDatabase()
        let db = try scratch.writer()
        try db.execute("PRAGMA journal_mode = \(journal)")
        try db.execute(
            "CREATE TABLE t (a INTEGER, b TEXT); INSERT INTO t VALUES (3, 'c'), (1, 'a'), (2, 'b');"
                + "CREATE TABLE keep (x); INSERT INTO keep VALUES (42);")
        let contents = { (table: String) throws -> [String] in
            var rows: [String] = []
            try db.rows("SELECT * FROM \(table) ORDER BY rowid") { row in rows.append((0..<2).map { row.text($0) }.joined(separator: "|")) }
            return rows
        }
        let before = try contents("t")
        let sorted = run(["sort", scratch.path, "--table", "t", "--by", "a", "-o", scratch.path, "--output-table", "sorted"])
        #expect(sorted.status == 0, "\(sorted.stderr)")
        #expect(try contents("sorted") == ["1|a", "2|b", "3|c"])
        let link = scratch.path + ".link.db"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: scratch.path)
        defer { try? FileManager.default.removeItem(atPath: link) }
        let viaLink = run(["sort", scratch.path, "--table", "t", "--by", "a:desc", "-o", link, "--output-table", "descending"])
        #expect(viaLink.status == 0, "\(viaLink.stderr)")
        #expect(try contents("descending") == ["3|c", "2|b", "1|a"])
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == scratch.path, "the link stays a link")
        let replace = run(["sort", scratch.path, "--table", "t", "--by", "a", "-o", scratch.path, "--output-table", "t"])
        #expect(replace.status != 0 && replace.stderr.contains("the table \"t\" already exists"), "\(replace.stderr)")
        #expect(try contents("t") == before)
        #expect(try contents("keep") == ["42|"])
    }

    @Test("exit statuses as sysexits says, the same for every source: 66 no such file, 77 not allowed, 75 locked, 64 usage")
    func exitStatuses() throws {
        let scratch = ScratchDatabase()
        let db = try scratch.writer()
        try db.execute("CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1);")
        #expect(run(["sort", scratch.path + ".missing", "--table", "t"]).status == 66)
        #expect(run(["sort", scratch.path + ".missing.csv"]).status == 66)
        #expect(run(["sort", FileManager.default.temporaryDirectory.path, "--table", "t"]).status == 66)
        let unreadable = scratch.path + ".unreadable.csv"
        _ = FileManager.default.createFile(atPath: unreadable, contents: Data("a\n1\n".utf8), attributes: [.posixPermissions: 0o000])
        defer { try? FileManager.default.removeItem(atPath: unreadable) }
        if getuid() != 0 { #expect(run(["sort", unreadable]).status == 77) }  // root reads any file
        try db.execute("BEGIN EXCLUSIVE; INSERT INTO t VALUES (2);")
        let locked = run(["sort", scratch.path, "--table", "t"])
        #expect(locked.status == 75, "\(locked.stderr)")
        try db.execute("ROLLBACK")
        let misspelt = run(["srot", "x.csv"])
        #expect(misspelt.status == 64 && misspelt.stderr.contains("did you mean 'sort'?"))
        let usage = run(["sort", "x.csv", "--bogus"])
        #expect(usage.stderr.hasSuffix("Usage: trellis sort <file> [options]\n  See 'trellis sort --help' for more information.\n"))
    }

    @Test("NULL-only columns sort (nothing moves), summarise to blanks and write back empty; the file's bytes unchanged")
    func nullOnlyColumns() throws {
        let scratch = ScratchDatabase()
        let db = try scratch.writer()
        try db.execute("CREATE TABLE t (name TEXT, empty_text TEXT, empty_number REAL, untyped)")
        try db.execute("INSERT INTO t VALUES ('c', NULL, NULL, NULL), ('a', NULL, NULL, NULL), ('b', NULL, NULL, NULL)")
        let original = bytes(scratch.path)
        for key in ["empty_text", "empty_number:desc", "untyped:natural"] {
            let result = run(["sort", scratch.path, "--table", "t", "--by", key, "--format", "csv"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "name,empty_text,empty_number,untyped\r\nc,,,\r\na,,,\r\nb,,,\r\n", "\(key)")
        }
        let summary = run(["sort", scratch.path, "--table", "t", "--by", "name", "--summary", "平均=mean:empty_number", "--format", "csv"])
        #expect(summary.status == 0, "\(summary.stderr)")
        // The mean of nothing is blank, not 0: no number is made up.
        #expect(summary.stdout == "name,empty_text,empty_number,untyped\r\na,,,\r\nb,,,\r\nc,,,\r\n平均,,,\r\n", "\(summary.stdout)")
        #expect(bytes(scratch.path) == original)
    }
}
