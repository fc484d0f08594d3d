import Foundation
import Testing
import TrellisCollectionView
import TrellisLayouts

/// List cells as Apple's list samples write them: a cell registration of `ListCell`, its
/// default content configuration with a text (an image, a secondary text), accessories, and a
/// diffable data source — laid out headless, with the frames a renderer draws.
@Suite("List cells")
@MainActor
struct ListCellTests {
    /// A list of `rows` in `appearance`, each row's cell made by `configure`, laid out.
    static func list(
        _ rows: [String], appearance: CollectionLayoutListConfiguration.Appearance = .plain, width: CGFloat = 375,
        traits: TraitCollection? = nil, adjust: (inout CollectionLayoutListConfiguration) -> Void = { _ in },
        configure: @escaping (ListCell, IndexPath, String) -> Void
    ) -> (CollectionView, CollectionViewDiffableDataSource<Int, String>) {
        var configuration = CollectionLayoutListConfiguration(appearance: appearance)
        adjust(&configuration)
        let layout = CollectionViewCompositionalLayout.list(using: configuration)
        let view = CollectionView(frame: CGRect(x: 0, y: 0, width: width, height: 667), collectionViewLayout: layout)
        if let traits { view.traitCollection = TraitCollection(traitsFrom: [view.traitCollection, traits]) }
        let registration = CollectionView.CellRegistration<ListCell, String>(handler: configure)
        let source = CollectionViewDiffableDataSource<Int, String>(collectionView: view) { view, indexPath, row in
            view.dequeueConfiguredReusableCell(using: registration, for: indexPath, item: row)
        }
        var snapshot = DiffableDataSourceSnapshot<Int, String>()
        snapshot.appendSections([0])
        snapshot.appendItems(rows)
        source.apply(snapshot, animatingDifferences: false)
        view.layoutIfNeeded()
        return (view, source)
    }

    static func cell(_ view: CollectionView, _ item: Int) throws -> ListCell {
        try #require(view.cellForItem(at: IndexPath(item: item, section: 0)) as? ListCell)
    }

    static func content(_ cell: ListCell) throws -> ListContentView {
        try #require(cell.contentView as? ListContentView)
    }

    @Test("a row's text sits at the cell's layout margin (16 points compact, 20 regular), centred in a 44-point row")
    func textAtTheMargin() throws {
        for (traits, margin) in [(TraitCollection(horizontalSizeClass: .compact), CGFloat(16)), (TraitCollection(horizontalSizeClass: .regular), 20)] {
            let (view, _) = Self.list(["Wi-Fi", "Bluetooth"], traits: traits) { cell, _, row in
                var content = cell.defaultContentConfiguration()
                content.text = row
                cell.contentConfiguration = content
            }
            let cell = try Self.cell(view, 1)
            #expect(cell.frame == CGRect(x: 0, y: 44, width: 375, height: 44))
            let text = try #require(try Self.content(cell).textFrame)
            let body = Font.preferredFont(forTextStyle: .body)
            #expect(text.minX == margin && text.height == body.lineHeight && text.midY == 22)
            #expect(try Self.content(cell).listConfiguration.text == "Bluetooth")
        }
        #expect(Font.preferredFont(forTextStyle: .body).lineHeight == 20.287109375, "SF Pro's 17-point line, as UIKit gives it")
    }

