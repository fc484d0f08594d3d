import Foundation
import TrellisText

/// Sorts rows of a data source by keys, producing a permutation: the source is never reordered.
///
/// ```swift
/// let order = try SortEngine.permutation(of: Array(0..<table.rowCount), in: table,
///                                        by: [SortKey("分数", .descending)])
/// ```
///
/// The sort is stable in both directions: the last tie-break is the position in `rows`. Each
/// key's cells are read once into codes (``KeyCodes``) — numbers exactly, texts as ranks computed
/// once per distinct text — and the rows are ordered by a stable LSD radix sort over those codes,
/// from the least significant key to the most significant. A key with a custom comparator, a
/// row-aware hook or a whole-row comparator sorts by comparisons instead, still reading codes for
/// the keys that have them.
///
/// - Complexity: O(n · k) for k keys on the radix path (a few byte passes per key), plus the
///   ranking of distinct texts; O(n log n) comparisons on the comparison path.
public enum SortEngine {
    /// Whether `order` holds each of `rows` exactly once (and nothing else).
    static func isPermutation(_ order: [Int], of rows: [Int]) -> Bool {
        guard order.count == rows.count else { return false }
        guard let low = rows.min(), let high = rows.max() else { return true }
        var seen = [Bool](repeating: false, count: high - low + 1)
        for row in rows { seen[row - low] = true }
        for row in order {
            guard row >= low, row <= high, seen[row - low] else { return false }
            seen[row - low] = false
        }
        return true
    }

    /// The rows of `rows` (source positions, in the order ties should keep) ordered by `keys`.
    ///
    /// - Throws: ``SortError/sourceAnswerInvalid(_:)`` when the source answered a read with more
    ///   or fewer values than rows asked (its answers are cut or padded so that nothing reads past
    ///   them, and the order made from them is not returned).
    public static func permutation(
        of rows: [Int], in source: GridDataSource, by keys: [SortKey],
        hook: ((SortCompareArguments) -> ComparisonResult?)? = nil,
        rowComparator: ((Int, Int) -> ComparisonResult)? = nil
    ) throws(SortError) -> [Int] {
        try permutation(of: rows, in: source, plan: SortPlan(keys: keys, custom: CustomOrder(hook: hook, rowComparator: rowComparator)))
    }

    /// The rows of `rows` (source positions, in the order ties should keep) ordered by `plan`'s
    /// keys or its own order (its pins and summaries are the caller's).
    public static func permutation(of rows: [Int], in source: GridDataSource, plan: SortPlan) throws(SortError) -> [Int] {
        try order(of: rows, in: source, plan: BoundSortPlan(plan, columns: source.columns)).map { Int($0) }
    }

    /// ``permutation(of:in:plan:)`` of a bound plan, as 32-bit rows (a grid's body).
    static func order(of rows: [Int], in source: GridDataSource, plan: BoundSortPlan) throws(SortError) -> [Int32] {
        let (order, problem) = sortedRows(rows, count: rows.count, in: source, plan: plan)
        if let problem { throw .sourceAnswerInvalid(problem) }
        return order
    }

    /// The rows `0..<count` ordered by `plan`: ``order(of:in:plan:)`` of every row, without a
    /// list of them — a table's key cells are then read in place, and the sort of a large table
    /// runs without 8 bytes a row of row numbers beside it.
    static func order(ofFirst count: Int, in source: GridDataSource, plan: BoundSortPlan) throws(SortError) -> [Int32] {
        let (order, problem) = sortedRows(nil, count: max(0, count), in: source, plan: plan)
        if let problem { throw .sourceAnswerInvalid(problem) }
        return order
    }

