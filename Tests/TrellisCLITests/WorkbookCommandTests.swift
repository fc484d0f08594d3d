import Foundation
import Testing
import TrellisCLI
import TrellisWorkbook

/// `trellis sort` of the workbooks the programs write (`TrellisWorkbookTests/Fixtures`).
@Suite("Sorting workbooks")
struct WorkbookCommandTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("TrellisWorkbookTests/Fixtures")

    static func fixture(_ name: String) throws -> Data { try Data(contentsOf: fixtures.appendingPathComponent(name)) }

    @Test("a sheet sorts by its values and prints what the program shows (CSV as Excel opens it: a mark, CRLF); the 平均 row is checked and stays last")
    func sortsShownText() throws {
        for file in ["openpyxl-sales.xlsx", "libreoffice-sales.ods"] {
            let result = try runInScratch(
                ["sort", "in", "--sheet", "销售", "--by", "利润率:desc", "--pin-bottom", "日期=平均", "--format", "csv"],
                files: ["in": try Self.fixture(file)])
            #expect(result.status == 0, "\(file): \(result.stderr)")
            #expect(
                result.stdout == """
                    \u{FEFF}日期,地区,销售员,销售额,利润率,单价\r
                    2024/3/31,华南,刘洋,"7,600.00",20.00%,¥88.00\r
                    2024/1/15,华北,李娜,"9,800.00",12.34%,¥99.50\r
                    2024/3/1,华东,张伟,"12,500.50",8.67%,"¥1,200.00"\r
                    2024/2/29,华东,王芳,"15,320.25",4.56%,"¥1,500.00"\r
                    平均,,,"11,305.19",11.39%,721.9\r

                    """, "\(file)")
            // The 平均 row agrees with its column as shown: no warning.
            #expect(!result.stderr.contains("warning"), "\(file): \(result.stderr)")
            #expect(result.stderr.contains("note: row 1 of the sheet is above its header (row 3), a title"), "\(file)")
        }
    }

    @Test("messages name a workbook's rows by the sheet's numbers, as Excel shows them")
    func sheetRowNumbers() throws {
        let result = try runInScratch(["sort", "in.xlsx", "--by", "销售额"], files: ["in.xlsx": try Self.fixture("openpyxl-sales.xlsx")])
        #expect(result.status == 0)
        // 平均 is the sheet's row 8 (under a title, a blank row and the header), the table's fifth.
        #expect(
            result.stderr.contains("hint: row 8 ('平均') looks like a summary row and is sorted with the others; --pin-bottom 日期=平均 keeps it last"),
            "\(result.stderr)")
        let csv = try runInScratch(["sort", "in.csv", "--by", "分数"], files: ["in.csv": Data("组号,分数\n组1,3\n组2,1\n平均,2\n".utf8)])
        #expect(csv.stderr.contains("hint: row 3 ('平均')"), "a CSV file's rows count from the header: \(csv.stderr)")
    }

    @Test("dates sort as dates, not as their text (2024/1/15 before 2024/2/29 before 2024/3/1)")
    func datesByValue() throws {
        let result = try runInScratch(
            ["sort", "in.xlsx", "--sheet", "2", "--by", "日期", "--pin-bottom", "日期=平均", "--format", "csv"],
            files: ["in.xlsx": try Self.fixture("openpyxl-sales.xlsx")])
        #expect(result.status == 0, "\(result.stderr)")
        let dates = result.stdout.split(separator: "\r\n").dropFirst().map { $0.split(separator: ",").first.map(String.init) ?? "" }
        #expect(dates == ["2024/1/15", "2024/2/29", "2024/3/1", "2024/3/31", "平均"])
        #expect(result.stderr.contains("note: 3 formulas had no saved value"), "\(result.stderr)")
    }

    @Test("the sheet selected when saved is read, and named when there are others; --sheet names one that is not there")
    func sheets() throws {
        let data = try Self.fixture("openpyxl-sales.xlsx")
        let chosen = try runInScratch(["sort", "in.xlsx", "--by", "销售额"], files: ["in.xlsx": data])
        #expect(chosen.status == 0)
        #expect(
            chosen.stderr.contains(
                "note: reading the sheet '销售' of in.xlsx, the one selected when it was saved (2 of 2; also '说明'); --sheet NAME reads another"
            ), "\(chosen.stderr)")
        let missing = try runInScratch(["sort", "in.xlsx", "--sheet", "成绩", "--by", "销售额"], files: ["in.xlsx": data])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("in.xlsx has no sheet '成绩'; its sheets are 1 '说明', 2 '销售'"), "\(missing.stderr)")
        let csv = try runInScratch(["sort", "in.csv", "--sheet", "1", "--by", "a"], files: ["in.csv": Data("a\n1\n".utf8)])
        #expect(csv.status == 64)
        #expect(csv.stderr.contains("'--sheet' picks a sheet of a workbook (.xlsx, .ods, .xls); in.csv is not one"), "\(csv.stderr)")
    }

    @Test("subtotal groups of a workbook sort within their groups, the SUBTOTAL rows computed and checked")
    func groups() throws {
        let result = try runInScratch(
            ["sort", "in.xlsx", "--by", "销售额:desc", "--format", "csv"], files: ["in.xlsx": try Self.fixture("xlsxwriter-groups.xlsx")])
        #expect(result.status == 0, "\(result.stderr)")
        let names = result.stdout.split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).prefix(2).joined(separator: " ") }
        #expect(names == ["\u{FEFF}地区 销售员", "华东 王芳", "华东 张伟", "华东 汇总 ", "华北 赵磊", "华北 李娜", "华北 周敏", "华北 汇总 ", "总计 "])
        #expect(result.stderr.contains("note: 2 subtotal groups by 地区"), "\(result.stderr)")
        #expect(!result.stderr.contains("warning"), "\(result.stderr)")
    }

    @Test("a legacy .xls sorts as its .xlsx does, from a file or standard input; it is read only")
    func legacyWorkbook() throws {
        let arguments = ["--sheet", "销售", "--by", "利润率:desc", "--pin-bottom", "日期=平均", "--format", "csv"]
        let xlsx = try runInScratch(["sort", "in"] + arguments, files: ["in": try Self.fixture("libreoffice-sales.xlsx")])
        let xls = try runInScratch(["sort", "in"] + arguments, files: ["in": try Self.fixture("libreoffice-sales.xls")])
        #expect(xls.status == 0, "\(xls.stderr)")
        #expect(xls.stdout == xlsx.stdout)
        #expect(xls.stdout.hasPrefix("\u{FEFF}日期,地区,销售员,销售额,利润率,单价\r\n2024/3/31,华南,刘洋,\"7,600.00\",20.00%,¥88.00\r\n"))
        let data = try Self.fixture("legacy-names.xls")
        var io = CommandIO(standardInput: { data })
        #expect(TrellisCommandLine.run(["sort", "-", "--by", "金额:desc", "--pin-bottom", "编号=合计", "--format", "csv"], io: &io) == 0, "\(io.stderr)")
        let lines = io.stdout.components(separatedBy: "\r\n")
        #expect(lines[1].hasPrefix("N0009,杜军桂,广州市天河区4号,\"99,931.66\",6.4%,2024年2月20日,TRUE,"), "\(lines[1])")
        #expect(lines[401] == "合计,,,\"20,222,874.00\",正,,TRUE,#DIV/0!")
        for output in ["out.xlsx", "out.xls"] {
            let written = try runInScratch(["sort", "in.xls", "--by", "金额", "-o", output], files: ["in.xls": data])
            #expect(written.status == 64)
            #expect(
                written.stderr.contains(
                    output == "out.xlsx" ? "from a legacy .xls workbook (read only)" : "would write a legacy .xls workbook, which is read only"),
                "\(written.stderr)")
            #expect(written.left.keys.sorted() == ["in.xls"], "nothing is written")
        }
    }

    @Test("-o FILE.ods writes an .ods back with the table's rows sorted, each 总分 formula moved with its row; over the input too")
    func writesODS() throws {
        let input = try Self.fixture("openpyxl-scores.ods")
        for output in ["out.ods", "in.ods"] {
            let result = try runInScratch(["sort", "in.ods", "--by", "总分:desc", "--pin-bottom", "学号=平均", "-o", output], files: ["in.ods": input])
            #expect(result.status == 0, "\(result.stderr)")
            let written = try #require(result.left[output])
            let csv = try runInScratch(["sort", "w.ods", "--format", "csv"], files: ["w.ods": written])
            #expect(csv.stdout == "\u{FEFF}学号,姓名,语文,数学,总分\r\nS01,张伟,88,95,183\r\nS04,刘洋,81,90,171\r\nS02,李娜,92,78,170\r\nS03,王芳,75,88,163\r\n平均,,84,87.75,\r\n")
            let content = String(decoding: try ZipArchive(bytes: [UInt8](written)).read("content.xml") ?? [], as: UTF8.self)
            #expect(content.contains("<text:p>S04</text:p>"))
            #expect(content.components(separatedBy: "of:=SUM([.C3:.D3])").count == 2, "S04's row, now row 3, sums row 3")
        }
    }

    @Test("a workbook on standard input is read as one")
    func standardInput() throws {
        let data = try Self.fixture("openpyxl-scores.xlsx")
        var io = CommandIO(standardInput: { data })
        #expect(TrellisCommandLine.run(["sort", "-", "--by", "总分:desc", "--pin-bottom", "学号=平均", "--format", "csv"], io: &io) == 0, "\(io.stderr)")
        #expect(io.stdout.hasPrefix("\u{FEFF}学号,姓名,语文,数学,总分\r\nS01,张伟,88,95,183\r\n"), "\(io.stdout)")
    }

    @Test(
        "what cannot be read or written is refused before anything is written",
        arguments: [
            ("dtd-entities.xlsx", ["-o", "out.csv"], 65, "it has a document type declaration (<!DOCTYPE>), which is refused"),
            ("not-a-workbook.zip", ["-o", "out.csv"], 65, "it is a ZIP file but not a workbook"),
            ("openpyxl-scores.xlsx", ["-o", "out.ods"], 64, "'-o out.ods' would write an .ods from an .xlsx workbook"),
            ("openpyxl-scores.ods", ["-o", "out.xlsx"], 64, "'-o out.xlsx' would write an .xlsx from an .ods workbook"),
            ("openpyxl-scores.xlsx", ["-o", "out.xlsm"], 64, ".xlsm is a workbook with macros, and this one has none; write .xlsx"),
            ("openpyxl-scores.xlsx", ["-o", "out.xlsx", "--summary", "合计=sum:语文"], 64, "'--summary' adds rows the workbook does not have"),
            ("openpyxl-scores.xlsx", ["-o", "out.xlsx", "--format", "csv"], 64, "writes a workbook; leave out '--format'"),
            ("openpyxl-scores.ods", ["--delimiter", ";"], 64, "'--delimiter' reads CSV files; a workbook's cells carry their own types and text"),
            ("openpyxl-scores.xlsx", ["--type", "姓氏=text"], 64, "the sheet '成绩' has no column '姓氏'"),
        ] as [(String, [String], Int32, String)])
    func refused(file: String, options: [String], status: Int32, message: String) throws {
        let result = try runInScratch(["sort", "in", "--by", "学号"] + options, files: ["in": try Self.fixture(file)])
        #expect(result.status == status, "\(file): \(result.stderr)")
        #expect(result.stderr.contains(message), "\(file): \(result.stderr)")
        #expect(result.left.keys.sorted() == ["in"], "nothing is written")
    }

    @Test("-o FILE.xlsx writes the workbook back with the sheet's rows in the sorted order; over the input itself too")
    func writesWorkbook() throws {
        let input = try Self.fixture("excel-layout-scores.xlsx")
        for output in ["out.xlsx", "in.xlsx"] {
            let result = try runInScratch(
                ["sort", "in.xlsx", "--by", "总分:desc", "--pin-bottom", "学号=平均", "-o", output], files: ["in.xlsx": input])
            #expect(result.status == 0, "\(result.stderr)")
            let written = try #require(result.left[output])
            let csv = try runInScratch(["sort", "w.xlsx", "--format", "csv"], files: ["w.xlsx": written])
            #expect(
                csv.stdout == "\u{FEFF}学号,姓名,语文,数学,总分,得分率\r\nS01,张伟,88,95,\"183.0 \",91.50%\r\nS04,刘洋,81,90,\"171.0 \",85.50%\r\n"
                    + "S02,李娜,92,78,\"170.0 \",85.00%\r\nS03,王芳,75,88,\"163.0 \",81.50%\r\n平均,,\"84.0 \",\"87.8 \",\"171.8 \",\r\n", "\(csv.stdout)")
            #expect(result.left.keys.sorted() == (output == "in.xlsx" ? ["in.xlsx"] : ["in.xlsx", "out.xlsx"]), "nothing else is left")
        }
        let csvInput = try runInScratch(["sort", "in.csv", "--by", "a", "-o", "out.xlsx"], files: ["in.csv": Data("a\n2\n1\n".utf8)])
        #expect(csvInput.status == 64)
        #expect(csvInput.stderr.contains("so the input must be an .xlsx workbook; in.csv is not one"), "\(csvInput.stderr)")
        #expect(csvInput.left.keys.sorted() == ["in.csv"])
    }
}
