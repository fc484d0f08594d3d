import Foundation
import TrellisText

/// An in-memory table: the DataTable the user fills in code, or a CSV file as read. Every cell
/// keeps its text as it was given — `007`, `1.50`, ` 12 ` — beside the value it is read as, so a
/// sort reorders the rows and never rewrites them.
///
/// ```swift
/// let table = Table(columns: [Column("组号"), Column("分数", type: .decimal)])
/// try table.appendRow(["组1", "88.50"])
/// table.value(row: 0, column: 1)   // .decimal(88.5)
/// table.text(row: 0, column: 1)    // "88.50"
/// ```
///
/// Changes are announced through ``changes``; grids bound to the table follow them.
public final class Table: ObservableDataSource, ColumnStorageSource, RecordKeepingSource, EditableDataSource {
    public private(set) var columns: [Column]
    /// The cells, column by column; a column of a file that was read without it is hollow
    /// (see ``unread``).
    private var storage: [ColumnStore]
    /// The columns of a CSV file that were left in its records when it was read (a sort reads
    /// only the columns it orders by): read as text, as a whole when a store is first asked for,
    /// one cell from its record otherwise.
    private var unread: UnreadColumns?
    /// Where the table announces its changes.
    public let changes = GridChangeNotifier()
    /// How the file the table was read from is written (encoding, byte order mark, delimiter,
    /// line break), which CSV output written from the table reproduces; RFC 4180's for a table
    /// made in code.
    public package(set) var csvFormat = CSVFormat()
    /// The line break CSV written from the table uses: the file's own when it was read from one,
    /// CRLF (RFC 4180) otherwise.
    package var lineBreak: [UInt8] {
        get { csvFormat.lineBreak }
        set { csvFormat.lineBreak = newValue }
    }
    /// The records of the CSV file the table was read from, while the table is as it was read:
    /// CSV output copies a record as it is, quoting and all.
    package var rawRecords: RawRecords? {
        // The columns left in the records are read before the records go.
        willSet { if rawRecords != nil, unread != nil { readUnreadColumns() } }
    }
    /// The columns of the file whose dates with the year last (`3/1/2024`) were read month first
    /// without the file settling it: what a reader warns of.
    public internal(set) var dateNotes: [DateOrderNote] = []
    /// What reading the source found that its reader should hear, beside ``dateNotes``: which
    /// sheet of a workbook was read, rows kept out of the table above and under it, formulas
    /// whose values were computed or could not be.
    public package(set) var readingNotes: [String] = []
    /// Where the rows came from when the source can be written back with them moved (a
    /// workbook's sheet): what its reader keeps to write it.
    package var origin: (any Sendable)?
    /// What each column's cells showed, for a table read with `gatherEvidence` (a part of a file
    /// an external sort reads in parts).
    var columnEvidence: [ColumnEvidence]?

    /// An empty table with these columns; texts appended to a column are read as its type.
    public init(columns: [Column]) {
        self.columns = columns
        storage = columns.map { column in
            var store = ColumnStore()
            store.readAs = column.type
            return store
        }
    }

    /// A table from stores already filled (the CSV reader's).
    package init(columns: [Column], stores: [ColumnStore]) {
        self.columns = columns
        self.storage = stores
        if stores.contains(where: \.isHollow) { unread = UnreadColumns() }
    }

    /// The same cells and records under other columns' definitions (a part of a file read in
    /// parts, typed as the whole file is); a column left in the records stays text.
    package func withColumns(_ columns: [Column]) -> Table {
        let table = Table(
            columns: zip(columns, storage).map { column, store in
                store.isHollow && store.reading.type == .text ? Column(column.identifier, title: column.title, type: .text) : column
            }, stores: storage)
        table.unread = unread
        table.csvFormat = csvFormat
        table.rawRecords = rawRecords
        table.dateNotes = dateNotes
        table.columnEvidence = columnEvidence
        return table
    }

    /// How many columns the table stores.
    package var storeCount: Int { storage.count }

