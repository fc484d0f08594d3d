import Foundation
import TrellisText

/// How a grid keeps subtotal groups together: which column labels the groups, and how the groups
/// themselves are ordered. Part of a ``SortPlan``.
///
/// A subtotal sheet (Excel's and WPS's 分类汇总, LibreOffice's 小计 / Subtotals) is a run of
/// rows per group, each followed (or preceded) by its subtotal row — `华东 汇总`, `华北 求和`,
/// `North Total`, `小计` — and a grand total (`总计`, `总计 求和`, `Grand Total`). Sorted under a
/// grouping, the rows sort within their group, each subtotal row stays with its group, and the
/// grand total stays at the edge it was at.
///
/// ```swift
/// var plan = SortPlan(keys: [SortKey("销售额", .descending)])
/// plan.grouping = RowGrouping(column: "地区")          // groups keep their order
/// plan.grouping = RowGrouping(column: "地区", order: .subtotal)  // largest group first
/// ```
public struct RowGrouping: Sendable, Equatable {
    /// How the groups are ordered among themselves.
    public enum GroupOrder: String, Sendable, CaseIterable {
        /// As in the source (the default): only the rows within each group move.
        case source
        /// By the first sort key's value in each group's (first) subtotal row, in the key's
        /// direction; groups without a subtotal row follow in source order.
        case subtotal
        /// By the group's label, with the first key's direction and the label column's text
        /// comparator (natural order, or the locale's).
        case label
    }

    /// The column whose cells label the groups and their subtotal rows.
    public var column: String
    /// The column a subtotal row leaves blank, for a sheet whose subtotal rows carry their
    /// group's label as it is: SQL's `GROUP BY ROLLUP(地区, 产品)` (and `GROUPING SETS`) writes
    /// 华东's subtotal as `华东, NULL` and the grand total as `NULL, NULL`. A cell of it that is
    /// blank, a null marker (`NULL`, `\N`, `<NA>`) or a word for all (`小计`, `合计`, `Total`,
    /// `All`, `全部`: what `COALESCE(产品, '小计')` writes) marks the row a subtotal of the group
    /// its label names, or the grand total where the label is blank or a grand total's
    /// (`总计`). Such a row names no function: each of its cells is checked as whatever function
    /// of its group's rows it agrees with (sum, mean, count, least, most), else left unchecked.
    /// `nil` (the default): subtotal rows are told by their labels (`华东 汇总`).
    public var detail: String?
    public var order: GroupOrder

    public init(column: String, detail: String? = nil, order: GroupOrder = .source) {
        self.column = column
        self.detail = detail
        self.order = order
    }

    /// The grouping a subtotal sheet announces: the first of its first eight text columns in
    /// which a row reads as a subtotal of the rows beside it (`华东 汇总` after rows of 华东, or
    /// before them), or a bare `小计` after a run of one label; `nil` for a sheet without one. The
    /// groups it finds are those of ``RowGroups/init(source:column:detail:excluding:)``.
    ///
    /// A subtotal row is looked for in the first 100,000 rows and the last 10,000 of a column a
    /// table stores (each cell's bytes checked for a label's last word before it is read as a
    /// label), and in the first 10,000 and the last 1,000 of any other column — one a table reads
    /// on demand, a database table's (a spreadsheet imported as it was), an app's source —
    /// through its texts. The last rows are where a sheet's last group closes, before its grand
    /// total: a sheet whose first group is longer than the rows looked at first is found there.
    /// A sheet grouped otherwise is grouped when told (``RowGrouping/init(column:detail:order:)``,
    /// `--group-by`).
    public static func detect(in source: GridDataSource) -> RowGrouping? {
        let storage = source as? ColumnStorageSource
        let count = max(0, source.rowCount)
        guard count > 1 else { return nil }
        // SQL's ROLLUP shape first: its words for a subtotal (`COALESCE(产品, '小计')`) stand in
        // the detail column, where they would read as a bare 小计 closing each product.
        if let rolledUp = detectRolledUp(in: source, count: count) { return rolledUp }
        for (c, column) in source.columns.prefix(8).enumerated() where !column.type.isNumeric {
            // A column the file was read without is not read whole for this.
            let unread = (source as? Table)?.isUnread(c) ?? false
            let stored = !unread && storage.map { c < $0.storeCount && $0.store(c).count >= count } ?? false
            let store = stored ? storage?.store(c) : nil
            func text(_ row: Int) -> String { source.text(row: row, column: c).trimmingSpaces() }
            let first = min(count, stored ? 100_000 : 10_000)
            for range in [0..<first, max(first, count - (stored ? 10_000 : 1_000))..<count] {
                for row in range {
                    let candidate: Bool
                    if let store {
                        candidate = store.withText(at: row) { SubtotalLabel.mayBe($0) }
                    } else {
                        var cell = source.text(row: row, column: c)
                        candidate = cell.withUTF8 { SubtotalLabel.mayBe($0) }
                    }
                    guard candidate, case .subtotal(let prefix, _)? = SubtotalLabel(text(row)) else { continue }
                    let previous = row > 0 ? text(row - 1) : ""
                    let next = row + 1 < count ? text(row + 1) : ""
                    let closes = prefix.isEmpty ? !previous.isEmpty && SubtotalLabel(previous) == nil : prefix == previous || prefix == next
                    if closes { return RowGrouping(column: column.identifier) }
                }
            }
        }
        return nil
    }

