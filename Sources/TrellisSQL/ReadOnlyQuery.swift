import Foundation

/// The check a `--query` passes before it reaches a database: one statement, that only reads.
///
/// A database's read-only connection keeps its data safe, but a query of two statements would
/// run in part, and some functions act outside the data (PostgreSQL's `lo_export`, its
/// administration functions). The check reads the SQL as tokens — strings, quoted names,
/// comments and dollar quotes are skipped — and refuses, naming what it found: more than one
/// statement; a statement that does not begin with `SELECT`, `WITH`, `VALUES` (or `TABLE` in
/// PostgreSQL); a call of a function with effects outside the query's result (large objects,
/// server files, sequences, settings, backends, replication, advisory locks, `load_extension`).
/// Writes inside a statement that begins as a read (`WITH d AS (DELETE … RETURNING *) SELECT`,
/// `SELECT … INTO`, `FOR UPDATE`) are the databases' to refuse — SQLite's read-only statement
/// check, PostgreSQL's read-only transaction — so that a column named `comment`, `load` or `set`
/// is never mistaken for a command.
///
/// ```swift
/// try ReadOnlyQuery.check("SELECT * FROM t; DELETE FROM t", dialect: .sqlite)
/// // throws: the query holds 2 statements; give one SELECT (the second begins "DELETE FROM t")
/// ```
public enum ReadOnlyQuery {
    public enum Dialect: Sendable { case sqlite, postgreSQL }

    /// Why a query was refused.
    public struct Refusal: Error, Equatable, CustomStringConvertible, Sendable {
        public var message: String
        public var description: String { message }
    }

    static let statementStarts: Set<String> = ["select", "with", "values"]
    static let effectFunctions: Set<String> = [
        "lo_export", "lo_import", "lo_unlink", "lo_create", "lo_creat", "lo_put", "lo_from_bytea", "lo_truncate",
        "lo_open", "lowrite", "lo_close",
        "set_config", "setval", "nextval", "pg_notify", "load_extension", "txid_current", "pg_current_xact_id",
        "pg_terminate_backend", "pg_cancel_backend", "pg_reload_conf", "pg_rotate_logfile", "pg_promote",
        "pg_sleep", "pg_sleep_for", "pg_sleep_until", "pg_import_system_collations", "pg_log_backend_memory_contexts",
        "dblink", "dblink_exec", "dblink_connect", "dblink_send_query",
    ]
    static let effectPrefixes = [
        "pg_file_", "pg_read_", "pg_ls_", "pg_stat_file", "pg_replication_", "pg_create_", "pg_drop_", "pg_copy_",
        "pg_advisory", "pg_try_advisory", "pg_wal_", "pg_switch_", "pg_start_backup", "pg_stop_backup", "pg_backup_",
        "pg_logical_", "pg_xlog_", "lo_", "dblink_",
    ]

    /// Refuses `sql` unless it is one statement that only reads.
    public static func check(_ sql: String, dialect: Dialect) throws(Refusal) {
        let statements = try split(sql, dialect: dialect)
        guard let first = statements.first else {
            throw Refusal(message: "the query is empty; give one SELECT")
        }
        guard statements.count == 1 else {
            throw Refusal(message: "the query holds \(statements.count) statements; give one SELECT "
                          + "(the second begins \"\(excerpt(statements[1].text))\")")
        }
        let words = first.words
        let starts = dialect == .postgreSQL ? statementStarts.union(["table"]) : statementStarts
        guard let lead = words.first?.word, starts.contains(lead) else {
            throw Refusal(message: "the query must be one read-only SELECT; it begins with \"\(words.first?.spelling ?? "")\"")
        }
        for token in words where token.callsFunction {
            if effectFunctions.contains(token.word) || effectPrefixes.contains(where: { token.word.hasPrefix($0) }) {
                throw Refusal(message: "the query calls \(token.spelling)(), which acts outside the query's result; "
                              + "give a query that only reads")
            }
        }
    }

    struct Token {
        /// Lowercased.
        var word: String
        var spelling: String
        /// Followed by `(`.
        var callsFunction: Bool
    }

    struct Statement {
        var text: String
        var words: [Token]
    }

