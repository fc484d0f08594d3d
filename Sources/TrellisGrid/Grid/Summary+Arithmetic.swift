import Foundation
import TrellisText

/// The arithmetic of summaries over one body of rows: what a summary row shows, what a user's own
/// recomputed summary row shows, and whether a pinned 平均 row still says what the body gives.
///
/// Numbers come straight from a table's column storage where the source has one (no `CellValue`
/// per cell), from the source's values otherwise; both give the same digits.
struct SummaryArithmetic {
    let source: GridDataSource
    let storage: ColumnStorageSource?
    /// The body rows (source positions).
    let body: RowList
    /// Whether the body is every row of the source: a column's decimals are then its storage's.
    let bodyIsEveryRow: Bool
    private var decimalsCache: [Int: Int] = [:]
    /// The body's values of a column, for a source without column storage: read once (one read
    /// per cell, which a virtual source keeps for the sort that read it too).
    private var valuesCache: [Int: [CellValue]] = [:]
    /// The body's summaries gathered part by part (a sort in parts), when the body is not in
    /// `source`: `source` then holds only the pinned rows.
    let parts: PartsSummary?

    /// The first answer of the source that no table can be, found while reading the body's
    /// values (see ``GridDataSource/checkedValues(ofColumn:rows:)``): the cells computed from
    /// them are not to be shown.
    private(set) var readProblem: String?

    private mutating func bodyValues(_ column: Int) -> [CellValue] {
        if let known = valuesCache[column] { return known }
        let (values, problem) = source.checkedValues(ofColumn: column, rows: body.array)
        if readProblem == nil { readProblem = problem }
        valuesCache[column] = values
        return values
    }

    init(source: GridDataSource, body: RowList, bodyIsEveryRow: Bool) {
        self.source = source
        storage = source as? ColumnStorageSource
        self.body = body
        self.bodyIsEveryRow = bodyIsEveryRow
        parts = nil
    }

    /// The arithmetic of a body read in parts, whose pinned rows are the rows of `pinned`.
    init(pinned: GridDataSource, parts: PartsSummary) {
        source = pinned
        storage = pinned as? ColumnStorageSource
        body = RowList()
        bodyIsEveryRow = false
        self.parts = parts
    }

    /// The stored storage of `column`, when the source keeps one for it.
    private func store(_ column: Int) -> ColumnStore? {
        guard let storage, column >= 0, column < storage.storeCount else { return nil }
        let store = storage.store(column)
        return store.count >= source.rowCount ? store : nil
    }

    /// The most decimals the body's numbers of `column` are written with: what a summary of it is
    /// written with unless a precision is given.
    mutating func decimals(_ column: Int) -> Int {
        if let parts { return parts.decimals(column) }
        if let known = decimalsCache[column] { return known }
        var digits = 0
        if var store = store(column) {
            if bodyIsEveryRow {
                digits = Int(store.fractionDigits())
            } else {
                // (Through one view of the column: a group's rows are a small part of it.)
                digits = store.withView(uniformity: false) { view in
                    body.withUnsafeBufferPointer { rows in
                        var most = 0
                        for stored in rows where view.isNumber(Int(stored)) {
                            most = max(most, CellText.fractionDigits(view.text(Int(stored))))
                        }
                        return most
                    }
                }
            }
        } else if source is VirtualSource {
            // A virtual source's text is its value written out: an integer has no decimals, and
            // only decimals are written to count theirs.
            for value in bodyValues(column) {
                if case .decimal(let d) = value { digits = max(digits, DecimalFormat.fractionDigits(CellValue.format(d))) }
            }
        } else {
            for (position, value) in bodyValues(column).enumerated() where value.number != nil {
                digits = max(digits, DecimalFormat.fractionDigits(source.text(row: body[position], column: column)))
            }
        }
        decimalsCache[column] = digits
        return digits
    }

    /// `summary`'s cells, by column position; columns the source lacks are left out.
    mutating func cells(of summary: SummaryRow, columns: [Column]) -> [Int: SummaryCell] {
        var cells: [Int: SummaryCell] = [:]
        for name in summary.columns {
            guard let c = columns.firstIndex(where: { $0.identifier == name }) else { continue }
            cells[c] = summarize(summary.function, column: c, decimals: summary.precision ?? decimals(c))
        }
        return cells
    }

