import TrellisCollectionView

/// A boundary supplementary (header, footer) placed on its section or on the layout.
struct PlacedSupplementary {
    var kind: String
    var index: Int
    var natural: CGRect
    var zIndex: Int
    var pinned: Bool
    var end: CollectionLayoutBoundarySupplementaryItem.BoundaryEnd
    var estimated: Bool

    /// Places `item` at `u` along the scroll axis, across `crossStart ..< crossStart + crossLength`.
    static func place(
        _ item: CollectionLayoutBoundarySupplementaryItem, index: Int, section: Int?, at u: CGFloat,
        crossStart: CGFloat, crossLength: CGFloat, fullCross container: CGSize, axis: ScrollAxis,
        measured: CGFloat?
    ) throws(LayoutConfigurationError) -> PlacedSupplementary {
        let solver = TemplateSolver(vertical: axis.vertical, traitCollection: TraitCollection(), section: section ?? 0)
        let width = axis.vertical ? crossLength : container.width
        let height = axis.vertical ? container.height : crossLength
        let what = "the \"\(item.elementKind)\" supplementary's"
        let w = try solver.resolve(item.layoutSize.widthDimension, width: width, height: height, "\(what) width")
        let h = try solver.resolve(item.layoutSize.heightDimension, width: width, height: height, "\(what) height")
        let uDimension = axis.vertical ? item.layoutSize.heightDimension : item.layoutSize.widthDimension
        let length = uDimension.isEstimated ? (measured ?? (axis.vertical ? h : w)) : (axis.vertical ? h : w)
        let breadth = axis.vertical ? w : h
        let edges = CollectionLayoutBoundarySupplementaryItem.edges(of: item.alignment)
        let crossLeading = axis.vertical ? edges.contains(.leading) : edges.contains(.top)
        let crossTrailing = axis.vertical ? edges.contains(.trailing) : edges.contains(.bottom)
        var v = crossStart + (crossLength - breadth) / 2
        if crossLeading && !crossTrailing { v = crossStart } else if crossTrailing && !crossLeading { v = crossStart + crossLength - breadth }
        let end = item.end(vertical: axis.vertical)
        var frame = axis.rect(u: u, v: v, length: length, breadth: breadth)
        frame = frame.offsetBy(dx: item.offset.x, dy: item.offset.y)
        return PlacedSupplementary(
            kind: item.elementKind, index: index, natural: frame, zIndex: item.zIndex,
            pinned: item.pinToVisibleBounds, end: end, estimated: uDimension.isEstimated)
    }
}

/// One section, resolved and placed.
struct SectionLayout {
    let index: Int
    let count: Int
    let template: GroupTemplate
    /// Cells per group.
    let perGroup: Int
    let groups: Int
    let behavior: CollectionLayoutSectionOrthogonalScrollingBehavior
    let vertical: Bool
    let spacing: CGFloat
    let insets: DirectionalEdgeInsets
    let definition: CollectionLayoutSection
    let handler: CollectionLayoutSectionVisibleItemsInvalidationHandler?
    /// Where the section's area starts across the scroll axis, and how far it reaches.
    let crossStart: CGFloat
    let crossLength: CGFloat
    let container: CGSize

    /// Whether the template has estimated lengths, which measurements replace.
    let isEstimated: Bool
    /// Per item, its measured length along the scroll axis (NaN: not measured). Empty until
    /// something is measured (nothing is stored per item before that).
    private(set) var measured: [CGFloat] = []
    /// Per group, its pitch (length + spacing), for an estimated section along the layout.
    private var tree = BlockedPitches([])
    /// Per group, its length along the scroll axis, for an estimated orthogonal section; empty
    /// until something is measured.
    private var groupLengths: [CGFloat] = []

    // Placement.
    private(set) var start: CGFloat = 0
    private(set) var end: CGFloat = 0
    private(set) var contentU: CGFloat = 0
    private(set) var boundaries: [PlacedSupplementary] = []
    private var decorations: [LayoutElement] = []
    private(set) var reach: ClosedRange<CGFloat> = 0...0

