import TrellisCollectionView

/// The values one section of a waterfall is laid out with, as ``WaterfallLayout`` gathers them
/// from its properties and delegate.
public struct WaterfallSectionMetrics: Equatable, Sendable {
    public var columnCount: Int
    public var columnSpacing: CGFloat
    public var interitemSpacing: CGFloat
    public var sectionInset: EdgeInsets
    public var headerHeight: CGFloat
    public var headerInset: EdgeInsets
    public var footerHeight: CGFloat
    public var footerInset: EdgeInsets

    public init(
        columnCount: Int = 2, columnSpacing: CGFloat = 10, interitemSpacing: CGFloat = 10,
        sectionInset: EdgeInsets = .zero, headerHeight: CGFloat = 0, headerInset: EdgeInsets = .zero,
        footerHeight: CGFloat = 0, footerInset: EdgeInsets = .zero
    ) {
        self.columnCount = columnCount
        self.columnSpacing = columnSpacing
        self.interitemSpacing = interitemSpacing
        self.sectionInset = sectionInset
        self.headerHeight = headerHeight
        self.headerInset = headerInset
        self.footerHeight = footerHeight
        self.footerInset = footerInset
    }

    /// The most columns a section may have: more could not be told apart on any screen, and each
    /// column costs work for every item.
    public static let maximumColumnCount = 1000

    func validate(section: Int) throws(LayoutConfigurationError) {
        guard columnCount >= 1, columnCount <= Self.maximumColumnCount else {
            throw LayoutConfigurationError(
                section: section,
                "the column count is \(columnCount); give a column count "
                    + "of at least 1" + (columnCount > 0 ? " and at most \(Self.maximumColumnCount)" : ""))
        }
        try LayoutConfigurationError.checkFinite(columnSpacing, "the column spacing", section: section)
        try LayoutConfigurationError.checkFinite(interitemSpacing, "the interitem spacing", section: section)
        try LayoutConfigurationError.checkInsets(sectionInset, "section inset", section: section)
        try LayoutConfigurationError.checkInsets(headerInset, "header inset", section: section)
        try LayoutConfigurationError.checkInsets(footerInset, "footer inset", section: section)
        try LayoutConfigurationError.checkSize(headerHeight, "the header height", section: section)
        try LayoutConfigurationError.checkSize(footerHeight, "the footer height", section: section)
    }
}

/// The order in which a waterfall fills its columns (CHT's `ItemRenderDirection`).
public enum WaterfallItemRenderDirection: Int, CaseIterable, Sendable {
    /// Each item goes to the shortest column; of equally short ones, the leftmost.
    case shortestFirst
    /// Items go to the columns in turn, left to right, whatever their heights.
    case leftToRight
    /// Items go to the columns in turn, right to left.
    case rightToLeft
}

/// The frames of a waterfall, section by section: the math of ``WaterfallLayout`` over plain
/// values, following CHTCollectionViewWaterfallLayout's rules.
///
/// Per section: the header at `headerInset`, full width (less the header inset); the columns
/// `sectionInset.top` below it, each `itemWidth = floor((width − (n − 1)·spacing) / n)` wide
/// (floored to the pixel grid); each item to its column (``WaterfallItemRenderDirection``) at
/// the column's height, `floor(height · itemWidth / width)` high (to the pixel grid), and the
/// column `interitemSpacing` lower; a full-span item below the tallest column, as wide as all
/// columns; the footer `sectionInset.bottom` below the tallest column less one interitem spacing
/// (so an empty section ends one spacing higher, as CHT's does), at `footerInset`.
final class WaterfallGeometry {
    /// The frames of the items of sections stored item by item, sections concatenated.
    @exclusivity(unchecked) var frames: [CGRect] = []
    /// Each stored item's column; -1 for a full-span item.
    @exclusivity(unchecked) var columns: [Int32] = []
    /// Per section, the index of its first item among all items; one more entry at the end.
    @exclusivity(unchecked) var sectionStart: [Int] = [0]
    /// Per section, the index of its first item in ``frames``; one more entry at the end. A
    /// section of repeated rows stores none.
    @exclusivity(unchecked) var storedStart: [Int] = [0]
    /// Per section, its repeated rows when its items are all the same size with no full-span
    /// item (nothing stored per item: a million equal tiles hold a few kilobytes), else `nil`.
    @exclusivity(unchecked) var runs: [WaterfallRun?] = []
    /// Per section, its header and footer frames (`nil`: none).
    @exclusivity(unchecked) var headers: [CGRect?] = []
    @exclusivity(unchecked) var footers: [CGRect?] = []
    /// Per section, the vertical extent of everything it holds: which sections a rect meets.
    @exclusivity(unchecked) var sectionIndex = ExtentIndex()
    /// The height of all sections so far.
    @exclusivity(unchecked) var height: CGFloat = 0

