import Foundation
import TrellisLayout

/// A headless view that a collection view shows for one element: `UICollectionReusableView`
/// without pixels. Subclasses override ``apply(_:)`` to react to new attributes and
/// ``prepareForReuse()`` to reset before being used for another element.
open class CollectionReusableView {
    /// The identifier it was registered and dequeued with.
    public internal(set) var reuseIdentifier: String = ""
    /// The attributes last applied; `nil` before the first.
    public private(set) var layoutAttributes: CollectionViewLayoutAttributes?
    /// How many times attributes were applied: unchanged attributes are never applied again.
    public private(set) var applyCount = 0
    /// How many times this view was prepared for reuse.
    public private(set) var reuseCount = 0

    /// Creates a view; the collection view creates registered classes with this initializer.
    public required init() {}

    /// Called with new attributes — only when they differ from the last applied ones (custom
    /// attributes included). The default does nothing.
    open func apply(_ layoutAttributes: CollectionViewLayoutAttributes) {}

    /// Called before the view is handed out again by a dequeue. The default does nothing.
    open func prepareForReuse() {}

    /// The attributes the view would like (self-sizing): the default returns `layoutAttributes`.
    open func preferredLayoutAttributesFitting(_ layoutAttributes: CollectionViewLayoutAttributes)
        -> CollectionViewLayoutAttributes {
        layoutAttributes
    }

    /// Applies attributes if they changed; returns whether they did.
    @discardableResult
    final func applyIfChanged(_ attributes: CollectionViewLayoutAttributes) -> Bool {
        guard attributes != layoutAttributes else { return false }
        layoutAttributes = attributes
        applyCount += 1
        apply(attributes)
        return true
    }

    final func recycle() {
        reuseCount += 1
        layoutAttributes = nil
        prepareForReuse()
    }
}

/// A headless cell (`UICollectionViewCell`).
open class CollectionViewCell: CollectionReusableView {}

/// The views waiting to be reused, by kind and identifier. A class, so that taking a view out on
/// the per-cell path is not a checked mutation of the collection view's stored properties.
///
/// Each identifier has a slot (a class, so that taking a view out needs no copy of the list);
/// the slot used last is remembered, since a collection view mostly dequeues one identifier
/// over and over and hashing the identifier is the largest cost here.
final class ReusePool {
    /// Which views a key names: cells (`kind == nil`) or views of one kind, with one identifier.
    struct Key: Hashable {
        var kind: String?
        var identifier: String
    }

    final class Slot {
        let type: CollectionReusableView.Type
        let registered: Bool
        var waiting: [CollectionReusableView] = []
        init(type: CollectionReusableView.Type, registered: Bool) {
            self.type = type
            self.registered = registered
        }
    }

    private var slots: [Key: Slot] = [:]
    private var lastKey: Key?
    private var lastSlot: Slot?
    /// How many views were created (not reused).
    private(set) var created = 0

    func registerCell(_ type: CollectionViewCell.Type, _ identifier: String) {
        register(type, Key(kind: nil, identifier: identifier))
    }

    func registerSupplementary(_ type: CollectionReusableView.Type, kind: String, _ identifier: String) {
        register(type, Key(kind: kind, identifier: identifier))
    }

    private func register(_ type: CollectionReusableView.Type, _ key: Key) {
        let slot = Slot(type: type, registered: true)
        slot.waiting = slots[key]?.waiting.filter { Swift.type(of: $0) == type } ?? []
        slots[key] = slot
        lastKey = nil
        lastSlot = nil
    }

    private func slot(_ key: Key, default type: CollectionReusableView.Type) -> Slot {
        if let lastSlot, lastKey == key { return lastSlot }
        let slot = slots[key] ?? {
            let made = Slot(type: type, registered: false)
            slots[key] = made
            return made
        }()
        lastKey = key
        lastSlot = slot
        return slot
    }

    /// A cell for `identifier`, and whether its class was registered.
    func dequeueCell(_ identifier: String) -> (CollectionViewCell, registered: Bool) {
        let slot = slot(Key(kind: nil, identifier: identifier), default: CollectionViewCell.self)
        if let view = slot.waiting.popLast() as? CollectionViewCell {
            view.recycle()
            return (view, slot.registered)
        }
        created += 1
        let cell = (slot.type as? CollectionViewCell.Type ?? CollectionViewCell.self).init()
        cell.reuseIdentifier = identifier
        return (cell, slot.registered)
    }

    func dequeueSupplementary(kind: String, _ identifier: String) -> CollectionReusableView {
        let slot = slot(Key(kind: kind, identifier: identifier), default: CollectionReusableView.self)
        if let view = slot.waiting.popLast() {
            view.recycle()
            return view
        }
        created += 1
        let view = slot.type.init()
        view.reuseIdentifier = identifier
        return view
    }

    func enqueue(_ view: CollectionReusableView, kind: String?) {
        slot(Key(kind: kind, identifier: view.reuseIdentifier), default: type(of: view)).waiting.append(view)
    }
}
