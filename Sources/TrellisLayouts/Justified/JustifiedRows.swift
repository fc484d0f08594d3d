import TrellisCollectionView

/// What ``justifiedLayout(_:_:)`` computes: Flickr's `{containerHeight, widowCount, boxes}`,
/// plus the rows.
public struct JustifiedLayoutResult: Equatable, Sendable {
    /// One row of boxes.
    public struct Row: Equatable, Sendable {
        /// The indices of the row's items (and boxes).
        public var items: Range<Int>
        /// The row's top edge.
        public var top: CGFloat
        /// The row's height: every box in it is this high.
        public var height: CGFloat
        /// Whether the row was created as a full-width breakout row (its first item may still
        /// have been portrait, and the row an ordinary one).
        public var isBreakoutRow: Bool
    }

    /// The height of the container: the top padding, the rows and the spacing between them,
    /// and the bottom padding.
    public var containerHeight: CGFloat
    /// How many items the last, incomplete row holds (0 when every row is complete or widows
    /// are not shown).
    public var widowCount: Int
    /// The frame of each laid-out item, in item order: every item, unless `maxNumRows` stopped
    /// the layout or widows are hidden, in which case the items after the last box have none.
    public var boxes: [CGRect]
    /// The rows, top to bottom.
    public var rows: [Row]
}

/// Lays `aspectRatios` (width / height of each item) out in justified rows: Flickr's
/// justified-layout, for the same input the same boxes (`left`, `top`, `width`, `height`
/// bit for bit, unrounded) and the same container height and widow count.
///
/// ```swift
/// var configuration = JustifiedLayoutConfiguration()
/// configuration.containerWidth = 400
/// configuration.targetRowHeight = 100
/// let result = try justifiedLayout([1, 1, 1, 1], configuration)
/// result.boxes[0]          // (10.0, 10.0, 120.0, 120.0): three to a row, (380 − 2·10) / 3 wide
/// result.boxes[3]          // (10.0, 140.0, 120.0, 120.0): the widow, at the previous row's height
/// result.containerHeight   // 270.0
/// ```
///
/// Items are added to a row while its height, fitted to the width, stays above the tolerance
/// band; the item that brings it into the band completes it, and an item that would make it too
/// short completes it only when that lands nearer the target than leaving the item for the next
/// row. Heights outside half to twice the target are clamped (the boxes then keep the row's
/// width, not their aspect ratio), the widths are corrected by their rounded share of the error
/// so that every full row ends exactly at the right padding, and the widows take the previous
/// row's height.
///
/// - Throws: ``LayoutConfigurationError`` for an option out of range or an item whose aspect
///   ratio is not a finite number above 0, named by its index.
/// - Complexity: O(n) time (Flickr's library is O(n²): it copies its output list for each row)
///   and O(n) memory for the boxes.
public func justifiedLayout(
    _ aspectRatios: [CGFloat],
    _ configuration: JustifiedLayoutConfiguration
) throws(LayoutConfigurationError)
    -> JustifiedLayoutResult
{
    var builder = try JustifiedRowBuilder(configuration, capacity: aspectRatios.count)
    try aspectRatios.withUnsafeBufferPointer { (ratios) throws(LayoutConfigurationError) in
        try builder.lay(ratios)
    }
    return builder.result
}

/// The row-breaking state machine of ``justifiedLayout(_:_:)``, one item at a time.
///
/// Every arithmetic step is written in the order Flickr's code evaluates it, so the same doubles
/// come out; only the bookkeeping differs (a running sum per row instead of a sum over the row's
/// items for each new item, boxes written in place instead of lists concatenated per row).
struct JustifiedRowBuilder {
    private let configuration: JustifiedLayoutConfiguration
    /// Between the left and right padding.
    private let rowWidth: CGFloat
    private let minAspectRatio: CGFloat
    private let maxAspectRatio: CGFloat
    private let minRowHeight: CGFloat
    private let maxRowHeight: CGFloat
    private let spacing: CGFloat
    private let maxRows: Int
    /// Added to every box's top: where the container starts in the boxes' coordinates.
    private let yOffset: CGFloat

    private(set) var boxes: [CGRect] = []
    private(set) var rows: [JustifiedLayoutResult.Row] = []
    private var containerHeight: CGFloat
    private var widowCount = 0
    /// Rows laid out before this builder's first (see `continuing`).
    private let rowsBefore: Int

    /// The open row: its first item, its size, the sum of its aspect ratios and its top.
    private var rowStart = 0
    private var rowCount = 0
    private var rowSum: CGFloat = 0
    private var rowTop: CGFloat = 0
    private var rowIsBreakout = false

