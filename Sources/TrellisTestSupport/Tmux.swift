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
    ///
    /// tmux's server exits when its last session ends: a session started at that moment (another
    /// test's ended, or this one's old one was just killed) is refused with "server exited
    /// unexpectedly". The start is tried again then, up to five times, and the session must exist.
    public func start(_ command: String, in directory: String, width: Int = 100, height: Int = 24) throws {
        try tmux(["kill-session", "-t", "=" + session])  // "=": this name exactly, never a prefix of another
        let arguments = [
            Self.path!, "new-session", "-d", "-s", session, "-x", String(width), "-y", String(height),
            "cd '\(directory)' && \(command); echo EXIT=$?; stty -a | grep -o 'icanon\\|-icanon' | head -1; sleep 60",
        ]
        var last = ""
        for attempt in 0..<5 {
            if attempt > 0 { usleep(100_000) }
            let started = try ChildProcess.run(arguments, captureOutput: true, mergeStandardError: true, timeout: 30)
            if started.status == 0,
                try ChildProcess.run([Self.path!, "has-session", "-t", "=" + session], captureOutput: false, timeout: 30).status == 0
            {
                return
            }
            last = started.output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        throw ChildProcess.SpawnError(description: "tmux could not start session \(session) in five tries: \(last)")
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
    public func kill() { _ = try? tmux(["kill-session", "-t", "=" + session]) }

    /// Streams what the program writes to the terminal from now on (tmux's `pipe-pane` into a
    /// FIFO), for timing: a test blocks on the stream instead of polling the screen, so that it
    /// takes no processor time from the program while it works and sees its output the moment
    /// tmux does.
    public func outputStream() throws -> OutputStream {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-tmux-\(session)-\(UUID().uuidString).fifo").path
        guard mkfifo(fifo, 0o600) == 0 else { throw ChildProcess.SpawnError(description: "mkfifo: \(String(cString: strerror(errno)))") }
        let fd = open(fifo, O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else { throw ChildProcess.SpawnError(description: "open \(fifo): \(String(cString: strerror(errno)))") }
        try tmux(["pipe-pane", "-t", session, "-o", "cat > '\(fifo)'"])
        return OutputStream(fd: fd, path: fifo)
    }

    /// The bytes a pane writes, as they come.
    public final class OutputStream: @unchecked Sendable {
        let fd: Int32
        let path: String
        private var pending: [UInt8] = []

        init(fd: Int32, path: String) {
            self.fd = fd
            self.path = path
        }

        deinit {
            close(fd)
            unlink(path)
        }

        /// Drops what was written so far.
        public func drain() {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while buffer.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }) > 0 {}
            pending = []
        }

        /// Blocks until the pane has written `text` (since the last call), or `seconds` pass;
        /// returns whether it came.
        public func wait(for text: String, seconds: Double = 20) -> Bool {
            let needle = Array(text.utf8)
            let deadline = Date().addingTimeInterval(seconds)
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                if let at = Self.find(needle, in: pending) {
                    pending.removeSubrange(0..<(at + needle.count))
                    return true
                }
                let left = deadline.timeIntervalSinceNow
                guard left > 0 else { return false }
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                _ = poll(&poller, 1, Int32(min(left, 1) * 1000) + 1)
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    pending.append(contentsOf: buffer[0..<count])
                } else if count == 0 {
                    usleep(1_000)  // no writer yet, or it closed: the FIFO reads as empty
                }
            }
        }

        static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
            guard !needle.isEmpty, needle.count <= haystack.count else { return nil }
            for i in 0...(haystack.count - needle.count) where haystack[i] == needle[0] {
                if haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            }
            return nil
        }
    }
}

extension Array where Element == String {
    /// Line `index` of a screen, or an empty line when the screen has fewer: a terminal that did
    /// not draw in time fails the test's expectations instead of trapping the test process.
    public subscript(line index: Int) -> String { indices.contains(index) ? self[index] : "" }
}