    /// The cells of `column`; a column left unread is read now (as text, from the file's
    /// records), once. Safe from several threads at once.
    package func store(_ column: Int) -> ColumnStore {
        guard let unread, storage[column].isHollow else { return storage[column] }
        return unread.store(column) {
            guard let records = rawRecords else { return ColumnStore(hollowRows: 0) }
            return CSV.store(ofField: column, records: records, delimiter: csvFormat.delimiter, reading: storage[column].reading)
        }
    }

    /// Lets go of the cells of every column read from the file, while its records are at hand:
    /// each is read again from the records, as it was read (the same texts, kinds and values),
    /// when it is next asked for. A sort that copies the records as they are calls it once it
    /// has its order: the key column of a 10M-row file is some 190 MB the write does not need.
    /// Returns whether any were let go. Not beside other threads reading the table.
    @discardableResult
    package func releaseCells() -> Bool {
        // (A table a cell of which was set has records that no longer hold all its cells.)
        guard let rawRecords, rawRecords.changedCells.isEmpty else { return false }
        var released = false
        for c in storage.indices where !storage[c].isHollow {
            storage[c] = ColumnStore(hollowRows: storage[c].count, reading: storage[c].reading)
            released = true
        }
        cellsChanged()
        // Columns read from the records since go too; all are read again when asked for.
        if unread?.isEmpty == false { released = true }
        if released { unread = UnreadColumns() }
        return released
    }

    /// The cells, column by column, every unread column read (see ``store(_:)``).
    private var everyStore: [ColumnStore] { storage.indices.map(store) }

    /// Whether `column` was left in the file's records and is not read yet: a text column, whose
    /// cells are read one at a time from their records. (A column whose cells were let go is read
    /// again whole, as it was read, when asked for.)
    package func isUnread(_ column: Int) -> Bool {
        guard let unread, storage.indices.contains(column), storage[column].isHollow,
            storage[column].reading.type == .text
        else { return false }
        return !unread.isRead(column)
    }

    /// The columns left in the records in which one of `rows` holds a number: a summary row's
    /// cell the columns read do not show, which is to be read before the row is checked.
    package func unreadColumnsHoldingNumbers(inRows rows: [Int]) -> [Int] {
        storage.indices.filter { c in
            isUnread(c)
                && rows.contains { row in
                    var text = self.text(row: row, column: c)
                    return text.withUTF8 { CellText.classify($0).kind.isNumber }
                }
        }
    }

    /// Whether some column was left in the file's records and is not read yet.
    package var hasUnreadColumns: Bool { storage.indices.contains { isUnread($0) } }

    /// What a sort made of a column's cells and may use again while they are unchanged: each
    /// column's distinct texts (an id per row, and the texts), with the version of the cells they
    /// were made of. A table's sorts by one column in turn (a viewer's header clicks) then group
    /// its texts once.
    private let memoLock = NSLock()
    private var distinctMemo: [Int: (version: CellsVersion, ids: [Int32], texts: [String])] = [:]
    /// Counts the changes of the rows (inserted, removed, let go), and of each column's cells.
    private var rowsVersion = 0
    private var columnVersions: [Int: Int] = [:]

    private struct CellsVersion: Equatable {
        var rows: Int
        var column: Int
    }

    /// Notes a change of the cells of `column` (`nil`: of the rows, every column's): what was made
    /// of them before is not used again.
    private func cellsChanged(column: Int? = nil) {
        memoLock.lock()
        if let column {
            columnVersions[column, default: 0] += 1
            distinctMemo[column] = nil
        } else {
            rowsVersion += 1
            distinctMemo = [:]
        }
        memoLock.unlock()
    }

    /// The distinct texts of every cell of `column` (an id per row, and the texts by id), made by
    /// `make` once while the column's cells are unchanged. Safe beside other readers.
    package func distinctTexts(ofColumn column: Int, _ make: () -> (ids: [Int32], texts: [String])) -> (ids: [Int32], texts: [String]) {
        memoLock.lock()
        let version = CellsVersion(rows: rowsVersion, column: columnVersions[column] ?? 0)
        if let kept = distinctMemo[column], kept.version == version {
            memoLock.unlock()
            return (kept.ids, kept.texts)
        }
        memoLock.unlock()
        let made = make()
        memoLock.lock()
        if CellsVersion(rows: rowsVersion, column: columnVersions[column] ?? 0) == version { distinctMemo[column] = (version, made.ids, made.texts) }
        memoLock.unlock()
        return made
    }