    /// A sheet of SQL's `ROLLUP` shape (see ``detail``): two text columns side by side among
    /// the first eight where, in the first 10,000 rows, every run of one label holds exactly one
    /// row whose next column is rolled up, at its end in every run or at its start in every run,
    /// beside at least one row of its own; at least two such runs; a number cell of the first such
    /// row that is a sum, mean, count, least or most of its run's other rows; and grand totals
    /// (rows whose label is blank, NULL or a grand total's, rolled up too) only at the first or
    /// the last row.
    static func detectRolledUp(in source: GridDataSource, count: Int) -> RowGrouping? {
        let columns = Array(source.columns.prefix(8))
        let rows = min(count, 10_000)
        let storage = source as? ColumnStorageSource
        let table = source as? Table
        for g in columns.indices.dropLast() where !columns[g].type.isNumeric && !columns[g + 1].type.isNumeric {
            let d = g + 1
            func text(_ row: Int, _ c: Int) -> String { source.text(row: row, column: c).trimmingSpaces() }
            // A stored detail cell is checked as bytes; a String is made of one that may mark.
            let store = storage.flatMap { d < $0.storeCount && !(table?.isUnread(d) ?? false) && $0.store(d).count >= count ? $0.store(d) : nil }
            func rolledUp(_ row: Int) -> Bool {
                guard let store else { return RolledUp.marks(text(row, d)) }
                return store.withText(at: row) { RolledUp.mayMark($0) } && RolledUp.marks(text(row, d))
            }
            // (A column none of whose cells is rolled up is passed over without reading its labels.)
            guard (0..<rows).contains(where: rolledUp) else { continue }
            // The runs of one label, each checked as it ends.
            var closed = 0
            var subtotalsFirst: Bool?
            var firstGroup: (rows: Range<Int>, subtotal: Int)?
            var fits = true
            var start = 0
            while fits, start < rows {
                let label = text(start, g)
                var end = start + 1
                while end < rows, text(end, g) == label { end += 1 }
                // A run the rows looked at cut short is not judged.
                if end == rows, rows < count { break }
                let marked = (start..<end).filter(rolledUp)
                if RolledUp.isGrandTotal(label) {
                    fits = marked.count == end - start && (start == 0 || end == count)
                } else if marked.count == 1, end - start >= 2, marked[0] == start || marked[0] == end - 1 {
                    let first = marked[0] == start
                    fits = subtotalsFirst.map { $0 == first } ?? true
                    subtotalsFirst = first
                    closed += 1
                    if firstGroup == nil { firstGroup = (start..<end, marked[0]) }
                } else {
                    fits = false
                }
                start = end
            }
            guard fits, closed >= 2, let firstGroup else { continue }
            if Self.summarises(firstGroup.subtotal, rows: firstGroup.rows.filter { $0 != firstGroup.subtotal }, in: source) {
                return RowGrouping(column: columns[g].identifier, detail: columns[d].identifier)
            }
        }
        return nil
    }

    /// Whether some number cell of `row` is the sum, mean, count, least or most of that column
    /// over `rows`, as far as the cell's decimals show.
    static func summarises(_ row: Int, rows: [Int], in source: GridDataSource) -> Bool {
        for (c, column) in source.columns.enumerated() where column.type.isNumeric {
            guard let says = source.value(row: row, column: c).number else { continue }
            let numbers = rows.compactMap { source.value(row: $0, column: c).number }
            let decimals = DecimalFormat.fractionDigits(source.text(row: row, column: c))
            let slack = 0.5 * pow(10, -Double(decimals)) + 1e-9 * abs(says)
            var candidates = [Double(rows.count), Double(numbers.count)]
            if let least = numbers.min(), let most = numbers.max() {
                let sum = numbers.reduce(0, +)
                candidates += [sum, sum / Double(numbers.count), least, most]
            }
            if candidates.contains(where: { abs($0 - says) <= slack }) { return true }
        }
        return false
    }
}

