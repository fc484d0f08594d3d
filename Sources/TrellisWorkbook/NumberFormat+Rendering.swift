import TrellisGrid

extension NumberFormat.Section {
    private static func digitText(_ digits: [UInt8]) -> String {
        String(decoding: digits.map { $0 + 0x30 }, as: UTF8.self)
    }

    /// `value` shown by this section (a number section).
    func formatNumber(_ value: Double) -> String {
        if tokens.contains(.general) {
            var out = ""
            for token in tokens {
                switch token {
                case .literal(let s): out += s
                case .general: out += NumberFormat.general(value)
                default: break
                }
            }
            return out
        }
        if tokens.contains(.slash) { return formatFraction(value) }
        let hasDigits = tokens.contains { if case .digit = $0 { true } else { false } }
        guard hasDigits else {
            // Only literals (`"-"`, `"零"`): they are what the section shows.
            var out = value < 0 ? "-" : ""
            for token in tokens {
                if case .literal(let s) = token { out += s }
                if token == .percent { out += "%" }
            }
            return out
        }
        // Where each placeholder belongs: before the point, after it, or in the exponent.
        var integerPlaces: [Int] = [], fractionPlaces: [Int] = [], exponentPlaces: [Int] = []
        var sawPoint = false, sawExponent = false
        var percents = 0
        var grouping = false, scale = 0
        var pendingCommas = 0
        for (k, token) in tokens.enumerated() {
            switch token {
            case .digit:
                if sawExponent {
                    exponentPlaces.append(k)
                } else if sawPoint {
                    fractionPlaces.append(k)
                } else {
                    if pendingCommas > 0, !integerPlaces.isEmpty { grouping = true }
                    integerPlaces.append(k)
                }
                pendingCommas = 0
            case .comma:
                if !sawExponent { pendingCommas += 1 }
            case .point:
                if !sawPoint, !sawExponent {
                    sawPoint = true
                    scale += pendingCommas
                    pendingCommas = 0
                }
            case .exponent:
                sawExponent = true
                scale += pendingCommas
                pendingCommas = 0
            case .percent: percents += 1
            default: break
            }
        }
        scale += pendingCommas

        var d = DecimalDigits(value)
        if !d.isZero { d.exponent += 2 * percents - 3 * scale }
        var exponentValue = 0
        if sawExponent, !d.isZero {
            let n = max(1, integerPlaces.count)
            let engineering = n > 1 && integerPlaces.contains { tokens[$0] == .digit(0x23) }
            let leading = d.exponent - 1
            exponentValue = engineering ? Int((Double(leading) / Double(n)).rounded(.down)) * n : leading - (n - 1)
            d.exponent -= exponentValue
            d.round(places: fractionPlaces.count)
            if !engineering, d.exponent > n {
                exponentValue += 1
                d.exponent -= 1
            }
        } else {
            d.round(places: fractionPlaces.count)
        }

        var integer = d.integerDigits
        let minimumInteger = integerPlaces.filter { tokens[$0] == .digit(0x30) }.count
        if integer == [0], minimumInteger == 0 { integer = [] }
        while integer.count < minimumInteger { integer.insert(0, at: 0) }
        var integerText = Self.digitText(integer)
        if grouping, integer.count > 3 {
            var grouped = ""
            for (k, ch) in integerText.enumerated() {
                if k > 0, (integer.count - k) % 3 == 0 { grouped.append(",") }
                grouped.append(ch)
            }
            integerText = grouped
        }
        // Digits shown after the point: `0` always, `#` and `?` up to the last that is not zero
        // (`?` leaving a space).
        let fraction = d.fractionDigits(fractionPlaces.count)
        var lastShown = -1
        for (k, place) in fractionPlaces.enumerated() where fraction[k] != 0 || tokens[place] == .digit(0x30) { lastShown = k }

        var out = ""
        var integerWritten = false
        var fractionIndex = 0, exponentIndex = 0
        let exponentDigits = Self.digitText(DecimalDigits(Double(abs(exponentValue))).integerDigits)
        var exponentText = exponentDigits
        let exponentMinimum = exponentPlaces.filter { tokens[$0] == .digit(0x30) }.count
        while exponentText.count < exponentMinimum { exponentText = "0" + exponentText }
        var integerRemaining = integerPlaces.count
        var integerChars = Array(integerText)
        for (k, token) in tokens.enumerated() {
            switch token {
            case .literal(let s): out += s
            case .digit(let kind):
                if integerPlaces.contains(k) {
                    integerRemaining -= 1
                    if grouping {
                        if !integerWritten { out += integerText }
                        integerWritten = true
                    } else if integerRemaining == 0 {
                        out += String(integerChars)
                        integerChars = []
                    } else if integerChars.count > integerRemaining {
                        // The leftmost placeholders take the digits the rest have no room for.
                        let take = integerChars.count - integerRemaining
                        out += String(integerChars.prefix(take))
                        integerChars.removeFirst(take)
                    } else if kind == 0x3F, integerChars.count < integerRemaining + 1 {
                        out += " "
                    }
                } else if fractionPlaces.contains(k) {
                    let digit = fraction[fractionIndex]
                    if fractionIndex <= lastShown {
                        out.append(Character(Unicode.Scalar(digit + 0x30)))
                    } else if kind == 0x3F {
                        out += " "
                    }
                    fractionIndex += 1
                } else if exponentPlaces.contains(k) {
                    if exponentIndex == 0 { out += exponentText }
                    exponentIndex += 1
                }
            case .point: out += "."
            case .percent: out += "%"
            case .exponent(let plus):
                out += exponentValue < 0 ? "E-" : plus ? "E+" : "E"
            case .comma:
                // A comma that neither groups nor scales (between literals) is shown.
                if integerPlaces.isEmpty || (k > integerPlaces.last! && !sawPoint && fractionPlaces.isEmpty && scale == 0) { out += "," }
            default: break
            }
        }
        // A negative number shown as zero (-0.001 in `0.00`) is shown without its sign.
        return value < 0 && !d.isZero ? "-" + out : out
    }

