import Foundation
import Testing
import TrellisTestSupport
import TrellisText

@testable import TrellisGrid
@testable import TrellisRender

/// A CSV file read for the columns a sort orders by: the others stay in the file's records, and
/// everything asked of them gives the texts a reading of every column gives.
@Suite("Columns left in the records")
struct UnreadColumnsTests {
    /// A file with every shape a field takes: quoted, doubled quotes, a line break inside quotes,
    /// blanks, a delimiter at the end, and trailing unnamed columns a row leaves out.
    static let file =
        "id,name,score,note,,\r\n"
        + "1,\"王, 伟\",88.50,\"said \"\"hi\"\"\",x,\r\n"
        + "2,李娜,缺考,\"two\nlines\",,\r\n"
        + "3,,92,plain\r\n"
        + "4,\"\"\"q\"\"\",,\"\",y,z\r\n"

    static func tables(_ text: String = file, splitAbove: Int = 1 << 22) throws -> (all: Table, some: Table) {
        let bytes = Array(text.utf8)
        let all = try CSV.table(bytes: bytes, types: [:], splitAbove: splitAbove)
        let some = try CSV.table(
            bytes: bytes, types: [:], splitAbove: splitAbove,
            columns: { columns in
                Set(columns.indices.filter { columns[$0].identifier == "score" })
            })
        return (all, some)
    }

    @Test("one cell of an unread column is read from its record, as a reading of every column reads it")
    func cells() throws {
        let (all, some) = try Self.tables()
        #expect(some.hasUnreadColumns)
        #expect(some.rowCount == all.rowCount)
        for c in all.columns.indices where c != 2 {
            #expect(some.isUnread(c), "column \(c) is left in the records")
            for row in 0..<all.rowCount {
                #expect(some.text(row: row, column: c) == all.text(row: row, column: c), "row \(row), column \(c)")
            }
        }
        #expect(some.text(row: 0, column: 3) == "said \"hi\"")
        #expect(some.text(row: 1, column: 3) == "two\nlines")
        #expect(some.text(row: 2, column: 5) == "", "a row that leaves out the unnamed columns has blanks there")
        #expect(some.value(row: 0, column: 0) == .text("1"), "an unread column is read as text")
        #expect(some.columns[0].type == .text)
        #expect(some.columns[2].type == all.columns[2].type, "the column read is typed as ever")
        #expect(!some.isUnread(2))
        #expect(some.hasUnreadColumns, "reading cells one by one reads no column whole")
    }

    @Test("a column's store asked for reads the column whole, as text, once — from several threads at once")
    func stores() throws {
        let (all, some) = try Self.tables()
        let results = UncheckedResults(count: 8)
        let shared = Unchecked(some)
        DispatchQueue.concurrentPerform(iterations: 8) { k in
            let store = shared.value.store(k % 2 == 0 ? 1 : 3)
            results.set(k, (0..<store.count).map { store.text(at: $0) })
        }
        for k in 0..<8 {
            let c = k % 2 == 0 ? 1 : 3
            #expect(results.value(k) == (0..<all.rowCount).map { all.text(row: $0, column: c) })
        }
        #expect(!some.isUnread(1) && !some.isUnread(3))
        #expect(some.isUnread(0))
        #expect(some.store(1).kind(at: 2) == .missing && some.store(1).kind(at: 0) == .text)
    }

    @Test("a change to the table reads its unread columns first, and every cell keeps its text")
    func changes() throws {
        let (all, some) = try Self.tables()
        try some.insertRow(["5", "赵", "70", "new", "", ""], at: 1)
        try all.insertRow(["5", "赵", "70", "new", "", ""], at: 1)
        #expect(!some.hasUnreadColumns)
        for c in all.columns.indices {
            #expect((0..<all.rowCount).map { some.text(row: $0, column: c) } == (0..<all.rowCount).map { all.text(row: $0, column: c) })
        }
        let (_, other) = try Self.tables()
        try other.setText("x", row: 0, column: 4)
        #expect(other.text(row: 0, column: 4) == "x" && other.text(row: 3, column: 4) == "y")
        try other.removeRow(at: 0)
        #expect(other.text(row: 0, column: 1) == "李娜")
    }

