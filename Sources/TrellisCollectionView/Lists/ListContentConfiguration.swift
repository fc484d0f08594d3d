import Foundation

/// The content of a list row, header or footer (`UIListContentConfiguration`): an image, a text
/// and a secondary text, with their fonts, colours and the spacing between them. A cell makes a
/// ``ListContentView`` from it, which computes where each part is drawn.
///
/// | style | text | secondary text | arrangement | margins (top, bottom) |
/// |---|---|---|---|---|
/// | `cell()`, `sidebarCell()`, `accompaniedSidebarCell()` | body, label | subheadline, secondary label | stacked | 11, 11 |
/// | `subtitleCell()`, `sidebarSubtitleCell()`, `accompaniedSidebarSubtitleCell()` | body, label | subheadline, secondary label | stacked | 11, 11 |
/// | `valueCell()` | body, label | body, secondary label | side by side, the secondary text at the trailing edge | 11, 11 |
/// | `plainHeader()`, `header()`, `sidebarHeader()` | headline, label | subheadline, secondary label | stacked | 4, 4 |
/// | `groupedHeader()` | footnote, secondary label | footnote, secondary label | stacked | 16, 7 |
/// | `plainFooter()`, `groupedFooter()`, `footer()` | footnote, secondary label | footnote, secondary label | stacked | 7, 7 |
/// | `prominentInsetGroupedHeader()`, `extraProminentInsetGroupedHeader()` | title 3 / title 2, bold | subheadline | stacked | 16, 7 |
///
/// Horizontal margins come from the cell (``axesPreservingSuperviewLayoutMargins``): 16 points
/// in a compact width, 20 in a regular one. Rows are at least 44 points tall; a symbol image
/// keeps a standard width of 29 points so that texts beside images line up, 16 points before
/// the text. Sidebar rows draw their text, secondary text and symbol white while selected.
public struct ListContentConfiguration: ContentConfiguration, Hashable, @unchecked Sendable {
    /// How a text is drawn (`UIListContentConfiguration.TextProperties`).
    public struct TextProperties: Hashable, @unchecked Sendable {
        /// A change of case applied when the text is drawn.
        public enum TextTransform: Int, Hashable, Sendable { case none, capitalized, lowercase, uppercase }
        public var font: Font
        public var color: Color
        public var alignment = TextAlignment.natural
        public var lineBreakMode = LineBreakMode.byTruncatingTail
        /// The most lines drawn (0: as many as the text needs).
        public var numberOfLines = 0
        public var adjustsFontSizeToFitWidth = false
        public var minimumScaleFactor: CGFloat = 0
        public var allowsDefaultTighteningForTruncation = true
        public var adjustsFontForContentSizeCategory = true
        public var showsExpansionTextWhenTruncated = false
        public var transform = TextTransform.none

        init(font: Font, color: Color) {
            self.font = font
            self.color = color
        }

        /// The colour drawn.
        public func resolvedColor() -> Color { color }

        /// `text` with ``transform`` applied.
        func transformed(_ text: String) -> String {
            switch transform {
            case .none: return text
            case .capitalized: return text.capitalized
            case .lowercase: return text.lowercased()
            case .uppercase: return text.uppercased()
            }
        }
    }

    /// Where a text's lines sit in its frame.
    public enum TextAlignment: Int, Hashable, Sendable { case natural, center, justified }
    /// Where a text too long for its lines is cut (`NSLineBreakMode`).
    public enum LineBreakMode: Int, Hashable, Sendable {
        case byWordWrapping, byCharWrapping, byClipping, byTruncatingHead, byTruncatingTail, byTruncatingMiddle
    }

    /// How the image is drawn (`UIListContentConfiguration.ImageProperties`).
    public struct ImageProperties: Hashable, @unchecked Sendable {
        /// The width and height that mean "the style's standard one".
        public static let standardDimension = -CGFloat.greatestFiniteMagnitude
        public var preferredSymbolConfiguration: Image.SymbolConfiguration?
        /// The colour of a template image; `nil`: the view's tint.
        public var tintColor: Color?
        public var cornerRadius: CGFloat = 0
        /// The largest size drawn (zero: no limit); a larger image is scaled down to fit.
        public var maximumSize = CGSize.zero
        /// The space kept for the image whatever its size (``standardDimension``: the style's).
        public var reservedLayoutSize = CGSize.zero
        public var accessibilityIgnoresInvertColors = false

