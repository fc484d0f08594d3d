import Foundation
import Testing
import TrellisGrid
import TrellisTestSupport

@testable import TrellisWorkbook

/// Sheets read from workbooks the programs wrote (`Fixtures/README.md`): each cell's value and
/// the text the program shows for it.
@Suite("Reading workbooks")
struct WorkbookReadingTests {
    static func workbook(_ name: String) throws -> Workbook { try Workbook(bytes: try ZipArchiveTests.bytes(name)) }

    static func shownRows(_ workbook: Workbook, sheet: Int? = nil) throws -> [[String]] {
        let cells = try workbook.read(sheet: sheet ?? workbook.activeSheet)
        return cells.rows.map { row in
            var out = [String](repeating: "", count: (row.cells.last?.column ?? -1) + 1)
            for cell in row.cells { out[cell.column] = cell.shown }
            return out
        }
    }

    @Test("the same four students read alike from LibreOffice's .xlsx and .ods and from pandas' .xlsx")
    func scores() throws {
        for file in ["libreoffice-scores.xlsx", "openpyxl-scores.ods"] {
            let workbook = try Self.workbook(file)
            #expect(workbook.sheets.map(\.name) == ["成绩"], "\(file)")
            let rows = try Self.shownRows(workbook)
            #expect(rows.first == ["学号", "姓名", "语文", "数学", "总分"], "\(file)")
            #expect(rows[1] == ["S01", "张伟", "88", "95", "183"], "\(file)")
            #expect(rows.last == ["平均", "", "84", "87.75"], "\(file)")
            let cells = try workbook.read(sheet: 0)
            let total = try #require(cells.rows[1].cells.last)
            #expect(total.value == .integer(183))
            #expect(total.formula?.contains("SUM") == true, "\(file): \(String(describing: total.formula))")
        }
        let pandas = try Self.workbook("pandas-xlsxwriter-scores.xlsx")
        let rows = try Self.shownRows(pandas)
        #expect(rows.first == ["学号", "姓名", "语文", "数学"])
        #expect(rows.count == 5)
    }

    @Test("openpyxl saves formulas without their values: they are computed")
    func openpyxlFormulas() throws {
        let cells = try Self.workbook("openpyxl-scores.xlsx").read(sheet: 0)
        let total = try #require(cells.rows[1].cells.last)
        #expect(total.formula == "SUM(C2:D2)")
        #expect(total.value == .integer(183) && total.shown == "183")
        #expect(cells.computed == 6 && cells.uncomputed.isEmpty)
        var saved: [SheetRow] = []
        try Self.workbook("openpyxl-scores.xlsx").readRows(ofSheet: 0) { row in saved.append(row) }
        #expect(saved[1].cells.last?.formulaWithoutValue == true, "as saved")
    }

