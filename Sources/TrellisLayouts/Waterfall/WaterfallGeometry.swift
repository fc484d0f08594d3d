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

    public init(columnCount: Int = 2, columnSpacing: CGFloat = 10, interitemSpacing: CGFloat = 10,
                sectionInset: EdgeInsets = .zero, headerHeight: CGFloat = 0, headerInset: EdgeInsets = .zero,
                footerHeight: CGFloat = 0, footerInset: EdgeInsets = .zero) {
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
            throw LayoutConfigurationError(section: section, "the column count is \(columnCount); give a column count "
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
struct WaterfallGeometry {
    /// Every item's frame, sections concatenated.
    var frames: [CGRect] = []
    /// Every item's column; -1 for a full-span item.
    var columns: [Int32] = []
    /// Per section, the index of its first item in ``frames``; one more entry at the end.
    var sectionStart: [Int] = [0]
    /// Per section, its header and footer frames (`nil`: none).
    var headers: [CGRect?] = []
    var footers: [CGRect?] = []
    /// The height of all sections so far.
    var height: CGFloat = 0

    /// Every item's extent, in item order. Each item goes where a column ends, so with
    /// shortest-first placement the tops never go up (the shortest column only grows, a
    /// full-span item starts below the tallest) and one binary search finds a rect's items
    /// among their neighbours of the same band.
    var itemIndex = ExtentIndex()
    /// When the tops do go up (left-to-right or right-to-left turns, items kept in their
    /// columns after a size change, negative spacing), one column can run far ahead of another
    /// and item order is no guide: then ``seal()`` builds, per column index (across sections,
    /// which stack; the last list for full-span items), its items and an extent index over them.
    var columnItems: [[Int32]] = []
    var columnIndex: [ExtentIndex] = []
    /// The headers and footers, in order: `section << 1 | 1` for a footer.
    var supplementaryCodes: [Int] = []
    var supplementaryIndex = ExtentIndex()

    /// The width of the collection view, the width columns are measured in (less the reference
    /// insets), and the display scale items are floored to.
    let boundsWidth: CGFloat
    let referenceWidth: CGFloat
    let scale: CGFloat

    init(boundsWidth: CGFloat, referenceWidth: CGFloat, scale: CGFloat, capacity: Int) {
        self.boundsWidth = boundsWidth
        self.referenceWidth = referenceWidth
        self.scale = scale > 0 ? scale : 1
        frames.reserveCapacity(capacity)
        columns.reserveCapacity(capacity)
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

    /// Lays out one section. `size(i)` and `isFullSpan(i)` describe its items; `keeping`, when
    /// given, is each item's column from a previous layout (the items stay in their columns).
    mutating func appendSection(_ metrics: WaterfallSectionMetrics, count: Int, direction: WaterfallItemRenderDirection,
                                keeping: ArraySlice<Int32>?, section: Int,
                                size: (Int) -> CGSize, isFullSpan: (Int) -> Bool) throws(LayoutConfigurationError) {
        try metrics.validate(section: section)
        let n = metrics.columnCount
        let itemWidth = self.itemWidth(metrics)
        guard itemWidth >= 0 else {
            throw LayoutConfigurationError(section: section, "\(n) columns \(LayoutConfigurationError.format(metrics.columnSpacing)) "
                                           + "apart do not fit in \(LayoutConfigurationError.format(referenceWidth)) points "
                                           + "less the section inset; use fewer columns, less spacing or a smaller inset")
        }
        let spanWidth = itemWidth * CGFloat(n) + metrics.columnSpacing * CGFloat(n - 1)
        var top = height

        // 1. The header.
        top += metrics.headerInset.top
        if metrics.headerHeight > 0 {
            let frame = CGRect(x: metrics.headerInset.left, y: top,
                               width: boundsWidth - (metrics.headerInset.left + metrics.headerInset.right),
                               height: metrics.headerHeight)
            headers.append(frame)
            supplementaryCodes.append(section << 1)
            supplementaryIndex.append(min: frame.minY, max: frame.maxY)
            top = frame.maxY + metrics.headerInset.bottom
        } else {
            headers.append(nil)
        }

        // 2. The items, each to its column.
        top += metrics.sectionInset.top
        var heights = [CGFloat](repeating: top, count: n)
        var turn = 0
        let spacing = metrics.interitemSpacing
        for item in 0..<count {
            let natural = size(item)
            let spans = keeping.map { $0[$0.startIndex + item] < 0 } ?? isFullSpan(item)
            if spans {
                let y = heights.max() ?? top
                var h: CGFloat = 0
                if natural.height > 0, natural.width > 0 { h = floorToPixel(natural.height * spanWidth / natural.width) }
                let frame = CGRect(x: metrics.sectionInset.left, y: y, width: spanWidth, height: h)
                try Self.check(frame, natural, section: section, item: item)
                frames.append(frame)
                columns.append(-1)
                itemIndex.append(min: frame.minY, max: frame.maxY)
                for c in 0..<n { heights[c] = frame.maxY + spacing }
                turn = 0
                continue
            }
            let column: Int
            if let keeping {
                column = min(Int(keeping[keeping.startIndex + item]), n - 1)
            } else {
                switch direction {
                case .shortestFirst: column = Self.shortest(heights)
                case .leftToRight: column = turn % n
                case .rightToLeft: column = (n - 1) - (turn % n)
                }
            }
            turn += 1
            var h: CGFloat = 0
            if natural.height > 0, natural.width > 0 { h = floorToPixel(natural.height * itemWidth / natural.width) }
            let frame = CGRect(x: metrics.sectionInset.left + (itemWidth + metrics.columnSpacing) * CGFloat(column),
                               y: heights[column], width: itemWidth, height: h)
            try Self.check(frame, natural, section: section, item: item)
            frames.append(frame)
            columns.append(Int32(column))
            itemIndex.append(min: frame.minY, max: frame.maxY)
            heights[column] = frame.maxY + spacing
        }
        sectionStart.append(frames.count)

        // 3. The footer, below the tallest column.
        top = (heights.max() ?? top) - spacing + metrics.sectionInset.bottom
        top += metrics.footerInset.top
        if metrics.footerHeight > 0 {
            let frame = CGRect(x: metrics.footerInset.left, y: top,
                               width: boundsWidth - (metrics.footerInset.left + metrics.footerInset.right),
                               height: metrics.footerHeight)
            footers.append(frame)
            supplementaryCodes.append(section << 1 | 1)
            supplementaryIndex.append(min: frame.minY, max: frame.maxY)
            top = frame.maxY + metrics.footerInset.bottom
        } else {
            footers.append(nil)
        }
        height = top
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
    private static func check(_ frame: CGRect, _ natural: CGSize, section: Int, item: Int) throws(LayoutConfigurationError) {
        guard frame.size.height.isFinite, natural.width.isFinite, natural.height.isFinite,
              natural.width >= 0, natural.height >= 0 else {
            throw LayoutConfigurationError(section: section, item: item,
                                           "the size is \(LayoutConfigurationError.format(natural.width)) × "
                                           + "\(LayoutConfigurationError.format(natural.height)); give a finite width "
                                           + "and height of 0 or more")
        }
    }

    /// Seals the indexes once every section is in.
    mutating func seal() {
        itemIndex.seal()
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
        supplementaryIndex.seal()
    }

    /// The section of the item at global index `item`.
    func section(ofItem item: Int) -> Int {
        // The last section starting at or before it: of empty sections sharing its start, the
        // one after them.
        var low = 0, high = sectionStart.count - 2
        while low < high {
            let mid = (low + high + 1) >> 1
            if sectionStart[mid] <= item { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// Bytes held, capacity included.
    var bytes: Int {
        frames.capacity * MemoryLayout<CGRect>.stride + columns.capacity * 4
            + itemIndex.bytes + columnItems.reduce(0) { $0 + $1.capacity * 4 } + columnIndex.reduce(0) { $0 + $1.bytes }
            + sectionStart.capacity * 8
            + (headers.capacity + footers.capacity) * MemoryLayout<CGRect?>.stride
            + supplementaryCodes.capacity * 8 + supplementaryIndex.bytes
    }
}
