import Foundation
import Testing

@testable import TrellisCLI

@Suite("Layout spec limits and output files")
struct LayoutOutputTests {
    static func spec(_ sections: String) -> Data {
        Data(#"{"collectionView": {"width": 375, "height": 667}, "sections": [\#(sections)]}"#.utf8)
    }

    @Test("empty sections count against the item cap, one item each")
    func emptySectionsCount() throws {
        let cap = 10
        // Ten items in all: at the cap.
        _ = try LayoutSpec.parse(Self.spec(#"{"items": 6}, {"items": 0}, {"items": 3}"#), maximumItems: cap)
        // Eleven empty sections: over it, though they hold no item.
        let empties = Array(repeating: #"{"items": 0}"#, count: 11).joined(separator: ", ")
        #expect(
            throws: SpecError(
                path: "$.sections[10]",
                message: "the spec holds more than 10 items (an empty section counts as one); split it or lower the counts")
        ) {
            try LayoutSpec.parse(Self.spec(empties), maximumItems: cap)
        }
        #expect(throws: SpecError.self) {
            try LayoutSpec.parse(Self.spec(#"{"items": 6}, {"items": 0}, {"items": 4}"#), maximumItems: cap)
        }
    }

    @Test("the JSON written to a file replaces it only when complete")
    func outputIsAtomic() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-stream-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let specURL = folder.appendingPathComponent("spec.json")
        try Self.spec(#"{"items": 3}"#).write(to: specURL)
        var io = CommandIO()
        io.currentDirectory = folder
        #expect(TrellisCommandLine.run(["layout", "spec.json", "-o", "out.json"], io: &io) == 0)
        let written = try String(contentsOf: folder.appendingPathComponent("out.json"), encoding: .utf8)
        var inMemory = CommandIO()
        inMemory.currentDirectory = folder
        #expect(TrellisCommandLine.run(["layout", "spec.json"], io: &inMemory) == 0)
        #expect(written == inMemory.stdout)
        #expect(written.hasSuffix("}\n"))

        // A folder that does not exist: an error naming the file, and nothing left behind.
        var failing = CommandIO()
        failing.currentDirectory = folder
        #expect(TrellisCommandLine.run(["layout", "spec.json", "-o", "missing/out.json"], io: &failing) == 1)
        #expect(failing.stderr == "Error: cannot write 'missing/out.json': there is no folder 'missing'; make it first\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["out.json", "spec.json"])
    }

    @Test("output through a link, into a pipe and over a file with its own permissions")
    func specialTargets() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-targets-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.spec(#"{"items": 2}"#).write(to: folder.appendingPathComponent("spec.json"))
        var reference = CommandIO(currentDirectory: folder)
        #expect(TrellisCommandLine.run(["layout", "spec.json"], io: &reference) == 0)
        let expected = reference.stdout

        // A symbolic link is followed and stays a link.
        let real = folder.appendingPathComponent("real.json")
        try Data("old".utf8).write(to: real)
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("link.json").path,
            withDestinationPath: "real.json")
        var io = CommandIO(currentDirectory: folder)
        #expect(TrellisCommandLine.run(["layout", "spec.json", "-o", "link.json"], io: &io) == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.appendingPathComponent("link.json").path) == "real.json")
        #expect(try String(contentsOf: real, encoding: .utf8) == expected)

        // A replaced file keeps its permissions.
        #expect(chmod(real.path, 0o640) == 0)
        io = CommandIO(currentDirectory: folder)
        #expect(TrellisCommandLine.run(["layout", "spec.json", "-o", "real.json"], io: &io) == 0)
        var info = stat()
        #expect(stat(real.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o640)

        // A named pipe is written in place, not replaced by a file.
        let pipe = folder.appendingPathComponent("pipe")
        #expect(mkfifo(pipe.path, 0o600) == 0)
        let done = DispatchSemaphore(value: 0)
        let received = Received()
        let reader = Thread {
            let descriptor = open(pipe.path, O_RDONLY)
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while descriptor >= 0 {
                let n = read(descriptor, &chunk, chunk.count)
                if n <= 0 { break }
                received.bytes += chunk[..<n]
            }
            close(descriptor)
            done.signal()
        }
        reader.start()
        io = CommandIO(currentDirectory: folder)
        #expect(TrellisCommandLine.run(["layout", "spec.json", "-o", "pipe"], io: &io) == 0)
        #expect(stat(pipe.path, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFIFO)
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(String(decoding: received.bytes, as: UTF8.self) == expected)

        // A folder is refused by name.
        io = CommandIO(currentDirectory: folder)
        #expect(TrellisCommandLine.run(["layout", "spec.json", "-o", "."], io: &io) == 1)
        #expect(io.stderr == "Error: cannot write '.': it is a directory; expected a file\n")
    }
}

/// What the pipe's reader thread collected (read once the thread has signalled).
final class Received: @unchecked Sendable {
    var bytes: [UInt8] = []
}

@Suite("Drawing part of a layout")
struct CroppedDrawingTests {
    @Test("--rect crops the SVG to the rect: a 100,000-item layout draws a viewport-sized picture")
    func crop() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-crop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = """
            {"collectionView": {"width": 375, "height": 667},
             "layout": {"type": "flow", "itemSize": {"width": 100, "height": 100}},
             "sections": [{"items": 100000}], "contentOffset": {"x": 0, "y": 5000}}
            """
        try spec.write(to: folder.appendingPathComponent("long.json"), atomically: true, encoding: .utf8)
        var io = CommandIO(standardInput: { Data() }, currentDirectory: folder)
        let status = TrellisCommandLine.run(["layout", "long.json", "--format", "svg", "--rect", "0,5000,375,667"], io: &io)
        #expect(status == 0, "\(io.stderr)")
        let svg = io.stdout
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"391\" height=\"683\""), "\(svg.prefix(120))")
        #expect(svg.contains("clip-path=\"url(#crop)\""))
        #expect(svg.contains("class=\"viewport\""), "contentOffset draws the viewport")
        #expect(svg.utf8.count < 20_000)
    }

