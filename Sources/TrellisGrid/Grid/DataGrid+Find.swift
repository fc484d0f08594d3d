import Foundation
import TrellisText

/// Finding a text in a grid's column, as the viewer's `/` does: the nearest displayed row after
/// a position whose shown text contains it.
extension DataGrid {
    /// The first displayed row after `index` — going down, wrapping around to the top, `index`
    /// itself last — whose text in `column` contains `query`, or `nil` when none does. Texts are
    /// matched as they are shown, byte for byte (case and accents as written).
    ///
    /// ```swift
    /// grid.displayIndex(ofRowContaining: "组10", column: 0, after: -1)   // the first 组10, 组100, …
    /// ```
    ///
    /// A table's cells are searched in place, one chunk of rows per core (a million rows in a
    /// few milliseconds); a source that can search itself (a ``SearchableDataSource``: the SQL
    /// sources) is asked once; other sources are read cell by cell.
    public func displayIndex(ofRowContaining query: String, column: Int, after index: Int) -> Int? {
        displayIndex(ofRowContaining: query, column: column, from: index, backwards: false)
    }

    /// The first displayed row before `index` — going up, wrapping around to the bottom, `index`
    /// itself last — whose text in `column` contains `query` (a find repeated backwards), or `nil`.
    public func displayIndex(ofRowContaining query: String, column: Int, before index: Int) -> Int? {
        displayIndex(ofRowContaining: query, column: column, from: index, backwards: true)
    }

    private func displayIndex(ofRowContaining query: String, column: Int, from index: Int, backwards: Bool) -> Int? {
        let order = self.order, count = order.count
        guard count > 0, !query.isEmpty, columns.indices.contains(column) else { return nil }
        let needle = Array(query.utf8)
        let start = backwards ? min(max(index, 0), count) : min(max(index, -1), count - 1)
        /// How far from `start` a display index is, in the direction of the search, wrapping: the
        /// nearest wins.
        @inline(__always) func distance(_ d: Int) -> Int { backwards ? (start - d - 1 + count) % count : (d - start - 1 + count) % count }
        var best: Int?
        func consider(_ d: Int) {
            if best.map({ distance(d) < distance($0) }) ?? true { best = d }
        }
        let inverse = order.displayIndexOfSource
        /// A source row shown as the source holds it, whose own text the search below reads.
        @inline(__always) func shownAsStored(_ row: Int) -> Bool {
            inverse[row] >= 0 && order.showsAsStored(row, column: column)
        }
        if let storage, column < storage.storeCount {
            let store = storage.store(column)
            let rows = min(store.count, inverse.count)
            let found: [Int?] = needle.withUnsafeBufferPointer { needle in
                let shared = Unchecked(needle)
                return Parallel.map(Parallel.chunks(rows)) { _, range in
                    var nearest: Int?
                    for row in range where shownAsStored(row) {
                        let d = Int(inverse[row])
                        if let n = nearest, distance(n) <= distance(d) { continue }
                        if store.withText(at: row, { Self.bytes($0, contain: shared.value) }) { nearest = d }
                    }
                    return nearest
                }
            }
            for d in found.compactMap({ $0 }) { consider(d) }
        } else if let rows = (source as? SearchableDataSource)?.rows(containing: query, column: column) {
            // The source searched itself (a database).
            for row in rows where row >= 0 && row < inverse.count && shownAsStored(row) { consider(Int(inverse[row])) }
        } else {
            for row in 0..<min(rowCount, inverse.count) where shownAsStored(row) {
                if Self.contains(source.text(row: row, column: column), needle) { consider(Int(inverse[row])) }
            }
        }
        // Recomputed cells (a user's summary row) are checked as they are shown.
        for (row, columns) in order.recomputedColumns where columns.contains(column) {
            if let d = order.displayIndex(ofSourceRow: row), Self.contains(text(.source(row), column: column), needle) {
                consider(d)
            }
        }
        // Summary rows are not source rows: each is checked where it is shown.
        for summary in order.summaries.indices {
            if let d = order.displayIndex(ofSummary: summary), Self.contains(text(.summary(summary), column: column), needle) {
                consider(d)
            }
        }
        return best
    }

    private static func contains(_ text: String, _ needle: [UInt8]) -> Bool {
        var text = text
        return text.withUTF8 { haystack in needle.withUnsafeBufferPointer { bytes(haystack, contain: $0) } }
    }

}
