import Foundation
import TrellisGrid

/// Reading OpenDocument spreadsheets (`.ods`, ODF 1.2/1.3 as LibreOffice writes them): the
/// tables of `content.xml`, the selected one from `settings.xml`, and each cell's value with the
/// text the program showed for it (a cell's `<text:p>` is its shown text, so no format needs
/// applying).
enum ODSReader {
    static func sheets(_ archive: ZipArchive) throws(WorkbookError) -> ([Workbook.Sheet], Int) {
        guard let content = try Workbook.read(archive, "content.xml") else {
            throw WorkbookError("the OpenDocument package has no 'content.xml'")
        }
        var sheets: [Workbook.Sheet] = []
        try content.withUnsafeBufferPointer { buffer throws(WorkbookError) in
            var scanner = XMLScanner(buffer, part: "content.xml")
            while true {
                let token = try scanner.next()
                if case .finished = token { break }
                guard case .start(let name, let attributes, let empty) = token, scanner.isNamed(name, "table") else { continue }
                let sheetName = try scanner.attributeString("name", in: attributes) ?? "Sheet\(sheets.count + 1)"
                sheets.append(Workbook.Sheet(name: sheetName, hidden: false, notATable: nil, part: String(sheets.count)))
                if !empty { try scanner.skipElement() }
            }
        }
        guard !sheets.isEmpty else { throw WorkbookError(part: "content.xml", "the spreadsheet has no tables") }
        var active = 0
        if let settings = try? Workbook.read(archive, "settings.xml"), let name = try? activeTable(settings),
            let k = sheets.firstIndex(where: { $0.name == name })
        {
            active = k
        }
        return (sheets, active)
    }

    /// The `ActiveTable` setting: the name of the table selected when the file was saved.
    static func activeTable(_ bytes: [UInt8]) throws(WorkbookError) -> String? {
        try bytes.withUnsafeBufferPointer { buffer throws(WorkbookError) in
            var scanner = XMLScanner(buffer, part: "settings.xml")
            while true {
                let token = try scanner.next()
                if case .finished = token { return nil }
                guard case .start(let name, let attributes, let empty) = token, !empty, scanner.isNamed(name, "config-item"),
                    try scanner.attributeString("name", in: attributes) == "ActiveTable"
                else { continue }
                return try scanner.elementText()
            }
        }
    }

    static func readRows(of workbook: Workbook, sheet index: Int, _ body: (SheetRow) throws(WorkbookError) -> Void) throws(WorkbookError) {
        guard let content = try Workbook.read(workbook.archive, "content.xml") else {
            throw WorkbookError("the OpenDocument package has no 'content.xml'")
        }
        try readRows(content: content, table: index, body)
    }

    /// The rows of table `index` of a `content.xml`.
    static func readRows(content: [UInt8], table index: Int, _ body: (SheetRow) throws(WorkbookError) -> Void) throws(WorkbookError) {
        try content.withUnsafeBufferPointer { buffer throws(WorkbookError) in
            var scanner = XMLScanner(buffer, part: "content.xml")
            var tables = 0
            while true {
                let token = try scanner.next()
                if case .finished = token { return }
                guard case .start(let name, _, let empty) = token, scanner.isNamed(name, "table") else { continue }
                if tables == index {
                    if !empty { try readTable(&scanner, body) }
                    return
                }
                tables += 1
                if !empty { try scanner.skipElement() }
            }
        }
    }

