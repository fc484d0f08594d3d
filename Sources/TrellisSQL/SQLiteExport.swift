import Foundation
import TrellisGrid

/// Writes a grid's rows, as displayed (sorted, pins and summaries in place), to a new SQLite table.
public enum SQLiteExport {
    /// What the export did that a reader should know.
    public struct Report: Sendable {
        /// Columns written without a declared type, because a typed column would have rewritten
        /// some of their texts (`007` in an INTEGER column becomes 7): each with one such text.
        public var untypedColumns: [(column: String, example: String)] = []
    }

    /// Creates `table` in the database at `path` (the file is created if needed; an existing
    /// table of that name is an error) and inserts the grid's displayed rows in order.
    ///
    /// Each column is declared by its grid type (INTEGER, REAL, TEXT) when every cell's text is
    /// what SQLite would write for its value; otherwise it is declared without a type, so that
    /// each cell is kept as it reads (numbers as numbers, `007` as the text `007`).
    ///
    /// Nothing is left half-made: a new database is written under a temporary name beside it
    /// (``TemporaryPaths/partialName(for:)``: removed on failure and by a signal, and those of
    /// killed runs removed first) and renamed into place once committed; into an existing one,
    /// the table is created and filled in one transaction, rolled back on failure. `check`, asked once every row is inserted and
    /// before anything is committed, returns why the rows must not be kept (a source whose cells
    /// could not be read), or `nil`.
    @discardableResult
    public static func write(
        _ grid: DataGrid, to path: String, table: String,
        check: () -> String? = { nil }
    ) throws(SQLiteError) -> Report {
        var info = stat()
        guard lstat(path, &info) != 0 else {
            return try write(grid, into: path, table: table, check: check)
        }
        // A new database: made whole beside its place, then renamed there.
        TemporaryPaths.removeLeftovers(for: path)
        let temporary = TemporaryPaths.partialName(for: path)
        unlink(temporary)
        TemporaryPaths.register(temporary)
        TemporaryPaths.register(temporary + "-journal")
        defer {
            TemporaryPaths.unregister(temporary)
            TemporaryPaths.unregister(temporary + "-journal")
        }
        let report: Report
        do {
            report = try write(grid, into: temporary, table: table, check: check)
        } catch {
            unlink(temporary)
            throw error
        }
        // No-clobber: a file made at `path` meanwhile is not replaced.
        guard link(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw SQLiteError(code: 1, message: "cannot write '\(path)': \(reason)")
        }
        unlink(temporary)
        return report
    }

    private static func write(
        _ grid: DataGrid, into path: String, table: String,
        check: () -> String?
    ) throws(SQLiteError) -> Report {
        let db = try SQLiteConnection(path: path, readOnly: false, create: true)
        var exists = false
        try db.rows("SELECT 1 FROM sqlite_master WHERE name = ?", [.text(table)]) { _ in exists = true }
        if exists {
            throw SQLiteError(
                code: 1,
                message: "the table \"\(table)\" already exists in '\(path)'; "
                    + "name another table with --output-table, or another file")
        }
        let columns = grid.columns
        let rows = grid.displayedRows
        var report = Report()
        // Row by row (a source that reads rows on demand reads them a window at a time, in the
        // order they are written), each column until one of its texts would not read back.
        var example = [String?](repeating: nil, count: columns.count)
        var open = Array(columns.indices)
        for (k, row) in rows.enumerated() where !open.isEmpty {
            if k % Self.window == 0 { grid.prefetch(displayedRows: k..<(k + Self.window)) }
            open.removeAll { c in
                let value = grid.value(row, column: c), text = grid.text(row, column: c)
                guard !Self.isCanonical(text, of: value, declaredAs: columns[c].type) else { return false }
                example[c] = text
                return true
            }
        }
        var declared: [String] = []
        for (c, column) in columns.enumerated() {
            if let text = example[c] { report.untypedColumns.append((column.identifier, text)) }
            declared.append(example[c] == nil ? Self.sqlType(column.type) : "")
        }
        let definition = zip(columns, declared).map { column, type in
            SQLiteConnection.quote(column.identifier) + (type.isEmpty ? "" : " " + type)
        }.joined(separator: ", ")
        try db.execute("BEGIN")
        do throws(SQLiteError) {
            try db.execute("CREATE TABLE \(SQLiteConnection.quote(table)) (\(definition))")
            let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
            let insert = try db.prepare("INSERT INTO \(SQLiteConnection.quote(table)) VALUES (\(marks))")
            for (k, row) in rows.enumerated() {
                if k % Self.window == 0 { grid.prefetch(displayedRows: k..<(k + Self.window)) }
                var values: [SQLiteValue] = []
                values.reserveCapacity(columns.count)
                for c in columns.indices {
                    values.append(
                        Self.bound(
                            grid.value(row, column: c), text: grid.text(row, column: c),
                            keepText: declared[c].isEmpty))
                }
                try insert.bind(values)
                while try insert.step() {}
            }
            if let reason = check() { throw SQLiteError(code: 1, message: reason) }
            try db.execute("COMMIT")
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
        return report
    }

    /// How many rows are asked of the source at once, ahead of the writing.
    static let window = 1024

    /// The declared type: NUMERIC for decimals, so that whole numbers stay integers (90, not 90.0).
    static func sqlType(_ type: ColumnType) -> String {
        switch type {
        case .integer, .boolean: return "INTEGER"
        case .decimal: return "NUMERIC"
        case .text, .date: return "TEXT"
        }
    }

    /// Whether a column declared as `type` reads `text` back for `value`, by SQLite's affinity
    /// rules (a numeric column turns numeric-looking text into a number, and a whole real into an
    /// integer; a text column turns numbers into their text).
    static func isCanonical(_ text: String, of value: CellValue, declaredAs type: ColumnType) -> Bool {
        let textual = type == .text || type == .date
        switch value {
        case .missing: return text.isEmpty
        case .integer(let i): return text == String(i)
        case .decimal(let d):
            if textual { return text == sqliteRendering(d) }
            return d.rounded() != d && text == sqliteRendering(d)
        case .text(let s):
            guard s == text else { return false }
            return textual || !looksNumeric(s)
        case .boolean, .date, .error: return false
        }
    }

    /// Whether SQLite's numeric affinity would read `s` as a number.
    static func looksNumeric(_ s: String) -> Bool {
        let t = s.trimmingCharacters(in: .whitespaces)
        return !t.isEmpty && (Int64(t) != nil || Double(t) != nil)
    }

    /// How SQLite writes a real (`%!.15g`).
    static func sqliteRendering(_ d: Double) -> String {
        var text = String(format: "%.15g", d)
        guard d.isFinite, !text.contains(".") else { return text }
        if let e = text.firstIndex(of: "e") { text.insert(contentsOf: ".0", at: e) } else { text += ".0" }
        return text
    }

    static func bound(_ value: CellValue, text: String, keepText: Bool) -> SQLiteValue {
        if keepText {
            // Numbers that read as written stay numbers; anything else is its text.
            switch value {
            case .missing: return text.isEmpty ? .null : .text(text)
            case .integer(let i) where text == String(i): return .integer(Int64(i))
            case .decimal(let d) where text == sqliteRendering(d): return .real(d)
            default: return .text(text)
            }
        }
        switch value {
        case .missing: return .null
        case .integer(let i): return .integer(Int64(i))
        case .decimal(let d): return .real(d)
        case .text(let s): return .text(s)
        case .boolean(let b): return .integer(b ? 1 : 0)
        case .date, .error: return .text(text)
        }
    }
}
