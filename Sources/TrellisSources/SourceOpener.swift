import Foundation
import TrellisGrid
import TrellisSQL
import TrellisText

/// What a user names as the rows to read: a file, `-` (standard input) or a server, and within it
/// a table or a query, with how a CSV file is read.
///
/// ```swift
/// var request = SourceRequest("scores.sqlite")
/// request.table = "scores"
/// let source = try SourceOpener.open(request)
/// ```
public struct SourceRequest {
    /// What the user named: a file's path (relative to ``currentDirectory``), `-` for standard
    /// input, or a connection string (`postgresql://…`, `host=… dbname=…`).
    public var name: String
    /// A table of a database to read whole.
    public var table: String?
    /// A query whose result to read.
    public var query: String?
    /// Column types given for a CSV file (`--type`).
    public var types: [String: ColumnType] = [:]
    /// How a CSV file is read (`nil`: found as the file shows it).
    public var encoding: TextEncoding?
    public var delimiter: UInt8?
    public var headerRow: Int?
    public var dateOrder: DateOrder?
    /// The sheet of a workbook to read (`--sheet`): its name or its place from 1; `nil`: the
    /// sheet selected when the workbook was saved.
    public var sheet: String?
    /// The option that set one of the four above, for a message that says a database has no use
    /// for it (`--encoding`, …).
    public var csvOptionGiven: String?
    /// An SQLite database read in one read transaction from start to end: a sort sees the rows
    /// as they were when it began, whatever another program commits meanwhile.
    public var snapshot = false
    /// The columns a CSV file is read for (a sort to CSV, which copies the records as they are);
    /// `nil`: every column.
    public var columns: CSV.ColumnSelection?
    /// Whether a large CSV file read for some of its columns is mapped and its records left in it.
    public var mapsLargeFiles: (_ size: Int, _ columns: CSV.ColumnSelection?) -> Bool = { _, _ in false }
    /// The folder relative paths are resolved against.
    public var currentDirectory: URL
    /// Reads all of standard input (for `-`).
    public var readStandardInput: () -> [UInt8] = { [] }

    public init(_ name: String, currentDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) {
        self.name = name
        self.currentDirectory = currentDirectory
    }

    /// The path of the file named, resolved against ``currentDirectory``.
    public var path: String {
        name.hasPrefix("/") ? name : currentDirectory.appendingPathComponent(name).path
    }

    /// How messages name what was named: a long name cut, a connection string's password hidden.
    public var shown: String { Excerpt.of(name, limit: 200) }

    /// Whether the name is a connection string that names a server (and no file is called so).
    public var namesServer: Bool {
        ConnectionSecrets.isConnectionString(name) && !FileManager.default.fileExists(atPath: path)
    }

    /// The first bytes of the file named (empty for standard input, a server or no file): what a
    /// kind recognises a file's content by.
    public func head(_ count: Int = 16) -> [UInt8] {
        guard name != "-", !namesServer else { return [] }
        return FileBytes.head(path, count: count) ?? []
    }
}

/// One kind of source: how it is recognised and how it is opened. Adding an input format is a new
/// kind, registered in ``SourceOpener/kinds``.
public protocol SourceKind: Sendable {
    /// Whether this kind reads what `request` names: by its spelling (a connection string), the
    /// options given (a table or a query) or its content (``SourceRequest/head(_:)``).
    static func recognizes(_ request: SourceRequest) -> Bool
    /// Opens it.
    static func open(_ request: SourceRequest) throws(InputError) -> GridDataSource
}

/// Turns what a user names into a source, for every command (`sort`, `view`, the shell's
/// completion of column names) and for an app: the first kind in ``kinds`` that recognises it
/// opens it.
public enum SourceOpener {
    /// The kinds, asked in this order: a server, then a database file, then a workbook, then a CSV file (which
    /// takes whatever is left, and says when it is a database file after all).
    public static let kinds: [any SourceKind.Type] = [
        PostgreSQLSourceKind.self, SQLiteSourceKind.self, WorkbookSourceKind.self, CSVSourceKind.self,
    ]

    /// The source `request` names, opened by the first of `kinds` that recognises it (an app may
    /// put a kind of its own first).
    public static func open(_ request: SourceRequest, kinds: [any SourceKind.Type] = SourceOpener.kinds) throws(InputError)
        -> GridDataSource
    {
        if request.table != nil, request.query != nil {
            throw InputError(.usage, "Give '--table' or '--query', not both")
        }
        for kind in kinds where kind.recognizes(request) { return try kind.open(request) }
        throw InputError(.usage, "\(request.shown): nothing here reads it")
    }
}
