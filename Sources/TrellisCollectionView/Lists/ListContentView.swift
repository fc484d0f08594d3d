import Foundation

/// The view a ``ListContentConfiguration`` makes (`UIListContentView`): it computes where its
/// image, text and secondary text are drawn in its bounds — ``imageFrame``, ``textFrame``,
/// ``secondaryTextFrame`` — and how tall it needs to be (``sizeThatFits(_:)``), which a list
/// cell's self-sizing uses. Texts are measured by ``TextMeasure``.
///
/// The margins are the configuration's, and along ``ListContentConfiguration/axesPreservingSuperviewLayoutMargins``
/// the superview's where those reach further in (a superview's margin counts less by how far
/// the view is inset from that edge, as UIKit's `preservesSuperviewLayoutMargins` does). The
/// image sits in a slot of its reserved width at the leading margin, centred; the texts follow
/// it after ``ListContentConfiguration/imageToTextPadding``, stacked (text above secondary
/// text) or side by side with the secondary text at the trailing margin when the style prefers
/// it and both fit on one line. What is drawn is centred vertically between the margins. In a
/// right-to-left layout every frame is mirrored.
open class ListContentView: View, ContentView {
    /// The configuration shown, typed.
    open var listConfiguration: ListContentConfiguration {
        didSet { setNeedsLayout() }
    }

    /// The configuration shown: setting one that is not a ``ListContentConfiguration`` is
    /// ignored (UIKit raises).
    open var configuration: ContentConfiguration {
        get { listConfiguration }
        set {
            guard let list = newValue as? ListContentConfiguration else { return }
            listConfiguration = list
        }
    }

    public init(configuration: ListContentConfiguration) {
        listConfiguration = configuration
        super.init(frame: .zero)
    }

    public required init?(coder: NSCoder) { nil }

    /// How far a list cell's outline level moves the content in (leading), beyond the margins.
    var indentation: CGFloat = 0 {
        didSet { setNeedsLayout() }
    }

    public func supports(_ configuration: ContentConfiguration) -> Bool { configuration is ListContentConfiguration }

    /// Where each part is drawn, in the view's coordinates.
    public struct Parts: Equatable, Sendable {
        public var imageFrame: CGRect?
        public var textFrame: CGRect?
        public var secondaryTextFrame: CGRect?
        /// The height the parts need, margins included (at least the style's least height).
        public var fittingHeight: CGFloat
    }

    /// The frame the image is drawn in, if there is one.
    public var imageFrame: CGRect? { parts(in: bounds.size).imageFrame }
    /// The frame the text is drawn in, if there is one.
    public var textFrame: CGRect? { parts(in: bounds.size).textFrame }
    /// The frame the secondary text is drawn in, if there is one.
    public var secondaryTextFrame: CGRect? { parts(in: bounds.size).secondaryTextFrame }

    /// The view's size for a width of `size.width`: that width, and the height its parts need.
    open override func sizeThatFits(_ size: CGSize) -> CGSize {
        CGSize(width: size.width, height: parts(in: CGSize(width: size.width, height: 0)).fittingHeight)
    }

    /// The margins used: leading, trailing (in the layout's direction), top and bottom; the
    /// leading one with a list cell's indentation.
    public var effectiveMargins: DirectionalEdgeInsets {
        var margins = listConfiguration.directionalLayoutMargins
        if let superview {
            let axes = listConfiguration.axesPreservingSuperviewLayoutMargins
            let outer = superview.layoutMargins, frame = self.frame, box = superview.bounds
            let rightToLeft = effectiveUserInterfaceLayoutDirection == .rightToLeft
            if axes.contains(.horizontal) {
                let left = max(0, outer.left - (frame.minX - box.minX)), right = max(0, outer.right - (box.maxX - frame.maxX))
                margins.leading = max(margins.leading, rightToLeft ? right : left)
                margins.trailing = max(margins.trailing, rightToLeft ? left : right)
            }
            if axes.contains(.vertical) {
                margins.top = max(margins.top, outer.top - (frame.minY - box.minY))
                margins.bottom = max(margins.bottom, outer.bottom - (box.maxY - frame.maxY))
            }
        }
        margins.leading += indentation
        return margins
    }

    /// The text's font as shown: adjusted to the view's text size (its traits'
    /// `preferredContentSizeCategory`) when the text properties say so, as they do by default.
    public var shownTextFont: Font { shown(listConfiguration.textProperties) }
    /// The secondary text's font as shown.
    public var shownSecondaryTextFont: Font { shown(listConfiguration.secondaryTextProperties) }

    private func shown(_ properties: ListContentConfiguration.TextProperties) -> Font {
        properties.adjustsFontForContentSizeCategory ? properties.font.adjusted(for: traitCollection) : properties.font
    }