    var isOrthogonal: Bool { behavior != .none }
    var axis: ScrollAxis { ScrollAxis(vertical: vertical) }
    var reactsToScrolling: Bool { handler != nil || boundaries.contains { $0.pinned } }
    /// The leading inset across the scroll axis, and a group's breadth there.
    var crossLead: CGFloat { vertical ? insets.leading : insets.top }
    var groupCross: CGFloat { axis.breadth(template.size) }
    /// Where the first group starts across the scroll axis.
    var crossOrigin: CGFloat { crossStart + crossLead }
    /// Group to group: along the layout, or across it for an orthogonal section.
    var pitch: CGFloat {
        isOrthogonal ? groupCross + spacing : axis.length(template.size) + spacing
    }
    /// An orthogonal section's scrolling content, across the scroll axis.
    var orthogonalLength: CGFloat {
        let trailing = vertical ? insets.trailing : insets.bottom
        return crossLead + (groups > 0 ? CGFloat(groups) * pitch - spacing : 0) + trailing
    }

    var bytes: Int {
        measured.capacity * MemoryLayout<CGFloat>.stride + tree.bytes + groupLengths.capacity * MemoryLayout<CGFloat>.stride
            + template.leaves.capacity * MemoryLayout<TemplateLeaf>.stride
    }

    init(
        index: Int, section: CollectionLayoutSection, itemCount: Int, container: CGSize, referenceInsets: DirectionalEdgeInsets,
        vertical: Bool, traits: TraitCollection, keeping previous: SectionLayout?,
        environment: LayoutEnvironment
    ) throws(LayoutConfigurationError) {
        self.index = index
        count = itemCount
        behavior = section.orthogonalScrollingBehavior
        self.vertical = vertical
        spacing = section.interGroupSpacing
        insets = section.contentInsets
        definition = section
        handler = section.visibleItemsInvalidationHandler
        self.container = container
        crossStart = vertical ? referenceInsets.leading : referenceInsets.top
        crossLength = max(0, vertical ? container.width - referenceInsets.horizontal : container.height - referenceInsets.vertical)
        let effective = CGSize(
            width: max(0, container.width - referenceInsets.horizontal),
            height: max(0, container.height - referenceInsets.vertical))
        let available = CGSize(width: effective.width - insets.horizontal, height: effective.height - insets.vertical)
        guard available.width >= 0, available.height >= 0 || !vertical, available.width >= 0 || vertical else {
            throw LayoutConfigurationError(
                section: index,
                "the section's content insets leave no room across the layout "
                    + "(\(LayoutConfigurationError.format(vertical ? available.width : available.height)) points); "
                    + "make them smaller")
        }
        var solver = TemplateSolver(vertical: vertical, traitCollection: traits, section: index)
        template = try solver.solve(
            section.group, available: CGSize(width: max(0, available.width), height: max(0, available.height)),
            scrollsAcross: section.orthogonalScrollingBehavior != .none)
        perGroup = template.leaves.count
        groups = perGroup > 0 ? (itemCount + perGroup - 1) / perGroup : 0
        isEstimated = template.isEstimated
        if isEstimated {
            if let previous, previous.count == itemCount, previous.measured.count == itemCount {
                measured = previous.measured
            }
            rebuildLengths()
        }
    }

    mutating func dropMeasurements() {
        guard isEstimated else { return }
        measured = []
        rebuildLengths()
    }

    /// Records a cell's measured length: O(log n) along the layout, O(groups) across it.
    mutating func measure(item: Int, length: CGFloat) {
        guard isEstimated, item >= 0, item < count, template.leaves[item % perGroup].estimated else { return }
        if measured.isEmpty {
            measured = [CGFloat](repeating: .nan, count: count)
            if isOrthogonal { rebuildLengths() }
        }
        measured[item] = length
        let g = item / perGroup
        var lengths: [CGFloat] = [], offsets: [CGFloat] = []
        let extent = instance(g, lengths: &lengths, offsets: &offsets)
        if isOrthogonal { groupLengths[g] = extent } else { tree.set(g, extent + spacing) }
    }

