import Foundation

/// A font as headless text layout needs it (`UIFont`): its size, weight and line height, and the
/// text style it was made for. The system font's vertical metrics are those of SF Pro (ascender
/// 1,950 and descender 494 of 2,048 units an em: a 17-point font's `lineHeight` is
/// 20.287109375, as UIKit reports); widths are estimated (``TextMeasure``).
open class Font: NSObject, @unchecked Sendable {
    /// A text style of Dynamic Type (`UIFont.TextStyle`).
    public struct TextStyle: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let largeTitle = TextStyle(rawValue: "UICTFontTextStyleTitle0")
        public static let title1 = TextStyle(rawValue: "UICTFontTextStyleTitle1")
        public static let title2 = TextStyle(rawValue: "UICTFontTextStyleTitle2")
        public static let title3 = TextStyle(rawValue: "UICTFontTextStyleTitle3")
        public static let headline = TextStyle(rawValue: "UICTFontTextStyleHeadline")
        public static let subheadline = TextStyle(rawValue: "UICTFontTextStyleSubhead")
        public static let body = TextStyle(rawValue: "UICTFontTextStyleBody")
        public static let callout = TextStyle(rawValue: "UICTFontTextStyleCallout")
        public static let footnote = TextStyle(rawValue: "UICTFontTextStyleFootnote")
        public static let caption1 = TextStyle(rawValue: "UICTFontTextStyleCaption1")
        public static let caption2 = TextStyle(rawValue: "UICTFontTextStyleCaption2")

        /// The style's size and weight at the default text size (Large), from Apple's Human
        /// Interface Guidelines.
        var standard: (size: CGFloat, weight: Weight) {
            switch self {
            case .largeTitle: return (34, .regular)
            case .title1: return (28, .regular)
            case .title2: return (22, .regular)
            case .title3: return (20, .regular)
            case .headline: return (17, .semibold)
            case .subheadline: return (15, .regular)
            case .callout: return (16, .regular)
            case .footnote: return (13, .regular)
            case .caption1: return (12, .regular)
            case .caption2: return (11, .regular)
            default: return (17, .regular)
            }
        }

        /// The style's size at each text size, from the Dynamic Type tables of Apple's Human
        /// Interface Guidelines: xSmall, Small, Medium, Large, xLarge, xxLarge, xxxLarge, then the
        /// accessibility sizes AX1–AX5.
        var sizes: [CGFloat] {
            switch self {
            case .largeTitle: return [31, 32, 33, 34, 36, 38, 40, 44, 48, 52, 56, 60]
            case .title1: return [25, 26, 27, 28, 30, 32, 34, 38, 43, 48, 53, 58]
            case .title2: return [19, 20, 21, 22, 24, 26, 28, 34, 39, 44, 50, 56]
            case .title3: return [17, 18, 19, 20, 22, 24, 26, 31, 37, 43, 49, 55]
            case .callout: return [13, 14, 15, 16, 18, 20, 22, 26, 32, 38, 44, 51]
            case .subheadline: return [12, 13, 14, 15, 17, 19, 21, 25, 30, 36, 42, 49]
            case .footnote: return [12, 12, 12, 13, 15, 17, 19, 23, 27, 33, 38, 44]
            case .caption1: return [11, 11, 11, 12, 14, 16, 18, 22, 26, 32, 37, 43]
            case .caption2: return [11, 11, 11, 11, 13, 15, 17, 20, 24, 29, 34, 40]
            default: return [14, 15, 16, 17, 19, 21, 23, 28, 33, 40, 47, 53]  // body, headline
            }
        }

