import Foundation
import TrellisText

/// A CSV file that does not follow RFC 4180 or cannot be a table, with what and where.
public struct CSVError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public enum Problem: Equatable, Sendable {
        case invalidUTF8
        case unclosedQuote
        case textAfterQuote
        case quoteInUnquotedField
        /// A row with `found` fields under a header of `expected`.
        case wrongFieldCount(found: Int, expected: Int)
        case emptyFile
        /// A type given for a column the file does not have.
        case unknownColumn(String, columns: [String])
        case fileTooLarge
        case columnTooLarge(String)
        /// Bytes that are text in no encoding tried: neither UTF-8 nor GB18030 nor GBK; `likely` is one the
        /// start of the file is wholly text in.
        case unknownEncoding(likely: TextEncoding?)
        /// A byte that is not text in the encoding named (given, or marked by the file).
        case notInEncoding(String, byte: Int)
        /// Any other problem, told in words.
        case other(String)

        var message: String {
            switch self {
            case .invalidUTF8: return "the file is not valid UTF-8 text; save it as UTF-8"
            case .unclosedQuote: return "a quoted field is never closed; add the closing double quote"
            case .textAfterQuote: return "text after a closing quote; put the whole field in quotes and double any quote inside"
            case .quoteInUnquotedField: return "a double quote inside an unquoted field; quote the whole field and double the quote"
            case .wrongFieldCount(let found, let expected): return "this row has \(found) fields; the header has \(expected)"
            case .emptyFile: return "the file is empty; the first line must name the columns"
            case .unknownColumn(let name, let columns):
                return "no column named \"\(Excerpt.of(name))\" to give a type to; the columns are "
                    + columns.prefix(20).map { "\"\(Excerpt.of($0))\"" }.joined(separator: ", ") + (columns.count > 20 ? ", …" : "")
            case .fileTooLarge: return "the file is larger than 4 GB; split it"
            case .unknownEncoding(let likely):
                return "the file is neither UTF-8 nor GB18030 (or GBK) text"
                    + (likely.map { "; it reads as \($0.name): name its encoding (--encoding \($0.name))" }
                        ?? "; name its encoding (--encoding NAME: \(TextEncoding.names))")
            case .notInEncoding(let name, let byte):
                return "byte \(byte) of the file is not \(name) text; name the file's encoding (--encoding NAME: \(TextEncoding.names))"
            case .columnTooLarge(let name): return "column \"\(Excerpt.of(name))\" holds more than 4 GB of text"
            case .other(let message): return message
            }
        }
    }

    /// The 1-based line of the problem (a line ends at LF, CRLF or a lone CR, inside quotes too).
    public let line: Int
    /// The 1-based character column within that line.
    public let column: Int
    public let problem: Problem
    /// The problem in words, with what fixes it.
    public var message: String { problem.message }

    public init(line: Int, column: Int, problem: Problem) {
        self.line = line
        self.column = column
        self.problem = problem
    }

    /// An error told in words (compared with others by its words).
    public init(line: Int, column: Int, message: String) {
        self.init(line: line, column: column, problem: .other(message))
    }

    public static func == (a: CSVError, b: CSVError) -> Bool {
        a.line == b.line && a.column == b.column && a.message == b.message
    }

    public var description: String { "line \(line), column \(column): \(message)" }
}

/// Reads and writes RFC 4180 CSV.
