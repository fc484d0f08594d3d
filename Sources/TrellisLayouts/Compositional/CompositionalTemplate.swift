import TrellisCollectionView

/// One cell of a resolved group, in the group's coordinates.
struct TemplateLeaf {
    var frame: CGRect
    var zIndex: Int
    /// Whether its length along the layout's scroll axis is measured by the host.
    var estimated: Bool
    /// Whether it takes the largest measured length of its group (`uniformAcrossSiblings`).
    var uniform: Bool
    /// Whether it is a direct subitem of the section's group (not of a nested group).
    var direct: Bool
}

/// An item's or group's supplementary (a badge) in the group's coordinates.
struct TemplateSupplementary {
    var frame: CGRect
    var kind: String
    var zIndex: Int
    /// The leaf whose index path it takes.
    var leaf: Int
    /// What places it, and its size: a measured cell moves its badges with it.
    var item: CollectionLayoutSupplementaryItem
    var size: CGSize
    /// What it is attached to: a cell, the section's group, or a nested group (which keeps
    /// its place in the group).
    var attachment: Attachment
    enum Attachment { case cell, group, nestedGroup }
}

/// A section's group resolved once: every cell's and badge's frame relative to the group's
/// origin. Each group of the section is a copy of it, moved; only measured lengths (estimated
/// sections) differ between copies.
struct GroupTemplate {
    var size: CGSize
    var leaves: [TemplateLeaf]
    var supplementaries: [TemplateSupplementary]
    /// Everything the group draws, relative to its origin (cells and badges may stick out).
    var bounds: CGRect
    /// Whether the group's own length along the scroll axis is estimated.
    var groupEstimated: Bool
    /// Whether the group lines its direct leaves up along the scroll axis (a vertical group in a
    /// vertical layout): measured lengths then push the later leaves along.
    var stacksAlongScroll: Bool

    /// Whether any length along the scroll axis is measured.
    var isEstimated: Bool { groupEstimated || leaves.contains { $0.estimated } }
    /// Whether measured leaves reflow their group: only when every leaf is direct.
    var reflows: Bool { stacksAlongScroll && leaves.allSatisfy(\.direct) }
}

/// Resolves a section's group into a ``GroupTemplate``, checking every size on the way.
struct TemplateSolver {
    /// The layout's scroll axis.
    let vertical: Bool
    let traitCollection: TraitCollection
    let section: Int
    private var leaves: [TemplateLeaf] = []
    private var supplementaries: [TemplateSupplementary] = []
    private var depth = 0
    /// Whether the top-level group's length along the scroll axis is estimated: its cells that
    /// take a fraction of that length are then measured too.
    private var groupEstimated = false

    /// The most cells a group may hold: a group that would repeat more is a mistake (an item of
    /// almost no length), not a layout.
    static let maximumLeaves = 10_000

    /// The deepest groups may nest: deeper is a mistake (a loop that wraps a group in a group),
    /// and each level is a frame of the solver's stack. A spec's JSON cannot nest deeper.
    static let maximumDepth = 256

    init(vertical: Bool, traitCollection: TraitCollection, section: Int) {
        self.vertical = vertical
        self.traitCollection = traitCollection
        self.section = section
    }

    private func fail(_ message: String) -> LayoutConfigurationError {
        LayoutConfigurationError(section: section, message)
    }

    /// A dimension in points, against a container of `width` × `height`.
    func resolve(_ dimension: CollectionLayoutDimension, width: CGFloat, height: CGFloat, _ what: String) throws(LayoutConfigurationError) -> CGFloat {
        let d = dimension.dimension
        guard d.isFinite, d >= 0 else {
            throw fail("\(what) is \(dimension); give a finite dimension of 0 or more")
        }
        if dimension.isEstimated, d == 0 {
            throw fail("\(what) is \(dimension); give an estimate above 0")
        }
        switch dimension.kind {
        case .fractionalWidth: return d * width
        case .fractionalHeight: return d * height
        case .absolute, .estimated, .uniform: return d
        }
    }

