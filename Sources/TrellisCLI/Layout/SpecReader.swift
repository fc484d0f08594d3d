import Foundation
import TrellisRender
import TrellisText

/// An invalid spec: the JSON path of the offending value and what is wrong with it.
public struct SpecError: Error, Equatable, CustomStringConvertible {
    /// Where, as a JSON path (`$.sections[1].items[0].width`), or as a line and column for
    /// text that is not valid JSON.
    public let path: String
    /// What is wrong and how to fix it.
    public let message: String
    public var description: String { "\(path): \(message)" }
}

/// Reads typed values out of a JSON object, remembering which keys were used so that unknown
/// keys can be reported (with a suggestion when one is a likely typo).
struct SpecObject {
    typealias Value = JSONDocument.Value

    let path: String
    let members: [(key: String, value: Value)]
    private(set) var used: Set<String> = []

    init(_ value: Value, path: String) throws(SpecError) {
        guard value.kind == .object else {
            throw SpecError(path: path, message: "expected an object, found \(value.typeName)")
        }
        self.path = path
        self.members = value.members.map { ($0.key, $0.value) }
    }

    func childPath(_ key: String) -> String { "\(path).\(key)" }

    mutating func value(_ key: String) -> Value? {
        used.insert(key)
        return members.first { $0.key == key }?.value
    }

    mutating func number(_ key: String, _ rule: NumberRule = .finite) throws(SpecError) -> Double? {
        guard let v = value(key) else { return nil }
        return try Self.number(v, path: childPath(key), rule)
    }

    mutating func string(_ key: String, oneOf allowed: [String]) throws(SpecError) -> String? {
        guard let v = value(key) else { return nil }
        guard let s = v.string else {
            throw SpecError(path: childPath(key), message: "expected a string, found \(v.typeName)")
        }
        guard allowed.contains(s) else {
            var message = "unknown value \"\(s)\"; expected one of: \(allowed.map { "\"\($0)\"" }.joined(separator: ", "))"
            if let guess = closest(s, in: allowed) { message += " (did you mean \"\(guess)\"?)" }
            throw SpecError(path: childPath(key), message: message)
        }
        return s
    }

    mutating func object(_ key: String) throws(SpecError) -> SpecObject? {
        guard let v = value(key) else { return nil }
        return try SpecObject(v, path: childPath(key))
    }

    mutating func size(_ key: String) throws(SpecError) -> CGSize? {
        guard var o = try object(key) else { return nil }
        let width = try o.number("width", .nonNegative)
        let height = try o.number("height", .nonNegative)
        try o.finish(required: ["width", "height"])
        return CGSize(width: width!, height: height!)
    }

    /// Throws for keys that were never read and for missing required keys.
    func finish(required: [String] = []) throws(SpecError) {
        for key in required where !members.contains(where: { $0.key == key }) {
            throw SpecError(path: path, message: "missing required key \"\(key)\"")
        }
        let known = Array(used).sorted()
        for member in members where !used.contains(member.key) {
            var message = "unknown key \"\(member.key)\""
            if let guess = closest(member.key, in: known) {
                message += "; did you mean \"\(guess)\"?"
            } else {
                message += "; expected one of: \(known.map { "\"\($0)\"" }.joined(separator: ", "))"
            }
            throw SpecError(path: childPath(member.key), message: message)
        }
    }

    /// Larger values would overflow the content size of a long layout.
    static let maximumMagnitude: Double = 1e9

    enum NumberRule {
        case finite, nonNegative, positive, nonNegativeInteger
    }

    static func number(_ v: Value, path: String, _ rule: NumberRule) throws(SpecError) -> Double {
        guard let n = v.number else {
            throw SpecError(path: path, message: "expected a number, found \(v.typeName)")
        }
        guard abs(n) <= maximumMagnitude else {
            // A count is a number of things; every other number here is a length in points.
            let what =
                rule == .nonNegativeInteger
                ? "counts up to \(JSONValue.format(maximumMagnitude))"
                : "values up to \(JSONValue.format(maximumMagnitude)) points"
            throw SpecError(path: path, message: "\(JSONValue.format(n)) is out of range; \(what) are supported")
        }
        switch rule {
        case .finite: break
        case .nonNegative:
            if n < 0 { throw SpecError(path: path, message: "must not be negative, found \(JSONValue.format(n))") }
        case .positive:
            if n <= 0 { throw SpecError(path: path, message: "must be greater than zero, found \(JSONValue.format(n))") }
        case .nonNegativeInteger:
            if n < 0 || n != n.rounded() {
                throw SpecError(path: path, message: "expected a whole number of at least 0, found \(JSONValue.format(n))")
            }
        }
        return n
    }
}
