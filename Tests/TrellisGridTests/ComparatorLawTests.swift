import Foundation
import Testing
import TrellisTestSupport

@testable import TrellisGrid

@Suite("Comparator laws")
struct ComparatorLawTests {
    static let comparators: [TextComparator] = [
        .lexical, .caseInsensitive, .natural, .localized("zh"),
        .localized("en"), .localized("zh@collation=stroke"),
    ]

    static func randomText(_ rng: inout SeededRandom) -> String {
        let pieces = ["a", "A", "b", "B", "item", "Item", "0", "00", "1", "2", "9", "10", "02", "组", "张", "李", " ", "-", "é", "e"]
        return (0..<Int.random(in: 0...4, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
    }

    @Test(
        "every text comparator is irreflexive, antisymmetric and transitive, and its ranks agree with it",
        arguments: comparators)
    func textLaws(comparator: TextComparator) {
        var rng = SeededRandom(seed: 3)
        let values = (0..<300).map { _ in Self.randomText(&rng) }
        for a in values.prefix(60) {
            #expect(comparator.compare(a, a) == .orderedSame)
            for b in values.prefix(60) {
                #expect(comparator.compare(a, b) == comparator.compare(b, a).reversed, "\(comparator) \(a) \(b)")
            }
        }
        for _ in 0..<3000 {
            let a = values.randomElement(using: &rng)!, b = values.randomElement(using: &rng)!, c = values.randomElement(using: &rng)!
            if comparator.compare(a, b) != .orderedDescending && comparator.compare(b, c) != .orderedDescending {
                #expect(comparator.compare(a, c) != .orderedDescending, "\(comparator): \(a) ≤ \(b) ≤ \(c)")
            }
        }
        let ranks = comparator.ranks(values)
        for _ in 0..<2000 {
            let i = Int.random(in: 0..<values.count, using: &rng), j = Int.random(in: 0..<values.count, using: &rng)
            let order = comparator.compare(values[i], values[j])
            let rankOrder: ComparisonResult = ranks[i] == ranks[j] ? .orderedSame : ranks[i] < ranks[j] ? .orderedAscending : .orderedDescending
            #expect(order == rankOrder, "\(comparator): \(values[i]) vs \(values[j])")
        }
    }

    @Test(
        "a collator of one thread's appends the shared collator's keys, byte for byte, one text after another",
        arguments: ["zh", "en", "zh@collation=stroke", "de-u-kn-false"])
    func keyerKeys(locale: String) {
        var rng = SeededRandom(seed: 17)
        // Short and long texts one after the other (the kept buffers shrink and grow), Chinese
        // numerals (read as numbers where digits are), an empty text, and texts outside the BMP.
        var texts = (0..<400).map { _ in Self.randomText(&rng) }
        texts += ["", "第二组", "第十组", "第十二组", String(repeating: "张三李四", count: 60), "x", "😀a", "𠀋", "组2", "组10"]
        texts.shuffle(using: &rng)
        let shared = Collation.shared(locale), keyer = Collation.Keyer(shared)
        var keys = SortKeys()
        for text in texts { keyer.appendSortKey(text, to: &keys) }
        #expect(keys.count == texts.count)
        for (i, text) in texts.enumerated() {
            #expect(keys.key(i) == shared.sortKey(text), "\(locale): \(text)")
        }
    }

    @Test("the cell comparator obeys the laws over mixed values, in both orders and every null placement")
    func cellLaws() {
        var rng = SeededRandom(seed: 5)
        let values: [CellValue] = (0..<200).map { _ in
            switch Int.random(in: 0..<7, using: &rng) {
            case 0: return .missing
            case 1: return .integer(Int.random(in: -3...3, using: &rng))
            case 2: return .decimal(Double(Int.random(in: -6...6, using: &rng)) / 2)
            case 3: return .text(Self.randomText(&rng))
            case 4: return .boolean(Bool.random(using: &rng))
            case 5: return .error(["#N/A", "#REF!"].randomElement(using: &rng)!)
            default: return .date(Date(timeIntervalSince1970: Double(Int.random(in: 0...3, using: &rng))))
            }
        }
        for order in [SortOrder.forward, .reverse] {
            for nulls in NullPlacement.allCases {
                let comparator = CellValueComparator(.natural, order: order, nulls: nulls)
                for _ in 0..<3000 {
                    let a = values.randomElement(using: &rng)!, b = values.randomElement(using: &rng)!
                    let c = values.randomElement(using: &rng)!
                    #expect(comparator.compare(a, a) == .orderedSame)
                    #expect(comparator.compare(a, b) == comparator.compare(b, a).reversed)
                    if comparator.compare(a, b) != .orderedDescending && comparator.compare(b, c) != .orderedDescending {
                        #expect(comparator.compare(a, c) != .orderedDescending)
                    }
                }
                let sorted = values.sorted(using: comparator)
                let missing = sorted.enumerated().filter { $0.element.isMissing }.map(\.offset)
                let missingFirst = nulls == .first || (nulls == .asSmallest && order == .forward)
                #expect(missing == (missingFirst ? Array(0..<missing.count) : Array((sorted.count - missing.count)..<sorted.count)))
            }
        }
    }
}

extension ComparatorLawTests {
    @Test("text comparators plug into Foundation's sorted(using:)")
    func foundationSortComparator() {
        #expect(["组10", "组2", "组1"].sorted(using: TextSortComparator(.natural)) == ["组1", "组2", "组10"])
        #expect(["张", "李", "阿"].sorted(using: TextSortComparator(.localized("zh"), order: .reverse)) == ["张", "李", "阿"])
        let cells: [CellValue] = [.text("组10"), .missing, .text("组2")]
        #expect(cells.sorted(using: CellValueComparator(.natural, order: .reverse)) == [.text("组10"), .text("组2"), .missing])
        #expect(cells.sorted(using: [CellValueComparator(.lexical)]) == [.text("组10"), .text("组2"), .missing])
    }
}

extension ComparatorLawTests {
    @Test("the fast path of natural keys (ASCII and ideographs) gives the general path's bytes")
    func simpleKeys() {
        var rng = SeededRandom(seed: 13)
        let pieces = [
            "a", "Z", "item", "0", "00", "007", "1", "10", "9", " ", "-", ".", "~", "", "000123", "99999999999999999999",
            "组", "王小明", "㐀", "鿿", "十", "二〇二六", "第三", "万达", "é", "１２", "가",
        ]
        for _ in 0..<3000 {
            let text = (0..<Int.random(in: 0...5, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            var copy = text
            let general = NaturalKey.makeGeneral(text, decimals: false)
            // Text the fast path leaves to the general one: numerals, other scripts, accents.
            let simple = text.unicodeScalars.allSatisfy { $0.isASCII || ($0.value >= 0x3400 && $0.value <= 0x9FFF && !ChineseNumeral.isNumeral($0)) }
            if let fast = copy.withUTF8({ NaturalKey.simple($0) }) {
                #expect(simple && fast == general, "\(text)")
                #expect(copy.withUTF8 { NaturalKey.simple($0, primaryOnly: true) } == NaturalKey.makeGeneral(text, decimals: false, primaryOnly: true))
            } else {
                #expect(!simple, "\(text)")
            }
            // Written after other keys' bytes: appended when simple, the bytes left as they were when not.
            var buffer: [UInt8] = [7, 7]
            let appended = copy.withUTF8 { NaturalKey.appendSimple($0, to: &buffer) }
            #expect(appended == simple && buffer == [7, 7] + (simple ? general : []), "\(text)")
        }
        var numeral = "第十一组"
        #expect(numeral.withUTF8 { NaturalKey.simple($0) } == nil)
        // Many texts' keys in one buffer rank as their keys made one by one do.
        let texts = (0..<5000).map { k in "组\(k % 977)" + (k % 3 == 0 ? "第十" : "") + (k % 5 == 0 ? "é" : "") }
        #expect(TextComparator.natural.ranks(ofDistinct: texts) == texts.map { TextComparator.natural.sortKey($0) }.ranksOneByOne())
    }
}

extension ComparatorLawTests {
    @Test("comparing two texts by walking them gives the order of their natural keys, for every kind of text")
    func walkedNaturalOrder() {
        var rng = SeededRandom(seed: 29)
        let pieces = [
            "a", "A", "z", "item", "0", "00", "007", "1", "10", "9", " ", "-", ".", "99999999999999999999", "组", "第", "十",
            "一", "二", "十一", "〇", "零", "万", "万达", "百", "两", "１", "０", "１２", "Ａ", "ａ", "Ｚ", "é", "e\u{301}", "ガ",
            "カ\u{3099}", "١٢", "Straße", "ǅ", "、", "（", "Σ", "ΣΑ", "ﬁ", "𠀀", "\u{4DC0}", "İ",
        ]
        for _ in 0..<20_000 {
            let a = (0..<Int.random(in: 0...4, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            let b = (0..<Int.random(in: 0...4, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            let byKeys = SortKeys.compare(NaturalKey.make(a), NaturalKey.make(b))
            #expect(NaturalKey.compare(a, b) == byKeys, "\(a.debugDescription) vs \(b.debugDescription)")
            #expect(
                TextComparator.lexical.compare(a, b)
                    == SortKeys.compare(
                        TextComparator.lexical.sortKey(a),
                        TextComparator.lexical.sortKey(b)))
        }
    }
}

extension ComparatorLawTests {
    static let longComparators: [TextComparator] = [.natural, .naturalDecimal, .lexical, .caseInsensitive, .localized("zh"), .listed(["甲", "乙"])]

    @Test(
        "a text longer than the key limit is keyed by at most 64 KB: a prefix of its whole key, made from its beginning alone",
        arguments: longComparators)
    func boundedKeys(comparator: TextComparator) {
        let limit = TextComparator.keyLimit
        let texts = [
            String(repeating: "Abc组", count: 30_000),  // ASCII and CJK
            String(repeating: "item", count: 20_000) + "12345678901234567890",  // a number at the far end
            String(repeating: "x", count: limit - 3) + "123456789",  // a number across the cut
            String(repeating: "é", count: 40_000),  // composed, two bytes each
            String(repeating: "第十一组", count: 8_000),  // Chinese numerals
        ]
        for text in texts {
            let whole = comparator.sortKey(text.prefix(limit) + "")  // a short text: its whole key
            let bounded = comparator.sortKey(text)
            #expect(bounded.count <= limit, "\(comparator): \(bounded.count) bytes")
            #expect(!bounded.isEmpty)
            // The bounded key is where the whole text's key begins: it orders against every text
            // that differs from it within the bound as the whole key does.
            let full: [UInt8]
            switch comparator {
            case .natural: full = NaturalKey.make(text)
            case .naturalDecimal: full = NaturalKey.make(text, decimals: true)
            case .lexical: full = Array(NaturalKey.composed(text).utf8)
            case .caseInsensitive: full = Array(NaturalKey.composed(text).lowercased().utf8)
            case .localized: full = Collation.shared("zh").sortKey(text)
            case .listed: full = [0xFF] + NaturalKey.make(text)
            }
            let agree = full.starts(with: bounded)
            let differsAt = zip(full, bounded).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            let where_ = differsAt.map(String.init) ?? "its end"
            #expect(
                agree,
                "\(comparator), a text of \(text.utf8.count) bytes: the bounded key (\(bounded.count) bytes) leaves the whole key (\(full.count) bytes) at byte \(where_)"
            )
            #expect(!whole.isEmpty)
        }
    }

    @Test(
        "long texts rank as their whole keys where those differ within the bound, and alike beyond it they are equal",
        arguments: longComparators)
    func longTextRanks(comparator: TextComparator) {
        let base = String(repeating: "m", count: 70_000)
        let texts = ["a", base + "b", "z", String(repeating: "m", count: 1_000) + "a" + base, base + "a", "mm"]
        let ranks = comparator.ranks(texts)
        // "a" < "mm" < "mmm…a…" (a letter early) < the two alike for 64 KB (equal) < "z".
        #expect(ranks[0] < ranks[5] && ranks[5] < ranks[3] && ranks[3] < ranks[1] && ranks[1] < ranks[2], "\(comparator): \(ranks)")
        #expect(ranks[1] == ranks[4], "\(comparator): texts alike for 64 KB are equal for the sort")
        #expect(comparator.compare(texts[1], texts[4]) == .orderedSame)
        #expect(comparator.compare(texts[3], texts[1]) == .orderedAscending)
    }
}

extension Array where Element == [UInt8] {
    /// Each key's rank among these keys (0 the smallest, equal keys equal), by sorting them whole.
    fileprivate func ranksOneByOne() -> [Int32] {
        let distinct = Array(Set(self)).sorted { $0.lexicographicallyPrecedes($1) }
        let rank = Dictionary(uniqueKeysWithValues: distinct.enumerated().map { ($1, Int32($0)) })
        return map { rank[$0]! }
    }
}
