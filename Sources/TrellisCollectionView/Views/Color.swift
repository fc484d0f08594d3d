import Foundation

/// A colour as sRGB components (`UIColor` without the prefix): what cells, decoration views and
/// custom attributes carry, and what a renderer may paint. Nothing here draws.
///
/// ```swift
/// let tint = Color(red: 1, green: 0.5, blue: 0, alpha: 1)
/// tint.withAlphaComponent(0.25).alpha   // 0.25
/// Color.systemBlue.hexString            // "#007AFF"
/// ```
///
/// The system colours are their values in UIKit's light appearance; there is one appearance.
open class Color: NSObject, @unchecked Sendable {
    /// The components, 0 to 1 (values outside are kept: UIKit's extended range).
    public let red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat

    /// A colour from sRGB components.
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
        super.init()
    }

    /// A grey: `white` 0 is black, 1 is white.
    public convenience init(white: CGFloat, alpha: CGFloat) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    /// A colour from hue, saturation and brightness (HSB), each 0 to 1.
    public convenience init(hue: CGFloat, saturation: CGFloat, brightness: CGFloat, alpha: CGFloat) {
        let h = (hue - hue.rounded(.down)) * 6, s = max(0, min(1, saturation)), v = brightness
        let sector = Int(h) % 6, f = h - CGFloat(Int(h))
        let p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f))
        let (r, g, b): (CGFloat, CGFloat, CGFloat)
        switch sector {
        case 0: (r, g, b) = (v, t, p)
        case 1: (r, g, b) = (q, v, p)
        case 2: (r, g, b) = (p, v, t)
        case 3: (r, g, b) = (p, q, v)
        case 4: (r, g, b) = (t, p, v)
        default: (r, g, b) = (v, p, q)
        }
        self.init(red: r, green: g, blue: b, alpha: alpha)
    }

    /// The colour of a Core Graphics colour (grey or RGB components).
    public convenience init(cgColor: CGColor) {
        let c = cgColor.components ?? []
        switch c.count {
        case 2: self.init(white: c[0], alpha: c[1])
        case 4...: self.init(red: c[0], green: c[1], blue: c[2], alpha: c[3])
        default: self.init(white: 0, alpha: cgColor.alpha)
        }
    }

    /// The same colour as a Core Graphics colour (what `layer.borderColor` takes).
    open var cgColor: CGColor { CGColor(red: red, green: green, blue: blue, alpha: alpha) }

    /// The same colour with another alpha.
    open func withAlphaComponent(_ alpha: CGFloat) -> Color {
        Color(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// Reads the RGBA components; `true`, as every colour here has them.
    @discardableResult
    open func getRed(
        _ red: UnsafeMutablePointer<CGFloat>?, green: UnsafeMutablePointer<CGFloat>?,
        blue: UnsafeMutablePointer<CGFloat>?, alpha: UnsafeMutablePointer<CGFloat>?
    ) -> Bool {
        red?.pointee = self.red
        green?.pointee = self.green
        blue?.pointee = self.blue
        alpha?.pointee = self.alpha
        return true
    }

    /// Reads the grey level and alpha; `false` (and nothing written) unless the colour is a grey.
    @discardableResult
    open func getWhite(_ white: UnsafeMutablePointer<CGFloat>?, alpha: UnsafeMutablePointer<CGFloat>?) -> Bool {
        guard red == green, green == blue else { return false }
        white?.pointee = red
        alpha?.pointee = self.alpha
        return true
    }

    /// Reads hue, saturation, brightness and alpha.
    @discardableResult
    open func getHue(
        _ hue: UnsafeMutablePointer<CGFloat>?, saturation: UnsafeMutablePointer<CGFloat>?,
        brightness: UnsafeMutablePointer<CGFloat>?, alpha: UnsafeMutablePointer<CGFloat>?
    ) -> Bool {
        let high = max(red, green, blue), low = min(red, green, blue), range = high - low
        var h: CGFloat = 0
        if range > 0 {
            switch high {
            case red: h = (green - blue) / range + (green < blue ? 6 : 0)
            case green: h = (blue - red) / range + 2
            default: h = (red - green) / range + 4
            }
            h /= 6
        }
        hue?.pointee = h
        saturation?.pointee = high > 0 ? range / high : 0
        brightness?.pointee = high
        alpha?.pointee = self.alpha
        return true
    }

    /// `#RRGGBB`, or `#RRGGBBAA` when not opaque: how renderers write the colour.
    public var hexString: String {
        func byte(_ v: CGFloat) -> String {
            let n = Int((max(0, min(1, v)) * 255).rounded())
            let digits = Array("0123456789ABCDEF")
            return String([digits[n / 16], digits[n % 16]])
        }
        return "#" + byte(red) + byte(green) + byte(blue) + (alpha < 1 ? byte(alpha) : "")
    }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? Color else { return false }
        return red == other.red && green == other.green && blue == other.blue && alpha == other.alpha
    }

    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(red)
        hasher.combine(green)
        hasher.combine(blue)
        hasher.combine(alpha)
        return hasher.finalize()
    }

    open override var description: String {
        "Color(red: \(red), green: \(green), blue: \(blue), alpha: \(alpha))"
    }

    private static func rgb(_ r: Int, _ g: Int, _ b: Int, _ alpha: CGFloat = 1) -> Color {
        Color(red: CGFloat(r) / 255, green: CGFloat(g) / 255, blue: CGFloat(b) / 255, alpha: alpha)
    }

    // MARK: Fixed colours

    open class var black: Color { Color(white: 0, alpha: 1) }
    open class var darkGray: Color { Color(white: 1.0 / 3, alpha: 1) }
    open class var lightGray: Color { Color(white: 2.0 / 3, alpha: 1) }
    open class var white: Color { Color(white: 1, alpha: 1) }
    open class var gray: Color { Color(white: 0.5, alpha: 1) }
    open class var red: Color { Color(red: 1, green: 0, blue: 0, alpha: 1) }
    open class var green: Color { Color(red: 0, green: 1, blue: 0, alpha: 1) }
    open class var blue: Color { Color(red: 0, green: 0, blue: 1, alpha: 1) }
    open class var cyan: Color { Color(red: 0, green: 1, blue: 1, alpha: 1) }
    open class var yellow: Color { Color(red: 1, green: 1, blue: 0, alpha: 1) }
    open class var magenta: Color { Color(red: 1, green: 0, blue: 1, alpha: 1) }
    open class var orange: Color { Color(red: 1, green: 0.5, blue: 0, alpha: 1) }
    open class var purple: Color { Color(red: 0.5, green: 0, blue: 0.5, alpha: 1) }
    open class var brown: Color { Color(red: 0.6, green: 0.4, blue: 0.2, alpha: 1) }
    open class var clear: Color { Color(white: 0, alpha: 0) }

    // MARK: System colours (light appearance)

    open class var systemRed: Color { rgb(255, 59, 48) }
    open class var systemOrange: Color { rgb(255, 149, 0) }
    open class var systemYellow: Color { rgb(255, 204, 0) }
    open class var systemGreen: Color { rgb(52, 199, 89) }
    open class var systemMint: Color { rgb(0, 199, 190) }
    open class var systemTeal: Color { rgb(48, 176, 199) }
    open class var systemCyan: Color { rgb(50, 173, 230) }
    open class var systemBlue: Color { rgb(0, 122, 255) }
    open class var systemIndigo: Color { rgb(88, 86, 214) }
    open class var systemPurple: Color { rgb(175, 82, 222) }
    open class var systemPink: Color { rgb(255, 45, 85) }
    open class var systemBrown: Color { rgb(162, 132, 94) }
    open class var systemGray: Color { rgb(142, 142, 147) }
    open class var systemGray2: Color { rgb(174, 174, 178) }
    open class var systemGray3: Color { rgb(199, 199, 204) }
    open class var systemGray4: Color { rgb(209, 209, 214) }
    open class var systemGray5: Color { rgb(229, 229, 234) }
    open class var systemGray6: Color { rgb(242, 242, 247) }
    open class var tintColor: Color { systemBlue }
    open class var label: Color { rgb(0, 0, 0) }
    open class var secondaryLabel: Color { rgb(60, 60, 67, 0.6) }
    open class var tertiaryLabel: Color { rgb(60, 60, 67, 0.3) }
    open class var quaternaryLabel: Color { rgb(60, 60, 67, 0.18) }
    open class var placeholderText: Color { rgb(60, 60, 67, 0.3) }
    open class var link: Color { rgb(0, 122, 255) }
    open class var separator: Color { rgb(60, 60, 67, 0.29) }
    open class var opaqueSeparator: Color { rgb(198, 198, 200) }
    open class var systemFill: Color { rgb(120, 120, 128, 0.2) }
    open class var secondarySystemFill: Color { rgb(120, 120, 128, 0.16) }
    open class var tertiarySystemFill: Color { rgb(118, 118, 128, 0.12) }
    open class var quaternarySystemFill: Color { rgb(116, 116, 128, 0.08) }
    open class var systemBackground: Color { rgb(255, 255, 255) }
    open class var secondarySystemBackground: Color { rgb(242, 242, 247) }
    open class var tertiarySystemBackground: Color { rgb(255, 255, 255) }
    open class var systemGroupedBackground: Color { rgb(242, 242, 247) }
    open class var secondarySystemGroupedBackground: Color { rgb(255, 255, 255) }
    open class var tertiarySystemGroupedBackground: Color { rgb(242, 242, 247) }
    open class var lightText: Color { Color(white: 1, alpha: 0.6) }
    open class var darkText: Color { Color(white: 0, alpha: 1) }
}

