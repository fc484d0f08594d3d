import Foundation

extension FlowGeometry {
    /// Builds a ``FlowGeometry`` section by section, following the flow rules of
    /// `Documentation/FlowLayout.md` in the scroll frame (vertical; horizontal is transposed).
    public struct Builder {
        /// An exact fit stays on the line: widths are compared with this tolerance, in points.
        public static let fitTolerance: CGFloat = 1e-6

        let scrollDirection: CollectionView.ScrollDirection
        let crossSize: CGFloat
        let scale: CGFloat
        var cursor: CGFloat = 0
        var sections: [Section] = []
        let storage: FlowStorage

        /// Starts a geometry.
        /// - Parameters:
        ///   - crossSize: the content's size across the scroll axis (collection view width minus
        ///     the content inset's left and right when scrolling vertically).
        ///   - displayScale: pixels per point; origins are snapped to this grid.
        ///   - reservingItems: how many varied-size items to reserve storage for.
        public init(
            scrollDirection: CollectionView.ScrollDirection, crossSize: CGFloat, displayScale: CGFloat,
            reservingItems: Int = 0
        ) {
            self.init(
                scrollDirection: scrollDirection, crossSize: crossSize, displayScale: displayScale,
                reservingItems: reservingItems, recycling: nil)
        }

        /// A builder that writes into `recycled` storage — a geometry's storage that nothing
        /// else references any more — when it is large enough.
        init(
            scrollDirection: CollectionView.ScrollDirection, crossSize: CGFloat, displayScale: CGFloat,
            reservingItems: Int, recycling recycled: FlowStorage?
        ) {
            self.scrollDirection = scrollDirection
            self.crossSize = crossSize
            self.scale = displayScale
            if let recycled, recycled.frameCapacityValue >= reservingItems,
                recycled.frameCapacityValue <= 2 * max(reservingItems, 1024)
            {
                recycled.removeAll()
                storage = recycled
            } else {
                storage = FlowStorage(frameCapacity: reservingItems, lineCapacity: reservingItems / 2)
            }
        }

        /// Appends a section of `count` items that all have `itemSize` (in the scroll frame):
        /// O(1), no per-item work.
        public mutating func appendSection(_ metrics: FlowSectionMetrics, itemSize: CGSize, count: Int) {
            var section = beginSection(metrics, count: count)
            let available = crossSize - metrics.inset.horizontal
            let w = itemSize.width, h = itemSize.height
            let spacing = metrics.minimumInteritemSpacing
            let fit = Self.fitCount(width: w, spacing: spacing, available: available)
            let perLine = max(1, min(fit, count))
            let lineCount = count == 0 ? 0 : (count - 1) / perLine + 1
            // Every line of equal items is placed as a last line is (rule 4): a full line holds
            // `fit` items, so justifying it gives the same spacing, and the last line lines up
            // with the columns above.
            let placement = Self.linePlacement(
                count: perLine, sumWidths: CGFloat(perLine) * w, firstWidth: w,
                sameSize: true, isLastLine: true, available: available,
                spacing: spacing, leading: metrics.inset.left)
            let grid = UniformLines(
                size: itemSize, perLine: perLine, lineCount: lineCount, firstTop: cursor,
                lineStride: h + metrics.minimumLineSpacing, leading: placement.x,
                step: w + placement.gap)
            if lineCount > 0 {
                cursor += CGFloat(lineCount) * h + CGFloat(lineCount - 1) * metrics.minimumLineSpacing
            }
            section.items = .uniform(grid)
            endSection(&section, metrics)
        }

        /// Appends a section whose items have the given sizes (in the scroll frame). A section
        /// whose sizes are all equal is stored as a uniform one.
        ///
        /// - Complexity: O(n).
        public mutating func appendSection(_ metrics: FlowSectionMetrics, itemSizes: [CGSize]) {
            appendSection(metrics, itemSizes: itemSizes, transposed: false)
        }

