import Foundation

/// One cell of a table: a typed value or missing.
///
/// ```swift
/// CellValue.parse("42", as: .integer)    // .integer(42)
/// CellValue.parse("", as: .decimal)      // .missing
/// CellValue.parse("NaN", as: .decimal)   // .missing: NaN counts as missing
/// ```
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

    /// The kinds in the order mixed columns sort them: numbers (integers, decimals and dates) <
    /// text < booleans < errors.
    public var kindRank: Int {
        switch self {
        case .integer, .decimal, .date: return 0
        case .text: return 1
        case .boolean: return 2
        case .error: return 3
        case .missing: return 4
        }
    }

    /// The value as written in a table or a CSV file.
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

    /// A decimal in the shortest form that reads back the same, without a trailing `.0`.
    public static func format(_ value: Double) -> String {
        guard value.isFinite else { return "" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// A date as `yyyy-MM-dd`, or `yyyy-MM-ddTHH:mm:ss` when it has a time (UTC).
    public static func format(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let day = String(format: "%04d-%02d-%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
        if (c.hour ?? 0) == 0 && (c.minute ?? 0) == 0 && (c.second ?? 0) == 0 { return day }
        return day + String(format: "T%02d:%02d:%02d", c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
    }

    /// Spreadsheet error literals, read as `.error` in columns that are not text.
    public static let errorLiterals: Set<String> = ["#N/A", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#NULL!"]

    /// Reads `text` as a value of `type`. Empty or blank text is missing; so is `NaN` in a
    /// numeric column. Text that is not of the type keeps its text (the column becomes mixed),
    /// except error literals, which become errors.
    public static func parse(_ text: String, as type: ColumnType) -> CellValue {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return .missing }
        switch type {
        case .text: return .text(text)
        case .integer:
            if let i = Int(trimmed) { return .integer(i) }
        case .decimal:
            if trimmed.lowercased() == "nan" { return .missing }
            if let d = parseDecimal(trimmed) { return d.isNaN ? .missing : .decimal(d) }
        case .boolean:
            if let b = parseBoolean(trimmed) { return .boolean(b) }
        case .date:
            if let d = parseDate(trimmed) { return .date(d) }
        }
        if errorLiterals.contains(trimmed) { return .error(trimmed) }
        return .text(text)
    }

    static func parseDecimal(_ s: String) -> Double? {
        guard let first = s.unicodeScalars.first, first == "-" || first == "+" || first == "." || ("0"..."9").contains(first)
        else { return nil }
        guard let d = Double(s), d.isFinite else { return nil }
        return d
    }

    static func parseBoolean(_ s: String) -> Bool? {
        switch s.lowercased() {
        case "true": return true
        case "false": return false
        default: return nil
        }
    }

    /// `yyyy-MM-dd` or `yyyy-MM-ddTHH:mm[:ss]` (a space may stand for the `T`), read as UTC.
    static func parseDate(_ s: String) -> Date? {
        let parts = s.split(whereSeparator: { $0 == "T" || $0 == " " })
        guard parts.count == 1 || parts.count == 2 else { return nil }
        let day = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        guard day.count == 3, day[0].count == 4, day[1].count == 2, day[2].count == 2,
              let y = Int(day[0]), let m = Int(day[1]), let d = Int(day[2]), (1...12).contains(m), (1...31).contains(d)
        else { return nil }
        var hour = 0, minute = 0, second = 0
        if parts.count == 2 {
            let time = parts[1].split(separator: ":", omittingEmptySubsequences: false)
            guard time.count == 2 || time.count == 3, time.allSatisfy({ $0.count == 2 }),
                  let h = Int(time[0]), let mi = Int(time[1]), (0...23).contains(h), (0...59).contains(mi) else { return nil }
            hour = h
            minute = mi
            if time.count == 3 {
                guard let sec = Int(time[2]), (0...59).contains(sec) else { return nil }
                second = sec
            }
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(year: y, month: m, day: d, hour: hour, minute: minute, second: second)
        guard let date = calendar.date(from: components),
              calendar.component(.day, from: date) == d else { return nil }   // 2026-02-30 is not a date
        return date
    }
}

/// The type of a column's values.
public enum ColumnType: String, Hashable, Sendable, CaseIterable {
    case integer, decimal, text, boolean, date

    /// The type that fits every non-missing value of `texts`: integer, then decimal, boolean and
    /// date; text when none fits all.
    public static func infer<S: Sequence>(_ texts: S) -> ColumnType where S.Element == String {
        var candidates: [ColumnType] = [.integer, .decimal, .boolean, .date]
        var sawValue = false
        for text in texts {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            if CellValue.errorLiterals.contains(trimmed) { continue }
            sawValue = true
            candidates.removeAll { type in
                switch type {
                case .integer: return Int(trimmed) == nil
                case .decimal: return CellValue.parseDecimal(trimmed) == nil && trimmed.lowercased() != "nan"
                case .boolean: return CellValue.parseBoolean(trimmed) == nil
                case .date: return CellValue.parseDate(trimmed) == nil
                case .text: return false
                }
            }
            if candidates.isEmpty { return .text }
        }
        return sawValue ? candidates[0] : .text
    }
}