        /// The style's size at `category` (Large when unspecified or unknown).
        func size(for category: ContentSizeCategory?) -> CGFloat {
            let order: [ContentSizeCategory] = [
                .extraSmall, .small, .medium, .large, .extraLarge, .extraExtraLarge, .extraExtraExtraLarge, .accessibilityMedium,
                .accessibilityLarge, .accessibilityExtraLarge, .accessibilityExtraExtraLarge, .accessibilityExtraExtraExtraLarge,
            ]
            return sizes[category.flatMap { order.firstIndex(of: $0) } ?? 3]
        }
    }

    /// A font's weight (`UIFont.Weight`), with UIKit's values.
    public struct Weight: RawRepresentable, Hashable, Comparable, Sendable {
        public let rawValue: CGFloat
        public init(rawValue: CGFloat) { self.rawValue = rawValue }
        public init(_ rawValue: CGFloat) { self.rawValue = rawValue }
        public static let ultraLight = Weight(-0.8)
        public static let thin = Weight(-0.6)
        public static let light = Weight(-0.4)
        public static let regular = Weight(0)
        public static let medium = Weight(0.23)
        public static let semibold = Weight(0.3)
        public static let bold = Weight(0.4)
        public static let heavy = Weight(0.56)
        public static let black = Weight(0.62)
        public static func < (a: Weight, b: Weight) -> Bool { a.rawValue < b.rawValue }
    }

    /// The font's size in points.
    public let pointSize: CGFloat
    /// Its weight.
    public let weight: Weight
    /// The text style it was made for, if any.
    public let textStyle: TextStyle?
    /// Whether it slants.
    public let isItalic: Bool
    /// Whether its digits are all one width.
    public let hasMonospacedDigits: Bool

    init(size: CGFloat, weight: Weight, textStyle: TextStyle? = nil, italic: Bool = false, monospacedDigits: Bool = false) {
        pointSize = size.isFinite && size > 0 ? size : 0
        self.weight = weight
        self.textStyle = textStyle
        isItalic = italic
        hasMonospacedDigits = monospacedDigits
    }

    /// The font of `style` at the default text size.
    open class func preferredFont(forTextStyle style: TextStyle) -> Font {
        let (size, weight) = style.standard
        return Font(size: size, weight: weight, textStyle: style)
    }

    /// The font of `style` at the text size `traitCollection` prefers
    /// (`preferredContentSizeCategory`; Large when it has none): body is 14 points at xSmall, 17
    /// at Large, 23 at xxxLarge and 53 at the largest accessibility size, as Apple's tables say.
    open class func preferredFont(forTextStyle style: TextStyle, compatibleWith traitCollection: TraitCollection?) -> Font {
        Font(size: style.size(for: traitCollection?.preferredContentSizeCategory), weight: style.standard.weight, textStyle: style)
    }

    /// This font at the text size of `traitCollection`, when it is a text style's font at one of
    /// the style's sizes; other fonts as they are (what a view that adjusts its fonts for the
    /// content size shows).
    open func adjusted(for traitCollection: TraitCollection) -> Font {
        // A size of the style's own (not one the app chose with `withSize`).
        guard let textStyle, textStyle.sizes.contains(pointSize) else { return self }
        let size = textStyle.size(for: traitCollection.preferredContentSizeCategory)
        guard size != pointSize else { return self }
        return Font(size: size, weight: weight, textStyle: textStyle, italic: isItalic, monospacedDigits: hasMonospacedDigits)
    }

    /// The system font of `fontSize` points.
    open class func systemFont(ofSize fontSize: CGFloat) -> Font { Font(size: fontSize, weight: .regular) }
    /// The system font of `fontSize` points and `weight`.
    open class func systemFont(ofSize fontSize: CGFloat, weight: Weight) -> Font { Font(size: fontSize, weight: weight) }
    /// The bold system font of `fontSize` points.
    open class func boldSystemFont(ofSize fontSize: CGFloat) -> Font { Font(size: fontSize, weight: .bold) }
    /// The italic system font of `fontSize` points.
    open class func italicSystemFont(ofSize fontSize: CGFloat) -> Font { Font(size: fontSize, weight: .regular, italic: true) }
    /// The system font of `fontSize` points with digits of one width.
    open class func monospacedDigitSystemFont(ofSize fontSize: CGFloat, weight: Weight) -> Font {
        Font(size: fontSize, weight: weight, monospacedDigits: true)
    }
    /// The system font, monospaced.
    open class func monospacedSystemFont(ofSize fontSize: CGFloat, weight: Weight) -> Font {
        Font(size: fontSize, weight: weight, monospacedDigits: true)
    }

    /// UIKit's standard sizes: labels 17, buttons 18, the system font 14, small 12.
    open class var labelFontSize: CGFloat { 17 }
    open class var buttonFontSize: CGFloat { 18 }
    open class var systemFontSize: CGFloat { 14 }
    open class var smallSystemFontSize: CGFloat { 12 }

    /// The same font at `fontSize` points (a text style's font keeps its style's weight).
    open func withSize(_ fontSize: CGFloat) -> Font {
        Font(size: fontSize, weight: weight, textStyle: textStyle, italic: isItalic, monospacedDigits: hasMonospacedDigits)
    }

    /// The font's name: `.SFUI-` and its weight, as UIKit names the system font.
    open var fontName: String {
        let names: [(Weight, String)] = [
            (.ultraLight, "Ultralight"), (.thin, "Thin"), (.light, "Light"), (.regular, "Regular"), (.medium, "Medium"),
            (.semibold, "Semibold"), (.bold, "Bold"), (.heavy, "Heavy"), (.black, "Black"),
        ]
        let name = names.min { abs($0.0.rawValue - weight.rawValue) < abs($1.0.rawValue - weight.rawValue) }!.1
        return ".SFUI-" + name + (isItalic ? "Italic" : "")
    }
    open var familyName: String { ".AppleSystemUIFont" }

    /// Above the baseline: 1,950/2,048 of the size.
    open var ascender: CGFloat { pointSize * 1950 / 2048 }
    /// Below the baseline (negative): −494/2,048 of the size.
    open var descender: CGFloat { -pointSize * 494 / 2048 }
    /// From the top of one line to the next: ascender − descender.
    open var lineHeight: CGFloat { ascender - descender }
    /// A capital letter's height: 1,443/2,048 of the size.
    open var capHeight: CGFloat { pointSize * 1443 / 2048 }
    /// A lowercase x's height: 1,078/2,048 of the size.
    open var xHeight: CGFloat { pointSize * 1078 / 2048 }
    /// Extra space between lines: none.
    open var leading: CGFloat { 0 }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? Font else { return false }
        return pointSize == other.pointSize && weight == other.weight && textStyle == other.textStyle && isItalic == other.isItalic
            && hasMonospacedDigits == other.hasMonospacedDigits
    }

    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(pointSize)
        hasher.combine(weight)
        hasher.combine(textStyle)
        hasher.combine(isItalic)
        return hasher.finalize()
    }

    open override var description: String { "Font(\(fontName), \(pointSize) pt)" }
}

