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
        let read = try read(sheet: index)
        let rows = read.rows
        let (computed, uncomputed) = (read.computed, read.uncomputed)
        let name = sheets[index].name

        guard !rows.isEmpty else {
            throw WorkbookError("the sheet '\(name)' is empty: it has no cells to read")
        }
        let header: Int
        if let headerRow {
            guard let k = rows.firstIndex(where: { $0.number == headerRow }) else {
                throw WorkbookError(
                    usage: "row \(headerRow) of the sheet '\(name)' is blank; the rows that hold something are \(Self.rowRanges(rows.map(\.number)))")
            }
            header = k
        } else {
            header = Self.likelyHeader(rows)
        }
        // Notes under the table: after a blank row, rows of one filled cell to the end.
        var bodyEnd = rows.count
        var k = rows.count - 1
        while k > header + 1, rows[k].cells.count <= 1 { k -= 1 }
        if k + 1 < rows.count, rows[k + 1].number > rows[k].number + 1 { bodyEnd = k + 1 }

        let width = max(rows[header].cells.last.map { $0.column + 1 } ?? 0, rows[(header + 1)..<bodyEnd].map { ($0.cells.last?.column ?? -1) + 1 }.max() ?? 0)
        var names = [String](repeating: "", count: width)
        for cell in rows[header].cells { names[cell.column] = cell.shown.trimmingCharacters(in: .whitespaces) }
        let identifiers = CSV.identifiers(of: names)
        for name in types.keys.sorted() where !identifiers.contains(name) {
            throw WorkbookError(usage: "the sheet '\(self.sheets[index].name)' has no column '\(name)'; its columns are \(identifiers.joined(separator: ", "))")
        }
        let body = rows[(header + 1)..<bodyEnd]
        let columnTypes = (0..<width).map { c in
            identifiers[c] == ""
                ? ColumnType.text : types[identifiers[c]] ?? Self.type(of: body.lazy.compactMap { row in row.cells.first { $0.column == c }?.value })
        }
        let table = Table(columns: (0..<width).map { Column(identifiers[$0], title: names[$0].isEmpty ? identifiers[$0] : names[$0], type: columnTypes[$0]) })
        var cells = [TableCell](repeating: .value(.missing), count: width)
        for row in body {
            for c in 0..<width { cells[c] = .value(.missing) }
            for cell in row.cells {
                var value = cell.value
                if types[identifiers[cell.column]] != nil, case .text = value {
                    value = CellValue.parse(cell.shown, as: columnTypes[cell.column])
                }
                cells[cell.column] = .shown(value, cell.shown)
            }
            do { try table.appendRow(cells: cells) } catch {
                throw WorkbookError("the sheet '\(name)' row \(row.number) cannot be held: \(error)")
            }
        }
        // Written to CSV as Excel opens it: UTF-8 with a mark, CRLF.
        table.csvFormat = CSVFormat(encoding: .utf8, byteOrderMark: true, delimiter: 0x2C, lineBreak: [0x0D, 0x0A])
        return SheetTable(
            sheet: name, table: table, headerRow: rows[header].number, rowNumbers: body.map(\.number),
            rowsAbove: rows[..<header].map(\.number), rowsBelow: rows[bodyEnd...].map(\.number), uncomputed: uncomputed, computed: computed)
    }

    /// The row most likely to be the header: the first to fill two or more cells, all text, when
    /// every row above it (at most ten) fills at most one (a title); else the first.
    static func likelyHeader(_ rows: [SheetRow]) -> Int {
        guard let k = rows.prefix(11).firstIndex(where: { $0.cells.count >= 2 }), k > 0 else { return 0 }
        let named = rows[k].cells.allSatisfy { if case .text = $0.value { true } else { false } }
        return named ? k : 0
    }

    /// The type most of a column's values have: numbers (decimal when any is), dates, truth
    /// values or text (text on a tie), as a CSV column's type is found.
    static func type<S: Sequence>(of values: S) -> ColumnType where S.Element == CellValue {
        var integers = 0, decimals = 0, dates = 0, booleans = 0, texts = 0
        for value in values {
            switch value {
            case .integer: integers += 1
            case .decimal: decimals += 1
            case .date: dates += 1
            case .boolean: booleans += 1
            case .text: texts += 1
            case .missing, .error: break
            }
        }
        let numbers = integers + decimals
        let most = max(numbers, dates, booleans, texts)
        guard most > 0, texts < most else { return .text }
        if numbers == most { return decimals > 0 ? .decimal : .integer }
        return dates == most ? .date : .boolean
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
