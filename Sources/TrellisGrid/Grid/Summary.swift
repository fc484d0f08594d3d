import Foundation
import TrellisText

/// How a summary row combines a column's body values.
public enum SummaryFunction: Sendable, CustomStringConvertible {
    case mean, sum, count, min, max
    /// Any function of the column's non-missing values, with a name for the label.
    case custom(String, @Sendable ([CellValue]) -> CellValue)

    public var description: String {
        switch self {
        case .mean: return "mean"
        case .sum: return "sum"
        case .count: return "count"
        case .min: return "min"
        case .max: return "max"
        case .custom(let name, _): return name
        }
    }

    /// Parses `mean`, `sum`, `count`, `min` or `max` (in any case).
    public init?(name: String) {
        switch name.lowercased() {
        case "mean", "average", "avg": self = .mean
        case "sum", "total": self = .sum
        case "count": self = .count
        case "min": self = .min
        case "max": self = .max
        default: return nil
        }
    }

    /// Whether the function counts cells (its result is a number of cells, never written with decimals).
    var counts: Bool {
        if case .count = self { return true }
        return false
    }

    /// The function a summary row's label names, as spreadsheets label them: 平均 / average /
    /// mean (Mittelwert, Durchschnitt, moyenne, promedio), 合计 / 总计 / sum / total (Summe,
    /// Gesamt, somme, suma), 最大 / max, 最小 / min, 计数 / count; `nil` for any other label.
    public init?(label: String) {
        let word = label.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        switch word {
        case "平均", "平均值", "平均分", "均值", "average", "avg", "mean",
            "mittel", "mittelwert", "durchschnitt", "moyenne", "promedio", "media":
            self = .mean
        case "合计", "总计", "总和", "总分", "小计", "sum", "total", "summe", "gesamt", "somme", "suma": self = .sum
        case "最大", "最大值", "最高", "最高分", "max", "maximum": self = .max
        case "最小", "最小值", "最低", "最低分", "min", "minimum": self = .min
        case "计数", "人数", "count": self = .count
        default: return nil
        }
    }

    /// The function applied to one column's values (missing values are skipped). Mean and sum
    /// use the numbers; min and max follow the standard sort order; count counts present values.
    ///
    /// - Complexity: O(n).
    public func apply(_ values: [CellValue]) -> CellValue {
        switch self {
        case .count: return .integer(values.reduce(0) { $1.isMissing ? $0 : $0 + 1 })
        case .sum, .mean:
            var adder = NumberSum()
            for value in values {
                switch value {
                case .integer(let i): adder.add(Int64(i))
                case .decimal(let d) where d.isFinite: adder.add(d)
                default: break
                }
            }
            if case .sum = self { return adder.sum }
            return adder.mean
        case .min, .max:
            var best: CellValue?
            for value in values where !value.isMissing {
                guard let current = best else { best = value; continue }
                let order = SortEngine.standardCompare(value, current)
                if case .min = self, order == .orderedAscending { best = value }
                if case .max = self, order == .orderedDescending { best = value }
            }
            return best ?? .missing
        case .custom(_, let function): return function(values.filter { !$0.isMissing })
        }
    }
}

/// A summary row: one function over the body's values of some columns, shown pinned, with a
/// label in the first other column.
///
/// ```swift
/// SummaryRow(label: "平均", .mean, columns: ["分数"])   // 平均 … 81.4 (the column's one decimal)
/// SummaryRow(.sum, columns: ["分数"], precision: 2)    // sum … 976.50
/// ```
public struct SummaryRow: Sendable {
    public var function: SummaryFunction
    public var columns: [String]
    /// The edge it is shown at: the bottom (the default) or the top.
    public var edge: PinEdge
    /// The text shown in the first column the function does not fill; the function's name when
    /// `nil`.
    public var label: String?
    /// How many decimals its numbers are written with; `nil`: as many as the column's numbers
    /// have at most.
    public var precision: Int?

    public init(
        _ function: SummaryFunction, columns: [String], edge: PinEdge = .bottom, label: String? = nil,
        precision: Int? = nil
    ) {
        self.function = function
        self.columns = columns
        self.edge = edge
        self.label = label
        self.precision = precision.map { Swift.max(0, Swift.min($0, 20)) }
    }

    public init(
        label: String, _ function: SummaryFunction, columns: [String], edge: PinEdge = .bottom,
        precision: Int? = nil
    ) {
        self.init(function, columns: columns, edge: edge, label: label, precision: precision)
    }
}