    /// Every stored item's extent, in item order. Each item goes where a column ends, so with
    /// shortest-first placement the tops never go up (the shortest column only grows, a
    /// full-span item starts below the tallest) and one binary search finds a rect's items
    /// among their neighbours of the same band.
    @exclusivity(unchecked) var itemIndex = ExtentIndex()
    /// When the tops do go up (left-to-right or right-to-left turns, items kept in their
    /// columns after a size change, negative spacing), one column can run far ahead of another
    /// and item order is no guide: then ``seal()`` builds, per column index (across sections,
    /// which stack; the last list for full-span items), its stored items and an extent index
    /// over them.
    @exclusivity(unchecked) var columnItems: [[Int32]] = []
    @exclusivity(unchecked) var columnIndex: [ExtentIndex] = []

    /// The width of the collection view, the width columns are measured in (less the reference
    /// insets), and the display scale items are floored to.
    let boundsWidth: CGFloat
    let referenceWidth: CGFloat
    let scale: CGFloat

    init(boundsWidth: CGFloat, referenceWidth: CGFloat, scale: CGFloat) {
        self.boundsWidth = boundsWidth
        self.referenceWidth = referenceWidth
        self.scale = scale > 0 ? scale : 1
    }

    /// CHT's `floorToPixel`.
    @inline(__always)
    func floorToPixel(_ value: CGFloat) -> CGFloat { (value * scale).rounded(.down) / scale }

    /// The width of each column of a section.
    func itemWidth(_ metrics: WaterfallSectionMetrics) -> CGFloat {
        let width = referenceWidth - metrics.sectionInset.left - metrics.sectionInset.right
        let n = CGFloat(metrics.columnCount)
        return floorToPixel((width - (n - 1) * metrics.columnSpacing) / n)
    }

    /// The height of an item `itemWidth` wide of natural size `natural`.
    @inline(__always)
    func itemHeight(_ natural: CGSize, width itemWidth: CGFloat) -> CGFloat {
        natural.height > 0 && natural.width > 0 ? floorToPixel(natural.height * itemWidth / natural.width) : 0
    }

