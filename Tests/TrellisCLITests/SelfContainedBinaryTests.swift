import Foundation
import Testing
import TrellisCLI
import TrellisTestSupport

/// The program `Packaging/build-binary` makes runs where no Swift toolchain is: it links none of
/// the toolchain's libraries, and it sorts (with ICU's Chinese collation, whose data it carries)
/// in a clean environment with the toolchain's folder hidden under an empty one. The Debian
/// package `Packaging/debian-package` makes of it holds the program, its manual page and its
/// completions, and the program it installs runs.
///
/// The program is the one `.ci/run` installs by the README's install step (`TRELLIS_BINARY`), or
/// `.build/dist/trellis` after `Packaging/build-binary`; without either the tests are skipped.
@Suite("The self-contained program and its Debian package")
struct SelfContainedBinaryTests {
    static let root = ReadmeTests.root

    /// The self-contained program, if one was built.
    static var binary: String? {
        let candidates: [String?] = [ProcessInfo.processInfo.environment["TRELLIS_BINARY"], root.appendingPathComponent(".build/dist/trellis").path]
        return candidates.compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0) && !linksTheToolchain($0) }
    }

    /// The libraries a program asks the dynamic loader for (its ELF `NEEDED` entries).
    static func neededLibraries(_ path: String) -> [String]? {
        guard let readelf = ["/usr/bin/readelf", "/bin/readelf"].first(where: FileManager.default.isExecutableFile),
            let result = try? ChildProcess.run([readelf, "-d", path]), result.status == 0
        else { return nil }
        return result.output.split(separator: "\n").compactMap { line in
            guard line.contains("(NEEDED)"), let open = line.lastIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
            return String(line[line.index(after: open)..<close])
        }
    }

    /// Whether a program needs one of the toolchain's libraries (a plain `swift build`'s does).
    static func linksTheToolchain(_ path: String) -> Bool {
        (neededLibraries(path) ?? []).contains { $0.hasPrefix("libswift") || $0.hasPrefix("libFoundation") || $0.hasPrefix("lib_Foundation") }
    }

    /// The folder the toolchain is installed in (`/opt/swift` for `/opt/swift/usr/bin/swift`).
    static var toolchainFolder: String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/swift" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let path else { return nil }
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath()
        // …/usr/bin/swift: the folder above `usr`.
        return resolved.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    static func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-binary-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Runs `command` (a shell line) in a clean environment — no Swift library path, a bare
    /// `PATH` — and, where a user namespace can be made, with the toolchain's folder hidden under
    /// an empty one; with whether it was hidden.
    static func runWithoutToolchain(_ command: String) throws -> (result: (status: Int32, output: String), hidden: Bool) {
        let environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        if let toolchain = toolchainFolder, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") {
            // (The check that the folder is empty is the namespace's own: a hidden toolchain.)
            let script = "mount -t tmpfs none '\(toolchain)' && [ -z \"$(ls -A '\(toolchain)')\" ] && echo HIDDEN && \(command)"
            let hidden = try ChildProcess.run(
                ["/usr/bin/unshare", "--mount", "--map-root-user", "/bin/sh", "-c", script], mergeStandardError: true,
                environment: environment, timeout: 120)
            if hidden.output.hasPrefix("HIDDEN\n") {
                return ((hidden.status, String(hidden.output.dropFirst("HIDDEN\n".count))), true)
            }
        }
        let plain = try ChildProcess.run(["/bin/sh", "-c", command], mergeStandardError: true, environment: environment, timeout: 120)
        return ((plain.status, plain.output), false)
    }

    @Test("the program links none of the toolchain's libraries, only the system's", .enabled(if: binary != nil, "no self-contained trellis built"))
    func linksOnlySystemLibraries() throws {
        let binary = try #require(Self.binary)
        let needed = try #require(Self.neededLibraries(binary), "readelf reads the program")
        let system = ["libc.so", "libm.so", "libstdc++.so", "libgcc_s.so", "libz.so", "libsqlite3.so", "ld-linux", "libpthread.so", "libdl.so", "librt.so"]
        for library in needed {
            #expect(system.contains { library.hasPrefix($0) }, "\(library) is not a library every Debian system has")
        }
        #expect(!needed.contains { $0.hasPrefix("libpq") }, "libpq is loaded when a postgresql:// source is opened, never linked")
    }

    @Test(
        "without the toolchain, the program says its version and commit and sorts a file as the library does",
        .enabled(if: binary != nil, "no self-contained trellis built"))
    func sortsWithoutTheToolchain() throws {
        let binary = try #require(Self.binary)
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("groups.csv").path
        try FileManager.default.copyItem(atPath: Self.root.appendingPathComponent("Examples/groups.csv").path, toPath: input)
        // A copy outside the build folders, so that nothing beside it can be found.
        let program = folder.appendingPathComponent("trellis").path
        try FileManager.default.copyItem(atPath: binary, toPath: program)

        let version = try Self.runWithoutToolchain("'\(program)' --version")
        #expect(version.result.status == 0, "\(version.result.output)")
        let line = version.result.output.trimmingCharacters(in: .newlines)
        #expect(line.hasPrefix("trellis \(TrellisCommandLine.version) (commit "), "\(line)")
        #expect(line.range(of: #"\(commit [0-9a-f]{12}(-modified)?\)$"#, options: .regularExpression) != nil, "the commit it was built from: \(line)")

        let arguments = ["sort", "groups.csv", "--by", "组长", "--locale", "zh", "--pin-bottom", "组号=平均", "--format", "csv"]
        let sorted = try Self.runWithoutToolchain("cd '\(folder.path)' && '\(program)' " + arguments.map { "'\($0)'" }.joined(separator: " "))
        var io = CommandIO(standardInput: { Data() }, currentDirectory: folder)
        let status = TrellisCommandLine.run(arguments, io: &io)
        #expect(status == 0)
        #expect(sorted.result.status == 0, "\(sorted.result.output)")
        #expect(sorted.result.output == io.stdout + io.stderr, "the program sorts as the library does (pinyin order, the 平均 row last)")
        // (The file's lines end in CR LF, as its output's do.)
        #expect(io.stdout.components(separatedBy: "\r\n").dropFirst().first?.hasPrefix("组5,陈静") == true, "陈 (chén) first by pinyin: \(io.stdout)")
        if !sorted.hidden { print("(the toolchain could not be hidden here — no user namespace — so it ran with a clean environment only)") }
    }

    @Test(
        "the Debian package holds the program, its manual page and completions, and what it installs runs",
        .enabled(if: binary != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg-deb"), "no self-contained trellis, or no dpkg-deb"))
    func debianPackage() throws {
        let binary = try #require(Self.binary)
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let made = try ChildProcess.run(
            [Self.root.appendingPathComponent("Packaging/debian-package").path, "--binary", binary, "--output", folder.path], mergeStandardError: true)
        #expect(made.status == 0, "\(made.output)")
        let debs = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".deb") }
        #expect(debs.count == 1, "\(debs)")
        let name = try #require(debs.first)
        let deb = folder.appendingPathComponent(name).path
        #expect(debs.first?.hasPrefix("trellis_\(TrellisCommandLine.version)_") == true)

        let info = try ChildProcess.run(["/usr/bin/dpkg-deb", "--field", deb, "Package", "Version", "Depends"])
        #expect(info.output.contains("Package: trellis"))
        #expect(info.output.contains("Version: \(TrellisCommandLine.version)"))
        #expect(info.output.contains("libsqlite3-0"))
        let contents = try ChildProcess.run(["/usr/bin/dpkg-deb", "--contents", deb]).output
        for path in [
            "./usr/bin/trellis", "./usr/share/man/man1/trellis.1.gz", "./usr/share/bash-completion/completions/trellis",
            "./usr/share/zsh/vendor-completions/_trellis", "./usr/share/fish/vendor_completions.d/trellis.fish", "./usr/share/doc/trellis/copyright",
        ] {
            #expect(contents.contains(path), "the package holds \(path)")
        }
        #expect(contents.contains("root/root"), "files owned by root, as a package's are")

        let unpacked = folder.appendingPathComponent("root")
        #expect(try ChildProcess.run(["/usr/bin/dpkg-deb", "-x", deb, unpacked.path]).status == 0)
        let installed = unpacked.appendingPathComponent("usr/bin/trellis").path
        let version = try Self.runWithoutToolchain("'\(installed)' --version")
        #expect(version.result.status == 0 && version.result.output.hasPrefix("trellis \(TrellisCommandLine.version) (commit "), "\(version.result.output)")
        // The manual page is the program's own, and the completions are its scripts.
        let page = try ChildProcess.run(["/bin/sh", "-c", "gzip -dc '\(unpacked.path)/usr/share/man/man1/trellis.1.gz'"]).output
        let ownPage = try ChildProcess.run([installed, "--generate-man-page"]).output
        #expect(page.hasPrefix(".\\\" The manual page") && page == ownPage)
        let completion = try String(contentsOf: unpacked.appendingPathComponent("usr/share/bash-completion/completions/trellis"), encoding: .utf8)
        let ownCompletion = try ChildProcess.run([installed, "--generate-completion-script", "bash"]).output
        #expect(completion.contains("_trellis()") && completion == ownCompletion)
    }
}

