import Foundation

/// A terminal for tests: tmux runs a command in a detached session of a given size, keys are
/// sent to it and its screen is read back as text.
public struct Tmux: Sendable {
    /// tmux, or nil (with the reason printed) where it is not installed.
    public static let path: String? = {
        let found = ["/usr/bin/tmux", "/bin/tmux"].first { FileManager.default.isExecutableFile(atPath: $0) }
        if found == nil { print("terminal tests skipped: tmux is not installed") }
        return found
    }()

    public let session: String

    public init(session: String) { self.session = session }

    /// Runs tmux (at most 30 s). Only `capture-pane` is read back.
    @discardableResult
    public func tmux(_ arguments: [String]) throws -> String {
        try ChildProcess.run([Self.path!] + arguments, captureOutput: arguments.first == "capture-pane", timeout: 30).output
    }

    /// Starts `command` in `directory` in a new session of `width` × `height`; when it ends, the
    /// session prints `EXIT=<status>` and whether the terminal is in canonical mode again.
    public func start(_ command: String, in directory: String, width: Int = 100, height: Int = 24) throws {
        try tmux(["kill-session", "-t", session])
        try tmux(["new-session", "-d", "-s", session, "-x", String(width), "-y", String(height),
                  "cd '\(directory)' && \(command); echo EXIT=$?; stty -a | grep -o 'icanon\\|-icanon' | head -1; sleep 60"])
    }

    /// Types keys (tmux's names: `Enter`, `Left`, `C-c`, …), or text as it is with `literal`.
    public func send(_ keys: [String], literal: Bool = false) throws {
        try tmux(["send-keys", "-t", session] + (literal ? ["-l"] : []) + keys)
    }

    /// The screen's lines.
    public func screen() throws -> [String] {
        try tmux(["capture-pane", "-t", session, "-p"]).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Waits until `condition` holds for the screen (or gives up after `seconds`), returning it;
    /// the screen is read every `poll` seconds.
    public func wait(seconds: Double = 20, poll: Double = 0.02, _ condition: ([String]) -> Bool) throws -> [String] {
        let deadline = Date().addingTimeInterval(seconds)
        var lines = try screen()
        while !condition(lines), Date() < deadline {
            usleep(UInt32(poll * 1_000_000))
            lines = try screen()
        }
        return lines
    }

    /// Ends the session.
    public func kill() { _ = try? tmux(["kill-session", "-t", session]) }
}
