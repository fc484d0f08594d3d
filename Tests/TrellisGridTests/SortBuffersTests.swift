import Foundation
import Testing
import TrellisTestSupport
import TrellisText

@testable import TrellisGrid

/// What a large sort holds while it runs, checked for the orders it gives: the radix sort's two
/// ways (codes packed beside their positions, or moved beside them), the sort of every row without
/// a list of them, missing cells coded next to the values, and the grid falling back on an order
/// in source order that it did not keep a copy of.
@Suite("A sort's buffers")
struct SortBuffersTests {
    /// Positions of `codes` (through `order`, `0..<count` when empty) in the order a stable sort gives.
    static func reference(_ order: [Int32], count: Int, _ codes: [UInt64]) -> [Int32] {
        let start = order.isEmpty ? [Int32](0..<Int32(count)) : order
        return start.indices.sorted { a, b in
            let (x, y) = (codes[Int(start[a])], codes[Int(start[b])])
            return x != y ? x < y : a < b
        }.map { start[$0] }
    }

    /// Calls `body` with each of `rounds` rounds, round `r` run on 1, 2 or 3 cores with chunks of
    /// at least `chunks[r % 3]` rows (results never depend on either), for this test's task alone.
    static func inParallelShapes(rounds: Int, chunks: [Int], _ body: (Int) -> Void) {
        for round in 0..<rounds {
            Tuning.$current.withValue(Tuning(workers: [1, 2, 3][round % 3], minimumChunk: chunks[round % 3])) { body(round) }
        }
    }

