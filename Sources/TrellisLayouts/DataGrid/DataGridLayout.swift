import Foundation
import TrellisCollectionView
import TrellisGrid
import TrellisText

/// A collection-view layout for a ``DataGrid``: one cell per displayed row and column, a header row
/// pinned to the top while scrolling vertically, frozen leading columns pinned while scrolling
/// horizontally, pinned top rows under the header and pinned bottom rows (the average row) at the
/// bottom of the viewport.
///
/// ```swift
/// let layout = DataGridLayout(grid: grid)
/// layout.frozenColumns = 1
/// let host = StaticLayoutHost(layout: layout, itemCounts: [layout.itemCount],
///                             bounds: CGRect(x: 0, y: 0, width: 375, height: 600))
/// host.layoutAttributesForElements(in: host.bounds)   // header, visible rows, the pinned average row
/// ```
///
/// Items are numbered row by row: item `row · columnCount + column` of section 0, rows in the
/// grid's displayed order. Header cells are supplementary views of kind
/// ``DataGridLayout/columnHeaderKind`` at `[0, column]`.
///
/// Rows have one height, so a rect query finds its rows by arithmetic and its columns by binary
/// search over the column edges: O(log columns + k) at any number of rows. zIndex stacks what is
/// pinned above what scrolls: body 0, frozen columns 1, pinned rows 2 (3 where frozen), the header
/// 4 (5 where frozen).
open class DataGridLayout: CollectionViewLayout {
    /// How a column's width is chosen.
    public enum ColumnWidth: Sendable, Equatable {
        /// A fixed width.
        case fixed(CGFloat)
        /// Wide enough for its header and the values of the first `sample` displayed rows (and the
        /// pinned ones), measured as text, but no wider than `maximum`.
        case fitContent(maximum: CGFloat, sample: Int = 1000)
    }

    /// The kind of header cells.
    public static let columnHeaderKind = "columnHeader"

    /// The grid laid out.
    public let grid: DataGrid
    /// The height of each row. Default 32.
    open var rowHeight: CGFloat = 32 {
        didSet { if rowHeight != oldValue { invalidateLayout() } }
    }
    /// The height of the header row. Default 36.
    open var headerHeight: CGFloat = 36 {
        didSet { if headerHeight != oldValue { invalidateLayout() } }
    }
    /// How many leading columns stay in view when scrolling horizontally. Default 0; a negative
    /// count is none.
    open var frozenColumns = 0 {
        didSet {
            if frozenColumns < 0 { frozenColumns = 0 }
            if frozenColumns != oldValue { invalidateLayout() }
        }
    }
    /// How each column's width is chosen; missing entries fit their content up to 240 points.
    open var columnWidths: [ColumnWidth] = [] {
        didSet { if columnWidths != oldValue { invalidateLayout() } }
    }
    /// The width of one text column when fitting content (monospaced; wide characters take two),
    /// and the padding added around the text.
    open var characterWidth: CGFloat = 8 {
        didSet { if characterWidth != oldValue { invalidateLayout() } }
    }
    open var cellPadding: CGFloat = 16 {
        didSet { if cellPadding != oldValue { invalidateLayout() } }
    }

    /// Computed by ``prepare()``: the grid's rows and columns as every view of a grid reads them —
    /// pinned counts, frozen columns, column edges — with room for every row (the collection view
    /// scrolls the body; pinned rows follow its bounds at query time).
    public private(set) var gridViewport = GridViewport()
    /// The viewport's column edges in points, kept beside it for the queries: the left edge of
    /// each column and the total width.
    public private(set) var columnEdges: [CGFloat] = [0]
    private var gridObservation: GridObservation?
    /// Counts read once per pass from ``gridViewport``: the queries read them per cell.
    private var rowCount = 0
    private var columnCount = 0
    private var topCount = 0
    private var bottomCount = 0

    public init(grid: DataGrid) {
        self.grid = grid
        super.init()
        // A sort, a pin or a change of the grid's source changes what the rows show.
        gridObservation = grid.observe { [weak self] in self?.invalidateLayout() }
    }

    /// A grid layout needs its grid: it cannot be created from an archive.
    public required init?(coder: NSCoder) { nil }

    /// The number of items the collection view must report for section 0.
    public var itemCount: Int { grid.displayedRowCount * grid.columns.count }

    /// How many times ``prepare()`` read the rows and measured the columns: a scroll leaves it as is.
    @_spi(Instrumentation) public private(set) var metricsComputationCount = 0

    open override class var invalidationContextClass: AnyClass {
        DataGridLayoutInvalidationContext.self
    }

    /// Whether an invalidation since the last metrics pass asked for new metrics.
    private var metricsAreStale = true

