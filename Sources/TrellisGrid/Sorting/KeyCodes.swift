import Foundation
import TrellisText

/// One sort key's cells, read once: for the rows being sorted, each cell's kind and payload, and
/// a way to reach its text. From a ``Table`` (a ``ColumnStorageSource``) these come straight from its column store (no
/// `CellValue`, no `String` per cell); from any other source, from its values.
struct KeyInput {
    var kinds: PodArray<CellKind>
    /// The payloads, or none when every one is zero.
    var payloads: PodArray<UInt64>
    /// The column's type is a number type: `NaN` is then missing.
    var numericColumn: Bool
    /// The distinct texts among the cells at `positions` (every position when `nil`): an id per
    /// position and the texts.
    var distinct: (_ positions: [Int]?) -> (ids: [Int32], texts: [String])
    /// The exact number of the cell at a position (numbers only).
    var exact: (_ position: Int) -> ExactDecimal
    /// The most digits any number of the column has after its point, when known (a table knows).
    var decimals: Int?
    /// What the source answered wrong when its values were read (see ``GridDataSource/checkedValues(ofColumn:rows:)``).
    var problem: String?

    /// The same cells with every present one (number, date, truth value) read as its text;
    /// blanks and error literals stay what they are.
    func everyCellAsText() -> KeyInput {
        var copy = self
        var kinds = PodArray<CellKind>()
        kinds.reserveCapacity(self.kinds.count)
        for kind in self.kinds {
            switch kind {
            case .missing, .error, .text: kinds.append(kind)
            case .notANumber: kinds.append(numericColumn ? .notANumber : .text)
            case .integer, .decimal, .approximate, .date, .boolean: kinds.append(.text)
            }
        }
        copy.kinds = kinds
        copy.payloads = PodArray()
        return copy
    }

    /// The cells of `column` at `rows` of a table.
    init(storage: ColumnStorageSource, column: Int, rows: [Int]) {
        self.init(storage: storage, column: column, rows: rows, count: rows.count)
    }

    /// The cells of `column` at `rows` of a table; `nil`: at `0..<count`, with no list of them.
    /// Every row of the column, in order, is read in place.
    init(storage: ColumnStorageSource, column: Int, rows listed: [Int]?, count: Int) {
        var store = storage.store(column)
        decimals = Int(store.fractionDigits())
        numericColumn = storage.columns[column].type.isNumeric
        let every =
            listed.map { rows in rows.count == store.count && rows.indices.allSatisfy { rows[$0] == $0 } }
            ?? (count == store.count)
        if every {
            kinds = store.kinds
            payloads = store.payloads
            let all = store.count
            // Every cell's distinct texts: kept by the table while its cells are unchanged.
            let table = storage as? Table
            distinct = { positions in
                guard positions == nil, let table else { return ByteSliceSet.distinct(store, rows: positions ?? Parallel.positions(all)) }
                return table.distinctTexts(ofColumn: column) { ByteSliceSet.distinct(store, rows: Parallel.positions(all)) }
            }
            exact = { position in store.withText(at: position) { ExactDecimal($0) ?? .zero } }
            return
        }
        let rows = listed ?? Array(0..<count)
        kinds = PodArray()
        kinds.reserveCapacity(rows.count)
        for row in rows { kinds.append(store.kinds[row]) }
        payloads = PodArray()
        if !store.payloads.isEmpty {
            payloads.reserveCapacity(rows.count)
            for row in rows { payloads.append(store.payloads[row]) }
        }
        distinct = { positions in ByteSliceSet.distinct(store, rows: positions.map { $0.map { rows[$0] } } ?? rows) }
        exact = { position in store.withText(at: rows[position]) { ExactDecimal($0) ?? .zero } }
    }

    /// The cells of `column` at `rows` of any source: in place from its column storage when it has
    /// one, from its values otherwise.
    init(_ source: GridDataSource, column: Int, rows: [Int]) {
        self.init(source, column: column, rows: rows, count: rows.count)
    }

    /// The same, `nil` rows standing for `0..<count`.
    init(_ source: GridDataSource, column: Int, rows: [Int]?, count: Int) {
        if let storage = source as? ColumnStorageSource, column >= 0, column < storage.storeCount {
            self.init(storage: storage, column: column, rows: rows, count: count)
        } else {
            self.init(source: source, column: column, rows: rows ?? Array(0..<count))
        }
    }