    /// The statements of `sql` (empty ones left out), each with its unquoted words.
    static func split(_ sql: String, dialect: Dialect) throws(Refusal) -> [Statement] {
        let s = Array(sql.unicodeScalars)
        var statements: [Statement] = []
        var words: [Token] = []
        var start = 0
        var i = 0
        func finish(_ end: Int) {
            let text = String(String.UnicodeScalarView(s[start..<end])).trimmingCharacters(in: .whitespacesAndNewlines)
            if !words.isEmpty { statements.append(Statement(text: text, words: words)) }
            words = []
        }
        func isWordStart(_ c: Unicode.Scalar) -> Bool { c == "_" || c.properties.isAlphabetic }
        func isWordPart(_ c: Unicode.Scalar) -> Bool { isWordStart(c) || ("0"..."9").contains(c) || c == "$" }
        func skipQuoted(_ close: Unicode.Scalar, backslashes: Bool = false) throws(Refusal) {
            let open = i
            i += 1
            while i < s.count {
                if backslashes, s[i] == "\\" { i += 2; continue }
                if s[i] == close {
                    if i + 1 < s.count, s[i + 1] == close, close != "]" { i += 2; continue }
                    i += 1
                    return
                }
                i += 1
            }
            throw Refusal(message: "the query has a \(close == "'" ? "string" : "quoted name") that is never closed "
                          + "(from \"\(excerpt(String(String.UnicodeScalarView(s[open...].prefix(30)))))\")")
        }
        while i < s.count {
            let c = s[i]
            switch c {
            case ";":
                finish(i)
                i += 1
                start = i
            case "'":
                try skipQuoted("'")
            case "\"":
                try skipQuoted("\"")
            case "`" where dialect == .sqlite:
                try skipQuoted("`")
            case "[" where dialect == .sqlite:
                try skipQuoted("]")
            case "-" where i + 1 < s.count && s[i + 1] == "-":
                while i < s.count, s[i] != "\n" { i += 1 }
            case "/" where i + 1 < s.count && s[i + 1] == "*":
                var depth = 0
                repeat {
                    if i + 1 < s.count, s[i] == "/", s[i + 1] == "*" { depth += 1; i += 2 }
                    else if i + 1 < s.count, s[i] == "*", s[i + 1] == "/" { depth -= 1; i += 2 }
                    else { i += 1 }
                    // SQLite's comments do not nest.
                    if dialect == .sqlite, depth > 1 { depth = 1 }
                } while depth > 0 && i < s.count
                if depth > 0 { throw Refusal(message: "the query has a /* comment that is never closed") }
            case "$" where dialect == .postgreSQL:
                // A dollar quote: $$…$$ or $tag$…$tag$ (a parameter, $1, is not one).
                var j = i + 1
                while j < s.count, isWordPart(s[j]), s[j] != "$" { j += 1 }
                if j < s.count, s[j] == "$", !(i + 1 < s.count && ("0"..."9").contains(s[i + 1])) {
                    let tag = Array(s[i...j])
                    var k = j + 1
                    var closed = false
                    while k + tag.count <= s.count {
                        if Array(s[k..<(k + tag.count)]) == tag { closed = true; break }
                        k += 1
                    }
                    guard closed else { throw Refusal(message: "the query has a dollar-quoted string that is never closed") }
                    i = k + tag.count
                } else {
                    i += 1
                }
            default:
                if isWordStart(c) {
                    // PostgreSQL's E'…' strings take backslash escapes.
                    if dialect == .postgreSQL, c == "e" || c == "E", i + 1 < s.count, s[i + 1] == "'" {
                        i += 1
                        try skipQuoted("'", backslashes: true)
                        continue
                    }
                    let begin = i
                    while i < s.count, isWordPart(s[i]) { i += 1 }
                    let spelling = String(String.UnicodeScalarView(s[begin..<i]))
                    var j = i
                    while j < s.count, s[j].properties.isWhitespace { j += 1 }
                    words.append(Token(word: spelling.lowercased(), spelling: spelling, callsFunction: j < s.count && s[j] == "("))
                } else {
                    i += 1
                }
            }
        }
        finish(s.count)
        return statements
    }

    static func excerpt(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return line.count > 40 ? String(line.prefix(40)) + "…" : line
    }
}