    /// A recomputed pinned row's cells: `function` of the body in each number column where the
    /// row itself holds a number — a blank, a label or a note stays as it was — written with
    /// `precision` decimals, or as many as the row's own cell has and at least the column's; a
    /// cell established as a ratio of two other cells of its row (see
    /// ``meaning(row:column:function:columns:)``) is that ratio of their recomputed values. A cell
    /// whose meaning is unknown (a rate neither the function nor a ratio gives) is not written:
    /// it is returned among the cells left.
    mutating func recomputedCells(
        _ function: SummaryFunction, row: Int, reportedAs reported: Int? = nil, label: String = "", precision: Int?,
        columns: [Column]
    ) -> (cells: [Int: SummaryCell], left: [UncheckedSummaryCell]) {
        var cells: [Int: SummaryCell] = [:]
        var left: [UncheckedSummaryCell] = []
        var ratios: [(column: Int, numerator: Int, denominator: Int, scale: Double)] = []
        for (c, column) in columns.enumerated() where column.type.isNumeric {
            guard let (meaning, _) = meaning(row: row, column: c, function: function, columns: columns) else { continue }
            let own = source.text(row: row, column: c)
            switch meaning {
            case .function, .stale: break
            case .ratio(let numerator, let denominator, let scale):
                ratios.append((c, numerator, denominator, scale))
                continue
            case .unknown:
                left.append(
                    UncheckedSummaryCell(
                        row: reported ?? row, label: label.trimmingSpaces(), column: column.identifier,
                        says: own.trimmingSpaces(),
                        function: function.description))
                continue
            }
            let decimals = precision ?? max(DecimalFormat.fractionDigits(own), decimals(c))
            var cell = summarize(function, column: c, decimals: decimals)
            // Written as the row wrote its own number ($1,200.00, 333.740,75, 39,2 %), when it
            // was not a plain one.
            if !function.counts, let value = cell.value.number,
                let styled = DecimalFormat.format(value, decimals: precision, like: own)
            {
                cells[c] = SummaryCell(value: cell.value, text: styled)
                continue
            }
            // An integer result written with the decimals the row asks for (85 → 85.00).
            if case .integer(let i) = cell.value, decimals > 0, !function.counts {
                cell = SummaryCell(value: cell.value, text: DecimalFormat.format(Double(i), decimals: decimals))
            }
            cells[c] = cell
        }
        // A ratio of the row's recomputed cells (or its own, where those were not recomputed).
        for ratio in ratios {
            let own = source.text(row: row, column: ratio.column)
            func value(_ c: Int) -> Double? { cells[c]?.value.number ?? source.value(row: row, column: c).number }
            guard let numerator = value(ratio.numerator), let denominator = value(ratio.denominator), denominator != 0 else { continue }
            let result = numerator / denominator * ratio.scale
            let decimals = precision ?? DecimalFormat.fractionDigits(own)
            let text = DecimalFormat.format(result, decimals: precision, like: own) ?? DecimalFormat.format(result, decimals: decimals)
            cells[ratio.column] = SummaryCell(value: .decimal(result), text: text)
        }
        return (cells, left)
    }

    /// Where a pinned row labelled as a summary (平均, 合计, …) says another number than that
    /// summary of the body (see ``check(row:reportedAs:label:function:columns:)``). Rows whose
    /// label names no summary are not checked.
    /// - Parameter reported: the row as the disagreement names it (the source's position), when
    ///   `row` is where its cells are kept rather than that (a sort in parts keeps pinned rows apart).
    mutating func disagreements(row: Int, reportedAs reported: Int? = nil, label: String, columns: [Column]) -> [SummaryDisagreement] {
        guard let function = SummaryFunction(label: label) else { return [] }
        return check(row: row, reportedAs: reported, label: label, function: function, columns: columns).disagreements
    }

    /// What a summary row's number cells are, each established before it is checked.
    struct Check {
        /// Cells that say another number than what they were established to be.
        var disagreements: [SummaryDisagreement] = []
        /// Cells whose meaning could not be established: not checked, never recomputed.
        var left: [UncheckedSummaryCell] = []

        static func += (result: inout Check, more: Check) {
            result.disagreements += more.disagreements
            result.left += more.left
        }
    }

    /// What one cell of a summary row is.
    enum Meaning {
        /// The label's function of its column over the body.
        case function
        /// Its row's cell of one column over that of another (利润率 = 利润 / 收入), times `scale`
        /// (100 for a rate written as a plain number of percent).
        case ratio(numerator: Int, denominator: Int, scale: Double)
        /// Neither: a rate, share or average the function does not give and no ratio explains.
        case unknown
        /// The label's function does not give it, and the column adds up: a stale number.
        case stale
    }