    /// The rows of the `<table:table>` whose start tag was just read. Rows and cells repeated
    /// (`number-rows-repeated`, `number-columns-repeated`) are repeated where they hold
    /// something; empty ones only move the count on, so that the million empty rows a sheet's
    /// end is written as cost nothing.
    static func readTable(_ scanner: inout XMLScanner, _ body: (SheetRow) throws(WorkbookError) -> Void) throws(WorkbookError) {
        var rowNumber = 0
        try forEachRow(&scanner) { scanner, name, attributes, empty throws(WorkbookError) in
            let repeated = max(1, scanner.attributeInt("number-rows-repeated", in: attributes) ?? 1)
            let cells = empty ? [] : try readRow(&scanner)
            if cells.isEmpty {
                rowNumber += repeated
                return
            }
            guard rowNumber + repeated <= XLSXReader.maximumRows else {
                throw scanner.error("rows past the last row a sheet has (\(XLSXReader.maximumRows))")
            }
            for k in 0..<repeated {
                rowNumber += 1
                // Each row of a repeated one reads its formulas moved to it.
                var row = SheetRow(number: rowNumber, cells: cells)
                if k > 0 {
                    for c in row.cells.indices {
                        if let formula = row.cells[c].formula { row.cells[c].formula = ODSFormula.shifted(formula, rows: k) ?? formula }
                    }
                }
                try body(row)
            }
        }
    }

    /// Calls `row` with each `<table:table-row>` of the `<table:table>` whose start tag was just
    /// read — its name, attributes and whether it is empty, the scanner just after its start tag
    /// (`row` reads or skips its content) — the rows in header rows and row groups included;
    /// anything else in the table is passed over. The scanner ends after the table.
    static func forEachRow(
        _ scanner: inout XMLScanner,
        _ row: (inout XMLScanner, Range<Int>, Range<Int>, Bool) throws(WorkbookError) -> Void
    ) throws(WorkbookError) {
        var depth = 1
        while depth > 0 {
            switch try scanner.next() {
            case .start(let name, let attributes, let empty):
                if scanner.isNamed(name, "table-row") {
                    try row(&scanner, name, attributes, empty)
                } else if !empty {
                    // Header rows, row groups: their rows are the table's.
                    if scanner.isNamed(name, "table-header-rows") || scanner.isNamed(name, "table-row-group")
                        || scanner.isNamed(name, "table-rows")
                    {
                        depth += 1
                    } else {
                        try scanner.skipElement()
                    }
                }
            case .close:
                depth -= 1
            case .finished:
                throw scanner.error("the document ends inside a table")
            default:
                break
            }
        }
    }

    /// The cells of the `<table:table-row>` whose start tag was just read.
    static func readRow(_ scanner: inout XMLScanner) throws(WorkbookError) -> [SheetCell] {
        var cells: [SheetCell] = []
        var column = 0
        while true {
            switch try scanner.next() {
            case .start(let name, let attributes, let empty):
                let covered = scanner.isNamed(name, "covered-table-cell")
                guard covered || scanner.isNamed(name, "table-cell") else {
                    if !empty { try scanner.skipElement() }
                    continue
                }
                let repeated = max(1, scanner.attributeInt("number-columns-repeated", in: attributes) ?? 1)
                let cell = try readCell(&scanner, attributes: attributes, empty: empty, column: column)
                if let cell, !covered {
                    guard column + repeated <= XLSXReader.maximumColumns else {
                        throw scanner.error("cells past the last column a sheet has (\(XLSXReader.maximumColumns))")
                    }
                    for k in 0..<repeated {
                        var copy = cell
                        copy.column = column + k
                        cells.append(copy)
                    }
                }
                column += repeated
            case .close:
                return cells
            case .finished:
                throw scanner.error("the document ends inside a row")
            default:
                break
            }
        }
    }

