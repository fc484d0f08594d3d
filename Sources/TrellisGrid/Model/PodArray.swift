import Foundation
import TrellisText

/// A growable array of plain values in memory it owns, copied on write as `Array` is, that can
/// also take over memory filled elsewhere (``init(adopting:count:capacity:)``): how a column read
/// from a file keeps the buffers its reader filled instead of copying them.
struct PodArray<Element: BitwiseCopyable>: RandomAccessCollection, @unchecked Sendable {
    final class Storage {
        var base: UnsafeMutablePointer<Element>
        var count: Int
        var capacity: Int

        init(base: UnsafeMutablePointer<Element>, count: Int, capacity: Int) {
            self.base = base
            self.count = count
            self.capacity = capacity
        }

        deinit { base.deallocate() }
    }

    private var storage: Storage

    init() {
        storage = Storage(base: .allocate(capacity: 1), count: 0, capacity: 1)
    }

    /// Takes over `base`, allocated for `capacity` elements of which the first `count` are set.
    init(adopting base: UnsafeMutablePointer<Element>, count: Int, capacity: Int) {
        storage = Storage(base: base, count: count, capacity: capacity)
    }

    var startIndex: Int { 0 }
    var endIndex: Int { storage.count }

    @inline(__always)
    subscript(index: Int) -> Element {
        get {
            precondition(index >= 0 && index < storage.count, "index out of range")
            return storage.base[index]
        }
        set {
            precondition(index >= 0 && index < storage.count, "index out of range")
            makeUnique(minimumCapacity: storage.capacity)
            storage.base[index] = newValue
        }
    }

    private mutating func makeUnique(minimumCapacity: Int) {
        if isKnownUniquelyReferenced(&storage) && storage.capacity >= minimumCapacity { return }
        let capacity = Swift.max(minimumCapacity, storage.count, 1)
        let copy = LargeBuffers.allocate(Element.self, capacity: capacity)
        copy.initialize(from: storage.base, count: storage.count)
        storage = Storage(base: copy, count: storage.count, capacity: capacity)
    }

    mutating func reserveCapacity(_ capacity: Int) { makeUnique(minimumCapacity: capacity) }

    mutating func append(_ element: Element) {
        if storage.count == storage.capacity || !isKnownUniquelyReferenced(&storage) {
            makeUnique(minimumCapacity: Swift.max(16, storage.count * 2))
        }
        storage.base[storage.count] = element
        storage.count += 1
    }

    mutating func insert(_ element: Element, at index: Int) {
        precondition(index >= 0 && index <= storage.count, "index out of range")
        makeUnique(minimumCapacity: storage.count == storage.capacity ? Swift.max(16, storage.count * 2) : storage.capacity)
        (storage.base + index + 1).update(from: storage.base + index, count: storage.count - index)
        storage.base[index] = element
        storage.count += 1
    }

    mutating func remove(at index: Int) {
        precondition(index >= 0 && index < storage.count, "index out of range")
        makeUnique(minimumCapacity: storage.capacity)
        (storage.base + index).update(from: storage.base + index + 1, count: storage.count - index - 1)
        storage.count -= 1
    }

    /// The elements in place, made this array's own first (copied when shared).
    mutating func withUnsafeMutableBufferPointer<R>(_ body: (UnsafeMutableBufferPointer<Element>) throws -> R) rethrows -> R {
        makeUnique(minimumCapacity: storage.capacity)
        return try withExtendedLifetime(storage) { try body(UnsafeMutableBufferPointer(start: storage.base, count: storage.count)) }
    }

    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        try withExtendedLifetime(storage) { try body(UnsafeBufferPointer(start: storage.base, count: storage.count)) }
    }
}
