import Foundation
import TrellisGrid
import TrellisRender
import TrellisSources

/// `trellis view FILE.csv | FILE.sqlite --table T | postgresql://… --table T`: the grid in the
/// terminal — header row, frozen first column, pinned and summary rows, virtual scrolling, keys
/// and the mouse wheel, header clicks — restoring the terminal on every way out.
enum ViewCommand {
    static let definition = CommandDefinition(
        name: "view",
        overview: "Browse and sort a table in the terminal.",
        arguments: [("file", "A CSV file, an SQLite database or a postgresql:// URL (with --table or --query).")],
        options: [
            OptionDefinition(names: ["--table"], valueName: "name", help: "The table of the database to show.")
        ] + CSVReading.options + [
            OptionDefinition(names: ["--query"], valueName: "sql", help: "The SELECT whose rows to show."),
            OptionDefinition(names: ["--by"], valueName: "key", help: "Start sorted by this key (as trellis sort's).", repeatable: true),
            OptionDefinition(
                names: ["--pin-bottom"], valueName: "column=value",
                help: "Pin the rows whose COLUMN reads VALUE to the bottom (the 平均 row).", repeatable: true),
            OptionDefinition(names: ["--pin-top"], valueName: "column=value", help: "Pin matching rows to the top.", repeatable: true),
            OptionDefinition(
                names: ["--group-by"], valueName: "column",
                help:
                    "Keep subtotal groups together (as trellis sort's; COLUMN,DETAIL for\nSQL's ROLLUP shape; default: found in the file when it has\nsubtotal rows)."
            ),
            OptionDefinition(names: ["--no-groups"], valueName: nil, help: "Sort every row together, subtotal rows too."),
        ] + SortCommand.definition.options.filter { ["--locale", "--nulls", "--type"].contains($0.key) } + [
            .help
        ],
        discussion: """
            KEYS (? or F1 shows them all): arrows (or h j k l) move (left and right across
            columns), Page Up/Down, Home/End (gg and G too), the mouse wheel scrolls, gh / gl go to
            the first / last column, : goes to a row number; s cycles the current column's sort (S
            adds it as a further key), a click on a header does the same (shift-click adds), [ and ]
            sort by it ascending and descending (g[ and g] add it); a key that does nothing says so; / finds the next row whose cell in the current column contains the
            text typed, as written, and n / N find it again down / up, going round the ends; p pins
            the current row to the bottom and p or P on a pinned row unpins it (a --pin-bottom value
            pin goes whole); < and > narrow and widen the current column, _ fits it to its widest
            cell on screen, - hides it and + shows every hidden column; F opens the current column's
            values (count, percent, a bar; sortable, in the column's sort order) and Enter on one the
            rows holding it; I describes every column (count, blanks, distinct, min, max, mean,
            median) and Enter goes to one; Tab shows a workbook's next sheet (Shift-Tab the one
            before); q goes back from a view or quits; w shows the file's warnings; Ctrl-Z suspends
            (fg resumes); Ctrl-C quits. e edits the current cell (Enter keeps it, Esc does not; the row
            stays until the next sort), U undoes, Ctrl-S saves to the file (after a y) or to a name
            typed, every byte but the edited cells' as the file had them — an SQLite table's edited
            cells by UPDATE in one transaction (after a y); q with edits not saved asks.
            Ctrl-H shows the keys too, as in VisiData; # % $ ~ @ read the current column as integers,
            decimals, amounts, text or dates (the rows stay until the next sort); Space runs a command by name (sort-desc, freq-col, …). The status line keeps "? help · q quit" at every width. The current column's title is in reverse video, its cell in the
            current row underlined.

            A CSV file of 16 MB or more shows its first lines at once while the rest is read; keys
            work on the rows read (the status line says so) until the whole file takes their place,
            keeping the sort, the pins, the current row and column. Over a database, a sort that
            takes longer than a tenth of a second shows how long it has taken; Esc stops it and the
            rows stay as they were.

            The terminal is restored on every exit — q, Ctrl-C, an error, SIGTERM, SIGHUP — and while
            the viewer is suspended.

            EXIT STATUS: as trellis sort's (0, 64, 65, 66, 69, 75, 77): q quits with 0; and 130 for
            Ctrl-C (typed, or SIGINT from elsewhere), 129 for SIGHUP, 143 for SIGTERM.
            """)

