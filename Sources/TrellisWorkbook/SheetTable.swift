import Foundation
import TrellisGrid

/// A sheet read as a table: the header row that names its columns, the body rows under it, and
/// what the reading found around them — title rows above, notes below — with where each row of
/// the table is on the sheet.
///
/// ```swift
/// let read = try workbook.table(sheet: workbook.activeSheet)
/// read.table.columns.map(\.identifier)   // ["学号", "姓名", "语文", "数学", "总分"]
/// read.rowNumbers[0]                     // 2: the first body row is the sheet's row 2
/// ```
public struct SheetTable {
    /// The sheet's name.
    public var sheet: String
    /// The rows under the header, one column per filled column of the sheet; each cell's value
    /// with the text the program shows for it.
    public var table: Table
    /// The sheet row (from 1) that names the columns.
    public var headerRow: Int
    /// The sheet row of each row of ``table``, in order (blank rows on the sheet hold no row).
    public var rowNumbers: [Int]
    /// Rows above the header (a title), by their sheet row.
    public var rowsAbove: [Int]
    /// Rows under the table, after a blank row, that are notes rather than records (one filled
    /// cell each: `制表人：…`), by their sheet row; they are not in ``table``.
    public var rowsBelow: [Int]
    /// Cells whose formula had no saved value and could not be computed (missing in ``table``),
    /// as `D5` references.
    public var uncomputed: [String] = []
    /// Cells whose formula had no saved value and whose value was computed (openpyxl saves none).
    public var computed = 0
}

extension Workbook {
    /// The sheet at `index` as a table. The header is row `headerRow` when given; otherwise the
    /// first row that fills two or more cells when every row above it fills at most one (a
    /// title, often merged across), else the first row that holds anything. `types` reads the
    /// named columns' cells as that type from their shown text, as a CSV file's `--type` does.
    public func table(sheet index: Int, headerRow: Int? = nil, types: [String: ColumnType] = [:]) throws(WorkbookError) -> SheetTable {
        let name = sheets[index].name
        // Row by row into the table's columns, unless formulas saved without values (or in a
        // workbook that asks to be computed when opened) need the whole sheet to be computed, or
        // a header row given is not there, which the whole sheet then says.
        do {
            var assembly = SheetAssembly(sheet: name, headerRow: headerRow, types: types)
            var wholeSheetNeeded = false
            if kind == .xlsx, sheets[index].notATable == nil {
                wholeSheetNeeded = try !XLSXReader.readTable(of: self, sheet: sheets[index], into: &assembly)
            } else {
                do {
                    try readRows(ofSheet: index, rowsHint: { assembly.reserve($0) }) { row throws(WorkbookError) in
                        guard !row.cells.contains(where: \.formulaWithoutValue), try assembly.add(row) else {
                            wholeSheetNeeded = true
                            throw WorkbookError.wholeSheetNeeded
                        }
                    }
                } catch  where wholeSheetNeeded {}
            }
            if !wholeSheetNeeded, let table = try assembly.finish() { return table }
        }
        let read = try read(sheet: index)
        var assembly = SheetAssembly(sheet: name, headerRow: headerRow, types: types)
        for row in read.rows {
            guard try assembly.add(row) else { break }
        }
        guard var table = try assembly.finish() else {
            throw WorkbookError(
                usage: "row \(headerRow ?? 0) of the sheet '\(name)' is blank; the rows that hold something are "
                    + Self.rowRanges(read.rows.map(\.number)))
        }
        table.computed = read.computed
        table.uncomputed = read.uncomputed
        return table
    }

    /// The row most likely to be the header: the first to fill two or more cells, all text, when
    /// every row above it (at most ten) fills at most one (a title); else the first.
    static func likelyHeader(_ rows: [SheetRow]) -> Int {
        guard let k = rows.prefix(11).firstIndex(where: { $0.cells.count >= 2 }), k > 0 else { return 0 }
        let named = rows[k].cells.allSatisfy { if case .text = $0.value { true } else { false } }
        return named ? k : 0
    }

