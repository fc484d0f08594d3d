/// A number's decimal digits, as a spreadsheet rounds them for display: the shortest digits that
/// read back as the same `Double` (what was typed, for a typed number), cut to 15 significant
/// digits as Excel and LibreOffice keep them, then rounded half away from zero to the places a
/// format shows — so that 2.675 shown with two decimals is 2.68, as the programs show it, and not
/// the 2.67 a binary rounding gives.
struct DecimalDigits: Equatable {
    /// The digits, the first not zero (none for zero).
    var digits: [UInt8]
    /// Where the point goes: the value is 0.d₁d₂… × 10^exponent.
    var exponent: Int
    var negative: Bool

    init(digits: [UInt8], exponent: Int, negative: Bool) {
        self.digits = digits
        self.exponent = exponent
        self.negative = negative
        trim()
    }

    /// The digits of a finite `value`.
    init(_ value: Double) {
        negative = value < 0 || (value == 0 && value.sign == .minus)
        var all: [UInt8] = []
        var integerCount = 0
        var seenPoint = false
        var inExponent = false
        var exponentNegative = false
        var exponentPart = 0
        for c in abs(value).description.utf8 {
            switch c {
            case 0x2E: seenPoint = true
            case 0x65, 0x45: inExponent = true
            case 0x2D where inExponent: exponentNegative = true
            case 0x30...0x39:
                if inExponent {
                    exponentPart = exponentPart * 10 + Int(c - 0x30)
                } else {
                    all.append(c - 0x30)
                    if !seenPoint { integerCount += 1 }
                }
            default: break
            }
        }
        var exponent = integerCount + (exponentNegative ? -exponentPart : exponentPart)
        var first = 0
        while first < all.count, all[first] == 0 {
            first += 1
            exponent -= 1
        }
        digits = Array(all[first...])
        self.exponent = exponent
        trim()
        round(significant: 15)
    }

    var isZero: Bool { digits.isEmpty }

    private mutating func trim() {
        while digits.last == 0 { digits.removeLast() }
        if digits.isEmpty { exponent = 0 }
    }

    /// Rounds half away from zero to `count` significant digits.
    mutating func round(significant count: Int) {
        guard digits.count > count else { return }
        let up = digits[count] >= 5
        digits.removeLast(digits.count - count)
        if up { carry() }
        trim()
    }

    /// Rounds half away from zero to `places` digits after the point (negative: to tens, …).
    mutating func round(places: Int) {
        let keep = exponent + places
        guard digits.count > keep else { return }
        if keep < 0 {
            digits = []
            exponent = 0
            return
        }
        let up = digits[keep] >= 5
        digits.removeLast(digits.count - keep)
        if up {
            if keep == 0 {
                digits = [1]
                exponent += 1
            } else {
                carry()
            }
        }
        trim()
    }

    private mutating func carry() {
        var k = digits.count - 1
        while k >= 0 {
            if digits[k] < 9 {
                digits[k] += 1
                return
            }
            digits[k] = 0
            k -= 1
        }
        digits.insert(1, at: 0)
        exponent += 1
    }

    /// The digits before the point ("0" for none).
    var integerDigits: [UInt8] {
        guard exponent > 0 else { return [0] }
        var out = Array(digits.prefix(exponent))
        while out.count < exponent { out.append(0) }
        return out
    }

    /// The first `count` digits after the point, zeros filling.
    func fractionDigits(_ count: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count)
        for k in 0..<count {
            let index = exponent + k
            out.append(index >= 0 && index < digits.count ? digits[index] : 0)
        }
        return out
    }

    /// How many digits follow the point.
    var fractionCount: Int { max(0, digits.count - exponent) }
}
