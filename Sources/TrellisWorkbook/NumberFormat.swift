import Foundation

/// A cell's number format — the code a spreadsheet applies to show a number (`0.00%`,
/// `#,##0.00`, `yyyy/m/d`, `[$¥-804]#,##0.00`, `yyyy"年"m"月"d"日"`) — read as Excel and
/// LibreOffice read it, and applied to a value to give the text they show.
///
/// ```swift
/// NumberFormat("0.00%").format(0.88666)           // "88.67%"
/// NumberFormat("[$¥-804]#,##0.00").format(1200)  // "¥1,200.00"
/// NumberFormat("yyyy/m/d").format(45352)         // "2024/3/1"
/// ```
///
/// A code has up to four sections separated by `;` (positive; negative; zero; text), or sections
/// chosen by conditions (`[>=100]`). Digit placeholders `0 # ?`, the point, grouping and scaling
/// commas, `%`, scientific `E+00`, fractions `# ?/?`, quoted and escaped literals, `_x` (a space),
/// `*x` (fill, dropped), colours, locales and currency symbols in brackets, and the date and time
/// codes (`y m d h s`, `AM/PM`, `上午/下午`, `[h]` elapsed, `.00` seconds, `aaaa` 星期) are read;
/// numbers are rounded half away from zero on their decimal digits, as the programs round them.
public struct NumberFormat: Sendable, Equatable {
    /// The format code as the workbook has it.
    public let code: String
    let sections: [Section]

    /// Whether the format shows a date or a time: its cells' values are dates.
    public let isDate: Bool
    /// Whether it is the text format (`@`): a number in it is shown as General.
    public let isText: Bool
    /// Whether it shows a number as General does.
    public let isGeneral: Bool
    /// Whether a section of it shows text (`@`), so that a text cell is shown through it.
    let hasTextSection: Bool

    public init(_ code: String) {
        self.code = code
        sections = Self.sections(of: code)
        isDate = sections.first?.isDate ?? false
        isText = sections.count == 1 && sections[0].tokens == [.text]
        isGeneral = sections.count == 1 && sections[0].tokens == [.general]
        hasTextSection = sections.contains { $0.tokens.contains(.text) }
    }

    /// General: what a cell with no format shows.
    public static let general = NumberFormat("General")

    // MARK: Showing a value

    /// The text a cell holding `value` shows. Dates are serials of the 1900 date system, or of
    /// the 1904 one with `date1904`.
    public func format(_ value: Double, date1904: Bool = false) -> String {
        guard value.isFinite else { return "#NUM!" }
        guard let (section, signed) = section(for: value), section.tokens != [.text] else { return Self.general(value) }
        if section.isDate {
            guard value >= 0, value < 2_958_466 else { return Self.general(value) }
            return section.formatDate(value, date1904: date1904)
        }
        return section.formatNumber(signed ? value : abs(value))
    }

    /// The text a text cell holding `text` shows: the format's text section applied, if it has
    /// one, or the text as it is.
    public func format(text: String) -> String {
        guard hasTextSection else { return text }
        let textSection = sections.count >= 4 ? sections[3] : sections.first { $0.tokens.contains(.text) }
        guard let textSection, textSection.tokens.contains(.text) else { return text }
        var out = ""
        for token in textSection.tokens {
            switch token {
            case .literal(let s): out += s
            case .text: out += text
            default: break
            }
        }
        return out
    }

    /// The section that shows `value`, and whether it shows its sign.
    private func section(for value: Double) -> (Section, signed: Bool)? {
        let numeric = sections.enumerated().filter { $0.offset < 3 && !($0.element.tokens == [.text] && $0.offset > 0) }.map(\.element)
        guard !numeric.isEmpty else { return nil }
        if numeric.contains(where: { $0.condition != nil }) {
            // Sections chosen by their conditions; one without a condition takes the rest. A
            // section for negatives only shows them without their sign, as the second section does.
            let chosen = numeric.first { $0.condition?.holds(value) ?? true } ?? numeric[numeric.count - 1]
            return (chosen, !(chosen.condition?.selectsNegatives ?? false))
        }
        switch numeric.count {
        case 1: return (numeric[0], true)
        case 2: return value < 0 ? (numeric[1], false) : (numeric[0], true)
        default: return value < 0 ? (numeric[1], false) : value == 0 ? (numeric[2], true) : (numeric[0], true)
        }
    }

