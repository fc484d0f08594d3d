import Foundation

/// Where a command reads and writes: captured in tests, the process's streams in the executable.
public struct CommandIO {
    /// What the command printed to standard output.
    public var stdout = ""
    /// What the command printed to standard error.
    public var stderr = ""
    /// Reads all of standard input.
    public var readStandardInput: () -> Data
    /// The directory relative paths are resolved against.
    public var currentDirectory: URL

    /// Creates an IO context. By default, standard input is empty and paths are relative to the
    /// process's working directory.
    public init(standardInput: @escaping () -> Data = { Data() },
                currentDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) {
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
        let url = url(for: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw .failure("no such file '\(path)'")
        }
        if isDirectory.boolValue { throw .failure("'\(path)' is a directory; expected a file") }
        do { return try Data(contentsOf: url) } catch { throw .failure("cannot read '\(path)': \(error.localizedDescription)") }
    }

    /// Writes `text` to the file `path` (`-` is standard output), all at once.
    mutating func write(_ text: String, to path: String?) throws(CommandError) {
        guard let path, path != "-" else { stdout += text; return }
        do {
            try Data(text.utf8).write(to: url(for: path), options: .atomic)
        } catch {
            throw .failure("cannot write '\(path)': \(error.localizedDescription)")
        }
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
}

/// An error that ends a command, with the message printed after `Error: `.
public enum CommandError: Error, Equatable {
    /// A usage error: the command's usage line and help hint follow the message.
    case usage(String)
    /// Invalid input data.
    case data(String)
    /// A runtime failure.
    case failure(String)

    var status: ExitStatus {
        switch self {
        case .usage: return .usage
        case .data: return .dataError
        case .failure: return .failure
        }
    }

    var message: String {
        switch self {
        case .usage(let m), .data(let m), .failure(let m): return m
        }
    }
}
