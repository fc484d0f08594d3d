import Foundation

/// Focus, as a keyboard, a remote or a game controller moves it: one item at a time, the arrow
/// keys to the nearest item that way, tab and shift-tab through the items in order. Headless,
/// ``moveFocus(_:)`` is the key press.
extension CollectionView {
    /// Where a focus move goes (`UIFocusHeading`'s directions).
    public enum FocusHeading: Sendable {
        case up, down, left, right
        /// The item after, in index-path order (tab).
        case next
        /// The item before (shift-tab).
        case previous
    }

    /// The focused item, or `nil` when none is.
    public var indexPathForFocusedItem: IndexPath? { focusedItem }

    /// Focus leaves the collection view (for another view): no item is focused; the next
    /// ``moveFocus(_:)`` comes back as ``remembersLastFocusedIndexPath`` says.
    public func resignFocus() {
        guard let previous = focusedItem else { return }
        focusedItem = nil
        cellForItem(at: previous)?.isFocusedItem = false
    }

    /// Moves focus as a key press does, and returns the item focused after it (`nil`: none).
    ///
    /// With nothing focused, focus goes to the remembered item (``remembersLastFocusedIndexPath``),
    /// else to the delegate's `indexPathForPreferredFocusedView(in:)`, else to the first item
    /// that can be focused. From an item, an arrow goes to the nearest item whose frame lies
    /// wholly that way (nearest along the move, then across it), `next` and `previous` to the
    /// neighbours in index-path order — skipping items the delegate's
    /// `collectionView(_:canFocusItemAt:)` refuses; where there is none, focus stays. The focused
    /// item is scrolled into view, its cell's ``CollectionViewCell/configurationState`` says it
    /// is focused, and with ``selectionFollowsFocus`` it is selected as a tap selects it.
    @discardableResult
    public func moveFocus(_ heading: FocusHeading) -> IndexPath? {
        layoutIfNeeded()
        func focusable(_ path: IndexPath) -> Bool { delegate?.collectionView(self, canFocusItemAt: path) ?? true }
        var target: IndexPath?
        if let current = focusedItem, isItem(current) {
            switch heading {
            case .next: target = stepping(from: current, forward: true, where: focusable)
            case .previous: target = stepping(from: current, forward: false, where: focusable)
            default: target = nearest(to: current, heading, where: focusable)
            }
        } else {
            let remembered = remembersLastFocusedIndexPath ? lastFocusedItem : nil
            let preferred = delegate?.indexPathForPreferredFocusedView(in: self)
            target =
                [remembered, preferred].compactMap { $0 }.first { isItem($0) && focusable($0) }
                ?? stepping(from: nil, forward: true, where: focusable)
        }
        guard let target else { return focusedItem }
        setFocus(target)
        return target
    }

    /// The first item after `path` in index-path order (before it, backwards; from the first
    /// item when `nil`) that `accepts` takes.
    private func stepping(from path: IndexPath?, forward: Bool, where accepts: (IndexPath) -> Bool) -> IndexPath? {
        let step = forward ? 1 : -1
        var section = path?.section ?? 0
        var item = path.map { $0.item + step } ?? 0
        while section >= 0, section < numberOfSections {
            let count = numberOfItems(inSection: section)
            while item >= 0, item < count {
                let candidate = IndexPath(item: item, section: section)
                if accepts(candidate) { return candidate }
                item += step
            }
            section += step
            item = forward || section < 0 ? 0 : numberOfItems(inSection: section) - 1
        }
        return nil
    }

    /// The item an arrow from `current` reaches, or `nil`: the nearest whose frame lies wholly
    /// that way (nearest along the move, then across it, then first in index-path order). The
    /// layout is asked for a band beyond the item — a viewport's length, doubled until an item
    /// is found or the content ends — so that a key press reads the items near it, not every item.
    private func nearest(to current: IndexPath, _ heading: FocusHeading, where accepts: (IndexPath) -> Bool) -> IndexPath? {
        let layout = collectionViewLayout
        guard let from = layout.layoutAttributesForItem(at: current)?.frame else { return nil }
        // The frames are the layout's own: in a mirrored layout left and right swap.
        var heading = heading
        if isMirroringLayout, heading == .left || heading == .right { heading = heading == .left ? .right : .left }
        let vertical = heading == .up || heading == .down
        let content = layout.collectionViewContentSize
        let epsilon: CGFloat = 0.5
        // Across the move, the whole content (and the viewport, should frames stray past it).
        let acrossMin = min(0, vertical ? bounds.minX : bounds.minY) - 1
        let acrossMax = max(vertical ? content.width : content.height, vertical ? bounds.maxX : bounds.maxY) + 1
        let contentEnd = max(vertical ? content.height : content.width, vertical ? bounds.maxY : bounds.maxX)
        var reach = max(vertical ? bounds.height : bounds.width, 1)
        while true {
            let band: CGRect
            switch heading {
            case .down: band = CGRect(x: acrossMin, y: from.maxY - epsilon, width: acrossMax - acrossMin, height: reach + epsilon)
            case .up: band = CGRect(x: acrossMin, y: from.minY - reach, width: acrossMax - acrossMin, height: reach + epsilon)
            case .right: band = CGRect(x: from.maxX - epsilon, y: acrossMin, width: reach + epsilon, height: acrossMax - acrossMin)
            default: band = CGRect(x: from.minX - reach, y: acrossMin, width: reach + epsilon, height: acrossMax - acrossMin)
            }
            var best: (path: IndexPath, along: CGFloat, across: CGFloat)?
            for attributes in layout.layoutAttributesForElements(in: band) ?? [] where attributes.representedElementCategory == .cell {
                let path = attributes.indexPath, frame = attributes.frame
                guard path != current, isItem(path) else { continue }
                let along: CGFloat, across: CGFloat
                switch heading {
                case .down:
                    guard frame.minY >= from.maxY - epsilon else { continue }
                    (along, across) = (frame.minY - from.maxY, abs(frame.midX - from.midX))
                case .up:
                    guard frame.maxY <= from.minY + epsilon else { continue }
                    (along, across) = (from.minY - frame.maxY, abs(frame.midX - from.midX))
                case .right:
                    guard frame.minX >= from.maxX - epsilon else { continue }
                    (along, across) = (frame.minX - from.maxX, abs(frame.midY - from.midY))
                default:
                    guard frame.maxX <= from.minX + epsilon else { continue }
                    (along, across) = (from.minX - frame.maxX, abs(frame.midY - from.midY))
                }
                // Only what starts within the band: every item nearer than its end is then among
                // those read.
                guard along <= reach, accepts(path) else { continue }
                if let b = best, (b.along, b.across) < (along, across) || ((b.along, b.across) == (along, across) && b.path < path) {
                    continue
                }
                best = (path, along, across)
            }
            if let best { return best.path }
            let covered: Bool
            switch heading {
            case .down: covered = from.maxY + reach >= contentEnd
            case .up: covered = from.minY - reach <= 0
            case .right: covered = from.maxX + reach >= contentEnd
            default: covered = from.minX - reach <= 0
            }
            if covered { return nil }
            reach *= 2
        }
    }

    /// Focuses `path`: the cells' states, the view scrolled to it, and the selection when it
    /// follows focus.
    private func setFocus(_ path: IndexPath) {
        let previous = focusedItem
        focusedItem = path
        lastFocusedItem = path
        if let previous, previous != path { cellForItem(at: previous)?.isFocusedItem = false }
        showItem(at: path)?.isFocusedItem = true
        if selectionFollowsFocus, !(indexPathsForSelectedItems ?? []).contains(path) { tapItem(at: path) }
    }
}
