import Foundation

/// A data source whose cells are provided on demand: DataGridView's virtual mode.
public final class VirtualSource: GridDataSource {
    public let columns: [Column]
    public let rowCount: Int
    private let provider: (Int, Int) -> CellValue

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
}

/// Which rows a pin takes out of the body.
public enum RowPin: Sendable, Equatable {
    /// The row at this position in the data source.
    case row(Int)
    /// Every row whose cell in `column` reads `value` (as text), e.g. `组号 == "平均"`.
    case matching(column: String, value: String)
}

/// How a summary row combines a column's body values.
public enum SummaryFunction: Sendable, CustomStringConvertible {
    case mean, sum, count, min, max
    /// Any function of the column's non-missing values, with a name for the label.
    case custom(String, @Sendable ([CellValue]) -> CellValue)

    public var description: String {
        switch self {
        case .mean: return "mean"
        case .sum: return "sum"
        case .count: return "count"
        case .min: return "min"
        case .max: return "max"
        case .custom(let name, _): return name
        }
    }

    /// Parses `mean`, `sum`, `count`, `min` or `max`.
    public init?(name: String) {
        switch name {
        case "mean": self = .mean
        case "sum": self = .sum
        case "count": self = .count
        case "min": self = .min
        case "max": self = .max
        default: return nil
        }
    }

    /// The function applied to one column's values (missing values are skipped). Mean and sum
    /// use the numbers; min and max follow the standard sort order; count counts present values.
    public func apply(_ values: [CellValue]) -> CellValue {
        let present = values.filter { !$0.isMissing }
        let numbers = present.compactMap(\.number)
        switch self {
        case .count: return .integer(present.count)
        case .sum:
            if numbers.isEmpty { return .missing }
            // Integers add up exactly unless the sum would overflow; then, like everything else, as decimals.
            var total = 0, exact = true
            for value in present {
                guard case .integer(let n) = value else { exact = false; break }
                let (sum, overflow) = total.addingReportingOverflow(n)
                if overflow { exact = false; break }
                total = sum
            }
            return exact ? .integer(total) : .decimal(numbers.reduce(0, +))
        case .mean:
            return numbers.isEmpty ? .missing : .decimal(numbers.reduce(0, +) / Double(numbers.count))
        case .min, .max:
            guard !present.isEmpty else { return .missing }
            let texts = present.compactMap { if case .text(let s) = $0 { s } else { nil } }
            let ranks = Dictionary(zip(texts, TextComparator.natural.ranks(texts)), uniquingKeysWith: { a, _ in a })
            func rank(_ v: CellValue) -> Int32? { if case .text(let s) = v { ranks[s] } else { nil } }
            let sorted = present.sorted {
                SortEngine.standardCompare($0, $1, rankX: rank($0), rankY: rank($1)) == .orderedAscending
            }
            if case .min = self { return sorted.first! }
            return sorted.last!
        case .custom(_, let function): return function(present)
        }
    }
}

/// A summary row: one function over the body's values of some columns, shown pinned.
public struct SummaryRow: Sendable {
    public var function: SummaryFunction
    public var columns: [String]
    /// Pinned at the bottom (the default) or the top.
    public var atTop: Bool

    public init(_ function: SummaryFunction, columns: [String], atTop: Bool = false) {
        self.function = function
        self.columns = columns
        self.atTop = atTop
    }
}

/// A row as the grid shows it.
public enum DisplayRow: Hashable, Sendable {
    /// A row of the data source (its position there), pinned or in the body.
    case source(Int)
    /// The summary row at this position in the grid's `summaries`.
    case summary(Int)
}

/// Which part of the grid a displayed row is in.
public enum RowRegion: String, Hashable, Sendable {
    case pinnedTop, body, pinnedBottom
}

/// The sort glyph a header shows.
public struct SortGlyph: Hashable, Sendable {
    /// The direction, `nil` when the column is not sorted.
    public var direction: SortDirection?
    /// The key's position among the sort keys, from 1; `nil` when not sorted.
    public var priority: Int?
}

/// What a click on a header does next.
public enum SortCycle: String, Hashable, Sendable {
    /// Ascending → descending → no sort (AG Grid, TanStack).
    case ascendingDescendingNone
    /// Ascending ⇄ descending, never back to unsorted (DataGridView).
    case dataGridView
}

/// A sortable grid over a data source in one of three modes — the user's grid with sorting that
/// keeps working whatever the binding, pinned rows that the sort never moves, and summary rows.
///
/// ```swift
/// let grid = DataGrid(bound: table)
/// try grid.pin(.matching(column: "组号", value: "平均"), at: .pinnedBottom)
/// try grid.sort(by: [SortKey("分数", .descending)])
/// grid.displayedRows.last   // .source(12): the 平均 row, whichever way the table is sorted
/// ```
///
/// Sorting never moves the source's rows: it computes a permutation of the body rows.
/// Removing the sort restores the source order.
public final class DataGrid {
    /// The binding mode.
    public enum Mode: String, Sendable {
        /// The grid owns its rows (a table it created).
        case unbound
        /// The rows belong to a source the grid never reorders.
        case bound
        /// The grid knows a row count and asks a provider for cells.
        case virtual
    }

