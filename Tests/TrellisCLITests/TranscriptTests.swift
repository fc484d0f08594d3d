import Foundation
import Testing
import TrellisCLI

/// Runs every `Transcripts/*.transcript` file: the command line on its first line, then the
/// expected exit status, standard output, standard error and any files the command wrote.
/// Commands run in-process in a scratch copy of the folder; `$TMP` stands for that copy's path.
/// A transcript with only its command line is recorded on the first run, as is every transcript
/// when `RECORD_SNAPSHOTS=1`; CI never records.
@Suite("Command-line transcripts")
struct TranscriptTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Transcripts")

    static var transcriptNames: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".transcript") }.sorted()
    }

    @Test("the transcript matches", arguments: transcriptNames)
    func transcript(name: String) throws {
        let url = Self.folder.appendingPathComponent(name)
        let text = try String(contentsOf: url, encoding: .utf8)
        let recorded = Transcript.parse(text)
        let actual = try Transcript.run(recorded.command, folder: Self.folder, files: recorded.fileNames)
        let recording = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"
        if recording || recorded.isBare {
            #expect(ProcessInfo.processInfo.environment["CI"] == nil, "\(name) has no recorded output; CI never records")
            try actual.rendered.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        #expect(actual.rendered == recorded.rendered, "\(name) differs:\n\(lineDiff(recorded.rendered, actual.rendered))")
    }

    @Test("there are transcripts to run")
    func transcriptsExist() {
        #expect(Self.transcriptNames.count >= 20)
    }
}

struct Transcript {
    var command: String
    var sections: [(name: String, body: String)] = []
    var isBare: Bool { sections.isEmpty }
    var fileNames: [String] {
        sections.compactMap { $0.name.hasPrefix("file ") ? String($0.name.dropFirst(5)) : nil }
    }

    var rendered: String {
        var out = "$ \(command)\n"
        for section in sections { out += "--- \(section.name)\n" + section.body }
        return out
    }

    static func parse(_ text: String) -> Transcript {
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        var transcript = Transcript(command: String((lines.first ?? "$ ").dropFirst(2)))
        for line in lines.dropFirst() {
            if line.hasPrefix("--- ") {
                transcript.sections.append((String(line.dropFirst(4)), ""))
            } else if !transcript.sections.isEmpty {
                transcript.sections[transcript.sections.count - 1].body += line + "\n"
            }
        }
        return transcript
    }

    /// Splits a command line like a shell would for simple cases: spaces, single and double
    /// quotes, and `< file` for standard input.
    static func words(_ command: String) -> (arguments: [String], stdin: String?) {
        var words: [String] = [], current = "", quote: Character?, inWord = false
        for c in command {
            if let q = quote {
                if c == q { quote = nil } else { current.append(c) }
            } else if c == "'" || c == "\"" {
                quote = c; inWord = true
            } else if c == " " {
                if inWord { words.append(current); current = ""; inWord = false }
            } else {
                current.append(c); inWord = true
            }
        }
        if inWord { words.append(current) }
        var stdin: String?
        if let i = words.firstIndex(of: "<"), i + 1 < words.count {
            stdin = words[i + 1]
            words.removeSubrange(i...i + 1)
        }
        return (Array(words.dropFirst()), stdin)
    }

    static func run(_ command: String, folder: URL, files: [String]) throws -> Transcript {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-transcript-\(UUID().uuidString)")
        // Only the inputs are copied: other tests may be rewriting their transcripts meanwhile.
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path)
        where !name.hasSuffix(".transcript") && !name.hasPrefix(".") {
            try FileManager.default.copyItem(at: folder.appendingPathComponent(name), to: scratch.appendingPathComponent(name))
        }
        defer { try? FileManager.default.removeItem(at: scratch) }
        let (arguments, stdinFile) = words(command)
        let input = try stdinFile.map { try Data(contentsOf: scratch.appendingPathComponent($0)) } ?? Data()
        var io = CommandIO(standardInput: { input }, currentDirectory: scratch)
        let status = TrellisCommandLine.run(arguments, io: &io)
        let clean = { (s: String) in s.replacingOccurrences(of: scratch.path, with: "$TMP") }
        var result = Transcript(command: command)
        result.sections = [("status", "\(status)\n"), ("stdout", clean(io.stdout)), ("stderr", clean(io.stderr))]
        for file in files {
            let contents = (try? String(contentsOf: scratch.appendingPathComponent(file), encoding: .utf8)) ?? "(missing)\n"
            result.sections.append(("file \(file)", clean(contents)))
        }
        return result
    }
}

/// A line diff: lines only in the expected text marked `-`, only in the actual text `+`.
func lineDiff(_ expected: String, _ actual: String) -> String {
    let e = expected.components(separatedBy: "\n"), a = actual.components(separatedBy: "\n")
    var out: [String] = []
    for i in 0..<max(e.count, a.count) {
        let el = i < e.count ? e[i] : nil, al = i < a.count ? a[i] : nil
        if el == al { continue }
        if let el { out.append("- \(i + 1): \(el)") }
        if let al { out.append("+ \(i + 1): \(al)") }
        if out.count > 40 { out.append("…"); break }
    }
    return out.joined(separator: "\n")
}
