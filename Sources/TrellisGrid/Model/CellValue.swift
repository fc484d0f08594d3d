import Foundation
import TrellisText

/// One cell of a table as a typed value, or missing.
///
/// ```swift
/// CellValue.parse("42")        // .integer(42)
/// CellValue.parse(" 88.5 ")    // .decimal(88.5)
/// CellValue.parse("缺考")      // .text("缺考")
/// CellValue.parse("")          // .missing
/// ```
///
/// A value is what a cell *means*; what it *says* — `007`, `1.50`, `+5` — is its text, which a
/// source keeps and every renderer writes back (``GridDataSource/text(row:column:)``).
public enum CellValue: Hashable, Sendable, CustomStringConvertible {
    /// No value: an empty cell, or a number that is not a number (NaN).
    case missing
    case integer(Int)
    case decimal(Double)
    case text(String)
    case boolean(Bool)
    /// A date, as seconds since 1970 (UTC).
    case date(Date)
    /// A spreadsheet error literal such as `#DIV/0!`.
    case error(String)

    /// Whether the value is missing.
    public var isMissing: Bool { if case .missing = self { true } else { false } }

    /// The value as a number, when it is one (integers, decimals and dates).
    public var number: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .decimal(let d): return d
        case .date(let d): return d.timeIntervalSince1970
        default: return nil
        }
    }

    /// The value written out: what a cell that was given as a value (not read from text) shows.
    public var description: String {
        switch self {
        case .missing: return ""
        case .integer(let i): return String(i)
        case .decimal(let d): return Self.format(d)
        case .text(let s): return s
        case .boolean(let b): return b ? "true" : "false"
        case .date(let d): return Self.format(d)
        case .error(let e): return e
        }
    }

    /// Reads text as a spreadsheet reads a typed cell (see ``ColumnType`` for the rules); with
    /// `type`, only values of that type are read and other text stays text.
    public static func parse(_ text: String, as type: ColumnType? = nil) -> CellValue {
        let cell = CellText.classify(text, as: type)
        return CellValue(cell, text: text, numericColumn: type == nil || type == .integer || type == .decimal)
    }

    /// Reads text on its own, as a CSV cell is read, in a column of `type`: a number, a date, a
    /// truth value, an error literal, a blank or text — `NaN` being a missing number in a number
    /// column and text elsewhere. What a database's text column holds is read so.
    public static func parse(_ text: String, inColumnOf type: ColumnType) -> CellValue {
        CellValue(CellText.classify(text), text: text, numericColumn: type.isNumeric)
    }

    /// The value of a classified cell whose text is `text`.
    init(_ cell: ClassifiedCell, text: @autoclosure () -> String, numericColumn: Bool) {
        switch cell.kind {
        case .missing: self = .missing
        case .integer: self = .integer(Int(Int64(bitPattern: cell.payload)))
        case .decimal, .approximate: self = .decimal(Double(bitPattern: cell.payload))
        case .date: self = .date(Date(timeIntervalSince1970: Double(bitPattern: cell.payload)))
        case .boolean: self = .boolean(cell.payload != 0)
        case .text: self = .text(text())
        case .error: self = .error(text().trimmingSpaces())
        case .notANumber: self = numericColumn ? .missing : .text(text())
        }
    }

    /// A decimal in the shortest form that reads back the same, without a trailing `.0`.
    public static func format(_ value: Double) -> String {
        guard value.isFinite else { return "" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// A date as `yyyy-MM-dd`, or `yyyy-MM-ddTHH:mm:ss` when it has a time (UTC).
    public static func format(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        let (y, m, d) = civil(fromDays: days)
        let day = String(format: "%04d-%02d-%02d", y, m, d)
        guard time != 0 else { return day }
        return day + String(format: "T%02d:%02d:%02d", time / 3600, time / 60 % 60, time % 60)
    }

    /// The proleptic Gregorian date `days` after 1970-01-01.
    package static func civil(fromDays days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// Spreadsheet error literals, read as errors in every column but a text one.
    public static let errorLiterals: Set<String> = ["#N/A", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#NULL!"]
}

/// The type of a column's values: what most of its cells hold.
///
/// Each cell is read on its own, as a spreadsheet does: a number (`-3`, `88.25`, `1e3`, `007`,
/// `1.2万`), a date (`2026-11-30`, `2026-11-30T08:00`), a truth value (`TRUE`, `false`), an error
/// literal (`#N/A`), or text. A column's type is the kind most of its non-blank cells have (text
/// on a tie); the cells of other kinds keep their own kind and sort among their kind, in the
/// order numbers < dates < text < truth values < errors. `NaN` is a missing number in a numeric
/// column and text elsewhere.
public enum ColumnType: String, Hashable, Sendable, CaseIterable {
    case integer, decimal, text, boolean, date

    /// Whether the type is a number type.
    public var isNumeric: Bool { self == .integer || self == .decimal }

    /// The type most of `texts` have.
    public static func infer<S: Sequence>(_ texts: S) -> ColumnType where S.Element == String {
        var census = KindCensus()
        for text in texts { census.count(CellText.classify(text)) }
        return census.type
    }
}

/// How many cells of each kind a column holds: what its type is inferred from.
struct KindCensus {
    var integers = 0, decimals = 0, dates = 0, booleans = 0, texts = 0

    mutating func count(_ cell: ClassifiedCell) {
        switch cell.kind {
        case .integer: integers += 1
        case .approximate: if cell.integral { integers += 1 } else { decimals += 1 }
        case .decimal: decimals += 1
        case .date: dates += 1
        case .boolean: booleans += 1
        case .text: texts += 1
        case .missing, .error, .notANumber: break
        }
    }

    mutating func add(_ other: KindCensus) {
        integers += other.integers
        decimals += other.decimals
        dates += other.dates
        booleans += other.booleans
        texts += other.texts
    }

    var type: ColumnType {
        let numbers = integers + decimals
        let best = max(numbers, dates, booleans)
        guard best > texts else { return .text }
        if numbers == best { return decimals > 0 ? .decimal : .integer }
        if dates == best { return .date }
        return .boolean
    }
}