    public let mode: Mode
    public let source: GridDataSource
    /// The columns of the source.
    public var columns: [Column] { source.columns }

    /// The sort keys, most significant first. Empty: source order.
    public private(set) var sortKeys: [SortKey] = []
    /// A row-aware comparison hook (DataGridView's `SortCompare`): return `nil` to decline, and
    /// the key's own comparison is used.
    public var sortCompare: ((SortCompareArguments) -> ComparisonResult?)? { didSet { refreshNoThrow() } }
    /// A whole-row comparator (DataGridView's `Sort(IComparer)`): when set, it alone orders the
    /// body, ascending; ties keep source order.
    public var rowComparator: ((Int, Int) -> ComparisonResult)? { didSet { refreshNoThrow() } }
    /// What header clicks cycle through.
    public var sortCycle: SortCycle = .ascendingDescendingNone

    private(set) var pins: [(pin: RowPin, region: RowRegion)] = []
    /// Summary rows, computed over the body.
    public private(set) var summaries: [SummaryRow] = []
    private var bodyOrder: [Int] = []
    private var pinnedTopRows: [Int] = []
    private var pinnedBottomRows: [Int] = []

    /// A grid that owns an empty table with these columns (unbound mode).
    public init(columns: [Column]) {
        mode = .unbound
        source = Table(columns: columns)
        refreshNoThrow()
    }

    /// A grid bound to `source`, whose rows it never reorders (bound mode).
    public init(bound source: GridDataSource) {
        mode = .bound
        self.source = source
        refreshNoThrow()
    }

    /// A grid in virtual mode: `rowCount` rows whose cells come from `provider`.
    public init(columns: [Column], rowCount: Int, provider: @escaping (Int, Int) -> CellValue) {
        mode = .virtual
        source = VirtualSource(columns: columns, rowCount: rowCount, provider: provider)
        refreshNoThrow()
    }

    /// Appends a row to an unbound grid.
    public func addRow(_ values: [CellValue]) throws(TableError) {
        guard mode == .unbound, let table = source as? Table else {
            throw TableError("only an unbound grid owns its rows; add rows to its data source instead")
        }
        try table.appendRow(values: values)
        refreshNoThrow()
    }

    /// Reads the source again — after rows were added, removed or changed in a bound or virtual
    /// source — keeping the sort keys, pins and summaries.
    public func reload() {
        refreshNoThrow()
    }

    // MARK: Sorting

    /// Sorts the body by `keys` (most significant first). Columns must exist and be sortable.
    public func sort(by keys: [SortKey]) throws(SortError) {
        for key in keys {
            guard let column = columns.first(where: { $0.identifier == key.column }) else {
                throw SortError("unknown column \"\(key.column)\"; the columns are "
                                + columns.map { "\"\($0.identifier)\"" }.joined(separator: ", "))
            }
            if column.sortMode == .notSortable { throw SortError("column \"\(key.column)\" is not sortable") }
        }
        let previous = sortKeys
        sortKeys = keys
        do { try refresh() } catch { sortKeys = previous; try? refresh(); throw error }
    }

    /// Removes the sort: the body goes back to the source's order.
    public func removeSort() {
        sortKeys = []
        refreshNoThrow()
    }

    /// A click on a column header. Only `automatic` columns react. Without `addingKey` the column
    /// becomes the only key, moving to its next state (ascending → descending → none, or
    /// ascending ⇄ descending with the DataGridView cycle); with `addingKey` (shift) it is added as
    /// the last key, or moves to its next state where it is.
    public func clickHeader(_ column: String, addingKey: Bool = false) throws(SortError) {
        guard let definition = columns.first(where: { $0.identifier == column }) else {
            throw SortError("unknown column \"\(column)\"")
        }
        guard definition.sortMode == .automatic else { return }
        var keys = sortKeys
        if let index = keys.firstIndex(where: { $0.column == column }) {
            let next = nextDirection(keys[index].direction)
            if addingKey {
                if let next { keys[index].direction = next } else { keys.remove(at: index) }
            } else {
                keys = next.map { direction in
                    var key = keys[index]
                    key.direction = direction
                    return [key]
                } ?? []
            }
        } else if addingKey {
            keys.append(SortKey(column))
        } else {
            keys = [SortKey(column)]
        }
        try sort(by: keys)
    }

    private func nextDirection(_ direction: SortDirection) -> SortDirection? {
        switch (direction, sortCycle) {
        case (.ascending, _): return .descending
        case (.descending, .ascendingDescendingNone): return nil
        case (.descending, .dataGridView): return .ascending
        }
    }

    /// The glyph of a column's header.
    public func glyph(for column: String) -> SortGlyph {
        guard let index = sortKeys.firstIndex(where: { $0.column == column }) else { return SortGlyph() }
        return SortGlyph(direction: sortKeys[index].direction, priority: index + 1)
    }