    /// Each of `ranges` (runs of consecutive rows of `0..<count`) ordered by `plan`'s keys on its
    /// own, written into `out` from the range's `starts` entry on; `false` (nothing written) where
    /// the plan does not order by codes alone (a hook, a comparator, a source's own order).
    ///
    /// Each key's codes are read once for every row, as ``order(ofFirst:in:plan:)`` reads them; a
    /// range's codes are then consecutive, so a run of rows sorts in the cache on its own, and the
    /// runs sort on every core at once — a sort within groups without the sort of every row and
    /// the dealing of them to their groups after.
    static func order(
        within ranges: [Range<Int>], count: Int, in source: GridDataSource, plan: BoundSortPlan,
        into out: UnsafeMutableBufferPointer<Int32>, starts: [Int]
    ) throws(SortError) -> Bool {
        guard plan.plan.custom == nil, !plan.comparesValues, !(source is SortingDataSource), !plan.keys.isEmpty else { return false }
        let asText = Set(plan.keys.filter(\.asText).map(\.column))
        var problem: String?
        // The keys from the least significant, as the sort of every row takes them.
        let codes: [(values: [UInt64], classes: [UInt8]?)] = plan.keys.reversed().map { key in
            let cells = Self.keyInput(source, column: key.column, rows: nil, count: count, asText: asText, problem: &problem)
            let codes = KeyCodes(cells, text: key.text, direction: key.key.direction, nulls: key.key.nulls)
            return (codes.values, codes.classes)
        }
        if let problem { throw .sourceAnswerInvalid(problem) }
        func sort(_ r: Int, into out: UnsafeMutableBufferPointer<Int32>) {
            let range = ranges[r], first = Int32(truncatingIfNeeded: range.lowerBound)
            var order: [Int32] = []
            for (values, classes) in codes {
                RadixSort.radixSort(&order, count: range.count, codes: Array(values[range]))
                if let classes { RadixSort.radixSortByByte(&order, count: range.count, codes: Array(classes[range])) }
            }
            let at = starts[r]
            if order.isEmpty {
                for i in 0..<range.count { out[at + i] = first + Int32(truncatingIfNeeded: i) }
            } else {
                for (i, row) in order.enumerated() { out[at + i] = first + row }
            }
        }
        // A run long enough to be cut in parts is sorted on every core itself; the others are
        // shared out among the cores.
        let long = ranges.indices.filter { ranges[$0].count >= Parallel.minimumChunk }
        for r in long { sort(r, into: out) }
        let short = ranges.indices.filter { ranges[$0].count < Parallel.minimumChunk && ranges[$0].count > 0 }
        // Parts of about as many rows each (groups differ in size).
        var parts: [Range<Int>] = []
        let total = short.reduce(0) { $0 + ranges[$1].count }
        let partCount = max(1, min(Parallel.workers, total / Parallel.minimumChunk))
        var partStart = 0, seen = 0
        for (i, r) in short.enumerated() {
            seen += ranges[r].count
            if seen * partCount >= total * (parts.count + 1) || i == short.count - 1 {
                parts.append(partStart..<i + 1)
                partStart = i + 1
            }
        }
        let shared = Unchecked(out)
        Parallel.forEach(parts) { _, part in
            for i in part { sort(short[i], into: shared.value) }
        }
        return true
    }

    /// The cells of a key's column at `rows` (`nil`: `0..<count`), every present cell as text for a
    /// column in `asText`; the source's first answer no table can be, kept in `problem`.
    private static func keyInput(
        _ source: GridDataSource, column: Int, rows: [Int]?, count: Int, asText: Set<Int>, problem: inout String?
    ) -> KeyInput {
        let cells = KeyInput(source, column: column, rows: rows, count: count)
        if problem == nil { problem = cells.problem }
        return asText.contains(column) ? cells.everyCellAsText() : cells
    }

    /// `listed`: the rows, or `nil` for `0..<count` (made into a list only where a path needs one).
    /// With the order, the first answer of the source that no table can be (a column's values one
    /// too many or too few), or `nil`.
    private static func sortedRows(_ listed: [Int]?, count: Int, in source: GridDataSource, plan: BoundSortPlan)
        -> (order: [Int32], problem: String?)
    {
        var problem: String?
        let order = sortedRows(listed, count: count, in: source, plan: plan, problem: &problem)
        return (order, problem)
    }

