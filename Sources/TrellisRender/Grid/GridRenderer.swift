import CPrefetch
import Foundation
import TrellisGrid
import TrellisText

/// Writes a ``DataGrid`` as it is displayed (pinned rows, sorted body, summaries) in text, CSV,
/// JSON or HTML. Every cell is written as its source holds it — `007`, `1.50`, `+5` stay as they
/// are — and only summary rows are formatted. The same grid always gives the same bytes, and
/// every format is linear in the rows and the widths of the cells.
public enum GridRenderer {
    /// How many terminal columns a text takes (``TextWidth/columns(_:)``).
    public static func displayWidth(_ text: String) -> Int { TextWidth.columns(text) }

    // MARK: Text

    /// An aligned table: a header with sort glyphs (▲ ascending, ▼ descending, with the key's
    /// priority when there are several keys), numbers right-aligned, and a rule between the
    /// pinned rows and the body. Control characters (C0, C1, bidi overrides) are shown as escapes.
    public static func text(_ grid: DataGrid) -> String { collect { writeText(grid, to: $0) } }

    /// Writes ``text(_:)`` to `out`.
    public static func writeText(_ grid: DataGrid, to out: TextOutput) {
        let columns = grid.columns
        let count = grid.displayedRowCount
        let multiKey = grid.sortKeys.count > 1
        let header = columns.map { column -> String in
            let glyph = grid.glyph(for: column.identifier)
            guard let direction = glyph.direction else { return visible(column.title) }
            return visible(column.title) + " " + (direction == .ascending ? "▲" : "▼")
                + (multiKey ? glyph.priority.map(String.init) ?? "" : "")
        }
        var widths = header.map(displayWidth)
        withCells(grid) { cells in
            for index in 0..<count {
                cells.forEach(index) { c, bytes, _, _ in
                    let width = visibleWidth(bytes)
                    if width > widths[c] { widths[c] = width }
                }
            }
        }
        let rule = widths.map { String(repeating: "─", count: $0) }.joined(separator: "──") + "\n"
        // Spaces are held back until something follows them, so that no line ends in spaces.
        var pending = 0
        func cell(_ width: Int, _ content: () -> Void, column c: Int, right: Bool) {
            if c > 0 { pending += 2 }
            let fill = max(0, widths[c] - width)
            if right { pending += fill }
            if width > 0 {
                spaces(pending, out)
                pending = 0
                content()
            }
            if !right { pending += fill }
        }
        for (c, title) in header.enumerated() {
            cell(displayWidth(title), { out.write(title) }, column: c, right: columns[c].type.isNumeric)
        }
        pending = 0
        out.write("\n")
        out.write(rule)
        let viewport = GridViewport(showingAllOf: grid.order)
        let top = viewport.bodyStart, bottomStart = viewport.bodyEnd
        withCells(grid) { cells in
            for index in 0..<count {
                if (index == top && top > 0) || (index == bottomStart && bottomStart > top && bottomStart < count) {
                    out.write(rule)
                }
                cells.forEach(index) { c, bytes, right, _ in
                    cell(visibleWidth(bytes), { writeVisible(bytes, out) }, column: c, right: right)
                }
                pending = 0
                out.write(byte: 0x0A)
            }
        }
    }

    private static let spaceRun = [UInt8](repeating: 0x20, count: 256)

    private static func spaces(_ count: Int, _ out: TextOutput) {
        var left = count
        while left > 0 {
            let n = min(left, spaceRun.count)
            spaceRun.withUnsafeBufferPointer { out.write(bytes: UnsafeBufferPointer(rebasing: $0[0..<n])) }
            left -= n
        }
    }