    /// Row numbers as ranges: `1–3, 5, 9–12`.
    package static func rowRanges(_ numbers: [Int]) -> String {
        var parts: [String] = []
        var k = 0
        while k < numbers.count, parts.count < 8 {
            var end = k
            while end + 1 < numbers.count, numbers[end + 1] == numbers[end] + 1 { end += 1 }
            parts.append(end == k ? "\(numbers[k])" : "\(numbers[k])–\(numbers[end])")
            k = end + 1
        }
        return parts.joined(separator: ", ") + (k < numbers.count ? ", …" : "")
    }

    /// The number formats of the cell styles (xlsx).
    func cellFormats() throws(WorkbookError) -> [NumberFormat] {
        try XLSXReader.cellFormats(archive, part: stylesPart)
    }
}

/// Rows under a header put into columns: a table's, or a part of one read on another thread.
struct AssembledRows {
    let sheet: String
    /// The types given for columns, by place: their text cells read as that type.
    var typed: [Int: ColumnType] = [:]
    var assembler = TableAssembler()
    var rowNumbers: [Int] = []
    var cellCounts: [Int] = []

    init(sheet: String, typed: [Int: ColumnType] = [:]) {
        self.sheet = sheet
        self.typed = typed
    }

    mutating func append(_ row: SheetRow) throws(WorkbookError) {
        for cell in row.cells {
            var value = cell.value
            if let type = typed[cell.column], case .text = value { value = CellValue.parse(cell.shown, as: type) }
            let assembled: TableAssembler.Value
            switch value {
            case .missing, .error: assembled = .missing
            case .integer(let i): assembled = .integer(Int64(i))
            case .decimal(let d): assembled = .decimal(d)
            case .date(let d): assembled = .date(d.timeIntervalSince1970)
            case .boolean(let b): assembled = .boolean(b)
            case .text: assembled = .text
            }
            var shown = cell.shown
            let held = shown.withUTF8 { assembler.append(column: cell.column, shown: $0, assembled) }
            guard held else { throw WorkbookError("the sheet '\(sheet)' row \(row.number) holds more text than a column can") }
        }
        assembler.endRow()
        rowNumbers.append(row.number)
        cellCounts.append(row.cells.count)
    }

    /// Appends `other`, the rows that follow these on the sheet.
    mutating func append(contentsOf other: AssembledRows) throws(WorkbookError) {
        guard !other.rowNumbers.isEmpty else { return }
        if let last = rowNumbers.last, let first = other.rowNumbers.first, first <= last {
            throw WorkbookError("the sheet '\(sheet)': row \(first) comes after row \(last)")
        }
        guard assembler.append(contentsOf: other.assembler) else {
            throw WorkbookError("the sheet '\(sheet)' holds more text in a column than a column can")
        }
        rowNumbers += other.rowNumbers
        cellCounts += other.cellCounts
    }
}

/// A sheet's rows made into a table as they come: the first rows held until the header is
/// found, the rows under it put straight into the table's columns (or into parts read on other
/// threads, appended in order).
struct SheetAssembly {
    let sheet: String
    let headerRow: Int?
    let types: [String: ColumnType]
    /// The rows read before the header was found.
    private var head: [SheetRow] = []
    private var header: SheetRow?
    private var rowsAbove: [Int] = []
    private var rows: AssembledRows

    init(sheet: String, headerRow: Int?, types: [String: ColumnType]) {
        self.sheet = sheet
        self.headerRow = headerRow
        self.types = types
        rows = AssembledRows(sheet: sheet)
    }

    /// Whether the header has been found: the rows from here on are the table's.
    var foundHeader: Bool { header != nil }

    /// An empty part for rows read on another thread, typed as the table's.
    var part: AssembledRows { AssembledRows(sheet: sheet, typed: rows.typed) }

