import Foundation
import Testing
import TrellisCLI
import TrellisGrid
import TrellisSQL

/// A subtotal sheet kept in an SQLite table (a spreadsheet imported as it was) groups as the
/// same sheet in a CSV file does.
@Suite("Subtotal groups in a database table")
struct SQLiteGroupsTests {
    static let rows: [(String, String, Double?)] = [
        ("华东", "上海", 3), ("华东", "杭州", 5), ("华东 汇总", "", 8),
        ("华北", "北京", 7), ("华北", "天津", 1), ("华北 汇总", "", 9),
        ("总计", "", 16),
    ]

    @Test("found in the table's rows, sorted within their groups, each subtotal checked against its own group")
    func found() throws {
        let scratch = ScratchDatabase()
        let db = try scratch.writer()
        try db.execute("CREATE TABLE s (地区 TEXT, 城市 TEXT, 销售额 REAL)")
        let insert = try db.prepare("INSERT INTO s VALUES (?, ?, ?)")
        try db.execute("BEGIN")
        for (region, city, sales) in Self.rows {
            try insert.bind([.text(region), city.isEmpty ? .null : .text(city), sales.map { .real($0) } ?? .null])
            while try insert.step() {}
        }
        try db.execute("COMMIT")
        let folder = URL(fileURLWithPath: scratch.path).deletingLastPathComponent()
        var io = CommandIO(standardInput: { Data() }, currentDirectory: folder)
        let status = TrellisCommandLine.run(["sort", scratch.path, "--table", "s", "--by", "销售额:desc", "--format", "csv"], io: &io)
        #expect(status == 0, "\(io.stderr)")
        let lines = String(decoding: io.stdoutBytes, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
        #expect(
            lines.map { $0.split(separator: ",", omittingEmptySubsequences: false).first.map(String.init) ?? "" }
                == ["地区", "华东", "华东", "华东 汇总", "华北", "华北", "华北 汇总", "总计"])
        #expect(lines[1].hasPrefix("华东,杭州") && lines[4].hasPrefix("华北,北京"))
        #expect(io.stderr.contains("note: 2 subtotal groups by 地区"), "\(io.stderr)")
        // 华北 汇总 says 9 of rows summing to 8; 总计 is the rows' 16, not twice it.
        #expect(io.stderr.contains("华北 汇总 says 9"), "\(io.stderr)")
        #expect(!io.stderr.contains("总计 says"), "\(io.stderr)")
    }
}
