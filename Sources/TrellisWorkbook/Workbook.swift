import Foundation
import TrellisGrid

/// A spreadsheet workbook — Office Open XML (`.xlsx`, `.xlsm`, as Excel, WPS, LibreOffice,
/// openpyxl and XlsxWriter write it) or OpenDocument (`.ods`) — opened to read its sheets.
///
/// ```swift
/// let workbook = try Workbook(bytes: [UInt8](Data(contentsOf: url)))
/// workbook.sheets.map(\.name)              // ["成绩", "说明"]
/// let sheet = try workbook.read(sheet: workbook.activeSheet)
/// sheet.rows[0].cells[0].shown             // "学号"
/// ```
///
/// A workbook is recognised by its content (``mayBe(_:)``, then its parts), not its name. What is read of a
/// cell is its value (a number, a date, text, a truth value; an error such as `#N/A` is missing)
/// and the text the program shows for it (its number format applied), and its formula if it
/// has one: a sort orders by the value and prints the shown text.
public struct Workbook: Sendable {
    public enum Kind: String, Sendable {
        /// Office Open XML: `.xlsx`, `.xlsm`.
        case xlsx
        /// OpenDocument spreadsheet: `.ods`.
        case ods
        /// A legacy Excel 97–2003 workbook (`.xls`, BIFF8), read only.
        case xls
    }

    /// One sheet of the workbook, in the order of its tabs.
    public struct Sheet: Sendable, Equatable {
        public var name: String
        /// Whether its tab is hidden.
        public var hidden: Bool
        /// Why it holds no table to read (a chart sheet), when it does not.
        public var notATable: String?
        /// Its part in the package (xlsx), or its place among the tables (ods).
        var part: String
    }

    public let kind: Kind
    public let sheets: [Sheet]
    /// The sheet whose tab is selected when the workbook opens.
    public let activeSheet: Int
    /// Whether dates count from 1904 (Excel for Mac's old default) rather than from 1900.
    public let date1904: Bool
    /// Whether the workbook asks to have its formulas computed when it is opened (XlsxWriter
    /// writes so, saving 0 as every formula's value): its formulas' saved values are not read.
    public let recalculatesOnLoad: Bool
    /// The package's parts (none for a legacy `.xls`).
    let archive: ZipArchive
    /// A legacy `.xls`'s workbook stream, read.
    let legacy: XLSReader.Book?
    let sharedStringsPart: String?
    let stylesPart: String?

    /// Whether a file whose first bytes are `head` may be a workbook: a ZIP package, or the
    /// compound file of a legacy `.xls` (a ZIP or a compound file of another kind is found so on
    /// opening).
    public static func mayBe(_ head: some Collection<UInt8>) -> Bool {
        ZipArchive.looksLikeZip(head) || CompoundFile.looksLikeCompoundFile(head)
    }

    /// Opens the workbook whose file is `bytes`.
    public init(bytes: [UInt8]) throws(WorkbookError) {
        if CompoundFile.looksLikeCompoundFile(bytes.prefix(8)) {
            let book = try XLSReader.book(bytes)
            kind = .xls
            legacy = book
            sheets = book.sheets
            activeSheet = book.active
            date1904 = book.date1904
            recalculatesOnLoad = false
            sharedStringsPart = nil
            stylesPart = nil
            archive = ZipArchive.empty
            return
        }
        legacy = nil
        let archive: ZipArchive
        do { archive = try ZipArchive(bytes: bytes) } catch {
            throw WorkbookError("it starts as a ZIP package (an .xlsx or .ods workbook), but \(error.problem)")
        }
        self.archive = archive
        if archive.entry(named: "content.xml") != nil,
            let mimetype = try? archive.read("mimetype", limit: 200).map({ String(decoding: $0, as: UTF8.self) }),
            mimetype.hasPrefix("application/vnd.oasis.opendocument.spreadsheet")
        {
            kind = .ods
            let (sheets, active) = try ODSReader.sheets(archive)
            self.sheets = sheets
            activeSheet = active
            date1904 = false
            recalculatesOnLoad = false
            sharedStringsPart = nil
            stylesPart = nil
            return
        }
        if let mimetype = try? archive.read("mimetype", limit: 200).map({ String(decoding: $0, as: UTF8.self) }),
            mimetype.hasPrefix("application/vnd.oasis.opendocument")
        {
            throw WorkbookError("it is an OpenDocument file of another kind (\(mimetype)), not a spreadsheet")
        }
        guard let main = try Self.officeDocument(archive) else {
            if archive.entry(named: "EncryptedPackage") != nil {
                throw WorkbookError("it is encrypted (the workbook has a password to open it): save it without one")
            }
            throw WorkbookError(
                "it is a ZIP file but not a workbook: it has no '_rels/.rels' naming a workbook part, as an .xlsx has, "
                    + "nor the 'mimetype' of an .ods")
        }
        kind = .xlsx
        let info = try XLSXReader.workbook(archive, part: main)
        sheets = info.sheets
        activeSheet = info.active
        date1904 = info.date1904
        recalculatesOnLoad = info.recalculates
        sharedStringsPart = info.sharedStrings
        stylesPart = info.styles
    }

