import Foundation
import Testing
import TrellisGrid
import TrellisSQL

/// A table read through a read-only connection is edited in memory (the grid shows, sorts and
/// finds the edited cells, the database is untouched) and written by one transaction of UPDATEs
/// when saved: each cell as SQLite would store it in its column, all or none.
@Suite("SQLite: edits staged in memory, saved by UPDATE in one transaction")
struct SQLiteStagedEditsTests {
    /// A database whose `成绩` table has a text, a NUMERIC, an INTEGER and an untyped column.
    static func database(rows: Int = 4, journal: String = "delete") throws -> ScratchDatabase {
        let scratch = ScratchDatabase()
        let db = try scratch.writer()
        try db.execute("PRAGMA journal_mode = \(journal)")
        try db.execute("CREATE TABLE 成绩 (名字 TEXT, 分数 NUMERIC, 名次 INTEGER, 备注, 照片 BLOB)")
        try db.execute("BEGIN")
        for i in 0..<rows {
            try db.run(
                "INSERT INTO 成绩 VALUES (?, ?, ?, ?, ?)",
                [.text(i == 0 ? "007" : "学生\(i)"), .real(Double(60 + i) + 0.5), .integer(Int64(i + 1)), .integer(Int64(i)), .blob([0, 1, 2])])
        }
        try db.execute("COMMIT")
        return scratch
    }

    /// `SELECT typeof(c), c` of every cell of a column, as SQLite holds them.
    static func stored(_ path: String, _ column: String) throws -> [String] {
        let db = try SQLiteConnection(path: path)
        var out: [String] = []
        try db.rows("SELECT typeof(\(SQLiteConnection.quote(column))), \(SQLiteConnection.quote(column)) FROM 成绩 ORDER BY rowid") { row in
            out.append("\(row.text(0)):\(row.text(1))")
        }
        return out
    }