    private static func sortedRows(
        _ listed: [Int]?, count: Int, in source: GridDataSource, plan: BoundSortPlan,
        problem: inout String?
    ) -> [Int32] {
        func everyRow() -> [Int] { listed ?? Parallel.positions(count) }
        /// The rows as stored in an order: the listed rows, or every row.
        func stored(_ rows: [Int]) -> [Int32] { rows.map { Int32(truncatingIfNeeded: $0) } }
        func everyRowStored() -> [Int32] {
            guard let listed else { return Parallel.array(count: count) { range, out in for i in range { out[i] = Int32(i) } } }
            return stored(listed)
        }
        let resolved = plan.keys
        if case .rows(let rowComparator)? = plan.plan.custom {
            let rows = everyRow()
            return stored(stableSorted(rows) { rowComparator(rows[$0], rows[$1]) })
        }
        guard !resolved.isEmpty, count > 1 else { return everyRowStored() }
        let needsComparisons = plan.comparesValues
        // A key that compares every cell as text sees every present cell as text.
        let asText = Set(resolved.filter(\.asText).map(\.column))
        var found: String?
        defer { problem = problem ?? found }
        let input = { (column: Int) -> KeyInput in Self.keyInput(source, column: column, rows: listed, count: count, asText: asText, problem: &found) }
        // A source's own order is taken only when it is an order of exactly these rows (one
        // that repeats or drops a row would show a row twice, or lose one): otherwise the grid sorts.
        if !needsComparisons, let sorting = source as? SortingDataSource {
            let rows = everyRow()
            if let sorted = sorting.sortedRows(rows, by: plan.plan.keys), Self.isPermutation(sorted, of: rows) { return stored(sorted) }
        }
        // Empty: still `0..<count` (no key has moved a row yet).
        var order: [Int32] = []
        // Codes of keys not sorted by yet, folded into one: adjacent keys whose codes' spreads
        // fit in 64 bits together (with a row's position, for the packed sort) sort as one key —
        // `(more significant − its least) << bits | (less significant − its least)` orders as the
        // two do — and a sort by two such keys costs one pass of the codes instead of two. (A
        // key that has none to fold with is sorted by as it is: a one-key sort reads no spread.)
        var folded: (codes: [UInt64], least: UInt64, bits: Int)?
        let positionBits = UInt64.bitWidth - UInt64(max(1, count) - 1).leadingZeroBitCount
        func flush() {
            guard let pending = folded else { return }
            folded = nil
            RadixSort.radixSort(&order, count: count, codes: pending.codes)
        }
        for (k, key) in resolved.reversed().enumerated() {
            var codes = KeyCodes(input(key.column), text: key.text, direction: key.key.direction, nulls: key.key.nulls)
            // The codes handed over whole (the sort keeps no second copy of them).
            var values = codes.values
            codes.values = []
            let last = k == resolved.count - 1
            if codes.classes != nil || (folded == nil && last) {
                flush()
                RadixSort.radixSort(&order, count: count, codes: consume values)
                if let classes = codes.classes { RadixSort.radixSortByByte(&order, count: count, codes: classes) }
                continue
            }
            let (least, bits) = RadixSort.spread(values)
            if let pending = folded, pending.bits + bits + positionBits <= UInt64.bitWidth {
                folded = nil
                RadixSort.fold(&values, least: least, below: pending.codes, least: pending.least, shift: pending.bits)
                folded = (values, 0, pending.bits + bits)
            } else {
                flush()
                folded = (values, least, bits)
            }
        }
        flush()
        if needsComparisons {
            // The keys' own order first: where a hook declines (or a comparator agrees), the
            // comparison sort then finds its input sorted and checks it in one pass instead of
            // comparing n log n pairs. Its comparator is total (ties fall to the position), so
            // where it starts never changes where it ends.
            // (The values a comparator sees are read apart from the codes: their problem too.)
            var compared: String?
            let sorted = comparisonSort(
                everyRow(), source: source, keys: resolved, hook: plan.plan.custom?.hook, input: input,
                start: order.isEmpty ? nil : order.map { Int($0) }, problem: &compared)
            if found == nil { found = compared }
            return stored(sorted)
        }
        if order.isEmpty { return everyRowStored() }
        // Every row: the radix sort's order is the rows' order.
        guard let listed else { return order }
        return order.withUnsafeBufferPointer { order in
            listed.withUnsafeBufferPointer { rows in
                let shared = Unchecked((order, rows))
                return Parallel.array(count: order.count) { range, out in
                    let (order, rows) = shared.value
                    for i in range { out[i] = Int32(truncatingIfNeeded: rows[Int(order[i])]) }
                }
            }
        }
    }

    /// The ascending codes of one column of a table under a text comparator: what a sort by it
    /// computes first (the benchmarks time the ranking of distinct texts with it).
    @_spi(Instrumentation) public static func textCodes(of table: Table, column: Int, comparator: TextComparator) -> [UInt64] {
        return KeyCodes(
            KeyInput(storage: table, column: column, rows: nil, count: table.rowCount), text: comparator, direction: .ascending,
            nulls: .last
        ).values
    }

    /// `rows` sorted by `compare` of positions; ties keep their order. `start` (a permutation of
    /// the positions) is where the sort begins: a start already in order costs one pass.
    static func stableSorted(_ rows: [Int], from start: [Int]? = nil, _ compare: (Int, Int) -> ComparisonResult) -> [Int] {
        (start ?? Array(rows.indices)).sorted { a, b in
            let order = compare(a, b)
            return order != .orderedSame ? order == .orderedAscending : a < b
        }.map { rows[$0] }
    }

