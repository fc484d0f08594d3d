import Foundation

/// A list's look, as a list cell's defaults need it.
package enum ListAppearanceKind: Sendable { case plain, grouped, insetGrouped, sidebar, sidebarPlain }

/// A layout that knows which of its sections are lists (the compositional layout's list sections).
package protocol ListAppearanceProviding {
    func listAppearance(ofSection section: Int) -> ListAppearanceKind?
    /// The separators of the row at `indexPath` (its section's list configuration, its item
    /// handler applied), or `nil` where the list shows none.
    func separatorConfiguration(forItemAt indexPath: IndexPath) -> ListSeparatorConfiguration?
}

/// A data source that expands and collapses outline items (a diffable data source).
package protocol OutlineToggling: AnyObject {
    func toggleOutline(ofItemAt indexPath: IndexPath) -> Bool
    /// Whether the item at `indexPath` is expanded in its section's outline.
    func isExpanded(itemAt indexPath: IndexPath) -> Bool
}

/// A row of a list (`UICollectionViewListCell`): a cell with accessories at its edges
/// (``accessories``), an indentation by outline level, layout margins of 16 points in a compact
/// width and 20 in a regular one (unless set), and default content and background
/// configurations for its list's appearance. The content view sits between the leading and the
/// trailing accessories; ``accessoryFrames`` says where each accessory shown is drawn. Sized by
/// itself: its preferred height is what its content needs (a ``ListContentView``'s
/// ``ListContentView/sizeThatFits(_:)``), at least its accessories'.
open class ListCell: CollectionViewCell {
    /// The accessories, in order from the outer edge inwards on each side.
    open var accessories: [CellAccessory] = [] {
        didSet { layoutList() }
    }
    /// The outline level: the content (and, with ``indentsAccessories``, the leading
    /// accessories) moves in by ``indentationWidth`` a level.
    open var indentationLevel = 0 {
        didSet { layoutList() }
    }
    /// The indentation of a level: 10 points.
    open var indentationWidth: CGFloat = 10 {
        didSet { layoutList() }
    }
    /// Whether the leading accessories move in with the content. Default `true`.
    open var indentsAccessories = true {
        didSet { layoutList() }
    }

    private var marginsChosen = false

    /// The layout margins: unless set, 16 points left and right in a compact width and 20 in a
    /// regular one, 8 above and below.
    open override var layoutMargins: EdgeInsets {
        get {
            if marginsChosen { return super.layoutMargins }
            let side = traitCollection.systemSideMargin
            return EdgeInsets(top: 8, left: side, bottom: 8, right: side)
        }
        set {
            marginsChosen = true
            super.layoutMargins = newValue
        }
    }

    /// The collection view the cell is shown in (or was handed out by, while its data source
    /// configures it), its index path there, and its layout when that lays out lists.
    private var listPlace: (owner: CollectionView, indexPath: IndexPath, lists: ListAppearanceProviding)? {
        guard let indexPath = shownBy != nil ? appliedLayoutAttributes?.indexPath : dequeuedFor,
            let owner = shownBy ?? dequeuedBy, let lists = owner.collectionViewLayout as? ListAppearanceProviding
        else { return nil }
        return (owner, indexPath, lists)
    }

    /// The appearance of the list the cell is shown in, when its layout says.
    var listAppearance: ListAppearanceKind? {
        listPlace.flatMap { $0.lists.listAppearance(ofSection: $0.indexPath.section) }
    }

    /// A fresh content configuration for the cell's list: a sidebar row's in a sidebar, a plain
    /// row's otherwise.
    open func defaultContentConfiguration() -> ListContentConfiguration {
        switch listAppearance {
        case .sidebar, .sidebarPlain: return .sidebarCell()
        default: return .cell()
        }
    }

    /// A fresh background configuration for the cell's list.
    open func defaultBackgroundConfiguration() -> BackgroundConfiguration {
        switch listAppearance {
        case .grouped, .insetGrouped: return .listGroupedCell()
        case .sidebar, .sidebarPlain: return .listSidebarCell()
        default: return .listPlainCell()
        }
    }

