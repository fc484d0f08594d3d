import Foundation
import TrellisGrid

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
        for index in 0..<count {
            guard let row = grid.displayedRow(at: index) else { continue }
            for c in columns.indices {
                let width = grid.withText(row, column: c) { visibleWidth($0) }
                if width > widths[c] { widths[c] = width }
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
        let top = grid.pinnedTopCount, bottomStart = count - grid.pinnedBottomCount
        for index in 0..<count {
            guard let row = grid.displayedRow(at: index) else { continue }
            if (index == top && top > 0) || (index == bottomStart && bottomStart > top && bottomStart < count) {
                out.write(rule)
            }
            for c in columns.indices {
                let right = grid.isNumber(row, column: c)
                grid.withText(row, column: c) { bytes in
                    cell(visibleWidth(bytes), { writeVisible(bytes, out) }, column: c, right: right)
                }
            }
            pending = 0
            out.write("\n")
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

    /// Text with ``escape(_:)`` applied.
    static func visible(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if let escaped = escape(scalar) { out += escaped } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    /// Whether bytes are printable ASCII, shown as they are, one column each.
    @inline(__always)
    private static func isPlainASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for b in bytes where b < 0x20 || b >= 0x7F { return false }
        return true
    }

    private static func visibleWidth(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        if isPlainASCII(bytes) { return bytes.count }
        return displayWidth(visible(String(decoding: bytes, as: UTF8.self)))
    }

    private static func writeVisible(_ bytes: UnsafeBufferPointer<UInt8>, _ out: TextOutput) {
        if isPlainASCII(bytes) { out.write(bytes: bytes); return }
        out.write(visible(String(decoding: bytes, as: UTF8.self)))
    }

    // MARK: CSV

    /// CSV of the displayed rows with the header, with the line breaks of the file the table was
    /// read from (CRLF otherwise); with `neutralizeFormulas`, text cells a spreadsheet would run as
    /// formulas get a leading `'` (plain numbers such as `-5` and `+1.5` are left alone).
    public static func csv(_ grid: DataGrid, neutralizeFormulas: Bool) -> String {
        collect { writeCSV(grid, neutralizeFormulas: neutralizeFormulas, to: $0) }
    }

    /// Writes ``csv(_:neutralizeFormulas:)`` to `out`.
    public static func writeCSV(_ grid: DataGrid, neutralizeFormulas: Bool, to out: TextOutput) {
        let columns = grid.columns
        let lineBreak = grid.csvLineBreak
        for (c, column) in columns.enumerated() {
            if c > 0 { out.write(",") }
            var name = column.identifier
            name.withUTF8 { writeField($0, neutralizeFormulas: neutralizeFormulas, out) }
        }
        out.write(bytes: lineBreak)
        for index in 0..<grid.displayedRowCount {
            guard let row = grid.displayedRow(at: index) else { continue }
            for c in columns.indices {
                if c > 0 { out.write(",") }
                grid.withText(row, column: c) { writeField($0, neutralizeFormulas: neutralizeFormulas, out) }
            }
            out.write(bytes: lineBreak)
        }
    }

    @inline(__always)
    private static func writeField(_ text: UnsafeBufferPointer<UInt8>, neutralizeFormulas: Bool, _ out: TextOutput) {
        let formula = neutralizeFormulas && CSV.looksLikeFormula(text)
        let quote = CSV.needsQuotes(text)
        guard formula || quote else { out.write(bytes: text); return }
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
    }

    // MARK: JSON

    /// JSON: the columns (with type and glyph), the sort keys, and each displayed row with its
    /// source position (or summary label), its region and its cells. A cell is written without
    /// changing a character of it: a number whose text is a JSON number (`12`, `1.50`, `-0`,
    /// `1e3`) as that number, a truth value written `true` or `false` as that literal, a blank as
    /// `null`, and every other cell (`007`, `+5`, `TRUE`, ` 12 `) as its text in a string.
    public static func json(_ grid: DataGrid) -> String { collect { writeJSON(grid, to: $0) } }

    /// Writes ``json(_:)`` to `out`.
    public static func writeJSON(_ grid: DataGrid, to out: TextOutput) {
        let columns = grid.columns
        out.write("{\n  \"columns\": [")
        for (c, column) in columns.enumerated() {
            out.write(c == 0 ? "\n    {\"identifier\": " : ",\n    {\"identifier\": ")
            JSONValue.writeQuoted(column.identifier, to: out)
            out.write(", \"type\": \"")
            out.write(column.type.rawValue)
            out.write("\"")
            let glyph = grid.glyph(for: column.identifier)
            if let direction = glyph.direction {
                out.write(", \"sort\": \"")
                out.write(direction.rawValue)
                out.write("\"")
                if let priority = glyph.priority {
                    out.write(", \"priority\": ")
                    out.writeInteger(Int64(priority))
                }
            }
            out.write("}")
        }
        out.write(columns.isEmpty ? "],\n  \"rows\": [" : "\n  ],\n  \"rows\": [")
        let count = grid.displayedRowCount
        for index in 0..<count {
            guard let row = grid.displayedRow(at: index) else { continue }
            out.write(index == 0 ? "\n    {" : ",\n    {")
            switch row {
            case .source(let source):
                out.write("\"source\": ")
                out.writeInteger(Int64(source))
            case .summary(let summary):
                out.write("\"summary\": ")
                let definition = grid.summaries[summary]
                JSONValue.writeQuoted(definition.label ?? definition.function.description, to: out)
            }
            out.write(", \"region\": \"")
            out.write(grid.region(of: row).rawValue)
            out.write("\", \"cells\": [")
            for c in columns.indices {
                if c > 0 { out.write(", ") }
                let number = grid.isNumber(row, column: c)
                grid.withText(row, column: c) { writeJSONCell($0, number: number, out) }   // a date is never a JSON number
            }
            out.write("]}")
        }
        out.write(count == 0 ? "]\n}\n" : "\n  ]\n}\n")
    }

    private static func writeJSONCell(_ text: UnsafeBufferPointer<UInt8>, number: Bool, _ out: TextOutput) {
        if text.isEmpty { out.write("null"); return }
        if number, isJSONNumber(text) { out.write(bytes: text); return }
        if text.elementsEqual("true".utf8) || text.elementsEqual("false".utf8) { out.write(bytes: text); return }
        JSONValue.writeQuoted(String(decoding: text, as: UTF8.self), to: out)
    }

    /// Whether bytes are a JSON number: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    static func isJSONNumber(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = b.count
        func digit(_ k: Int) -> Bool { k < n && (b[k] &- 48) < 10 }
        if i < n, b[i] == UInt8(ascii: "-") { i += 1 }
        guard digit(i) else { return false }
        if b[i] == UInt8(ascii: "0") { i += 1 } else { while digit(i) { i += 1 } }
        if i < n, b[i] == UInt8(ascii: ".") {
            i += 1
            guard digit(i) else { return false }
            while digit(i) { i += 1 }
        }
        if i < n, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            i += 1
            if i < n, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
            guard digit(i) else { return false }
            while digit(i) { i += 1 }
        }
        return i == n
    }

    // MARK: HTML

    /// An HTML page with the grid as a table: pinned top rows and the header in `thead`, pinned
    /// bottom rows and summaries in `tfoot`; every cell escaped.
    public static func html(_ grid: DataGrid, title: String) -> String {
        let table = collect { writeHTMLTable(grid, to: $0) }
        return HTMLPage.render(title: title, figures: [],
                               style: "table{border-collapse:collapse}th,td{padding:4px 10px;border-bottom:1px solid #e2e8f0}"
                                   + "td.n{text-align:right}thead tr.pinned td,tfoot td{background:#f8fafc;font-weight:bold}",
                               preface: table)
    }

    /// Writes the `<table>` of ``html(_:title:)`` to `out`.
    public static func writeHTMLTable(_ grid: DataGrid, to out: TextOutput) {
        let columns = grid.columns
        out.write("<table>\n<thead>\n<tr>")
        for column in columns {
            let glyph = grid.glyph(for: column.identifier)
            let sort = glyph.direction.map { $0 == .ascending ? "ascending" : "descending" } ?? "none"
            let mark = glyph.direction.map { $0 == .ascending ? " ▲" : " ▼" } ?? ""
            out.write("<th aria-sort=\"\(sort)\">\(Markup.escape(column.title))\(mark)</th>")
        }
        out.write("</tr>\n")
        let count = grid.displayedRowCount
        let top = grid.pinnedTopCount, bottomStart = count - grid.pinnedBottomCount
        func writeRow(_ index: Int, pinned: Bool) {
            guard let row = grid.displayedRow(at: index) else { return }
            out.write(pinned ? "<tr class=\"pinned\">" : "<tr>")
            for c in columns.indices {
                out.write(grid.isNumber(row, column: c) ? "<td class=\"n\">" : "<td>")
                grid.withText(row, column: c) { writeEscaped($0, out) }
                out.write("</td>")
            }
            out.write("</tr>\n")
        }
        for index in 0..<top { writeRow(index, pinned: true) }
        out.write("</thead>\n<tbody>\n")
        for index in top..<max(top, bottomStart) { writeRow(index, pinned: false) }
        out.write("</tbody>\n<tfoot>\n")
        for index in max(top, bottomStart)..<count { writeRow(index, pinned: true) }
        out.write("</tfoot>\n</table>\n")
    }

    /// Writes text escaped as ``Markup/escape(_:)`` does: as it is when nothing in it needs it.
    private static func writeEscaped(_ text: UnsafeBufferPointer<UInt8>, _ out: TextOutput) {
        var plain = true
        for (k, c) in text.enumerated() {
            if c == 0x26 || c == 0x3C || c == 0x3E || c == 0x22 || c == 0x27 || c == 0x7F
                || (c < 0x20 && c != 0x09 && c != 0x0A && c != 0x0D)
                || (c == 0xC2 && k + 1 < text.count && text[k + 1] >= 0x80 && text[k + 1] <= 0x9F)
                || (c == 0xEF && k + 2 < text.count && text[k + 1] == 0xBF && text[k + 2] >= 0xBE) {
                plain = false
                break
            }
        }
        if plain { out.write(bytes: text) } else { out.write(Markup.escape(String(decoding: text, as: UTF8.self))) }
    }

    // MARK: Helpers

    private static func collect(_ body: (TextOutput) -> Void) -> String {
        let out = TextOutput()
        body(out)
        try? out.finish()
        return String(decoding: out.collected, as: UTF8.self)
    }
}