    @Test("a sheet read a piece at a time (pieces of any size) reads as the sheet read whole, prefixed names too")
    func pieces() throws {
        var random = SeededRandom(seed: 7)
        for file in ["excel-layout-scores.xlsx", "libreoffice-sales.xlsx", "xlsxwriter-groups.xlsx", "openpyxl-formulas.xlsx"] {
            let workbook = try Self.workbook(file)
            for sheet in workbook.sheets where sheet.notATable == nil {
                let xml = try #require(try workbook.archive.read(sheet.part))
                var whole: [SheetRow] = []
                try XLSXReader.readRows(
                    xml: xml, part: sheet.part, strings: try XLSXReader.sharedStrings(workbook.archive, part: workbook.sharedStringsPart),
                    formats: try workbook.cellFormats(), date1904: workbook.date1904, recalculates: workbook.recalculatesOnLoad
                ) { whole.append($0) }
                #expect(!whole.isEmpty)
                for _ in 0..<12 {
                    var pieces: [SheetRow] = []
                    let size = Int.random(in: 1...300, using: &random)
                    try XLSXReader.readRows(of: workbook, sheet: sheet, piece: size) { pieces.append($0) }
                    #expect(pieces == whole, "\(file) \(sheet.name) in pieces of \(size) bytes")
                }
            }
        }
        // Read on other threads a piece at a time, a sheet makes the table it makes in turn.
        var randomBooks: [Workbook] = []
        for seed in 1...3 {
            var r = SeededRandom(seed: UInt64(seed))
            randomBooks.append(try Workbook(bytes: try WorkbookWritingTests.randomWorkbook(rows: 60, using: &r).bytes))
        }
        for workbook in [try Self.workbook("excel-layout-scores.xlsx"), try Self.workbook("libreoffice-sales.xlsx")] + randomBooks {
            let sheet = workbook.sheets.count > 1 ? 1 : 0
            var inTurn = SheetAssembly(sheet: workbook.sheets[sheet].name, headerRow: nil, types: [:])
            for row in try workbook.read(sheet: sheet).rows { _ = try inTurn.add(row) }
            let expected = try #require(try inTurn.finish())
            for size in [40, 97, 333, 4096] {
                var apart = SheetAssembly(sheet: workbook.sheets[sheet].name, headerRow: nil, types: [:])
                #expect(try XLSXReader.readTable(of: workbook, sheet: workbook.sheets[sheet], into: &apart, piece: size))
                let read = try #require(try apart.finish())
                #expect(read.rowNumbers == expected.rowNumbers && read.rowsAbove == expected.rowsAbove && read.rowsBelow == expected.rowsBelow)
                #expect(read.table.columns == expected.table.columns)
                for row in 0..<expected.table.rowCount {
                    for column in 0..<expected.table.columns.count {
                        #expect(read.table.value(row: row, column: column) == expected.table.value(row: row, column: column))
                        #expect(read.table.text(row: row, column: column) == expected.table.text(row: row, column: column))
                    }
                }
            }
        }
        // `x:`-prefixed names, as the .NET Open XML SDK writes them.
        let original = try ZipArchiveTests.bytes("excel-layout-scores.xlsx")
        let archive = try ZipArchive(bytes: original)
        var writer = ZipWriter()
        for entry in archive.entries {
            if entry.name == "xl/worksheets/sheet1.xml" {
                var text = String(decoding: try archive.read(entry), as: UTF8.self)
                for name in [
                    "worksheet", "sheetData", "row", "c", "v", "f", "dimension", "sheetViews", "sheetView", "sheetFormatPr", "mergeCells",
                    "mergeCell", "hyperlinks", "hyperlink", "pageMargins", "legacyDrawing",
                ] {
                    text = text.replacingOccurrences(of: "<\(name) ", with: "<x:\(name) ").replacingOccurrences(of: "<\(name)>", with: "<x:\(name)>")
                        .replacingOccurrences(of: "</\(name)>", with: "</x:\(name)>")
                }
                text = text.replacingOccurrences(of: "xmlns=", with: "xmlns:x=")
                try writer.add(entry.name, Array(text.utf8))
            } else {
                try writer.copy(entry, from: archive)
            }
        }
        let prefixed = try Workbook(bytes: try writer.finish())
        let plain = try Self.workbook("excel-layout-scores.xlsx")
        for size in [7, 64, 1 << 20] {
            var a: [SheetRow] = [], b: [SheetRow] = []
            try XLSXReader.readRows(of: prefixed, sheet: prefixed.sheets[0], piece: size) { a.append($0) }
            try XLSXReader.readRows(of: plain, sheet: plain.sheets[0], piece: size) { b.append($0) }
            #expect(a == b && a.count == 6, "pieces of \(size)")
        }
    }

