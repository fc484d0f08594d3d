import Foundation

/// Selection and highlighting, as UIKit's collection view keeps them: the programmatic calls
/// change the selection without asking or telling the delegate; ``tapItem(at:)`` is what a tap
/// does, with every delegate question and callback.
extension CollectionView {
    /// The selected items, sorted; empty when none is selected.
    public var indexPathsForSelectedItems: [IndexPath]? { selection.sorted() }

    /// Selects the item at `indexPath` (all others too stay selected only with
    /// ``allowsMultipleSelection``, or in editing mode ``allowsMultipleSelectionDuringEditing``) and scrolls it to `scrollPosition` (none with `[]`). `nil`
    /// clears the selection. The delegate is not asked or told, as in UIKit. Ignored when
    /// selection is off or the item does not exist.
    public func selectItem(at indexPath: IndexPath?, animated: Bool, scrollPosition: ScrollPosition) {
        guard let indexPath else { clearSelection(); return }
        guard selectsNow, isItem(indexPath) else { return }
        if selectsManyNow {
            if !selection.contains(indexPath) { setSelection(selection + [indexPath]) }
        } else {
            setSelection([indexPath])
        }
        if !scrollPosition.isEmpty { scrollToItem(at: indexPath, at: scrollPosition, animated: animated) }
    }

    /// Deselects the item at `indexPath`, without asking or telling the delegate.
    public func deselectItem(at indexPath: IndexPath, animated: Bool) {
        guard selection.contains(indexPath) else { return }
        setSelection(selection.filter { $0 != indexPath })
    }

    /// What a tap on the item does in UIKit: the delegate is asked whether to highlight it (no:
    /// nothing more happens); the cell is highlighted and unhighlighted with the delegate told;
    /// then a selected item of a multiple selection is deselected (if the delegate agrees), and
    /// an unselected item is selected (if the delegate agrees) — in single selection, after the
    /// previous selection is cleared with the delegate told of each item. Tapping the selected
    /// item of a single selection changes nothing. Returns whether the selection changed.
    @discardableResult
    public func tapItem(at indexPath: IndexPath) -> Bool {
        guard isItem(indexPath) else { return false }
        let delegate = self.delegate
        guard delegate?.collectionView(self, shouldHighlightItemAt: indexPath) ?? true else { return false }
        cellForItem(at: indexPath)?.isHighlighted = true
        delegate?.collectionView(self, didHighlightItemAt: indexPath)
        cellForItem(at: indexPath)?.isHighlighted = false
        delegate?.collectionView(self, didUnhighlightItemAt: indexPath)
        guard selectsNow else { return false }
        if selection.contains(indexPath) {
            guard selectsManyNow,
                delegate?.collectionView(self, shouldDeselectItemAt: indexPath) ?? true
            else { return false }
            setSelection(selection.filter { $0 != indexPath })
            delegate?.collectionView(self, didDeselectItemAt: indexPath)
            return true
        }
        guard delegate?.collectionView(self, shouldSelectItemAt: indexPath) ?? true else { return false }
        if !selectsManyNow {
            let previous = selection
            setSelection([])
            for path in previous { delegate?.collectionView(self, didDeselectItemAt: path) }
        }
        setSelection(selection + [indexPath])
        delegate?.collectionView(self, didSelectItemAt: indexPath)
        return true
    }

    /// Replaces the selection and brings the visible cells' `isSelected` up to date.
    func setSelection(_ paths: [IndexPath]) {
        let old = selection
        selection = paths
        for path in old where !paths.contains(path) { cellForItem(at: path)?.isSelected = false }
        for path in paths where !old.contains(path) { cellForItem(at: path)?.isSelected = true }
    }

    func clearSelection() {
        if !selection.isEmpty { setSelection([]) }
    }

    /// Carries the selection through a batch: moved items stay selected at their new paths;
    /// deleted and reloaded items (and the items of deleted and reloaded sections) are
    /// deselected, as in UIKit.
    func mapSelection(through mapping: UpdateMapping) {
        guard !selection.isEmpty else { return }
        selection = selection.compactMap { old in
            if mapping.reloadedItems.contains(old) || mapping.reloadedSections.contains(old.section) { return nil }
            return mapping.newIndexPath(forOld: old)
        }
    }

    /// Whether items can be selected now: ``allowsSelection``, and in editing mode
    /// ``allowsSelectionDuringEditing`` too.
    var selectsNow: Bool { allowsSelection && (!isEditing || allowsSelectionDuringEditing) }

    /// Whether more than one item can be selected now: ``allowsMultipleSelection``, or in editing
    /// mode ``allowsMultipleSelectionDuringEditing``.
    var selectsManyNow: Bool { isEditing ? allowsMultipleSelectionDuringEditing : allowsMultipleSelection }

    /// Brings the selection within what may be selected now: none when nothing may be, the most
    /// recently selected item when only one may be.
    func enforceSelectionRules() {
        if !selectsNow {
            clearSelection()
        } else if !selectsManyNow, selection.count > 1, let last = selection.last {
            setSelection([last])
        }
    }

    /// Whether the delegate lets the item at `indexPath` be edited (default yes).
    func canEditItem(at indexPath: IndexPath) -> Bool {
        delegate?.collectionView(self, canEditItemAt: indexPath) ?? true
    }

    /// The cell of the item, the item scrolled to the middle of the view first when it has none
    /// on screen (what a key press or a swipe on an item does).
    func showItem(at indexPath: IndexPath) -> CollectionViewCell? {
        if let cell = cellForItem(at: indexPath) { return cell }
        scrollToItem(at: indexPath, at: [.centeredVertically, .centeredHorizontally], animated: false)
        layoutIfNeeded()
        return cellForItem(at: indexPath)
    }

    func isItem(_ indexPath: IndexPath) -> Bool {
        indexPath.count == 2 && indexPath.section >= 0 && indexPath.section < numberOfSections
            && indexPath.item >= 0 && indexPath.item < numberOfItems(inSection: indexPath.section)
    }
}