    private mutating func rebuildLengths() {
        var lengths: [CGFloat] = [], offsets: [CGFloat] = []
        guard !measured.isEmpty else {
            // Nothing measured: every group is the first's length but maybe the last, shorter one.
            groupLengths = []
            if !isOrthogonal, groups > 0 {
                let first = instance(0, lengths: &lengths, offsets: &offsets)
                let last = instance(groups - 1, lengths: &lengths, offsets: &offsets)
                tree = BlockedPitches(count: groups, uniform: first + spacing, last: last + spacing)
            } else {
                tree = BlockedPitches([])
            }
            return
        }
        var values = [CGFloat](repeating: 0, count: groups)
        for g in 0..<groups { values[g] = instance(g, lengths: &lengths, offsets: &offsets) }
        if isOrthogonal {
            groupLengths = values
        } else {
            for g in values.indices { values[g] += spacing }
            tree = BlockedPitches(values)
        }
    }

    /// Group `g`'s cells along the scroll axis from what was measured: their lengths and their
    /// offsets from the group's origin (written to the first cells of `lengths` and `offsets`,
    /// which grow to the group's size), and the group's length.
    func instance(_ g: Int, lengths: inout [CGFloat], offsets: inout [CGFloat]) -> CGFloat {
        let first = g * perGroup
        let present = min(perGroup, count - first)
        if lengths.count < perGroup {
            lengths = [CGFloat](repeating: 0, count: perGroup)
            offsets = [CGFloat](repeating: 0, count: perGroup)
        }
        let vertical = self.vertical
        let size = vertical ? template.size.height : template.size.width
        if perGroup == 1, present == 1 {
            let one = instanceOfOne(g)
            lengths[0] = one.length
            offsets[0] = one.offset
            return one.extent
        }
        return template.leaves.withUnsafeBufferPointer { leaves in
            measured.withUnsafeBufferPointer { measured in
                lengths.withUnsafeMutableBufferPointer { lengths in
                    offsets.withUnsafeMutableBufferPointer { offsets in
                        var uniformLength: CGFloat = 0
                        var hasUniform = false
                        for j in 0..<present {
                            let leaf = leaves[j]
                            var length = vertical ? leaf.frame.height : leaf.frame.width
                            if leaf.estimated, !measured.isEmpty {
                                let m = measured[first + j]
                                if !m.isNaN { length = m }
                            }
                            if leaf.uniform {
                                hasUniform = true
                                uniformLength = max(uniformLength, length)
                            }
                            lengths[j] = length
                        }
                        if hasUniform {
                            for j in 0..<present where leaves[j].uniform { lengths[j] = uniformLength }
                        }
                        let reflows = template.reflows
                        var furthest: CGFloat = 0, templateFurthest: CGFloat = 0
                        var previousEnd: CGFloat = 0, templatePreviousEnd: CGFloat = 0
                        for j in 0..<present {
                            let frame = leaves[j].frame
                            let templateStart = vertical ? frame.minY : frame.minX
                            let templateEnd = vertical ? frame.maxY : frame.maxX
                            var offset = templateStart
                            if reflows, j > 0 { offset = previousEnd + (templateStart - templatePreviousEnd) }
                            offsets[j] = offset
                            previousEnd = offset + lengths[j]
                            templatePreviousEnd = templateEnd
                            furthest = max(furthest, previousEnd)
                            templateFurthest = max(templateFurthest, templateEnd)
                        }
                        guard template.groupEstimated else { return size }
                        return max(0, furthest + (size - templateFurthest))
                    }
                }
            }
        }
    }

    /// Whether `frame` meets `rect` (any frame meets no rect at all: a lookup of one element).
    @inline(__always)
    static func meets(_ frame: CGRect, _ rect: CGRect?) -> Bool {
        guard let rect else { return true }
        return LayoutGeometry.intersects(frame, rect)
    }

    /// ``instance(_:lengths:offsets:)`` of a group of one cell (a list's row), without arrays:
    /// the cell's length and offset, and the group's length from them.
    @inline(__always)
    func instanceOfOne(_ g: Int) -> (length: CGFloat, offset: CGFloat, extent: CGFloat) {
        let vertical = self.vertical
        let size = vertical ? template.size.height : template.size.width
        let leaf = template.leaves[0]
        var length = vertical ? leaf.frame.height : leaf.frame.width
        if leaf.estimated, !measured.isEmpty {
            let m = measured[g]
            if !m.isNaN { length = m }
        }
        let start = vertical ? leaf.frame.minY : leaf.frame.minX
        guard template.groupEstimated else { return (length, start, size) }
        return (length, start, max(0, start + length + (size - (vertical ? leaf.frame.maxY : leaf.frame.maxX))))
    }

