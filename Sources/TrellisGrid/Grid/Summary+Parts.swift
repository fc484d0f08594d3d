import Foundation

/// What ``SummaryArithmetic`` reads from a whole body, gathered part by part as a sort in parts
/// reads the file: per column, the present cells, the sum (added in file order, as the body's
/// rows are), the most decimals, and the least and the most value with the first of equals kept.
struct PartsSummary {
    struct Column {
        var present = 0
        var adder = NumberSum()
        /// The most decimals of the column's numbers: all of them (a body of every row), and the body's.
        var decimalsOfAll = 0, decimalsOfBody = 0
        var least: (key: [UInt8], cell: SummaryCell)?
        var most: (key: [UInt8], cell: SummaryCell)?
        var sawBody = false
    }

    private(set) var columns: [Column]
    /// Whether no row is pinned: a column's decimals are then those of all its numbers.
    let everyRowInBody: Bool
    /// The columns whose minimum or maximum is asked for (their cells get keys).
    let extremes: Set<Int>

    init(columnCount: Int, everyRowInBody: Bool, extremes: Set<Int>) {
        columns = [Column](repeating: Column(), count: columnCount)
        self.everyRowInBody = everyRowInBody
        self.extremes = extremes
    }

    /// Adds the body rows `body` of a part (a table with the file's column types).
    mutating func add(_ table: Table, body: [Int], exactNumbers: [Bool]) {
        // A column left in the records is text: it adds no number.
        for c in columns.indices where c < table.storeCount && !table.isUnread(c) {
            var store = table.store(c)
            let numeric = table.columns[c].type.isNumeric
            var column = columns[c]
            // (A column's decimals over all its cells count only for a body of every row; a
            // group's figures, added a group at a time, do not read the whole part for them.)
            if everyRowInBody { column.decimalsOfAll = max(column.decimalsOfAll, Int(store.fractionDigits())) }
            if !body.isEmpty { column.sawBody = true }
            for row in body {
                let kind = store.kinds[row]
                if kind != .missing && !(numeric && kind == .notANumber) { column.present += 1 }
                switch kind {
                case .integer: column.adder.add(Int64(bitPattern: store.payload(at: row)))
                case .decimal, .approximate: column.adder.add(Double(bitPattern: store.payload(at: row)))
                default: break
                }
                if kind.isNumber { column.decimalsOfBody = max(column.decimalsOfBody, store.withText(at: row) { CellText.fractionDigits($0) }) }
            }
            if extremes.contains(c), !body.isEmpty {
                let keys = KeyBytes(
                    table: table, rows: body, firstRow: 0,
                    keys: [BoundSortPlan.Key(key: SortKey(table.columns[c].identifier), column: c, text: table.columns[c].textComparator)],
                    exactNumbers: exactNumbers)
                let numericColumn = numeric
                for (position, row) in body.enumerated()
                where ValueKind(store.kinds[row], numericColumn: numericColumn) != nil {
                    // The key without the row's place: equal values are equal.
                    let key = Array(keys.key(position).dropLast(8))
                    if column.least == nil || SortKeys.compare(key, column.least!.key) == .orderedAscending {
                        column.least = (key, SummaryCell(value: table.value(row: row, column: c), text: table.text(row: row, column: c)))
                    }
                    if column.most == nil || SortKeys.compare(key, column.most!.key) == .orderedDescending {
                        column.most = (key, SummaryCell(value: table.value(row: row, column: c), text: table.text(row: row, column: c)))
                    }
                }
            }
            columns[c] = column
        }
    }

    func decimals(_ column: Int) -> Int {
        guard columns.indices.contains(column) else { return 0 }
        return everyRowInBody ? columns[column].decimalsOfAll : columns[column].decimalsOfBody
    }

    /// As ``SummaryArithmetic/summarize(_:column:decimals:)`` over the whole body.
    func summarize(_ function: SummaryFunction, column c: Int, decimals: Int) -> SummaryCell {
        guard columns.indices.contains(c) else { return SummaryCell(value: .missing, text: "") }
        let column = columns[c]
        switch function {
        case .count:
            return SummaryCell(value: .integer(column.present), text: String(column.present))
        case .sum, .mean:
            let value: CellValue
            if case .sum = function { value = column.adder.sum } else { value = column.adder.mean }
            switch value {
            case .integer(let i): return SummaryCell(value: value, text: String(i))
            case .decimal(let d): return SummaryCell(value: value, text: DecimalFormat.format(d, decimals: decimals))
            default: return SummaryCell(value: .missing, text: "")
            }
        case .min:
            return column.least?.cell ?? SummaryCell(value: .missing, text: "")
        case .max:
            return column.most?.cell ?? SummaryCell(value: .missing, text: "")
        case .custom:
            // A function of every value at once: not gathered in parts (the command line has none).
            return SummaryCell(value: .missing, text: "")
        }
    }
}
