import Foundation

/// One sort key's cells, read once: for the rows being sorted, each cell's kind and payload, and
/// a way to reach its text. From a ``Table`` these come straight from its column store (no
/// `CellValue`, no `String` per cell); from any other source, from its values.
struct KeyInput {
    var kinds: PodArray<CellKind>
    /// The payloads, or none when every one is zero.
    var payloads: PodArray<UInt64>
    /// The column's type is a number type: `NaN` is then missing.
    var numericColumn: Bool
    /// The distinct texts among the cells at `positions`: an id per position and the texts.
    var distinct: (_ positions: [Int]) -> (ids: [Int32], texts: [String])
    /// The exact number of the cell at a position (numbers only).
    var exact: (_ position: Int) -> ExactDecimal
    /// The most digits any number of the column has after its point, when known (a table knows).
    var decimals: Int?

    /// The cells of `column` at `rows` of a table.
    init(table: Table, column: Int, rows: [Int]) {
        var store = table.stores[column]
        decimals = Int(store.fractionDigits())
        numericColumn = table.columns[column].type.isNumeric
        let all = rows.count == store.count && rows.indices.allSatisfy { rows[$0] == $0 }
        if all {
            kinds = store.kinds
            payloads = store.payloads
        } else {
            kinds = PodArray()
            kinds.reserveCapacity(rows.count)
            for row in rows { kinds.append(store.kinds[row]) }
            payloads = PodArray()
            if !store.payloads.isEmpty {
                payloads.reserveCapacity(rows.count)
                for row in rows { payloads.append(store.payloads[row]) }
            }
        }
        distinct = { positions in ByteSliceSet.distinct(store, rows: positions.map { rows[$0] }) }
        exact = { position in store.withText(at: rows[position]) { ExactDecimal($0) ?? .zero } }
    }

    /// The values of a source's column at `rows`.
    init(source: GridDataSource, column: Int, rows: [Int]) {
        let values = source.values(ofColumn: column, rows: rows)
        let columns = source.columns
        numericColumn = columns.indices.contains(column) && columns[column].type.isNumeric
        kinds = PodArray()
        payloads = PodArray()
        kinds.reserveCapacity(values.count)
        payloads.reserveCapacity(values.count)
        // A decimal with more significant digits than a double holds is ordered exactly, by its digits.
        let digits = numericColumn ? source.numberTexts(ofColumn: column, rows: rows) : nil
        for (i, value) in values.enumerated() {
            var (kind, payload) = Self.classify(value)
            if kind == .decimal, let digits, i < digits.count, Self.significantDigits(digits[i]) > 15 { kind = .approximate }
            kinds.append(kind)
            payloads.append(payload)
        }
        distinct = { positions in
            var index: [String: Int32] = [:]
            var texts: [String] = []
            let ids = positions.map { position -> Int32 in
                let text: String
                switch values[position] {
                case .text(let s), .error(let s): text = s
                default: text = values[position].description
                }
                if let id = index[text] { return id }
                let id = Int32(texts.count)
                index[text] = id
                texts.append(text)
                return id
            }
            return (ids, texts)
        }
        exact = { position in
            switch values[position] {
            case .integer(let i): return ExactDecimal(Int64(i))
            case .decimal(let d):
                // The digits the source holds (a database's numeric wider than a double), when it has them.
                if let digits, position < digits.count, let exact = ExactDecimal(digits[position]) { return exact }
                return ExactDecimal(d)
            default: return .zero
            }
        }
    }

    /// The significant digits of a number's text (`0.00120` has 2).
    static func significantDigits(_ text: String) -> Int {
        var count = 0, leading = true, trailingZeros = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { break }
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { continue }
            if leading && byte == UInt8(ascii: "0") { continue }
            leading = false
            count += 1
            trailingZeros = byte == UInt8(ascii: "0") ? trailingZeros + 1 : 0
        }
        return count - trailingZeros
    }

    static func classify(_ value: CellValue) -> (CellKind, UInt64) {
        switch value {
        case .missing: return (.missing, 0)
        case .integer(let i): return (.integer, UInt64(bitPattern: Int64(i)))
        case .decimal(let d): return d.isNaN ? (.missing, 0) : (.decimal, (d == 0 ? 0.0 : d).bitPattern)
        case .text: return (.text, 0)
        case .boolean(let b): return (.boolean, b ? 1 : 0)
        case .date(let d): return (.date, d.timeIntervalSince1970.bitPattern)
        case .error: return (.error, 0)
        }
    }
}

/// A key's cells as unsigned integers whose order is the key's order (direction applied), plus,
/// for a key that mixes kinds, a class per cell that is sorted as a more significant digit.
///
/// Numbers are ordered exactly: integers that fit 64 bits by their value; decimals of at most
/// 15 significant digits by their double (distinct such decimals have distinct doubles); and
/// when a column holds numbers beyond both (an integer wider than 64 bits, a decimal with more
/// digits), by ranks from an exact decimal comparison of all its numbers.
struct KeyCodes {
    var values: [UInt64]
    var classes: [UInt8]?

