import Foundation

/// Sorts rows of a data source by keys, producing a permutation: the source is never reordered.
///
/// ```swift
/// let order = try SortEngine.permutation(of: Array(0..<table.rowCount), in: table,
///                                        by: [SortKey("分数", .descending)])
/// ```
///
/// The sort is stable in both directions: the last tie-break is the position in the source.
/// Values are read once per key into typed codes — numbers as order-preserving 64-bit patterns,
/// texts as ranks computed once per distinct text — and the rows are ordered by a stable LSD radix
/// sort over those codes, from the least significant key to the most significant one; nothing
/// compares through `Any` or casts in the inner loop. Keys with a custom comparator, a row-aware
/// hook or a whole-row comparator fall back to a comparison sort.
///
/// - Complexity: O(n · k) for k keys on the radix path (a few byte passes per key); O(n log n)
///   comparisons on the comparison path.
public enum SortEngine {
    /// The rows of `rows` (source positions, in the order ties should keep) ordered by `keys`.
    public static func permutation(of rows: [Int], in source: GridDataSource, by keys: [SortKey],
                                   hook: ((SortCompareArguments) -> ComparisonResult?)? = nil,
                                   rowComparator: ((Int, Int) -> ComparisonResult)? = nil) throws(SortError) -> [Int] {
        let columns = source.columns
        var resolved: [(key: SortKey, column: Int)] = []
        for key in keys {
            guard let index = columns.firstIndex(where: { $0.identifier == key.column }) else {
                var message = "unknown column \"\(key.column)\""
                let names = columns.map(\.identifier)
                message += "; the columns are " + names.map { "\"\($0)\"" }.joined(separator: ", ")
                throw SortError(message)
            }
            resolved.append((key, index))
        }
        if let rowComparator {
            return rows.enumerated().sorted { a, b in
                let order = rowComparator(a.element, b.element)
                return order != .orderedSame ? order == .orderedAscending : a.offset < b.offset
            }.map(\.element)
        }
        guard !resolved.isEmpty, rows.count > 1 else { return rows }
        let needsComparisons = hook != nil || resolved.contains {
            if case .custom = $0.key.comparator { true } else { false }
        }
        if needsComparisons {
            return comparisonSort(rows, source: source, keys: resolved, hook: hook)
        }
        var order = [Int32](0..<Int32(rows.count))
        for (key, column) in resolved.reversed() {
            let comparator: TextComparator
            if case .text(let text) = key.comparator { comparator = text } else { comparator = columns[column].textComparator }
            // A source that stores the column hands it over uncopied: codes are then made for
            // every row and read through `rows`; otherwise the body's values are gathered.
            if let stored = source.storedValues(ofColumn: column) {
                let codes = KeyCodes(stored, direction: key.direction, nulls: key.nulls, text: comparator)
                radixSort(&order, codes: codes.values, through: rows)
                if let classes = codes.classes { radixSortByByte(&order, codes: rows.map { classes[$0] }) }
            } else {
                let values = source.values(ofColumn: column, rows: rows)
                let codes = KeyCodes(values, direction: key.direction, nulls: key.nulls, text: comparator)
                radixSort(&order, codes: codes.values, through: nil)
                if let classes = codes.classes { radixSortByByte(&order, codes: classes) }
            }
        }
        return order.map { rows[Int($0)] }
    }

    // MARK: Codes

    /// A key's values as unsigned integers whose order is the key's order (direction applied).
    /// Values never take the codes 0 and `UInt64.max` (finite doubles' ordered bits never do;
    /// ranks, booleans and errors start at 1), so in a column of one kind a missing value is
    /// simply the smallest or largest code. A column that mixes kinds also gets a small class per
    /// row, `placement · 8 + kind`, sorted as a more significant digit.
    struct KeyCodes {
        var values: [UInt64]
        var classes: [UInt8]?