    /// A builder that appends `capacity` boxes or fewer to `boxes`, each moved down by `yOffset`
    /// (added to Flickr's top, so that a container at offset 0 gives Flickr's numbers exactly).
    /// Row ranges and `rows` stay relative to this container's first item.
    /// `rows` is storage to reuse: its contents are dropped, its capacity kept.
    ///
    /// `continuing`, when given, goes on after rows laid out elsewhere: the container's height
    /// after them and how many there were (for `maxNumRows` and the breakout cadence).
    init(
        _ configuration: JustifiedLayoutConfiguration, capacity: Int, appendingTo boxes: consuming [CGRect] = [],
        reusing rows: consuming [JustifiedLayoutResult.Row] = [], yOffset: CGFloat = 0,
        continuing: (containerHeight: CGFloat, rows: Int)? = nil
    ) throws(LayoutConfigurationError) {
        try configuration.validate()
        rowsBefore = continuing?.rows ?? 0
        self.boxes = boxes
        rows.removeAll(keepingCapacity: true)
        self.rows = rows
        self.yOffset = yOffset
        self.configuration = configuration
        rowWidth = configuration.containerWidth - configuration.containerPadding.left - configuration.containerPadding.right
        if capacity > 0 {
            try configuration.checkRowWidth()
        }
        let target = configuration.targetRowHeight, tolerance = configuration.targetRowHeightTolerance
        minAspectRatio = rowWidth / target * (1 - tolerance)
        maxAspectRatio = rowWidth / target * (1 + tolerance)
        minRowHeight = 0.5 * target
        maxRowHeight = 2 * target
        spacing = configuration.boxSpacing.horizontal
        maxRows = configuration.maxNumRows ?? .max
        containerHeight = continuing?.containerHeight ?? configuration.containerPadding.top
        // Grown geometrically: a builder per section, each reserving exactly what it adds, would
        // copy every box laid out so far once per section (200,000 one-item sections: 52 s).
        let needed = self.boxes.count + capacity
        if self.boxes.capacity < needed { self.boxes.reserveCapacity(max(needed, 2 * self.boxes.capacity)) }
    }

    /// Hands the rows over without copying them.
    mutating func takeRows() -> [JustifiedLayoutResult.Row] {
        var taken: [JustifiedLayoutResult.Row] = []
        swap(&taken, &rows)
        return taken
    }

    /// Hands the boxes over without copying them.
    mutating func takeBoxes() -> [CGRect] {
        var taken: [CGRect] = []
        swap(&taken, &boxes)
        return taken
    }

    /// The layout, once ``lay(_:)`` ran.
    var result: JustifiedLayoutResult {
        JustifiedLayoutResult(containerHeight: containerHeight, widowCount: widowCount, boxes: boxes, rows: rows)
    }

    /// Lays out `ratios` until they end or `maxNumRows` rows are complete, then the widows, and
    /// closes the container with its bottom padding.
    mutating func lay(_ ratios: UnsafeBufferPointer<CGFloat>) throws(LayoutConfigurationError) {
        reserveRows(for: ratios)
        defer {
            containerHeight = containerHeight - configuration.boxSpacing.vertical
            containerHeight = containerHeight + configuration.containerPadding.bottom
        }
        openRow(at: 0)
        let forced = configuration.forceAspectRatio
        let minAspectRatio = self.minAspectRatio
        var index = 0
        while index < ratios.count {
            let ratio = forced ?? ratios[index]
            guard ratio.isFinite, ratio > 0 else {
                throw LayoutConfigurationError(
                    item: index,
                    "the aspect ratio is \(LayoutConfigurationError.format(ratio)); "
                        + "give the item a width and a height above 0")
            }
            // Most items only join the open row (``add(_:ratios:forced:)``'s first case): here,
            // without a call.
            let newAspectRatio = rowSum + ratio
            if newAspectRatio < minAspectRatio, !rowIsBreakout || rowCount > 0 || ratio < 1 {
                rowCount += 1
                rowSum = newAspectRatio
                index += 1
                continue
            }
            if !add(ratio, ratios: ratios, forced: forced) {
                // Rejected: the row closed without it, and it opens the next one (where it is
                // never rejected: an empty row takes any item).
                guard closeRow(next: index) else { return }
                _ = add(ratio, ratios: ratios, forced: forced)
            }
            index += 1
            if rowIsComplete {
                guard closeRow(next: index) else { return }
            }
        }
        placeWidows(ratios)
    }

    /// Room for the rows the items will make, estimated from their aspect ratios (a row holds
    /// about the row width over the target height of them): grown once, instead of doubling
    /// and copying as a million items' quarter-million rows arrive.
    private mutating func reserveRows(for ratios: UnsafeBufferPointer<CGFloat>) {
        guard ratios.count > 64 else { return }
        var sum: CGFloat = 0
        if let forced = configuration.forceAspectRatio {
            sum = forced * CGFloat(ratios.count)
        } else {
            for r in ratios where r.isFinite && r > 0 { sum += r }
        }
        let perRow = max(1, rowWidth / configuration.targetRowHeight)
        let estimate = Int(min(CGFloat(ratios.count), (sum / perRow * 1.25).rounded(.up))) + 16
        let needed = rows.count + estimate
        if rows.capacity < needed { rows.reserveCapacity(max(needed, 2 * rows.capacity)) }
    }