/// What the cells of a ``RowGrouping/detail`` column and its label column say in SQL's `ROLLUP`
/// shape.
package enum RolledUp {
    /// What a rolled-up cell can be written as in a file: an empty field, or a null marker.
    private static let inFiles: [[UInt8]] = [",,", ",\n", ",\r", "\t\t", "\t\n", "\t\r", "NULL", "null", "\\N", "<NA>"].map { Array($0.utf8) }

    /// Whether UTF-8 text (a file's first part) may hold a row of the `ROLLUP` shape: an empty
    /// field or a null marker somewhere. Where neither is, and no subtotal word either, the text
    /// is not read as a table to look.
    package static func mayAppear(in text: [UInt8]) -> Bool {
        text.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return false }
            return inFiles.contains { word in
                word.withUnsafeBytes { word in
                    var from = 0
                    while from < buffer.count, let hit = memchr(base + from, Int32(word[0]), buffer.count - from) {
                        let at = base.distance(to: UnsafeRawPointer(hit))
                        if at + word.count <= buffer.count, memcmp(base + at, word.baseAddress!, word.count) == 0 { return true }
                        from = at + 1
                    }
                    return false
                }
            }
        }
    }

    /// The words for "all of them" a query writes for a rolled-up column (`COALESCE(产品, '小计')`).
    private static let allWords: Set<String> = ["all", "(all)", "total", "grand total", "全部", "所有"]
    private static let nullMarkers: Set<String> = ["null", "\\n", "<na>", "(null)"]

    /// The markers that are no subtotal label, as UTF-8 (the Latin ones lowercased).
    private static let markerBytes: [[UInt8]] = (nullMarkers.union(allWords)).map { Array($0.utf8) }

    /// Whether a detail cell's bytes may mark its row (a quick check before ``marks(_:)``, with
    /// no text made): blank, a null marker or a word for all (Latin letters in any case), or a
    /// cell a subtotal label may be.
    static func mayMark(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let value = CellText.trimmed(bytes)
        guard !value.isEmpty else { return true }
        guard value.count <= 24 else { return false }
        if SubtotalLabel.mayBe(value) { return true }
        return markerBytes.contains { marker in
            marker.count == value.count
                && marker.indices.allSatisfy { k in
                    let b = value[k]
                    return (b >= 0x41 && b <= 0x5A ? b | 0x20 : b) == marker[k]
                }
        }
    }

    /// Whether a detail cell marks its row a subtotal or the grand total.
    static func marks(_ text: String) -> Bool {
        let value = text.trimmingSpaces()
        if value.isEmpty { return true }
        guard value.utf8.count <= 24 else { return false }
        let lower = value.lowercased()
        if nullMarkers.contains(lower) || allWords.contains(lower) { return true }
        switch SubtotalLabel(value) {
        case .subtotal(let group, _)?: return group.isEmpty
        case .grandTotal?: return true
        case nil: return false
        }
    }

    /// Whether the label cell of a marked row makes it the grand total: blank, a null marker, a
    /// word for all, or a grand total's label.
    static func isGrandTotal(_ label: String) -> Bool {
        let value = label.trimmingSpaces()
        if value.isEmpty { return true }
        let lower = value.lowercased()
        if nullMarkers.contains(lower) || allWords.contains(lower) { return true }
        if case .grandTotal? = SubtotalLabel(value) { return true }
        return false
    }
}

/// What a label cell of a subtotal sheet says it is: a group's subtotal (`华东 汇总`, `North
/// Total`, a bare `小计`), a grand total (`总计`, `总计 求和`, `Grand Total`), or neither; with the
/// function the label names (`汇总`, `求和`, `Total`: a sum; `平均值`, `Average`: a mean; …).
public enum SubtotalLabel: Equatable, Sendable {
    /// A group's subtotal: the group's label (empty for a bare `小计`) and the function, `nil`
    /// when the label names none (LibreOffice's `华东 结果`, `North Result`: the grand total's
    /// `总计 求和` or `Grand Sum` names it).
    case subtotal(group: String, SummaryFunction.Name?)
    /// The grand total of every group.
    case grandTotal(SummaryFunction.Name)

    /// The words spreadsheets write after a group's label, longest first within a script, with
    /// the function each names (Excel, WPS and LibreOffice in Chinese, English, German, French,
    /// Spanish).
    private static let words: [(String, SummaryFunction.Name?)] = [
        ("结果", nil), ("result", nil), ("平均值", .mean), ("最大值", .max), ("最小值", .min), ("汇总", .sum), ("求和", .sum), ("小计", .sum),
        ("合计", .sum), ("计数", .count), ("平均", .mean),
        ("subtotal", .sum), ("total", .sum), ("sum", .sum), ("average", .mean), ("count", .count),
        ("max", .max), ("min", .min), ("ergebnis", .sum), ("summe", .sum), ("mittelwert", .mean),
        ("anzahl", .count), ("somme", .sum), ("moyenne", .mean), ("suma", .sum), ("promedio", .mean),
    ]