    /// `value` as a fraction (`# ?/?`, `?/8`).
    private func formatFraction(_ value: Double) -> String {
        guard let slash = tokens.firstIndex(of: .slash) else { return NumberFormat.general(value) }
        var numeratorStart = slash
        while numeratorStart > 0, case .digit = tokens[numeratorStart - 1] { numeratorStart -= 1 }
        let hasInteger = tokens[..<numeratorStart].contains { if case .digit = $0 { true } else { false } }
        var fixed: Int?
        var denominatorPlaces = 0
        var end = slash + 1
        while end < tokens.count {
            if case .digit = tokens[end] {
                denominatorPlaces += 1
            } else if case .denominator(let n) = tokens[end] {
                fixed = n
            } else {
                break
            }
            end += 1
        }
        let magnitude = abs(value)
        var whole = hasInteger ? magnitude.rounded(.down) : 0
        let part = magnitude - whole
        var numerator = 0, denominator = 1
        if let fixed {
            denominator = fixed
            numerator = Int((part * Double(fixed)).rounded())
        } else {
            let most = max(1, Int(pow10(max(1, denominatorPlaces))) - 1)
            var best = Double.infinity
            for den in 1...most {
                let num = (part * Double(den)).rounded()
                let error = abs(part - num / Double(den))
                if error < best - 1e-12 {
                    best = error
                    numerator = Int(num)
                    denominator = den
                }
                if error == 0 { break }
            }
        }
        if numerator == denominator, hasInteger {
            whole += 1
            numerator = 0
        }
        var body: String
        if hasInteger {
            var parts: [String] = []
            if whole > 0 || numerator == 0 { parts.append(String(Int64(whole))) }
            if numerator > 0 { parts.append("\(numerator)/\(denominator)") }
            body = parts.joined(separator: " ")
        } else {
            body = "\(numerator)/\(denominator)"
        }
        if value < 0, body != "0" { body = "-" + body }
        var prefix = "", suffix = ""
        for token in tokens[..<min(numeratorStart, tokens.firstIndex { if case .digit = $0 { true } else { false } } ?? 0)] {
            if case .literal(let s) = token { prefix += s }
        }
        for token in tokens[end...] {
            if case .literal(let s) = token { suffix += s }
        }
        return prefix + body + suffix
    }

    private func pow10(_ n: Int) -> Double {
        var v = 1.0
        for _ in 0..<n { v *= 10 }
        return v
    }

    // MARK: Dates and times

