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
        guard let out = try run("bash", """
            source \(file.path)
            COMP_WORDS=(trellis so); COMP_CWORD=1; _trellis; echo "${COMPREPLY[*]}"
            COMP_WORDS=(trellis sort --pin-b); COMP_CWORD=2; _trellis; echo "${COMPREPLY[*]}"
            COMP_WORDS=(trellis sort --nulls ""); COMP_CWORD=3; _trellis; echo "${COMPREPLY[*]}"
            """) else { return }
        #expect(out.split(separator: "\n").map(String.init) == ["sort", "--pin-bottom", "last first smallest"])
    }

    @Test("fish completes subcommands, options and their values")
    func fish() throws {
        let (_, text) = script("fish")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-completion-\(UUID().uuidString).fish")
        try text.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        guard let out = try run("fish", "source \(file.path); complete -C 'trellis la'; complete -C 'trellis sort --recompute '") else { return }
        let lines = out.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        #expect(lines == ["layout", "count", "max", "mean", "min", "sum"])
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
