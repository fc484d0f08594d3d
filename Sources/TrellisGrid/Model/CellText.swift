import Foundation

/// What a cell's text holds, read the way a spreadsheet reads a cell typed as text: a number, a
/// date, a truth value, an error literal — or text.
package enum CellKind: UInt8, Sendable, BitwiseCopyable {
    /// Blank (empty, or only spaces).
    case missing
    /// An integer that fits in 64 bits, held exactly.
    case integer
    /// A decimal whose double is exact enough to order by (at most 15 significant digits).
    case decimal
    /// A number whose double only approximates it (an integer wider than 64 bits, a decimal with
    /// more than 15 significant digits): ordered by its text when that matters.
    case approximate
    case date
    case boolean
    case text
    /// A spreadsheet error literal (`#N/A`, `#DIV/0!`, …).
    case error
    /// `NaN`: missing in a numeric column, text elsewhere.
    case notANumber

    /// Whether the kind is a number (integers, decimals, approximate numbers).
    package var isNumber: Bool { self == .integer || self == .decimal || self == .approximate }
}

/// One cell's text, classified: its kind and an 8-byte payload (an `Int64` for integers, the
/// bits of a `Double` for decimals, approximate numbers and dates, 0 or 1 for booleans), and
/// how many digits follow its decimal point.
package struct ClassifiedCell: Sendable, Equatable {
    var kind: CellKind
    var payload: UInt64
    var fractionDigits: UInt8
    /// A number written as an integer (no point, no exponent), whether or not it fits 64 bits.
    var integral = false

    init(kind: CellKind, payload: UInt64, fractionDigits: UInt8, integral: Bool = false) {
        self.kind = kind
        self.payload = payload
        self.fractionDigits = fractionDigits
        self.integral = integral
    }

    static let missing = ClassifiedCell(kind: .missing, payload: 0, fractionDigits: 0)
    static let text = ClassifiedCell(kind: .text, payload: 0, fractionDigits: 0)

    var double: Double {
        switch kind {
        case .integer: return Double(Int64(bitPattern: payload))
        case .boolean: return Double(payload)
        default: return Double(bitPattern: payload)
        }
    }
}