    /// Establishes what the number cell of `row` in `column` is under a label naming `function`:
    /// the function of the body's cells, compared within the rounding the cells show (a sum of n
    /// cells each rounded to d decimals can be off by n·½·10⁻ᵈ, a mean by ½·10⁻ᵈ, and the row's
    /// own cell by half its last digit); else a ratio of two other cells of the row (a rate
    /// column's 合计 is Σ利润/Σ收入, not the sum of the rates); else unknown for a column of
    /// rates, shares or averages, stale for one that adds up.
    mutating func meaning(row: Int, column c: Int, function: SummaryFunction, columns: [Column]) -> (Meaning, SummaryCell)? {
        guard let says = source.value(row: row, column: c).number else { return nil }
        let saysText = source.text(row: row, column: c)
        let precision = DecimalFormat.fractionDigits(saysText)
        // The value first, written as the cell is: when it agrees so, the decimals the column's
        // rows are written with (a pass over their text) are not needed.
        var computed = summarize(function, column: c, decimals: precision)
        guard let value = computed.value.number else { return nil }
        if DecimalFormat.sameWhenWritten(value, says, decimals: precision) {
            return (.function, computed)
        }
        // (Written as the column's rows are, for the message that names it.)
        computed = summarize(function, column: c, decimals: decimals(c))
        // The cell's decimals count in its value's units (8.7% is 0.087: three); the column's as
        // written, two fewer for a percent.
        let percent = saysText.trimmingSpaces().hasSuffix("%")
        let shift = percent ? 2 : 0
        let ownSlack = 0.5 * Self.power(-precision)
        let cells: Double
        switch function {
        case .sum: cells = summarize(.count, column: c, decimals: 0).value.number ?? 0
        case .mean: cells = 1
        default: cells = 0
        }
        // Whole numbers are taken as exact (a count, an amount in yuan): only cells that show
        // decimals or percents are roundings.
        let written = decimals(c)
        guard written > 0 || percent || precision > 0 else { return (Self.namesRate(columns[c].identifier) ? .unknown : .stale, computed) }
        let slack = cells * 0.5 * Self.power(-(written + shift)) + ownSlack
        if abs(value - says) <= slack * (1 + 1e-9) + 1e-12 { return (.function, computed) }
        let rateLike = percent || Self.namesRate(columns[c].identifier)
        if rateLike || precision > 0 {
            for a in columns.indices where a != c && columns[a].type.isNumeric {
                guard let numerator = source.value(row: row, column: a).number else { continue }
                for b in columns.indices where b != c && b != a && columns[b].type.isNumeric {
                    guard let denominator = source.value(row: row, column: b).number, denominator != 0 else { continue }
                    let ratio = numerator / denominator
                    for times in percent ? [1.0] : [1.0, 100.0] where abs(ratio * times - says) <= ownSlack * (1 + 1e-9) + 1e-12 {
                        return (.ratio(numerator: a, denominator: b, scale: times), computed)
                    }
                }
            }
        }
        return (rateLike ? .unknown : .stale, computed)
    }

    /// Whether a column's name says it holds rates, shares, prices or averages — numbers whose
    /// total is not their sum.
    static func namesRate(_ name: String) -> Bool {
        let lower = name.lowercased()
        return ["率", "比", "占", "%", "％", "均", "单价", "rate", "ratio", "share", "percent", "pct", "margin", "average", "avg", "mean", "price"]
            .contains { lower.contains($0) }
    }

    static func power(_ exponent: Int) -> Double { pow(10, Double(exponent)) }