    static func run(_ arguments: [String], io: inout CommandIO) throws(CommandError) {
        let parsed = try definition.parse(arguments)
        guard let path = parsed.positionals.first else { throw CommandError(.missingArgument("<file>")) }
        guard isatty(STDOUT_FILENO) == 1, isatty(STDIN_FILENO) == 1 else {
            throw CommandError(
                .rule(
                    "trellis view draws on a terminal, and this output is not one; for a file or a pipe use "
                        + "trellis sort \(Excerpt.of(path)) --format text"))
        }
        #if canImport(Glibc)
            // A sort of a million rows allocates and frees buffers of megabytes: kept in the heap
            // instead of returned to the system, the next sort reuses their pages instead of
            // faulting in fresh zeroed ones. (glibc's mallopt, which the Swift overlay does not declare.)
            if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") {
                typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
                let mallopt = unsafeBitCast(symbol, to: MallOpt.self)
                _ = mallopt(-3, 256 << 20)  // M_MMAP_THRESHOLD
                _ = mallopt(-1, 512 << 20)  // M_TRIM_THRESHOLD
            }
        #endif
        var options = try ViewOptions(parsed, input: path)
        // A workbook's sheets, one after another as Tab asks.
        while let next = try show(path, options, io: &io) {
            // The keys, pins, types and header row given name the first sheet's columns and rows.
            options.reading.sheet = next
            options.reading.headerRow = nil
            options.keys = []
            options.pins = []
            options.groupBy = nil
            options.types = [:]
        }
    }

    /// Shows the rows `options` name until the viewer is quit; the sheet of the workbook to show
    /// next when Tab asked for one.
    static func show(_ path: String, _ options: ViewOptions, io: inout CommandIO) throws(CommandError) -> String? {
        // A large CSV file: its first lines now, the rest read while they are shown.
        let started = options.readsDatabase ? nil : BackgroundRead.start(path, types: options.types, reading: options.reading, io: io)
        let source: GridDataSource
        if let started {
            source = started.head
        } else {
            source = try io.openSource(path, table: options.table, query: options.query, types: options.types, reading: options.reading, command: "view")
        }
        let grid = DataGrid(bound: source)
        let names = ColumnNames(source)
        var listNotes: [String] = []
        do {
            var pins: [DisplayOrder.Pin] = []
            for (option, edge, text) in options.pins {
                let (column, value) = try SortCommand.split(text, at: "=", option: "\(option) <column=value>", example: "组号=平均")
                pins.append(DisplayOrder.Pin(.matching(column: try names.resolve(column, in: "\(option) \(text)"), value: value), at: edge))
            }
            let keys = try options.keys.map { (text: String) throws(CommandError) -> SortKey in
                try SortCommand.key(text, names: names, locale: options.locale, nulls: options.nulls)
            }
            // A header sort (s, a click) sorts as --by would: by the locale, blanks where asked.
            let locale = options.locale, nulls = options.nulls
            grid.headerKey = { column in
                SortKey(column, comparator: locale.map { .text(.localized($0)) } ?? .standard, nulls: nulls)
            }
            // Subtotal groups stay together: rows sort within them, as trellis sort does.
            let grouping =
                try options.groupBy.map { (given: String) throws(CommandError) -> RowGrouping in
                    try SortCommand.givenGrouping(given, names: names)
                } ?? (options.findsGroups ? RowGrouping.detect(in: source) : nil)
            var plan = SortPlan(keys: keys, pins: pins, grouping: grouping)
            listNotes = SortCommand.listedKeys(&plan, source: source)
            try grid.apply(plan)
        } catch {
            throw CommandError.from(error)
        }
        warmHeap(rows: grid.rowCount)
        var screen = GridScreen(grid: grid, width: 80, height: 24)
        let rowNumber = SortCommand.rowNumbering(source)
        screen.warnings = names.notes + grid.typeWarnings.map { $0.described(rowNumber: rowNumber) } + listNotes
        if let grouping = grid.grouping, let note = SortCommand.groupingNote(grid, grouping, given: options.groupBy != nil) {
            screen.warnings.append(note)
        } else if let hint = SortCommand.unpinnedSummaryHint(grid, rowNumber: rowNumber) {
            // As trellis sort says it: a sort here would move that row into the body.
            screen.warnings.append("hint: " + hint)
        }
        let terminal = Terminal()
        terminal.start()
        defer { terminal.restore() }
        var loop = ViewLoop(screen: screen)
        loop.notes = names.notes
        loop.background = started?.read
        loop.workingDirectory = io.currentDirectory
        // Edits are saved as a CSV file, or to an SQLite table by UPDATE (its staged cells); a
        // workbook's sheet, a query's rows or a server's table is not written from here.
        if source is StagingDataSource {
            loop.saveRefusal = nil
        } else if options.readsDatabase {
            loop.saveRefusal =
                options.query != nil
                ? "a query's rows are not a table's: they are not edited or saved here (trellis sort --query … -o writes them to a file)"
                : "a database server's table is opened read-only here: its cells are not edited or saved by trellis view"
        } else if (source as? Table)?.origin is SheetOrigin {
            loop.saveRefusal = "a workbook's edits are not saved from trellis view: trellis sort -o writes a workbook back"
        } else if path != "-" {
            loop.sourcePath = path
        }
        let opened = path == "-" ? nil : FileStamp(io.url(for: path).path)
        let directory = io.currentDirectory
        loop.saveFile = { grid, target throws(CommandError) -> String in
            try Self.save(grid, to: target, source: path == "-" ? nil : path, opened: opened, directory: directory)
        }
        // A workbook's sheets that hold tables, for Tab.
        if let origin = (source as? Table)?.origin as? SheetOrigin {
            let sheets = origin.workbook.sheets.enumerated().filter { $0.element.notATable == nil }
            loop.sheetNames = sheets.map(\.element.name)
            loop.sheetIndex = sheets.firstIndex { $0.offset == origin.sheet } ?? 0
        }
        loop.run(on: terminal)
        terminal.restore()
        io.stderr += loop.standardError
        if loop.interrupted { throw .interrupted }
        return loop.switchToSheet.map { loop.sheetNames[$0] }
    }

    /// Writes the table of `grid` to `target`: its rows in the file's order, each record the
    /// file held copied as it was but for the cells edited (written quoted where they need it),
    /// in the file's encoding, byte order mark, delimiter and line breaks, with the lines above
    /// the header and after the rows; by the rules of `-o` (through links, a read-only file
    /// refused, made whole beside it and renamed into place). The file read is not replaced when
    /// it changed on disk since it was read. Says what it did.
    static func save(_ grid: DataGrid, to target: String, source: String?, opened: FileStamp?, directory: URL) throws(CommandError) -> String {
        guard let table = grid.source as? Table else {
            throw CommandError(.rule("only a table read from a file is saved from trellis view"))
        }
        var io = CommandIO(currentDirectory: directory)
        if let source, let opened {
            let sourcePath = io.url(for: source).path
            // (The same file by its device and inode, through links: a name that is another file's is not.)
            if SortCommand.sameFile(sourcePath, io.url(for: target).path), FileStamp(sourcePath) != opened {
                throw .data("\(Excerpt.of(source)) changed on disk since trellis view read it: save under another name")
            }
        }
        let inFileOrder = DataGrid(bound: table)
        try io.stream(to: target, encoding: table.csvFormat.encoding) { out throws(CommandError) in
            GridRenderer.writeCSV(inFileOrder, neutralizeFormulas: false, to: out)
        }
        let cells = table.rawRecords.map { $0.changedCells.values.reduce(0) { $0 + $1.count } }
        return "saved \(Excerpt.of(target))" + (cells.map { " (\($0) edited cell\($0 == 1 ? "" : "s"), every other byte as it was)" } ?? "")
    }

    /// Touches, once, as much memory as a sort of `rows` rows uses and gives it back to the heap
    /// (which keeps it, as set above): the first sort then runs in pages already mapped, as
    /// every later one does, instead of faulting in zeroed pages (`Benchmarks/History.md`).
    static func warmHeap(rows: Int) {
        // Below the mmap threshold set above: a larger block would be mapped and unmapped again.
        let bytes = min(rows * 48, 200 << 20)
        guard bytes > 1 << 20, let block = malloc(bytes) else { return }
        memset(block, 0, bytes)
        free(block)
    }
}

