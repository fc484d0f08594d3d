import Foundation

/// A parsed JSON text kept flat: one tape of nodes in document order, strings as ranges of the
/// original bytes, decoded only when asked. What `trellis layout` reads a million-item spec with:
/// no object per value, no string per key, no dictionary per object.
///
/// ```swift
/// let document = try JSONDocument(Array(#"{"items": [{"width": 80, "height": 40}]}"#.utf8))
/// document.root["items"]?.elements.first?["width"]?.number   // 80.0
/// ```
///
/// The grammar, the error messages and their positions are those of ``JSONValue/parse(_:)``,
/// which is built on this parser: RFC 8259, duplicate keys refused, nesting at most 512 deep.
///
/// - Complexity: parsing is O(n) in the length of the text; a member lookup is linear in the
///   object's member count; walking an array visits each element once.
public final class JSONDocument: Sendable {
    /// The text, as UTF-8.
    public let bytes: [UInt8]
    private let nodes: [Node]
    /// Strings that contained escapes, decoded at parse time, by node index.
    private let decoded: [Int: String]

    /// One value of the tape. `tag` holds the kind in its low byte; strings keep their byte
    /// offset in the rest of `tag` and their length in `payload`; numbers their bits in
    /// `payload`; arrays and objects their element count in `tag` and the index of the node
    /// after their last descendant in `payload`.
    struct Node: Sendable {
        var tag: UInt64
        var payload: UInt64

        var kind: Kind { Kind(rawValue: UInt8(truncatingIfNeeded: tag)) ?? .null }
        var high: Int { Int(truncatingIfNeeded: tag >> 8) }
    }

    /// The kind of a JSON value.
    public enum Kind: UInt8, Sendable {
        case null, falseValue, trueValue, number, string, array, object
    }

    /// Parses UTF-8 JSON text. Throws the first syntax error with its line and column.
    public init(_ bytes: [UInt8]) throws(JSONSyntaxError) {
        var parser = TapeParser(bytes)
        try parser.parseDocument()
        self.bytes = bytes
        self.nodes = parser.nodes
        self.decoded = parser.decoded
    }

    /// The top-level value.
    public var root: Value { Value(document: self, index: 0) }

    /// A value in the document: a position on the tape.
    public struct Value: Sendable {
        let document: JSONDocument
        let index: Int

        var node: Node { document.nodes[index] }

        /// The value's kind.
        public var kind: Kind { node.kind }

        /// The number, if this is one.
        public var number: Double? {
            let n = node
            return n.kind == .number ? Double(bitPattern: n.payload) : nil
        }

        /// The boolean, if this is one.
        public var bool: Bool? {
            switch kind {
            case .trueValue: true
            case .falseValue: false
            default: nil
            }
        }

        /// Whether this is `null`.
        public var isNull: Bool { kind == .null }

        /// The string, if this is one (decoded).
        public var string: String? {
            let n = node
            guard n.kind == .string else { return nil }
            if let decoded = document.decoded[index] { return decoded }
            return String(decoding: document.bytes[n.high..<(n.high + Int(n.payload))], as: UTF8.self)
        }

        /// Whether this is a string equal to `text`, compared without decoding when possible.
        public func isString(_ text: StaticString) -> Bool {
            let n = node
            guard n.kind == .string else { return false }
            if document.decoded[index] != nil { return string == text.description }
            let length = Int(n.payload)
            guard length == text.utf8CodeUnitCount else { return false }
            return text.withUTF8Buffer { wanted in
                document.bytes.withUnsafeBufferPointer { all in
                    memcmp(all.baseAddress! + n.high, wanted.baseAddress!, length) == 0
                }
            }
        }

        /// The number of elements of an array or members of an object; 0 otherwise.
        public var count: Int {
            let n = node
            return n.kind == .array || n.kind == .object ? n.high : 0
        }

        /// The index of the node after this value and its descendants.
        var end: Int {
            let n = node
            return n.kind == .array || n.kind == .object ? Int(n.payload) : index + 1
        }

        /// The elements of an array, in order (none for other values).
        public var elements: Elements { Elements(document: document, start: kind == .array ? index + 1 : index, count: kind == .array ? count : 0) }

        /// The members of an object, in document order (none for other values).
        public var members: Members { Members(document: document, start: kind == .object ? index + 1 : index, count: kind == .object ? count : 0) }

        /// The member `key` of an object, `nil` otherwise.
        public subscript(key: String) -> Value? {
            for member in members where member.key == key { return member.value }
            return nil
        }

        /// The name of this value's JSON type, for error messages.
        public var typeName: String {
            switch kind {
            case .null: "null"
            case .falseValue, .trueValue: "a boolean"
            case .number: "a number"
            case .string: "a string"
            case .array: "an array"
            case .object: "an object"
            }
        }

