import Foundation
import Testing
import TrellisSQL

/// libpq is loaded when a PostgreSQL connection is first opened, not linked: every other command
/// starts without it and the libraries it brings (TLS, Kerberos, LDAP — some 5 MB resident).
@Suite("libpq, loaded when a connection opens")
struct LibPQLoadingTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("a library that is not there gives a message naming it and how to install libpq")
    func missing() {
        guard case .failure(let error) = LibPQ.load("libtrellis-absent-pq.so.5") else {
            Issue.record("a missing library loaded")
            return
        }
        #expect(error.message.hasPrefix("PostgreSQL's client library could not be loaded (libtrellis-absent-pq.so.5"), "\(error.message)")
        #expect(error.message.hasSuffix("; install libpq (Debian: apt-get install libpq5)"), "\(error.message)")
    }

    @Test("the system's libpq loads with every function found")
    func present() throws {
        let functions = try LibPQ.load(LibPQ.name).get()
        #expect(functions.connectdbParams != nil && functions.getlength != nil && functions.cancel != nil)
    }

    @Test("the trellis program does not link libpq", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ldd")))
    func notLinked() throws {
        let binary = ProcessInfo.processInfo.environment["TRELLIS_BINARY"] ?? Self.root.appendingPathComponent(".build/debug/trellis").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            Issue.record("no trellis binary at \(binary)")
            return
        }
        let ldd = Process()
        ldd.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        ldd.arguments = [binary]
        let pipe = Pipe()
        ldd.standardOutput = pipe
        try ldd.run()
        let listed = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ldd.waitUntilExit()
        // (libc: what every program links, the self-contained one too, whose Swift runtime is inside it.)
        #expect(listed.contains("libc.so"), "ldd lists the program's libraries: \(listed)")
        #expect(!listed.contains("libpq"), "\(listed)")
    }
}
