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
        let items = (0..<numberOfSections).flatMap { s in (0..<numberOfItems(inSection: s)).map { IndexPath(item: $0, section: s) } }
        func focusable(_ path: IndexPath) -> Bool { delegate?.collectionView(self, canFocusItemAt: path) ?? true }
        var target: IndexPath?
        if let current = focusedItem, items.contains(current) {
            target = neighbour(of: current, heading, among: items, focusable: focusable)
        } else {
            let remembered = remembersLastFocusedIndexPath ? lastFocusedItem : nil
            let preferred = delegate?.indexPathForPreferredFocusedView(in: self)
            target = [remembered, preferred].compactMap { $0 }.first { items.contains($0) && focusable($0) } ?? items.first(where: focusable)
        }
        guard let target else { return focusedItem }
        setFocus(target)
        return target
    }

    /// The item a move from `current` reaches, or `nil`.
    private func neighbour(
        of current: IndexPath, _ heading: FocusHeading, among items: [IndexPath], focusable: (IndexPath) -> Bool
    ) -> IndexPath? {
        switch heading {
        case .next:
            return items.drop { $0 != current }.dropFirst().first(where: focusable)
        case .previous:
            return items.prefix { $0 != current }.reversed().first(where: focusable)
        case .up, .down, .left, .right:
            guard let from = collectionViewLayout.layoutAttributesForItem(at: current)?.frame else { return nil }
            // The frames are the layout's own: in a mirrored layout left and right swap.
            var heading = heading
            if isMirroringLayout, heading == .left || heading == .right { heading = heading == .left ? .right : .left }
            let epsilon: CGFloat = 0.5
            var best: (path: IndexPath, along: CGFloat, across: CGFloat)?
            for path in items where path != current && focusable(path) {
                guard let frame = collectionViewLayout.layoutAttributesForItem(at: path)?.frame else { continue }
                let along: CGFloat, across: CGFloat
                switch heading {
                case .down:
                    guard frame.minY >= from.maxY - epsilon else { continue }
                    along = frame.minY - from.maxY
                    across = abs(frame.midX - from.midX)
                case .up:
                    guard frame.maxY <= from.minY + epsilon else { continue }
                    along = from.minY - frame.maxY
                    across = abs(frame.midX - from.midX)
                case .right:
                    guard frame.minX >= from.maxX - epsilon else { continue }
                    along = frame.minX - from.maxX
                    across = abs(frame.midY - from.midY)
                default:
                    guard frame.maxX <= from.minX + epsilon else { continue }
                    along = from.minX - frame.maxX
                    across = abs(frame.midY - from.midY)
                }
                if let b = best, (b.along, b.across) <= (along, across) { continue }
                best = (path, along, across)
            }
            return best?.path
        }
    }

    /// Focuses `path`: the cells' states, the view scrolled to it, and the selection when it
    /// follows focus.
    private func setFocus(_ path: IndexPath) {
        let previous = focusedItem
        focusedItem = path
        lastFocusedItem = path
        if let previous, previous != path { cellForItem(at: previous)?.isFocusedItem = false }
        if cellForItem(at: path) == nil {
            scrollToItem(at: path, at: [.centeredVertically, .centeredHorizontally], animated: false)
            layoutIfNeeded()
        }
        cellForItem(at: path)?.isFocusedItem = true
        if selectionFollowsFocus, !(indexPathsForSelectedItems ?? []).contains(path) { tapItem(at: path) }
    }
}
