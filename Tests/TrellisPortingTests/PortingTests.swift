import Foundation
import Testing
import TrellisPort
import TrellisTestSupport

/// UIKit code ported by the mechanical step alone, compiled in a package of its own against
/// this one, the way a user's code is: the samples in `UIKit/` (written as one writes for UIKit,
/// kept as text the build does not compile) must compile and report the figures of
/// `Expected.txt`, and every Swift snippet of the README and the guides must compile with
/// `import Trellis` alone. The samples in `ObjC/` use the idioms only the Objective-C runtime
/// compiles; they are ported by `trellis port` (the library behind it) and then checked alike.
@Suite("Porting UIKit code", .serialized)
struct PortingTests {
    @Test("the mechanical step is exactly the documented one: UIKit's names Trellis has, and no other")
    func mechanicalStep() {
        let source = """
            import UIKit
            let a = UICollectionViewFlowLayout(); let b: UIEdgeInsets = .zero
            var s = NSDiffableDataSourceSnapshot<Int, Int>(); let g = NSCollectionLayoutGroup.self
            let t = CATransform3DMakeScale(1, 1, 1); let l = CALayer(); let n = NSObject(); let k = UIKitty()
            """
        #expect(
            Porting.mechanicalStep(source) == """
                import Trellis
                let a = CollectionViewFlowLayout(); let b: EdgeInsets = .zero
                var s = DiffableDataSourceSnapshot<Int, Int>(); let g = CollectionLayoutGroup.self
                let t = Transform3DMakeScale(1, 1, 1); let l = CALayer(); let n = NSObject(); let k = UIKitty()
                """)
    }

    @Test("UIKit samples compile after the mechanical step alone and compute UIKit's figures")
    func samples() throws {
        let scratch = try Porting.scratch.get()
        try Self.checkFigures(of: "Ported", failure: scratch.samplesFailure, what: "the ported samples", in: scratch)
    }

    @Test("UIKit samples compile as they are written, `import UIKit` and UIKit's names, against the UIKit module, and compute UIKit's figures")
    func samplesAsWritten() throws {
        let scratch = try Porting.scratch.get()
        try Self.checkFigures(of: "AsWritten", failure: scratch.asWrittenFailure, what: "the samples as written", in: scratch)
    }

    /// Runs the scratch package's `target` (unless it did not build) and records where what it
    /// reports differs from `Expected.txt`.
    static func checkFigures(of target: String, failure: String?, what: String, in scratch: Porting.Scratch) throws {
        if let failure { Issue.record("\(what) did not build:\n\(failure)"); return }
        let output = try Porting.run(scratch.executable(target))
        let expected = try String(contentsOf: Porting.here.appendingPathComponent("Expected.txt"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            .filter { !$0.hasPrefix("#") && !$0.isEmpty }
        let actual = output.split(separator: "\n").map(String.init)
        if actual != expected {
            Issue.record("\(what) reported other figures:\n\(Porting.diff(expected: expected, actual: actual))")
        }
    }

    @Test("trellis port rewrites every Objective-C idiom of the ObjC samples, leaves nothing, and a second run changes nothing")
    func objcSamplesPortCompletely() throws {
        let outcome = try Porting.portedObjCSamples()
        #expect(outcome.left.isEmpty, "left: \(outcome.left.map(\.description))")
        for file in outcome.files {
            #expect(
                !file.ported.contains("@objc") && !file.ported.contains("#selector") && !file.ported.contains("?("),
                "\(file.path) still holds an Objective-C idiom")
        }
        let again = try SwiftPort.port(outcome.files.map { (path: $0.path, text: $0.ported) })
        #expect(again.changes.isEmpty && again.left.isEmpty, "a second run changed: \(again.changes.map(\.description))")
        #expect(again.files.allSatisfy { $0.original == $0.ported })
    }

    @Test("every Swift snippet of the README and the guides compiles with `import Trellis` alone, without warnings, and runs")
    func snippets() throws {
        let scratch = try Porting.scratch.get()
        if let failure = scratch.snippetsFailure { Issue.record("a snippet did not build:\n\(failure)"); return }
        #expect(scratch.snippetWarnings.isEmpty, "the snippets build without warnings:\n\(scratch.snippetWarnings.joined(separator: "\n"))")
        var checked = 0
        for target in scratch.snippetTargets {
            let result = try Porting.process(scratch.executable(target), [])
            #expect(result.status == 0, "\(target) stopped with status \(result.status):\n\(result.output)")
            // What each commented print printed, line by line, against its comment.
            var printed: [Int: [String]] = [:]
            for line in result.output.split(separator: "\n", omittingEmptySubsequences: false) where line.hasPrefix("⟦") {
                guard let close = line.firstIndex(of: "⟧"), let marker = Int(line[line.index(after: line.startIndex)..<close]) else { continue }
                printed[marker, default: []].append(String(line[line.index(after: close)...].dropFirst()))
            }
            for (marker, claim) in scratch.snippetClaims[target] ?? [:] {
                let expected = claim.lines
                let lines = printed[marker] ?? []
                let matches = lines.count == expected.count && zip(lines, expected).allSatisfy { Porting.matches($0, claim: $1) }
                #expect(matches, "\(claim.place) prints \(lines) where its comment says \(expected)")
                checked += 1
            }
        }
        #expect(checked >= 20, "the snippets' prints should say what they print; \(checked) do")
        #expect(scratch.snippetCount >= 10, "the documents should hold the snippets; found \(scratch.snippetCount)")
    }

    @Test("CGRect.intersects gives Core Graphics' answer in a file that imports Foundation too, in either order, in both language modes")
    func foundationBesideTrellis() throws {
        let scratch = try Porting.scratch.get()
        if let failure = scratch.snippetsFailure { Issue.record("a target did not build:\n\(failure)"); return }
        // Touching rectangles: false is Core Graphics' answer, true Foundation's on Linux.
        let expected = """
            Foundation, Trellis: false
            Trellis, Foundation: false
            CoreGraphics: false
            Foundation, CoreGraphics: false
            Foundation, QuartzCore: false
            UIKit: false
            Foundation, UIKit, CoreGraphics: false
            Foundation alone, beside a file that imports Trellis: false
            """
        let plain = try Porting.run(scratch.executable("ImportOrders"))
        #expect(plain == expected + "\n", "Swift 6 mode:\n\(plain)")
        // With `MemberImportVisibility` a file sees only the extensions of what it imports: the
        // one import that cannot get Core Graphics' answer is Foundation alone.
        let strict = try Porting.run(scratch.executable("ImportOrdersStrict"))
        #expect(
            strict == expected.replacingOccurrences(
                of: "file that imports Trellis: false",
                with: "file that imports Trellis: true") + "\n",
            "Swift 6 mode with MemberImportVisibility:\n\(strict)")
    }
}

