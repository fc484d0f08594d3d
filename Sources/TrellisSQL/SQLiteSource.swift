import Foundation
import TrellisGrid

/// An SQLite table as a grid's data source: rows in `rowid` order, read on demand in blocks, with
/// their exact types (64-bit integers, reals, text as stored). A column declared as text (or
/// with no type) is read as a CSV file's column is: each text cell on its own (`88.5` a number,
/// `2024-03-01` a date, its text kept), the column's type being what most of its first 10,000
/// rows hold — so a table the sqlite3 shell's `.import --csv` made sorts as the file does. A
/// declared number type wins. The grid sorts it without reordering it, as it sorts any source; a
/// sort reads only its key columns.
///
/// ```swift
/// let db = try SQLiteConnection(path: "scores.sqlite")
/// let grid = DataGrid(bound: try SQLiteTableSource(connection: db, table: "scores"))
/// try grid.sort(by: [SortKey("分数", .descending)])
/// ```
///
/// Nothing is written: a read-only connection is enough. After the table changes outside the
/// grid, ``refresh()`` reads its rows again and the grid re-sorts. In a WAL database, over a
/// read-only connection, the source reads one snapshot from one refresh to the next (another program's writes meanwhile are seen at
/// the next ``refresh()``, not half-way through a sort); a caller that opened a transaction on
/// the connection itself (``SQLiteConnection/beginSnapshot()``) keeps its own.
///
/// A view, a `WITHOUT ROWID` table and a virtual table without a usable `rowid` (one that is
/// missing, `NULL` or repeated) have no key to read a row by: such an object is read whole, once
/// per ``refresh()``, in the order and with the cells `SELECT * FROM` it gives
/// (``readsWhole`` says so), and it cannot be written through the source.
///
/// A BLOB cell is shown as its text when its bytes are UTF-8, otherwise as `x'…'` hex, up to
/// ``largestBlobShown`` bytes; a larger one, in a column declared BLOB or without a type, as
/// `(BLOB, N bytes)` — its bytes are never read (a gigabyte BLOB costs nothing to sort past), and
/// ``showedLargeBlobs`` says that some cell was shown so.
public final class SQLiteTableSource: ObservableDataSource, PrefetchingDataSource, SearchableDataSource,
    InterruptibleDataSource, ExactNumberDataSource, StagingDataSource
{
    public let connection: SQLiteConnection
    /// The table's name, as given.
    public let table: String
    public let columns: [Column]
    /// Per column, whether its text cells are read on their own (declared as text, or untyped).
    let readsText: [Bool]
    /// Per column, its declared type as the schema says it ("" for none).
    let declaredTypes: [String]
    /// The cells edited in memory and not yet written (``stage(text:row:column:)``), by `rowid`
    /// and column.
    var staged: [Int64: [Int: StagedCell]] = [:]
    /// Each row's `rowid`, in order: what a position means (for an object read whole, its
    /// positions themselves).
    public private(set) var keys: [Int64] = []
    /// Every row, when the object has no `rowid` to read rows by (a view, a `WITHOUT ROWID` table):
    /// read whole, in the order `SELECT *` gives.
    private var whole = Block(values: [], texts: [])
    /// Whether the object is read whole, having no `rowid` to read its rows by.
    public private(set) var readsWhole = false
    private let notifier = GridChangeNotifier()
    public var changes: GridChangeNotifier { notifier }
    var changeNotifier: GridChangeNotifier { notifier }
    /// The columns' names, quoted, for an INSERT.
    var columnList: String { columns.map { SQLiteConnection.quote($0.identifier) }.joined(separator: ", ") }
    func insertKey(_ key: Int64, at position: Int) { keys.insert(key, at: position) }
    func removeKey(at position: Int) { keys.remove(at: position) }
    func dropCaches() {
        blocks = [:]
        blockUse = []
        window = [:]
    }
    /// Why rows cannot be written through the source, if they cannot.
    func refuseWrites() throws(SQLiteError) {
        guard readsWhole else { return }
        throw SQLiteError(
            code: 1,
            message: "\"\(table)\" has no rowid (it is a view or a WITHOUT ROWID table), so its rows "
                + "cannot be written through the grid; change it with SQL")
    }

    /// Rows read from the table, a block at a time, the most recent kept.
    private struct Block {
        var values: [CellValue]
        var texts: [String]
    }
    static let blockSize = 256
    static let blocksKept = 64
    private var blocks: [Int: Block] = [:]
    private var blockUse: [Int] = []
    /// Rows fetched by ``prefetch(rows:)`` (windows of the sorted grid), up to a few thousand:
    /// when a new window would pass that, the old ones are let go.
    private var window: [Int: Block] = [:]
    static let windowRowsKept = 4096
    private let quotedTable: String
    private let selectList: String
    /// Whether the source opened the read transaction it reads in (a WAL database).
    private var ownsSnapshot = false

    /// How many queries have read rows' cells (a block, a window): a sorted output must read its
    /// rows a window a query, not a block per row.
    @_spi(Instrumentation) public private(set) var rowQueries = 0

    /// The largest BLOB whose bytes are read and shown (as hex); a larger one shows its size.
    public static let largestBlobShown = 1 << 20
    /// Whether a cell was shown as a BLOB's size instead of its bytes.
    public private(set) var showedLargeBlobs = false

    /// Per column, what its cells are read as (``cellExpression(_:holdsBlobs:)``), and whether
    /// it is where BLOBs are kept (only there may a cell be a BLOB's size).
    private let expressions: [String]
    private let keepsBlobs: [Bool]

    /// Whether a column declared so is where BLOBs are kept: declared BLOB, or with no type
    /// (SQLite's BLOB affinity).
    static func holdsBlobs(declared: String) -> Bool {
        let t = declared.uppercased()
        return t.isEmpty || t.contains("BLOB")
    }

    /// What a column's cell is read as: the column itself, but in a column where BLOBs are kept a
    /// BLOB past ``largestBlobShown`` as its size (SQLite's `typeof` and `length` read no bytes of
    /// it). Typed columns are read plainly (the test costs a quarter more on a key scan).
    static func cellExpression(_ column: String, holdsBlobs: Bool) -> String {
        let q = SQLiteConnection.quote(column)
        guard holdsBlobs else { return q }
        return "CASE WHEN typeof(\(q)) = 'blob' AND length(\(q)) > \(largestBlobShown) "
            + "THEN '\(blobMarkerPrefix)' || length(\(q)) || ' bytes)' ELSE \(q) END"
    }
    static let blobMarkerPrefix = "(BLOB, "

    /// The source of `table`; throws when there is no such table (naming the ones there are) or
    /// it has no `rowid` (read it with ``SQLiteQuerySource`` and an `ORDER BY`).
    public init(connection: SQLiteConnection, table: String) throws(SQLiteError) {
        self.connection = connection
        self.table = table
        var names: [String] = []
        try connection.rows("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY name") { row in
            names.append(row.text(0))
        }
        guard names.contains(table) else {
            let listed =
                names.isEmpty
                ? "the database has no tables"
                : "the tables are " + names.prefix(20).map { "\"\($0)\"" }.joined(separator: ", ")
            throw SQLiteError(code: 1, message: "no table \"\(table)\"; \(listed)")
        }
        quotedTable = SQLiteConnection.quote(table)
        var columns: [Column] = []
        var readsText: [Bool] = []
        var expressions: [String] = []
        var keepsBlobs: [Bool] = []
        var declaredTypes: [String] = []
        try connection.rows("SELECT name, type FROM pragma_table_info(?) ORDER BY cid", [.text(table)]) { row in
            declaredTypes.append(row.text(1))
            columns.append(Column(row.text(0), type: Self.type(declared: row.text(1))))
            readsText.append(Self.readsText(declared: row.text(1)))
            keepsBlobs.append(Self.holdsBlobs(declared: row.text(1)))
            expressions.append(Self.cellExpression(row.text(0), holdsBlobs: keepsBlobs[keepsBlobs.count - 1]))
        }
        self.expressions = expressions
        self.keepsBlobs = keepsBlobs
        self.declaredTypes = declaredTypes
        selectList = expressions.joined(separator: ", ")
        let keyed = try Self.hasRowKeys(connection: connection, table: table)
        // The type of a text column: what most of its first rows hold, read as a CSV file's cells.
        let inferred = readsText.indices.filter { readsText[$0] }
        if !inferred.isEmpty {
            var samples = [[String]](repeating: [], count: columns.count)
            let list = inferred.map { expressions[$0] }.joined(separator: ", ")
            try connection.rows("SELECT \(list) FROM \(quotedTable)\(keyed ? " ORDER BY rowid" : "") LIMIT \(Self.typeSample)") { row in
                for (k, c) in inferred.enumerated() { samples[c].append(row.text(k)) }
            }
            for c in inferred { columns[c].type = ColumnType.infer(samples[c]) }
        }
        self.columns = columns
        self.readsText = readsText
        readsWhole = !keyed
        // (A connection that writes through the source commits each change at once: no snapshot.)
        if connection.isReadOnly, !connection.isInTransaction, connection.journalMode == "wal" {
            try connection.beginSnapshot()
            ownsSnapshot = true
        }
        do {
            try readKeys()
        } catch {
            if ownsSnapshot { connection.endSnapshot() }
            ownsSnapshot = false
            throw error
        }
    }

    /// How many rows a text column's type is judged from.
    static let typeSample = 10_000

    /// Whether a column declared so holds text to be read cell by cell: text affinity, or no
    /// declared type (SQLite keeps what was given, the text of an imported file).
    static func readsText(declared: String) -> Bool {
        let t = declared.uppercased()
        if t.contains("INT") { return false }
        return t.contains("CHAR") || t.contains("CLOB") || t.contains("TEXT") || t.isEmpty
    }

    /// A stored cell as the grid reads it: a text cell of a text column read on its own.
    func read(_ cell: CellValue, column: Int) -> CellValue {
        guard case .text(let text) = cell else { return cell }
        if keepsBlobs[column], text.hasPrefix(Self.blobMarkerPrefix) {
            showedLargeBlobs = true
            return cell
        }
        guard readsText[column] else { return cell }
        return CellValue.parse(text, inColumnOf: columns[column].type)
    }

    /// The grid type of a declared SQL type, by SQLite's affinity rules.
    static func type(declared: String) -> ColumnType {
        let t = declared.uppercased()
        if t.contains("INT") { return .integer }
        if t.contains("CHAR") || t.contains("CLOB") || t.contains("TEXT") { return .text }
        if t.isEmpty || t.contains("BLOB") { return .text }
        return .decimal
    }

    /// Whether `table`'s rows can be read by `rowid`: a table with one (not a view, not `WITHOUT
    /// ROWID`), or a virtual table that answers for it. (A virtual table's rowids may still be
    /// `NULL` or repeat: ``readKeys()`` looks, and reads such a table whole.)
    static func hasRowKeys(connection: SQLiteConnection, table: String) throws(SQLiteError) -> Bool {
        var kind = "", withoutRowid = false
        try connection.rows("SELECT type, wr FROM pragma_table_list WHERE schema = 'main' AND name = ?", [.text(table)]) { row in
            kind = row.text(0)
            withoutRowid = row.int64(1) != 0
        }
        switch kind {
        case "table": return !withoutRowid
        case "virtual":
            do {
                try connection.rows("SELECT rowid FROM \(SQLiteConnection.quote(table)) LIMIT 1") { _ in }
                return true
            } catch {
                return false  // no such column: rowid
            }
        default: return false
        }
    }

    private func readKeys() throws(SQLiteError) {
        blocks = [:]
        blockUse = []
        window = [:]
        if readsWhole { return try readWhole() }
        var keys: [Int64] = []
        var distinct = true
        try connection.rows("SELECT rowid FROM \(quotedTable) ORDER BY rowid") { row in
            let key = row.int64(0)
            if row.isNull(0) { distinct = false }
            if let last = keys.last, last >= key { distinct = false }
            keys.append(key)
        }
        guard distinct else {
            // A virtual table whose rowids are missing or repeat: they do not name one row each.
            readsWhole = true
            return try readWhole()
        }
        self.keys = keys
    }

    /// Reads every row of an object without row keys, in the order `SELECT *` gives.
    private func readWhole() throws(SQLiteError) {
        var values: [CellValue] = [], texts: [String] = []
        let width = columns.count
        var count = 0
        try connection.rows("SELECT \(selectList) FROM \(quotedTable)") { row in
            for c in 0..<width {
                values.append(read(row.cell(c), column: c))
                texts.append(row.shownText(c))
            }
            count += 1
        }
        whole = Block(values: values, texts: texts)
        keys = (0..<Int64(count)).map { $0 }
    }

    deinit {
        if ownsSnapshot { connection.endSnapshot() }
    }

    /// Ends the read transaction the source opened (a WAL database read through a read-only
    /// connection) and opens another: what is read next is the database as it now is.
    func renewSnapshot() {
        guard ownsSnapshot else { return }
        connection.endSnapshot()
        do { try connection.beginSnapshot() } catch { ownsSnapshot = false }
    }

    /// Reads the table's rows again (after changes made elsewhere) and tells the grids.
    public func refresh() throws(SQLiteError) {
        if ownsSnapshot {
            connection.endSnapshot()
            try connection.beginSnapshot()
        }
        try readKeys()
        // A staged cell of a row deleted meanwhile has nothing to be written to.
        staged = staged.filter { position(ofKey: $0.key) != nil }
        notifier.post(.reset)
    }

    public var rowCount: Int { keys.count }

    private func block(_ b: Int) -> Block? {
        if let block = blocks[b] {
            if blockUse.last != b, let i = blockUse.firstIndex(of: b) {
                blockUse.remove(at: i)
                blockUse.append(b)
            }
            return block
        }
        let first = b * Self.blockSize
        guard first < keys.count else { return nil }
        let last = min(keys.count, first + Self.blockSize) - 1
        var values: [CellValue] = [], texts: [String] = []
        let width = columns.count
        values.reserveCapacity((last - first + 1) * width)
        rowQueries += 1
        do {
            try connection.rows(
                "SELECT \(selectList) FROM \(quotedTable) WHERE rowid BETWEEN ? AND ? ORDER BY rowid",
                [.integer(keys[first]), .integer(keys[last])]
            ) { row in
                for c in 0..<width {
                    values.append(read(row.cell(c), column: c))
                    texts.append(row.shownText(c))
                }
            }
        } catch {
            lastError = error
            return nil
        }
        guard values.count == (last - first + 1) * width else {
            // Rows gone since their keys were read (the table changed outside a snapshot).
            lastError = SQLiteError(
                code: 1,
                message: "rows \(first + 1)–\(last + 1) of \"\(table)\" could not be read: "
                    + "\(values.count / max(width, 1)) of \(last - first + 1) are there (the table changed while it was "
                    + "read); read it again")
            return nil
        }
        lastError = nil
        let block = Block(values: values, texts: texts)
        blocks[b] = block
        blockUse.append(b)
        if blockUse.count > Self.blocksKept { blocks[blockUse.removeFirst()] = nil }
        return block
    }

    public func value(row: Int, column: Int) -> CellValue {
        guard row >= 0, row < keys.count, columns.indices.contains(column) else { return .missing }
        if !staged.isEmpty, let cell = staged[keys[row]]?[column] { return cell.value }
        if readsWhole { return whole.values[row * columns.count + column] }
        if let cached = window[row] { return cached.values[column] }
        guard let block = block(row / Self.blockSize) else { return .missing }
        return block.values[(row % Self.blockSize) * columns.count + column]
    }

    /// The last error reading cells, or `nil` once a read succeeds (the cells read as blank).
    public private(set) var lastError: SQLiteError? {
        didSet { if lastError != nil { failedReads += 1 } }
    }
    /// How many reads have failed (``FallibleDataSource``).
    public private(set) var failedReads = 0
    public var readFailure: String? { lastError?.message }

    /// Stops the query under way (a sort reading a key column), from any thread.
    public func interrupt() { connection.interrupt() }

    public func text(row: Int, column: Int) -> String {
        guard row >= 0, row < keys.count, columns.indices.contains(column) else { return "" }
        if !staged.isEmpty, let cell = staged[keys[row]]?[column] { return cell.text }
        if readsWhole { return whole.texts[row * columns.count + column] }
        if let cached = window[row] { return cached.texts[column] }
        guard let block = block(row / Self.blockSize) else { return "" }
        return block.texts[(row % Self.blockSize) * columns.count + column]
    }

    /// The rows whose text in `column` contains `text`, found by SQLite (`instr` over the cell as
    /// text, as ``text(row:column:)`` reads it), or `nil` when the query fails.
    public func rows(containing text: String, column: Int) -> [Int]? {
        guard columns.indices.contains(column) else { return [] }
        if readsWhole { return (0..<keys.count).filter { self.text(row: $0, column: column).contains(text) } }
        let name = SQLiteConnection.quote(columns[column].identifier)
        var found: [Int] = []
        do {
            // A BLOB past the size shown is not searched (its bytes are not read).
            try connection.rows(
                "SELECT rowid FROM \(quotedTable) WHERE NOT (typeof(\(name)) = 'blob' AND length(\(name)) > "
                    + "\(Self.largestBlobShown)) AND instr(CAST(\(name) AS TEXT), ?) > 0 ORDER BY rowid",
                [.text(text)]
            ) { row in
                // Positions are the rowids' places in rowid order.
                let id = row.int64(0)
                var low = 0, high = keys.count
                while low < high {
                    let mid = (low + high) >> 1
                    if keys[mid] < id { low = mid + 1 } else { high = mid }
                }
                if low < keys.count, keys[low] == id { found.append(low) }
            }
        } catch {
            lastError = error
            return nil
        }
        return stagedSearch(found, containing: text, column: column)
    }

    /// Reads `rows` (positions) that are not held yet, by `rowid`, a few hundred per query.
    public func prefetch(rows: [Int]) {
        guard !readsWhole else { return }
        let wanted = rows.filter { $0 >= 0 && $0 < keys.count && window[$0] == nil && blocks[$0 / Self.blockSize] == nil }
        guard !wanted.isEmpty else { return }
        if window.count + wanted.count > Self.windowRowsKept { window = [:] }
        let width = columns.count
        var position: [Int64: Int] = [:]
        for row in wanted { position[keys[row]] = row }
        for chunk in stride(from: 0, to: wanted.count, by: 500) {
            let part = wanted[chunk..<min(wanted.count, chunk + 500)]
            let marks = Array(repeating: "?", count: part.count).joined(separator: ", ")
            rowQueries += 1
            do {
                try connection.rows(
                    "SELECT rowid, \(selectList) FROM \(quotedTable) WHERE rowid IN (\(marks))",
                    part.map { .integer(keys[$0]) }
                ) { row in
                    guard let at = position[row.int64(0)] else { return }
                    var values: [CellValue] = [], texts: [String] = []
                    values.reserveCapacity(width)
                    texts.reserveCapacity(width)
                    for c in 0..<width {
                        values.append(read(row.cell(c + 1), column: c))
                        texts.append(row.shownText(c + 1))
                    }
                    window[at] = Block(values: values, texts: texts)
                }
            } catch {
                lastError = error
                return  // the rows are read through the blocks instead
            }
        }
    }

    /// One column at `rows`: read in one ordered scan of that column alone when the rows are many
    /// (a sort's key), through the blocks otherwise.
    public func values(ofColumn column: Int, rows: [Int]) -> [CellValue] {
        guard columns.indices.contains(column) else { return rows.map { _ in .missing } }
        guard !readsWhole, rows.count > Self.blockSize * 4 else { return rows.map { value(row: $0, column: column) } }
        var all: [CellValue] = []
        all.reserveCapacity(keys.count)
        do {
            try connection.rows("SELECT \(expressions[column]) FROM \(quotedTable) ORDER BY rowid") { row in
                all.append(read(row.cell(0), column: column))
            }
        } catch {
            lastError = error
            return rows.map { value(row: $0, column: column) }
        }
        guard all.count == keys.count else { return rows.map { value(row: $0, column: column) } }
        for (row, cell) in stagedCells(ofColumn: column) { all[row] = cell.value }
        return rows.map { $0 >= 0 && $0 < all.count ? all[$0] : .missing }
    }

    /// A text column's digits as stored, so that numbers wider than a double (20-digit IDs held
    /// as text) sort exactly; `nil` for other columns, whose numbers are what SQLite holds.
    public func numberTexts(ofColumn column: Int, rows: [Int]) -> [String]? {
        guard columns.indices.contains(column), readsText[column], columns[column].type.isNumeric else { return nil }
        guard !readsWhole, rows.count > Self.blockSize * 4 else { return rows.map { text(row: $0, column: column) } }
        var all: [String] = []
        all.reserveCapacity(keys.count)
        do {
            try connection.rows("SELECT \(expressions[column]) FROM \(quotedTable) ORDER BY rowid") { row in
                all.append(row.text(0))
            }
        } catch {
            lastError = error
            return rows.map { text(row: $0, column: column) }
        }
        guard all.count == keys.count else { return rows.map { text(row: $0, column: column) } }
        for (row, cell) in stagedCells(ofColumn: column) { all[row] = cell.text }
        return rows.map { $0 >= 0 && $0 < all.count ? all[$0] : "" }
    }
}