    /// A number as General shows it: up to 11 characters' worth of digits (the point and the
    /// sign not counted against the integer part), scientific past 10¹¹ or below 10⁻⁹.
    public static func general(_ value: Double) -> String {
        guard value.isFinite else { return "#NUM!" }
        if value == value.rounded(), abs(value) < 1e11 { return String(Int64(value)) }
        let magnitude = abs(value)
        if magnitude >= 1e11 || magnitude < 1e-9 {
            var d = DecimalDigits(value)
            d.round(significant: 6)
            let e = d.exponent - 1
            var mantissa = DecimalDigits(digits: d.digits, exponent: 1, negative: d.negative)
            mantissa.round(places: 5)
            var out = d.negative ? "-" : ""
            out += String(mantissa.integerDigits.map { Character(Unicode.Scalar($0 + 0x30)) })
            if mantissa.fractionCount > 0 {
                out += "." + String(mantissa.fractionDigits(mantissa.fractionCount).map { Character(Unicode.Scalar($0 + 0x30)) })
            }
            out += e < 0 ? "E-" : "E+"
            let exponent = String(abs(e))
            return out + (exponent.count < 2 ? "0" + exponent : exponent)
        }
        var d = DecimalDigits(value)
        let integerWidth = max(1, d.exponent)
        d.round(places: max(0, 10 - integerWidth))
        var out = d.negative && !d.isZero ? "-" : ""
        out += String(d.integerDigits.map { Character(Unicode.Scalar($0 + 0x30)) })
        if d.fractionCount > 0 {
            out += "." + String(d.fractionDigits(d.fractionCount).map { Character(Unicode.Scalar($0 + 0x30)) })
        }
        return out
    }

    // MARK: Built-in formats

    /// The code of a built-in format (`numFmtId` below 164 that a workbook need not spell out),
    /// as a Chinese (zh-CN) Excel shows it: the short date is `yyyy/m/d`, and the ids Excel keeps
    /// for East Asian forms are the zh-CN ones. `nil` for an id with no built-in format.
    public static func builtIn(_ id: Int) -> String? {
        switch id {
        case 0: "General"
        case 1: "0"
        case 2: "0.00"
        case 3: "#,##0"
        case 4: "#,##0.00"
        case 5: "\"¥\"#,##0;\"¥\"-#,##0"
        case 6: "\"¥\"#,##0;[Red]\"¥\"-#,##0"
        case 7: "\"¥\"#,##0.00;\"¥\"-#,##0.00"
        case 8: "\"¥\"#,##0.00;[Red]\"¥\"-#,##0.00"
        case 9: "0%"
        case 10: "0.00%"
        case 11: "0.00E+00"
        case 12: "# ?/?"
        case 13: "# ??/??"
        case 14: "yyyy/m/d"
        case 15: "d-mmm-yy"
        case 16: "d-mmm"
        case 17: "mmm-yy"
        case 18: "h:mm AM/PM"
        case 19: "h:mm:ss AM/PM"
        case 20: "h:mm"
        case 21: "h:mm:ss"
        case 22: "yyyy/m/d h:mm"
        case 27, 36, 50, 57: "yyyy\"年\"m\"月\""
        case 28, 29, 54, 58: "m\"月\"d\"日\""
        case 30: "m-d-yy"
        case 31: "yyyy\"年\"m\"月\"d\"日\""
        case 32: "h\"时\"mm\"分\""
        case 33: "h\"时\"mm\"分\"ss\"秒\""
        case 34, 52: "上午/下午h\"时\"mm\"分\""
        case 35, 53, 55, 56: "上午/下午h\"时\"mm\"分\"ss\"秒\""
        case 37: "#,##0 ;(#,##0)"
        case 38: "#,##0 ;[Red](#,##0)"
        case 39: "#,##0.00;(#,##0.00)"
        case 40: "#,##0.00;[Red](#,##0.00)"
        case 41: "_(* #,##0_);_(* (#,##0);_(* \"-\"_);_(@_)"
        case 42: "_(\"$\"* #,##0_);_(\"$\"* (#,##0);_(\"$\"* \"-\"_);_(@_)"
        case 43: "_(* #,##0.00_);_(* (#,##0.00);_(* \"-\"??_);_(@_)"
        case 44: "_(\"$\"* #,##0.00_);_(\"$\"* (#,##0.00);_(\"$\"* \"-\"??_);_(@_)"
        case 45: "mm:ss"
        case 46: "[h]:mm:ss"
        case 47: "mm:ss.0"
        case 48: "##0.0E+0"
        case 49: "@"
        default: nil
        }
    }
}

