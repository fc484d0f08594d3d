import Foundation
#if canImport(_FoundationICU)
import _FoundationICU
#endif

/// How text compares. Every comparator answers ascending order only; direction is applied once,
/// outside.
///
/// ```swift
/// TextComparator.natural.compare("组2", "组10")        // .orderedAscending
/// TextComparator.lexical.compare("组2", "组10")        // .orderedDescending
/// TextComparator.localized("zh").compare("张", "李")   // .orderedDescending: pinyin zhāng after lǐ
/// ```
public enum TextComparator: Hashable, Sendable, CustomStringConvertible {
    /// Unicode scalar order.
    case lexical
    /// Scalar order after case folding; `a` and `A` are equivalent.
    case caseInsensitive
    /// Runs of digits compare as numbers (`item2 < item10`, `组2 < 组10`), digits before letters,
    /// case-insensitive first, then fewer leading zeros, then case as tie-breaks.
    case natural
    /// The collation of a locale through ICU (`zh`: pinyin; `zh@collation=stroke`: stroke count;
    /// `de`, `sv`, …). Strings the collation finds equal are equivalent.
    case localized(String)

    public var description: String {
        switch self {
        case .lexical: return "lexical"
        case .caseInsensitive: return "nocase"
        case .natural: return "natural"
        case .localized(let locale): return "locale(\(locale))"
        }
    }

    /// Compares two texts in ascending order.
    public func compare(_ a: String, _ b: String) -> ComparisonResult {
        switch self {
        case .lexical: return Self.scalarOrder(a, b)
        case .caseInsensitive: return Self.scalarOrder(Self.fold(a), Self.fold(b))
        case .natural: return Self.natural(a, b)
        case .localized(let locale): return Collation.shared(locale).compare(a, b)
        }
    }

    /// Ranks of `values` (any order, duplicates allowed): equal ranks for equivalent texts, and
    /// ranks ordered as the texts are. What sorting uses, so that each distinct text is compared
    /// a few times instead of at every comparison of rows.
    ///
    /// - Complexity: O(d log d) comparisons for d distinct values; for `localized`, one ICU sort
    ///   key per distinct value and byte comparisons after that.
    public func ranks(_ values: [String]) -> [Int32] {
        var distinct: [String: Int32] = [:]
        var order: [String] = []
        for value in values where distinct[value] == nil {
            distinct[value] = 0
            order.append(value)
        }
        let sorted: [String]
        var equivalent: (String, String) -> Bool
        switch self {
        case .lexical:
            sorted = order.sorted { Self.scalarOrder($0, $1) == .orderedAscending }
            equivalent = { $0 == $1 }
        case .caseInsensitive:
            let folded = Dictionary(uniqueKeysWithValues: order.map { ($0, Self.fold($0)) })
            sorted = order.sorted { Self.scalarOrder(folded[$0]!, folded[$1]!) == .orderedAscending }
            equivalent = { folded[$0]! == folded[$1]! }
        case .natural:
            sorted = order.sorted { Self.natural($0, $1) == .orderedAscending }
            equivalent = { $0 == $1 }
        case .localized(let locale):
            let collation = Collation.shared(locale)
            if collation.hasSortKeys {
                let keys = Dictionary(uniqueKeysWithValues: order.map { ($0, collation.sortKey($0)) })
                sorted = order.sorted { keys[$0]!.lexicographicallyPrecedes(keys[$1]!) }
                equivalent = { keys[$0]! == keys[$1]! }
            } else {
                sorted = order.sorted { collation.compare($0, $1) == .orderedAscending }
                equivalent = { collation.compare($0, $1) == .orderedSame }
            }
        }
        var rank: Int32 = -1
        var previous: String?
        for value in sorted {
            if previous == nil || !equivalent(previous!, value) { rank += 1 }
            distinct[value] = rank
            previous = value
        }
        return values.map { distinct[$0]! }
    }

    // MARK: The orders

    static func scalarOrder(_ a: String, _ b: String) -> ComparisonResult {
        var i = a.unicodeScalars.makeIterator(), j = b.unicodeScalars.makeIterator()
        while true {
            switch (i.next(), j.next()) {
            case (nil, nil): return .orderedSame
            case (nil, _): return .orderedAscending
            case (_, nil): return .orderedDescending
            case let (x?, y?) where x != y: return x.value < y.value ? .orderedAscending : .orderedDescending
            default: continue
            }
        }
    }

    static func fold(_ s: String) -> String { s.lowercased() }