    /// The rank of each kind among kinds: numbers < dates < text < truth values < errors.
    static func kindRank(_ kind: CellKind, numericColumn: Bool) -> UInt8? {
        switch kind {
        case .integer, .decimal, .approximate: return 0
        case .date: return 1
        case .text: return 2
        case .boolean: return 3
        case .error: return 4
        case .notANumber: return numericColumn ? nil : 2
        case .missing: return nil
        }
    }

    init(_ input: KeyInput, text comparator: TextComparator, direction: SortDirection, nulls: NullPlacement) {
        let n = input.kinds.count
        let kinds = input.kinds, stored = input.payloads
        @inline(__always) func payloads(_ i: Int) -> UInt64 { stored.isEmpty ? 0 : stored[i] }
        var codes = [UInt64](repeating: 0, count: n)
        var seen: UInt8 = 0          // one bit per kind rank seen
        var sawMissing = false
        var allInt64 = true, allDoubleExact = true, sawNumber = false
        var textPositions: [Int] = [], errorPositions: [Int] = []
        for i in 0..<n {
            let kind = kinds[i]
            guard let rank = Self.kindRank(kind, numericColumn: input.numericColumn) else { sawMissing = true; continue }
            seen |= 1 << rank
            switch kind {
            case .integer:
                let v = Int64(bitPattern: payloads(i))
                codes[i] = UInt64(bitPattern: v) ^ (1 << 63)
                if v.magnitude > 1 << 53 { allDoubleExact = false }
                sawNumber = true
            case .decimal:
                allInt64 = false
                sawNumber = true
            case .approximate:
                allInt64 = false
                allDoubleExact = false
                sawNumber = true
            case .date: codes[i] = Self.orderedBits(Double(bitPattern: payloads(i)))
            case .boolean: codes[i] = payloads(i) + 1
            case .text, .notANumber: textPositions.append(i)
            case .error: errorPositions.append(i)
            case .missing: break
            }
        }
        // Numbers: integer codes are already set; decimals need a code space shared with them.
        if sawNumber && !allInt64 {
            var scaled = false
            if allDoubleExact, let decimals = input.decimals, decimals <= 9 {
                // Decimals of at most `decimals` digits are integers once scaled: ordered as
                // 64-bit integers, with few bits that vary, so the radix sort makes few passes.
                let scale = Double(CellText.integerPowersOfTen[decimals])
                scaled = true
                var scaledCodes = codes
                for i in 0..<n where kinds[i] == .integer || kinds[i] == .decimal {
                    let v = kinds[i] == .integer ? Double(Int64(bitPattern: payloads(i))) : Double(bitPattern: payloads(i))
                    let x = (v * scale).rounded()
                    guard abs(x) < 9_007_199_254_740_992 else { scaled = false; break }
                    scaledCodes[i] = UInt64(bitPattern: Int64(x)) ^ (1 << 63)
                }
                if scaled { codes = scaledCodes }
            }
            if scaled {
                // Done above.
            } else if allDoubleExact {
                for i in 0..<n where kinds[i] == .integer || kinds[i] == .decimal {
                    codes[i] = Self.orderedBits(kinds[i] == .integer ? Double(Int64(bitPattern: payloads(i)))
                                                : Double(bitPattern: payloads(i)))
                }
            } else {
                let numberPositions = (0..<n).filter { kinds[$0].isNumber }
                let exact = numberPositions.map(input.exact)
                let order = numberPositions.indices.sorted { exact[$0] < exact[$1] }
                var rank: UInt64 = 1
                for (k, index) in order.enumerated() {
                    if k > 0, exact[order[k - 1]] < exact[index] { rank += 1 }
                    codes[numberPositions[index]] = rank
                }
            }
        }
        if !textPositions.isEmpty {
            let (ids, texts) = input.distinct(textPositions)
            let ranks = comparator.ranks(ofDistinct: texts)
            for (k, position) in textPositions.enumerated() { codes[position] = UInt64(ranks[Int(ids[k])]) + 1 }
        }
        if !errorPositions.isEmpty {
            let (ids, texts) = input.distinct(errorPositions)
            let ranks = TextComparator.lexical.ranks(ofDistinct: texts)
            for (k, position) in errorPositions.enumerated() { codes[position] = UInt64(ranks[Int(ids[k])]) + 1 }
        }
        let descending = direction == .descending
        if descending {
            codes.withUnsafeMutableBufferPointer { c in for i in c.indices { c[i] = ~c[i] } }
        }
        let missingFirst = nulls.missingFirst(descending: descending)
        let kindCount = seen.nonzeroBitCount
        // One kind: missing cells take the smallest or largest code, unless a value has it.
        if kindCount <= 1 {
            let missingCode: UInt64 = missingFirst ? 0 : .max
            var collides = false
            if sawMissing {
                for i in 0..<n where Self.kindRank(kinds[i], numericColumn: input.numericColumn) != nil && codes[i] == missingCode {
                    collides = true
                    break
                }
            }
            if !collides {
                if sawMissing {
                    for i in 0..<n where Self.kindRank(kinds[i], numericColumn: input.numericColumn) == nil { codes[i] = missingCode }
                }
                values = codes
                classes = nil
                return
            }
        }
        let missingClass: UInt8 = missingFirst ? 0 : 2
        var classes = [UInt8](repeating: 0, count: n)
        for i in 0..<n {
            if let rank = Self.kindRank(kinds[i], numericColumn: input.numericColumn) {
                classes[i] = (1 << 3) | (descending ? 4 - rank : rank)
            } else {
                classes[i] = missingClass << 3
            }
        }
        values = codes
        self.classes = classes
    }

