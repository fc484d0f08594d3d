import Foundation

/// How the cells of a column are read: the type a reader was told (or `nil`: each cell on its
/// own), and the conventions of the file they come from.
package struct CellReading: Equatable, Sendable {
    /// Only values of this type are read as such (the rest is text); `nil` reads every kind.
    package var type: ColumnType?
    /// Whether a comma is the decimal mark (`1,5` is 1.5, `1.234,50` is 1234.5): a `;`-separated
    /// file's convention, where the comma is free of its delimiter duty.
    package var decimalComma: Bool
    /// How a date whose year comes last (`3/1/2024`) is read; `nil`: month first, unless the
    /// column's dates show they are day first (see ``Table``'s reading of a column).
    package var dateOrder: DateOrder?

    package init(type: ColumnType? = nil, decimalComma: Bool = false, dateOrder: DateOrder? = nil) {
        self.type = type
        self.decimalComma = decimalComma
        self.dateOrder = dateOrder
    }
}

extension CellText {
    /// A number as a spreadsheet shows it, read where the plain grammar does not: grouped
    /// thousands (`1,000,000.00`, `1 234,50`, `1'234.50`, and `1.234,50` where the comma is the
    /// decimal mark), a percent (`12%` is 0.12, `-5 %`), a currency before or after (`$1,200`,
    /// `¥1,200.00`, `￥`, `€`, `£`, `1.234,50 €`, `1,200元`), an accounting negative (`(12.50)`), and in
    /// a file whose decimal mark is the comma, `1,5`. `nil` for anything else — `1,2,3`, `1.2.3`,
    /// `192.168.1.1`, `12,5` in a comma file (a list, not a number) stay text.
    ///
    /// Groups are checked as spreadsheets write them: 1–3 digits, then groups of exactly 3. Dots
    /// and spaces group only where the comma is the decimal mark — in the file (`decimalComma`) or
    /// by the number itself (`1.234,50`, `1 234,50`) — or beside a currency or percent sign.
    static func parseFormatted(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, decimalComma: Bool) -> Number? {
        var i = start, e = end
        var negative = false, percent = false, marked = false
        if b[i] == UInt8(ascii: "("), e - i > 2, b[e - 1] == UInt8(ascii: ")") {
            negative = true
            i += 1
            e -= 1
        }
        func sign() -> Bool {
            guard i < e, b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+") else { return false }
            if b[i] == UInt8(ascii: "-") {
                if negative { return true }  // (-12) is not a number
                negative = true
            }
            i += 1
            return false
        }
        if sign() { return nil }
        if let length = currencyPrefix(b, i, e) {
            marked = true
            i += length
            trim(b, &i, &e)
            if i < e, sign() { return nil }
        }
        guard i < e else { return nil }
        if b[e - 1] == UInt8(ascii: "%") {
            percent = true
            marked = true
            e -= 1
            trim(b, &i, &e)
        } else if let length = currencySuffix(b, i, e) {
            marked = true
            e -= length
            trim(b, &i, &e)
        }
        // A unit of ten thousand or a hundred million before the currency, or after a sign:
        // `12.5万元`, `1.2亿元`, `¥1.2万`, `1,200万`.
        var unit: [UInt8] = []
        if !percent, let length = unitSuffix(b, i, e) {
            unit = Array(b[(e - length)..<e])
            e -= length
            guard i < e, (b[e - 1] &- 48) < 10 else { return nil }
        }
        guard i < e else { return nil }
        // Digit runs and the separators between them.
        var runs: [(start: Int, count: Int)] = []
        var separators: [Separator] = []
        var k = i
        while k < e {
            let runStart = k
            while k < e, (b[k] &- 48) < 10 { k += 1 }
            runs.append((runStart, k - runStart))
            guard k < e else { break }
            guard let (separator, length) = Separator.at(b, k, e) else { return nil }
            separators.append(separator)
            k += length
            guard k < e else { return nil }  // a separator at the end
        }
        guard !separators.isEmpty || marked else { return nil }
        // The decimal mark: the last separator, where it can be one.
        let commas = separators.filter { $0 == .comma }.count, points = separators.filter { $0 == .point }.count
        let spaced = separators.contains(.space) || separators.contains(.apostrophe)
        var decimal: Separator?
        if let last = separators.last, last == .comma || last == .point {
            if commas > 0 && points > 0 {
                decimal = last
            } else if last == .comma {
                decimal = commas == 1 && (decimalComma || spaced) ? .comma : nil
            } else {
                decimal = points == 1 && !decimalComma ? .point : (points == 1 && runs.last!.count != 3 ? .point : nil)
            }
        }
        let commaIsDecimal = decimal == .comma || (decimal == nil && decimalComma)
        let groupCount = decimal == nil ? separators.count : separators.count - 1
        for s in separators.prefix(groupCount) {
            switch s {
            case .comma: guard !commaIsDecimal else { return nil }
            case .point: guard commaIsDecimal || marked else { return nil }
            case .space: guard commaIsDecimal || marked || decimal == .point else { return nil }
            case .apostrophe: break
            }
            // Dots and commas do not both group.
            if s == .comma && separators.prefix(groupCount).contains(.point) { return nil }
        }
        // 1–3 digits, then groups of exactly 3; the fraction after the mark, at least one digit.
        let integerRuns = runs.prefix(groupCount + 1)
        guard let first = integerRuns.first, first.count <= 3 || groupCount == 0 else { return nil }
        guard first.count > 0 || (groupCount == 0 && decimal != nil) else { return nil }
        for run in integerRuns.dropFirst() where run.count != 3 { return nil }
        if decimal != nil, runs.last!.count == 0 { return nil }
        // The number in the plain grammar, read by the plain reader.
        var plain: [UInt8] = negative ? [UInt8(ascii: "-")] : []
        plain.reserveCapacity(e - i + 4)
        for run in integerRuns { plain.append(contentsOf: UnsafeBufferPointer(rebasing: b[run.start..<(run.start + run.count)])) }
        if decimal != nil {
            let fraction = runs.last!
            plain.append(UInt8(ascii: "."))
            plain.append(contentsOf: UnsafeBufferPointer(rebasing: b[fraction.start..<(fraction.start + fraction.count)]))
        }
        plain.append(contentsOf: unit)
        if percent { plain.append(contentsOf: Array("e-2".utf8)) }
        return plain.withUnsafeBufferPointer { p -> Number? in
            guard var number = parseNumber(p, 0, p.count) else { return nil }
            // Compared by value: a formatted number's text is not the plain grammar's, which
            // ordering by digits reads.
            if number.kind == .approximate { number.kind = .decimal }
            return number
        }
    }

