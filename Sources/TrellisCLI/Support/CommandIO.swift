import Foundation
import TrellisGrid
import TrellisRender
import TrellisText

/// Where a command reads and writes: captured in tests, the process's streams in the executable.
public struct CommandIO {
    /// What the command printed to standard output (all of it, unless
    /// ``standardOutputDescriptor`` is set; then what was not streamed).
    public var stdout = ""
    /// What streamed output (a sorted table, a layout) wrote to standard output, as bytes: output
    /// in an encoding other than UTF-8 is exact here, where ``stdout`` shows it as UTF-8.
    public var stdoutBytes: [UInt8] = []
    /// Where commands stream long output as they produce it (the executable's standard output);
    /// `nil` collects it in ``stdout``.
    public var standardOutputDescriptor: Int32?
    /// What the command printed to standard error.
    public var stderr = ""
    /// Where a long sort draws its progress line as it goes (the executable's standard error,
    /// when it is a terminal); `nil` draws none.
    public var progressDescriptor: Int32?
    /// Reads all of standard input.
    public var readStandardInput: () -> Data
    /// Standard input as a descriptor (the executable's), so that a sort can read more than it
    /// keeps in memory; `nil` reads ``readStandardInput`` whole.
    public var standardInputDescriptor: Int32?
    /// The directory relative paths are resolved against.
    public var currentDirectory: URL

    /// Creates an IO context. By default, standard input is empty and paths are relative to the
    /// process's working directory.
    public init(
        standardInput: @escaping () -> Data = { Data() },
        currentDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    ) {
        self.readStandardInput = standardInput
        self.currentDirectory = currentDirectory
    }

    /// Resolves a command-line path against ``currentDirectory``.
    public func url(for path: String) -> URL {
        path.hasPrefix("/") ? URL(fileURLWithPath: path) : currentDirectory.appendingPathComponent(path)
    }

    /// Reads a file given on the command line (`-` is standard input).
    func read(_ path: String) throws(CommandError) -> Data {
        if path == "-" { return readStandardInput() }
        return Data(try readBytes(path))
    }

    /// Reads a file given on the command line (`-` is standard input) into bytes (``FileBytes``).
    func readBytes(_ path: String) throws(CommandError) -> [UInt8] {
        if path == "-" { return [UInt8](readStandardInput()) }
        do throws(InputError) {
            return try FileBytes.read(path.isEmpty ? "" : url(for: path).path, shown: Excerpt.of(path, limit: 200))
        } catch {
            throw CommandError(error)
        }
    }

    /// Whether an output file without write permission may be replaced (`--force`).
    public var replacesReadOnlyFiles = false

    /// Writes what `produce` writes to the file `path` (`-` or `nil` is standard output) as it is
    /// produced, so that memory stays bounded by the output buffer.
    ///
    /// A file is written as ``OutputFile`` says: through a symbolic link, a read-only file refused
    /// unless ``replacesReadOnlyFiles``, made whole under a temporary name and renamed into place,
    /// its permissions and owner kept, no set-ID bits. A `produce` that throws leaves the old file
    /// as it was, and nothing beside it.
    mutating func stream(
        to path: String?, encoding: TextEncoding = .utf8,
        _ produce: (TextOutput) throws(CommandError) -> Void
    ) throws(CommandError) {
        /// A character the output's encoding cannot hold is the data's; a failed write the system's.
        func failed(_ error: TextOutputError, _ what: String) -> CommandError {
            if let encodingError = error.encoding {
                return .data(
                    "cannot write \(what): \(encodingError); "
                        + "choose another encoding with --output-encoding (utf-8 holds every character)")
            }
            return .failure("cannot write \(what): \(error)")
        }
        guard let path, path != "-" else {
            guard let descriptor = standardOutputDescriptor else {
                let output = TextOutput(encoding: encoding)
                try produce(output)
                do { try output.finish() } catch { throw failed(error, "to standard output") }
                stdoutBytes += output.collected
                stdout += String(decoding: output.collected, as: UTF8.self)
                return
            }
            let output = TextOutput(.fileDescriptor(descriptor), encoding: encoding)
            try produce(output)
            do { try output.finish() } catch { throw failed(error, "to standard output") }
            return
        }
        let shown = Excerpt.of(path, limit: 200)
        guard !path.isEmpty else { throw CommandError(.rule("Invalid value '' for '--output <file>'; name a file, or - for standard output")) }
        if path.hasSuffix("/") {
            throw .failure("cannot write '\(shown)': it names a directory; name a file in it")
        }
        let file = try OutputFile.resolve(url(for: path).path, shown: shown, replacingReadOnly: replacesReadOnlyFiles)
        if case .special = file.kind {
            let descriptor = open(file.path, O_WRONLY | O_TRUNC | O_CLOEXEC)
            guard descriptor >= 0 else { throw .failure("cannot write '\(shown)': \(String(cString: strerror(errno)))") }
            let output = TextOutput(.fileDescriptor(descriptor), encoding: encoding)
            do { try produce(output) } catch { close(descriptor); throw error }
            var reason: String?
            do { try output.finish() } catch {
                if error.encoding != nil { close(descriptor); throw failed(error, "'\(shown)'") }
                reason = error.description
            }
            if close(descriptor) != 0, reason == nil { reason = String(cString: strerror(errno)) }
            if let reason { throw .failure("cannot write '\(shown)': \(reason)") }
            return
        }
        let temporary = try file.makeTemporary()
        let output = TextOutput(.fileDescriptor(temporary.descriptor), encoding: encoding)
        do { try produce(output) } catch {
            file.discard(temporary)
            throw error
        }
        do { try output.finish() } catch {
            file.discard(temporary)
            // A character the encoding cannot hold is the data's; nothing is left behind.
            throw failed(error, "'\(shown)'")
        }
        try file.commit(temporary)
    }