    /// Lays out one section. `sizes` and `spans` (the full-span items, ascending) describe its
    /// items; `keeping`, when given, is each item's column from a previous layout (the items stay
    /// in their columns). `itemsFromHere` (this section's and the later ones') is the room stored
    /// items may need, reserved once the first section is stored item by item.
    func appendSection(
        _ metrics: WaterfallSectionMetrics, count: Int, direction: WaterfallItemRenderDirection,
        keeping: [Int32]?, section: Int, sizes: SizeList, spans: [Int],
        itemsFromHere: Int = 0
    ) throws(LayoutConfigurationError) {
        try metrics.validate(section: section)
        let n = metrics.columnCount
        let itemWidth = self.itemWidth(metrics)
        guard itemWidth >= 0 else {
            throw LayoutConfigurationError(
                section: section,
                "\(n) columns \(LayoutConfigurationError.format(metrics.columnSpacing)) "
                    + "apart do not fit in \(LayoutConfigurationError.format(referenceWidth)) points "
                    + "less the section inset; use fewer columns, less spacing or a smaller inset")
        }
        let spanWidth = itemWidth * CGFloat(n) + metrics.columnSpacing * CGFloat(n - 1)
        var top = height
        var low = CGFloat.infinity, high = -CGFloat.infinity

        // 1. The header.
        headers.append(band(metrics.headerHeight, metrics.headerInset, top: &top, low: &low, high: &high))

        // 2. The items, each to its column: as repeated rows when they are all alike, else one by one.
        top += metrics.sectionInset.top
        let spacing = metrics.interitemSpacing
        var tallest = top
        var run: WaterfallRun?
        if keeping == nil, spans.isEmpty, count > 0, let natural = sizes.uniform {
            run = try WaterfallRun(
                natural: natural, count: count, columns: n, direction: direction, top: top,
                left: metrics.sectionInset.left, itemWidth: itemWidth, columnSpacing: metrics.columnSpacing,
                spacing: spacing, geometry: self, section: section)
        }
        runs.append(run)
        if let run {
            low = min(low, run.rows.first)
            high = max(high, run.rows.last + run.rows.height)
            tallest = run.rows.end
        } else {
            if frames.capacity < frames.count + count {
                let room = frames.count + max(count, itemsFromHere)
                frames.reserveCapacity(room)
                columns.reserveCapacity(room)
                itemIndex.reserveCapacity(room)
            }
            // The arrays are taken out for the loop (no exclusivity check or reference count per
            // item), and put back after it; a thrown error discards the whole geometry.
            var frames: [CGRect] = [], columns: [Int32] = [], itemIndex = ExtentIndex()
            swap(&frames, &self.frames)
            swap(&columns, &self.columns)
            swap(&itemIndex, &self.itemIndex)
            defer {
                swap(&frames, &self.frames)
                swap(&columns, &self.columns)
                swap(&itemIndex, &self.itemIndex)
            }
            var heights = [CGFloat](repeating: top, count: n)
            var turn = 0
            var nextSpan = 0
            for item in 0..<count {
                let natural = sizes[item]
                let isSpan: Bool
                if let keeping {
                    isSpan = keeping[item] < 0
                } else {
                    isSpan = nextSpan < spans.count && spans[nextSpan] == item
                    if isSpan { nextSpan += 1 }
                }
                let frame: CGRect
                if isSpan {
                    let y = heights.max() ?? top
                    frame = CGRect(
                        x: metrics.sectionInset.left, y: y, width: spanWidth,
                        height: itemHeight(natural, width: spanWidth))
                    try Self.check(frame, natural, section: section, item: item)
                    columns.append(-1)
                    for c in 0..<n { heights[c] = frame.maxY + spacing }
                    turn = 0
                } else {
                    let column: Int
                    if let keeping {
                        column = min(Int(keeping[item]), n - 1)
                    } else {
                        switch direction {
                        case .shortestFirst: column = Self.shortest(heights)
                        case .leftToRight: column = turn % n
                        case .rightToLeft: column = (n - 1) - (turn % n)
                        }
                    }
                    turn += 1
                    frame = CGRect(
                        x: metrics.sectionInset.left + (itemWidth + metrics.columnSpacing) * CGFloat(column),
                        y: heights[column], width: itemWidth, height: itemHeight(natural, width: itemWidth))
                    try Self.check(frame, natural, section: section, item: item)
                    columns.append(Int32(column))
                    heights[column] = frame.maxY + spacing
                }
                frames.append(frame)
                itemIndex.append(min: frame.minY, max: frame.maxY)
                low = min(low, frame.minY)
                high = max(high, frame.maxY)
            }
            tallest = heights.max() ?? top
        }
        sectionStart.append(sectionStart[sectionStart.count - 1] + count)
        storedStart.append(frames.count)

        // 3. The footer, below the tallest column.
        top = tallest - spacing + metrics.sectionInset.bottom
        footers.append(band(metrics.footerHeight, metrics.footerInset, top: &top, low: &low, high: &high))
        // A section with nothing to show is an empty extent where it would start.
        if low > high { low = height; high = height }
        sectionIndex.append(min: low, max: high)
        height = top
    }