    /// The last characters of the words a label ends with, in Chinese.
    private static let finalCharacters: Set<Unicode.Scalar> = ["总", "和", "计", "果", "值", "数", "均"]
    /// The Latin words, for the check on bytes.
    private static let latinWords: Set<String> = Set(
        words.map(\.0).filter { $0.unicodeScalars.allSatisfy(\.isASCII) } + ["gesamtergebnis", "général", "general"])

    /// Whether a cell's bytes (UTF-8) may be a label: its last word is one a label ends with. A
    /// quick check on bytes, before the text is read as a label.
    static func mayBe(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let bytes = CellText.trimmed(bytes)
        let end = bytes.count
        guard end > 0 else { return false }
        let last = bytes[end - 1]
        if last >= 0x80 {
            // The last scalar: back to its first byte.
            var start = end - 1
            while start > 0, bytes[start] & 0xC0 == 0x80 { start -= 1 }
            let scalar = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self).unicodeScalars.first
            return scalar.map { finalCharacters.contains($0) } ?? false
        }
        guard (last | 0x20) >= 0x61, (last | 0x20) <= 0x7A else { return false }
        var start = end
        while start > 0, bytes[start - 1] != 0x20 { start -= 1 }
        guard end - start >= 3, end - start <= 14 else { return false }
        let word = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self).lowercased()
        return latinWords.contains(word)
    }

    /// The words a subtotal label holds, as UTF-8 (the Latin ones in the case programs write).
    private static let wordsInFiles: [[UInt8]] = [
        "汇总", "求和", "小计", "合计", "结果", "总计", "平均值", "计数", "最大值", "最小值", " Total", " Sum", " Result", " Average",
        " Count", "Subtotal", "Grand ", "Ergebnis", " Summe", " Somme", " Suma", " total", " sum", " result",
    ].map { Array($0.utf8) }

    /// The words' first four bytes (every word has four or more), hashed to 16 bits: one bit
    /// each in 64K, the filter a place of the text passes before the words are compared there.
    private static let wordFilter: [UInt64] = {
        var bits = [UInt64](repeating: 0, count: 1 << 10)
        for word in wordsInFiles {
            let h = filterHash(word.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) })
            bits[h >> 6] |= 1 << UInt64(h & 63)
        }
        return bits
    }()

    @inline(__always)
    private static func filterHash(_ x: UInt32) -> Int { Int(truncatingIfNeeded: (x &* 0x9E37_79B1) >> 16) }

    /// Whether UTF-8 text (a file's first part) holds a word a subtotal label is made of: where
    /// none is, no row of it is a subtotal, and it need not be read as a table to look.
    ///
    /// One pass over the text: the four bytes at each place are hashed and looked up in
    /// ``wordFilter`` (which fits in a core's first cache), and only where they pass are the
    /// words compared — rather than a search per word, which a common first byte (`t` of
    /// ` total`, the lead byte of most Chinese characters) stops at every few bytes.
    public static func mayAppear(in text: [UInt8]) -> Bool {
        text.withUnsafeBytes { mayAppear(in: $0) }
    }

    /// Whether a UTF-8 file's first part may hold a subtotal row: bytes that are not UTF-8 (a
    /// file of another encoding, whose words are other bytes) or a word of a label. The text's
    /// halves, cut at a line break (never inside a character or a word), are looked through on
    /// every core at once.
    package static func mayAppear(inFileHead text: [UInt8]) -> Bool {
        text.withUnsafeBufferPointer { buffer in
            var parts: [Range<Int>] = [0..<buffer.count]
            if buffer.count >= 1 << 16, Parallel.workers > 1,
                let cut = UnsafeBufferPointer(rebasing: buffer[(buffer.count / 2)...]).firstIndex(of: 0x0A)
            {
                let at = buffer.count / 2 + cut + 1
                parts = [0..<at, at..<buffer.count]
            }
            let shared = Unchecked(buffer)
            return Parallel.map(parts) { _, range in
                let part = UnsafeBufferPointer(rebasing: shared.value[range])
                return TextEncoding.firstInvalidUTF8(part) != nil || mayAppear(in: UnsafeRawBufferPointer(part))
            }.contains(true)
        }
    }

    static func mayAppear(in buffer: UnsafeRawBufferPointer) -> Bool {
        guard let base = buffer.baseAddress, buffer.count >= 4 else { return false }
        let n = buffer.count
        return wordFilter.withUnsafeBufferPointer { bits in
            var at = 0
            while at + 4 <= n {
                let h = filterHash(buffer.loadUnaligned(fromByteOffset: at, as: UInt32.self))
                if bits[h >> 6] & (1 << UInt64(h & 63)) != 0 {
                    for word in wordsInFiles where word.count <= n - at {
                        if word.withUnsafeBytes({ memcmp(base + at, $0.baseAddress!, $0.count) }) == 0 { return true }
                    }
                }
                at += 1
            }
            return false
        }
    }

    /// Reads a label cell; `nil` for any other text.
    public init?(_ text: String) {
        let label = text.trimmingSpaces()
        guard !label.isEmpty, label.count <= 200 else { return nil }
        let lower = label.lowercased()
        // Grand totals: 总计 (with a function after it, as LibreOffice writes), 总合计, Grand …,
        // Gesamtergebnis, Total général.
        for grand in ["总计", "grand "] where lower.hasPrefix(grand) {
            let rest = String(lower.dropFirst(grand.count)).trimmingSpaces()
            if rest.isEmpty { self = .grandTotal(.sum); return }
            if let (_, function) = Self.words.first(where: { $0.0 == rest }) { self = .grandTotal(function ?? .sum); return }
        }
        if ["合计", "总合计", "总和", "gesamtergebnis", "total général", "total general"].contains(lower) {
            self = .grandTotal(.sum)
            return
        }
        if ["小计", "subtotal", "汇总"].contains(lower) {
            self = .subtotal(group: "", .sum)
            return
        }
        for (word, function) in Self.words where lower.hasSuffix(word) && lower.count > word.count {
            let prefix = String(label.dropLast(word.count))
            // A Latin word stands after a space ("North Total", not "Subtotal" read as "Sub").
            let latin = word.unicodeScalars.allSatisfy(\.isASCII)
            if latin && prefix.last != " " { continue }
            let group = prefix.trimmingSpaces()
            guard !group.isEmpty else { continue }
            self = .subtotal(group: group, function)
            return
        }
        return nil
    }

    /// The function the label names, if it names one.
    public var function: SummaryFunction.Name? {
        switch self {
        case .subtotal(_, let function): return function
        case .grandTotal(let function): return function
        }
    }
}