    /// Reads every unread column into the table's storage, before a change to its cells.
    private func readUnreadColumns() {
        guard unread != nil else { return }
        let filled = everyStore
        unread = nil
        storage = filled
    }

    /// A table from values, row by row; each row must have one value per column.
    public convenience init(columns: [Column], rows: [[CellValue]]) throws(TableError) {
        self.init(columns: columns)
        for row in rows { try appendRow(values: row) }
    }

    public var rowCount: Int { storage.first?.count ?? 0 }

    public func value(row: Int, column: Int) -> CellValue {
        guard storage.indices.contains(column), row >= 0, row < storage[column].count else { return .missing }
        if isUnread(column) {
            let text = self.text(row: row, column: column)
            return CellValue(CellText.classify(text, as: .text), text: text, numericColumn: false)
        }
        let store = store(column)
        return CellValue(store.cell(at: row), text: store.text(at: row), numericColumn: columns[column].type.isNumeric)
    }

    public func text(row: Int, column: Int) -> String {
        guard storage.indices.contains(column), row >= 0, row < storage[column].count else { return "" }
        if isUnread(column), let records = rawRecords, row < records.count {
            // One cell of a column left in the records: read from its record alone.
            return String(decoding: records.field(column, ofRecord: row, delimiter: csvFormat.delimiter), as: UTF8.self)
        }
        return store(column).text(at: row)
    }

    /// All values of one column, in row order.
    public func values(ofColumn column: Int) throws(TableError) -> [CellValue] {
        guard storage.indices.contains(column) else { throw .noSuchColumnPosition(column, columnCount: columns.count) }
        return (0..<rowCount).map { value(row: $0, column: column) }
    }

    public func values(ofColumn column: Int, rows: [Int]) -> [CellValue] {
        rows.map { value(row: $0, column: column) }
    }

    /// The position of the column named `identifier`, if any.
    public func columnIndex(_ identifier: String) -> Int? { columns.firstIndex { $0.identifier == identifier } }

    // MARK: Changing the table

    /// Appends a row of values.
    public func appendRow(values: [CellValue]) throws(TableError) {
        try insertRow(values: values, at: rowCount)
    }

    /// Appends a row of texts, each read as its column's type.
    public func appendRow(_ texts: [String]) throws(TableError) {
        try insertRow(texts, at: rowCount)
    }

    /// Appends a row of cells given as values or as texts read on their own (a database's text
    /// cells, whose text is kept as it is); see ``inferTypes(ofColumns:)``.
    package func appendRow(cells: [TableCell]) throws(TableError) {
        guard cells.count == columns.count else { throw .wrongFieldCount(expected: columns.count, found: cells.count) }
        try insert(
            cells.map { cell in
                switch cell {
                case .value(let value): return Self.cell(for: value)
                case .text(let text): return (text, CellText.classify(text, CellReading()))
                case .shown(let value, let text):
                    // The decimals are the text's (92.00 has two), as a summary of the column writes them.
                    var cell = Self.cell(for: value).1
                    if cell.kind == .decimal { cell.fractionDigits = CellText.classify(text, CellReading()).fractionDigits }
                    return (text, cell)
                }
            }, at: rowCount)
    }

    /// Gives each of `columns` the type most of its cells hold, as a CSV file's columns get
    /// theirs, and reads later texts in them on their own.
    package func inferTypes(ofColumns indices: [Int]) {
        readUnreadColumns()
        for c in indices where storage.indices.contains(c) {
            storage[c].readAs = nil
            columns[c].type = storage[c].inferredType
        }
    }