    /// Writes `text` to the file `path` (`-` is standard output), all at once, as
    /// ``stream(to:encoding:_:)`` writes.
    mutating func write(_ text: String, to path: String?) throws(CommandError) {
        guard let path, path != "-" else { stdout += text; stdoutBytes += Array(text.utf8); return }
        guard !path.isEmpty else { throw CommandError(.rule("Invalid value '' for '--output <file>'; name a file, or - for standard output")) }
        try stream(to: path) { $0.write(text) }
    }
}

/// Exit statuses of the `trellis` commands (BSD `sysexits` where one applies).
public enum ExitStatus: Int32, Sendable {
    /// Success, including help.
    case success = 0
    /// A runtime failure: a file that cannot be read or written.
    case failure = 1
    /// A usage error: unknown command or option, missing or malformed argument.
    case usage = 64
    /// Bad input data: malformed JSON or CSV, an invalid spec.
    case dataError = 65
    /// The input does not exist (a file, a database file).
    case noInput = 66
    /// A server that cannot be reached.
    case unavailable = 69
    /// A wait that ran out — a database locked by another program — worth trying again.
    case tempFail = 75
    /// Not allowed: a file that may not be read, a password refused, a table the role may not read.
    case noPermission = 77
    /// Stopped by Ctrl-C (128 + SIGINT, what a shell reports for a program Ctrl-C ended).
    case interrupted = 130
}

/// An error that ends a command, with the message printed after `Error: `.
public enum CommandError: Error, Equatable {
    /// A usage error: the command's usage line and help hint follow the message.
    case usage(String)
    /// Invalid input data.
    case data(String)
    /// A runtime failure.
    case failure(String)
    /// A missing input (66), an unreachable server (69), a wait run out (75), a refusal (77).
    case noInput(String), unavailable(String), tempFail(String), noPermission(String)
    /// Stopped by Ctrl-C (130): nothing more is printed.
    case interrupted

    var status: ExitStatus {
        switch self {
        case .usage: return .usage
        case .data: return .dataError
        case .failure: return .failure
        case .noInput: return .noInput
        case .unavailable: return .unavailable
        case .tempFail: return .tempFail
        case .noPermission: return .noPermission
        case .interrupted: return .interrupted
        }
    }

    var message: String {
        switch self {
        case .usage(let m), .data(let m), .failure(let m), .noInput(let m), .unavailable(let m), .tempFail(let m),
            .noPermission(let m):
            return m
        case .interrupted: return ""
        }
    }

    /// The exit statuses every command shares, for its help.
    static let statusTable = """
        EXIT STATUS (sysexits): 0 success; 1 a file cannot be written; 64 usage error; 65 bad data;
        66 no such input file; 69 a server cannot be reached; 75 a database locked, or a wait
        that ran out (try again); 77 not allowed (a file's permissions, a password, a table's grants).
        """
}

