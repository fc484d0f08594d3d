import Foundation
import TrellisText
import TrellisGrid
import TrellisRender

/// What `trellis view` shows on a terminal of a given size: the header row, the pinned top rows,
/// a window of the body, the pinned bottom rows (the file's 平均), and a status line — every line
/// exactly `width` columns, East Asian wide characters and emoji counted as two. Only the rows on
/// screen are turned into text, so a million-row grid costs what a screenful does.
struct GridScreen {
    var grid: DataGrid
    var width: Int
    var height: Int
    /// The first body row on screen (a position among the body rows).
    var top = 0
    /// The current row: a displayed row index.
    var current = 0
    /// The current column, and the first non-frozen column on screen.
    var column = 0
    var firstColumn = 1
    /// The first column stays on screen whatever the horizontal scroll.
    var frozenColumns = 1
    var message = ""
    var warnings: [String] = []

    var bodyStart: Int { grid.pinnedTopCount }
    var bodyCount: Int { max(0, grid.displayedRowCount - grid.pinnedTopCount - grid.pinnedBottomCount) }
    /// The lines left for the body between the header, the pinned rows and the status line.
    var bodyLines: Int { max(1, height - 3 - grid.pinnedTopCount - grid.pinnedBottomCount - (grid.pinnedBottomCount > 0 ? 1 : 0)) }

    static let maximumColumnWidth = 32

    /// Keeps the current row on screen and the scroll in range.
    mutating func settle() {
        let count = grid.displayedRowCount
        current = max(0, min(current, count - 1))
        if current >= bodyStart && current < bodyStart + bodyCount {
            let position = current - bodyStart
            if position < top { top = position }
            if position >= top + bodyLines { top = position - bodyLines + 1 }
        }
        top = max(0, min(top, max(0, bodyCount - bodyLines)))
        column = max(0, min(column, grid.columns.count - 1))
        firstColumn = max(frozenColumns, min(firstColumn, grid.columns.count - 1))
        if column >= frozenColumns, column < firstColumn { firstColumn = column }
    }

    /// The displayed rows on screen, in order, and which screen line each goes to.
    var visibleRows: [Int] {
        var rows = Array(0..<grid.pinnedTopCount)
        rows += (0..<min(bodyLines, bodyCount - top)).map { bodyStart + top + $0 }
        rows += ((grid.displayedRowCount - grid.pinnedBottomCount)..<grid.displayedRowCount)
        return rows
    }

    /// Each column's width: its header's (with room for a sort glyph) or its widest cell on screen,
    /// at most ``maximumColumnWidth``.
    func columnWidths(_ rows: [Int]) -> [Int] {
        grid.columns.enumerated().map { c, column in
            var w = TextWidth.columns(GridRenderer.visible(column.title)) + 3
            for row in rows {
                // As ``fit(_:_:right:)`` will show it: control characters as their escapes.
                if let display = grid.displayedRow(at: row) { w = max(w, TextWidth.columns(GridRenderer.visible(grid.text(display, column: c)))) }
            }
            return min(Self.maximumColumnWidth, max(3, w))
        }
    }

    /// The columns on screen, left to right: the frozen ones, then from ``firstColumn``.
    var shownColumns: [Int] {
        let count = grid.columns.count
        return Array(0..<min(frozenColumns, count)) + Array(min(firstColumn, count)..<count)
    }

    /// The column whose header is at screen column `x`.
    func column(atX x: Int) -> Int? {
        let widths = columnWidths(visibleRows)
        var used = 0
        for c in shownColumns {
            if x < used + widths[c] + 1 { return c }
            used += widths[c] + 1
        }
        return nil
    }

