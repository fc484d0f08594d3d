import Foundation

/// How wide text is on a terminal or in a monospaced font: East Asian wide and fullwidth
/// characters take two columns (组号 takes four), combining marks and zero-width characters none.
public enum TextWidth {
    /// The number of columns `text` takes.
    public static func columns(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { columns(utf8: $0) }
    }

    /// The number of columns UTF-8 text takes, read straight from its bytes.
    public static func columns(utf8 b: UnsafeBufferPointer<UInt8>) -> Int {
        var width = 0
        var i = 0
        let n = b.count
        while i < n {
            let c = b[i]
            if c < 0x80 { width += 1; i += 1; continue }
            var v: UInt32
            var length: Int
            if c >= 0xF0 {
                v = UInt32(c & 0x07); length = 4
            } else if c >= 0xE0 {
                v = UInt32(c & 0x0F); length = 3
            } else if c >= 0xC0 {
                v = UInt32(c & 0x1F); length = 2
            } else {
                i += 1; continue
            }  // a stray continuation byte (not in valid text)
            guard i + length <= n else { break }
            for k in 1..<length { v = v << 6 | UInt32(b[i + k] & 0x3F) }
            i += length
            width += columns(scalar: v)
        }
        return width
    }

    static func columns(_ scalar: Unicode.Scalar) -> Int { columns(scalar: scalar.value) }

    @inline(__always)
    static func columns(scalar v: UInt32) -> Int {
        // The common wide blocks first: CJK ideographs, kana, hangul, fullwidth forms.
        if v >= 0x4E00 && v <= 0x9FFF { return 2 }
        if v < 0x300 { return 1 }
        if v == 0 || (0x200B...0x200F).contains(v) || v == 0xFEFF || (0xFE00...0xFE0F).contains(v) { return 0 }
        for range in wide where range.contains(v) { return 2 }
        guard let scalar = Unicode.Scalar(v) else { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: return 0
        default: return 1
        }
    }

    private static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0xA000...0xA4CF,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
        0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}
