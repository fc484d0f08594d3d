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
    /// The current row: a displayed row index.
    var current = 0
    /// The current column.
    var column = 0
    /// What is on screen: the pinned rows, the body's window, the first column frozen and the
    /// columns scrolled beside it. Its rows follow the grid at every ``settle()``; its widths
    /// are the screen's, in terminal columns with one for the separator.
    var viewport: GridViewport
    var message = ""
    var warnings: [String] = []

    init(grid: DataGrid, width: Int, height: Int) {
        self.grid = grid
        self.width = width
        self.height = height
        viewport = GridViewport(frozenColumns: 1, width: Double(width))
        viewport.setColumnWidths(Array(repeating: 1, count: grid.columns.count))
        viewport.scroll(toColumn: 1)
        settle()
    }

    var bodyStart: Int { viewport.bodyStart }
    /// The lines left for the body between the header, the pinned rows and the status line.
    var bodyLines: Int { viewport.bodyCapacity }

    static let maximumColumnWidth = 32

    /// Takes the grid's rows and the terminal's size, and keeps the current row and column on
    /// screen and the scroll in range.
    mutating func settle() {
        let order = grid.order
        viewport.setWidth(Double(width))
        viewport.setBodyCapacity(height - 3 - order.pinnedTopCount - order.pinnedBottomCount
                                 - (order.pinnedBottomCount > 0 ? 1 : 0))
        viewport.setRows(order)
        if viewport.columnCount != grid.columns.count {
            viewport.setColumnWidths(Array(repeating: 1, count: grid.columns.count))
        }
        current = max(0, min(current, viewport.rowCount - 1))
        viewport.reveal(row: current)
        column = max(0, min(column, grid.columns.count - 1))
        if column >= viewport.frozenColumns, column < viewport.firstScrolledColumn { viewport.scroll(toColumn: column) }
    }

    /// The displayed rows on screen, in order, and which screen line each goes to.
    var visibleRows: [Int] { viewport.visibleRows }

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

    /// The viewport with the widths of the columns as drawn for the rows on screen.
    var measuredViewport: (viewport: GridViewport, widths: [Int]) {
        let widths = columnWidths(visibleRows)
        var measured = viewport
        measured.setColumnWidths(widths.map { Double($0 + 1) })
        return (measured, widths)
    }

    /// The column whose header is at screen column `x`.
    func column(atX x: Int) -> Int? { measuredViewport.viewport.column(atX: Double(x)) }

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
        grid.prefetch(displayedRows: viewport.bodyWindow)
        let columns = grid.columns
        let (measured, widths) = measuredViewport
        let shownColumns = measured.visibleColumns
        let frozenColumns = viewport.frozenColumns
        /// One line of cells; the current row (`highlight`) in reverse video with its current cell
        /// underlined, and on the header (`header`) the current column's title in reverse video.
        func render(_ cells: (Int) -> (String, Bool), highlight: Bool, header: Bool = false) -> String {
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
                let marked = c != column ? cell
                    : highlight ? "\u{1B}[4m" + cell + "\u{1B}[24m"
                    : header ? "\u{1B}[7m" + cell + "\u{1B}[27m" : cell
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
        }, highlight: false, header: true) + "\u{1B}[22m")
        out.append(String(repeating: "─", count: width))
        func rowLine(_ row: Int) -> String {
            guard let display = grid.displayedRow(at: row) else { return String(repeating: " ", count: width) }
            return render({ c in
                (grid.text(display, column: c), columns[c].type.isNumeric || grid.value(display, column: c).number != nil)
            }, highlight: row == current)
        }
        let topPins = viewport.pinnedTopCount, bottomPins = viewport.pinnedBottomCount
        for row in rows.prefix(topPins) { out.append(rowLine(row)) }
        let body = rows.dropFirst(topPins).dropLast(bottomPins)
        for row in body { out.append(rowLine(row)) }
        for _ in body.count..<bodyLines { out.append(String(repeating: " ", count: width)) }
        if bottomPins > 0 {
            out.append(String(repeating: "─", count: width))
            for row in rows.suffix(bottomPins) { out.append(rowLine(row)) }
        }
        // A terminal shorter than the header, a row and the status line gets what fits, the status
        // line last: never more lines than it has (they would scroll it).
        let statusLine = "\u{1B}[7m" + Self.fit(status, width, right: false) + "\u{1B}[27m"
        guard height > 0 else { return [] }
        return Array(out.prefix(height - 1)) + [statusLine]
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
