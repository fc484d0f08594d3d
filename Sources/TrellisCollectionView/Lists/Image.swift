import Foundation

/// An image as headless layout needs it (`UIImage`): its size, and what it is — a named symbol,
/// an asset by name, or drawn at a size. No pixels are held: a renderer draws a symbol by its
/// name (or a placeholder of its size).
///
/// A symbol (`Image(systemName:)`) is as tall as its font's line and as wide as the font's size —
/// at the default configuration, the body style's 17 points; ``SymbolConfiguration`` changes
/// it. An asset (`Image(named:)`) has the size registered for its name
/// (``registerAsset(named:size:)``), or none: the bundle an app's assets come in is not here.
open class Image: NSObject, @unchecked Sendable {
    /// How an image is drawn: in its own colours, or as a template in its view's tint.
    public enum RenderingMode: Int, Sendable { case automatic, alwaysOriginal, alwaysTemplate }

    /// The size and weight symbols are drawn at (`UIImage.SymbolConfiguration`).
    open class SymbolConfiguration: NSObject, @unchecked Sendable {
        /// A symbol's scale beside text of its size.
        public enum Scale: Int, Sendable { case `default` = -1, unspecified = 0, small = 1, medium = 2, large = 3 }
        public enum Weight: Int, Sendable { case unspecified, ultraLight, thin, light, regular, medium, semibold, bold, heavy, black }
        /// The font the symbol matches.
        public let font: Font?
        public let scale: Scale
        public let weight: Weight

        init(font: Font?, scale: Scale, weight: Weight) {
            self.font = font
            self.scale = scale
            self.weight = weight
        }
        public convenience init(pointSize: CGFloat) { self.init(font: .systemFont(ofSize: pointSize), scale: .default, weight: .unspecified) }
        public convenience init(pointSize: CGFloat, weight: Weight) {
            self.init(font: .systemFont(ofSize: pointSize), scale: .default, weight: weight)
        }
        public convenience init(pointSize: CGFloat, weight: Weight, scale: Scale) {
            self.init(font: .systemFont(ofSize: pointSize), scale: scale, weight: weight)
        }
        public convenience init(textStyle: Font.TextStyle) { self.init(font: .preferredFont(forTextStyle: textStyle), scale: .default, weight: .unspecified) }
        public convenience init(textStyle: Font.TextStyle, scale: Scale) {
            self.init(font: .preferredFont(forTextStyle: textStyle), scale: scale, weight: .unspecified)
        }
        public convenience init(font: Font) { self.init(font: font, scale: .default, weight: .unspecified) }
        public convenience init(font: Font, scale: Scale) { self.init(font: font, scale: scale, weight: .unspecified) }
        public convenience init(scale: Scale) { self.init(font: nil, scale: scale, weight: .unspecified) }
        public convenience init(weight: Weight) { self.init(font: nil, scale: .default, weight: weight) }

        /// The size a symbol takes: the font's line tall and its size wide, a small scale 0.8 of
        /// it, a large one 1.2.
        var symbolSize: CGSize {
            let font = self.font ?? .preferredFont(forTextStyle: .body)
            let factor: CGFloat = scale == .small ? 0.8 : scale == .large ? 1.2 : 1
            return CGSize(width: (font.pointSize * factor).rounded(), height: (font.lineHeight * factor).rounded())
        }
    }

    /// The image's size in points.
    public let size: CGSize
    /// The symbol's name, for a symbol.
    public let symbolName: String?
    /// The asset's name, for an asset.
    public let assetName: String?
    /// How it is drawn.
    public let renderingMode: RenderingMode
    /// The colour a template is drawn in, when given.
    public let tintColor: Color?
    /// A symbol's configuration.
    public let symbolConfiguration: SymbolConfiguration?
    /// Points per pixel of the image's own: 1.
    open var scale: CGFloat { 1 }
    /// Whether it is a symbol.
    open var isSymbolImage: Bool { symbolName != nil }

