import Foundation
import TrellisText

/// Grouping a column store's cells by their bytes, for a sort's distinct texts and for a
/// viewer's frequency and describe views.
extension ByteSliceSet {
    /// `rows` grouped by their cells' bytes: each group's first position in `rows` and how many
    /// it holds, groups in order of first appearance, and with `ids` each position's group (its
    /// index in that order; empty without). Up to some thousands of distinct texts they
    /// are counted in a hash table per core; beyond, the positions are first split into small
    /// buckets by a hash of their bytes, each counted in a table of its own — where one table of a
    /// million distinct texts would miss the cache at every probe. Texts whose hashes collide are
    /// told apart by their bytes.
    static func groups(_ store: ColumnStore, rows: [Int], ids: Bool = false) -> Groups {
        guard !rows.isEmpty else { return ([], [], []) }
        // Few distinct texts: a table of them per chunk of rows stays in the cache.
        return tableGroups(store, rows: rows, limit: tableLimit, ids: ids) ?? partitionGroups(store, rows: rows, ids: ids)
    }

    /// Groups of texts: each one's first position, how many positions hold it, and (when asked
    /// for) each position's group.
    typealias Groups = (first: [Int], count: [Int], ids: [Int32])

    /// ``groups(_:rows:ids:)`` counted in an open-addressing table per chunk of rows (one per
    /// core), merged in chunk order — which gives the ids one pass would; `nil` as soon as a chunk
    /// holds more than `limit` distinct texts.
    static func tableGroups(_ store: ColumnStore, rows: [Int], limit: Int, ids wantsIDs: Bool) -> Groups? {
        let chunks = Parallel.chunks(rows.count)
        var ids = [Int32](repeating: 0, count: wantsIDs ? rows.count : 0)
        let parts: [(builder: Builder, first: [Int], count: [Int])?] = store.bytes.withUnsafeBufferPointer { bytes in
            rows.withUnsafeBufferPointer { rows in
                ids.withUnsafeMutableBufferPointer { ids in
                    let shared = Unchecked((bytes.baseAddress, rows, ids))
                    return Parallel.map(chunks) { _, range in
                        let (base, rows, ids) = shared.value
                        var builder = Builder()
                        var first: [Int] = [], count: [Int] = []
                        for k in range {
                            let id = Int(builder.id(of: rows[k], in: store, bytes: base))
                            if wantsIDs { ids[k] = Int32(id) }
                            if id == first.count {
                                guard id < limit else { return nil }
                                first.append(k)
                                count.append(1)
                            } else {
                                count[id] += 1
                            }
                        }
                        return (builder, first, count)
                    }
                }
            }
        }
        guard var merged = parts.first ?? nil else { return nil }
        // Each later chunk's texts become ids of the first chunk's table, new ones after the rest.
        var remaps: [[Int32]] = []
        for part in parts.dropFirst() {
            guard let part else { return nil }
            var remap: [Int32] = []
            remap.reserveCapacity(part.first.count)
            for (index, row) in part.builder.firstRow.enumerated() {
                let id = Int(store.bytes.withUnsafeBufferPointer { merged.builder.id(of: row, in: store, bytes: $0.baseAddress) })
                remap.append(Int32(id))
                if id == merged.first.count {
                    merged.first.append(part.first[index])
                    merged.count.append(part.count[index])
                } else {
                    merged.count[id] += part.count[index]
                }
            }
            remaps.append(remap)
        }
        if wantsIDs, !remaps.isEmpty {
            ids.withUnsafeMutableBufferPointer { ids in
                let shared = Unchecked(ids)
                Parallel.forEach(Array(chunks.dropFirst())) { c, range in
                    let ids = shared.value, remap = remaps[c]
                    for k in range { ids[k] = remap[Int(ids[k])] }
                }
            }
        }
        return (merged.first, merged.count, ids)
    }

