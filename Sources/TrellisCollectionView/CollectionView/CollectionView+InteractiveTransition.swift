import Foundation

/// A change of layouts under way, driven by the app.
struct InteractiveTransition {
    var layout: CollectionViewTransitionLayout
    var completion: CollectionView.LayoutInteractiveTransitionCompletion?
}

extension CollectionView {
    /// Called when an interactive change of layouts ends: whether it completed (`false` when it
    /// was cancelled), and whether its animation finished (always `true` here: the remaining
    /// animation is ``currentTransition``).
    public typealias LayoutInteractiveTransitionCompletion = (_ completed: Bool, _ finished: Bool) -> Void

    // MARK: Interactive layout transitions

    /// Starts changing to `layout` interactively: the delegate's
    /// `collectionView(_:transitionLayoutForOldLayout:newLayout:)` gives the transition layout
    /// (a ``CollectionViewTransitionLayout`` by default), the old layout is told
    /// `prepareForTransition(to:)` and the new one `prepareForTransition(from:)`, and the
    /// transition layout quietly becomes the collection view's layout. Set its
    /// `transitionProgress` as the gesture goes; end with ``finishInteractiveTransition()`` or
    /// ``cancelInteractiveTransition()``. A transition already under way is cancelled first.
    @discardableResult
    public func startInteractiveTransition(
        to layout: CollectionViewLayout,
        completion: LayoutInteractiveTransitionCompletion? = nil
    ) -> CollectionViewTransitionLayout {
        if interactiveTransition != nil { cancelInteractiveTransition() }
        if interactiveMovement != nil { cancelInteractiveMovement() }
        layoutIfNeeded()
        let oldLayout = collectionViewLayout
        let transition =
            delegate?.collectionView(self, transitionLayoutForOldLayout: oldLayout, newLayout: layout)
            ?? CollectionViewTransitionLayout(currentLayout: oldLayout, nextLayout: layout)
        oldLayout.prepareForTransition(to: layout)
        completeTransition()
        interactiveTransition = InteractiveTransition(layout: transition, completion: completion)
        // The transition layout is the collection view's; both ends stay attached to be asked.
        replaceLayout(with: transition)
        oldLayout.attach(to: self)
        layout.attach(to: self)
        // The new layout hears of the old one once attached (its collection view set), as
        // `setCollectionViewLayout(_:animated:)` tells it.
        layout.prepareForTransition(from: oldLayout)
        layoutIfNeeded()
        return transition
    }

    /// Ends the interactive change at the new layout: it becomes the collection view's layout,
    /// the content offset settles where it proposes (`targetContentOffset(forProposedContentOffset:)`,
    /// then the delegate's), both layouts are told `finalizeLayoutTransition()`, the completion
    /// is called with `(true, true)`, and ``currentTransition`` animates from where the elements
    /// were to their places.
    public func finishInteractiveTransition() {
        endInteractiveTransition(completed: true)
    }

    /// Ends the interactive change back at the old layout, as ``finishInteractiveTransition()``
    /// does at the new one; the completion is called with `(false, true)`.
    public func cancelInteractiveTransition() {
        endInteractiveTransition(completed: false)
    }

    private func endInteractiveTransition(completed: Bool) {
        guard let running = interactiveTransition else { return }
        layoutIfNeeded()
        let before = captureBefore()
        interactiveTransition = nil
        let transition = running.layout
        let target = completed ? transition.nextLayout : transition.currentLayout
        let other = completed ? transition.currentLayout : transition.nextLayout
        other.attach(to: nil)
        replaceLayout(with: target)
        runPrepareIfNeeded()
        contentSize = target.collectionViewContentSize
        if completed {
            let proposed = layoutTargetOffset(target, proposed: bounds.origin)
            settleOffset(proposed: delegate?.collectionView(self, targetContentOffsetForProposedContentOffset: proposed) ?? proposed)
        } else {
            settleOffset(proposed: bounds.origin)
        }
        let map = ElementMap(mapping: .identity(counts: counts ?? []))
        runTransition(
            before: before, map: map, layout: target,
            initial: { [unowned self] id in self.shown(Self.attributes(target, id)).map { Self.faded($0) } },
            final: { id in before.nearby[id].map { Self.faded($0) } })
        transition.currentLayout.finalizeLayoutTransition()
        transition.nextLayout.finalizeLayoutTransition()
        running.completion?(completed, true)
    }
}
