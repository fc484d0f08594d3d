import Foundation
import TrellisText

/// Each row's sort keys as bytes whose order (compared as unsigned bytes, a shorter prefix
/// first) is the order ``SortEngine`` gives, the row's place in the file last so that ties keep
/// their order. Per key: a class byte — blanks before or after every value as the key's nulls
/// say, values by kind (numbers < dates < text < truth values < errors, reversed descending) —
/// then the value: a number as its double's ordered bits, or for a column with numbers a double
/// cannot hold exactly, its digits (sign, exponent, digits); a date as its instant's ordered bits;
/// a truth value as one byte; a text or an error as its comparator's sort key, escaped so that it
/// ends with two zero bytes. A descending key's value bytes are inverted.
struct KeyBytes {
    private(set) var bytes: [UInt8] = []
    private(set) var ends: [Int] = []

    /// Each key's text comparator is its column's as `table` has it: the file's reading may have
    /// settled a column's type and comparator since the plan was bound.
    init(table: Table, rows: [Int], firstRow: Int, keys: [BoundSortPlan.Key], exactNumbers: [Bool]) {
        let n = rows.count
        struct Prepared {
            var input: KeyInput
            var texts: [[UInt8]]
            var ids: [Int32]
            var store: ColumnStore
            var descending: Bool
            var missingFirst: Bool
            var exact: Bool
        }
        let prepared: [Prepared] = keys.map { bound in
            let key = bound.key, column = bound.column
            var input = KeyInput(storage: table, column: column, rows: rows)
            if bound.asText { input = input.everyCellAsText() }
            let comparator = BoundSortPlan.comparator(for: key, column: table.columns[column])
            // One sort key per distinct text (errors compare as lexical text), of the cells that
            // are texts: a number column's numbers need none.
            let textual = (0..<n).filter { i in
                switch input.kinds[i] {
                case .text, .error: return true
                case .notANumber: return !input.numericColumn
                default: return false
                }
            }
            var ids = [Int32](repeating: 0, count: textual.isEmpty ? 0 : n)
            var texts: [String] = []
            if textual.count == n {
                (ids, texts) = input.distinct(nil)
            } else if !textual.isEmpty {
                let found = input.distinct(textual)
                texts = found.texts
                for (k, i) in textual.enumerated() { ids[i] = found.ids[k] }
            }
            let hasErrors = input.kinds.contains(.error)
            let keyed: [[UInt8]] = texts.map { comparator.sortKey($0) }
            let errorKeyed: [[UInt8]] = hasErrors ? texts.map { TextComparator.lexical.sortKey($0) } : []
            let descending = key.direction == .descending
            var prepared = Prepared(
                input: input, texts: keyed, ids: ids, store: table.store(column), descending: descending,
                missingFirst: key.nulls.missingFirst(descending: descending), exact: exactNumbers[column])
            if hasErrors {
                // Errors' positions get their lexical keys: ids past the comparator's.
                let base = Int32(keyed.count)
                prepared.texts += errorKeyed
                for i in 0..<n where input.kinds[i] == .error { prepared.ids[i] += base }
            }
            return prepared
        }
        // Each key's cells first, column by column, into flat arrays (key k's cell i at k·n + i):
        // the class byte, a tag for the value's form and the value.
        // Tags: 0 none (a blank), 1 eight bytes, 2 one byte, 3 a text's key (by id), 4 exact digits.
        let m = prepared.count
        var classes = [UInt8](repeating: 0, count: n * m), tags = [UInt8](repeating: 0, count: n * m)
        var values = [UInt64](repeating: 0, count: n * m)
        // The texts' keys of every key in one buffer: key k's text id j at textStarts[k][j].
        var textBytes: [UInt8] = [], textEnds: [Int] = [], textBase: [Int] = []
        for (k, p) in prepared.enumerated() {
            textBase.append(textEnds.count)
            for key in p.texts {
                textBytes += key
                textEnds.append(textBytes.count)
            }
            let kinds = p.input.kinds, payloads = p.input.payloads, numeric = p.input.numericColumn
            for i in 0..<n {
                let at = k * n + i
                let kind = kinds[i]
                guard let rank = ValueKind(kind, numericColumn: numeric) else {
                    classes[at] = p.missingFirst ? 0x00 : 0x20
                    continue
                }
                classes[at] = 0x10 | (p.descending ? 4 - rank.rawValue : rank.rawValue)
                let payload = payloads.isEmpty ? 0 : payloads[i]
                switch kind {
                case .integer, .decimal, .approximate:
                    if p.exact {
                        tags[at] = 4
                    } else {
                        tags[at] = 1
                        values[at] = KeyCodes.orderedBits(kind == .integer ? Double(Int64(bitPattern: payload)) : Double(bitPattern: payload))
                    }
                case .date:
                    tags[at] = 1
                    values[at] = KeyCodes.orderedBits(Double(bitPattern: payload))
                case .boolean:
                    tags[at] = 2
                    values[at] = payload + 1
                case .text, .notANumber, .error:
                    tags[at] = 3
                    values[at] = UInt64(textBase[k] + Int(p.ids[i]))
                case .missing: break
                }
            }
        }
        let descending = prepared.map(\.descending)
        let stores = prepared.map(\.store)
        // Then row by row, into one buffer.
        var out = [UInt8]()
        out.reserveCapacity(n * (9 + m * 10))
        var ends = [Int]()
        ends.reserveCapacity(n)
        var scratch: [UInt8] = []
        classes.withUnsafeBufferPointer { classes in
            tags.withUnsafeBufferPointer { tags in
                values.withUnsafeBufferPointer { values in
                    textBytes.withUnsafeBufferPointer { textBytes in
                        textEnds.withUnsafeBufferPointer { textEnds in
                            for i in 0..<n {
                                for k in 0..<m {
                                    let at = k * n + i
                                    out.append(classes[at])
                                    let start = out.count
                                    let value = values[at]
                                    switch tags[at] {
                                    case 1: Self.appendBigEndian(value, to: &out)
                                    case 2: out.append(UInt8(truncatingIfNeeded: value))
                                    case 3:
                                        let id = Int(value)
                                        let from = id == 0 ? 0 : textEnds[id - 1]
                                        Self.appendEscaped(UnsafeBufferPointer(rebasing: textBytes[from..<textEnds[id]]), to: &out)
                                    case 4:
                                        scratch.removeAll(keepingCapacity: true)
                                        Self.appendExact(stores[k].withText(at: rows[i]) { ExactDecimal($0) } ?? .zero, to: &scratch)
                                        out += scratch
                                    default: continue
                                    }
                                    if descending[k] {
                                        out.withUnsafeMutableBufferPointer { b in
                                            for j in start..<b.count { b[j] = ~b[j] }
                                        }
                                    }
                                }
                                Self.appendBigEndian(UInt64(firstRow + rows[i]), to: &out)
                                ends.append(out.count)
                            }
                        }
                    }
                }
            }
        }
        bytes = out
        self.ends = ends
    }

