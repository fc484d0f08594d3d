import Foundation
import TrellisGrid
import TrellisText

/// Keys and mouse events in, screens out: the viewer's sheets (the file, and the views opened
/// from it — a frequency table, a description, the rows of one value), a prompt being typed (a
/// find, a row number) and the pages shown over them (the keys, the warnings). Everything but
/// reading the keys and writing the screen is here, so that a test can drive it without a
/// terminal.
struct ViewLoop {
    /// One sheet: a grid on screen and what it is.
    struct Sheet {
        enum Kind: Equatable {
            case file
            /// The frequency table of the sheet below's column `column`.
            case frequency(column: Int)
            /// Every column of the sheet below, described.
            case describe
            /// The rows of the sheet below that one filter keeps.
            case filtered
        }
        var screen: GridScreen
        var kind: Kind
    }

    /// A line being typed on the status line.
    struct Prompt {
        enum Kind: Equatable {
            case find, jump, save
            /// A command by name (Space).
            case command
            /// A cell's text (the cell of source row `row` in `column`).
            case edit(row: Int, column: Int)
        }
        var kind: Kind
        var text = ""
    }

    /// Text shown over the sheet (the keys, the warnings), scrolled with the arrows.
    struct Page {
        var title: String
        var lines: [String]
        var top = 0
    }