    /// Reads every cell of `column` again as `type` (`nil`: each cell on its own, the column's
    /// type then what most of them hold): what `--type` does when a file is read, done after.
    /// The texts stay as they are; only what they are read as changes. A grid of the table sorts
    /// again.
    public func setType(_ type: ColumnType?, ofColumn column: Int) throws(TableError) {
        guard storage.indices.contains(column) else { throw .noSuchColumnPosition(column, columnCount: columns.count) }
        readUnreadColumns()
        var reading = storage[column].reading
        reading.type = type
        storage[column].reread(reading)
        columns[column].type = type ?? storage[column].inferredType
        // (The column's distinct texts are kept: they are its cells' bytes, which a type leaves.)
        changes.post(.reset)
    }

    /// How many cells of `column` are not blank and are not of its type (`缺考` in a number
    /// column): what a type set by hand leaves as text.
    public func cellsNotOfType(column: Int) -> Int {
        guard storage.indices.contains(column) else { return 0 }
        let type = columns[column].type
        let store = storage[column]
        var count = 0
        for row in 0..<store.count {
            let kind = store.kind(at: row)
            if kind != .missing, !Self.belongs(kind, to: type) { count += 1 }
        }
        return count
    }

    /// Inserts a row of values at `row` (0 … ``rowCount``).
    public func insertRow(values: [CellValue], at row: Int) throws(TableError) {
        guard values.count == columns.count else { throw .wrongFieldCount(expected: columns.count, found: values.count) }
        try insert(values.map(Self.cell(for:)), at: row)
    }

    /// Inserts a row of texts at `row`, each read as its column's type.
    public func insertRow(_ texts: [String], at row: Int) throws(TableError) {
        guard texts.count == columns.count else { throw .wrongFieldCount(expected: columns.count, found: texts.count) }
        try insert(texts.enumerated().map { c, text in (text, CellText.classify(text, storage[c].reading)) }, at: row)
    }

    private func insert(_ cells: [(String, ClassifiedCell)], at row: Int) throws(TableError) {
        guard row >= 0, row <= rowCount else { throw .noSuchRow(row, rowCount: rowCount) }
        readUnreadColumns()
        for (c, cell) in cells.enumerated() where storage[c].bytes.count + cell.0.utf8.count > ColumnStore.maximumBytes {
            throw .columnFull(columns[c].identifier)
        }
        for (c, cell) in cells.enumerated() { _ = storage[c].insert(cell.0, cell.1, at: row) }
        cellsChanged()
        rawRecords = nil
        changes.post(.inserted(row..<(row + 1)))
    }

    /// Removes the row at `row`.
    public func removeRow(at row: Int) throws(TableError) {
        guard row >= 0, row < rowCount else { throw .noSuchRow(row, rowCount: rowCount) }
        readUnreadColumns()
        for c in storage.indices { storage[c].remove(at: row) }
        cellsChanged()
        rawRecords = nil
        changes.post(.removed(row..<(row + 1)))
    }

    /// Sets one cell to a value (its text becomes the value's description).
    public func setValue(_ value: CellValue, row: Int, column: Int) throws(TableError) {
        let (text, cell) = Self.cell(for: value)
        try set(text, cell, row: row, column: column)
    }

    /// Sets one cell's text, read as its column's type.
    public func setText(_ text: String, row: Int, column: Int) throws(TableError) {
        guard storage.indices.contains(column) else { throw .noSuchColumnPosition(column, columnCount: columns.count) }
        readUnreadColumns()
        try set(text, CellText.classify(text, storage[column].reading), row: row, column: column)
    }

    private func set(_ text: String, _ cell: ClassifiedCell, row: Int, column: Int) throws(TableError) {
        guard storage.indices.contains(column) else { throw .noSuchColumnPosition(column, columnCount: columns.count) }
        guard row >= 0, row < rowCount else { throw .noSuchRow(row, rowCount: rowCount) }
        readUnreadColumns()
        guard storage[column].replace(at: row, with: text, cell) else { throw .columnFull(columns[column].identifier) }
        cellsChanged(column: column)
        // The records stay, for a writer to copy every row and field that did not change (a
        // record left in its file, which may change under it, goes).
        if rawRecords?.mapped == nil, row < rawRecords?.count ?? 0 {
            rawRecords?.markChanged(row: row, column: column)
        } else {
            rawRecords = nil
        }
        changes.post(.updated(row..<(row + 1)))
    }

