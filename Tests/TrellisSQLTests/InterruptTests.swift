import Foundation
import Testing
import TrellisGrid
import TrellisSQL

/// A sort stopped from another thread — what the viewer's Esc does — leaves the grid as it was.
@Suite("Stopping a sort")
struct InterruptTests {
    /// A source whose reads of the key column wait until the test says so: the sort is surely
    /// under way when it is stopped.
    final class WaitingSource: InterruptibleDataSource, @unchecked Sendable {
        let columns = [Column("k", type: .integer)]
        let rowCount = 1_000
        let reading = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        private(set) var interrupted = false
        var readFailure: String? { interrupted ? "interrupted" : nil }
        var failedReads: Int { interrupted ? 1 : 0 }
        var waits = false

        func value(row: Int, column: Int) -> CellValue { .integer((row * 7919) % 1_000) }
        func values(ofColumn column: Int, rows: [Int]) -> [CellValue] {
            if waits {
                reading.signal()
                release.wait()
            }
            return rows.map { value(row: $0, column: column) }
        }
        func interrupt() {
            interrupted = true
            release.signal()
        }
    }

    @Test("interruptSort stops a sort under way: it throws .interrupted, the keys and the order stay, and the next sort runs")
    func stopsASort() throws {
        let source = WaitingSource()
        let grid = DataGrid(bound: source)
        let before = grid.displayedRows
        source.waits = true
        let outcome = Self.sortOnAnotherThread(grid, by: [SortKey("k")])
        source.reading.wait()
        grid.interruptSort()
        outcome.done.wait()
        #expect(outcome.error == .interrupted)
        #expect(grid.sortKeys.isEmpty && grid.displayedRows == before, "the order as it was")
        // Stopping when nothing runs does nothing: the next sort is whole.
        grid.interruptSort()
        source.waits = false
        try grid.sort(by: [SortKey("k")])
        #expect(grid.sortKeys.count == 1 && grid.bodyRows.first == 0)
    }

    /// What a sort on another thread ended with: `done` is signalled when it has.
    final class Outcome: @unchecked Sendable {
        var error: SortError?
        let done = DispatchSemaphore(value: 0)
    }

    /// Starts `grid.sort(by: keys)` on a thread of its own (the test thread then only stops it).
    static func sortOnAnotherThread(_ grid: DataGrid, by keys: [SortKey]) -> Outcome {
        struct Shared: @unchecked Sendable { let grid: DataGrid }
        let outcome = Outcome(), shared = Shared(grid: grid)
        Thread.detachNewThread {
            do throws(SortError) { try shared.grid.sort(by: keys) } catch { outcome.error = error }
            outcome.done.signal()
        }
        return outcome
    }

    @Test("an SQLite table's sort stopped while it reads the key column: SQLite's read is interrupted, the order stays")
    func sqlite() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-interrupt-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try SQLiteConnection(path: path, readOnly: false, create: true)
        try writer.execute(
            "CREATE TABLE t (k REAL, name TEXT); WITH RECURSIVE g(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM g "
                + "WHERE i < 400000) INSERT INTO t SELECT (i * 7919) % 10007, 'n' || i FROM g;")
        try Self.checkStopping(
            try SQLiteTableSource(connection: try SQLiteConnection(path: path), table: "t"), keyColumn: 0,
            afterMicroseconds: 20_000)
    }

    /// A sort of `source` by its column `k`, descending, stopped after a moment (while it reads
    /// the column): `.interrupted`, no keys, the first row as it was; then a sort that runs to
    /// its end, with the largest `k` (10006) first — the source works after the stop.
    static func checkStopping(_ source: GridDataSource, keyColumn: Int, afterMicroseconds delay: UInt32) throws {
        let grid = DataGrid(bound: source)
        let first = grid.displayedRow(at: 0)
        let outcome = sortOnAnotherThread(grid, by: [SortKey("k", .descending)])
        usleep(delay)
        grid.interruptSort()
        outcome.done.wait()
        #expect(outcome.error == .interrupted)
        #expect(grid.sortKeys.isEmpty && grid.displayedRow(at: 0) == first, "the keys and the order as they were")
        try grid.sort(by: [SortKey("k", .descending)])
        #expect(grid.value(grid.displayedRow(at: 0)!, column: keyColumn).number == 10006, "the source works after the stop")
    }
}