    @Test("fuzz: a sheet's XML changed or cut anywhere reads as rows or an error, never a trap or a hang", arguments: 1...6)
    func fuzzSheetXML(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let xlsx = try ZipArchive(bytes: try ZipArchiveTests.bytes("libreoffice-sales.xlsx"))
        let sheet = try #require(try xlsx.read("xl/worksheets/sheet2.xml") ?? xlsx.read("xl/worksheets/sheet1.xml"))
        let ods = try #require(try ZipArchive(bytes: try ZipArchiveTests.bytes("libreoffice-sales.ods")).read("content.xml"))
        let alphabet = Array("<>/=\"'&;#x:rcvt0123456789 AZ!-?[".utf8)
        for _ in 0..<150 {
            for (original, isSheet) in [(sheet, true), (ods, false)] {
                var bytes = original
                for _ in 0..<Int.random(in: 1...6, using: &random) {
                    let at = Int.random(in: 0..<bytes.count, using: &random)
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: bytes[at] = alphabet.randomElement(using: &random)!
                    case 1: bytes.remove(at: at)
                    default: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...200, using: &random)))
                    }
                    if bytes.isEmpty { bytes = [0x3C] }
                }
                var rows = 0
                do {
                    if isSheet {
                        try XLSXReader.readRows(
                            xml: bytes, part: "sheet", strings: ["a", "b"], formats: [.general], date1904: false, recalculates: false
                        ) { _ in rows += 1 }
                    } else {
                        for table in 0..<2 { try ODSReader.readRows(content: bytes, table: table) { _ in rows += 1 } }
                    }
                } catch {
                    #expect(!error.description.isEmpty)
                }
                #expect(rows <= 2_000)
            }
        }
    }
}

@Suite("Number formats")
struct NumberFormatTests {
    @Test(
        "codes applied as Excel and LibreOffice show them",
        arguments: [
            ("General", 0.1 + 0.2, "0.3"),
            ("General", 1.0 / 3, "0.333333333"),
            ("General", 123_456_789_012.0, "1.23457E+11"),
            ("General", -42, "-42"),
            ("0", 2.5, "3"),
            ("0", -2.5, "-3"),
            ("0.00", 2.675, "2.68"),
            ("0.00", -0.001, "0.00"),
            ("#,##0", 1_234_567.4, "1,234,567"),
            ("#,##0.00", 1200, "1,200.00"),
            ("#,##0.00", 0.5, "0.50"),
            ("#.##", 0.5, ".5"),
            ("0%", 0.125, "13%"),
            ("0.00%", 0.88666, "88.67%"),
            ("0.0%", 1, "100.0%"),
            ("0.00E+00", 12345, "1.23E+04"),
            ("0.00E+00", 0.000123, "1.23E-04"),
            ("##0.0E+0", 12345, "12.3E+3"),
            ("[$¥-804]#,##0.00", 1200, "¥1,200.00"),
            ("\"¥\"#,##0.00;\"¥\"-#,##0.00", -1200, "¥-1,200.00"),
            ("#,##0.00_);(#,##0.00)", -5, "(5.00)"),
            ("#,##0.00_);(#,##0.00)", 5, "5.00 "),
            ("0.00;-0.00;\"零\"", 0, "零"),
            ("[>=100]\"高\";[<60]\"低\";0", 120, "高"),
            ("[>=100]\"高\";[<60]\"低\";0", 75, "75"),
            ("#,##0,\"千\"", 1_234_567, "1,235千"),
            ("0.0,,", 12_345_678, "12.3"),
            ("000-0000", 5_551_234, "555-1234"),
            ("00000", 42, "00042"),
            ("# ?/?", 1.5, "1 1/2"),
            ("# ??/??", 0.3333, "1/3"),
            ("?/8", 0.375, "3/8"),
            ("@", 42, "42"),
            ("yyyy/m/d", 45352, "2024/3/1"),
            ("yyyy-mm-dd", 45352, "2024-03-01"),
            ("yyyy\"年\"m\"月\"d\"日\"", 45352, "2024年3月1日"),
            ("[$-804]yyyy\"年\"m\"月\"d\"日\" aaaa", 45352, "2024年3月1日 星期五"),
            ("d-mmm-yy", 45352, "1-Mar-24"),
            ("mmmm d, yyyy", 45352, "March 1, 2024"),
            ("dddd", 45352, "Friday"),
            ("h:mm", 45352.5138889, "12:20"),
            ("h:mm AM/PM", 45352.0138889, "12:20 AM"),
            ("h:mm:ss AM/PM", 45352.5868056, "2:05:00 PM"),
            ("上午/下午h\"时\"mm\"分\"", 45352.5868056, "下午2时05分"),
            ("yyyy/m/d h:mm", 45352.5138889, "2024/3/1 12:20"),
            ("[h]:mm:ss", 1.5, "36:00:00"),
            ("mm:ss.0", 0.000_705_9, "01:01.0"),
            ("m/d/yyyy", 60, "2/29/1900"),
            ("m/d/yyyy", 61, "3/1/1900"),
            ("m/d/yyyy", 1, "1/1/1900"),
        ] as [(String, Double, String)])
    func format(code: String, value: Double, shown: String) {
        #expect(NumberFormat(code).format(value) == shown, "\(code) of \(value)")
    }

