import Foundation
import Testing
import TrellisCLI
import TrellisGrid
import TrellisSQL
import TrellisTestSupport

/// The test server's URL with another user (and password) in it.
private func url(user: String) -> String {
    PostgresServer.url!.replacingOccurrences(of: "://postgres@", with: "://\(user)@")
}

private func run(_ arguments: [String]) -> (status: Int32, stdout: String, stderr: String, seconds: Double) {
    var io = CommandIO(standardInput: { Data() })
    let started = Date()
    let status = TrellisCommandLine.run(arguments, io: &io)
    return (status, io.stdout, io.stderr, Date().timeIntervalSince(started))
}

@Suite("A PostgreSQL server that fights back", .serialized, .enabled(if: PostgresServer.available))
struct PostgreSQLFaultTests {
    /// A table of 50 rows, its name and a count of its rows that a test checks again at its end.
    func table(_ db: PostgreSQLConnection, _ stem: String) throws -> (name: String, count: () throws -> String) {
        let name = "\(stem)_\(UUID().uuidString.prefix(8).lowercased())"
        let q = PostgreSQLConnection.quote(name)
        _ = try db.query("CREATE TABLE \(q) (id int PRIMARY KEY, score int)")
        _ = try db.query("INSERT INTO \(q) SELECT g, g % 7 FROM generate_series(1, 50) g")
        return (
            name,
            {
                let r = try db.query("SELECT count(*), sum(score) FROM \(q)")
                return r.text(0, 0) + "/" + r.text(0, 1)
            }
        )
    }

    @Test("a wrong password is refused with the server's reason, and the password is never shown; the right one reads")
    func wrongPassword() throws {
        let db = try PostgreSQLConnection(url: PostgresServer.url!)
        let role = PostgresServer.passwordRole
        _ = try? db.query("CREATE ROLE \(role) LOGIN PASSWORD 'right-horse-battery'")
        let (name, count) = try table(db, "pw")
        _ = try db.query("GRANT SELECT ON \(PostgreSQLConnection.quote(name)) TO \(role)")
        let before = try count()
        // A server started elsewhere (TRELLIS_POSTGRES_URL) may trust the role: then there is nothing to refuse.
        guard (try? PostgreSQLConnection(url: url(user: "\(role):not-the-password"))) == nil else { return }
        let wrong = run(["sort", url(user: "\(role):Wr0ng-Secret-42"), "--table", name, "--by", "score"])
        #expect(wrong.status == 77, "EX_NOPERM")
        #expect(wrong.stderr.contains("password authentication failed"), "\(wrong.stderr)")
        #expect(!wrong.stderr.contains("Wr0ng-Secret-42") && !wrong.stdout.contains("Wr0ng-Secret-42"))
        #expect(wrong.stderr.contains("\(role):…@"), "the URL is named, its password replaced")
        let right = run(["sort", url(user: "\(role):right-horse-battery"), "--table", name, "--by", "score", "--format", "csv"])
        #expect(right.status == 0, "\(right.stderr)")
        #expect(right.stdout.split(separator: "\r\n").count == 51)
        #expect(try count() == before)
        _ = try db.query("DROP TABLE \(PostgreSQLConnection.quote(name))")
    }

    @Test("a role without SELECT on the table is told so, naming the table; nothing is read or written")
    func roleWithoutSelect() throws {
        let db = try PostgreSQLConnection(url: PostgresServer.url!)
        _ = try? db.query("CREATE ROLE trellis_no_select LOGIN")
        let (name, count) = try table(db, "nosel")
        _ = try db.query("REVOKE ALL ON \(PostgreSQLConnection.quote(name)) FROM PUBLIC")
        let before = try count()
        let result = run(["sort", url(user: "trellis_no_select"), "--table", name, "--by", "score"])
        #expect(result.status == 77, "EX_NOPERM")
        #expect(result.stderr.contains("permission denied for table \(name)"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(try count() == before)
        _ = try db.query("DROP TABLE \(PostgreSQLConnection.quote(name))")
    }

    @Test("a table another session holds locked: a bounded wait (5 s, or the URL's lock_timeout), then the server's reason and what to do")
    func lockedTable() throws {
        let db = try PostgreSQLConnection(url: PostgresServer.url!)
        let (name, count) = try table(db, "locked")
        let before = try count()
        let holder = try PostgreSQLConnection(url: PostgresServer.url!)
        _ = try holder.query("BEGIN")
        _ = try holder.query("LOCK TABLE \(PostgreSQLConnection.quote(name)) IN ACCESS EXCLUSIVE MODE")
        let quick = run(["sort", PostgresServer.url! + "?options=-c%20lock_timeout%3D300", "--table", name, "--by", "score"])
        #expect(quick.status == 75, "EX_TEMPFAIL: try again")
        #expect(quick.stderr.contains("canceling statement due to lock timeout"), "\(quick.stderr)")
        #expect(quick.stderr.contains("another session holds a lock on the table"))
        #expect(quick.seconds < 4, "waited \(quick.seconds) s for a 300 ms timeout")
        let standard = run(["sort", PostgresServer.url!, "--table", name, "--by", "score"])
        #expect(standard.status == 75)
        #expect(standard.seconds >= 4.5 && standard.seconds < 20, "waited \(standard.seconds) s")
        _ = try holder.query("ROLLBACK")
        #expect(try count() == before)
        _ = try db.query("DROP TABLE \(PostgreSQLConnection.quote(name))")
    }