    static func readCell(_ scanner: inout XMLScanner, attributes: Range<Int>, empty: Bool, column: Int) throws(WorkbookError) -> SheetCell? {
        let shown = empty ? "" : try cellText(&scanner)
        let type = try scanner.attributeString("value-type", in: attributes)
        let formula = try scanner.attributeString("formula", in: attributes)
        // LibreOffice marks an error result (`#N/A`, `Err:502`) with its own value type.
        if let range = scanner.attribute("calcext:value-type", in: attributes, qualified: true), scanner.equals(range, "error") {
            var cell = SheetCell(column: column, value: .missing, shown: shown)
            cell.formula = formula.map(stripNamespace)
            return cell
        }
        var value: CellValue
        switch type {
        case "float", "percentage", "currency":
            guard let number = try scanner.attributeString("value", in: attributes).flatMap(Double.init) else {
                value = shown.isEmpty ? .missing : .text(shown)
                break
            }
            value = number == number.rounded() && abs(number) < 9.0e15 ? .integer(Int(number)) : .decimal(number)
        case "date":
            value =
                try scanner.attributeString("date-value", in: attributes).flatMap(XLSXReader.isoSeconds)
                .map { .date(Date(timeIntervalSince1970: $0)) } ?? (shown.isEmpty ? .missing : .text(shown))
        case "time":
            value =
                try scanner.attributeString("time-value", in: attributes).flatMap(durationSeconds)
                .map { .date(Date(timeIntervalSince1970: Double(WorkbookDates.epoch1900) * 86_400 + $0)) }
                ?? (shown.isEmpty ? .missing : .text(shown))
        case "boolean":
            let truth = try scanner.attributeString("boolean-value", in: attributes)
            value = .boolean(truth == "true" || truth == "1")
        default:
            let text = try scanner.attributeString("string-value", in: attributes) ?? shown
            value = text.isEmpty ? .missing : .text(text)
        }
        if value == .missing, shown.isEmpty, formula == nil { return nil }
        var cell = SheetCell(column: column, value: value, shown: shown.isEmpty && value != .missing ? value.description : shown)
        cell.formula = formula.map(stripNamespace)
        return cell
    }

    /// A formula without its namespace (`of:=SUM([.C2:.D2])` → `=SUM([.C2:.D2])`).
    static func stripNamespace(_ formula: String) -> String {
        guard let colon = formula.firstIndex(of: ":"), formula[formula.index(after: colon)...].hasPrefix("=") else { return formula }
        return String(formula[formula.index(after: colon)...])
    }

    /// The shown text of a cell: its paragraphs joined by line breaks, `<text:s text:c="n"/>`
    /// as n spaces, tabs and line breaks as themselves; annotations (comments) left out.
    static func cellText(_ scanner: inout XMLScanner) throws(WorkbookError) -> String {
        var out: [UInt8] = []
        var depth = 1
        var paragraphs = 0
        var inParagraph = 0
        while depth > 0 {
            switch try scanner.next() {
            case .start(let name, let attributes, let empty):
                if scanner.isNamed(name, "annotation") {
                    if !empty { try scanner.skipElement() }
                    continue
                }
                if scanner.isNamed(name, "p") || scanner.isNamed(name, "h") {
                    if paragraphs > 0 { out.append(0x0A) }
                    paragraphs += 1
                    if !empty { inParagraph = depth + 1 }
                } else if scanner.isNamed(name, "s") {
                    let n = min(max(1, scanner.attributeInt("c", in: attributes) ?? 1), 1000)
                    out.append(contentsOf: repeatElement(0x20, count: n))
                } else if scanner.isNamed(name, "tab") {
                    out.append(0x09)
                } else if scanner.isNamed(name, "line-break") {
                    out.append(0x0A)
                }
                if !empty { depth += 1 }
            case .close:
                if depth == inParagraph { inParagraph = 0 }
                depth -= 1
            case .text(let range):
                if inParagraph > 0 { try scanner.appendText(range, to: &out) }
            case .cdata(let range):
                if inParagraph > 0 { out.append(contentsOf: scanner.bytes[range]) }
            case .finished:
                throw scanner.error("the document ends inside a cell")
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Seconds of an ISO 8601 duration as ODF writes a time (`PT12H20M00S`, `PT12H20M00.5S`).
    static func durationSeconds(_ text: String) -> Double? {
        guard text.hasPrefix("PT") || text.hasPrefix("-PT") else { return nil }
        var total = 0.0
        var number = ""
        for ch in text.drop(while: { $0 != "T" }).dropFirst() {
            switch ch {
            case "H", "M", "S":
                guard let v = Double(number) else { return nil }
                total += v * (ch == "H" ? 3600 : ch == "M" ? 60 : 1)
                number = ""
            default:
                number.append(ch)
            }
        }
        return text.hasPrefix("-") ? -total : total
    }
}
