import TrellisCollectionView

/// The sizes a ``JustifiedLayout`` lays out, asked of the collection view's delegate: only
/// `collectionView(_:layout:sizeForItemAt:)` is required, and only the aspect ratio (width /
/// height) of the size it answers is used, as Flickr's library reads `{width, height}`. The
/// methods are those of ``CollectionViewDelegateSizedItems``.
public protocol CollectionViewDelegateJustifiedLayout: CollectionViewDelegateSizedItems {}

/// Photos in rows of equal height that fill the width, each scaled by its aspect ratio: Flickr's
/// justified-layout as a collection-view layout, with its options (``configuration``) and, for
/// the same input, its numbers.
///
/// ```swift
/// let layout = JustifiedLayout()
/// layout.configuration.targetRowHeight = 180
/// layout.configuration.boxSpacing = .init(4)
/// collectionView.collectionViewLayout = layout
/// // the delegate adopts CollectionViewDelegateJustifiedLayout and answers each photo's size
/// ```
///
/// Each section is one of Flickr's containers, laid out by ``justifiedLayout(_:_:)`` at the
/// collection view's width (less its content insets), stacked top to bottom under an optional
/// header and over an optional footer, each the full width. A single section without header or
/// footer gives exactly Flickr's boxes and its `containerHeight` as the content height. Items
/// Flickr gives no box (after `maxNumRows`, or hidden widows) have no attributes.
///
/// Frames are Flickr's, unrounded; set ``snapsToPixels`` to round their edges to the display's
/// pixel grid.
///
/// A bad option or size does not trap: ``configurationError`` says what and where, and the layout
/// shows nothing until it is fixed.
///
/// - Complexity: `prepare()` O(n) for n items; a rect query O(log n + k) for k elements.
open class JustifiedLayout: CollectionViewLayout {
    /// Flickr's options. `containerWidth` is ignored: the collection view's width is used.
    open var configuration = JustifiedLayoutConfiguration() {
        didSet { if configuration != oldValue { invalidateLayout() } }
    }

    /// The height of each section's header, unless the delegate answers; 0 (the default) means
    /// none. Headers are `CollectionView.elementKindSectionHeader` views at `[section, 0]`.
    open var headerHeight: CGFloat = 0 {
        didSet { if headerHeight != oldValue { invalidateLayout() } }
    }

    /// The height of each section's footer, unless the delegate answers; 0 (the default) means none.
    open var footerHeight: CGFloat = 0 {
        didSet { if footerHeight != oldValue { invalidateLayout() } }
    }

    /// Whether frames are rounded to the display's pixel grid (each edge to the nearest pixel).
    /// Default `false`: Flickr's frames, unrounded.
    open var snapsToPixels = false {
        didSet { if snapsToPixels != oldValue { invalidateLayout() } }
    }

    /// Why the last `prepare()` laid out nothing, or `nil` when it succeeded.
    public private(set) var configurationError: LayoutConfigurationError?

    /// Kinds of entries in ``blocks``, in the order a rect query lists them.
    private enum BlockKind: UInt8 { case header, row, repeatedRows, footer }

    /// A header, a row or a footer: what the extent index finds.
    private struct Block {
        var kind: BlockKind
        var section: Int32
        /// For a row, its first item's index in `frames` and its item count; for repeated rows,
        /// their index in `runs`; for a header or footer, the index of its frame in
        /// `supplementaryFrames`.
        var first: Int
        var count: Int32
    }

