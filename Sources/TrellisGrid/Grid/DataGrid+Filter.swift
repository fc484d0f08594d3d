import Foundation
import TrellisText

/// Which body rows a grid shows.
public enum RowFilter: Sendable, Equatable {
    /// The rows whose cell in `column` is exactly `text`, as written (a blank cell is `""`) — a
    /// value picked from a frequency table.
    case equal(column: String, text: String)
    /// The rows whose cell in `column` contains `text`, byte for byte.
    case contains(column: String, text: String)
    /// The rows every one of these filters keeps (a filter within a filter).
    indirect case all([RowFilter])

    /// The columns the filter reads.
    public var columns: [String] {
        switch self {
        case .equal(let column, _), .contains(let column, _): [column]
        case .all(let filters): filters.flatMap(\.columns)
        }
    }
}

/// Filtering: the body shows only the rows a ``RowFilter`` keeps; pinned rows (the 平均 row) and
/// summary rows always show, and summaries are computed over the rows shown.
extension DataGrid {
    /// Shows only the body rows `filter` keeps (`nil`: every row), keeping the sort, pins and
    /// summaries. The source is not touched. An unknown column is refused and nothing changes.
    public func setFilter(_ filter: RowFilter?) throws(SortError) {
        for column in filter?.columns ?? [] where !columns.contains(where: { $0.identifier == column }) {
            throw .unknownColumn(column, columns: columns.map(\.identifier))
        }
        try change(\.filter, to: filter)
    }

    /// Sets one of the grid's rules and refreshes; when the refresh throws, the rule is put back
    /// and the grid shows what it showed.
    func change<Value>(_ rule: ReferenceWritableKeyPath<DataGrid, Value>, to value: Value) throws(SortError) {
        let before = self[keyPath: rule]
        self[keyPath: rule] = value
        do {
            try refresh()
        } catch {
            self[keyPath: rule] = before
            refreshQuietly()
            throw error
        }
    }

    /// One flag per source row: whether `filter` leaves it out. A table's cells are read in
    /// place, one chunk of rows per core.
    func hiddenRows(_ filter: RowFilter, count: Int) -> [Bool]? {
        let (name, wanted, whole): (String, [UInt8], Bool)
        switch filter {
        case .equal(let column, let text): (name, wanted, whole) = (column, Array(text.utf8), true)
        case .contains(let column, let text): (name, wanted, whole) = (column, Array(text.utf8), false)
        case .all(let filters):
            var hidden = [Bool](repeating: false, count: count)
            for filter in filters {
                guard let more = hiddenRows(filter, count: count) else { return nil }
                for row in 0..<count where more[row] { hidden[row] = true }
            }
            return hidden
        }
        guard let column = columns.firstIndex(where: { $0.identifier == name }) else { return nil }
        @inline(__always) func keeps(_ cell: UnsafeBufferPointer<UInt8>, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
            if whole {
                return cell.count == wanted.count && (wanted.isEmpty || memcmp(cell.baseAddress!, wanted.baseAddress!, wanted.count) == 0)
            }
            return Self.bytes(cell, contain: wanted)
        }
        var hidden = [Bool](repeating: true, count: count)
        if let storage, column < storage.storeCount {
            let store = storage.store(column)
            let rows = min(store.count, count)
            wanted.withUnsafeBufferPointer { wanted in
                hidden.withUnsafeMutableBufferPointer { flags in
                    let shared = Unchecked((wanted, flags))
                    Parallel.forEach(Parallel.chunks(rows)) { _, range in
                        let (wanted, flags) = shared.value
                        for row in range { flags[row] = !store.withText(at: row) { keeps($0, wanted) } }
                    }
                }
            }
        } else {
            wanted.withUnsafeBufferPointer { wanted in
                for row in 0..<count {
                    var text = source.text(row: row, column: column)
                    hidden[row] = !text.withUTF8 { keeps($0, wanted) }
                }
            }
        }
        return hidden
    }

    /// Whether `needle`'s bytes occur in `haystack`.
    static func bytes(_ haystack: UnsafeBufferPointer<UInt8>, contain needle: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = needle.count, h = haystack.count
        guard n > 0, n <= h, let hp = haystack.baseAddress, let np = needle.baseAddress else { return n == 0 }
        let first = np[0]
        var i = 0
        while i <= h - n {
            if hp[i] == first && memcmp(hp + i, np, n) == 0 { return true }
            i += 1
        }
        return false
    }
}
