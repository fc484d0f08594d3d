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
        // Few distinct texts: a table of them per chunk of rows stays in the cache. (Tried only
        // where a sample does not show many: a count given up at the limit is work thrown away.)
        if manyDistinct(store, rows: rows, limit: tableLimit) { return partitionGroups(store, rows: rows, ids: ids) }
        return tableGroups(store, rows: rows, limit: tableLimit, ids: ids) ?? partitionGroups(store, rows: rows, ids: ids)
    }

    /// Whether `rows` plainly hold many more than `limit` distinct texts: of 4,096 positions
    /// spread over them, fewer repeat a text seen before than `limit`-odd distinct texts would
    /// repeat (s − D·(1 − e^(−s/D)) repeats of s draws from D equally common texts: 873 of 4,096
    /// at D = 8,192; under 256 means about four times as many, or more). A column of a few
    /// common texts among many rare ones repeats more, and is counted in tables first.
    static func manyDistinct(_ store: ColumnStore, rows: [Int], limit: Int) -> Bool {
        let samples = 4096
        guard rows.count >= samples, rows.count > 4 * limit else { return false }
        var seen = Set<UInt64>(minimumCapacity: samples)
        var repeats = 0
        store.bytes.withUnsafeBufferPointer { bytes in
            for s in 0..<samples {
                let row = rows[s * (rows.count / samples)]
                let hash = hashBytes(bytes.baseAddress.map { $0 + Int(store.starts[row]) }, store.length(at: row))
                if !seen.insert(hash).inserted { repeats += 1 }
            }
        }
        // Fewer repeats than a column of 4 × `limit` texts would give: s² / (2 · 4 · limit).
        return repeats * 8 * limit < samples * samples
    }

    /// Groups of texts: each one's first position, how many positions hold it, and (when asked
    /// for) each position's group.
    typealias Groups = (first: [Int], count: [Int], ids: [Int32])

    /// ``groups(_:rows:ids:)`` counted in an open-addressing table per chunk of rows (one per
    /// core), merged in chunk order — which gives the ids one pass would; `nil` as soon as a chunk
    /// holds more than `limit` distinct texts.
    static func tableGroups(_ store: ColumnStore, rows: [Int], limit: Int, ids wantsIDs: Bool) -> Groups? {
        let chunks = Parallel.chunks(rows.count)
        // (Left unwritten until the chunks write every position: a count given up has touched few of its pages.)
        var ids = [Int32](unsafeUninitializedCapacity: wantsIDs ? rows.count : 0) { _, count in count = wantsIDs ? rows.count : 0 }
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
    /// by the upper bits of a 64-bit hash of their bytes (one pass, each core moving its own rows,
    /// which keeps each bucket in position order), then each bucket — a few hundred positions — is
    /// counted by hash in a table small enough for the fastest cache. A bucket's entry is its hash
    /// and position alone (12 bytes: the pass writes and reads as little as it can); that texts of
    /// one hash are one text is then checked in position order, each cell's bytes against a copy
    /// of its group's first text — reading the column from start to end, not at random. Texts
    /// whose hashes collide (never seen at 64 bits; what a test forces with `bits`) send the
    /// count to ``tableGroups(_:rows:limit:ids:)``, which tells them apart by their bytes.
    static func partitionGroups(_ store: ColumnStore, rows: [Int], bits: Int = 64, ids wantsIDs: Bool) -> Groups {
        let n = rows.count
        guard n > 0 else { return ([], [], []) }
        /// Counted exactly, text by text.
        func exactly() -> Groups { tableGroups(store, rows: rows, limit: .max, ids: wantsIDs)! }
        // Positions are 32 bits here: a larger set (no file that can be read holds one) is counted in tables.
        guard n < Int(Int32.max) else { return exactly() }
        let mask: UInt64 = bits >= 64 ? ~0 : ~(~UInt64(0) >> UInt64(max(1, bits)))
        /// A position and its hash, in two halves: 12 bytes, 4-byte aligned.
        struct Entry { var high: UInt32, low: UInt32, position: Int32 }
        // About 256 positions per bucket, at most 1,024 buckets: each core writes to every bucket
        // at once, and more of them are more lines written than the cache keeps open (4,096
        // buckets were measured slower at a million rows: `Benchmarks/History.md`).
        // (A `let`: a `var` the closures below capture is checked for exclusive access at every read.)
        let bucketBits = (0..<10).first { n >> ($0 + 8) == 0 } ?? 10
        let buckets = 1 << bucketBits, bucketShift = UInt64(64 - bucketBits)
        @inline(__always) func bucket(_ hash: UInt64) -> Int { bucketBits == 0 ? 0 : Int(hash >> bucketShift) }
        let chunks = Parallel.chunks(n)
        /// The hash of position `k`'s text.
        @inline(__always) func hash(_ k: Int, _ base: UnsafePointer<UInt8>?, _ rows: UnsafeBufferPointer<Int>) -> UInt64 {
            let row = rows[k]
            return hashBytes(base.map { $0 + Int(store.starts[row]) }, store.length(at: row)) & mask
        }
        // How many of each chunk's positions fall in each bucket (the hashes are made twice,
        // here and when they are moved, rather than held twice).
        var histograms = [Int](repeating: 0, count: chunks.count * buckets)
        store.bytes.withUnsafeBufferPointer { bytes in
            rows.withUnsafeBufferPointer { rows in
                histograms.withUnsafeMutableBufferPointer { histograms in
                    let shared = Unchecked((bytes.baseAddress, rows, histograms))
                    Parallel.forEach(chunks) { c, range in
                        let (base, rows, histograms) = shared.value
                        for k in range { histograms[c * buckets + bucket(hash(k, base, rows))] += 1 }
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
        var partitioned: [Entry] = store.bytes.withUnsafeBufferPointer { bytes in
            rows.withUnsafeBufferPointer { rows in
                histograms.withUnsafeMutableBufferPointer { offsets in
                    let shared = Unchecked((bytes.baseAddress, rows, offsets))
                    return [Entry](unsafeUninitializedCapacity: n) { buffer, count in
                        LargeBuffers.advise(UnsafeMutableRawPointer(buffer.baseAddress), bytes: n * MemoryLayout<Entry>.stride)
                        let out = Unchecked(buffer.baseAddress!)
                        Parallel.forEach(chunks) { c, range in
                            let (base, rows, offsets) = shared.value
                            for k in range {
                                let h = hash(k, base, rows)
                                let slot = c * buckets + bucket(h)
                                (out.value + offsets[slot]).initialize(to: Entry(high: UInt32(h >> 32), low: UInt32(truncatingIfNeeded: h), position: Int32(k)))
                                offsets[slot] += 1
                            }
                        }
                        count = n
                    }
                }
            }
        }
        // Each bucket counted on its own, the buckets shared among the cores. An entry's hash is
        // not read again once it is counted: its lower half is overwritten with its group,
        // numbered within its core's part (rather than held in an array of its own).
        let bucketChunks = Parallel.chunks(buckets, minimum: 1)
        let parts: [(first: [Int], count: [Int])] = partitioned.withUnsafeMutableBufferPointer { partitioned in
            let shared = Unchecked(partitioned)
            return Parallel.map(bucketChunks) { _, bucketRange in
                let entries = shared.value
                var first: [Int] = [], count: [Int] = []
                var table: [Int32] = []
                /// Each group of the bucket: its hash.
                var groupHash: [(high: UInt32, low: UInt32)] = []
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
                    groupHash.removeAll(keepingCapacity: true)
                    let groupStart = first.count
                    for k in lower..<upper {
                        let x = entries[k]
                        // The slot from the hash's lower bits (the upper bits chose the bucket).
                        var slot = Int(truncatingIfNeeded: (UInt64(x.low) &* 0x9E37_79B9_7F4A_7C15) >> 40) & tableMask
                        while true {
                            let g = Int(table[slot])
                            if g < 0 {
                                table[slot] = Int32(groupHash.count)
                                entries[k].low = UInt32(first.count)
                                groupHash.append((x.high, x.low))
                                first.append(Int(x.position))
                                count.append(1)
                                break
                            }
                            if groupHash[g].low == x.low, groupHash[g].high == x.high {
                                entries[k].low = UInt32(groupStart + g)
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
        let firsts = parts.flatMap(\.first), counts = parts.flatMap(\.count)
        let byAppearance = RadixSort.sortedOrder(codes: firsts.map { UInt64($0) })
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
                appearance.withUnsafeBufferPointer { appearance in
                    let shared = Unchecked((entries, appearance))
                    Parallel.forEach(bucketChunks) { part, bucketRange in
                        let (entries, appearance) = shared.value
                        let offset = offsets[part]
                        for k in starts[bucketRange.lowerBound]..<starts[bucketRange.upperBound] {
                            (out.value + Int(entries[k].position)).initialize(to: appearance[offset + Int(entries[k].low)])
                        }
                    }
                }
            }
            count = n
        }
        let first = byAppearance.map { firsts[Int($0)] }
        guard sameTexts(store, rows: rows, ids: ids, first: first) else { return exactly() }
        return (first, byAppearance.map { counts[Int($0)] }, wantsIDs ? ids : [])
    }

    /// Whether every position of `rows` holds the same bytes as its group's first position (by
    /// `ids` and `first`): the groups' first texts copied side by side (a chunk of them per
    /// core), then the column read in position order, one core a chunk.
    static func sameTexts(_ store: ColumnStore, rows: [Int], ids: [Int32], first: [Int]) -> Bool {
        var ends = [Int](repeating: 0, count: first.count + 1)
        for (g, position) in first.enumerated() { ends[g + 1] = ends[g] + store.length(at: rows[position]) }
        var copies = [UInt8](repeating: 0, count: ends[first.count])
        store.bytes.withUnsafeBufferPointer { bytes in
            copies.withUnsafeMutableBufferPointer { copies in
                guard let base = bytes.baseAddress, let out = copies.baseAddress else { return }
                let shared = Unchecked(out)
                Parallel.forEach(Parallel.chunks(first.count, minimum: 4096)) { _, groups in
                    for g in groups where ends[g + 1] > ends[g] {
                        memcpy(shared.value + ends[g], base + Int(store.starts[rows[first[g]]]), ends[g + 1] - ends[g])
                    }
                }
            }
        }
        let verdicts: [Bool] = store.bytes.withUnsafeBufferPointer { bytes in
            copies.withUnsafeBufferPointer { copies in
                rows.withUnsafeBufferPointer { rows in
                    ids.withUnsafeBufferPointer { ids in
                        ends.withUnsafeBufferPointer { ends in
                            let shared = Unchecked((bytes.baseAddress, copies.baseAddress, rows, ids, ends))
                            return Parallel.map(Parallel.chunks(rows.count)) { _, range in
                                let (base, copies, rows, ids, ends) = shared.value
                                for k in range {
                                    let g = Int(ids[k]), row = rows[k], length = store.length(at: row)
                                    guard ends[g + 1] - ends[g] == length else { return false }
                                    guard length > 0 else { continue }
                                    let x = UnsafeRawPointer(base! + Int(store.starts[row])), y = UnsafeRawPointer(copies! + ends[g])
                                    // Up to 16 bytes as two words that overlap, without a call.
                                    if length >= 8, length <= 16 {
                                        let tail = length - 8
                                        if x.loadUnaligned(as: UInt64.self) != y.loadUnaligned(as: UInt64.self)
                                            || x.loadUnaligned(fromByteOffset: tail, as: UInt64.self)
                                                != y.loadUnaligned(fromByteOffset: tail, as: UInt64.self)
                                        {
                                            return false
                                        }
                                    } else if memcmp(x, y, length) != 0 {
                                        return false
                                    }
                                }
                                return true
                            }
                        }
                    }
                }
            }
        }
        return !verdicts.contains(false)
    }
}