        /// The value as a ``JSONValue`` tree.
        public var jsonValue: JSONValue {
            switch kind {
            case .null: return .null
            case .falseValue: return .bool(false)
            case .trueValue: return .bool(true)
            case .number: return .number(number!)
            case .string: return .string(string!)
            case .array: return .array(elements.map(\.jsonValue))
            case .object: return .object(members.map { ($0.key, $0.value.jsonValue) })
            }
        }
    }

    /// The elements of an array.
    public struct Elements: Sequence, Sendable {
        let document: JSONDocument
        let start: Int
        public let count: Int

        public struct Iterator: IteratorProtocol {
            let document: JSONDocument
            var position: Int
            var left: Int
            public mutating func next() -> Value? {
                guard left > 0 else { return nil }
                let value = Value(document: document, index: position)
                position = value.end
                left -= 1
                return value
            }
        }

        public func makeIterator() -> Iterator { Iterator(document: document, position: start, left: count) }
        public var underestimatedCount: Int { count }
    }

    /// The members of an object.
    public struct Members: Sequence, Sendable {
        let document: JSONDocument
        let start: Int
        public let count: Int

        /// One member: its key (a string value) and its value.
        public struct Member: Sendable {
            public let keyValue: Value
            public let value: Value
            /// The key, decoded.
            public var key: String { keyValue.string ?? "" }
        }

        public struct Iterator: IteratorProtocol {
            let document: JSONDocument
            var position: Int
            var left: Int
            public mutating func next() -> Member? {
                guard left > 0 else { return nil }
                let key = Value(document: document, index: position)
                let value = Value(document: document, index: position + 1)
                position = value.end
                left -= 1
                return Member(keyValue: key, value: value)
            }
        }

        public func makeIterator() -> Iterator { Iterator(document: document, position: start, left: count) }
        public var underestimatedCount: Int { count }
    }
}

