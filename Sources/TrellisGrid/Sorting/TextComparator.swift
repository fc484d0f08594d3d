import Foundation
import TrellisText

/// How text compares. Every comparator answers ascending order only; direction is applied once,
/// outside. Texts are compared in composed form (NFC) by every comparator, so the two spellings
/// of `é` are the same text.
///
/// ```swift
/// TextComparator.natural.compare("组2", "组10")        // .orderedAscending
/// TextComparator.natural.compare("第二组", "第十组")    // .orderedAscending
/// TextComparator.lexical.compare("组2", "组10")        // .orderedDescending
/// TextComparator.localized("zh").compare("张", "李")   // .orderedDescending: pinyin zhāng after lǐ
/// ```
public enum TextComparator: Hashable, Sendable, CustomStringConvertible {
    /// Unicode scalar order.
    case lexical
    /// Scalar order after case folding; `a` and `A` are equivalent.
    case caseInsensitive
    /// Runs of digits of any script and Chinese numerals compare as numbers (`item2 < item10`,
    /// `组2 < 组10`, `第二组 < 第十组 < 第十一组`), numbers before other characters,
    /// case-insensitive first, then fewer leading zeros, then case as tie-breaks.
    case natural
    /// ``natural``, where a number may also carry a sign and a fractional part
    /// (`-3 < 9 < 88.25 < 88.5`). Not for version numbers: `1.10` reads as more than `1.9`.
    case naturalDecimal
    /// The collation of a locale through ICU (`zh`: pinyin; `zh@collation=stroke`: stroke count;
    /// `de`, `sv`, …), with numbers in text compared by value (`组2 < 组10`) unless the locale id
    /// says otherwise (`zh-u-kn-false`). Strings the collation finds equal are equivalent.
    case localized(String)
    /// The order of a list (Excel's 自定义序列, custom lists): a text equal to an item (spaces
    /// around it aside) sorts at the item's place; any other text after every item, in natural
    /// order. See ``CustomList``.
    case listed([String])

    public var description: String {
        switch self {
        case .lexical: return "lexical"
        case .caseInsensitive: return "nocase"
        case .natural: return "natural"
        case .naturalDecimal: return "natural-decimal"
        case .localized(let locale): return "locale(\(locale))"
        case .listed(let items): return "order(\(items.joined(separator: ",")))"
        }
    }

    /// Compares two texts in ascending order.
    public func compare(_ a: String, _ b: String) -> ComparisonResult {
        // A long text compares as its bounded key says, as a sort compares it.
        if a.utf8.count > Self.keyLimit || b.utf8.count > Self.keyLimit { return SortKeys.compare(sortKey(a), sortKey(b)) }
        switch self {
        case .localized(let locale): return Collation.shared(locale).compare(a, b)
        case .natural: return NaturalKey.compare(a, b)
        case .lexical:
            // Scalar order is UTF-8 byte order; composed form only matters beyond ASCII.
            if a.utf8.allSatisfy({ $0 < 0x80 }) && b.utf8.allSatisfy({ $0 < 0x80 }) {
                return a == b ? .orderedSame : (a.utf8.lexicographicallyPrecedes(b.utf8) ? .orderedAscending : .orderedDescending)
            }
            return SortKeys.compare(sortKey(a), sortKey(b))
        default: return SortKeys.compare(sortKey(a), sortKey(b))
        }
    }

    /// The most bytes of a sort key: a text whose key would be longer (a cell of many kilobytes)
    /// is keyed by the key's first ``keyLimit`` bytes — about 20,000 characters' worth — made
    /// from the text's beginning alone, so that a gigabyte cell costs 64 KB to sort, not five
    /// gigabytes. Texts whose keys agree that far are equal for the sort (they keep their order).
    static let keyLimit = 1 << 16

    /// Bytes whose order is this comparator's order of the texts (equal bytes: equivalent texts).
    /// A text of more than ``keyLimit`` bytes gives the first ``keyLimit`` bytes of its key.
    func sortKey(_ text: String) -> [UInt8] {
        if text.utf8.count > Self.keyLimit { return boundedKey(text) }
        return fullKey(text)
    }

