import Foundation

/// Builds a table's column stores row by row from cells whose values are known with the text
/// shown for them — a workbook's sheet, read straight into the stores a CSV file's table has,
/// with no value or string kept per cell on the way.
///
/// Cells of a row come left to right; a column first met in a later row is given missing cells
/// for the rows before it, and ``endRow()`` fills the rest of a row.
package struct TableAssembler {
    /// A cell's value, as its source typed it; the text is the shown text given beside it.
    package enum Value {
        case missing
        case integer(Int64)
        case decimal(Double)
        /// Seconds since 1970 (UTC).
        case date(Double)
        case boolean(Bool)
        /// Text: the shown text is the value.
        case text
    }

    private var stores: [ColumnStore] = []
    package private(set) var rowCount = 0
    /// The next column of the current row.
    private var next = 0

    package init() {}

    package var columnCount: Int { stores.count }

    /// The rows each column is sized for as it is made.
    private var expectedRows = 0

    /// Sizes the columns for `rows` rows: those made from now on, and those already made.
    package mutating func reserve(_ rows: Int) {
        expectedRows = rows
        for c in stores.indices { stores[c].reserve(rows, bytes: 0) }
    }

    /// Puts the cell at `column` of the current row; `false` when the column's text would pass
    /// what a column holds.
    @discardableResult
    package mutating func append(column: Int, shown: UnsafeBufferPointer<UInt8>, _ value: Value) -> Bool {
        precondition(column >= next, "TableAssembler: column \(column) after column \(next - 1) of a row")
        while stores.count <= column {
            var store = ColumnStore()
            store.reserve(max(rowCount + 1024, expectedRows), bytes: 0)
            store.readAs = nil
            for _ in 0..<rowCount { _ = store.append(UnsafeBufferPointer(start: nil, count: 0), .missing) }
            stores.append(store)
        }
        while next < column {
            _ = stores[next].append(UnsafeBufferPointer(start: nil, count: 0), .missing)
            next += 1
        }
        next = column + 1
        return stores[column].append(shown, Self.cell(value, shown: shown))
    }

    /// Ends the current row, filling the columns it left with missing cells.
    package mutating func endRow() {
        while next < stores.count {
            _ = stores[next].append(UnsafeBufferPointer(start: nil, count: 0), .missing)
            next += 1
        }
        next = 0
        rowCount += 1
    }

    /// Appends the rows of `other` (the next rows, assembled on their own) after this one's;
    /// `false` when a column's text would pass what a column holds.
    package mutating func append(contentsOf other: TableAssembler) -> Bool {
        precondition(next == 0 && other.next == 0, "TableAssembler: rows appended mid-row")
        let width = max(stores.count, other.stores.count)
        let empty = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        while stores.count < width {
            var store = ColumnStore()
            store.readAs = nil
            store.reserve(max(rowCount, expectedRows), bytes: 0)
            for _ in 0..<rowCount { _ = store.append(empty, .missing) }
            stores.append(store)
        }
        for c in 0..<width {
            if c < other.stores.count {
                guard stores[c].append(contentsOf: other.stores[c]) else { return false }
            } else {
                for _ in 0..<other.rowCount { _ = stores[c].append(empty, .missing) }
            }
        }
        rowCount += other.rowCount
        return true
    }

    /// Takes the last `count` rows off (notes found under a table once it was read).
    package mutating func removeLastRows(_ count: Int) {
        precondition(next == 0 && count <= rowCount, "TableAssembler: rows removed mid-row, or more than there are")
        for _ in 0..<count {
            rowCount -= 1
            for c in stores.indices { stores[c].remove(at: rowCount) }
        }
    }

    /// The table: `columns` (as many as ``columnCount`` or more; the rest empty), each column
    /// typed as the caller says, or (`nil` type in `inferring`) as most of its cells are.
    package func table(columns: [Column], inferring: [Int] = []) -> Table {
        precondition(next == 0, "TableAssembler: the table taken mid-row")
        var all = stores
        while all.count < columns.count {
            var store = ColumnStore()
            store.readAs = nil
            for _ in 0..<rowCount { _ = store.append(UnsafeBufferPointer(start: nil, count: 0), .missing) }
            all.append(store)
        }
        var columns = columns
        for c in inferring where c < columns.count { columns[c].type = all[c].inferredType }
        // A column typed by its cells reads a later text on its own; one given a type reads it so.
        let inferred = Set(inferring)
        for c in all.indices where c < columns.count { all[c].readAs = inferred.contains(c) ? nil : columns[c].type }
        return Table(columns: columns, stores: Array(all.prefix(columns.count)))
    }

    /// The stored form of a cell: its kind and payload, and for a decimal the places its shown
    /// text has (as a summary of the column writes them).
    static func cell(_ value: Value, shown: UnsafeBufferPointer<UInt8>) -> ClassifiedCell {
        switch value {
        case .missing: return .missing
        case .integer(let i): return ClassifiedCell(kind: .integer, payload: UInt64(bitPattern: i), fractionDigits: 0, integral: true)
        case .decimal(let d):
            guard d.isFinite else { return .missing }
            let digits = CellText.classify(shown, CellReading()).fractionDigits
            return ClassifiedCell(kind: .decimal, payload: (d == 0 ? 0.0 : d).bitPattern, fractionDigits: digits)
        case .date(let seconds): return ClassifiedCell(kind: .date, payload: seconds.bitPattern, fractionDigits: 0)
        case .boolean(let b): return ClassifiedCell(kind: .boolean, payload: b ? 1 : 0, fractionDigits: 0)
        case .text: return .text
        }
    }
}
