import Foundation

/// What a view of a grid has on screen: the rows pinned at the top and at the bottom (always
/// shown), a window of body rows that scrolls between them, the frozen leading columns (always
/// shown) and the columns that scroll beside them — the one viewport that the terminal viewer,
/// the HTML page and ``DataGridLayout`` read.
///
/// ```swift
/// var viewport = GridViewport(frozenColumns: 1, bodyCapacity: 10, width: 80)
/// viewport.setRows(grid.order)                    // 1 pinned top row, 1,000 body rows, 1 at the bottom
/// viewport.setColumnWidths([8, 12, 12, 30, 30])
/// viewport.reveal(row: 500)
/// viewport.visibleRows                            // [0, 491, 492, …, 500, 1001]
/// viewport.visibleColumns                         // [0, 1, 2, 3]: column 4 starts past 80
/// ```
///
/// Rows are display indexes (``DisplayOrder/row(at:)``). Widths are in the view's own unit —
/// terminal cells, points, pixels — and the viewport keeps each column's left edge. Every
/// mutation leaves the scroll in range, so a viewport never shows a row or a column that is not
/// there.
public struct GridViewport: Equatable, Sendable {
    /// How many displayed rows stay at the top (pinned rows and top summaries).
    public private(set) var pinnedTopCount = 0
    /// How many displayed rows are in the body, which scrolls.
    public private(set) var bodyCount = 0
    /// How many displayed rows stay at the bottom (pinned rows and bottom summaries).
    public private(set) var pinnedBottomCount = 0
    /// How many body rows the view has room for between the pinned ones.
    public private(set) var bodyCapacity: Int
    /// The first body row on screen, as a position among the body rows.
    public private(set) var firstBodyRow = 0
    /// How many leading columns stay in view whatever the horizontal scroll.
    public let frozenColumns: Int
    /// The left edge of every column, and the right edge of the last: `columnCount + 1` values.
    public private(set) var columnEdges: [Double] = [0]
    /// The first column after the frozen ones that is on screen.
    public private(set) var firstScrolledColumn = 0
    /// The width the view has for columns.
    public private(set) var width: Double

    /// A viewport with no rows and no columns yet.
    ///
    /// - Parameters:
    ///   - frozenColumns: leading columns that never scroll away (negative: none).
    ///   - bodyCapacity: body rows that fit between the pinned rows (at least 1 is shown).
    ///   - width: the width for columns, in the unit of the widths to come.
    public init(frozenColumns: Int = 0, bodyCapacity: Int = .max, width: Double = .infinity) {
        self.frozenColumns = max(0, frozenColumns)
        self.bodyCapacity = max(1, bodyCapacity)
        self.width = width.isNaN ? 0 : max(0, width)
    }

    /// A viewport with room for every row of `order`: what a page or a file that shows the
    /// whole grid reads (its pinned rows in a table head and foot, the body between).
    public init(showingAllOf order: DisplayOrder, frozenColumns: Int = 0) {
        self.init(frozenColumns: frozenColumns, bodyCapacity: max(1, order.body.count))
        setRows(order)
    }

    // MARK: Setting what there is

    /// Takes the row counts of `order`, keeping the scroll where it can.
    public mutating func setRows(_ order: DisplayOrder) {
        setRows(pinnedTop: order.pinnedTopCount, body: order.body.count, pinnedBottom: order.pinnedBottomCount)
    }

    /// Sets the row counts (negative counts are none), keeping the scroll where it can.
    public mutating func setRows(pinnedTop: Int, body: Int, pinnedBottom: Int) {
        pinnedTopCount = max(0, pinnedTop)
        bodyCount = max(0, body)
        pinnedBottomCount = max(0, pinnedBottom)
        scrollBody(to: firstBodyRow)
    }

    /// Sets how many body rows fit (at least 1), keeping the scroll in range.
    public mutating func setBodyCapacity(_ capacity: Int) {
        bodyCapacity = max(1, capacity)
        scrollBody(to: firstBodyRow)
    }

    /// Sets every column's width (a negative or non-finite width is 0), keeping the scroll on
    /// the same column.
    public mutating func setColumnWidths(_ widths: [Double]) {
        var edges = [0.0]
        edges.reserveCapacity(widths.count + 1)
        for width in widths { edges.append(edges[edges.count - 1] + (width.isFinite ? max(0, width) : 0)) }
        columnEdges = edges
        scroll(toColumn: firstScrolledColumn)
    }

    /// Sets the width the view has for columns.
    public mutating func setWidth(_ width: Double) {
        self.width = width.isNaN ? 0 : max(0, width)
    }