    /// Appends a part read on another thread: the rows after those so far.
    mutating func append(_ part: AssembledRows) throws(WorkbookError) {
        try rows.append(contentsOf: part)
    }

    /// Sizes the columns for `rows` rows (what the sheet says it has), so that they are not
    /// grown, and copied, as they fill. A sheet that says more than Excel's rows is not believed.
    mutating func reserve(_ count: Int) {
        if count > 0, count <= XLSXReader.maximumRows { rows.assembler.reserve(count) }
    }

    /// Takes the next row that holds something; `false` when the header row given is not there.
    mutating func add(_ row: SheetRow) throws(WorkbookError) -> Bool {
        if header != nil {
            try rows.append(row)
            return true
        }
        head.append(row)
        if let headerRow {
            if row.number == headerRow { try decide(head.count - 1) }
            return row.number <= headerRow
        }
        if head.count == 11 { try decide(Workbook.likelyHeader(head)) }
        return true
    }

    /// The table, or `nil` when the header row given was not there.
    mutating func finish() throws(WorkbookError) -> SheetTable? {
        if header == nil {
            guard !head.isEmpty else { throw WorkbookError("the sheet '\(sheet)' is empty: it has no cells to read") }
            guard headerRow == nil else { return nil }
            try decide(Workbook.likelyHeader(head))
        }
        guard let header else { return nil }
        // Notes under the table: after a blank row, rows of one filled cell to the end.
        var rowsBelow: [Int] = []
        if rows.rowNumbers.count > 1 {
            var k = rows.rowNumbers.count - 1
            while k > 0, rows.cellCounts[k] <= 1 { k -= 1 }
            if k + 1 < rows.rowNumbers.count, rows.rowNumbers[k + 1] > rows.rowNumbers[k] + 1 {
                rowsBelow = Array(rows.rowNumbers[(k + 1)...])
                rows.assembler.removeLastRows(rowsBelow.count)
                rows.rowNumbers.removeLast(rowsBelow.count)
            }
        }
        let width = max(header.cells.last.map { $0.column + 1 } ?? 0, rows.assembler.columnCount)
        var names = [String](repeating: "", count: width)
        for cell in header.cells { names[cell.column] = cell.shown.trimmingCharacters(in: .whitespaces) }
        let identifiers = CSV.identifiers(of: names)
        let columns = (0..<width).map { c in
            Column(identifiers[c], title: names[c].isEmpty ? identifiers[c] : names[c], type: rows.typed[c] ?? .text)
        }
        let table = rows.assembler.table(columns: columns, inferring: (0..<width).filter { rows.typed[$0] == nil })
        // Written to CSV as Excel opens it: UTF-8 with a mark, CRLF.
        table.csvFormat = CSVFormat(encoding: .utf8, byteOrderMark: true, delimiter: 0x2C, lineBreak: [0x0D, 0x0A])
        return SheetTable(
            sheet: sheet, table: table, headerRow: header.number, rowNumbers: rows.rowNumbers, rowsAbove: rowsAbove, rowsBelow: rowsBelow)
    }

    /// Takes `head[k]` as the header: the rows above it a title, the rows under it the table's.
    private mutating func decide(_ k: Int) throws(WorkbookError) {
        let header = head[k]
        self.header = header
        rowsAbove = head[..<k].map(\.number)
        var names = [String](repeating: "", count: (header.cells.last?.column ?? -1) + 1)
        for cell in header.cells { names[cell.column] = cell.shown.trimmingCharacters(in: .whitespaces) }
        let identifiers = CSV.identifiers(of: names)
        for name in types.keys.sorted() where !identifiers.contains(name) {
            throw WorkbookError(usage: "the sheet '\(sheet)' has no column '\(name)'; its columns are \(identifiers.joined(separator: ", "))")
        }
        for (c, identifier) in identifiers.enumerated() { if let type = types[identifier] { rows.typed[c] = type } }
        let rest = head[(k + 1)...]
        head = []
        for row in rest { try rows.append(row) }
    }
}
