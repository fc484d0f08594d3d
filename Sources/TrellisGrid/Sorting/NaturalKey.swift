import Foundation

/// Sort keys for natural order: bytes whose lexicographic order is the natural order of the
/// texts, so that each distinct text is analysed once and sorting compares bytes.
///
/// A text is read as a sequence of chunks: a run of decimal digits (of any script: `12`, `１２`,
/// `١٢`) or of Chinese numerals (`十一`, `二〇二六`, `一百零五`) is a number; every other character
/// is itself, case-folded. Numbers compare by value and come before other characters; then the
/// texts compare chunk by chunk, a shorter text first. Ties are broken by fewer leading zeros, then
/// by case (the first difference decides), then by the scalars of the text, so that only equal
/// texts are equivalent. Texts are compared in their composed form (NFC): `é` written as one
/// scalar or as `e` and a combining accent is the same text.
///
/// With `decimals`, a number may also carry a sign (at the start of the text or after a space)
/// and a fractional part (`-3 < 9 < 88.25 < 88.5`); this reads `1.10` as more than `1.9`, so it
/// is an option, for columns of measurements rather than of version numbers.
enum NaturalKey {
    private static let endOfSection: UInt8 = 0x00
    private static let negativeNumber: UInt8 = 0x01
    private static let number: UInt8 = 0x02
    private static let character: UInt8 = 0x03

    /// The key of `text`.
    static func make(_ text: String, decimals: Bool = false) -> [UInt8] {
        if !decimals {
            var text = text
            if let key = text.withUTF8({ simple($0) }) { return key }
        }
        return makeGeneral(text, decimals: decimals)
    }

    /// The first section of ``make(_:decimals:)``'s key — the characters case-folded and the
    /// numbers by value — which every key begins with: the key of a text's beginning (cut where
    /// no number is cut in two) begins as the whole text's does.
    static func primary(_ text: String, decimals: Bool = false) -> [UInt8] {
        if !decimals {
            var text = text
            if let key = text.withUTF8({ simple($0, primaryOnly: true) }) { return key }
        }
        return makeGeneral(text, decimals: decimals, primaryOnly: true)
    }

    /// The key of text made of ASCII and of CJK ideographs that are no numerals (`组12`, `item7`,
    /// `王小明`), built from its UTF-8 bytes — the same bytes ``makeGeneral(_:decimals:primaryOnly:)``
    /// gives, without reading the text as scalars: both are left as they are by NFC, and an
    /// ideograph has no case and is no digit. `nil` for any other text.
    static func simple(_ b: UnsafeBufferPointer<UInt8>, primaryOnly: Bool = false) -> [UInt8]? {
        var key: [UInt8] = []
        key.reserveCapacity(b.count * 5 + 8)
        return appendSimple(b, primaryOnly: primaryOnly, to: &key) ? key : nil
    }

