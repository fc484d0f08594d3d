import Foundation
import TrellisGrid

/// `trellis view FILE.csv | FILE.sqlite --table T | postgresql://… --table T`: the grid in the
/// terminal — header row, frozen first column, pinned and summary rows, virtual scrolling, keys
/// and the mouse wheel, header clicks — restoring the terminal on every way out.
enum ViewCommand {
    static let definition = CommandDefinition(
        name: "view",
        overview: "Browse and sort a table in the terminal.",
        arguments: [("file", "A CSV file, an SQLite database or a postgresql:// URL (with --table or --query).")],
        options: [
            OptionDefinition(names: ["--table"], valueName: "name", help: "The table of the database to show."),
        ] + CSVReading.options + [
            OptionDefinition(names: ["--query"], valueName: "sql", help: "The SELECT whose rows to show."),
            OptionDefinition(names: ["--by"], valueName: "key", help: "Start sorted by this key (as trellis sort's).", repeatable: true),
            OptionDefinition(names: ["--pin-bottom"], valueName: "column=value",
                             help: "Pin the rows whose COLUMN reads VALUE to the bottom (the 平均 row).", repeatable: true),
            OptionDefinition(names: ["--pin-top"], valueName: "column=value", help: "Pin matching rows to the top.", repeatable: true),
        ] + SortCommand.definition.options.filter { ["--locale", "--nulls", "--type"].contains($0.key) } + [
            OptionDefinition(names: ["--help", "-h"], valueName: nil, help: "Show help information."),
        ],
        discussion: """
        KEYS: arrows move (left and right across columns), Page Up/Down, Home/End, the mouse
        wheel scrolls; s cycles the current column's sort (S adds it as a further key), a click on
        a header does the same (shift-click adds); / jumps to the next row whose cell in the
        current column contains the text typed, as written (the status line names the column);
        p pins the current row to the bottom; Ctrl-Z suspends (fg resumes); q or Ctrl-C quits.
        The current column's title is in reverse video, its cell in the current row underlined.

        The terminal is restored on every exit — q, Ctrl-C, an error, SIGTERM, SIGHUP — and while
        the viewer is suspended.

        EXIT STATUS: as trellis sort's (0, 64, 65, 66, 69, 75, 77), and 129, 130, 143 for SIGHUP,
        Ctrl-C from elsewhere and SIGTERM.
        """)

    static func run(_ arguments: [String], io: inout CommandIO) throws(CommandError) {
        let parsed = try definition.parse(arguments)
        guard let path = parsed.positionals.first else { throw .usage("Missing expected argument '<file>'") }
        guard isatty(STDOUT_FILENO) == 1, isatty(STDIN_FILENO) == 1 else {
            throw .usage("trellis view draws on a terminal, and this output is not one; for a file or a pipe use "
                         + "trellis sort \(Excerpt.of(path)) --format text")
        }
        #if canImport(Glibc)
        // A sort of a million rows allocates and frees buffers of megabytes: kept in the heap
        // instead of returned to the system, the next sort reuses their pages instead of
        // faulting in fresh zeroed ones. (glibc's mallopt, which the Swift overlay does not declare.)
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") {
            typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
            let mallopt = unsafeBitCast(symbol, to: MallOpt.self)
            _ = mallopt(-3, 256 << 20)   // M_MMAP_THRESHOLD
            _ = mallopt(-1, 512 << 20)   // M_TRIM_THRESHOLD
        }
        #endif
        let nulls = try SortCommand.nulls(parsed)
        let locale = try SortCommand.locale(parsed)
        let source = try SortCommand.loadSource(path, table: parsed.value("--table"), query: parsed.value("--query"),
                                                types: try SortCommand.types(parsed), reading: try CSVReading(parsed), io: &io)
        let grid = DataGrid(bound: source)
        let names = ColumnNames(source.columns)
        do {
            for (option, edge) in [("--pin-top", PinEdge.top), ("--pin-bottom", .bottom)] {
                for text in parsed.values[option] ?? [] {
                    let (column, value) = try SortCommand.split(text, at: "=", option: "\(option) <column=value>", example: "组号=平均")
                    try grid.pin(.matching(column: try names.resolve(column, in: "\(option) \(text)"), value: value), at: edge)
                }
            }
            let keys = try (parsed.values["--by"] ?? []).map { (text: String) throws(CommandError) -> SortKey in
                try SortCommand.key(text, names: names, locale: locale, nulls: nulls)
            }
            // A header sort (s, a click) sorts as --by would: by the locale, blanks where asked.
            grid.headerKey = { column in
                SortKey(column, comparator: locale.map { .text(.localized($0)) } ?? .standard, nulls: nulls)
            }
            try grid.sort(by: keys)
        } catch {
            throw CommandError.from(error)
        }
        warmHeap(rows: grid.rowCount)
        var screen = GridScreen(grid: grid, width: 80, height: 24)
        screen.warnings = names.notes + grid.typeWarnings.map { "\($0)" }
        let terminal = Terminal()
        terminal.start()
        defer { terminal.restore() }
        var loop = ViewLoop(screen: screen, terminal: terminal)
        loop.run()
    }

    /// Touches, once, as much memory as a sort of `rows` rows uses and gives it back to the heap
    /// (which keeps it, as set above): the first sort then runs in pages already mapped, as
    /// every later one does, instead of faulting in zeroed pages (measured: 52 ms → 30 ms at 1M rows).
    static func warmHeap(rows: Int) {
        // Below the mmap threshold set above: a larger block would be mapped and unmapped again.
        let bytes = min(rows * 48, 200 << 20)
        guard bytes > 1 << 20, let block = malloc(bytes) else { return }
        memset(block, 0, bytes)
        free(block)
    }
}

