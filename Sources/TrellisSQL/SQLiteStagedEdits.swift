import Foundation
import TrellisGrid

/// Edits held in memory and written together: a table read through a read-only connection (as
/// `trellis view` reads one) is edited cell by cell — the grid shows, sorts and sums the edited
/// cells — and written when the user saves, by `UPDATE … WHERE rowid = ?` in one transaction.
extension SQLiteTableSource {
    /// A cell edited in memory: what the table held when it was first staged, what the save
    /// writes, and how the grid reads and shows that.
    struct StagedCell {
        var stored: SQLiteValue
        var written: SQLiteValue
        var value: CellValue
        var text: String
    }

    /// Where ``saveStagedEdits()`` writes: `table "成绩" in school.db`.
    public var storageDescription: String { "table \"\(table)\" in \(Excerpt.of(URL(fileURLWithPath: connection.path).lastPathComponent))" }

    /// How many cells are edited in memory and not yet written.
    public var stagedCellCount: Int { staged.values.reduce(0) { $0 + $1.count } }

    /// Sets a cell in memory to what `text` reads as in its column, as SQLite would store it:
    /// text as typed in a text column; in an INTEGER, REAL or NUMERIC column a number (an empty
    /// text is `NULL`; any other text is refused, naming the column's type); in a column without
    /// a type a number where the cell held one and the text is one, else the text. The grids are
    /// told; nothing is written until ``saveStagedEdits()``. A text that gives back what the table
    /// holds un-stages the cell.
    ///
    /// Refused for a table without `rowid` (nothing names one of its rows), for a cell holding a
    /// BLOB (not edited as text), and when the cell cannot be read.
    public func stage(text: String, row: Int, column: Int) throws(TableError) {
        guard row >= 0, row < keys.count else { throw .noSuchRow(row, rowCount: keys.count) }
        guard columns.indices.contains(column) else { throw .noSuchColumnPosition(column, columnCount: columns.count) }
        let name = columns[column].identifier
        guard !readsWhole else {
            throw .refused(
                "\"\(table)\" has no rowid (it is a view or a WITHOUT ROWID table): nothing names one of its rows to write "
                    + "a cell of; change it with SQL")
        }
        let key = keys[row]
        let stored: SQLiteValue
        if let cell = staged[key]?[column] {
            stored = cell.stored
        } else {
            let shown = self.text(row: row, column: column)
            do { stored = try Self.storedValue(of: name, rowid: key, table: table, on: connection) } catch {
                throw .refused("row \(row + 1)'s \"\(name)\" could not be read: \(error.message)")
            }
            if case .blob = stored { throw .refused("row \(row + 1)'s \"\(name)\" holds a BLOB: it is not edited as text") }
            // What the table holds now must be what was shown (a database read without a
            // snapshot may have changed under the rows read before).
            var now = ""
            try? connection.rows("SELECT ?", [stored]) { row in now = row.shownText(0) }
            guard now == shown else {
                throw .refused(
                    "row \(row + 1)'s \"\(name)\" is \(Self.quoted(now)) in the database now, not the \(Self.quoted(shown)) shown: "
                        + "it changed since it was read; read the table again")
            }
        }
        let written = try Self.written(text, column: name, declared: declaredTypes[column], stored: stored)
        if written == stored {
            staged[key]?[column] = nil
            if staged[key]?.isEmpty == true { staged[key] = nil }
        } else {
            // Read back as the table would give it once written (SQLite's own text of a REAL).
            var shown: (value: CellValue, text: String)?
            do {
                try connection.rows("SELECT ?", [written]) { row in shown = (read(row.cell(0), column: column), row.shownText(0)) }
            } catch {
                throw .refused("\"\(name)\" could not take \(Self.quoted(text)): \(error.message)")
            }
            guard let shown else { throw .refused("\"\(name)\" could not take \(Self.quoted(text))") }
            staged[key, default: [:]][column] = StagedCell(stored: stored, written: written, value: shown.value, text: shown.text)
        }
        changeNotifier.post(.updated(row..<(row + 1)))
    }

    /// Forgets every staged cell (the table's own values show again), and tells the grids.
    public func discardStagedEdits() {
        guard !staged.isEmpty else { return }
        staged = [:]
        changeNotifier.post(.reset)
    }