    /// Resolves `group`, the section's top-level group, in a container of `available` (the
    /// section's content area); `scrollsAcross` is set for orthogonally scrolling sections.
    mutating func solve(_ group: CollectionLayoutGroup, available: CGSize, scrollsAcross: Bool) throws(LayoutConfigurationError) -> GroupTemplate {
        leaves = []
        supplementaries = []
        let size = group.layoutSize
        // The axis across the layout's scrolls only in an orthogonal section.
        let across = vertical ? size.widthDimension : size.heightDimension
        if !scrollsAcross, across.isFractionalWidth || across.isFractionalHeight, across.dimension > 1 {
            throw fail(
                "the group's \(vertical ? "width" : "height") is \(across), more than the section holds "
                    + "across a layout that does not scroll that way; give a fraction of 1 or less, "
                    + "or scroll the section orthogonally")
        }
        groupEstimated = (vertical ? size.heightDimension : size.widthDimension).isEstimated
        let width = try resolve(size.widthDimension, width: available.width, height: available.height, "the group's width")
        let height = try resolve(size.heightDimension, width: available.width, height: available.height, "the group's height")
        try place(group, in: CGRect(x: 0, y: 0, width: width, height: height))
        var bounds = CGRect(x: 0, y: 0, width: width, height: height)
        for leaf in leaves { bounds = bounds.union(leaf.frame) }
        for supplementary in supplementaries { bounds = bounds.union(supplementary.frame) }
        let alongScroll: Bool
        switch group.arrangement {
        case .horizontal: alongScroll = !vertical
        case .vertical: alongScroll = vertical
        case .custom: alongScroll = false
        }
        return GroupTemplate(
            size: CGSize(width: width, height: height), leaves: leaves, supplementaries: supplementaries,
            bounds: bounds, groupEstimated: (vertical ? size.heightDimension : size.widthDimension).isEstimated,
            stacksAlongScroll: alongScroll)
    }

    private struct Entry {
        var item: CollectionLayoutItem
        var length: CGFloat, breadth: CGFloat
        var lead: CGFloat, trail: CGFloat, crossLead: CGFloat, crossTrail: CGFloat
        var leadFlex: Bool, trailFlex: Bool, crossLeadFlex: Bool, crossTrailFlex: Bool
    }

    private mutating func place(_ group: CollectionLayoutGroup, in frame: CGRect) throws(LayoutConfigurationError) {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else {
            throw fail("groups are nested more than \(Self.maximumDepth) deep; nest them at most \(Self.maximumDepth) deep")
        }
        let inner = CGRect(
            x: frame.minX + group.contentInsets.leading, y: frame.minY + group.contentInsets.top,
            width: frame.width - group.contentInsets.horizontal, height: frame.height - group.contentInsets.vertical)
        guard inner.width >= 0, inner.height >= 0 else {
            throw fail(
                "the group's content insets (\(LayoutConfigurationError.format(group.contentInsets.horizontal)) across, "
                    + "\(LayoutConfigurationError.format(group.contentInsets.vertical)) down) are larger than the group "
                    + "(\(LayoutConfigurationError.format(frame.width)) × \(LayoutConfigurationError.format(frame.height)))")
        }
        let firstLeaf = leaves.count
        switch group.arrangement {
        case .custom(let provider):
            let environment = LayoutEnvironment(
                container: LayoutContainer(contentSize: inner.size, contentInsets: .zero),
                traitCollection: traitCollection)
            let items = provider(environment)
            guard !items.isEmpty else { throw fail("the custom group's item provider returned no items; return at least one frame") }
            for (k, custom) in items.enumerated() {
                let f = custom.frame
                let slack: CGFloat = 0.001
                guard f.minX.isFinite, f.minY.isFinite, f.width.isFinite, f.height.isFinite, f.width >= 0, f.height >= 0,
                    f.minX >= -slack, f.minY >= -slack, f.maxX <= inner.width + slack, f.maxY <= inner.height + slack
                else {
                    throw fail(
                        "the custom group's item \(k) has the frame \(Self.describe(f)), outside the group's "
                            + "\(LayoutConfigurationError.format(inner.width)) × \(LayoutConfigurationError.format(inner.height)); "
                            + "return frames inside the group's size")
                }
                try addLeaf(frame: f.offsetBy(dx: inner.minX, dy: inner.minY), zIndex: custom.zIndex, item: nil)
            }
        case .horizontal, .vertical:
            let horizontal: Bool
            if case .horizontal = group.arrangement { horizontal = true } else { horizontal = false }
            try line(group, horizontal: horizontal, inner: inner)
        }
        // The group's own supplementaries take its first cell's index path.
        for supplementary in group.supplementaryItems {
            let size = try supplementarySize(supplementary, in: frame.size)
            supplementaries.append(
                TemplateSupplementary(
                    frame: supplementary.frame(of: size, attachedTo: frame),
                    kind: supplementary.elementKind, zIndex: supplementary.zIndex,
                    leaf: firstLeaf, item: supplementary, size: size,
                    attachment: depth == 1 ? .group : .nestedGroup))
        }
    }

