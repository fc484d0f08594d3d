import Foundation

/// A control or mark at a list cell's edge (`UICellAccessory`): a disclosure chevron, an outline
/// disclosure that expands the row's children, a checkmark, delete and insert buttons, a reorder
/// handle, a multiselect circle, a label, an info button, or a view of the app's own. Each is
/// shown always, only while editing, or only while not (``DisplayedState``), on its own side of
/// the cell (``placement``), at its width (``width``).
///
/// | accessory | side | shown by default | width | height |
/// |---|---|---|---|---|
/// | `disclosureIndicator()` | trailing | always | 12 | 14 |
/// | `outlineDisclosure()` | trailing (style `header`), leading (`cell`, `automatic`) | always | 20 | 20 |
/// | `checkmark()` | trailing | always | 16 | 14 |
/// | `detail()` | trailing | always | 24 | 24 |
/// | `label(text:)` | trailing | always | the text's, body | a line of body |
/// | `reorder()` | trailing | while editing | 24 | 14 |
/// | `delete()`, `insert()`, `multiselect()` | leading | while editing | 24 | 24 |
/// | `customView(configuration:)` | as configured | as configured | the view's (or reserved) | the view's |
///
/// Accessories are 8 points apart and 16 from the content; a row's outermost accessory sits at
/// its layout margin. Hidden ones (`isHidden`) keep their space.
public struct CellAccessory: @unchecked Sendable {
    /// When an accessory is shown.
    public enum DisplayedState: Int, Hashable, Sendable { case always, whenEditing, whenNotEditing }

    /// How wide an accessory is laid out (`UICellAccessory.LayoutDimension`).
    public enum LayoutDimension: Hashable, Sendable {
        /// The accessory's standard width.
        case standard
        /// Its own width (a custom view's frame).
        case actual
        /// This many points.
        case custom(CGFloat)
    }

    /// Which side of the cell an accessory is on (`UICellAccessory.Placement`), and where among
    /// the accessories there (`at`: given the side's accessories in order, the index to insert at).
    public enum Placement {
        case leading(displayed: DisplayedState = .always, at: ((_ accessories: [CellAccessory]) -> Int)? = nil)
        case trailing(displayed: DisplayedState = .always, at: ((_ accessories: [CellAccessory]) -> Int)? = nil)

        var isLeading: Bool { if case .leading = self { return true } else { return false } }
        var displayed: DisplayedState {
            switch self {
            case .leading(let displayed, _), .trailing(let displayed, _): return displayed
            }
        }
        var position: ((_ accessories: [CellAccessory]) -> Int)? {
            switch self {
            case .leading(_, let at), .trailing(_, let at): return at
            }
        }
    }

    /// What an accessory is.
    public enum Kind: Hashable, Sendable {
        case disclosureIndicator, outlineDisclosure, checkmark, delete, insert, reorder, multiselect, detail, label, customView
    }

    public struct DisclosureIndicatorOptions: Sendable {
        public var isHidden: Bool?
        public var reservedLayoutWidth: LayoutDimension?
        public var tintColor: Color?
        public init(isHidden: Bool? = nil, reservedLayoutWidth: LayoutDimension? = nil, tintColor: Color? = nil) {
            self.isHidden = isHidden
            self.reservedLayoutWidth = reservedLayoutWidth
            self.tintColor = tintColor
        }
    }

    public struct OutlineDisclosureOptions: Sendable {
        /// `header`: a section's heading, the chevron trailing; `cell`: a row, the chevron leading.
        public enum Style: Int, Hashable, Sendable { case automatic, header, cell }
        public var style: Style
        public var isHidden: Bool?
        public var reservedLayoutWidth: LayoutDimension?
        public var tintColor: Color?
        public init(style: Style = .automatic, isHidden: Bool? = nil, reservedLayoutWidth: LayoutDimension? = nil, tintColor: Color? = nil) {
            self.style = style
            self.isHidden = isHidden
            self.reservedLayoutWidth = reservedLayoutWidth
            self.tintColor = tintColor
        }
    }