    // MARK: Pinning and summaries

    /// Pins rows (by position or by a cell's value) to the top or the bottom; pinned rows keep the
    /// order in which they were pinned and are never sorted.
    public func pin(_ pin: RowPin, at region: RowRegion) throws(SortError) {
        guard region != .body else { throw SortError("pin a row to the top or the bottom, not the body") }
        if case .matching(let column, _) = pin, !columns.contains(where: { $0.identifier == column }) {
            throw SortError("unknown column \"\(column)\" in a pin; the columns are "
                            + columns.map { "\"\($0.identifier)\"" }.joined(separator: ", "))
        }
        if case .row(let row) = pin, !(0..<source.rowCount).contains(row) {
            throw SortError("no row \(row) to pin; the source has \(source.rowCount) rows")
        }
        pins.append((pin, region))
        try refresh()
    }

    /// Removes every pin.
    public func removePins() {
        pins = []
        refreshNoThrow()
    }

    /// Adds a summary row computed over the body.
    public func addSummary(_ summary: SummaryRow) throws(SortError) {
        for column in summary.columns where !columns.contains(where: { $0.identifier == column }) {
            throw SortError("unknown column \"\(column)\" in a summary; the columns are "
                            + columns.map { "\"\($0.identifier)\"" }.joined(separator: ", "))
        }
        summaries.append(summary)
    }

    // MARK: Reading

    /// Every row as shown: pinned top rows, top summaries, the sorted body, pinned bottom rows,
    /// bottom summaries.
    public var displayedRows: [DisplayRow] {
        var rows = pinnedTopRows.map(DisplayRow.source)
        rows += summaries.indices.filter { summaries[$0].atTop }.map(DisplayRow.summary)
        rows += bodyOrder.map(DisplayRow.source)
        rows += pinnedBottomRows.map(DisplayRow.source)
        rows += summaries.indices.filter { !summaries[$0].atTop }.map(DisplayRow.summary)
        return rows
    }

    /// The number of ``displayedRows``, without building them.
    public var displayedRowCount: Int {
        pinnedTopRows.count + summaries.count + bodyOrder.count + pinnedBottomRows.count
    }

    /// The body rows (source positions) in their displayed order.
    public var bodyRows: [Int] { bodyOrder }

    /// The region of a displayed row.
    public func region(of row: DisplayRow) -> RowRegion {
        switch row {
        case .source(let index):
            if pinnedTopRows.contains(index) { return .pinnedTop }
            if pinnedBottomRows.contains(index) { return .pinnedBottom }
            return .body
        case .summary(let index): return summaries[index].atTop ? .pinnedTop : .pinnedBottom
        }
    }

    /// The value shown in `row` and `column` (a position in ``columns``). A summary row shows its
    /// function's result in its columns and the function's name in the first other column.
    public func value(_ row: DisplayRow, column: Int) -> CellValue {
        switch row {
        case .source(let index): return source.value(row: index, column: column)
        case .summary(let index):
            let summary = summaries[index]
            let identifier = columns[column].identifier
            if summary.columns.contains(identifier) {
                return summary.function.apply(bodyOrder.map { source.value(row: $0, column: column) })
            }
            let labelColumn = columns.firstIndex { !summary.columns.contains($0.identifier) }
            return labelColumn == column ? .text(summary.function.description) : .missing
        }
    }

    // MARK: Recomputing

    private func refreshNoThrow() { try? refresh() }

    /// Partitions the rows (pins first, in pin order) and sorts the body.
    private func refresh() throws(SortError) {
        var top: [Int] = [], bottom: [Int] = []
        var pinned = Set<Int>()
        for (pin, region) in pins {
            let rows: [Int]
            switch pin {
            case .row(let row): rows = row < source.rowCount ? [row] : []
            case .matching(let column, let value):
                guard let c = columns.firstIndex(where: { $0.identifier == column }) else { continue }
                // Compare typed values, not texts: the value is read as the column's type once.
                let wanted = CellValue.parse(value, as: columns[c].type)
                rows = (0..<source.rowCount).filter { row in
                    let cell = source.value(row: row, column: c)
                    return cell == wanted || (cell.kindRank != wanted.kindRank && cell.description == value)
                }
            }
            for row in rows where pinned.insert(row).inserted {
                if region == .pinnedTop { top.append(row) } else { bottom.append(row) }
            }
        }
        let body: [Int]
        if pinned.isEmpty {
            body = Array(0..<source.rowCount)
        } else {
            var isPinned = [Bool](repeating: false, count: source.rowCount)
            for row in pinned { isPinned[row] = true }
            body = (0..<source.rowCount).filter { !isPinned[$0] }
        }
        bodyOrder = try SortEngine.permutation(of: body, in: source, by: sortKeys, hook: sortCompare,
                                               rowComparator: rowComparator)
        pinnedTopRows = top
        pinnedBottomRows = bottom
    }
}
