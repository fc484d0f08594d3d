import Foundation
import Testing
import TrellisCLI
import TrellisSQL

/// `trellis sort` on SQLite databases, in and out.
@Suite("trellis sort with SQLite")
struct SQLiteCommandTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Transcripts")

    func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-sqlcli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.examples.appendingPathComponent("groups.csv"), to: folder.appendingPathComponent("groups.csv"))
        return folder
    }

    func run(_ arguments: [String], in folder: URL) -> (status: Int32, stdout: String, stderr: String) {
        var io = CommandIO(standardInput: { Data() }, currentDirectory: folder)
        let status = TrellisCommandLine.run(arguments, io: &io)
        return (status, io.stdout, io.stderr)
    }

    @Test("a CSV exported to SQLite and sorted from it gives the CSV's own sort, cell for cell")
    func roundTrip() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let export = run(["sort", "groups.csv", "-o", "scores.sqlite", "--output-table", "scores"], in: folder)
        #expect(export.status == 0, "\(export.stderr)")
        let sortArgs = ["--by", "分数:desc", "--pin-bottom", "组号=平均", "--format", "csv"]
        let fromSQL = run(["sort", "scores.sqlite", "--table", "scores"] + sortArgs, in: folder)
        let fromCSV = run(["sort", "groups.csv"] + sortArgs, in: folder)
        #expect(fromSQL.status == 0, "\(fromSQL.stderr)")
        #expect(fromSQL.stdout == fromCSV.stdout)
        let query = run(["sort", "scores.sqlite", "--query", "SELECT * FROM scores WHERE \"分数\" >= 90"] + sortArgs, in: folder)
        #expect(query.stdout.split(whereSeparator: \.isNewline).count == 5, "\(query.stdout)")
    }

    @Test("the export keeps texts: a column that a typed one would rewrite is written without a type, with a warning")
    func exportKeepsTexts() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        try "id,score\n007,1.50\n12,90\n".write(to: folder.appendingPathComponent("ids.csv"), atomically: true, encoding: .utf8)
        let export = run(["sort", "ids.csv", "--by", "id", "-o", "ids.db"], in: folder)
        #expect(export.status == 0)
        #expect(export.stderr.contains("column 'id' is written without a type"))
        let db = try SQLiteConnection(path: folder.appendingPathComponent("ids.db").path)
        var cells: [String] = []
        try db.rows("SELECT id, score FROM sorted") { cells.append($0.text(0) + " " + $0.text(1)) }
        #expect(cells == ["007 1.50", "12 90"])
        let again = run(["sort", "ids.csv", "-o", "ids.db"], in: folder)
        #expect(again.status == 1)
        #expect(again.stderr.contains("already exists"))
    }

    @Test("errors name the table, the query or the option")
    func errors() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = run(["sort", "groups.csv", "-o", "scores.sqlite"], in: folder)
        let missing = run(["sort", "scores.sqlite", "--table", "nope"], in: folder)
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("no table \"nope\"; the tables are \"sorted\""))
        let bad = run(["sort", "scores.sqlite", "--query", "SELEC 1"], in: folder)
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("the query must be one read-only SELECT; it begins with \"SELEC\""))
        let typo = run(["sort", "scores.sqlite", "--query", "SELECT * FRM sorted"], in: folder)
        #expect(typo.status == 64)
        #expect(typo.stderr.contains("syntax error"))
        let bare = run(["sort", "scores.sqlite"], in: folder)
        #expect(bare.status == 64)
        #expect(bare.stderr.contains("is an SQLite database; name its table with --table"))
        let both = run(["sort", "scores.sqlite", "--table", "sorted", "--query", "SELECT 1"], in: folder)
        #expect(both.status == 64)
        let unknown = run(["sort", "scores.sqlite", "--table", "sorted", "--by", "score"], in: folder)
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("Unknown column 'score'"))
        let typed = run(["sort", "scores.sqlite", "--table", "sorted", "--type", "分数=decimal"], in: folder)
        #expect(typed.status == 64)
    }

    @Test("cells from a database that a spreadsheet would run get a leading ' in CSV, said on standard error; a CSV file's never do")
    func formulaGuarding() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: Self.examples.appendingPathComponent("products.csv"), to: folder.appendingPathComponent("products.csv"))
        #expect(run(["sort", "products.csv", "-o", "p.sqlite", "--output-table", "p"], in: folder).status == 0)
        let guarded = run(["sort", "p.sqlite", "--table", "p", "--by", "sku", "--format", "csv"], in: folder)
        #expect(guarded.status == 0)
        #expect(
            guarded.stdout.contains("item3,'@mention,-2.5,") && guarded.stdout.contains("\"'=HYPERLINK(\"\"http://example.com\"\")\""),
            "\(guarded.stdout)")
        #expect(guarded.stdout.contains(",-2.5,"), "a minus before a number is a number, as OWASP says")
        #expect(guarded.stderr.contains("note: 2 cells from the database that a spreadsheet would run as a formula"), "\(guarded.stderr)")
        let raw = run(["sort", "p.sqlite", "--table", "p", "--by", "sku", "--format", "csv", "--raw-formulas"], in: folder)
        #expect(raw.stdout.contains("item3,@mention,") && !raw.stderr.contains("leading '"))
        let file = run(["sort", "products.csv", "--by", "sku", "--format", "csv"], in: folder)
        #expect(file.stdout.contains("item3,@mention,") && !file.stderr.contains("leading '"), "the file already held these cells")
    }
}
