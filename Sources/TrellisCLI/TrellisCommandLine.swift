import CBuildInfo
import Foundation
import TrellisGrid
import TrellisSQL

/// The `trellis` command line as a library: `run` takes the arguments (without the program name)
/// and an IO context and returns the exit status, so every command is tested in-process.
public enum TrellisCommandLine {
    /// The version `trellis --version` prints.
    public static let version = "0.1.0"

    /// The commit the program was built from, when its build said (`Packaging/build-binary`
    /// does); `nil` for a plain `swift build`.
    public static var commit: String? {
        let commit = String(cString: trellis_build_commit())
        return commit.isEmpty ? nil : commit
    }

    /// What `trellis --version` prints: the version and the commit.
    static var versionLine: String {
        "trellis \(version) (" + (commit.map { "commit \($0)" } ?? "commit not recorded: a build made without Packaging/build-binary") + ")"
    }

    static let overview = "Headless collection-view layouts and sortable data grids."

    static var commands:
        [(
            name: String, summary: String, run: ([String], inout CommandIO) throws(CommandError) -> Void,
            definition: CommandDefinition
        )]
    {
        [
            ("layout", LayoutCommand.definition.overview, LayoutCommand.run, LayoutCommand.definition),
            ("sort", SortCommand.definition.overview, SortCommand.run, SortCommand.definition),
            ("view", ViewCommand.definition.overview, ViewCommand.run, ViewCommand.definition),
            ("port", PortCommand.definition.overview, PortCommand.run, PortCommand.definition),
            ("demo", DemoCommand.definition.overview, DemoCommand.run, DemoCommand.definition),
        ]
    }

    static var help: String {
        var out = "OVERVIEW: \(overview)\n\nUSAGE: trellis <subcommand>\n\nOPTIONS:\n"
        out += CommandDefinition.row("--version", "Show the version and the commit it was built from.")
        out += CommandDefinition.row("--generate-completion-script <shell>", "Print a completion script for bash, zsh or fish.")
        out += CommandDefinition.row("--generate-man-page", "Print the manual page, trellis(1), in roff.")
        out += CommandDefinition.row("-h, --help", "Show help information.")
        out += "\nSUBCOMMANDS:\n"
        for command in commands { out += CommandDefinition.row(command.name, command.summary) }
        out += CommandDefinition.row("help", "Show help for a subcommand.")
        out += "\n" + CommandError.statusTable.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") + "\n"
        out += "\n  See 'trellis help <subcommand>' for detailed help.\n"
        return out
    }

    /// What the `trellis` program does with signals, once, before it runs a command: Ctrl-C,
    /// SIGTERM and SIGHUP remove the temporary files and folders a command made
    /// (``TemporaryPaths``: a partial output, run files, a kept standard input) and exit with
    /// 128 + the signal's number; a file-size limit (`ulimit -f`) fails the write that passes it
    /// (EFBIG, "File too large") instead of killing the process, so that the command removes what
    /// it made and says why. The signals are unblocked, as a parent may have left them blocked
    /// (children inherit the mask). The viewer sets its own while it runs.
    public static func installSignalHandlers() {
        var handled = sigset_t()
        sigemptyset(&handled)
        for s in [SIGINT, SIGTERM, SIGHUP, SIGXFSZ] { sigaddset(&handled, s) }
        sigprocmask(SIG_UNBLOCK, &handled, nil)
        signal(SIGINT) { _ in
            TemporaryPaths.removeAll(); _exit(130)
        }
        signal(SIGTERM) { _ in
            TemporaryPaths.removeAll(); _exit(143)
        }
        signal(SIGHUP) { _ in
            TemporaryPaths.removeAll(); _exit(129)
        }
        signal(SIGXFSZ, SIG_IGN)
    }

    /// Runs `trellis` with `arguments` and returns the exit status.
    public static func run(_ arguments: [String], io: inout CommandIO) -> Int32 {
        guard let first = arguments.first else {
            io.stderr += "Error: Missing subcommand.\n\n" + help
            return ExitStatus.usage.rawValue
        }
        switch first {
        case "-h", "--help":
            io.stdout += help
            return ExitStatus.success.rawValue
        case "--version":
            io.stdout += versionLine + "\n"
            return ExitStatus.success.rawValue
        case "--generate-man-page":
            guard arguments.count == 1 else {
                return fail(.usage("'--generate-man-page' takes nothing; it prints the manual page, trellis(1)"), command: nil, io: &io)
            }
            io.stdout += ManPage.page(version: version)
            return ExitStatus.success.rawValue
        case "--generate-completion-script":
            guard arguments.count == 2, let script = CompletionScripts.script(for: arguments[1]) else {
                let given = arguments.count > 1 ? "'\(Excerpt.of(arguments[1]))'" : "nothing"
                return fail(.usage("'--generate-completion-script' takes bash, zsh or fish, not \(given)"), command: nil, io: &io)
            }
            io.stdout += script
            return ExitStatus.success.rawValue
        case "--complete-columns":
            // The completion scripts' plumbing, left out of the help.
            do {
                try CompletionScripts.columns(Array(arguments.dropFirst()), io: &io)
                return ExitStatus.success.rawValue
            } catch {
                return fail(error, command: nil, io: &io)
            }
        case "help":
            guard arguments.count > 1 else { io.stdout += help; return ExitStatus.success.rawValue }
            guard let command = commands.first(where: { $0.name == arguments[1] }) else {
                return fail(.usage(unknownCommand(arguments[1])), command: nil, io: &io)
            }
            io.stdout += command.definition.help
            return ExitStatus.success.rawValue
        default:
            guard let command = commands.first(where: { $0.name == first }) else {
                return fail(.usage(unknownCommand(first)), command: nil, io: &io)
            }
            let rest = Array(arguments.dropFirst())
            if rest.contains("-h") || rest.contains("--help"), !rest.contains("--") {
                io.stdout += command.definition.help
                return ExitStatus.success.rawValue
            }
            // What the command says on standard error never carries a password from its arguments,
            // in any spelling libpq takes (ConnectionSecrets).
            let secrets = rest.flatMap(ConnectionSecrets.passwords(in:))
            let said = io.stderr.endIndex
            defer {
                let added = String(io.stderr[said...])
                if !added.isEmpty { io.stderr.replaceSubrange(said..., with: ConnectionSecrets.redact(added, secrets: secrets)) }
            }
            do {
                try command.run(rest, &io)
                return ExitStatus.success.rawValue
            } catch {
                return fail(error, command: command.definition, io: &io)
            }
        }
    }

    static func unknownCommand(_ name: String) -> String {
        var message = "Unknown subcommand '\(name)'"
        if let guess = closest(name, in: commands.map(\.name) + ["help"]) { message += "; did you mean '\(guess)'?" }
        return message
    }

    static func fail(_ error: CommandError, command: CommandDefinition?, io: inout CommandIO) -> Int32 {
        // Ctrl-C ended it: the user knows why; nothing is printed.
        if case .interrupted = error { return error.status.rawValue }
        io.stderr += "Error: \(error.message)\n"
        if case .usage = error {
            if let command {
                io.stderr += "Usage: \(command.shortUsage)\n  See 'trellis \(command.name) --help' for more information.\n"
            } else {
                io.stderr += "Usage: trellis <subcommand>\n  See 'trellis --help' for more information.\n"
            }
        }
        return error.status.rawValue
    }
}