    @exclusivity(unchecked) private var frames: [CGRect] = []
    /// Per section: the index in `frames` of its first item stored there (the first after its
    /// repeated rows, if it has them), and how many items have boxes.
    @exclusivity(unchecked) private var sectionStart: [Int] = []
    /// Per section: the index in `runs` of its repeated rows, or -1.
    @exclusivity(unchecked) private var sectionRun: [Int] = []
    /// Sections' first rows where every item has one aspect ratio (nothing stored per item).
    @exclusivity(unchecked) private var runs: [JustifiedRun] = []
    /// The display scale the last pass snapped to, or `nil` when it did not snap (what repeated
    /// rows' boxes are snapped with when asked: the pass's choice, as the stored boxes were).
    private var snapScale: CGFloat?
    @exclusivity(unchecked) private var sectionBoxCount: [Int] = []
    @exclusivity(unchecked) private var supplementaryFrames: [CGRect] = []
    @exclusivity(unchecked) private var headerIndex: [Int] = []
    @exclusivity(unchecked) private var footerIndex: [Int] = []
    @exclusivity(unchecked) private var blocks: [Block] = []
    @exclusivity(unchecked) private var index = ExtentIndex()
    @exclusivity(unchecked) private var widows: [Int] = []
    /// The rows of the section being laid out, reused from section to section and pass to pass.
    @exclusivity(unchecked) private var rowScratch: [JustifiedLayoutResult.Row] = []
    private var contentSize = CGSize.zero
    private let recycler = AttributesRecycler()
    /// The one object `forEachLayoutAttributes(in:_:)` hands out, element after element.
    private let elementRecycler = AttributesRecycler()

    /// How many widows `section`'s last row holds (Flickr's `widowCount`).
    open func widowCount(inSection section: Int) -> Int {
        widows.indices.contains(section) ? widows[section] : 0
    }

    /// Bytes held for the last layout, capacity included.
    public var memoryFootprint: Int {
        frames.capacity * MemoryLayout<CGRect>.stride + supplementaryFrames.capacity * MemoryLayout<CGRect>.stride
            + (sectionStart.capacity + sectionBoxCount.capacity + headerIndex.capacity + footerIndex.capacity
                + widows.capacity) * MemoryLayout<Int>.stride
            + blocks.capacity * MemoryLayout<Block>.stride + index.bytes
            + rowScratch.capacity * MemoryLayout<JustifiedLayoutResult.Row>.stride
            + sectionRun.capacity * MemoryLayout<Int>.stride + runs.reduce(0) { $0 + $1.bytes }
    }

    // MARK: The layout pass

    open override func prepare() {
        super.prepare()
        reset()
        guard let collectionView else { return }
        do {
            try build(collectionView)
        } catch {
            reset()
            configurationError = error
        }
    }

    private func reset() {
        frames.removeAll(keepingCapacity: true)
        sectionStart.removeAll(keepingCapacity: true)
        sectionRun.removeAll(keepingCapacity: true)
        runs.removeAll(keepingCapacity: true)
        sectionBoxCount.removeAll(keepingCapacity: true)
        supplementaryFrames.removeAll(keepingCapacity: true)
        headerIndex.removeAll(keepingCapacity: true)
        footerIndex.removeAll(keepingCapacity: true)
        blocks.removeAll(keepingCapacity: true)
        widows.removeAll(keepingCapacity: true)
        index.removeAll()
        contentSize = .zero
        configurationError = nil
    }