    /// Options of the accessories that are only a mark or a button: hidden, width, colours.
    public struct Options: Sendable {
        public var isHidden: Bool?
        public var reservedLayoutWidth: LayoutDimension?
        public var tintColor: Color?
        public var backgroundColor: Color?
        public var showsVerticalSeparator = true
        public init(
            isHidden: Bool? = nil, reservedLayoutWidth: LayoutDimension? = nil, tintColor: Color? = nil, backgroundColor: Color? = nil,
            showsVerticalSeparator: Bool = true
        ) {
            self.isHidden = isHidden
            self.reservedLayoutWidth = reservedLayoutWidth
            self.tintColor = tintColor
            self.backgroundColor = backgroundColor
            self.showsVerticalSeparator = showsVerticalSeparator
        }
    }
    public typealias CheckmarkOptions = Options
    public typealias DeleteOptions = Options
    public typealias InsertOptions = Options
    public typealias ReorderOptions = Options
    public typealias MultiselectOptions = Options
    public typealias DetailOptions = Options

    public struct LabelOptions: Sendable {
        public var isHidden: Bool?
        public var reservedLayoutWidth: LayoutDimension?
        public var tintColor: Color?
        public var font: Font?
        public var adjustsFontForContentSizeCategory = true
        public init(
            isHidden: Bool? = nil, reservedLayoutWidth: LayoutDimension? = nil, tintColor: Color? = nil, font: Font? = nil,
            adjustsFontForContentSizeCategory: Bool = true
        ) {
            self.isHidden = isHidden
            self.reservedLayoutWidth = reservedLayoutWidth
            self.tintColor = tintColor
            self.font = font
            self.adjustsFontForContentSizeCategory = adjustsFontForContentSizeCategory
        }
    }

    /// A view of the app's own as an accessory (`UICellAccessory.CustomViewConfiguration`).
    public struct CustomViewConfiguration {
        public var customView: View
        public var placement: Placement
        public var isHidden: Bool?
        public var reservedLayoutWidth: LayoutDimension
        public var tintColor: Color?
        public var maintainsFixedSize: Bool
        public init(
            customView: View, placement: Placement, isHidden: Bool? = nil, reservedLayoutWidth: LayoutDimension = .standard,
            tintColor: Color? = nil, maintainsFixedSize: Bool = false
        ) {
            self.customView = customView
            self.placement = placement
            self.isHidden = isHidden
            self.reservedLayoutWidth = reservedLayoutWidth
            self.tintColor = tintColor
            self.maintainsFixedSize = maintainsFixedSize
        }
    }

    /// What it is.
    public let kind: Kind
    /// Where it is, and when it shows.
    public let placement: Placement
    /// Whether it is drawn (a hidden accessory keeps its space).
    public let isHidden: Bool
    /// The width it is laid out at.
    public let reservedLayoutWidth: LayoutDimension
    public let tintColor: Color?
    public let backgroundColor: Color?
    /// A label's text.
    public let text: String?
    /// A label's font.
    public let font: Font?
    /// A custom view.
    public let customView: View?
    /// What a tap on it does (delete, insert, detail, an outline disclosure's own).
    public let actionHandler: (() -> Void)?

    /// When it is shown.
    public var displayed: DisplayedState { placement.displayed }

    init(
        _ kind: Kind, _ placement: Placement, hidden: Bool?, width: LayoutDimension?, tint: Color?, background: Color? = nil,
        text: String? = nil, font: Font? = nil, view: View? = nil, action: (() -> Void)? = nil
    ) {
        self.kind = kind
        self.placement = placement
        isHidden = hidden ?? false
        reservedLayoutWidth = width ?? .standard
        tintColor = tint
        backgroundColor = background
        self.text = text
        self.font = font
        customView = view
        actionHandler = action
    }

    public static func disclosureIndicator(displayed: DisplayedState = .always, options: DisclosureIndicatorOptions = .init()) -> CellAccessory {
        CellAccessory(
            .disclosureIndicator, .trailing(displayed: displayed), hidden: options.isHidden, width: options.reservedLayoutWidth, tint: options.tintColor)
    }

    /// A chevron that expands and collapses the row's children; a tap on it runs
    /// `actionHandler`, or expands or collapses the item in its section's outline.
    public static func outlineDisclosure(
        displayed: DisplayedState = .always, options: OutlineDisclosureOptions = .init(), actionHandler: (() -> Void)? = nil
    ) -> CellAccessory {
        let placement: Placement = options.style == .header ? .trailing(displayed: displayed) : .leading(displayed: displayed)
        return CellAccessory(
            .outlineDisclosure, placement, hidden: options.isHidden, width: options.reservedLayoutWidth, tint: options.tintColor,
            action: actionHandler)
    }