/// The rows of an SQL query as a table: read once, in the query's order, with exact types.
public enum SQLiteQuerySource {
    /// A table holding what `sql` returns (its column names as the table's).
    public static func table(connection: SQLiteConnection, query sql: String) throws(SQLiteError) -> Table {
        do { try ReadOnlyQuery.check(sql, dialect: .sqlite) } catch { throw SQLiteError(code: 21, message: error.message) }  // SQLITE_MISUSE
        let statement = try connection.prepareReadOnlyQuery(sql)
        var table: Table?
        var width = 0
        var readsText: [Bool] = []
        func step() throws(SQLiteError) -> Bool {
            do { return try statement.step() } catch {
                var failed = error
                // (A function the connection does not allow — load_extension — is refused as the
                // query runs, but it is the query's fault, not the data's; SQLite's messages are
                // not translated.)
                failed.whileReading = error.message != "not authorized"
                throw failed
            }
        }
        while try step() {
            if table == nil {
                width = statement.columnCount
                table = Table(
                    columns: (0..<width).map {
                        Column(statement.columnName($0), type: statement.declaredType($0).map(SQLiteTableSource.type(declared:)) ?? .text)
                    })
                // Text columns and expressions (no declared type) are read as a CSV file's columns.
                readsText = (0..<width).map { statement.declaredType($0).map(SQLiteTableSource.readsText(declared:)) ?? true }
            }
            let cells = (0..<width).map { c -> TableCell in
                let cell = statement.cell(c)
                if readsText[c], case .text(let text) = cell { return .text(text) }
                // Shown as the table source and the sqlite3 shell show it: a REAL 92 as 92.0.
                return .shown(cell, statement.shownText(c))
            }
            do { try table!.appendRow(cells: cells) } catch {
                throw SQLiteError(code: 1, message: "cannot hold the query's row: \(error)")
            }
        }
        if let table {
            table.inferTypes(ofColumns: readsText.indices.filter { readsText[$0] })
            return table
        }
        return Table(columns: (0..<statement.columnCount).map { Column(statement.columnName($0)) })
    }
}

