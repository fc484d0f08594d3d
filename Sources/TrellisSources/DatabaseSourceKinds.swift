import Foundation
import TrellisGrid
import TrellisSQL
import TrellisText

/// What a database source refuses that only a CSV file takes, checked before it is opened.
private func checkDatabaseRequest(_ request: SourceRequest) throws(InputError) {
    guard request.types.isEmpty else {
        throw InputError(.usage, "'--type' reads CSV cells; an SQLite column has its declared type")
    }
    if request.sheet != nil {
        throw InputError(.usage, "'--sheet' picks a sheet of a workbook (.xlsx, .ods); a database has tables (--table)")
    }
    if let option = request.csvOptionGiven {
        throw InputError(.usage, "'\(option)' reads CSV files; a database column has its own type and encoding")
    }
    guard request.name != "-" else { throw InputError(.usage, "An SQLite database is a file; name it instead of '-'") }
}

/// A missing table or a query refused as written (its SQL, a table it names) is the command
/// line's; what the database refused of the data as it read it, and a query the server stopped,
/// the data's — but a server out of reach is unavailable, a lock waited out a temporary failure
/// and a refusal a refusal, told by the error's kind, not its wording.
private func databaseFailure(
    _ request: SourceRequest, shown: String, _ message: String, unreachable: Bool = false,
    locked: Bool = false, refused: Bool = false, byData: Bool = false
) -> InputError {
    let text = "\(shown): \(message)"
    if refused { return InputError(.noPermission, text) }
    if unreachable { return InputError(.unavailable, text) }
    if locked { return InputError(.tempFail, text) }
    return (request.table == nil && !byData) || message.hasPrefix("no table") ? InputError(.usage, text) : InputError(.data, text)
}

/// A PostgreSQL table or query: a connection string, with `--table` or `--query`.
public enum PostgreSQLSourceKind: SourceKind {
    public static func recognizes(_ request: SourceRequest) -> Bool {
        (request.table != nil || request.query != nil) && request.namesServer
    }

    public static func open(_ request: SourceRequest) throws(InputError) -> GridDataSource {
        try checkDatabaseRequest(request)
        do throws(PostgreSQLError) {
            let connection = try PostgreSQLConnection(url: request.name)
            if let table = request.table { return try PostgreSQLTableSource(connection: connection, table: table) }
            return try PostgreSQLQuerySource.table(connection: connection, query: request.query ?? "")
        } catch {
            throw databaseFailure(
                request, shown: PostgreSQLConnection.redactedURL(request.name), error.message,
                unreachable: error.kind == .unreachable || error.kind == .connectionLost,
                locked: error.kind == .lockTimeout,
                refused: error.kind == .authentication || error.kind == .permission,
                byData: error.kind == .cancelled || error.kind == .data)
        }
    }
}

/// An SQLite table or query: a database file, with `--table` or `--query`.
public enum SQLiteSourceKind: SourceKind {
    /// How an SQLite database file starts.
    public static let magic = Array("SQLite format 3\u{0}".utf8)

    public static func recognizes(_ request: SourceRequest) -> Bool {
        request.table != nil || request.query != nil
    }

    public static func open(_ request: SourceRequest) throws(InputError) -> GridDataSource {
        try checkDatabaseRequest(request)
        let file = request.path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isFolder) else {
            throw InputError(.noInput, "no such file '\(request.shown)'")
        }
        if isFolder.boolValue { throw InputError(.noInput, "'\(request.shown)' is a directory; expected an SQLite database") }
        do throws(SQLiteError) {
            let connection = try SQLiteConnection(path: file)
            if request.snapshot { try connection.beginSnapshot() }
            if let table = request.table { return try SQLiteTableSource(connection: connection, table: table) }
            return try SQLiteQuerySource.table(connection: connection, query: request.query ?? "")
        } catch {
            throw databaseFailure(request, shown: request.shown, error.message, locked: error.isLocked, byData: error.whileReading)
        }
    }
}
