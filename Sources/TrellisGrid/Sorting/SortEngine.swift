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
            let values = rows.map { source.value(row: $0, column: column) }
            let comparator: TextComparator
            if case .text(let text) = key.comparator { comparator = text } else { comparator = columns[column].textComparator }
            let codes = KeyCodes(values, direction: key.direction, nulls: key.nulls, text: comparator)
            radixSort(&order, codes: codes.values)
            if let classes = codes.classes { radixSortByByte(&order, codes: classes) }
        }
        return order.map { rows[Int($0)] }
    }

    // MARK: Codes

    /// A key's values as unsigned integers whose order is the key's order (direction applied),
    /// plus a small class per row when the column mixes kinds or has missing values:
    /// `missing placement · 8 + kind`.
    struct KeyCodes {
        var values: [UInt64]
        var classes: [UInt8]?

        init(_ cells: [CellValue], direction: SortDirection, nulls: NullPlacement, text: TextComparator) {
            let descending = direction == .descending
            var texts: [String] = [], textRows: [Int] = []
            var errors: [String] = [], errorRows: [Int] = []
            values = [UInt64](repeating: 0, count: cells.count)
            var kinds = [UInt8](repeating: 0, count: cells.count)
            var sawKinds: Set<UInt8> = []
            var sawMissing = false
            for (i, cell) in cells.enumerated() {
                switch cell {
                case .missing: sawMissing = true
                case .integer, .decimal, .date:
                    values[i] = Self.orderedBits(cell.number!)
                case .text(let s): texts.append(s); textRows.append(i)
                case .boolean(let b): values[i] = b ? 1 : 0
                case .error(let e): errors.append(e); errorRows.append(i)
                }
                let kind = UInt8(cell.kindRank)
                kinds[i] = kind
                if kind < 4 { sawKinds.insert(kind) }
            }
            if !texts.isEmpty {
                for (row, rank) in zip(textRows, text.ranks(texts)) { values[row] = UInt64(rank) }
            }
            if !errors.isEmpty {
                for (row, rank) in zip(errorRows, TextComparator.lexical.ranks(errors)) { values[row] = UInt64(rank) }
            }
            if descending { for i in values.indices { values[i] = ~values[i] } }
            guard sawMissing || sawKinds.count > 1 else { classes = nil; return }
            // Missing values: 0 before every value, 2 after; values are 1.
            let missingClass: UInt8
            switch nulls {
            case .last: missingClass = 2
            case .first: missingClass = 0
            case .asSmallest: missingClass = descending ? 2 : 0
            }
            classes = kinds.map { kind in
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

    /// Stably reorders `order` (indices into `codes`) by the codes, one byte at a time from the
    /// least significant, skipping bytes that are the same in every code.
    static func radixSort(_ order: inout [Int32], codes: [UInt64]) {
        var keys = order.map { codes[Int($0)] }
        var all: UInt64 = ~0, any: UInt64 = 0
        for key in keys { all &= key; any |= key }
        let varying = all ^ any
        guard varying != 0 else { return }
        var nextKeys = keys, nextOrder = order
        var counts = [Int](repeating: 0, count: 257)
        for byte in 0..<8 {
            let shift = UInt64(byte * 8)
            guard (varying >> shift) & 0xFF != 0 else { continue }
            for i in counts.indices { counts[i] = 0 }
            keys.withUnsafeBufferPointer { keys in
                counts.withUnsafeMutableBufferPointer { counts in
                    for key in keys { counts[Int((key >> shift) & 0xFF) + 1] += 1 }
                    for b in 0..<256 { counts[b + 1] += counts[b] }
                }
            }
            keys.withUnsafeBufferPointer { keys in
                order.withUnsafeBufferPointer { order in
                    nextKeys.withUnsafeMutableBufferPointer { nextKeys in
                        nextOrder.withUnsafeMutableBufferPointer { nextOrder in
                            counts.withUnsafeMutableBufferPointer { counts in
                                for i in 0..<keys.count {
                                    let bucket = Int((keys[i] >> shift) & 0xFF)
                                    let at = counts[bucket]
                                    counts[bucket] = at + 1
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
            let values = rows.map { source.value(row: $0, column: column) }
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
                switch (x.isMissing, y.isMissing) {
                case (true, true): continue
                case (true, false), (false, true):
                    let missingFirst: Bool
                    switch p.key.nulls {
                    case .last: missingFirst = false
                    case .first: missingFirst = true
                    case .asSmallest: missingFirst = !descending
                    }
                    return x.isMissing == missingFirst ? .orderedAscending : .orderedDescending
                default: break
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
