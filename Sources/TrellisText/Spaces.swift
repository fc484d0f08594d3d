import Foundation

extension StringProtocol {
    /// The text without the spaces and tabs around it: what `trimmingCharacters(in: .whitespaces)`
    /// gives (Unicode's space separators, such as the ideographic space U+3000, the tab and the
    /// zero-width space), read on the text's scalars rather than through a copy in UTF-16 —
    /// which cost a few microseconds a label.
    package func trimmingSpaces() -> String {
        let scalars = unicodeScalars
        var start = scalars.startIndex, end = scalars.endIndex
        while start < end, scalars[start].isSpace { start = scalars.index(after: start) }
        while start < end {
            let last = scalars.index(before: end)
            guard scalars[last].isSpace else { break }
            end = last
        }
        return String(self[start..<end])
    }
}

extension Unicode.Scalar {
    /// Whether this is a space separator (general category Zs), a tab or the zero-width space:
    /// the scalars of `CharacterSet.whitespaces`.
    @inline(__always)
    package var isSpace: Bool {
        if value < 0x80 { return value == 0x20 || value == 0x09 }
        return value == 0x200B || properties.generalCategory == .spaceSeparator
    }
}