    private func supplementarySize(_ item: CollectionLayoutSupplementaryItem, in container: CGSize) throws(LayoutConfigurationError) -> CGSize {
        CGSize(
            width: try resolve(
                item.layoutSize.widthDimension, width: container.width, height: container.height,
                "the width of the \"\(item.elementKind)\" supplementary"),
            height: try resolve(
                item.layoutSize.heightDimension, width: container.width, height: container.height,
                "the height of the \"\(item.elementKind)\" supplementary"))
    }

    private static func describe(_ r: CGRect) -> String {
        "(\(LayoutConfigurationError.format(r.minX)), \(LayoutConfigurationError.format(r.minY)), "
            + "\(LayoutConfigurationError.format(r.width)), \(LayoutConfigurationError.format(r.height)))"
    }

    /// Lays `group`'s subitems out in a line across `inner`.
    private mutating func line(_ group: CollectionLayoutGroup, horizontal: Bool, inner: CGRect) throws(LayoutConfigurationError) {
        guard !group.subitems.isEmpty else { throw fail("a group has no subitems; give it at least one item") }
        let length = horizontal ? inner.width : inner.height
        let spacing = group.interItemSpacing?.spacing ?? 0
        let spacingFlex = group.interItemSpacing?.isFlexibleSpacing ?? false
        guard spacing.isFinite else { throw fail("a group's interItemSpacing is not a finite number; give a finite spacing") }

        func entry(_ item: CollectionLayoutItem, lengthOverride: CGFloat?) throws(LayoutConfigurationError) -> Entry {
            let w = try resolve(item.layoutSize.widthDimension, width: inner.width, height: inner.height, "an item's width")
            let h = try resolve(item.layoutSize.heightDimension, width: inner.width, height: inner.height, "an item's height")
            // Across a group (which does not scroll) a fraction above 1 cannot fit.
            let across = horizontal ? item.layoutSize.heightDimension : item.layoutSize.widthDimension
            if (across.isFractionalWidth || across.isFractionalHeight) && across.dimension > 1 {
                throw fail(
                    "an item's \(horizontal ? "height" : "width") is \(across), more than its group holds; "
                        + "give a fraction of 1 or less")
            }
            let e = item.edgeSpacing
            func value(_ s: CollectionLayoutSpacing?) throws(LayoutConfigurationError) -> CGFloat {
                guard let s else { return 0 }
                guard s.spacing.isFinite else { throw fail("an item's edge spacing is not a finite number") }
                return s.spacing
            }
            let leading = try value(e?.leading), trailing = try value(e?.trailing), top = try value(e?.top), bottom = try value(e?.bottom)
            return Entry(
                item: item, length: lengthOverride ?? (horizontal ? w : h), breadth: horizontal ? h : w,
                lead: horizontal ? leading : top, trail: horizontal ? trailing : bottom,
                crossLead: horizontal ? top : leading, crossTrail: horizontal ? bottom : trailing,
                leadFlex: (horizontal ? e?.leading : e?.top)?.isFlexibleSpacing ?? false,
                trailFlex: (horizontal ? e?.trailing : e?.bottom)?.isFlexibleSpacing ?? false,
                crossLeadFlex: (horizontal ? e?.top : e?.leading)?.isFlexibleSpacing ?? false,
                crossTrailFlex: (horizontal ? e?.bottom : e?.trailing)?.isFlexibleSpacing ?? false)
        }

        var entries: [Entry] = []
        var used: CGFloat = 0
        let tolerance = max(0.001, length * 1e-9)
        switch group.repetition {
        case .count(let n), .repeating(let n):
            guard n >= 1, n <= Self.maximumLeaves else {
                throw fail("a group's count is \(n); give a count of 1 to \(Self.maximumLeaves)")
            }
            let item = group.subitems[0]
            var first = try entry(item, lengthOverride: nil)
            if case .count = group.repetition {
                first.length = (length - CGFloat(n - 1) * spacing - CGFloat(n) * (first.lead + first.trail)) / CGFloat(n)
                guard first.length >= 0 else {
                    throw fail(
                        "\(n) items \(LayoutConfigurationError.format(spacing)) apart do not fit in a group "
                            + "\(LayoutConfigurationError.format(length)) long; use fewer items or less spacing")
                }
            }
            entries = Array(repeating: first, count: n)
            used = CGFloat(n) * (first.lead + first.length + first.trail) + CGFloat(n - 1) * spacing
            if case .repeating = group.repetition, used > length + tolerance {
                throw fail(
                    "\(n) items of \(LayoutConfigurationError.format(first.length)) points do not fit in a group "
                        + "\(LayoutConfigurationError.format(length)) long; use fewer or smaller items")
            }
        case .fill:
            var k = 0
            while true {
                let next = try entry(group.subitems[k % group.subitems.count], lengthOverride: nil)
                let need = (entries.isEmpty ? 0 : spacing) + next.lead + next.length + next.trail
                if used + need > length + tolerance { break }
                if need <= 0, !entries.isEmpty {
                    throw fail(
                        "a group's items have no length along its axis, so they would repeat without end; "
                            + "give them a length above 0")
                }
                entries.append(next)
                used += need
                k += 1
                guard entries.count <= Self.maximumLeaves else {
                    throw fail("a group would repeat its items more than \(Self.maximumLeaves) times; give them a larger size")
                }
            }
            guard !entries.isEmpty else {
                let first = try entry(group.subitems[0], lengthOverride: nil)
                throw fail(
                    "a group \(LayoutConfigurationError.format(length)) points \(horizontal ? "wide" : "high") cannot fit "
                        + "a single item of \(LayoutConfigurationError.format(first.lead + first.length + first.trail)); "
                        + "make the item smaller or the group larger")
            }
        }

        // Flexible spacing and flexible edges share what is left.
        let flexibleSlots =
            (spacingFlex ? entries.count - 1 : 0)
            + entries.reduce(0) { $0 + ($1.leadFlex ? 1 : 0) + ($1.trailFlex ? 1 : 0) }
        let leftover = length - used
        let extra = flexibleSlots > 0 && leftover > 0 ? leftover / CGFloat(flexibleSlots) : 0
        var position = horizontal ? inner.minX : inner.minY
        let breadth = horizontal ? inner.height : inner.width
        let crossOrigin = horizontal ? inner.minY : inner.minX
        for (index, e) in entries.enumerated() {
            if index > 0 { position += spacing + (spacingFlex ? extra : 0) }
            position += e.lead + (e.leadFlex ? extra : 0)
            var cross = crossOrigin + e.crossLead
            let crossFlex = (e.crossLeadFlex ? 1 : 0) + (e.crossTrailFlex ? 1 : 0)
            let crossLeft = breadth - (e.crossLead + e.breadth + e.crossTrail)
            if crossFlex > 0, crossLeft > 0, e.crossLeadFlex { cross += crossLeft / CGFloat(crossFlex) }
            let slot =
                horizontal
                ? CGRect(x: position, y: cross, width: e.length, height: e.breadth)
                : CGRect(x: cross, y: position, width: e.breadth, height: e.length)
            position += e.length + e.trail + (e.trailFlex ? extra : 0)
            if let subgroup = e.item as? CollectionLayoutGroup {
                try place(subgroup, in: slot)
            } else {
                try addLeaf(frame: slot, zIndex: 0, item: e.item)
            }
        }
    }