    /// Checks each number cell of a summary row labelled `label`, which names `function`: a cell
    /// established as the function or a ratio agrees; one that is stale disagrees; one whose
    /// meaning is unknown is left.
    ///
    /// A row whose label names no function (`function` `nil`: SQL's `ROLLUP` shape) has each
    /// cell established as the first of sum, mean, count, least and most that agrees, or a ratio;
    /// a cell none gives is left, never flagged.
    /// (`label` is read only for a cell that disagrees or is left.)
    mutating func check(
        row: Int, reportedAs reported: Int? = nil, label: @autoclosure () -> String, function: SummaryFunction?, columns: [Column]
    ) -> Check {
        var result = Check()
        let shown = reported ?? row
        lazy var trimmed = label().trimmingSpaces()
        for (c, column) in columns.enumerated() where column.type.isNumeric {
            guard let function else {
                var number = false, agrees = false
                for candidate in Self.unnamedFunctions where !agrees {
                    guard let (meaning, _) = meaning(row: row, column: c, function: candidate, columns: columns) else { continue }
                    number = true
                    switch meaning {
                    case .function, .ratio: agrees = true
                    case .stale, .unknown: break
                    }
                }
                if number, !agrees {
                    let says = source.text(row: row, column: c).trimmingSpaces()
                    result.left.append(
                        UncheckedSummaryCell(row: shown, label: trimmed, column: column.identifier, says: says, function: Self.unnamedDescription))
                }
                continue
            }
            guard let (meaning, computed) = meaning(row: row, column: c, function: function, columns: columns) else { continue }
            let says = source.text(row: row, column: c).trimmingSpaces()
            switch meaning {
            case .function, .ratio: break
            case .stale:
                result.disagreements.append(
                    SummaryDisagreement(
                        row: shown, label: trimmed, column: column.identifier, function: function.description,
                        says: says, computed: computed.text))
            case .unknown:
                result.left.append(
                    UncheckedSummaryCell(row: shown, label: trimmed, column: column.identifier, says: says, function: function.description))
            }
        }
        return result
    }

    /// The functions a cell of a row that names none is tried as, in order.
    static let unnamedFunctions: [SummaryFunction] = [.sum, .mean, .count, .min, .max]
    static let unnamedDescription = "sum, mean, count, least or most"

    /// One summary of one column over the body, written with `decimals`.
    mutating func summarize(_ function: SummaryFunction, column: Int, decimals: Int) -> SummaryCell {
        if let parts { return parts.summarize(function, column: column, decimals: decimals) }
        switch function {
        case .count:
            var present = 0
            if let store = store(column) {
                let kinds = store.kinds
                let numeric = source.columns[column].type.isNumeric
                for row in body where kinds[row] != .missing && !(numeric && kinds[row] == .notANumber) { present += 1 }
            } else {
                for value in bodyValues(column) where !value.isMissing { present += 1 }
            }
            return SummaryCell(value: .integer(present), text: String(present))
        case .sum, .mean:
            var adder = NumberSum()
            if let store = store(column) {
                let kinds = store.kinds
                // (The closure's own adder, not a captured one checked for exclusive access at each add.)
                adder = kinds.withUnsafeBufferPointer { kinds in
                    body.withUnsafeBufferPointer { rows in
                        var adder = NumberSum()
                        for stored in rows {
                            let row = Int(stored)
                            switch kinds[row] {
                            case .integer: adder.add(Int64(bitPattern: store.payload(at: row)))
                            case .decimal, .approximate: adder.add(Double(bitPattern: store.payload(at: row)))
                            default: break
                            }
                        }
                        return adder
                    }
                }
            } else {
                for value in bodyValues(column) {
                    switch value {
                    case .integer(let i): adder.add(Int64(i))
                    case .decimal(let d) where d.isFinite: adder.add(d)
                    default: break
                    }
                }
            }
            let value: CellValue
            if case .sum = function { value = adder.sum } else { value = adder.mean }
            switch value {
            case .integer(let i): return SummaryCell(value: value, text: String(i))
            case .decimal(let d): return SummaryCell(value: value, text: DecimalFormat.format(d, decimals: decimals))
            default: return SummaryCell(value: .missing, text: "")
            }
        case .min, .max:
            // One pass over the body's codes: the smallest or largest present value; of equal
            // values written otherwise (2024-12-28 and 12/28/2024), the first in the source, so
            // that the cell is the same whichever way the body is sorted (and in a sort in parts).
            guard !body.isEmpty else { return SummaryCell(value: .missing, text: "") }
            let input = KeyInput(source, column: column, rows: body.array)
            if readProblem == nil { readProblem = input.problem }
            let codes = KeyCodes(input, text: source.columns[column].textComparator, direction: .ascending, nulls: .last)
            var best: Int?
            for position in body.indices
            where ValueKind(input.kinds[position], numericColumn: input.numericColumn) != nil {
                guard let current = best else { best = position; continue }
                let order = codes.compare(position, current)
                if order == .orderedSame {
                    if body[position] < body[current] { best = position }
                } else if case .min = function, order == .orderedAscending {
                    best = position
                } else if case .max = function, order == .orderedDescending {
                    best = position
                }
            }
            guard let best else { return SummaryCell(value: .missing, text: "") }
            return SummaryCell(
                value: source.value(row: body[best], column: column),
                text: source.text(row: body[best], column: column))
        case .custom:
            let result = function.apply(bodyValues(column))
            return SummaryCell(value: result, text: result.description)
        }
    }
}