/// Building and running the scratch package.
enum Porting {
    /// This test target's folder.
    static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    /// The repository root.
    static let root = here.deletingLastPathComponent().deletingLastPathComponent()

    /// `import UIKit` → `import Trellis`; `UIName` → `Name`; `NSCollectionLayout…` and
    /// `NSDiffableDataSource…` lose their `NS`; `CATransform3D…` loses its `CA`. Nothing else.
    static func mechanicalStep(_ source: String) -> String { SwiftPort.mechanicalStep(source) }

    /// The `ObjC/` samples, ported together by `trellis port`'s library.
    static func portedObjCSamples() throws -> PortOutcome {
        let folder = here.appendingPathComponent("ObjC")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
        return try SwiftPort.port(names.map { (path: $0, text: try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)) })
    }

    struct Scratch {
        let directory: URL
        /// Why the ported samples did not build, or `nil`.
        let samplesFailure: String?
        /// Why the samples as written (against the UIKit module) did not build, or `nil`.
        let asWrittenFailure: String?
        /// Why some snippet did not build, or `nil`.
        let snippetsFailure: String?
        /// The compiler's warnings about the documents' snippets.
        let snippetWarnings: [String]
        let snippetTargets: [String]
        /// Each snippet's commented prints, by the marker its print was given.
        let snippetClaims: [String: [Int: Claim]]
        var snippetCount: Int { snippetTargets.count }
        func executable(_ name: String) -> URL { directory.appendingPathComponent(".build/debug/\(name)") }
    }

    /// The scratch package, built once for every test of the suite.
    static let scratch: Result<Scratch, Error> = Result { try buildScratch() }

    /// A print of a snippet and what its comments say it prints, line by line.
    struct Claim {
        /// The document and line, for messages.
        let place: String
        let lines: [String]
    }

    /// A claimed line as the documents write it: the printed text, then optionally ` — ` or a
    /// run of spaces and why.
    static func claimedLine(_ comment: String) -> String {
        var claim = comment
        if let range = claim.range(of: " — ") { claim = String(claim[..<range.lowerBound]) }
        if let range = claim.range(of: "  ") { claim = String(claim[..<range.lowerBound]) }
        return claim.trimmingCharacters(in: .whitespaces)
    }

    /// Whether `line` is what `claim` says: the same text, where a `…` in the claim stands for the
    /// digits the comment left out.
    static func matches(_ line: String, claim: String) -> Bool {
        var line = Substring(line)
        for (index, piece) in claim.components(separatedBy: "…").enumerated() {
            if index > 0 { line = line.drop { $0.isNumber } }
            guard line.hasPrefix(piece) else { return false }
            line = line.dropFirst(piece.count)
        }
        return line.isEmpty
    }

    /// `source` with each commented `print(…)` given a numbered marker as its first item, and
    /// what each marker's print should print. The documents' convention: a comment on the
    /// print's line gives what it prints (`, then ` between the lines of a print run more than
    /// once); a print without one is followed by a comment line per printed line (after the
    /// braces that close its loop, if it is in one).
    static func markPrints(_ source: String, place: (Int) -> String) -> (String, [Int: Claim]) {
        var claims: [Int: Claim] = [:]
        let pattern = try! NSRegularExpression(pattern: #"^(\s*)print\((.*?)\)(?:(\s+)//\s?(.*))?$"#)
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let trimmed = lines.map { $0.trimmingCharacters(in: .whitespaces) }
        var marked = lines
        for (index, text) in lines.enumerated() {
            guard let match = pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) else { continue }
            let group = { (k: Int) in Range(match.range(at: k), in: text).map { String(text[$0]) } }
            var expected: [String]
            if let comment = group(4) {
                expected = comment.components(separatedBy: ", then ").map(claimedLine)
            } else {
                var next = index + 1
                while next < lines.count, trimmed[next] == "}" { next += 1 }
                expected = []
                while next < lines.count, trimmed[next].hasPrefix("//") {
                    expected.append(claimedLine(String(trimmed[next].dropFirst(2))))
                    next += 1
                }
            }
            guard !expected.isEmpty else { continue }
            let marker = claims.count
            claims[marker] = Claim(place: place(index), lines: expected)
            marked[index] = "\(group(1)!)print(\"⟦\(marker)⟧\", \(group(2)!))\(group(3) ?? "")\(group(4).map { "// " + $0 } ?? "")"
        }
        return (marked.joined(separator: "\n"), claims)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func buildScratch() throws -> Scratch {
        let directory = root.appendingPathComponent(".build/porting")
        let fm = FileManager.default
        try? fm.removeItem(at: directory.appendingPathComponent("Sources"))
        try fm.createDirectory(at: directory.appendingPathComponent("Sources"), withIntermediateDirectories: true)
        func write(_ text: String, _ path: String) throws {
            let url = directory.appendingPathComponent(path)
            try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        // The samples, ported, with the test bench that runs them.
        let sampleFiles = try fm.contentsOfDirectory(atPath: here.appendingPathComponent("UIKit").path)
            .filter { $0.hasSuffix(".swift") }.sorted()
        // And the same samples as they are written, `import UIKit` and every UIKit name, against
        // the UIKit module (the Objective-C ones ported by `trellis port`).
        for name in sampleFiles {
            let text = try String(contentsOf: here.appendingPathComponent("UIKit/\(name)"), encoding: .utf8)
            try write(mechanicalStep(text), "Sources/Ported/\(name)")
            try write(text, "Sources/AsWritten/\(name)")
        }
        for file in try portedObjCSamples().files {
            try write(file.ported, "Sources/Ported/ObjC_\(file.path)")
            try write(file.ported, "Sources/AsWritten/ObjC_\(file.path)")
        }
        for name in try fm.contentsOfDirectory(atPath: here.appendingPathComponent("Harness").path) where name.hasSuffix(".swift") {
            let text = try String(contentsOf: here.appendingPathComponent("Harness/\(name)"), encoding: .utf8)
            try write(text, "Sources/Ported/\(name)")
            try write(text, "Sources/AsWritten/\(name)")
        }
        // Every snippet of the documents, each its own program.
        var snippetTargets: [String] = []
        var snippetClaims: [String: [Int: Claim]] = [:]
        let documents =
            ["README.md"]
            + (try fm.contentsOfDirectory(atPath: root.appendingPathComponent("Documentation").path))
            .filter { $0.hasSuffix(".md") }.sorted().map { "Documentation/\($0)" }
        for document in documents {
            let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
            for (index, snippet) in swiftSnippets(text).enumerated() {
                let stem = URL(fileURLWithPath: document).deletingPathExtension().lastPathComponent
                let target = "Snippet_\(stem.filter { $0.isLetter || $0.isNumber })_\(index)"
                let (marked, claims) = markPrints(snippet.source) { "\(document):\(snippet.line + $0)" }
                let body = snippet.source.contains("import Trellis") ? marked : "import Trellis\n\n" + marked
                try write("// \(document), Swift snippet \(index + 1)\n" + body, "Sources/\(target)/main.swift")
                snippetTargets.append(target)
                snippetClaims[target] = claims
            }
        }
        // One call of `intersects` on touching rectangles per combination of imports.
        for target in ["ImportOrders", "ImportOrdersStrict"] {
            for (file, imports, label) in importOrders {
                try write(
                    imports.map { "import \($0)\n" }.joined() + """

                        func \(file)() -> String {
                            let a = CGRect(x: 0, y: 0, width: 10, height: 10)
                            return "\(label): \\(a.intersects(CGRect(x: 10, y: 0, width: 10, height: 10)))"
                        }

                        """, "Sources/\(target)/\(file).swift")
            }
            try write("import Trellis\n\n" + importOrders.map { "print(\($0.file)())\n" }.joined(), "Sources/\(target)/main.swift")
        }
        let targets =
            (["Ported", "ImportOrders"] + snippetTargets).map { name in
                // The samples also import CoreGraphics and QuartzCore, as UIKit files do.
                let extra =
                    ["Ported", "ImportOrders"].contains(name)
                    ? ", .product(name: \"CoreGraphics\", package: \"Trellis\"), .product(name: \"QuartzCore\", package: \"Trellis\"), "
                        + ".product(name: \"UIKit\", package: \"Trellis\")" : ""
                return """
                            .executableTarget(name: "\(name)", dependencies: [.product(name: "Trellis", package: "Trellis")\(extra)],
                                              swiftSettings: [.swiftLanguageMode(\(name == "Ported" ? ".v5" : ".v6"))]),
                    """
            }.joined(separator: "\n") + """

                        .executableTarget(name: "AsWritten", dependencies: [.product(name: "Trellis", package: "Trellis"), .product(name: "UIKit", package: "Trellis"), .product(name: "CoreGraphics", package: "Trellis"), .product(name: "QuartzCore", package: "Trellis")],
                                          swiftSettings: [.swiftLanguageMode(.v5)]),
                        .executableTarget(name: "ImportOrdersStrict", dependencies: [.product(name: "Trellis", package: "Trellis"), .product(name: "CoreGraphics", package: "Trellis"), .product(name: "QuartzCore", package: "Trellis"), .product(name: "UIKit", package: "Trellis")],
                                          swiftSettings: [.swiftLanguageMode(.v6), .enableUpcomingFeature("MemberImportVisibility")]),
                """
        try write(
            """
            // swift-tools-version: 6.0
            // Made by the porting tests: ported UIKit samples and the documents' snippets, built
            // against Trellis as a user's package would build.
            import PackageDescription

            let package = Package(
                name: "PortingScratch",
                dependencies: [.package(name: "Trellis", path: "\(root.path)")],
                targets: [
            \(targets)
                ]
            )

            """, "Package.swift")
        // The samples first, so that a broken snippet does not hide their figures.
        let samples = try swift([
            "build", "--disable-build-manifest-caching", "--package-path", directory.path,
            "--product", "Ported",
        ])
        let asWritten = try swift([
            "build", "--disable-build-manifest-caching", "--package-path", directory.path, "--product", "AsWritten",
        ])
        let snippets = try swift(["build", "--disable-build-manifest-caching", "--package-path", directory.path])
        let warnings = snippets.output.split(separator: "\n").map(String.init)
            .filter { $0.contains("/Sources/Snippet_") && $0.contains(" warning: ") }
        return Scratch(
            directory: directory, samplesFailure: samples.status == 0 ? nil : errors(in: samples.output),
            asWrittenFailure: asWritten.status == 0 ? nil : errors(in: asWritten.output),
            snippetsFailure: snippets.status == 0 ? nil : errors(in: snippets.output),
            snippetWarnings: Array(Set(warnings)).sorted(), snippetTargets: snippetTargets, snippetClaims: snippetClaims)
    }

    /// The files of the import-order targets: a function name, the file's imports, and the label
    /// it prints.
    static let importOrders: [(file: String, imports: [String], label: String)] = [
        ("foundationFirst", ["Foundation", "Trellis"], "Foundation, Trellis"),
        ("trellisFirst", ["Trellis", "Foundation"], "Trellis, Foundation"),
        ("coreGraphics", ["CoreGraphics"], "CoreGraphics"),
        ("foundationCoreGraphics", ["Foundation", "CoreGraphics"], "Foundation, CoreGraphics"),
        ("foundationQuartzCore", ["Foundation", "QuartzCore"], "Foundation, QuartzCore"),
        ("uiKit", ["UIKit"], "UIKit"),
        ("foundationUIKit", ["Foundation", "UIKit", "CoreGraphics"], "Foundation, UIKit, CoreGraphics"),
        ("foundationAlone", ["Foundation"], "Foundation alone, beside a file that imports Trellis"),
    ]

    /// The bodies of the ```swift fences of a Markdown document, each with the number of its
    /// first line in the document.
    static func swiftSnippets(_ markdown: String) -> [(source: String, line: Int)] {
        var snippets: [(source: String, line: Int)] = []
        var current: [Substring]?
        var first = 0
        for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
                current = []
                first = index + 2
            } else if current != nil, line.trimmingCharacters(in: .whitespaces) == "```" {
                snippets.append((current!.joined(separator: "\n") + "\n", first))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return snippets
    }

    /// The error lines of a build log, with their context.
    static func errors(in log: String) -> String {
        let lines = log.split(separator: "\n").map(String.init)
        let picked = lines.enumerated().filter { $0.element.contains("error:") }.flatMap { index, _ in
            lines[index..<min(lines.count, index + 6)]
        }
        return (picked.isEmpty ? Array(lines.suffix(40)) : Array(picked.prefix(120))).joined(separator: "\n")
    }

    static func run(_ executable: URL) throws -> String {
        let result = try process(executable, [])
        guard result.status == 0 else { throw Failure(description: "\(executable.lastPathComponent) failed:\n\(result.output)") }
        return result.output
    }

    static func swift(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try process(toolchainTool("swift"), arguments)
    }

    /// A tool of the toolchain running the tests: from `PATH`, else the usual install place.
    static func toolchainTool(_ name: String) -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return URL(fileURLWithPath: "/opt/swift/usr/bin/\(name)")
    }

    /// Runs a program to its end (at most 20 minutes), with its output and errors together.
    static func process(_ executable: URL, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try ChildProcess.run([executable.path] + arguments, mergeStandardError: true, timeout: 1200)
        return (result.status, result.timedOut ? result.output + "\n(stopped after 20 minutes)" : result.output)
    }

    /// The two lists side by side where they differ.
    static func diff(expected: [String], actual: [String]) -> String {
        var lines: [String] = []
        for index in 0..<max(expected.count, actual.count) {
            let e = index < expected.count ? expected[index] : "(nothing)"
            let a = index < actual.count ? actual[index] : "(nothing)"
            if e != a { lines.append("line \(index + 1):\n  expected \(e)\n  actual   \(a)") }
        }
        return lines.joined(separator: "\n")
    }
}