    @Test("an image keeps a standard slot before the text; a value cell's secondary text ends at the trailing margin, or before a disclosure chevron")
    func imageAndValue() throws {
        let (view, _) = Self.list(["Airplane Mode", "Wi-Fi"]) { cell, indexPath, row in
            var content = indexPath.item == 0 ? cell.defaultContentConfiguration() : ListContentConfiguration.valueCell()
            content.text = row
            if indexPath.item == 0 { content.image = Image(systemName: "airplane") } else { content.secondaryText = "Home" }
            cell.contentConfiguration = content
            cell.accessories = indexPath.item == 1 ? [.disclosureIndicator()] : []
        }
        let first = try Self.content(try Self.cell(view, 0))
        let image = try #require(first.imageFrame), text = try #require(first.textFrame)
        #expect(image.midX == 16 + 29 / 2 && image.midY == 22)
        #expect(text.minX == CGFloat(16 + 29 + 16))
        let second = try Self.cell(view, 1)
        let chevron = try #require(second.accessoryFrames.first)
        #expect(chevron.accessory.kind == .disclosureIndicator && chevron.frame.maxX == 375 - 16 && chevron.frame.midY == 22)
        #expect(second.contentView.frame.maxX == chevron.frame.minX - 16)
        let value = try #require(try Self.content(second).secondaryTextFrame)
        #expect(value.maxX == second.contentView.bounds.width, "no margin left to inherit next to the chevron")
        #expect(value.midY == (try #require(try Self.content(second).textFrame)).midY, "side by side")
    }

    @Test("accessories shown while editing come and go with the editing state; the content moves in after them")
    func editingAccessories() throws {
        let (view, _) = Self.list(["Inbox", "Sent"]) { cell, _, row in
            var content = cell.defaultContentConfiguration()
            content.text = row
            cell.contentConfiguration = content
            cell.accessories = [.delete(), .reorder(), .disclosureIndicator(displayed: .whenNotEditing)]
        }
        let cell = try Self.cell(view, 0)
        #expect(cell.accessoryFrames.map(\.accessory.kind) == [.disclosureIndicator])
        view.isEditing = true
        #expect(cell.accessoryFrames.map(\.accessory.kind) == [.delete, .reorder])
        let delete = cell.accessoryFrames[0].frame
        #expect(delete.minX == 16 && delete.width == 24)
        #expect(cell.contentView.frame.minX == CGFloat(16 + 24 + 16))
        #expect(try #require(try Self.content(cell).textFrame).minX == 0)
        view.isEditing = false
        #expect(cell.accessoryFrames.map(\.accessory.kind) == [.disclosureIndicator] && cell.contentView.frame.minX == 0)
    }

