import Foundation
import Testing
import TrellisGrid
import TrellisTestSupport

@testable import TrellisWorkbook

/// `.ods` workbooks written back with one table's rows moved: each row element carried whole,
/// its formulas moved with it, everything else as it was.
@Suite("Writing .ods workbooks back")
struct ODSWritingTests {
    static let office =
        "xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" xmlns:table=\"urn:oasis:names:tc:opendocument:xmlns:table:1.0\" "
        + "xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" "
        + "xmlns:of=\"urn:oasis:names:tc:opendocument:xmlns:of:1.2\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\""

    static func text(_ t: String) -> String { "<table:table-cell office:value-type=\"string\"><text:p>\(t)</text:p></table:table-cell>" }

    /// An `.ods` of one table `数据` of `rows` random body rows under a header — an id, a name
    /// (some with a note, some a link), two numbers, a formula of the row's own cells, some rows
    /// written once for two identical rows (`number-rows-repeated`) — with a 合计 row of
    /// `SUM` over the body, and a second table that refers to the first.
    static func randomWorkbook(rows: Int, using random: inout SeededRandom, body extra: String = "")
        throws -> (bytes: [UInt8], cells: [[String]])
    {
        var data = ""
        var expected: [[String]] = []
        var r = 2
        while expected.count < rows {
            let a = Int.random(in: 0...100, using: &random), b = Int.random(in: 0...100, using: &random)
            let twice = expected.count + 2 <= rows && Int.random(in: 0..<5, using: &random) == 0
            let name = ["甲", "乙", "a&amp;b", "&lt;x&gt;"].randomElement(using: &random)!
            let shownName = name.replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&lt;", with: "<")
                .replacingOccurrences(of: "&gt;", with: ">")
            let nameCell: String
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                nameCell =
                    "<table:table-cell office:value-type=\"string\"><office:annotation><dc:creator>审</dc:creator><text:p>核对 \(r)</text:p>"
                    + "</office:annotation><text:p>\(name)</text:p></table:table-cell>"
            case 1:
                nameCell =
                    "<table:table-cell office:value-type=\"string\"><text:p><text:a xlink:href=\"https://example.com/\(r)\">\(name)</text:a>"
                    + "</text:p></table:table-cell>"
            default:
                nameCell = text(name)
            }
            // A row repeated is the same row twice: its id is a formula of its own row too.
            let id =
                twice
                ? "<table:table-cell table:formula=\"of:=ROW([.A\(r)])\" office:value-type=\"float\" office:value=\"0\"><text:p>-</text:p></table:table-cell>"
                : text("R\(r)")
            data +=
                "<table:table-row\(twice ? " table:number-rows-repeated=\"2\"" : "")>\(id)\(nameCell)"
                + "<table:table-cell office:value-type=\"float\" office:value=\"\(a)\"><text:p>\(a)</text:p></table:table-cell>"
                + "<table:table-cell office:value-type=\"float\" office:value=\"\(b)\"><text:p>\(b)</text:p></table:table-cell>"
                + "<table:table-cell table:formula=\"of:=[.C\(r)]+[.$D\(r)]&amp;&quot;[.Z9]&quot;\" office:value-type=\"string\">"
                + "<text:p>\(a + b)</text:p></table:table-cell></table:table-row>"
            for _ in 0..<(twice ? 2 : 1) { expected.append([twice ? "-" : "R\(r)", shownName, String(a), String(b), String(a + b)]) }
            r += twice ? 2 : 1
        }
        let content =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<office:document-content \(office) office:version=\"1.3\"><office:body><office:spreadsheet>"
            + "<table:table table:name=\"数据\"><table:table-column table:number-columns-repeated=\"5\"/>"
            + "<table:table-row>\(text("id"))\(text("name"))\(text("a"))\(text("b"))\(text("sum"))</table:table-row>"
            + data + extra
            + "<table:table-row><table:table-cell office:value-type=\"string\"><text:p>合计</text:p></table:table-cell>"
            + "<table:table-cell table:number-columns-repeated=\"1\"/><table:table-cell table:formula=\"of:=SUM([.C2:.C\(r - 1)])\" "
            + "office:value-type=\"float\" office:value=\"0\"><text:p>-</text:p></table:table-cell></table:table-row>"
            + "<table:table-row table:number-rows-repeated=\"1048000\"><table:table-cell table:number-columns-repeated=\"5\"/></table:table-row>"
            + "</table:table><table:table table:name=\"引用\"><table:table-row><table:table-cell table:formula=\"of:=[$数据.C2]\" "
            + "office:value-type=\"float\" office:value=\"0\"><text:p>-</text:p></table:table-cell></table:table-row></table:table>"
            + "</office:spreadsheet></office:body></office:document-content>"
        var writer = ZipWriter()
        try writer.add("mimetype", Array("application/vnd.oasis.opendocument.spreadsheet".utf8), stored: true)
        try writer.add("content.xml", Array(content.utf8))
        try writer.add(
            "META-INF/manifest.xml",
            Array(
                ("<?xml version=\"1.0\"?><manifest:manifest xmlns:manifest=\"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0\">"
                    + "<manifest:file-entry manifest:full-path=\"/\" manifest:media-type=\"application/vnd.oasis.opendocument.spreadsheet\"/>"
                    + "<manifest:file-entry manifest:full-path=\"content.xml\" manifest:media-type=\"text/xml\"/></manifest:manifest>").utf8))
        return (try writer.finish(), expected)
    }

    /// The formulas of the table's body rows, by sheet row.
    static func formulas(_ bytes: [UInt8]) throws -> [Int: [String]] {
        var out: [Int: [String]] = [:]
        try Workbook(bytes: bytes).readRows(ofSheet: 0) { row in
            let formulas = row.cells.compactMap(\.formula)
            if !formulas.isEmpty { out[row.number] = formulas }
        }
        return out
    }

    @Test(
        "property: a random order moves each row whole — notes, links, formulas moved with it, repeated rows written one by one; the rest stays",
        arguments: 1...8)
    func randomOrders(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let count = Int.random(in: 2...30, using: &random)
        let (bytes, cells) = try Self.randomWorkbook(rows: count, using: &random)
        let workbook = try Workbook(bytes: bytes)
        let read = try workbook.table(sheet: 0)
        #expect(read.rowNumbers == Array(2...(count + 2)))
        // The body less the 合计 row, in a random order.
        let order = Array(0..<count).shuffled(using: &random) + [count]
        let written = try workbook.reordered(sheet: 0, rows: read.rowNumbers, order: order)
        let rows = try WorkbookWritingTests.shown(written)
        #expect(rows.first == ["id", "name", "a", "b", "sum"])
        #expect(Array(rows.dropFirst().prefix(count)) == order.prefix(count).map { cells[$0] })
        let formulas = try Self.formulas(written)
        for row in 2...(count + 1) {
            let moved = try #require(formulas[row])
            #expect(moved.last == "=[.C\(row)]+[.$D\(row)]&\"[.Z9]\"", "row \(row): the string's text is not a reference")
            if moved.count == 2 { #expect(moved.first == "=ROW([.A\(row)])") }
        }
        // The 合计 row and the other table are as they were.
        #expect(formulas[count + 2] == ["=SUM([.C2:.C\(count + 1)])"])
        let before = try WorkbookWritingTests.parts(bytes), after = try WorkbookWritingTests.parts(written)
        #expect(try ZipArchive(bytes: written).entries.map(\.name) == ["mimetype", "content.xml", "META-INF/manifest.xml"])
        for (name, part) in before where name != "content.xml" { #expect(after[name] == part, "\(name)") }
        let other = { (content: [UInt8]) in String(decoding: content, as: UTF8.self).components(separatedBy: "<table:table table:name=\"引用\">").last }
        #expect(other(after["content.xml"]!) == other(before["content.xml"]!))
        // Notes and links went with their rows: each row's note names the row it was written on.
        let text = String(decoding: after["content.xml"]!, as: UTF8.self)
        for (k, source) in order.prefix(count).enumerated() where cells[source][0].hasPrefix("R") {
            let sourceRow = Int(cells[source][0].dropFirst())!
            let original = String(decoding: before["content.xml"]!, as: UTF8.self)
            guard original.contains("核对 \(sourceRow)<") || original.contains("example.com/\(sourceRow)\"") else { continue }
            let marker = original.contains("核对 \(sourceRow)<") ? "核对 \(sourceRow)<" : "example.com/\(sourceRow)\""
            let rowText = text.components(separatedBy: "<table:table-row").dropFirst(2 + k).first ?? ""
            #expect(rowText.contains(marker), "row \(k + 2) holds row \(sourceRow)'s note or link")
        }
    }

    @Test("fuzz: content changed anywhere is written back or refused, never a trap or a hang", arguments: 1...4)
    func fuzz(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let (bytes, _) = try Self.randomWorkbook(rows: 8, using: &random)
        let archive = try ZipArchive(bytes: bytes)
        let content = try #require(try archive.read("content.xml"))
        let alphabet = Array("<>/=\"'&;:[].$ 0123456789ACtablerowspannedrepeated-".utf8)
        for _ in 0..<80 {
            var changed = content
            for _ in 0..<Int.random(in: 1...5, using: &random) {
                let at = Int.random(in: 0..<changed.count, using: &random)
                if Bool.random(using: &random) { changed[at] = alphabet.randomElement(using: &random)! } else { changed.remove(at: at) }
            }
            var writer = ZipWriter()
            for entry in archive.entries {
                if entry.name == "content.xml" { try writer.add(entry.name, changed) } else { try writer.copy(entry, from: archive) }
            }
            do {
                let workbook = try Workbook(bytes: try writer.finish())
                let rows = try workbook.table(sheet: 0).rowNumbers
                _ = try workbook.reordered(sheet: 0, rows: rows, order: Array(rows.indices.reversed()))
            } catch {
                #expect(!String(describing: error).isEmpty)
            }
        }
    }

    @Test("the order that keeps every row where it was writes the package back as it was")
    func unchangedOrder() throws {
        var random = SeededRandom(seed: 7)
        let (bytes, _) = try Self.randomWorkbook(rows: 6, using: &random)
        let written = try Workbook(bytes: bytes).reordered(sheet: 0, rows: Array(2...8), order: Array(0...6))
        #expect(try WorkbookWritingTests.parts(written) == WorkbookWritingTests.parts(bytes))
    }

    @Test("merged cells or an array over moved rows, and a formula that would leave the sheet, are refused, naming them")
    func refusals() throws {
        let cases: [(String, String)] = [
            (
                "<table:table-row><table:table-cell table:number-rows-spanned=\"2\" office:value-type=\"string\"><text:p>并</text:p></table:table-cell></table:table-row>"
                    + "<table:table-row><table:covered-table-cell/></table:table-row>",
                "has merged cells over rows"
            ),
            (
                "<table:table-row><table:table-cell table:formula=\"of:={1;2}\" table:number-matrix-rows-spanned=\"2\" office:value-type=\"float\" office:value=\"1\"><text:p>1</text:p></table:table-cell></table:table-row>"
                    + "<table:table-row><table:table-cell office:value-type=\"float\" office:value=\"2\"><text:p>2</text:p></table:table-cell></table:table-row>",
                "has an array formula over rows"
            ),
        ]
        for (extra, message) in cases {
            var random = SeededRandom(seed: 3)
            let (bytes, _) = try Self.randomWorkbook(rows: 3, using: &random, body: extra)
            let workbook = try Workbook(bytes: bytes)
            let rows = try workbook.table(sheet: 0).rowNumbers
            #expect {
                try workbook.reordered(sheet: 0, rows: rows, order: Array(rows.indices.reversed()))
            } throws: { error in
                (error as? WorkbookError)?.problem.contains(message) == true
            }
        }
        // A reference to the row above the first moved down to row 2's place leaves the sheet.
        var random = SeededRandom(seed: 3)
        let (bytes, _) = try Self.randomWorkbook(
            rows: 3, using: &random,
            body:
                "<table:table-row><table:table-cell table:formula=\"of:=[.A4]\" office:value-type=\"float\" office:value=\"1\"><text:p>1</text:p></table:table-cell></table:table-row>"
        )
        let workbook = try Workbook(bytes: bytes)
        let rows = try workbook.table(sheet: 0).rowNumbers
        #expect {
            try workbook.reordered(sheet: 0, rows: rows, order: Array(rows.indices.reversed()))
        } throws: { error in
            (error as? WorkbookError)?.problem.contains("cannot be moved with its row") == true
        }
    }

    @Test("OpenFormula references: relative rows move, absolute ones and strings stay, quoted sheet names are passed over")
    func formulaReferences() {
        #expect(ODSFormula.shifted("of:=SUM([.C5:.E5])", rows: 4) == "of:=SUM([.C9:.E9])")
        #expect(ODSFormula.shifted("of:=[.$C$5]+[.C$5]+[.$C5]", rows: -2) == "of:=[.$C$5]+[.C$5]+[.$C3]")
        #expect(ODSFormula.shifted("of:=['a.b:c'.C5]&\"[.C5]\"", rows: 1) == "of:=['a.b:c'.C6]&\"[.C5]\"")
        #expect(ODSFormula.shifted("of:=[$Sheet2.A1:.B2]", rows: 3) == "of:=[$Sheet2.A4:.B5]")
        #expect(ODSFormula.shifted("of:=SUM([.A:.A])", rows: 3) == "of:=SUM([.A:.A])")
        #expect(ODSFormula.shifted("of:=[.C2]", rows: -2) == nil)
        #expect(ODSFormula.shifted("of:=[.C2", rows: 1) == nil)
        #expect(ODSFormula.shifted("of:=[#REF!]", rows: 1) == nil)
    }

    @Test(
        "LibreOffice's own .ods sorted and written back reopens in LibreOffice as sorted, each 总分 the SUM of its own row", .enabled(if: LibreOffice.path != nil)
    )
    func reopenedByLibreOffice() throws {
        let original = try ZipArchiveTests.bytes("openpyxl-scores.ods")
        let workbook = try Workbook(bytes: original)
        let read = try workbook.table(sheet: 0)
        // By 总分 descending, 平均 kept last: S01 183, S04 171, S02 170, S03 163.
        let written = try workbook.reordered(sheet: 0, rows: read.rowNumbers, order: [0, 3, 1, 2, 4])
        let formulas = try Self.formulas(written)
        #expect(formulas[2] == ["=SUM([.C2:.D2])"])
        #expect(formulas[3] == ["=SUM([.C3:.D3])"])
        let csv = try LibreOffice.shownCSV(of: written, name: "book.ods")
        #expect(csv.hasPrefix("学号,姓名,语文,数学,总分\nS01,张伟,88,95,183\nS04,刘洋,81,90,171\nS02,李娜,92,78,170\nS03,王芳,75,88,163\n平均,,84,87.75"), "\(csv)")
    }
}