    /// A scalar shown in a table cell: control characters, C1 controls and bidi overrides as
    /// escapes (`\n`, `\t`, `\u{202E}`), everything else as it is.
    static func escape(_ scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x0A: return "\\n"
        case 0x09: return "\\t"
        case 0x0D: return "\\r"
        case 0..<0x20, 0x7F..<0xA0, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
            return "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        default: return nil
        }
    }

    /// Text with ``escape(_:)`` applied: what a table cell shows (the viewer's too).
    package static func visible(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if let escaped = escape(scalar) { out += escaped } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    /// Whether text must go through ``escape(_:)``: it holds a C0 control, DEL, a C1 control or
    /// a bidi control (checked on the UTF-8 bytes).
    @inline(__always)
    private static func needsEscapes(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = b.count
        var i = 0
        while i < n {
            let c = b[i]
            if c < 0x20 || c == 0x7F { return true }
            if c == 0xC2, i + 1 < n, b[i + 1] >= 0x80, b[i + 1] <= 0x9F { return true }  // C1
            if c == 0xD8, i + 1 < n, b[i + 1] == 0x9C { return true }  // U+061C
            if c == 0xE2, i + 2 < n {
                let x = b[i + 1], y = b[i + 2]
                if x == 0x80, y == 0x8E || y == 0x8F || (y >= 0xAA && y <= 0xAE) { return true }  // 200E/F, 202A–E
                if x == 0x81, y >= 0xA6, y <= 0xA9 { return true }  // 2066–2069
            }
            i += 1
        }
        return false
    }

    private static func visibleWidth(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        if !needsEscapes(bytes) { return TextWidth.columns(utf8: bytes) }
        return displayWidth(visible(String(decoding: bytes, as: UTF8.self)))
    }

    private static func writeVisible(_ bytes: UnsafeBufferPointer<UInt8>, _ out: TextOutput) {
        if !needsEscapes(bytes) { out.write(bytes: bytes); return }
        out.write(visible(String(decoding: bytes, as: UTF8.self)))
    }

    // MARK: CSV

    /// CSV of the displayed rows with the header, written as the file the table was read from was
    /// (its delimiter and line breaks, and its byte order mark when the output is in a Unicode
    /// encoding; RFC 4180 otherwise): a record the sort did not change is copied as the file had
    /// it. With `neutralizeFormulas`, text cells a spreadsheet would run as formulas get a leading
    /// `'` (plain numbers such as `-5` and `+1.5` are left alone). A `delimiter` other than the
    /// file's writes every record anew with it (a `.tsv` written from a comma file).
    public static func csv(_ grid: DataGrid, neutralizeFormulas: Bool, delimiter: UInt8? = nil) -> String {
        collect { writeCSV(grid, neutralizeFormulas: neutralizeFormulas, delimiter: delimiter, to: $0) }
    }

    /// Writes ``csv(_:neutralizeFormulas:delimiter:)`` to `out`; returns how many cells got a
    /// leading `'`.
    @discardableResult
    public static func writeCSV(_ grid: DataGrid, neutralizeFormulas: Bool, delimiter: UInt8? = nil, to out: TextOutput) -> Int {
        writeCSV(grid, neutralizeFormulas: neutralizeFormulas, delimiter: delimiter, to: out, splitAbove: 200_000)
    }

    /// ``writeCSV(_:neutralizeFormulas:delimiter:to:)``, in two halves at once above `splitAbove` rows.
    @discardableResult
    static func writeCSV(
        _ grid: DataGrid, neutralizeFormulas: Bool, delimiter chosen: UInt8? = nil, to out: TextOutput,
        splitAbove: Int
    ) -> Int {
        // Cells given a leading ': the header's and the rows' (each half of the rows counted by its
        // own thread).
        var guarded = 0
        let columns = grid.columns
        let format = grid.csvFormat
        let lineBreak = format.lineBreak, delimiter = chosen ?? format.delimiter
        // The file's records are copied only where they are written with its own delimiter.
        let raw = delimiter == format.delimiter ? grid.records?.rawRecords : nil
        // The file's byte order mark, Excel's `sep=` line and the lines above the header.
        format.writeLinesAboveHeader(to: out, delimiter: delimiter)
        // A record of the file is copied as it is (quoting and all) unless it must change.
        if let raw, !raw.header.isEmpty, !(neutralizeFormulas && raw.headerRisky) {
            raw.withBytes { out.write(bytes: UnsafeBufferPointer(rebasing: $0[raw.header])) }
        } else {
            for (c, column) in columns.enumerated() {
                if c > 0 { out.write(byte: delimiter) }
                var name = column.title
                if name.withUTF8({ writeField($0, neutralizeFormulas: neutralizeFormulas, delimiter: delimiter, out) }) { guarded += 1 }
            }
        }
        out.write(bytes: lineBreak)
        // Where every row is its record, copied, the columns a table was read without stay unread.
        withCells(grid, readingEveryColumn: raw == nil || neutralizeFormulas) { cells in
            /// Writes the row at display `index` field by field to `out`; returns how many of its
            /// cells got a leading `'`.
            func writeFields(_ index: Int, to out: TextOutput) -> Int {
                // A record with cells set since it was read: its other fields copied as they are.
                if let raw, let source = cells.order.plainSourceRow(at: index), source < raw.count, raw.isChanged(source),
                    !(neutralizeFormulas && raw.isRisky(source)),
                    let guarded = writeSpliced(source, raw: raw, grid: grid, neutralizeFormulas: neutralizeFormulas, delimiter: delimiter, to: out)
                {
                    return guarded
                }
                var count = 0
                cells.forEach(index) { c, bytes, _, _ in
                    if c > 0 { out.write(byte: delimiter) }
                    if writeField(bytes, neutralizeFormulas: neutralizeFormulas, delimiter: delimiter, out) { count += 1 }
                }
                return count
            }
            let count = grid.displayedRowCount
            guard let raw else {
                for index in 0..<count {
                    guarded += writeFields(index, to: out)
                    out.write(bytes: lineBreak)
                }
                return
            }
            // Records left in their file (a large file read for its sort keys) are gathered from
            // it a part of the output at a time.
            if let mapped = raw.mapped, !neutralizeFormulas,
                let written = writeGathering(
                    cells.order, count: count, records: raw, file: mapped, lineBreak: lineBreak,
                    otherRow: { writeFields($0, to: $1) }, to: out)
            {
                guarded += written
                return
            }
            // A row shown as its source holds it is its record, found with one jump into the
            // records' starts and one into the file; any other row (a summary, a recomputed row,
            // a risky record when formulas are guarded) is written field by field. Both jumps
            // miss the cache at random rows, so they are asked for ahead (a prefetch), a batch of
            // rows at a time and a batch apart: while one batch is copied, the next one's records
            // and the one after's starts are on their way.
            let order = cells.order
            let noRecord = UInt64.max
            raw.withBytes { file in
                raw.starts.withUnsafeBufferPointer { starts in
                    func writeRows(_ range: Range<Int>, to out: TextOutput) -> Int {
                        var count = 0
                        let end = range.upperBound
                        /// The source rows shown from `first` on (−1: not written as its record),
                        /// each one's start (and the next record's, where its end is) asked for.
                        func findRows(from first: Int, into rows: UnsafeMutablePointer<Int>) {
                            for index in first..<min(end, first + batchRows) {
                                if let source = order.plainSourceRow(at: index), source < starts.count,
                                    !(neutralizeFormulas && raw.isRisky(source)), !raw.isChanged(source)
                                {
                                    rows[index - first] = source
                                    trellis_prefetch(starts.baseAddress! + source)
                                } else {
                                    rows[index - first] = -1
                                }
                            }
                        }
                        /// Those rows' places (start and end, from the starts), each one's record asked for.
                        func findRecords(from first: Int, rows: UnsafeMutablePointer<Int>, into spans: UnsafeMutablePointer<UInt64>) {
                            for k in 0..<(min(end, first + batchRows) - first) {
                                let row = rows[k]
                                guard row >= 0 else { spans[k] = noRecord; continue }
                                let place = raw.place(row)
                                spans[k] = place
                                trellis_prefetch(file.baseAddress! + Int(place >> 32))
                            }
                        }
                        withUnsafeTemporaryAllocation(of: Int.self, capacity: batchRows) { rows in
                            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 2 * batchRows) { spanBuffers in
                                let rows = rows.baseAddress!
                                var spans = spanBuffers.baseAddress!, nextSpans = spans + batchRows
                                // Three batches in flight: the rows of the one after next, whose
                                // starts are being fetched; the next one's places, whose records
                                // are being fetched; this one's records, copied.
                                var first = range.lowerBound
                                guard first < end else { return }
                                findRows(from: first, into: rows)
                                findRecords(from: first, rows: rows, into: spans)
                                if first + batchRows < end { findRows(from: first + batchRows, into: rows) }
                                while first < end {
                                    let last = min(end, first + batchRows)
                                    if last < end { findRecords(from: last, rows: rows, into: nextSpans) }
                                    if last + batchRows < end { findRows(from: last + batchRows, into: rows) }
                                    for index in first..<last {
                                        let place = spans[index - first]
                                        if place != noRecord {
                                            let start = Int(place >> 32), end = Int(place & 0xFFFF_FFFF)
                                            out.write(bytes: UnsafeBufferPointer(start: file.baseAddress! + start, count: end - start))
                                        } else {
                                            count += writeFields(index, to: out)
                                        }
                                        out.write(bytes: lineBreak)
                                    }
                                    swap(&spans, &nextSpans)
                                    first = last
                                }
                            }
                        }
                        return count
                    }
                    // Gathering rows in a new order is bound by memory latency: two threads take
                    // blocks of rows in turn, the first writing its block to the output, the
                    // second into memory (encoded there too) that follows it — so that what is
                    // held is one block, not half the output.
                    guard count > splitAbove, ProcessInfo.processInfo.activeProcessorCount > 1 else {
                        guarded += writeRows(0..<count, to: out)
                        return
                    }
                    // Each thread writes its own count.
                    let counts = UnsafeMutablePointer<Int>.allocate(capacity: 2)
                    counts.initialize(repeating: 0, count: 2)
                    defer { counts.deallocate() }
                    var start = 0
                    while start < count {
                        let middle = min(count, start + blockRows), end = min(count, middle + blockRows)
                        let blocks = [start..<middle, middle..<end]
                        let outputs = [out, TextOutput(encoding: out.encoding)]
                        withoutActuallyEscaping(writeRows) { write in
                            let shared = Unchecked(write), targets = Unchecked(outputs)
                            let tallies = Unchecked(counts)
                            Tuning.concurrentPerform(iterations: 2) { k in
                                tallies.value[k] += shared.value(blocks[k], targets.value[k])
                            }
                        }
                        outputs[1].writeCollected(to: out)
                        start = end
                    }
                    guarded += counts[0] + counts[1]
                }
            }
        }
        // The blank lines the file ended with.
        out.write(bytes: format.trailingLines)
        return guarded
    }

    /// Writes record `source` with the fields of the cells set since it was read written anew
    /// (quoted where they need it) and every other field, quotes and all, as the record holds it;
    /// Returns how many edited fields got a leading `'` (`neutralizeFormulas`), or `nil` (nothing
    /// written) for a record that does not split into one field per column.
    static func writeSpliced(
        _ source: Int, raw: RawRecords, grid: DataGrid, neutralizeFormulas: Bool, delimiter: UInt8, to out: TextOutput
    ) -> Int? {
        let changed = raw.changedCells[source] ?? []
        let columns = grid.columns.count
        return raw.withBytes { file -> Int? in
            guard let base = file.baseAddress else { return nil }
            let range = raw.range(source)
            let record = UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)
            let fields = CSV.fieldExtents(record, delimiter: delimiter)
            guard fields.count == columns else { return nil }
            var guarded = 0
            for (c, extent) in fields.enumerated() {
                if c > 0 { out.write(byte: delimiter) }
                if changed.contains(c) {
                    var text = grid.source.text(row: source, column: c)
                    if text.withUTF8({ writeField($0, neutralizeFormulas: neutralizeFormulas, delimiter: delimiter, out) }) { guarded += 1 }
                } else {
                    out.write(bytes: UnsafeBufferPointer(rebasing: record[extent]))
                }
            }
            return guarded
        }
    }

    /// How many rows each of the two threads of a CSV output gathers at a turn (a few megabytes).
    static let blockRows = 65_536

    /// How many rows a CSV output's copying asks for ahead at a time.
    static let batchRows = 256

    /// Writes one field; returns whether it got a leading `'`.
    @inline(__always) @discardableResult
    private static func writeField(
        _ text: UnsafeBufferPointer<UInt8>, neutralizeFormulas: Bool, delimiter: UInt8,
        _ out: TextOutput
    ) -> Bool {
        guard let first = text.first else { return false }
        let risky = first == 0x3D || first == 0x2B || first == 0x2D || first == 0x40 || first == 0x09 || first == 0x0D
        let formula = neutralizeFormulas && risky && CSV.looksLikeFormula(text)
        let quote = CSV.needsQuotes(text, delimiter: delimiter)
        guard formula || quote else { out.write(bytes: text); return false }
        if quote { out.write("\"") }
        if formula { out.write("'") }
        var start = 0
        for (k, c) in text.enumerated() where c == 0x22 {
            out.write(bytes: UnsafeBufferPointer(rebasing: text[start...k]))
            out.write("\"")
            start = k + 1
        }
        out.write(bytes: UnsafeBufferPointer(rebasing: text[start...]))
        if quote { out.write("\"") }
        return formula
    }

    // MARK: Helpers

    /// Reads the displayed cells: straight from a table's storage where a row is shown as the
    /// table holds it, through the grid otherwise.
    struct Cells {
        let grid: DataGrid
        /// The grid's order, read once: asking the grid for it at every row retains and releases
        /// its arrays each time, which two threads writing halves of the rows fight over.
        let order: DisplayOrder
        let views: [CellBytesView]?
        /// The file's records, when the table is as it was read: a row's cells are then read from
        /// its record, which is in one place, rather than from each column's storage.
        let file: UnsafeBufferPointer<UInt8>?
        let records: RawRecords?
        /// The byte between the fields of a record.
        var delimiter: UInt8 = 0x2C
        /// For a source that reads rows on demand (a database table), the window of displayed
        /// rows asked for ahead: a sorted output reads its rows in sorted order, and a window of
        /// them is read in one query, where a row at a time would each read a block of rows next
        /// to it in the table (and let go of it before its neighbours are written).
        var window: PrefetchWindow?

        /// The displayed rows asked for ahead of a writer.
        final class PrefetchWindow {
            var rows = 0..<0
            static let size = 1024
        }

        /// Calls `body` with each cell of the row at display `index`: its column, its UTF-8 text,
        /// whether it aligns right (a number or a date) and whether it is a number.
        @inline(__always)
        func forEach(_ index: Int, _ body: (Int, UnsafeBufferPointer<UInt8>, Bool, Bool) -> Void) {
            if let views, let source = order.plainSourceRow(at: index) {
                // (A record a cell of which was set since it was read is read from the stores.)
                if let file, let records, source < records.count, !records.isChanged(source),
                    forEachField(of: source, file: file, records: records, views: views, body)
                {
                    return
                }
                for c in views.indices {
                    let view = views[c]
                    body(c, view.text(source), view.alignsRight(source), view.isNumber(source))
                }
                return
            }
            if let window, !window.rows.contains(index) {
                window.rows = index..<(index + PrefetchWindow.size)
                grid.prefetch(displayedRows: window.rows)
            }
            guard let row = grid.displayedRow(at: index) else { return }
            for c in grid.columns.indices {
                let right: Bool, number: Bool
                switch grid.value(row, column: c) {
                case .integer, .decimal: (right, number) = (true, true)
                case .date: (right, number) = (true, false)
                default: (right, number) = (false, false)
                }
                grid.withText(row, column: c) { body(c, $0, right, number) }
            }
        }

        /// The fields of a record, split at its delimiters (quoted fields without their quotes; a
        /// field with doubled quotes read from its column's storage, where it is undoubled);
        /// `false` (and nothing called) for a record that does not split into one field per column.
        @inline(__always)
        private func forEachField(
            of row: Int, file: UnsafeBufferPointer<UInt8>, records: RawRecords, views: [CellBytesView],
            _ body: (Int, UnsafeBufferPointer<UInt8>, Bool, Bool) -> Void
        ) -> Bool {
            guard let base = file.baseAddress else { return false }
            let range = records.range(row)
            let record = UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)
            // First check the shape without calling anything.
            var fields = 1, quoted = false
            for c in record {
                if c == 0x22 { quoted = true } else if c == delimiter, !quoted { fields += 1 }
                if quoted { break }
            }
            if !quoted {
                guard fields == views.count else { return false }
                var fieldStart = 0, column = 0
                for k in 0...record.count where k == record.count || record[k] == delimiter {
                    let view = views[column]
                    body(column, UnsafeBufferPointer(rebasing: record[fieldStart..<k]), view.alignsRight(row), view.isNumber(row))
                    fieldStart = k + 1
                    column += 1
                }
                return true
            }
            // A record with quotes: find each field's extent.
            var extents: [(Range<Int>, Bool)] = []  // content, and whether it has doubled quotes
            extents.reserveCapacity(views.count)
            var k = 0
            while true {
                if k < record.count, record[k] == 0x22 {
                    var j = k + 1, doubled = false
                    while j < record.count {
                        if record[j] == 0x22 {
                            if j + 1 < record.count, record[j + 1] == 0x22 { doubled = true; j += 2; continue }
                            break
                        }
                        j += 1
                    }
                    extents.append(((k + 1)..<min(j, record.count), doubled))
                    k = j + 1
                } else {
                    var j = k
                    while j < record.count, record[j] != delimiter { j += 1 }
                    extents.append((k..<j, false))
                    k = j
                }
                if k >= record.count { break }
                k += 1  // the delimiter
                if k == record.count { extents.append((k..<k, false)); break }
            }
            guard extents.count == views.count else { return false }
            for (column, (range, doubled)) in extents.enumerated() {
                let view = views[column]
                let text = doubled ? view.text(row) : UnsafeBufferPointer(rebasing: record[range])
                body(column, text, view.alignsRight(row), view.isNumber(row))
            }
            return true
        }
    }

    /// Calls `body` with the displayed cells: a table's stores seen in place, but for a table wider
    /// than ``Table/maximumViewedColumns`` (Excel allows 16,384 columns), read cell by cell through
    /// the grid in time linear in its cells all the same. The columns a table was read without are read (as
    /// text) first unless `readingEveryColumn` is false — a CSV output that copies every row's
    /// record, whose other cells (a summary row's) come through the grid.
    static func withCells<R>(_ grid: DataGrid, readingEveryColumn: Bool = true, _ body: (Cells) -> R) -> R {
        guard let table = grid.records, table.storeCount == grid.columns.count, table.storeCount <= Table.maximumViewedColumns,
            readingEveryColumn || !table.hasUnreadColumns
        else {
            let window = grid.source is PrefetchingDataSource ? Cells.PrefetchWindow() : nil
            return body(Cells(grid: grid, order: grid.order, views: nil, file: nil, records: nil, window: window))
        }
        return table.withViews { views in
            guard let records = table.rawRecords else { return body(Cells(grid: grid, order: grid.order, views: views, file: nil, records: nil)) }
            return records.withBytes {
                body(Cells(grid: grid, order: grid.order, views: views, file: $0, records: records, delimiter: table.csvFormat.delimiter))
            }
        }
    }

    static func collect(_ body: (TextOutput) -> Void) -> String {
        let out = TextOutput()
        body(out)
        try? out.finish()
        return String(decoding: out.collected, as: UTF8.self)
    }
}
