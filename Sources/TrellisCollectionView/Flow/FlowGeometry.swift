import Foundation

/// The computed geometry of a flow layout: the pure "sizes in → frames out" core of
/// ``CollectionViewFlowLayout``, usable and testable on its own.
///
/// ```swift
/// var builder = FlowGeometry.Builder(scrollDirection: .vertical, crossSize: 300, displayScale: 2)
/// builder.appendSection(FlowSectionMetrics(), itemSize: CGSize(width: 60, height: 60), count: 7)
/// let geometry = builder.finish()
/// geometry.itemFrame(section: 0, item: 5)  // (80.0, 70.0, 60.0, 60.0): last line spaced like the columns above
/// ```
///
/// Storage is compact (with very many items, attributes are made only when asked): a
/// section of equal-sized items stores a handful of numbers and needs no per-item work; a section
/// of varied sizes stores one `CGRect` per item and three numbers per line. Rect queries find the
/// first section and line by binary search and walk only what intersects.
///
/// - Complexity: building is O(n) for varied sections and O(1) for uniform ones; a rect query is
///   O(log n + k) for k elements returned; a per-item query is O(1).
public struct FlowGeometry: Sendable {
    /// The scroll direction the geometry was computed for.
    public let scrollDirection: CollectionView.ScrollDirection
    /// The size of the scrollable content, in output coordinates.
    public internal(set) var contentSize: CGSize
    /// The content's extent across the scroll axis (its width when scrolling vertically).
    public let crossSize: CGFloat
    /// The display scale origins were snapped to.
    public let displayScale: CGFloat

    var sections: [Section]
    /// Item frames and line records of the varied sections.
    var storage: FlowStorage

    struct Section: Sendable {
        var start: CGFloat
        var end: CGFloat
        var header: CGRect?
        var footer: CGRect?
        /// The section's inset box along the scroll axis: from the top of the top inset to the
        /// bottom of the bottom inset.
        var bodyStart: CGFloat
        var bodyEnd: CGFloat
        var count: Int
        var items: Items
        /// The metrics the section was built with, for later updates of one line.
        var metrics: FlowSectionMetrics
    }

    enum Items: Sendable {
        case uniform(UniformLines)
        case varied(frameBase: Int, lines: Range<Int>)
    }

    /// A section of equal-sized items: every position follows from a few numbers.
    struct UniformLines: Sendable {
        var size: CGSize
        var perLine: Int
        var lineCount: Int
        var firstTop: CGFloat
        var lineStride: CGFloat
        /// Where the first item of a line goes (centred when a line holds one item).
        var leading: CGFloat
        /// From one item's x to the next one's.
        var step: CGFloat
    }

    /// Where pinned headers and footers stick: the visible span along the scroll axis (in the
    /// scroll frame, insets already applied) and which of the two kinds are pinned.
    public struct Pinning: Hashable, Sendable {
        public var headers: Bool
        public var footers: Bool
        /// The top of the visible area (content offset plus the adjusted top inset).
        public var visibleMin: CGFloat
        /// The bottom of the visible area (its top plus the viewport less the bottom inset).
        public var visibleMax: CGFloat

        public init(headers: Bool, footers: Bool, visibleMin: CGFloat, visibleMax: CGFloat) {
            self.headers = headers
            self.footers = footers
            self.visibleMin = visibleMin
            self.visibleMax = visibleMax
        }
    }

    /// Whether this build checks the storage's bounds and invariants
    /// (`TRELLIS_INVARIANT_CHECKS`, on in debug builds): the tests run with the checks, the
    /// benchmarks refuse to.
    @_spi(Instrumentation) public static var invariantChecksEnabled: Bool {
        #if TRELLIS_INVARIANT_CHECKS
            return true
        #else
            return false
        #endif
    }

    /// The zIndex of pinned headers and footers, above cells.
    public static let pinnedZIndex = 1024

    /// A header's frame in the scroll frame: its natural place, or with pinning
    /// `min(max(natural, visibleMin), bodyEnd − height)`, never above its natural place.
    func headerFrame(_ section: Section, _ pinning: Pinning?) -> CGRect? {
        guard var frame = section.header else { return nil }
        guard let pinning, pinning.headers else { return frame }
        let natural = frame.origin.y
        let pinned = min(max(natural, pinning.visibleMin), section.bodyEnd - frame.height)
        frame.origin.y = LayoutGeometry.snapToPixel(max(natural, pinned), scale: displayScale)
        return frame
    }