// MARK: Sections and tokens

extension NumberFormat {
    enum Token: Equatable {
        case literal(String)
        /// A digit placeholder: `0`, `#` or `?`.
        case digit(UInt8)
        case point
        /// A comma among the integer digits (grouping) or after them (scaling by 1,000).
        case comma
        case percent
        /// `E+`/`E-` (true: `+`, which shows the sign of a positive exponent).
        case exponent(Bool)
        /// `/` between a fraction's numerator and denominator.
        case slash
        /// A fixed denominator (`# ?/16`).
        case denominator(Int)
        case general
        case text
        case year(Int)
        /// `m` (1–5 letters): a month, or minutes where it follows hours or precedes seconds.
        case month(Int)
        case minute(Int)
        case day(Int)
        case hour(Int)
        case second(Int)
        /// `[h]`, `[m]`, `[s]`: elapsed time, not wrapped.
        case elapsed(Character, Int)
        /// `.0`, `.00`, `.000` after seconds.
        case fractionOfSecond(Int)
        /// `AM/PM`, `A/P` (with their case), `上午/下午`.
        case meridiem(String, String)
        /// `aaa`, `aaaa`: the Chinese weekday (五, 星期五).
        case chineseWeekday(Int)
    }

    struct Condition: Equatable {
        var op: String
        var operand: Double

        func holds(_ v: Double) -> Bool {
            switch op {
            case "<": v < operand
            case "<=": v <= operand
            case ">": v > operand
            case ">=": v >= operand
            case "<>": v != operand
            default: v == operand
            }
        }

        /// Whether it takes negative numbers only.
        var selectsNegatives: Bool { (op == "<" && operand <= 0) || (op == "<=" && operand < 0) }
    }

    struct Section: Equatable {
        var tokens: [Token] = []
        var condition: Condition?
        var chinese = false

        var isDate: Bool {
            tokens.contains {
                switch $0 {
                case .year, .month, .minute, .day, .hour, .second, .elapsed, .chineseWeekday: true
                default: false
                }
            }
        }
    }