    /// `serial` (days since the date system's start, the time as the fraction) shown by this
    /// section.
    func formatDate(_ serial: Double, date1904: Bool) -> String {
        var places = 0
        for token in tokens { if case .fractionOfSecond(let n) = token { places = max(places, min(n, 3)) } }
        let unitsPerSecond = Int64(pow10(places))
        let unitsPerDay = 86_400 * unitsPerSecond
        let total = Int64((serial * Double(unitsPerDay)).rounded())
        let days = Int(total / unitsPerDay)
        let timeUnits = total % unitsPerDay
        let secondsOfDay = Int(timeUnits / unitsPerSecond)
        let subsecond = Int(timeUnits % unitsPerSecond)
        let (year, month, day, weekday) = WorkbookDates.civil(serialDay: days, date1904: date1904)
        let hour = secondsOfDay / 3600, minute = secondsOfDay / 60 % 60, second = secondsOfDay % 60
        let twelveHour = tokens.contains { if case .meridiem = $0 { true } else { false } }
        func padded(_ v: Int, _ width: Int) -> String {
            let s = String(v)
            return s.count < width ? String(repeating: "0", count: width - s.count) + s : s
        }
        var out = ""
        for token in tokens {
            switch token {
            case .literal(let s): out += s
            case .year(let n): out += n <= 2 ? padded(year % 100, 2) : padded(year, 4)
            case .month(let n):
                switch n {
                case 1, 2: out += padded(month, n)
                case 3: out += chinese ? "\(month)月" : Self.monthNames[month - 1].prefix(3)
                case 4: out += chinese ? Self.chineseMonths[month - 1] : Self.monthNames[month - 1]
                default: out += chinese ? Self.chineseMonths[month - 1] : String(Self.monthNames[month - 1].prefix(1))
                }
            case .minute(let n): out += padded(minute, min(n, 2))
            case .day(let n):
                switch n {
                case 1, 2: out += padded(day, n)
                case 3: out += chinese ? "周" + Self.chineseDays[weekday] : Self.dayNames[weekday].prefix(3)
                default: out += chinese ? "星期" + Self.chineseDays[weekday] : Self.dayNames[weekday]
                }
            case .chineseWeekday(let n): out += (n >= 4 ? "星期" : "") + Self.chineseDays[weekday]
            case .hour(let n):
                let h = twelveHour ? (hour % 12 == 0 ? 12 : hour % 12) : hour
                out += padded(h, min(n, 2))
            case .second(let n): out += padded(second, min(n, 2))
            case .elapsed(let unit, let n):
                let seconds = total / unitsPerSecond
                let v = unit == "h" ? seconds / 3600 : unit == "m" ? seconds / 60 : seconds
                out += padded(Int(v), n)
            case .fractionOfSecond(let n):
                out += "." + padded(subsecond, places).prefix(n)
            case .meridiem(let am, let pm): out += hour < 12 ? am : pm
            case .digit(let d): if d == 0x30 { out += "0" }
            case .point: out += "."
            case .comma: out += ","
            case .percent: out += "%"
            default: break
            }
        }
        return out
    }

    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December",
    ]
    static let chineseMonths = ["一月", "二月", "三月", "四月", "五月", "六月", "七月", "八月", "九月", "十月", "十一月", "十二月"]
    static let dayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    static let chineseDays = ["日", "一", "二", "三", "四", "五", "六"]
}

/// Spreadsheet date serials: days since a date system's start, the time of day as the fraction.
public enum WorkbookDates {
    /// Days from 1970-01-01 to 1899-12-30, the 1900 system's day zero for serials past 60.
    static let epoch1900 = -25_569
    /// Days from 1970-01-01 to 1904-01-01, the 1904 system's day zero.
    static let epoch1904 = -24_107

    /// The date of a serial day: (year, month, day, weekday with Sunday 0). Under the 1900
    /// system serial 60 is 29 February 1900, a day that was not but that Lotus 1-2-3 and Excel
    /// count, and serials below it count from 1899-12-31.
    static func civil(serialDay: Int, date1904: Bool) -> (Int, Int, Int, Int) {
        if !date1904, serialDay == 60 { return (1900, 2, 29, 3) }
        let days = serialDay + (date1904 ? epoch1904 : serialDay < 60 ? epoch1900 + 1 : epoch1900)
        let (y, m, d) = CellValue.civil(fromDays: days)
        let weekday = ((days + 4) % 7 + 7) % 7
        return (y, m, d, weekday)
    }

    /// Seconds since 1970 of a serial (the date a `.date` cell holds).
    public static func seconds(ofSerial serial: Double, date1904: Bool) -> Double {
        let day0 = Double(date1904 ? epoch1904 : serial < 60 ? epoch1900 + 1 : epoch1900)
        return ((serial + day0) * 86_400 * 1000).rounded() / 1000
    }

    /// The serial of seconds since 1970.
    public static func serial(ofSeconds seconds: Double, date1904: Bool) -> Double {
        let days = seconds / 86_400
        if date1904 { return days - Double(epoch1904) }
        let serial = days - Double(epoch1900)
        return serial < 61 ? serial - 1 : serial
    }
}
