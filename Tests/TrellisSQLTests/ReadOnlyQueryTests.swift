import Foundation
import Testing
import TrellisSQL

@Suite("Read-only queries")
struct ReadOnlyQueryTests {
    func refusal(_ sql: String, _ dialect: ReadOnlyQuery.Dialect = .sqlite) -> String? {
        do { try ReadOnlyQuery.check(sql, dialect: dialect); return nil } catch { return error.message }
    }

    @Test("one SELECT, WITH or VALUES passes, whatever its strings, names and comments hold; writes inside it are the database's to refuse")
    func accepted() {
        for sql in [
            "SELECT * FROM t", "select a, b from t where c = 'x; DELETE FROM t';", "  WITH q AS (SELECT 1) SELECT * FROM q  ;  ",
            "VALUES (1, 2)", "SELECT \"update\", [into] FROM t -- ; DROP TABLE t", "SELECT /* ; delete */ 1",
            "SELECT replace(name, 'a', 'b') AS name FROM t", "SELECT count(*) FROM t GROUP BY \"set\"",
            // Columns spelt like commands, as spreadsheets name them.
            "SELECT comment, load, set, lock, begin, analyze FROM notes",
        ] {
            #expect(refusal(sql) == nil, "\(sql)")
        }
        for sql in [
            "TABLE scores", "SELECT $$; DELETE FROM t$$", "SELECT $tag$ it's ; $tag$ AS x", "SELECT E'it\\'s; DROP' AS x",
            "SELECT pg_typeof(1), $1::int", "SELECT /* nested /* ; */ still */ 1",
            // Writes inside a read are the server's to refuse (a read-only transaction).
            "WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d", "SELECT * INTO copy FROM t",
            "SELECT * FROM t FOR SHARE", "SELECT * FROM t FOR UPDATE",
            // Calls are the server's to judge, by its plan (PostgreSQLQueryGuard), not by their words.
            "SELECT pg_terminate_backend(123)", "SELECT lo_export(42, '/tmp/x')",
        ] {
            #expect(refusal(sql, .postgreSQL) == nil, "\(sql)")
        }
    }

    @Test("two statements, or a statement that does not begin as a read, is refused, named")
    func refused() {
        let cases: [(String, ReadOnlyQuery.Dialect, String)] = [
            ("SELECT * FROM t; DELETE FROM t", .sqlite, "the query holds 2 statements; give one SELECT (the second begins \"DELETE FROM t\")"),
            ("DELETE FROM t", .sqlite, "the query must be one read-only SELECT; it begins with \"DELETE\""),
            ("ATTACH 'x.db' AS x", .sqlite, "the query must be one read-only SELECT; it begins with \"ATTACH\""),
            ("PRAGMA writable_schema = 1", .sqlite, "the query must be one read-only SELECT; it begins with \"PRAGMA\""),
            ("COPY t TO '/tmp/x'", .postgreSQL, "the query must be one read-only SELECT; it begins with \"COPY\""),
            ("", .sqlite, "the query is empty; give one SELECT"),
            (" ; -- nothing", .sqlite, "the query is empty; give one SELECT"),
            ("SELECT 'open", .sqlite, "the query has a string that is never closed (from \"'open\")"),
            ("SELECT $x$ open", .postgreSQL, "the query has a dollar-quoted string that is never closed"),
        ]
        for (sql, dialect, message) in cases {
            #expect(refusal(sql, dialect) == message, "\(sql)")
        }
    }
}
