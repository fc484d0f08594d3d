import TrellisCollectionView

/// The frames of a grid, closed-form: the math of ``GridLayout`` over plain values, in the
/// vertical frame (a horizontal grid is computed transposed).
///
/// Each section is its header, `rows = ⌈count / columns⌉` rows of equal cells between its insets,
/// and its footer; nothing is stored per item, so any item's frame and any rect's items are
/// computed directly.
struct GridGeometry: Sendable {
    /// One section's placement.
    struct Section: Sendable {
        var top: CGFloat
        var count: Int
        var rows: Int
        /// Where the first row starts and the section (footer included) ends.
        var itemsTop: CGFloat
        var bottom: CGFloat
        var headerHeight: CGFloat
        var footerHeight: CGFloat
    }

    var columns: Int
    var itemWidth: CGFloat
    var itemHeight: CGFloat
    var interitemSpacing: CGFloat
    var lineSpacing: CGFloat
    var inset: EdgeInsets
    var width: CGFloat
    var scale: CGFloat
    var sections: [Section] = []
    var height: CGFloat = 0

    /// The grid of `count[s]` items per section in a container `width` wide.
    init(
        width: CGFloat, scale: CGFloat, rule: GridLayout.ColumnRule, itemHeight: GridLayout.ItemHeight,
        interitemSpacing: CGFloat, lineSpacing: CGFloat, inset: EdgeInsets, headerHeight: CGFloat,
        footerHeight: CGFloat, counts: [Int]
    ) throws(LayoutConfigurationError) {
        try LayoutConfigurationError.checkSize(interitemSpacing, "the interitem spacing")
        try LayoutConfigurationError.checkSize(lineSpacing, "the line spacing")
        for (edge, value) in [("top", inset.top), ("left", inset.left), ("bottom", inset.bottom), ("right", inset.right)] {
            try LayoutConfigurationError.checkSize(value, "the section inset \(edge)")
        }
        try LayoutConfigurationError.checkSize(headerHeight, "the header height")
        try LayoutConfigurationError.checkSize(footerHeight, "the footer height")
        let available = width - inset.left - inset.right
        switch rule {
        case .count(let n):
            guard n >= 1, n <= 10_000 else {
                throw LayoutConfigurationError(
                    "the column count is \(n); give a column count of at least 1"
                        + (n > 0 ? " and at most 10000" : ""))
            }
            columns = n
        case .minimumWidth(let minimum):
            guard minimum.isFinite, minimum > 0 else {
                throw LayoutConfigurationError(
                    "the minimum column width is \(LayoutConfigurationError.format(minimum)); "
                        + "give a finite width above 0")
            }
            let fit = ((available + interitemSpacing) / (minimum + interitemSpacing)).rounded(.down)
            columns = fit.isFinite ? Int(max(1, min(fit, 10_000))) : 1
        }
        let n = CGFloat(columns)
        itemWidth = (available - (n - 1) * interitemSpacing) / n
        guard itemWidth >= 0 else {
            throw LayoutConfigurationError(
                "\(columns) columns \(LayoutConfigurationError.format(interitemSpacing)) apart "
                    + "do not fit in \(LayoutConfigurationError.format(width)) points less the "
                    + "section inset; use fewer columns, less spacing or a smaller inset")
        }
        switch itemHeight {
        case .aspectRatio(let ratio):
            guard ratio.isFinite, ratio > 0 else {
                throw LayoutConfigurationError(
                    "the aspect ratio is \(LayoutConfigurationError.format(ratio)); "
                        + "give a finite width / height above 0")
            }
            self.itemHeight = itemWidth / ratio
        case .fixed(let height):
            try LayoutConfigurationError.checkSize(height, "the item height")
            self.itemHeight = height
        }
        self.interitemSpacing = interitemSpacing
        self.lineSpacing = lineSpacing
        self.inset = inset
        self.width = width
        self.scale = scale
        var top: CGFloat = 0
        sections.reserveCapacity(counts.count)
        for count in counts {
            let rows = (count + columns - 1) / columns
            let itemsTop = top + headerHeight + inset.top
            let itemsExtent = rows == 0 ? 0 : CGFloat(rows) * self.itemHeight + CGFloat(rows - 1) * lineSpacing
            let bottom = itemsTop + itemsExtent + inset.bottom + footerHeight
            sections.append(
                Section(
                    top: top, count: count, rows: rows, itemsTop: itemsTop, bottom: bottom,
                    headerHeight: headerHeight, footerHeight: footerHeight))
            top = bottom
        }
        height = top
    }