    /// A cell in `slot`, inset by its item's content insets (except along a measured axis, as
    /// UIKit ignores them there), with its badges.
    private mutating func addLeaf(frame slot: CGRect, zIndex: Int, item: CollectionLayoutItem?) throws(LayoutConfigurationError) {
        guard leaves.count < Self.maximumLeaves else {
            throw fail("a group holds more than \(Self.maximumLeaves) cells; give its items a larger size")
        }
        var frame = slot
        var estimated = false, uniform = false
        if let item {
            let size = item.layoutSize
            let scrollDimension = vertical ? size.heightDimension : size.widthDimension
            estimated =
                scrollDimension.isEstimated
                || (groupEstimated && (vertical ? scrollDimension.isFractionalHeight : scrollDimension.isFractionalWidth))
            uniform = scrollDimension.isUniformAcrossSiblings
            let insets = item.contentInsets
            let widthMeasured = size.widthDimension.isEstimated, heightMeasured = size.heightDimension.isEstimated
            if !widthMeasured {
                frame.origin.x += insets.leading
                frame.size.width -= insets.horizontal
            }
            if !heightMeasured {
                frame.origin.y += insets.top
                frame.size.height -= insets.vertical
            }
            guard frame.width >= 0, frame.height >= 0 else {
                throw fail(
                    "an item's content insets are larger than the item "
                        + "(\(LayoutConfigurationError.format(slot.width)) × \(LayoutConfigurationError.format(slot.height)))")
            }
        }
        leaves.append(TemplateLeaf(frame: frame, zIndex: zIndex, estimated: estimated, uniform: uniform, direct: depth == 1))
        for supplementary in item?.supplementaryItems ?? [] {
            let size = try supplementarySize(supplementary, in: frame.size)
            supplementaries.append(
                TemplateSupplementary(
                    frame: supplementary.frame(of: size, attachedTo: frame),
                    kind: supplementary.elementKind, zIndex: supplementary.zIndex,
                    leaf: leaves.count - 1, item: supplementary, size: size,
                    attachment: .cell))
        }
    }
}

