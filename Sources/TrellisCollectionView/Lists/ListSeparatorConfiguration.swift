import Foundation

/// The lines between a list's rows (`UIListSeparatorConfiguration`): whether a row shows one
/// above and below, how far each is inset, and its colour. A list's configuration gives one for
/// every row (`separatorConfiguration`), which its `itemSeparatorHandler` may change row by row;
/// a ``ListCell`` says where its lines are drawn (``ListCell/separatorFrames``).
///
/// Automatic visibility: no line above a row; a line below each row — in grouped and inset
/// grouped lists, not below a section's last row; none in a sidebar. Automatic insets start the
/// line where the row's text starts (the cell's layout margin when it has no list content) and
/// run it to the row's trailing edge.
public struct ListSeparatorConfiguration: Hashable, @unchecked Sendable {
    /// Whether a line shows (`UIListSeparatorConfiguration.Visibility`).
    public enum Visibility: Int, Hashable, Sendable { case automatic, visible, hidden }

    /// Insets that mean "the row's own": `leading` at the row's text, `trailing` at its edge.
    public static let automaticInsets = DirectionalEdgeInsets(
        top: -.greatestFiniteMagnitude, leading: -.greatestFiniteMagnitude, bottom: -.greatestFiniteMagnitude,
        trailing: -.greatestFiniteMagnitude)

    /// The list's look the configuration was made for.
    let appearance: ListAppearanceKind

    public var topSeparatorVisibility = Visibility.automatic
    public var bottomSeparatorVisibility = Visibility.automatic
    public var topSeparatorInsets = ListSeparatorConfiguration.automaticInsets
    public var bottomSeparatorInsets = ListSeparatorConfiguration.automaticInsets
    /// The lines' colour: the system separator colour.
    public var color: Color = .separator
    /// The lines' colour between rows selected together.
    public var multipleSelectionColor: Color = .separator

    package init(appearance: ListAppearanceKind) {
        self.appearance = appearance
    }

    /// Whether the top (or bottom) line shows for a row, `last` in its section.
    func shows(top: Bool, last: Bool) -> Bool {
        switch top ? topSeparatorVisibility : bottomSeparatorVisibility {
        case .visible: return true
        case .hidden: return false
        case .automatic:
            if top { return false }
            switch appearance {
            case .plain: return true
            case .grouped, .insetGrouped: return !last
            case .sidebar, .sidebarPlain: return false
            }
        }
    }
}
