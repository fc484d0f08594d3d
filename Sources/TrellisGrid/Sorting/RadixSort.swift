import Foundation

/// Stable LSD radix sorts of row orders by 64-bit codes and by one byte.
enum RadixSort {
    /// Stably reorders `order` (positions in `rows`, or indices into `codes` when `rows` is `nil`)
    /// by the codes, one 11-bit digit at a time from the least significant, skipping digits that
    /// are the same in every code.
    static func radixSort(_ order: inout [Int32], codes: [UInt64], through rows: [Int]?) {
        // 11-bit digits: six passes cover 64 bits, and the six histograms (96 KB) stay in cache.
        let bits = 11, radix = 1 << 11, mask = UInt64(radix - 1), passes = 6
        var keys = rows.map { rows in order.map { codes[rows[Int($0)]] } } ?? order.map { codes[Int($0)] }
        var all: UInt64 = ~0, any: UInt64 = 0
        // Every digit's histogram in one read of the keys.
        var counts = [Int](repeating: 0, count: passes * radix)
        keys.withUnsafeBufferPointer { keys in
            counts.withUnsafeMutableBufferPointer { counts in
                for key in keys {
                    all &= key
                    any |= key
                    var k = key
                    for pass in 0..<passes {
                        counts[pass * radix + Int(k & mask)] += 1
                        k >>= UInt64(bits)
                    }
                }
            }
        }
        let varying = all ^ any
        guard varying != 0 else { return }
        var nextKeys = keys, nextOrder = order
        var offsets = [Int](repeating: 0, count: radix)
        for pass in 0..<passes {
            let shift = UInt64(pass * bits)
            guard (varying >> shift) & mask != 0 else { continue }
            var total = 0
            for b in 0..<radix {
                offsets[b] = total
                total += counts[pass * radix + b]
            }
            keys.withUnsafeBufferPointer { keys in
                order.withUnsafeBufferPointer { order in
                    nextKeys.withUnsafeMutableBufferPointer { nextKeys in
                        nextOrder.withUnsafeMutableBufferPointer { nextOrder in
                            offsets.withUnsafeMutableBufferPointer { offsets in
                                for i in 0..<keys.count {
                                    let bucket = Int((keys[i] >> shift) & mask)
                                    let at = offsets[bucket]
                                    offsets[bucket] = at + 1
                                    nextKeys[at] = keys[i]
                                    nextOrder[at] = order[i]
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

}