extension SummaryFunction {
    /// The built-in functions by name, without a custom function's closure: what a label names.
    public enum Name: String, Sendable, Equatable {
        case mean, sum, count, min, max

        public var function: SummaryFunction {
            switch self {
            case .mean: .mean
            case .sum: .sum
            case .count: .count
            case .min: .min
            case .max: .max
            }
        }
    }
}

/// The groups of a source under a ``RowGrouping``: each group's rows in source order and its
/// subtotal rows, and the grand totals.
///
/// A group is a run of rows whose label cell is the same (a blank label continues the run) and
/// the subtotal rows that close it (`华东 汇总` or a bare `小计` after it) or open it (`华东 汇总`
/// before rows of 华东). A grand total row ends the group before it.
public struct RowGroups: Sendable {
    public struct Group: Sendable, Equatable {
        /// The label of its rows (its subtotal's, for a group of none).
        public var label: String
        /// Its rows, not the subtotals, in source order.
        public var rows: [Int]
        /// How many rows it has (a sort in parts counts them and keeps no list).
        public var rowCount: Int
        /// Its subtotal rows, in source order.
        public var subtotals: [Int]
        /// Whether the subtotal rows come before the rows.
        public var subtotalsFirst: Bool
        /// The function each subtotal row's label names (one that names none, as LibreOffice's
        /// `华东 结果`, takes the grand total's, else a sum); `nil` for a row of SQL's `ROLLUP`
        /// shape, whose cells are each checked as whatever function they agree with.
        public var functions: [SummaryFunction.Name?]
    }

    public var groups: [Group]
    /// The grand total rows, in source order, with the function each names.
    public var grandTotals: [(row: Int, function: SummaryFunction.Name?)]
    /// The grand totals that stand before every group (at the top of the sheet).
    public var grandTotalsAtTop: Set<Int>
    /// The label column's position.
    public let column: Int

    /// What a sort in parts reports of the groups it kept: the groups (their subtotal rows and
    /// how many rows each has) and the grand total rows.
    public struct Summary: Sendable {
        public var groups: [Group]
        public var grandTotals: [Int]
        /// The label of the first subtotal row (`华东 汇总`), for a message.
        public var firstSubtotalLabel: String?
    }

    /// The column a subtotal row leaves blank (``RowGrouping/detail``), when the groups are of
    /// SQL's `ROLLUP` shape.
    public let detailColumn: Int?

    /// How a message names a subtotal or grand total row: its label cell, with its detail cell
    /// in the `ROLLUP` shape (`华东 (产品 blank)`, `华东 (产品 NULL)`), `the grand total` for a
    /// row whose two cells are blank.
    public func label(ofSummaryRow row: Int, in source: GridDataSource) -> String {
        Self.label(ofSummaryRow: row, in: source, column: column, detail: detailColumn)
    }

    static func label(ofSummaryRow row: Int, in source: GridDataSource, column: Int, detail detailColumn: Int?) -> String {
        let label = source.text(row: row, column: column).trimmingSpaces()
        guard let detailColumn else { return label }
        let detail = source.text(row: row, column: detailColumn).trimmingSpaces()
        if label.isEmpty && detail.isEmpty { return "the grand total" }
        let name = source.columns.indices.contains(detailColumn) ? source.columns[detailColumn].identifier : "detail"
        return "\(label.isEmpty ? "(blank)" : label) (\(name) \(detail.isEmpty ? "blank" : detail))"
    }