/// The recursive-descent parser that writes the tape.
private struct TapeParser {
    let bytes: [UInt8]
    var i = 0
    var depth = 0
    var nodes: [JSONDocument.Node] = []
    var decoded: [Int: String] = [:]
    /// The key nodes of the objects being parsed, innermost last: one shared stack instead of an
    /// array per object.
    var keyStack: [Int] = []

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        // About one node per four bytes of a dense document; reserving it avoids regrowing a
        // tape of millions of nodes.
        nodes.reserveCapacity(max(16, bytes.count / 4))
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
    }

    mutating func parseDocument() throws(JSONSyntaxError) {
        skipSpace()
        guard i < bytes.count else { throw error("the document is empty; expected a JSON value") }
        try parseValue()
        skipSpace()
        if i < bytes.count { throw error("unexpected text after the JSON value") }
    }

    func error(_ message: String, at position: Int? = nil) -> JSONSyntaxError {
        let end = min(position ?? i, bytes.count)
        var line = 1, column = 1
        var k = 0
        while k < end {
            if bytes[k] == UInt8(ascii: "\n") { line += 1; column = 1 } else if bytes[k] & 0xC0 != 0x80 { column += 1 }
            k += 1
        }
        return JSONSyntaxError(line: line, column: column, message: message)
    }

    @inline(__always)
    mutating func skipSpace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x0A, 0x0D, 0x09: i += 1
            default: return
            }
        }
    }

    @inline(__always)
    mutating func append(_ kind: JSONDocument.Kind, high: Int = 0, payload: UInt64 = 0) {
        nodes.append(JSONDocument.Node(tag: UInt64(kind.rawValue) | (UInt64(truncatingIfNeeded: high) << 8), payload: payload))
    }

    mutating func parseValue() throws(JSONSyntaxError) {
        guard i < bytes.count else { throw error("unexpected end of input; expected a value") }
        switch bytes[i] {
        case UInt8(ascii: "{"): try parseObject()
        case UInt8(ascii: "["): try parseArray()
        case UInt8(ascii: "\""): try parseString()
        case UInt8(ascii: "t"): try literal("true"); append(.trueValue)
        case UInt8(ascii: "f"): try literal("false"); append(.falseValue)
        case UInt8(ascii: "n"): try literal("null"); append(.null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try parseNumber()
        default:
            throw error("unexpected \(Self.shownCharacter(bytes, at: i)); expected a value")
        }
    }

    /// The character at `i` as a message shows it: the whole character when its UTF-8 bytes are
    /// all there (character '组'), else the byte in hex (byte 0xE7) — never a replacement
    /// character.
    static func shownCharacter(_ bytes: [UInt8], at i: Int) -> String {
        let lead = bytes[i]
        let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0
        if length > 0, i + length <= bytes.count, let text = String(validating: bytes[i..<(i + length)], as: UTF8.self),
            let scalar = text.unicodeScalars.first, !scalar.properties.generalCategory.isControlOrFormat
        {
            return "character '\(text)'"
        }
        let hex = String(lead, radix: 16, uppercase: true)
        return "byte 0x" + (hex.count < 2 ? "0" + hex : hex)
    }

    mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let length = word.utf8CodeUnitCount
        let matches =
            bytes.count - i >= length
            && word.withUTF8Buffer { w in
                (0..<length).allSatisfy { bytes[i + $0] == w[$0] }
            }
        guard matches else { throw error("invalid literal; expected '\(word)'") }
        i += length
    }

    mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > 512 { throw error("nesting deeper than 512 levels") }
    }

    mutating func parseObject() throws(JSONSyntaxError) {
        try enter()
        defer { depth -= 1 }
        i += 1
        let at = nodes.count
        append(.object)
        var count = 0
        // The keys so far, for the duplicate check: node indices on the shared stack while there
        // are few, a set of their text beyond, so that an object of many members stays linear.
        let keysStart = keyStack.count
        defer { keyStack.removeSubrange(keysStart...) }
        var keySet: Set<String>?
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
            i += 1
            close(at, count: 0)
            return
        }
        while true {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else {
                throw error("expected a string key in double quotes")
            }
            let keyStart = i
            let keyNode = nodes.count
            try parseString()
            if var set = keySet {
                keySet = nil  // keeps the set uniquely referenced while it grows
                guard set.insert(keyText(keyNode)).inserted else {
                    throw error("duplicate key \"\(keyText(keyNode))\"", at: keyStart)
                }
                keySet = set
            } else {
                if isDuplicate(keyNode, among: keyStack[keysStart...]) {
                    throw error("duplicate key \"\(keyText(keyNode))\"", at: keyStart)
                }
                keyStack.append(keyNode)
                if keyStack.count - keysStart == 16 { keySet = Set(keyStack[keysStart...].map(keyText)) }
            }
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw error("expected ':' after the key") }
            i += 1
            skipSpace()
            try parseValue()
            count += 1
            if try closes(UInt8(ascii: "}"), at, count: count, after: "an object member") { return }
        }
    }

    mutating func parseArray() throws(JSONSyntaxError) {
        try enter()
        defer { depth -= 1 }
        i += 1
        let at = nodes.count
        append(.array)
        var count = 0
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
            i += 1
            close(at, count: 0)
            return
        }
        while true {
            skipSpace()
            try parseValue()
            count += 1
            if try closes(UInt8(ascii: "]"), at, count: count, after: "an array element") { return }
        }
    }

    /// After a container's element: consumes a `,` (and returns `false`) or the closing
    /// `bracket` (closes the container and returns `true`).
    @inline(__always)
    mutating func closes(_ bracket: UInt8, _ at: Int, count: Int, after what: StaticString) throws(JSONSyntaxError) -> Bool {
        skipSpace()
        let expected = bracket == UInt8(ascii: "]") ? "',' or ']'" : "',' or '}'"
        guard i < bytes.count else { throw error("unexpected end of input; expected \(expected)") }
        if bytes[i] == UInt8(ascii: ",") { i += 1; return false }
        guard bytes[i] == bracket else { throw error("expected \(expected) after \(what)") }
        i += 1
        close(at, count: count)
        return true
    }

    /// Records a container's element count and where its subtree ends.
    mutating func close(_ at: Int, count: Int) {
        let kind = nodes[at].tag & 0xFF
        nodes[at] = JSONDocument.Node(tag: kind | (UInt64(count) << 8), payload: UInt64(nodes.count))
    }

    func keyText(_ node: Int) -> String {
        if let text = decoded[node] { return text }
        let n = nodes[node]
        return String(decoding: bytes[n.high..<(n.high + Int(n.payload))], as: UTF8.self)
    }

    /// Whether key `node` equals one of a few `keys`: byte comparison for plain keys, decoded text
    /// for keys with escapes.
    func isDuplicate(_ node: Int, among keys: ArraySlice<Int>) -> Bool {
        let a = nodes[node]
        for other in keys {
            let b = nodes[other]
            if decoded[node] != nil || decoded[other] != nil {
                if keyText(node) == keyText(other) { return true }
                continue
            }
            guard a.payload == b.payload else { continue }
            let length = Int(a.payload)
            let equal = bytes.withUnsafeBufferPointer { all in
                memcmp(all.baseAddress! + a.high, all.baseAddress! + b.high, length) == 0
            }
            if equal { return true }
        }
        return false
    }

    mutating func parseNumber() throws(JSONSyntaxError) {
        let start = i
        var negative = false
        if bytes[i] == UInt8(ascii: "-") { negative = true; i += 1 }
        var mantissa: UInt64 = 0
        var significant = 0  // digits accumulated into the mantissa
        var exponent = 0  // decimal exponent to apply to the mantissa
        var exact = true  // whether the mantissa holds every significant digit
        @inline(__always) func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
        let intStart = i
        while i < bytes.count, isDigit(bytes[i]) {
            accumulate(bytes[i], &mantissa, &significant, &exact, &exponent, fraction: false)
            i += 1
        }
        let intDigits = i - intStart
        guard intDigits > 0 else { throw error("invalid number: expected a digit") }
        if intDigits > 1, bytes[intStart] == UInt8(ascii: "0") { throw error("invalid number: leading zero", at: intStart) }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            let fractionStart = i
            while i < bytes.count, isDigit(bytes[i]) {
                accumulate(bytes[i], &mantissa, &significant, &exact, &exponent, fraction: true)
                i += 1
            }
            guard i > fractionStart else { throw error("invalid number: expected a digit after '.'") }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            var exponentNegative = false
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
                exponentNegative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            let digitsStart = i
            var written = 0
            while i < bytes.count, isDigit(bytes[i]) {
                if written < 100_000 { written = written * 10 + Int(bytes[i] - UInt8(ascii: "0")) }
                i += 1
            }
            guard i > digitsStart else { throw error("invalid number: expected a digit in the exponent") }
            exponent += exponentNegative ? -written : written
        }
        let value: Double
        // Clinger's fast path: a mantissa below 2^53 and a power of ten that doubles hold
        // exactly give the correctly rounded value with one multiplication or division.
        if exact, mantissa < (1 << 53), exponent >= -22, exponent <= 22 {
            let m = Double(mantissa)
            value = exponent >= 0 ? m * Self.powersOfTen[exponent] : m / Self.powersOfTen[-exponent]
        } else {
            guard let parsed = Double(String(decoding: bytes[start..<i], as: UTF8.self)) else {
                throw error("number out of range", at: start)
            }
            value = abs(parsed)
        }
        guard value.isFinite else { throw error("number out of range", at: start) }
        append(.number, payload: (negative ? -value : value).bitPattern)
    }

    @inline(__always)
    private func accumulate(
        _ digit: UInt8, _ mantissa: inout UInt64, _ significant: inout Int, _ exact: inout Bool,
        _ exponent: inout Int, fraction: Bool
    ) {
        let d = UInt64(digit - UInt8(ascii: "0"))
        if significant == 0 && d == 0 {
            if fraction { exponent -= 1 }  // leading zeros of a fraction only move the point
            return
        }
        if significant < 19 {
            mantissa = mantissa * 10 + d
            significant += 1
            if fraction { exponent -= 1 }
        } else {
            if d != 0 { exact = false }
            if !fraction { exponent += 1 }
        }
    }

    static let powersOfTen: [Double] = (0...22).map { pow(10, Double($0)) }

    mutating func parseString() throws(JSONSyntaxError) {
        i += 1
        let start = i
        var escaped = false
        while true {
            guard i < bytes.count else { throw error("unterminated string") }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") { break }
            if b < 0x20 { throw error("control character in a string; escape it") }
            if b == UInt8(ascii: "\\") {
                escaped = true
                break
            }
            i += 1
        }
        guard escaped else {
            append(.string, high: start, payload: UInt64(i - start))
            i += 1
            return
        }
        i = start
        let text = try decodeEscapedString()
        decoded[nodes.count] = text
        append(.string, high: start, payload: 0)
    }

    /// Decodes a string with escapes from `i` (just after the opening quote) to its closing
    /// quote, which it consumes.
    mutating func decodeEscapedString() throws(JSONSyntaxError) -> String {
        var out: [UInt8] = []
        while true {
            guard i < bytes.count else { throw error("unterminated string") }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") { i += 1; break }
            if b < 0x20 { throw error("control character in a string; escape it") }
            if b != UInt8(ascii: "\\") { out.append(b); i += 1; continue }
            i += 1
            guard i < bytes.count else { throw error("unterminated escape") }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar) {
                    guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                        throw error("unpaired surrogate in \\u escape")
                    }
                    i += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw error("invalid low surrogate in \\u escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(scalar) {
                    throw error("unpaired surrogate in \\u escape")
                }
                out.append(contentsOf: Array(String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8))
            default: throw error("invalid escape '\\\(String(decoding: [e], as: UTF8.self))'")
            }
        }
        guard let s = String(validating: out, as: UTF8.self) else { throw error("invalid UTF-8 in a string") }
        return s
    }

    mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard bytes.count - i >= 4 else { throw error("incomplete \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[i]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            v = v * 16 + d
            i += 1
        }
        return v
    }
}

extension Unicode.GeneralCategory {
    /// Control and format characters, which a message shows by code instead.
    fileprivate var isControlOrFormat: Bool { self == .control || self == .format }
}