    @Test("the 1904 date system counts from 1904-01-01")
    func date1904() {
        #expect(NumberFormat("yyyy-mm-dd").format(0, date1904: true) == "1904-01-01")
        #expect(NumberFormat("yyyy-mm-dd").format(43_890, date1904: true) == "2024-03-01")
    }

    @Test("a format's text section shows text cells")
    func textSection() {
        #expect(NumberFormat("0.00;-0.00;0;\"备注：\"@").format(text: "缺考") == "备注：缺考")
        #expect(NumberFormat("0.00").format(text: "缺考") == "缺考")
    }

    @Test("date formats are told from number formats")
    func kinds() {
        #expect(NumberFormat("yyyy/m/d").isDate)
        #expect(NumberFormat("[$-804]aaaa").isDate)
        #expect(NumberFormat("h:mm").isDate)
        #expect(!NumberFormat("0.00%").isDate)
        #expect(!NumberFormat("\"m\"0").isDate)
        #expect(!NumberFormat("[Red]0").isDate)
    }
}

@Suite("Sheets as tables")
struct SheetTableTests {
    /// The rows of LibreOffice's export of a sheet as shown, the empty ones left out.
    static func libreOfficeRows(_ name: String) throws -> [[String]] {
        let text = String(decoding: try ZipArchiveTests.bytes(name), as: UTF8.self)
        return try CSV.parse(Data(text.utf8)).map { row in
            var row = row
            while row.last == "" { row.removeLast() }
            return row
        }.filter { !$0.isEmpty }
    }

