import Foundation
import Testing
import TrellisGrid
import TrellisTestSupport

@testable import TrellisWorkbook

/// Workbooks written back with one sheet's rows moved and nothing else changed.
@Suite("Writing workbooks back")
struct WorkbookWritingTests {
    /// Each part's uncompressed bytes, by name.
    static func parts(_ bytes: [UInt8]) throws -> [String: [UInt8]] {
        let archive = try ZipArchive(bytes: bytes)
        var out: [String: [UInt8]] = [:]
        for entry in archive.entries { out[entry.name] = try archive.read(entry) }
        return out
    }

    /// The rows of sheet `sheet` as shown, each row's cells by column.
    static func shown(_ bytes: [UInt8], sheet: Int = 0) throws -> [[String]] {
        try WorkbookReadingTests.shownRows(try Workbook(bytes: bytes), sheet: sheet)
    }

    @Test("Excel's layout: rows move whole (values, styles, height, shared formulas written out, hyperlink, note); calcChain is dropped; the rest is as it was")
    func excelLayout() throws {
        let original = try ZipArchiveTests.bytes("excel-layout-scores.xlsx")
        let workbook = try Workbook(bytes: original)
        let read = try workbook.table(sheet: 0)
        #expect(read.rowNumbers == [2, 3, 4, 5, 6])
        // By 总分, descending, the 平均 row kept last: S01 183, S04 171, S02 170, S03 163.
        let written = try workbook.reordered(sheet: 0, rows: read.rowNumbers, order: [0, 3, 1, 2, 4])
        let before = try Self.parts(original), after = try Self.parts(written)
        #expect(after["xl/calcChain.xml"] == nil)
        let changed = Set(before.keys.filter { before[$0] != after[$0] })
        #expect(
            changed == [
                "xl/worksheets/sheet1.xml", "xl/comments1.xml", "xl/drawings/vmlDrawing1.vml", "xl/calcChain.xml",
                "xl/_rels/workbook.xml.rels", "[Content_Types].xml",
            ])
        for part in ["xl/_rels/workbook.xml.rels", "[Content_Types].xml"] {
            let text = String(decoding: try #require(after[part]), as: UTF8.self)
            #expect(!text.contains("calcChain"), "\(part) no longer names calcChain")
            #expect(text.count > 100)
        }
        // Parts not changed are copied as they were stored, compressed bytes and all.
        let a = try ZipArchive(bytes: original), b = try ZipArchive(bytes: written)
        for entry in a.entries where !changed.contains(entry.name) {
            let other = try #require(b.entry(named: entry.name))
            #expect(original[try a.dataRange(of: entry)] == written[try b.dataRange(of: other)], "\(entry.name)")
        }
        #expect(
            try Self.shown(written) == [
                ["学号", "姓名", "语文", "数学", "总分", "得分率"],
                ["S01", "张伟", "88", "95", "183.0 ", "91.50%"],
                ["S04", "刘洋", "81", "90", "171.0 ", "85.50%"],
                ["S02", "李娜", "92", "78", "170.0 ", "85.00%"],
                ["S03", "王芳", "75", "88", "163.0 ", "81.50%"],
                ["平均", "", "84.0 ", "87.8 ", "171.8 "],
            ])
        let sheet = String(decoding: try #require(after["xl/worksheets/sheet1.xml"]), as: UTF8.self)
        // Shared formulas written out, each referring to its own row.
        for row in 2...5 { #expect(sheet.contains("<f>C\(row)+D\(row)</f>") && sheet.contains("<f>E\(row)/200</f>"), "row \(row)") }
        #expect(!sheet.contains("t=\"shared\""))
        // 李娜 moved from row 3 to row 4: her row height and the hyperlink on her name with her.
        #expect(sheet.contains("<row r=\"4\" spans=\"1:6\" ht=\"24\" customHeight=\"1\">"))
        #expect(sheet.contains("<hyperlink ref=\"B4\" r:id=\"rId2\"/>"))
        #expect(sheet.contains("<mergeCell ref=\"A6:B6\"/>"), "the 平均 row stays")
        // 王芳's note (D4) moved with her to row 5, its shape too.
        #expect(String(decoding: try #require(after["xl/comments1.xml"]), as: UTF8.self).contains("<comment ref=\"D5\""))
        let vml = String(decoding: try #require(after["xl/drawings/vmlDrawing1.vml"]), as: UTF8.self)
        #expect(vml.contains("<x:Row>4</x:Row>") && vml.contains("4, 15, 3, 10, 6, 15, 7, 4"))
    }

    @Test("the order that keeps every row where it was writes the package back with the same parts")
    func unchangedOrder() throws {
        let original = try ZipArchiveTests.bytes("excel-layout-scores.xlsx")
        let workbook = try Workbook(bytes: original)
        let written = try workbook.reordered(sheet: 0, rows: [2, 3, 4, 5, 6], order: [0, 1, 2, 3, 4])
        #expect(try Self.parts(written) == (try Self.parts(original)))
    }

    @Test("what cannot move safely is refused, naming it: merged cells over moved rows, an array over rows, a formula off the sheet")
    func refusals() throws {
        let original = try ZipArchiveTests.bytes("excel-layout-scores.xlsx")
        func variant(_ change: (String) -> String) throws -> Workbook {
            let archive = try ZipArchive(bytes: original)
            var writer = ZipWriter()
            for entry in archive.entries {
                if entry.name == "xl/worksheets/sheet1.xml" {
                    try writer.add(entry.name, Array(change(String(decoding: try archive.read(entry), as: UTF8.self)).utf8))
                } else {
                    try writer.copy(entry, from: archive)
                }
            }
            return try Workbook(bytes: try writer.finish())
        }
        let cases: [(String, (String) -> String)] = [
            ("the merged cells C2:C3 cover rows 2–3, which the sort would move apart", { $0.replacingOccurrences(of: "A6:B6", with: "C2:C3") }),
            (
                "the array formula at C3 spans the rows of C3:C4",
                { $0.replacingOccurrences(of: "<c r=\"C3\"><v>92</v>", with: "<c r=\"C3\"><f t=\"array\" ref=\"C3:C4\">D3:D4*1</f><v>92</v>") }
            ),
            ("would refer past the sheet's edge", { $0.replacingOccurrences(of: "<c r=\"C5\"><v>81</v>", with: "<c r=\"C5\"><f>D2</f><v>81</v>") }),
        ]
        for (message, change) in cases {
            let workbook = try variant(change)
            #expect(throws: WorkbookError.self) { try workbook.reordered(sheet: 0, rows: [2, 3, 4, 5, 6], order: [3, 2, 1, 0, 4]) }
            do {
                _ = try workbook.reordered(sheet: 0, rows: [2, 3, 4, 5, 6], order: [3, 2, 1, 0, 4])
            } catch {
                #expect(error.description.contains(message), "\(error)")
            }
        }
        // An order that is not one of the rows.
        #expect(throws: WorkbookError.self) { try Workbook(bytes: original).reordered(sheet: 0, rows: [2, 3], order: [0, 0]) }
        // A legacy .xls is read only: said so.
        #expect(throws: WorkbookError.self) {
            try Workbook(bytes: try ZipArchiveTests.bytes("libreoffice-sales.xls")).reordered(sheet: 1, rows: [4, 5], order: [1, 0])
        }
    }

    /// A workbook of `rows` random rows under a header: an id, a name (inline string), two
    /// numbers, a formula of the row's own cells and a shared formula over the body.
    static func randomWorkbook(rows: Int, using random: inout SeededRandom) throws -> (bytes: [UInt8], cells: [[String]]) {
        var data = ""
        var expected: [[String]] = []
        for r in 2...(rows + 1) {
            let a = Int.random(in: 0...100, using: &random), b = Int.random(in: 0...100, using: &random)
            let name = ["甲", "乙", "丙", "丁", "a&b", "<x>"].randomElement(using: &random)!
            let shared = r == 2 ? "<f t=\"shared\" ref=\"F2:F\(rows + 1)\" si=\"0\">C2*2</f>" : "<f t=\"shared\" si=\"0\"/>"
            let escapedName = XLSXWriter.escaped(name)
            data +=
                "<row r=\"\(r)\"><c r=\"A\(r)\"><v>\(r - 1)</v></c><c r=\"B\(r)\" t=\"inlineStr\"><is><t>\(escapedName)</t></is></c>"
                + "<c r=\"C\(r)\"><v>\(a)</v></c><c r=\"D\(r)\"><v>\(b)</v></c><c r=\"E\(r)\"><f>C\(r)+D\(r)</f><v>\(a + b)</v></c>"
                + "<c r=\"F\(r)\">\(shared)<v>\(2 * a)</v></c></row>"
            expected.append([String(r - 1), name, String(a), String(b), String(a + b), String(2 * a)])
        }
        let sheet =
            "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"><sheetData>"
            + "<row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>id</t></is></c><c r=\"B1\" t=\"inlineStr\"><is><t>name</t></is></c>"
            + "<c r=\"C1\" t=\"inlineStr\"><is><t>a</t></is></c><c r=\"D1\" t=\"inlineStr\"><is><t>b</t></is></c>"
            + "<c r=\"E1\" t=\"inlineStr\"><is><t>sum</t></is></c><c r=\"F1\" t=\"inlineStr\"><is><t>double</t></is></c></row>"
            + data + "</sheetData></worksheet>"
        let main = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
        var writer = ZipWriter()
        try writer.add(
            "[Content_Types].xml",
            Array(
                ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">"
                    + "<Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/>"
                    + "<Default Extension=\"xml\" ContentType=\"application/xml\"/>"
                    + "<Override PartName=\"/xl/workbook.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml\"/>"
                    + "<Override PartName=\"/xl/worksheets/sheet1.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml\"/>"
                    + "</Types>").utf8))
        try writer.add(
            "_rels/.rels",
            Array(
                ("<?xml version=\"1.0\"?><Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
                    + "<Relationship Id=\"rId1\" Type=\"\(main)/officeDocument\" Target=\"xl/workbook.xml\"/></Relationships>").utf8))
        try writer.add(
            "xl/workbook.xml",
            Array(
                ("<?xml version=\"1.0\"?><workbook xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" xmlns:r=\"\(main)\">"
                    + "<sheets><sheet name=\"数据\" sheetId=\"1\" r:id=\"rId1\"/></sheets></workbook>").utf8))
        try writer.add(
            "xl/_rels/workbook.xml.rels",
            Array(
                ("<?xml version=\"1.0\"?><Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
                    + "<Relationship Id=\"rId1\" Type=\"\(main)/worksheet\" Target=\"worksheets/sheet1.xml\"/></Relationships>").utf8))
        try writer.add("xl/worksheets/sheet1.xml", Array(sheet.utf8))
        return (try writer.finish(), expected)
    }

