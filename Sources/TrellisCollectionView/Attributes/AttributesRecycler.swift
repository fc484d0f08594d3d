import Foundation

/// Hands out attributes objects for a layout's queries, reusing those of the previous query that
/// no one holds any more.
///
/// A rect query builds an object for every element it returns, and allocating and freeing them
/// is most of what a query costs. The recycler keeps a reference to each object it handed out in
/// the last query, slot by slot. When a slot's reference is the only one left (the caller
/// dropped the result and kept none of its objects) the object is reset and handed out again;
/// when the caller still holds it, the slot gets a new object and the caller's stays as it was.
/// Only objects of the base class are recycled: a subclass's own attributes could not be reset.
///
/// A layout uses one recycler from one thread at a time, as it is used itself.
///
/// Not in UIKit: a headless host queries far more often than it draws, so custom layouts that
/// answer rect queries for many elements can use it too.
///
/// ```swift
/// private let recycler = AttributesRecycler()
/// override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
///     recycler.begin()
///     return visibleItems(in: rect).map {
///         recycler.make(category: .cell, kind: nil, section: 0, item: $0, frame: frames[$0])
///     }
/// }
/// ```
public final class AttributesRecycler {
    @exclusivity(unchecked) private var slots: UnsafeMutablePointer<CollectionViewLayoutAttributes?>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var cursor = 0

    /// Creates an empty recycler.
    public init() {
        capacity = 64
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: nil, count: capacity)
    }

    deinit {
        slots.deinitialize(count: capacity)
        slots.deallocate()
    }

    /// Starts a query: objects are handed out from the first slot again. Returns how many the
    /// previous query handed out, a good capacity for this one's result.
    @inline(__always) @discardableResult
    public func begin() -> Int {
        checkInvariants()
        defer { cursor = 0 }
        return cursor
    }

    /// Checks that the cursor is within the slots and the slots within their limit. Does nothing
    /// unless built with `TRELLIS_INVARIANT_CHECKS` (debug builds).
    @inline(__always)
    func checkInvariants() {
        #if TRELLIS_INVARIANT_CHECKS
            precondition(cursor >= 0 && cursor <= capacity, "AttributesRecycler: cursor \(cursor) past \(capacity) slots")
            precondition(capacity >= 64 && capacity <= Self.slotLimit, "AttributesRecycler: \(capacity) slots")
        #endif
    }

    /// An object of the base class describing an element: the slot's own when no one else holds
    /// it, a new one otherwise.
    @inline(__always)
    public func make(
        category: CollectionView.ElementCategory, kind: String?, section: Int, item: Int,
        frame: CGRect
    ) -> CollectionViewLayoutAttributes {
        if cursor == capacity {
            guard capacity < Self.slotLimit else {
                return Self.fresh(category: category, kind: kind, section: section, item: item, frame: frame)
            }
            grow()
        }
        let slot = slots + cursor
        cursor += 1
        // Checked before binding the object: a binding is a second reference.
        if isKnownUniquelyReferenced(&slot.pointee), let recycled = slot.pointee {
            recycled.reset(category: category, kind: kind, section: section, item: item, frame: frame)
            return recycled
        }
        let attributes = Self.fresh(category: category, kind: kind, section: section, item: item, frame: frame)
        slot.pointee = attributes
        return attributes
    }

    /// An object of the base class describing `element`, as ``make(category:kind:section:item:frame:)``.
    @inlinable
    public func make(_ element: LayoutElement) -> CollectionViewLayoutAttributes {
        let attributes = make(
            category: element.category, kind: element.kind, section: element.section, item: element.item,
            frame: element.frame)
        if element.zIndex != 0 { attributes.zIndex = element.zIndex }
        return attributes
    }

    private static func fresh(
        category: CollectionView.ElementCategory, kind: String?, section: Int, item: Int,
        frame: CGRect
    ) -> CollectionViewLayoutAttributes {
        let attributes = CollectionViewLayoutAttributes(category: category, kind: kind, section: section, item: item)
        attributes.setFrameOfBaseObject(frame)
        return attributes
    }

    private func grow() {
        let grown = UnsafeMutablePointer<CollectionViewLayoutAttributes?>.allocate(capacity: capacity * 2)
        grown.moveInitialize(from: slots, count: capacity)
        (grown + capacity).initialize(repeating: nil, count: capacity)
        slots.deallocate()
        slots = grown
        capacity *= 2
    }

    /// The most objects kept for reuse: queries larger than this allocate the rest.
    static let slotLimit = 4096
}