/// A pinned row whose label names a summary (平均, total, …) and whose number differs from that
/// summary of the body, at the row's own precision.
public struct SummaryDisagreement: Equatable, Sendable, CustomStringConvertible {
    /// The row, as a position in the source.
    public let row: Int
    public let label: String
    public let column: String
    public let function: String
    /// What the row says, and what the body gives (written with the column's decimals).
    public let says: String
    public let computed: String

    /// `平均 says 81.375; the mean of the other rows is 84.67`.
    public var description: String {
        "\(Excerpt.of(label)) says \(Excerpt.of(says)) in \(Excerpt.of(column)); the \(function) of the other rows is \(computed)"
    }
}

/// A cell of a summary row whose meaning could not be established: a rate, share or average
/// that is neither the row's function of its column nor a ratio of two other cells of its row.
/// It is left as it is — not checked, never recomputed.
public struct UncheckedSummaryCell: Equatable, Sendable, CustomStringConvertible {
    /// The row, as a position in the source.
    public let row: Int
    public let label: String
    public let column: String
    /// What the cell says.
    public let says: String
    /// The function the row's label names.
    public let function: String

    /// `合计's 利润率 (8.7%) is not the sum of its column nor a ratio of two cells of its row`.
    public var description: String {
        "\(Excerpt.of(label))'s \(Excerpt.of(column)) (\(Excerpt.of(says))) is neither the \(function) of its column "
            + "nor a ratio of two other cells of its row; left as it is, unchecked"
    }
}

/// A summary's value and the text it is shown with.
struct SummaryCell: Sendable {
    var value: CellValue
    var text: String
}

/// A sum of integers, exact while it fits 64 bits, and of decimals, compensated (Neumaier).
struct NumberSum {
    private var integerTotal: Int64 = 0
    private var integersExact = true
    private var total = 0.0, compensation = 0.0
    private var sawDecimal = false
    private(set) var count = 0

    mutating func add(_ value: Int64) {
        count += 1
        if integersExact {
            let (sum, overflow) = integerTotal.addingReportingOverflow(value)
            if overflow {
                integersExact = false
                addDouble(Double(integerTotal))
                integerTotal = 0
                addDouble(Double(value))
            } else {
                integerTotal = sum
            }
        } else {
            addDouble(Double(value))
        }
    }

    mutating func add(_ value: Double) {
        count += 1
        sawDecimal = true
        addDouble(value)
    }

    private mutating func addDouble(_ value: Double) {
        // Neumaier's compensation, the larger of the two chosen without a branch (which the
        // signs and sizes of a column's values would mispredict half the time).
        let t = total + value
        let totalLarger = abs(total) >= abs(value)
        let large = totalLarger ? total : value, small = totalLarger ? value : total
        compensation += (large - t) + small
        total = t
    }

    private var double: Double { Double(integerTotal) + total + compensation }

    var sum: CellValue {
        guard count > 0 else { return .missing }
        return !sawDecimal && integersExact ? .integer(Int(integerTotal)) : .decimal(double)
    }

    var mean: CellValue { count > 0 ? .decimal(double / Double(count)) : .missing }
}

