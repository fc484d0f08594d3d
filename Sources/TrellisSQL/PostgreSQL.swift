import CPostgreSQL
import Foundation
import TrellisGrid

/// What went wrong talking to PostgreSQL: the server's or libpq's message.
public struct PostgreSQLError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of failure it is, as the server's error code (or libpq) says — not read from the
    /// message, which a server may give in its own language.
    public enum Kind: Sendable, Equatable {
        case other
        /// The server could not be reached (refused, no answer within the connect timeout).
        case unreachable
        /// The server asked for a password and refused the connection.
        case authentication
        /// The role may not read what was asked (SQLSTATE 42501).
        case permission
        /// Another session's lock was waited for until `lock_timeout` (55P03).
        case lockTimeout
        /// The statement was cancelled, by `statement_timeout` or otherwise (57014).
        case cancelled
        /// The connection was lost meanwhile.
        case connectionLost
        /// The server refused the data itself (SQLSTATE class 22, a data exception: a division by
        /// zero, text that is not a number of the type asked for, a value out of range).
        case data
    }

    public var message: String
    public var kind: Kind = .other
    public var description: String { message }

    public init(message: String, kind: Kind = .other) {
        self.message = message
        self.kind = kind
    }
}

/// libpq, loaded when the first connection is opened (see `shim.h`): a program that never
/// connects to PostgreSQL never loads it, and one on a machine without it fails only there.
package enum LibPQ {
    /// The functions, or why they could not be found.
    /// The name the system knows the library by.
    package static let name = TRELLIS_LIBPQ_NAME
    private static let loaded = load(name)

    /// libpq's functions, loaded once.
    static func functions() throws(PostgreSQLError) -> TrellisLibPQ { try loaded.get() }

    /// The functions of the library `name`, or a message that names it and says how to get it.
    package static func load(_ name: String) -> Result<TrellisLibPQ, PostgreSQLError> {
        var functions = TrellisLibPQ()
        if let failure = trellis_libpq_load(name, &functions) {
            return .failure(
                PostgreSQLError(
                    message: "PostgreSQL's client library could not be loaded (\(String(cString: failure))); install libpq "
                        + "(Debian: apt-get install libpq5)"))
        }
        return .success(functions)
    }
}

/// A text libpq gives (a message, a name); empty where it gives none.
private func string(_ text: UnsafePointer<CChar>?) -> String { text.map { String(cString: $0) } ?? "" }

/// One connection to a PostgreSQL server (or a PostgreSQL-compatible one), through libpq.
///
/// ```swift
/// let db = try PostgreSQLConnection(url: "postgresql://reader@127.0.0.1:5432/school")
/// let rows = try db.query("SELECT name FROM scores WHERE score > $1", ["80"])
/// ```
///
/// Parameters are always bound (`$1`, `$2`, … as text), identifiers quoted (``quote(_:)``).
public final class PostgreSQLConnection: @unchecked Sendable {
    let handle: OpaquePointer
    let pq: TrellisLibPQ
    /// The connection string, as given.
    public let url: String

    /// Asks the server to cancel the statement running on this connection (from any thread):
    /// the statement then fails with the server's "canceling statement due to user request".
    /// (`PQgetCancel` and `PQcancel`, which are safe beside the thread using the connection.)
    public func cancel() {
        guard let token = pq.getCancel(handle) else { return }
        defer { pq.freeCancel(token) }
        var message = [CChar](repeating: 0, count: 256)
        _ = pq.cancel(token, &message, Int32(message.count))
    }

    /// How long a connection attempt waits for the server, unless the URL says
    /// (`?connect_timeout=N`): an address that never answers fails after this, not after the
    /// system's TCP retries.
    public static let defaultConnectTimeout = 10
    /// How long a statement waits for another session's lock on a table, unless the URL or the
    /// server sets a `lock_timeout`: then it fails with the server's message, instead of hanging.
    public static let defaultLockTimeout = "5s"