    /// Where the section's groups reach along the scroll axis, from the first group's origin: how
    /// far before it a group starts (zero unless a negative spacing longer than a group sets each
    /// group before the one it follows), and how far after it the group that reaches furthest ends
    /// (the last, unless such a spacing makes it the first).
    private func groupsExtent() -> (lead: CGFloat, length: CGFloat) {
        guard groups > 0 else { return (0, 0) }
        if isOrthogonal {
            guard isEstimated else { return (0, axis.length(template.size)) }
            if let longest = groupLengths.max() { return (0, longest) }
            // Nothing measured: the first group's length or the last, shorter one's.
            var lengths: [CGFloat] = [], offsets: [CGFloat] = []
            return (0, max(instance(0, lengths: &lengths, offsets: &offsets), instance(groups - 1, lengths: &lengths, offsets: &offsets)))
        }
        if isEstimated {
            let extremes = tree.extremes()
            return (extremes.lowestOrigin, extremes.highestEnd - spacing)
        }
        let last = CGFloat(groups - 1) * pitch
        return (min(0, last), axis.length(template.size) + max(0, last))
    }

    /// Places the section from `cursor` along the scroll axis.
    /// (Across the scroll axis the section uses its own reference insets, kept since it was built.)
    mutating func place(at cursor: CGFloat, measured supplementaryMeasured: [String: CGFloat]) throws(LayoutConfigurationError) {
        let axis = self.axis
        start = cursor
        let u = cursor + definition.listTopPadding
        let follows = definition.supplementariesFollowContentInsets
        let trailingInset = vertical ? insets.trailing : insets.bottom
        let supplementaryCross = follows ? crossStart + crossLead : crossStart
        let supplementaryLength = follows ? crossLength - crossLead - trailingInset : crossLength
        boundaries = []
        var counters: [String: Int] = [:]
        var ends: [(Int, CollectionLayoutBoundarySupplementaryItem)] = []
        var sides: [(Int, CollectionLayoutBoundarySupplementaryItem)] = []
        var startExtent: CGFloat = 0
        for item in definition.boundarySupplementaryItems {
            let n = counters[item.elementKind, default: 0]
            counters[item.elementKind] = n + 1
            switch item.end(vertical: vertical) {
            case .end: ends.append((n, item)); continue
            case .side: sides.append((n, item)); continue
            case .start: break
            }
            let placed = try PlacedSupplementary.place(
                item, index: n, section: index, at: u, crossStart: supplementaryCross,
                crossLength: supplementaryLength, fullCross: container, axis: axis,
                measured: supplementaryMeasured[CollectionViewCompositionalLayout.key(item.elementKind, index, n)])
            boundaries.append(placed)
            if item.extendsBoundary { startExtent = max(startExtent, axis.length(placed.natural)) }
        }
        let leadInset = vertical ? insets.top : insets.leading
        let trailInset = vertical ? insets.bottom : insets.trailing
        contentU = u + startExtent + leadInset
        let groupsExtent = self.groupsExtent()
        let contentEnd = contentU + groupsExtent.length + trailInset
        var endExtent: CGFloat = 0
        for (n, item) in ends {
            let placed = try PlacedSupplementary.place(
                item, index: n, section: index, at: contentEnd, crossStart: supplementaryCross,
                crossLength: supplementaryLength, fullCross: container, axis: axis,
                measured: supplementaryMeasured[CollectionViewCompositionalLayout.key(item.elementKind, index, n)])
            boundaries.append(placed)
            if item.extendsBoundary { endExtent = max(endExtent, axis.length(placed.natural)) }
        }
        for (n, item) in sides {
            boundaries.append(
                try PlacedSupplementary.place(
                    item, index: n, section: index, at: contentU, crossStart: supplementaryCross,
                    crossLength: supplementaryLength, fullCross: container, axis: axis,
                    measured: supplementaryMeasured[CollectionViewCompositionalLayout.key(item.elementKind, index, n)]))
        }
        end = contentEnd + endExtent
        // Decorations cover the section (its supplementaries included), across the whole width.
        decorations = []
        var decorationCounters: [String: Int] = [:]
        let frame = axis.rect(u: u, v: crossStart, length: end - u, breadth: crossLength)
        for decoration in definition.decorationItems {
            let n = decorationCounters[decoration.elementKind, default: 0]
            decorationCounters[decoration.elementKind] = n + 1
            let i = decoration.contentInsets
            let inset = CGRect(
                x: frame.minX + i.leading, y: frame.minY + i.top, width: max(0, frame.width - i.horizontal),
                height: max(0, frame.height - i.vertical))
            decorations.append(
                LayoutElement(
                    .decorationView, kind: decoration.elementKind, section: index, item: n,
                    frame: inset, zIndex: decoration.zIndex))
        }
        // Everything the section may draw, for the section index: badges and offsets stick out.
        var low = start, high = end
        for b in boundaries {
            low = min(low, axis.minimum(b.natural))
            high = max(high, axis.maximum(b.natural))
        }
        if groups > 0 {
            low = min(low, contentU + groupsExtent.lead + min(0, axis.minimum(template.bounds)))
            let overhang = max(0, axis.maximum(template.bounds) - axis.length(template.size))
            high = max(high, contentU + groupsExtent.length + overhang + (isEstimated ? maximumMeasuredOverhang : 0))
        }
        // Negative insets or spacing may set the end before the start: the reach spans both.
        reach = min(low, high)...max(low, high)
    }