    /// Notes whether the invalidation needs new metrics, as UIKit layouts read their context's
    /// flags: only a bounds change (whose context says `invalidateGridMetrics = false`) does not.
    open override func invalidateLayout(with context: CollectionViewLayoutInvalidationContext) {
        let keepsMetrics =
            !context.invalidateEverything && !context.invalidateDataSourceCounts
            && (context as? DataGridLayoutInvalidationContext)?.invalidateGridMetrics == false
        if !keepsMetrics { metricsAreStale = true }
        super.invalidateLayout(with: context)
    }

    /// Reads the displayed rows and measures the columns, unless only bounds changed since the
    /// last time: pinned elements follow the bounds at query time, so scrolling needs no new metrics.
    open override func prepare() {
        super.prepare()
        guard metricsAreStale else { return }
        metricsAreStale = false
        metricsComputationCount += 1
        var viewport = GridViewport(showingAllOf: grid.order, frozenColumns: frozenColumns)
        rowCount = viewport.rowCount
        topCount = viewport.pinnedTopCount
        bottomCount = viewport.pinnedBottomCount
        viewport.setColumnWidths(grid.columns.indices.map { Double(width(ofColumn: $0)) })
        gridViewport = viewport
        columnCount = viewport.columnCount
        columnEdges = viewport.columnEdges.map { CGFloat($0) }
    }

    private func width(ofColumn column: Int) -> CGFloat {
        let rule = column < columnWidths.count ? columnWidths[column] : .fitContent(maximum: 240)
        switch rule {
        case .fixed(let width): return max(0, width.isFinite ? width : 0)
        case .fitContent(let maximum, let sample):
            var widest = TextWidth.columns(grid.columns[column].title) + 2  // room for a sort glyph
            let sampled = Array(0..<min(rowCount, max(0, sample))) + Array(max(0, rowCount - bottomCount)..<rowCount)
            for index in sampled + Array(0..<min(topCount, rowCount)) {
                guard let row = grid.displayedRow(at: index) else { continue }
                widest = max(widest, TextWidth.columns(grid.text(row, column: column)))
            }
            return min(max(0, maximum), CGFloat(widest) * characterWidth + cellPadding)
        }
    }

    open override var collectionViewContentSize: CGSize {
        CGSize(width: columnEdges.last ?? 0, height: headerHeight + CGFloat(rowCount) * rowHeight)
    }

    /// Pinned elements move with the bounds, so every bounds change invalidates; see
    /// ``invalidationContext(forBoundsChange:)`` for why that costs nothing.
    open override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool { true }

    /// A context that keeps the metrics: no row height or column width depends on the bounds.
    open override func invalidationContext(forBoundsChange newBounds: CGRect) -> CollectionViewLayoutInvalidationContext {
        let context = super.invalidationContext(forBoundsChange: newBounds)
        (context as? DataGridLayoutInvalidationContext)?.invalidateGridMetrics = false
        return context
    }

    // MARK: Placement

    private struct Viewport {
        var top: CGFloat, bottom: CGFloat, left: CGFloat
    }

    private var viewport: Viewport {
        guard let host = collectionView else { return Viewport(top: 0, bottom: .greatestFiniteMagnitude, left: 0) }
        let inset = host.adjustedContentInset
        return Viewport(
            top: host.bounds.minY + inset.top, bottom: host.bounds.maxY - inset.bottom,
            left: host.bounds.minX + inset.left)
    }

    private func rowY(_ row: Int, _ v: Viewport) -> CGFloat {
        let natural = headerHeight + CGFloat(row) * rowHeight
        if row < topCount { return max(natural, v.top + headerHeight + CGFloat(row) * rowHeight) }
        if row >= rowCount - bottomCount {
            let fromEnd = CGFloat(rowCount - row)
            return min(natural, max(v.top + headerHeight + CGFloat(topCount) * rowHeight, v.bottom - fromEnd * rowHeight))
        }
        return natural
    }

    private func columnX(_ column: Int, _ v: Viewport) -> CGFloat {
        let natural = columnEdges[column]
        return column < frozenColumns ? max(natural, v.left + natural) : natural
    }

    private func isPinnedRow(_ row: Int) -> Bool { row < topCount || row >= rowCount - bottomCount }

    private func cell(row: Int, column: Int, _ v: Viewport) -> CollectionViewLayoutAttributes {
        let frame = CGRect(
            x: columnX(column, v), y: rowY(row, v), width: columnEdges[column + 1] - columnEdges[column],
            height: rowHeight)
        let frozen = column < frozenColumns ? 1 : 0
        let attributes = attributesClass.init(category: .cell, kind: nil, section: 0, item: row * columnCount + column)
        attributes.frame = frame
        attributes.zIndex = (isPinnedRow(row) ? 2 : 0) + frozen
        return attributes
    }