/// Widths of text as a renderer without the font would lay it out: each character an estimated
/// share of an em — East Asian wide and full-width characters a whole em, ASCII by a few classes
/// of SF Pro's proportions (narrow `i l . ,` a quarter, `m w M W` 0.85, capitals 0.65, digits 0.6
/// (one width, as the system font's tabular digits are), other letters 0.52, a space 0.27) —
/// and bold text 5% wider. A frame computed from it is the same on every machine; it is not
/// UIKit's to the point.
public enum TextMeasure {
    /// The width of `text` in `font`, on one line.
    public static func width(of text: String, font: Font) -> CGFloat {
        var ems: CGFloat = 0
        for scalar in text.unicodeScalars { ems += share(scalar) }
        let bold: CGFloat = font.weight >= .semibold ? 1.05 : 1
        return (ems * font.pointSize * bold * 1000).rounded() / 1000
    }

    /// `text` broken into the lines it wraps to in `width` points: at spaces where it can, between
    /// any two CJK characters, and inside a word wider than a line; each line break of the text
    /// starts a line. (No width: one line.)
    public static func breakLines(of text: String, font: Font, width: CGFloat) -> [String] {
        guard width > 0 else { return [text] }
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = "", used: CGFloat = 0
            func place(_ piece: String, _ w: CGFloat) {
                if used > 0, used + w > width + 0.001 {
                    lines.append(line)
                    line = ""
                    used = 0
                }
                line += piece
                used += w
            }
            for word in words(of: String(paragraph)) {
                let w = self.width(of: word, font: font)
                if w <= width + 0.001 {
                    place(word, w)
                } else {
                    for character in word { place(String(character), self.width(of: String(character), font: font)) }
                }
            }
            lines.append(line)
        }
        return lines
    }

    /// How many lines `text` wraps to in `width` points (``breakLines(of:font:width:)``), at most
    /// `limit` (0: any number).
    public static func lines(of text: String, font: Font, width: CGFloat, limit: Int = 0) -> Int {
        guard !text.isEmpty else { return 0 }
        let count = breakLines(of: text, font: font, width: width).count
        return limit > 0 ? min(count, limit) : count
    }

    /// The size `text` takes in `font` within `width` points, at most `limit` lines (0: any).
    public static func size(of text: String, font: Font, width: CGFloat, limit: Int = 0) -> CGSize {
        let count = lines(of: text, font: font, width: width, limit: limit)
        let natural = self.width(of: text, font: font)
        return CGSize(width: min(natural, max(0, width)), height: CGFloat(count) * font.lineHeight)
    }

    /// Words and the spaces after them; each CJK character a word of its own.
    private static func words(of text: String) -> [String] {
        var words: [String] = [], current = ""
        for character in text {
            let scalar = character.unicodeScalars.first!
            if isWide(scalar) {
                if !current.isEmpty { words.append(current) }
                words.append(String(character))
                current = ""
            } else {
                current.append(character)
                if character == " " {
                    words.append(current)
                    current = ""
                }
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    private static func isWide(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        return (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
            || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1FAFF).contains(v) || (0x20000...0x3FFFD).contains(v)
    }

    private static func share(_ s: Unicode.Scalar) -> CGFloat {
        if isWide(s) { return 1 }
        switch s {
        case " ": return 0.27
        case "i", "l", "j", ".", ",", ":", ";", "|", "!", "'", "I": return 0.25
        case "m", "w", "M", "W": return 0.85
        case "0"..."9": return 0.6
        case "A"..."Z": return 0.65
        default:
            // Combining marks take no width of their own.
            if s.properties.generalCategory == .nonspacingMark || s.properties.generalCategory == .enclosingMark { return 0 }
            return 0.52
        }
    }
}