    // MARK: Rows

    /// The number of displayed rows.
    public var rowCount: Int { pinnedTopCount + bodyCount + pinnedBottomCount }
    /// The display index of the first body row.
    public var bodyStart: Int { pinnedTopCount }
    /// The display index after the last body row.
    public var bodyEnd: Int { pinnedTopCount + bodyCount }

    /// The display indexes of the body rows on screen.
    public var bodyWindow: Range<Int> {
        let start = bodyStart + firstBodyRow
        return start..<min(bodyEnd, start + bodyCapacity)
    }

    /// Every row on screen, top to bottom: the pinned top rows, the body's window, the pinned
    /// bottom rows.
    public var visibleRows: [Int] {
        Array(0..<bodyStart) + Array(bodyWindow) + Array(bodyEnd..<rowCount)
    }

    /// The part of the grid a displayed row is in.
    public func region(ofRow index: Int) -> RowRegion {
        if index < bodyStart { return .pinnedTop }
        if index >= bodyEnd { return .pinnedBottom }
        return .body
    }

    /// Scrolls the body so that `position` (among the body rows) is its first row on screen, or
    /// as near as the body allows.
    public mutating func scrollBody(to position: Int) {
        firstBodyRow = max(0, min(position, bodyCount - min(bodyCapacity, bodyCount)))
    }

    /// Scrolls the body by `delta` rows (negative: up).
    public mutating func scrollBody(by delta: Int) {
        scrollBody(to: firstBodyRow.addingReportingOverflow(delta).overflow ? (delta < 0 ? 0 : .max) : firstBodyRow + delta)
    }

    /// Scrolls the body as little as needed for display row `index` to be on screen; a pinned row
    /// is always on screen.
    public mutating func reveal(row index: Int) {
        guard index >= bodyStart, index < bodyEnd else { return }
        let position = index - bodyStart
        if position < firstBodyRow { scrollBody(to: position) } else if position >= firstBodyRow + bodyCapacity { scrollBody(to: position - bodyCapacity + 1) }
    }

    // MARK: Columns

    /// The number of columns.
    public var columnCount: Int { columnEdges.count - 1 }

    /// The width of `column`, or 0 outside.
    public func width(ofColumn column: Int) -> Double {
        columnEdges.indices.contains(column + 1) && column >= 0 ? columnEdges[column + 1] - columnEdges[column] : 0
    }

    /// The width the frozen columns take.
    public var frozenWidth: Double { columnEdges[min(frozenColumns, columnCount)] }

    /// Where `column` starts on screen: a frozen column where it is, a scrolled one after the
    /// frozen ones from ``firstScrolledColumn``; `nil` for one scrolled off to the left.
    public func x(ofColumn column: Int) -> Double? {
        guard column >= 0, column < columnCount else { return nil }
        if column < frozenColumns { return columnEdges[column] }
        guard column >= firstScrolledColumn else { return nil }
        return frozenWidth + columnEdges[column] - columnEdges[firstScrolledColumn]
    }

    /// The columns on screen, left to right: the frozen ones, then the scrolled ones from
    /// ``firstScrolledColumn`` that start within ``width`` (the last one may be cut).
    public var visibleColumns: [Int] {
        var columns = Array(0..<min(frozenColumns, columnCount))
        var column = firstScrolledColumn
        while column < columnCount, let x = x(ofColumn: column), x < width || columns.isEmpty {
            columns.append(column)
            column += 1
        }
        return columns
    }

    /// The column on screen at `x`, or `nil` past the last one.
    public func column(atX x: Double) -> Int? {
        guard x >= 0 else { return nil }
        for column in visibleColumns {
            let start = self.x(ofColumn: column)!
            if x < start + width(ofColumn: column) { return column }
        }
        return nil
    }

    /// Makes `column` the first scrolled column on screen (frozen columns stay): the nearest
    /// column after the frozen ones.
    public mutating func scroll(toColumn column: Int) {
        firstScrolledColumn = max(min(frozenColumns, columnCount), min(column, columnCount - 1))
    }

    /// Scrolls the columns as little as needed for `column` to start on screen; a frozen column
    /// is always on screen.
    public mutating func reveal(column: Int) {
        guard column >= frozenColumns, column < columnCount else { return }
        if column < firstScrolledColumn { scroll(toColumn: column); return }
        while firstScrolledColumn < column, let x = x(ofColumn: column), x + width(ofColumn: column) > width {
            firstScrolledColumn += 1
        }
    }
}