    static func sections(of code: String) -> [Section] {
        var sections: [Section] = []
        var current = Section()
        let chars = Array(code)
        var i = 0
        var literal = ""
        func flush() {
            if !literal.isEmpty {
                current.tokens.append(.literal(literal))
                literal = ""
            }
        }
        func count(_ c: Character) -> Int {
            var n = 0
            while i + n < chars.count, chars[i + n].lowercased() == c.lowercased() { n += 1 }
            return n
        }
        func ahead(_ text: String) -> Bool {
            let t = Array(text)
            guard i + t.count <= chars.count else { return false }
            return zip(chars[i..<(i + t.count)], t).allSatisfy { $0.lowercased() == $1.lowercased() }
        }
        while i < chars.count {
            let c = chars[i]
            switch c {
            case ";":
                flush()
                sections.append(current)
                current = Section()
                i += 1
            case "\"":
                var k = i + 1
                while k < chars.count, chars[k] != "\"" {
                    literal.append(chars[k])
                    k += 1
                }
                i = k + 1
            case "\\":
                if i + 1 < chars.count { literal.append(chars[i + 1]) }
                i += 2
            case "_":
                literal.append(" ")
                i += 2
            case "*":
                i += 2
            case "[":
                var k = i + 1
                var inside = ""
                while k < chars.count, chars[k] != "]" {
                    inside.append(chars[k])
                    k += 1
                }
                i = k + 1
                let lower = inside.lowercased()
                if let first = lower.first, "hms".contains(first), inside.allSatisfy({ $0.lowercased() == String(first) }) {
                    flush()
                    current.tokens.append(.elapsed(first, inside.count))
                } else if inside.hasPrefix("$") {
                    // [$¥-804]: a currency symbol and a locale; [$-804]: a locale alone.
                    let body = inside.dropFirst()
                    let parts = body.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
                    literal += String(parts[0])
                    if parts.count > 1 {
                        let locale = parts[1].uppercased()
                        if locale.hasSuffix("804") || locale.hasSuffix("404") || locale.hasSuffix("C04") || locale.hasPrefix("ZH") {
                            current.chinese = true
                        }
                    }
                } else if let op = ["<=", ">=", "<>", "<", ">", "="].first(where: { inside.hasPrefix($0) }),
                    let operand = Double(inside.dropFirst(op.count).trimmingCharacters(in: .whitespaces))
                {
                    current.condition = Condition(op: op, operand: operand)
                } else if lower.hasPrefix("dbnum") {
                    current.chinese = true
                }
            // Colours ([Red], [Color10]) and anything else in brackets show nothing.
            case "0", "#", "?":
                flush()
                current.tokens.append(.digit(UInt8(c.asciiValue!)))
                i += 1
            case ".":
                flush()
                // `.0` after seconds is a fraction of a second.
                if current.tokens.contains(where: { if case .second = $0 { true } else { false } }) {
                    var n = 0
                    while i + 1 + n < chars.count, chars[i + 1 + n] == "0" { n += 1 }
                    if n > 0 {
                        current.tokens.append(.fractionOfSecond(n))
                        i += 1 + n
                        continue
                    }
                }
                current.tokens.append(.point)
                i += 1
            case ",", "%", "@":
                flush()
                current.tokens.append(c == "," ? .comma : c == "%" ? .percent : .text)
                i += 1
            case "/":
                let hasDigits = current.tokens.contains { if case .digit = $0 { true } else { false } }
                if hasDigits, !current.isDate {
                    flush()
                    current.tokens.append(.slash)
                    i += 1
                    var number = ""
                    while i < chars.count, let d = chars[i].wholeNumberValue, chars[i].isASCII {
                        number.append(Character(String(d)))
                        i += 1
                    }
                    if let n = Int(number), n > 0 { current.tokens.append(.denominator(n)) }
                } else {
                    literal.append(c)
                    i += 1
                }
            case "E",
                "e"
            where i + 1 < chars.count && (chars[i + 1] == "+" || chars[i + 1] == "-")
                && current.tokens.contains(where: { if case .digit = $0 { true } else { false } }):
                flush()
                current.tokens.append(.exponent(chars[i + 1] == "+"))
                i += 2
            default:
                if ahead("General") {
                    flush()
                    current.tokens.append(.general)
                    i += 7
                } else if ahead("AM/PM") {
                    flush()
                    current.tokens.append(.meridiem(String(chars[i..<(i + 2)]), String(chars[(i + 3)..<(i + 5)])))
                    i += 5
                } else if ahead("A/P") {
                    flush()
                    current.tokens.append(.meridiem(String(chars[i]), String(chars[i + 2])))
                    i += 3
                } else if ahead("上午/下午") {
                    flush()
                    current.tokens.append(.meridiem("上午", "下午"))
                    i += 5
                } else if let letter = c.lowercased().first, "ymdhsea".contains(letter), c.isASCII {
                    let n = count(c)
                    flush()
                    switch letter {
                    case "y", "e": current.tokens.append(.year(letter == "e" ? 4 : n))
                    case "m": current.tokens.append(.month(n))
                    case "d": current.tokens.append(.day(n))
                    case "h": current.tokens.append(.hour(n))
                    case "s": current.tokens.append(.second(n))
                    default:
                        if n >= 3 {
                            current.tokens.append(.chineseWeekday(n))
                        } else {
                            literal += String(chars[i..<(i + n)])
                        }
                    }
                    i += n
                } else {
                    literal.append(c)
                    i += 1
                }
            }
        }
        flush()
        sections.append(current)
        return sections.map(resolvingMinutes)
    }

    /// `m` after an hour or before a second is minutes.
    private static func resolvingMinutes(_ section: Section) -> Section {
        var section = section
        var lastTime: Token?
        for k in section.tokens.indices {
            switch section.tokens[k] {
            case .hour, .elapsed:
                lastTime = section.tokens[k]
            case .month(let n) where n <= 2:
                var isMinute = false
                if let lastTime, case .hour = lastTime { isMinute = true }
                if let lastTime, case .elapsed(let c, _) = lastTime, c == "h" { isMinute = true }
                if !isMinute {
                    for later in section.tokens[(k + 1)...] {
                        if case .second = later {
                            isMinute = true
                            break
                        }
                        if case .elapsed(let c, _) = later, c == "s" {
                            isMinute = true
                            break
                        }
                        if case .literal = later { continue }
                        break
                    }
                }
                if isMinute { section.tokens[k] = .minute(n) }
                lastTime = section.tokens[k]
            case .literal:
                break
            default:
                lastTime = section.tokens[k]
            }
        }
        return section
    }
}
