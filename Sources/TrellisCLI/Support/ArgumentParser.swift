import Foundation

/// One option of a command.
struct OptionDefinition {
    /// Every spelling, long first: `["--output", "-o"]`.
    var names: [String]
    /// The value's placeholder (`<file>`), or `nil` for a flag.
    var valueName: String?
    var help: String
    var repeatable = false
    /// The values the option takes, when they are a fixed set (what completion offers).
    var choices: [String] = []

    var key: String { names[0] }

    /// `-h, --help`, which every command takes.
    static let help = OptionDefinition(names: ["--help", "-h"], valueName: nil, help: "Show help information.")
    /// `--force`: what `-o` does with a read-only file.
    static let force = OptionDefinition(
        names: ["--force"], valueName: nil, help: "Replace the output file even if it is read-only.")
    /// `-o, --output`, with what the command writes there.
    static func output(_ help: String, valueName: String = "file") -> OptionDefinition {
        OptionDefinition(names: ["--output", "-o"], valueName: valueName, help: help)
    }
}

/// A command's definition: what its help shows and what its parser accepts.
struct CommandDefinition {
    var name: String
    var overview: String
    var arguments: [(name: String, help: String)]
    var options: [OptionDefinition]
    /// Extra paragraphs after the options (examples, exit statuses).
    var discussion: String = ""

    /// The command and its arguments, options left to the help: what a usage error shows.
    var shortUsage: String {
        (["trellis", name] + arguments.map { "<\($0.name)>" } + (options.count > 1 ? ["[options]"] : [])).joined(separator: " ")
    }

    var usage: String {
        var parts = ["trellis", name]
        parts += arguments.map { "<\($0.name)>" }
        for option in options where option.key != "--help" {
            let spelled = option.names.count > 1 && option.names[1].count == 2 ? option.names[1] : option.key
            parts.append(option.valueName.map { "[\(spelled) <\($0)>]" } ?? "[\(spelled)]")
        }
        return parts.joined(separator: " ")
    }

    var help: String {
        var out = "OVERVIEW: \(overview)\n\nUSAGE: \(usage)\n"
        if !arguments.isEmpty {
            out += "\nARGUMENTS:\n"
            for argument in arguments { out += Self.row("<\(argument.name)>", argument.help) }
        }
        out += "\nOPTIONS:\n"
        for option in options {
            let names = option.names.sorted { $0.count < $1.count }.joined(separator: ", ")
            out += Self.row(option.valueName.map { "\(names) <\($0)>" } ?? names, option.help)
        }
        if !discussion.isEmpty { out += "\n" + discussion + (discussion.hasSuffix("\n") ? "" : "\n") }
        return out
    }

    static func row(_ left: String, _ right: String) -> String {
        let indent = String(repeating: " ", count: 26)
        let lines = right.split(separator: "\n", omittingEmptySubsequences: false)
        var out = "  " + left
        if left.count + 2 < 26 { out += String(repeating: " ", count: 24 - left.count) } else { out += "\n" + indent }
        out += lines.joined(separator: "\n" + indent) + "\n"
        return out
    }

    /// Parses `arguments` (without the command name). `--name value`, `--name=value`, `-o value`,
    /// and `--` to end options are accepted.
    func parse(_ arguments: [String]) throws(CommandError) -> ParsedArguments {
        var result = ParsedArguments()
        var i = 0
        var optionsEnded = false
        while i < arguments.count {
            let argument = arguments[i]
            i += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                result.positionals.append(argument)
                continue
            }
            if argument == "--" { optionsEnded = true; continue }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let eq = argument.firstIndex(of: "=") {
                name = String(argument[..<eq])
                inlineValue = String(argument[argument.index(after: eq)...])
            }
            guard let option = options.first(where: { $0.names.contains(name) }) else {
                throw CommandError(.unknownOption(name, suggestion: closest(name, in: options.flatMap(\.names))))
            }
            if option.valueName == nil {
                if inlineValue != nil { throw CommandError(.takesNoValue(option: name)) }
                result.flags.insert(option.key)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard i < arguments.count else { throw CommandError(.missingValue(option: "\(name) <\(option.valueName ?? "value")>")) }
                value = arguments[i]
                i += 1
            }
            if !option.repeatable, result.values[option.key] != nil {
                throw CommandError(.givenTwice(option: option.key))
            }
            result.values[option.key, default: []].append(value)
        }
        return result
    }
}

/// The result of parsing a command line.
struct ParsedArguments {
    var positionals: [String] = []
    var values: [String: [String]] = [:]
    var flags: Set<String> = []

    func value(_ key: String) -> String? { values[key]?.last }
}

/// The candidate nearest to `word` by edit distance, if it is near enough to be a likely typo.
func closest(_ word: String, in candidates: [String]) -> String? {
    func distance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count), beforePrevious = previous
        for (i, ca) in a.enumerated() {
            var current = [i + 1]
            for (j, cb) in b.enumerated() {
                var d = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (ca == cb ? 0 : 1))
                // Two letters swapped (srot, sotr) count as one slip.
                if i > 0, j > 0, ca == b[j - 1], a[i - 1] == cb { d = min(d, beforePrevious[j - 1] + 1) }
                current.append(d)
            }
            beforePrevious = previous
            previous = current
        }
        return previous[b.count]
    }
    if let prefixed = candidates.filter({ $0.count > 2 && word.hasPrefix($0) || $0.hasPrefix(word) && word.count > 2 })
        .min(by: { $0.count < $1.count })
    {
        return prefixed
    }
    let w = Array(word)
    let scored = candidates.map { ($0, distance(w, Array($0))) }.sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
    guard let best = scored.first, best.1 <= max(1, w.count / 3) else { return nil }
    return best.0
}
