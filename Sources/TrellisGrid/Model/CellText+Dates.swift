import Foundation

/// Which of a date's first two numbers is the month where the year comes last (`3/1/2024`):
/// what `--date-order` names.
public enum DateOrder: String, CaseIterable, Sendable {
    /// Month, day, year: `12/25/2023` (the United States).
    case mdy
    /// Day, month, year: `25/12/2023` (most of the world; always so with dots, `25.12.2023`).
    case dmy
    /// Year first only: `2024/3/1`; a date whose year comes last is text.
    case ymd
}

extension CellText {
    /// Seconds since 1970 (UTC) of a date in a common spreadsheet form, or `nil`: year first
    /// (`2024-3-1`, `2024/3/1`, `2024.3.1`, `2024年3月1日`), or year last (`3/1/2024` and
    /// `3-1-2024` in `order`, day first with dots: `1.3.2024`), each optionally followed by a space
    /// (or `T`) and `H:mm[:ss]`. The year has four digits; month and day one or two.
    static func parseDateForm(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, order: DateOrder) -> Double? {
        var i = start
        func number(maxDigits: Int) -> (value: Int, digits: Int)? { digitRun(b, &i, end, maxDigits: maxDigits) }
        /// A separator: one ASCII byte of `-/.`, or 年 (E5 B9 B4), 月 (E6 9C 88).
        func separator() -> UInt32? {
            guard i < end else { return nil }
            let c = b[i]
            if c == UInt8(ascii: "-") || c == UInt8(ascii: "/") || c == UInt8(ascii: ".") { i += 1; return UInt32(c) }
            if c == 0xE5, i + 2 < end, b[i + 1] == 0xB9, b[i + 2] == 0xB4 { i += 3; return 0x5E74 }  // 年
            if c == 0xE6, i + 2 < end, b[i + 1] == 0x9C, b[i + 2] == 0x88 { i += 3; return 0x6708 }  // 月
            return nil
        }
        guard let first = number(maxDigits: 4), let s1 = separator(), let second = number(maxDigits: 2),
            let s2 = separator()
        else { return nil }
        guard let third = number(maxDigits: 4) else { return nil }
        let year: Int, month: Int, day: Int
        if first.digits == 4 {
            // Year first: the same separator twice, or 年…月…日.
            guard third.digits <= 2 else { return nil }
            if s1 == 0x5E74 {
                guard s2 == 0x6708, i + 3 <= end, b[i] == 0xE6, b[i + 1] == 0x97, b[i + 2] == 0xA5 else { return nil }
                i += 3  // 日
            } else {
                guard s1 == s2, s1 != 0x6708 else { return nil }
            }
            (year, month, day) = (first.value, second.value, third.value)
        } else {
            guard third.digits == 4, s1 == s2, s1 < 0x80, first.digits <= 2 else { return nil }
            if s1 == UInt32(UInt8(ascii: ".")) || order == .dmy {
                (year, month, day) = (third.value, second.value, first.value)
            } else if order == .mdy {
                (year, month, day) = (third.value, first.value, second.value)
            } else {
                return nil
            }
        }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month, year) else { return nil }
        var seconds = 0
        if i < end {
            guard b[i] == UInt8(ascii: " ") || b[i] == UInt8(ascii: "T") else { return nil }
            i += 1
            guard let time = timeOfDay(b, i, end) else { return nil }
            seconds = time
        }
        return Double(daysFromCivil(year, month, day) * 86_400 + seconds)
    }

    /// The ASCII digits at `b[i]` (at most `maxDigits` of them, and at least one) as a number,
    /// `i` moved past them; `nil` for none or too many.
    static func digitRun(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ end: Int, maxDigits: Int) -> (value: Int, digits: Int)? {
        var value = 0, digits = 0
        while i < end, digits < maxDigits + 1, (b[i] &- 48) < 10 {
            value = value * 10 + Int(b[i] &- 48)
            digits += 1
            i += 1
        }
        return digits > 0 && digits <= maxDigits ? (value, digits) : nil
    }

    /// The seconds since midnight of a time as spreadsheets write one: `H:mm[:ss]`, on a
    /// 12-hour clock after 上午 or 下午 (a space between or not) or before AM or PM (`am`, `a.m.`,
    /// a space between or not): `下午 2:05` and `2:05 PM` are 14:05, `上午 12:20` 00:20. `nil` for
    /// anything else (an hour of 13 with a half of the day, `2:5`).
    static func timeOfDay(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
        var i = start
        func number(maxDigits: Int) -> (value: Int, digits: Int)? { digitRun(b, &i, end, maxDigits: maxDigits) }
        func skipSpaces() { while i < end, b[i] == UInt8(ascii: " ") { i += 1 } }
        // 上午 E4 B8 8A E5 8D 88, 下午 E4 B8 8B E5 8D 88.
        var afternoon: Bool?
        if end - i >= 6, b[i] == 0xE4, b[i + 1] == 0xB8, b[i + 2] == 0x8A || b[i + 2] == 0x8B, b[i + 3] == 0xE5, b[i + 4] == 0x8D,
            b[i + 5] == 0x88
        {
            afternoon = b[i + 2] == 0x8B
            i += 6
            skipSpaces()
        }
        guard let hour = number(maxDigits: 2), i < end, b[i] == UInt8(ascii: ":") else { return nil }
        i += 1
        guard let minute = number(maxDigits: 2), minute.digits == 2, minute.value < 60 else { return nil }
        var seconds = minute.value * 60
        if i < end, b[i] == UInt8(ascii: ":") {
            i += 1
            guard let second = number(maxDigits: 2), second.digits == 2, second.value < 60 else { return nil }
            seconds += second.value
        }
        if afternoon == nil, i < end {
            skipSpaces()
            // AM, PM, am, pm, a.m., p.m.
            let rest = Array(b[i..<end]).map { $0 | 0x20 }
            switch rest {
            case Array("am".utf8), Array("a.m.".utf8): afternoon = false
            case Array("pm".utf8), Array("p.m.".utf8): afternoon = true
            default: return nil
            }
            i = end
        }
        guard i == end else { return nil }
        guard let afternoon else { return hour.value < 24 ? hour.value * 3600 + seconds : nil }
        guard (1...12).contains(hour.value) else { return nil }
        return (hour.value % 12 + (afternoon ? 12 : 0)) * 3600 + seconds
    }

    /// Whether a cell's text is a date whose year comes last with `/` or `-` (`3/1/2024`), and
    /// what its first two numbers say of the order: `.dmy` when the first cannot be a month,
    /// `.mdy` when the second cannot, `nil` when either could be (or neither).
    static func yearLastEvidence(_ b: UnsafeBufferPointer<UInt8>) -> (isYearLast: Bool, order: DateOrder?) {
        var start = 0, end = b.count
        trim(b, &start, &end)
        var parts: [Int] = [], value = 0, digits = 0, separator: UInt8 = 0
        var i = start
        while i < end {
            let c = b[i]
            if (c &- 48) < 10 {
                value = value * 10 + Int(c &- 48)
                digits += 1
                if digits > 4 { return (false, nil) }
            } else if (c == UInt8(ascii: "/") || c == UInt8(ascii: "-")) && parts.count < 2 && digits > 0 && digits <= 2
                && (separator == 0 || separator == c)
            {
                separator = c
                parts.append(value)
                value = 0
                digits = 0
            } else if c == UInt8(ascii: " ") || c == UInt8(ascii: "T") {
                break  // a time follows
            } else {
                return (false, nil)
            }
            i += 1
        }
        guard parts.count == 2, digits == 4 else { return (false, nil) }
        let (a, b) = (parts[0], parts[1])
        if a > 12 && b <= 12 && a <= 31 { return (true, .dmy) }
        if b > 12 && a <= 12 && b <= 31 { return (true, .mdy) }
        return (true, nil)
    }
}

/// How a column's dates whose year comes last were read, where the file does not settle it: all
/// of them could be month or day first (read month first), or some can only be the one and some
/// only the other (read month first; the others are text).
public struct DateOrderNote: Equatable, Sendable, CustomStringConvertible {
    public var column: String
    /// A date of the column that could be read either way (or, when `mixed`, one that is text).
    public var example: String
    /// Whether the column holds dates that can only be day first beside ones that can only be
    /// month first.
    public var mixed: Bool

    public var description: String {
        mixed
            ? "column '\(column)' mixes day-first and month-first dates; read month first, the others are text "
                + "(--date-order dmy reads them day first)"
            : "column '\(column)' has dates such as \(example) that may be month or day first; read as month/day/year "
                + "(--date-order dmy reads them as day/month/year)"
    }
}