    @Test(
        "an edit shows, sorts and is found at once; the database holds the old cells until the save, which writes each as its column stores it",
        arguments: ["delete", "wal"])
    func stagedThenSaved(journal: String) throws {
        let scratch = try Self.database(journal: journal)
        let source = try SQLiteTableSource(connection: SQLiteConnection(path: scratch.path), table: "成绩")
        let grid = DataGrid(bound: source)
        try grid.sort(by: [SortKey("分数", .descending)])
        #expect(grid.order.body == [3, 2, 1, 0])
        // Row 0's 分数 becomes the highest; the row stays until the next sort, as a DataGridView's does.
        try grid.editCell(row: 0, column: 1, text: "99")
        #expect(grid.order.body == [3, 2, 1, 0])
        #expect(source.text(row: 0, column: 1) == "99")
        #expect(source.stagedCellCount == 1)
        try grid.sort(by: [SortKey("分数", .descending)])
        #expect(grid.order.body == [0, 3, 2, 1])
        // Text as typed (leading zeros kept), a number in the INTEGER column, a number where an
        // untyped cell held one.
        try grid.editCells([(0, 0, "0070"), (1, 2, "12"), (2, 3, "8"), (3, 3, "待定")])
        #expect(source.stagedCellCount == 5)
        #expect(source.rows(containing: "0070", column: 0) == [0])
        #expect(source.rows(containing: "学生", column: 0) == [1, 2, 3])
        #expect(try Self.stored(scratch.path, "分数") == ["real:60.5", "real:61.5", "real:62.5", "real:63.5"], "nothing written yet")

        #expect(try source.saveStagedEdits() == 5)
        #expect(source.stagedCellCount == 0)
        #expect(try Self.stored(scratch.path, "名字") == ["text:0070", "text:学生1", "text:学生2", "text:学生3"])
        #expect(try Self.stored(scratch.path, "分数") == ["integer:99", "real:61.5", "real:62.5", "real:63.5"])
        #expect(try Self.stored(scratch.path, "名次") == ["integer:1", "integer:12", "integer:3", "integer:4"])
        #expect(try Self.stored(scratch.path, "备注") == ["integer:0", "integer:1", "integer:8", "text:待定"])
        // The reading connection is still read-only, and reads what was written (in a WAL
        // database, through a snapshot renewed after the save).
        #expect(source.connection.isReadOnly)
        #expect(source.text(row: 1, column: 2) == "12")
        #expect(try source.saveStagedEdits() == 0, "nothing left to write")
        // Another program changes a cell the grid shows: it is never written over. Without a
        // snapshot the edit itself is refused (the table holds another value than the one shown);
        // in a WAL snapshot the save is.
        _ = source.text(row: 3, column: 2)
        let other = try scratch.writer()
        try other.run("UPDATE 成绩 SET 名次 = 40 WHERE rowid = 4")
        if journal == "wal" {
            try source.stage(text: "30", row: 3, column: 2)
            #expect(throws: SQLiteError.self) { try source.saveStagedEdits() }
        } else {
            #expect(
                throws: TableError.refused(
                    "row 4's \"名次\" is \"40\" in the database now, not the \"4\" shown: it changed since it was read; read the table again")
            ) {
                try source.stage(text: "30", row: 3, column: 2)
            }
        }
        #expect(try Self.stored(scratch.path, "名次")[3] == "integer:40")
    }

    @Test("a cell given back its stored text is no longer staged; an empty cell of a number column writes NULL")
    func unstagedAndNull() throws {
        let scratch = try Self.database()
        let source = try SQLiteTableSource(connection: SQLiteConnection(path: scratch.path), table: "成绩")
        try source.stage(text: "70", row: 1, column: 1)
        #expect(source.stagedCellCount == 1)
        try source.stage(text: "61.5", row: 1, column: 1)
        #expect(source.stagedCellCount == 0, "the undo of an edit leaves nothing to write")
        try source.stage(text: "", row: 2, column: 1)
        #expect(source.value(row: 2, column: 1).isMissing)
        #expect(try source.saveStagedEdits() == 1)
        #expect(try Self.stored(scratch.path, "分数")[2] == "null:")
    }

    @Test("refused, the cell and the database left: text in a number column, a BLOB cell, a table without rowid")
    func refusals() throws {
        let scratch = try Self.database()
        let source = try SQLiteTableSource(connection: SQLiteConnection(path: scratch.path), table: "成绩")
        #expect(throws: TableError.refused("\"名次\" is declared INTEGER: \"abc\" is not a number (an empty cell writes NULL)")) {
            try source.stage(text: "abc", row: 0, column: 2)
        }
        #expect(throws: TableError.refused("row 1's \"照片\" holds a BLOB: it is not edited as text")) {
            try source.stage(text: "x", row: 0, column: 4)
        }
        // A BLOB too large to be shown (its size is): refused as a BLOB, its bytes never read.
        try scratch.writer().run("UPDATE 成绩 SET 照片 = zeroblob(2097152) WHERE rowid = 2")
        let large = try SQLiteTableSource(connection: SQLiteConnection(path: scratch.path), table: "成绩")
        #expect(large.text(row: 1, column: 4) == "(BLOB, 2097152 bytes)")
        #expect(throws: TableError.refused("row 2's \"照片\" holds a BLOB: it is not edited as text")) {
            try large.stage(text: "x", row: 1, column: 4)
        }
        #expect(throws: TableError.noSuchRow(9, rowCount: 4)) { try source.stage(text: "x", row: 9, column: 0) }
        #expect(source.stagedCellCount == 0)
        #expect(source.text(row: 0, column: 2) == "1")

        let db = try scratch.writer()
        try db.execute("CREATE TABLE 名单 (名字 TEXT PRIMARY KEY, 分数 INTEGER) WITHOUT ROWID; INSERT INTO 名单 VALUES ('甲', 1)")
        let keyless = try SQLiteTableSource(connection: SQLiteConnection(path: scratch.path), table: "名单")
        #expect(throws: TableError.self) { try keyless.stage(text: "2", row: 0, column: 1) }
        #expect(keyless.stagedCellCount == 0)
    }

    @Test("a cell changed in the database since it was read: nothing is written, the staged cells are kept to save again")
    func changedMeanwhile() throws {
        let scratch = try Self.database()
        let source = try SQLiteTableSource(connection: SQLiteConnection(path: scratch.path), table: "成绩")
        try source.stage(text: "80", row: 0, column: 1)
        try source.stage(text: "90", row: 3, column: 1)
        let other = try scratch.writer()
        try other.run("UPDATE 成绩 SET 分数 = 1 WHERE rowid = 4")
        let error = #expect(throws: SQLiteError.self) { try source.saveStagedEdits() }
        #expect(
            error?.message.contains("changed in the database since it was read (63.5 then, 1 now): nothing was written") == true, "\(String(describing: error))"
        )
        #expect(
            try Self.stored(scratch.path, "分数") == ["real:60.5", "real:61.5", "real:62.5", "integer:1"], "all or none: the first cell is not written either")
        #expect(source.stagedCellCount == 2)
        // Put back as it was read, the save goes through.
        try other.run("UPDATE 成绩 SET 分数 = 63.5 WHERE rowid = 4")
        #expect(try source.saveStagedEdits() == 2)
        #expect(try Self.stored(scratch.path, "分数") == ["integer:80", "real:61.5", "real:62.5", "integer:90"])
    }

    @Test("a sort of many rows reads the column in one scan, and sees the staged cell there too")
    func stagedInAScan() throws {
        let scratch = try Self.database(rows: 3000)
        let source = try SQLiteTableSource(connection: SQLiteConnection(path: scratch.path), table: "成绩")
        let grid = DataGrid(bound: source)
        try grid.editCell(row: 1500, column: 1, text: "-5")
        try grid.sort(by: [SortKey("分数")])
        #expect(grid.order.body.first == 1500)
        #expect(source.values(ofColumn: 1, rows: Array(0..<3000))[1500] == .integer(-5))
        // Forgotten: the table's own value again.
        source.discardStagedEdits()
        #expect(source.text(row: 1500, column: 1) == "1560.5")
    }
}