    @Test("the radix sort is stable whether the codes are packed beside their positions or moved beside them, through a whole or a half buffer")
    func radixWays() {
        var rng = SeededRandom(seed: 41)
        let savedHalves = Tuning().radixInHalvesFrom
        Self.inParallelShapes(rounds: 96, chunks: [1, 7, 64]) { round in
            // Packed codes sorted in two halves through a buffer of half their size, then merged,
            // on every other pair of rounds (each spread's passes, odd and even in number).
            var tuning = Tuning.current
            tuning.radixInHalvesFrom = round % 4 < 2 ? 2 : savedHalves
            Tuning.$current.withValue(tuning) {
                let count = Int.random(in: 0...700, using: &rng)
                // The spread decides the way: small (packed), up to the edge where the spread and a
                // position just fit in 64 bits, and past it (moved beside the rows).
                let indexBits = count > 1 ? UInt64.bitWidth - UInt64(count - 1).leadingZeroBitCount : 0
                let spreadBits = [3, 16, 64 - indexBits, 65 - indexBits, 64][round % 5]
                let base = UInt64.random(in: 0...(UInt64.max >> 1), using: &rng)
                let codes: [UInt64] = (0..<count).map { _ in
                    // Many ties: a few distinct codes, spread over the range.
                    let spread: UInt64 = spreadBits >= 64 ? .max : (1 << UInt64(max(0, spreadBits))) - 1
                    let step = UInt64.random(in: 0...5, using: &rng)
                    let offset = step == 5 ? spread : (spread / 5) * step
                    return spreadBits >= 64 ? (step == 5 ? .max : (step == 0 ? 0 : offset)) : base &+ offset
                }
                let given: [Int32] = round % 2 == 0 ? [] : [Int32](0..<Int32(count)).shuffled(using: &rng)
                var order = given
                RadixSort.radixSort(&order, count: count, codes: codes)
                let sorted = order.isEmpty ? (given.isEmpty ? [Int32](0..<Int32(count)) : given) : order
                #expect(
                    sorted == Self.reference(given, count: count, codes),
                    "round \(round), \(count) rows, spread of \(spreadBits) bits, halves from \(RadixSort.inHalvesFrom)")
            }
        }
    }

    @Test("sorting every row without a list of them gives the order the list gives, every kind of key")
    func everyRowWithoutAList() throws {
        var rng = SeededRandom(seed: 43)
        var csv = "n,t,d\n"
        for _ in 0..<500 {
            let n = [
                "", "缺考", "#N/A", String(Int.random(in: -9...9, using: &rng)), "9223372036854775807", "-9223372036854775808",
                String(format: "%.2f", Double(Int.random(in: -900...900, using: &rng)) / 100),
            ].randomElement(using: &rng)!
            let t = ["", "组\(Int.random(in: 1...14, using: &rng))", "x", "Y", "z10", "z9"].randomElement(using: &rng)!
            let d = ["", "2024-0\(Int.random(in: 1...9, using: &rng))-1\(Int.random(in: 0...9, using: &rng))"].randomElement(using: &rng)!
            csv += "\(n),\(t),\(d)\n"
        }
        let table = try CSV.table(Data(csv.utf8))
        let every = Array(0..<table.rowCount)
        for column in ["n", "t", "d"] {
            for direction in [SortDirection.ascending, .descending] {
                for nulls in NullPlacement.allCases {
                    let keys = [SortKey(column, direction, nulls: nulls), SortKey("t", .descending)]
                    let listed = try SortEngine.order(of: every, in: table, plan: BoundSortPlan(SortPlan(keys: keys), columns: table.columns))
                    let unlisted = try SortEngine.order(ofFirst: table.rowCount, in: table, plan: BoundSortPlan(SortPlan(keys: keys), columns: table.columns))
                    #expect(unlisted == listed, "\(column) \(direction) \(nulls)")
                }
            }
        }
        #expect(try SortEngine.order(ofFirst: 0, in: table, plan: BoundSortPlan(SortPlan(keys: [SortKey("n")]), columns: table.columns)) == [])
        #expect(try SortEngine.order(ofFirst: 1, in: table, plan: BoundSortPlan(SortPlan(keys: [SortKey("n")]), columns: table.columns)) == [0])
    }

    /// Missing cells take the code next to the smallest or largest value's; where a value already
    /// has the end of the codes (the smallest or largest integer), they are told apart another way.
    @Test("blanks go where their rule puts them when the values reach both ends of the codes")
    func missingBesideExtremeValues() throws {
        let texts = ["", "-9223372036854775808", "5", "", "9223372036854775807", "-1", "", "0", "9223372036854775807"]
        let table = try CSV.table(Data(("n\n" + texts.joined(separator: "\n") + "\n").utf8))
        let values = table.values(ofColumn: 0, rows: Array(0..<table.rowCount))
        for subset in [Array(0..<texts.count), [0, 1, 2, 3], [0, 2, 4, 6], [2, 3, 5, 6, 7]] {
            for direction in [SortDirection.ascending, .descending] {
                for nulls in NullPlacement.allCases {
                    let sorted = try SortEngine.permutation(of: subset, in: table, by: [SortKey("n", direction, nulls: nulls)])
                    let comparator = CellValueComparator(.natural, order: direction == .ascending ? .forward : .reverse, nulls: nulls)
                    let expected = subset.indices.sorted { x, y in
                        let order = comparator.compare(values[subset[x]], values[subset[y]])
                        return order != .orderedSame ? order == .orderedAscending : x < y
                    }.map { subset[$0] }
                    #expect(sorted == expected, "\(subset) \(direction) \(nulls)")
                }
            }
        }
    }

    /// The order the grid falls back on while it sorts rows shown in source order is kept without
    /// its rows: every way a sort can fail must bring them back exactly, pins and summaries too.
    @Test("a sort that fails from rows in source order leaves every row where it was, pins and summaries included")
    func failureFromSourceOrder() throws {
        let table = try DisplayOrderTests.table()
        let grid = DataGrid(bound: table)
        try grid.pin(.row(4), at: .top)
        try grid.pin(.matching(column: "组号", value: "平均"), at: .bottom)
        try grid.addSummary(SummaryRow(.max, columns: ["分数"]))
        let shown = grid.displayedRows
        let indexes = (0..<table.rowCount).map { grid.displayIndex(ofSourceRow: $0) }
        #expect(shown.count == 6 && indexes.allSatisfy { $0 != nil })
        func unchanged(_ what: String) {
            #expect(grid.displayedRows == shown, "\(what)")
            #expect((0..<table.rowCount).map { grid.displayIndex(ofSourceRow: $0) } == indexes, "\(what)")
            #expect(grid.order.sourceRowCount == table.rowCount, "\(what)")
        }
        #expect(throws: SortError.self) { try grid.sort(by: [SortKey("组号", comparator: .text(.localized("qqqq")))]) }
        unchanged("a refused locale")
        #expect(throws: SortError.self) { try grid.sort(by: [SortKey("no such column")]) }
        unchanged("an unknown column")
        // Then a sort that works, and back to source order.
        try grid.sort(by: [SortKey("分数", .descending)])
        #expect(grid.displayedRows != shown)
        try grid.sort(by: [])
        unchanged("the sort removed")

        // Every row in the body (no pin): a source that answers a sort's read with too few values.
        let source = MisbehavingSource()
        let bound = DataGrid(bound: source)
        let before = bound.displayedRows
        #expect(before.count == source.count)
        source.fault = .shortColumn
        #expect(throws: SortError.self) { try bound.sort(by: [SortKey("分数")]) }
        #expect(bound.displayedRows == before)
        #expect((0..<source.count).map { bound.displayIndex(ofSourceRow: $0) } == Array(0..<source.count))
    }

    /// Buffers of megabytes start at a 2 MB boundary (so that every page of them can be huge),
    /// hold what is written to them, and are freed as any other; small ones are plain.
    @Test("large buffers are aligned for huge pages, keep their values and are freed as any other")
    func largeBuffers() {
        let count = LargeBuffers.threshold / MemoryLayout<UInt64>.stride + 1000
        let large = LargeBuffers.allocate(UInt64.self, capacity: count)
        #if canImport(Glibc)
            #expect(Int(bitPattern: large) % (2 << 20) == 0)
        #endif
        for i in 0..<count { large[i] = UInt64(i) &* 0x9E37_79B9_7F4A_7C15 }
        #expect((0..<count).allSatisfy { large[$0] == UInt64($0) &* 0x9E37_79B9_7F4A_7C15 })
        large.deallocate()
        let small = LargeBuffers.allocate(UInt32.self, capacity: 10)
        small.initialize(repeating: 7, count: 10)
        #expect(small[9] == 7)
        small.deallocate()
        LargeBuffers.advise(nil, bytes: 1 << 30)
        var array = [Int32](largeCapacity: count)
        #expect(array.isEmpty && array.capacity >= count)
        array.append(contentsOf: 0..<Int32(count))
        #expect(array.count == count && array.last == Int32(count - 1))
        // A column grown past the threshold cell by cell reads back what it was given.
        var column = PodArray<UInt64>()
        for i in 0..<count { column.append(UInt64(i)) }
        #expect(column.count == count && column[count - 1] == UInt64(count - 1) && column[12_345] == 12_345)
    }

    /// Keys are ranked by their first 16 bytes through two radix sorts, then compared whole
    /// where those are alike: keys that end early, hold zero bytes, or agree far past 16 bytes
    /// must rank as comparing them does.
    @Test("sort keys rank as comparing them whole does, past 16 equal bytes and across zero bytes")
    func keyRanks() {
        var rng = SeededRandom(seed: 47)
        Self.inParallelShapes(rounds: 12, chunks: [1, 5, 4096]) { _ in
            let stems: [[UInt8]] = [
                [], [0], [0, 0], [1], Array(repeating: 7, count: 15), Array(repeating: 7, count: 16),
                Array(repeating: 7, count: 17), Array("item00012345".utf8), Array(repeating: 0xFF, count: 8),
            ]
            let keys: [[UInt8]] = (0..<Int.random(in: 1...600, using: &rng)).map { _ in
                var key = stems.randomElement(using: &rng)!
                for _ in 0..<Int.random(in: 0...20, using: &rng) { key.append([0, 1, 7, 0xFF].randomElement(using: &rng)!) }
                return key
            }
            var sortKeys = SortKeys()
            for key in keys { sortKeys.append(key) }
            let ranks = sortKeys.ranks()
            for _ in 0..<2_000 {
                let a = Int.random(in: 0..<keys.count, using: &rng), b = Int.random(in: 0..<keys.count, using: &rng)
                let expected = SortKeys.compare(keys[a], keys[b])
                let got: ComparisonResult = ranks[a] == ranks[b] ? .orderedSame : (ranks[a] < ranks[b] ? .orderedAscending : .orderedDescending)
                #expect(got == expected, "round \(round): \(keys[a]) against \(keys[b])")
                if got != expected { return }
            }
            // Ranks are dense: 0 up to the number of distinct keys less one.
            #expect(Set(ranks).count == Set(keys).count && ranks.max() == Int32(Set(keys).count - 1))
        }
    }
}