    /// Lays each section out as one of Flickr's containers and stacks them.
    private func build(_ collectionView: CollectionView) throws(LayoutConfigurationError) {
        let inset = collectionView.contentInset
        let width = collectionView.bounds.width - inset.left - inset.right
        var configuration = self.configuration
        configuration.containerWidth = max(0, width)
        try configuration.validate()
        let sections = collectionView.numberOfSections
        let delegate = collectionView.delegate as? CollectionViewDelegateJustifiedLayout
        let scale = collectionView.traitCollection.displayScale
        snapScale = snapsToPixels ? scale : nil
        let snapsToPixels = self.snapsToPixels
        var top: CGFloat = 0, lowestEdge: CGFloat = 0, widest = max(0, width)
        var ratios: [CGFloat] = []
        for section in 0..<sections {
            let count = collectionView.numberOfItems(inSection: section)
            guard count == 0 || delegate != nil else {
                throw LayoutConfigurationError(
                    section: section,
                    "the collection view's delegate does not adopt "
                        + "CollectionViewDelegateJustifiedLayout, so no item has a size; "
                        + "adopt it and answer sizeForItemAt")
            }
            let header = delegate?.collectionView(collectionView, layout: self, heightForHeaderIn: section) ?? headerHeight
            let footer = delegate?.collectionView(collectionView, layout: self, heightForFooterIn: section) ?? footerHeight
            try LayoutConfigurationError.checkSize(header, "the header height", section: section)
            try LayoutConfigurationError.checkSize(footer, "the footer height", section: section)
            if header > 0 { addSupplementary(.header, section: section, frame: CGRect(x: 0, y: top, width: width, height: header)) }
            headerIndex.append(header > 0 ? supplementaryFrames.count - 1 : -1)
            top += header

            var uniform: CGFloat?
            if let delegate {
                uniform = try aspectRatios(section: section, count: count, delegate: delegate, collectionView, into: &ratios)
            } else {
                ratios.removeAll(keepingCapacity: true)
            }
            if configuration.forceAspectRatio != nil, count > 0 { uniform = configuration.forceAspectRatio }
            // Items of one aspect ratio: the rows that repeat are kept as one row of boxes, and
            // the builder lays out only the last ones, from where they end.
            let run: JustifiedRun?
            do {
                run = try uniform.flatMap { (ratio) throws(LayoutConfigurationError) in
                    try JustifiedRun.plan(ratio: ratio, count: count, configuration: configuration, yOffset: top)
                }
            } catch {
                throw error.inSection(section)
            }
            // The builder lays out what the repeated rows leave: the ratios of the last items.
            if let uniform, ratios.isEmpty {
                ratios = [CGFloat](repeating: uniform, count: count - (run?.items ?? 0))
            } else if let run {
                // (Sizes of many ratios under a forced one: only their number matters now.)
                ratios.removeFirst(run.items)
            }
            if let run {
                sectionRun.append(runs.count)
                blocks.append(Block(kind: .repeatedRows, section: Int32(section), first: runs.count, count: 0))
                var low = top + run.rows.first, high = top + run.rows.last + run.rows.height
                if snapsToPixels {
                    low = LayoutGeometry.snapToPixel(low, scale: scale)
                    high = LayoutGeometry.snapToPixel(high, scale: scale)
                    lowestEdge = max(lowestEdge, high)
                }
                index.append(min: low, max: high)
                runs.append(run)
            } else {
                sectionRun.append(-1)
            }
            // Flickr's boxes go straight into `frames`, moved down to the section's top.
            let start = frames.count
            var builder: JustifiedRowBuilder
            do {
                builder = try JustifiedRowBuilder(
                    configuration, capacity: ratios.count,
                    appendingTo: Self.take(&frames), reusing: Self.take(&rowScratch), yOffset: top,
                    continuing: run.map { ($0.rows.end, $0.rows.count) })
                try ratios.withUnsafeBufferPointer { (ratios) throws(LayoutConfigurationError) in try builder.lay(ratios) }
            } catch {
                throw error.inSection(section)
            }
            frames = builder.takeBoxes()
            rowScratch = builder.takeRows()
            let result = builder.result
            sectionStart.append(start)
            sectionBoxCount.append(frames.count - start + (run?.items ?? 0))
            widows.append(result.widowCount)
            for row in rowScratch {
                blocks.append(
                    Block(
                        kind: .row, section: Int32(section), first: start + row.items.lowerBound,
                        count: Int32(row.items.count)))
                var low = top + row.top, high = top + row.top + row.height
                if snapsToPixels {
                    low = LayoutGeometry.snapToPixel(low, scale: scale)
                    high = LayoutGeometry.snapToPixel(high, scale: scale)
                }
                index.append(min: low, max: high)
            }
            if snapsToPixels {
                for i in start..<frames.count {
                    frames[i] = Self.snapped(frames[i], scale: scale)
                    lowestEdge = max(lowestEdge, frames[i].maxY)
                }
            }
            // Flickr lets widows at a tall previous row's height run past the right padding (full
            // rows end at it); the content grows to hold them rather than clip them.
            // (Past it by more than floating-point noise: a row's last box may end 1e-13 beyond.)
            for i in (frames.count - result.widowCount)..<frames.count where frames[i].maxX > widest + 1e-6 {
                widest = frames[i].maxX
            }
            top += result.containerHeight

            if footer > 0 {
                addSupplementary(.footer, section: section, frame: CGRect(x: 0, y: top, width: width, height: footer))
                lowestEdge = max(lowestEdge, supplementaryFrames[supplementaryFrames.count - 1].maxY)
            }
            footerIndex.append(footer > 0 ? supplementaryFrames.count - 1 : -1)
            top += footer
        }
        index.seal()
        var bottom = top
        if snapsToPixels {
            // A snapped edge may round past the unsnapped end.
            bottom = max(LayoutGeometry.snapToPixel(top, scale: scale), lowestEdge)
        }
        contentSize = CGSize(width: widest, height: bottom)
    }

