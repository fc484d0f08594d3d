import Foundation
import Testing
import TrellisRender
import TrellisText

@testable import TrellisCLI

/// A validator for the part of JSON Schema (2020-12) that `Documentation/layout-spec.schema.json`
/// uses. A keyword it does not know is a failure, so the schema cannot say more than is checked.
struct SchemaValidator {
    typealias Value = JSONDocument.Value
    let root: Value

    static let annotations: Set<String> = ["$schema", "$id", "title", "description", "default", "$defs"]

    /// The problems of `value` against `schema`, each with its JSON path.
    func problems(_ value: Value, _ schema: Value, path: String = "$") -> [String] {
        guard schema.kind == .object else { return ["\(path): the schema here is not an object"] }
        var found: [String] = []
        let keywords = Dictionary(schema.members.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        for (key, rule) in keywords.sorted(by: { $0.key < $1.key }) {
            switch key {
            case _ where Self.annotations.contains(key): break
            case "$ref":
                guard let ref = rule.string, ref.hasPrefix("#/$defs/"),
                    let target = root.member(at: "$defs")?.member(at: String(ref.dropFirst(8)))
                else {
                    found.append("\(path): unresolved $ref \(rule.string ?? "?")")
                    break
                }
                found += problems(value, target, path: path)
            case "type":
                let allowed = rule.kind == .array ? rule.elements.compactMap(\.string) : [rule.string ?? ""]
                if !allowed.contains(where: { Self.has(value, type: $0) }) {
                    found.append("\(path): expected \(allowed.joined(separator: " or ")), found \(value.typeName)")
                }
            case "enum":
                if !rule.elements.contains(where: { $0.jsonValue == value.jsonValue }) {
                    found.append("\(path): not one of the allowed values")
                }
            case "const":
                if rule.jsonValue != value.jsonValue { found.append("\(path): not the required constant") }
            case "properties":
                guard value.kind == .object else { break }
                for member in value.members {
                    if let sub = rule.member(at: member.key) {
                        found += problems(member.value, sub, path: "\(path).\(member.key)")
                    }
                }
            case "additionalProperties":
                guard value.kind == .object else { break }
                let known = Set(keywords["properties"]?.members.map(\.key) ?? [])
                for member in value.members where !known.contains(member.key) {
                    if rule.kind == .falseValue {
                        found.append("\(path).\(member.key): not allowed")
                    } else {
                        found += problems(member.value, rule, path: "\(path).\(member.key)")
                    }
                }
            case "required":
                guard value.kind == .object else { break }
                for name in rule.elements.compactMap(\.string) where value.member(at: name) == nil {
                    found.append("\(path): missing \(name)")
                }
            case "items":
                guard value.kind == .array else { break }
                for (i, element) in value.elements.enumerated() { found += problems(element, rule, path: "\(path)[\(i)]") }
            case "minItems":
                if value.kind == .array, Double(value.count) < rule.number! { found.append("\(path): too few items") }
            case "maxItems":
                if value.kind == .array, Double(value.count) > rule.number! { found.append("\(path): too many items") }
            case "minimum":
                if let n = value.number, n < rule.number! { found.append("\(path): below the minimum") }
            case "maximum":
                if let n = value.number, n > rule.number! { found.append("\(path): above the maximum") }
            case "exclusiveMinimum":
                if let n = value.number, n <= rule.number! { found.append("\(path): not above the minimum") }
            case "oneOf":
                let passing = rule.elements.filter { problems(value, $0, path: path).isEmpty }.count
                if passing != 1 { found.append("\(path): matches \(passing) of the oneOf alternatives, not exactly one") }
            case "anyOf":
                if !rule.elements.contains(where: { problems(value, $0, path: path).isEmpty }) {
                    found.append("\(path): matches none of the anyOf alternatives")
                }
            case "allOf":
                for sub in rule.elements { found += problems(value, sub, path: path) }
            case "not":
                if problems(value, rule, path: path).isEmpty { found.append("\(path): matches what is forbidden") }
            case "if":
                let branch = problems(value, rule, path: path).isEmpty ? keywords["then"] : keywords["else"]
                if let branch { found += problems(value, branch, path: path) }
            case "then", "else": break
            default:
                found.append("\(path): the validator does not know the keyword \(key)")
            }
        }
        return found
    }

    static func has(_ value: Value, type: String) -> Bool {
        switch type {
        case "object": value.kind == .object
        case "array": value.kind == .array
        case "string": value.kind == .string
        case "number": value.kind == .number
        case "integer": value.kind == .number && value.number! == value.number!.rounded()
        case "boolean": value.kind == .trueValue || value.kind == .falseValue
        case "null": value.kind == .null
        default: false
        }
    }
}

extension JSONDocument.Value {
    func member(at key: String) -> JSONDocument.Value? { members.first { $0.key == key }?.value }
}

@Suite("The layout spec's JSON Schema")
struct SchemaTests {
    static let root = ReadmeTests.root
    static let transcripts = root.appendingPathComponent("Tests/TrellisCLITests/Transcripts")