    /// ``groups(_:rows:ids:)`` for many distinct texts: the positions are scattered into buckets
    /// by the upper bits of a hash of their bytes (one pass, each core moving its own rows, which
    /// keeps each bucket in position order), then each bucket — a few hundred positions — is
    /// counted in a table small enough for the fastest cache.
    /// `bits`: how many of the hash's upper bits are kept (fewer make different texts share a
    /// hash, which are then told apart by their bytes: what a test forces).
    static func partitionGroups(_ store: ColumnStore, rows: [Int], bits: Int = 64, ids wantsIDs: Bool) -> Groups {
        let n = rows.count
        guard n > 0 else { return ([], [], []) }
        // Positions are 32 bits here: a larger set (no file that can be read holds one) is counted in tables.
        guard n < Int(Int32.max) else { return tableGroups(store, rows: rows, limit: .max, ids: wantsIDs)! }
        let mask: UInt64 = bits >= 64 ? ~0 : ~(~UInt64(0) >> UInt64(max(1, bits)))
        /// A position's hash, length and first 16 bytes: read in row order, then carried along,
        /// so that texts up to 16 bytes are told apart without reading the column again.
        struct Entry { var hash: UInt64, prefix: (UInt64, UInt64), length: Int32, position: Int32 }
        // About 256 positions per bucket, at most 1,024 buckets: each core writes to every bucket
        // at once, and more of them are more lines written than the cache keeps open (4,096
        // buckets were measured slower at a million rows: `Benchmarks/History.md`).
        var bucketBits = 0
        while bucketBits < 10, n >> (bucketBits + 8) > 0 { bucketBits += 1 }
        let buckets = 1 << bucketBits, bucketShift = UInt64(64 - bucketBits)
        @inline(__always) func bucket(_ hash: UInt64) -> Int { bucketBits == 0 ? 0 : Int(hash >> bucketShift) }
        let chunks = Parallel.chunks(n)
        /// Position `k`'s entry, read from the column.
        @inline(__always) func entry(_ k: Int, _ base: UnsafePointer<UInt8>?, _ rows: UnsafeBufferPointer<Int>) -> Entry {
            let row = rows[k], length = store.length(at: row)
            let pointer = base.map { $0 + Int(store.starts[row]) }
            var prefix: (UInt64, UInt64) = (0, 0)
            if let pointer, length > 0 {
                withUnsafeMutableBytes(of: &prefix) { _ = memcpy($0.baseAddress!, pointer, min(16, length)) }
            }
            return Entry(hash: hashBytes(pointer, length) & mask, prefix: prefix, length: Int32(length), position: Int32(k))
        }
        // How many of each chunk's positions fall in each bucket (the entries are made twice,
        // here and when they are moved, rather than held twice).
        var histograms = [Int](repeating: 0, count: chunks.count * buckets)
        store.bytes.withUnsafeBufferPointer { bytes in
            rows.withUnsafeBufferPointer { rows in
                histograms.withUnsafeMutableBufferPointer { histograms in
                    let shared = Unchecked((bytes.baseAddress, rows, histograms))
                    Parallel.forEach(chunks) { c, range in
                        let (base, rows, histograms) = shared.value
                        for k in range { histograms[c * buckets + bucket(entry(k, base, rows).hash)] += 1 }
                    }
                }
            }
        }
        // Where each chunk's rows of each bucket go: buckets in order, within one the chunks in order.
        var starts = [Int](repeating: 0, count: buckets + 1)
        var total = 0
        for b in 0..<buckets {
            starts[b] = total
            for c in chunks.indices {
                let count = histograms[c * buckets + b]
                histograms[c * buckets + b] = total
                total += count
            }
        }
        starts[buckets] = total
        let partitioned: [Entry] = store.bytes.withUnsafeBufferPointer { bytes in
            rows.withUnsafeBufferPointer { rows in
                histograms.withUnsafeMutableBufferPointer { offsets in
                    let shared = Unchecked((bytes.baseAddress, rows, offsets))
                    return [Entry](unsafeUninitializedCapacity: n) { buffer, count in
                        LargeBuffers.advise(UnsafeMutableRawPointer(buffer.baseAddress), bytes: n * MemoryLayout<Entry>.stride)
                        let out = Unchecked(buffer.baseAddress!)
                        Parallel.forEach(chunks) { c, range in
                            let (base, rows, offsets) = shared.value
                            for k in range {
                                let made = entry(k, base, rows)
                                let slot = c * buckets + bucket(made.hash)
                                (out.value + offsets[slot]).initialize(to: made)
                                offsets[slot] += 1
                            }
                        }
                        count = n
                    }
                }
            }
        }
        // Each bucket counted on its own, the buckets shared among the cores; with `ids`, each
        // entry's group, numbered within its core's part.
        let bucketChunks = Parallel.chunks(buckets, minimum: 1)
        var groupOfEntry = [Int32](repeating: 0, largeCount: wantsIDs ? n : 0)
        let parts: [(first: [Int], count: [Int])] = store.bytes.withUnsafeBufferPointer { bytes in
            partitioned.withUnsafeBufferPointer { partitioned in
                rows.withUnsafeBufferPointer { rows in
                    groupOfEntry.withUnsafeMutableBufferPointer { groupOfEntry in
                        let shared = Unchecked((bytes.baseAddress, partitioned, rows, groupOfEntry))
                        return Parallel.map(bucketChunks) { _, bucketRange in
                            let (base, entries, rows, groupOfEntry) = shared.value
                            /// Whether entries `a` and `b` hold the same text.
                            @inline(__always) func same(_ a: Int, _ b: Int) -> Bool {
                                let x = entries[a], y = entries[b]
                                guard x.hash == y.hash, x.length == y.length, x.prefix == y.prefix else { return false }
                                if x.length <= 16 { return true }
                                let r = rows[Int(x.position)], s = rows[Int(y.position)]
                                return memcmp(base! + Int(store.starts[r]), base! + Int(store.starts[s]), Int(x.length)) == 0
                            }
                            var first: [Int] = [], count: [Int] = []
                            var table: [Int32] = []
                            /// Each group of the bucket: its first entry.
                            var groupEntry: [Int] = []
                            for b in bucketRange {
                                let lower = starts[b], upper = starts[b + 1]
                                guard upper > lower else { continue }
                                var size = 4
                                while size < 2 * (upper - lower) { size <<= 1 }
                                if table.count < size {
                                    table = [Int32](repeating: -1, count: size)
                                } else {
                                    for i in 0..<size { table[i] = -1 }
                                }
                                let tableMask = size - 1
                                groupEntry.removeAll(keepingCapacity: true)
                                let groupStart = first.count
                                for k in lower..<upper {
                                    let x = entries[k]
                                    // The slot from the hash's lower bits and the text's first bytes
                                    // (the upper bits chose the bucket; a test keeps only those).
                                    var slot = Int(truncatingIfNeeded: (x.hash ^ x.prefix.0 &* 0x9E37_79B9_7F4A_7C15 ^ x.prefix.1) >> 7) & tableMask
                                    while true {
                                        let g = Int(table[slot])
                                        if g < 0 {
                                            table[slot] = Int32(groupEntry.count)
                                            if wantsIDs { groupOfEntry[k] = Int32(first.count) }
                                            groupEntry.append(k)
                                            first.append(Int(x.position))
                                            count.append(1)
                                            break
                                        }
                                        if same(groupEntry[g], k) {
                                            if wantsIDs { groupOfEntry[k] = Int32(groupStart + g) }
                                            count[groupStart + g] += 1
                                            break
                                        }
                                        slot = (slot + 1) & tableMask
                                    }
                                }
                            }
                            return (first, count)
                        }
                    }
                }
            }
        }
        let firsts = parts.flatMap(\.first), counts = parts.flatMap(\.count)
        let byAppearance = RadixSort.sortedOrder(codes: firsts.map { UInt64($0) })
        guard wantsIDs else { return (byAppearance.map { firsts[Int($0)] }, byAppearance.map { counts[Int($0)] }, []) }
        // Each position's group in that order: the part's groups are numbered after the earlier
        // parts', then renumbered by appearance, then written where the position is.
        var appearance = [Int32](repeating: 0, count: firsts.count)
        for (index, group) in byAppearance.enumerated() { appearance[Int(group)] = Int32(index) }
        var offsets: [Int] = [], numbered = 0
        for part in parts { offsets.append(numbered); numbered += part.first.count }
        let ids = [Int32](unsafeUninitializedCapacity: n) { buffer, count in
            LargeBuffers.advise(UnsafeMutableRawPointer(buffer.baseAddress), bytes: n * MemoryLayout<Int32>.stride)
            let out = Unchecked(buffer.baseAddress!)
            partitioned.withUnsafeBufferPointer { entries in
                groupOfEntry.withUnsafeBufferPointer { groupOfEntry in
                    appearance.withUnsafeBufferPointer { appearance in
                        let shared = Unchecked((entries, groupOfEntry, appearance))
                        Parallel.forEach(bucketChunks) { part, bucketRange in
                            let (entries, groupOfEntry, appearance) = shared.value
                            let offset = offsets[part]
                            for k in starts[bucketRange.lowerBound]..<starts[bucketRange.upperBound] {
                                (out.value + Int(entries[k].position)).initialize(to: appearance[offset + Int(groupOfEntry[k])])
                            }
                        }
                    }
                }
            }
            count = n
        }
        return (byAppearance.map { firsts[Int($0)] }, byAppearance.map { counts[Int($0)] }, ids)
    }
}