    /// Connects to `url` (a `postgresql://` URL or libpq's `key=value` string). A password in it
    /// never appears in a message.
    public init(url: String) throws(PostgreSQLError) {
        let pq = try LibPQ.functions()
        // The defaults come first, so that what the URL gives overrides them: the connect timeout,
        // and TCP keepalives and a user timeout so that a connection whose server or network
        // went away is found dead within half a minute, not the system's two hours.
        let defaults = [
            ("connect_timeout", String(Self.defaultConnectTimeout)), ("keepalives", "1"), ("keepalives_idle", "10"),
            ("keepalives_interval", "5"), ("keepalives_count", "3"), ("tcp_user_timeout", "30000"),
        ]
        let keywords = defaults.map(\.0) + ["dbname"], values = defaults.map(\.1) + [url]
        let keywordPointers = keywords.map { strdup($0) } + [nil]
        let valuePointers = values.map { strdup($0) } + [nil]
        defer { for p in keywordPointers + valuePointers { free(p) } }
        let opened = keywordPointers.withUnsafeBufferPointer { k in
            valuePointers.withUnsafeBufferPointer { v in
                k.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: k.count) { keys in
                    v.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: v.count) { vals in
                        pq.connectdbParams(keys, vals, 1)
                    }
                }
            }
        }
        guard let connection = opened else { throw PostgreSQLError(message: "libpq could not allocate a connection") }
        guard pq.status(connection) == CONNECTION_OK else {
            let message = string(pq.errorMessage(connection)).trimmingCharacters(in: .whitespacesAndNewlines)
            let refused = pq.connectionNeedsPassword(connection) != 0 || pq.connectionUsedPassword(connection) != 0
            pq.finish(connection)
            // libpq's message may quote the URI it could not read: no password is shown.
            throw PostgreSQLError(
                message: "cannot connect to '\(Self.redacted(url))': "
                    + ConnectionSecrets.redact(message, secrets: ConnectionSecrets.passwords(in: url)),
                kind: refused ? .authentication : .unreachable)
        }
        handle = connection
        self.pq = pq
        self.url = url
        _ = try? query("SET client_encoding TO 'UTF8'")
        // One round trip: set only where neither the URL nor the server set one.
        _ = try? query(
            "SELECT set_config('lock_timeout', $1, false) WHERE current_setting('lock_timeout') = '0'",
            [Self.defaultLockTimeout])
    }

    deinit { pq.finish(handle) }

    /// The URL (or key/value string) without its passwords, for messages (``ConnectionSecrets``).
    public static func redactedURL(_ url: String) -> String { redacted(url) }

    static func redacted(_ url: String) -> String {
        ConnectionSecrets.redact(url, secrets: ConnectionSecrets.passwords(in: url))
    }

    /// `name` as an SQL identifier: in double quotes, inner quotes doubled.
    public static func quote(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Whether the connection still works.
    public var isConnected: Bool { pq.status(handle) == CONNECTION_OK }

    /// Runs `sql` with text parameters (`nil` is NULL) and returns its rows.
    public func query(_ sql: String, _ parameters: [String?] = []) throws(PostgreSQLError) -> PostgreSQLResult {
        var copies: [UnsafeMutablePointer<CChar>?] = parameters.map { $0.map { strdup($0) } ?? nil }
        defer { for p in copies { free(p) } }
        let result: OpaquePointer? = copies.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: max(1, buffer.count)) { values in
                pq.execParams(handle, sql, Int32(parameters.count), nil, parameters.isEmpty ? nil : values, nil, nil, 0)
            }
        }
        guard let result else {
            throw PostgreSQLError(message: string(pq.errorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let status = pq.resultStatus(result)
        guard status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK else {
            var message = string(pq.resultErrorMessage(result)).trimmingCharacters(in: .whitespacesAndNewlines)
            let state = pq.resultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            pq.clear(result)
            if !isConnected {
                throw PostgreSQLError(message: "the connection to the server was lost: \(message)", kind: .connectionLost)
            }
            // What to do about the two waits a server can cut short.
            let kind: PostgreSQLError.Kind
            switch state {
            case "55P03":
                kind = .lockTimeout
                message +=
                    " (another session holds a lock on the table; try again when it is done, or set a longer "
                    + "lock_timeout in the URL: ?options=-c%20lock_timeout%3D60s)"
            case "57014":
                kind = .cancelled
                message +=
                    " (the server ended it: its statement_timeout, or a cancel; a smaller --query, or a longer "
                    + "timeout for this role)"
            case "42501": kind = .permission
            case let code? where code.hasPrefix("22"): kind = .data
            default: kind = .other
            }
            throw PostgreSQLError(message: message, kind: kind)
        }
        return PostgreSQLResult(result, pq)
    }
}

/// The rows of one query, in text form, with each column's type.
public final class PostgreSQLResult {
    let handle: OpaquePointer
    let pq: TrellisLibPQ
    init(_ handle: OpaquePointer, _ pq: TrellisLibPQ) {
        self.handle = handle
        self.pq = pq
    }
    deinit { pq.clear(handle) }

    public var rowCount: Int { Int(pq.ntuples(handle)) }
    public var columnCount: Int { Int(pq.nfields(handle)) }
    public func columnName(_ c: Int) -> String { string(pq.fname(handle, Int32(c))) }
    /// The column's type OID.
    public func type(_ c: Int) -> UInt32 { pq.ftype(handle, Int32(c)) }
    public func isNull(_ r: Int, _ c: Int) -> Bool { pq.getisnull(handle, Int32(r), Int32(c)) == 1 }
    /// The value as the server writes it.
    public func text(_ r: Int, _ c: Int) -> String {
        guard let bytes = pq.getvalue(handle, Int32(r), Int32(c)) else { return "" }
        let count = Int(pq.getlength(handle, Int32(r), Int32(c)))
        return bytes.withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
    }

    /// The value as a grid cell, keeping its type: integers of every width exactly, numerics as
    /// their digits are read (as a CSV cell of the same text), reals (NaN missing), booleans,
    /// everything else as its text; NULL missing.
    public func cell(_ r: Int, _ c: Int) -> CellValue {
        guard !isNull(r, c) else { return .missing }
        let text = self.text(r, c)
        return Self.cell(text, type: type(c))
    }

    static func cell(_ text: String, type oid: UInt32) -> CellValue {
        switch oid {
        case 20, 21, 23: return Int(text).map(CellValue.integer) ?? .text(text)
        case 700, 701:
            guard let d = Double(text), !d.isNaN else { return text == "NaN" ? .missing : .text(text) }
            return .decimal(d)
        case 1700:
            if text == "NaN" { return .missing }
            return CellValue.parse(text, as: .decimal)
        case 16: return text == "t" ? .boolean(true) : text == "f" ? .boolean(false) : .text(text)
        default: return .text(text)
        }
    }

    /// The text types (`text`, `varchar`, `char`, a query's untyped literals): their cells are read
    /// on their own, as a CSV file's are.
    static let textTypes: Set<UInt32> = [25, 1043, 1042, 705]

    /// The grid type of a PostgreSQL type.
    static func columnType(_ oid: UInt32) -> ColumnType {
        switch oid {
        case 20, 21, 23: return .integer
        case 700, 701, 1700: return .decimal
        case 16: return .boolean
        default: return .text
        }
    }
}

/// A PostgreSQL table as a grid's data source: rows in primary-key order (`ctid` order for a
/// table without one), read on demand, with their exact types and texts. A sort reads only its
/// key columns and the grid's engine orders them, as for any source.
public final class PostgreSQLTableSource: ObservableDataSource, PrefetchingDataSource, SearchableDataSource, InterruptibleDataSource,
    SortingDataSource, ExactNumberDataSource
{
    public let connection: PostgreSQLConnection
    public let table: String
    public let columns: [Column]
    private var columnOIDs: [UInt32] = []
    /// Per column, whether it is of a text type, whose cells are read on their own.
    private var readsText: [Bool] = []
    /// Each row's key (primary key or ctid) as text, in order.
    public private(set) var keys: [String] = []
    private let keyExpression: String
    private let keyType: String
    private let quotedTable: String
    private let selectList: String
    private let notifier = GridChangeNotifier()
    public var changes: GridChangeNotifier { notifier }
    var changeNotifier: GridChangeNotifier { notifier }
    var columnList: String { selectList }
    var keyColumn: String { keyExpression }
    var keyTypeName: String { keyType }
    func reload() throws(PostgreSQLError) { try readKeys() }
    func dropRows() {
        rows = [:]
        lastScan = nil
        positionOfKey = [:]
    }
    func removeKey(at position: Int) {
        keys.remove(at: position)
        dropRows()
    }
    /// The last error reading rows (a lost connection): the grid keeps what it holds.
    public private(set) var lastError: PostgreSQLError? {
        didSet { if lastError != nil { failedReads += 1 } }
    }
    /// How many reads have failed (``FallibleDataSource``).
    public private(set) var failedReads = 0
    public var readFailure: String? { lastError?.message }

    /// Stops the query under way (a sort reading a key column), from any thread.
    public func interrupt() { connection.cancel() }

    /// How many queries have read rows' cells: a sorted output must read its rows a window a
    /// query, not a block per row.
    @_spi(Instrumentation) public private(set) var rowQueries = 0

    private struct Row {
        var values: [CellValue]
        var texts: [String]
    }
    private var rows: [Int: Row] = [:]
    static let blockSize = 256
    static let rowsKept = 32_768
    /// How many rows a text column's type is judged from.
    static let typeSample = 10_000

    /// A cell as the grid reads it: a text column's cell read on its own, as a CSV file's.
    func read(_ cell: CellValue, column: Int) -> CellValue {
        guard readsText[column], case .text(let text) = cell else { return cell }
        return CellValue.parse(text, inColumnOf: columns[column].type)
    }

    public init(connection: PostgreSQLConnection, table: String) throws(PostgreSQLError) {
        self.connection = connection
        self.table = table
        quotedTable = PostgreSQLConnection.quote(table)
        let exists = try connection.query("SELECT 1 FROM pg_class WHERE oid = to_regclass($1)", [quotedTable])
        guard exists.rowCount == 1 else {
            let names =
                (try? connection.query(
                    "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1"))
            let listed = names.map { r in (0..<min(r.rowCount, 20)).map { "\"\(r.text($0, 0))\"" }.joined(separator: ", ") } ?? ""
            throw PostgreSQLError(message: "no table \"\(table)\"" + (listed.isEmpty ? "" : "; the tables are \(listed)"))
        }
        let pk = try connection.query(
            """
            SELECT a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_index i
            JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
            WHERE i.indrelid = to_regclass($1) AND i.indisprimary
            """, [quotedTable])
        if pk.rowCount == 1 {
            keyExpression = PostgreSQLConnection.quote(pk.text(0, 0))
            keyType = pk.text(0, 1)
        } else {
            keyExpression = "ctid"
            keyType = "tid"
        }
        let shape = try connection.query("SELECT * FROM \(quotedTable) LIMIT 0")
        var columns: [Column] = []
        var readsText: [Bool] = []
        for c in 0..<shape.columnCount {
            columns.append(Column(shape.columnName(c), type: PostgreSQLResult.columnType(shape.type(c))))
            columnOIDs.append(shape.type(c))
            readsText.append(PostgreSQLResult.textTypes.contains(shape.type(c)))
        }
        self.readsText = readsText
        // A text column's type: what most of its first rows hold, read as a CSV file's cells.
        let inferred = readsText.indices.filter { readsText[$0] }
        if !inferred.isEmpty {
            let list = inferred.map { PostgreSQLConnection.quote(columns[$0].identifier) }.joined(separator: ", ")
            let sample = try connection.query("SELECT \(list) FROM \(quotedTable) ORDER BY \(keyExpression) LIMIT \(Self.typeSample)")
            for (k, c) in inferred.enumerated() {
                columns[c].type = ColumnType.infer((0..<sample.rowCount).map { sample.isNull($0, k) ? "" : sample.text($0, k) })
            }
        }
        self.columns = columns
        selectList = columns.map { PostgreSQLConnection.quote($0.identifier) }.joined(separator: ", ")
        try readKeys()
    }

    private func readKeys() throws(PostgreSQLError) {
        // Named apart, so that ORDER BY reads the key itself and not its text.
        let result = try connection.query("SELECT \(keyExpression)::text AS trellis_key FROM \(quotedTable) ORDER BY \(keyExpression)")
        keys = (0..<result.rowCount).map { result.text($0, 0) }
        rows = [:]
        lastScan = nil
        positionOfKey = [:]
    }

    /// Reads the table's rows again (after changes made elsewhere) and tells the grids.
    public func refresh() throws(PostgreSQLError) {
        try readKeys()
        notifier.post(.reset)
    }

    public var rowCount: Int { keys.count }

    /// `values` as a PostgreSQL array literal of text elements.
    static func arrayLiteral(_ values: [String]) -> String {
        "{"
            + values.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
            .joined(separator: ",") + "}"
    }

    /// Reads the rows at `positions` that are not held, by key, in one query per few hundred.
    private func fetch(_ positions: [Int]) {
        let wanted = positions.filter { $0 >= 0 && $0 < keys.count && rows[$0] == nil }
        guard !wanted.isEmpty else { return }
        if failsAsLost() { return }
        if rows.count + wanted.count > Self.rowsKept { rows = [:] }
        var position: [String: Int] = [:]
        for p in wanted { position[keys[p]] = p }
        for chunk in stride(from: 0, to: wanted.count, by: 1000) {
            let part = wanted[chunk..<min(wanted.count, chunk + 1000)].map { keys[$0] }
            rowQueries += 1
            do {
                let result = try connection.query(
                    "SELECT \(keyExpression)::text, \(selectList) FROM \(quotedTable) WHERE \(keyExpression) = ANY($1::\(keyType)[])",
                    [Self.arrayLiteral(part)])
                for r in 0..<result.rowCount {
                    guard let at = position[result.text(r, 0)] else { continue }
                    rows[at] = Row(
                        values: (0..<columns.count).map { read(result.cell(r, $0 + 1), column: $0) },
                        texts: (0..<columns.count).map { result.isNull(r, $0 + 1) ? "" : result.text(r, $0 + 1) })
                }
                lastError = nil
            } catch {
                lastError = error
                return
            }
        }
    }

    /// Whether the connection is gone. A lost connection is not asked again for every cell: the
    /// read fails at once, saying so, and counts (so that a sort or an output knows its rows were
    /// not read).
    private func failsAsLost() -> Bool {
        guard !connection.isConnected else { return false }
        if let lost = lastError, lost.kind == .connectionLost {
            lastError = lost
        } else {
            lastError = PostgreSQLError(message: "the connection to the server was lost", kind: .connectionLost)
        }
        return true
    }

    private func row(_ position: Int) -> Row? {
        if let row = rows[position] { return row }
        if failsAsLost() { return nil }
        let block = position / Self.blockSize * Self.blockSize
        fetch(Array(block..<min(keys.count, block + Self.blockSize)))
        return rows[position]
    }

    public func value(row: Int, column: Int) -> CellValue {
        guard row >= 0, row < keys.count, columns.indices.contains(column), let r = self.row(row) else { return .missing }
        return r.values[column]
    }

    public func text(row: Int, column: Int) -> String {
        guard row >= 0, row < keys.count, columns.indices.contains(column), let r = self.row(row) else { return "" }
        return r.texts[column]
    }

    public func prefetch(rows positions: [Int]) { fetch(positions) }

    /// The rows whose text in `column` contains `text`, found by the server (`strpos` over the
    /// cell's text, as ``text(row:column:)`` reads it), or `nil` (with ``lastError``) when the
    /// query fails.
    public func rows(containing text: String, column: Int) -> [Int]? {
        guard columns.indices.contains(column) else { return [] }
        do {
            let result = try connection.query(
                "SELECT \(keyExpression)::text FROM \(quotedTable) WHERE strpos("
                    + "\(PostgreSQLConnection.quote(columns[column].identifier))::text, $1) > 0", [text])
            if positionOfKey.count != keys.count {
                positionOfKey = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
            }
            lastError = nil
            return (0..<result.rowCount).compactMap { positionOfKey[result.text($0, 0)] }
        } catch {
            lastError = error
            return nil
        }
    }

    /// Each key's position, for reading the server's order back; built on the first push-down.
    var positionOfKey: [String: Int] = [:]
    /// How many sorts the server ran (``sortedRows(_:by:)``), as opposed to the grid.
    public internal(set) var serverSorts = 0
    /// Whether number keys are sorted by the server's `ORDER BY` (the same order) instead of
    /// reading the key column and sorting here. Off by default: on loopback the server's sort and
    /// reading its order back took several times as long as reading the column and sorting here
    /// (`Benchmarks/History.md`, "A grid bound to SQLite" and after). A server much larger than
    /// the client may change that.
    public var sortsOnServer = false

    /// The last column scanned whole: its values and texts, for a sort that asks for both.
    private var lastScan: (column: Int, values: [CellValue], texts: [String])?

    private func scan(_ column: Int) -> (values: [CellValue], texts: [String])? {
        if let lastScan, lastScan.column == column, lastScan.values.count == keys.count { return (lastScan.values, lastScan.texts) }
        do {
            let result = try connection.query(
                "SELECT \(PostgreSQLConnection.quote(columns[column].identifier)) FROM \(quotedTable) "
                    + "ORDER BY \(keyExpression)")
            guard result.rowCount == keys.count else { return nil }
            let values = (0..<result.rowCount).map { read(result.cell($0, 0), column: column) }
            let texts =
                columnOIDs[column] == 1700 || readsText[column]
                ? (0..<result.rowCount).map { result.isNull($0, 0) ? "" : result.text($0, 0) } : []
            lastScan = (column, values, texts)
            lastError = nil
            return (values, texts)
        } catch {
            lastError = error
            return nil
        }
    }

    /// One column at `rows`: one ordered scan of that column when the rows are many.
    public func values(ofColumn column: Int, rows positions: [Int]) -> [CellValue] {
        guard columns.indices.contains(column) else { return positions.map { _ in .missing } }
        guard positions.count > Self.blockSize * 4 else { return positions.map { value(row: $0, column: column) } }
        guard let all = scan(column)?.values else { return positions.map { _ in .missing } }
        return positions.map { $0 >= 0 && $0 < all.count ? all[$0] : .missing }
    }

    /// A `numeric` column's digits, as the server writes them, so that wide numerics sort exactly
    /// (and a text column's that holds numbers: 20-digit IDs kept as text).
    public func numberTexts(ofColumn column: Int, rows positions: [Int]) -> [String]? {
        guard columns.indices.contains(column),
            columnOIDs[column] == 1700 || (readsText[column] && columns[column].type.isNumeric)
        else { return nil }
        if positions.count > Self.blockSize * 4, let texts = scan(column)?.texts {
            return positions.map { $0 >= 0 && $0 < texts.count ? texts[$0] : "" }
        }
        return positions.map { text(row: $0, column: column) }
    }
}

/// The rows of a PostgreSQL query as a table: read once, in the query's order, with exact types.
public enum PostgreSQLQuerySource {
    /// A table holding what `sql` returns, read as ``PostgreSQLQueryGuard`` says: one statement,
    /// in a read-only transaction, refused before it runs if the server's plan calls a function
    /// that may act, stopped after a time limit.
    public static func table(connection: PostgreSQLConnection, query sql: String) throws(PostgreSQLError) -> Table {
        do { try ReadOnlyQuery.check(sql, dialect: .postgreSQL) } catch { throw PostgreSQLError(message: error.message) }
        let result = try PostgreSQLQueryGuard.run(sql, on: connection)
        let table = Table(
            columns: (0..<result.columnCount).map {
                Column(result.columnName($0), type: PostgreSQLResult.columnType(result.type($0)))
            })
        // Text columns are read as a CSV file's columns: each cell on its own, the text kept.
        let readsText = (0..<result.columnCount).map { PostgreSQLResult.textTypes.contains(result.type($0)) }
        for r in 0..<result.rowCount {
            let cells = (0..<result.columnCount).map { c -> TableCell in
                if result.isNull(r, c) { return .value(.missing) }
                // Shown as the server writes it, as the table source shows it: numeric(5,2) 92 as 92.00.
                return readsText[c] ? .text(result.text(r, c)) : .shown(result.cell(r, c), result.text(r, c))
            }
            do { try table.appendRow(cells: cells) } catch {
                throw PostgreSQLError(message: "cannot hold the query's row: \(error)")
            }
        }
        table.inferTypes(ofColumns: readsText.indices.filter { readsText[$0] })
        return table
    }
}

extension PostgreSQLTableSource {
    /// A cell as a text parameter (`nil` is NULL).
    static func parameter(_ value: CellValue) -> String? {
        switch value {
        case .missing: return nil
        case .boolean(let b): return b ? "true" : "false"
        default: return value.description
        }
    }

    /// Inserts a row (one value per column), and tells the grids. Needs a role that may insert.
    @discardableResult
    public func insertRow(values: [CellValue]) throws(PostgreSQLError) -> Int {
        guard values.count == columns.count else {
            throw PostgreSQLError(message: "a row of \"\(table)\" has \(columns.count) values, not \(values.count)")
        }
        let marks = (1...columns.count).map { "$\($0)" }.joined(separator: ", ")
        let result = try connection.query(
            "INSERT INTO \(PostgreSQLConnection.quote(table)) (\(columnList)) VALUES (\(marks)) "
                + "RETURNING \(keyColumn)::text", values.map(Self.parameter))
        let key = result.text(0, 0)
        try reload()
        let position = keys.firstIndex(of: key) ?? keys.count - 1
        changeNotifier.post(.inserted(position..<(position + 1)))
        return position
    }

    /// Sets one cell, and tells the grids.
    public func setValue(_ value: CellValue, row: Int, column: Int) throws(PostgreSQLError) {
        guard row >= 0, row < keys.count, columns.indices.contains(column) else {
            throw PostgreSQLError(message: "no cell at row \(row), column \(column) of \"\(table)\"")
        }
        _ = try connection.query(
            "UPDATE \(PostgreSQLConnection.quote(table)) SET \(PostgreSQLConnection.quote(columns[column].identifier)) "
                + "= $1 WHERE \(keyColumn) = $2::\(keyTypeName)", [Self.parameter(value), keys[row]])
        if keyColumn == "ctid" {
            // An updated row gets a new ctid, and with it another place: everything may have moved.
            try reload()
            changeNotifier.post(.reset)
        } else {
            dropRows()
            changeNotifier.post(.updated(row..<(row + 1)))
        }
    }

    /// Deletes a row, and tells the grids.
    public func removeRow(at row: Int) throws(PostgreSQLError) {
        guard row >= 0, row < keys.count else {
            throw PostgreSQLError(message: "no row \(row) in \"\(table)\", which has \(keys.count)")
        }
        _ = try connection.query("DELETE FROM \(PostgreSQLConnection.quote(table)) WHERE \(keyColumn) = $1::\(keyTypeName)", [keys[row]])
        removeKey(at: row)
        changeNotifier.post(.removed(row..<(row + 1)))
    }
}

extension PostgreSQLTableSource {
    /// The `ORDER BY` that gives the grid's order for `keys`, when there is one: every key a
    /// number column (`smallint` to `bigint`, `real`, `double precision`, `numeric`) with the
    /// standard comparator. NaN sorts as missing, as in the grid; ties go by the table's key,
    /// which is source order. Text keys are not pushed down: no server collation orders text as
    /// the grid's natural, Chinese and case-folding comparators do, composed and decomposed
    /// accents alike.
    func orderBy(_ keys: [SortKey]) -> String? {
        var terms: [String] = []
        for key in keys {
            guard case .standard = key.comparator, let c = columns.firstIndex(where: { $0.identifier == key.column }) else { return nil }
            guard [20, 21, 23, 700, 701, 1700].contains(columnOIDs[c]) else { return nil }
            let expression = sortExpression(column: c)
            let descending = key.direction == .descending
            let nullsFirst = key.nulls.missingFirst(descending: descending)
            terms.append("\(expression) \(descending ? "DESC" : "ASC") NULLS \(nullsFirst ? "FIRST" : "LAST")")
        }
        guard !terms.isEmpty else { return nil }
        return terms.joined(separator: ", ") + ", \(keyColumn)"
    }

    /// What a number column is sorted by on the server: NaN as NULL, as the grid has it.
    func sortExpression(column c: Int) -> String {
        let name = PostgreSQLConnection.quote(columns[c].identifier)
        switch columnOIDs[c] {
        case 700, 701: return "NULLIF(\(name), 'NaN'::float8)"
        case 1700: return "NULLIF(\(name), 'NaN'::numeric)"
        default: return name
        }
    }

    /// The SQL type of a number column, for casting parameters to it.
    func sqlType(column c: Int) -> String {
        switch columnOIDs[c] {
        case 21: return "smallint"
        case 23: return "integer"
        case 20: return "bigint"
        case 700: return "real"
        case 701: return "double precision"
        case 1700: return "numeric"
        default: return "text"
        }
    }

    /// The rows in the server's order for `keys`, when it is the grid's (``orderBy(_:)``).
    public func sortedRows(_ positions: [Int], by keys: [SortKey]) -> [Int]? {
        guard sortsOnServer, let order = orderBy(keys) else { return nil }
        var wanted = [Bool](repeating: false, count: self.keys.count)
        for p in positions where p >= 0 && p < wanted.count { wanted[p] = true }
        // The rows the grid keeps out of the sort (pinned, summaries' labels) stay out of ORDER BY.
        let excluded = (0..<self.keys.count).filter { !wanted[$0] }.map { self.keys[$0] }
        do {
            let filter = excluded.isEmpty ? "" : " WHERE NOT (\(keyColumn) = ANY($1::\(keyTypeName)[]))"
            let result = try connection.query(
                "SELECT \(keyColumn)::text AS trellis_key FROM \(PostgreSQLConnection.quote(table))"
                    + "\(filter) ORDER BY \(order)",
                excluded.isEmpty ? [] : [Self.arrayLiteral(excluded)])
            guard result.rowCount == positions.count else { return nil }
            if positionOfKey.count != self.keys.count {
                positionOfKey = Dictionary(uniqueKeysWithValues: self.keys.enumerated().map { ($1, $0) })
            }
            var sorted: [Int] = []
            sorted.reserveCapacity(positions.count)
            for r in 0..<result.rowCount {
                guard let p = positionOfKey[result.text(r, 0)] else { return nil }
                if wanted[p] { sorted.append(p) }
            }
            serverSorts += 1
            return sorted
        } catch {
            lastError = error
            return nil
        }
    }
}
