import CSQLite
import Foundation
import TrellisGrid

/// What went wrong talking to SQLite: its message, and the statement or file involved.
public struct SQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// SQLite's result code.
    public var code: Int32
    /// SQLite's message, with what was being done.
    public var message: String
    public var description: String { message }

    /// Whether another program's lock was waited for until the busy timeout (SQLITE_BUSY or
    /// SQLITE_LOCKED): worth trying again.
    public var isLocked: Bool { code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED }

    /// Whether a statement SQLite had compiled failed on the data it read (a query's rows: an
    /// overflow, malformed JSON, a damaged page), rather than being refused as written.
    public var whileReading = false
}

/// One connection to an SQLite database, read-only unless asked otherwise.
///
/// ```swift
/// let db = try SQLiteConnection(path: "scores.sqlite")          // read-only
/// try db.rows("SELECT name FROM sqlite_master WHERE type = ?", ["table"]) { row in print(row.text(0)) }
/// ```
///
/// Values are always bound as parameters and identifiers quoted (``quote(_:)``): a name or value
/// that looks like SQL is data.
public final class SQLiteConnection: @unchecked Sendable {
    let handle: OpaquePointer
    /// The file, as given.
    public let path: String
    public let isReadOnly: Bool

    /// How long a statement waits for another program's lock on the database before it fails.
    public let busyTimeout: TimeInterval

    /// Opens `path`. `readOnly` (the default) opens it with SQLite's read-only flag, so nothing can
    /// be written through this connection; `create` makes a new file when there is none. A
    /// statement that meets another program's lock waits up to `busyTimeout` seconds (5 by
    /// default), then fails saying the database is locked — never a hang.
    public init(path: String, readOnly: Bool = true, create: Bool = false, busyTimeout: TimeInterval = 5) throws(SQLiteError) {
        var db: OpaquePointer?
        var flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        if create && !readOnly { flags |= SQLITE_OPEN_CREATE }
        flags |= SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &db, flags, nil)
        guard status == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: status, message: "cannot open the database '\(path)': \(message)")
        }
        handle = db
        self.path = path
        isReadOnly = readOnly
        self.busyTimeout = busyTimeout.isFinite ? max(0, busyTimeout) : 5
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, Int32(min(self.busyTimeout * 1000, Double(Int32.max))))
    }

    deinit { sqlite3_close_v2(handle) }

    /// `name` as an SQL identifier: in double quotes, inner quotes doubled.
    public static func quote(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Stops the statement running on this connection (from any thread): its next step fails
    /// with "interrupted". (`sqlite3_interrupt`.)
    public func interrupt() { sqlite3_interrupt(handle) }

    /// Prepares `sql` (one statement).
    public func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else {
            throw lastError(status)
        }
        return SQLiteStatement(statement, connection: self)
    }

    /// Prepares `sql` as the one statement of a read-only query: SQLite itself must find it to
    /// read only (`sqlite3_stmt_readonly`), to return columns, and nothing but space and comments
    /// after it.
    public func prepareReadOnlyQuery(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        var rest: UnsafePointer<CChar>?
        let status = sql.withCString { text in
            let status = sqlite3_prepare_v2(handle, text, -1, &statement, &rest)
            if let rest, rest.pointee != 0 {
                // Compiled alone, what follows must be empty.
                var next: OpaquePointer?
                _ = sqlite3_prepare_v2(handle, rest, -1, &next, nil)
                if next != nil { sqlite3_finalize(next); return SQLITE_MISUSE }
            }
            return status
        }
        guard status == SQLITE_OK, let statement else {
            if let statement { sqlite3_finalize(statement) }
            if status == SQLITE_MISUSE { throw SQLiteError(code: status, message: "the query holds more than one statement; give one SELECT") }
            throw lastError(status)
        }
        guard sqlite3_stmt_readonly(statement) != 0, sqlite3_column_count(statement) > 0 else {
            sqlite3_finalize(statement)
            throw SQLiteError(code: SQLITE_MISUSE, message: "the query must be one SELECT that only reads")
        }
        return SQLiteStatement(statement, connection: self)
    }

    /// Runs `sql` with `bindings`, calling `body` for each row.
    public func rows(
        _ sql: String, _ bindings: [SQLiteValue] = [],
        _ body: (SQLiteStatement) throws(SQLiteError) -> Void
    ) throws(SQLiteError) {
        let statement = try prepare(sql)
        try statement.bind(bindings)
        while try statement.step() { try body(statement) }
    }

    /// Runs statements that return no rows (a script, without parameters).
    public func execute(_ sql: String) throws(SQLiteError) {
        var error: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &error)
        guard status == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(error)
            throw SQLiteError(code: status, message: message)
        }
    }

    /// Runs one statement with `bindings` that returns no rows.
    public func run(_ sql: String, _ bindings: [SQLiteValue] = []) throws(SQLiteError) {
        let statement = try prepare(sql)
        try statement.bind(bindings)
        while try statement.step() {}
    }

    /// Whether a transaction is open on this connection.
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// The database's journal mode (`wal`, `delete`, …), lowercased; "" when it cannot be read.
    public var journalMode: String {
        var mode = ""
        try? rows("PRAGMA journal_mode") { row in mode = row.text(0).lowercased() }
        return mode
    }

    /// Opens a read transaction and reads once, so that every read until ``endSnapshot()`` sees
    /// the database as it is now: other programs' commits meanwhile are not seen (in WAL mode they
    /// go on; in the other journal modes they wait for it, up to their own timeout).
    public func beginSnapshot() throws(SQLiteError) {
        try execute("BEGIN")
        do {
            try rows("SELECT count(*) FROM sqlite_master") { _ in }
        } catch {
            try? execute("COMMIT")
            throw error
        }
    }

    /// Ends the read transaction ``beginSnapshot()`` opened.
    public func endSnapshot() {
        if isInTransaction { try? execute("COMMIT") }
    }

    /// The `rowid` of the last row inserted through this connection.
    public var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    func lastError(_ status: Int32) -> SQLiteError {
        let message = String(cString: sqlite3_errmsg(handle))
        // A lock held past the wait: say by whom and what to do.
        if status & 0xFF == SQLITE_BUSY {
            return SQLiteError(
                code: status,
                message: "\(message): another program is writing to it; waited "
                    + "\(Int(busyTimeout.rounded())) s — try again when it is done")
        }
        if status & 0xFF == SQLITE_NOTADB {
            return SQLiteError(
                code: status,
                message: "\(message): it is not an SQLite file; --table and --query read "
                    + "SQLite databases (a CSV file needs neither)")
        }
        if status & 0xFF == SQLITE_CORRUPT {
            return SQLiteError(
                code: status,
                message: "\(message): the file is damaged or cut short; the sqlite3 shell's "
                    + ".recover may save its rows")
        }
        return SQLiteError(code: status, message: message)
    }
}