    @Test("property: a random order of random rows moves each row's cells and formulas together; the other parts stay", arguments: 1...8)
    func randomOrders(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let count = Int.random(in: 1...40, using: &random)
        let (bytes, cells) = try Self.randomWorkbook(rows: count, using: &random)
        let workbook = try Workbook(bytes: bytes)
        let read = try workbook.table(sheet: 0)
        #expect(read.rowNumbers == Array(2...(count + 1)))
        let order = Array(0..<count).shuffled(using: &random)
        let written = try workbook.reordered(sheet: 0, rows: read.rowNumbers, order: order)
        let rows = try Self.shown(written)
        #expect(rows.first == ["id", "name", "a", "b", "sum", "double"])
        #expect(Array(rows.dropFirst()) == order.map { cells[$0] })
        // Every formula refers to its own row, and computes what is saved beside it.
        let again = try Workbook(bytes: written).read(sheet: 0)
        for row in again.rows.dropFirst() {
            let formulas = row.cells.compactMap(\.formula)
            #expect(formulas == ["C\(row.number)+D\(row.number)", "C\(row.number)*2"], "row \(row.number)")
        }
        let before = try Self.parts(bytes), after = try Self.parts(written)
        #expect(Set(before.keys) == Set(after.keys))
        for (name, part) in before where name != "xl/worksheets/sheet1.xml" { #expect(after[name] == part, "\(name)") }
    }

    @Test("openpyxl loads what is written: each row's formulas refer to their own row, beside the values saved for them", .enabled(if: Openpyxl.python != nil))
    func reopenedByOpenpyxl() throws {
        var random = SeededRandom(seed: 11)
        let (bytes, cells) = try Self.randomWorkbook(rows: 20, using: &random)
        let order = Array(0..<20).shuffled(using: &random)
        let written = try Workbook(bytes: bytes).reordered(sheet: 0, rows: Array(2...21), order: order)
        let formulas = try Openpyxl.rows(of: written)
        #expect(formulas.first == ["id", "name", "a", "b", "sum", "double"])
        for (k, row) in formulas.dropFirst().enumerated() {
            let r = k + 2
            #expect(Array(row.prefix(4)) == Array(cells[order[k]].prefix(4)), "row \(r)")
            #expect(Array(row.suffix(2)) == ["=C\(r)+D\(r)", "=C\(r)*2"], "row \(r)")
        }
        let saved = try Openpyxl.rows(of: written, savedValues: true)
        #expect(saved.dropFirst().map { Array($0.suffix(2)) } == order.map { Array(cells[$0].suffix(2)) })
        let layout = try Workbook(bytes: try ZipArchiveTests.bytes("excel-layout-scores.xlsx")).reordered(
            sheet: 0, rows: [2, 3, 4, 5, 6], order: [0, 3, 1, 2, 4])
        #expect(try Openpyxl.rows(of: layout).dropFirst().map(\.first) == ["S01", "S04", "S02", "S03", "平均"])
    }

    @Test("LibreOffice reopens what is written and computes what it shows", .enabled(if: LibreOffice.path != nil))
    func reopenedByLibreOffice() throws {
        let original = try ZipArchiveTests.bytes("excel-layout-scores.xlsx")
        let written = try Workbook(bytes: original).reordered(sheet: 0, rows: [2, 3, 4, 5, 6], order: [0, 3, 1, 2, 4])
        let csv = try LibreOffice.shownCSV(of: written)
        #expect(
            csv == """
                学号,姓名,语文,数学,总分,得分率
                S01,张伟,88,95,183.0 ,91.50%
                S04,刘洋,81,90,171.0 ,85.50%
                S02,李娜,92,78,170.0 ,85.00%
                S03,王芳,75,88,163.0 ,81.50%
                平均,,84.0 ,87.8 ,171.8 ,

                """)
        var random = SeededRandom(seed: 42)
        let (bytes, cells) = try Self.randomWorkbook(rows: 25, using: &random)
        let order = Array(0..<25).shuffled(using: &random)
        let shuffled = try Workbook(bytes: bytes).reordered(sheet: 0, rows: Array(2...26), order: order)
        let lines = try LibreOffice.shownCSV(of: shuffled).split(separator: "\n").dropFirst().map { try CSV.parse(Data($0.utf8)).first ?? [] }
        #expect(lines == order.map { cells[$0] })
    }
}
