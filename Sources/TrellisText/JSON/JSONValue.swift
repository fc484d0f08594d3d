import Foundation

/// A JSON document as a value: objects keep their key order, numbers keep whether they were
/// written as integers. Parsed by ``JSONValue/parse(_:)`` with errors that give line and column;
/// written by ``JSONValue/serialized(pretty:)`` byte-identically for the same value.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Members in document order.
    case object([(key: String, value: JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// The member `key` of an object, `nil` otherwise.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The name of this value's JSON type, for error messages.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// A JSON syntax error, with the 1-based line and column where it was found.
public struct JSONSyntaxError: Error, Equatable, CustomStringConvertible {
    public let line: Int
    public let column: Int
    public let message: String
    public var description: String { "line \(line), column \(column): \(message)" }

    /// Creates a syntax error at a 1-based line and column.
    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }
}

extension JSONValue {
    /// Parses a JSON text (RFC 8259). Duplicate keys in one object are an error, since a spec
    /// that says one thing twice is a mistake to report, not to resolve silently.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try JSONDocument(Array(text.utf8)).root.jsonValue
    }
}