    /// The first ``keyLimit`` bytes of a long text's key, made from its beginning: its first
    /// ``keyLimit`` bytes cut back to a character (and, for a natural order, to before a number
    /// the cut would split), whose key's first section — characters and numbers, which the whole
    /// text's key begins with — is then as long as the limit or longer.
    func boundedKey(_ text: String) -> [UInt8] {
        let utf8 = text.utf8
        var end = utf8.index(utf8.startIndex, offsetBy: Self.keyLimit)
        // Back to the start of a character.
        while end > text.startIndex, end.samePosition(in: text) == nil { end = utf8.index(before: end) }
        let head = String(text[..<end])
        switch self {
        case .lexical, .caseInsensitive:
            return Array(fullKey(head).prefix(Self.keyLimit))
        case .natural, .naturalDecimal:
            let key = NaturalKey.primary(Self.cutBeforeNumber(head), decimals: self == .naturalDecimal)
            return Array(key.prefix(Self.keyLimit))
        case .localized(let locale):
            // ICU's first level ends at its first 01 byte (level separator), which no weight holds.
            let key = Collation.shared(locale).sortKey(Self.cutBeforeNumber(head))
            let primary = key.firstIndex(of: 0x01).map { key[..<$0] } ?? key[...]
            return Array(primary.prefix(Self.keyLimit))
        case .listed:
            // No item is that long: the text sorts after the items, by its natural key's start.
            return Array(([0xFF] + NaturalKey.primary(Self.cutBeforeNumber(head), decimals: false)).prefix(Self.keyLimit))
        }
    }

    /// A cut text's head without the number it may end inside (a run of digits or Chinese
    /// numerals, with a point or a sign): natural keys and ICU's numeric collation say how many
    /// digits a number has. A head that is all number keeps its cut.
    private static func cutBeforeNumber(_ head: String) -> String {
        let kept = head.reversed().drop { $0.isNumber || ChineseNumeral.isNumeral($0.unicodeScalars.first!) || ".-+".contains($0) }
        return kept.isEmpty ? head : String(kept.reversed())
    }

    /// The whole key of `text`.
    private func fullKey(_ text: String) -> [UInt8] {
        switch self {
        case .lexical: return Array(NaturalKey.composed(text).utf8)
        case .caseInsensitive: return Array(NaturalKey.composed(text).lowercased().utf8)
        case .natural: return NaturalKey.make(text)
        case .naturalDecimal: return NaturalKey.make(text, decimals: true)
        case .localized(let locale): return Collation.shared(locale).sortKey(text)
        case .listed(let items):
            // An item's place (four bytes, below 0xFF), else 0xFF and the natural key.
            let trimmed = text.trimmingSpaces()
            if let place = items.firstIndex(of: trimmed) {
                let p = UInt32(place)
                return [UInt8(p >> 24), UInt8(truncatingIfNeeded: p >> 16), UInt8(truncatingIfNeeded: p >> 8), UInt8(truncatingIfNeeded: p)]
            }
            return [0xFF] + NaturalKey.make(text)
        }
    }

    /// Ranks of `values` (any order, duplicates allowed): equal ranks for equivalent texts, and
    /// ranks ordered as the texts are. What sorting uses, so that each distinct text is analysed
    /// once instead of at every comparison of rows.
    ///
    /// - Complexity: one sort key per distinct value, then O(d log d) byte comparisons.
    public func ranks(_ values: [String]) -> [Int32] {
        var index: [String: Int32] = [:]
        var distinct: [String] = []
        let ids = values.map { value -> Int32 in
            if let id = index[value] { return id }
            let id = Int32(distinct.count)
            index[value] = id
            distinct.append(value)
            return id
        }
        let rankOfDistinct = ranks(ofDistinct: distinct)
        return ids.map { rankOfDistinct[Int($0)] }
    }

    /// The sort keys of `texts`, made in one chunk per core (ICU's by a collator cloned for each
    /// chunk): one ``SortKeys`` per chunk of `chunks`.
    private func keys(of texts: [String], in chunks: [Range<Int>]) -> [SortKeys] {
        Parallel.map(chunks) { _, range in
            var keys = SortKeys()
            keys.reserve(range.count)
            if case .localized(let locale) = self, chunks.count > 1 {
                let keyer = Collation.Keyer(Collation.shared(locale))
                for i in range {
                    if texts[i].utf8.count > Self.keyLimit { keys.append(boundedKey(texts[i])) } else { keyer.appendSortKey(texts[i], to: &keys) }
                }
            } else if case .natural = self {
                // Most texts' keys written straight into the keys' buffer.
                for i in range {
                    var text = texts[i]
                    let written = text.utf8.count <= Self.keyLimit && text.withUTF8 { b in keys.append { NaturalKey.appendSimple(b, to: &$0) } }
                    if !written { keys.append(sortKey(text)) }
                }
            } else {
                for i in range { keys.append(sortKey(texts[i])) }
            }
            return keys
        }
    }