    /// How far a measured cell may reach past its group's end: only a cell in a group of fixed
    /// length can (O(items) to find, for such sections only).
    private var maximumMeasuredOverhang: CGFloat {
        guard !template.groupEstimated, template.leaves.contains(where: \.estimated) else { return 0 }
        var lengths: [CGFloat] = [], offsets: [CGFloat] = []
        var overhang: CGFloat = 0
        func consider(_ g: Int) {
            let extent = instance(g, lengths: &lengths, offsets: &offsets)
            let present = min(perGroup, count - g * perGroup)
            for j in 0..<present { overhang = max(overhang, offsets[j] + lengths[j] - extent) }
        }
        if measured.isEmpty {
            // Nothing measured: every group is the first's copy but the last.
            if groups > 0 { consider(0); consider(groups - 1) }
        } else {
            for g in 0..<groups { consider(g) }
        }
        return overhang
    }

    /// A boundary supplementary's frame, pinned ones held in view.
    func frame(of b: PlacedSupplementary, state: ScrollState) -> CGRect {
        guard b.pinned else { return b.natural }
        let axis = self.axis
        let length = axis.length(b.natural)
        var u = axis.minimum(b.natural)
        switch b.end {
        case .start, .side: u = max(u, min(state.visibleStart, end - length))
        case .end: u = min(u, max(state.visibleEnd - length, start))
        }
        return vertical
            ? CGRect(x: b.natural.minX, y: u, width: b.natural.width, height: length)
            : CGRect(x: u, y: b.natural.minY, width: length, height: b.natural.height)
    }

    /// The origin of group `g`, moved by the orthogonal offset.
    private func groupOrigin(_ g: Int, orthogonalOffset: CGFloat) -> (u: CGFloat, v: CGFloat) {
        if isOrthogonal { return (contentU, crossOrigin + CGFloat(g) * pitch - orthogonalOffset) }
        if isEstimated { return (contentU + tree.origin(g), crossOrigin) }
        return (contentU + CGFloat(g) * pitch, crossOrigin)
    }

