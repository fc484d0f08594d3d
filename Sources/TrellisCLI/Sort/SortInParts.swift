import Foundation
import TrellisGrid
import TrellisSources
import TrellisText

/// `trellis sort` of a CSV file that needs more memory than it may use (`--memory`, by default
/// half of the machine's): sorted in parts by ``ExternalCSVSort``, with the run files in a folder
/// beside the output, a progress line on a terminal, and nothing left behind on Ctrl-C.
extension SortCommand {
    static let memoryOption = OptionDefinition(
        names: ["--memory"], valueName: "size",
        help: "The memory the sort may use: 512M, 2G, … (default: half of this\n"
            + "machine's). A CSV file or standard input that needs more (about five\n"
            + "times its size; three for a file of 32 MB or more sorted to CSV,\n"
            + "whose records stay in the file) is sorted in parts, runs written to a\n"
            + "folder beside the output and merged: the same output, a progress line\n"
            + "on a terminal.")

    /// A read CSV table takes about this many times its file's size.
    static let bytesPerFileByte = 5
    /// A file sorted to CSV whose records are left in it (``mapFilesFrom``) takes about this many
    /// times its size: its key columns and the sort's work, not its text (the scale group's peaks,
    /// `Benchmarks/Results/scale.json`).
    static let bytesPerMappedFileByte = 3
    /// A CSV file this large or larger, sorted to CSV, is mapped into memory and its records left
    /// in it rather than read whole (``CSV/table(mapped:types:encoding:delimiter:headerRow:dateOrder:reading:splitAbove:)``):
    /// ``Tuning/mapFilesFrom``.
    static var mapFilesFrom: Int { Tuning.current.mapFilesFrom }

    /// Whether a regular file of `size` bytes, read for the columns `columns` selects (a sort to
    /// CSV; `nil`: every column), is mapped and its records left in it.
    static func leavesRecordsInFile(ofSize size: Int, columns: CSV.ColumnSelection?) -> Bool {
        columns != nil && size >= mapFilesFrom
    }

    /// `--memory`, in bytes, and whether it was given.
    static func memory(_ parsed: ParsedArguments) throws(CommandError) -> (bytes: Int, given: Bool) {
        guard let text = parsed.value("--memory") else {
            return (Int(clamping: ProcessInfo.processInfo.physicalMemory / 2), false)
        }
        guard let bytes = size(text), bytes >= 1 << 16 else {
            throw CommandError(.invalidValue(text, option: "--memory <size>", expected: "a size such as 512M or 2G (at least 64K)"))
        }
        return (bytes, true)
    }

    /// `512M`, `2G`, `64K`, `1.5G` or a number of bytes.
    static func size(_ text: String) -> Int? {
        var digits = text.trimmingSpaces().uppercased()
        if digits.hasSuffix("B") { digits.removeLast() }
        if digits.hasSuffix("I") { digits.removeLast() }
        var scale: Double = 1
        if let unit = digits.last, let power = ["K": 1, "M": 2, "G": 3, "T": 4][unit] {
            scale = pow(1024, Double(power))
            digits.removeLast()
        }
        guard let value = Double(digits), value.isFinite, value > 0, value * scale < 9e18 else { return nil }
        return Int(value * scale)
    }

