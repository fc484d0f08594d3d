import Foundation
import Testing
import TrellisGrid
import TrellisSQL
import TrellisSources
import TrellisText

/// One way in for every source: what a user names, opened by the kind that recognises it.
@Suite("SourceOpener")
struct SourceOpenerTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples")

    @Test("a CSV file, standard input and an SQLite table or query, each opened by its kind")
    func kinds() throws {
        let csv = try SourceOpener.open(SourceRequest("groups.csv", currentDirectory: Self.examples))
        #expect(csv is Table && csv.columns.map(\.identifier) == ["组号", "组长", "分数", "备注"])
        var standardInput = SourceRequest("-")
        standardInput.readStandardInput = { Array("a,b\n1,2\n".utf8) }
        #expect(try SourceOpener.open(standardInput).rowCount == 1)
        var table = SourceRequest("scores.sqlite", currentDirectory: Self.examples)
        table.table = "scores"
        #expect(try SourceOpener.open(table) is SQLiteTableSource)
        var query = SourceRequest("scores.sqlite", currentDirectory: Self.examples)
        query.query = "SELECT 1 AS one"
        #expect(try SourceOpener.open(query).columns.map(\.identifier) == ["one"])
    }

    @Test("what cannot be read so is refused with its kind and the way out")
    func refusals() {
        func failure(_ request: SourceRequest) -> InputError? {
            do throws(InputError) { _ = try SourceOpener.open(request); return nil } catch { return error }
        }
        let database = SourceRequest("scores.sqlite", currentDirectory: Self.examples)
        #expect(failure(database) == InputError(.usage, "scores.sqlite is an SQLite database; name its table with --table, or give --query"))
        var both = database
        both.table = "scores"
        both.query = "SELECT 1"
        #expect(failure(both) == InputError(.usage, "Give '--table' or '--query', not both"))
        #expect(
            failure(SourceRequest("postgresql://reader@localhost/school"))?.message
                == "'postgresql://reader@localhost/school' names a PostgreSQL server; name its table with --table, or give --query")
        #expect(failure(SourceRequest("missing.csv", currentDirectory: Self.examples)) == InputError(.noInput, "no such file 'missing.csv'"))
        var typed = database
        typed.table = "scores"
        typed.types = ["分数": .decimal]
        #expect(failure(typed)?.kind == .usage)
        var missingTable = database
        missingTable.table = "nothing"
        #expect(failure(missingTable)?.kind == .usage)
    }

    /// A kind of an app's own, put first: what adding a format takes.
    enum Lines: SourceKind {
        static func recognizes(_ request: SourceRequest) -> Bool { request.name.hasSuffix(".lines") }
        static func open(_ request: SourceRequest) throws(InputError) -> GridDataSource {
            let rows = request.name.dropLast(6).split(separator: "+").map { [CellValue.text(String($0))] }
            do { return try Table(columns: [Column("line")], rows: rows) } catch { throw InputError(.data, "\(error)") }
        }
    }

    @Test("a kind of an app's own is asked first when it is put first")
    func ownKind() throws {
        let source = try SourceOpener.open(SourceRequest("a+b+c.lines"), kinds: [Lines.self] + SourceOpener.kinds)
        #expect(source.rowCount == 3 && source.text(row: 2, column: 0) == "c")
    }
}