/// A value to bind, or read back, in SQLite's own types.
public enum SQLiteValue: Equatable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// SQLite's marker for "copy the bytes now".
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A prepared statement: bind, step, read columns.
public final class SQLiteStatement {
    let handle: OpaquePointer
    private let connection: SQLiteConnection

    init(_ handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds `values` to the parameters, from the first, after clearing the previous run.
    public func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (i, value) in values.enumerated() {
            let index = Int32(i + 1)
            let status: Int32
            switch value {
            case .null: status = sqlite3_bind_null(handle, index)
            case .integer(let v): status = sqlite3_bind_int64(handle, index, v)
            case .real(let v): status = sqlite3_bind_double(handle, index, v)
            case .text(let s): status = sqlite3_bind_text(handle, index, s, -1, transient)
            case .blob(let b): status = b.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), transient) }
            }
            guard status == SQLITE_OK else { throw connection.lastError(status) }
        }
    }

    /// Moves to the next row: `true` while there is one.
    public func step() throws(SQLiteError) -> Bool {
        let status = sqlite3_step(handle)
        switch status {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.lastError(status)
        }
    }

    public var columnCount: Int { Int(sqlite3_column_count(handle)) }
    public func columnName(_ i: Int) -> String { String(cString: sqlite3_column_name(handle, Int32(i))) }
    /// The column's declared type in its table, when it comes straight from one.
    public func declaredType(_ i: Int) -> String? { sqlite3_column_decltype(handle, Int32(i)).map { String(cString: $0) } }

    public func isNull(_ i: Int) -> Bool { sqlite3_column_type(handle, Int32(i)) == SQLITE_NULL }
    public func int64(_ i: Int) -> Int64 { sqlite3_column_int64(handle, Int32(i)) }
    public func double(_ i: Int) -> Double { sqlite3_column_double(handle, Int32(i)) }

    /// The column's value as text, as SQLite writes it (numbers in SQLite's own rendering).
    public func text(_ i: Int) -> String {
        guard let bytes = sqlite3_column_text(handle, Int32(i)) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, Int32(i)))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The column's value as a grid shows and writes it: a BLOB as ``blobText(_:)``, anything
    /// else as ``text(_:)``.
    public func shownText(_ i: Int) -> String {
        guard sqlite3_column_type(handle, Int32(i)) == SQLITE_BLOB else { return text(i) }
        guard case .blob(let bytes) = value(i) else { return "" }
        return Self.blobText(bytes)
    }

    /// A BLOB as text: its bytes when they are UTF-8 text (a program that stored text as a BLOB
    /// gets it back as written, as the sqlite3 shell writes it), else its `x'…'` hex — bytes that
    /// are not text would otherwise come back as replacement characters.
    static func blobText(_ bytes: [UInt8]) -> String {
        if !bytes.contains(0), let text = String(validating: bytes, as: UTF8.self) { return text }
        return hex(bytes)
    }

    /// `x'…'`: SQLite's literal of a BLOB.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = [UInt8(ascii: "x"), UInt8(ascii: "'")]
        out.reserveCapacity(bytes.count * 2 + 3)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        out.append(UInt8(ascii: "'"))
        return String(decoding: out, as: UTF8.self)
    }

    /// The column's value in SQLite's types.
    public func value(_ i: Int) -> SQLiteValue {
        switch sqlite3_column_type(handle, Int32(i)) {
        case SQLITE_INTEGER: return .integer(int64(i))
        case SQLITE_FLOAT: return .real(double(i))
        case SQLITE_TEXT: return .text(text(i))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, Int32(i)))
            guard count > 0, let bytes = sqlite3_column_blob(handle, Int32(i)) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }

    /// The column's value as a grid cell, keeping its type: 64-bit integers exactly, reals
    /// (NaN is missing), text as stored, NULL missing, a blob as ``blobText(_:)``.
    public func cell(_ i: Int) -> CellValue {
        switch sqlite3_column_type(handle, Int32(i)) {
        case SQLITE_INTEGER: return .integer(Int(int64(i)))
        case SQLITE_FLOAT:
            let d = double(i)
            return d.isNaN ? .missing : .decimal(d)
        case SQLITE_TEXT: return .text(text(i))
        case SQLITE_BLOB:
            guard case .blob(let bytes) = value(i) else { return .missing }
            return .text(Self.blobText(bytes))
        default: return .missing
        }
    }
}