/// The command line's form of the library's typed errors, in one place: which exit status each
/// means, and the help a misspelt column name gets.
extension CommandError {
    /// A library error met while setting up a grid from the command line's options: a bad
    /// column, locale or row is a usage error; anything else is the data's.
    static func from(_ error: any Error) -> CommandError {
        switch error {
        case let error as CommandError: return error
        case let error as SortError:
            if case .unknownColumn(let column, let columns) = error { return unknownColumn(column, in: nil, columns: columns) }
            // A source that failed to give its cells is the data's (or the server's) fault, not the command line's.
            if case .sourceReadFailed = error { return .data(error.description) }
            return .usage(error.description)
        case let error as TableError: return .data(error.description)
        default: return .data("\(error)")
        }
    }

    /// A column the source does not have, named in `option` (`--by 分`): the closest name when one
    /// is close, or the list of columns.
    static func unknownColumn(_ column: String, in option: String?, columns: [String]) -> CommandError {
        var message = "Unknown column '\(Excerpt.of(column))'" + (option.map { " in '\(Excerpt.of($0))'" } ?? "")
        if let guess = closest(column, in: columns) {
            message += "; did you mean '\(Excerpt.of(guess))'?"
        } else {
            message += "; the columns are " + columns.prefix(20).map { "'\(Excerpt.of($0))'" }.joined(separator: ", ")
        }
        return .usage(message)
    }

}

/// The columns of a source as the command line names them: by identifier (a column's name, or
/// `NAME#2` for the second of two columns that share one), or by number (`#3`). Naming a column
/// whose name another shares leaves a note that says which was taken.
final class ColumnNames {
    let identifiers: [String]
    let titles: [String]
    /// What the names given meant, where a reader could take them otherwise (each once).
    private(set) var notes: [String] = []

    /// How many lines the header has (see ``CSVFormat/headerLines``): a column of a header of
    /// several lines is named by all of them (`成绩 语文`), or by its last line's name alone
    /// (`语文`) when no other column has that one.
    let headerLines: Int

    init(_ columns: [Column], headerLines: Int = 1) {
        identifiers = columns.map(\.identifier)
        titles = columns.map(\.title)
        self.headerLines = headerLines
    }

    /// The names of `source`'s columns, with its header's lines.
    convenience init(_ source: GridDataSource) {
        self.init(source.columns, headerLines: (source as? Table)?.csvFormat.headerLines ?? 1)
    }

    /// Whether `text` names a column.
    func names(_ text: String) -> Bool { index(of: text) != nil }

    private func index(of text: String) -> Int? {
        if let c = identifiers.firstIndex(of: text) { return c }
        // `#N`, counted from 1, when no column is called so.
        if text.hasPrefix("#"), let n = Int(text.dropFirst()), n >= 1, n <= identifiers.count { return n - 1 }
        // A header padded with spaces (`金额（元）       `, as exports pad them) is named without
        // them, when one column alone reads so.
        let trimmed = text.trimmingSpaces()
        let padded = identifiers.indices.filter { identifiers[$0].trimmingSpaces() == trimmed }
        if padded.count == 1 && !trimmed.isEmpty { return padded[0] }
        // A column of a header of several lines, by its last line's name.
        guard headerLines > 1, !trimmed.isEmpty else { return nil }
        let last = identifiers.indices.filter { identifiers[$0].split(separator: " ").last.map(String.init) == trimmed }
        return last.count == 1 ? last[0] : nil
    }

    /// The identifier of the column `text` names in `option`; an unknown column is a usage error
    /// that offers the closest name.
    func resolve(_ text: String, in option: String) throws(CommandError) -> String {
        guard let c = index(of: text) else { throw CommandError.unknownColumn(text, in: option, columns: identifiers) }
        // A bare name shared by several columns takes the first: say so, and how to name the others.
        let sharing = titles.indices.filter { titles[$0] == titles[c] }
        if sharing.count > 1, text == titles[c] {
            let note =
                "\(sharing.count) columns are named '\(Excerpt.of(text))': '\(Excerpt.of(text))' is the first (column \(c + 1)); "
                + sharing.dropFirst().map { "'\(Excerpt.of(identifiers[$0]))' (or '#\($0 + 1)')" }.joined(separator: ", ")
                + (sharing.count == 2 ? " names the other" : " name the others")
            if !notes.contains(note) { notes.append(note) }
        }
        return identifiers[c]
    }
}