    @Test(
        "a sheet reads as LibreOffice shows it, from openpyxl's file and from LibreOffice's own .xlsx, .ods and .xls",
        arguments: ["openpyxl-sales.xlsx", "libreoffice-sales.xlsx", "libreoffice-sales.ods", "libreoffice-sales.xls"])
    func shownAsLibreOffice(file: String) throws {
        let workbook = try WorkbookReadingTests.workbook(file)
        let sheet = try #require(workbook.sheetIndex(named: "销售"))
        #expect(workbook.sheetIndex(named: " 销售 ") == sheet)
        #expect(workbook.sheetIndex(named: "2") == 1)
        let rows = try WorkbookReadingTests.shownRows(workbook, sheet: sheet)
        let expected = try Self.libreOfficeRows("libreoffice-sales-shown.csv")
        #expect(rows.count == expected.count)
        for (ours, theirs) in zip(rows, expected) { #expect(ours == theirs) }
    }

    @Test(
        "the header under a title, the rows under it, and a note after a blank row kept out",
        arguments: ["openpyxl-sales.xlsx", "libreoffice-sales.ods", "libreoffice-sales.xls"])
    func shape(file: String) throws {
        let workbook = try WorkbookReadingTests.workbook(file)
        let read = try workbook.table(sheet: 1)
        #expect(read.headerRow == 3)
        #expect(read.rowsAbove == [1])
        #expect(read.rowsBelow == [10])
        #expect(read.rowNumbers == [4, 5, 6, 7, 8])
        #expect(read.table.columns.map(\.identifier) == ["日期", "地区", "销售员", "销售额", "利润率", "单价"])
        #expect(read.table.columns.map(\.type) == [.date, .text, .text, .decimal, .decimal, .decimal])
        // Values are the cells' own; the text is as shown.
        #expect(read.table.value(row: 0, column: 4) == .decimal(0.0867))
        #expect(read.table.text(row: 0, column: 4) == "8.67%")
        #expect(read.table.text(row: 0, column: 0) == "2024/3/1")
        #expect(read.table.value(row: 0, column: 0) == .date(ISO8601DateFormatter().date(from: "2024-03-01T00:00:00Z")!))
        #expect(read.table.text(row: 4, column: 3) == "11,305.19")
        #expect(read.computed == (file.hasPrefix("openpyxl") ? 3 : 0))
        // --header-row names another row; a blank one is refused, naming the rows that hold something.
        #expect(try workbook.table(sheet: 1, headerRow: 1).rowsAbove == [])
        #expect(throws: WorkbookError.self) { try workbook.table(sheet: 1, headerRow: 2) }
        do {
            _ = try workbook.table(sheet: 1, headerRow: 2)
        } catch {
            #expect(error.usage)
            #expect(error.problem == "row 2 of the sheet '销售' is blank; the rows that hold something are 1, 3–8, 10")
        }
    }

    @Test("XlsxWriter's saved zeros are not read: its SUBTOTAL rows are computed, leaving subtotals out of the total; 1904 dates")
    func xlsxWriterGroups() throws {
        let workbook = try WorkbookReadingTests.workbook("xlsxwriter-groups.xlsx")
        #expect(workbook.date1904)
        #expect(workbook.recalculatesOnLoad)
        let read = try workbook.table(sheet: 0)
        let shown = (0..<read.table.rowCount).map { read.table.text(row: $0, column: 3) }
        #expect(shown == ["12,500.50", "15,320.25", "27,820.75", "9,800.00", "11,200.00", "6,400.75", "27,400.75", "55,221.50"])
        #expect(read.table.text(row: 0, column: 2) == "2024-03-01")
        #expect(read.table.text(row: 0, column: 1) == "张伟", "rich text runs joined")
        #expect(read.computed == 3 && read.uncomputed.isEmpty)
    }

    @Test("formulas without saved values are computed as LibreOffice computes them, or left empty and named")
    func formulas() throws {
        let read = try WorkbookReadingTests.workbook("openpyxl-formulas.xlsx").table(sheet: 0)
        let libreOffice = try Self.libreOfficeRows("libreoffice-formulas-shown.csv").dropFirst()
        #expect(read.uncomputed == ["B10", "B11"])
        for (k, row) in libreOffice.enumerated() {
            let ours = read.table.text(row: k, column: 1)
            switch row[0] {
            case "别表", "未知": #expect(ours == "", "\(row[0]): not computed, not guessed")
            // LibreOffice gives a formula ending in % a percent format; Excel keeps General.
            case "百分": #expect(ours == "0.04")
            default: #expect(ours == row[1], "\(row[0])")
            }
        }
    }

    @Test("references move with a formula copied: relative ones only, and not past the sheet")
    func shifting() {
        #expect(Formula.shifted("SUM(C5:E5)", rows: 4, columns: 0) == "SUM(C9:E9)")
        #expect(Formula.shifted("$A$1+A1+$A1+A$1", rows: 2, columns: 1) == "$A$1+B3+$A3+B$1")
        #expect(Formula.shifted("'其他 表'!B2*2", rows: 1, columns: 0) == "'其他 表'!B3*2")
        #expect(Formula.shifted("LOG10(A1)&\"A1\"", rows: 1, columns: 0) == "LOG10(A2)&\"A1\"")
        #expect(Formula.shifted("A1", rows: -1, columns: 0) == nil)
    }

    @Test("what is not a readable workbook is named, never trusted")
    func refused() throws {
        let dtd = try ZipArchiveTests.bytes("dtd-entities.xlsx")
        #expect {
            _ = try Workbook(bytes: dtd).table(sheet: 0)
        } throws: { error in
            (error as? WorkbookError)?.description.hasPrefix(
                "the part 'xl/worksheets/sheet1.xml': it has a document type declaration (<!DOCTYPE>), which is refused") == true
        }
        #expect {
            _ = try Workbook(bytes: try ZipArchiveTests.bytes("not-a-workbook.zip"))
        } throws: { error in
            (error as? WorkbookError)?.problem.hasPrefix("it is a ZIP file but not a workbook") == true
        }
        var cut = try ZipArchiveTests.bytes("openpyxl-sales.xlsx")
        cut.removeLast(cut.count / 3)
        #expect {
            _ = try Workbook(bytes: cut)
        } throws: { error in
            (error as? WorkbookError)?.problem.hasPrefix("it starts as a ZIP package (an .xlsx or .ods workbook), but") == true
        }
    }
}