    /// Appends ``simple(_:primaryOnly:)``'s key to `key` and says `true`; for any other text,
    /// leaves `key` as it was and says `false`. The key's sections are written one after the
    /// other, each from its own pass over the text's bytes: what many texts' keys are made
    /// with, no array made for any.
    static func appendSimple(_ b: UnsafeBufferPointer<UInt8>, primaryOnly: Bool = false, to key: inout [UInt8]) -> Bool {
        let n = b.count, start = key.count
        /// The end of the run of ASCII digits from `i`.
        @inline(__always) func digitsEnd(_ i: Int) -> Int {
            var j = i
            while j < n, b[j] &- 48 < 10 { j += 1 }
            return j
        }
        /// The end of the run of zeros from `i`, up to `end`.
        @inline(__always) func zerosEnd(_ i: Int, _ end: Int) -> Int {
            var z = i
            while z < end, b[z] == 48 { z += 1 }
            return z
        }
        // The characters case-folded and the numbers by value.
        var i = 0
        while i < n {
            let c = b[i]
            if c >= 0x80 {
                // U+3400…U+9FFF is three bytes, E3 90 80 to E9 BF BF.
                guard c >= 0xE3, c <= 0xE9, i + 2 < n, b[i + 1] & 0xC0 == 0x80, b[i + 2] & 0xC0 == 0x80 else {
                    key.removeSubrange(start...)
                    return false
                }
                let v = UInt32(c & 0x0F) << 12 | UInt32(b[i + 1] & 0x3F) << 6 | UInt32(b[i + 2] & 0x3F)
                guard v >= 0x3400, let scalar = Unicode.Scalar(v), !ChineseNumeral.isNumeral(scalar) else {
                    key.removeSubrange(start...)
                    return false
                }
                key.append(character)
                key.append(c)
                key.append(b[i + 1])
                key.append(b[i + 2])
                i += 3
                continue
            }
            if c &- 48 < 10 {
                let j = digitsEnd(i)
                let first = min(zerosEnd(i, j), j - 1)
                let significant = j - first
                key.append(number)
                if significant == 1 && b[first] == 48 {
                    key.append(0)
                    key.append(0)
                } else {
                    let count = UInt16(clamping: significant)
                    key.append(UInt8(count >> 8))
                    key.append(UInt8(count & 0xFF))
                    for k in first..<j { key.append(b[k] - 48 + 1) }
                }
                key.append(0)
                i = j
                continue
            }
            key.append(character)
            key.append(c >= 65 && c <= 90 ? c + 32 : c)
            i += 1
        }
        if primaryOnly { return true }
        key.append(endOfSection)
        // Each number's leading zeros, two bytes.
        i = 0
        while i < n {
            let c = b[i]
            if c >= 0x80 {
                i += 3
            } else if c &- 48 < 10 {
                let j = digitsEnd(i)
                let z = UInt16(clamping: zerosEnd(i, j) - i)
                key.append(UInt8(z >> 8))
                key.append(UInt8(z & 0xFF))
                i = j
            } else {
                i += 1
            }
        }
        key.append(endOfSection)
        // Each character as written, after a 1.
        i = 0
        while i < n {
            let c = b[i]
            if c >= 0x80 {
                key.append(1)
                key.append(c)
                key.append(b[i + 1])
                key.append(b[i + 2])
                i += 3
            } else if c &- 48 < 10 {
                i = digitsEnd(i)
            } else {
                key.append(1)
                key.append(c)
                i += 1
            }
        }
        key.append(endOfSection)
        // Each scalar after a 1: a byte, or an ideograph's three.
        var k = 0
        while k < n {
            key.append(1)
            let width = b[k] < 0x80 ? 1 : 3
            for j in k..<(k + width) { key.append(b[j]) }
            k += width
        }
        return true
    }

    /// The key of any text.
    static func makeGeneral(_ text: String, decimals: Bool, primaryOnly: Bool = false) -> [UInt8] {
        let composed = composedScalars(text)
        var primary: [UInt8] = [], zeros: [UInt8] = [], cases: [UInt8] = []
        // Room for the whole key: the primary part, then the others appended to it.
        primary.reserveCapacity(composed.count * 12 + 8)
        var i = 0
        let n = composed.count
        while i < n {
            let scalar = composed[i]
            let v = scalar.value
            // Most scalars of most texts: an ASCII letter, or a CJK ideograph that is no numeral
            // (ideographs have no case and are no decimal digits).
            if (v | 0x20) &- 0x61 < 26 || (v >= 0x3400 && v <= 0x9FFF && !ChineseNumeral.isNumeral(scalar)) {
                primary.append(character)
                appendScalar(&primary, v < 0x80 ? Unicode.Scalar(UInt8(v | 0x20)) : scalar)
                cases.append(1)
                appendScalar(&cases, scalar)
                i += 1
                continue
            }
            if decimals, let (negative, integer, fraction, next) = signedDecimal(composed, i) {
                appendNumber(&primary, integer: integer, fraction: fraction, negative: negative)
                appendCount(&zeros, integer.prefix { $0 == 0 }.count)
                i = next
                continue
            }
            if let value = digitValue(scalar) {
                var digits: [UInt8] = [value]
                var j = i + 1
                while j < n, let d = digitValue(composed[j]) {
                    digits.append(d)
                    j += 1
                }
                let leading = digits.prefix { $0 == 0 }.count
                appendNumber(
                    &primary, integer: Array(digits.dropFirst(min(leading, digits.count - 1))), fraction: [],
                    negative: false)
                appendCount(&zeros, leading)
                i = j
                continue
            }
            if ChineseNumeral.isNumeral(scalar), let (value, next) = ChineseNumeral.read(composed, i) {
                appendNumber(&primary, integer: value, fraction: [], negative: false)
                appendCount(&zeros, 0)
                i = next
                continue
            }
            if scalar.properties.changesWhenLowercased {
                for folded in Character(scalar).lowercased().unicodeScalars {
                    primary.append(character)
                    appendScalar(&primary, folded)
                }
            } else {
                primary.append(character)
                appendScalar(&primary, scalar)
            }
            cases.append(1)
            appendScalar(&cases, scalar)
            i += 1
        }
        if primaryOnly { return primary }
        var key = consume primary
        key.append(endOfSection)
        key += zeros
        key.append(endOfSection)
        key += cases
        key.append(endOfSection)
        for scalar in composed {
            key.append(1)
            appendScalar(&key, scalar)
        }
        return key
    }

