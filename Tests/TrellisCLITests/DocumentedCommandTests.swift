import Foundation
import Testing
import TrellisCLI
import TrellisTestSupport

/// Every command the README and the guides show is run against the shipped examples, and what it
/// prints is what the page shows: each `$ trellis …` line of a code block is run (in a fresh
/// folder that holds `Examples/`, so that what one command writes the next can read) and its
/// standard output, then its standard error, as a terminal shows them, must be the lines under it
/// up to the next `$` — a line of its own `…` stands for any number of lines. A command the page
/// shows without output must print nothing. Commands in the prose (`trellis layout
/// Examples/….json --format svg`) that read a shipped example must succeed.
@Suite("Commands in the documentation")
struct DocumentedCommandTests {
    static let root = ReadmeTests.root

    /// The Markdown pages that show commands.
    static var pages: [String] {
        let documentation = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Documentation").path)) ?? []
        return ["README.md"] + documentation.filter { $0.hasSuffix(".md") }.sorted().map { "Documentation/" + $0 }
    }

    struct Example {
        var page: String
        var line: Int
        var command: String
        var output: [String]
    }

    /// The `$ trellis` lines of a page's code blocks, each with the lines shown under it.
    static func examples(in page: String) throws -> [[Example]] {
        let text = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
        var blocks: [[Example]] = []
        var inBlock = false
        var current: [Example] = []
        for (number, line) in text.components(separatedBy: "\n").enumerated() {
            if line.hasPrefix("```") {
                if inBlock, !current.isEmpty { blocks.append(current) }
                current = []
                inBlock.toggle()
                continue
            }
            guard inBlock else { continue }
            if line.hasPrefix("$ ") {
                current.append(Example(page: page, line: number + 1, command: String(line.dropFirst(2)), output: []))
            } else if !current.isEmpty {
                current[current.count - 1].output.append(line)
            }
        }
        return blocks.map { $0.filter { $0.command.hasPrefix("trellis ") } }.filter { !$0.isEmpty }
    }

    /// A command line split as a POSIX shell splits it: single quotes, double quotes, backslashes.
    /// Anything else a shell would do (pipes, redirections, substitutions) is refused.
    static func words(_ command: String) throws -> [String] {
        var words: [String] = [], word = "", inWord = false
        var quote: Character?
        var escaped = false
        for character in command {
            if escaped { word.append(character); escaped = false; continue }
            if let open = quote {
                if character == open { quote = nil } else if character == "\\" && open == "\"" { escaped = true } else { word.append(character) }
                continue
            }
            switch character {
            case "'", "\"": quote = character; inWord = true
            case "\\": escaped = true; inWord = true
            case " ", "\t":
                if inWord { words.append(word); word = ""; inWord = false }
            case "|", "<", ">", "$", "`", ";", "&", "(", ")":
                throw DocumentError(description: "a shell feature (\(character)) in a documented command: \(command)")
            default: word.append(character); inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }

    struct DocumentError: Error, CustomStringConvertible { var description: String }

    /// Whether `lines` are what `expected` shows, a line `…` standing for any run of lines.
    static func matches(_ lines: ArraySlice<String>, _ expected: ArraySlice<String>) -> Bool {
        guard let first = expected.first else { return lines.isEmpty }
        if first == "…" {
            return (lines.startIndex...lines.endIndex).contains { matches(lines[$0...], expected.dropFirst()) }
        }
        guard let line = lines.first, line == first else { return false }
        return matches(lines.dropFirst(), expected.dropFirst())
    }

    static func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-docs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("Examples"),
            withDestinationURL: root.appendingPathComponent("Examples"))
        return folder
    }

    /// An installed `trellis` (the `TRELLIS_BINARY` a run is given, as `.ci/run` gives the one
    /// it installed by following the README), or `nil` to run the command line in this process.
    static var installed: String? { ProcessInfo.processInfo.environment["TRELLIS_BINARY"] }