    @Test("the server's statement timeout ends a long query with its reason; a server that never answers ends at the connect timeout")
    func timeouts() throws {
        let slow = run([
            "sort", PostgresServer.url! + "?options=-c%20statement_timeout%3D200",
            "--query", "SELECT g, md5(g::text) FROM generate_series(1, 100000000) g", "--by", "g",
        ])
        #expect(slow.status == 65)
        #expect(slow.stderr.contains("canceling statement due to statement timeout"), "\(slow.stderr)")
        #expect(slow.seconds < 10, "took \(slow.seconds) s")
        // A port that accepts connections and says nothing.
        let silent = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(silent) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(silent, $0, length) } }
        _ = listen(silent, 4)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(silent, $0, &length) } }
        let port = UInt16(bigEndian: address.sin_port)
        let mute = run(["sort", "postgresql://someone:hush-hush@127.0.0.1:\(port)/x?connect_timeout=2", "--table", "t"])
        #expect(mute.status == 69, "EX_UNAVAILABLE")
        #expect(mute.seconds >= 1.5 && mute.seconds < 10, "waited \(mute.seconds) s")
        #expect(!mute.stderr.contains("hush-hush"), "\(mute.stderr)")
    }

    @Test(
        "every spelling of a call that acts — comments, quoted names, U& escapes, views, CTEs, subqueries, casts, operators — is refused by the server's plan, and another client's session lives"
    )
    func queryGuard() throws {
        let db = try PostgreSQLConnection(url: PostgresServer.url!)
        let victim = try PostgreSQLConnection(url: PostgresServer.url!)
        let pid = try victim.query("SELECT pg_backend_pid()").text(0, 0)
        let stem = "guard_\(UUID().uuidString.prefix(8).lowercased())"
        _ = try db.query("CREATE VIEW \(stem)_view AS SELECT pg_cancel_backend(\(pid)) AS cancelled")
        _ = try db.query("CREATE TYPE \(stem)_type AS (x int)")
        _ = try db.query(
            "CREATE FUNCTION \(stem)_cast(int) RETURNS \(stem)_type VOLATILE LANGUAGE sql "
                + "AS $$ SELECT ROW(pg_terminate_backend(\(pid))::int)::\(stem)_type $$")
        _ = try db.query("CREATE CAST (int AS \(stem)_type) WITH FUNCTION \(stem)_cast(int)")
        _ = try db.query("CREATE FUNCTION \(stem)_op(int, int) RETURNS int VOLATILE LANGUAGE sql AS $$ SELECT pg_terminate_backend($1)::int $$")
        _ = try db.query("CREATE OPERATOR #~# (FUNCTION = \(stem)_op, LEFTARG = int, RIGHTARG = int)")
        defer {
            _ = try? db.query("DROP OPERATOR #~# (int, int)")
            _ = try? db.query("DROP CAST (int AS \(stem)_type)")
            _ = try? db.query("DROP FUNCTION \(stem)_op(int, int), \(stem)_cast(int)")
            _ = try? db.query("DROP TYPE \(stem)_type")
            _ = try? db.query("DROP VIEW \(stem)_view")
        }
        let spellings = [
            "SELECT pg_terminate_backend/**/(\(pid))",
            "SELECT \"pg_cancel_backend\"(\(pid))",
            "SELECT \"pg_sleep\"(5)",
            "SELECT U&\"\\0070g_terminate_backend\"(\(pid))",
            "SELECT U&\"\\0070g_sleep\"(5)",
            "SELECT pg_catalog.pg_stat_reset()",
            "SELECT PG_TERMINATE_BACKEND ( \(pid) ) -- a comment",
            "SELECT * FROM \(stem)_view",
            "WITH x AS (SELECT pg_cancel_backend(\(pid))) SELECT * FROM x",
            "SELECT 1 WHERE 1 = (SELECT pg_terminate_backend(\(pid))::int)",
            "SELECT * FROM pg_sleep(5)",
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid = \(pid)",
            "SELECT (\(pid))::\(stem)_type",
            "SELECT CAST(\(pid) AS \(stem)_type)",
            "SELECT \(pid) #~# 1",
            "SELECT pg_reload_conf()",
            "SELECT set_config('work_mem', '1MB', false)",
        ]
        for sql in spellings {
            let result = run(["sort", PostgresServer.url!, "--query", sql])
            #expect(result.status == 64, "\(sql): \(result.stderr)")
            #expect(result.stderr.contains("VOLATILE"), "\(sql): \(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(victim.isConnected && (try? victim.query("SELECT 1").text(0, 0)) == "1", "\(sql) reached the other session")
        }
        // What only reads runs: stable and immutable functions, aggregates, the volatile built-ins that read.
        let reads = run([
            "sort", PostgresServer.url!, "--query",
            "SELECT count(*) AS n, now() IS NOT NULL AS t, random() < 2 AS r, pg_total_relation_size('pg_class') > 0 AS s, "
                + "'pg_sleep(5)' AS text, current_setting('statement_timeout') AS limit FROM pg_class", "--format", "csv",
        ])
        #expect(reads.status == 0, "\(reads.stderr)")
        #expect(reads.stdout.contains(",t,t,t,pg_sleep(5),10min"), "\(reads.stdout)")
        // Data the server refuses as it computes (a data exception) is the data's: 65, no usage text.
        for sql in ["SELECT 1 / (count(*) - count(*)) AS x FROM pg_class", "SELECT 'abc'::text::int AS x"] {
            let refused = run(["sort", PostgresServer.url!, "--query", sql])
            #expect(refused.status == 65 && !refused.stderr.contains("Usage:"), "\(sql): \(refused.stderr)")
        }
        // A limit the URL sets is kept.
        let own = run([
            "sort", PostgresServer.url! + "?options=-c%20statement_timeout%3D1500", "--query",
            "SELECT current_setting('statement_timeout') AS limit", "--format", "csv",
        ])
        #expect(own.stdout.contains("1500ms"), "\(own.stdout) \(own.stderr)")
    }

    @Test(
        "a server that stops in the middle of a sorted output: the command ends within seconds, 69, the reason said, no output; a grid keeps the rows it read and says why the others are not there",
        .enabled(if: FileManager.default.isExecutableFile(atPath: OutputBinary.path)))
    func serverStopsMidRead() throws {
        guard let server = PostgresServer.Throwaway(name: "stopped") else {
            // Skipped, saying so, only where no server is installed; one that would not start fails.
            if PostgresServer.Throwaway.installed == nil {
                print("serverStopsMidRead skipped: no PostgreSQL server installed")
            } else {
                Issue.record("a throwaway PostgreSQL server would not start")
            }
            return
        }
        let db = try PostgreSQLConnection(url: server.url)
        _ = try db.query("CREATE TABLE scores (id int PRIMARY KEY, score int, name text)")
        _ = try db.query("INSERT INTO scores SELECT g, (g::bigint * 7919) % 200000, 'name ' || g FROM generate_series(1, 200000) g")
        // In the library: a window read, the server stopped, another window asked for.
        let source = try PostgreSQLTableSource(connection: try PostgreSQLConnection(url: server.url), table: "scores")
        let grid = DataGrid(bound: source)
        grid.prefetch(displayedRows: 0..<100)
        let first = grid.text(.source(5), column: 2)
        #expect(first == "name 6")
        // The command line, from another process, stopped once its output is under way.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-pg-stop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.csv").path
        let errors = folder.appendingPathComponent("stderr.txt").path
        guard
            let pid = ChildProcess.start(
                [OutputBinary.path, "sort", server.url, "--table", "scores", "--by", "score", "-o", output],
                standardError: errors)
        else {
            Issue.record("could not start \(OutputBinary.path)")
            return
        }
        let deadline = Date().addingTimeInterval(120)
        var writing = false
        while Date() < deadline, !writing {
            writing = (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.contains { $0.hasSuffix(".partial") } ?? false
            if !writing { usleep(2_000) }
        }
        server.stop()
        let stopped = Date()
        var status: Int32 = 0
        // A hang detector, not a speed target: the command must end, and soon.
        var ended = false
        while Date().timeIntervalSince(stopped) < 60 {
            if waitpid(pid, &status, WNOHANG) == pid { ended = true; break }
            usleep(20_000)
        }
        if !ended { kill(pid, SIGKILL); waitpid(pid, &status, 0) }
        #expect(ended, "the command ended within a minute of the server stopping")
        #expect(writing, "the output was seen under way")
        #expect((status >> 8) & 0xFF == 69, "exit status \(status)")
        let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        #expect(said.contains("the connection to the server was lost"), "\(said)")
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect((try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.filter { $0 != "stderr.txt" } == [])
        // The grid: the rows it read are still shown; the others are not invented, and the reason is there.
        #expect(grid.text(.source(5), column: 2) == "name 6")
        #expect(grid.text(.source(150_000), column: 2) == "")
        #expect(grid.readFailure?.contains("connection") == true, "\(grid.readFailure ?? "no failure")")
    }
}

/// The `trellis` program the tests start as a process of its own.
enum OutputBinary {
    static var path: String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return ProcessInfo.processInfo.environment["TRELLIS_BINARY"] ?? root.appendingPathComponent(".build/debug/trellis").path
    }
}