    @Test("an orthogonal section draws what is on screen: a dashed frame the view's width over its band, the rest faded")
    func orthogonalWindow() throws {
        let spec = """
            {"collectionView": {"width": 300, "height": 400},
             "layout": {"type": "compositional"},
             "sections": [{"items": 3, "section": {
                            "group": {"kind": "horizontal", "size": {"width": {"absolute": 60}, "height": {"absolute": 60}},
                                      "subitems": [{"size": {"width": {"fractionalWidth": 1}, "height": {"fractionalHeight": 1}}}]}}},
                          {"items": 6, "orthogonalOffset": 50, "section": {
                            "group": {"kind": "horizontal", "size": {"width": {"absolute": 100}, "height": {"absolute": 100}},
                                      "subitems": [{"size": {"width": {"fractionalWidth": 1}, "height": {"fractionalHeight": 1}}}]},
                            "orthogonalScrollingBehavior": "continuous"}}]}
            """
        var io = CommandIO(standardInput: { Data(spec.utf8) })
        #expect(TrellisCommandLine.run(["layout", "-", "--format", "svg"], io: &io) == 0, "\(io.stderr)")
        let lines = io.stdout.split(separator: "\n")
        let windows = lines.filter { $0.hasPrefix("<rect class=\"window\"") }, faded = lines.filter { $0.hasPrefix("<rect class=\"offscreen\"") }
        // The section's six 100-point items scrolled 50 points in, below the first section's
        // three rows of one 60-point group each: the window is the view's width over the items' band; 50 points are
        // faded before it, 600 − 50 − 300 after it.
        #expect(
            windows == [
                ##"<rect class="window" x="0" y="180" width="300" height="100" fill="none" stroke="#dc2626" stroke-width="2" stroke-dasharray="6 4"/>"##
            ])
        #expect(
            faded.count == 2 && faded[0].contains(#"x="-50" y="180" width="50" height="100""#)
                && faded[1].contains(#"x="300" y="180" width="250" height="100""#), "\(faded)")
        // A layout without such a section draws none.
        var plain = CommandIO(standardInput: { Data(#"{"collectionView": {"width": 300, "height": 400}, "sections": [{"items": 3}]}"#.utf8) })
        #expect(TrellisCommandLine.run(["layout", "-", "--format", "svg"], io: &plain) == 0)
        #expect(!plain.stdout.contains("class=\"window\"") && !plain.stdout.contains("offscreen"))
    }
}

@Suite("Animated drawings")
struct AnimationLabelTests {
    @Test("every box of an animation has its own label: moved cells say from where to where, new and gone ones are marked")
    func labels() throws {
        let spec = """
            {"collectionView": {"width": 320, "height": 480},
             "layout": {"type": "flow", "itemSize": {"width": 90, "height": 60}},
             "sections": [{"items": 5}],
             "updates": [{"deleteItems": [[0, 1]]}, {"insertItems": [[0, 0], [0, 3]]}]}
            """
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-anim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try spec.write(to: folder.appendingPathComponent("a.json"), atomically: true, encoding: .utf8)
        var io = CommandIO(standardInput: { Data() }, currentDirectory: folder)
        #expect(TrellisCommandLine.run(["layout", "a.json", "--format", "svg"], io: &io) == 0)
        let labels = io.stdout.components(separatedBy: "<text ").dropFirst().compactMap { chunk -> String? in
            guard let start = chunk.firstIndex(of: ">"), let end = chunk.range(of: "</text>") else { return nil }
            return String(chunk[chunk.index(after: start)..<end.lowerBound])
        }
        #expect(Set(labels).count == labels.count, "\(labels)")
        #expect(labels.contains("−0·1"))
        #expect(labels.contains("+0·0") && labels.contains("+0·3"))
        #expect(labels.contains("0·0→0·1"))
    }
}

@Suite("The demo site")
struct DemoSiteTests {
    @Test("index.html links every page the demo wrote, each with a line of what it shows, and every link works")
    func links() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-site-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var io = CommandIO(standardInput: { Data() }, currentDirectory: FileManager.default.temporaryDirectory)
        #expect(TrellisCommandLine.run(["demo", "-o", folder.path], io: &io) == 0)
        let index = try String(contentsOf: folder.appendingPathComponent("index.html"), encoding: .utf8)
        let links = index.components(separatedBy: "href=\"").dropFirst().compactMap { $0.split(separator: "\"").first.map(String.init) }
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        for link in links { #expect(files.contains(link), "index.html links \(link), which the demo did not write") }
        let pages = files.filter { ($0.hasSuffix(".html") || $0.hasSuffix(".svg")) && $0 != "index.html" }
        for page in pages where !page.hasSuffix(".svg") || !files.contains(page.replacingOccurrences(of: ".svg", with: ".html")) {
            #expect(links.contains(page), "\(page) is not linked from index.html")
        }
        #expect(index.contains("— the data grid sorted by 分数"))
    }
}
