import Foundation

#if canImport(_FoundationICU)
    import _FoundationICU
#endif

/// An ICU collator for one locale, made once and shared. Numbers in text compare by value
/// (`UCOL_NUMERIC_COLLATION`) unless the locale id sets that itself (`-u-kn-…`, `@colNumeric=…`).
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
            let opened = swift_ucol_open(locale, &status)
            collator = status.rawValue > U_ZERO_ERROR.rawValue ? nil : opened
            let lower = locale.lowercased()
            if let collator, !lower.contains("-kn") && !lower.contains("colnumeric") {
                var attributeStatus = U_ZERO_ERROR
                swift_ucol_setAttribute(collator, UCOL_NUMERIC_COLLATION, UCOL_ON, &attributeStatus)
            }
        #endif
    }

    deinit {
        #if canImport(_FoundationICU)
            if let collator { swift_ucol_close(collator) }
        #endif
    }

    /// Bytes that compare (lexicographically) as the strings collate.
    func sortKey(_ s: String) -> [UInt8] {
        #if canImport(_FoundationICU)
            guard let collator else { return Array(NaturalKey.composed(s).utf8) }
            mutex.lock()
            defer { mutex.unlock() }
            return Self.sortKey(s, collator)
        #else
            return Array(NaturalKey.composed(s).utf8)
        #endif
    }

    /// A collator of its own for one thread: the same keys as ``sortKey(_:)`` without waiting
    /// for the shared one (ICU's collators are not to be used from two threads at once).
    final class Keyer {
        #if canImport(_FoundationICU)
            private let collator: OpaquePointer?
        #endif
        private let shared: Collation

        init(_ shared: Collation) {
            self.shared = shared
            #if canImport(_FoundationICU)
                if let original = shared.collator {
                    shared.mutex.lock()
                    var status = U_ZERO_ERROR
                    let copy = swift_ucol_clone(original, &status)
                    shared.mutex.unlock()
                    collator = status.rawValue > U_ZERO_ERROR.rawValue ? nil : copy
                } else {
                    collator = nil
                }
            #endif
        }

        deinit {
            #if canImport(_FoundationICU)
                if let collator { swift_ucol_close(collator) }
            #endif
        }

        func sortKey(_ s: String) -> [UInt8] {
            #if canImport(_FoundationICU)
                guard let collator else { return shared.sortKey(s) }
                return Collation.sortKey(s, collator)
            #else
                return shared.sortKey(s)
            #endif
        }

        #if canImport(_FoundationICU)
            /// Whether the collator reads digits (and Chinese numerals) as numbers, asked once.
            private lazy var numeric = collator.map(Collation.isNumeric) ?? false
            /// The text's UTF-16 and its key, kept from one text to the next.
            private var units: [UInt16] = []
            private var key: [UInt8] = []
        #endif

        /// Appends ``sortKey(_:)`` of `s` to `keys` — the same bytes, without making an array for
        /// each text: what many texts' keys are made with.
        func appendSortKey(_ s: String, to keys: inout SortKeys) {
            #if canImport(_FoundationICU)
                guard let collator else { return keys.append(shared.sortKey(s)) }
                let length = Collation.writeSortKey(s, collator, numeric: numeric, units: &units, key: &key)
                key.withUnsafeBufferPointer { keys.append(UnsafeBufferPointer(rebasing: $0[..<length])) }
            #else
                keys.append(shared.sortKey(s))
            #endif
        }
    }

    #if canImport(_FoundationICU)
        private static func sortKey(_ s: String, _ collator: OpaquePointer) -> [UInt8] {
            var units: [UInt16] = [], key: [UInt8] = []
            let length = writeSortKey(s, collator, numeric: isNumeric(collator), units: &units, key: &key)
            return Array(key.prefix(length))
        }

        /// Whether `collator` reads digits as numbers (numeric collation on).
        private static func isNumeric(_ collator: OpaquePointer) -> Bool {
            var status = U_ZERO_ERROR
            return swift_ucol_getAttribute(collator, UCOL_NUMERIC_COLLATION, &status) == UCOL_ON
        }

        /// Writes the sort key of `s` into the start of `key` (grown as it needs), with `units` left
        /// holding the text's UTF-16; returns the key's length. Chinese numbers keep their value
        /// order under every locale (第二组 before 第十组), as digits do, when `numeric` is on.
        private static func writeSortKey(
            _ s: String, _ collator: OpaquePointer, numeric: Bool,
            units: inout [UInt16], key: inout [UInt8]
        ) -> Int {
            let s = numeric ? ChineseNumeral.arabic(in: s) ?? s : s
            units.removeAll(keepingCapacity: true)
            units.append(contentsOf: s.utf16)
            let wanted = max(32, units.count * 4 + 16)
            if key.count < wanted { key = [UInt8](repeating: 0, count: wanted) }
            var length = Int(
                units.withUnsafeBufferPointer {
                    swift_ucol_getSortKey(collator, $0.baseAddress, Int32($0.count), &key, Int32(key.count))
                })
            if length > key.count {
                key = [UInt8](repeating: 0, count: length)
                length = Int(
                    units.withUnsafeBufferPointer {
                        swift_ucol_getSortKey(collator, $0.baseAddress, Int32($0.count), &key, Int32(key.count))
                    })
            }
            return length
        }
    #endif

    /// The collation order of two texts (ICU's `strcoll`: no sort keys made), the same as their
    /// sort keys' order.
    func compare(_ a: String, _ b: String) -> ComparisonResult {
        #if canImport(_FoundationICU)
            guard let collator else { return SortKeys.compare(sortKey(a), sortKey(b)) }
            mutex.lock()
            var status = U_ZERO_ERROR
            let numeric = Self.isNumeric(collator)
            var x = numeric ? ChineseNumeral.arabic(in: a) ?? a : a
            var y = numeric ? ChineseNumeral.arabic(in: b) ?? b : b
            let result = x.withUTF8 { p in
                y.withUTF8 { q in
                    p.withMemoryRebound(to: CChar.self) { p in
                        q.withMemoryRebound(to: CChar.self) { q in
                            swift_ucol_strcollUTF8(collator, p.baseAddress, Int32(p.count), q.baseAddress, Int32(q.count), &status)
                        }
                    }
                }
            }
            mutex.unlock()
            if status.rawValue > U_ZERO_ERROR.rawValue { return SortKeys.compare(sortKey(a), sortKey(b)) }
            return result == UCOL_LESS ? .orderedAscending : result == UCOL_GREATER ? .orderedDescending : .orderedSame
        #else
            return SortKeys.compare(sortKey(a), sortKey(b))
        #endif
    }

    // MARK: Which locales exist

    /// The languages ICU has collation data for (`zh`, `de`, `sv`, …), and `root`.
    static let languages: [String] = {
        var names = Set(["root"])
        #if canImport(_FoundationICU)
            let count = swift_ucol_countAvailable()
            for i in 0..<count {
                guard let id = swift_ucol_getAvailable(i) else { continue }
                names.insert(language(of: String(cString: id)))
            }
        #else
            for id in Locale.availableIdentifiers { names.insert(language(of: id)) }
        #endif
        return names.sorted()
    }()

    /// The language subtag of a locale id: `zh` of `zh-Hant@collation=stroke`.
    static func language(of id: String) -> String {
        String(id.prefix { $0 != "-" && $0 != "_" && $0 != "@" }).lowercased()
    }

    /// `nil` when the language of `id` has collation data; otherwise the error, with the closest
    /// language as a suggestion.
    static func check(_ id: String) -> SortError? {
        let language = language(of: id)
        if languages.contains(language) { return nil }
        let suggestion = languages.min { distance($0, language) < distance($1, language) }
        return .unknownLocale(id, suggestion: suggestion.flatMap { distance($0, language) <= 2 ? $0 : nil })
    }

    /// The edit distance between two short strings.
    static func distance(_ a: String, _ b: String) -> Int {
        let x = Array(a), y = Array(b)
        var row = Array(0...y.count)
        for i in 1...max(1, x.count) where !x.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: y.count, by: 1) {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (x[i - 1] == y[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return x.isEmpty ? y.count : row[y.count]
    }
}
