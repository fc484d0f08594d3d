import Foundation

extension JSONValue {
    /// The JSON text of this value. Objects keep their member order; numbers are written in the
    /// shortest form that reads back to the same `Double`, integers without a fraction. The same
    /// value always gives the same bytes.
    ///
    /// With `pretty`, each array element and object member goes on its own line, indented by two
    /// spaces, except arrays of numbers and small objects of scalars, which stay on one line.
    public func serialized(pretty: Bool = true) -> String {
        let output = TextOutput()
        write(to: output, pretty: pretty)
        try? output.finish()
        return String(decoding: output.collected, as: UTF8.self)
    }

    /// Writes ``serialized(pretty:)`` to `output`.
    public func write(to output: TextOutput, pretty: Bool = true) {
        write(into: output, indent: pretty ? 0 : nil)
        if pretty { output.write("\n") }
    }

    /// Writes the value as it appears nested `level` deep in a pretty document (its first line
    /// unindented): how a streamed document embeds a member built as a value.
    public func write(to output: TextOutput, nestedAt level: Int) {
        write(into: output, indent: level)
    }

    /// Formats a number as JSON: `16`, `102.5`, `0.3333333333333333`, `1e+21`.
    public static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) <= 9_007_199_254_740_992 {
            return value == 0 ? "0" : String(Int64(value))
        }
        return "\(value)"
    }

    /// Escapes a string as a JSON string literal, quotes included.
    public static func quote(_ s: String) -> String {
        let output = TextOutput()
        writeQuoted(s, to: output)
        try? output.finish()
        return String(decoding: output.collected, as: UTF8.self)
    }

    /// Writes `s` as a JSON string literal, quotes included: as is when nothing in it needs an
    /// escape, which is nearly always.
    public static func writeQuoted(_ s: String, to output: TextOutput) {
        var plain = true
        for byte in s.utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0xE2 {
            plain = false
            break
        }
        if plain {
            output.write("\"")
            output.write(s)
            output.write("\"")
            return
        }
        output.write(escaped(s))
    }

    private static func escaped(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
                out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Whether the value is written on one line when pretty-printing: scalars, arrays of
    /// scalars, and objects whose members are such values or such objects (one element of a
    /// layout, one row of a grid, is one line).
    private var isCompactable: Bool { compactDepth != nil }

    private var compactDepth: Int? {
        switch self {
        case .array(let items):
            return items.allSatisfy {
                switch $0 {
                case .array, .object: false;
                default: true
                }
            } ? 1 : nil
        case .object(let members):
            var depth = 1
            for member in members {
                switch member.value {
                case .array, .object:
                    guard let d = member.value.compactDepth, d < 2 else { return nil }
                    depth = max(depth, d + 1)
                default: break
                }
            }
            return depth
        default: return 0
        }
    }

    private func write(into out: TextOutput, indent: Int?) {
        switch self {
        case .null: out.write("null")
        case .bool(let b): out.write(b ? "true" : "false")
        case .number(let n): out.writeJSONNumber(n)
        case .string(let s): Self.writeQuoted(s, to: out)
        case .array(let items):
            if items.isEmpty { out.write("[]"); return }
            guard let level = indent, level >= 0, !isCompactable else {
                out.write("[")
                for (k, item) in items.enumerated() {
                    if k > 0 { out.write(indent == nil ? "," : ", ") }
                    item.write(into: out, indent: indent.map { _ in -1 })
                }
                out.write("]")
                return
            }
            let pad = String(repeating: "  ", count: level + 1)
            out.write("[\n")
            for (k, item) in items.enumerated() {
                out.write(pad)
                item.write(into: out, indent: level + 1)
                out.write(k + 1 < items.count ? ",\n" : "\n")
            }
            out.write(String(repeating: "  ", count: level) + "]")
        case .object(let members):
            if members.isEmpty { out.write("{}"); return }
            guard let level = indent, level >= 0, !isCompactable else {
                out.write("{")
                for (k, member) in members.enumerated() {
                    if k > 0 { out.write(indent == nil ? "," : ", ") }
                    Self.writeQuoted(member.key, to: out)
                    out.write(indent == nil ? ":" : ": ")
                    member.value.write(into: out, indent: indent.map { _ in -1 })
                }
                out.write("}")
                return
            }
            let pad = String(repeating: "  ", count: level + 1)
            out.write("{\n")
            for (k, member) in members.enumerated() {
                out.write(pad)
                Self.writeQuoted(member.key, to: out)
                out.write(": ")
                member.value.write(into: out, indent: level + 1)
                out.write(k + 1 < members.count ? ",\n" : "\n")
            }
            out.write(String(repeating: "  ", count: level) + "}")
        }
    }
}
