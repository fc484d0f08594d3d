import Foundation
import TrellisGrid

/// What is wrong with a command line, and how to put it right: the vocabulary every command's
/// options share, each case rendered in one place (``message``), as the usage error a command
/// reports (exit status 64, its usage line and a help hint after the message).
enum UsageError: Error, Equatable {
    /// An argument the command needs is missing: `<file>`.
    case missingArgument(String)
    /// More arguments than the command takes.
    case unexpectedArgument(String)
    /// An option the command does not have, with the nearest it has.
    case unknownOption(String, suggestion: String?)
    /// An option given without its value: `--by <key>`.
    case missingValue(option: String)
    /// A flag given a value.
    case takesNoValue(option: String)
    /// An option that may be given once, given again.
    case givenTwice(option: String)
    /// A value an option does not take: what was given, the option (`--precision <n>`), what it
    /// takes, and the nearest value it takes, where one is near.
    case invalidValue(String, option: String, expected: String, suggestion: String? = nil)
    /// A part of a value that is wrong: its kind (`function`, `sort modifier`, `type`), the part,
    /// the whole option as given (`--summary avg=median:分数`) and what the part may be.
    case invalidPart(kind: String, part: String, given: String, expected: String)
    /// Options that do not go together, or a rule between them, said with the way out.
    case rule(String)

    var message: String {
        switch self {
        case .missingArgument(let name): return "Missing expected argument '\(name)'"
        case .unexpectedArgument(let argument): return "Unexpected argument '\(Excerpt.of(argument))'"
        case .unknownOption(let name, let suggestion):
            return "Unknown option '\(Excerpt.of(name))'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
        case .missingValue(let option): return "Missing value for '\(option)'"
        case .takesNoValue(let option): return "Option '\(option)' takes no value"
        case .givenTwice(let option): return "Option '\(option)' given more than once"
        case .invalidValue(let value, let option, let expected, let suggestion):
            return "Invalid value '\(Excerpt.of(value))' for '\(option)'; expected \(expected)"
                + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
        case .invalidPart(let kind, let part, let given, let expected):
            return "Invalid \(kind) '\(Excerpt.of(part))' in '\(Excerpt.of(given))'; expected \(expected)"
        case .rule(let text): return text
        }
    }
}

extension CommandError {
    /// A usage error said in the shared vocabulary.
    init(_ error: UsageError) { self = .usage(error.message) }
}