    /// Runs a documented command in `folder`: typed into a shell, as the page shows it, with the
    /// installed `trellis` first on the `PATH` — or, without one, in this process.
    static func run(_ command: String, words: [String], in folder: URL) throws -> (String, String, Int32) {
        guard let installed else {
            var io = CommandIO(currentDirectory: folder)
            let status = TrellisCommandLine.run(Array(words.dropFirst()), io: &io)
            return (io.stdout, io.stderr, status)
        }
        let errors = folder.appendingPathComponent(".stderr")
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = URL(fileURLWithPath: installed).deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        let result = try ChildProcess.run(
            ["/bin/sh", "-c", #"cd "$1" && eval "$2" 2>"$3""#, "sh", folder.path, command, errors.path],
            environment: environment, timeout: 120)
        let stderr = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(at: errors)
        return (result.output, stderr, result.status)
    }

    @Test("every $ trellis line of the README and the guides prints what the page shows under it")
    func codeBlocks() throws {
        var run = 0
        for page in Self.pages {
            for block in try Self.examples(in: page) {
                // One folder per block: a block's commands may read what the ones before wrote.
                let folder = try Self.scratch()
                defer { try? FileManager.default.removeItem(at: folder) }
                for example in block {
                    let words = try Self.words(example.command)
                    // A server the page names by an example address is not there to ask; the
                    // PostgreSQL tests run the same sorts against a server of their own.
                    if words.contains(where: { $0.hasPrefix("postgresql://") }) { continue }
                    let (stdout, stderr, status) = try Self.run(example.command, words: words, in: folder)
                    let printed = (stdout + stderr).components(separatedBy: "\n")
                    let lines = printed.last == "" ? printed.dropLast() : printed[...]
                    var expected = example.output[...]
                    while expected.last == "" { expected = expected.dropLast() }
                    #expect(
                        Self.matches(lines, expected),
                        "\(example.page):\(example.line): \(example.command)\nprinted:\n\(lines.joined(separator: "\n"))\npage shows:\n\(expected.joined(separator: "\n"))"
                    )
                    let isError = expected.first?.hasPrefix("Error:") ?? false
                    #expect((status == 0) != isError, "\(example.page):\(example.line): exit status \(status)")
                    run += 1
                }
            }
        }
        #expect(run >= 10, "the pages' commands were found: \(run)")
    }

    @Test("a command in the prose that reads a shipped example succeeds")
    func proseCommands() throws {
        var run = 0
        for page in Self.pages {
            let text = try String(contentsOf: Self.root.appendingPathComponent(page), encoding: .utf8)
            for piece in text.components(separatedBy: "`").enumerated().filter({ $0.offset % 2 == 1 }).map(\.element) {
                guard piece.hasPrefix("trellis sort ") || piece.hasPrefix("trellis layout "), piece.contains("Examples/"),
                    let words = try? Self.words(piece)
                else { continue }
                let folder = try Self.scratch()
                defer { try? FileManager.default.removeItem(at: folder) }
                var io = CommandIO(currentDirectory: folder)
                let status = TrellisCommandLine.run(Array(words.dropFirst()), io: &io)
                #expect(status == 0 && !io.stdout.isEmpty, "\(page): \(piece): \(io.stderr)")
                run += 1
            }
        }
        #expect(run >= 2, "the prose's commands were found: \(run)")
    }

    @Test("the shipped scores hold what the pages say: a 缺考 cell, a stale 平均 row, the same rows in SQLite")
    func shippedScores() throws {
        let csv = try String(contentsOf: Self.root.appendingPathComponent("Examples/scores.csv"), encoding: .utf8)
        #expect(csv.contains(",缺考,") && csv.contains("\n平均,,"))
        var fromCSV = CommandIO(currentDirectory: Self.root), fromSQLite = CommandIO(currentDirectory: Self.root)
        #expect(TrellisCommandLine.run(["sort", "Examples/scores.csv", "--format", "csv"], io: &fromCSV) == 0)
        #expect(TrellisCommandLine.run(["sort", "Examples/scores.sqlite", "--table", "scores", "--format", "csv"], io: &fromSQLite) == 0)
        // (A CSV file's output keeps its line ends; a database's is written with CRLF, as RFC 4180 says.)
        #expect(
            fromCSV.stdout == fromSQLite.stdout.replacingOccurrences(of: "\r\n", with: "\n"),
            "the database holds the CSV file's rows, cell for cell")
        // Sorted by the score, both warn of the same 缺考 cell, where it sorts, and of the stale 平均.
        for direction in ["分数", "分数:desc"] {
            var csvSorted = CommandIO(currentDirectory: Self.root), sqliteSorted = CommandIO(currentDirectory: Self.root)
            #expect(TrellisCommandLine.run(["sort", "Examples/scores.csv", "--by", direction, "--pin-bottom", "组号=平均"], io: &csvSorted) == 0)
            #expect(
                TrellisCommandLine.run(
                    [
                        "sort", "Examples/scores.sqlite", "--table", "scores", "--by", direction,
                        "--pin-bottom", "组号=平均",
                    ], io: &sqliteSorted) == 0)
            #expect(csvSorted.stderr == sqliteSorted.stderr && csvSorted.stderr.contains("(row 6: 缺考)"), "\(sqliteSorted.stderr)")
            #expect(csvSorted.stdout == sqliteSorted.stdout)
        }
    }

    @Test("the README's package snippet names a product the package has")
    func packageSnippet() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(readme.contains(".product(name: \"Trellis\", package: \"trellis\")"))
        #expect(manifest.contains(".library(name: \"Trellis\", targets: [\"Trellis\"])"))
    }
}