    /// Each group's rows as one range, where every group's rows are consecutive (as a sheet's
    /// subtotal groups are); otherwise `nil`.
    public var ranges: [Range<Int>]? {
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(groups.count)
        for group in groups {
            guard let first = group.rows.first, let last = group.rows.last else {
                ranges.append(0..<0)
                continue
            }
            guard last - first + 1 == group.rows.count else { return nil }
            ranges.append(first..<last + 1)
        }
        return ranges
    }

    /// Every row that is a group's row (not a subtotal or a grand total).
    public var detailRows: [Int] { groups.flatMap(\.rows) }

    /// The groups of `source`'s rows by the cells of `column`, leaving out the rows `excluding`
    /// says (pinned ones; empty: none).
    public init(source: GridDataSource, column: Int, detail: Int? = nil, excluding: [Bool] = []) {
        self.column = column
        detailColumn = detail
        let count = max(0, source.rowCount)
        var builder: Builder
        // The label cells are read as bytes where the source stores them, through one view of
        // the column: a row of the open group costs a compare and an append. (The builder is
        // the closure's own, not one it captures: a captured variable is checked for exclusive
        // access at every change.)
        let storage = source as? ColumnStorageSource
        if let detail {
            builder = Builder()
            for row in 0..<count where excluding.isEmpty || !excluding[row] {
                var label = source.text(row: row, column: column), cell = source.text(row: row, column: detail)
                label.withUTF8 { label in cell.withUTF8 { _ = builder.add(row, label, detail: $0) } }
            }
        } else if let storage, column < storage.storeCount, storage.store(column).count >= count {
            builder = storage.store(column).withView(uniformity: false) { view in
                // A row whose label is byte for byte the row before's is read as that row was:
                // where the open group took the row before as one of its own, the run of rows of
                // that label is taken whole (found by one pass on every core first).
                let runStarts = Self.runStarts(view, count: count, excluding: excluding)
                var builder = Builder()
                runStarts.withUnsafeBufferPointer { runStarts in
                    var row = 0
                    while row < count {
                        if !excluding.isEmpty, excluding[row] {
                            row += 1
                            continue
                        }
                        let bytes = view.text(row)
                        guard builder.continuesOpenGroup(bytes) else {
                            builder.add(row, bytes)
                            row += 1
                            continue
                        }
                        // The run: up to the next row that starts one.
                        let after = row + 1
                        var end = count
                        if after < count, let found = memchr(runStarts.baseAddress! + after, 1, count - after) {
                            end = after + (UnsafeRawPointer(found) - UnsafeRawPointer(runStarts.baseAddress! + after))
                        }
                        builder.addRun(row..<end)
                        row = end
                    }
                }
                return builder
            }
        } else {
            builder = Builder()
            for row in 0..<count where excluding.isEmpty || !excluding[row] {
                var text = source.text(row: row, column: column)
                text.withUTF8 { _ = builder.add(row, $0) }
            }
        }
        builder.close()
        groups = builder.finishedGroups()
        grandTotals = builder.grandTotals
        grandTotalsAtTop = builder.grandTotalsAtTop
    }

    /// Whether each row starts a run of rows whose label cells are the same bytes (1) or holds
    /// the bytes of the row before (0); a row left out starts one, and so does the row after it.
    private static func runStarts(_ view: CellBytesView, count: Int, excluding: [Bool]) -> [UInt8] {
        excluding.withUnsafeBufferPointer { excluding in
            let shared = Unchecked((view, excluding))
            return Parallel.array(count: count) { range, out in
                let (view, excluding) = shared.value
                for row in range {
                    if row == 0 || (!excluding.isEmpty && (excluding[row] || excluding[row - 1])) {
                        out[row] = 1
                        continue
                    }
                    out[row] = Self.sameBytes(view.text(row), view.text(row - 1)) ? 0 : 1
                }
            }
        }
    }