    init(size: CGSize, symbol: String?, asset: String?, mode: RenderingMode, tint: Color?, configuration: SymbolConfiguration?) {
        self.size = size
        symbolName = symbol
        assetName = asset
        renderingMode = mode
        tintColor = tint
        symbolConfiguration = configuration
    }

    /// An empty image.
    public override convenience init() {
        self.init(size: .zero, symbol: nil, asset: nil, mode: .automatic, tint: nil, configuration: nil)
    }

    /// The system symbol `name` (drawn as a template). `nil` for an empty name.
    public convenience init?(systemName name: String) {
        self.init(systemName: name, withConfiguration: nil)
    }

    /// The system symbol `name` at `configuration`.
    public convenience init?(systemName name: String, withConfiguration configuration: SymbolConfiguration?) {
        guard !name.isEmpty else { return nil }
        let size = (configuration ?? SymbolConfiguration(textStyle: .body)).symbolSize
        self.init(size: size, symbol: name, asset: nil, mode: .alwaysTemplate, tint: nil, configuration: configuration)
    }

    /// The asset `name`, at the size registered for it (``registerAsset(named:size:)``; zero
    /// otherwise). `nil` for an empty name.
    public convenience init?(named name: String) {
        guard !name.isEmpty else { return nil }
        let size = Image.assetLock.withLock { Image.assets[name] } ?? .zero
        self.init(size: size, symbol: nil, asset: name, mode: .automatic, tint: nil, configuration: nil)
    }

    /// The asset `name`, as ``init(named:)``.
    public convenience init?(named name: String, in bundle: Bundle?, compatibleWith traitCollection: TraitCollection?) {
        self.init(named: name)
    }

    private static let assetLock = NSLock()
    nonisolated(unsafe) private static var assets: [String: CGSize] = [:]

    /// Says the size of the asset `name`, which ``init(named:)`` then gives its images.
    public static func registerAsset(named name: String, size: CGSize) {
        assetLock.withLock { assets[name] = size }
    }

    /// The same image drawn in `mode`.
    open func withRenderingMode(_ mode: RenderingMode) -> Image {
        Image(size: size, symbol: symbolName, asset: assetName, mode: mode, tint: tintColor, configuration: symbolConfiguration)
    }

    /// The same image drawn in `color`.
    open func withTintColor(_ color: Color) -> Image {
        Image(size: size, symbol: symbolName, asset: assetName, mode: renderingMode, tint: color, configuration: symbolConfiguration)
    }

    /// The same image drawn in `color` and `mode`.
    open func withTintColor(_ color: Color, renderingMode mode: RenderingMode) -> Image {
        Image(size: size, symbol: symbolName, asset: assetName, mode: mode, tint: color, configuration: symbolConfiguration)
    }

    /// A symbol at `configuration` (an image that is no symbol is returned as it is).
    open func withConfiguration(_ configuration: SymbolConfiguration) -> Image {
        guard symbolName != nil else { return self }
        return Image(
            size: configuration.symbolSize, symbol: symbolName, asset: nil, mode: renderingMode, tint: tintColor,
            configuration: configuration)
    }

    /// The same image with `configuration` (``withConfiguration(_:)``).
    open func applyingSymbolConfiguration(_ configuration: SymbolConfiguration) -> Image? { withConfiguration(configuration) }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? Image else { return false }
        return size == other.size && symbolName == other.symbolName && assetName == other.assetName
            && renderingMode == other.renderingMode && tintColor == other.tintColor
    }

    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(symbolName)
        hasher.combine(assetName)
        hasher.combine(size.width)
        hasher.combine(size.height)
        return hasher.finalize()
    }

    open override var description: String {
        if let symbolName { return "Image(systemName: \(symbolName), \(size.width)×\(size.height))" }
        return "Image(named: \(assetName ?? "—"), \(size.width)×\(size.height))"
    }
}
