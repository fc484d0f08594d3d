import UIKit

/// A browser screen in the shape of iPadOS 14 code: a carousel section that scrolls sideways
/// (`orthogonalScrollingBehavior`, a fast deceleration) over an outline whose folders load their
/// children when first expanded (`sectionSnapshotHandlers`), with keyboard focus that selects
/// (`selectionFollowsFocus`) and passes over the carousel.
final class OutlineBrowserController: UIViewController, UICollectionViewDelegate {
    enum Section: Int {
        case recent, library
    }

    var collectionView: UICollectionView!
    var dataSource: UICollectionViewDiffableDataSource<Section, String>!
    var loaded: [String] = []
    var selected: [String] = []

    override func viewDidLoad() {
        super.viewDidLoad()
        collectionView = UICollectionView(frame: view.bounds, collectionViewLayout: makeLayout())
        collectionView.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        collectionView.delegate = self
        collectionView.selectionFollowsFocus = true
        view.addSubview(collectionView)
        configureDataSource()
    }

    private func makeLayout() -> UICollectionViewLayout {
        return UICollectionViewCompositionalLayout { sectionIndex, environment in
            if sectionIndex == Section.recent.rawValue {
                let item = NSCollectionLayoutItem(layoutSize: NSCollectionLayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .fractionalHeight(1)))
                let group = NSCollectionLayoutGroup.horizontal(
                    layoutSize: NSCollectionLayoutSize(widthDimension: .absolute(100), heightDimension: .absolute(100)), subitems: [item])
                let section = NSCollectionLayoutSection(group: group)
                section.interGroupSpacing = 10
                section.orthogonalScrollingBehavior = .continuous
                section.orthogonalScrollingProperties.decelerationRate = .fast
                return section
            }
            return NSCollectionLayoutSection.list(using: UICollectionLayoutListConfiguration(appearance: .sidebar), layoutEnvironment: environment)
        }
    }

    private func configureDataSource() {
        let cell = UICollectionView.CellRegistration<UICollectionViewListCell, String> { cell, indexPath, title in
            var content = cell.defaultContentConfiguration()
            content.text = title
            cell.contentConfiguration = content
            cell.accessories = title.hasSuffix("/") ? [.outlineDisclosure()] : []
        }
        dataSource = UICollectionViewDiffableDataSource<Section, String>(collectionView: collectionView) {
            (collectionView: UICollectionView, indexPath: IndexPath, title: String) -> UICollectionViewCell? in
            return collectionView.dequeueConfiguredReusableCell(using: cell, for: indexPath, item: title)
        }
        dataSource.sectionSnapshotHandlers.snapshotForExpandingParent = { [weak self] folder, current in
            guard current.items.isEmpty else { return current }
            self?.loaded.append(folder)
            var children = NSDiffableDataSourceSectionSnapshot<String>()
            children.append((1 ... 3).map { "\(folder)file \($0)" })
            return children
        }
        var recent = NSDiffableDataSourceSectionSnapshot<String>()
        recent.append((1 ... 10).map { "recent \($0)" })
        dataSource.apply(recent, to: .recent, animatingDifferences: false)
        var library = NSDiffableDataSourceSectionSnapshot<String>()
        library.append(["Documents/", "Photos/", "notes.txt"])
        dataSource.apply(library, to: .library, animatingDifferences: false)
    }

    func collectionView(_ collectionView: UICollectionView, canFocusItemAt indexPath: IndexPath) -> Bool {
        return indexPath.section == Section.library.rawValue
    }

    func collectionView(_ collectionView: UICollectionView, didSelectItemAt indexPath: IndexPath) {
        if let title = dataSource.itemIdentifier(for: indexPath) { selected.append(title) }
    }
}