    /// A footer's frame: mirrored against the visible bottom and the section's body start.
    func footerFrame(_ section: Section, _ pinning: Pinning?) -> CGRect? {
        guard var frame = section.footer else { return nil }
        guard let pinning, pinning.footers else { return frame }
        let natural = frame.origin.y
        let pinned = max(min(natural, pinning.visibleMax - frame.height), section.bodyStart)
        frame.origin.y = LayoutGeometry.snapToPixel(min(natural, pinned), scale: displayScale)
        return frame
    }

    /// The sections whose span meets `[minimum, maximum)` along the scroll axis (scroll frame).
    public func sections(meeting minimum: CGFloat, _ maximum: CGFloat) -> Range<Int> {
        let first = partitionPoint(sections.count) { sections[$0].end <= minimum }
        var last = first
        while last < sections.count, sections[last].start < maximum { last += 1 }
        return first..<last
    }

    /// How far snapping may move an element outside its unsnapped line: one pixel.
    var snapMargin: CGFloat { 1 / max(displayScale, 1) }

    // MARK: Reading

    /// The number of sections.
    public var numberOfSections: Int { sections.count }

    /// The number of items in `section`, 0 when it does not exist.
    public func numberOfItems(inSection section: Int) -> Int {
        sections.indices.contains(section) ? sections[section].count : 0
    }

    /// The frame of an item in output coordinates, `nil` for an index outside the layout.
    public func itemFrame(section: Int, item: Int) -> CGRect? {
        guard sections.indices.contains(section), item >= 0, item < sections[section].count else { return nil }
        return output(scrollFrameOfItem(sections[section], item))
    }

    /// The frame of a section's header in output coordinates (pinned when `pinning` says so),
    /// `nil` when it has none.
    public func headerFrame(section: Int, pinning: Pinning? = nil) -> CGRect? {
        guard sections.indices.contains(section) else { return nil }
        return headerFrame(sections[section], pinning).map(output)
    }

    /// The frame of a section's footer in output coordinates, `nil` when it has none.
    public func footerFrame(section: Int, pinning: Pinning? = nil) -> CGRect? {
        guard sections.indices.contains(section) else { return nil }
        return footerFrame(sections[section], pinning).map(output)
    }

    /// The rectangle a section occupies, headers and footers included, across the full content.
    public func sectionFrame(section: Int) -> CGRect? {
        guard sections.indices.contains(section) else { return nil }
        let s = sections[section]
        return output(CGRect(x: 0, y: s.start, width: crossSize, height: s.end - s.start))
    }

    /// The rectangle of a section's inset box — between its header and footer, insets included,
    /// across the full content: where a section background goes.
    public func sectionBodyFrame(section: Int) -> CGRect? {
        guard sections.indices.contains(section) else { return nil }
        let s = sections[section]
        return output(CGRect(x: 0, y: s.bodyStart, width: crossSize, height: s.bodyEnd - s.bodyStart))
    }

    /// Bytes held by the geometry's storage: what a layout of this size costs in memory.
    public var storageBytes: Int {
        sections.capacity * MemoryLayout<Section>.stride + storage.bytes
    }

