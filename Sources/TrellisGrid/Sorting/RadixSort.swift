import Foundation
import TrellisText

/// Stable LSD radix sorts of row orders by 64-bit codes and by one byte.
enum RadixSort {
    /// Stably reorders `order` (indices into `codes`) by the codes, one digit at a time from the
    /// least significant, over the bits that vary and skipping digits that are the same in every code.
    /// An empty `order` stands for `0..<count` (the rows no key has moved yet): it is written only
    /// when the codes move a row.
    ///
    /// When the codes' spread (largest less smallest) and a row's position fit in 64 bits together
    /// — a column of scores, prices or dates, at any number of rows a grid holds — each code
    /// becomes `(code − smallest) << b | position` in the codes' own buffer and the sort moves those
    /// 8 bytes alone (one second buffer of 8 bytes a row); otherwise it moves each code beside its
    /// row (two buffers, 12 bytes a row, beside the 12 of the codes and the order).
    ///
    /// A large order is cut into one chunk per core: each pass counts the digit in every chunk
    /// at once, gives each chunk its place within every bucket (earlier chunks first, which
    /// keeps the sort stable) and moves every chunk's rows at once.
    ///
    /// `codes` is taken over: while `order` is still `0..<count` (a first key), its buffer is the
    /// sort's own (no copy in order); otherwise it is let go once gathered in order. Either way a
    /// caller that hands over its only reference keeps no second copy of the codes during the sort.
    static func radixSort(_ order: inout [Int32], count n: Int, codes: consuming [UInt64]) {
        guard n > 1 else { return }
        let identity = order.isEmpty
        #if TRELLIS_INVARIANT_CHECKS
            let before = identity ? [Int32](0..<Int32(n)) : order
            let checked = copy codes
            defer { checkStablySorted(before: before, after: order.isEmpty ? before : order) { checked[$0] } }
        #endif
        let chunks = Parallel.chunks(n)
        var keys: [UInt64] = codes
        if !identity {
            keys = order.withUnsafeBufferPointer { order in
                keys.withUnsafeBufferPointer { codes in
                    let shared = Unchecked((order, codes))
                    return Parallel.array(count: n) { range, out in
                        let (order, codes) = shared.value
                        for i in range { out[i] = codes[Int(order[i])] }
                    }
                }
            }
        }
        let spans: [Span] = keys.withUnsafeBufferPointer { keys in
            let shared = Unchecked(keys)
            return Parallel.map(chunks) { _, range in
                var span = Span()
                for i in range { span.add(shared.value[i]) }
                return span
            }
        }
        let span = Span(spans)
        guard span.varying != 0 else { return }
        let spread = span.largest - span.smallest
        let indexBits = UInt64.bitWidth - UInt64(n - 1).leadingZeroBitCount
        if UInt64.bitWidth - spread.leadingZeroBitCount + indexBits <= UInt64.bitWidth {
            sortPacked(&order, identity: identity, keys: &keys, smallest: span.smallest, indexBits: indexBits, chunks: chunks)
            return
        }
        if identity { order = [Int32](0..<Int32(n)) }
        let varying = span.varying
        let digits = Digits(varying)
        var nextKeys = [UInt64](uninitializedLarge: n)
        var nextOrder = [Int32](uninitializedLarge: n)
        // One row of `radix` counts, then offsets, per chunk.
        var offsets = [Int](repeating: 0, count: chunks.count * digits.radix)
        for shift in digits.shifts(varying) {
            let radix = digits.radix, mask = digits.mask
            keys.withUnsafeBufferPointer { keys in
                order.withUnsafeBufferPointer { order in
                    nextKeys.withUnsafeMutableBufferPointer { nextKeys in
                        nextOrder.withUnsafeMutableBufferPointer { nextOrder in
                            offsets.withUnsafeMutableBufferPointer { offsets in
                                let shared = Unchecked((keys, order, nextKeys, nextOrder, offsets))
                                placeBuckets(keys, offsets, shift: shift, digits: digits, chunks: chunks)
                                Parallel.forEach(chunks) { c, range in
                                    let (keys, order, nextKeys, nextOrder, offsets) = shared.value
                                    let row = offsets.baseAddress! + c * radix
                                    for i in range {
                                        let bucket = Int((keys[i] >> shift) & mask)
                                        let at = row[bucket]
                                        row[bucket] = at + 1
                                        nextKeys[at] = keys[i]
                                        nextOrder[at] = order[i]
                                    }
                                }
                            }
                        }
                    }
                }
            }
            swap(&keys, &nextKeys)
            swap(&order, &nextOrder)
        }
    }