    /// Each accessory shown (as the cell's editing state says), with the frame it is drawn in.
    public var accessoryFrames: [(accessory: CellAccessory, frame: CGRect)] { listLayout().accessories }

    /// The colour of the row's separators, when it is shown in a list that draws them.
    public var listSeparatorColor: Color? {
        listPlace.flatMap { $0.lists.separatorConfiguration(forItemAt: $0.indexPath)?.color }
    }

    /// The lines above and below the row, in the cell's coordinates, as its list's separator
    /// configuration says (``ListSeparatorConfiguration``): a hairline (one pixel of the display)
    /// from the leading inset — automatic: where the text starts — to the trailing one. `nil`
    /// where a line does not show, or the cell is not shown in a list.
    public var separatorFrames: (top: CGRect?, bottom: CGRect?) {
        guard let (owner, indexPath, lists) = listPlace, let separators = lists.separatorConfiguration(forItemAt: indexPath) else {
            return (nil, nil)
        }
        let last = indexPath.item == owner.numberOfItems(inSection: indexPath.section) - 1
        let scale = traitCollection.displayScale > 0 ? traitCollection.displayScale : 1
        let size = bounds.size, line = 1 / scale
        let rightToLeft = effectiveUserInterfaceLayoutDirection == .rightToLeft
        // Where the text starts, from the leading edge: the content view's text, else the margin.
        let content = contentView.frame
        let textStart: CGFloat
        if let list = contentView as? ListContentView, let text = list.textFrame {
            textStart = rightToLeft ? size.width - (content.minX + text.maxX) : content.minX + text.minX
        } else {
            textStart = rightToLeft ? layoutMargins.right : layoutMargins.left
        }
        func frame(_ insets: DirectionalEdgeInsets, y: CGFloat) -> CGRect {
            let automatic = ListSeparatorConfiguration.automaticInsets
            let leading = insets.leading == automatic.leading ? textStart : insets.leading
            let trailing = insets.trailing == automatic.trailing ? 0 : insets.trailing
            let width = max(0, size.width - leading - trailing)
            return CGRect(x: rightToLeft ? size.width - leading - width : leading, y: y, width: width, height: line)
        }
        return (
            separators.shows(top: true, last: last) ? frame(separators.topSeparatorInsets, y: 0) : nil,
            separators.shows(top: false, last: last) ? frame(separators.bottomSeparatorInsets, y: size.height - line) : nil
        )
    }

    /// Where the row's separator is (`separatorLayoutGuide`): its layout frame is the bottom
    /// separator's line, else the top one's, else a line at the bottom from where the text starts.
    public var separatorLayoutGuide: LayoutGuide { guide(.separator, "UICollectionViewListCellSeparatorLayoutGuide") }

    var separatorGuideFrame: CGRect {
        let lines = separatorFrames
        if let line = lines.bottom ?? lines.top { return line }
        let rightToLeft = effectiveUserInterfaceLayoutDirection == .rightToLeft
        let start = rightToLeft ? layoutMargins.right : layoutMargins.left
        let width = max(0, bounds.width - start)
        return CGRect(x: rightToLeft ? 0 : start, y: bounds.height, width: width, height: 0)
    }

    /// The accessories shown on each side, each side's `at:` placements applied.
    private func shownAccessories() -> (leading: [CellAccessory], trailing: [CellAccessory]) {
        var leading: [CellAccessory] = [], trailing: [CellAccessory] = []
        for accessory in accessories where accessory.isShown(editing: isEditingItem) {
            let isLeading = accessory.placement.isLeading
            let side = isLeading ? leading : trailing
            var index = side.count
            if let at = accessory.placement.position { index = max(0, min(side.count, at(side))) }
            if isLeading { leading.insert(accessory, at: index) } else { trailing.insert(accessory, at: index) }
        }
        return (leading, trailing)
    }

