import Foundation
import TrellisGrid

/// Writes a ``DataGrid`` as it is displayed (pinned rows, sorted body, summaries) in text, CSV,
/// JSON or HTML. The same grid always gives the same bytes.
public enum GridRenderer {
    /// How many terminal columns a text takes (``TextWidth/columns(_:)``).
    public static func displayWidth(_ text: String) -> Int { TextWidth.columns(text) }

    /// Control characters in a cell would break the table: shown as `\n`, `\t` and `\u{…}`.
    static func visible(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func isNumeric(_ value: CellValue) -> Bool { value.number != nil }

    /// An aligned table: a header with sort glyphs (▲ ascending, ▼ descending, with the key's
    /// priority when there are several keys), numbers right-aligned, and a rule between the
    /// pinned rows and the body.
    public static func text(_ grid: DataGrid) -> String {
        let columns = grid.columns
        let rows = grid.displayedRows
        let multiKey = grid.sortKeys.count > 1
        let header = columns.map { column -> String in
            let glyph = grid.glyph(for: column.identifier)
            guard let direction = glyph.direction else { return visible(column.title) }
            return visible(column.title) + " " + (direction == .ascending ? "▲" : "▼")
                + (multiKey ? String(glyph.priority ?? 0) : "")
        }
        let cells = rows.map { row in columns.indices.map { grid.value(row, column: $0) } }
        var widths = header.map(displayWidth)
        for row in cells {
            for (c, value) in row.enumerated() { widths[c] = max(widths[c], displayWidth(visible(value.description))) }
        }
        func pad(_ text: String, _ width: Int, right: Bool) -> String {
            let fill = String(repeating: " ", count: max(0, width - displayWidth(text)))
            return right ? fill + text : text + fill
        }
        func line(_ texts: [String], numeric: [Bool]) -> String {
            zip(zip(texts, widths), numeric).map { pad($0.0, $0.1, right: $1) }.joined(separator: "  ")
                .replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) + "\n"
        }
        let rule = widths.map { String(repeating: "─", count: $0) }.joined(separator: "──") + "\n"
        var out = line(header, numeric: columns.map { $0.type == .integer || $0.type == .decimal })
        out += rule
        var previous: RowRegion?
        for (row, values) in zip(rows, cells) {
            let region = grid.region(of: row)
            if let previous, previous != region { out += rule }
            previous = region
            out += line(values.map { visible($0.description) }, numeric: values.map(isNumeric))
        }
        return out
    }

    /// CSV of the displayed rows with the header; with `neutralizeFormulas`, cells a spreadsheet
    /// would run as formulas are prefixed with `'`.
    public static func csv(_ grid: DataGrid, neutralizeFormulas: Bool) -> String {
        let columns = grid.columns
        var records = [columns.map(\.identifier)]
        for row in grid.displayedRows {
            records.append(columns.indices.map { grid.value(row, column: $0).description })
        }
        return CSV.write(records, neutralizeFormulas: neutralizeFormulas)
    }

    /// JSON: the columns (with type and glyph), the sort keys, and each displayed row with its
    /// source position (or summary function), its region and its cells (numbers as numbers).
    public static func json(_ grid: DataGrid) -> JSONValue {
        let columns = grid.columns
        let columnsJSON: [JSONValue] = columns.map { column in
            var members: [(key: String, value: JSONValue)] = [("identifier", .string(column.identifier)),
                                                              ("type", .string(column.type.rawValue))]
            let glyph = grid.glyph(for: column.identifier)
            if let direction = glyph.direction {
                members.append(("sort", .string(direction.rawValue)))
                members.append(("priority", .number(Double(glyph.priority ?? 0))))
            }
            return .object(members)
        }
        let rows: [JSONValue] = grid.displayedRows.map { row in
            var members: [(key: String, value: JSONValue)] = []
            switch row {
            case .source(let index): members.append(("source", .number(Double(index))))
            case .summary(let index): members.append(("summary", .string(grid.summaries[index].function.description)))
            }
            members.append(("region", .string(grid.region(of: row).rawValue)))
            members.append(("cells", .array(columns.indices.map { cellJSON(grid.value(row, column: $0)) })))
            return .object(members)
        }
        return .object([("columns", .array(columnsJSON)), ("rows", .array(rows))])
    }

    static func cellJSON(_ value: CellValue) -> JSONValue {
        switch value {
        case .missing: return .null
        case .integer(let i): return .number(Double(i))
        case .decimal(let d): return d.isFinite ? .number(d) : .null
        case .boolean(let b): return .bool(b)
        case .text, .date, .error: return .string(value.description)
        }
    }

    /// An HTML page with the grid as a table: pinned top rows and the header in `thead`, pinned
    /// bottom rows and summaries in `tfoot`; every cell escaped.
    public static func html(_ grid: DataGrid, title: String) -> String {
        let columns = grid.columns
        var out = "<table>\n<thead>\n<tr>"
        for column in columns {
            let glyph = grid.glyph(for: column.identifier)
            let sort = glyph.direction.map { $0 == .ascending ? "ascending" : "descending" } ?? "none"
            let mark = glyph.direction.map { $0 == .ascending ? " ▲" : " ▼" } ?? ""
            out += "<th aria-sort=\"\(sort)\">\(Markup.escape(column.title))\(mark)</th>"
        }
        out += "</tr>\n"
        let rows = grid.displayedRows
        func rowHTML(_ row: DisplayRow, pinned: Bool) -> String {
            var html = pinned ? "<tr class=\"pinned\">" : "<tr>"
            for c in columns.indices {
                let value = grid.value(row, column: c)
                html += isNumeric(value) ? "<td class=\"n\">" : "<td>"
                html += Markup.escape(value.description) + "</td>"
            }
            return html + "</tr>\n"
        }
        for row in rows where grid.region(of: row) == .pinnedTop { out += rowHTML(row, pinned: true) }
        out += "</thead>\n<tbody>\n"
        for row in rows where grid.region(of: row) == .body { out += rowHTML(row, pinned: false) }
        out += "</tbody>\n<tfoot>\n"
        for row in rows where grid.region(of: row) == .pinnedBottom { out += rowHTML(row, pinned: true) }
        out += "</tfoot>\n</table>\n"
        return HTMLPage.render(title: title, figures: [],
                               style: "table{border-collapse:collapse}th,td{padding:4px 10px;border-bottom:1px solid #e2e8f0}"
                                   + "td.n{text-align:right}thead tr.pinned td,tfoot td{background:#f8fafc;font-weight:bold}",
                               preface: out)
    }
}
