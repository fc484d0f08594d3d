import UIKit

/// A list of reminders in a `UICollectionViewController`, in the shape of iOS 14 list code: an
/// inset-grouped list whose rows swipe to delete or star, an Edit button that puts the list in
/// editing mode, where each row shows a delete and a reorder control, and a diffable data
/// source that reorders.
final class ReminderListController: UICollectionViewController {
    var reminders = ["Buy milk", "Call Ana", "Book flights", "Water plants"]
    var starred: [String] = []
    var dataSource: UICollectionViewDiffableDataSource<Int, String>!

    init() {
        super.init(collectionViewLayout: UICollectionViewFlowLayout())
    }

    required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Reminders"
        navigationItem.rightBarButtonItem = editButtonItem
        collectionView.collectionViewLayout = makeLayout()
        configureDataSource()
    }

    private func makeLayout() -> UICollectionViewLayout {
        var configuration = UICollectionLayoutListConfiguration(appearance: .insetGrouped)
        configuration.trailingSwipeActionsConfigurationProvider = { [weak self] indexPath in
            guard let self = self, let title = self.dataSource.itemIdentifier(for: indexPath) else { return nil }
            let delete = UIContextualAction(style: .destructive, title: "Delete") { _, _, completion in
                self.delete(title)
                completion(true)
            }
            let star = UIContextualAction(style: .normal, title: "Star") { _, _, completion in
                self.starred.append(title)
                completion(true)
            }
            star.backgroundColor = .systemYellow
            return UISwipeActionsConfiguration(actions: [delete, star])
        }
        return UICollectionViewCompositionalLayout.list(using: configuration)
    }

    private func configureDataSource() {
        let registration = UICollectionView.CellRegistration<UICollectionViewListCell, String> { cell, _, title in
            var content = cell.defaultContentConfiguration()
            content.text = title
            cell.contentConfiguration = content
            cell.accessories = [.delete(displayed: .whenEditing), .reorder(displayed: .whenEditing)]
        }
        dataSource = UICollectionViewDiffableDataSource<Int, String>(collectionView: collectionView) {
            (collectionView: UICollectionView, indexPath: IndexPath, title: String) -> UICollectionViewCell? in
            return collectionView.dequeueConfiguredReusableCell(using: registration, for: indexPath, item: title)
        }
        dataSource.reorderingHandlers.canReorderItem = { _ in true }
        dataSource.reorderingHandlers.didReorder = { [weak self] transaction in
            self?.reminders = transaction.finalSnapshot.itemIdentifiers
        }
        applySnapshot()
    }

    private func applySnapshot() {
        var snapshot = NSDiffableDataSourceSnapshot<Int, String>()
        snapshot.appendSections([0])
        snapshot.appendItems(reminders, toSection: 0)
        dataSource.apply(snapshot, animatingDifferences: false)
    }

    private func delete(_ title: String) {
        reminders.removeAll { $0 == title }
        var snapshot = dataSource.snapshot()
        snapshot.deleteItems([title])
        dataSource.apply(snapshot, animatingDifferences: true)
    }

    override func collectionView(_ collectionView: UICollectionView, didSelectItemAt indexPath: IndexPath) {
        collectionView.deselectItem(at: indexPath, animated: true)
    }
}