    /// Ranks of texts that are already distinct as strings (they may still be equivalent).
    /// Many texts have their keys made in one chunk per core and are sorted in parts at once,
    /// then merged.
    func ranks(ofDistinct texts: [String]) -> [Int32] {
        let parts = keys(of: texts, in: Parallel.chunks(texts.count, minimum: 4096))
        var keys = parts[0]
        for part in parts.dropFirst() { keys.append(contentsOf: part) }
        return keys.ranks()
    }

    /// The positions of the first smallest and the first largest of `texts` in this order, or
    /// `nil` for none: each text's key made once (one chunk per core), then compared as bytes in
    /// one pass — what a column's minimum and maximum need, without sorting every text.
    func extremes(of texts: [String]) -> (least: Int, most: Int)? {
        guard !texts.isEmpty else { return nil }
        let chunks = Parallel.chunks(texts.count, minimum: 4096)
        var best: (least: Int, most: Int)?
        var bestKeys: (least: [UInt8], most: [UInt8]) = ([], [])
        for (c, keys) in keys(of: texts, in: chunks).enumerated() {
            let (least, most) = keys.extremes()
            let leastKey = keys.key(least), mostKey = keys.key(most)
            let offset = chunks[c].lowerBound
            guard var found = best else {
                best = (offset + least, offset + most)
                bestKeys = (leastKey, mostKey)
                continue
            }
            // Later chunks win only when strictly beyond: the first of equals stays.
            if SortKeys.compare(leastKey, bestKeys.least) == .orderedAscending { found.least = offset + least; bestKeys.least = leastKey }
            if SortKeys.compare(mostKey, bestKeys.most) == .orderedDescending { found.most = offset + most; bestKeys.most = mostKey }
            best = found
        }
        return best
    }

    /// The ICU locale of a ``localized`` comparator, checked: `nil` when ICU knows its language,
    /// otherwise the error to report.
    public func checkLocale() -> SortError? {
        guard case .localized(let id) = self else { return nil }
        return Collation.check(id)
    }
}

/// Sort keys of many texts in one buffer, and their ranks.
struct SortKeys {
    private var bytes: [UInt8] = []
    private var ends: [Int] = []

    mutating func reserve(_ count: Int) { ends.reserveCapacity(count) }

    mutating func append(_ key: [UInt8]) {
        key.withUnsafeBufferPointer { append($0) }
    }