    static func document(_ url: URL) throws -> JSONDocument {
        try JSONDocument([UInt8](Data(contentsOf: url)))
    }

    static func validate(_ bytes: [UInt8]) throws -> [String] {
        let schema = try document(root.appendingPathComponent("Documentation/layout-spec.schema.json"))
        let spec = try JSONDocument(bytes)
        return SchemaValidator(root: schema.root).problems(spec.root, schema.root)
    }

    /// Every spec the project ships or shows: the examples, the demo's, the test inputs that are valid.
    static var validSpecs: [(String, [UInt8])] {
        var specs: [(String, [UInt8])] = []
        let fm = FileManager.default
        for name in (try? fm.contentsOfDirectory(atPath: root.appendingPathComponent("Examples").path)) ?? []
        where name.hasSuffix(".json") {
            specs.append(("Examples/\(name)", [UInt8]((try? Data(contentsOf: root.appendingPathComponent("Examples/\(name)"))) ?? Data())))
        }
        for name in (try? fm.contentsOfDirectory(atPath: transcripts.path)) ?? []
        where name.hasSuffix(".json") && !name.hasPrefix("bad-") {
            specs.append((name, [UInt8]((try? Data(contentsOf: transcripts.appendingPathComponent(name))) ?? Data())))
        }
        for example in DemoCommand.examples { specs.append(("demo \(example.name)", Array(example.spec.utf8))) }
        return specs.sorted { $0.0 < $1.0 }
    }

    @Test("every shipped, shown and demo spec is valid against the schema, and the command accepts it")
    func shippedSpecsAreValid() throws {
        let specs = Self.validSpecs
        #expect(specs.count >= 12)
        for (name, bytes) in specs {
            let problems = try Self.validate(bytes)
            #expect(problems.isEmpty, "\(name): \(problems.joined(separator: "; "))")
            #expect(throws: Never.self, "\(name)") { try LayoutSpec.parse(Data(bytes)) }
        }
        // Every layout type is exercised by some spec.
        let types = Set(specs.compactMap { try? LayoutSpec.parse(Data($0.1)).layout.typeName })
        #expect(types == Set(LayoutOptions.typeNames))
    }

    @Test(
        "specs the command rejects for their shape are rejected by the schema too",
        arguments: [
            "bad-unknown-key.json", "bad-layout-type.json", "bad-negative-size.json", "bad-direction.json",
            "bad-items-type.json", "bad-missing-collection-view.json", "bad-waterfall-columns.json",
            "bad-justified-width.json", "bad-grid-sizes.json", "bad-type.json", "bad-count.json",
            "bad-compositional-dimension.json",
        ])
    func badSpecsAreInvalid(_ name: String) throws {
        let bytes = [UInt8](try Data(contentsOf: Self.transcripts.appendingPathComponent(name)))
        #expect(!(try Self.validate(bytes)).isEmpty)
        #expect(throws: SpecError.self) { try LayoutSpec.parse(Data(bytes)) }
    }

    @Test("the validator itself catches what it is meant to")
    func validatorWorks() throws {
        let schema = try JSONDocument(
            Array(
                #"""
                {"type": "object", "required": ["a"], "additionalProperties": false,
                 "properties": {"a": {"oneOf": [{"type": "integer", "minimum": 1}, {"const": false}]}}}
                """#.utf8))
        let v = SchemaValidator(root: schema.root)
        let check = { (text: String) in v.problems(try! JSONDocument(Array(text.utf8)).root, schema.root) }
        #expect(check(#"{"a": 3}"#).isEmpty)
        #expect(check(#"{"a": false}"#).isEmpty)
        #expect(!check(#"{"a": 0}"#).isEmpty)
        #expect(!check(#"{"a": 1.5}"#).isEmpty)
        #expect(!check(#"{"a": 2, "b": 1}"#).isEmpty)
        #expect(!check(#"{}"#).isEmpty)
    }
}
