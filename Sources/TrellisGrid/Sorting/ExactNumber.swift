import Foundation

/// A number held exactly as its decimal digits: what orders numbers that a double cannot tell
/// apart (`12345678901234567890` and `12345678901234567891`, or `0.1000000000000000001` and
/// `0.1`).
///
/// The value is `±0.d₁d₂…dₙ × 10^exponent`, with no leading or trailing zero digit (zero has no
/// digits).
struct ExactDecimal: Comparable, Hashable, Sendable {
    var negative = false
    var exponent = 0
    var digits: [UInt8] = []

    static let zero = ExactDecimal()

    init() {}

    /// The number a cell's text spells (the grammar of ``CellText``), or `nil`.
    init?(_ text: UnsafeBufferPointer<UInt8>) {
        var start = 0, end = text.count
        CellText.trim(text, &start, &end)
        guard start < end else { return nil }
        var i = start
        if text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+") {
            negative = text[i] == UInt8(ascii: "-")
            i += 1
        }
        var pointSeen = false, integerDigits = 0, any = false
        var leadingZeros = true
        while i < end {
            let d = text[i] &- 48
            if d < 10 {
                any = true
                if leadingZeros && d == 0 {
                    if pointSeen { integerDigits -= 1 }
                } else {
                    leadingZeros = false
                    digits.append(d)
                    if !pointSeen { integerDigits += 1 }
                }
                i += 1
            } else if text[i] == UInt8(ascii: "."), !pointSeen {
                pointSeen = true
                i += 1
            } else {
                break
            }
        }
        guard any else { return nil }
        var written = 0
        if i < end, text[i] == UInt8(ascii: "e") || text[i] == UInt8(ascii: "E") {
            i += 1
            var minus = false
            if i < end, text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+") { minus = text[i] == UInt8(ascii: "-"); i += 1 }
            var count = 0
            while i < end, (text[i] &- 48) < 10 {
                if written < 1_000_000 { written = written * 10 + Int(text[i] &- 48) }
                count += 1
                i += 1
            }
            guard count > 0 else { return nil }
            if minus { written = -written }
        } else if i < end {
            // 万, 亿, 万亿.
            let rest = Array(UnsafeBufferPointer(rebasing: text[i..<end]))
            switch rest {
            case [0xE4, 0xB8, 0x87]: written = 4
            case [0xE4, 0xBA, 0xBF]: written = 8
            case [0xE4, 0xB8, 0x87, 0xE4, 0xBA, 0xBF]: written = 12
            default: return nil
            }
            i = end
        }
        guard i == end else { return nil }
        while digits.last == 0 { digits.removeLast() }
        if digits.isEmpty { self = .zero; return }
        exponent = integerDigits + written
    }

    init?(_ text: String) {
        var text = text
        guard let value = text.withUTF8({ ExactDecimal($0) }) else { return nil }
        self = value
    }

    /// An integer, exactly.
    init(_ value: Int64) {
        guard value != 0 else { return }
        negative = value < 0
        var magnitude = value.magnitude
        var reversed: [UInt8] = []
        while magnitude > 0 {
            reversed.append(UInt8(magnitude % 10))
            magnitude /= 10
        }
        digits = reversed.reversed()
        exponent = digits.count
        while digits.last == 0 { digits.removeLast() }
    }

    /// A double, exactly: its binary value written out in decimal digits.
    ///
    /// value = significand · 2^shift; for a negative shift, significand · 5^−shift / 10^−shift.
    /// The product is kept in limbs of nine decimal digits (least significant first) and
    /// multiplied by 2^31 or 5^13 at a time — a few passes over a few limbs for the doubles a
    /// table holds, where a digit at a time took a pass per power.
    init(_ value: Double) {
        guard value != 0, value.isFinite else { return }
        negative = value < 0
        let e = Int(value.exponent) - Double.significandBitCount
        var significand = value.significandBitPattern | (value.isNormal ? 1 << UInt64(Double.significandBitCount) : 0)
        var shift = value.isNormal ? e : -1074
        while significand & 1 == 0, significand > 0 { significand >>= 1; shift += 1 }
        let base: UInt64 = 1_000_000_000
        var limbs: [UInt64] = []
        var s = significand
        while s > 0 { limbs.append(s % base); s /= base }
        func multiply(by factor: UInt64) {
            var carry: UInt64 = 0
            for k in limbs.indices {
                let product = limbs[k] * factor + carry
                limbs[k] = product % base
                carry = product / base
            }
            while carry > 0 { limbs.append(carry % base); carry /= base }
        }
        var remaining = abs(shift)
        if shift > 0 {
            while remaining > 0 { let step = min(remaining, 31); multiply(by: 1 << UInt64(step)); remaining -= step }
        } else {
            while remaining > 0 {
                let step = min(remaining, 13)
                var power: UInt64 = 1
                for _ in 0..<step { power *= 5 }
                multiply(by: power)
                remaining -= step
            }
        }
        // The limbs as digits, most significant first.
        var number: [UInt8] = []
        number.reserveCapacity(limbs.count * 9)
        for (k, limb) in limbs.enumerated().reversed() {
            // Nine digits a limb, but the top one's leading zeros.
            var width = 9
            if k == limbs.count - 1 {
                width = 1
                var rest = limb / 10
                while rest > 0 { width += 1; rest /= 10 }
            }
            let start = number.count
            number.append(contentsOf: repeatElement(0, count: width))
            var l = limb
            for j in stride(from: start + width - 1, through: start, by: -1) { number[j] = UInt8(l % 10); l /= 10 }
        }
        digits = number
        exponent = digits.count + (shift < 0 ? shift : 0)
        while digits.first == 0 { digits.removeFirst(); exponent -= 1 }
        while digits.last == 0 { digits.removeLast() }
    }

    static func < (a: ExactDecimal, b: ExactDecimal) -> Bool {
        if a.negative != b.negative { return a.negative && !(a.digits.isEmpty && b.digits.isEmpty) }
        let magnitude = compareMagnitude(a, b)
        return a.negative ? magnitude > 0 : magnitude < 0
    }

    /// −1, 0 or 1 as |a| is below, equal to or above |b|.
    static func compareMagnitude(_ a: ExactDecimal, _ b: ExactDecimal) -> Int {
        if a.digits.isEmpty || b.digits.isEmpty {
            return a.digits.isEmpty ? (b.digits.isEmpty ? 0 : -1) : 1
        }
        if a.exponent != b.exponent { return a.exponent < b.exponent ? -1 : 1 }
        for (x, y) in zip(a.digits, b.digits) where x != y { return x < y ? -1 : 1 }
        return a.digits.count == b.digits.count ? 0 : (a.digits.count < b.digits.count ? -1 : 1)
    }
}
