import Foundation
import Testing
import TrellisCLI

/// Export shapes around a table: a statement's footer after the records, header names padded
/// with spaces.
@Suite("trellis sort on a statement: footer lines and padded names")
struct StatementShapeTests {
    func sort(_ csv: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let result = try runInScratch(["sort", "in.csv"] + arguments, files: ["in.csv": Data(csv.utf8)])
        return (result.status, result.stdout, result.stderr)
    }

    static let statement = try! String(
        contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Examples/statement.csv"),
        encoding: .utf8)

    @Test("the lines after the table are kept aside, said, and written back after the sorted rows as they were")
    func footer() throws {
        let result = try sort(Self.statement, ["--by", "金额（元）:desc", "--format", "csv"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let original = Self.statement.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[1].contains("200.00"))
        #expect(Array(lines.suffix(6)) == Array(original.suffix(6)), "the footer, byte for byte")
        #expect(result.stderr.contains("from line 7 on"), "\(result.stderr)")
        // With no key, the file comes back as it was.
        #expect(try sort(Self.statement, ["--format", "csv"]).stdout == Self.statement)
    }

    @Test("a row of another width with full rows after it is still an error that names it")
    func notAFooter() throws {
        let result = try sort("a,b,c\n1,2,3\n4,5\n6,7,8\n", ["--by", "a"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("line 3"), "\(result.stderr)")
    }

    @Test("a header padded with spaces is named without them; the output keeps the padding")
    func paddedNames() throws {
        let result = try sort("名称  ,金额（元）   \nx,1\ny,2\n", ["--by", "金额（元）:desc", "--format", "csv"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "名称  ,金额（元）   \ny,2\nx,1\n")
        let ambiguous = try sort("a ,a  \n1,2\n", ["--by", "a"])
        #expect(ambiguous.status == 64, "two columns read 'a' without their spaces: \(ambiguous.stderr)")
    }
}

extension StatementShapeTests {
    @Test("-o x.txt from Excel's Unicode 文本 (UTF-16, tabs) writes that format back; --format csv -o x.txt too")
    func unicodeText() throws {
        func utf16(_ text: String) -> Data { Data([0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }) }
        let input = utf16("姓名\t分数\r\n张伟\t88\r\n王芳\t92\r\n")
        for extra in [[], ["--format", "csv"]] {
            let result = try runInScratch(["sort", "成绩.txt", "--by", "分数:desc", "-o", "out.txt"] + extra, files: ["成绩.txt": input])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.left["out.txt"] == utf16("姓名\t分数\r\n王芳\t92\r\n张伟\t88\r\n"))
            #expect(Set(result.left.keys) == ["成绩.txt", "out.txt"], "no partial file left beside them")
            #expect(result.left["成绩.txt"] == input, "the input is not touched")
        }
        // From a CSV file, .txt is still the text table.
        let table = try runInScratch(["sort", "in.csv", "--by", "a", "-o", "table.txt"], files: ["in.csv": Data("a,b\n2,x\n1,y\n".utf8)])
        #expect(table.status == 0)
        #expect(String(decoding: table.left["table.txt"] ?? Data(), as: UTF8.self).contains("──"))
    }
}
