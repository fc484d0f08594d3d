import TrellisCollectionView

/// Finds which of a list of extents along one axis (rows, columns' items, groups) overlap a
/// range, by binary search: the spatial index of the built-in layouts.
///
/// ```swift
/// var rows = ExtentIndex()
/// rows.append(min: 0, max: 100)      // row 0
/// rows.append(min: 110, max: 210)    // row 1
/// rows.append(min: 220, max: 320)    // row 2
/// rows.candidates(from: 150, to: 230) // 1..<3
/// ```
///
/// A layout appends its elements in layout order, which is nearly sorted along the scroll axis
/// but need not be sorted (a tall item, a negative spacing). The index keeps, for each position,
/// the largest `max` up to it (non-decreasing, so binary-searchable even when the `max`es are
/// not) and answers the first position whose prefix reaches past the range's start. The end is
/// the first position from which every `min` lies at or beyond the range's end: the `min`s
/// themselves when they are sorted (the usual case, stored once), otherwise the suffix minimum,
/// built when the index is sealed. Every element of the range then still needs the exact test,
/// as candidates between the bounds may miss it; in a layout's order they are the few neighbours
/// of a tall element.
///
/// - Complexity: ``append(min:max:)`` amortized O(1); ``candidates(from:to:)`` O(log n).
///   Memory: 16 bytes per element, 24 when the `min`s are not sorted.
public struct ExtentIndex: Sendable {
    private var mins: [CGFloat] = []
    private var reach: [CGFloat] = []
    /// The suffix minimum of `mins`, when they are not sorted; built by ``seal()``.
    private var floors: [CGFloat] = []
    private var minsSorted = true
    private var sealed = true
    /// Every ``sampleStride``-th entry of `reach` and of the `min`s (or `floors`), built by
    /// ``seal()``: a search first finds its block among these, which stay in cache, then
    /// searches the block alone — a few cache misses per query instead of one per halving.
    private var reachSamples: [CGFloat] = []
    private var lowSamples: [CGFloat] = []
    private static let sampleStride = 64

    /// An empty index.
    public init() {}

    /// An empty index with room for `capacity` elements.
    public init(capacity: Int) {
        mins.reserveCapacity(capacity)
        reach.reserveCapacity(capacity)
    }

    /// Makes room for `capacity` elements in all.
    public mutating func reserveCapacity(_ capacity: Int) {
        mins.reserveCapacity(capacity)
        reach.reserveCapacity(capacity)
    }

    /// The number of elements.
    public var count: Int { mins.count }

    /// Whether every `min` is at or after the one before: then the candidates of a range are
    /// the elements of its band and its neighbours', and nothing else.
    public var minsAreSorted: Bool { minsSorted }

    /// Bytes held, capacity included.
    public var bytes: Int {
        (mins.capacity + reach.capacity + floors.capacity + reachSamples.capacity + lowSamples.capacity)
            * MemoryLayout<CGFloat>.stride
    }

    /// Appends the extent `min..<max` of the next element. A NaN is stored as an empty extent at
    /// negative infinity, which no range overlaps.
    public mutating func append(min low: CGFloat, max high: CGFloat) {
        let low = low.isNaN ? -.infinity : low, high = high.isNaN ? -.infinity : high
        if let last = mins.last, low < last { minsSorted = false }
        mins.append(low)
        reach.append(Swift.max(reach.last ?? -.infinity, high))
        sealed = false
    }

    /// Removes every element and keeps the memory.
    public mutating func removeAll() {
        mins.removeAll(keepingCapacity: true)
        reach.removeAll(keepingCapacity: true)
        floors.removeAll(keepingCapacity: true)
        reachSamples.removeAll(keepingCapacity: true)
        lowSamples.removeAll(keepingCapacity: true)
        minsSorted = true
        sealed = true
    }

    /// Builds what queries need after the last ``append(min:max:)``; queries on an unsealed index
    /// seal a copy first, so call this once after building.
    public mutating func seal() {
        guard !sealed else { return }
        floors.removeAll(keepingCapacity: true)
        if !minsSorted {
            floors = mins
            var i = floors.count - 2
            while i >= 0 {
                if floors[i + 1] < floors[i] { floors[i] = floors[i + 1] }
                i -= 1
            }
        }
        let lows = minsSorted ? mins : floors
        reachSamples.removeAll(keepingCapacity: true)
        lowSamples.removeAll(keepingCapacity: true)
        for i in Swift.stride(from: 0, to: mins.count, by: Self.sampleStride) {
            reachSamples.append(reach[i])
            lowSamples.append(lows[i])
        }
        sealed = true
    }

    /// The positions that may hold an element overlapping the open range `low..<high`: every
    /// element outside the returned range misses it.
    @inline(__always)
    public func candidates(from low: CGFloat, to high: CGFloat) -> Range<Int> {
        guard !mins.isEmpty, low < high else { return 0..<0 }
        if !sealed {
            // Correct without the samples when the mins are sorted; otherwise the floors are needed.
            guard minsSorted else {
                var copy = self
                copy.seal()
                return copy.candidates(from: low, to: high)
            }
            let start = Self.firstIndex(in: reach, 0, reach.count) { $0 > low }
            let end = Self.firstIndex(in: mins, 0, mins.count) { $0 >= high }
            return start..<Swift.max(start, end)
        }
        let start = Self.firstIndex(in: reach, samples: reachSamples) { $0 > low }
        let end = Self.firstIndex(in: minsSorted ? mins : floors, samples: lowSamples) { $0 >= high }
        return start..<Swift.max(start, end)
    }

    /// The first position whose element may reach past `low`: where ``candidates(from:to:)``
    /// starts. A caller whose elements' `min`s are sorted (``minsAreSorted``) can walk on from
    /// here and stop at the first element that starts at or after its range's end, instead of
    /// searching for the end too.
    @inline(__always)
    public func firstCandidate(reachingPast low: CGFloat) -> Int {
        guard !mins.isEmpty else { return 0 }
        if !sealed {
            return Self.firstIndex(in: reach, 0, reach.count) { $0 > low }
        }
        return Self.firstIndex(in: reach, samples: reachSamples) { $0 > low }
    }

    /// The first index of the non-decreasing predicate `isAbove` over `values`, or
    /// `values.count`, found first among `samples` (every ``sampleStride``-th value).
    @inline(__always)
    private static func firstIndex(in values: [CGFloat], samples: [CGFloat], where isAbove: (CGFloat) -> Bool) -> Int {
        let block = firstIndex(in: samples, 0, samples.count, where: isAbove)
        // values[block · stride] is the first sample above: the answer is after the sample
        // before it and at most there.
        guard block > 0 else { return 0 }
        let low = (block - 1) * sampleStride + 1
        let high = Swift.min(block * sampleStride, values.count)
        return firstIndex(in: values, low, high, where: isAbove)
    }

    /// The first index in `low..<high` of the non-decreasing predicate `isAbove` over
    /// `values`, or `high`.
    @inline(__always)
    private static func firstIndex(
        in values: [CGFloat], _ low: Int, _ high: Int,
        where isAbove: (CGFloat) -> Bool
    ) -> Int {
        values.withUnsafeBufferPointer { buffer in
            var low = low, high = high
            while low < high {
                let mid = (low + high) >> 1
                if isAbove(buffer[mid]) { high = mid } else { low = mid + 1 }
            }
            return low
        }
    }
}
