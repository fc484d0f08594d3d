import Foundation
import TrellisTestSupport

/// A PostgreSQL server for the tests: the one `TRELLIS_POSTGRES_URL` names, or one started here
/// on loopback — `initdb` into a temporary folder, a free port, trust authentication — and
/// stopped when the test process exits. Tests that need it are skipped, with the reason printed,
/// only where no server binary is installed.
enum PostgresServer {
    nonisolated(unsafe) static var dataFolder: String?
    nonisolated(unsafe) static var binaries: String?

    static let url: String? = start()

    static var available: Bool {
        if url == nil { print("PostgreSQL tests skipped: \(reason)") }
        return url != nil
    }
    nonisolated(unsafe) static var reason = "no server"

    /// Runs a program to its end (at most two minutes); a server it starts lives on.
    static func run(_ arguments: [String], asPostgres: Bool) -> Int32 {
        let argv = asPostgres && getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] + arguments : arguments
        return (try? ChildProcess.run(argv, captureOutput: false, timeout: 120).status) ?? -1
    }

    static func freePort() -> Int? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }

    /// A role that logs in with a password only, on a server these tests started.
    static let passwordRole = "trellis_password_role"

    /// A server of a test's own, to stop under a client: its URL, and how to stop it (at once, as a
    /// crash would) and remove it. `nil` where no server binaries are installed (``installed``) or
    /// the server would not start.
    final class Throwaway {
        let url: String
        private let folder: String, bin: String
        private var running = true

        /// The folder of the newest installed server's programs, if one is installed.
        static var installed: String? {
            let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql"))?.sorted() ?? []
            return versions.last { FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\($0)/bin/initdb") }
                .map { "/usr/lib/postgresql/\($0)/bin" }
        }

        init?(name: String) {
            guard let installed = Self.installed, let port = PostgresServer.freePort() else { return nil }
            bin = installed
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-pg-\(name)-\(getpid())").path
            try? FileManager.default.removeItem(atPath: folder)
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            if getuid() == 0 { _ = PostgresServer.run(["/bin/chown", "postgres", folder], asPostgres: false) }
            guard
                PostgresServer.run(
                    [
                        "\(bin)/initdb", "-D", "\(folder)/data", "--auth=trust", "-U", "postgres", "-E", "UTF8",
                        "--locale=C.UTF-8",
                    ], asPostgres: true) == 0,
                PostgresServer.run(
                    [
                        "\(bin)/pg_ctl", "-D", "\(folder)/data", "-o", "-p \(port) -k \(folder) -c listen_addresses=127.0.0.1",
                        "-l", "\(folder)/log", "-w", "start",
                    ], asPostgres: true) == 0
            else {
                try? FileManager.default.removeItem(atPath: folder)
                return nil
            }
            url = "postgresql://postgres@127.0.0.1:\(port)/postgres"
        }

        /// Stops the server at once (`-m immediate`): its connections are cut as a crash cuts them.
        func stop() {
            guard running else { return }
            running = false
            _ = PostgresServer.run(["\(bin)/pg_ctl", "-D", "\(folder)/data", "-m", "immediate", "stop"], asPostgres: true)
        }

        deinit {
            stop()
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    private static func start() -> String? {
        if let url = ProcessInfo.processInfo.environment["TRELLIS_POSTGRES_URL"], !url.isEmpty { return url }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql"))?.sorted() ?? []
        guard let version = versions.last(where: { FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\($0)/bin/initdb") })
        else {
            reason = "no PostgreSQL server binaries (install Debian's postgresql, or set TRELLIS_POSTGRES_URL)"
            return nil
        }
        let bin = "/usr/lib/postgresql/\(version)/bin"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-pg-\(getpid())").path
        try? FileManager.default.removeItem(atPath: folder)
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if getuid() == 0 { _ = run(["/bin/chown", "postgres", folder], asPostgres: false) }
        guard
            run(
                ["\(bin)/initdb", "-D", "\(folder)/data", "--auth=trust", "-U", "postgres", "-E", "UTF8", "--locale=C.UTF-8"],
                asPostgres: true) == 0
        else {
            reason = "initdb failed in \(folder)"
            return nil
        }
        // One role must give its password (the rest are trusted): the tests of a wrong password.
        let hba = "\(folder)/data/pg_hba.conf"
        if let trusted = try? String(contentsOfFile: hba, encoding: .utf8) {
            try? ("host all \(passwordRole) 127.0.0.1/32 scram-sha-256\n" + trusted).write(toFile: hba, atomically: false, encoding: .utf8)
        }
        guard let port = freePort() else {
            reason = "no free port on 127.0.0.1"
            return nil
        }
        guard
            run(
                [
                    "\(bin)/pg_ctl", "-D", "\(folder)/data", "-o", "-p \(port) -k \(folder) -c listen_addresses=127.0.0.1",
                    "-l", "\(folder)/log", "-w", "start",
                ], asPostgres: true) == 0
        else {
            reason = "the server did not start (see \(folder)/log)"
            return nil
        }
        dataFolder = folder
        binaries = bin
        atexit {
            guard let folder = PostgresServer.dataFolder, let bin = PostgresServer.binaries else { return }
            _ = PostgresServer.run(["\(bin)/pg_ctl", "-D", "\(folder)/data", "-m", "immediate", "stop"], asPostgres: true)
            try? FileManager.default.removeItem(atPath: folder)
        }
        return "postgresql://postgres@127.0.0.1:\(port)/postgres"
    }
}