    /// A value as a cell: its text and its classification.
    static func cell(for value: CellValue) -> (String, ClassifiedCell) {
        switch value {
        case .missing: return ("", .missing)
        case .integer(let i): return (String(i), ClassifiedCell(kind: .integer, payload: UInt64(bitPattern: Int64(i)), fractionDigits: 0))
        case .decimal(let d):
            guard d.isFinite else { return ("", .missing) }
            let text = CellValue.format(d)
            let digits = text.split(separator: ".").dropFirst().first.map { $0.prefix { $0.isNumber }.count } ?? 0
            return (text, ClassifiedCell(kind: .decimal, payload: (d == 0 ? 0.0 : d).bitPattern, fractionDigits: UInt8(clamping: digits)))
        case .text(let s): return (s, .text)
        case .boolean(let b): return (b ? "true" : "false", ClassifiedCell(kind: .boolean, payload: b ? 1 : 0, fractionDigits: 0))
        case .date(let d):
            return (CellValue.format(d), ClassifiedCell(kind: .date, payload: d.timeIntervalSince1970.bitPattern, fractionDigits: 0))
        case .error(let e): return (e, ClassifiedCell(kind: .error, payload: 0, fractionDigits: 0))
        }
    }

    /// The most columns ``withViews(_:)`` opens: it holds each column's buffers open in a closure
    /// inside the last one's, stack a column (the main thread's 8 MB ran out near 4,000 columns,
    /// a thread of 512 KB would much sooner). A wider table is read cell by cell.
    package static let maximumViewedColumns = 128

    /// Calls `body` with a view of every column's storage (see ``CellBytesView``); at most
    /// ``maximumViewedColumns`` columns.
    package func withViews<R>(_ body: ([CellBytesView]) -> R) -> R {
        precondition(storeCount <= Self.maximumViewedColumns, "withViews of \(storeCount) columns nests too deep")
        let stores = everyStore
        func nest(_ index: Int, _ views: [CellBytesView]) -> R {
            guard index < stores.count else { return body(views) }
            return stores[index].withView { nest(index + 1, views + [$0]) }
        }
        return nest(0, [])
    }

    // MARK: What the reading found

    /// For each column whose cells are not all of its type, which are not and where they sort.
    public var typeWarnings: [TypeWarning] { typeWarnings(amongRows: { _ in true }) }

    /// ``typeWarnings`` of the rows for which `isData` is true: a grid leaves out its pinned rows —
    /// the file's own 平均 row with 平均 in a number column is not data of that column.
    public func typeWarnings(amongRows isData: (Int) -> Bool) -> [TypeWarning] {
        storedTypeWarnings(amongRows: isData)
    }

    static func belongs(_ kind: CellKind, to type: ColumnType) -> Bool {
        switch type {
        case .integer, .decimal: return kind.isNumber
        case .date: return kind == .date
        case .boolean: return kind == .boolean
        case .text: return true
        }
    }

    /// The kind a type warning counts a cell as: its ``ValueKind``, with a `NaN` counted in no
    /// kind (a blank in number columns, the only columns whose type it can be out of line with
    /// as a number).
    static func warnedKind(_ kind: CellKind) -> ValueKind? { ValueKind(kind, numericColumn: true) }
}

/// Cells of a column that are not of its type: they sort among their own kind, before or after
/// the column's values, as a spreadsheet sorts them.
public struct TypeWarning: Equatable, Sendable, CustomStringConvertible {
    public let column: String
    public let type: ColumnType
    /// How many cells.
    public let count: Int
    /// The first few: their row (from 0) and text.
    public let examples: [(row: Int, text: String)]
    /// Whether they sort after the column's values (otherwise before), in an ascending sort.
    public let sortsAfter: Bool
    /// Whether the warning speaks of a descending sort by the column, where the kinds' order is
    /// reversed: cells that sort after the values ascending come before them.
    public var descending = false

