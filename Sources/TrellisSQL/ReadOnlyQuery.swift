import Foundation

/// The first check a `--query` passes, before it reaches a database, for a message that names
/// what is wrong: one statement that begins as a read.
///
/// The SQL is read as tokens — strings, quoted names, comments and dollar quotes are skipped —
/// and refused, naming what was found, when it holds more than one statement or when its
/// statement does not begin with `SELECT`, `WITH`, `VALUES` (or `TABLE` in PostgreSQL). It is a
/// courtesy, not the guard: what keeps a query to reading is the database's own guarantee —
/// SQLite's read-only connection and read-only statement check (`sqlite3_stmt_readonly`), and
/// for PostgreSQL a read-only transaction and the server's plan, checked for functions that
/// may act (``PostgreSQLQueryGuard``). So a column named `comment`, `load` or `set` is never
/// mistaken for a command, and no spelling of a call gets past a list of words.
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

    /// Refuses `sql` unless it is one statement that only reads.
    public static func check(_ sql: String, dialect: Dialect) throws(Refusal) {
        let statements = try split(sql, dialect: dialect)
        guard let first = statements.first else {
            throw Refusal(message: "the query is empty; give one SELECT")
        }
        guard statements.count == 1 else {
            throw Refusal(
                message: "the query holds \(statements.count) statements; give one SELECT "
                    + "(the second begins \"\(excerpt(statements[1].text))\")")
        }
        let words = first.words
        let starts = dialect == .postgreSQL ? statementStarts.union(["table"]) : statementStarts
        guard let lead = words.first?.word, starts.contains(lead) else {
            throw Refusal(message: "the query must be one read-only SELECT; it begins with \"\(words.first?.spelling ?? "")\"")
        }
    }

    struct Token {
        /// Lowercased.
        var word: String
        var spelling: String
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
            throw Refusal(
                message: "the query has a \(close == "'" ? "string" : "quoted name") that is never closed "
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
                    if i + 1 < s.count, s[i] == "/", s[i + 1] == "*" {
                        depth += 1; i += 2
                    } else if i + 1 < s.count, s[i] == "*", s[i + 1] == "/" {
                        depth -= 1; i += 2
                    } else {
                        i += 1
                    }
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
                    words.append(Token(word: spelling.lowercased(), spelling: spelling))
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