    @Test("text sizes: a text style's font follows the preferred content size, as Apple's Dynamic Type tables give it; rows grow with it")
    func dynamicType() throws {
        func body(_ category: ContentSizeCategory) -> CGFloat {
            Font.preferredFont(forTextStyle: .body, compatibleWith: TraitCollection(preferredContentSizeCategory: category)).pointSize
        }
        #expect(
            [ContentSizeCategory.extraSmall, .large, .extraExtraExtraLarge, .accessibilityMedium, .accessibilityExtraExtraExtraLarge].map(body) == [
                14, 17, 23, 28, 53,
            ])
        #expect(Font.preferredFont(forTextStyle: .caption2, compatibleWith: TraitCollection(preferredContentSizeCategory: .small)).pointSize == 11)
        #expect(Font.preferredFont(forTextStyle: .headline, compatibleWith: nil).pointSize == 17)
        #expect(Font.preferredFont(forTextStyle: .headline, compatibleWith: TraitCollection(preferredContentSizeCategory: .extraLarge)).weight == .semibold)
        let largest = TraitCollection(preferredContentSizeCategory: .accessibilityExtraExtraExtraLarge)
        let (view, _) = Self.list(["Wi-Fi", "Fixed", "Not adjusted"], traits: largest) { cell, _, row in
            var content = cell.defaultContentConfiguration()
            content.text = row
            if row == "Fixed" { content.textProperties.font = .systemFont(ofSize: 17) }
            if row == "Not adjusted" { content.textProperties.adjustsFontForContentSizeCategory = false }
            cell.contentConfiguration = content
        }
        let adjusted = try Self.content(try Self.cell(view, 0))
        #expect(adjusted.shownTextFont.pointSize == 53)
        // 53 points of SF Pro: a line of 53 × 2444 / 2048, and 11 points above and below.
        let line = CGFloat(53) * 2444 / 2048
        #expect(try Self.cell(view, 0).frame.height == 22 + line)
        #expect(try Self.content(try Self.cell(view, 1)).shownTextFont.pointSize == 17, "a font that is not a text style's")
        #expect(try Self.content(try Self.cell(view, 2)).shownTextFont.pointSize == 17, "adjustsFontForContentSizeCategory off")
        #expect(try Self.cell(view, 2).frame.height == 44)
    }

    @Test("a text that wraps makes its row taller; a subtitle stacks under the text")
    func selfSizing() throws {
        let long = String(repeating: "A long title that wraps ", count: 6)
        let (view, _) = Self.list(["short", long, "subtitled"]) { cell, _, row in
            var content = ListContentConfiguration.subtitleCell()
            content.text = row
            if row == "subtitled" { content.secondaryText = "Second line" }
            cell.contentConfiguration = content
        }
        let short = try Self.cell(view, 0), wrapped = try Self.cell(view, 1), subtitled = try Self.cell(view, 2)
        #expect(short.frame.height == 44)
        let lines = TextMeasure.lines(of: long, font: .preferredFont(forTextStyle: .body), width: 375 - 32)
        #expect(lines > 1)
        #expect(abs(wrapped.frame.height - (22 + CGFloat(lines) * Font.preferredFont(forTextStyle: .body).lineHeight)) < 0.001)
        #expect(wrapped.frame.minY == 44 && subtitled.frame.minY == wrapped.frame.maxY)
        let content = try Self.content(subtitled)
        let text = try #require(content.textFrame), secondary = try #require(content.secondaryTextFrame)
        #expect(secondary.minY == text.maxY + 3 && secondary.minX == text.minX)
    }

    @Test("a state change updates the content and background configurations; a colour set on them stays")
    func stateUpdates() throws {
        let (view, _) = Self.list(["Library", "Recents"], appearance: .sidebar) { cell, _, row in
            var content = cell.defaultContentConfiguration()
            content.text = row
            cell.contentConfiguration = content
            cell.backgroundConfiguration = cell.defaultBackgroundConfiguration()
        }
        let cell = try Self.cell(view, 0)
        #expect(cell.defaultContentConfiguration() == .sidebarCell() && cell.defaultBackgroundConfiguration() == .listSidebarCell())
        #expect(try Self.content(cell).listConfiguration.resolvedTextColor == .label)
        #expect(cell.backgroundConfiguration?.backgroundColor == .clear)
        view.selectItem(at: IndexPath(item: 0, section: 0), animated: false, scrollPosition: [])
        #expect(try Self.content(cell).listConfiguration.resolvedTextColor == .white, "a selected sidebar row draws white")
        #expect(cell.backgroundConfiguration?.backgroundColor == nil && cell.backgroundConfiguration?.resolvedBackgroundColor(for: .systemBlue) == .systemBlue)
        view.deselectItem(at: IndexPath(item: 0, section: 0), animated: false)
        #expect(try Self.content(cell).listConfiguration.resolvedTextColor == .label && cell.backgroundConfiguration?.backgroundColor == .clear)

        var plain = BackgroundConfiguration.listPlainCell()
        var selected = CellConfigurationState(traitCollection: TraitCollection())
        selected.isSelected = true
        #expect(plain.updated(for: selected).backgroundColor == .systemGray4)
        #expect(plain.updated(for: selected).updated(for: CellConfigurationState(traitCollection: TraitCollection())).backgroundColor == .systemBackground)
        plain.backgroundColor = .systemYellow
        #expect(plain.updated(for: selected).backgroundColor == .systemYellow)
    }

    @Test("a configuration of another kind makes a new content view; one of the same kind is handed to the view there")
    func contentViewReuse() throws {
        struct Badge: ContentConfiguration, Equatable {
            var count = 0
            func makeContentView() -> View & ContentView { BadgeView(self) }
            func updated(for state: ConfigurationState) -> Badge { self }
        }
        final class BadgeView: View, ContentView {
            var configuration: ContentConfiguration
            init(_ badge: Badge) {
                configuration = badge
                super.init(frame: .zero)
            }
            required init?(coder: NSCoder) { nil }
        }
        let cell = ListCell(frame: CGRect(x: 0, y: 0, width: 320, height: 44))
        var content = ListContentConfiguration.cell()
        content.text = "One"
        cell.contentConfiguration = content
        let first = try Self.content(cell)
        content.text = "Two"
        cell.contentConfiguration = content
        #expect(try Self.content(cell) === first && first.listConfiguration.text == "Two")
        cell.contentConfiguration = Badge(count: 3)
        let badge = try #require(cell.contentView as? BadgeView)
        #expect((badge.configuration as? Badge)?.count == 3 && first.superview == nil && badge.superview === cell)
        #expect(badge.frame == CGRect(x: 0, y: 0, width: 320, height: 44))
        cell.contentConfiguration = nil
        #expect(!(cell.contentView is ContentView) && badge.superview == nil)
    }

    @Test("a tap on an outline disclosure expands the row's children in its section's outline; an action handler runs instead where given")
    func outlineDisclosure() throws {
        var tapped: [String] = []
        let (view, source) = Self.list([]) { cell, _, row in
            var content = cell.defaultContentConfiguration()
            content.text = row
            cell.contentConfiguration = content
            cell.indentationLevel = row.hasPrefix("  ") ? 1 : 0
            cell.accessories = row == "Custom" ? [.outlineDisclosure(actionHandler: { tapped.append(row) })] : [.outlineDisclosure()]
        }
        var outline = DiffableDataSourceSectionSnapshot<String>()
        outline.append(["Mail", "Custom"])
        outline.append(["  Inbox", "  Sent"], to: "Mail")
        source.apply(outline, to: 0, animatingDifferences: false)
        view.layoutIfNeeded()
        #expect(source.snapshot().itemIdentifiers == ["Mail", "Custom"])
        let mail = try Self.cell(view, 0)
        #expect(mail.accessoryFrames.map(\.frame.minX) == [16], "a row's outline disclosure is leading")
        #expect(!mail.configurationState.isExpanded)
        #expect(view.tapAccessory(.outlineDisclosure, ofItemAt: IndexPath(item: 0, section: 0)))
        view.layoutIfNeeded()
        #expect(mail.configurationState.isExpanded, "the cell on screen shows its item expanded")
        #expect(source.snapshot().itemIdentifiers == ["Mail", "  Inbox", "  Sent", "Custom"])
        let inbox = try Self.cell(view, 1)
        #expect(inbox.accessoryFrames.map(\.frame.minX) == [16 + 10], "moved in a level")
        #expect(view.tapAccessory(.outlineDisclosure, ofItemAt: IndexPath(item: 3, section: 0)) && tapped == ["Custom"])
        #expect(source.snapshot().itemIdentifiers.count == 4)
        #expect(!view.tapAccessory(.checkmark, ofItemAt: IndexPath(item: 0, section: 0)), "no such accessory")
        let header = CellAccessory.outlineDisclosure(options: .init(style: .header))
        #expect(!header.placement.isLeadingPlacement)
    }

    @Test("separators: below each row from its text to its edge; not below a grouped section's last row; changed row by row by the handler")
    func separators() throws {
        func rows(_ appearance: CollectionLayoutListConfiguration.Appearance, adjust: (inout CollectionLayoutListConfiguration) -> Void = { _ in })
            -> (CollectionView, CollectionViewDiffableDataSource<Int, String>)
        {
            Self.list(["Wi-Fi", "Bluetooth", "Cellular"], appearance: appearance, adjust: adjust) { cell, indexPath, row in
                var content = cell.defaultContentConfiguration()
                content.text = row
                if indexPath.item == 0 { content.image = Image(systemName: "wifi") }
                cell.contentConfiguration = content
            }
        }
        let (plain, plainSource) = rows(.plain)
        let line = 1 / plain.traitCollection.displayScale
        let first = try Self.cell(plain, 0)
        #expect(first.separatorFrames.top == nil)
        #expect(first.separatorFrames.bottom == CGRect(x: 61, y: 44 - line, width: 375 - 61, height: line), "from the text, after the image")
        #expect(try Self.cell(plain, 1).separatorFrames.bottom?.minX == 16)
        #expect(try Self.cell(plain, 2).separatorFrames.bottom != nil, "a plain list's last row has one")
        #expect(first.listSeparatorColor == .separator)
        #expect(first.separatorLayoutGuide.layoutFrame == first.separatorFrames.bottom, "the guide is where the separator starts")
        let (grouped, groupedSource) = rows(.grouped)
        #expect(try Self.cell(grouped, 1).separatorFrames.bottom != nil && Self.cell(grouped, 2).separatorFrames.bottom == nil)
        let (sidebar, sidebarSource) = rows(.sidebar)
        #expect(try Self.cell(sidebar, 0).separatorFrames.bottom == nil, "a sidebar draws none")
        // No separator: the guide is a line along the bottom from where the text starts.
        let unseparated = try Self.cell(sidebar, 1)
        #expect(unseparated.separatorLayoutGuide.layoutFrame.minY == unseparated.bounds.height)
        #expect(unseparated.separatorLayoutGuide.layoutFrame.minX == unseparated.layoutMargins.left)
        let (handled, handledSource) = rows(.plain) { list in
            list.separatorConfiguration.color = .systemRed
            list.itemSeparatorHandler = { indexPath, separators in
                var changed = separators
                if indexPath.item == 1 { changed.bottomSeparatorVisibility = .hidden }
                if indexPath.item == 2 {
                    changed.topSeparatorVisibility = .visible
                    changed.bottomSeparatorInsets = DirectionalEdgeInsets(top: 0, leading: 0, bottom: 0, trailing: 20)
                }
                return changed
            }
        }
        #expect(try Self.cell(handled, 1).separatorFrames.bottom == nil)
        let last = try Self.cell(handled, 2)
        #expect(last.separatorFrames.top == CGRect(x: 16, y: 0, width: 375 - 16, height: line))
        #expect(last.separatorFrames.bottom == CGRect(x: 0, y: 44 - line, width: 375 - 20, height: line))
        #expect(last.listSeparatorColor == .systemRed)
        let (none, noneSource) = rows(.plain) { $0.showsSeparators = false }
        #expect(try Self.cell(none, 0).separatorFrames.bottom == nil && Self.cell(none, 0).listSeparatorColor == nil)
        withExtendedLifetime((plainSource, groupedSource, sidebarSource, handledSource, noneSource)) {}
    }

    @Test("right to left, every frame is mirrored")
    func rightToLeft() throws {
        let (view, _) = Self.list(["Wi-Fi"], traits: TraitCollection(layoutDirection: .rightToLeft)) { cell, _, row in
            var content = cell.defaultContentConfiguration()
            content.text = row
            content.image = Image(systemName: "wifi")
            cell.contentConfiguration = content
            cell.accessories = [.disclosureIndicator()]
        }
        let cell = try Self.cell(view, 0)
        #expect(cell.accessoryFrames[0].frame.minX == 16)
        let content = try Self.content(cell)
        let image = try #require(content.imageFrame), text = try #require(content.textFrame)
        #expect(cell.contentView.frame.maxX == 375 && image.midX == content.bounds.width - 16 - 29 / 2 && text.maxX == image.midX - 29 / 2 - 16)
    }

    @Test("text widths: CJK a whole em, ASCII by class, lines wrapped at spaces and between CJK characters")
    func measure() {
        let body = Font.preferredFont(forTextStyle: .body)
        #expect(TextMeasure.width(of: "分类汇总", font: body) == CGFloat(4 * 17))
        #expect(TextMeasure.width(of: "il", font: body) == 0.5 * 17)
        #expect(TextMeasure.lines(of: "分类汇总分类汇总", font: body, width: 4 * 17) == 2)
        #expect(TextMeasure.lines(of: "a b", font: body, width: 0.6 * 17, limit: 1) == 1)
        #expect(TextMeasure.lines(of: "", font: body, width: 100) == 0)
        #expect(Font.systemFont(ofSize: -3).pointSize == 0 && Font.systemFont(ofSize: .nan).lineHeight == 0)
    }
}

extension CellAccessory.Placement {
    /// Whether the placement is on the leading side.
    fileprivate var isLeadingPlacement: Bool {
        if case .leading = self { return true }
        return false
    }
}
