import Foundation
import TrellisCollectionView
import TrellisLayouts
import TrellisRender

extension DemoCommand {
    /// What a settings screen's data source does: one row a title, its cell configured from it.
    struct SettingsRow: Hashable {
        let title: String
        let symbol: String?
        let value: String?
        let children: [String]
    }

    /// A settings screen made the iOS 14 way — list cells from a registration, each row's
    /// content configuration (a symbol, a text, a value), chevrons, a checkmark, an outline row
    /// expanded by a tap on its disclosure, a row selected — drawn as a person would see it.
    static func listScreen() -> String {
        let rows = [
            SettingsRow(title: "飞行模式", symbol: "airplane", value: nil, children: []),
            SettingsRow(title: "Wi-Fi", symbol: "wifi", value: "家里的网络", children: []),
            SettingsRow(title: "Bluetooth", symbol: "dot.radiowaves.left.and.right", value: "On", children: []),
            SettingsRow(title: "通知", symbol: "bell", value: nil, children: ["声音", "横幅"]),
            SettingsRow(title: "Dark Mode", symbol: "moon", value: nil, children: []),
            SettingsRow(title: "A row whose title is too long for one line wraps onto the next, and the row grows", symbol: nil, value: nil, children: []),
        ]
        let byTitle = Dictionary(uniqueKeysWithValues: rows.map { ($0.title, $0) })
        let layout = CollectionViewCompositionalLayout.list(using: CollectionLayoutListConfiguration(appearance: .plain))
        let view = CollectionView(frame: CGRect(x: 0, y: 0, width: 375, height: 420), collectionViewLayout: layout)
        let registration = CollectionView.CellRegistration<ListCell, String> { cell, _, title in
            let row = byTitle[title]
            var content = row?.value != nil ? ListContentConfiguration.valueCell() : cell.defaultContentConfiguration()
            content.text = title
            content.secondaryText = row?.value
            content.image = row?.symbol.flatMap { Image(systemName: $0) }
            cell.contentConfiguration = content
            cell.backgroundConfiguration = cell.defaultBackgroundConfiguration()
            cell.indentationLevel = row == nil ? 1 : 0
            if let row, !row.children.isEmpty {
                cell.accessories = [.outlineDisclosure(options: .init(style: .header))]
            } else if title == "Dark Mode" {
                cell.accessories = [.checkmark()]
            } else {
                cell.accessories = row == nil || row?.title.count ?? 0 > 40 ? [] : [.disclosureIndicator()]
            }
        }
        let source = CollectionViewDiffableDataSource<Int, String>(collectionView: view) { view, indexPath, title in
            view.dequeueConfiguredReusableCell(using: registration, for: indexPath, item: title)
        }
        var outline = DiffableDataSourceSectionSnapshot<String>()
        outline.append(rows.map(\.title))
        for row in rows where !row.children.isEmpty { outline.append(row.children, to: row.title) }
        source.apply(outline, to: 0, animatingDifferences: false)
        view.layoutIfNeeded()
        // A tap on 通知's disclosure shows its children; Wi-Fi is selected.
        view.tapAccessory(.outlineDisclosure, ofItemAt: IndexPath(item: 3, section: 0))
        view.selectItem(at: IndexPath(item: 1, section: 0), animated: false, scrollPosition: [])
        view.layoutIfNeeded()
        return withExtendedLifetime(source) { ScreenRenderer().render(view) }
    }
}