extension SQLiteTableSource {
    /// A cell as SQLite stores it.
    static func bound(_ value: CellValue) -> SQLiteValue { SQLiteExport.bound(value, text: value.description, keepText: false) }

    private func forget() {
        // Positions shifted or a row changed: what was read is read again.
        dropCaches()
    }

    /// Inserts a row (one value per column) into the table, and tells the grids, which keep
    /// their sort, pins and summaries current. Needs a connection opened for writing.
    @discardableResult
    public func insertRow(values: [CellValue]) throws(SQLiteError) -> Int {
        try refuseWrites()
        guard values.count == columns.count else {
            throw SQLiteError(code: 1, message: "a row of \"\(table)\" has \(columns.count) values, not \(values.count)")
        }
        let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        try connection.run(
            "INSERT INTO \(SQLiteConnection.quote(table)) (\(columnList)) VALUES (\(marks))",
            values.map(Self.bound))
        let rowid = connection.lastInsertedRowID
        let position = keys.firstIndex { $0 > rowid } ?? keys.count
        insertKey(rowid, at: position)
        forget()
        changeNotifier.post(.inserted(position..<(position + 1)))
        return position
    }

    /// Sets one cell, and tells the grids.
    public func setValue(_ value: CellValue, row: Int, column: Int) throws(SQLiteError) {
        try refuseWrites()
        guard row >= 0, row < keys.count, columns.indices.contains(column) else {
            throw SQLiteError(code: 1, message: "no cell at row \(row), column \(column) of \"\(table)\"")
        }
        try connection.run(
            "UPDATE \(SQLiteConnection.quote(table)) SET \(SQLiteConnection.quote(columns[column].identifier)) = ? "
                + "WHERE rowid = ?", [Self.bound(value), .integer(keys[row])])
        forget()
        changeNotifier.post(.updated(row..<(row + 1)))
    }

    /// Deletes a row, and tells the grids.
    public func removeRow(at row: Int) throws(SQLiteError) {
        try refuseWrites()
        guard row >= 0, row < keys.count else {
            throw SQLiteError(code: 1, message: "no row \(row) in \"\(table)\", which has \(keys.count)")
        }
        try connection.run("DELETE FROM \(SQLiteConnection.quote(table)) WHERE rowid = ?", [.integer(keys[row])])
        removeKey(at: row)
        forget()
        changeNotifier.post(.removed(row..<(row + 1)))
    }
}