    /// Every element of group `g`: cells, then their badges.
    private func emit(
        group g: Int, origin: (u: CGFloat, v: CGFloat), rect: CGRect?, lengths: inout [CGFloat],
        offsets: inout [CGFloat], _ out: (LayoutElement) -> Void
    ) {
        let axis = self.axis
        let first = g * perGroup
        let present = min(perGroup, count - first)
        let measuredGroup = isEstimated
        var extent = axis.length(template.size)
        if measuredGroup, perGroup == 1, present == 1, template.supplementaries.isEmpty {
            // A list's row: its one cell from its measured length, with no arrays.
            let one = instanceOfOne(g)
            let leaf = template.leaves[0]
            var frame = axis.offset(leaf.frame, u: origin.u, v: origin.v)
            frame =
                vertical
                ? CGRect(x: frame.minX, y: origin.u + one.offset, width: frame.width, height: one.length)
                : CGRect(x: origin.u + one.offset, y: frame.minY, width: one.length, height: frame.height)
            if Self.meets(frame, rect) {
                out(LayoutElement(.cell, kind: nil, section: index, item: first, frame: frame, zIndex: leaf.zIndex))
            }
            return
        }
        if measuredGroup { extent = instance(g, lengths: &lengths, offsets: &offsets) }
        var cells: [CGRect] = []
        if !template.supplementaries.isEmpty { cells.reserveCapacity(present) }
        for j in 0..<present {
            let leaf = template.leaves[j]
            var frame = axis.offset(leaf.frame, u: origin.u, v: origin.v)
            if measuredGroup {
                frame =
                    vertical
                    ? CGRect(x: frame.minX, y: origin.u + offsets[j], width: frame.width, height: lengths[j])
                    : CGRect(x: origin.u + offsets[j], y: frame.minY, width: lengths[j], height: frame.height)
            }
            if !template.supplementaries.isEmpty { cells.append(frame) }
            if Self.meets(frame, rect) {
                out(LayoutElement(.cell, kind: nil, section: index, item: first + j, frame: frame, zIndex: leaf.zIndex))
            }
        }
        for supplementary in template.supplementaries where supplementary.leaf < present {
            var frame = axis.offset(supplementary.frame, u: origin.u, v: origin.v)
            if measuredGroup {
                switch supplementary.attachment {
                case .cell: frame = supplementary.item.frame(of: supplementary.size, attachedTo: cells[supplementary.leaf])
                case .group:
                    let groupFrame = axis.rect(u: origin.u, v: origin.v, length: extent, breadth: axis.breadth(template.size))
                    frame = supplementary.item.frame(of: supplementary.size, attachedTo: groupFrame)
                case .nestedGroup: break
                }
            }
            if Self.meets(frame, rect) {
                out(
                    LayoutElement(
                        .supplementaryView, kind: supplementary.kind, section: index,
                        item: first + supplementary.leaf, frame: frame, zIndex: supplementary.zIndex))
            }
        }
    }

    /// The groups that may meet `rect`, and for an estimated section the first one's origin,
    /// found by the same descent of the sum tree.
    private func candidateGroups(_ rect: CGRect, orthogonalOffset: CGFloat) -> (range: ClosedRange<Int>, firstOrigin: CGFloat?)? {
        guard groups > 0 else { return nil }
        let axis = self.axis
        func clampIndex(_ x: CGFloat) -> Int {
            guard x.isFinite else { return x > 0 ? groups - 1 : 0 }
            return Int(max(-1, min(CGFloat(groups), x.rounded(.down))))
        }
        if isOrthogonal {
            let r0 = axis.crossMinimum(rect) + orthogonalOffset - crossOrigin, r1 = axis.crossMaximum(rect) + orthogonalOffset - crossOrigin
            let b0 = axis.crossMinimum(template.bounds), b1 = axis.crossMaximum(template.bounds)
            guard pitch > 0 else { return (0...(groups - 1), nil) }
            let low = max(0, clampIndex((r0 - b1) / pitch)), high = min(groups - 1, clampIndex((r1 - b0) / pitch))
            return low <= high ? (low...high, nil) : nil
        }
        let r0 = axis.minimum(rect) - contentU, r1 = axis.maximum(rect) - contentU
        let b0 = min(0, axis.minimum(template.bounds))
        let b1 = max(axis.length(template.size), axis.maximum(template.bounds))
        if isEstimated {
            guard tree.isIncreasing else { return (0...(groups - 1), 0) }
            // The first candidate by one descent of the sum tree; the last is found walking on
            // (``elements(in:state:orthogonalOffset:into:)`` stops at the first group past the rect).
            // A group ends at its pitch less the spacing: past the pitch when the spacing is negative.
            let overhang = b1 - axis.length(template.size) + maximumQueryOverhang + max(0, -spacing)
            let (low, origin) = tree.firstEndingAndOrigin(after: r0 - overhang)
            guard low < groups else { return nil }
            return (low...(groups - 1), origin)
        }
        guard pitch > 0 else { return (0...(groups - 1), nil) }
        let low = max(0, clampIndex((r0 - b1) / pitch)), high = min(groups - 1, clampIndex((r1 - b0) / pitch))
        return low <= high ? (low...high, nil) : nil
    }