#if !canImport(Darwin)
    /// A Core Graphics colour where Foundation on Linux lacks one: components in a grey or RGB
    /// space, what `CALayer`'s colour properties hold.
    public final class CGColor: Equatable, @unchecked Sendable {
        /// The components, alpha last: two for a grey, four for RGB.
        public let components: [CGFloat]?

        /// An RGB colour.
        public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
            components = [red, green, blue, alpha]
        }

        /// A grey.
        public init(gray: CGFloat, alpha: CGFloat) {
            components = [gray, alpha]
        }

        /// How many components, alpha included.
        public var numberOfComponents: Int { components?.count ?? 0 }

        /// The alpha component.
        public var alpha: CGFloat { components?.last ?? 1 }

        /// The same colour with another alpha.
        public func copy(alpha: CGFloat) -> CGColor? {
            guard let c = components else { return nil }
            return c.count == 2 ? CGColor(gray: c[0], alpha: alpha) : CGColor(red: c[0], green: c[1], blue: c[2], alpha: alpha)
        }

        public static let black = CGColor(gray: 0, alpha: 1)
        public static let white = CGColor(gray: 1, alpha: 1)
        public static let clear = CGColor(gray: 0, alpha: 0)

        public static func == (a: CGColor, b: CGColor) -> Bool { a.components == b.components }
    }
#endif
