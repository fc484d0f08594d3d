import Foundation
import Testing
import TrellisCLI

/// The README's example must stay true: its spec is `Examples/flow-basic.json` and its output is
/// what `trellis layout` prints for it.
@Suite("README")
struct ReadmeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func block(after marker: String, in text: String) -> String? {
        guard let start = text.range(of: marker),
            let open = text.range(of: "```json\n", range: start.upperBound..<text.endIndex),
            let close = text.range(of: "```", range: open.upperBound..<text.endIndex)
        else { return nil }
        return String(text[open.upperBound..<close.lowerBound])
    }

    @Test("the README's example spec is the shipped example and its output is what the command prints")
    func exampleIsTrue() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let spec = try #require(Self.block(after: "<!-- example-spec -->", in: readme))
        let output = try #require(Self.block(after: "<!-- example-output -->", in: readme))
        let example = try String(contentsOf: Self.root.appendingPathComponent("Examples/flow-basic.json"), encoding: .utf8)
        #expect(spec == example)
        var io = CommandIO(currentDirectory: Self.root)
        let status = TrellisCommandLine.run(["layout", "Examples/flow-basic.json", "--rect", "0,240,375,100"], io: &io)
        #expect(status == 0)
        #expect(io.stdout == output)
        #expect(readme.contains("swift run trellis demo") && readme.contains("swift test"))
    }
}

extension ReadmeTests {
    @Test("the demo's built-in grid is the shipped example table")
    func demoGridIsTheExample() throws {
        let example = try String(contentsOf: Self.root.appendingPathComponent("Examples/groups.csv"), encoding: .utf8)
        var io = CommandIO(currentDirectory: Self.root)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(TrellisCommandLine.run(["demo", "-o", folder.path], io: &io) == 0)
        var sorted = CommandIO(currentDirectory: Self.root)
        #expect(
            TrellisCommandLine.run(
                ["sort", "Examples/groups.csv", "--by", "分数:desc", "--pin-bottom", "组号=平均"],
                io: &sorted) == 0)
        let demoText = try String(contentsOf: folder.appendingPathComponent("grid.txt"), encoding: .utf8)
        #expect(demoText == sorted.stdout, "the demo sorts the same table as Examples/groups.csv")
        #expect(example.contains("平均,,81.375,"))
    }
}