/// Numbers written with a fixed number of decimals, rounded half away from zero on the exact
/// value of the double (as spreadsheets round), without a `-` on a zero.
package enum DecimalFormat {
    /// Whether `a` and `b` are written alike with `decimals` decimals (``format(_:decimals:)``
    /// of each, compared): decided on the scaled doubles where each is far enough from a half
    /// for the rounding of the scaling not to matter, else by writing both.
    static func sameWhenWritten(_ a: Double, _ b: Double, decimals: Int) -> Bool {
        guard a.isFinite, b.isFinite else { return format(a, decimals: decimals) == format(b, decimals: decimals) }
        let decimals = max(0, min(decimals, 20))
        let scale = SummaryArithmetic.power(decimals)
        let x = a * scale, y = b * scale
        // The scale is exact, so each product is off the exact one by at most half its last
        // place (|v|·2⁻⁵³); a product farther than twice that from a half rounds as the exact
        // one does. (Its fraction is computed exactly.)
        guard abs(x) < 0x1p50, abs(y) < 0x1p50 else { return format(a, decimals: decimals) == format(b, decimals: decimals) }
        func clear(_ v: Double) -> Bool { abs(abs(v - v.rounded(.towardZero)) - 0.5) > abs(v) * 0x1p-51 }
        guard clear(x), clear(y) else { return format(a, decimals: decimals) == format(b, decimals: decimals) }
        // Rounded half away from zero, as written; −0 and +0 are written alike.
        return x.rounded(.toNearestOrAwayFromZero) == y.rounded(.toNearestOrAwayFromZero)
    }

    package static func format(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "" }
        let decimals = max(0, min(decimals, 20))
        let exact = ExactDecimal(value)
        // The digit of each power of ten, from the highest of the integer part down to one past
        // the last decimal (for rounding): value = 0.d₁d₂… × 10^E, so dᵢ is the digit of 10^(E−i).
        var digits: [UInt8] = []
        let top = max(exact.exponent, 1) - 1
        for power in stride(from: top, through: -(decimals + 1), by: -1) {
            let i = exact.exponent - power
            digits.append(i >= 1 && i <= exact.digits.count ? exact.digits[i - 1] : 0)
        }
        let roundUp = digits.removeLast() >= 5
        if roundUp {
            var k = digits.count - 1
            while k >= 0 {
                if digits[k] == 9 { digits[k] = 0; k -= 1 } else { digits[k] += 1; break }
            }
            if k < 0 { digits.insert(1, at: 0) }
        }
        let integerDigits = digits.count - decimals
        var integerPart = digits[..<integerDigits].map { Character(String($0)) }
        while integerPart.count > 1, integerPart.first == "0" { integerPart.removeFirst() }
        var text = integerPart.isEmpty ? "0" : String(integerPart)
        if decimals > 0 { text += "." + String(digits[integerDigits...].map { Character(String($0)) }) }
        let isZero = digits.allSatisfy { $0 == 0 }
        return exact.negative && !isZero ? "-" + text : text
    }

    /// How many digits follow the point in a number's text (`88.50` → 2, `1e3` → 0).
    static func fractionDigits(_ text: String) -> Int {
        Int(CellText.classify(text).fractionDigits)
    }

    /// `value` written as `template` writes its number — the same currency sign or percent, the
    /// same grouping and decimal mark, an accounting negative in parentheses — with `decimals`
    /// decimals, or as many as the template shows when `decimals` is `nil`: what a recomputed
    /// cell of `$1,200.00`, `333.740,75` or `39,2 %` is written as. `nil` when the template is a
    /// plain number (or none), which ``format(_:decimals:)`` writes.
    static func format(_ value: Double, decimals: Int?, like template: String) -> String? {
        guard value.isFinite else { return nil }
        let characters = Array(template.trimmingSpaces())
        guard let first = characters.firstIndex(where: { $0.isASCII && $0.isNumber }),
            let last = characters.lastIndex(where: { $0.isASCII && $0.isNumber })
        else { return nil }
        let body = characters[first...last]
        var prefix = String(characters[..<first]), suffix = String(characters[(last + 1)...])
        let separators = body.filter { !($0.isASCII && $0.isNumber) }
        let percent = suffix.trimmingSpaces().hasSuffix("%")
        let parentheses = prefix.contains("(") && suffix.contains(")")
        // Nothing but digits, a sign and a point: a plain number.
        if separators.allSatisfy({ $0 == "." }), separators.count <= 1, !percent, !parentheses,
            prefix.allSatisfy({ $0 == "-" || $0 == "+" }), suffix.isEmpty
        {
            return nil
        }
        // The decimal mark: the last separator where it can be one (as the reader decides).
        var mark: Character?
        if let lastSeparator = separators.last, lastSeparator == "," || lastSeparator == "." {
            let after = body.count - 1 - body.lastIndex(of: lastSeparator)!.advanced(by: -first)
            if separators.contains(",") && separators.contains(".") {
                mark = lastSeparator
            } else if separators.filter({ $0 == lastSeparator }).count == 1 && after != 3 {
                mark = lastSeparator
            } else if lastSeparator == "," && separators.contains(where: { $0 == " " || $0 == "\u{00A0}" || $0 == "\u{202F}" }) {
                mark = ","
            }
        }
        let group = separators.first { $0 != mark }
        let shown = mark.map { m in body.count - 1 - body.lastIndex(of: m)!.advanced(by: -first) } ?? 0
        let scaled = percent ? value * 100 : value
        let plain = format(abs(scaled), decimals: decimals ?? shown)
        let parts = plain.split(separator: ".", omittingEmptySubsequences: false)
        var integer = String(parts[0])
        if let group, integer.count > 3 {
            var grouped = ""
            for (k, digit) in integer.enumerated() {
                if k > 0, (integer.count - k) % 3 == 0 { grouped.append(group) }
                grouped.append(digit)
            }
            integer = grouped
        }
        var number = integer
        if parts.count > 1 { number += String(mark ?? ".") + parts[1] }
        prefix.removeAll { $0 == "-" || $0 == "+" || $0 == "(" }
        suffix.removeAll { $0 == ")" }
        let negative = scaled < 0 && plain.contains(where: { $0 != "0" && $0 != "." })
        if negative && parentheses { return "(" + prefix + number + suffix + ")" }
        return (negative ? "-" : "") + prefix + number + suffix
    }
}