    /// `array`'s storage, handed over without a copy; `array` is left empty.
    private static func take<Element>(_ array: inout [Element]) -> [Element] {
        var taken: [Element] = []
        swap(&taken, &array)
        return taken
    }

    private func addSupplementary(_ kind: BlockKind, section: Int, frame: CGRect) {
        let frame = snapsToPixels ? Self.snapped(frame, scale: collectionView?.traitCollection.displayScale ?? 1) : frame
        blocks.append(Block(kind: kind, section: Int32(section), first: supplementaryFrames.count, count: 1))
        index.append(min: frame.minY, max: frame.maxY)
        supplementaryFrames.append(frame)
    }

    /// The aspect ratio of every item of `section`, checked, into `ratios` — or, while they are
    /// all one, nothing stored: that one ratio is returned and `ratios` left empty.
    private func aspectRatios(
        section: Int, count: Int, delegate: CollectionViewDelegateJustifiedLayout,
        _ collectionView: CollectionView, into ratios: inout [CGFloat]
    ) throws(LayoutConfigurationError) -> CGFloat? {
        ratios.removeAll(keepingCapacity: true)
        let bulk = delegate.collectionView(collectionView, layout: self, sizesForItemsInSection: section)
        if let bulk, bulk.count != count {
            throw LayoutConfigurationError(
                section: section,
                "the delegate gave \(bulk.count) sizes for \(count) items; "
                    + "give one size per item, or nil to be asked item by item")
        }
        func check(_ size: CGSize, _ item: Int) throws(LayoutConfigurationError) -> CGFloat {
            guard size.width.isFinite, size.height.isFinite, size.width > 0, size.height > 0 else {
                throw LayoutConfigurationError(
                    section: section, item: item,
                    "the size is \(LayoutConfigurationError.format(size.width)) × "
                        + "\(LayoutConfigurationError.format(size.height)); give a width and a "
                        + "height above 0 (only their ratio is used)")
            }
            return size.width / size.height
        }
        var collector = RatioCollector(count: count)
        if let bulk {
            try bulk.withUnsafeBufferPointer { (sizes) throws(LayoutConfigurationError) in
                for item in sizes.indices { collector.add(try check(sizes[item], item), item, into: &ratios) }
            }
        } else {
            for item in 0..<count {
                let size = delegate.collectionView(
                    collectionView, layout: self,
                    sizeForItemAt: IndexPath(item: item, section: section))
                collector.add(try check(size, item), item, into: &ratios)
            }
        }
        return collector.uniform
    }

    /// Aspect ratios gathered one by one: nothing stored while they are all the first one.
    private struct RatioCollector {
        let count: Int
        private var first: CGFloat = 0
        private var isUniform = true

        init(count: Int) { self.count = count }

        /// The one ratio of every item, if they all had it.
        var uniform: CGFloat? { isUniform && count > 0 ? first : nil }

        @inline(__always)
        mutating func add(_ ratio: CGFloat, _ item: Int, into ratios: inout [CGFloat]) {
            if isUniform {
                if item == 0 { first = ratio; return }
                if ratio == first { return }
                isUniform = false
                ratios.reserveCapacity(count)
                ratios.append(contentsOf: repeatElement(first, count: item))
            }
            ratios.append(ratio)
        }
    }

    /// `frame` with each edge on the pixel grid.
    private static func snapped(_ frame: CGRect, scale: CGFloat) -> CGRect {
        let minX = LayoutGeometry.snapToPixel(frame.minX, scale: scale)
        let minY = LayoutGeometry.snapToPixel(frame.minY, scale: scale)
        let maxX = LayoutGeometry.snapToPixel(frame.maxX, scale: scale)
        let maxY = LayoutGeometry.snapToPixel(frame.maxY, scale: scale)
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    open override var collectionViewContentSize: CGSize { contentSize }

    open override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool {
        newBounds.width != collectionView?.bounds.width
    }

    // MARK: Queries

    open override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
        layoutAttributes(recycling: recycler) { elements(in: rect, $0) }
    }