    private func header(_ column: Int, _ v: Viewport) -> CollectionViewLayoutAttributes {
        let frame = CGRect(
            x: columnX(column, v), y: max(0, v.top), width: columnEdges[column + 1] - columnEdges[column],
            height: headerHeight)
        let attributes = attributesClass.init(
            category: .supplementaryView, kind: Self.columnHeaderKind, section: 0,
            item: column)
        attributes.frame = frame
        attributes.zIndex = 4 + (column < frozenColumns ? 1 : 0)
        return attributes
    }

    // MARK: Queries

    open override func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        let columns = columnCount
        guard indexPath.count == 2, indexPath.section == 0, columns > 0, indexPath.item >= 0,
            indexPath.item < rowCount * columns
        else { return nil }
        return cell(row: indexPath.item / columns, column: indexPath.item % columns, viewport)
    }

    open override func layoutAttributesForSupplementaryView(
        ofKind elementKind: String,
        at indexPath: IndexPath
    ) -> CollectionViewLayoutAttributes? {
        guard elementKind == Self.columnHeaderKind, indexPath.count == 2, indexPath.section == 0,
            (0..<columnCount).contains(indexPath.item)
        else { return nil }
        return header(indexPath.item, viewport)
    }

    /// The body rows and scrolling columns that meet the rect by arithmetic and binary search,
    /// plus the pinned rows, frozen columns and header cells, each only where it meets the rect.
    open override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
        let columns = columnCount
        guard columns > 0, !rect.isNull, !(rect.minX.isNaN || rect.minY.isNaN) else { return [] }
        let v = viewport
        let r = rect.standardized
        var result: [CollectionViewLayoutAttributes] = []
        result.reserveCapacity(128)
        // Columns whose natural span meets the rect, and the frozen ones (which move).
        let first = max(0, partitionPoint(columns) { columnEdges[$0 + 1] <= r.minX })
        var columnRange = Array(first..<columns).prefix { columnEdges[$0] < r.maxX }.map { $0 }
        for column in 0..<min(frozenColumns, columns) where !columnRange.contains(column) { columnRange.append(column) }
        columnRange.sort()
        // Body rows whose natural span meets the rect.
        let bodyStart = topCount, bodyEnd = rowCount - bottomCount
        if bodyEnd > bodyStart, rowHeight > 0 {
            let low = ((r.minY - headerHeight) / rowHeight).rounded(.down)
            let high = ((r.maxY - headerHeight) / rowHeight).rounded(.up)
            if low.isFinite, high.isFinite {
                let from = max(bodyStart, Int(max(-1, min(low, CGFloat(bodyEnd)))))
                let to = min(bodyEnd, Int(max(-1, min(high, CGFloat(bodyEnd)))) + 1)
                if from < to { appendRows(from..<to, columnRange, r, v, &result) }
            }
        }
        appendRows(0..<topCount, columnRange, r, v, &result)
        appendRows(max(bodyEnd, topCount)..<rowCount, columnRange, r, v, &result)
        for column in columnRange {
            let attributes = header(column, v)
            if LayoutGeometry.intersects(attributes.frame, r) { result.append(attributes) }
        }
        return result
    }

    private func appendRows(
        _ range: Range<Int>, _ columns: [Int], _ rect: CGRect, _ v: Viewport,
        _ result: inout [CollectionViewLayoutAttributes]
    ) {
        for row in range {
            for column in columns {
                let attributes = cell(row: row, column: column, v)
                if LayoutGeometry.intersects(attributes.frame, rect) { result.append(attributes) }
            }
        }
    }

    /// Every element with its attributes for the current bounds: a brute-force reference for tests
    /// and small grids.
    public func allElements() -> [CollectionViewLayoutAttributes] {
        let v = viewport
        var all: [CollectionViewLayoutAttributes] = []
        for row in 0..<rowCount { for column in 0..<columnCount { all.append(cell(row: row, column: column, v)) } }
        for column in 0..<columnCount { all.append(header(column, v)) }
        return all
    }
}

/// The first index in `0..<count` for which `isBefore` is false (a prefix is true).
private func partitionPoint(_ count: Int, _ isBefore: (Int) -> Bool) -> Int {
    var low = 0, high = count
    while low < high {
        let mid = (low + high) / 2
        if isBefore(mid) { low = mid + 1 } else { high = mid }
    }
    return low
}

/// The invalidation context of a ``DataGridLayout``.
open class DataGridLayoutInvalidationContext: CollectionViewLayoutInvalidationContext {
    /// Whether the displayed rows must be read and the columns measured again. Default `true`;
    /// `false` in the contexts of bounds changes.
    open var invalidateGridMetrics = true

}