    public static func checkmark(displayed: DisplayedState = .always, options: CheckmarkOptions = .init()) -> CellAccessory {
        CellAccessory(.checkmark, .trailing(displayed: displayed), hidden: options.isHidden, width: options.reservedLayoutWidth, tint: options.tintColor)
    }

    public static func delete(displayed: DisplayedState = .whenEditing, options: DeleteOptions = .init(), actionHandler: (() -> Void)? = nil) -> CellAccessory {
        CellAccessory(
            .delete, .leading(displayed: displayed), hidden: options.isHidden, width: options.reservedLayoutWidth, tint: options.tintColor,
            background: options.backgroundColor ?? .systemRed, action: actionHandler)
    }

    public static func insert(displayed: DisplayedState = .whenEditing, options: InsertOptions = .init(), actionHandler: (() -> Void)? = nil) -> CellAccessory {
        CellAccessory(
            .insert, .leading(displayed: displayed), hidden: options.isHidden, width: options.reservedLayoutWidth, tint: options.tintColor,
            background: options.backgroundColor ?? .systemGreen, action: actionHandler)
    }

    public static func reorder(displayed: DisplayedState = .whenEditing, options: ReorderOptions = .init()) -> CellAccessory {
        CellAccessory(.reorder, .trailing(displayed: displayed), hidden: options.isHidden, width: options.reservedLayoutWidth, tint: options.tintColor)
    }

    public static func multiselect(displayed: DisplayedState = .whenEditing, options: MultiselectOptions = .init()) -> CellAccessory {
        CellAccessory(
            .multiselect, .leading(displayed: displayed), hidden: options.isHidden, width: options.reservedLayoutWidth, tint: options.tintColor,
            background: options.backgroundColor)
    }

    public static func detail(displayed: DisplayedState = .always, options: DetailOptions = .init(), actionHandler: (() -> Void)? = nil) -> CellAccessory {
        CellAccessory(
            .detail, .trailing(displayed: displayed), hidden: options.isHidden, width: options.reservedLayoutWidth, tint: options.tintColor,
            action: actionHandler)
    }

    public static func label(text: String, displayed: DisplayedState = .always, options: LabelOptions = .init()) -> CellAccessory {
        CellAccessory(
            .label, .trailing(displayed: displayed), hidden: options.isHidden, width: options.reservedLayoutWidth, tint: options.tintColor,
            text: text, font: options.font)
    }

    public static func customView(configuration: CustomViewConfiguration) -> CellAccessory {
        CellAccessory(
            .customView, configuration.placement, hidden: configuration.isHidden, width: configuration.reservedLayoutWidth,
            tint: configuration.tintColor, view: configuration.customView)
    }

    /// Whether it shows while the cell is (or is not) editing.
    func isShown(editing: Bool) -> Bool {
        switch displayed {
        case .always: return true
        case .whenEditing: return editing
        case .whenNotEditing: return !editing
        }
    }

    /// The font a label is drawn in: body unless given.
    package var labelFont: Font { font ?? .preferredFont(forTextStyle: .body) }

    /// The size it is laid out at.
    var size: CGSize {
        let standard: CGSize
        switch kind {
        case .disclosureIndicator: standard = CGSize(width: 12, height: 14)
        case .outlineDisclosure: standard = CGSize(width: 20, height: 20)
        case .checkmark: standard = CGSize(width: 16, height: 14)
        case .reorder: standard = CGSize(width: 24, height: 14)
        case .delete, .insert, .multiselect, .detail: standard = CGSize(width: 24, height: 24)
        case .label: standard = CGSize(width: TextMeasure.width(of: text ?? "", font: labelFont), height: labelFont.lineHeight)
        case .customView: standard = customView?.bounds.size ?? .zero
        }
        switch reservedLayoutWidth {
        case .standard, .actual: return standard
        case .custom(let width): return CGSize(width: max(0, width.isFinite ? width : 0), height: standard.height)
        }
    }
}
