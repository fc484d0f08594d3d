import Foundation

/// A run's figures kept as data: `Benchmarks/Results/<group>.json`, beside the targets the group
/// must meet in `Benchmarks/Thresholds/<group>.json`, which `TrellisBenchmarks compare <group>`
/// checks. The guides cite the command and the files rather than copying figures.
struct RunResults: Codable {
    /// One row of the report: its name, the value as printed, the value in seconds when it is a
    /// time, and the first ratio its note gives (`1.28× the decimal key in turn with it`).
    struct Figure: Codable {
        var name: String
        var text: String
        var seconds: Double?
        var ratio: Double?
        var note: String
    }

    var group: String
    var arguments: [String]
    var cores: Int
    var figures: [Figure]
    var verdicts: [String]

    init(group: String, arguments: [String], rows: [(String, String, String)], verdicts: [String]) {
        self.group = group
        self.arguments = arguments
        cores = ProcessInfo.processInfo.processorCount
        // (A group that reports its verdicts among its rows, `• …`, has them kept as verdicts.)
        let measured = rows.filter { !$0.0.isEmpty && !$0.0.hasPrefix("• ") }
        figures = measured.map { name, text, note in
            Figure(name: name, text: text, seconds: Self.seconds(text), ratio: Self.ratio(note), note: note)
        }
        self.verdicts = rows.filter { $0.0.hasPrefix("• ") }.map { String($0.0.dropFirst(2)) } + verdicts
    }

    /// A time as ``format(_:)`` prints it (`318.48 ms`, `1.29 s`, `827 ns`, `3.63 µs`), in seconds.
    static func seconds(_ text: String) -> Double? {
        let parts = text.split(separator: " ")
        guard parts.count == 2, let value = Double(parts[0]) else { return nil }
        switch parts[1] {
        case "s": return value
        case "ms": return value / 1e3
        case "µs": return value / 1e6
        case "ns": return value / 1e9
        default: return nil
        }
    }

    /// The first `N×` of a note (a ratio to a baseline measured in the same run).
    static func ratio(_ note: String) -> Double? {
        guard let times = note.firstIndex(of: "×") else { return nil }
        let number = note[..<times].reversed().prefix { $0.isNumber || $0 == "." }
        return Double(String(number.reversed()))
    }

    /// The folders beside this package's sources.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static func resultsFile(_ group: String) -> URL { folder.appendingPathComponent("Results/\(group).json") }
    static func thresholdsFile(_ group: String) -> URL { folder.appendingPathComponent("Thresholds/\(group).json") }

    /// Writes the results (sorted keys, one figure a line or so: a diff shows what moved).
    func write() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let file = Self.resultsFile(group)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try (encoder.encode(self) + Data("\n".utf8)).write(to: file)
    }
}

/// What a group's figures must meet: each a figure (by its name), the measure (`seconds` or
/// `ratio`) and the bound.
struct Thresholds: Codable {
    struct Target: Codable {
        var figure: String
        var measure: String
        var atMost: Double
        /// Why the bound is what it is.
        var why: String
    }

    var group: String
    /// The arguments the figures' names assume (`external 2000000 128M`), when not the defaults.
    var arguments: [String]?
    var targets: [Target]
}

/// `compare <group> [results.json]`: each target of the group against the figure of the run, and
/// exit status 1 when one is missed or its figure is missing.
func compareWithThresholds(group: String, resultsPath: String?) -> Int32 {
    let decoder = JSONDecoder()
    let resultsURL = resultsPath.map { URL(fileURLWithPath: $0) } ?? RunResults.resultsFile(group)
    guard let thresholdsData = try? Data(contentsOf: RunResults.thresholdsFile(group)),
        let thresholds = try? decoder.decode(Thresholds.self, from: thresholdsData)
    else {
        print("no thresholds for '\(group)': \(RunResults.thresholdsFile(group).path) is missing or not valid")
        return 1
    }
    guard let resultsData = try? Data(contentsOf: resultsURL), let results = try? decoder.decode(RunResults.self, from: resultsData) else {
        print("no results for '\(group)' at \(resultsURL.path): run `swift run -c release --package-path Benchmarks TrellisBenchmarks \(group)`")
        return 1
    }
    var failed = 0
    print("\(group): \(results.arguments.joined(separator: " ")) on \(results.cores) cores")
    if let wanted = thresholds.arguments, wanted != results.arguments {
        print("  (the thresholds name the figures of a run with: \(wanted.joined(separator: " ")))")
    }
    for target in thresholds.targets {
        let figure = results.figures.first { $0.name == target.figure }
        let value = target.measure == "ratio" ? figure?.ratio : figure?.seconds
        guard let value else {
            print("  missing  \(target.figure) (\(target.measure))")
            failed += 1
            continue
        }
        let met = value <= target.atMost
        if !met { failed += 1 }
        let shown = target.measure == "ratio" ? String(format: "%.2f×", value) : format(value)
        let bound = target.measure == "ratio" ? String(format: "%.2f×", target.atMost) : format(target.atMost)
        print("  \(met ? "meets " : "MISSES") \(target.figure): \(shown) (at most \(bound): \(target.why))")
    }
    print(failed == 0 ? "every target met" : "\(failed) target\(failed == 1 ? "" : "s") missed or missing")
    return failed == 0 ? 0 : 1
}