    /// Standard input's bytes up to `limit` (a little more: whole reads), and whether it ended there.
    static func readStandardInput(_ descriptor: Int32, upTo limit: Int) throws(CommandError) -> (bytes: [UInt8], ended: Bool) {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while bytes.count <= limit {
            let n = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .failure("cannot read standard input: \(String(cString: strerror(errno)))")
            }
            if n == 0 { return (bytes, true) }
            bytes += chunk[0..<n]
        }
        return (bytes, false)
    }

    /// Writes `head`, then the rest of `descriptor`, to a new file beside the output (or in the
    /// temporary folder for standard output), which a signal removes too; returns its path.
    static func spool(_ head: [UInt8], rest descriptor: Int32, beside output: String?, io: CommandIO) throws(CommandError) -> String {
        let folder = output.map { io.url(for: $0).deletingLastPathComponent().path } ?? NSTemporaryDirectory()
        guard let (fd, path) = TemporaryPaths.makeFile(in: folder, prefix: ".trellis-input-") else {
            throw .failure("cannot keep standard input in '\(folder)' to sort it in parts: \(String(cString: strerror(errno)))")
        }
        TemporaryPaths.register(path)
        defer { close(fd) }
        func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
            var offset = 0
            while offset < bytes.count {
                let n = Foundation.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 { if errno == EINTR { continue }; return false }
                offset += n
            }
            return true
        }
        var ok = head.withUnsafeBytes(write)
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while ok {
            let n = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; ok = false; break }
            if n == 0 { break }
            ok = chunk.withUnsafeBytes { write(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        }
        if !ok {
            let reason = String(cString: strerror(errno))
            unlink(path)
            TemporaryPaths.unregister(path)
            throw .failure("cannot keep standard input in '\(folder)' to sort it in parts: \(reason)")
        }
        return path
    }

    /// Sorts the CSV file at `path` in parts, as `options` say.
    static func sortInParts(
        _ given: SortOptions, path: String, shownAs shown: String? = nil, fileSize: Int,
        io: inout CommandIO
    ) throws(CommandError) {
        let shownPath = Excerpt.of(shown ?? path, limit: 200)
        let memory = given.memory
        let why =
            "'\(shownPath)' (\(ExternalCSVSort.shownSize(fileSize))) needs more memory than "
            + (memory.given ? "--memory \(given.memoryText ?? "")" : "half of this machine's (\(ExternalCSVSort.shownSize(memory.bytes)))")
            + " to sort at once, so it is sorted in parts"
        if given.format != .csv || given.interactive || given.writesSQLite {
            throw CommandError(
                .rule(
                    "\(why), which writes CSV: add '--format csv' or '-o FILE.csv'"
                        + (memory.given ? ", or give --memory more" : ", or give a larger --memory")))
        }
        let folder = given.output.map { io.url(for: $0).deletingLastPathComponent() } ?? URL(fileURLWithPath: NSTemporaryDirectory())
        var options = ExternalCSVSort.Options(memory: memory.bytes, folder: folder)
        options.types = given.types
        options.encoding = given.reading.encoding
        options.delimiter = given.reading.delimiter
        options.headerRow = given.reading.headerRow
        options.dateOrder = given.reading.dateOrder
        options.outputDelimiter = given.outputDelimiter
        options.outputEncoding = given.outputEncoding
        let progress = reportProgress(on: io.progressDescriptor, what: (path as NSString).lastPathComponent)
        if let progress {
            options.progress = { fraction, rows in progress.draw(fraction, rows) }
        }
        // (A signal removes the run folder and the partial output: `installSignalHandlers`.)
        defer { progress?.clear() }
        let sorter: ExternalCSVSort
        do {
            sorter = try ExternalCSVSort(path: io.url(for: path).path, options: options)
        } catch {
            throw failure(error, shownPath)
        }
        // The columns a sort at once would read (notes on how a column's dates were read are for those).
        let read = columnsRead(given)?(sorter.columns)
        let format = sorter.format
        let names = ColumnNames(sorter.columns, headerLines: sorter.format.headerLines)
        var (plan, pinOptions) = try Self.plan(given, names: names)
        let keys = plan.keys
        // Subtotal groups, named or found in the file's head, are kept in parts as at once.
        if let groupBy = given.groupBy {
            plan.grouping = try givenGrouping(groupBy, names: names, order: given.groupOrder)
        } else if given.findsGroups, case .columns(_, var grouping) = groupedColumns(given, path: io.url(for: path).path),
            ([grouping.column] + (grouping.detail.map { [$0] } ?? [])).allSatisfy({ name in sorter.columns.contains { $0.identifier == name } })
        {
            grouping.order = given.groupOrder
            plan.grouping = grouping
        } else if given.groupOrder != .source {
            throw CommandError(.rule("'--group-order' orders subtotal groups, and the table has none; name them with --group-by COLUMN"))
        }
        var report = ExternalCSVSort.Report()
        try io.stream(to: given.output, encoding: given.outputEncoding ?? format.encoding) { out throws(CommandError) in
            do throws(ExternalSortError) {
                report = try sorter.sort(plan, to: out)
            } catch {
                throw failure(error, shownPath)
            }
        }
        // What a sort at once says as it reads the file, known once the whole file is read.
        let dateNotes = sorter.dateNotes.filter { note in
            read.map { read in read.contains { sorter.columns[$0].identifier == note.column } } ?? true
        }
        // The format as the sort found it (its encoding may have been settled only by reading on).
        noteFormat(sorter.format, columns: sorter.columns, dateNotes: dateNotes, shownPath: shownPath, io: &io)
        if given.groupBy == nil, let grouping = plan.grouping, let groups = report.groups {
            io.stderr +=
                "note: "
                + groupingNote(groups.groups, grandTotals: groups.grandTotals.count, example: groups.firstSubtotalLabel, grouping) + "\n"
        }
        let hint =
            keys.isEmpty
            ? nil
            : sorter.columns.first.flatMap { first in
                unpinnedSummaryHint(rowCount: report.rows, firstColumn: first.identifier, rows: report.edgeRows)
            }
        warn(
            names: names, typeWarnings: report.typeWarnings, unmatchedPins: report.unmatchedPins, pinOptions: pinOptions,
            disagreements: report.summaryDisagreements, unchecked: report.uncheckedSummaryCells,
            notRecomputed: Set(report.groups.map { $0.groups.flatMap(\.subtotals) + $0.grandTotals } ?? []),
            hint: plan.grouping == nil ? hint : nil, io: &io)
    }

    /// An error of a sort in parts as the command line reports it.
    static func failure(_ error: ExternalSortError, _ shownPath: String) -> CommandError {
        switch error {
        case .csv(let csv):
            if case .unknownColumn = csv.problem { return .usage("\(shownPath): \(csv.message)") }
            return .data("\(shownPath): \(csv)")
        case .sort(let sort): return CommandError.from(sort)
        case .io(let message): return .failure(message)
        case .unsupported(let message): return .usage(message)
        }
    }

    /// The notes a CSV file's reading gives: a guessed encoding or delimiter, dates read one way
    /// of two, a title above the header.
    static func noteFormat(_ format: CSVFormat, columns: [Column] = [], dateNotes: [DateOrderNote], shownPath: String, io: inout CommandIO) {
        if format.encodingWasGuessed {
            io.stderr += "note: reading \(shownPath) as \(format.encoding.name) (it is not UTF-8); --encoding names another\n"
        }
        if format.delimiterWasDetected {
            io.stderr +=
                "note: the fields of \(shownPath) are separated by '\(CSVFormat.name(ofDelimiter: format.delimiter))'"
                + (format.delimiter == 0x3B ? " (a comma in a number is its decimal mark)" : "") + "; --delimiter names another\n"
        }
        for note in dateNotes { io.stderr += "warning: \(note)\n" }
        if let line = format.likelyHeaderLine {
            io.stderr +=
                "warning: line 1 of \(shownPath) looks like a title above the header (one cell, then a blank line); "
                + "if the header is line \(line), add --header-row \(line)\n"
        }
        if format.headerLines > 1 {
            let first = 1 + (format.separatorLine == nil ? 0 : 1)
            let last = first + format.headerLines - 1
            io.stderr +=
                "note: lines \(first)–\(last) of \(shownPath) are its header (a row of text over number columns under the first, "
                + "as pandas writes a MultiIndex, or a merged heading over its columns): each column is named by its lines"
                + (columns.first { $0.identifier.contains(" ") }.map { " ('\(Excerpt.of($0.identifier))')" } ?? "")
                + ", or by its last line's name alone where no other column has it; --header-row \(first) reads line \(first + 1) as a row\n"
        }
        if let line = format.footerLine {
            let first = String(decoding: format.trailingLines, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            io.stderr +=
                "note: the lines of \(shownPath) from line \(line) on ('\(Excerpt.of(first))' …) are not rows of the table: "
                + "kept aside and written back after the rows\n"
        }
    }

    /// The progress line of a long sort on a terminal: percent, rows, time so far and an estimate
    /// of the rest, drawn at most five times a second once the sort has taken half a second.
    final class ProgressLine: @unchecked Sendable {
        let descriptor: Int32
        let what: String
        let start = Date()
        private var lastDraw = Date.distantPast
        private var drawn = false
        private let lock = NSLock()

        init(descriptor: Int32, what: String) {
            self.descriptor = descriptor
            self.what = what
        }

        func draw(_ fraction: Double, _ rows: Int) {
            lock.lock()
            defer { lock.unlock() }
            let now = Date()
            let elapsed = now.timeIntervalSince(start)
            guard elapsed > 0.5, now.timeIntervalSince(lastDraw) > 0.2 || fraction >= 1 else { return }
            lastDraw = now
            var line = "\rsorting \(what): \(Int(fraction * 100))%"
            if rows > 0 { line += " · \(rows.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))) rows" }
            line += " · \(Int(elapsed)) s"
            if fraction > 0.05, fraction < 1 { line += " · about \(Int((elapsed * (1 - fraction) / fraction).rounded())) s left" }
            line += "\u{1B}[K"
            Terminal.write(line, to: descriptor)
            drawn = true
        }

        func clear() {
            lock.lock()
            defer { lock.unlock() }
            if drawn { Terminal.write("\r\u{1B}[K", to: descriptor) }
        }
    }

    static func reportProgress(on descriptor: Int32?, what: String) -> ProgressLine? {
        descriptor.map { ProgressLine(descriptor: $0, what: what) }
    }
}