    /// Chunks of text and digit runs compared in turn; see ``natural``.
    static func natural(_ a: String, _ b: String) -> ComparisonResult {
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        var i = 0, j = 0
        var zerosTie: ComparisonResult = .orderedSame
        var caseTie: ComparisonResult = .orderedSame
        func isDigit(_ s: Unicode.Scalar) -> Bool { s.value >= 48 && s.value <= 57 }
        while i < x.count && j < y.count {
            let dx = isDigit(x[i]), dy = isDigit(y[j])
            if dx && dy {
                var si = i, sj = j
                while i < x.count, isDigit(x[i]) { i += 1 }
                while j < y.count, isDigit(y[j]) { j += 1 }
                let zx = x[si..<i].prefix { $0 == "0" }.count, zy = y[sj..<j].prefix { $0 == "0" }.count
                si += min(zx, i - si - 1)
                sj += min(zy, j - sj - 1)
                let lx = i - si, ly = j - sj
                if lx != ly { return lx < ly ? .orderedAscending : .orderedDescending }
                for k in 0..<lx where x[si + k] != y[sj + k] {
                    return x[si + k].value < y[sj + k].value ? .orderedAscending : .orderedDescending
                }
                if zerosTie == .orderedSame, zx != zy { zerosTie = zx < zy ? .orderedAscending : .orderedDescending }
            } else if dx != dy {
                return dx ? .orderedAscending : .orderedDescending   // digits before letters
            } else {
                let cx = x[i], cy = y[j]
                if cx != cy {
                    let lx = Character(cx).lowercased(), ly = Character(cy).lowercased()
                    if lx != ly { return scalarOrder(lx, ly) }
                    if caseTie == .orderedSame { caseTie = cx.value < cy.value ? .orderedAscending : .orderedDescending }
                }
                i += 1
                j += 1
            }
        }
        if i < x.count || j < y.count { return i < x.count ? .orderedDescending : .orderedAscending }
        if zerosTie != .orderedSame { return zerosTie }
        if caseTie != .orderedSame { return caseTie }
        return scalarOrder(a, b)
    }
}

/// An ICU collator for one locale, made once and shared.
final class Collation: @unchecked Sendable {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var cache: [String: Collation] = [:]

    let locale: String
    #if canImport(_FoundationICU)
    private let collator: OpaquePointer?
    private let mutex = NSLock()
    #endif

    static func shared(_ locale: String) -> Collation {
        lock.lock()
        defer { lock.unlock() }
        if let existing = cache[locale] { return existing }
        let made = Collation(locale)
        cache[locale] = made
        return made
    }

    private init(_ locale: String) {
        self.locale = locale
        #if canImport(_FoundationICU)
        var status = U_ZERO_ERROR
        collator = swift_ucol_open(locale, &status)
        #endif
    }

    deinit {
        #if canImport(_FoundationICU)
        if let collator { swift_ucol_close(collator) }
        #endif
    }

    /// Whether ``sortKey(_:)`` gives collation keys (with ICU); otherwise use ``compare(_:_:)``.
    var hasSortKeys: Bool {
        #if canImport(_FoundationICU)
        return collator != nil
        #else
        return false
        #endif
    }

    /// Bytes that compare (lexicographically) as the strings collate.
    func sortKey(_ s: String) -> [UInt8] {
        #if canImport(_FoundationICU)
        guard let collator else { return Array(s.utf8) }
        let units = Array(s.utf16)
        mutex.lock()
        defer { mutex.unlock() }
        var key = [UInt8](repeating: 0, count: max(32, units.count * 4 + 16))
        var length = units.withUnsafeBufferPointer {
            swift_ucol_getSortKey(collator, $0.baseAddress, Int32($0.count), &key, Int32(key.count))
        }
        if Int(length) > key.count {
            key = [UInt8](repeating: 0, count: Int(length))
            length = units.withUnsafeBufferPointer {
                swift_ucol_getSortKey(collator, $0.baseAddress, Int32($0.count), &key, Int32(key.count))
            }
        }
        return Array(key.prefix(Int(length)))
        #else
        return Array(s.utf8)
        #endif
    }

    func compare(_ a: String, _ b: String) -> ComparisonResult {
        #if canImport(_FoundationICU)
        let x = sortKey(a), y = sortKey(b)
        if x == y { return .orderedSame }
        return x.lexicographicallyPrecedes(y) ? .orderedAscending : .orderedDescending
        #else
        return a.compare(b, options: [], range: nil, locale: Locale(identifier: locale))
        #endif
    }
}
