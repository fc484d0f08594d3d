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
        return (name, {
            let r = try db.query("SELECT count(*), sum(score) FROM \(q)")
            return r.text(0, 0) + "/" + r.text(0, 1)
        })
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
        let slow = run(["sort", PostgresServer.url! + "?options=-c%20statement_timeout%3D200",
                        "--query", "SELECT g, md5(g::text) FROM generate_series(1, 100000000) g", "--by", "g"])
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
}
