import Foundation
import TrellisGrid
import TrellisText
import TrellisWorkbook

/// A sheet of a workbook — `.xlsx`, `.xlsm`, `.ods` or a legacy `.xls`, recognised by its content whatever its
/// name: the sheet ``SourceRequest/sheet`` names, or the one selected when it was saved. Its
/// cells keep their values and the text the program shows (``Workbook``); the header row is
/// found as ``Workbook/table(sheet:headerRow:types:)`` says, or given (`--header-row`).
public enum WorkbookSourceKind: SourceKind {
    public static func recognizes(_ request: SourceRequest) -> Bool {
        request.table == nil && request.query == nil && (Workbook.mayBe(request.head(8)) || request.sheet != nil)
    }

    public static func open(_ request: SourceRequest) throws(InputError) -> GridDataSource {
        let shown = request.shown
        if let option = request.csvOptionGiven, option != "--header-row" {
            throw InputError(.usage, "'\(option)' reads CSV files; a workbook's cells carry their own types and text")
        }
        let bytes = request.name == "-" ? request.readStandardInput() : try FileBytes.read(request.name.isEmpty ? "" : request.path, shown: shown)
        guard Workbook.mayBe(bytes.prefix(8)) else {
            throw InputError(.usage, "'--sheet' picks a sheet of a workbook (.xlsx, .ods, .xls); \(shown) is not one")
        }
        return try open(bytes, request)
    }

    /// The sheet `request` names of the workbook whose file is `bytes` (read from a file, or
    /// from standard input, which is read before it is known to be a workbook).
    static func open(_ bytes: [UInt8], _ request: SourceRequest) throws(InputError) -> GridDataSource {
        let shown = request.shown
        do throws(WorkbookError) {
            let workbook = try Workbook(bytes: bytes)
            var index = workbook.activeSheet
            if let name = request.sheet {
                guard let k = workbook.sheetIndex(named: name) else {
                    throw WorkbookError(
                        usage: "\(shown) has no sheet '\(Excerpt.of(name))'; its sheets are "
                            + workbook.sheets.enumerated().map { "\($0.offset + 1) '\($0.element.name)'" }.joined(separator: ", "))
                }
                index = k
            }
            let read = try workbook.table(sheet: index, headerRow: request.headerRow, types: request.types)
            read.table.readingNotes = notes(read, workbook: workbook, index: index, named: request.sheet != nil, shown: shown)
            read.table.origin = SheetOrigin(workbook: workbook, sheet: index, rows: read.rowNumbers)
            return read.table
        } catch {
            throw InputError(error.usage ? .usage : .data, error.usage ? error.problem : "\(shown): \(error)")
        }
    }

    /// What a reader of the sheet should hear: which sheet was read of several, rows kept out
    /// of the table, formulas computed or left empty.
    static func notes(_ read: SheetTable, workbook: Workbook, index: Int, named: Bool, shown: String) -> [String] {
        var notes: [String] = []
        if workbook.sheets.count > 1, !named {
            let others = workbook.sheets.enumerated().filter { $0.offset != index }.prefix(5).map { "'\($0.element.name)'" }
            notes.append(
                "note: reading the sheet '\(read.sheet)' of \(shown), the one selected when it was saved "
                    + "(\(index + 1) of \(workbook.sheets.count); also \(others.joined(separator: ", "))"
                    + (workbook.sheets.count > 6 ? ", …" : "") + "); --sheet NAME reads another")
        }
        if !read.rowsAbove.isEmpty {
            notes.append(
                "note: row\(read.rowsAbove.count == 1 ? "" : "s") \(Workbook.rowRanges(read.rowsAbove)) of the sheet "
                    + "\(read.rowsAbove.count == 1 ? "is" : "are") above its header (row \(read.headerRow)), a title: kept out of the rows; "
                    + "--header-row N names another header row")
        }
        if !read.rowsBelow.isEmpty {
            notes.append(
                "note: row\(read.rowsBelow.count == 1 ? "" : "s") \(Workbook.rowRanges(read.rowsBelow)) of the sheet, under the table "
                    + "after a blank row, \(read.rowsBelow.count == 1 ? "is a note" : "are notes") (one cell each): kept out of the rows")
        }
        if read.computed > 0 {
            notes.append(
                "note: \(read.computed) formula\(read.computed == 1 ? "" : "s") had no saved value "
                    + (workbook.recalculatesOnLoad
                        ? "(the workbook asks to be computed when opened, as openpyxl's and XlsxWriter's do)" : "(as openpyxl saves them)")
                    + ": computed here")
        }
        if !read.uncomputed.isEmpty {
            let cells = read.uncomputed.prefix(5).joined(separator: ", ") + (read.uncomputed.count > 5 ? ", …" : "")
            notes.append(
                "warning: \(read.uncomputed.count) formula\(read.uncomputed.count == 1 ? "" : "s") had no saved value and use what is not "
                    + "computed here (\(cells)): read as empty; open and save the workbook in Excel or LibreOffice to save their values")
        }
        return notes
    }
}

/// A table's sheet of a workbook, with where each of its rows is: what writing the workbook back
/// with the rows moved needs.
package struct SheetOrigin: Sendable {
    package var workbook: Workbook
    package var sheet: Int
    package var rows: [Int]
}