    /// The parts laid out in a view of `size` (a height of 0: only ``Parts/fittingHeight`` is
    /// meant).
    public func parts(in size: CGSize) -> Parts {
        let c = listConfiguration, m = effectiveMargins
        var imageSize = CGSize.zero, slot = CGSize.zero
        if let image = c.image {
            imageSize = image.size
            if image.isSymbolImage, let symbol = c.imageProperties.preferredSymbolConfiguration { imageSize = symbol.symbolSize }
            let limit = c.imageProperties.maximumSize
            if limit.width > 0, imageSize.width > limit.width, imageSize.width > 0 {
                imageSize = CGSize(width: limit.width, height: imageSize.height * limit.width / imageSize.width)
            }
            if limit.height > 0, imageSize.height > limit.height, imageSize.height > 0 {
                imageSize = CGSize(width: imageSize.width * limit.height / imageSize.height, height: limit.height)
            }
            let reserved = c.imageProperties.reservedLayoutSize
            let reservedWidth = reserved.width == ListContentConfiguration.ImageProperties.standardDimension ? (image.isSymbolImage ? 29 : 0) : reserved.width
            let reservedHeight = reserved.height == ListContentConfiguration.ImageProperties.standardDimension ? 0 : reserved.height
            slot = CGSize(width: max(reservedWidth, imageSize.width), height: max(reservedHeight, imageSize.height))
        }
        let textStart = m.leading + (c.image != nil ? slot.width + c.imageToTextPadding : 0)
        let available = max(0, size.width - textStart - m.trailing)
        let text = c.shownText.flatMap { $0.isEmpty ? nil : $0 }, secondary = c.shownSecondaryText.flatMap { $0.isEmpty ? nil : $0 }
        let tp = c.textProperties, sp = c.secondaryTextProperties
        let textFont = shownTextFont, secondaryFont = shownSecondaryTextFont
        var textSize = text.map { TextMeasure.size(of: $0, font: textFont, width: available, limit: tp.numberOfLines) }
        var secondarySize = secondary.map { TextMeasure.size(of: $0, font: secondaryFont, width: available, limit: sp.numberOfLines) }
        // Side by side when preferred and both fit on one line.
        var sideBySide = false
        if c.prefersSideBySideTextAndSecondaryText, let text, let secondary {
            let a = TextMeasure.width(of: text, font: textFont), b = TextMeasure.width(of: secondary, font: secondaryFont)
            if a + c.textToSecondaryTextHorizontalPadding + b <= available {
                sideBySide = true
                textSize = CGSize(width: a, height: textFont.lineHeight)
                secondarySize = CGSize(width: b, height: secondaryFont.lineHeight)
            }
        }
        let block: CGFloat
        if sideBySide {
            block = max(textSize?.height ?? 0, secondarySize?.height ?? 0)
        } else {
            let gap = textSize != nil && secondarySize != nil ? c.textToSecondaryTextVerticalPadding : 0
            block = (textSize?.height ?? 0) + gap + (secondarySize?.height ?? 0)
        }
        let content = max(block, slot.height)
        let fitting = max(c.minimumHeight, m.top + content + m.bottom)
        // Centred between the margins in the view's height (the fitting height when none is given).
        let height = size.height > 0 ? size.height : fitting
        let middle = m.top + (height - m.top - m.bottom) / 2
        /// A frame from the leading edge, mirrored in a right-to-left layout.
        func placed(_ x: CGFloat, _ y: CGFloat, _ w: CGFloat, _ h: CGFloat) -> CGRect {
            let rightToLeft = effectiveUserInterfaceLayoutDirection == .rightToLeft
            return CGRect(x: rightToLeft ? size.width - x - w : x, y: y, width: w, height: h)
        }
        var parts = Parts(fittingHeight: fitting)
        if c.image != nil {
            parts.imageFrame = placed(m.leading + (slot.width - imageSize.width) / 2, middle - imageSize.height / 2, imageSize.width, imageSize.height)
        }
        /// A text's x: at the start of the space, or centred in it.
        func textX(_ width: CGFloat, _ properties: ListContentConfiguration.TextProperties) -> CGFloat {
            properties.alignment == .center ? textStart + (available - width) / 2 : textStart
        }
        if sideBySide, let t = textSize, let s = secondarySize {
            parts.textFrame = placed(textStart, middle - t.height / 2, t.width, t.height)
            parts.secondaryTextFrame = placed(size.width - m.trailing - s.width, middle - s.height / 2, s.width, s.height)
        } else {
            var y = middle - block / 2
            if let t = textSize {
                parts.textFrame = placed(textX(t.width, tp), y, t.width, t.height)
                y += t.height + (secondarySize != nil ? c.textToSecondaryTextVerticalPadding : 0)
            }
            if let s = secondarySize { parts.secondaryTextFrame = placed(textX(s.width, sp), y, s.width, s.height) }
        }
        return parts
    }
}