    /// Writes the staged cells to the table, all in one transaction: through this source's
    /// connection when it writes, else through one opened on the same file for the save alone (a
    /// read-only connection stays read-only). Inside the transaction each staged cell is read
    /// again first; where one no longer holds what it held when it was staged (the table changed
    /// since), nothing is written. A failure — the file read-only, locked past the busy timeout,
    /// a constraint — rolls back and keeps the staged cells.
    ///
    /// - Returns: how many cells were written.
    @discardableResult
    public func saveStagedEdits() throws(SQLiteError) -> Int {
        let cells = staged.sorted { $0.key < $1.key }.flatMap { key, columns in
            columns.sorted { $0.key < $1.key }.map { (key: key, column: $0.key, cell: $0.value) }
        }
        guard !cells.isEmpty else { return 0 }
        let writer = connection.isReadOnly ? try SQLiteConnection(path: connection.path, readOnly: false) : connection
        try writer.execute("BEGIN IMMEDIATE")
        do throws(SQLiteError) {
            for (key, column, cell) in cells {
                let name = columns[column].identifier
                let now = try Self.storedValue(of: name, rowid: key, table: table, on: writer)
                guard now == cell.stored else {
                    throw SQLiteError(
                        code: 1,
                        message: "\"\(name)\" of the row with rowid \(key) changed in the database since it was read "
                            + "(\(Self.shown(cell.stored)) then, \(Self.shown(now)) now): nothing was written; read the table again")
                }
                try writer.run(
                    "UPDATE \(SQLiteConnection.quote(table)) SET \(SQLiteConnection.quote(name)) = ? WHERE rowid = ?",
                    [cell.written, .integer(key)])
            }
            try writer.execute("COMMIT")
        } catch {
            try? writer.execute("ROLLBACK")
            throw error
        }
        staged = [:]
        // What was read before is read again, from the table as it now is (a snapshot the source
        // holds is renewed; a transaction of the app's own is left to it).
        renewSnapshot()
        dropCaches()
        return cells.count
    }

    /// The staged cells of `column`, by row position.
    func stagedCells(ofColumn column: Int) -> [(row: Int, cell: StagedCell)] {
        guard !staged.isEmpty else { return [] }
        return staged.compactMap { key, cells in
            guard let cell = cells[column], let row = position(ofKey: key) else { return nil }
            return (row, cell)
        }
    }

    /// A search's rows (ascending) as the staged cells of `column` make them.
    func stagedSearch(_ found: [Int], containing text: String, column: Int) -> [Int] {
        let cells = stagedCells(ofColumn: column)
        guard !cells.isEmpty else { return found }
        var rows = Set(found)
        for (row, cell) in cells {
            if cell.text.contains(text) { rows.insert(row) } else { rows.remove(row) }
        }
        return rows.sorted()
    }

    /// The position of the row whose `rowid` is `key`.
    func position(ofKey key: Int64) -> Int? {
        var low = 0, high = keys.count
        while low < high {
            let mid = (low + high) >> 1
            if keys[mid] < key { low = mid + 1 } else { high = mid }
        }
        return low < keys.count && keys[low] == key ? low : nil
    }

    /// A cell as the table holds it now; a BLOB as an empty one (its bytes, which may be a
    /// gigabyte, are not read: a BLOB cell is not edited).
    static func storedValue(of column: String, rowid: Int64, table: String, on connection: SQLiteConnection) throws(SQLiteError) -> SQLiteValue {
        var value: SQLiteValue?
        let q = SQLiteConnection.quote(column)
        try connection.rows(
            "SELECT CASE WHEN typeof(\(q)) = 'blob' THEN x'' ELSE \(q) END FROM \(SQLiteConnection.quote(table)) WHERE rowid = ?",
            [.integer(rowid)]
        ) { row in value = row.value(0) }
        guard let value else { throw SQLiteError(code: 1, message: "no row with rowid \(rowid) in \"\(table)\" (deleted since it was read)") }
        return value
    }

    /// What a cell typed as `text` is stored as, by the column's declared type (SQLite's
    /// affinity): see ``stage(text:row:column:)``.
    static func written(_ text: String, column: String, declared: String, stored: SQLiteValue) throws(TableError) -> SQLiteValue {
        let type = declared.uppercased()
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if text.isEmpty, stored == .null { return .null }
        if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") { return .text(text) }
        let number = Self.number(trimmed, integral: type.contains("INT"))
        if type.isEmpty || type.contains("BLOB") {
            // No type: SQLite keeps what it is given; a number stays one where the cell held one.
            switch stored {
            case .integer, .real: return number ?? .text(text)
            default: return .text(text)
            }
        }
        if trimmed.isEmpty { return .null }
        guard let number else {
            throw .refused("\"\(column)\" is declared \(declared): \(Self.quoted(text)) is not a number (an empty cell writes NULL)")
        }
        return number
    }

    /// A plain number as SQLite reads one in a numeric column: an integer that fits 64 bits, or
    /// a decimal (an integral one in an INTEGER column as the integer, as SQLite stores it).
    static func number(_ text: String, integral: Bool) -> SQLiteValue? {
        guard !text.isEmpty else { return nil }
        if let integer = Int64(text) { return .integer(integer) }
        let allowed = Set("0123456789+-.eE")
        guard text.allSatisfy({ allowed.contains($0) }), text.contains(where: \.isNumber), let double = Double(text), double.isFinite else {
            return nil
        }
        if integral, double == double.rounded(), abs(double) < 9.0e15 { return .integer(Int64(double)) }
        return .real(double)
    }

    static func quoted(_ text: String) -> String { "\"\(Excerpt.of(text))\"" }

    static func shown(_ value: SQLiteValue) -> String {
        switch value {
        case .null: return "NULL"
        case .integer(let i): return String(i)
        case .real(let d): return String(d)
        case .text(let t): return quoted(t)
        case .blob(let b): return "a BLOB of \(b.count) bytes"
        }
    }
}
