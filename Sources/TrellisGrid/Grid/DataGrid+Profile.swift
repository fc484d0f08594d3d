import Foundation

/// One distinct text of a column and how many rows show it.
public struct ValueFrequency: Sendable, Equatable {
    /// The cell's text as written (`""`: blank).
    public let text: String
    public let count: Int
}

/// What a column holds, over the rows a grid shows in its body (a describe view's row).
public struct ColumnProfile: Sendable, Equatable {
    public let column: String
    public let type: ColumnType
    /// The body's rows, blanks included.
    public let count: Int
    public let blanks: Int
    /// Distinct texts among the cells that are not blank.
    public let distinct: Int
    /// The smallest and largest value as written: by value in a number column, by the column's
    /// text order in any other; `nil` when every cell is blank.
    public let minimum: String?
    public let maximum: String?
    /// The mean and median of a number column's numbers (written with two decimals more than the
    /// column's widest number, a median of an odd count as its cell is written); `nil` in other
    /// columns and when there are no numbers.
    public let mean: String?
    public let median: String?
}

/// Profiles of a grid's body: a column's frequency table and every column's description —
/// computed from the column storage in place, one chunk of rows per core, where the source keeps
/// one; pinned and summary rows are not counted (the 平均 row is not data).
extension DataGrid {
    /// The distinct texts of `column` among the body rows, each with its count, in the order each
    /// first appears in the body.
    public func frequencies(ofColumn column: Int) -> [ValueFrequency] {
        guard columns.indices.contains(column) else { return [] }
        let body = order.body
        if let store = fullStore(column) {
            let (ids, texts) = ByteSliceSet.distinct(store, rows: body)
            let counts = Self.tally(ids, distinct: texts.count)
            return zip(texts, counts).map { ValueFrequency(text: $0, count: $1) }
        }
        var index: [String: Int] = [:]
        var found: [(String, Int)] = []
        for row in body {
            let text = source.text(row: row, column: column)
            if let i = index[text] { found[i].1 += 1 } else { index[text] = found.count; found.append((text, 1)) }
        }
        return found.map { ValueFrequency(text: $0.0, count: $0.1) }
    }

    /// Every column's profile, in column order.
    public func describe() -> [ColumnProfile] {
        let body = order.body
        return columns.indices.map { profile(column: $0, body: body) }
    }

    private func fullStore(_ column: Int) -> ColumnStore? {
        guard let storage, storage.stores.indices.contains(column) else { return nil }
        let store = storage.stores[column]
        return store.count >= rowCount ? store : nil
    }

    /// How many of `ids` are each id, counted one chunk per core.
    static func tally(_ ids: [Int32], distinct: Int) -> [Int] {
        let parts = ids.withUnsafeBufferPointer { ids in
            let shared = Unchecked(ids)
            return Parallel.map(Parallel.chunks(ids.count, minimum: 1 << 16)) { _, range in
                var counts = [Int](repeating: 0, count: distinct)
                let ids = shared.value
                for k in range { counts[Int(ids[k])] += 1 }
                return counts
            }
        }
        guard var total = parts.first else { return [] }
        for part in parts.dropFirst() { for i in total.indices { total[i] += part[i] } }
        return total
    }

    private func profile(column c: Int, body: [Int]) -> ColumnProfile {
        let column = columns[c]
        var blanks = 0
        var numbers: [(value: Double, row: Int)] = []
        var sum = NumberSum()
        var digits = 0
        let distinctTexts: [String]
        let numeric = column.type.isNumeric
        if let store = fullStore(c) {
            let (ids, texts) = ByteSliceSet.distinct(store, rows: body)
            // Each distinct text is blank or not as its cells are.
            var blankID = [Bool](repeating: false, count: texts.count)
            for (position, row) in body.enumerated() where store.kind(at: row) == .missing { blankID[Int(ids[position])] = true }
            let counts = Self.tally(ids, distinct: texts.count)
            blanks = zip(blankID, counts).reduce(0) { $0 + ($1.0 ? $1.1 : 0) }
            distinctTexts = zip(texts, blankID).compactMap { $1 ? nil : $0 }
            if numeric {
                numbers.reserveCapacity(body.count)
                for row in body {
                    let cell = store.cell(at: row)
                    guard cell.kind.isNumber else { continue }
                    let value = cell.double
                    numbers.append((value, row))
                    if cell.kind == .integer { sum.add(Int64(bitPattern: cell.payload)) } else { sum.add(value) }
                    if cell.kind != .integer { digits = max(digits, store.withText(at: row) { CellText.fractionDigits($0) }) }
                }
            }
        } else {
            let values = source.checkedValues(ofColumn: c, rows: body)
            var seen = Set<String>()
            var texts: [String] = []
            for (position, value) in values.enumerated() {
                let row = body[position]
                let text = source.text(row: row, column: c)
                // Blank as a table reads it: nothing, or only spaces.
                if value.isMissing || text.allSatisfy({ $0 == " " || $0 == "\t" }) { blanks += 1; continue }
                if seen.insert(text).inserted { texts.append(text) }
                if numeric, let number = value.number {
                    numbers.append((number, row))
                    if case .integer(let i) = value { sum.add(Int64(i)) } else { sum.add(number) }
                    digits = max(digits, DecimalFormat.fractionDigits(text))
                }
            }
            distinctTexts = texts
        }
        var minimum: String?, maximum: String?, mean: String?, median: String?
        if numeric, !numbers.isEmpty {
            numbers.sort { $0.value < $1.value || ($0.value == $1.value && $0.row < $1.row) }
            minimum = source.text(row: numbers.first!.row, column: c)
            maximum = source.text(row: numbers.last!.row, column: c)
            if let value = sum.mean.number { mean = DecimalFormat.format(value, decimals: digits + 2) }
            let middle = numbers.count / 2
            median = numbers.count % 2 == 1 ? source.text(row: numbers[middle].row, column: c)
                : DecimalFormat.format((numbers[middle - 1].value + numbers[middle].value) / 2, decimals: digits + 1)
        } else if !distinctTexts.isEmpty {
            let comparator = column.textComparator
            minimum = distinctTexts.min { comparator.compare($0, $1) == .orderedAscending }
            maximum = distinctTexts.max { comparator.compare($0, $1) == .orderedAscending }
        }
        return ColumnProfile(column: column.identifier, type: column.type, count: body.count, blanks: blanks,
                             distinct: distinctTexts.count, minimum: minimum, maximum: maximum, mean: mean, median: median)
    }
}