/// What a file was when it was read (its size, modification time and inode): a file replaced or
/// written since is another stamp.
struct FileStamp: Equatable {
    var size: Int64
    var modified: timespec
    var inode: UInt64

    init?(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        size = Int64(info.st_size)
        modified = info.st_mtim
        inode = UInt64(info.st_ino)
    }

    static func == (a: FileStamp, b: FileStamp) -> Bool {
        a.size == b.size && a.inode == b.inode && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
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
        signal(SIGTERM) { _ in
            Terminal.restoreNow(); _exit(143)
        }
        signal(SIGHUP) { _ in
            Terminal.restoreNow(); _exit(129)
        }
        signal(SIGINT) { _ in
            Terminal.restoreNow(); _exit(130)
        }
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

    static func write(_ text: String, to descriptor: Int32 = STDOUT_FILENO) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
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

    /// The next bytes typed, or `nil` when a resize interrupted the wait (or, with `timeout`
    /// in milliseconds, when nothing came within it).
    func read(timeout: Int32? = nil) -> [UInt8]? {
        if let timeout {
            var poll = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            guard Foundation.poll(&poll, 1, timeout) > 0 else { return nil }
        }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = Foundation.read(STDIN_FILENO, &buffer, 4096)
        if n < 0 { return errno == EINTR ? nil : [] }
        return Array(buffer.prefix(n))
    }
}