    /// A header or footer `height` tall across the bounds less `inset`, placed at `top` (moved
    /// below it) and counted in the section's extent; `nil`, with only the inset's top added, when
    /// the height is 0.
    private func band(
        _ height: CGFloat, _ inset: EdgeInsets, top: inout CGFloat, low: inout CGFloat, high: inout CGFloat
    ) -> CGRect? {
        top += inset.top
        guard height > 0 else { return nil }
        let frame = CGRect(x: inset.left, y: top, width: boundsWidth - (inset.left + inset.right), height: height)
        low = min(low, frame.minY)
        high = max(high, frame.maxY)
        top = frame.maxY + inset.bottom
        return frame
    }

    /// The first of the shortest columns (CHT's strict `<` scan from the left).
    @inline(__always)
    static func shortest(_ heights: [CGFloat]) -> Int {
        var best = 0, bestHeight = heights[0]
        for c in 1..<heights.count where heights[c] < bestHeight {
            best = c
            bestHeight = heights[c]
        }
        return best
    }

    /// Rejects a size that would give a frame no renderer can draw.
    @inline(__always)
    static func check(_ frame: CGRect, _ natural: CGSize, section: Int, item: Int) throws(LayoutConfigurationError) {
        guard frame.size.height.isFinite, natural.width.isFinite, natural.height.isFinite,
            natural.width >= 0, natural.height >= 0
        else {
            throw LayoutConfigurationError(
                section: section, item: item,
                "the size is \(LayoutConfigurationError.format(natural.width)) × "
                    + "\(LayoutConfigurationError.format(natural.height)); give a finite width "
                    + "and height of 0 or more")
        }
    }

    /// Seals the indexes once every section is in.
    func seal() {
        itemIndex.seal()
        sectionIndex.seal()
        columnItems.removeAll()
        columnIndex.removeAll()
        if !itemIndex.minsAreSorted {
            let lists = Int(columns.max() ?? -1) + 2
            columnItems = Array(repeating: [], count: lists)
            columnIndex = Array(repeating: ExtentIndex(), count: lists)
            for (item, column) in columns.enumerated() {
                let list = column < 0 ? lists - 1 : Int(column)
                columnItems[list].append(Int32(item))
                columnIndex[list].append(min: frames[item].minY, max: frames[item].maxY)
            }
            for c in columnIndex.indices { columnIndex[c].seal() }
        }
    }

    /// The number of sections.
    var sectionCount: Int { headers.count }

    /// The number of items of `section`.
    func count(ofSection section: Int) -> Int { sectionStart[section + 1] - sectionStart[section] }

    /// The frame of `item` of `section` (both in range).
    func frame(section: Int, item: Int) -> CGRect {
        if let run = runs[section] { return run.frame(item) }
        return frames[storedStart[section] + item]
    }

    /// The column of `item` of `section` (both in range); -1 for a full-span item.
    func column(section: Int, item: Int) -> Int {
        if let run = runs[section] { return run.column(item) }
        return Int(columns[storedStart[section] + item])
    }

    /// Every item's column of `section`, in item order.
    func columns(ofSection section: Int) -> [Int32] {
        if let run = runs[section] { return (0..<run.count).map { Int32(run.column($0)) } }
        return Array(columns[storedStart[section]..<storedStart[section + 1]])
    }

