import Foundation

/// How wide text is on a terminal or in a monospaced font: East Asian wide and fullwidth
/// characters take two columns (组号 takes four), combining marks and zero-width characters none.
public enum TextWidth {
    /// The number of columns `text` takes.
    public static func columns(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + columns($1) }
    }

    static func columns(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v == 0 || (0x200B...0x200F).contains(v) || v == 0xFEFF || (0xFE00...0xFE0F).contains(v) { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: return 0
        default: break
        }
        for range in wide where range.contains(v) { return 2 }
        return 1
    }

    private static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
        0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}
