import Foundation
import TrellisText

/// How a `--query` runs on a PostgreSQL server so that it can only read, by what the server
/// itself guarantees rather than by the words of the query:
///
/// 1. **One statement**: it is sent with the extended protocol (`PREPARE … AS`), which the server
///    refuses for more than one statement and for anything but a query.
/// 2. **A read-only transaction** (`BEGIN TRANSACTION READ ONLY`): the server refuses every write
///    to a table, sequence or schema, `SELECT … FOR UPDATE` and data-modifying `WITH`s.
/// 3. **Only functions that cannot act**: before it runs, the server's own plan of the prepared
///    statement (`EXPLAIN (VERBOSE, FORMAT JSON) EXECUTE`) is read for every function and
///    operator it calls — with views, CTEs, subqueries and casts expanded, names as the server
///    resolved them, however the query spelt them (comments, quotes, `U&"\0070g_sleep"`) — and
///    the query is refused if any of them is `VOLATILE`, the class of `pg_terminate_backend`,
///    `pg_cancel_backend`, `pg_sleep`, `pg_stat_reset`, `pg_reload_conf`, `set_config`,
///    `nextval`, `lo_export`, `pg_read_file`, `dblink` and every function that may act beyond
///    returning a value — and if a cast the plan may make (to a type it names, or an implicit one)
///    goes through a volatile function. A few volatile built-ins that only read are allowed
///    (``harmlessVolatile``). Planning does not run a volatile function, so the check itself
///    runs nothing it refuses.
/// 4. **A time limit**: the statement stops after ``defaultStatementTimeout`` unless the server,
///    the role or the URL set a `statement_timeout` already.
///
/// What the server believes of a function, the guard believes: a function its owner declared
/// `STABLE` or `IMMUTABLE` is trusted to act as one.
enum PostgreSQLQueryGuard {
    /// The time a query may take where the server sets no limit of its own.
    static let defaultStatementTimeout = "10min"

    /// Built-in volatile functions that read and return a value and nothing else: random
    /// numbers, the clock, sizes on disk.
    static let harmlessVolatile: Set<String> = [
        "random", "random_normal", "gen_random_uuid", "clock_timestamp", "timeofday",
        "pg_relation_size", "pg_total_relation_size", "pg_table_size", "pg_indexes_size", "pg_database_size",
        "pg_tablespace_size",
    ]

    /// The name under which the query is prepared for the length of one read.
    static let statementName = "trellis_read_only_query"

    /// Runs `sql`, one query, as described above, and returns its rows.
    static func run(_ sql: String, on connection: PostgreSQLConnection) throws(PostgreSQLError) -> PostgreSQLResult {
        _ = try connection.query("BEGIN TRANSACTION READ ONLY")
        var prepared = false
        do {
            _ = try connection.query(
                "SELECT pg_catalog.set_config('statement_timeout', $1, true) "
                    + "WHERE pg_catalog.current_setting('statement_timeout') IN ('0', '0ms')",
                [defaultStatementTimeout])
            _ = try connection.query("PREPARE \(statementName) AS \(sql)")
            prepared = true
            let plan = try connection.query("EXPLAIN (VERBOSE, FORMAT JSON) EXECUTE \(statementName)")
            try refuseActions(plan: (0..<plan.rowCount).map { plan.text($0, 0) }.joined(separator: "\n"), on: connection)
            let result = try connection.query("EXECUTE \(statementName)")
            _ = try connection.query("DEALLOCATE \(statementName)")
            _ = try connection.query("COMMIT")
            return result
        } catch {
            _ = try? connection.query("ROLLBACK")
            if prepared { _ = try? connection.query("DEALLOCATE \(statementName)") }
            throw error
        }
    }

    /// Throws, naming it, when the plan calls a function (or an operator's function) that the
    /// server marks volatile and that is not one of ``harmlessVolatile``.
    static func refuseActions(plan text: String, on connection: PostgreSQLConnection) throws(PostgreSQLError) {
        let calls: PlanCalls
        do {
            calls = try PlanCalls(json: JSONValue.parse(text))
        } catch {
            throw PostgreSQLError(message: "the server's plan of the query could not be read (\(error)); the query was not run")
        }
        let separator = "\u{1F}"
        let names = Set(calls.functions.map(\.name)).sorted().joined(separator: separator)
        let operators = calls.operators.sorted().joined(separator: separator)
        let words = calls.words.sorted().joined(separator: separator)
        // Volatile functions of the names called, of the operators used, and of casts to a type
        // the plan names (`(3)::napping` hides its cast's function) or that apply unseen.
        let volatile = try connection.query(
            """
            SELECT 'f', n.nspname, p.proname, '' FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
             WHERE p.provolatile = 'v' AND p.proname = ANY (pg_catalog.string_to_array($1, pg_catalog.chr(31)))
            UNION ALL
            SELECT 'o', n.nspname, p.proname, o.oprname FROM pg_catalog.pg_operator o
              JOIN pg_catalog.pg_proc p ON p.oid = o.oprcode JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
             WHERE p.provolatile = 'v' AND o.oprname = ANY (pg_catalog.string_to_array($2, pg_catalog.chr(31)))
            UNION ALL
            SELECT 'c', n.nspname, p.proname, t.typname FROM pg_catalog.pg_cast c
              JOIN pg_catalog.pg_proc p ON p.oid = c.castfunc JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
              JOIN pg_catalog.pg_type t ON t.oid = c.casttarget
             WHERE p.provolatile = 'v' AND (c.castcontext = 'i' OR t.typname = ANY (pg_catalog.string_to_array($3, pg_catalog.chr(31))))
            ORDER BY 1, 2, 3, 4
            """, [names, operators, words])
        for r in 0..<volatile.rowCount {
            let kind = volatile.text(r, 0), schema = volatile.text(r, 1), name = volatile.text(r, 2), detail = volatile.text(r, 3)
            if schema == "pg_catalog", harmlessVolatile.contains(name) { continue }
            switch kind {
            case "f":
                // A call named with its schema is that schema's function; one without, any of that name.
                guard calls.functions.contains(where: { $0.name == name && ($0.schema == nil || $0.schema == schema) }) else { continue }
                throw refusal("calls \(name)()", function: name)
            case "o": throw refusal("uses the operator \(detail), which calls \(name)()", function: name)
            default: throw refusal("may cast to \(detail), which calls \(name)()", function: name)
            }
        }
    }