    /// The least code and how many bits the codes' spread (largest less least) takes, read on
    /// every core.
    static func spread(_ codes: [UInt64]) -> (least: UInt64, bits: Int) {
        guard !codes.isEmpty else { return (0, 0) }
        let spans: [Span] = codes.withUnsafeBufferPointer { codes in
            let shared = Unchecked(codes)
            return Parallel.map(Parallel.chunks(codes.count)) { _, range in
                var span = Span()
                for i in range { span.add(shared.value[i]) }
                return span
            }
        }
        let span = Span(spans)
        return (span.smallest, UInt64.bitWidth - (span.largest - span.smallest).leadingZeroBitCount)
    }

    /// Makes each code `(code − least) << shift | (below[i] − belowLeast)` in place, on every core
    /// (`below`: the codes of a less significant key, or of keys folded already, each less its
    /// least under `1 << shift`).
    static func fold(_ codes: inout [UInt64], least: UInt64, below: [UInt64], least belowLeast: UInt64, shift: Int) {
        let n = codes.count
        codes.withUnsafeMutableBufferPointer { codes in
            below.withUnsafeBufferPointer { below in
                let shared = Unchecked((codes, below))
                Parallel.forEach(Parallel.chunks(n)) { _, range in
                    let (codes, below) = shared.value
                    for i in range { codes[i] = (codes[i] &- least) << UInt64(shift) | (below[i] &- belowLeast) }
                }
            }
        }
    }

    /// The positions `0..<codes.count` stably ordered by `codes`.
    static func sortedOrder(codes: consuming [UInt64]) -> [Int32] {
        let n = codes.count
        var order: [Int32] = []
        radixSort(&order, count: n, codes: codes)
        return order.isEmpty ? [Int32](0..<Int32(n)) : order
    }

    /// The sort of codes whose spread and a position fit in 64 bits (see ``radixSort(_:count:codes:)``):
    /// `keys` (in `order`'s order) become packed codes in place, are sorted over the spread's bits
    /// that vary, and the positions they carry give the new order.
    private static func sortPacked(
        _ order: inout [Int32], identity: Bool, keys: inout [UInt64], smallest: UInt64,
        indexBits: Int, chunks: [Range<Int>]
    ) {
        let n = keys.count
        let positionMask: UInt64 = (1 << UInt64(indexBits)) &- 1
        let spans: [Span] = keys.withUnsafeMutableBufferPointer { keys in
            let shared = Unchecked(keys)
            return Parallel.map(chunks) { _, range in
                var span = Span()
                for i in range {
                    let packed = (shared.value[i] &- smallest) << UInt64(indexBits) | UInt64(i)
                    shared.value[i] = packed
                    span.add(packed)
                }
                return span
            }
        }
        // The positions' bits vary, but the sort is not by them: they are where every code started.
        let varying = Span(spans).varying & ~positionMask
        let digits = Digits(varying)
        let shifts = digits.shifts(varying)
        if n >= inHalvesFrom {
            sortInHalves(&keys, digits: digits, shifts: shifts)
        } else {
            var next = [UInt64](uninitializedLarge: n)
            let landedInNext = keys.withUnsafeMutableBufferPointer { keys in
                next.withUnsafeMutableBufferPointer { next in
                    sortRun(keys, scratch: next, digits: digits, shifts: shifts)
                }
            }
            if landedInNext { swap(&keys, &next) }
        }
        // The positions, read out of the sorted codes a block at a time; in a sort large enough
        // to go in halves, each block's codes are given back to the system once read, so that the
        // order grows as the codes shrink.
        let block = LargeBuffers.threshold / MemoryLayout<UInt64>.stride, releasing = n >= inHalvesFrom
        order = keys.withUnsafeBufferPointer { keys in
            order.withUnsafeBufferPointer { order in
                let shared = Unchecked((keys, order))
                return Parallel.array(count: n) { range, out in
                    let (keys, order) = shared.value
                    var from = range.lowerBound
                    while from < range.upperBound {
                        let to = min(range.upperBound, from + block)
                        if identity {
                            for i in from..<to { out[i] = Int32(truncatingIfNeeded: keys[i] & positionMask) }
                        } else {
                            for i in from..<to { out[i] = order[Int(keys[i] & positionMask)] }
                        }
                        if releasing {
                            LargeBuffers.release(keys.baseAddress.map { $0 + from }, bytes: (to - from) * MemoryLayout<UInt64>.stride)
                        }
                        from = to
                    }
                }
            }
        }
    }