    // MARK: Comparison sorting

    /// For custom comparators and hooks: codes for every key, and values for the keys a comparator
    /// or the hook sees; missing values are placed by the key's rule before any comparator sees
    /// them, and a hook's or comparator's answer is ascending, reversed for a descending key.
    static func comparisonSort(
        _ rows: [Int], source: GridDataSource, keys: [BoundSortPlan.Key],
        hook: ((SortCompareArguments) -> ComparisonResult?)?,
        input: (Int) -> KeyInput, start: [Int]? = nil, problem: inout String?
    ) -> [Int] {
        struct Prepared {
            var key: SortKey
            var codes: KeyCodes
            var values: [CellValue]?
            var missing: [Bool]
        }
        let prepared: [Prepared] = keys.map { bound in
            let key = bound.key, column = bound.column
            let cells = input(column)
            let codes = KeyCodes(cells, text: bound.text, direction: .ascending, nulls: .last)
            let missing = cells.kinds.map { ValueKind($0, numericColumn: cells.numericColumn) == nil }
            var values: [CellValue]?
            var read = false
            if hook != nil { read = true } else if case .custom = key.comparator { read = true }
            if read {
                let checked = source.checkedValues(ofColumn: column, rows: rows)
                values = checked.values
                if problem == nil { problem = checked.problem }
            }
            return Prepared(key: key, codes: codes, values: values, missing: missing)
        }
        return stableSorted(rows, from: start) { a, b in
            for (index, p) in prepared.enumerated() {
                let descending = p.key.direction == .descending
                switch (p.missing[a], p.missing[b]) {
                case (true, true): continue
                case (true, false), (false, true):
                    return p.missing[a] == p.key.nulls.missingFirst(descending: descending) ? .orderedAscending : .orderedDescending
                default: break
                }
                var order: ComparisonResult
                if let hook, let values = p.values,
                    let answer = hook(
                        SortCompareArguments(
                            column: p.key.column, value1: values[a], value2: values[b],
                            row1: rows[a], row2: rows[b], direction: p.key.direction,
                            keyIndex: index))
                {
                    order = answer
                } else if case .custom(let comparator) = p.key.comparator, let values = p.values {
                    order = comparator(values[a], values[b])
                } else {
                    order = p.codes.compare(a, b)
                }
                if descending { order = order.reversed }
                if order != .orderedSame { return order }
            }
            return .orderedSame
        }
    }

    /// The standard ascending order of two non-missing values.
    static func standardCompare(_ x: CellValue, _ y: CellValue, text: TextComparator = .natural) -> ComparisonResult {
        // (A missing value, which callers place first, would go after every kind.)
        let a = x.kind?.rawValue ?? UInt8(ValueKind.allCases.count), b = y.kind?.rawValue ?? UInt8(ValueKind.allCases.count)
        if a != b { return a < b ? .orderedAscending : .orderedDescending }
        switch (x, y) {
        case let (.text(a), .text(b)): return text.compare(a, b)
        case let (.boolean(a), .boolean(b)): return a == b ? .orderedSame : (!a ? .orderedAscending : .orderedDescending)
        case let (.error(a), .error(b)): return TextComparator.lexical.compare(a, b)
        case let (.integer(a), .integer(b)): return a == b ? .orderedSame : (a < b ? .orderedAscending : .orderedDescending)
        case let (.integer(a), .decimal(b)): return compare(a, b)
        case let (.decimal(a), .integer(b)): return compare(b, a).reversed
        default:
            let a = x.number ?? 0, b = y.number ?? 0
            return a == b ? .orderedSame : a < b ? .orderedAscending : .orderedDescending
        }
    }

    /// An integer against a double, exactly (a double near 2⁶³ cannot be made an `Int` first).
    static func compare(_ i: Int, _ d: Double) -> ComparisonResult {
        if d >= 9_223_372_036_854_775_808.0 { return .orderedAscending }
        if d < -9_223_372_036_854_775_808.0 { return .orderedDescending }
        let whole = d.rounded(.towardZero)
        let w = Int(whole)
        if i != w { return i < w ? .orderedAscending : .orderedDescending }
        let fraction = d - whole
        return fraction > 0 ? .orderedAscending : (fraction < 0 ? .orderedDescending : .orderedSame)
    }
}

extension ComparisonResult {
    /// The opposite order.
    public var reversed: ComparisonResult {
        switch self {
        case .orderedAscending: return .orderedDescending
        case .orderedDescending: return .orderedAscending
        case .orderedSame: return .orderedSame
        }
    }
}