    /// What stands between digit runs of a formatted number.
    enum Separator: Equatable {
        case comma, point, space, apostrophe

        /// The separator at `b[k]` and its length in bytes: `,` `.`, a space (ASCII, no-break U+00A0,
        /// narrow no-break U+202F), an apostrophe (`'`, U+2019).
        static func at(_ b: UnsafeBufferPointer<UInt8>, _ k: Int, _ e: Int) -> (Separator, Int)? {
            switch b[k] {
            case UInt8(ascii: ","): return (.comma, 1)
            case UInt8(ascii: "."): return (.point, 1)
            case UInt8(ascii: " "): return (.space, 1)
            case UInt8(ascii: "'"): return (.apostrophe, 1)
            case 0xC2 where k + 1 < e && b[k + 1] == 0xA0: return (.space, 2)
            case 0xE2 where k + 2 < e && b[k + 1] == 0x80 && b[k + 2] == 0xAF: return (.space, 3)
            case 0xE2 where k + 2 < e && b[k + 1] == 0x80 && b[k + 2] == 0x99: return (.apostrophe, 3)
            default: return nil
            }
        }
    }

    /// The length of a unit ending at `b[e - 1]`: 万 (10⁴), 亿 (10⁸), 万亿 (10¹²).
    static func unitSuffix(_ b: UnsafeBufferPointer<UInt8>, _ i: Int, _ e: Int) -> Int? {
        guard e - i >= 4 else { return nil }
        let wan = b[e - 3] == 0xE4 && b[e - 2] == 0xB8 && b[e - 1] == 0x87
        let yi = b[e - 3] == 0xE4 && b[e - 2] == 0xBA && b[e - 1] == 0xBF
        if yi, e - i >= 7, b[e - 6] == 0xE4, b[e - 5] == 0xB8, b[e - 4] == 0x87 { return 6 }
        return wan || yi ? 3 : nil
    }

    /// The length of a currency sign at `b[i]`: `$`, `¥`, `￥`, `€`, `£`.
    static func currencyPrefix(_ b: UnsafeBufferPointer<UInt8>, _ i: Int, _ e: Int) -> Int? {
        guard i < e else { return nil }
        if b[i] == UInt8(ascii: "$") { return 1 }
        if e - i >= 2, b[i] == 0xC2, b[i + 1] == 0xA5 || b[i + 1] == 0xA3 { return 2 }  // ¥ £
        if e - i >= 3, b[i] == 0xEF, b[i + 1] == 0xBF, b[i + 2] == 0xA5 { return 3 }  // ￥
        if e - i >= 3, b[i] == 0xE2, b[i + 1] == 0x82, b[i + 2] == 0xAC { return 3 }  // €
        return nil
    }

    /// The length of a currency sign ending at `b[e - 1]`: `€`, `元`.
    static func currencySuffix(_ b: UnsafeBufferPointer<UInt8>, _ i: Int, _ e: Int) -> Int? {
        guard e - i >= 4 else { return nil }
        if b[e - 3] == 0xE2, b[e - 2] == 0x82, b[e - 1] == 0xAC { return 3 }  // €
        if b[e - 3] == 0xE5, b[e - 2] == 0x85, b[e - 1] == 0x83 { return 3 }  // 元
        return nil
    }
}