    public init(
        column: String, type: ColumnType, count: Int, examples: [(row: Int, text: String)], sortsAfter: Bool,
        descending: Bool = false
    ) {
        self.column = column
        self.type = type
        self.count = count
        self.examples = examples
        self.sortsAfter = sortsAfter
        self.descending = descending
    }

    public static func == (a: TypeWarning, b: TypeWarning) -> Bool {
        a.column == b.column && a.type == b.type && a.count == b.count && a.sortsAfter == b.sortsAfter
            && a.descending == b.descending
            && a.examples.map(\.row) == b.examples.map(\.row) && a.examples.map(\.text) == b.examples.map(\.text)
    }

    /// `分数: 1 cell is not a number (row 11: 缺考); it sorts after the numbers`. Rows are counted
    /// from 1, the first row after the header.
    public var description: String { described { $0 + 1 } }

    /// ``description`` with each row named by `rowNumber` (a workbook's rows by the sheet's
    /// numbers).
    public func described(rowNumber: (Int) -> Int) -> String {
        let (one, many): (String, String)
        switch type {
        case .integer, .decimal: (one, many) = ("a number", "numbers")
        case .date: (one, many) = ("a date", "dates")
        case .boolean: (one, many) = ("a truth value", "truth values")
        case .text: (one, many) = ("text", "text")
        }
        let cells = count == 1 ? "1 cell is not \(one)" : "\(count) cells are not \(many)"
        var list = examples.map { "row \(rowNumber($0.row)): \(Excerpt.of($0.text))" }.joined(separator: ", ")
        if count > examples.count { list += ", …" }
        let verb = count == 1 ? "it sorts" : "they sort"
        let after = sortsAfter != descending
        return "\(Excerpt.of(column)): \(cells) (\(list)); \(verb) \(after ? "after" : "before") the \(many)"
    }
}

/// A short, printable excerpt of input text for messages: control characters (C0, C1, bidi
/// overrides) shown as escapes, and at most 40 characters.
package enum Excerpt {
    package static func of(_ text: String, limit: Int = 40) -> String {
        var out = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit { return out + "…" }
            out += escaped(scalar)
            count += 1
        }
        return out
    }

    package static func escaped(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x0A: return "\\n"
        case 0x09: return "\\t"
        case 0x0D: return "\\r"
        case 0..<0x20, 0x7F..<0xA0, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
            return "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        default: return String(scalar)
        }
    }
}