/// Reads cells from text. Numbers are `[+-]digits[.digits][e[+-]digits]` in ASCII digits, with an
/// optional 万 (10⁴), 亿 (10⁸) or 万亿 (10¹²) after them, or as spreadsheets format them (grouped,
/// percent, currency, accounting negatives: ``parseFormatted(_:_:_:decimalComma:)``); `0x10` and `inf`
/// are text, and so is `1,5` unless the comma is the file's decimal mark. Dates are
/// `yyyy-MM-dd`, optionally followed by `T` or a space and `HH:mm[:ss]` (UTC). Truth values are
/// `true` and `false` in any case. Surrounding spaces (ASCII, no-break, ideographic) are ignored
/// for reading; the text itself is kept as it was.
package enum CellText {
    /// Classifies UTF-8 text; with `type`, only values of that type are read as such and the rest
    /// is text (except blanks and error literals).
    static func classify(_ field: UnsafeBufferPointer<UInt8>, as type: ColumnType? = nil) -> ClassifiedCell {
        classify(field, CellReading(type: type))
    }

    /// Classifies UTF-8 text read as `reading` says.
    static func classify(_ field: UnsafeBufferPointer<UInt8>, _ reading: CellReading) -> ClassifiedCell {
        let type = reading.type
        var start = 0, end = field.count
        trim(field, &start, &end)
        if start == end { return .missing }
        if type == .text { return .text }
        let first = field[start]
        if type == nil || type == .integer || type == .decimal {
            var number: Number?
            if first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: ".") || (first &- 48) < 10 {
                number = parseNumber(field, start, end)
            }
            // As a spreadsheet formats it: grouped, a percent, a currency, in parentheses.
            if number == nil,
                (first &- 48) < 10 || first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: ".")
                    || first == UInt8(ascii: "(") || first == UInt8(ascii: "$") || first == 0xC2 || first == 0xE2 || first == 0xEF
            {
                number = parseFormatted(field, start, end, decimalComma: reading.decimalComma)
            }
            if let number {
                // A column read as integers takes integers as written: no point, no exponent.
                if type == .integer, !number.integral { return .text }
                return ClassifiedCell(
                    kind: number.kind, payload: number.payload, fractionDigits: number.fractionDigits,
                    integral: number.integral)
            }
            if end - start == 3, isNaN(field, start) { return ClassifiedCell(kind: .notANumber, payload: 0, fractionDigits: 0) }
            // What databases, R, pandas and spreadsheets write for a missing number: missing in
            // a number column, as NaN is; text elsewhere.
            if isNullMarker(field, start, end) { return ClassifiedCell(kind: .notANumber, payload: 0, fractionDigits: 0) }
        }
        if type == nil || type == .date, (first &- 48) < 10,
            let seconds = parseDate(field, start, end) ?? parseDateForm(field, start, end, order: reading.dateOrder ?? .mdy)
        {
            return ClassifiedCell(kind: .date, payload: seconds.bitPattern, fractionDigits: 0)
        }
        // A time of day on its own (`下午 2:05`, `2:05 PM`, `14:05`): a date of day 0, so that
        // times sort by the clock.
        if type == nil || type == .date, (first &- 48) < 10 || first == 0xE4, let seconds = timeOfDay(field, start, end) {
            return ClassifiedCell(kind: .date, payload: Double(seconds).bitPattern, fractionDigits: 0)
        }
        if type == nil || type == .boolean, let truth = parseBoolean(field, start, end) {
            return ClassifiedCell(kind: .boolean, payload: truth ? 1 : 0, fractionDigits: 0)
        }
        if first == UInt8(ascii: "#"), isErrorLiteral(field, start, end) {
            return ClassifiedCell(kind: .error, payload: 0, fractionDigits: 0)
        }
        return .text
    }

    static func classify(_ text: String, as type: ColumnType? = nil) -> ClassifiedCell {
        classify(text, CellReading(type: type))
    }

    static func classify(_ text: String, _ reading: CellReading) -> ClassifiedCell {
        var text = text
        return text.withUTF8 { classify($0, reading) }
    }

    /// `b` without its surrounding spaces (see ``trim(_:_:_:)``).
    static func trimmed(_ b: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0, end = b.count
        trim(b, &start, &end)
        return UnsafeBufferPointer(rebasing: b[start..<end])
    }

    /// Moves `start` and `end` past surrounding spaces: ASCII space and tab, U+00A0, U+3000.
    @inline(__always)
    static func trim(_ b: UnsafeBufferPointer<UInt8>, _ start: inout Int, _ end: inout Int) {
        while start < end {
            let c = b[start]
            if c == 0x20 || c == 0x09 {
                start += 1
            } else if c == 0xC2, start + 1 < end, b[start + 1] == 0xA0 {
                start += 2
            } else if c == 0xE3, start + 2 < end, b[start + 1] == 0x80, b[start + 2] == 0x80 {
                start += 3
            } else {
                break
            }
        }
        while end > start {
            let c = b[end - 1]
            if c == 0x20 || c == 0x09 {
                end -= 1
            } else if c == 0xA0, end - 2 >= start, b[end - 2] == 0xC2 {
                end -= 2
            } else if c == 0x80, end - 3 >= start, b[end - 3] == 0xE3, b[end - 2] == 0x80 {
                end -= 3
            } else {
                break
            }
        }
    }

    // MARK: Numbers

    /// How many digits follow the point of a number's text (`88.50` → 2); 0 without a point.
    static func fractionDigits(_ b: UnsafeBufferPointer<UInt8>) -> Int {
        guard let point = b.firstIndex(of: UInt8(ascii: ".")) else { return 0 }
        var count = 0
        var i = point + 1
        while i < b.count, (b[i] &- 48) < 10 { count += 1; i += 1 }
        return count
    }

    struct Number {
        var kind: CellKind
        var payload: UInt64
        var fractionDigits: UInt8
        /// Written as an integer: without a point or an exponent.
        var integral: Bool
    }

    static let powersOfTen: [Double] = (0...22).map { pow(10, Double($0)) }
    static let integerPowersOfTen: [UInt64] = (0...19).map { k in (0..<k).reduce(UInt64(1)) { v, _ in v * 10 } }

    /// A number in `b[start..<end]`, or `nil` when the text is not one.
    static func parseNumber(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Number? {
        var i = start
        var negative = false
        if b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+") {
            negative = b[i] == UInt8(ascii: "-")
            i += 1
        }
        var mantissa: UInt64 = 0
        var significant = 0  // significant digits seen (from the first non-zero one)
        var kept = 0  // significant digits held in `mantissa` (at most 19)
        var droppedNonZero = false  // a significant digit beyond the 19 held was not zero
        var digitCount = 0
        var exponent = 0  // value = mantissa · 10^exponent (before the written exponent)
        var hadPoint = false, fraction = 0
        while i < end {
            let d = b[i] &- 48
            if d < 10 {
                digitCount += 1
                if hadPoint { fraction += 1 }
                if mantissa == 0 && d == 0 && kept == 0 {
                    if hadPoint { exponent -= 1 }
                } else {
                    significant += 1
                    if kept < 19 {
                        mantissa = mantissa * 10 + UInt64(d)
                        kept += 1
                        if hadPoint { exponent -= 1 }
                    } else {
                        if d != 0 { droppedNonZero = true }
                        if !hadPoint { exponent += 1 }
                    }
                }
                i += 1
            } else if b[i] == UInt8(ascii: "."), !hadPoint {
                hadPoint = true
                i += 1
            } else {
                break
            }
        }
        guard digitCount > 0 else { return nil }
        var written = 0, hadExponent = false
        if i < end, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            hadExponent = true
            i += 1
            var exponentNegative = false
            if i < end, b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+") {
                exponentNegative = b[i] == UInt8(ascii: "-")
                i += 1
            }
            var digits = 0
            while i < end, (b[i] &- 48) < 10 {
                if written < 100_000 { written = written * 10 + Int(b[i] &- 48) }
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
            if exponentNegative { written = -written }
        }
        var unit = 0
        if i < end, !hadExponent {
            // 万 E4 B8 87, 亿 E4 BA BF, 万亿.
            if end - i == 3, b[i] == 0xE4, b[i + 1] == 0xB8, b[i + 2] == 0x87 {
                unit = 4; i += 3
            } else if end - i == 3, b[i] == 0xE4, b[i + 1] == 0xBA, b[i + 2] == 0xBF {
                unit = 8; i += 3
            } else if end - i == 6, b[i] == 0xE4, b[i + 1] == 0xB8, b[i + 2] == 0x87, b[i + 3] == 0xE4, b[i + 4] == 0xBA,
                b[i + 5] == 0xBF
            {
                unit = 12; i += 6
            }
        }
        guard i == end else { return nil }
        let scale = exponent + written + unit
        let digitsAfterPoint = UInt8(clamping: hadExponent ? max(0, fraction - written) : max(0, fraction - unit))
        // Integers as written (no point, no exponent) are held exactly when they fit.
        if !hadPoint && !hadExponent {
            if mantissa == 0 { return Number(kind: .integer, payload: 0, fractionDigits: 0, integral: true) }
            if significant <= 19, scale >= 0, scale <= 18 {
                let (scaled, overflow) = mantissa.multipliedReportingOverflow(by: integerPowersOfTen[scale])
                let limit: UInt64 = negative ? 1 << 63 : UInt64(Int64.max)
                if !overflow, scaled <= limit {
                    let value = negative ? Int64(truncatingIfNeeded: 0 &- scaled) : Int64(scaled)
                    return Number(kind: .integer, payload: UInt64(bitPattern: value), fractionDigits: 0, integral: true)
                }
            }
        }
        var value: Double
        if mantissa == 0 {
            value = 0
        } else if !droppedNonZero, significant <= 19, mantissa < 1 << 53, scale >= -22, scale <= 22 {
            // Clinger's fast path: both operands exact, one rounding.
            value = scale >= 0 ? Double(mantissa) * powersOfTen[scale] : Double(mantissa) / powersOfTen[-scale]
        } else {
            value = slowDouble(b, start, end, unit: unit)
        }
        if negative { value = -value }
        // Beyond a double's range (1e400): a number still, ordered by its digits.
        let exact = significant <= 15 && value.isFinite
        if !hadPoint && !hadExponent && !exact {
            return Number(kind: .approximate, payload: value.bitPattern, fractionDigits: 0, integral: true)
        }
        return Number(
            kind: exact ? .decimal : .approximate, payload: value.bitPattern, fractionDigits: digitsAfterPoint,
            integral: !hadPoint && !hadExponent)
    }

    /// The correctly rounded double of a number the fast path cannot take.
    static func slowDouble(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, unit: Int) -> Double {
        var text = String(decoding: UnsafeBufferPointer(rebasing: b[start..<end]), as: UTF8.self)
        if unit > 0 {
            text.removeLast(unit == 12 ? 2 : 1)
            text += "e\(unit)"
        }
        if text.hasPrefix("+") { text.removeFirst() }
        if text.hasPrefix(".") { text = "0" + text }
        if text.hasPrefix("-.") { text = "-0" + text.dropFirst() }
        return Double(text) ?? .nan
    }

    /// The null markers of exports: `NULL` (`null`, `Null`), `\N` (MySQL, PostgreSQL's COPY),
    /// `NA`, `N/A`, `n/a`, `<NA>` (R, pandas), `#N/A` (Excel), and a dash (`-`, `--`, `—`) where a
    /// sheet leaves a number out.
    static let nullMarkers: Set<[UInt8]> = Set(
        ["NULL", "null", "Null", "\\N", "NA", "N/A", "n/a", "<NA>", "#N/A", "-", "--", "—"].map { Array($0.utf8) })

    static func isNullMarker(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        guard end - start <= 4 else { return false }
        return nullMarkers.contains(Array(b[start..<end]))
    }

    static func isNaN(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
        let n = b[i], a = b[i + 1], n2 = b[i + 2]
        return (n == 0x4E && a == 0x61 && n2 == 0x4E) || (n == 0x6E && a == 0x61 && n2 == 0x6E)
            || (n == 0x4E && a == 0x41 && n2 == 0x4E)
    }

    // MARK: Truth values, errors, dates

    /// The truth value a cell's text writes (`true`, `FALSE`, ` True `), or `nil`.
    package static func truthValue(_ b: UnsafeBufferPointer<UInt8>) -> Bool? {
        var start = 0, end = b.count
        trim(b, &start, &end)
        return parseBoolean(b, start, end)
    }

    static func parseBoolean(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool? {
        func matches(_ word: StaticString) -> Bool {
            guard end - start == word.utf8CodeUnitCount else { return false }
            return word.withUTF8Buffer { w in
                for k in 0..<w.count where b[start + k] | 0x20 != w[k] { return false }
                return true
            }
        }
        if matches("true") { return true }
        if matches("false") { return false }
        return nil
    }

    static let errorLiterals: [[UInt8]] = ["#N/A", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#NULL!"].map { Array($0.utf8) }

    static func isErrorLiteral(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        errorLiterals.contains { literal in
            literal.count == end - start && literal.indices.allSatisfy { b[start + $0] == literal[$0] }
        }
    }

    /// Seconds since 1970 of `yyyy-MM-dd[(T| )HH:mm[:ss]]` (UTC), or `nil`.
    static func parseDate(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        let length = end - start
        guard length == 10 || length == 16 || length == 19 else { return nil }
        func digits(_ at: Int, _ count: Int) -> Int? {
            var value = 0
            for k in 0..<count {
                let d = b[start + at + k] &- 48
                guard d < 10 else { return nil }
                value = value * 10 + Int(d)
            }
            return value
        }
        guard b[start + 4] == UInt8(ascii: "-"), b[start + 7] == UInt8(ascii: "-"),
            let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
            (1...12).contains(month), day >= 1, day <= daysIn(month, year)
        else { return nil }
        var seconds = 0
        if length > 10 {
            guard b[start + 10] == UInt8(ascii: "T") || b[start + 10] == UInt8(ascii: " "), b[start + 13] == UInt8(ascii: ":"),
                let hour = digits(11, 2), let minute = digits(14, 2), hour < 24, minute < 60
            else { return nil }
            seconds = hour * 3600 + minute * 60
            if length == 19 {
                guard b[start + 16] == UInt8(ascii: ":"), let second = digits(17, 2), second < 60 else { return nil }
                seconds += second
            }
        }
        return Double(daysFromCivil(year, month, day) * 86_400 + seconds)
    }

    static func daysIn(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar.
    package static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