/// A sum tree over group pitches (length + spacing along the scroll axis): every inner node is
/// the sum of its two children, recomputed from them, so a value is the same whatever order the
/// lengths were set in — a size change then gives the numbers of a fresh layout.
struct PitchTree {
    private var nodes: [CGFloat] = []
    private var leafBase = 1
    private(set) var count = 0

    init(_ values: [CGFloat]) {
        count = values.count
        while leafBase < max(1, count) { leafBase <<= 1 }
        nodes = [CGFloat](repeating: 0, count: 2 * leafBase)
        for (i, v) in values.enumerated() { nodes[leafBase + i] = v }
        var i = leafBase - 1
        while i >= 1 {
            nodes[i] = nodes[2 * i] + nodes[2 * i + 1]
            i -= 1
        }
    }

    var bytes: Int { nodes.capacity * MemoryLayout<CGFloat>.stride }

    subscript(_ i: Int) -> CGFloat { nodes[leafBase + i] }

    mutating func set(_ i: Int, _ value: CGFloat) {
        var n = leafBase + i
        nodes[n] = value
        n >>= 1
        while n >= 1 {
            nodes[n] = nodes[2 * n] + nodes[2 * n + 1]
            n >>= 1
        }
    }

    /// The sum of the first `i` values, by one descent from the root.
    func prefix(_ i: Int) -> CGFloat {
        guard i > 0 else { return 0 }
        if i >= leafBase { return nodes[1] }
        var node = 1, low = 0, size = leafBase, sum: CGFloat = 0
        while size > 1 {
            size >>= 1
            if i >= low + size {
                sum += nodes[2 * node]
                node = 2 * node + 1
                low += size
            } else {
                node = 2 * node
            }
        }
        return sum
    }

    var total: CGFloat { nodes.count > 1 ? nodes[1] : 0 }

    /// The first index whose value ends past `target` (`prefix(i + 1) > target`), or `count`.
    func firstEnding(after target: CGFloat) -> Int { firstEndingAndPrefix(after: target).index }

    /// ``firstEnding(after:)`` and the ``prefix(_:)`` of that index, from one descent: the
    /// left subtrees passed on the way down are what `prefix` adds, in the same order.
    func firstEndingAndPrefix(after target: CGFloat) -> (index: Int, prefix: CGFloat) {
        guard count > 0 else { return (0, 0) }
        if nodes[1] <= target { return (count, prefix(count)) }
        var node = 1, sum: CGFloat = 0
        while node < leafBase {
            let left = nodes[2 * node]
            if sum + left > target {
                node = 2 * node
            } else {
                sum += left
                node = 2 * node + 1
            }
        }
        let index = node - leafBase
        return index < count ? (index, sum) : (count, prefix(count))
    }
}

/// Group pitches in blocks of 64: a group's origin is its block's start (a ``PitchTree`` over
/// block sums, small enough to stay in cache) plus the pitches before it in its block, added in
/// order. Every origin is a fixed function of the current pitches, so measuring in any order
/// gives a fresh layout's numbers; a change costs O(64 + log n); a query walks a block's
/// neighbouring pitches in memory order instead of descending the tree for each group.
struct BlockedPitches {
    static let blockSize = 64
    /// Every group's pitch; empty while every pitch is `uniform` but the last, which is `last`
    /// (a section nothing in which was measured: nothing stored per group).
    private var stored: [CGFloat]
    private var uniform: CGFloat = 0
    private var last: CGFloat = 0
    private(set) var count: Int
    private var blocks: PitchTree
    /// How many pitches are zero or less (a negative inter-group spacing longer than a group):
    /// while there are none, origins only grow and a rect is found by descending the tree.
    private(set) var nonPositive = 0

    /// Whether every group starts after the one before it.
    var isIncreasing: Bool { nonPositive == 0 }