    open override func forEachLayoutAttributes(in rect: CGRect, _ body: (CollectionViewLayoutAttributes) -> Void) {
        streamLayoutAttributes(in: rect, walkOf: JustifiedLayout.self, reusing: elementRecycler, to: body) { elements(in: rect, $0) }
    }

    /// Every element whose frame intersects `rect`, section by section: header, items, footer.
    private func elements(in rect: CGRect, _ emit: (LayoutElement) -> Void) {
        let rect = rect.standardized
        for position in index.candidates(from: rect.minY, to: rect.maxY) {
            let block = blocks[position]
            let section = Int(block.section)
            switch block.kind {
            case .row:
                let start = sectionStart[section] - runItems(section)
                for i in block.first..<(block.first + Int(block.count)) where LayoutGeometry.intersects(frames[i], rect) {
                    emit(LayoutElement(.cell, section: section, item: i - start, frame: frames[i]))
                }
            case .repeatedRows:
                let run = runs[block.first]
                // Snapping moves an edge by half a pixel at most: rows are picked with that much
                // room and each box tested as drawn.
                let slack = snapScale.map { 1 / max($0, 1e-3) } ?? 0
                let low = rect.minY - run.yOffset - slack, high = rect.maxY - run.yOffset + slack
                run.rows.forEachRow(reaching: low) { row, top in
                    guard top <= high else { return false }
                    let first = row * run.perRow
                    for item in first..<(first + run.perRow) {
                        var frame = run.box(item, rowTop: top)
                        if let scale = snapScale { frame = Self.snapped(frame, scale: scale) }
                        if LayoutGeometry.intersects(frame, rect) { emit(LayoutElement(.cell, section: section, item: item, frame: frame)) }
                    }
                    return true
                }
            case .header, .footer:
                let frame = supplementaryFrames[block.first]
                guard LayoutGeometry.intersects(frame, rect) else { continue }
                emit(
                    LayoutElement(
                        .supplementaryView,
                        kind: block.kind == .header
                            ? CollectionView.elementKindSectionHeader
                            : CollectionView.elementKindSectionFooter, section: section, item: 0, frame: frame))
            }
        }
    }

    open override func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        guard indexPath.count == 2, sectionStart.indices.contains(indexPath.section),
            indexPath.item >= 0, indexPath.item < sectionBoxCount[indexPath.section]
        else { return nil }
        let repeated = runItems(indexPath.section)
        guard indexPath.item < repeated else {
            return makeAttributes(
                .cell, nil, indexPath.section, indexPath.item,
                frames[sectionStart[indexPath.section] + indexPath.item - repeated])
        }
        var frame = runs[sectionRun[indexPath.section]].box(indexPath.item)
        if let scale = snapScale { frame = Self.snapped(frame, scale: scale) }
        return makeAttributes(.cell, nil, indexPath.section, indexPath.item, frame)
    }

    /// How many of `section`'s first items are in repeated rows.
    private func runItems(_ section: Int) -> Int {
        sectionRun[section] < 0 ? 0 : runs[sectionRun[section]].items
    }

    open override func layoutAttributesForSupplementaryView(
        ofKind elementKind: String,
        at indexPath: IndexPath
    ) -> CollectionViewLayoutAttributes? {
        guard indexPath.count == 2, indexPath.item == 0, headerIndex.indices.contains(indexPath.section) else { return nil }
        let position: Int
        switch elementKind {
        case CollectionView.elementKindSectionHeader: position = headerIndex[indexPath.section]
        case CollectionView.elementKindSectionFooter: position = footerIndex[indexPath.section]
        default: return nil
        }
        guard position >= 0 else { return nil }
        return makeAttributes(.supplementaryView, elementKind, indexPath.section, 0, supplementaryFrames[position])
    }
}