    var count: Int { ends.count }

    func key(_ i: Int) -> ArraySlice<UInt8> { bytes[(i == 0 ? 0 : ends[i - 1])..<ends[i]] }

    /// Calls `body` with a function that gives key `i` in place.
    func withKeys<E: Error>(_ body: ((Int) -> UnsafeBufferPointer<UInt8>) throws(E) -> Void) throws(E) {
        try bytes.withUnsafeBufferPointer { all throws(E) in
            try ends.withUnsafeBufferPointer { ends throws(E) in
                try body { i in UnsafeBufferPointer(rebasing: all[(i == 0 ? 0 : ends[i - 1])..<ends[i]]) }
            }
        }
    }

    /// The positions in key order (keys are distinct: each ends with its row), as
    /// ``SortKeys/sortedPositions(_:ends:)`` orders keys.
    func sortedPositions() -> [Int] {
        bytes.withUnsafeBufferPointer { all in
            ends.withUnsafeBufferPointer { ends in SortKeys.sortedPositions(all, ends: ends).map { Int($0) } }
        }
    }

    @inline(__always)
    static func appendBigEndian(_ value: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// A sort key, each zero byte written as 00 FF, ended by 00 00: the order of the keys, and
    /// no key's bytes a prefix of another's, so that keys after it compare only on ties.
    @inline(__always)
    static func appendEscaped(_ key: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        for b in key {
            bytes.append(b)
            if b == 0 { bytes.append(0xFF) }
        }
        bytes.append(0)
        bytes.append(0)
    }

    /// An exact number in bytes of its order: 0x40 negative (the rest inverted), 0x80 zero,
    /// 0xC0 positive; then the exponent (offset by 2³¹), the digits (1…10) and a 0.
    static func appendExact(_ number: ExactDecimal, to bytes: inout [UInt8]) {
        if number.digits.isEmpty { bytes.append(0x80); return }
        bytes.append(number.negative ? 0x40 : 0xC0)
        let start = bytes.count
        let exponent = UInt32(truncatingIfNeeded: Int64(number.exponent) + (1 << 31))
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: exponent >> UInt32(shift))) }
        for digit in number.digits { bytes.append(digit + 1) }
        bytes.append(0)
        if number.negative { for k in start..<bytes.count { bytes[k] = ~bytes[k] } }
    }
}