    /// The height of a completed open row; 0 while it is open.
    private var openHeight: CGFloat = 0
    private var rowIsComplete: Bool { openHeight > 0 }

    private mutating func openRow(at item: Int) {
        rowStart = item
        rowCount = 0
        rowSum = 0
        rowTop = containerHeight
        openHeight = 0
        if let cadence = configuration.fullWidthBreakoutRowCadence {
            rowIsBreakout = (rowsBefore + rows.count + 1) % cadence == 0
        } else {
            rowIsBreakout = false
        }
    }

    /// Adds the completed open row and opens the next at `next`; `false` when that was the
    /// last row allowed.
    private mutating func closeRow(next: Int) -> Bool {
        rows.append(
            JustifiedLayoutResult.Row(
                items: rowStart..<(rowStart + rowCount), top: rowTop,
                height: openHeight, isBreakoutRow: rowIsBreakout))
        containerHeight += openHeight + configuration.boxSpacing.vertical
        if rowsBefore + rows.count >= maxRows {
            rowCount = 0
            rowStart = next
            return false
        }
        openRow(at: next)
        return true
    }

    /// Flickr's `Row.addItem`: whether the open row takes the item (it may also complete).
    private mutating func add(_ ratio: CGFloat, ratios: UnsafeBufferPointer<CGFloat>, forced: CGFloat?) -> Bool {
        let newAspectRatio = rowSum + ratio
        let target = configuration.targetRowHeight
        let widthWithout = rowWidth - CGFloat(rowCount) * spacing
        let targetAspectRatio = widthWithout / target
        if rowIsBreakout, rowCount == 0, ratio >= 1 {
            take(ratio)
            complete(height: widthWithout / ratio, style: .justify, ratios: ratios, forced: forced)
            return true
        }
        if newAspectRatio < minAspectRatio {
            take(ratio)
            return true
        }
        if newAspectRatio > maxAspectRatio {
            if rowCount == 0 {
                take(ratio)
                complete(height: widthWithout / newAspectRatio, style: .justify, ratios: ratios, forced: forced)
                return true
            }
            let previousWidth = rowWidth - CGFloat(rowCount - 1) * spacing
            let previousTarget = previousWidth / target
            if abs(newAspectRatio - targetAspectRatio) > abs(rowSum - previousTarget) {
                complete(height: previousWidth / rowSum, style: .justify, ratios: ratios, forced: forced)
                return false
            }
        }
        take(ratio)
        complete(height: widthWithout / newAspectRatio, style: .justify, ratios: ratios, forced: forced)
        return true
    }

    private mutating func take(_ ratio: CGFloat) {
        rowCount += 1
        rowSum += ratio
    }

    /// Flickr's `Row.completeLayout`: the row's height (clamped) and its boxes.
    private mutating func complete(
        height newHeight: CGFloat, style: JustifiedLayoutConfiguration.WidowLayoutStyle,
        ratios: UnsafeBufferPointer<CGFloat>, forced: CGFloat?
    ) {
        let left = configuration.containerPadding.left
        let widthWithout = rowWidth - CGFloat(rowCount - 1) * spacing
        let clamped = max(minRowHeight, min(newHeight, maxRowHeight))
        let height: CGFloat, clampedToNativeRatio: CGFloat
        if newHeight != clamped {
            height = clamped
            clampedToNativeRatio = (widthWithout / clamped) / (widthWithout / newHeight)
        } else {
            height = newHeight
            clampedToNativeRatio = 1.0
        }
        openHeight = height
        let first = boxes.count
        let count = rowCount
        // The row's boxes, made room for at once and written in place (one uniqueness check a
        // row, not one an item).
        boxes.append(contentsOf: repeatElement(CGRect.zero, count: count))
        let top = rowTop + yOffset, start = rowStart, spacing = self.spacing
        boxes.withUnsafeMutableBufferPointer { boxes in
            let row = UnsafeMutableBufferPointer(rebasing: boxes[first..<(first + count)])
            var widthSum = left
            for offset in 0..<count {
                let width = (forced ?? ratios[start + offset]) * height * clampedToNativeRatio
                row[offset] = CGRect(x: widthSum, y: top, width: width, height: height)
                widthSum += width + spacing
            }
            switch style {
            case .justify:
                widthSum -= (spacing + left)
                let errorPerItem = (widthSum - rowWidth) / CGFloat(count)
                var previous: CGFloat = 0
                for offset in 0..<count {
                    let rounded = Self.jsRound(CGFloat(offset + 1) * errorPerItem)
                    row[offset].origin.x -= previous
                    row[offset].size.width -= (rounded - previous)
                    previous = rounded
                }
            case .center:
                let centerOffset = (rowWidth - widthSum) / 2
                for offset in 0..<count {
                    row[offset].origin.x += centerOffset + spacing
                }
            case .left:
                break
            }
        }
    }

