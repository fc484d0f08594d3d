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

/// The views waiting to be reused, by kind and identifier.
struct ReusePool {
    private var cellClasses: [String: CollectionViewCell.Type] = [:]
    private var supplementaryClasses: [String: CollectionReusableView.Type] = [:]
    private var waiting: [String: [CollectionReusableView]] = [:]
    /// How many views were created (not reused).
    private(set) var created = 0

    mutating func registerCell(_ type: CollectionViewCell.Type, _ identifier: String) {
        cellClasses[identifier] = type
    }

    mutating func registerSupplementary(_ type: CollectionReusableView.Type, kind: String, _ identifier: String) {
        supplementaryClasses[kind + "\u{0}" + identifier] = type
    }

    func isRegistered(cell identifier: String) -> Bool { cellClasses[identifier] != nil }

    func isRegistered(kind: String, _ identifier: String) -> Bool {
        supplementaryClasses[kind + "\u{0}" + identifier] != nil
    }

    mutating func dequeueCell(_ identifier: String) -> CollectionViewCell {
        if let view = waiting["cell\u{0}" + identifier]?.popLast() as? CollectionViewCell {
            view.recycle()
            return view
        }
        created += 1
        let cell = (cellClasses[identifier] ?? CollectionViewCell.self).init()
        cell.reuseIdentifier = identifier
        return cell
    }

    mutating func dequeueSupplementary(kind: String, _ identifier: String) -> CollectionReusableView {
        let key = kind + "\u{0}" + identifier
        if let view = waiting[key]?.popLast() {
            view.recycle()
            return view
        }
        created += 1
        let view = (supplementaryClasses[key] ?? CollectionReusableView.self).init()
        view.reuseIdentifier = identifier
        return view
    }

    mutating func enqueue(_ view: CollectionReusableView, kind: String?) {
        let key = (kind ?? "cell") + "\u{0}" + view.reuseIdentifier
        waiting[key, default: []].append(view)
    }

    var waitingCount: Int { waiting.values.reduce(0) { $0 + $1.count } }
}