        init(_ cells: [CellValue], direction: SortDirection, nulls: NullPlacement, text: TextComparator) {
            let descending = direction == .descending
            var texts: [String] = [], textRows: [Int] = []
            var errors: [String] = [], errorRows: [Int] = []
            values = [UInt64](repeating: 0, count: cells.count)
            var missingRows: [Int] = []
            var sawKinds: UInt8 = 0   // a bit per kind seen: numbers, text, booleans, errors, missing
            values.withUnsafeMutableBufferPointer { values in
                for (i, cell) in cells.enumerated() {
                    switch cell {
                    case .missing: missingRows.append(i); sawKinds |= 16
                    case .integer(let n): values[i] = Self.orderedBits(Double(n)); sawKinds |= 1
                    case .decimal(let d): values[i] = Self.orderedBits(d); sawKinds |= 1
                    case .date(let d): values[i] = Self.orderedBits(d.timeIntervalSince1970); sawKinds |= 1
                    case .text(let s): texts.append(s); textRows.append(i); sawKinds |= 2
                    case .boolean(let b): values[i] = b ? 2 : 1; sawKinds |= 4
                    case .error(let e): errors.append(e); errorRows.append(i); sawKinds |= 8
                    }
                }
            }
            if !texts.isEmpty {
                for (row, rank) in zip(textRows, text.ranks(texts)) { values[row] = UInt64(rank) + 1 }
            }
            if !errors.isEmpty {
                for (row, rank) in zip(errorRows, TextComparator.lexical.ranks(errors)) { values[row] = UInt64(rank) + 1 }
            }
            let sawMissing = sawKinds & 0b10000 != 0
            let kindCount = (sawKinds & 0b1111).nonzeroBitCount
            let missingFirst = nulls.missingFirst(descending: descending)
            if descending {
                values.withUnsafeMutableBufferPointer { v in for i in v.indices { v[i] = ~v[i] } }
            }
            guard kindCount > 1 else {
                classes = nil
                if sawMissing {
                    let code: UInt64 = missingFirst ? 0 : .max
                    for row in missingRows { values[row] = code }
                }
                return
            }
            let missingClass: UInt8 = missingFirst ? 0 : 2
            classes = cells.map { cell in
                let kind = UInt8(cell.kindRank)
                if kind == 4 { return missingClass << 3 }
                return (1 << 3) | (descending ? 3 - kind : kind)
            }
        }

        /// A double's bits reordered so that unsigned comparison is numeric order (−0 as +0).
        @inline(__always)
        static func orderedBits(_ value: Double) -> UInt64 {
            let bits = (value == 0 ? 0.0 : value).bitPattern
            return bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
        }
    }

    // MARK: Radix sorting

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

    // MARK: Comparison sorting

    /// For custom comparators and hooks: values read once per key, then compared row by row;
    /// missing values are placed by the key's rule before any comparator sees them.
    static func comparisonSort(_ rows: [Int], source: GridDataSource, keys: [(key: SortKey, column: Int)],
                               hook: ((SortCompareArguments) -> ComparisonResult?)?) -> [Int] {
        let columns = source.columns
        struct Prepared {
            var key: SortKey
            var values: [CellValue]
            var ranks: [Int32]?
            var text: TextComparator
        }
        let prepared: [Prepared] = keys.map { key, column in
            let values = source.values(ofColumn: column, rows: rows)
            var text = columns[column].textComparator
            if case .text(let t) = key.comparator { text = t }
            var ranks: [Int32]?
            if case .custom = key.comparator {} else {
                let texts = values.compactMap { if case .text(let s) = $0 { s } else { nil } }
                if !texts.isEmpty {
                    let rankOfText = Dictionary(zip(texts, text.ranks(texts)), uniquingKeysWith: { a, _ in a })
                    ranks = values.map { if case .text(let s) = $0 { rankOfText[s]! } else { 0 } }
                }
            }
            return Prepared(key: key, values: values, ranks: ranks, text: text)
        }
        func compare(_ a: Int, _ b: Int) -> ComparisonResult {
            for p in prepared {
                let x = p.values[a], y = p.values[b]
                let descending = p.key.direction == .descending
                if let placed = p.key.nulls.order(x, y, descending: descending) {
                    if placed == .orderedSame { continue }
                    return placed
                }
                var order: ComparisonResult
                if let hook, let answer = hook(SortCompareArguments(column: p.key.column, value1: x, value2: y,
                                                                    row1: rows[a], row2: rows[b])) {
                    order = answer
                } else if case .custom(let comparator) = p.key.comparator {
                    order = comparator(x, y)
                } else {
                    order = standardCompare(x, y, rankX: p.ranks?[a], rankY: p.ranks?[b])
                }
                if descending { order = order.reversed }
                if order != .orderedSame { return order }
            }
            return .orderedSame
        }
        let positions = Array(rows.indices).sorted { a, b in
            let order = compare(a, b)
            return order != .orderedSame ? order == .orderedAscending : a < b
        }
        return positions.map { rows[$0] }
    }

    /// The standard ascending order of two non-missing values.
    static func standardCompare(_ x: CellValue, _ y: CellValue, rankX: Int32?, rankY: Int32?) -> ComparisonResult {
        if x.kindRank != y.kindRank { return x.kindRank < y.kindRank ? .orderedAscending : .orderedDescending }
        switch (x, y) {
        case (.text, .text):
            let a = rankX ?? 0, b = rankY ?? 0
            return a == b ? .orderedSame : a < b ? .orderedAscending : .orderedDescending
        case let (.boolean(a), .boolean(b)):
            return a == b ? .orderedSame : (!a ? .orderedAscending : .orderedDescending)
        case let (.error(a), .error(b)):
            return TextComparator.scalarOrder(a, b)
        default:
            let a = x.number ?? 0, b = y.number ?? 0
            return a == b ? .orderedSame : a < b ? .orderedAscending : .orderedDescending
        }
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
