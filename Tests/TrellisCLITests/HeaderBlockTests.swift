import Foundation
import Testing
import TrellisCLI
import TrellisGrid

/// Headers of several lines, as pandas writes a MultiIndex (`Fixtures/Shapes/pandas-*.csv`) and
/// LibreOffice a heading merged over its columns (`libreoffice-merged-header.csv`).
@Suite("headers of several lines")
struct HeaderBlockTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/Shapes")

    static func data(_ name: String) throws -> Data { try Data(contentsOf: fixtures.appendingPathComponent(name)) }

    @Test(
        "pandas' MultiIndex header is read as one header, its columns named by every line, and written back as it was",
        arguments: [
            ("pandas-multiindex-named-index.csv", 3, ["姓名", "成绩 语文", "成绩 数学", "成绩 英语"]),
            ("pandas-multiindex-range-index.csv", 2, ["#1", "成绩 语文", "成绩 数学", "成绩 英语"]),
            ("pandas-multiindex-no-index.csv", 2, ["成绩 语文", "成绩 数学", "成绩 英语"]),
            ("pandas-groupby-agg.csv", 3, ["班级", "语文 mean", "语文 max", "数学 mean", "数学 max"]),
            ("libreoffice-merged-header.csv", 2, ["学号", "姓名", "成绩 语文", "成绩 数学", "成绩 英语", "体重 kg"]),
        ])
    func readAsOneHeader(file: String, lines: Int, names: [String]) throws {
        let bytes = try Self.data(file)
        let table = try CSV.table(bytes: [UInt8](bytes))
        #expect(table.csvFormat.headerLines == lines)
        #expect(table.columns.map(\.identifier) == names)
        // Every row under the header is a row of numbers in the number columns.
        let number = try #require(table.columns.firstIndex { $0.identifier.hasSuffix("数学") || $0.identifier == "数学 max" })
        #expect(table.columns[number].type.isNumeric)
        #expect((0..<table.rowCount).allSatisfy { table.value(row: $0, column: number).number != nil })
        // Sorted to CSV: the header's lines as they were, then the rows.
        let text = String(decoding: bytes, as: UTF8.self)
        let headerText = text.split(separator: "\n", omittingEmptySubsequences: false).prefix(lines).joined(separator: "\n") + "\n"
        let key = file == "pandas-groupby-agg.csv" ? "数学 max" : "数学"
        let result = try runInScratch(["sort", "in.csv", "--by", key, "--format", "csv"], files: ["in.csv": bytes])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix(headerText))
        #expect(result.stdout.split(separator: "\n").count == text.split(separator: "\n").count)
        #expect(result.stderr.contains("note: lines 1–\(lines) of in.csv are its header"), "\(result.stderr)")
    }

    @Test("the sorted rows are the file's rows in the order of the column named by its last line")
    func sortedByLastLineName() throws {
        let result = try runInScratch(
            ["sort", "in.csv", "--by", "数学:desc", "--format", "csv"], files: ["in.csv": try Self.data("pandas-multiindex-named-index.csv")])
        #expect(
            result.stdout
                == ",成绩,成绩,成绩\n,语文,数学,英语\n姓名,,,\n张伟,88,95,79\n刘洋,81,90,70\n王芳,75,88,92\n李娜,92,78,85\n陈静,95,67,88\n")
        // A name its last line shares with another column is not enough: the whole name is asked for.
        let shared = try runInScratch(["sort", "in.csv", "--by", "mean"], files: ["in.csv": try Self.data("pandas-groupby-agg.csv")])
        #expect(shared.status == 64)
        #expect(shared.stderr.contains("'语文 mean', '语文 max'"), "\(shared.stderr)")
    }

    @Test("--header-row 1 reads the second line as a row; another delimiter writes the header as one line of its names")
    func toldOrConverted() throws {
        let bytes = try Self.data("libreoffice-merged-header.csv")
        let told = try runInScratch(["sort", "in.csv", "--header-row", "1", "--format", "csv"], files: ["in.csv": bytes])
        #expect(told.status == 0)
        #expect(!told.stderr.contains("are its header"))
        #expect(told.stdout == String(decoding: bytes, as: UTF8.self))
        let tabs = try runInScratch(["sort", "in.csv", "--by", "英语", "-o", "out.tsv"], files: ["in.csv": bytes])
        #expect(tabs.status == 0)
        let written = String(decoding: try #require(tabs.left["out.tsv"]), as: UTF8.self)
        #expect(written.hasPrefix("学号\t姓名\t成绩 语文\t成绩 数学\t成绩 英语\t体重 kg\nS04\t刘洋\t81\t90\t70\t70.2\n"), "\(written)")
    }
}

@Suite("a one-line header stays one line")
struct OneLineHeaderTests {
    @Test(
        "a first row of text is a row when the header is whole on its own, or the row has a number, a date, or text in a text column",
        arguments: [
            // A student absent from every exam: unique names, the name column filled.
            "姓名,语文,数学\n张三,缺考,缺考\n李四,88,95\n王五,75,88\n",
            // A first row with a number.
            ",成绩,成绩\n合计,163,183\n李四,88,95\n",
            // A first row whose number columns are blank.
            ",成绩,成绩\n备注,,\n李四,88,95\n",
            // Text columns only.
            "名称,备注\n,说明\n甲,乙\n",
            // A date under the header.
            ",日期,数量\n,2024-03-01,件\n甲,2024-03-02,5\n",
        ])
    func notABlock(csv: String) throws {
        let table = try CSV.table(bytes: Array(csv.utf8))
        #expect(table.csvFormat.headerLines == 1)
        #expect(table.rowCount == csv.split(separator: "\n").count - 1)
    }

    @Test("a header of several lines whose cells hold doubled quotes (copied out of the text) reads as the others")
    func doubledQuotes() throws {
        let table = try CSV.table(bytes: Array(",\"\"\"成绩\"\"\",\"\"\"成绩\"\"\"\n,\"语\"\"文\",数学\n甲,1,2\n乙,3,4\n".utf8))
        #expect(table.csvFormat.headerLines == 2)
        #expect(table.columns.map(\.identifier) == ["#1", "\"成绩\" 语\"文", "\"成绩\" 数学"])
        #expect(table.rowCount == 2)
    }

    @Test("a row of units under the header is more of it")
    func units() throws {
        let table = try CSV.table(bytes: Array("名称,重量,价格\n,kg,元\n苹果,1.5,12\n梨,2,9.5\n".utf8))
        #expect(table.csvFormat.headerLines == 2)
        #expect(table.columns.map(\.identifier) == ["名称", "重量 kg", "价格 元"])
        #expect(table.rowCount == 2)
    }
}
