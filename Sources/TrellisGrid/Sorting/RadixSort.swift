import Foundation

/// Stable LSD radix sorts of row orders by 64-bit codes and by one byte.
enum RadixSort {
    /// Stably reorders `order` (indices into `codes`) by the codes, one digit at a time from the
    /// least significant, over the bits that vary and skipping digits that are the same in every code.
    ///
    /// A large order is cut into one chunk per core: each pass counts the digit in every chunk
    /// at once, gives each chunk its place within every bucket (earlier chunks first, which
    /// keeps the sort stable) and moves every chunk's rows at once.
    ///
    /// `codes` is taken over: while `order` is still `0..<n` (a first key), its buffer is the
    /// sort's own (no copy in order); otherwise it is let go once gathered in order. Either way a
    /// caller that hands over its only reference keeps no second copy of the codes during the sort.
    static func radixSort(_ order: inout [Int32], codes: consuming [UInt64]) {
        let n = order.count
        guard n > 1 else { return }
        #if TRELLIS_INVARIANT_CHECKS
        let before = order
        let checked = copy codes
        defer { checkStablySorted(before: before, after: order) { checked[$0] } }
        #endif
        let chunks = Parallel.chunks(n)
        var keys: [UInt64] = codes
        let identity = order.withUnsafeBufferPointer { order in
            order.indices.allSatisfy { order[$0] == Int32(truncatingIfNeeded: $0) }
        }
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
        let spans: [(all: UInt64, any: UInt64)] = keys.withUnsafeBufferPointer { keys in
            let shared = Unchecked(keys)
            return Parallel.map(chunks) { _, range in
                var all: UInt64 = ~0, any: UInt64 = 0
                for i in range {
                    all &= shared.value[i]
                    any |= shared.value[i]
                }
                return (all, any)
            }
        }
        let varying = spans.reduce(UInt64(0)) { $0 | $1.any } ^ spans.reduce(~UInt64(0)) { $0 & $1.all }
        guard varying != 0 else { return }
        // Digits of equal width cover the bits that vary, from the lowest to the highest: as few
        // passes as digits of at most 11 bits allow, whose counts stay in the cache (one wide
        // digit of 14 bits measured slower than two of 7).
        let low = varying.trailingZeroBitCount, span = 64 - varying.leadingZeroBitCount - low
        let passes = (span + 10) / 11
        let bits = (span + passes - 1) / passes, radix = 1 << bits, mask = UInt64(radix - 1)
        var nextKeys = [UInt64](unsafeUninitializedCapacity: n) { _, count in count = n }
        var nextOrder = [Int32](unsafeUninitializedCapacity: n) { _, count in count = n }
        // One row of `radix` counts, then offsets, per chunk.
        var offsets = [Int](repeating: 0, count: chunks.count * radix)
        for pass in 0..<passes {
            let shift = UInt64(low + pass * bits)
            guard (varying >> shift) & mask != 0 else { continue }
            keys.withUnsafeBufferPointer { keys in
                order.withUnsafeBufferPointer { order in
                    nextKeys.withUnsafeMutableBufferPointer { nextKeys in
                        nextOrder.withUnsafeMutableBufferPointer { nextOrder in
                            offsets.withUnsafeMutableBufferPointer { offsets in
                                let shared = Unchecked((keys, order, nextKeys, nextOrder, offsets))
                                Parallel.forEach(chunks) { c, range in
                                    let (keys, _, _, _, offsets) = shared.value
                                    let row = offsets.baseAddress! + c * radix
                                    row.update(repeating: 0, count: radix)
                                    for i in range { row[Int((keys[i] >> shift) & mask)] += 1 }
                                }
                                var total = 0
                                for b in 0..<radix {
                                    for c in 0..<chunks.count {
                                        let count = offsets[c * radix + b]
                                        offsets[c * radix + b] = total
                                        total += count
                                    }
                                }
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

    /// Stably reorders `order` by one byte per row.
    static func radixSortByByte(_ order: inout [Int32], codes: [UInt8]) {
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
