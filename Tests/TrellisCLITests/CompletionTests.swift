import Foundation
import Testing
import TrellisCLI
import TrellisTestSupport

/// The completion scripts, run in the shells they are for where those are installed.
@Suite("Completion scripts")
struct CompletionTests {
    func script(_ shell: String) -> (Int32, String) {
        var io = CommandIO(standardInput: { Data() })
        let status = TrellisCommandLine.run(["--generate-completion-script", shell], io: &io)
        return (status, io.stdout)
    }

    /// Runs `command` in `shell`, or `nil` (with the reason printed) when the shell is missing.
    func run(_ shell: String, _ command: String) throws -> String? {
        guard let path = ["/usr/bin/\(shell)", "/bin/\(shell)"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            print("\(shell) completion not run: \(shell) is not installed")
            return nil
        }
        return try ChildProcess.run([path, "-c", command], timeout: 120).output
    }

    @Test("bash completes subcommands, options and their values")
    func bash() throws {
        let (status, text) = script("bash")
        #expect(status == 0)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-completion-\(UUID().uuidString).bash")
        try text.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        guard
            let out = try run(
                "bash",
                """
                source \(file.path)
                COMP_WORDS=(trellis so); COMP_CWORD=1; _trellis; echo "${COMPREPLY[*]}"
                COMP_WORDS=(trellis sort --pin-b); COMP_CWORD=2; _trellis; echo "${COMPREPLY[*]}"
                COMP_WORDS=(trellis sort --nulls ""); COMP_CWORD=3; _trellis; echo "${COMPREPLY[*]}"
                """)
        else { return }
        #expect(out.split(separator: "\n").map(String.init) == ["sort", "--pin-bottom", "last first smallest"])
        // Column names of the file on the line (a CSV file; an SQLite file's table), a `=` after a
        // pin's; `--format` as each command takes it; files quoted and folders marked as files are.
        let trellis = Self.root.appendingPathComponent(".build/debug/trellis").path
        guard FileManager.default.isExecutableFile(atPath: trellis),
            let more = try run(
                "bash",
                """
                cd \(Self.root.path); source \(file.path)
                COMP_WORDS=(\(trellis) sort Examples/groups.csv --nulls last --by ""); COMP_CWORD=6; _trellis; echo "${COMPREPLY[*]}"
                COMP_WORDS=(\(trellis) view Examples/scores.sqlite --table scores --pin-bottom 组); COMP_CWORD=6; _trellis; echo "${COMPREPLY[*]}"
                COMP_WORDS=(\(trellis) layout --format ""); COMP_CWORD=3; _trellis; echo "${COMPREPLY[*]}"
                COMP_WORDS=(\(trellis) sort --format ""); COMP_CWORD=3; _trellis; echo "${COMPREPLY[*]}"
                COMP_WORDS=(\(trellis) sort Examples/gr); COMP_CWORD=2; _trellis; echo "${COMPREPLY[*]}"
                COMP_WORDS=(\(trellis) sort nothing-here.csv --by ""); COMP_CWORD=4; _trellis; echo "[${COMPREPLY[*]}]"
                """)
        else { return }
        #expect(
            more.split(separator: "\n").map(String.init) == [
                "组号 组长 分数 备注", "组号= 组长=", "json svg html", "text csv json html",
                "Examples/groups.csv", "[]",
            ])
        #expect(text.contains("compopt -o filenames"), "folders end in / as bash completes file names")
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("--complete-columns prints a file's column names, and says what is wrong with what it was given")
    func columnNames() {
        var io = CommandIO(currentDirectory: Self.root)
        #expect(TrellisCommandLine.run(["--complete-columns", "Examples/scores.csv"], io: &io) == 0)
        #expect(io.stdout == "组号\n组长\n分数\n备注\n")
        for (arguments, status) in [([String](), Int32(64)), (["missing.csv"], 66), (["a.csv", "b.csv"], 64)] {
            var failed = CommandIO(currentDirectory: Self.root)
            #expect(TrellisCommandLine.run(["--complete-columns"] + arguments, io: &failed) == status, "\(arguments)")
            #expect(failed.stderr.hasPrefix("Error: "))
        }
    }

    @Test("fish completes subcommands, options and their values")
    func fish() throws {
        let (_, text) = script("fish")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-completion-\(UUID().uuidString).fish")
        try text.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        guard let out = try run("fish", "source \(file.path); complete -C 'trellis la'; complete -C 'trellis sort --recompute '") else { return }
        let lines = out.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        #expect(lines == ["layout", "count", "labels", "max", "mean", "min", "sum"])
        // Column names of the file on the line, each command's own formats.
        let trellis = Self.root.appendingPathComponent(".build/debug/trellis").path
        guard FileManager.default.isExecutableFile(atPath: trellis),
            let columns = try run(
                "fish",
                "cd \(Self.root.path); source \(file.path); complete -C '\(trellis) sort Examples/groups.csv --by '; "
                    + "complete -C '\(trellis) view Examples/scores.sqlite --table scores --pin-bottom 组'; "
                    + "complete -C '\(trellis) layout --format '")
        else { return }
        let names = columns.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        #expect(names == ["分数", "备注", "组号", "组长", "组号=", "组长=", "html", "json", "svg"])
    }

    @Test("zsh's script parses; an unknown shell is a usage error")
    func zshAndErrors() throws {
        let (_, text) = script("zsh")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-completion-\(UUID().uuidString).zsh")
        try text.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        if let out = try run("zsh", "zsh -n \(file.path) && echo parsed") { #expect(out == "parsed\n") }
        #expect(script("tcsh").0 == 64)
        #expect(script("").0 == 64)
    }
}