    /// `text` padded or cut to exactly `width` columns, numbers to the right. Control characters
    /// (a line break, an escape sequence in a cell) are shown as the text table shows them,
    /// `\n`, `\u{1B}`, never sent to the terminal.
    static func fit(_ text: String, _ width: Int, right: Bool) -> String {
        let clean = GridRenderer.visible(text)
        var used = TextWidth.columns(clean)
        var shown = clean
        if used > width {
            shown = ""
            used = 0
            for character in clean {
                let w = TextWidth.columns(String(character))
                if used + w > width - 1 { break }
                shown.append(character)
                used += w
            }
            shown += "…"
            used += 1
        }
        let pad = String(repeating: " ", count: max(0, width - used))
        return right ? pad + shown : shown + pad
    }

    /// Every line of the screen.
    func lines() -> [String] {
        let rows = visibleRows
        grid.prefetch(displayedRows: (bodyStart + top)..<(bodyStart + top + bodyLines))
        let columns = grid.columns
        let widths = columnWidths(rows)
        let shownColumns = self.shownColumns
        func render(_ cells: (Int) -> (String, Bool), highlight: Bool) -> String {
            var line = "", used = 0
            for c in shownColumns {
                let (text, right) = cells(c)
                let cell = Self.fit(text, widths[c], right: right)
                let w = widths[c] + 1
                if used + w > width {
                    if width - used > 0 { line += Self.fit(text, width - used, right: false) }
                    used = width
                    break
                }
                let marked = c == column && highlight ? "\u{1B}[4m" + cell + "\u{1B}[24m" : cell
                line += marked + (c == frozenColumns - 1 ? "│" : " ")
                used += w
            }
            line += String(repeating: " ", count: max(0, width - used))
            return highlight ? "\u{1B}[7m" + line + "\u{1B}[27m" : line
        }
        var out: [String] = []
        out.append("\u{1B}[1m" + render({ c in
            let glyph = grid.glyph(for: columns[c].identifier)
            let mark = glyph.direction.map { ($0 == .ascending ? "▲" : "▼") + (glyph.priority.map(String.init) ?? "") } ?? ""
            return (columns[c].title + (mark.isEmpty ? "" : " " + mark), columns[c].type.isNumeric)
        }, highlight: false) + "\u{1B}[22m")
        out.append(String(repeating: "─", count: width))
        func rowLine(_ row: Int) -> String {
            guard let display = grid.displayedRow(at: row) else { return String(repeating: " ", count: width) }
            return render({ c in
                (grid.text(display, column: c), columns[c].type.isNumeric || grid.value(display, column: c).number != nil)
            }, highlight: row == current)
        }
        let topPins = grid.pinnedTopCount, bottomPins = grid.pinnedBottomCount
        for row in rows.prefix(topPins) { out.append(rowLine(row)) }
        let body = rows.dropFirst(topPins).dropLast(bottomPins)
        for row in body { out.append(rowLine(row)) }
        for _ in body.count..<bodyLines { out.append(String(repeating: " ", count: width)) }
        if bottomPins > 0 {
            out.append(String(repeating: "─", count: width))
            for row in rows.suffix(bottomPins) { out.append(rowLine(row)) }
        }
        out.append("\u{1B}[7m" + Self.fit(status, width, right: false) + "\u{1B}[27m")
        return out
    }

    /// Position, sort keys and the latest message or warning.
    var status: String {
        let count = grid.displayedRowCount
        var parts = ["row \(Self.grouped(current + 1))/\(Self.grouped(count))"]
        // The column `s` sorts and `/` searches.
        if grid.columns.indices.contains(column) { parts.append("column " + grid.columns[column].title) }
        let keys = grid.sortKeys.map { "\($0.column) \($0.direction == .ascending ? "▲" : "▼")" }
        parts.append(keys.isEmpty ? "file order" : "sort: " + keys.joined(separator: ", "))
        if let failure = grid.readFailure { parts.append("error: " + failure) }
        if !message.isEmpty { parts.append(message) } else if let warning = warnings.first { parts.append("warning: " + warning) }
        parts.append("s sort · S add key · / find · p pin · q quit")
        return " " + parts.joined(separator: " · ")
    }

    static func grouped(_ n: Int) -> String {
        let digits = String(n)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
            out.append(c)
        }
        return out
    }
}