    /// The scalars of `text` in composed form (NFC). Text whose every scalar is one that NFC
    /// leaves alone whatever surrounds it (below U+0300, where no scalar combines or decomposes;
    /// the CJK ideographs; the fullwidth forms of ASCII) is composed already and is not
    /// normalized again.
    static func composedScalars(_ text: String) -> [Unicode.Scalar] {
        let scalars = Array(text.unicodeScalars)
        if scalars.allSatisfy(isStable) { return scalars }
        return Array(text.precomposedStringWithCanonicalMapping.unicodeScalars)
    }

    /// Whether NFC keeps `scalar` as it is in any text: it neither decomposes nor combines with
    /// a scalar beside it.
    @inline(__always)
    static func isStable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x300, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xFF01...0xFF5E: true
        default: false
        }
    }

    @inline(__always)
    static func digitValue(_ scalar: Unicode.Scalar) -> UInt8? {
        let v = scalar.value
        if v >= 48 && v <= 57 { return UInt8(v - 48) }
        guard v >= 0x660, scalar.properties.numericType == .decimal, let value = scalar.properties.numericValue else { return nil }
        return UInt8(value)
    }

    /// A scalar as its UTF-8 bytes: prefix-free and ordered as the scalars are, so tokens of
    /// different lengths still compare right.
    @inline(__always)
    private static func appendScalar(_ key: inout [UInt8], _ scalar: Unicode.Scalar) {
        let v = scalar.value
        switch v {
        case 0..<0x80:
            key.append(UInt8(v))
        case 0x80..<0x800:
            key.append(UInt8(0xC0 | v >> 6))
            key.append(UInt8(0x80 | v & 0x3F))
        case 0x800..<0x10000:
            key.append(UInt8(0xE0 | v >> 12))
            key.append(UInt8(0x80 | (v >> 6) & 0x3F))
            key.append(UInt8(0x80 | v & 0x3F))
        default:
            key.append(UInt8(0xF0 | v >> 18))
            key.append(UInt8(0x80 | (v >> 12) & 0x3F))
            key.append(UInt8(0x80 | (v >> 6) & 0x3F))
            key.append(UInt8(0x80 | v & 0x3F))
        }
    }

    /// A count in two bytes, big-endian (counts past 65535 compare as 65535).
    private static func appendCount(_ key: inout [UInt8], _ count: Int) {
        let c = UInt16(clamping: count)
        key.append(UInt8(c >> 8))
        key.append(UInt8(c & 0xFF))
    }

    /// A number: its sign, the count of its integer digits, its digits, then its fraction's
    /// digits and an end. Negative numbers have their bytes inverted, so that a larger magnitude
    /// sorts first.
    private static func appendNumber(_ key: inout [UInt8], integer: [UInt8], fraction: [UInt8], negative: Bool) {
        var integer = integer
        while integer.count > 1, integer.first == 0 { integer.removeFirst() }
        var fraction = fraction
        while fraction.last == 0 { fraction.removeLast() }
        let isZero = integer.allSatisfy { $0 == 0 } && fraction.isEmpty
        let negative = negative && !isZero
        var body: [UInt8] = []
        appendCount(&body, integer == [0] ? 0 : integer.count)
        if integer != [0] { for d in integer { body.append(d + 1) } }
        for d in fraction { body.append(d + 1) }
        body.append(0)
        key.append(negative ? negativeNumber : number)
        if negative { key += body.map { ~$0 } } else { key += body }
    }

    /// A signed or fractional number starting at `i`: a sign only at the start or after a space,
    /// a point only between digits. `nil` when there is none or it has neither sign nor point.
    private static func signedDecimal(_ s: [Unicode.Scalar], _ start: Int) -> (Bool, [UInt8], [UInt8], Int)? {
        var i = start
        var negative = false
        if s[i] == "-" || s[i] == "+" || s[i] == "−" {
            guard i == 0 || s[i - 1] == " " else { return nil }
            negative = s[i] != "+"
            i += 1
        }
        var integer: [UInt8] = []
        while i < s.count, let d = digitValue(s[i]) { integer.append(d); i += 1 }
        guard !integer.isEmpty else { return nil }
        var fraction: [UInt8] = []
        if i + 1 < s.count, s[i] == ".", digitValue(s[i + 1]) != nil {
            i += 1
            while i < s.count, let d = digitValue(s[i]) { fraction.append(d); i += 1 }
        }
        guard i > start + integer.count || !fraction.isEmpty else { return nil }
        return (negative, integer, fraction, i)
    }
}