    /// The accessories' frames, the content view's frame, and the indentation the content draws.
    private func listLayout() -> (accessories: [(accessory: CellAccessory, frame: CGRect)], content: CGRect, indent: CGFloat) {
        let (leading, trailing) = shownAccessories()
        let size = bounds.size
        let rightToLeft = effectiveUserInterfaceLayoutDirection == .rightToLeft
        let margins = layoutMargins
        let leadingMargin = rightToLeft ? margins.right : margins.left, trailingMargin = rightToLeft ? margins.left : margins.right
        let indent = CGFloat(max(0, indentationLevel)) * (indentationWidth.isFinite ? max(0, indentationWidth) : 0)
        var frames: [(accessory: CellAccessory, frame: CGRect)] = []
        /// A frame from the leading edge, mirrored in a right-to-left layout, centred vertically.
        func placed(_ x: CGFloat, _ s: CGSize) -> CGRect {
            CGRect(x: rightToLeft ? size.width - x - s.width : x, y: (size.height - s.height) / 2, width: s.width, height: s.height)
        }
        var x = leadingMargin + (indentsAccessories ? indent : 0)
        for accessory in leading {
            let s = accessory.size
            frames.append((accessory, placed(x, s)))
            x += s.width + 8
        }
        let contentStart = leading.isEmpty ? 0 : x - 8 + 16
        var end = size.width - trailingMargin
        for accessory in trailing {
            let s = accessory.size
            end -= s.width
            frames.append((accessory, placed(end, s)))
            end -= 8
        }
        let contentEnd = trailing.isEmpty ? size.width : end + 8 - 16
        let width = max(0, contentEnd - contentStart)
        let content = CGRect(x: rightToLeft ? size.width - contentStart - width : contentStart, y: 0, width: width, height: size.height)
        // The content moves in by the indentation unless the leading accessories already did.
        let contentIndent = leading.isEmpty || !indentsAccessories ? indent : 0
        return (frames, content, contentIndent)
    }

    /// Puts the content view between the accessories.
    private func layoutList() {
        let layout = listLayout()
        let content = contentView
        if let list = content as? ListContentView {
            list.indentation = layout.indent
            content.frame = layout.content
        } else {
            let rightToLeft = effectiveUserInterfaceLayoutDirection == .rightToLeft
            var frame = layout.content
            frame.size.width = max(0, frame.width - layout.indent)
            if !rightToLeft { frame.origin.x += layout.indent }
            content.frame = frame
        }
    }

    override func boundsDidChange(from oldBounds: CGRect) {
        super.boundsDidChange(from: oldBounds)
        layoutList()
    }

    override func contentViewDidChange() {
        super.contentViewDidChange()
        layoutList()
    }

    open override func setNeedsUpdateConfiguration() {
        super.setNeedsUpdateConfiguration()
        // Editing shows and hides accessories.
        layoutList()
    }

    /// The attributes the cell would like: its height what its content needs at its width.
    open override func preferredLayoutAttributesFitting(_ layoutAttributes: CollectionViewLayoutAttributes)
        -> CollectionViewLayoutAttributes
    {
        let fitted = super.preferredLayoutAttributesFitting(layoutAttributes)
        guard let list = contentView as? ListContentView else { return fitted }
        let width = layoutAttributes.size.width
        let saved = bounds
        bounds = CGRect(origin: bounds.origin, size: CGSize(width: width, height: bounds.height))
        let layout = listLayout()
        let needed = list.sizeThatFits(CGSize(width: layout.content.width, height: 0)).height
        let accessories = layout.accessories.map(\.frame.height).max() ?? 0
        bounds = saved
        fitted.size = CGSize(width: width, height: max(needed, accessories))
        return fitted
    }
}

extension CollectionView {
    /// Taps the first accessory of `kind` shown on the list cell at `indexPath`, as a person
    /// would: runs its action handler; an outline disclosure without one expands or collapses
    /// the item in its section's outline (a diffable data source's). Returns whether an
    /// accessory was there to tap (a hidden one is not).
    @discardableResult
    public func tapAccessory(_ kind: CellAccessory.Kind, ofItemAt indexPath: IndexPath) -> Bool {
        guard let cell = cellForItem(at: indexPath) as? ListCell,
            let accessory = cell.accessoryFrames.map(\.accessory).first(where: { $0.kind == kind && !$0.isHidden })
        else { return false }
        if let action = accessory.actionHandler {
            action()
        } else if kind == .outlineDisclosure, let outline = dataSource as? OutlineToggling {
            _ = outline.toggleOutline(ofItemAt: indexPath)
        }
        return true
    }
}