    mutating func append(_ key: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: key)
        ends.append(bytes.count)
    }

    var count: Int { ends.count }

    /// Appends the key `write` appends to the keys' bytes, when it says `true` (when it says
    /// `false`, it has left them as they were).
    mutating func append(_ write: (inout [UInt8]) -> Bool) -> Bool {
        guard write(&bytes) else { return false }
        ends.append(bytes.count)
        return true
    }

    /// Appends every key of `other`, after this one's.
    mutating func append(contentsOf other: SortKeys) {
        let base = bytes.count
        bytes += other.bytes
        ends.append(contentsOf: other.ends.lazy.map { $0 + base })
    }

    static func compare(_ a: [UInt8], _ b: [UInt8]) -> ComparisonResult {
        a.withUnsafeBufferPointer { x in
            b.withUnsafeBufferPointer { y in order(x, y) }
        }
    }

    @inline(__always)
    static func order(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> ComparisonResult {
        let common = min(x.count, y.count)
        if common > 0 {
            let c = memcmp(x.baseAddress!, y.baseAddress!, common)
            if c != 0 { return c < 0 ? .orderedAscending : .orderedDescending }
        }
        return x.count == y.count ? .orderedSame : (x.count < y.count ? .orderedAscending : .orderedDescending)
    }

    /// The key at `i`.
    func key(_ i: Int) -> [UInt8] {
        let start = i == 0 ? 0 : ends[i - 1]
        return Array(bytes[start..<ends[i]])
    }

    /// The index of the first smallest key and of the first largest.
    func extremes() -> (least: Int, most: Int) {
        bytes.withUnsafeBufferPointer { all in
            func key(_ i: Int) -> UnsafeBufferPointer<UInt8> {
                UnsafeBufferPointer(rebasing: all[(i == 0 ? 0 : ends[i - 1])..<ends[i]])
            }
            var least = 0, most = 0
            for i in 1..<max(1, ends.count) {
                if Self.order(key(i), key(least)) == .orderedAscending { least = i }
                if Self.order(key(i), key(most)) == .orderedDescending { most = i }
            }
            return (least, most)
        }
    }

    /// The rank of each key: 0 for the smallest, equal keys equal.
    func ranks() -> [Int32] {
        let n = ends.count
        guard n > 0 else { return [] }
        return bytes.withUnsafeBufferPointer { all -> [Int32] in
            ends.withUnsafeBufferPointer { ends -> [Int32] in
                let order = Self.sortedPositions(all, ends: ends)
                var ranks = [Int32](repeating: 0, count: n)
                var rank: Int32 = 0
                for k in order.indices {
                    if k > 0, Self.order(Self.key(Int(order[k - 1]), all, ends), Self.key(Int(order[k]), all, ends)) != .orderedSame {
                        rank += 1
                    }
                    ranks[Int(order[k])] = rank
                }
                return ranks
            }
        }
    }

    /// Key `i` of keys laid end to end in `all`, each ending at its `ends` entry.
    @inline(__always)
    static func key(_ i: Int, _ all: UnsafeBufferPointer<UInt8>, _ ends: UnsafeBufferPointer<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: all[(i == 0 ? 0 : ends[i - 1])..<ends[i]])
    }

    /// The positions of keys laid end to end in `all` (each ending at its `ends` entry) in the
    /// order comparing them as unsigned bytes gives; equal keys in any order. Ordered by their
    /// first 16 bytes first — two stable radix sorts over 8 bytes each, a short key padded with
    /// zero bytes, which orders keys as comparing them does wherever those bytes differ — then
    /// runs of keys alike in those compared whole, when they are not in order already: for
    /// 100,000 natural or ICU keys a few thousand comparisons instead of 1.7 million; for a part
    /// of a sort in parts (keys that end with their row), most runs found in order in one pass.
    static func sortedPositions(_ all: UnsafeBufferPointer<UInt8>, ends: UnsafeBufferPointer<Int>) -> [Int32] {
        let n = ends.count
        let shared = Unchecked((all, ends))
        /// Bytes `from..<from + 8` of key `i`, big-endian, zeros past its end.
        @inline(__always) func word(_ i: Int, from: Int) -> UInt64 {
            let key = Self.key(i, shared.value.0, shared.value.1)
            var word: UInt64 = 0
            for b in from..<(from + 8) { word = word << 8 | UInt64(b < key.count ? key[b] : 0) }
            return word
        }
        let first: [UInt64] = Parallel.array(count: n) { range, out in for i in range { out[i] = word(i, from: 0) } }
        let second: [UInt64] = Parallel.array(count: n) { range, out in for i in range { out[i] = word(i, from: 8) } }
        var order: [Int32] = []
        RadixSort.radixSort(&order, count: n, codes: second)
        RadixSort.radixSort(&order, count: n, codes: first)
        if order.isEmpty { order = [Int32](0..<Int32(n)) }
        @inline(__always) func samePrefix(_ a: Int32, _ b: Int32) -> Bool {
            first[Int(a)] == first[Int(b)] && second[Int(a)] == second[Int(b)]
        }
        @inline(__always) func precedes(_ a: Int32, _ b: Int32) -> Bool {
            Self.order(key(Int(a), all, ends), key(Int(b), all, ends)) == .orderedAscending
        }
        var start = 0
        while start < n {
            var end = start + 1
            while end < n, samePrefix(order[start], order[end]) { end += 1 }
            // Keys that share their first bytes often differ only past them in the order the
            // stable radix sorts left them (a part's rows): checked in one pass before any sort.
            if end - start > 1, (start + 1..<end).contains(where: { !precedes(order[$0 - 1], order[$0]) }) {
                order[start..<end].sort(by: precedes)
            }
            start = end
        }
        return order
    }
}

extension NaturalKey {
    /// The text in composed form (NFC); ASCII text is returned as it is.
    static func composed(_ text: String) -> String {
        text.utf8.allSatisfy { $0 < 0x80 } ? text : text.precomposedStringWithCanonicalMapping
    }
}