    /// Calls `body` for every element whose frame intersects `rect` (see
    /// ``LayoutGeometry/intersects(_:_:)``), section by section; within a section the header first,
    /// then the items in order, then the footer. Frames are in output coordinates.
    ///
    /// - Complexity: O(log n + k).
    public func forEachElement(
        in rect: CGRect, pinning: Pinning? = nil,
        _ body: (
            _ category: CollectionElementCategory, _ kind: String?,
            _ section: Int, _ item: Int, _ frame: CGRect
        ) -> Void
    ) {
        let query = input(rect)
        var minY = query.origin.y, maxY = query.origin.y + query.size.height
        if maxY < minY { swap(&minY, &maxY) }
        guard !(query.origin.x.isNaN || minY.isNaN || maxY.isNaN || query.size.width.isNaN),
            !sections.isEmpty
        else { return }
        let margin = snapMargin
        var s = partitionPoint(sections.count) { sections[$0].end + margin <= minY }
        while s < sections.count, sections[s].start - margin < maxY {
            let section = sections[s]
            // A pinned header or footer stays within its section's span, so the sections met
            // by the rect are still the only ones to look at.
            if let header = headerFrame(section, pinning), LayoutGeometry.intersects(header, query) {
                body(.supplementaryView, CollectionView.elementKindSectionHeader, s, 0, output(header))
            }
            switch section.items {
            case .uniform(let grid):
                forEachUniformItem(grid, count: section.count, in: query, minY: minY, maxY: maxY) { item, frame in
                    body(.cell, nil, s, item, output(frame))
                }
            case .varied(let base, let lines):
                let storage = self.storage
                let frames = storage.frames, lineFirst = storage.lineFirst
                let lineTop = storage.lineTop, lineHeight = storage.lineHeight
                let shifted = storage.hasShifts
                // Lines are spread fairly evenly along the scroll axis: guess the first line by
                // interpolation and gallop from there, which touches a few cache lines where a
                // plain binary search over a million lines misses the cache a dozen times. A
                // line is skipped when its bottom (plus the snapping margin) is above the rect.
                let low = lines.lowerBound, n = lines.count
                let span = section.bodyEnd - section.bodyStart
                let fraction = span > 0 ? (minY - section.bodyStart) / span : 0
                let guess = fraction.isFinite ? Int(max(0, min(fraction, 1)) * CGFloat(max(n - 1, 0))) : 0
                var line =
                    low
                    + partitionPoint(n, from: guess) { k in
                        let l = low + k
                        let shift = shifted ? storage.shift(ofLine: l) : 0
                        return lineTop[l] + shift + lineHeight[l] + margin <= minY
                    }
                var shift = shifted && line < lines.upperBound ? storage.shift(ofLine: line) : 0
                while line < lines.upperBound, lineTop[line] + shift - margin < maxY {
                    let end = line + 1 < lines.upperBound ? lineFirst[line + 1] : base + section.count
                    for index in lineFirst[line]..<end {
                        let frame = shift == 0 ? frames[index] : shiftedFrame(index, line: line, shift: shift)
                        if LayoutGeometry.intersects(frame, query) { body(.cell, nil, s, index - base, output(frame)) }
                    }
                    line += 1
                    if shifted, line < lines.upperBound { shift += storage.lineShift[line] }
                }
            }
            if let footer = footerFrame(section, pinning), LayoutGeometry.intersects(footer, query) {
                body(.supplementaryView, CollectionView.elementKindSectionFooter, s, 0, output(footer))
            }
            s += 1
        }
    }

    /// The attributes of every element whose frame intersects `rect`, in the order of
    /// ``forEachElement(in:pinning:_:)``, created as `attributesClass`; pinned kinds get
    /// ``pinnedZIndex``.
    public func layoutAttributes(
        in rect: CGRect, pinning: Pinning? = nil,
        class attributesClass: CollectionViewLayoutAttributes.Type = CollectionViewLayoutAttributes.self
    )
        -> [CollectionViewLayoutAttributes]
    {
        layoutAttributes(in: rect, pinning: pinning, class: attributesClass, recycler: nil)
    }

    /// The same, with objects of the base class taken from `recycler`.
    package func layoutAttributes(
        in rect: CGRect, pinning: Pinning?, class attributesClass: CollectionViewLayoutAttributes.Type,
        recycler: AttributesRecycler?, mirrorAcross mirror: CGFloat? = nil
    ) -> [CollectionViewLayoutAttributes] {
        var result: [CollectionViewLayoutAttributes] = []
        result.reserveCapacity(64)
        let pinsHeaders = pinning?.headers ?? false, pinsFooters = pinning?.footers ?? false
        // A subclass may observe its frame being set, and its objects cannot be recycled.
        let recycler = attributesClass == CollectionViewLayoutAttributes.self ? recycler : nil
        recycler?.begin()
        forEachElement(in: rect, pinning: pinning) { category, kind, section, item, frame in
            // Mirrored (a right-to-left view), each frame is made at its mirrored place.
            var frame = frame
            if let mirror { frame.origin.x = mirror - frame.origin.x - frame.size.width }
            let attributes: CollectionViewLayoutAttributes
            if let recycler {
                attributes = recycler.make(category: category, kind: kind, section: section, item: item, frame: frame)
            } else {
                attributes = attributesClass.init(category: category, kind: kind, section: section, item: item)
                attributes.frame = frame
            }
            if category == .supplementaryView, pinsHeaders || pinsFooters,
                (pinsHeaders && kind == CollectionView.elementKindSectionHeader)
                    || (pinsFooters && kind == CollectionView.elementKindSectionFooter)
            {
                attributes.zIndex = Self.pinnedZIndex
            }
            result.append(attributes)
        }
        return result
    }

    // MARK: Internals