    /// The workbook part `_rels/.rels` names (`xl/workbook.xml`).
    static func officeDocument(_ archive: ZipArchive) throws(WorkbookError) -> String? {
        guard let rels = try read(archive, "_rels/.rels") else { return nil }
        let relationships = try XLSXReader.relationships(rels, part: "_rels/.rels", base: "")
        return relationships.values.first { $0.type.hasSuffix("/officeDocument") }?.target
    }

    /// The bytes of the part `name`, or `nil` when the package has none.
    static func read(_ archive: ZipArchive, _ name: String) throws(WorkbookError) -> [UInt8]? {
        do { return try archive.read(name) } catch { throw WorkbookError(error) }
    }

    /// The sheet a user named: by its name (exactly, then ignoring case and surrounding spaces),
    /// or by its place counted from 1.
    public func sheetIndex(named name: String) -> Int? {
        if let k = sheets.firstIndex(where: { $0.name == name }) { return k }
        let folded = name.trimmingCharacters(in: .whitespaces).lowercased()
        if let k = sheets.firstIndex(where: { $0.name.trimmingCharacters(in: .whitespaces).lowercased() == folded }) { return k }
        if let n = Int(name), n >= 1, n <= sheets.count { return n - 1 }
        return nil
    }

    /// Reads every row of the sheet at `index` that holds a cell, handing each to `body` in
    /// order, as the workbook saved them (formulas without a saved value are left so; see
    /// ``read(sheet:)``).
    public func readRows(ofSheet index: Int, _ body: (SheetRow) throws(WorkbookError) -> Void) throws(WorkbookError) {
        try readRows(ofSheet: index, rowsHint: { _ in }, body)
    }

    /// ``readRows(ofSheet:_:)``, telling `rowsHint` the last row the sheet says it has (an
    /// `.xlsx` sheet's `<dimension>`), before its rows, when it says.
    func readRows(ofSheet index: Int, rowsHint: (Int) -> Void, _ body: (SheetRow) throws(WorkbookError) -> Void) throws(WorkbookError) {
        guard sheets.indices.contains(index) else {
            throw WorkbookError("there is no sheet \(index + 1); the workbook has \(sheets.count)")
        }
        let sheet = sheets[index]
        if let why = sheet.notATable { throw WorkbookError("the sheet '\(sheet.name)' is \(why), not a table of cells") }
        switch kind {
        case .xlsx:
            try XLSXReader.readRows(of: self, sheet: sheet, rowsHint: rowsHint, body)
        case .ods:
            try ODSReader.readRows(of: self, sheet: index, body)
        case .xls:
            try XLSReader.readRows(of: legacy!, sheet: index, body)
        }
    }

    /// The sheet at `index`, read whole, the formulas saved without a value computed where
    /// they use what ``FormulaCells`` computes (the others missing).
    public func read(sheet index: Int) throws(WorkbookError) -> SheetCells {
        var rows: [SheetRow] = []
        try readRows(ofSheet: index) { row throws(WorkbookError) in rows.append(row) }
        var formulas = FormulaCells(rows: rows, date1904: date1904, formats: kind == .xlsx ? try cellFormats() : [])
        let (computed, uncomputed) = formulas.computeMissingValues()
        return SheetCells(name: sheets[index].name, rows: formulas.rows, computed: computed, uncomputed: uncomputed)
    }
}

/// A sheet's cells as read: its rows that hold anything, in order.
public struct SheetCells: Sendable {
    public var name: String
    public var rows: [SheetRow]
    /// Formula cells without a saved value that were computed.
    public var computed = 0
    /// Formula cells without a saved value that could not be computed (left missing), as `D5`.
    public var uncomputed: [String] = []
}

/// One row of a sheet: its number (1 is the first row) and the cells that hold something.
public struct SheetRow: Sendable, Equatable {
    /// The row's number on the sheet, from 1.
    public var number: Int
    /// Its cells that hold a value or a formula, left to right.
    public var cells: [SheetCell]

    public init(number: Int, cells: [SheetCell]) {
        self.number = number
        self.cells = cells
    }
}

/// One cell as read from a workbook.
public struct SheetCell: Sendable, Equatable {
    /// Its column, from 0 (A).
    public var column: Int
    /// What it holds: a number, a date, text, a truth value; missing for an error (`#N/A`) and
    /// for a formula whose value is not saved and could not be computed.
    public var value: CellValue
    /// What the program shows: the number format applied to the value (`88.67%`, `2024/3/1`),
    /// the error's text (`#N/A`).
    public var shown: String
    /// The formula, without its `=`, when the cell has one (as the workbook writes it).
    public var formula: String?
    /// Whether the workbook saved no value for its formula (openpyxl saves none).
    public var formulaWithoutValue = false
    /// The number format the cell is shown with (xlsx), to show a computed value as the program would.
    var format: Int = -1

    public init(column: Int, value: CellValue, shown: String, formula: String? = nil) {
        self.column = column
        self.value = value
        self.shown = shown
        self.formula = formula
    }
}

extension SheetCell {
    /// A column's letters: 0 → `A`, 26 → `AA`.
    public static func columnName(_ column: Int) -> String {
        var n = column + 1
        var letters: [Character] = []
        while n > 0 {
            let r = (n - 1) % 26
            letters.insert(Character(Unicode.Scalar(UInt8(65 + r))), at: 0)
            n = (n - 1) / 26
        }
        return String(letters)
    }
}
