import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a program for a test and waits for it with `waitpid`, closing every descriptor above the
/// standard three in the child.
///
/// Foundation's `Process` is not used: a test that starts a daemon (tmux's server, a browser's
/// helpers, a database server) through it hands the daemon every pipe other tests have open at
/// that moment, so their reads never end; and its exit monitoring was seen to miss a child's exit,
/// leaving `waitUntilExit` asleep beside a zombie. Here each child gets /dev/null or its own pipe
/// as its standard descriptors and nothing else, and a deadline ends a child that hangs.
public enum ChildProcess {
    public struct Result: Sendable {
        /// The exit status, 128 + the signal for a child a signal ended, -1 when it timed out.
        public var status: Int32
        /// What it wrote to standard output (and standard error, when merged).
        public var output: String
        public var timedOut: Bool { status == -1 }
    }

    public struct SpawnError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs `arguments[0]` (a path) with the rest as its arguments.
    /// - Parameters:
    ///   - captureOutput: read standard output back; otherwise it goes to /dev/null.
    ///   - mergeStandardError: standard error goes where standard output goes; otherwise /dev/null.
    ///   - timeout: seconds until the child is killed and `status` is -1.
    public static func run(
        _ arguments: [String], captureOutput: Bool = true, mergeStandardError: Bool = false,
        environment: [String: String]? = nil, timeout: Double = 600
    ) throws -> Result {
        precondition(!arguments.isEmpty, "a program to run")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var fds: [Int32] = [-1, -1]
        if captureOutput {
            guard pipe(&fds) == 0 else { throw SpawnError(description: "pipe: \(String(cString: strerror(errno)))") }
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if captureOutput {
            posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        if mergeStandardError {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        closeFrom(&actions, 3)
        let environmentList: [String] =
            environment.map { $0.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } }
            ?? ProcessInfo.processInfo.environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        var cEnvironment: [UnsafeMutablePointer<CChar>?] = environmentList.map { strdup($0) } + [nil]
        defer {
            for p in cArguments { free(p) }
            for p in cEnvironment { free(p) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, &cArguments, &cEnvironment)
        if captureOutput { close(fds[1]) }
        guard spawned == 0 else {
            if captureOutput { close(fds[0]) }
            throw SpawnError(description: "cannot run \(arguments[0]): \(String(cString: strerror(spawned)))")
        }
        let deadline = Date().addingTimeInterval(timeout)
        var output: [UInt8] = []
        var timedOut = false
        if captureOutput {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            reading: while true {
                let left = deadline.timeIntervalSinceNow
                if left <= 0 { timedOut = true; break }
                var poller = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
                let ready = poll(&poller, 1, Int32(min(left, 1) * 1000) + 1)
                if ready < 0 && errno == EINTR { continue }
                if ready == 0 { continue }
                let count = buffer.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break reading }
                output.append(contentsOf: buffer[0..<count])
            }
            close(fds[0])
        }
        var status: Int32 = 0
        while true {
            let done = waitpid(pid, &status, timedOut ? 0 : WNOHANG)
            if done == pid { break }
            if done < 0 && errno != EINTR { break }
            if !timedOut && Date() >= deadline {
                timedOut = true
                kill(pid, SIGKILL)
                continue
            }
            if done == 0 { usleep(2_000) }
        }
        if timedOut {
            kill(pid, SIGKILL)
            return Result(status: -1, output: String(decoding: output, as: UTF8.self))
        }
        let signal = status & 0x7f
        return Result(status: signal == 0 ? (status >> 8) & 0xff : 128 + signal, output: String(decoding: output, as: UTF8.self))
    }

    /// The first executable of `names` found on `PATH` or in the usual places, or nil.
    /// Starts `arguments[0]` (a path) with the rest as its arguments and returns at once: its
    /// standard output to /dev/null, its standard error to the file `standardError`. The caller
    /// signals it and waits for it (`waitpid`); `nil` when it could not be started.
    public static func start(_ arguments: [String], standardError: String) -> pid_t? {
        var pid: pid_t = 0
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, standardError, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        closeFrom(&actions, 3)
        var argv = arguments.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        return posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ) == 0 ? pid : nil
    }

    public static func find(_ names: [String], extra: [String] = ["/usr/bin", "/bin", "/usr/local/bin"]) -> String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + extra
        for name in names {
            for directory in path where FileManager.default.isExecutableFile(atPath: directory + "/" + name) {
                return directory + "/" + name
            }
        }
        return nil
    }

    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), looked up at run time
    /// because the Swift overlay does not declare it; without it, the open descriptors are listed.
    private static func closeFrom(_ actions: inout posix_spawn_file_actions_t, _ first: Int32) {
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") {
            let function = unsafeBitCast(symbol, to: CloseFrom.self)
            if function(&actions, first) == 0 { return }
        }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.compactMap(Int32.init) ?? []
        for fd in open where fd >= first && fcntl(fd, F_GETFD) >= 0 && fcntl(fd, F_GETFD) & FD_CLOEXEC == 0 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
    }
}