        /// Appends a section of sizes as a delegate gave them: each is transposed when
        /// `transposed` and cleaned (negative or non-finite extents count as zero) as it is read,
        /// so the delegate's array is used without a copy. `detectUniform: false` forces per-item
        /// storage: how tests check that the uniform fast path computes what the general rules do.
        mutating func appendSection(
            _ metrics: FlowSectionMetrics, itemSizes: [CGSize], transposed: Bool,
            detectUniform: Bool = true
        ) {
            itemSizes.withUnsafeBufferPointer { raw in
                let sizes = SizeReader(raw: raw, transposed: transposed)
                if detectUniform, let first = raw.first, raw.allSatisfy({ $0 == first }) {
                    appendSection(metrics, itemSize: sizes[0], count: raw.count)
                    return
                }
                var section = beginSection(metrics, count: raw.count)
                let base = storage.frameCount
                let firstLine = storage.lineCount
                layOutLines(sizes, metrics)
                section.items = .varied(frameBase: base, lines: firstLine..<storage.lineCount)
                endSection(&section, metrics)
            }
        }

        /// Finishes the geometry.
        ///
        /// A builder is used once: appending after `finish()` would change the finished geometry.
        public func finish() -> FlowGeometry {
            storage.checkInvariants()
            let content = CGSize(width: crossSize, height: cursor)
            return FlowGeometry(
                scrollDirection: scrollDirection,
                contentSize: scrollDirection == .vertical ? content : LayoutGeometry.transposed(content),
                crossSize: crossSize, displayScale: scale, sections: sections, storage: storage)
        }

        // MARK: The steps of one section

        /// Header, then the top inset. Sections follow each other with no spacing.
        private mutating func beginSection(_ metrics: FlowSectionMetrics, count: Int) -> Section {
            let start = cursor
            var header: CGRect?
            if metrics.headerExtent > 0 {
                header = CGRect(
                    x: 0, y: LayoutGeometry.snapToPixel(cursor, scale: scale),
                    width: crossSize, height: metrics.headerExtent)
                cursor += metrics.headerExtent
            }
            let bodyStart = cursor
            cursor += metrics.inset.top
            return Section(
                start: start, end: start, header: header, footer: nil, bodyStart: bodyStart,
                bodyEnd: bodyStart, count: count,
                items: .uniform(
                    UniformLines(
                        size: .zero, perLine: 1, lineCount: 0, firstTop: cursor, lineStride: 0,
                        leading: 0, step: 0)), metrics: metrics)
        }

        /// The bottom inset, then the footer.
        private mutating func endSection(_ section: inout Section, _ metrics: FlowSectionMetrics) {
            cursor += metrics.inset.bottom
            section.bodyEnd = cursor
            if metrics.footerExtent > 0 {
                let footer = CGRect(
                    x: 0, y: LayoutGeometry.snapToPixel(cursor, scale: scale),
                    width: crossSize, height: metrics.footerExtent)
                section.footer = footer
                cursor += metrics.footerExtent
            }
            section.end = cursor
            sections.append(section)
        }

        /// Breaks items into lines greedily and places each line (``linePlacement``):
        /// 1. an item joins the line while `used + spacing + width <= available` (within
        ///    ``fitTolerance``); a line always holds at least one item;
        /// 5. items are centred vertically in their line, lines are `minimumLineSpacing` apart;
        /// 6. origins are snapped to the pixel grid, sizes are not.
        private mutating func layOutLines(_ sizes: SizeReader, _ metrics: FlowSectionMetrics) {
            let available = crossSize - metrics.inset.horizontal
            let limit = available + Self.fitTolerance
            let spacing = metrics.minimumInteritemSpacing
            let scale = self.scale
            let end = sizes.count
            let base = storage.frameCount
            let out = storage.appendFrames(end)
            var y = cursor
            var i = 0
            while i < end {
                let start = i
                let first = sizes[i]
                var used = first.width, sumWidths = first.width, lineHeight = first.height
                var sameSize = true
                i += 1
                while i < end {
                    let size = sizes[i]
                    guard used + spacing + size.width <= limit else { break }
                    used += spacing + size.width
                    sumWidths += size.width
                    lineHeight = max(lineHeight, size.height)
                    sameSize = sameSize && size == first
                    i += 1
                }
                let placement = Self.linePlacement(
                    count: i - start, sumWidths: sumWidths, firstWidth: first.width,
                    sameSize: sameSize, isLastLine: i == end, available: available,
                    spacing: spacing, leading: metrics.inset.left)
                var x = placement.x
                for k in start..<i {
                    let size = sizes[k]
                    out[k] = Self.placedFrame(size, x: x, lineTop: y, lineHeight: lineHeight, scale: scale)
                    x += size.width + placement.gap
                }
                storage.appendLine(first: base + start, top: y, height: lineHeight)
                y += lineHeight
                if i < end { y += metrics.minimumLineSpacing }
            }
            cursor = y
        }