    @Test(
        "a sort by the read column writes the file's records: the same bytes as a reading of every column, in halves too",
        arguments: [1 << 22, 64])
    func sortedOutput(_ splitAbove: Int) throws {
        var text = "id,name,score,note\n"
        var random = SeededRandom(seed: UInt64(splitAbove))
        for i in 0..<2_000 {
            let score = Int.random(in: 0..<10, using: &random) == 0 ? "缺考" : String(format: "%.2f", Double(Int.random(in: 0..<10_000, using: &random)) / 100)
            let note = ["", "ok", "\"a, b\"", "\"say \"\"x\"\"\"", "\"line\nbreak\""][Int.random(in: 0..<5, using: &random)]
            text += "\(i),n\(Int.random(in: 0..<50, using: &random)),\(score),\(note)\n"
        }
        let (all, some) = try Self.tables(text, splitAbove: splitAbove)
        func sorted(_ table: Table) throws -> [UInt8] {
            let grid = DataGrid(bound: table)
            try grid.addSummary(SummaryRow(label: "平均", .mean, columns: ["score"]))
            try grid.sort(by: [SortKey("score", .descending)])
            let out = TextOutput()
            GridRenderer.writeCSV(grid, neutralizeFormulas: false, to: out)
            try out.finish()
            return out.collected
        }
        let expected = try sorted(all)
        #expect(try sorted(some) == expected)
        #expect(some.hasUnreadColumns, "writing the records read no other column")
        // Written with another delimiter, field by field: the unread columns are read for it.
        func tabbed(_ table: Table) throws -> [UInt8] {
            let grid = DataGrid(bound: table)
            try grid.sort(by: [SortKey("score", .descending)])
            let out = TextOutput()
            GridRenderer.writeCSV(grid, neutralizeFormulas: false, delimiter: 0x09, to: out)
            try out.finish()
            return out.collected
        }
        #expect(try tabbed(some) == tabbed(all))
        #expect(!some.hasUnreadColumns)
    }

    @Test(
        "cells let go are read again from the records as they were read: types, day-first dates, identifiers, decimal commas",
        arguments: [",", ";"])
    func released(_ delimiter: String) throws {
        let d = delimiter
        var text = "证件号\(d)score\(d)day\(d)n\(d)note\n"
        var random = SeededRandom(seed: d == "," ? 3 : 4)
        for i in 0..<300 {
            let id = String(format: "%017d", 11_010_519_900_000_000 + i) + (i % 7 == 0 ? "X" : String(i % 10))
            let score = i % 13 == 0 ? "缺考" : String(format: "%.2f", Double(Int.random(in: 0..<10_000, using: &random)) / 100)
            let day = "\(Int.random(in: 1...28, using: &random))/\(Int.random(in: 1...12, using: &random))/2024"
            text += "\(id)\(d)\(d == ";" ? score.replacingOccurrences(of: ".", with: ",") : score)\(d)\(day)\(d)\(i * 7 % 300)\(d)\"x\(d) y\"\n"
        }
        let bytes = Array(text.utf8)
        let table = try CSV.table(bytes: bytes, types: ["n": .integer], delimiter: d == ";" ? 0x3B : nil, splitAbove: 1 << 22)
        let fresh = try CSV.table(bytes: bytes, types: ["n": .integer], delimiter: d == ";" ? 0x3B : nil, splitAbove: 1 << 22)
        #expect(table.columns.map(\.type) == [.text, .decimal, .date, .integer, .text], "\(table.columns.map(\.type))")
        let sortedBefore = try SortEngine.permutation(
            of: Array(0..<table.rowCount), in: table,
            by: [SortKey("day"), SortKey("score", .descending)])
        // Asked for once before it is let go: the column read from the records since goes too.
        _ = table.store(4)
        #expect(table.releaseCells())
        #expect(!table.hasUnreadColumns || table.columns.indices.allSatisfy { !table.isUnread($0) || table.columns[$0].type == .text })
        #expect(table.columns.map(\.type) == fresh.columns.map(\.type))
        for c in table.columns.indices {
            let store = table.store(c), expected = fresh.store(c)
            #expect(store.count == expected.count, "column \(c)")
            for row in 0..<table.rowCount {
                #expect(
                    store.kind(at: row) == expected.kind(at: row) && store.payload(at: row) == expected.payload(at: row)
                        && store.text(at: row) == expected.text(at: row), "row \(row), column \(c)")
                #expect(table.value(row: row, column: c) == fresh.value(row: row, column: c), "row \(row), column \(c)")
            }
        }
        #expect(
            try SortEngine.permutation(
                of: Array(0..<table.rowCount), in: table,
                by: [SortKey("day"), SortKey("score", .descending)]) == sortedBefore)
        // Let go again, then changed: every column is read before the change, which lands.
        #expect(table.releaseCells())
        try table.setText("1,5", row: 0, column: 1)
        #expect(table.rawRecords?.changedCells[0] == [1], "the records stay, the changed cell noted")
        #expect(!table.releaseCells(), "a changed table's cells are not let go: its records no longer hold them all")
        #expect(table.value(row: 1, column: 2) == fresh.value(row: 1, column: 2))
        #expect(table.text(row: 0, column: 1) == "1,5")
    }
}

/// Results written by concurrent iterations, each into its own slot.
private final class UncheckedResults: @unchecked Sendable {
    private var slots: [[String]]
    private let lock = NSLock()
    init(count: Int) { slots = Array(repeating: [], count: count) }
    func set(_ k: Int, _ value: [String]) { lock.withLock { slots[k] = value } }
    func value(_ k: Int) -> [String] { lock.withLock { slots[k] } }
}
