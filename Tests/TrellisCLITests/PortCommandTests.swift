import Foundation
import Testing
import TrellisCLI

/// `trellis port` as a user runs it: in place, `--dry-run`, `--stdout`, and its errors.
@Suite("trellis port")
struct PortCommandTests {
    static let layout = """
        import UIKit

        @objc protocol ShelfDelegate: AnyObject {
            @objc optional func shelf(_ shelf: Shelf, widthOf item: Int) -> CGFloat
        }

        final class Shelf {
            weak var delegate: ShelfDelegate?
            func width(_ item: Int) -> CGFloat { delegate?.shelf?(self, widthOf: item) ?? 80 }
        }

        """

    func scratch(_ files: [String: String]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-port-\(UUID().uuidString)")
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return folder
    }

    func run(_ arguments: [String], in folder: URL) -> (status: Int32, stdout: String, stderr: String) {
        var io = CommandIO(standardInput: { Data() }, currentDirectory: folder)
        let status = TrellisCommandLine.run(arguments, io: &io)
        return (status, io.stdout, io.stderr)
    }

    func read(_ folder: URL, _ path: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
    }

    @Test("a folder is ported in place, every change listed; a second run changes nothing")
    func inPlace() throws {
        let folder = try scratch([
            "Sources/Shelf.swift": Self.layout, "Sources/Model.swift": "import CoreGraphics\nstruct M {}\n",
            "Sources/.build/Skip.swift": "import UIKit\n", "README.md": "UIKit",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = run(["port", "Sources"], in: folder)
        #expect(first.status == 0, "\(first.stderr)")
        // UIKit's names stay (the UIKit module has them); only the Objective-C idioms change.
        #expect(!first.stdout.contains("import UIKit → import Trellis"))
        #expect(first.stdout.contains("Sources/Shelf.swift:4: optional requirement ShelfDelegate.shelf(_:widthOf:) → a throwing requirement"))
        #expect(first.stdout.hasSuffix("2 files read, 1 changed, 4 changes.\n"), "\(first.stdout)")
        let ported = try read(folder, "Sources/Shelf.swift")
        #expect(ported.contains("func width(_ item: Int) -> CGFloat { (try? delegate?.shelf(self, widthOf: item)) ?? 80 }"))
        #expect(try read(folder, "Sources/.build/Skip.swift") == "import UIKit\n")
        #expect(try read(folder, "Sources/Model.swift") == "import CoreGraphics\nstruct M {}\n")
        let second = run(["port", "Sources"], in: folder)
        #expect(second.status == 0 && second.stdout == "2 files read, 0 changed, 0 changes.\n")
        #expect(try read(folder, "Sources/Shelf.swift") == ported)
    }

    @Test("--dry-run prints a unified diff and writes nothing; --stdout prints one file's ported text")
    func dryRunAndStdout() throws {
        let folder = try scratch(["Shelf.swift": Self.layout])
        defer { try? FileManager.default.removeItem(at: folder) }
        let dry = run(["port", "--dry-run", "Shelf.swift"], in: folder)
        #expect(dry.status == 0)
        #expect(dry.stdout.hasPrefix("--- a/Shelf.swift\n+++ b/Shelf.swift\n@@ -1,10 +1,17 @@\n import UIKit\n"), "\(dry.stdout)")
        #expect(dry.stdout.contains("\n+// Defaults for the optional requirements of ShelfDelegate.\n"))
        #expect(dry.stderr.hasSuffix("1 file read, 1 would change, 4 changes.\n"))
        #expect(try read(folder, "Shelf.swift") == Self.layout)
        // The diff applies with patch(1) and gives what --stdout prints.
        let single = run(["port", "--stdout", "Shelf.swift"], in: folder)
        #expect(single.status == 0 && single.stdout.hasPrefix("import UIKit\n"))
        // --rename gives Trellis's names too.
        let renamed = run(["port", "--stdout", "Shelf.swift", "--rename"], in: folder)
        #expect(renamed.status == 0 && renamed.stdout.hasPrefix("import Trellis\n"))
        #expect(renamed.stderr.contains("Shelf.swift:1: import UIKit → import Trellis"))
        #expect(try read(folder, "Shelf.swift") == Self.layout)
        try dry.stdout.write(to: folder.appendingPathComponent("change.diff"), atomically: true, encoding: .utf8)
        let patch = Process()
        patch.executableURL = URL(fileURLWithPath: "/usr/bin/patch")
        patch.arguments = ["-s", "-p1", "-i", "change.diff"]
        patch.currentDirectoryURL = folder
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/patch") {
            try patch.run()
            patch.waitUntilExit()
            #expect(patch.terminationStatus == 0)
            #expect(try read(folder, "Shelf.swift") == single.stdout)
        }
    }

    @Test("places left for a person are listed and exit 1; the rest is written")
    func leftPlaces() throws {
        let folder = try scratch(["Button.swift": "import UIKit\nlet b = UISwitch(); b.addTarget(nil, action: #selector(tap), for: .valueChanged)\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = run(["port", "Button.swift"], in: folder)
        #expect(result.status == 1)
        #expect(result.stdout.contains("Button.swift:2: left: #selector(tap) — a selector names a method"))
        // UISwitch is UIKit's and Trellis has none: named, never renamed.
        #expect(result.stdout.contains("Button.swift:2: left: UISwitch — UIKit's, and Trellis does not implement it"))
        #expect(result.stderr == "Error: 2 places left for you (listed above)\n")
        #expect(try read(folder, "Button.swift").hasPrefix("import UIKit\nlet b = UISwitch("))
        let renamed = run(["port", "--rename", "Button.swift"], in: folder)
        #expect(renamed.status == 1)
        #expect(try read(folder, "Button.swift").hasPrefix("import Trellis\nlet b = UISwitch("))
    }

    @Test("bad input: no such path, not Swift, not UTF-8, invalid Swift, clashing flags — a clear error and nothing written")
    func errors() throws {
        let broken = "import UIKit\nlet s = \"never closed\n"
        let folder = try scratch(["Broken.swift": broken, "Good.swift": Self.layout, "notes.txt": "x"])
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data([0x69, 0x6D, 0xFF, 0xFE]).write(to: folder.appendingPathComponent("Latin.swift"))
        let cases: [([String], Int32, String)] = [
            (["port", "Missing.swift"], 1, "Error: cannot read 'Missing.swift': no such file or folder\n"),
            (["port", "notes.txt"], 64, "Error: 'notes.txt' is not a Swift file (.swift)\n"),
            (
                ["port", "Latin.swift"], 65,
                "Error: Latin.swift: line 1, byte 3 (byte 3 of the file, 0xFF) is not UTF-8; Swift source is UTF-8 — save the file as UTF-8\n"
            ),
            (
                ["port", "Good.swift", "Broken.swift"], 65,
                "Error: Broken.swift:2: cannot read this file as Swift: a string literal that ends with its line; it must compile with Swift before it can be ported\n"
            ),
            (["port", "--dry-run", "--stdout", "Good.swift"], 64, "Error: '--dry-run' and '--stdout' print different things; give one of them\n"),
            (["port"], 64, "Error: Missing expected argument '<path>'\n"),
        ]
        for (arguments, status, message) in cases {
            let result = run(arguments, in: folder)
            #expect(result.status == status, "\(arguments)")
            #expect(result.stderr.hasPrefix(message), "\(arguments): \(result.stderr)")
        }
        // The good file beside the broken one was not written.
        #expect(try read(folder, "Good.swift") == Self.layout)
        #expect(try read(folder, "Broken.swift") == broken)
    }

    @Test("in a folder, symbolic links and pipes named .swift are passed over, each said with why: nothing outside the folder is written, nothing blocks")
    func linksAndPipes() throws {
        let folder = try scratch(["Src/A.swift": Self.layout, "outside/Out.swift": Self.layout, "Src/Sub/B.swift": "import UIKit\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("Src/Link.swift").path,
            withDestinationPath: "../outside/Out.swift")
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("Src/Inner.swift").path, withDestinationPath: "A.swift")
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("Src/Elsewhere").path, withDestinationPath: "../outside")
        #expect(mkfifo(folder.appendingPathComponent("Src/Pipe.swift").path, 0o644) == 0)
        let result = run(["port", "Src"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("skipped: 'Src/Link.swift': a symbolic link to '../outside/Out.swift'"), "\(result.stderr)")
        #expect(result.stderr.contains("skipped: 'Src/Inner.swift': a symbolic link to 'A.swift'"))
        #expect(result.stderr.contains("skipped: 'Src/Elsewhere': a symbolic link to '../outside'"))
        #expect(result.stderr.contains("skipped: 'Src/Pipe.swift': a named pipe, not a file"))
        #expect(result.stdout.hasSuffix("2 files read, 1 changed, 4 changes.\n"), "\(result.stdout)")
        #expect(try read(folder, "outside/Out.swift") == Self.layout, "nothing outside the folder is written")
        #expect(try read(folder, "Src/A.swift").hasPrefix("import UIKit\n\nprotocol ShelfDelegate"))
        var info = stat()
        lstat(folder.appendingPathComponent("Src/Link.swift").path, &info)
        #expect(info.st_mode & S_IFMT == S_IFLNK)
        // A pipe named on its own is refused, not read.
        let pipe = run(["port", "Src/Pipe.swift"], in: folder)
        #expect(pipe.status == 1 && pipe.stderr.contains("it is a named pipe, not a file"), "\(pipe.stderr)")
    }

    @Test("every file is written or none: one that cannot be written leaves the others as they were, and the message says so")
    func allOrNothing() throws {
        let folder = try scratch(["A.swift": Self.layout, "B.swift": Self.layout, "C.swift": Self.layout])
        defer { try? FileManager.default.removeItem(at: folder) }
        // Where B's temporary file would go there is a folder: B cannot be made.
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent(".B.swift.\(getpid()).partial"),
            withIntermediateDirectories: false)
        let result = run(["port", "."], in: folder)
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot write './B.swift'") && result.stderr.contains("no file was written"), "\(result.stderr)")
        for name in ["A.swift", "B.swift", "C.swift"] { #expect(try read(folder, name) == Self.layout, "\(name)") }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == [".B.swift.\(getpid()).partial", "A.swift", "B.swift", "C.swift"], "\(names)")
    }

    @Test("a UTF-8 byte order mark is kept; a file's mode is kept")
    func byteOrderMark() throws {
        let folder = try scratch([:])
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("Marked.swift")
        try (Data([0xEF, 0xBB, 0xBF]) + Data(Self.layout.utf8)).write(to: file)
        chmod(file.path, 0o640)
        let result = run(["port", "Marked.swift"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let bytes = try Data(contentsOf: file)
        #expect(bytes.starts(with: [0xEF, 0xBB, 0xBF]))
        #expect(String(decoding: bytes.dropFirst(3), as: UTF8.self).hasPrefix("import UIKit\n\nprotocol ShelfDelegate"))
        var info = stat()
        stat(file.path, &info)
        #expect(info.st_mode & 0o777 == 0o640)
    }
}