    /// Bytes held, capacity included.
    var bytes: Int {
        frames.capacity * MemoryLayout<CGRect>.stride + columns.capacity * 4
            + itemIndex.bytes + columnItems.reduce(0) { $0 + $1.capacity * 4 } + columnIndex.reduce(0) { $0 + $1.bytes }
            + (sectionStart.capacity + storedStart.capacity) * 8
            + (headers.capacity + footers.capacity) * MemoryLayout<CGRect?>.stride
            + sectionIndex.bytes + runs.reduce(0) { $0 + ($1.map { $0.rows.bytes } ?? 0) + MemoryLayout<WaterfallRun?>.stride }
    }
}

/// A waterfall section whose items are all one size, none full-span: each row fills the columns
/// in turn (shortest first goes round the columns too, as they stay level row by row), so an
/// item's frame follows from its index and its row's top.
struct WaterfallRun: Sendable {
    let count: Int
    let columns: Int
    let direction: WaterfallItemRenderDirection
    let left: CGFloat
    /// Column to column: the item width plus the column spacing.
    let step: CGFloat
    let itemWidth: CGFloat
    let rows: RepeatedRows

    /// The run of `count` items of size `natural`, or `nil` where the rows would not go down
    /// row by row (then shortest-first would not go round the columns in turn, nor could a
    /// query find a row by its top).
    init?(
        natural: CGSize, count: Int, columns: Int, direction: WaterfallItemRenderDirection, top: CGFloat,
        left: CGFloat, itemWidth: CGFloat, columnSpacing: CGFloat, spacing: CGFloat,
        geometry: WaterfallGeometry, section: Int
    ) throws(LayoutConfigurationError) {
        let height = geometry.itemHeight(natural, width: itemWidth)
        try WaterfallGeometry.check(CGRect(x: left, y: top, width: itemWidth, height: height), natural, section: section, item: 0)
        guard
            let rows = RepeatedRows(
                top: top, count: (count + columns - 1) / columns, height: height, spacing: spacing,
                order: .bottomThenSpacing)
        else { return nil }
        self.count = count
        self.columns = columns
        self.direction = direction
        self.left = left
        step = itemWidth + columnSpacing
        self.itemWidth = itemWidth
        self.rows = rows
    }

    /// The column of `item`.
    @inline(__always)
    func column(_ item: Int) -> Int {
        direction == .rightToLeft ? (columns - 1) - item % columns : item % columns
    }

    /// The frame of `item` in a row whose top is `top`.
    @inline(__always)
    func frame(_ item: Int, top: CGFloat) -> CGRect {
        CGRect(x: left + step * CGFloat(column(item)), y: top, width: itemWidth, height: rows.height)
    }

    func frame(_ item: Int) -> CGRect { frame(item, top: rows.top(item / columns)) }
}

/// The sizes of a section's items as a delegate gives them: one size and a count while they are
/// all the same, an array once one differs.
struct SizeList {
    private(set) var count = 0
    private var first = CGSize.zero
    private var values: [CGSize] = []
    private var isUniform = true

    init() {}

    /// The sizes of a delegate's array (shared, not copied, when they differ).
    init(_ sizes: [CGSize]) {
        guard let head = sizes.first else { return }
        count = sizes.count
        first = head
        isUniform = sizes.allSatisfy { Self.same($0, head) }
        if !isUniform { values = sizes }
    }

    /// Whether two sizes are the same numbers, bit for bit but for NaN, which is never the same.
    private static func same(_ a: CGSize, _ b: CGSize) -> Bool {
        a.width.bitPattern == b.width.bitPattern && a.height.bitPattern == b.height.bitPattern
            && !a.width.isNaN && !a.height.isNaN
    }

    /// The one size of every item, when there is one (and at least one item).
    var uniform: CGSize? { count > 0 && isUniform ? first : nil }

    mutating func append(_ size: CGSize) {
        if count == 0 {
            first = size
        } else if isUniform, !Self.same(size, first) {
            isUniform = false
            values = [CGSize](repeating: first, count: count)
        }
        if !isUniform { values.append(size) }
        count += 1
    }

    subscript(_ i: Int) -> CGSize { isUniform ? first : values[i] }
}
