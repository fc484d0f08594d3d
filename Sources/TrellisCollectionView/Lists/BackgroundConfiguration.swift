import Foundation

/// A cell's background as a value (`UIBackgroundConfiguration`): a colour (or one made from the
/// tint), insets, rounded corners, a stroke, or a view of the app's own. A list cell's default
/// follows its list's appearance and its state: selected or highlighted rows grey (in a sidebar,
/// the tint colour), as UIKit draws them. A renderer draws ``resolvedBackgroundColor(for:)``
/// in the cell's bounds less ``backgroundInsets``.
public struct BackgroundConfiguration: Hashable, @unchecked Sendable {
    /// What the configuration was made as: its state colours depend on it.
    enum Style: Hashable { case clear, plainCell, groupedCell, sidebarCell, accompaniedSidebarCell, plainHeaderFooter, groupedHeaderFooter }
    let style: Style

    /// The state it was last updated for: a row's colour by default.
    enum Look: Hashable { case normal, highlighted, selected }
    var look = Look.normal
    /// The colour set on it, which no state changes.
    private var chosenColor: Color??

    /// The colour; `nil`: the view's tint colour. Unless set, the style's colour for the state
    /// the configuration was last updated for (``updated(for:)``).
    public var backgroundColor: Color? {
        get { chosenColor ?? defaultColor }
        set { chosenColor = .some(newValue) }
    }

    /// The style's colour in the state last updated for.
    private var defaultColor: Color? {
        switch (style, look) {
        case (.clear, _), (.groupedHeaderFooter, _): return .clear
        case (.plainHeaderFooter, _): return .systemBackground
        case (.plainCell, .normal): return .systemBackground
        case (.groupedCell, .normal): return .secondarySystemGroupedBackground
        case (.plainCell, _), (.groupedCell, _): return .systemGray4
        case (.sidebarCell, .normal), (.accompaniedSidebarCell, .normal): return .clear
        case (.sidebarCell, .highlighted), (.accompaniedSidebarCell, .highlighted): return .systemGray4
        case (.sidebarCell, .selected), (.accompaniedSidebarCell, .selected): return nil
        }
    }
    /// A view drawn as the background (in place of the colour, where it is opaque).
    public var customView: View?
    /// How far the background is inset from the cell's edges.
    public var backgroundInsets = DirectionalEdgeInsets.zero
    /// Edges whose insets grow by the cell's layout margins.
    public var edgesAddingLayoutMarginsToBackgroundInsets: DirectionalRectEdge = []
    /// The corners' radius.
    public var cornerRadius: CGFloat = 0
    /// The stroke's colour (none when `nil` or of width 0).
    public var strokeColor: Color?
    public var strokeWidth: CGFloat = 0
    /// How far the stroke lies outside the background's edge.
    public var strokeOutset: CGFloat = 0

    init(style: Style) {
        self.style = style
    }

    /// No background.
    public static func clear() -> BackgroundConfiguration { BackgroundConfiguration(style: .clear) }
    /// A row of a plain list: the system background.
    public static func listPlainCell() -> BackgroundConfiguration { BackgroundConfiguration(style: .plainCell) }
    /// A row of a grouped list: the grouped background's second colour.
    public static func listGroupedCell() -> BackgroundConfiguration {
        BackgroundConfiguration(style: .groupedCell)
    }
    /// A row of a sidebar: clear, the tint colour when selected, rounded.
    public static func listSidebarCell() -> BackgroundConfiguration {
        var made = BackgroundConfiguration(style: .sidebarCell)
        made.cornerRadius = 10
        return made
    }
    /// A row of a sidebar beside another column (``listSidebarCell()``'s look).
    public static func listAccompaniedSidebarCell() -> BackgroundConfiguration {
        var made = BackgroundConfiguration(style: .accompaniedSidebarCell)
        made.cornerRadius = 10
        return made
    }
    /// A header or footer of a plain list.
    public static func listPlainHeaderFooter() -> BackgroundConfiguration {
        BackgroundConfiguration(style: .plainHeaderFooter)
    }
    /// A header or footer of a grouped list: clear.
    public static func listGroupedHeaderFooter() -> BackgroundConfiguration {
        BackgroundConfiguration(style: .groupedHeaderFooter)
    }
    /// A header or footer of a sidebar: clear.
    public static func listSidebarHeader() -> BackgroundConfiguration { BackgroundConfiguration(style: .groupedHeaderFooter) }

    /// The background as it shows in `state`: a plain or grouped row grey (system grey 4) while
    /// selected or highlighted; a sidebar row the tint colour while selected, grey while
    /// highlighted. Headers, footers and a clear background do not change, nor does a colour set
    /// on the configuration.
    public func updated(for state: ConfigurationState) -> BackgroundConfiguration {
        var updated = self
        if let cell = state as? CellConfigurationState {
            updated.look = cell.isSelected ? .selected : cell.isHighlighted ? .highlighted : .normal
        } else {
            updated.look = .normal
        }
        return updated
    }

    /// The colour drawn: ``backgroundColor``, or `tintColor` where it is `nil`.
    public func resolvedBackgroundColor(for tintColor: Color) -> Color { backgroundColor ?? tintColor }

    public static func == (a: BackgroundConfiguration, b: BackgroundConfiguration) -> Bool {
        a.style == b.style && a.backgroundColor == b.backgroundColor && a.customView === b.customView
            && a.backgroundInsets == b.backgroundInsets && a.edgesAddingLayoutMarginsToBackgroundInsets == b.edgesAddingLayoutMarginsToBackgroundInsets
            && a.cornerRadius == b.cornerRadius && a.strokeColor == b.strokeColor && a.strokeWidth == b.strokeWidth
            && a.strokeOutset == b.strokeOutset
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(style)
        hasher.combine(backgroundColor)
        hasher.combine(cornerRadius)
    }
}