    /// Whether two cells hold the same bytes (a label is a few: compared in place rather than
    /// through a call).
    @inline(__always)
    static func sameBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard a.count > 0, let x = a.baseAddress, let y = b.baseAddress else { return true }
        guard a.count <= 16 else { return memcmp(x, y, a.count) == 0 }
        for i in 0..<a.count where x[i] != y[i] { return false }
        return true
    }

    /// The groups as the rows are read, one at a time. The open group's parts are kept apart
    /// (not in an optional ``Group``), so that a row of it is appended in place.
    ///
    /// A sort in parts reads a file's rows part by part and keeps no list of them
    /// (`keepsRows: false`): each row's ``Placement`` — its group's place among the groups — is
    /// what it needs, and the groups it ends with hold their subtotal rows only.
    package struct Builder {
        /// Where a row read goes: a row of the group at `group` (counted from 0 in the order the
        /// groups are met), one of its subtotal rows (before its rows, or after), or a grand total
        /// (above every group, or below).
        package enum Placement: Equatable {
            case row(group: Int)
            case subtotal(group: Int, first: Bool)
            case grandTotal(atTop: Bool)
        }

        let keepsRows: Bool
        package init(keepsRows: Bool = true) { self.keepsRows = keepsRows }

        package private(set) var groups: [Group] = []
        package private(set) var grandTotals: [(row: Int, function: SummaryFunction.Name?)] = []
        package private(set) var grandTotalsAtTop: Set<Int> = []
        /// Subtotal rows whose label names no function, by group and position.
        var unnamed: [(group: Int, index: Int)] = []

        // The open group.
        var isOpen = false
        var label = ""
        var rows: [Int] = []
        /// The open group's rows (kept in ``rows`` unless the builder keeps none).
        var rowCount = 0
        var subtotals: [Int] = []
        var subtotalsFirst = false
        var functions: [SummaryFunction.Name?] = []
        /// Whether the open group has had its closing subtotal (a detail row then starts another).
        var closed = false

        /// The label of the open (or last) group's rows, as UTF-8, and whether it reads as a
        /// subtotal label itself (then a cell of it is read as one, not taken as a row).
        var currentLabel: [UInt8] = []
        var currentIsLabel = false
        /// The cell being read, when it is not the open group's label.
        var cell: [UInt8] = []

        /// What a label cell is, by its bytes (spaces around them aside).
        enum Seen { case blank, same, candidate, other }

        mutating func setCurrentLabel(_ bytes: [UInt8]) {
            currentLabel = bytes
            currentIsLabel = bytes.withUnsafeBufferPointer { SubtotalLabel.mayBe($0) } && SubtotalLabel(String(decoding: bytes, as: UTF8.self)) != nil
        }

        package mutating func close() {
            if isOpen {
                groups.append(
                    Group(label: label, rows: rows, rowCount: rowCount, subtotals: subtotals, subtotalsFirst: subtotalsFirst, functions: functions))
            }
            isOpen = false
            closed = false
            rows = []
            rowCount = 0
            subtotals = []
            functions = []
        }

        mutating func open(label: String, row: Int?, subtotal: Int?, function: SummaryFunction.Name?) {
            self.label = label
            rows = keepsRows ? row.map { [$0] } ?? [] : []
            rowCount = row == nil ? 0 : 1
            subtotals = subtotal.map { [$0] } ?? []
            functions = subtotal == nil ? [] : [function]
            subtotalsFirst = subtotal != nil
            isOpen = true
        }

        /// Whether `bytes` are those of the current label.
        @inline(__always)
        func isCurrentLabel(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            currentLabel.withUnsafeBufferPointer { RowGroups.sameBytes($0, bytes) }
        }

        /// Reads the row at `row` (counted in the source), whose label cell is `bytes`.
        @inline(__always)
        @discardableResult
        package mutating func add(_ row: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Placement {
            // The common row, in the loop itself: one more of the open group, its label written
            // as the last one.
            if continuesOpenGroup(bytes) {
                if keepsRows { rows.append(row) }
                rowCount += 1
                return .row(group: groups.count)
            }
            return addOther(row, bytes)
        }

        /// Whether a row whose label cell is `bytes` is one more of the open group, read as
        /// ``add(_:_:)`` reads it without a change of state — and so is every row after it with
        /// the same bytes.
        @inline(__always)
        func continuesOpenGroup(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            isOpen && !closed && !currentIsLabel && !bytes.isEmpty && isCurrentLabel(bytes)
        }

        /// Reads `rows`, each one more of the open group (``continuesOpenGroup(_:)`` of their
        /// common label).
        mutating func addRun(_ rows: Range<Int>) {
            if keepsRows { self.rows.append(contentsOf: rows) }
            rowCount += rows.count
        }

        @inline(never)
        mutating func addOther(_ row: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Placement {
            let value = CellText.trimmed(bytes)
            let equal = !value.isEmpty && isCurrentLabel(value)
            let seen: Seen
            if value.isEmpty {
                seen = .blank
            } else if equal && !currentIsLabel {
                seen = .same
            } else if SubtotalLabel.mayBe(value) {
                cell.removeAll(keepingCapacity: true)
                cell.append(contentsOf: value)
                seen = .candidate
            } else if equal {
                seen = .same
            } else {
                cell.removeAll(keepingCapacity: true)
                cell.append(contentsOf: value)
                seen = .other
            }
            // One more row of the open group (a blank label continues it).
            if seen == .same || seen == .blank, isOpen, !closed {
                if keepsRows { rows.append(row) }
                rowCount += 1
                return .row(group: groups.count)
            }
            let parsed = seen == .candidate ? SubtotalLabel(String(decoding: cell, as: UTF8.self)) : nil
            switch parsed {
            case .grandTotal(let function)?:
                return placeGrandTotal(row, function: function)
            case .subtotal(let name, let function)?:
                // (A label that names no function takes the grand total's: `unnamed`.)
                return placeSubtotal(row, group: name, function: function ?? .sum, unnamed: function == nil)
            case nil:
                let blank = seen == .blank
                // A candidate that is no label is compared with the open group's label as well.
                let same = blank || seen == .same || (seen == .candidate && cell == currentLabel)
                if isOpen, !closed, same || (rowCount == 0 && label.isEmpty) {
                    if label.isEmpty && !blank {
                        label = String(decoding: cell, as: UTF8.self)
                        setCurrentLabel(cell)
                    }
                    if keepsRows { rows.append(row) }
                    rowCount += 1
                } else {
                    close()
                    // (A row of the same label after its group's subtotal starts a group of that label.)
                    if blank { setCurrentLabel([]) } else if seen != .same { setCurrentLabel(cell) }
                    open(label: String(decoding: currentLabel, as: UTF8.self), row: row, subtotal: nil, function: .sum)
                }
                return .row(group: groups.count)
            }
        }

        /// Places a grand total row.
        mutating func placeGrandTotal(_ row: Int, function: SummaryFunction.Name?) -> Placement {
            close()
            grandTotals.append((row, function))
            if groups.isEmpty { grandTotalsAtTop.insert(row) }
            return .grandTotal(atTop: groups.isEmpty)
        }

        /// Places a subtotal row of the group labelled `name` (empty: the open group's).
        mutating func placeSubtotal(_ row: Int, group name: String, function: SummaryFunction.Name?, unnamed isUnnamed: Bool) -> Placement {
            if isOpen, name.isEmpty || name == label, subtotalsFirst ? rowCount == 0 : rowCount > 0 {
                // Closing the rows above it, or one more subtotal above the rows to come.
                if isUnnamed { unnamed.append((groups.count, subtotals.count)) }
                subtotals.append(row)
                functions.append(function)
                closed = !subtotalsFirst
                return .subtotal(group: groups.count, first: subtotalsFirst)
            }
            close()
            if isUnnamed { unnamed.append((groups.count, 0)) }
            open(label: name, row: nil, subtotal: row, function: function)
            setCurrentLabel(Array(name.utf8))
            return .subtotal(group: groups.count, first: true)
        }

        /// Reads the row at `row` of a sheet of SQL's `ROLLUP` shape (``RowGrouping/detail``):
        /// its label cell and its detail cell. A rolled-up detail makes it its label's subtotal
        /// (or the grand total), naming no function.
        @inline(__always)
        @discardableResult
        package mutating func add(_ row: Int, _ bytes: UnsafeBufferPointer<UInt8>, detail: UnsafeBufferPointer<UInt8>) -> Placement {
            let trimmed = CellText.trimmed(detail)
            guard trimmed.count <= 24, RolledUp.marks(String(decoding: trimmed, as: UTF8.self)) else { return add(row, bytes) }
            let label = String(decoding: CellText.trimmed(bytes), as: UTF8.self)
            if RolledUp.isGrandTotal(label) { return placeGrandTotal(row, function: nil) }
            return placeSubtotal(row, group: label, function: nil, unnamed: false)
        }

        /// The groups once every row is read: a subtotal whose label names no function takes the
        /// grand total's; a bare subtotal that opened a group of no rows closes the group before
        /// it, when that one has none of its own (a sheet whose subtotal rows read only 小计).
        mutating func finishedGroups() -> [Group] {
            nameUnnamedFunctions()
            var merged: [Group] = []
            merged.reserveCapacity(groups.count)
            for (g, group) in groups.enumerated() {
                if Self.closesTheGroupBefore(g, in: groups), var last = merged.last {
                    last.subtotals = group.subtotals
                    last.functions = group.functions
                    merged[merged.count - 1] = last
                } else {
                    merged.append(group)
                }
            }
            return merged
        }

        /// Gives each subtotal row whose label names no function (LibreOffice's `华东 结果`) the
        /// grand total's.
        package mutating func nameUnnamedFunctions() {
            if let grand = grandTotals.first?.function ?? nil {
                for (g, index) in unnamed { groups[g].functions[index] = grand }
            }
            unnamed = []
        }

        /// Whether the group at `g` (as met, before ``finishedGroups()``) is a bare subtotal
        /// that opened a group of no rows after a group of none: its subtotal closes that group.
        package static func closesTheGroupBefore(_ g: Int, in groups: [Group]) -> Bool {
            let group = groups[g]
            return g > 0 && group.rowCount == 0 && group.subtotalsFirst && group.label.isEmpty && groups[g - 1].subtotals.isEmpty
        }
    }
}