    /// Flickr's `forceComplete` of the last row: its items at the previous row's height (the
    /// target height after a breakout row or when there is no previous row).
    private mutating func placeWidows(_ ratios: UnsafeBufferPointer<CGFloat>) {
        guard rowCount > 0, !rowIsComplete, configuration.showWidows else { return }
        let height: CGFloat
        if let last = rows.last {
            height = last.isBreakoutRow ? configuration.targetRowHeight : last.height
        } else {
            height = configuration.targetRowHeight
        }
        complete(
            height: height, style: configuration.widowLayoutStyle, ratios: ratios,
            forced: configuration.forceAspectRatio)
        let count = rowCount
        _ = closeRow(next: rowStart + rowCount)
        widowCount = count
    }

    /// JavaScript's `Math.round`: to the nearest integer, halves toward +∞.
    @inline(__always)
    static func jsRound(_ x: CGFloat) -> CGFloat {
        let floor = x.rounded(.down)
        return x - floor >= 0.5 ? floor + 1 : floor
    }
}

/// The first rows of a justified container whose items all have one aspect ratio: each row
/// takes the same items at the same height and the same boxes, one row's pitch below the one
/// before, so they are kept as one row of boxes and ``RepeatedRows`` (nothing per item). The
/// last rows — where the items run out, widows, `maxNumRows` — are laid out by the row builder
/// as usual, continuing from where these end.
struct JustifiedRun: Sendable {
    /// The items the repeated rows hold (the container's first).
    let items: Int
    /// One row's boxes, left to right: their left edges and widths.
    let lefts: [CGFloat]
    let widths: [CGFloat]
    let rows: RepeatedRows
    /// Added to every top, as the row builder adds it.
    let yOffset: CGFloat

    var perRow: Int { lefts.count }

    /// The repeated rows of `count` items of aspect ratio `ratio`, or `nil` when too few rows
    /// repeat to be worth it (or rows would not go down, or breakout rows break the pattern).
    /// The rows are the builder's own: found by laying out the first rows with it.
    static func plan(
        ratio: CGFloat, count: Int, configuration: JustifiedLayoutConfiguration,
        yOffset: CGFloat
    ) throws(LayoutConfigurationError) -> JustifiedRun? {
        guard configuration.fullWidthBreakoutRowCadence == nil, count >= 64 else { return nil }
        let probeCount = min(count, 4096)
        var probe = try JustifiedRowBuilder(configuration, capacity: probeCount)
        let ratios = [CGFloat](repeating: ratio, count: probeCount)
        try ratios.withUnsafeBufferPointer { (ratios) throws(LayoutConfigurationError) in try probe.lay(ratios) }
        let result = probe.result
        let complete = result.rows.count - (result.widowCount > 0 ? 1 : 0)
        guard complete >= 2 else { return nil }
        let first = result.rows[0], second = result.rows[1]
        let k = first.items.count
        guard k > 0, second.items.count == k, second.height == first.height,
            (0..<k).allSatisfy({
                result.boxes[$0].origin.x == result.boxes[k + $0].origin.x
                    && result.boxes[$0].size.width == result.boxes[k + $0].size.width
            })
        else { return nil }
        // Two rows' worth or more stay for the builder, so that the last complete row (whose
        // height widows take) is its own.
        let repeated = min(count / k - 2, (configuration.maxNumRows ?? .max) - 1)
        guard repeated >= 2,
            let rows = RepeatedRows(
                top: configuration.containerPadding.top, count: repeated, height: first.height,
                spacing: configuration.boxSpacing.vertical, order: .pitch)
        else { return nil }
        return JustifiedRun(
            items: repeated * k, lefts: result.boxes[0..<k].map(\.origin.x),
            widths: result.boxes[0..<k].map(\.size.width), rows: rows, yOffset: yOffset)
    }

    /// The box of `item` in a row whose top (in the container) is `top`.
    @inline(__always)
    func box(_ item: Int, rowTop top: CGFloat) -> CGRect {
        let j = item % perRow
        return CGRect(x: lefts[j], y: top + yOffset, width: widths[j], height: rows.height)
    }

    func box(_ item: Int) -> CGRect { box(item, rowTop: rows.top(item / perRow)) }

    var bytes: Int { rows.bytes + (lefts.capacity + widths.capacity) * MemoryLayout<CGFloat>.stride }
}
