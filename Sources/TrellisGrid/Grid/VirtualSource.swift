import Foundation

/// A data source whose cells are provided on demand: DataGridView's virtual mode. The grid asks
/// `provider` for the cells it needs (`CellValueNeeded`) and hands edits to `cellValuePushed`
/// (`CellValuePushed`); the row count can change at any time (`RowCount`).
public final class VirtualSource: ObservableDataSource {
    public let columns: [Column]
    /// The number of rows (never negative). Setting it tells the grid, which keeps its sort,
    /// pins and summaries current.
    public var rowCount: Int {
        didSet {
            rowCount = max(0, rowCount)
            if rowCount != oldValue { notifier.post(.reset) }
        }
    }
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
        let value = provider(row, column)
        if case .decimal(let d) = value, d.isNaN { return .missing }
        return value
    }

    /// Tells the grid that the cells of these rows changed (the app's data changed).
    public func rowsChanged(_ rows: Range<Int>) { notifier.post(.updated(rows)) }

    /// Tells the grid that anything may have changed.
    public func reset() { notifier.post(.reset) }

    func push(row: Int, column: Int, value: CellValue) {
        cellValuePushed?(row, column, value)
        notifier.post(.updated(row..<(row + 1)))
    }
}
