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
    /// Distinct values among the cells that are not blank: texts as written, and in a number
    /// column numbers by value (`92` and `92.0` are one).
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
    /// first appears in the source (the file's order, whatever the sort).
    public func frequencies(ofColumn column: Int) -> [ValueFrequency] {
        guard columns.indices.contains(column) else { return [] }
        let body = bodyInSourceOrder
        if let store = fullStore(column) {
            let groups = ByteSliceSet.groups(store, rows: body)
            return zip(groups.first, groups.count).map { ValueFrequency(text: store.text(at: body[$0]), count: $1) }
        }
        var index: [String: Int] = [:]
        var found: [(String, Int)] = []
        for row in body {
            let text = source.text(row: row, column: column)
            if let i = index[text] { found[i].1 += 1 } else { index[text] = found.count; found.append((text, 1)) }
        }
        return found.map { ValueFrequency(text: $0.0, count: $0.1) }
    }

    /// ``frequencies(ofColumn:)`` as a table to show and sort: the value as written (with the
    /// column's type and text order, so that it sorts as the column does), its `count`, and its
    /// `percent` of the body's rows with two decimals (rounded half away from zero). Its columns
    /// are named `value`, `count` and `percent` (titled as the column is, `count` and `%`).
    /// From a table's storage it is built without making a string per value.
    public func frequencyTable(ofColumn column: Int) -> Table {
        let source = columns.indices.contains(column) ? columns[column] : Column("value")
        let tableColumns = [
            Column("value", title: source.title, type: source.type, sortMode: source.sortMode, textComparator: source.textComparator),
            Column("count", type: .integer), Column("percent", title: "%", type: .decimal),
        ]
        let body = bodyInSourceOrder
        let total = max(1, body.count)
        /// `count` and its percent of `total`, as ASCII digits.
        func numbers(_ count: Int) -> ([UInt8], [UInt8]) {
            let hundredths = (count * 20_000 + total) / (2 * total)
            let whole = Array(String(hundredths / 100).utf8), fraction = hundredths % 100
            return (Array(String(count).utf8), whole + [UInt8(ascii: "."), UInt8(48 + fraction / 10), UInt8(48 + fraction % 10)])
        }
        guard let store = fullStore(column) else {
            let table = Table(columns: tableColumns)
            for entry in frequencies(ofColumn: column) {
                let (count, percent) = numbers(entry.count)
                try? table.appendRow([entry.text, String(decoding: count, as: UTF8.self), String(decoding: percent, as: UTF8.self)])
            }
            return table
        }
        let groups = ByteSliceSet.groups(store, rows: body)
        var values = ColumnStore(), counts = ColumnStore(), percents = ColumnStore()
        values.reading = store.reading
        counts.readAs = .integer
        percents.readAs = .decimal
        values.reserve(groups.first.count, bytes: min(store.bytes.count, groups.first.count * 16))
        for (first, count) in zip(groups.first, groups.count) {
            let row = body[first]
            // Read again as the column reads it: a stored cell keeps its kind and value, not what
            // the store counts by (its decimals, whether it was written as an integer).
            _ = store.withText(at: row) { values.append($0, CellText.classify($0, values.reading)) }
            let (countText, percentText) = numbers(count)
            countText.withUnsafeBufferPointer { _ = counts.append($0, CellText.classify($0, counts.reading)) }
            percentText.withUnsafeBufferPointer { _ = percents.append($0, CellText.classify($0, percents.reading)) }
        }
        return Table(columns: tableColumns, stores: [values, counts, percents])
    }

    /// Every column's profile, in column order.
    public func describe() -> [ColumnProfile] {
        let body = bodyInSourceOrder
        // A table's columns one per core (each one's grouping is spread over the cores as well);
        // another source is asked from one thread, as it expects.
        guard storage != nil else { return columns.indices.map { profile(column: $0, body: body) } }
        // The text columns first: they take longest (their distinct texts' sort keys), and the
        // cores that finish them early take the number columns meanwhile.
        let byCost = columns.indices.filter { !columns[$0].type.isNumeric } + columns.indices.filter { columns[$0].type.isNumeric }
        let profiles = Parallel.map(byCost.map { $0..<($0 + 1) }) { _, range in profile(column: range.lowerBound, body: body) }
        var inOrder = profiles
        for (k, column) in byCost.enumerated() { inOrder[column] = profiles[k] }
        return inOrder
    }

    /// The profiles of `wanted` columns alone, in that order: what ``describe()`` gives for
    /// them (a viewer describes again only the columns that changed).
    public func describe(columns wanted: [Int]) -> [ColumnProfile] {
        let wanted = wanted.filter { columns.indices.contains($0) }
        let body = bodyInSourceOrder
        guard storage != nil, wanted.count > 1 else { return wanted.map { profile(column: $0, body: body) } }
        return Parallel.map(wanted.map { $0..<($0 + 1) }) { _, range in profile(column: range.lowerBound, body: body) }
    }

    /// The largest number of `column` among the body rows (0 when it holds none): what a bar
    /// drawn for each row is scaled to.
    public func maximum(ofColumn column: Int) -> Double {
        guard columns.indices.contains(column) else { return 0 }
        var most = 0.0
        if let store = fullStore(column) {
            for row in bodyInSourceOrder where store.kind(at: row).isNumber { most = max(most, store.cell(at: row).double) }
        } else {
            for value in source.checkedValues(ofColumn: column, rows: bodyInSourceOrder).values { if let n = value.number { most = max(most, n) } }
        }
        return most
    }

    /// The body rows in source order: a table's cells are then read one after the next, where the
    /// sorted order would jump through memory at every row.
    var bodyInSourceOrder: [Int] {
        let order = self.order
        let inverse = order.displayIndexOfSource
        if order.body.count == inverse.count { return Array(0..<inverse.count) }
        let start = Int32(order.bodyStart), end = Int32(order.bodyStart + order.body.count)
        return inverse.indices.filter { inverse[$0] >= start && inverse[$0] < end }
    }

    /// `numbers` in ascending order, radix-sorted (a comparison sort of a million numbers took
    /// several times as long). Numbers written with at most `decimals` decimals are sorted as
    /// whole numbers of that many hundredths, thousandths… — far fewer bits vary than in their
    /// floating-point bits, so the sort makes fewer passes; any number that is not exactly such
    /// a whole number has every number sorted by its bits instead.
    static func sorted(_ numbers: [Double], decimals: Int) -> [Double] {
        guard numbers.count > 1, numbers.count < Int(Int32.max) else { return numbers.sorted() }
        let order = RadixSort.sortedOrder(codes: scaledCodes(numbers, decimals: decimals) ?? numbers.map(KeyCodes.orderedBits))
        return order.map { numbers[Int($0)] }
    }

    /// Each number times 10^`decimals` as an order-preserving code, or `nil` when one of them is
    /// not a whole number of that scale (exactly: scaled, rounded and divided back, it must give
    /// the same number) or passes 2^53.
    static func scaledCodes(_ numbers: [Double], decimals: Int) -> [UInt64]? {
        guard (0...15).contains(decimals) else { return nil }
        let scale = (0..<decimals).reduce(1.0) { value, _ in value * 10 }
        var codes = [UInt64](repeating: 0, count: numbers.count)
        for (k, value) in numbers.enumerated() {
            let scaled = (value * scale).rounded()
            guard abs(scaled) < 9_007_199_254_740_992, scaled / scale == value else { return nil }
            codes[k] = UInt64(bitPattern: Int64(scaled)) ^ (1 << 63)
        }
        return codes
    }

    private func fullStore(_ column: Int) -> ColumnStore? {
        guard let storage, column >= 0, column < storage.storeCount else { return nil }
        let store = storage.store(column)
        return store.count >= rowCount ? store : nil
    }

    private func profile(column c: Int, body: [Int]) -> ColumnProfile {
        let column = columns[c]
        let numeric = column.type.isNumeric
        var blanks = 0
        var numbers: [Double] = []
        var least: (value: Double, row: Int)?, most: (value: Double, row: Int)?
        var sum = NumberSum()
        var digits = 0
        /// The first row of each distinct text that is not blank.
        var distinctRows: [Int] = []
        /// The number at a position of `body`, when it holds one.
        let number: (Int) -> Double?
        /// Takes one number of the column.
        func take(_ value: Double, row: Int) {
            numbers.append(value)
            if least.map({ value < $0.value }) ?? true { least = (value, row) }
            if most.map({ value > $0.value }) ?? true { most = (value, row) }
        }
        if let store = fullStore(c) {
            number = { position in store.kind(at: body[position]).isNumber ? store.cell(at: body[position]).double : nil }
            /// Blank: nothing, or only spaces (from a file, or given in code).
            func isBlank(_ row: Int, _ kind: CellKind) -> Bool {
                kind == .missing || (kind == .text && store.withText(at: row) { $0.allSatisfy { $0 == 32 || $0 == 9 } })
            }
            if numeric {
                // Numbers by value (their distinct values counted once sorted, below); the
                // other cells — texts such as 缺考 — grouped by their bytes.
                numbers.reserveCapacity(body.count)
                var others: [Int] = []
                for row in body {
                    let kind = store.kind(at: row)
                    guard kind.isNumber else {
                        if isBlank(row, kind) { blanks += 1 } else { others.append(row) }
                        continue
                    }
                    let cell = store.cell(at: row)
                    take(cell.double, row: row)
                    if kind == .integer {
                        sum.add(Int64(bitPattern: cell.payload))
                    } else {
                        sum.add(cell.double)
                        digits = max(digits, store.withText(at: row) { CellText.fractionDigits($0) })
                    }
                }
                distinctRows = ByteSliceSet.groups(store, rows: others).first.map { others[$0] }
            } else {
                // Distinct texts by their bytes; a text is blank or not as each of its cells is.
                let groups = ByteSliceSet.groups(store, rows: body)
                for (first, count) in zip(groups.first, groups.count) {
                    let row = body[first]
                    if isBlank(row, store.kind(at: row)) { blanks += count } else { distinctRows.append(row) }
                }
            }
        } else {
            let values = source.checkedValues(ofColumn: c, rows: body).values
            var seen = Set<String>()
            for (position, value) in values.enumerated() {
                let row = body[position]
                let text = source.text(row: row, column: c)
                // Blank as a table reads it: nothing, or only spaces.
                if value.isMissing || text.allSatisfy({ $0 == " " || $0 == "\t" }) { blanks += 1; continue }
                guard numeric, let n = value.number else {
                    if seen.insert(text).inserted { distinctRows.append(row) }
                    continue
                }
                take(n, row: row)
                if case .integer(let i) = value { sum.add(Int64(i)) } else { sum.add(n) }
                digits = max(digits, DecimalFormat.fractionDigits(text))
            }
            number = { values[$0].number }
        }
        var minimum: String?, maximum: String?, mean: String?, median: String?
        var distinctNumbers = 0
        if numeric, let least, let most {
            minimum = source.text(row: least.row, column: c)
            maximum = source.text(row: most.row, column: c)
            if let value = sum.mean.number { mean = DecimalFormat.format(value, decimals: digits + 2) }
            numbers = Self.sorted(numbers, decimals: digits)
            var values = 1
            for k in 1..<max(1, numbers.count) where numbers[k] != numbers[k - 1] { values += 1 }
            distinctNumbers = values
            let middle = numbers.count / 2
            let upper = numbers[middle]
            if numbers.count % 2 == 1 {
                // As written: the first cell holding the middle number.
                median =
                    body.indices.first { number($0) == upper }.map { source.text(row: body[$0], column: c) }
                    ?? DecimalFormat.format(upper, decimals: digits)
            } else {
                median = DecimalFormat.format((numbers[middle - 1] + upper) / 2, decimals: digits + 1)
            }
        } else if !distinctRows.isEmpty {
            // A text column (or a number column holding only texts such as 缺考): the first and
            // last of its distinct texts in the column's text order.
            let texts = distinctRows.map { source.text(row: $0, column: c) }
            if let (least, most) = column.textComparator.extremes(of: texts) {
                minimum = texts[least]
                maximum = texts[most]
            }
        }
        return ColumnProfile(
            column: column.identifier, type: column.type, count: body.count, blanks: blanks,
            distinct: distinctNumbers + distinctRows.count, minimum: minimum, maximum: maximum, mean: mean, median: median)
    }

}