        /// The tint drawn: ``tintColor``, or `tintColor` where it is `nil`.
        public func resolvedTintColor(for tintColor: Color) -> Color { self.tintColor ?? tintColor }
    }

    /// What the configuration was made as.
    enum Style: Hashable {
        case cell, subtitleCell, valueCell, sidebarCell, sidebarSubtitleCell, accompaniedSidebarCell, accompaniedSidebarSubtitleCell
        case plainHeader, plainFooter, groupedHeader, groupedFooter, sidebarHeader, prominentInsetGroupedHeader, extraProminentInsetGroupedHeader

        var isSidebar: Bool {
            [.sidebarCell, .sidebarSubtitleCell, .accompaniedSidebarCell, .accompaniedSidebarSubtitleCell].contains(self)
        }
        var isRow: Bool {
            [.cell, .subtitleCell, .valueCell, .sidebarCell, .sidebarSubtitleCell, .accompaniedSidebarCell, .accompaniedSidebarSubtitleCell]
                .contains(self)
        }
    }
    let style: Style
    /// Whether the row it is drawn in is selected (sidebar rows draw white then).
    var showsSelected = false

    public var image: Image?
    public var imageProperties = ImageProperties()
    public var text: String?
    public var attributedText: NSAttributedString?
    public var textProperties: TextProperties
    public var secondaryText: String?
    public var secondaryAttributedText: NSAttributedString?
    public var secondaryTextProperties: TextProperties
    /// The axes along which the cell's margins are used where larger than the configuration's.
    public var axesPreservingSuperviewLayoutMargins = Axis.horizontal
    public var directionalLayoutMargins: DirectionalEdgeInsets
    /// Whether the text and the secondary text sit side by side when they fit.
    public var prefersSideBySideTextAndSecondaryText = false
    public var imageToTextPadding: CGFloat = 16
    public var textToSecondaryTextHorizontalPadding: CGFloat = 8
    public var textToSecondaryTextVerticalPadding: CGFloat = 3

    init(style: Style) {
        self.style = style
        let label = Color.label, secondary = Color.secondaryLabel
        switch style {
        case .cell, .sidebarCell, .accompaniedSidebarCell, .subtitleCell, .sidebarSubtitleCell, .accompaniedSidebarSubtitleCell:
            textProperties = TextProperties(font: .preferredFont(forTextStyle: .body), color: label)
            secondaryTextProperties = TextProperties(font: .preferredFont(forTextStyle: .subheadline), color: secondary)
            directionalLayoutMargins = DirectionalEdgeInsets(top: 11, leading: 0, bottom: 11, trailing: 0)
        case .valueCell:
            textProperties = TextProperties(font: .preferredFont(forTextStyle: .body), color: label)
            secondaryTextProperties = TextProperties(font: .preferredFont(forTextStyle: .body), color: secondary)
            directionalLayoutMargins = DirectionalEdgeInsets(top: 11, leading: 0, bottom: 11, trailing: 0)
            prefersSideBySideTextAndSecondaryText = true
        case .plainHeader, .sidebarHeader:
            textProperties = TextProperties(font: .preferredFont(forTextStyle: .headline), color: label)
            secondaryTextProperties = TextProperties(font: .preferredFont(forTextStyle: .subheadline), color: secondary)
            directionalLayoutMargins = DirectionalEdgeInsets(top: 4, leading: 0, bottom: 4, trailing: 0)
        case .groupedHeader:
            textProperties = TextProperties(font: .preferredFont(forTextStyle: .footnote), color: secondary)
            secondaryTextProperties = TextProperties(font: .preferredFont(forTextStyle: .footnote), color: secondary)
            directionalLayoutMargins = DirectionalEdgeInsets(top: 16, leading: 0, bottom: 7, trailing: 0)
        case .plainFooter, .groupedFooter:
            textProperties = TextProperties(font: .preferredFont(forTextStyle: .footnote), color: secondary)
            secondaryTextProperties = TextProperties(font: .preferredFont(forTextStyle: .footnote), color: secondary)
            directionalLayoutMargins = DirectionalEdgeInsets(top: 7, leading: 0, bottom: 7, trailing: 0)
        case .prominentInsetGroupedHeader, .extraProminentInsetGroupedHeader:
            let size = Font.preferredFont(forTextStyle: style == .prominentInsetGroupedHeader ? .title3 : .title2).pointSize
            textProperties = TextProperties(font: .systemFont(ofSize: size, weight: .bold), color: label)
            secondaryTextProperties = TextProperties(font: .preferredFont(forTextStyle: .subheadline), color: secondary)
            directionalLayoutMargins = DirectionalEdgeInsets(top: 16, leading: 0, bottom: 7, trailing: 0)
        }
        if style.isSidebar { imageProperties.tintColor = nil }
        imageProperties.reservedLayoutSize = style.isRow ? CGSize(width: ImageProperties.standardDimension, height: 0) : .zero
    }