/// The records of a CSV file as bytes: where each starts and ends (its line break excluded), and
/// which hold a field a spreadsheet would run as a formula.
///
/// A record is found by its start alone, 4 bytes a row: it ends where the next one starts less
/// the file's line break (``gap`` bytes), and the few records that do not (a file that mixes line
/// breaks) have their ends kept apart, as has the last; a file where many do keeps every
/// record's end instead (4 bytes a row more). A row written in a new order is found with one jump
/// into the starts, then one into the file.
package struct RawRecords: Sendable {
    /// The text the records are in, when it is held (the file's bytes, or their decoding).
    package var bytes: [UInt8] = []
    /// Or the file they are in, mapped, when they were left there (``bytes`` then empty).
    package var mapped: MappedFile?
    package var header: Range<Int> = 0..<0
    package var headerRisky = false
    /// Where each record starts.
    package private(set) var starts: [UInt32] = []
    /// The bytes between a record's end and the next record's start, in most of the file (its
    /// line break's length); set before the first record is added.
    package var gap = 1
    /// The ends of the records that are not ``gap`` bytes before the next record's start.
    private var unusualEnds: [Int: UInt32] = [:]
    /// Every record's end, once more than ``unusualEndsLimit`` records ended otherwise than
    /// ``gap`` bytes before the next; empty until then.
    private var ends: [UInt32] = []
    /// How many records may end otherwise than ``gap`` bytes before the next before every
    /// record's end is kept (at least a sixteenth of the records): ``Tuning/unusualEndsLimit``.
    static var unusualEndsLimit: Int { Tuning.current.unusualEndsLimit }
    /// Where the last record ends.
    private var lastEnd: UInt32 = 0
    /// The records that start like a formula, in order (few or none).
    private var riskyRows: [Int32] = []
    /// The cells set since the records were read, by row: the columns whose field the record no
    /// longer holds (a writer copies the record's other fields as they are).
    package private(set) var changedCells: [Int: Set<Int>] = [:]

    package var count: Int { starts.count }

    /// Whether a cell of record `row` was set since it was read: its bytes are no longer all the
    /// row's cells.
    @inline(__always)
    package func isChanged(_ row: Int) -> Bool { !changedCells.isEmpty && changedCells[row] != nil }

    /// Notes that the cell of `row` in `column` was set.
    mutating func markChanged(row: Int, column: Int) { changedCells[row, default: []].insert(column) }

    /// Where record `row` starts and ends in ``bytes``.
    @inline(__always)
    package func range(_ row: Int) -> Range<Int> {
        let start = Int(starts[row])
        if !ends.isEmpty { return start..<Int(ends[row]) }
        if !unusualEnds.isEmpty, let end = unusualEnds[row] { return start..<Int(end) }
        return start..<(row + 1 < starts.count ? Int(starts[row + 1]) - gap : Int(lastEnd))
    }

    /// Whether every record ends ``gap`` bytes before the next one starts (the last at
    /// ``lastRecordEnd``): a loop over many records then finds their ends in ``starts`` alone.
    package var endsFollowStarts: Bool { ends.isEmpty && unusualEnds.isEmpty }
    /// Where the last record ends.
    package var lastRecordEnd: Int { Int(lastEnd) }

    /// Record `row`'s place as one word, `start << 32 | end`.
    @inline(__always)
    package func place(_ row: Int) -> UInt64 {
        let range = range(row)
        return UInt64(range.lowerBound) << 32 | UInt64(range.upperBound)
    }

    /// Whether record `row` holds a field that starts like a formula (`=`, `+`, `-`, `@`, …).
    @inline(__always)
    package func isRisky(_ row: Int) -> Bool {
        guard !riskyRows.isEmpty else { return false }
        var low = 0, high = riskyRows.count
        while low < high {
            let mid = (low + high) / 2
            if Int(riskyRows[mid]) < row { low = mid + 1 } else { high = mid }
        }
        return low < riskyRows.count && Int(riskyRows[low]) == row
    }

    mutating func reserve(_ count: Int) {
        if starts.isEmpty { starts = [UInt32](largeCapacity: count) } else { starts.reserveCapacity(count) }
    }

    /// Moves `other`'s records (read after these, with the same bytes) onto the end of these,
    /// leaving `other` without any: its starts are given back to the system as they are copied.
    mutating func append(draining other: inout RawRecords) {
        let n = other.starts.count, at = starts.count
        guard n > 0 else { return }
        if !ends.isEmpty || !other.ends.isEmpty || other.gap != gap
            || unusualEnds.count + other.unusualEnds.count >= Self.limit(of: at + n)
        {
            // Every end kept: these records' own, then the other's as it finds them.
            keepEveryEnd()
            ends += (0..<n).map { UInt32(truncatingIfNeeded: other.range($0).upperBound) }
        } else {
            // Where the records read so far end, as these records see them, and the other's unusual ends.
            if at > 0, Int(lastEnd) + gap != Int(other.starts[0]) { unusualEnds[at - 1] = lastEnd }
            for (row, end) in other.unusualEnds { unusualEnds[at + row] = end }
        }
        starts.reserveCapacity(at + n)
        starts.append(contentsOf: repeatElement(0, count: n))
        other.starts.withUnsafeMutableBufferPointer { theirs in
            starts.withUnsafeMutableBufferPointer { mine in
                guard let from = theirs.baseAddress, let to = mine.baseAddress else { return }
                LargeBuffers.copyReleasing(from: from, to: to + at, count: n)
            }
        }
        lastEnd = other.lastEnd
        riskyRows += other.riskyRows.map { $0 + Int32(at) }
        other = RawRecords()
    }

    /// How many unusual ends `count` records may have before every end is kept.
    private static func limit(of count: Int) -> Int { max(unusualEndsLimit, count / 16) }

    /// Keeps every record's end from now on (see ``ends``).
    private mutating func keepEveryEnd() {
        guard ends.isEmpty else { return }
        var all = [UInt32](largeCapacity: starts.count)
        for row in starts.indices { all.append(UInt32(truncatingIfNeeded: range(row).upperBound)) }
        ends = all
        unusualEnds = [:]
    }

    /// Calls `body` with the text the records are in (``bytes``, or the mapped file's).
    @inline(__always)
    package func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        if let mapped { return try body(mapped.bytes) }
        return try bytes.withUnsafeBufferPointer(body)
    }

    /// Field `column` of record `row` (see ``CSV/field(_:of:delimiter:)``).
    func field(_ column: Int, ofRecord row: Int, delimiter: UInt8) -> [UInt8] {
        withBytes { file in
            CSV.field(column, of: UnsafeBufferPointer(rebasing: file[range(row)]), delimiter: delimiter)
        }
    }

    /// Adds the record at `range`, which starts after every record added so far ends.
    mutating func append(_ range: Range<Int>, risky isRisky: Bool) {
        let row = starts.count
        if !ends.isEmpty {
            ends.append(UInt32(truncatingIfNeeded: range.upperBound))
        } else if row > 0, Int(lastEnd) + gap != range.lowerBound {
            unusualEnds[row - 1] = lastEnd
            if unusualEnds.count >= Self.limit(of: row) {
                keepEveryEnd()
                ends.append(UInt32(truncatingIfNeeded: range.upperBound))
            }
        }
        starts.append(UInt32(truncatingIfNeeded: range.lowerBound))
        lastEnd = UInt32(truncatingIfNeeded: range.upperBound)
        if isRisky { riskyRows.append(Int32(truncatingIfNeeded: row)) }
    }
}