/// The terminal in raw mode, on the alternate screen, with mouse reports; restored by
/// ``restore()``, at exit and on SIGTERM or SIGHUP, whatever happens, and while the viewer is
/// suspended (Ctrl-Z, or SIGTSTP from elsewhere) until `fg` brings it back.
final class Terminal {
    nonisolated(unsafe) static var saved: termios?
    nonisolated(unsafe) static var raw: termios?
    nonisolated(unsafe) static var resized: Int32 = 0
    static let enter = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1006h"
    static let leave = "\u{1B}[?1000l\u{1B}[?1006l\u{1B}[?25h\u{1B}[?1049l"

    func start() {
        var original = termios()
        tcgetattr(STDIN_FILENO, &original)
        Terminal.saved = original
        var raw = original
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
        raw.c_oflag &= ~tcflag_t(OPOST)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
        Terminal.raw = raw
        Self.write(Self.enter)
        atexit { Terminal.restoreNow() }
        // A parent may have left these blocked (runtimes block signals in their threads, and
        // children inherit the mask): the viewer must hear them to restore the terminal.
        var handled = sigset_t()
        sigemptyset(&handled)
        for s in [SIGTERM, SIGHUP, SIGINT, SIGWINCH, SIGTSTP, SIGCONT] { sigaddset(&handled, s) }
        sigprocmask(SIG_UNBLOCK, &handled, nil)
        signal(SIGTERM) { _ in Terminal.restoreNow(); _exit(143) }
        signal(SIGHUP) { _ in Terminal.restoreNow(); _exit(129) }
        signal(SIGINT) { _ in Terminal.restoreNow(); _exit(130) }
        // A resize interrupts the read, which then redraws.
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in Terminal.resized = 1 }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGWINCH, &action, nil)
        Self.handleSuspend()
    }

    /// SIGTSTP (Ctrl-Z, which raw mode delivers as a key the loop raises, or `kill -TSTP`) puts
    /// the terminal back as it was, stops, and on `fg` takes it again and redraws — the read is
    /// interrupted (no restart), so the loop draws at once.
    static func handleSuspend() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in Terminal.suspend() }
        sigemptyset(&action.sa_mask)
        action.sa_flags = Int32(SA_NODEFER)
        sigaction(SIGTSTP, &action, nil)
    }

    static func suspend() {
        guard var original = saved else { return }
        write(leave)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
        // Stop as the signal's default would, here; `fg` continues from this line.
        signal(SIGTSTP, SIG_DFL)
        var tstp = sigset_t()
        sigemptyset(&tstp)
        sigaddset(&tstp, SIGTSTP)
        sigprocmask(SIG_UNBLOCK, &tstp, nil)
        raise(SIGTSTP)
        handleSuspend()
        guard saved != nil, var raw = raw else { return }
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
        write(enter)
        resized = 1
    }

    func restore() { Self.restoreNow() }

    static func restoreNow() {
        guard var original = saved else { return }
        saved = nil
        write(leave)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
    }

    static func write(_ text: String) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Foundation.write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if n <= 0 { if errno == EINTR { continue }; return }
                offset += n
            }
        }
    }

    var size: (width: Int, height: Int) {
        var w = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &w) == 0, w.ws_col > 0, w.ws_row > 0 { return (Int(w.ws_col), Int(w.ws_row)) }
        return (80, 24)
    }

    /// The next bytes typed, or `nil` when a resize interrupted the wait.
    func read() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = Foundation.read(STDIN_FILENO, &buffer, 64)
        if n < 0 { return errno == EINTR ? nil : [] }
        return Array(buffer.prefix(n))
    }
}

/// Keys and mouse events in, screens out.
struct ViewLoop {
    var screen: GridScreen
    let terminal: Terminal
    var searching: String?

    mutating func draw() {
        let size = terminal.size
        screen.width = size.width
        screen.height = size.height
        screen.settle()
        var lines = screen.lines()
        if let searching {
            lines[lines.count - 1] = "\u{1B}[7m" + GridScreen.fit(" find in \(screen.grid.columns[screen.column].title): \(searching)▏",
                                                                  size.width, right: false) + "\u{1B}[27m"
        }
        Terminal.write("\u{1B}[H" + lines.joined(separator: "\r\n"))
    }

