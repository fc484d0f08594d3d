import Foundation
import TrellisText

/// Escaping for XML and HTML text and attribute values.
public enum Markup {
    /// Escapes `&`, `<`, `>`, `"` and `'`, so the result is safe both as element text and inside
    /// a quoted attribute. Control characters other than tab, newline and carriage return, which
    /// XML forbids, become U+FFFD.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            case _
            where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0xFFFE
                || scalar.value == 0xFFFF:
                out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A number as SVG and CSS write it: the JSON form (`16`, `102.5`), to four decimals — a
    /// ten-thousandth of a point is below any screen's pixel, and `-127.99999999999997px` (the
    /// floating-point noise of a computed transform) is written `-128px`.
    public static func number(_ value: CGFloat) -> String {
        let rounded = (Double(value) * 10_000).rounded() / 10_000
        return JSONValue.format(rounded == 0 ? 0 : rounded)
    }
}
