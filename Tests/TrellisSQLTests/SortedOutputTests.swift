import Foundation
import Testing
import TrellisCLI
import TrellisGrid
import TrellisRender
@_spi(Instrumentation) import TrellisSQL
import TrellisTestSupport
import TrellisText

/// A sorted output of a database table reads its rows in sorted order: a window of them a query,
/// never a block of the table per row written (which made 200,000 SQLite rows take a minute).
@Suite("Sorted output from a database")
struct SortedOutputTests {
    static let rows = 20_000

    /// `rows` rows whose `k` is a permutation of their positions, far from the table's order.
    static func database() throws -> ScratchDatabase {
        let scratch = ScratchDatabase()
        let db = try scratch.writer()
        try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, k INTEGER, name TEXT)")
        let insert = try db.prepare("INSERT INTO t VALUES (?, ?, ?)")
        try db.execute("BEGIN")
        for i in 0..<rows {
            try insert.bind([.integer(Int64(i)), .integer(Int64((i &* 7919) % rows)), .text("name \(i)")])
            while try insert.step() {}
        }
        try db.execute("COMMIT")
        return scratch
    }

    /// The most queries a sorted output of `rows` rows may take: a window of 1,024 rows at a time,
    /// in queries of a few hundred, and a few more.
    static func bound(_ rows: Int, perQuery: Int) -> Int { (rows / 1024 + 1) * ((1024 + perQuery - 1) / perQuery) + 8 }

    @Test("SQLite: a sort by a shuffled key, written as CSV, JSON and an SQLite table, reads its rows a window a query, in order")
    func sqliteWindows() throws {
        let scratch = try Self.database()
        for format in ["csv", "json", "sqlite"] {
            let source = try SQLiteTableSource(connection: try SQLiteConnection(path: scratch.path), table: "t")
            let grid = DataGrid(bound: source)
            try grid.sort(by: [SortKey("k")])
            let before = source.rowQueries
            switch format {
            case "csv":
                let out = TextOutput()
                _ = GridRenderer.writeCSV(grid, neutralizeFormulas: true, to: out)
                try out.finish()
                let lines = String(decoding: out.collected, as: UTF8.self).split(whereSeparator: \.isNewline)
                #expect(lines.count == Self.rows + 1)
                // In key order: the row whose k is 0, 1, 2, …
                #expect(lines[1].hasPrefix("0,0,") && lines[2].split(separator: ",")[1] == "1" && lines.last!.split(separator: ",")[1] == "19999")
            case "json":
                let out = TextOutput()
                GridRenderer.writeJSON(grid, to: out)
                try out.finish()
                #expect(String(decoding: out.collected, as: UTF8.self).contains("\"name 19999\""))
            default:
                let target = scratch.path + ".out.sqlite"
                defer { try? FileManager.default.removeItem(atPath: target) }
                try SQLiteExport.write(grid, to: target, table: "sorted")
                var count = 0
                try SQLiteConnection(path: target).rows("SELECT count(*) FROM sorted") { count = Int($0.int64(0)) }
                #expect(count == Self.rows)
            }
            let queries = source.rowQueries - before
            // SQLite export passes the rows twice (the columns' types, then the rows).
            let passes = format == "sqlite" ? 2 : 1
            #expect(queries <= passes * Self.bound(Self.rows, perQuery: 500), "\(format): \(queries) queries for \(Self.rows) rows")
        }
    }

    @Test(
        "PostgreSQL: a sorted CSV output reads its rows a window a query, and gives the unsorted export's rows",
        .enabled(if: PostgresServer.available))
    func postgresWindows() throws {
        let db = try PostgreSQLConnection(url: PostgresServer.url!)
        let table = "sorted_output_\(UUID().uuidString.prefix(8).lowercased())"
        _ = try db.query("CREATE TABLE \(table) (id int PRIMARY KEY, k int, name text)")
        _ = try db.query("INSERT INTO \(table) SELECT g, (g::bigint * 7919) % \(Self.rows), 'name ' || g FROM generate_series(0, \(Self.rows - 1)) g")
        defer { _ = try? db.query("DROP TABLE \(table)") }
        let source = try PostgreSQLTableSource(connection: db, table: table)
        let grid = DataGrid(bound: source)
        try grid.sort(by: [SortKey("k")])
        let before = source.rowQueries
        let out = TextOutput()
        _ = GridRenderer.writeCSV(grid, neutralizeFormulas: true, to: out)
        try out.finish()
        let sorted = String(decoding: out.collected, as: UTF8.self).split(whereSeparator: \.isNewline)
        #expect(source.rowQueries - before <= Self.bound(Self.rows, perQuery: 1000), "\(source.rowQueries - before) queries")
        try grid.sort(by: [])
        let plain = TextOutput()
        _ = GridRenderer.writeCSV(grid, neutralizeFormulas: true, to: plain)
        try plain.finish()
        #expect(sorted.sorted() == String(decoding: plain.collected, as: UTF8.self).split(whereSeparator: \.isNewline).sorted())
        #expect(sorted[1].hasPrefix("0,0,"))
    }
}