    public static func cell() -> ListContentConfiguration { ListContentConfiguration(style: .cell) }
    public static func subtitleCell() -> ListContentConfiguration { ListContentConfiguration(style: .subtitleCell) }
    public static func valueCell() -> ListContentConfiguration { ListContentConfiguration(style: .valueCell) }
    public static func plainHeader() -> ListContentConfiguration { ListContentConfiguration(style: .plainHeader) }
    public static func plainFooter() -> ListContentConfiguration { ListContentConfiguration(style: .plainFooter) }
    public static func groupedHeader() -> ListContentConfiguration { ListContentConfiguration(style: .groupedHeader) }
    public static func groupedFooter() -> ListContentConfiguration { ListContentConfiguration(style: .groupedFooter) }
    public static func sidebarCell() -> ListContentConfiguration { ListContentConfiguration(style: .sidebarCell) }
    public static func sidebarSubtitleCell() -> ListContentConfiguration { ListContentConfiguration(style: .sidebarSubtitleCell) }
    public static func accompaniedSidebarCell() -> ListContentConfiguration { ListContentConfiguration(style: .accompaniedSidebarCell) }
    public static func accompaniedSidebarSubtitleCell() -> ListContentConfiguration {
        ListContentConfiguration(style: .accompaniedSidebarSubtitleCell)
    }
    public static func sidebarHeader() -> ListContentConfiguration { ListContentConfiguration(style: .sidebarHeader) }
    /// A header in the plain list look (``plainHeader()``).
    public static func header() -> ListContentConfiguration { ListContentConfiguration(style: .plainHeader) }
    /// A footer in the plain list look (``plainFooter()``).
    public static func footer() -> ListContentConfiguration { ListContentConfiguration(style: .plainFooter) }
    public static func prominentInsetGroupedHeader() -> ListContentConfiguration { ListContentConfiguration(style: .prominentInsetGroupedHeader) }
    public static func extraProminentInsetGroupedHeader() -> ListContentConfiguration {
        ListContentConfiguration(style: .extraProminentInsetGroupedHeader)
    }

    public func makeContentView() -> View & ContentView { ListContentView(configuration: self) }

    /// The configuration as it shows in `state`: a sidebar row selected draws white.
    public func updated(for state: ConfigurationState) -> ListContentConfiguration {
        var updated = self
        updated.showsSelected = (state as? CellConfigurationState)?.isSelected ?? false
        return updated
    }

    /// The text drawn: the attributed text's characters when there is one, with the transform.
    package var shownText: String? { (attributedText?.string ?? text).map(textProperties.transformed) }
    /// The secondary text drawn.
    package var shownSecondaryText: String? { (secondaryAttributedText?.string ?? secondaryText).map(secondaryTextProperties.transformed) }

    /// The colour the text is drawn in: white in a selected sidebar row.
    public var resolvedTextColor: Color { style.isSidebar && showsSelected ? .white : textProperties.resolvedColor() }
    /// The colour the secondary text is drawn in.
    public var resolvedSecondaryTextColor: Color {
        style.isSidebar && showsSelected ? .white : secondaryTextProperties.resolvedColor()
    }
    /// The tint a template image is drawn in, the view's tint being `tintColor`.
    public func resolvedImageTintColor(for tintColor: Color) -> Color {
        style.isSidebar && showsSelected ? .white : imageProperties.resolvedTintColor(for: tintColor)
    }

    /// The least height of a view showing it: 44 points for a row.
    var minimumHeight: CGFloat { style.isRow ? 44 : 0 }
}

/// Horizontal, vertical or both (`UIAxis`): the axes along which a list content view takes its
/// superview's layout margins.
public struct Axis: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let horizontal = Axis(rawValue: 1)
    public static let vertical = Axis(rawValue: 2)
    public static let both: Axis = [.horizontal, .vertical]
}