    /// From how many rows a sort of packed codes moves them through a buffer of half their size
    /// (``Tuning/radixInHalvesFrom``).
    static var inHalvesFrom: Int { Tuning.current.radixInHalvesFrom }

    /// Sorts `keys` (packed codes: every one distinct) with a buffer of half their count: the
    /// second half is sorted through the buffer and left in place, the first half sorted through
    /// it and left in the buffer, and the two merged from the front into `keys` — each write lands
    /// at or before the second half's next unread code, so nothing unread is overwritten.
    private static func sortInHalves(_ keys: inout [UInt64], digits: Digits, shifts: [UInt64]) {
        let n = keys.count, half = (n + 1) / 2
        var buffer = [UInt64](uninitializedLarge: half)
        keys.withUnsafeMutableBufferPointer { keys in
            buffer.withUnsafeMutableBufferPointer { buffer in
                let first = UnsafeMutableBufferPointer(rebasing: keys[0..<half])
                let second = UnsafeMutableBufferPointer(rebasing: keys[half..<n])
                let scratch = UnsafeMutableBufferPointer(rebasing: buffer[0..<(n - half)])
                if sortRun(second, scratch: scratch, digits: digits, shifts: shifts) {
                    _ = second.update(fromContentsOf: scratch)
                }
                if !sortRun(first, scratch: buffer, digits: digits, shifts: shifts) {
                    _ = buffer.update(fromContentsOf: first)
                }
                mergeFront(UnsafeBufferPointer(buffer), into: keys, secondFrom: half)
            }
        }
    }

    /// Merges `first` (sorted, distinct codes) with the sorted codes of `keys` from `from` on
    /// into `keys` from its start. The first run must hold `from` codes.
    private static func mergeFront(
        _ first: UnsafeBufferPointer<UInt64>, into keys: UnsafeMutableBufferPointer<UInt64>,
        secondFrom from: Int
    ) {
        let n = keys.count, m = first.count
        guard let a = first.baseAddress, let k = keys.baseAddress else { return }
        var i = 0, j = from, out = 0
        while i < m && j < n {
            let x = a[i], y = k[j]
            let takeFirst = x < y
            k[out] = takeFirst ? x : y
            i += takeFirst ? 1 : 0
            j += takeFirst ? 0 : 1
            out += 1
        }
        // What is left of the second run is already in place.
        while i < m {
            k[out] = a[i]
            i += 1
            out += 1
        }
    }

    /// Sorts one run of packed codes by `shifts`' digits, moving them between `keys` and
    /// `scratch` (at least as long) a pass at a time, on every core; whether they ended in
    /// `scratch` (an odd number of passes).
    private static func sortRun(
        _ keys: UnsafeMutableBufferPointer<UInt64>, scratch: UnsafeMutableBufferPointer<UInt64>,
        digits: Digits, shifts: [UInt64]
    ) -> Bool {
        let chunks = Parallel.chunks(keys.count)
        let radix = digits.radix, mask = digits.mask
        var offsets = [Int](repeating: 0, count: chunks.count * radix)
        var from = keys, to = UnsafeMutableBufferPointer(rebasing: scratch[0..<keys.count])
        for shift in shifts {
            offsets.withUnsafeMutableBufferPointer { offsets in
                let shared = Unchecked((from, to, offsets))
                placeBuckets(UnsafeBufferPointer(from), offsets, shift: shift, digits: digits, chunks: chunks)
                Parallel.forEach(chunks) { c, range in
                    let (keys, next, offsets) = shared.value
                    let row = offsets.baseAddress! + c * radix
                    for i in range {
                        let key = keys[i]
                        let bucket = Int((key >> shift) & mask)
                        let at = row[bucket]
                        row[bucket] = at + 1
                        next[at] = key
                    }
                }
            }
            swap(&from, &to)
        }
        return shifts.count % 2 == 1
    }

    /// The smallest and largest code, and the bits set in every code and in any.
    private struct Span {
        var smallest = UInt64.max, largest: UInt64 = 0, all = ~UInt64(0), any: UInt64 = 0

        init() {}

        init(_ parts: [Span]) {
            for part in parts {
                smallest = min(smallest, part.smallest)
                largest = max(largest, part.largest)
                all &= part.all
                any |= part.any
            }
        }

