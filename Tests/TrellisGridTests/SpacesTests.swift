import Foundation
import Testing
import TrellisText

/// The trimming every label, header and summary cell goes through agrees with Foundation's
/// `trimmingCharacters(in: .whitespaces)`, which it stands in for.
@Suite("Trimming spaces")
struct SpacesTests {
    /// Spaces of every kind, tabs, line ends (not trimmed), combining marks, CJK and ASCII.
    static let pieces: [String] = [
        " ", "\t", "\u{3000}", "\u{A0}", "\u{2003}", "\u{202F}", "\u{205F}", "\u{1680}", "\u{200B}", "\n", "\r\n",
        "\u{301}", "a", "汇总", "华东", "1", "%", "😀", "\u{FEFF}",
    ]

    @Test("agrees with Foundation on random texts of spaces and others")
    func agreesWithFoundation() {
        var random = SplitMix64(state: 20261205)
        for _ in 0..<5000 {
            let count = Int(random.next() % 7)
            let text = (0..<count).map { _ in Self.pieces[Int(random.next() % UInt64(Self.pieces.count))] }.joined()
            #expect(text.trimmingSpaces() == text.trimmingCharacters(in: .whitespaces), "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(Substring(text).trimmingSpaces() == text.trimmingCharacters(in: .whitespaces))
        }
    }

    @Test("each scalar of the Basic Multilingual Plane is a space exactly when Foundation's set holds it")
    func everyScalar() {
        for value in UInt32(0)...0xFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            #expect(scalar.isSpace == CharacterSet.whitespaces.contains(scalar), "U+\(String(value, radix: 16))")
        }
    }
}
