import Foundation

extension JSONValue {
    /// The JSON text of this value. Objects keep their member order; numbers are written in the
    /// shortest form that reads back to the same `Double`, integers without a fraction. The same
    /// value always gives the same bytes.
    ///
    /// With `pretty`, each array element and object member goes on its own line, indented by two
    /// spaces, except arrays of numbers and small objects of scalars, which stay on one line.
    public func serialized(pretty: Bool = true) -> String {
        var out = ""
        write(into: &out, indent: pretty ? 0 : nil)
        if pretty { out += "\n" }
        return out
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
            return items.allSatisfy { switch $0 { case .array, .object: false; default: true } } ? 1 : nil
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

    private func write(into out: inout String, indent: Int?) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += Self.format(n)
        case .string(let s): out += Self.quote(s)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            guard let level = indent, level >= 0, !isCompactable else {
                out += "["
                for (k, item) in items.enumerated() {
                    if k > 0 { out += indent == nil ? "," : ", " }
                    item.write(into: &out, indent: indent.map { _ in -1 })
                }
                out += "]"
                return
            }
            let pad = String(repeating: "  ", count: level + 1)
            out += "[\n"
            for (k, item) in items.enumerated() {
                out += pad
                item.write(into: &out, indent: level + 1)
                out += k + 1 < items.count ? ",\n" : "\n"
            }
            out += String(repeating: "  ", count: level) + "]"
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            guard let level = indent, level >= 0, !isCompactable else {
                out += "{"
                for (k, member) in members.enumerated() {
                    if k > 0 { out += indent == nil ? "," : ", " }
                    out += Self.quote(member.key) + (indent == nil ? ":" : ": ")
                    member.value.write(into: &out, indent: indent.map { _ in -1 })
                }
                out += "}"
                return
            }
            let pad = String(repeating: "  ", count: level + 1)
            out += "{\n"
            for (k, member) in members.enumerated() {
                out += pad + Self.quote(member.key) + ": "
                member.value.write(into: &out, indent: level + 1)
                out += k + 1 < members.count ? ",\n" : "\n"
            }
            out += String(repeating: "  ", count: level) + "}"
        }
    }
}