    /// The sheets, the file's first; the last is on screen.
    var sheets: [Sheet]
    var prompt: Prompt?
    var page: Page?
    /// The last text found, for `n` and `N`.
    var lastFind: String?
    var width = 80, height = 24
    /// The read of the rest of the file, while the first lines are shown.
    var background: BackgroundRead?
    /// What the names given on the command line meant, kept beside the whole file's warnings.
    var notes: [String] = []
    /// What the command prints on standard error once the terminal is back (what reading the
    /// whole file in the background noted).
    var standardError = ""
    /// Set while the loop runs on a terminal: a sort of a database-bound sheet then runs on
    /// another thread, showing how long it has taken, and Esc stops it.
    var sortsInBackground = false
    /// A sort asked for by the last key, to run once the key is handled.
    var pendingSort: (column: String, adding: Bool, direction: SortDirection?)?
    /// `g` was typed: the next key completes VisiData's two-key command (`gg`, `gh`, `gl`, `g[`, `g]`).
    var afterG = false
    /// The edits made, the last last (what `U` undoes).
    var edits: [Edit] = []
    /// Edits and undos since the table was last saved (or read): what `q` asks about.
    var editsSinceSave = 0
    /// How many times each column's cells' texts changed (edits, undos; not type keys) since the
    /// table was read: part of what a column's description is made of.
    var columnEdits: [Int] = []
    /// The file's sheet's descriptions (`I`), made ahead while the viewer was idle or when asked:
    /// the rows they were made for, and each column's by what it was made of.
    var descriptions: (rows: DescribedRows, columns: [DescribedColumn: ColumnProfile]) = (DescribedRows(rowCount: -1, pinnedTop: [], pinnedBottom: []), [:])
    /// A question the next key answers (replace the file, quit without saving).
    var confirmation: Confirmation?
    /// The file the table was read from, offered by Ctrl-S; `nil` for standard input or a database.
    var sourcePath: String?
    /// Why the table cannot be saved (a workbook's sheet, a database), when it cannot.
    var saveRefusal: String?
    /// Writes the grid's table to a file and says what it did (set by the command).
    var saveFile: ((DataGrid, String) throws(CommandError) -> String)?
    /// Where relative file names are resolved.
    var workingDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)

    init(screen: GridScreen) {
        sheets = [Sheet(screen: screen, kind: .file)]
    }

    /// The sheet on screen.
    var screen: GridScreen {
        get { sheets[sheets.count - 1].screen }
        set { sheets[sheets.count - 1].screen = newValue }
    }

    // MARK: Drawing

    /// The screen's lines at the current size, each exactly `width` columns (escapes aside).
    mutating func frame() -> [String] {
        if let page { return pageLines(page) }
        sheets[0].screen.progress = background?.progress(rowsShown: sheets[0].screen.grid.rowCount)
        screen.width = width
        screen.height = height
        screen.settle()
        var lines = screen.lines()
        if let prompt, !lines.isEmpty {
            let label =
                switch prompt.kind {
                case .find: "find in \(screen.grid.columns[screen.column].title)"
                case .jump: "go to row (1–\(GridScreen.grouped(screen.grid.displayedRowCount)))"
                case .save: "save to (Enter: write, Esc: not)"
                case .command: "command (Tab completes, Enter runs)"
                case .edit(let row, let column):
                    "edit \(screen.grid.columns[column].title), row \(GridScreen.grouped(row + 1)) (Enter: keep, Esc: not)"
                }
            // A command's name being typed: the names it may become, after it.
            var after = ""
            if prompt.kind == .command, !prompt.text.isEmpty {
                let matching = Self.namedCommands.map(\.name).filter { $0.hasPrefix(prompt.text) }
                after = matching.isEmpty ? "   (no such command)" : "   " + matching.prefix(6).joined(separator: " ") + (matching.count > 6 ? " …" : "")
            }
            lines[lines.count - 1] = "\u{1B}[7m" + GridScreen.fit(" \(label): \(prompt.text)▏\(after)", width, right: false) + "\u{1B}[27m"
        }
        return lines
    }

    /// `text` in lines of at most `width` columns, broken at spaces (a word wider than a line is
    /// broken where it must), the lines after the first indented by two.
    static func wrap(_ text: String, width: Int) -> [String] {
        let room = max(8, width)
        var lines: [String] = [], line = "", used = 0, indent = 0
        func newLine() {
            lines.append(line)
            line = "  "
            used = 2
            indent = 2
        }
        for word in text.split(separator: " ") {
            let w = TextWidth.columns(String(word))
            if used > indent {
                if used + 1 + w > room {
                    newLine()
                } else {
                    line += " "
                    used += 1
                }
            }
            if used + w <= room {
                line += word
                used += w
                continue
            }
            for character in word {
                let cw = TextWidth.columns(String(character))
                if used + cw > room, used > indent { newLine() }
                line.append(character)
                used += cw
            }
        }
        lines.append(line)
        return lines
    }

    private func pageLines(_ page: Page) -> [String] {
        guard height > 0 else { return [] }
        let room = max(0, height - 3)
        var out = [
            "\u{1B}[1m" + GridScreen.fit(" " + page.title, width, right: false) + "\u{1B}[22m",
            String(repeating: "─", count: width),
        ]
        for line in page.lines.dropFirst(page.top).prefix(room) { out.append(GridScreen.fit(" " + line, width, right: false)) }
        while out.count < height - 1 { out.append(String(repeating: " ", count: width)) }
        let more = page.lines.count > room ? " · lines \(page.top + 1)–\(min(page.lines.count, page.top + room)) of \(page.lines.count)" : ""
        let status = "\u{1B}[7m" + GridScreen.fit(" ↑↓ scroll · q or Esc closes\(more)", width, right: false) + "\u{1B}[27m"
        return Array(out.prefix(height - 1)) + [status]
    }

    // MARK: Keys

    enum Event: Equatable {
        case character(Character), up, down, left, right, pageUp, pageDown, home, end, f1, backTab
        case wheelUp, wheelDown, click(x: Int, y: Int, shift: Bool), enter, backspace, escape, interrupt, suspend, ignored
        /// Ctrl-S (save) and Ctrl-H (help, as in VisiData; a backspace while typing).
        case save, controlH
    }

    /// The first event in `bytes` and how many bytes it took (0: incomplete). With `complete`,
    /// no more bytes are coming: a lone ESC is the Escape key and a cut sequence is ignored.
    static func event(_ bytes: [UInt8], complete: Bool = false) -> (Event, Int) {
        guard let first = bytes.first else { return (.ignored, 0) }
        if complete {
            let (event, used) = self.event(bytes)
            return used > 0 ? (event, used) : first == 27 && bytes.count == 1 ? (.escape, 1) : (.ignored, bytes.count)
        }
        switch first {
        case 3: return (.interrupt, 1)
        case 26: return (.suspend, 1)
        case 13, 10: return (.enter, 1)
        case 127: return (.backspace, 1)
        case 8: return (.controlH, 1)
        case 19: return (.save, 1)
        case 27:
            guard bytes.count > 1 else { return (.ignored, 0) }
            guard bytes[1] == UInt8(ascii: "[") || bytes[1] == UInt8(ascii: "O") else { return (.escape, 1) }
            guard bytes.count > 2 else { return (.ignored, 0) }
            if bytes[1] == UInt8(ascii: "O") {
                // SS3: ESC O P is F1; ESC O A… are the arrows in application mode.
                switch bytes[2] {
                case UInt8(ascii: "P"): return (.f1, 3)
                case UInt8(ascii: "A"): return (.up, 3)
                case UInt8(ascii: "B"): return (.down, 3)
                case UInt8(ascii: "C"): return (.right, 3)
                case UInt8(ascii: "D"): return (.left, 3)
                case UInt8(ascii: "H"): return (.home, 3)
                case UInt8(ascii: "F"): return (.end, 3)
                default: return (.ignored, 3)
                }
            }
            if bytes[2] == UInt8(ascii: "<") {
                // SGR mouse: ESC [ < button ; x ; y (M|m)
                guard let end = bytes.firstIndex(where: { $0 == UInt8(ascii: "M") || $0 == UInt8(ascii: "m") }) else { return (.ignored, 0) }
                let fields = String(decoding: bytes[3..<end], as: UTF8.self).split(separator: ";").compactMap { Int($0) }
                guard fields.count == 3, bytes[end] == UInt8(ascii: "M") else { return (.ignored, end + 1) }
                switch fields[0] & ~4 {
                case 64: return (.wheelUp, end + 1)
                case 65: return (.wheelDown, end + 1)
                case 0: return (.click(x: fields[1] - 1, y: fields[2] - 1, shift: fields[0] & 4 != 0), end + 1)
                default: return (.ignored, end + 1)
                }
            }
            var k = 2
            while k < bytes.count, (0x30...0x3F).contains(bytes[k]) { k += 1 }
            guard k < bytes.count else { return (.ignored, 0) }
            let parameter = String(decoding: bytes[2..<k], as: UTF8.self)
            let used = k + 1
            switch (bytes[k], parameter) {
            case (UInt8(ascii: "A"), _): return (.up, used)
            case (UInt8(ascii: "B"), _): return (.down, used)
            case (UInt8(ascii: "C"), _): return (.right, used)
            case (UInt8(ascii: "D"), _): return (.left, used)
            case (UInt8(ascii: "H"), _), (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"): return (.home, used)
            case (UInt8(ascii: "F"), _), (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"): return (.end, used)
            case (UInt8(ascii: "~"), "5"): return (.pageUp, used)
            case (UInt8(ascii: "~"), "6"): return (.pageDown, used)
            case (UInt8(ascii: "~"), "11"), (UInt8(ascii: "P"), "1"), (UInt8(ascii: "P"), ""): return (.f1, used)
            case (UInt8(ascii: "Z"), ""): return (.backTab, used)
            default: return (.ignored, used)
            }
        default:
            // One UTF-8 character.
            let length = first < 0x80 ? 1 : first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : 2
            guard bytes.count >= length else { return (.ignored, 0) }
            let text = String(decoding: bytes.prefix(length), as: UTF8.self)
            return (text.first.map(Event.character) ?? .ignored, length)
        }
    }

    /// What happens after an event.
    enum Outcome { case go, quit, suspend }

    /// Whether Ctrl-C ended the viewer (it exits 130, as a shell expects of an interrupted
    /// program, rather than 0 as `q` does).
    var interrupted = false

    /// The sheets of the workbook shown (those that hold tables), and which one is shown; empty
    /// for a file that is not a workbook.
    var sheetNames: [String] = []
    var sheetIndex = 0
    /// The sheet Tab asked for: the viewer ends and shows it.
    private(set) var switchToSheet: Int?

    /// Applies `event`.
    mutating func handle(_ event: Event) -> Outcome {
        if event == .suspend { return .suspend }
        if let confirmation { return answer(confirmation, with: event) }
        if prompt != nil { return typePrompt(event) }
        if page != nil { return scrollPage(event) }
        screen.message = ""
        let grid = screen.grid
        if afterG {
            afterG = false
            return completeG(event)
        }
        switch event {
        case .character("q"):
            guard sheets.count > 1 else { return quitOrAsk() }
            sheets.removeLast()
        case .interrupt:
            interrupted = true
            return .quit
        case .escape:
            if sheets.count > 1 { sheets.removeLast() }
        case .character("?"), .f1, .controlH: page = Page(title: "trellis view: keys", lines: Self.helpPage)
        case .character(" "): prompt = Prompt(kind: .command)
        case .character("e"): beginEdit()
        case .character("#"), .character("%"), .character("$"), .character("~"), .character("@"):
            if case .character(let key) = event { setColumnType(key) }
        case .character("U"): undoEdit()
        case .save: beginSave()
        case .character("w"):
            // Wrapped to the screen, so that a long warning's advice (an option to type) is read whole.
            page = Page(
                title: "warnings",
                lines: screen.warnings.isEmpty ? ["No warnings."] : screen.warnings.flatMap { Self.wrap("⚠ " + $0, width: width - 2) })
        // VisiData's (and vi's) h j k l move as the arrows do, G to the last row.
        case .up, .character("k"): screen.current -= 1
        case .down, .character("j"): screen.current += 1
        case .left, .character("h"): moveColumn(by: -1)
        case .right, .character("l"): moveColumn(by: 1)
        case .character("G"): screen.current = grid.displayedRowCount - 1
        case .pageUp: screen.current -= screen.bodyLines
        case .pageDown: screen.current += screen.bodyLines
        case .home: screen.current = 0
        case .end: screen.current = grid.displayedRowCount - 1
        case .wheelUp: screen.viewport.scrollBody(by: -3); screen.current -= 3
        case .wheelDown: screen.viewport.scrollBody(by: 3); screen.current += 3
        case .character("s"), .character("S"):
            requestSort(grid.columns[screen.column].identifier, adding: event == .character("S"))
        case .click(let x, let y, let shift):
            if y == 0, let c = screen.column(atX: x) {
                screen.column = c
                requestSort(grid.columns[c].identifier, adding: shift)
            } else if y >= 2 {
                let rows = screen.visibleRows
                let line = y - 2
                if line < grid.pinnedTopCount + min(screen.bodyLines, rows.count), line < rows.count { screen.current = rows[line] }
            }
        case .character("/"): prompt = Prompt(kind: .find)
        case .character(":"): prompt = Prompt(kind: .jump)
        // VisiData's prefix: the next key says what (gg, gh, gl, g[, g]).
        case .character("g"):
            afterG = true
            screen.message = "g…"
        case .character("["), .character("]"):
            requestSort(grid.columns[screen.column].identifier, adding: false, direction: event == .character("[") ? .ascending : .descending)
        case .character("n"), .character("N"):
            if let lastFind { find(lastFind, backwards: event == .character("N")) } else { screen.message = "nothing to repeat: / finds" }
        case .character("p"): pinOrUnpin()
        case .character("P"): unpin()
        case .character("<"), .character(">"): resize(by: event == .character("<") ? -2 : 2)
        case .character("_"): toggleFullWidth()
        case .character("-"): hideColumn()
        case .character("+"):
            let count = screen.hiddenColumns.count
            screen.hiddenColumns = []
            screen.message = count == 0 ? "no column is hidden" : "\(count) hidden column\(count == 1 ? "" : "s") shown again"
        case .character("\t"), .backTab:
            if sheetNames.count > 1 {
                // Shift-Tab the sheet before, going round to the last.
                switchToSheet = (sheetIndex + (event == .backTab ? sheetNames.count - 1 : 1)) % sheetNames.count
                return .quit
            }
            screen.message =
                sheetNames.isEmpty
                ? "Tab shows a workbook's next sheet (Shift-Tab the one before); this file is not a workbook" : "the workbook has one sheet"
        case .character("F"): openFrequency()
        case .character("I"): openDescription()
        case .enter: enter()
        case .character(let key):
            // A key that does nothing says so, rather than nothing.
            let shown = key.isLetter || key.isNumber || key.isPunctuation || key.isSymbol ? "'\(key)'" : "that key"
            screen.message = "\(shown) does nothing here · ? lists the keys"
        default: break
        }
        // Kept in range at once, not at the next draw: keys that come faster than the screen is
        // drawn (a held arrow, a paste) are applied one after another, and an Up after twenty
        // Downs past the last row moves up from the last row.
        screen.current = max(0, min(screen.current, screen.grid.displayedRowCount - 1))
        return .go
    }

    /// The key after `g`: `gg` the first row, `gh` / `gl` the first / last column, `g[` / `g]` the
    /// current column added as a further key, ascending / descending.
    private mutating func completeG(_ event: Event) -> Outcome {
        let grid = screen.grid
        switch event {
        case .character("g"): screen.current = 0
        case .character("G"): screen.current = grid.displayedRowCount - 1
        case .character("h"), .character("l"):
            let step = event == .character("h") ? -1 : 1
            for _ in 0..<grid.columns.count {
                guard let next = screen.shownColumn(from: screen.column, step: step), next != screen.column else { break }
                moveColumn(by: step)
            }
        case .character("["), .character("]"):
            requestSort(grid.columns[screen.column].identifier, adding: true, direction: event == .character("[") ? .ascending : .descending)
        case .escape, .interrupt:
            if event == .interrupt {
                interrupted = true
                return .quit
            }
        case .character(let key):
            screen.message = "g then '\(key)' does nothing · : goes to a row · ? lists the keys"
        default: break
        }
        screen.current = max(0, min(screen.current, grid.displayedRowCount - 1))
        return .go
    }

    /// The keys, as `?` shows them.
    /// The keys page: the keys, then the commands by name.
    static var helpPage: [String] { help + [""] + commandHelp }

    static let help: [String] = [
        "Moving",
        "  ↑ ↓ ← →            row and column (h j k l too, as in VisiData and vi)",
        "  Page Up/Down       a screen of rows",
        "  Home / End         first / last row (G too)",
        "  : (was g)          go to a row number",
        "  gg / G             first / last row, as in VisiData",
        "  gh / gl            first / last column",
        "  mouse wheel        scroll",
        "Sorting",
        "  s                  cycle the current column's sort: ▲, ▼, off (a click on a header too)",
        "  S                  add the current column as a further sort key (shift-click too)",
        "  [ / ]              sort by the current column ascending / descending (VisiData's keys)",
        "  g[ / g]            add the current column as a further key, ascending / descending",
        "Finding",
        "  /                  find a text in the current column (as written), from the current row on",
        "  n / N              the next / previous row with it, wrapping at the ends",
        "Rows",
        "  p                  pin the current row to the bottom (on a pinned row: unpin it)",
        "  P                  unpin the current row, back into its sorted place",
        "Columns",
        "  < / >              narrow / widen the current column",
        "  _                  the current column as wide as its widest cell on screen, or back",
        "  -                  hide the current column",
        "  +                  show every hidden column again",
        "Editing",
        "  e                  edit the current cell (Enter keeps it, Esc does not); the row stays",
        "                     where it is until the next sort, summary rows follow at once",
        "  U                  undo the last edit",
        "  Ctrl-S             save: the file (after a y) or a name typed, every byte but the",
        "                     edited cells' as the file had them, the rows in the file's order;",
        "                     an SQLite table's edited cells by UPDATE, one transaction (after a y)",
        "  Ctrl-U             (while typing) clear what is typed",
        "  # % $ ~ @          read the current column as integers, decimals, amounts (decimals),",
        "                     text or dates (VisiData's type keys); the cells stay as written,",
        "                     the rows where they are until the next sort",
        "Views (q goes back)",
        "  F                  the current column's values: count, percent and a bar, sortable",
        "  I                  every column described: count, blanks, distinct, min, max, mean, median",
        "  Enter              on a value of F: the rows with it; on a column of I: go to it",
        "Else",
        "  Tab, Shift-Tab     a workbook's next sheet, the one before (.xlsx, .ods, .xls)",
        "  w                  the file's warnings",
        "  ?, F1 or Ctrl-H    this page",
        "  Ctrl-Z             suspend (fg resumes)",
        "  q                  back from a view, or quit (asks first when edits are not saved;",
        "                     Ctrl-C quits at once)",
        "VisiData's keys here",
        "  h j k l, gg G, gh gl, [ ], g[ g], / n N, F, I, e, U, Ctrl-S, # % $ ~ @, -, _, q:",
        "                     as in VisiData",
        "  Enter (F)          the rows with a value, as VisiData's Enter on a frequency row",
        "  :                  go to a row (VisiData's zr), since g is VisiData's prefix",
        "  Space              a command by name, as in VisiData (listed below; Tab completes)",
        "  s / S              this viewer's own: cycle a column's sort / add it as a key",
    ]

    private mutating func typePrompt(_ event: Event) -> Outcome {
        guard var prompt else { return .go }
        switch event {
        case .enter:
            self.prompt = nil
            switch prompt.kind {
            case .command: return runCommand(prompt.text)
            case .find:
                guard !prompt.text.isEmpty else { return .go }
                lastFind = prompt.text
                find(prompt.text, backwards: false)
            case .jump: jump(prompt.text)
            case .save: commitSave(to: prompt.text)
            case .edit(let row, let column): commitEdit(row: row, column: column, text: prompt.text)
            }
        case .escape, .interrupt:
            self.prompt = nil
            if case .edit = prompt.kind { screen.message = "not edited" }
        case .backspace, .controlH:
            if !prompt.text.isEmpty { prompt.text.removeLast() }
            self.prompt = prompt
        case .character("\t") where prompt.kind == .command:
            completeCommand()
        case .character("\u{15}"):
            // Ctrl-U, as in a shell: what was typed (or offered) goes.
            prompt.text = ""
            self.prompt = prompt
        case .character(let c) where c.asciiValue.map { $0 >= 0x20 } ?? true:
            prompt.text.append(c)
            self.prompt = prompt
        default: break
        }
        return .go
    }

    private mutating func scrollPage(_ event: Event) -> Outcome {
        guard var page else { return .go }
        let room = max(1, height - 3)
        let last = max(0, page.lines.count - room)
        switch event {
        case .character("q"), .escape, .character("?"), .f1, .controlH, .enter: self.page = nil; return .go
        case .interrupt:
            interrupted = true
            return .quit
        case .up, .wheelUp: page.top -= 1
        case .down, .wheelDown: page.top += 1
        case .pageUp: page.top -= room
        case .pageDown, .character(" "): page.top += room
        case .home: page.top = 0
        case .end: page.top = last
        default: break
        }
        page.top = max(0, min(page.top, last))
        self.page = page
        return .go
    }

    private mutating func moveColumn(by step: Int) {
        guard let c = screen.shownColumn(from: screen.column, step: step) else { return }
        screen.column = c
        if step < 0 {
            if c >= screen.viewport.frozenColumns, c < screen.viewport.firstScrolledColumn { screen.viewport.scroll(toColumn: c) }
        } else if c >= screen.viewport.frozenColumns {
            screen.viewport.scroll(toColumn: max(screen.viewport.firstScrolledColumn, c - 3))
        }
    }

    /// Sorts by `column`: the click's cycle, or in `direction` (VisiData's `[` and `]`). A sort of
    /// a database's rows waits for the loop (which runs it where Esc can stop it); any other sorts
    /// at once.
    mutating func requestSort(_ column: String, adding: Bool, direction: SortDirection? = nil) {
        if sortsInBackground, screen.grid.source is InterruptibleDataSource {
            pendingSort = (column, adding, direction)
        } else {
            sort(column, adding: adding, direction: direction)
        }
    }

    mutating func sort(_ column: String, adding: Bool, direction: SortDirection? = nil) {
        let clock = ContinuousClock()
        do {
            let grid = screen.grid
            let elapsed = try clock.measure { () throws in try Self.apply(grid, column, adding: adding, direction: direction) }
            screen.message = String(format: "sorted in %.0f ms", Self.milliseconds(elapsed))
        } catch {
            screen.message = "\(error)"
        }
    }

    /// A header click's sort, or one in a given direction.
    static func apply(_ grid: DataGrid, _ column: String, adding: Bool, direction: SortDirection?) throws(SortError) {
        if let direction {
            try grid.sortColumn(column, direction: direction, addingKey: adding)
        } else {
            try grid.clickHeader(column, addingKey: adding)
        }
    }

    /// Moves to the next row (after the current one, wrapping; before it with `backwards`) whose
    /// cell in the current column contains `query`, saying when the search went round an end.
    mutating func find(_ query: String, backwards: Bool) {
        let grid = screen.grid
        let found =
            backwards
            ? grid.displayIndex(ofRowContaining: query, column: screen.column, before: screen.current)
            : grid.displayIndex(ofRowContaining: query, column: screen.column, after: screen.current)
        guard let index = found else {
            screen.message = "no \"\(query)\" in \(grid.columns[screen.column].title)"
            return
        }
        let wrapped = backwards ? index >= screen.current : index <= screen.current
        screen.current = index
        screen.message = "found \"\(query)\"" + (wrapped ? (backwards ? ", going round from the bottom" : ", going round from the top") : "")
    }

    /// Goes to the row numbered `text` (1 is the first shown).
    mutating func jump(_ text: String) {
        let count = screen.grid.displayedRowCount
        let digits = text.trimmingSpaces().replacingOccurrences(of: ",", with: "")
        guard let number = Int(digits), number >= 1, number <= count else {
            screen.message = "no row \"\(text)\": give a number from 1 to \(GridScreen.grouped(count))"
            return
        }
        screen.current = number - 1
    }

    /// `p`: pins the current row to the bottom, or unpins it when it is pinned.
    private mutating func pinOrUnpin() {
        guard case .source(let row)? = screen.grid.displayedRow(at: screen.current) else {
            screen.message = "a summary row is not a row of the file: it stays"
            return
        }
        if screen.grid.region(of: .source(row)) != .body { unpin(); return }
        do {
            try screen.grid.pin(.row(row), at: .bottom)
            screen.message = "row pinned to the bottom (p or P on it unpins)"
        } catch { screen.message = "\(error)" }
    }

    /// `P`: the current row's pin is removed and the row goes back to its sorted place, where the
    /// cursor follows it.
    private mutating func unpin() {
        let grid = screen.grid
        guard case .source(let row)? = grid.displayedRow(at: screen.current), grid.region(of: .source(row)) != .body else {
            screen.message = "this row is not pinned"
            return
        }
        guard let pin = grid.unpin(sourceRow: row) else { screen.message = "this row is not pinned"; return }
        if let index = grid.displayIndex(ofSourceRow: row) { screen.current = index }
        switch pin {
        case .row: screen.message = "row unpinned"
        case .matching(let column, let value): screen.message = "unpinned every \(column) = \(value) row"
        }
    }

    private mutating func resize(by delta: Int) {
        let c = screen.column
        let now = screen.columnWidths(screen.visibleRows)[c]
        let widest = max(3, width - 2)
        screen.widthOverrides[c] = max(1, min(widest, now + delta))
        screen.message = "\(screen.grid.columns[c].title): \(screen.widthOverrides[c]!) wide"
    }

    private mutating func toggleFullWidth() {
        let c = screen.column
        if screen.widthOverrides[c] != nil {
            screen.widthOverrides[c] = nil
            screen.message = "\(screen.grid.columns[c].title): width as measured"
        } else {
            screen.widthOverrides[c] = min(max(3, width - 2), screen.naturalWidth(c, rows: screen.visibleRows))
            screen.message = "\(screen.grid.columns[c].title): as wide as its widest cell on screen"
        }
    }

    private mutating func hideColumn() {
        let c = screen.column
        let shown = screen.grid.columns.indices.filter { !screen.hiddenColumns.contains($0) }
        guard shown.count > 1 else { screen.message = "the last column shown stays"; return }
        screen.hiddenColumns.insert(c)
        screen.column = screen.shownColumn(from: c, step: 1) ?? screen.shownColumn(from: c, step: -1) ?? c
        screen.message = "\(screen.grid.columns[c].title) hidden (+ shows it again)"
    }
}

/// The loop on a real terminal: reads keys, applies them, draws.
extension ViewLoop {
    mutating func run(on terminal: Terminal) {
        sortsInBackground = true
        draw(on: terminal)
        var pending: [UInt8] = []
        while true {
            if let background {
                // Keys, or the end of the read; the progress is redrawn every second meanwhile.
                var fds = [
                    pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: background.wake.read, events: Int16(POLLIN), revents: 0),
                ]
                let ready = poll(&fds, 2, 1000)
                if ready < 0 || fds[0].revents == 0 {
                    if fds[1].revents != 0 {
                        var byte: UInt8 = 0
                        _ = Foundation.read(background.wake.read, &byte, 1)
                        finishReading()
                    }
                    draw(on: terminal)
                    continue
                }
            }
            // Idle a quarter of a second with the description stale: it is made now, so that `I`
            // shows it at once (a key typed meanwhile waits at most its making).
            if background == nil, describesAhead, descriptionIsStale {
                guard let early = terminal.read(timeout: 250) else {
                    // (Or a signal came: back from fg, a new size. The screen is drawn again.)
                    describeAhead()
                    draw(on: terminal)
                    continue
                }
                if early.isEmpty { return }
                pending += early
            }
            guard let bytes = pending.isEmpty ? terminal.read() : [] else { draw(on: terminal); continue }
            if bytes.isEmpty, pending.isEmpty { return }
            pending += bytes
            var waited = false
            while !pending.isEmpty {
                let (event, used) = Self.event(pending, complete: waited)
                guard used > 0 else {
                    // An escape sequence that never ends (pasted noise) is dropped, not kept growing.
                    if pending.count > 256 { pending.removeAll(); break }
                    // A key's bytes may come in two reads (keys typed faster than they are read
                    // fill the buffer mid-sequence): the rest is waited for, briefly; what has
                    // not come by then is taken as it is (a lone ESC is the Escape key).
                    if let more = terminal.read(timeout: 40), !more.isEmpty { pending += more } else { waited = true }
                    continue
                }
                pending.removeFirst(used)
                waited = false
                switch handle(event) {
                case .go: break
                case .quit: return
                case .suspend: raise(SIGTSTP)  // back from `fg` here: the loop redraws
                }
                if let request = pendingSort {
                    pendingSort = nil
                    // Keys typed after the sort's key are the sort's to read: an Esc among them stops it.
                    let typed = pending
                    // What was typed during the sort, Esc aside, is handled after it.
                    pending = sortInBackground(
                        request.column, adding: request.adding, direction: request.direction, typedAhead: typed, on: terminal)
                }
            }
            draw(on: terminal)
        }
    }

    /// Sorts a database-bound sheet on another thread: after a tenth of a second the status line
    /// says how long it has taken and that Esc stops it; Esc (or Ctrl-C) interrupts the source's
    /// read, and the grid keeps the order it had. The screen is not drawn from the grid meanwhile:
    /// only the sort touches it.
    /// Returns the bytes of the keys typed meanwhile (but Esc), for the loop to handle after it.
    mutating func sortInBackground(
        _ column: String, adding: Bool, direction: SortDirection? = nil, typedAhead: [UInt8] = [], on terminal: Terminal
    ) -> [UInt8] {
        let grid = screen.grid
        let (stop, ahead) = Self.stopKeys(typedAhead)
        var kept = ahead
        // Esc typed right behind the sort's key: the sort is stopped before it starts.
        if stop {
            screen.message = "sort stopped: the rows keep their order"
            return kept
        }
        var fds: [Int32] = [0, 0]
        guard grid.source is InterruptibleDataSource, pipe(&fds) == 0 else {
            sort(column, adding: adding, direction: direction)
            return typedAhead
        }
        defer { close(fds[0]); close(fds[1]) }
        let title = grid.columns.first { $0.identifier == column }?.title ?? column
        var lines = frame()
        let started = ContinuousClock.now
        let outcome = SortOutcome()
        let shared = Unsendable((grid, outcome))
        let done = fds[1]
        Thread.detachNewThread {
            let (grid, outcome) = shared.value
            do { try Self.apply(grid, column, adding: adding, direction: direction) } catch { outcome.failure = "\(error)" }
            var byte: UInt8 = 1
            _ = write(done, &byte, 1)
        }
        var cancelled = false
        while true {
            var polls = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0), pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)]
            _ = poll(&polls, 2, cancelled ? 10 : 100)
            if polls[1].revents != 0 { break }
            if polls[0].revents != 0, let bytes = terminal.read() {
                let (escape, rest) = Self.stopKeys(bytes)
                kept += rest
                if escape { cancelled = true }
            }
            // Asked again until the sort ends: a sort whose thread had not begun at the first ask
            // is stopped at the next.
            if cancelled { grid.interruptSort() }
            let seconds = Self.milliseconds(ContinuousClock.now - started) / 1000
            let status =
                cancelled
                ? " stopping the sort by \(title)…"
                : String(format: " sorting by %@… %.1f s · Esc stops it", title, seconds)
            if !lines.isEmpty {
                lines[lines.count - 1] = "\u{1B}[7m" + GridScreen.fit(status, width, right: false) + "\u{1B}[27m"
                Terminal.write("\u{1B}[H" + lines.joined(separator: "\r\n"))
            }
        }
        let ms = Self.milliseconds(ContinuousClock.now - started)
        if let failure = outcome.failure {
            screen.message = cancelled ? "sort stopped: the rows keep their order" : failure
        } else {
            screen.message = String(format: "sorted in %.0f ms", ms)
        }
        return kept
    }

    /// Whether `bytes` hold Esc or Ctrl-C (what stops a sort), and the bytes of every other key.
    static func stopKeys(_ bytes: [UInt8]) -> (stop: Bool, rest: [UInt8]) {
        var stop = false, rest: [UInt8] = [], remaining = bytes[...]
        while !remaining.isEmpty {
            let (event, used) = event(Array(remaining), complete: true)
            let taken = max(1, used)
            if event == .escape || event == .interrupt { stop = true } else { rest += remaining.prefix(taken) }
            remaining = remaining.dropFirst(taken)
        }
        return (stop, rest)
    }

    mutating func draw(on terminal: Terminal) {
        let size = terminal.size
        width = size.width
        height = size.height
        Terminal.write("\u{1B}[H" + frame().joined(separator: "\r\n"))
    }
}

/// What a sort on another thread left.
final class SortOutcome: @unchecked Sendable {
    var failure: String?
}