    private func forEachUniformItem(
        _ grid: UniformLines, count: Int, in query: CGRect, minY: CGFloat, maxY: CGFloat,
        _ body: (Int, CGRect) -> Void
    ) {
        guard grid.lineCount > 0 else { return }
        let margin = snapMargin
        // First line whose bottom can reach the query, then walk down while lines can.
        var first = 0
        if grid.lineStride > 0 {
            let estimate = ((minY - margin - grid.firstTop - grid.size.height) / grid.lineStride).rounded(.down)
            first = estimate.isFinite ? Int(max(0, min(estimate, CGFloat(grid.lineCount)))) : 0
            while first > 0, grid.firstTop + CGFloat(first - 1) * grid.lineStride + grid.size.height + margin > minY {
                first -= 1
            }
        }
        var line = first
        while line < grid.lineCount {
            let top = grid.firstTop + CGFloat(line) * grid.lineStride
            if top - margin >= maxY { break }
            let startItem = line * grid.perLine
            let endItem = min(startItem + grid.perLine, count)
            for item in startItem..<endItem {
                let frame = uniformFrame(grid, item)
                if LayoutGeometry.intersects(frame, query) { body(item, frame) }
            }
            line += 1
        }
    }

    func uniformFrame(_ grid: UniformLines, _ item: Int) -> CGRect {
        let line = item / grid.perLine, column = item - line * grid.perLine
        let x = grid.leading + CGFloat(column) * grid.step
        let y = grid.firstTop + CGFloat(line) * grid.lineStride
        return CGRect(
            x: LayoutGeometry.snapToPixel(x, scale: displayScale),
            y: LayoutGeometry.snapToPixel(y, scale: displayScale),
            width: grid.size.width, height: grid.size.height)
    }

    func scrollFrameOfItem(_ section: Section, _ item: Int) -> CGRect {
        switch section.items {
        case .uniform(let grid): return uniformFrame(grid, item)
        case .varied(let base, let lines):
            guard storage.hasShifts else { return storage.frames[base + item] }
            let line = self.line(containing: base + item, in: lines)
            let shift = storage.shift(ofLine: line)
            return shift == 0 ? storage.frames[base + item] : shiftedFrame(base + item, line: line, shift: shift)
        }
    }

    /// The line (within `lines`) holding the item at frame index `index`. O(log n).
    func line(containing index: Int, in lines: Range<Int>) -> Int {
        let first = storage.lineFirst
        return lines.lowerBound + partitionPoint(lines.count) { first[lines.lowerBound + $0] <= index } - 1
    }

    /// An item's frame in a line that moved by `shift` since it was stored: placed again from the
    /// line's top, centred in the line's height, snapped.
    @inline(__always)
    func shiftedFrame(_ index: Int, line: Int, shift: CGFloat) -> CGRect {
        var frame = storage.frames[index]
        let top = storage.lineTop[line] + shift + (storage.lineHeight[line] - frame.size.height) / 2
        frame.origin.y = LayoutGeometry.snapToPixel(top, scale: displayScale)
        return frame
    }

    /// Scroll frame → output coordinates.
    @inline(__always) func output(_ rect: CGRect) -> CGRect {
        scrollDirection == .vertical ? rect : LayoutGeometry.transposed(rect)
    }

    /// Output coordinates → scroll frame.
    @inline(__always) func input(_ rect: CGRect) -> CGRect {
        scrollDirection == .vertical ? rect : LayoutGeometry.transposed(rect)
    }
}

/// ``partitionPoint(_:_:)`` searched outward from `guess`: O(log d) probes for an answer `d`
/// away from the guess, so a good guess costs a few probes wherever the answer lies.
@inline(__always)
func partitionPoint(_ count: Int, from guess: Int, _ isBefore: (Int) -> Bool) -> Int {
    guard count > 0 else { return 0 }
    let start = min(max(guess, 0), count - 1)
    var low: Int, high: Int
    if isBefore(start) {
        // The answer is after `start`: double the step until it is passed.
        var step = 1
        low = start + 1
        high = start + 1
        while high < count, isBefore(high) {
            low = high + 1
            high = min(count, start + step * 2)
            step *= 2
        }
    } else {
        var step = 1
        high = start
        low = start
        while low > 0, !isBefore(low - 1) {
            high = low - 1
            low = max(0, start - step * 2)
            step *= 2
        }
    }
    while low < high {
        let mid = low + (high - low) / 2
        if isBefore(mid) { low = mid + 1 } else { high = mid }
    }
    return low
}

/// The first index in `0..<count` for which `isBefore` is false, given that `isBefore` is true
/// for a prefix of the range and false after it.
@inline(__always)
func partitionPoint(_ count: Int, _ isBefore: (Int) -> Bool) -> Int {
    var low = 0, high = count
    while low < high {
        let mid = low + (high - low) / 2
        if isBefore(mid) { low = mid + 1 } else { high = mid }
    }
    return low
}