    @inline(__always)
    private func snap(_ v: CGFloat) -> CGFloat { LayoutGeometry.snapToPixel(v, scale: scale) }

    /// The frame of item `item` of `section`, edges on the pixel grid.
    func itemFrame(section: Int, item: Int) -> CGRect {
        let s = sections[section]
        let row = item / columns, column = item % columns
        let x = inset.left + CGFloat(column) * (itemWidth + interitemSpacing)
        let y = s.itemsTop + CGFloat(row) * (itemHeight + lineSpacing)
        let minX = snap(x), minY = snap(y)
        return CGRect(x: minX, y: minY, width: snap(x + itemWidth) - minX, height: snap(y + itemHeight) - minY)
    }

    func headerFrame(section: Int) -> CGRect? {
        let s = sections[section]
        guard s.headerHeight > 0 else { return nil }
        let minY = snap(s.top)
        return CGRect(x: 0, y: minY, width: width, height: snap(s.top + s.headerHeight) - minY)
    }

    func footerFrame(section: Int) -> CGRect? {
        let s = sections[section]
        guard s.footerHeight > 0 else { return nil }
        let minY = snap(s.bottom - s.footerHeight)
        return CGRect(x: 0, y: minY, width: width, height: snap(s.bottom) - minY)
    }

    /// Every element intersecting `rect`, section by section: header, items in order, footer.
    func forEachElement(in rect: CGRect, _ body: (CollectionView.ElementCategory, String?, Int, Int, CGRect) -> Void) {
        // Sections end in order; the first one whose end passes the rect's top, then on while
        // they start above its bottom (a pixel of slack for snapped edges).
        let slack = 1 / max(scale, 1)
        var low = 0, high = sections.count
        while low < high {
            let mid = (low + high) >> 1
            if sections[mid].bottom + slack > rect.minY { high = mid } else { low = mid + 1 }
        }
        var section = low
        while section < sections.count, sections[section].top - slack < rect.maxY {
            let s = sections[section]
            if let header = headerFrame(section: section), LayoutGeometry.intersects(header, rect) {
                body(.supplementaryView, CollectionView.elementKindSectionHeader, section, 0, header)
            }
            if s.rows > 0 {
                // Row r spans itemsTop + r·pitch ..< + itemHeight; one row of slack either side
                // of the division, the exact test decides.
                let pitch = itemHeight + lineSpacing, columnPitch = itemWidth + interitemSpacing
                var firstRow = 0, lastRow = s.rows - 1, firstColumn = 0, lastColumn = columns - 1
                if pitch > 0 {
                    firstRow = max(0, Self.floorIndex((rect.minY - slack - s.itemsTop - itemHeight) / pitch, limit: s.rows))
                    lastRow = min(s.rows - 1, Self.floorIndex((rect.maxY + slack - s.itemsTop) / pitch, limit: s.rows))
                }
                if columnPitch > 0 {
                    firstColumn = max(
                        0,
                        Self.floorIndex(
                            (rect.minX - slack - inset.left - itemWidth) / columnPitch,
                            limit: columns))
                    lastColumn = min(
                        columns - 1,
                        Self.floorIndex(
                            (rect.maxX + slack - inset.left) / columnPitch,
                            limit: columns))
                }
                if firstRow <= lastRow, firstColumn <= lastColumn {
                    for row in firstRow...lastRow {
                        for column in firstColumn...lastColumn {
                            let item = row * columns + column
                            guard item < s.count else { break }
                            let frame = itemFrame(section: section, item: item)
                            if LayoutGeometry.intersects(frame, rect) { body(.cell, nil, section, item, frame) }
                        }
                    }
                }
            }
            if let footer = footerFrame(section: section), LayoutGeometry.intersects(footer, rect) {
                body(.supplementaryView, CollectionView.elementKindSectionFooter, section, 0, footer)
            }
            section += 1
        }
    }

    /// `⌊v⌋` as an index, -1 for anything below 0 (or NaN), `limit` for anything at or above it:
    /// a rect may reach far beyond the content.
    @inline(__always)
    static func floorIndex(_ v: CGFloat, limit: Int) -> Int {
        guard v > -1 else { return -1 }
        guard v < CGFloat(limit) else { return limit }
        return Int(v.rounded(.down))
    }
}