    static func refusal(_ what: String, function: String) -> PostgreSQLError {
        PostgreSQLError(
            message: "the query \(what); the server marks \(function)() VOLATILE, as it marks every function that may "
                + "act beyond reading (end or cancel a session, sleep, reset statistics, write a file or a setting); "
                + "give a query that only reads")
    }
}

/// The functions and operators a plan's expressions call, read from `EXPLAIN (VERBOSE, FORMAT
/// JSON)`: every string in it is read as SQL as the server writes it (`'…'` literals skipped,
/// `"…"` names unquoted), a name followed by `(` is a call (unless it follows `::`, a type), and a
/// run of operator characters is an operator; a `Function Scan`'s `Function Name` is a call too.
/// Every name is kept as well, for the types the plan casts to.
struct PlanCalls {
    struct Name: Hashable {
        var schema: String?
        var name: String
    }
    var functions: Set<Name> = []
    var operators: Set<String> = []
    /// Every name in the plan (columns, tables, types).
    var words: Set<String> = []

    init(json: JSONValue) {
        visit(json)
    }

    private mutating func visit(_ value: JSONValue) {
        switch value {
        case .string(let text): read(text)
        case .array(let items): for item in items { visit(item) }
        case .object(let members):
            for (key, member) in members {
                if key == "Function Name", case .string(let name) = member {
                    if case .string(let schema)? = value["Schema"] {
                        functions.insert(Name(schema: schema, name: name))
                    } else {
                        functions.insert(Name(schema: nil, name: name))
                    }
                }
                visit(member)
            }
        default: break
        }
    }

    static let operatorCharacters = Set("+-*/<>=~!@#%^&|`?".unicodeScalars)

    /// Reads one expression as the server deparsed it.
    private mutating func read(_ text: String) {
        let s = Array(text.unicodeScalars)
        var i = 0
        // The last name read, whether a `.` follows it (a schema), and whether it followed `::`.
        var name: String?
        var schema: String?
        var afterCast = false
        var pendingQualifier: String?
        func isWordStart(_ c: Unicode.Scalar) -> Bool { c == "_" || c.properties.isAlphabetic }
        func isWordPart(_ c: Unicode.Scalar) -> Bool { isWordStart(c) || ("0"..."9").contains(c) || c == "$" }
        while i < s.count {
            let c = s[i]
            if c == "'" {
                i += 1
                while i < s.count {
                    if s[i] == "'" {
                        if i + 1 < s.count, s[i + 1] == "'" { i += 2; continue }
                        break
                    }
                    i += 1
                }
                i += 1
                name = nil
                afterCast = false
            } else if c == "\"" || isWordStart(c) {
                var word = ""
                if c == "\"" {
                    i += 1
                    while i < s.count {
                        if s[i] == "\"" {
                            if i + 1 < s.count, s[i + 1] == "\"" { word.unicodeScalars.append("\""); i += 2; continue }
                            break
                        }
                        word.unicodeScalars.append(s[i])
                        i += 1
                    }
                    i += 1
                } else {
                    while i < s.count, isWordPart(s[i]) { word.unicodeScalars.append(s[i]); i += 1 }
                    word = word.lowercased()
                }
                schema = pendingQualifier
                pendingQualifier = nil
                name = word
                words.insert(word)
            } else if c == "." {
                pendingQualifier = name
                name = nil
                i += 1
            } else if c == "(" {
                if let called = name, !afterCast { functions.insert(Name(schema: schema, name: called)) }
                name = nil
                afterCast = false
                i += 1
            } else if c == ":" {
                afterCast = i + 1 < s.count && s[i + 1] == ":"
                i += afterCast ? 2 : 1
                name = nil
                continue
            } else if Self.operatorCharacters.contains(c) {
                var op = ""
                while i < s.count, Self.operatorCharacters.contains(s[i]) { op.unicodeScalars.append(s[i]); i += 1 }
                operators.insert(op)
                name = nil
                afterCast = false
            } else {
                if !c.properties.isWhitespace {
                    name = nil
                    afterCast = false
                }
                i += 1
            }
            // A schema belongs only to the name read just after its `.`.
            if name == nil, pendingQualifier == nil { schema = nil }
        }
    }
}
