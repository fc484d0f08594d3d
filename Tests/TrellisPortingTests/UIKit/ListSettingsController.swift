import UIKit

/// A settings screen in the iOS 14 way: list cells from a registration, each row's default
/// content configuration with a text and a symbol, a disclosure chevron, a row whose children
/// an outline disclosure shows, a diffable data source with a section snapshot, and a context
/// menu that deletes a row.
final class ListSettingsController: NSObject, UICollectionViewDelegate {
    let collectionView: UICollectionView
    var dataSource: UICollectionViewDiffableDataSource<Int, String>!
    var configured: [String] = []

    override init() {
        let configuration = UICollectionLayoutListConfiguration(appearance: .plain)
        let layout = UICollectionViewCompositionalLayout.list(using: configuration)
        collectionView = UICollectionView(frame: CGRect(x: 0, y: 0, width: 375, height: 667), collectionViewLayout: layout)
        super.init()
        collectionView.delegate = self
        let symbols = ["Wi-Fi": "wifi", "Bluetooth": "dot.radiowaves.left.and.right", "Mail": "envelope"]
        let rowRegistration = UICollectionView.CellRegistration<UICollectionViewListCell, String> { [weak self] cell, indexPath, title in
            var content = cell.defaultContentConfiguration()
            content.text = title
            if let symbol = symbols[title] {
                content.image = UIImage(systemName: symbol)
                content.imageProperties.tintColor = .systemBlue
            }
            cell.contentConfiguration = content
            cell.accessories = title == "Mail" ? [.outlineDisclosure(options: .init(style: .header))] : [.disclosureIndicator()]
            self?.configured.append(title)
        }
        dataSource = UICollectionViewDiffableDataSource<Int, String>(collectionView: collectionView) {
            (collectionView: UICollectionView, indexPath: IndexPath, title: String) -> UICollectionViewCell? in
            return collectionView.dequeueConfiguredReusableCell(using: rowRegistration, for: indexPath, item: title)
        }
    }

    func load() {
        var section = NSDiffableDataSourceSectionSnapshot<String>()
        section.append(["Wi-Fi", "Bluetooth", "Mail"])
        section.append(["Accounts", "Signature"], to: "Mail")
        dataSource.apply(section, to: 0, animatingDifferences: false)
    }

    func collectionView(_ collectionView: UICollectionView, contextMenuConfigurationForItemAt indexPath: IndexPath,
                        point: CGPoint) -> UIContextMenuConfiguration? {
        guard let title = dataSource.itemIdentifier(for: indexPath) else { return nil }
        return UIContextMenuConfiguration(identifier: nil, previewProvider: nil) { [weak self] _ in
            let delete = UIAction(title: "Delete", image: UIImage(systemName: "trash"), attributes: .destructive) { _ in
                guard let self = self else { return }
                var section = self.dataSource.snapshot(for: 0)
                section.delete([title])
                self.dataSource.apply(section, to: 0, animatingDifferences: false)
            }
            return UIMenu(title: title, children: [delete])
        }
    }
}