/// Chinese numerals in text: 一 … 九, 〇 and 零, 两, and the units 十, 百, 千, 万, 亿, read as the
/// number they write (`十一` = 11, `一百零五` = 105, `二〇二六` = 2026, `三万五千` = 35000).
enum ChineseNumeral {
    /// Characters that count what a numeral before them numbers: 第三组, 一班, 十二号楼, 二〇二四年.
    static let counters: Set<Unicode.Scalar> = Set("组班年级号楼层章节课期届次队排名位季月日周岁元个栋区院系部科室车间团连营".unicodeScalars)
    /// Characters after which a numeral is an ordinal: 第三, 初二, 高一, 周五.
    static let ordinalMarks: Set<Unicode.Scalar> = Set("第初高周".unicodeScalars)

    /// `text` with its Chinese numbers written in ASCII digits (`第十一组` → `第11组`), for a
    /// collation that orders digits by value; `nil` when there are none. A run of numerals is a
    /// number when it is the whole text, follows 第 初 高 周, precedes a counter (组 班 年 号 …),
    /// or is written with a unit or a zero (`十一`, `二十`, `二〇二六`): a lone 一 or 三 in a name
    /// (王一博, 张三) stays a character, collated by its reading.
    static func arabic(in text: String) -> String? {
        guard text.unicodeScalars.contains(where: isNumeral) else { return nil }
        let s = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var changed = false
        var i = 0
        while i < s.count {
            guard isNumeral(s[i]), let (value, end) = read(s, i) else {
                out.append(s[i])
                i += 1
                continue
            }
            let run = s[i..<end]
            let whole = i == 0 && end == s.count
            let ordinal = i > 0 && ordinalMarks.contains(s[i - 1])
            let counted = end < s.count && counters.contains(s[end])
            let written =
                (run.count >= 2 && run.contains { unit($0) != nil }) || run.contains { $0 == "〇" || $0 == "零" }
                || (run.count >= 2 && run.allSatisfy { digit($0) != nil } && whole)
            if whole || ordinal || counted || written {
                out.append(contentsOf: value.map { Unicode.Scalar(UInt8(48) + $0) })
                changed = true
            } else {
                out.append(contentsOf: run)
            }
            i = end
        }
        return changed ? String(out) : nil
    }

    static func digit(_ scalar: Unicode.Scalar) -> UInt64? {
        switch scalar {
        case "〇", "零": return 0
        case "一": return 1
        case "二", "两": return 2
        case "三": return 3
        case "四": return 4
        case "五": return 5
        case "六": return 6
        case "七": return 7
        case "八": return 8
        case "九": return 9
        default: return nil
        }
    }

    static func unit(_ scalar: Unicode.Scalar) -> UInt64? {
        switch scalar {
        case "十": return 10
        case "百": return 100
        case "千": return 1000
        case "万": return 10_000
        case "亿": return 100_000_000
        default: return nil
        }
    }

    static func isNumeral(_ scalar: Unicode.Scalar) -> Bool { digit(scalar) != nil || unit(scalar) != nil }

    /// The number written from `start`, and where it ends; `nil` for a run that is not a number
    /// (a unit other than 十 with no digit, as in 万达 or 千岛湖) or that passes 64 bits.
    static func read(_ s: [Unicode.Scalar], _ start: Int) -> ([UInt8], Int)? {
        var end = start
        while end < s.count, isNumeral(s[end]) { end += 1 }
        let run = s[start..<end]
        guard run.contains(where: { digit($0) != nil }) || run.first == "十" else { return nil }
        var total: UInt64 = 0, tenThousands: UInt64 = 0, section: UInt64 = 0, number: UInt64 = 0
        var lastWasDigit = false
        for scalar in run {
            if let d = digit(scalar) {
                if lastWasDigit {
                    // Digits side by side are positional: 二〇二六.
                    let (times, o1) = number.multipliedReportingOverflow(by: 10)
                    let (plus, o2) = times.addingReportingOverflow(d)
                    if o1 || o2 { return nil }
                    number = plus
                } else {
                    number = d
                }
                lastWasDigit = true
                continue
            }
            lastWasDigit = false
            guard let u = unit(scalar) else { return nil }
            switch u {
            case 10, 100, 1000:
                let (value, o) = (number == 0 && section == 0 && tenThousands == 0 && total == 0 ? 1 : max(number, 1))
                    .multipliedReportingOverflow(by: u)
                if o { return nil }
                section += value
                number = 0
            case 10_000:
                let (value, o) = (section + number).multipliedReportingOverflow(by: u)
                if o { return nil }
                tenThousands += value
                section = 0
                number = 0
            default:
                let (value, o) = (tenThousands + section + number).multipliedReportingOverflow(by: u)
                if o { return nil }
                total += value
                tenThousands = 0
                section = 0
                number = 0
            }
        }
        let (sum, o) = total.addingReportingOverflow(tenThousands + section + number)
        if o { return nil }
        return (Array(String(sum).utf8).map { $0 - 48 }, end)
    }
}
