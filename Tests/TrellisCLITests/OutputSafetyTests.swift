import Foundation
import Testing
import TrellisCLI
import TrellisTestSupport

/// `-o` as `cp` and a shell's `>` leave a file, whole or not at all, with real links, modes,
/// owners, signals and file-size limits.
@Suite("Output files: links, read-only files, owners, hard links, leftovers")
struct OutputSafetyTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static var binary: String {
        ProcessInfo.processInfo.environment["TRELLIS_BINARY"] ?? root.appendingPathComponent(".build/debug/trellis").path
    }
    static let table = "name,score\nb,2\nc,3\na,1\n"
    static let sorted = "name,score\na,1\nb,2\nc,3\n"

    func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(Self.table.utf8).write(to: folder.appendingPathComponent("in.csv"))
        return folder
    }

    func run(_ arguments: [String], in folder: URL) -> (status: Int32, stdout: String, stderr: String) {
        var io = CommandIO(standardInput: { Data() }, currentDirectory: folder)
        let status = TrellisCommandLine.run(arguments, io: &io)
        return (status, io.stdout, io.stderr)
    }

    func contents(_ url: URL) -> String? { try? String(contentsOf: url, encoding: .utf8) }

    /// What is in the folder besides what the test made.
    func leftovers(_ folder: URL, besides kept: Set<String>) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !kept.contains($0) }.sorted()
    }

    func mode(_ path: String) -> mode_t {
        var info = stat()
        _ = lstat(path, &info)
        return info.st_mode
    }

    @Test("-o writes through a symbolic link to its file, which stays a link; a dangling link and a loop are refused, nothing made")
    func links() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("target.csv")
        try Data("old\n".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link.csv").path, withDestinationPath: "target.csv")
        let through = run(["sort", "in.csv", "--by", "name", "-o", "link.csv"], in: folder)
        #expect(through.status == 0, "\(through.stderr)")
        #expect(contents(target) == Self.sorted)
        #expect(mode(folder.appendingPathComponent("link.csv").path) & S_IFMT == S_IFLNK, "the link stays a link")

        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("dangling.csv").path, withDestinationPath: "nowhere.csv")
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("loop1").path, withDestinationPath: "loop2")
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("loop2").path, withDestinationPath: "loop1")
        let dangling = run(["sort", "in.csv", "-o", "dangling.csv"], in: folder)
        #expect(dangling.status == 1)
        #expect(
            dangling.stderr.hasPrefix("Error: cannot write 'dangling.csv': it is a symbolic link to 'nowhere.csv', which does not exist"),
            "\(dangling.stderr)")
        let loop = run(["sort", "in.csv", "-o", "loop1"], in: folder)
        #expect(loop.status == 1)
        #expect(loop.stderr.contains("leads round in a loop"), "\(loop.stderr)")
        #expect(mode(folder.appendingPathComponent("dangling.csv").path) & S_IFMT == S_IFLNK)
        #expect(mode(folder.appendingPathComponent("loop1").path) & S_IFMT == S_IFLNK)
        #expect(try leftovers(folder, besides: ["in.csv", "target.csv", "link.csv", "dangling.csv", "loop1", "loop2", "spec.json"]).isEmpty)
        // The layout command's -o follows the same rules.
        try Data(#"{"collectionView": {"width": 300, "height": 200}, "layout": {"type": "flow"}, "sections": [{"items": 3}]}"#.utf8)
            .write(to: folder.appendingPathComponent("spec.json"))
        let layout = run(["layout", "spec.json", "-o", "dangling.csv"], in: folder)
        #expect(layout.status == 1 && layout.stderr.contains("which does not exist"), "\(layout.stderr)")
    }

    @Test("a read-only output is refused (as > refuses it) unless --force, which replaces it and keeps its mode")
    func readOnly() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("locked.csv")
        try Data("old\n".utf8).write(to: target)
        chmod(target.path, 0o444)
        let refused = run(["sort", "in.csv", "--by", "name", "-o", "locked.csv"], in: folder)
        #expect(refused.status == 1)
        #expect(
            refused.stderr.hasPrefix("Error: cannot write 'locked.csv': it is read-only (mode 444); give --force to replace it"),
            "\(refused.stderr)")
        #expect(contents(target) == "old\n")
        let forced = run(["sort", "in.csv", "--by", "name", "-o", "locked.csv", "--force"], in: folder)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(contents(target) == Self.sorted)
        #expect(mode(target.path) & 0o7777 == 0o444)
        // An SQLite output too.
        let database = folder.appendingPathComponent("locked.sqlite")
        _ = run(["sort", "in.csv", "-o", "locked.sqlite"], in: folder)
        chmod(database.path, 0o444)
        let before = try Data(contentsOf: database)
        let database2 = run(["sort", "in.csv", "-o", "locked.sqlite", "--output-table", "again"], in: folder)
        #expect(database2.status == 1 && database2.stderr.contains("it is read-only"), "\(database2.stderr)")
        #expect(try Data(contentsOf: database) == before)
    }

    @Test("a replaced file keeps its permission bits and, where the writer may, its owner and group; never a set-user-ID or set-group-ID bit")
    func modesAndOwners() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("tool.csv")
        try Data("old\n".utf8).write(to: target)
        chmod(target.path, 0o6750)
        let otherUser: uid_t = 65534, otherGroup: gid_t = 65534  // nobody, nogroup
        let asRoot = geteuid() == 0
        if asRoot { chown(target.path, otherUser, otherGroup) }
        let result = run(["sort", "in.csv", "--by", "name", "-o", "tool.csv"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        var info = stat()
        stat(target.path, &info)
        #expect(info.st_mode & 0o7777 == 0o750, "mode \(String(info.st_mode & 0o7777, radix: 8))")
        if asRoot {
            #expect(info.st_uid == otherUser && info.st_gid == otherGroup, "the owner is kept")
        }
        // A new file: 0666 less the umask.
        let mask = umask(0o022)
        defer { umask(mask) }
        _ = run(["sort", "in.csv", "-o", "new.csv"], in: folder)
        #expect(mode(folder.appendingPathComponent("new.csv").path) & 0o7777 == 0o644)
    }

    @Test("a file with other hard links is rewritten in place once the output is complete: every link sees the new rows")
    func hardLinks() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("shared.csv"), other = folder.appendingPathComponent("other-name.csv")
        try Data("old contents, longer than the new ones will be, so that the file must be cut\n".utf8).write(to: target)
        link(target.path, other.path)
        let result = run(["sort", "in.csv", "--by", "name", "-o", "shared.csv"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(contents(target) == Self.sorted)
        #expect(contents(other) == Self.sorted)
        var a = stat(), b = stat()
        stat(target.path, &a)
        stat(other.path, &b)
        #expect(a.st_ino == b.st_ino && a.st_nlink == 2, "still one file with two names")
        #expect(try leftovers(folder, besides: ["in.csv", "shared.csv", "other-name.csv"]).isEmpty)
    }

    @Test(
        "a .partial file (and an SQLite journal of one) left by a run killed outright (SIGKILL) is removed by the next run that writes the same file; a live run's is not"
    )
    func staleLeftovers() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A process id no process has (beyond the kernel's largest), and this test process's parent, alive.
        let dead = folder.appendingPathComponent(".out.csv.4194305.partial")
        let alive = folder.appendingPathComponent(".out.csv.\(getppid()).partial")
        try Data("half".utf8).write(to: dead)
        try Data("busy".utf8).write(to: alive)
        let result = run(["sort", "in.csv", "-o", "out.csv"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dead.path))
        #expect(FileManager.default.fileExists(atPath: alive.path))
        // A new SQLite database's: the partial file and its journal.
        let deadDatabase = [".new.sqlite.4194305.partial", ".new.sqlite.4194305.partial-journal"].map {
            folder.appendingPathComponent($0)
        }
        for file in deadDatabase { try Data("half".utf8).write(to: file) }
        let export = run(["sort", "in.csv", "-o", "new.sqlite"], in: folder)
        #expect(export.status == 0, "\(export.stderr)")
        for file in deadDatabase { #expect(!FileManager.default.fileExists(atPath: file.path), "\(file.lastPathComponent)") }
        #expect(FileManager.default.fileExists(atPath: alive.path))
    }

    @Test(
        "Ctrl-C, SIGTERM or SIGHUP while an in-memory sort writes -o: the old file stays, nothing is left beside it",
        .enabled(if: FileManager.default.isExecutableFile(atPath: binary)), arguments: [SIGINT, SIGTERM, SIGHUP])
    func signalDuringWrite(signal: Int32) throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Long rows, so that writing the output takes a while after the sort.
        var text = "id,score,note\n"
        let note = String(repeating: "x", count: 400)
        for i in 0..<60_000 { text += "\(i),\((i * 7919) % 60_000),\(note)\n" }
        try Data(text.utf8).write(to: folder.appendingPathComponent("big.csv"))
        // JSON output: every cell is written out, which takes a while.
        let target = folder.appendingPathComponent("out.json")
        try Data("old contents\n".utf8).write(to: target)
        guard
            let pid = ChildProcess.start(
                [Self.binary, "sort", folder.appendingPathComponent("big.csv").path, "--by", "score", "-o", target.path],
                standardError: folder.appendingPathComponent("stderr.txt").path)
        else {
            Issue.record("could not start \(Self.binary)")
            return
        }
        // Signalled once the output has begun: its temporary file exists.
        let deadline = Date().addingTimeInterval(120)
        var writing = false
        while Date() < deadline, !writing {
            writing = try FileManager.default.contentsOfDirectory(atPath: folder.path).contains { $0.hasSuffix(".partial") }
            var status: Int32 = 0
            if !writing, waitpid(pid, &status, WNOHANG) == pid { break }
            if !writing { usleep(1_000) }
        }
        kill(pid, signal)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        #expect(writing, "the write was seen under way")
        if writing { #expect((status >> 8) & 0xFF == 128 + signal, "exit status \(status)") }
        #expect(try leftovers(folder, besides: ["in.csv", "big.csv", "out.json", "stderr.txt"]).isEmpty)
        #expect(contents(target) == "old contents\n")
    }

    @Test(
        "a file-size limit (ulimit -f) fails the write with its reason, for a sort at once and one in parts; nothing is left",
        .enabled(if: FileManager.default.isExecutableFile(atPath: binary) && FileManager.default.isExecutableFile(atPath: "/bin/sh")),
        arguments: [false, true])
    func fileSizeLimit(inParts: Bool) throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        var text = "id,score,note\n"
        for i in 0..<40_000 { text += "\(i),\((i * 7919) % 40_000),row \(i) with some words in it\n" }
        try Data(text.utf8).write(to: folder.appendingPathComponent("big.csv"))
        let target = folder.appendingPathComponent("out.csv")
        try Data("old contents\n".utf8).write(to: target)
        // 200 KB: less than the output (about 1.5 MB) and, in parts, than the runs together.
        let memory = inParts ? " --memory 256K" : ""
        let result = try ChildProcess.run(
            [
                "/bin/sh", "-c", "ulimit -f 200; cd \"$1\" && exec \"$0\" sort big.csv --by score -o out.csv\(memory)",
                Self.binary, folder.path,
            ], mergeStandardError: true, timeout: 300)
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("File too large"), "\(result.output)")
        #expect(try leftovers(folder, besides: ["in.csv", "big.csv", "out.csv"]).isEmpty)
        #expect(contents(target) == "old contents\n")
    }

    @Test("a refused or failed SQLite export leaves no database, empty or partial, under the final name")
    func sqliteExportLeavesNothing() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        // SQLite refuses the table's name.
        let refused = run(["sort", "in.csv", "-o", "new.sqlite", "--output-table", "sqlite_reserved"], in: folder)
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("reserved for internal use"), "\(refused.stderr)")
        #expect(try leftovers(folder, besides: ["in.csv"]).isEmpty)
        // A table that exists: the database is left exactly as it was.
        #expect(run(["sort", "in.csv", "-o", "kept.sqlite"], in: folder).status == 0)
        let before = try Data(contentsOf: folder.appendingPathComponent("kept.sqlite"))
        let exists = run(["sort", "in.csv", "-o", "kept.sqlite"], in: folder)
        #expect(exists.status == 1 && exists.stderr.contains("already exists"), "\(exists.stderr)")
        #expect(try Data(contentsOf: folder.appendingPathComponent("kept.sqlite")) == before)
        #expect(try leftovers(folder, besides: ["in.csv", "kept.sqlite"]).isEmpty)
    }
}