        @inline(__always)
        mutating func add(_ code: UInt64) {
            smallest = min(smallest, code)
            largest = max(largest, code)
            all &= code
            any |= code
        }

        /// The bits that differ between some codes.
        var varying: UInt64 { any ^ all }
    }

    /// Digits of equal width over the bits that vary, from the lowest to the highest: as few
    /// passes as digits of at most 11 bits allow, whose counts stay in the cache (one wide digit
    /// of 14 bits measured slower than two of 7).
    private struct Digits {
        let low: Int, bits: Int, passes: Int

        init(_ varying: UInt64) {
            low = varying.trailingZeroBitCount
            let span = UInt64.bitWidth - varying.leadingZeroBitCount - low
            passes = (span + 10) / 11
            bits = passes == 0 ? 1 : (span + passes - 1) / passes
        }

        var radix: Int { 1 << bits }
        var mask: UInt64 { UInt64(radix - 1) }

        /// The shifts of the digits in which some code differs.
        func shifts(_ varying: UInt64) -> [UInt64] {
            (0..<passes).map { UInt64(low + $0 * bits) }.filter { (varying >> $0) & mask != 0 }
        }
    }

    /// Counts each chunk's codes by their digit at `shift` (one row of `digits.radix` counts per
    /// chunk, at once), then turns the counts into where each chunk's rows of each bucket go:
    /// buckets in order, and within a bucket the chunks in order (which keeps the sort stable).
    private static func placeBuckets(
        _ keys: UnsafeBufferPointer<UInt64>, _ offsets: UnsafeMutableBufferPointer<Int>,
        shift: UInt64, digits: Digits, chunks: [Range<Int>]
    ) {
        let radix = digits.radix, mask = digits.mask
        let shared = Unchecked((keys, offsets))
        Parallel.forEach(chunks) { c, range in
            let (keys, offsets) = shared.value
            let row = offsets.baseAddress! + c * radix
            row.update(repeating: 0, count: radix)
            for i in range { row[Int((keys[i] >> shift) & mask)] += 1 }
        }
        var total = 0
        for b in 0..<radix {
            for c in chunks.indices {
                let count = offsets[c * radix + b]
                offsets[c * radix + b] = total
                total += count
            }
        }
    }

    /// Stably reorders `order` by one byte per row (an empty `order`: `0..<count`, see
    /// ``radixSort(_:count:codes:)``).
    static func radixSortByByte(_ order: inout [Int32], count: Int, codes: [UInt8]) {
        if order.isEmpty { order = [Int32](0..<Int32(count)) }
        #if TRELLIS_INVARIANT_CHECKS
            let before = order
            defer { checkStablySorted(before: before, after: order) { UInt64(codes[$0]) } }
        #endif
        var counts = [Int](repeating: 0, count: 257)
        for i in order { counts[Int(codes[Int(i)]) + 1] += 1 }
        guard counts.filter({ $0 > 0 }).count > 1 else { return }
        for b in 0..<256 { counts[b + 1] += counts[b] }
        var next = order
        for i in order {
            let bucket = Int(codes[Int(i)])
            next[counts[bucket]] = i
            counts[bucket] += 1
        }
        order = next
    }

    /// Checks that `after` is `before` stably sorted by `code`: a permutation of it, codes in
    /// order, and rows of equal codes in their order in `before`. O(n); does nothing unless
    /// built with `TRELLIS_INVARIANT_CHECKS` (debug builds, so every test sorts with the check).
    static func checkStablySorted(before: [Int32], after: [Int32], code: (Int) -> UInt64) {
        #if TRELLIS_INVARIANT_CHECKS
            precondition(before.count == after.count, "the radix sort lost or added rows")
            var rank = [Int](repeating: -1, count: (before.map { Int($0) }.max() ?? -1) + 1)
            for (position, row) in before.enumerated() { rank[Int(row)] = position }
            var seen = [Bool](repeating: false, count: rank.count)
            for (position, row) in after.enumerated() {
                let r = Int(row)
                precondition(r >= 0 && r < rank.count && rank[r] >= 0 && !seen[r], "the radix sort's output is not a permutation")
                seen[r] = true
                guard position > 0 else { continue }
                let previous = Int(after[position - 1])
                let (a, b) = (code(previous), code(r))
                precondition(a < b || (a == b && rank[previous] < rank[r]), "the radix sort is out of order or unstable at \(position)")
            }
        #endif
    }
}
