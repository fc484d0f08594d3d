import Foundation
import TrellisGrid
import TrellisText

extension GridRenderer {
    // MARK: HTML

    /// An HTML page with the grid as a table: pinned top rows and the header in `thead`, pinned
    /// bottom rows and summaries in `tfoot`; every cell escaped.
    public static func html(_ grid: DataGrid, title: String) -> String { collect { writeHTML(grid, title: title, to: $0) } }

    /// The table's style: one font stack for Latin and Chinese text so that numbers and 汉字 sit
    /// on one baseline, tabular digits, number columns (and their headers) right-aligned, line
    /// breaks inside cells kept, and the header and the pinned bottom rows sticky while the body
    /// scrolls.
    static let tableStyle =
        "table{border-collapse:separate;border-spacing:0;font-family:-apple-system,'Helvetica Neue',"
        + "Helvetica,Arial,'PingFang SC','Noto Sans CJK SC','Microsoft YaHei',sans-serif;font-size:14px;line-height:1.4}"
        + "th,td{padding:4px 10px;border-bottom:1px solid #e2e8f0;vertical-align:baseline;white-space:pre-wrap;"
        + "text-align:left}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}"
        + "thead th{position:sticky;top:0;background:#ffffff;border-bottom:2px solid #cbd5e1;z-index:2}"
        + "thead tr.pinned td,tfoot td,tr.subtotal td{background:#f8fafc;font-weight:bold}"
        + "tfoot td{position:sticky;bottom:0;border-top:2px solid #cbd5e1;z-index:1}"

    /// Writes ``html(_:title:)`` to `out`, the table streamed between the page's head and foot.
    public static func writeHTML(_ grid: DataGrid, title: String, to out: TextOutput) {
        writeHTML(grid, title: title, to: out, tagBodyRows: false)
    }

    /// ``writeHTML(_:title:to:)``, the body rows tagged with their source row when asked (for a
    /// page's script to reorder them).
    static func writeHTML(_ grid: DataGrid, title: String, to out: TextOutput, tagBodyRows: Bool) {
        out.write(HTMLPage.head(title: title, style: tableStyle))
        writeHTMLTable(grid, to: out, tagBodyRows: tagBodyRows)
        out.write(HTMLPage.foot)
    }

    /// Writes the `<table>` of ``html(_:title:)`` to `out`.
    public static func writeHTMLTable(_ grid: DataGrid, to out: TextOutput) {
        writeHTMLTable(grid, to: out, tagBodyRows: false)
    }

    static func writeHTMLTable(_ grid: DataGrid, to out: TextOutput, tagBodyRows: Bool) {
        let columns = grid.columns
        out.write("<table>\n<thead>\n<tr>")
        for column in columns {
            let glyph = grid.glyph(for: column.identifier)
            let sort = glyph.direction.map { $0 == .ascending ? "ascending" : "descending" } ?? "none"
            let mark = glyph.direction.map { $0 == .ascending ? " ▲" : " ▼" } ?? ""
            // A number or date column's header is aligned as its cells are.
            let right = column.type.isNumeric || column.type == .date
            out.write("<th\(right ? " class=\"n\"" : "") aria-sort=\"\(sort)\">\(Markup.escape(column.title))\(mark)</th>")
        }
        out.write("</tr>\n")
        let viewport = GridViewport(showingAllOf: grid.order)
        withCells(grid) { cells in
            let subtotals = grid.order.subtotalRows
            func writeRow(_ index: Int, pinned: Bool) {
                let source: Int? =
                    if tagBodyRows || !subtotals.isEmpty, case .source(let row)? = grid.displayedRow(at: index) { row } else { nil }
                // A group's subtotal row is styled as pinned rows are, and moves with its group.
                let subtotal = !pinned && source.map { subtotals.contains($0) } == true ? " class=\"subtotal\"" : ""
                if pinned {
                    out.write("<tr class=\"pinned\">")
                } else if tagBodyRows, let source {
                    out.write("<tr\(subtotal) data-row=\"\(source)\">")
                } else if !subtotal.isEmpty {
                    out.write("<tr\(subtotal)>")
                } else {
                    out.write("<tr>")
                }
                cells.forEach(index) { _, bytes, right, _ in
                    out.write(right && !bytes.isEmpty ? "<td class=\"n\">" : "<td>")
                    writeEscaped(bytes, out)
                    out.write("</td>")
                }
                out.write("</tr>\n")
            }
            for index in 0..<viewport.bodyStart { writeRow(index, pinned: true) }
            out.write("</thead>\n<tbody>\n")
            for index in viewport.bodyWindow { writeRow(index, pinned: false) }
            out.write("</tbody>\n<tfoot>\n")
            for index in viewport.bodyEnd..<viewport.rowCount { writeRow(index, pinned: true) }
        }
        out.write("</tfoot>\n</table>\n")
    }

    /// Writes text escaped as ``Markup/escape(_:)`` does: as it is when nothing in it needs it.
    static func writeEscaped(_ text: UnsafeBufferPointer<UInt8>, _ out: TextOutput) {
        var plain = true
        for (k, c) in text.enumerated() {
            if c == 0x26 || c == 0x3C || c == 0x3E || c == 0x22 || c == 0x27 || c == 0x7F
                || (c < 0x20 && c != 0x09 && c != 0x0A && c != 0x0D)
                || (c == 0xC2 && k + 1 < text.count && text[k + 1] >= 0x80 && text[k + 1] <= 0x9F)
                || (c == 0xEF && k + 2 < text.count && text[k + 1] == 0xBF && text[k + 2] >= 0xBE)
            {
                plain = false
                break
            }
        }
        if plain { out.write(bytes: text) } else { out.write(Markup.escape(String(decoding: text, as: UTF8.self))) }
    }
}