    mutating func run() {
        draw()
        var pending: [UInt8] = []
        while true {
            guard let bytes = terminal.read() else { draw(); continue }
            if bytes.isEmpty { return }
            pending += bytes
            while !pending.isEmpty {
                let (event, used) = Self.event(pending)
                guard used > 0 else {
                    // An escape sequence that never ends (pasted noise) is dropped, not kept growing.
                    if pending.count > 256 { pending.removeAll() }
                    break
                }
                pending.removeFirst(used)
                if !handle(event) { return }
            }
            draw()
        }
    }

    enum Event: Equatable {
        case character(Character), up, down, left, right, pageUp, pageDown, home, end
        case wheelUp, wheelDown, click(x: Int, y: Int, shift: Bool), enter, backspace, escape, interrupt, suspend, ignored
    }

    /// The first event in `bytes` and how many bytes it took (0: incomplete).
    static func event(_ bytes: [UInt8]) -> (Event, Int) {
        guard let first = bytes.first else { return (.ignored, 0) }
        switch first {
        case 3: return (.interrupt, 1)
        case 26: return (.suspend, 1)
        case 13, 10: return (.enter, 1)
        case 127, 8: return (.backspace, 1)
        case 27:
            guard bytes.count > 1 else { return (.escape, 1) }
            guard bytes[1] == UInt8(ascii: "[") || bytes[1] == UInt8(ascii: "O") else { return (.escape, 1) }
            guard bytes.count > 2 else { return (.ignored, 0) }
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

    /// Applies `event`; `false` to quit.
    mutating func handle(_ event: Event) -> Bool {
        let grid = screen.grid
        if var query = searching {
            switch event {
            case .enter:
                searching = nil
                find(query)
            case .escape, .interrupt: searching = nil
            case .suspend: raise(SIGTSTP)
            case .backspace:
                if !query.isEmpty { query.removeLast() }
                searching = query
            case .character(let c):
                query.append(c)
                searching = query
            default: break
            }
            return true
        }
        screen.message = ""
        switch event {
        case .character("q"), .interrupt: return false
        case .suspend: raise(SIGTSTP)   // back from `fg` here: the loop redraws
        case .up: screen.current -= 1
        case .down: screen.current += 1
        case .left:
            screen.column -= 1
            if screen.column >= screen.viewport.frozenColumns, screen.column < screen.viewport.firstScrolledColumn {
                screen.viewport.scroll(toColumn: screen.column)
            }
        case .right:
            screen.column += 1
            if screen.column >= screen.viewport.frozenColumns {
                screen.viewport.scroll(toColumn: max(screen.viewport.firstScrolledColumn, screen.column - 3))
            }
        case .pageUp: screen.current -= screen.bodyLines
        case .pageDown: screen.current += screen.bodyLines
        case .home: screen.current = 0
        case .end: screen.current = grid.displayedRowCount - 1
        case .wheelUp: screen.viewport.scrollBody(by: -3); screen.current -= 3
        case .wheelDown: screen.viewport.scrollBody(by: 3); screen.current += 3
        case .character("s"), .character("S"):
            let adding = event == .character("S")
            sort(grid.columns[screen.column].identifier, adding: adding)
        case .click(let x, let y, let shift):
            if y == 0, let c = screen.column(atX: x) {
                screen.column = c
                sort(grid.columns[c].identifier, adding: shift)
            } else if y >= 2 {
                let rows = screen.visibleRows
                let line = y - 2
                if line < grid.pinnedTopCount + min(screen.bodyLines, rows.count) , line < rows.count { screen.current = rows[line] }
            }
        case .character("/"): searching = ""
        case .character("p"):
            if case .source(let row)? = grid.displayedRow(at: screen.current) {
                do {
                    try grid.pin(.row(row), at: .bottom)
                    screen.message = "row pinned to the bottom"
                } catch { screen.message = "\(error)" }
            }
        default: break
        }
        return true
    }

    mutating func sort(_ column: String, adding: Bool) {
        let clock = ContinuousClock()
        do {
            let elapsed = try clock.measure { () throws in try screen.grid.clickHeader(column, addingKey: adding) }
            let ms = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
            screen.message = String(format: "sorted in %.0f ms", ms)
        } catch {
            screen.message = "\(error)"
        }
    }

    /// Moves to the next row (after the current one, wrapping) whose cell in the current column
    /// contains `query`.
    mutating func find(_ query: String) {
        guard !query.isEmpty else { return }
        let grid = screen.grid
        if let index = grid.displayIndex(ofRowContaining: query, column: screen.column, after: screen.current) {
            screen.current = index
            screen.message = "found \"\(query)\""
            return
        }
        screen.message = "no \"\(query)\" in \(grid.columns[screen.column].title)"
    }
}