        /// Where a line's first item goes and the gap between its items — rules 2 to 4, the one
        /// place they are written:
        /// 2. a full line (not the section's last) of several items is justified: first at the
        ///    leading inset, last flush with the trailing inset;
        /// 3. a full line of one item is centred;
        /// 4. the last line, if all its items have one size, is spaced as if filled with as many
        ///    such items as would fit (centred when only one would); otherwise left-aligned with
        ///    the minimum spacing.
        static func linePlacement(
            count: Int, sumWidths: CGFloat, firstWidth: CGFloat, sameSize: Bool,
            isLastLine: Bool, available: CGFloat, spacing: CGFloat,
            leading: CGFloat
        ) -> (x: CGFloat, gap: CGFloat) {
            let centred = leading + (available - firstWidth) / 2
            if !isLastLine {
                return count == 1 ? (centred, spacing) : (leading, (available - sumWidths) / CGFloat(count - 1))
            }
            guard sameSize else { return (leading, spacing) }
            let fit = fitCount(width: firstWidth, spacing: spacing, available: available)
            if fit <= 1 { return (centred, spacing) }
            if fit == .max { return (leading, spacing) }
            return (leading, (available - CGFloat(fit) * firstWidth) / CGFloat(fit - 1))
        }

        /// An item's frame on a line: centred vertically in the line, origin snapped (rules 5, 6).
        @inline(__always)
        static func placedFrame(
            _ size: CGSize, x: CGFloat, lineTop: CGFloat, lineHeight: CGFloat,
            scale: CGFloat
        ) -> CGRect {
            CGRect(
                x: LayoutGeometry.snapToPixel(x, scale: scale),
                y: LayoutGeometry.snapToPixel(lineTop + (lineHeight - size.height) / 2, scale: scale),
                width: size.width, height: size.height)
        }

        /// How many items of `width` fit in `available` with `spacing` between them: at least 1,
        /// `Int.max` when items take no room at all (`width + spacing <= 0`).
        ///
        /// The count is `⌊(available + spacing) / (width + spacing)⌋` up to rounding; a spacing
        /// that almost cancels the width (−9.999999999999545 with width 10) makes that huge and
        /// the rounding coarse, so a disagreement is settled by binary search, never by stepping
        /// one item at a time.
        ///
        /// - Complexity: O(1) normally; at most 50 probes.
        static func fitCount(width: CGFloat, spacing: CGFloat, available: CGFloat) -> Int {
            let pitch = width + spacing
            guard pitch > 0 else { return .max }
            let limit = available + fitTolerance
            func fits(_ k: Int) -> Bool { CGFloat(k) * width + CGFloat(k - 1) * spacing <= limit }
            let estimate = ((limit + spacing) / pitch).rounded(.down)
            guard estimate.isFinite else { return .max }
            let cap = 1 << 50
            var k = Int(max(1, min(estimate, CGFloat(cap))))
            for _ in 0..<2 where k > 1 && !fits(k) { k -= 1 }
            for _ in 0..<2 where k < cap && fits(k + 1) { k += 1 }
            if (k == 1 || fits(k)) && (k == cap || !fits(k + 1)) { return k }
            var low = 1, high = cap
            while low < high {
                let mid = low + (high - low + 1) / 2
                if fits(mid) { low = mid } else { high = mid - 1 }
            }
            return low
        }
    }
}

/// Reads a delegate's sizes in the scroll frame: transposed for horizontal layouts, with negative
/// and non-finite extents read as zero.
struct SizeReader {
    let raw: UnsafeBufferPointer<CGSize>
    let transposed: Bool

    var count: Int { raw.count }

    @inline(__always)
    subscript(i: Int) -> CGSize {
        let s = raw[i]
        let w = s.width.isFinite && s.width > 0 ? s.width : 0
        let h = s.height.isFinite && s.height > 0 ? s.height : 0
        return transposed ? CGSize(width: h, height: w) : CGSize(width: w, height: h)
    }
}
