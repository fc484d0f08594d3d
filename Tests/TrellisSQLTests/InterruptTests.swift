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
        let outcome = Outcome()
        let shared = Shared(grid)
        let thread = Thread {
            do throws(SortError) { try shared.grid.sort(by: [SortKey("k")]) } catch { outcome.error = error }
            outcome.done.signal()
        }
        thread.start()
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

    /// The grid, used by the sorting thread while the test only stops it.
    struct Shared: @unchecked Sendable {
        let grid: DataGrid
        init(_ grid: DataGrid) { self.grid = grid }
    }

    final class Outcome: @unchecked Sendable {
        var error: SortError?
        let done = DispatchSemaphore(value: 0)
    }

    @Test("an SQLite table's sort stopped while it reads the key column: SQLite's read is interrupted, the order stays")
    func sqlite() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-interrupt-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try SQLiteConnection(path: path, readOnly: false, create: true)
        try writer.execute("CREATE TABLE t (k REAL, name TEXT); WITH RECURSIVE g(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM g "
                           + "WHERE i < 400000) INSERT INTO t SELECT (i * 7919) % 10007, 'n' || i FROM g;")
        let source = try SQLiteTableSource(connection: try SQLiteConnection(path: path), table: "t")
        let grid = DataGrid(bound: source)
        let first = grid.displayedRow(at: 0)
        let outcome = Outcome()
        let shared = Shared(grid)
        let thread = Thread {
            do throws(SortError) { try shared.grid.sort(by: [SortKey("k", .descending)]) } catch { outcome.error = error }
            outcome.done.signal()
        }
        thread.start()
        usleep(20_000)
        grid.interruptSort()
        outcome.done.wait()
        #expect(outcome.error == .interrupted)
        #expect(grid.sortKeys.isEmpty && grid.displayedRow(at: 0) == first)
        try grid.sort(by: [SortKey("k", .descending)])
        #expect(grid.value(grid.displayedRow(at: 0)!, column: 0).number == 10006)
    }
}