    /// The values of a source's column at `rows`.
    init(source: GridDataSource, column: Int, rows: [Int]) {
        let (values, problem) = source.checkedValues(ofColumn: column, rows: rows)
        self.problem = problem
        let columns = source.columns
        numericColumn = columns.indices.contains(column) && columns[column].type.isNumeric
        kinds = PodArray()
        payloads = PodArray()
        kinds.reserveCapacity(values.count)
        payloads.reserveCapacity(values.count)
        // A decimal with more significant digits than a double holds is ordered exactly, by its digits.
        let digits = numericColumn ? (source as? ExactNumberDataSource)?.numberTexts(ofColumn: column, rows: rows) : nil
        for (i, value) in values.enumerated() {
            var (kind, payload) = Self.classify(value)
            if kind == .decimal, let digits, i < digits.count, Self.significantDigits(digits[i]) > 15 { kind = .approximate }
            kinds.append(kind)
            payloads.append(payload)
        }
        distinct = { positions in
            var index: [String: Int32] = [:]
            var texts: [String] = []
            let ids = (positions ?? Array(values.indices)).map { position -> Int32 in
                let text: String
                switch values[position] {
                case .text(let s), .error(let s): text = s
                // A number read as text (a key that compares every cell so) is the source's own text.
                default: text = source.text(row: rows[position], column: column)
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

    /// What one chunk of rows holds: the kinds seen, and where its texts and errors are.
    private struct Scan {
        var seen: UInt8 = 0  // one bit per kind rank seen
        var sawMissing = false
        var allInt64 = true, allDoubleExact = true, sawNumber = false
        var textPositions: [Int] = [], errorPositions: [Int] = []
        /// Every row so far is text: its positions are the chunk's, not listed.
        var allText = true
    }

    /// Every loop over the rows runs on one chunk per core (``Parallel``); each chunk writes only
    /// its own rows' codes, so the codes are the same as one thread would make.
    init(_ input: KeyInput, text comparator: TextComparator, direction: SortDirection, nulls: NullPlacement) {
        let n = input.kinds.count
        let kinds = input.kinds, stored = input.payloads, numericColumn = input.numericColumn
        @inline(__always) func payloads(_ i: Int) -> UInt64 { stored.isEmpty ? 0 : stored[i] }
        let chunks = Parallel.chunks(n)
        var codes = [UInt64](uninitializedLarge: n)
        let scans: [Scan] = codes.withUnsafeMutableBufferPointer { codes in
            let out = Unchecked(codes)
            return Parallel.map(chunks) { _, range in
                let codes = out.value
                var scan = Scan()
                for i in range {
                    codes[i] = 0
                    let kind = kinds[i]
                    let rank = ValueKind(kind, numericColumn: numericColumn)
                    if scan.allText && !(rank != nil && (kind == .text || kind == .notANumber)) {
                        scan.allText = false
                        scan.textPositions = Array(range.lowerBound..<i)
                    }
                    guard let rank else { scan.sawMissing = true; continue }
                    scan.seen |= 1 << rank.rawValue
                    switch kind {
                    case .integer:
                        let v = Int64(bitPattern: payloads(i))
                        codes[i] = UInt64(bitPattern: v) ^ (1 << 63)
                        if v.magnitude > 1 << 53 { scan.allDoubleExact = false }
                        scan.sawNumber = true
                    case .decimal:
                        scan.allInt64 = false
                        scan.sawNumber = true
                    case .approximate:
                        scan.allInt64 = false
                        scan.allDoubleExact = false
                        scan.sawNumber = true
                    case .date: codes[i] = Self.orderedBits(Double(bitPattern: payloads(i)))
                    case .boolean: codes[i] = payloads(i) + 1
                    case .text, .notANumber: if !scan.allText { scan.textPositions.append(i) }
                    case .error: scan.errorPositions.append(i)
                    case .missing: break
                    }
                }
                return scan
            }
        }
        let seen = scans.reduce(UInt8(0)) { $0 | $1.seen }
        let sawMissing = scans.contains { $0.sawMissing }
        let allInt64 = scans.allSatisfy(\.allInt64), allDoubleExact = scans.allSatisfy(\.allDoubleExact)
        let sawNumber = scans.contains { $0.sawNumber }
        // nil: every row is text.
        let textPositions: [Int]? =
            scans.allSatisfy(\.allText)
            ? nil
            : chunks.indices.flatMap { scans[$0].allText ? Array(chunks[$0]) : scans[$0].textPositions }
        let errorPositions = scans.count == 1 ? scans[0].errorPositions : scans.flatMap(\.errorPositions)
        // Numbers: integer codes are already set; decimals need a code space shared with them.
        // Each way below sets the code of every number, so a way given up halfway leaves nothing.
        if sawNumber && !allInt64 {
            var scaled = false
            if allDoubleExact, let decimals = input.decimals, decimals <= 9 {
                // Decimals of at most `decimals` digits are integers once scaled: ordered as
                // 64-bit integers, with few bits that vary, so the radix sort makes few passes.
                let scale = Double(CellText.integerPowersOfTen[decimals])
                scaled = codes.withUnsafeMutableBufferPointer { codes in
                    let out = Unchecked(codes)
                    return Parallel.map(chunks) { _, range in
                        for i in range where kinds[i] == .integer || kinds[i] == .decimal {
                            let v = kinds[i] == .integer ? Double(Int64(bitPattern: payloads(i))) : Double(bitPattern: payloads(i))
                            let x = (v * scale).rounded()
                            guard abs(x) < 9_007_199_254_740_992 else { return false }
                            out.value[i] = UInt64(bitPattern: Int64(x)) ^ (1 << 63)
                        }
                        return true
                    }.allSatisfy { $0 }
                }
            }
            if scaled {
                // Done above.
            } else if allDoubleExact {
                codes.withUnsafeMutableBufferPointer { codes in
                    let out = Unchecked(codes)
                    Parallel.forEach(chunks) { _, range in
                        for i in range where kinds[i] == .integer || kinds[i] == .decimal {
                            out.value[i] = Self.orderedBits(
                                kinds[i] == .integer
                                    ? Double(Int64(bitPattern: payloads(i)))
                                    : Double(bitPattern: payloads(i)))
                        }
                    }
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
        /// Sets the code at each of `positions` (every row when `nil`) to its distinct text's rank + 1.
        func rank(_ positions: [Int]?, by comparator: TextComparator) {
            guard positions?.isEmpty != true, n > 0 else { return }
            let (ids, texts) = input.distinct(positions)
            let ranks = comparator.ranks(ofDistinct: texts)
            codes.withUnsafeMutableBufferPointer { codes in
                let out = Unchecked(codes)
                Parallel.forEach(Parallel.chunks(positions?.count ?? n)) { _, range in
                    if let positions {
                        for k in range { out.value[positions[k]] = UInt64(ranks[Int(ids[k])]) + 1 }
                    } else {
                        for k in range { out.value[k] = UInt64(ranks[Int(ids[k])]) + 1 }
                    }
                }
            }
        }
        rank(textPositions, by: comparator)
        rank(errorPositions, by: .lexical)
        let descending = direction == .descending
        if descending {
            codes.withUnsafeMutableBufferPointer { codes in
                let out = Unchecked(codes)
                Parallel.forEach(chunks) { _, range in for i in range { out.value[i] = ~out.value[i] } }
            }
        }
        let missingFirst = nulls.missingFirst(descending: descending)
        let kindCount = seen.nonzeroBitCount
        // One kind: missing cells take the code just below the smallest value's, or just above the
        // largest's (codes only order one sort's rows), unless the values reach the end of the
        // codes. Next to the values, not at 0 or 2⁶⁴ − 1, the codes' spread stays that of the
        // values: a radix sort then moves 8 bytes a row instead of 12 (``RadixSort``).
        if kindCount <= 1 {
            var missingCode: UInt64 = missingFirst ? 0 : .max
            var collides = false
            if sawMissing {
                let ends: [(smallest: UInt64, largest: UInt64)] = codes.withUnsafeBufferPointer { codes in
                    let shared = Unchecked(codes)
                    return Parallel.map(chunks) { _, range in
                        var smallest = UInt64.max, largest: UInt64 = 0
                        for i in range where ValueKind(kinds[i], numericColumn: numericColumn) != nil {
                            smallest = min(smallest, shared.value[i])
                            largest = max(largest, shared.value[i])
                        }
                        return (smallest, largest)
                    }
                }
                let smallest = ends.map(\.smallest).min() ?? .max, largest = ends.map(\.largest).max() ?? 0
                // (No value at all: every cell is missing, and any code will do.)
                if smallest <= largest {
                    if missingFirst {
                        collides = smallest == 0
                        missingCode = smallest &- 1
                    } else {
                        collides = largest == .max
                        missingCode = largest &+ 1
                    }
                }
            }
            if !collides {
                if sawMissing {
                    codes.withUnsafeMutableBufferPointer { codes in
                        let out = Unchecked(codes)
                        Parallel.forEach(chunks) { _, range in
                            for i in range where ValueKind(kinds[i], numericColumn: numericColumn) == nil { out.value[i] = missingCode }
                        }
                    }
                }
                values = codes
                classes = nil
                return
            }
        }
        let missingClass: UInt8 = missingFirst ? 0 : 2
        classes = Parallel.array(count: n) { range, out in
            for i in range {
                if let rank = ValueKind(kinds[i], numericColumn: numericColumn) {
                    out[i] = (1 << 3) | (descending ? 4 - rank.rawValue : rank.rawValue)
                } else {
                    out[i] = missingClass << 3
                }
            }
        }
        values = codes
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
    /// The most distinct texts a chunk of rows counts in a table of its own (``Tuning/textTableLimit``).
    static var tableLimit: Int { Tuning.current.textTableLimit }

    /// One distinct text in the table: its hash, its first 16 bytes, its length and id. 32
    /// bytes, so that a probe reads one cache line and short texts are compared without reading
    /// the column's storage.
    struct Entry {
        var hash: UInt64
        var prefix: (UInt64, UInt64)
        var length: Int32
        var id: Int32
    }

    /// An open-addressing table of distinct texts, ids in order of first appearance.
    struct Builder {
        /// Slots, a power of two, at most half full.
        var table = [Entry](repeating: Entry(hash: 0, prefix: (0, 0), length: 0, id: -1), count: 1024)
        /// The first row of each distinct text, by id.
        var firstRow: [Int] = []

        /// The id of the text at `row`, a new one when it was not seen.
        @inline(__always)
        mutating func id(of row: Int, in store: ColumnStore, bytes base: UnsafePointer<UInt8>?) -> Int32 {
            let start = Int(store.starts[row]), length = store.length(at: row)
            let pointer = base.map { $0 + start }
            let hash = hashBytes(pointer, length)
            var prefix: (UInt64, UInt64) = (0, 0)
            if let pointer, length > 0 {
                withUnsafeMutableBytes(of: &prefix) { _ = memcpy($0.baseAddress!, pointer, min(16, length)) }
            }
            let mask = table.count - 1
            var slot = Int(truncatingIfNeeded: hash) & mask
            while true {
                let entry = table[slot]
                if entry.id < 0 {
                    let new = Int32(firstRow.count)
                    table[slot] = Entry(hash: hash, prefix: prefix, length: Int32(length), id: new)
                    firstRow.append(row)
                    if firstRow.count * 2 > table.count { grow() }
                    return new
                }
                if entry.hash == hash, entry.length == Int32(length), entry.prefix == prefix {
                    if length <= 16 { return entry.id }
                    let other = Int(store.starts[firstRow[Int(entry.id)]])
                    if memcmp(base! + start, base! + other, length) == 0 { return entry.id }
                }
                slot = (slot + 1) & mask
            }
        }

        /// Doubles the table: entries move by their stored hash alone.
        private mutating func grow() {
            let capacity = table.count << 1, mask = capacity - 1
            var grown = [Entry](repeating: Entry(hash: 0, prefix: (0, 0), length: 0, id: -1), count: capacity)
            for entry in table where entry.id >= 0 {
                var s = Int(truncatingIfNeeded: entry.hash) & mask
                while grown[s].id >= 0 { s = (s + 1) & mask }
                grown[s] = entry
            }
            table = grown
        }
    }

    /// The distinct texts of `rows` and each row's id, ids in order of first appearance
    /// (``groups(_:rows:ids:)``): a `String` made for each distinct text only.
    static func distinct(_ store: ColumnStore, rows: [Int]) -> (ids: [Int32], texts: [String]) {
        let found = groups(store, rows: rows, ids: true)
        // The texts made a chunk of them per core.
        let texts = Parallel.map(Parallel.chunks(found.first.count, minimum: 4096)) { _, range in
            range.map { store.text(at: rows[found.first[$0]]) }
        }
        return (found.ids, texts.count == 1 ? texts[0] : Array(texts.joined()))
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
