import Foundation

extension FlowGeometry {
    /// Changes one item's size (in the scroll frame) without laying everything out again — what a
    /// self-sizing cell's measurement needs. Returns the change of the item's line height, or `nil`
    /// when the change cannot be made in place: the item is in a uniform section, or the new size
    /// changes where lines break (the line no longer fits its items, or the next line's first item
    /// would now fit, or this line's first item would now fit on the line before). Then the
    /// caller lays the section out again.
    ///
    /// In place, the item's line is placed again by the flow rules and every later line moves by
    /// the line's change of height, recorded in the storage's shift tree.
    ///
    /// - Complexity: O(items on the line + log n + number of sections).
    mutating func resizeItem(section s: Int, item: Int, to size: CGSize) -> CGFloat? {
        guard let plan = planResize(section: s, item: item, to: size) else { return nil }
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        for (k, frame) in plan.frames.enumerated() { storage.setFrame(plan.first + k, frame) }
        let delta = plan.lineHeight - storage.lineHeight[plan.line]
        storage.setLineHeight(plan.line, plan.lineHeight)
        if delta != 0 { move(after: plan.line, inSection: s, by: delta) }
        return delta
    }

    /// How much an item's line would change height if the item took `size`, without changing
    /// anything; `nil` when lines would break differently.
    func lineHeightChange(section s: Int, item: Int, to size: CGSize) -> CGFloat? {
        planResize(section: s, item: item, to: size).map { $0.lineHeight - storage.lineHeight[$0.line] }
    }

    /// The new placement of an item's line, or `nil` when the breaks would move.
    private struct ResizePlan {
        var line: Int
        var first: Int
        var frames: [CGRect]
        var lineHeight: CGFloat
    }

    private func planResize(section s: Int, item: Int, to size: CGSize) -> ResizePlan? {
        guard sections.indices.contains(s), case .varied(let base, let lines) = sections[s].items,
            item >= 0, item < sections[s].count
        else { return nil }
        let metrics = sections[s].metrics
        let available = crossSize - metrics.inset.horizontal
        let limit = available + Builder.fitTolerance
        let spacing = metrics.minimumInteritemSpacing
        let index = base + item
        let line = self.line(containing: index, in: lines)
        let first = storage.lineFirst[line]
        let end = line + 1 < lines.upperBound ? storage.lineFirst[line + 1] : base + sections[s].count
        var sizes = (first..<end).map { storage.frames[$0].size }
        sizes[index - first] = size
        // The breaks must stay where they are.
        let used = sizes.reduce(0) { $0 + $1.width } + CGFloat(sizes.count - 1) * spacing
        if sizes.count > 1, used > limit { return nil }
        if line + 1 < lines.upperBound, used + spacing + storage.frames[end].width <= limit { return nil }
        if line > lines.lowerBound, index == first {
            let previousFirst = storage.lineFirst[line - 1]
            let previous =
                (previousFirst..<first).reduce(CGFloat(0)) { $0 + storage.frames[$1].width }
                + CGFloat(first - previousFirst - 1) * spacing
            if previous + spacing + size.width <= limit { return nil }
        }
        // Place the line again, by the builder's rules.
        let lineHeight = sizes.map(\.height).max() ?? 0
        let placement = Builder.linePlacement(
            count: sizes.count, sumWidths: sizes.reduce(0) { $0 + $1.width },
            firstWidth: sizes[0].width,
            sameSize: sizes.allSatisfy { $0 == sizes[0] },
            isLastLine: line + 1 == lines.upperBound, available: available,
            spacing: spacing, leading: metrics.inset.left)
        let top = storage.lineTop[line]
        var x = placement.x
        var frames: [CGRect] = []
        frames.reserveCapacity(sizes.count)
        for itemSize in sizes {
            frames.append(Builder.placedFrame(itemSize, x: x, lineTop: top, lineHeight: lineHeight, scale: displayScale))
            x += itemSize.width + placement.gap
        }
        return ResizePlan(line: line, first: first, frames: frames, lineHeight: lineHeight)
    }

    /// Moves everything after `line` of section `s` by `delta`: later lines through the shift tree,
    /// this section's end and footer, and every later section.
    private mutating func move(after line: Int, inSection s: Int, by delta: CGFloat) {
        storage.shiftLines(from: line + 1, by: delta)
        sections[s].bodyEnd += delta
        sections[s].end += delta
        if var footer = sections[s].footer {
            footer.origin.y = LayoutGeometry.snapToPixel(sections[s].bodyEnd, scale: displayScale)
            sections[s].footer = footer
        }
        for t in (s + 1)..<sections.count {
            sections[t].start += delta
            sections[t].end += delta
            sections[t].bodyStart += delta
            sections[t].bodyEnd += delta
            if var header = sections[t].header {
                header.origin.y = LayoutGeometry.snapToPixel(sections[t].start, scale: displayScale)
                sections[t].header = header
            }
            if var footer = sections[t].footer {
                footer.origin.y = LayoutGeometry.snapToPixel(sections[t].bodyEnd, scale: displayScale)
                sections[t].footer = footer
            }
            if case .uniform(var grid) = sections[t].items {
                grid.firstTop += delta
                sections[t].items = .uniform(grid)
            }
        }
        if scrollDirection == .vertical { contentSize.height += delta } else { contentSize.width += delta }
    }
}