    init(_ values: [CGFloat]) {
        stored = values
        count = values.count
        blocks = PitchTree([])
        blocks = PitchTree(blockSums())
        nonPositive = values.reduce(0) { $0 + ($1 > 0 ? 0 : 1) }
    }

    /// `count` pitches, all `uniform` but the last, `last`; stored as those two numbers.
    init(count: Int, uniform: CGFloat, last: CGFloat) {
        stored = []
        self.count = count
        self.uniform = uniform
        self.last = last
        blocks = PitchTree([])
        blocks = PitchTree(blockSums())
        if count > 0 { nonPositive = (count - 1) * (uniform > 0 ? 0 : 1) + (last > 0 ? 0 : 1) }
    }

    private func blockSums() -> [CGFloat] {
        let blockCount = (count + Self.blockSize - 1) / Self.blockSize
        var sums = [CGFloat](repeating: 0, count: blockCount)
        for b in 0..<blockCount { sums[b] = fold(from: b * Self.blockSize, to: min(count, (b + 1) * Self.blockSize)) }
        return sums
    }

    /// Group `i`'s pitch.
    @inline(__always)
    func pitch(_ i: Int) -> CGFloat {
        stored.isEmpty ? (i == count - 1 ? last : uniform) : stored[i]
    }

    var bytes: Int { stored.capacity * MemoryLayout<CGFloat>.stride + blocks.bytes }
    var total: CGFloat { blocks.total }

    private func fold(from: Int, to: Int) -> CGFloat {
        var sum: CGFloat = 0
        var i = from
        while i < to {
            sum += pitch(i)
            i += 1
        }
        return sum
    }

    mutating func set(_ i: Int, _ value: CGFloat) {
        nonPositive += (value > 0 ? 0 : 1) - (pitch(i) > 0 ? 0 : 1)
        if stored.isEmpty {
            stored = [CGFloat](repeating: uniform, count: count)
            stored[count - 1] = last
        }
        stored[i] = value
        let b = i / Self.blockSize
        blocks.set(b, fold(from: b * Self.blockSize, to: min(count, (b + 1) * Self.blockSize)))
    }

    /// The least and the greatest of the groups' origins and ends (origin + pitch), from the
    /// section's first group: for increasing origins, the first's and the last's; otherwise
    /// found in one pass.
    func extremes() -> (lowestOrigin: CGFloat, highestEnd: CGFloat) {
        guard count > 0 else { return (0, 0) }
        if isIncreasing { return (0, total) }
        var low: CGFloat = 0, high = -CGFloat.infinity
        forEachOrigin(from: 0) { g, origin in
            low = min(low, origin)
            high = max(high, origin + pitch(g))
            return true
        }
        return (low, high)
    }

    /// Where group `g` starts, from the section's first group.
    func origin(_ g: Int) -> CGFloat {
        let b = g / Self.blockSize
        var sum = blocks.prefix(b)
        var i = b * Self.blockSize
        while i < g {
            sum += pitch(i)
            i += 1
        }
        return sum
    }

    /// Calls `body` with each group from `g` on and its origin until it returns `false`;
    /// `origin`, when known, is `g`'s (as ``firstEndingAndOrigin(after:)`` gives it).
    func forEachOrigin(from g: Int, origin known: CGFloat? = nil, _ body: (Int, CGFloat) -> Bool) {
        guard g < count else { return }
        var i = g
        var origin = known ?? self.origin(g)
        while i < count {
            guard body(i, origin) else { return }
            i += 1
            if i % Self.blockSize == 0 { origin = blocks.prefix(i / Self.blockSize) } else { origin += pitch(i - 1) }
        }
    }

    /// A group at or before the first whose pitch ends past `target` (one group early where
    /// rounding could decide it), or `count`.
    func firstEnding(after target: CGFloat) -> Int { firstEndingAndOrigin(after: target).group }

    /// ``firstEnding(after:)`` and that group's ``origin(_:)`` — the same sums in the same order —
    /// from one descent of the block tree instead of two.
    func firstEndingAndOrigin(after target: CGFloat) -> (group: Int, origin: CGFloat) {
        let t = target - 1e-9 * max(1, abs(target))
        let (b, blockStart) = blocks.firstEndingAndPrefix(after: t)
        guard b < blocks.count else { return (count, 0) }
        var sum = blockStart
        var i = b * Self.blockSize
        let end = min(count, i + Self.blockSize)
        while i < end {
            let before = sum
            sum += pitch(i)
            if sum > t { return (i, before) }
            i += 1
        }
        let last = max(0, end - 1)
        return (last, origin(last))
    }
}
