import Foundation

extension NaturalKey {
    /// The order of two texts' natural keys, found by walking the texts side by side instead of
    /// building the keys: what ``TextComparator/compare(_:_:)`` answers a million times a second.
    /// Walks the first level (numbers by value, characters case-folded); texts equal there, and
    /// texts the walk does not take (letters that change when lowercased beyond ASCII, text that
    /// may not be in composed form), are compared by their keys.
    static func compare(_ a: String, _ b: String) -> ComparisonResult {
        var a = a, b = b
        let walked: ComparisonResult?? = a.withUTF8 { x in
            b.withUTF8 { y in
                (isPlain(x) && isPlain(y)) ? .some(walk(x, y)) : .none
            }
        }
        if case .some(.some(let order)) = walked { return order }
        return SortKeys.compare(make(a), make(b))
    }

    /// Whether UTF-8 text is ASCII, CJK ideographs, CJK punctuation or full-width forms only:
    /// text that is in composed form as it is and whose letters fold as ASCII does.
    private static func isPlain(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        while i < b.count {
            let c = b[i]
            if c < 0x80 { i += 1; continue }
            // Three-byte sequences E3–E9 (U+3000–U+9FFF) and EF BC–BF (U+FF00–U+FFFF).
            guard i + 2 < b.count else { return false }
            // Kana voicing marks (U+3099, U+309A) combine: not composed as they stand.
            if c == 0xE3, b[i + 1] == 0x82, b[i + 2] == 0x99 || b[i + 2] == 0x9A { return false }
            if (c >= 0xE3 && c <= 0xE9) || (c == 0xEF && b[i + 1] >= 0xBC) { i += 3; continue }
            return false
        }
        return true
    }

    /// The first-level order of plain texts, or `nil` when they are equal there.
    private static func walk(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> ComparisonResult? {
        var i = 0, j = 0
        while true {
            if i >= x.count || j >= y.count {
                if i >= x.count && j >= y.count { return nil }
                return i >= x.count ? .orderedAscending : .orderedDescending
            }
            let p = Token.at(x, i), q = Token.at(y, j)
            switch (p.number, q.number) {
            case (nil, nil):
                if p.scalar != q.scalar { return p.scalar < q.scalar ? .orderedAscending : .orderedDescending }
            case (.some, nil): return .orderedAscending
            case (nil, .some): return .orderedDescending
            case (.some(let m), .some(let n)):
                if m.count != n.count { return m.count < n.count ? .orderedAscending : .orderedDescending }
                for k in 0..<m.count where m[k] != n[k] { return m[k] < n[k] ? .orderedAscending : .orderedDescending }
            }
            i = p.end
            j = q.end
        }
    }

    /// One token of plain text: a number (its significant digits, none for zero) or a character
    /// (its scalar, ASCII letters lowercased), and where the next starts.
    private struct Token {
        var number: [UInt8]?
        var scalar: UInt32 = 0
        var end: Int

        /// The value of the digit at `b[k]` — ASCII or full-width — and its length, or `nil`.
        @inline(__always)
        static func digit(_ b: UnsafeBufferPointer<UInt8>, _ k: Int) -> (UInt8, Int)? {
            let c = b[k]
            if c &- 48 < 10 { return (c - 48, 1) }
            if c == 0xEF, k + 2 < b.count, b[k + 1] == 0xBC, b[k + 2] >= 0x90, b[k + 2] <= 0x99 { return (b[k + 2] - 0x90, 3) }
            return nil
        }

        static func at(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Token {
            let c = b[i]
            if digit(b, i) != nil {
                // A run of digits, ASCII and full-width alike, is one number.
                var digits: [UInt8] = []
                var end = i
                while end < b.count, let (value, length) = digit(b, end) {
                    if !(digits.isEmpty && value == 0) { digits.append(value) }
                    end += length
                }
                return Token(number: digits, end: end)
            }
            if c < 0x80 { return Token(number: nil, scalar: UInt32(c >= 65 && c <= 90 ? c + 32 : c), end: i + 1) }
            let scalar = UInt32(c & 0x0F) << 12 | UInt32(b[i + 1] & 0x3F) << 6 | UInt32(b[i + 2] & 0x3F)
            if let numeral = Unicode.Scalar(scalar), ChineseNumeral.isNumeral(numeral) {
                // A run of Chinese numerals read as the number it writes (万达 is a word).
                var scalars: [Unicode.Scalar] = []
                var end = i
                while end + 2 < b.count {
                    guard b[end] >= 0xE3 else { break }
                    let v = UInt32(b[end] & 0x0F) << 12 | UInt32(b[end + 1] & 0x3F) << 6 | UInt32(b[end + 2] & 0x3F)
                    guard let s = Unicode.Scalar(v), ChineseNumeral.isNumeral(s) else { break }
                    scalars.append(s)
                    end += 3
                }
                if let (value, next) = ChineseNumeral.read(scalars, 0), next == scalars.count {
                    var digits = value
                    while digits.count > 1, digits.first == 0 { digits.removeFirst() }
                    return Token(number: digits == [0] ? [] : digits, end: end)
                }
            }
            // Full-width capitals fold as ASCII ones do (Ａ → ａ).
            let folded = scalar >= 0xFF21 && scalar <= 0xFF3A ? scalar + 0x20 : scalar
            return Token(number: nil, scalar: folded, end: i + 3)
        }
    }
}
