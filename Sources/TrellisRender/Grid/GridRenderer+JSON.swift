import Foundation
import TrellisGrid
import TrellisText

extension GridRenderer {
    // MARK: JSON

    /// JSON: the columns (identifier, title where it differs, type and glyph), the sort keys, and
    /// each displayed row with its source position (or summary label), its region and its cells,
    /// each column's cells of one JSON type: in a number column numbers — a text that is a JSON
    /// number (`12`, `1.50`, `-0`, `1e3`) as it is, another number (`+5`, ` 12 `, `1,200`, `12%`)
    /// as its value — in a truth-value column `true`/`false`, in a text or date column strings
    /// (`007` stays `"007"`); blanks and cells not of the column's type (`缺考` among scores) are
    /// `null`. Where a value does not spell its cell's text, the row's `texts` object gives the
    /// text by column identifier, so nothing is lost.
    public static func json(_ grid: DataGrid) -> String { collect { writeJSON(grid, to: $0) } }

    /// Writes ``json(_:)`` to `out`.
    public static func writeJSON(_ grid: DataGrid, to out: TextOutput) {
        let columns = grid.columns
        out.write("{\n  \"columns\": [")
        for (c, column) in columns.enumerated() {
            out.write(c == 0 ? "\n    {\"identifier\": " : ",\n    {\"identifier\": ")
            JSONValue.writeQuoted(column.identifier, to: out)
            // The name shown, where it is not the identifier (a name two columns share, or none).
            if column.title != column.identifier {
                out.write(", \"title\": ")
                JSONValue.writeQuoted(column.title, to: out)
            }
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
        withCells(grid) { cells in
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
                var texts: [(column: Int, text: String)] = []
                cells.forEach(index) { c, bytes, _, number in
                    if c > 0 { out.write(", ") }
                    if !writeJSONCell(bytes, number: number, type: columns[c].type, out) {
                        texts.append((c, String(decoding: bytes, as: UTF8.self)))
                    }
                }
                out.write("]")
                // The texts the typed values above do not spell, so that nothing is lost.
                if !texts.isEmpty {
                    out.write(", \"texts\": {")
                    for (k, entry) in texts.enumerated() {
                        if k > 0 { out.write(", ") }
                        JSONValue.writeQuoted(columns[entry.column].identifier, to: out)
                        out.write(": ")
                        JSONValue.writeQuoted(entry.text, to: out)
                    }
                    out.write("}")
                }
                out.write("}")
            }
        }
        out.write(count == 0 ? "]\n}\n" : "\n  ]\n}\n")
    }

    /// Writes one cell as its column's JSON type — a number in a number column, `true`/`false`
    /// in a truth-value column, a string in a text or date column — or `null`; returns whether
    /// what was written spells the cell's text exactly (`false`: the row lists the text aside).
    static func writeJSONCell(_ text: UnsafeBufferPointer<UInt8>, number: Bool, type: ColumnType, _ out: TextOutput) -> Bool {
        if text.isEmpty { out.write("null"); return true }
        switch type {
        case .integer, .decimal:
            if number, isJSONNumber(text) { out.write(bytes: text); return true }
            // A number written otherwise (+5, 1,200, 12%, 1.2万) as its value; anything else null.
            switch CellValue.parse(String(decoding: text, as: UTF8.self), inColumnOf: type) {
            case .integer(let i): out.writeInteger(Int64(i))
            case .decimal(let d) where d.isFinite: out.write(CellValue.format(d))
            default: out.write("null")
            }
            return false
        case .boolean:
            guard let truth = CellText.truthValue(text) else { out.write("null"); return false }
            out.write(truth ? "true" : "false")
            return text.elementsEqual((truth ? "true" : "false").utf8)
        case .text, .date:
            JSONValue.writeQuoted(String(decoding: text, as: UTF8.self), to: out)
            return true
        }
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
}
