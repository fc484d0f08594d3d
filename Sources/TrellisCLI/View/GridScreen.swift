import Foundation
import TrellisGrid
import TrellisRender
import TrellisText

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
    /// A question the next key answers (save over the file? quit without saving?): while it is
    /// asked it has the whole status line, the key hints and the position left out.
    var question: String?
    var warnings: [String] = []
    /// What this sheet is, when it is not the file itself (`frequency of 组号`, `组号 = 组5`).
    var name: String?
    /// How far the read of the file has come, while its first lines are shown.
    var progress: String?
    /// Columns hidden with `-`.
    var hiddenColumns: Set<Int> = []
    /// Widths set with `<`, `>` or `_`, by column.
    var widthOverrides: [Int: Int] = [:]
    /// The column whose numbers a bar after the last column draws (a frequency table's counts),
    /// scaled so that the largest number of the column fills ``barWidth`` characters.
    var bar: Int? {
        didSet { barMaximum = bar.map { grid.maximum(ofColumn: $0) } ?? 0 }
    }
    private var barMaximum = 0.0
    static let barWidth = 20

    /// The bar of a row: at least one block for a number above zero.
    func barText(_ row: DisplayRow) -> String {
        guard let bar, barMaximum > 0, let value = grid.value(row, column: bar).number, value > 0 else { return "" }
        return String(repeating: "█", count: max(1, Int((value / barMaximum * Double(Self.barWidth)).rounded())))
    }

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
        viewport.setBodyCapacity(
            height - 3 - order.pinnedTopCount - order.pinnedBottomCount
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
    /// A hidden column is 0 wide; a width set with `<`, `>` or `_` is kept.
    ///
    /// Only the columns that can be on screen are measured — the frozen ones and, from the first
    /// scrolled one, as many as the width holds at their narrowest (4 with the separator) — so
    /// a key press costs the screen, not the table's width (16,384 columns, or 100,000); the
    /// others count as their narrowest.
    func columnWidths(_ rows: [Int]) -> [Int] {
        let count = grid.columns.count
        var measured = Array(0..<min(viewport.frozenColumns, count))
        let first = max(viewport.firstScrolledColumn, viewport.frozenColumns)
        if first < count { measured += Array(first..<min(count, first + width / 4 + 1)) }
        var widths = [Int](repeating: 3, count: count)
        for c in measured { widths[c] = min(Self.maximumColumnWidth, naturalWidth(c, rows: rows)) }
        for c in hiddenColumns where c < count { widths[c] = 0 }
        for (c, set) in widthOverrides where c < count && !hiddenColumns.contains(c) { widths[c] = set }
        return widths
    }

    /// The width column `c` needs for its title (with room for a sort glyph) and its widest cell
    /// among `rows`, at least 3.
    func naturalWidth(_ c: Int, rows: [Int]) -> Int {
        var w = TextWidth.columns(GridRenderer.visible(grid.columns[c].title)) + 3
        for row in rows {
            // As ``fit(_:_:right:)`` will show it: control characters as their escapes.
            if let display = grid.displayedRow(at: row) { w = max(w, TextWidth.columns(GridRenderer.visible(grid.text(display, column: c)))) }
        }
        return max(3, w)
    }

    /// The viewport with the widths of the columns as drawn for the rows on screen.
    var measuredViewport: (viewport: GridViewport, widths: [Int]) {
        let widths = columnWidths(visibleRows)
        var measured = viewport
        measured.setColumnWidths(widths.enumerated().map { hiddenColumns.contains($0) ? 0 : Double($1 + 1) })
        return (measured, widths)
    }

    /// The next shown column from `column`, `step` columns on (skipping hidden ones), or `nil`.
    func shownColumn(from column: Int, step: Int) -> Int? {
        var c = column + step
        while grid.columns.indices.contains(c) {
            if !hiddenColumns.contains(c) { return c }
            c += step
        }
        return nil
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
        func render(_ cells: (Int) -> (String, Bool), highlight: Bool, header: Bool = false, trailing: String = "") -> String {
            var line = "", used = 0
            for c in shownColumns where !hiddenColumns.contains(c) {
                let (text, right) = cells(c)
                let cell = Self.fit(text, widths[c], right: right)
                let w = widths[c] + 1
                if used + w > width {
                    if width - used > 0 { line += Self.fit(text, width - used, right: false) }
                    used = width
                    break
                }
                let marked =
                    c != column
                    ? cell
                    : highlight
                        ? "\u{1B}[4m" + cell + "\u{1B}[24m"
                        : header ? "\u{1B}[7m" + cell + "\u{1B}[27m" : cell
                line += marked + (c == frozenColumns - 1 ? "│" : " ")
                used += w
            }
            // The bar after the last column, as much of it as fits.
            if !trailing.isEmpty, used < width {
                let shown = String(trailing.prefix(width - used))
                line += shown
                used += shown.count
            }
            line += String(repeating: " ", count: max(0, width - used))
            return highlight ? "\u{1B}[7m" + line + "\u{1B}[27m" : line
        }
        var out: [String] = []
        out.append(
            "\u{1B}[1m"
                + render(
                    { c in
                        let glyph = grid.glyph(for: columns[c].identifier)
                        let mark = glyph.direction.map { ($0 == .ascending ? "▲" : "▼") + (glyph.priority.map(String.init) ?? "") } ?? ""
                        return (columns[c].title + (mark.isEmpty ? "" : " " + mark), columns[c].type.isNumeric)
                    }, highlight: false, header: true) + "\u{1B}[22m")
        out.append(String(repeating: "─", count: width))
        func rowLine(_ row: Int) -> String {
            guard let display = grid.displayedRow(at: row) else { return String(repeating: " ", count: width) }
            // A subtotal row stands out from its group's rows, in bold.
            if case .source(let source) = display, subtotalRows.contains(source) {
                return "\u{1B}[1m"
                    + render(
                        { c in
                            (grid.text(display, column: c), columns[c].type.isNumeric || grid.value(display, column: c).number != nil)
                        }, highlight: row == current, trailing: barText(display)) + "\u{1B}[22m"
            }
            return render(
                { c in
                    (grid.text(display, column: c), columns[c].type.isNumeric || grid.value(display, column: c).number != nil)
                }, highlight: row == current, trailing: barText(display))
        }
        let topPins = viewport.pinnedTopCount, bottomPins = viewport.pinnedBottomCount
        let subtotalRows = grid.order.subtotalRows
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
        // The warnings' count stays beside the hints, where the line is never cut.
        let warned =
            warnings.isEmpty
            ? ""
            : width >= 90
                ? " ⚠ \(warnings.count) warning\(warnings.count == 1 ? "" : "s") (w) ·" : " ⚠ \(warnings.count) (w) ·"
        let hints = width >= 90 ? warned + Self.hints : width >= 30 ? warned + Self.shortHints : ""
        let hintWidth = TextWidth.columns(hints)
        let statusLine =
            "\u{1B}[7m"
            + (question.map { Self.fit(" " + $0, width, right: false) } ?? Self.fit(status, max(0, width - hintWidth), right: false) + hints)
            + "\u{1B}[27m"
        guard height > 0 else { return [] }
        return Array(out.prefix(height - 1)) + [statusLine]
    }

    /// The key hints at the right of the status line (after the warnings' count, `w` shows them):
    /// always there, shorter on a narrow terminal.
    static let hints = " s sort · / find · ? help · q quit "
    static let shortHints = " ? help · q quit "

    /// The sheet (a view's name), the position, the latest message, a failed read, the current
    /// column and the sort keys; the key hints and the warnings' count follow, uncut.
    var status: String {
        let count = grid.displayedRowCount
        var parts = ["row \(Self.grouped(current + 1))/\(Self.grouped(count))"]
        if let name { parts.insert(name, at: 0) }
        if let progress { parts.append(progress) }
        // What the last key did, and a failed read, come first, where a narrow line still shows them.
        if !message.isEmpty { parts.append(message) }
        if let failure = grid.readFailure { parts.append("error: " + failure) }
        // The column `s` sorts and `/` searches.
        if grid.columns.indices.contains(column) { parts.append("column " + grid.columns[column].title) }
        let keys = grid.sortKeys.map { key in
            let title = grid.columns.first { $0.identifier == key.column }?.title ?? key.column
            return "\(title) \(key.direction == .ascending ? "▲" : "▼")"
        }
        parts.append(keys.isEmpty ? "file order" : "sort: " + keys.joined(separator: ", "))
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
