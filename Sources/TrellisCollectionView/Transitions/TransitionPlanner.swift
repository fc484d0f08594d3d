import Foundation

/// Old ↔ new identities of elements through an update mapping: cells by index path,
/// supplementary and decoration views by section (their item index is the layout's own).
package struct ElementMap {
    package let mapping: UpdateMapping

    package init(mapping: UpdateMapping) { self.mapping = mapping }

    /// The element that `old` becomes, `nil` when it is removed.
    package func new(_ old: ElementID) -> ElementID? {
        Self.moved(old, item: mapping.newIndexPath(forOld:), section: mapping.newSection(forOld:))
    }

    /// The element that `new` was, `nil` when it is new.
    package func old(_ new: ElementID) -> ElementID? {
        Self.moved(new, item: mapping.oldIndexPath(forNew:), section: mapping.oldSection(forNew:))
    }

    /// `id` at the place one side of the mapping gives: a cell by its index path, a view by its section.
    private static func moved(
        _ id: ElementID, item: (IndexPath) -> IndexPath?, section: (Int) -> Int?
    ) -> ElementID? {
        var moved = id
        if id.category == .cell {
            guard let path = item(id.indexPath) else { return nil }
            moved.section = path.section
            moved.item = path.item
        } else {
            guard let s = section(id.section) else { return nil }
            moved.section = s
        }
        return moved
    }
}

/// What a layout's initial and final attribute methods may read while an update is animated:
/// where every element near the viewport was before it, and how old and new positions map.
package struct UpdateContext {
    /// Old and new identities.
    package let map: ElementMap
    /// The attributes before the update of the elements visible or near the viewport, by their
    /// identity before the update.
    package let before: [ElementID: CollectionViewLayoutAttributes]
}

/// Plans the animation of a change as a pure function of what was shown before, what is shown
/// after, how identities map, and the layout's initial and final attributes: the rules of
/// `Documentation/CollectionView.md`, apart from any view bookkeeping.
package enum TransitionPlanner {
    /// The inputs of a plan.
    package struct Input {
        /// The elements visible before, with the attributes they showed.
        package var visibleBefore: [ElementID: CollectionViewLayoutAttributes]
        /// The elements visible after, with their new attributes.
        package var visibleAfter: [ElementID: CollectionViewLayoutAttributes]
        /// Old ↔ new identities.
        package var map: ElementMap
        /// The new attributes of an element that is no longer visible (asked of the layout).
        package var attributesAfter: (ElementID) -> CollectionViewLayoutAttributes?
        /// Where an appearing element starts, by its new identity; `nil` uses its new
        /// attributes at both ends.
        package var initial: (ElementID) -> CollectionViewLayoutAttributes?
        /// Where a disappearing element ends, by its old identity; `nil` uses its old attributes
        /// at both ends.
        package var final: (ElementID) -> CollectionViewLayoutAttributes?
    }

    /// The plan: every element visible before or after, in three groups, each sorted by identity.
    /// - visible before and still present: moves from its old to its new attributes;
    /// - visible before and gone: disappears to the layout's final attributes;
    /// - visible after and not paired: appears from the layout's initial attributes (asked for
    ///   every appearing element, inserted or not).
    /// Every attributes object in the plan is a copy, so later changes to the layout's objects do
    /// not change the animation.
    package static func plan(_ input: Input) -> [CollectionViewTransition.Element] {
        var moving: [CollectionViewTransition.Element] = []
        var disappearing: [CollectionViewTransition.Element] = []
        var appearing: [CollectionViewTransition.Element] = []
        var paired = Set<ElementID>()
        for (oldID, from) in input.visibleBefore.sorted(by: { $0.key < $1.key }) {
            if let newID = input.map.new(oldID), let to = input.visibleAfter[newID] ?? input.attributesAfter(newID) {
                moving.append(.init(before: oldID, after: newID, role: .moving, from: snapshot(from), to: snapshot(to)))
                paired.insert(newID)
            } else {
                let to = input.final(oldID) ?? from
                disappearing.append(
                    .init(
                        before: oldID, after: nil, role: .disappearing, from: snapshot(from),
                        to: snapshot(to)))
            }
        }
        for (newID, to) in input.visibleAfter.sorted(by: { $0.key < $1.key }) where !paired.contains(newID) {
            let from = input.initial(newID) ?? to
            appearing.append(
                .init(
                    before: input.map.old(newID), after: newID, role: .appearing, from: snapshot(from),
                    to: snapshot(to)))
        }
        return moving + disappearing + appearing
    }

    static func snapshot(_ attributes: CollectionViewLayoutAttributes) -> CollectionViewLayoutAttributes {
        attributes.snapshot()
    }
}