/// The columns of a file a table was read without, as they are read (each once, under a lock).
final class UnreadColumns: @unchecked Sendable {
    private let lock = NSLock()
    private var read: [Int: ColumnStore] = [:]

    func store(_ column: Int, reading: () -> ColumnStore) -> ColumnStore {
        lock.lock()
        defer { lock.unlock() }
        if let store = read[column] { return store }
        let store = reading()
        read[column] = store
        return store
    }

    /// Whether no column was read yet.
    var isEmpty: Bool {
        lock.lock()
        defer { lock.unlock() }
        return read.isEmpty
    }

    func isRead(_ column: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return read[column] != nil
    }
}

/// A cell handed to a table: a value, or a text read on its own and kept as it is.
package enum TableCell {
    case value(CellValue)
    case text(String)
    /// A value with the text its program shows for it (SQLite's `92.0` for a REAL 92).
    case shown(CellValue, String)
}

extension ColumnStorageSource {
    /// For each typed column, the stored cells among the rows for which `isData` is true that
    /// are not of its type, and where they sort (``Table/typeWarnings(amongRows:)``).
    package func storedTypeWarnings(amongRows isData: (Int) -> Bool) -> [TypeWarning] {
        var warnings: [TypeWarning] = []
        for (c, column) in columns.enumerated() where column.type != .text && c < storeCount {
            let store = store(c)
            let kinds = store.kinds
            let expected = column.type
            var before: [Int] = [], after: [Int] = []
            for row in kinds.indices where isData(row) {
                guard let kind = Table.warnedKind(kinds[row]), !Table.belongs(kinds[row], to: expected) else { continue }
                if kind < ValueKind(expected) { before.append(row) } else { after.append(row) }
            }
            for (rows, sortsAfter) in [(before, false), (after, true)] where !rows.isEmpty {
                let examples = rows.prefix(3).map { (row: $0, text: store.text(at: $0)) }
                warnings.append(
                    TypeWarning(
                        column: column.identifier, type: expected, count: rows.count,
                        examples: examples, sortsAfter: sortsAfter))
            }
        }
        return warnings
    }
}