    /// A double's bits reordered so that unsigned comparison is numeric order (−0 as +0).
    @inline(__always)
    static func orderedBits(_ value: Double) -> UInt64 {
        let bits = (value == 0 ? 0.0 : value).bitPattern
        return bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
    }

    /// The order of two positions by this key.
    @inline(__always)
    func compare(_ a: Int, _ b: Int) -> ComparisonResult {
        if let classes, classes[a] != classes[b] { return classes[a] < classes[b] ? .orderedAscending : .orderedDescending }
        let x = values[a], y = values[b]
        return x == y ? .orderedSame : (x < y ? .orderedAscending : .orderedDescending)
    }
}

/// The distinct texts of a column store's cells, found by hashing their bytes: no `String` is
/// made except one per distinct text.
enum ByteSliceSet {
    /// One distinct text in the table: its hash, its first 16 bytes, its length and id. 32
    /// bytes, so that a probe reads one cache line and short texts are compared without reading
    /// the column's storage.
    struct Entry {
        var hash: UInt64
        var prefix: (UInt64, UInt64)
        var length: Int32
        var id: Int32
    }

    static func distinct(_ store: ColumnStore, rows: [Int]) -> (ids: [Int32], texts: [String]) {
        var capacity = 1024
        var mask = capacity - 1
        var table = [Entry](repeating: Entry(hash: 0, prefix: (0, 0), length: 0, id: -1), count: capacity)
        var firstRow: [Int] = []
        var ids = [Int32](repeating: 0, count: rows.count)
        store.bytes.withUnsafeBufferPointer { bytes in
            let base = bytes.baseAddress
            for (k, row) in rows.enumerated() {
                let start = Int(store.starts[row]), length = Int(store.lengths[row])
                let pointer = base.map { $0 + start }
                let hash = hashBytes(pointer, length)
                var prefix: (UInt64, UInt64) = (0, 0)
                if let pointer, length > 0 {
                    withUnsafeMutableBytes(of: &prefix) { _ = memcpy($0.baseAddress!, pointer, min(16, length)) }
                }
                var slot = Int(truncatingIfNeeded: hash) & mask
                while true {
                    let entry = table[slot]
                    if entry.id < 0 {
                        let new = Int32(firstRow.count)
                        table[slot] = Entry(hash: hash, prefix: prefix, length: Int32(length), id: new)
                        firstRow.append(row)
                        ids[k] = new
                        break
                    }
                    if entry.hash == hash, entry.length == Int32(length), entry.prefix == prefix {
                        if length <= 16 { ids[k] = entry.id; break }
                        let other = Int(store.starts[firstRow[Int(entry.id)]])
                        if memcmp(base! + start, base! + other, length) == 0 { ids[k] = entry.id; break }
                    }
                    slot = (slot + 1) & mask
                }
                if firstRow.count * 2 > capacity {
                    // Double the table: entries move by their stored hash alone.
                    capacity <<= 1
                    mask = capacity - 1
                    var grown = [Entry](repeating: Entry(hash: 0, prefix: (0, 0), length: 0, id: -1), count: capacity)
                    for entry in table where entry.id >= 0 {
                        var s = Int(truncatingIfNeeded: entry.hash) & mask
                        while grown[s].id >= 0 { s = (s + 1) & mask }
                        grown[s] = entry
                    }
                    table = grown
                }
            }
        }
        return (ids, firstRow.map { store.text(at: $0) })
    }

    /// A 64-bit hash of bytes (FNV-1a over 8-byte words, then a final mix).
    @inline(__always)
    static func hashBytes(_ p: UnsafePointer<UInt8>?, _ length: Int) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(length)
        guard let p, length > 0 else { return h &* 0x9E37_79B9_7F4A_7C15 }
        var i = 0
        let raw = UnsafeRawPointer(p)
        while i + 8 <= length {
            h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0x100_0000_01B3
            h ^= h >> 29
            i += 8
        }
        while i < length {
            h = (h ^ UInt64(p[i])) &* 0x100_0000_01B3
            i += 1
        }
        h ^= h >> 33
        h = h &* 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33
        return h
    }
}