/// `trellis --generate-man-page`: the manual page the package installs, from the help's own
/// definitions.
@Suite("The manual page")
struct ManPageTests {
    static var page: String {
        var io = CommandIO(standardInput: { Data() })
        _ = TrellisCommandLine.run(["--generate-man-page"], io: &io)
        return io.stdout
    }

    @Test("every command, argument and option is in it; no line of text reads as a request; the same every time")
    func everything() throws {
        let page = Self.page
        #expect(page.hasPrefix(".\\\" The manual page"))
        #expect(page.contains(".TH TRELLIS 1 \"\" \"trellis \(TrellisCommandLine.version)\" \"User Commands\""))
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "EXIT STATUS", "SEE ALSO"] {
            #expect(page.contains(".SH \(section)\n"), "section \(section)")
        }
        for command in ["layout", "sort", "view", "port", "demo"] {
            #expect(page.contains(".SS \"trellis \(command)"), "the \(command) command")
        }
        // Options as roff writes them: `\-\-by`.
        for option in ["\\-\\-by", "\\-\\-pin\\-bottom", "\\-\\-group\\-by", "\\-\\-locale", "\\-\\-rect", "\\-\\-memory"] {
            #expect(page.contains("\\fB\(option)\\fR"), "\(option)")
        }
        let requests = ["", ".\\\"", ".TH", ".SH", ".SS", ".PP", ".TP", ".B", ".br", ".nf", ".fi"]
        for line in page.split(separator: "\n") where line.hasPrefix(".") || line.hasPrefix("'") {
            let request = line.split(separator: " ").first.map(String.init) ?? ""
            #expect(requests.contains(request), "a line roff would read as a request: \(line)")
        }
        #expect(Self.page == page)
        var io = CommandIO(standardInput: { Data() })
        #expect(TrellisCommandLine.run(["--generate-man-page", "extra"], io: &io) == 64)
    }

    @Test("groff formats it without a warning", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/groff"), "groff is not installed"))
    func groffReadsIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-man-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("trellis.1")
        try Data(Self.page.utf8).write(to: file)
        let environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        // What groff says on standard error alone: every warning it has (-ww), with the input line.
        let warnings = try ChildProcess.run(
            ["/bin/sh", "-c", "groff -man -Tutf8 -ww -b '\(file.path)' 2>&1 >/dev/null"], environment: environment)
        #expect(warnings.status == 0)
        #expect(warnings.output.isEmpty, "\(warnings.output.split(separator: "\n").prefix(5))")
        let formatted = try ChildProcess.run(["/usr/bin/groff", "-man", "-Tutf8", file.path], environment: environment)
        #expect(formatted.output.contains("分类汇总") || formatted.output.contains("汇总"), "Chinese shows as itself")
        #expect(formatted.output.contains("pin") && formatted.output.contains("bottom"))
    }

    @Test("--version names the version and the commit, or says the build recorded none")
    func versionLine() {
        var io = CommandIO(standardInput: { Data() })
        #expect(TrellisCommandLine.run(["--version"], io: &io) == 0)
        #expect(io.stdout.hasPrefix("trellis \(TrellisCommandLine.version) ("))
        if let commit = TrellisCommandLine.commit {
            #expect(io.stdout == "trellis \(TrellisCommandLine.version) (commit \(commit))\n")
        } else {
            #expect(io.stdout.contains("commit not recorded"))
        }
    }
}