    /// Measured cells in groups of fixed length may run past them; queries reach that far back.
    private var maximumQueryOverhang: CGFloat { template.groupEstimated ? 0 : (reach.upperBound - end > 0 ? reach.upperBound - end : 0) }

    /// The section's elements meeting `rect`, in order: decorations, boundary supplementaries,
    /// then group by group each cell and its badges.
    func elements(in rect: CGRect, state: ScrollState, orthogonalOffset: CGFloat, _ out: (LayoutElement) -> Void) {
        for d in decorations where LayoutGeometry.intersects(d.frame, rect) { out(d) }
        for b in boundaries {
            let frame = self.frame(of: b, state: state)
            if LayoutGeometry.intersects(frame, rect) {
                out(
                    LayoutElement(
                        .supplementaryView, kind: b.kind, section: index, item: b.index, frame: frame,
                        zIndex: b.zIndex))
            }
        }
        guard let (range, firstOrigin) = candidateGroups(rect, orthogonalOffset: orthogonalOffset) else { return }
        var lengths: [CGFloat] = [], offsets: [CGFloat] = []
        if isEstimated && !isOrthogonal {
            let rectEnd = axis.maximum(rect), before = min(0, axis.minimum(template.bounds))
            // Groups that do not each start after the one before (a negative spacing longer than a
            // group): every one is looked at.
            let increasing = tree.isIncreasing
            tree.forEachOrigin(from: range.lowerBound, origin: firstOrigin) { g, origin in
                let u = contentU + origin
                guard !increasing || u + before < rectEnd else { return false }
                emit(group: g, origin: (u, crossOrigin), rect: rect, lengths: &lengths, offsets: &offsets, out)
                return true
            }
            return
        }
        for g in range {
            let origin = groupOrigin(g, orthogonalOffset: orthogonalOffset)
            emit(group: g, origin: origin, rect: rect, lengths: &lengths, offsets: &offsets, out)
        }
    }

    func item(_ item: Int, orthogonalOffset: CGFloat) -> LayoutElement? {
        guard item >= 0, item < count, perGroup > 0 else { return nil }
        var out: [LayoutElement] = []
        var lengths: [CGFloat] = [], offsets: [CGFloat] = []
        let g = item / perGroup
        emit(
            group: g, origin: groupOrigin(g, orthogonalOffset: orthogonalOffset), rect: nil, lengths: &lengths,
            offsets: &offsets
        ) { out.append($0) }
        return out.first { $0.category == .cell && $0.item == item }
    }

    func hasSupplementary(kind: String, index n: Int) -> Bool {
        boundaries.contains { $0.kind == kind && $0.index == n }
            || template.supplementaries.contains { $0.kind == kind }
    }

    func supplementary(kind: String, index n: Int, state: ScrollState, orthogonalOffset: CGFloat) -> LayoutElement? {
        if let b = boundaries.first(where: { $0.kind == kind && $0.index == n }) {
            return LayoutElement(
                .supplementaryView, kind: kind, section: index, item: n, frame: frame(of: b, state: state),
                zIndex: b.zIndex)
        }
        guard n >= 0, n < count, perGroup > 0, template.supplementaries.contains(where: { $0.kind == kind }) else { return nil }
        var out: [LayoutElement] = []
        var lengths: [CGFloat] = [], offsets: [CGFloat] = []
        let g = n / perGroup
        emit(
            group: g, origin: groupOrigin(g, orthogonalOffset: orthogonalOffset), rect: nil, lengths: &lengths,
            offsets: &offsets
        ) { out.append($0) }
        return out.first { $0.category == .supplementaryView && $0.kind == kind && $0.item == n }
    }

    func decoration(kind: String, index n: Int) -> LayoutElement? {
        decorations.first { $0.kind == kind && $0.item == n }
    }

    /// The offsets an orthogonal section can scroll to.
    func orthogonalOffsetRange(containerLength: CGFloat) -> ClosedRange<CGFloat> {
        if behavior == .groupPagingCentered, groups > 0 {
            // Each group can be centred, the first and last included.
            let first = crossLead + groupCross / 2 - containerLength / 2
            let last = first + CGFloat(groups - 1) * pitch
            return min(first, 0)...max(last, max(0, orthogonalLength - containerLength))
        }
        return 0...max(0, orthogonalLength - containerLength)
    }
}
