import Foundation

/// A data source whose cells are provided on demand: DataGridView's virtual mode. The grid asks
/// `provider` for the cells it needs (`CellValueNeeded`) and hands edits to `cellValuePushed`
/// (`CellValuePushed`); the row count can change at any time (`RowCount`).
public final class VirtualSource: ObservableDataSource {
    public let columns: [Column]
    /// The number of rows (never negative). Setting it adds rows at the end or takes them from
    /// the end, as DataGridView's `RowCount` does, and tells the grid, which keeps its sort, pins
    /// and summaries current, reading only the rows added. Rows inserted or removed elsewhere are
    /// told with ``insertRows(_:)`` and ``removeRows(_:)``.
    public var rowCount: Int {
        didSet {
            rowCount = max(0, rowCount)
            guard rowCount != oldValue, !quiet else { return }
            if rowCount > oldValue {
                notifier.post(.inserted(oldValue..<rowCount))
            } else {
                for c in columnCache.keys { columnCache[c]?.removeSubrange(rowCount...) }
                notifier.post(.removed(rowCount..<oldValue))
            }
        }
    }
    /// Set while a row count changes that is told otherwise.
    private var quiet = false

    /// Tells the grid that the app inserted rows at `range` (positions after the insert): the
    /// rows after them move down, the grid's current row and selection follow, and only the new
    /// rows are read.
    public func insertRows(_ range: Range<Int>) {
        guard range.lowerBound >= 0, range.lowerBound <= rowCount, !range.isEmpty else { return }
        quiet = true
        rowCount += range.count
        quiet = false
        for c in columnCache.keys {
            guard var cached = columnCache[c], range.lowerBound <= cached.count else { continue }
            cached.insert(contentsOf: range.map { read($0, c) }, at: range.lowerBound)
            columnCache[c] = cached
        }
        notifier.post(.inserted(range))
    }

    /// Tells the grid that the app removed the rows that were at `range`.
    public func removeRows(_ range: Range<Int>) {
        let range = range.clamped(to: 0..<rowCount)
        guard !range.isEmpty else { return }
        quiet = true
        rowCount -= range.count
        quiet = false
        for c in columnCache.keys {
            guard var cached = columnCache[c] else { continue }
            cached.removeSubrange(range.clamped(to: 0..<cached.count))
            columnCache[c] = cached
        }
        notifier.post(.removed(range))
    }

    /// Whole columns read for a sort or a summary (``values(ofColumn:rows:)``), kept until the app
    /// says its data changed: a sort and the summaries after it read each cell once, and rows
    /// added at the end are the only ones read again. Held as the provider gave them.
    private var columnCache: [Int: [CellValue]] = [:]
    private let provider: (Int, Int) -> CellValue
    /// Called with an edited cell's source row, column and new value; the app stores it, and the
    /// provider answers with it from then on.
    public var cellValuePushed: ((Int, Int, CellValue) -> Void)?
    private let notifier = GridChangeNotifier()
    public var changes: GridChangeNotifier { notifier }

    /// A source of `rowCount` rows whose cell at (row, column) is `provider(row, column)`.
    public init(columns: [Column], rowCount: Int, provider: @escaping (Int, Int) -> CellValue) {
        self.columns = columns
        self.rowCount = max(0, rowCount)
        self.provider = provider
    }

    public func value(row: Int, column: Int) -> CellValue {
        guard row >= 0, row < rowCount, columns.indices.contains(column) else { return .missing }
        if let cached = columnCache[column], row < cached.count { return cached[row] }
        return read(row, column)
    }

    private func read(_ row: Int, _ column: Int) -> CellValue {
        let value = provider(row, column)
        if case .decimal(let d) = value, d.isNaN { return .missing }
        return value
    }

    /// One column at `rows`: a read of many rows (a sort's key, a summary) reads the whole column
    /// once and keeps it until the data changes; a few rows are read as they are.
    public func values(ofColumn column: Int, rows: [Int]) -> [CellValue] {
        guard columns.indices.contains(column) else { return rows.map { _ in .missing } }
        if columnCache[column] == nil, rows.count * 2 < rowCount { return rows.map { value(row: $0, column: column) } }
        var cached = columnCache[column] ?? []
        if cached.count < rowCount {
            cached.reserveCapacity(rowCount)
            for row in cached.count..<rowCount { cached.append(read(row, column)) }
            columnCache[column] = cached
        }
        return rows.map { $0 >= 0 && $0 < cached.count ? cached[$0] : .missing }
    }

    /// Tells the grid that the cells of these rows changed (the app's data changed).
    public func rowsChanged(_ rows: Range<Int>) {
        for c in columnCache.keys {
            guard var cached = columnCache[c] else { continue }
            for row in rows where row >= 0 && row < cached.count { cached[row] = read(row, c) }
            columnCache[c] = cached
        }
        notifier.post(.updated(rows))
    }

    /// Tells the grid that anything may have changed.
    public func reset() {
        columnCache = [:]
        notifier.post(.reset)
    }

    func push(row: Int, column: Int, value: CellValue) {
        cellValuePushed?(row, column, value)
        rowsChanged(row..<(row + 1))
    }
}
