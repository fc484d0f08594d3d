import UIKit

final class BadgeSupplementaryView: UICollectionReusableView {
    var count = 0
}

final class TitleSupplementaryView: UICollectionReusableView {
    var title = ""
}

final class SectionBackgroundDecorationView: UICollectionReusableView {}

final class TextCell: UICollectionViewCell {
    var text = ""

    /// Long text wraps onto a second line: the cell grows to 60 points.
    override func preferredLayoutAttributesFitting(_ layoutAttributes: UICollectionViewLayoutAttributes)
        -> UICollectionViewLayoutAttributes {
        let attributes = super.preferredLayoutAttributesFitting(layoutAttributes)
        if text.count > 20 {
            attributes.frame.size.height = 60
        }
        return attributes
    }
}

/// The patterns of Apple's modern collection-view samples in one screen: an orthogonal carousel
/// that scales its cards, a grid with badges, nested groups on a background, and a self-sizing
/// list with a pinned header.
final class ModernLayoutsController {
    enum Section: Int, CaseIterable {
        case featured, grid, nested, list
    }

    static let headerKind = "section-header-element-kind"
    static let badgeKind = "badge-element-kind"
    static let backgroundKind = "section-background-element-kind"

    let collectionView: UICollectionView
    private(set) var dataSource: UICollectionViewDiffableDataSource<Section, Int>!
    /// The scale the carousel gave each featured card in its last pass.
    private(set) var cardScales: [Int: CGFloat] = [:]

    init() {
        collectionView = UICollectionView(frame: CGRect(x: 0, y: 0, width: 390, height: 844),
                                          collectionViewLayout: UICollectionViewFlowLayout())
        collectionView.collectionViewLayout = createLayout()
        configureDataSource()
    }

    func createLayout() -> UICollectionViewLayout {
        let configuration = UICollectionViewCompositionalLayoutConfiguration()
        configuration.interSectionSpacing = 20
        let layout = UICollectionViewCompositionalLayout(sectionProvider: { [unowned self]
            (sectionIndex: Int, layoutEnvironment: NSCollectionLayoutEnvironment) -> NSCollectionLayoutSection? in
            guard let kind = Section(rawValue: sectionIndex) else { return nil }
            switch kind {
            case .featured: return self.featuredSection()
            case .grid: return self.gridSection()
            case .nested: return self.nestedSection()
            case .list:
                var list = UICollectionLayoutListConfiguration(appearance: .plain)
                list.headerMode = .supplementary
                return NSCollectionLayoutSection.list(using: list, layoutEnvironment: layoutEnvironment)
            }
        }, configuration: configuration)
        layout.register(SectionBackgroundDecorationView.self, forDecorationViewOfKind: Self.backgroundKind)
        return layout
    }

    private func featuredSection() -> NSCollectionLayoutSection {
        let itemSize = NSCollectionLayoutSize(widthDimension: .fractionalWidth(1.0), heightDimension: .fractionalHeight(1.0))
        let item = NSCollectionLayoutItem(layoutSize: itemSize)
        let groupSize = NSCollectionLayoutSize(widthDimension: .fractionalWidth(0.8), heightDimension: .absolute(200))
        let group = NSCollectionLayoutGroup.horizontal(layoutSize: groupSize, subitems: [item])
        let section = NSCollectionLayoutSection(group: group)
        section.orthogonalScrollingBehavior = .groupPagingCentered
        section.interGroupSpacing = 10
        section.contentInsets = NSDirectionalEdgeInsets(top: 10, leading: 0, bottom: 10, trailing: 0)
        section.visibleItemsInvalidationHandler = { [weak self] items, offset, environment in
            for item in items where item.representedElementCategory == .cell {
                let distanceFromCenter = abs((item.frame.midX - offset.x) - environment.container.contentSize.width / 2.0)
                let minScale: CGFloat = 0.7
                let maxScale: CGFloat = 1.1
                let scale = max(maxScale - (distanceFromCenter / environment.container.contentSize.width), minScale)
                item.transform = CGAffineTransform(scaleX: scale, y: scale)
                self?.cardScales[item.indexPath.item] = scale
            }
        }
        return section
    }

    private func gridSection() -> NSCollectionLayoutSection {
        let badgeAnchor = NSCollectionLayoutAnchor(edges: [.top, .trailing], fractionalOffset: CGPoint(x: 0.3, y: -0.3))
        let badgeSize = NSCollectionLayoutSize(widthDimension: .absolute(20), heightDimension: .absolute(20))
        let badge = NSCollectionLayoutSupplementaryItem(layoutSize: badgeSize, elementKind: Self.badgeKind,
                                                        containerAnchor: badgeAnchor)
        let itemSize = NSCollectionLayoutSize(widthDimension: .fractionalWidth(1.0 / 3.0), heightDimension: .fractionalHeight(1.0))
        let item = NSCollectionLayoutItem(layoutSize: itemSize, supplementaryItems: [badge])
        item.contentInsets = NSDirectionalEdgeInsets(top: 4, leading: 4, bottom: 4, trailing: 4)
        let groupSize = NSCollectionLayoutSize(widthDimension: .fractionalWidth(1.0), heightDimension: .fractionalWidth(1.0 / 3.0))
        let group = NSCollectionLayoutGroup.horizontal(layoutSize: groupSize, subitems: [item])
        let section = NSCollectionLayoutSection(group: group)
        section.contentInsets = NSDirectionalEdgeInsets(top: 8, leading: 0, bottom: 8, trailing: 0)
        let headerSize = NSCollectionLayoutSize(widthDimension: .fractionalWidth(1.0), heightDimension: .absolute(44))
        let header = NSCollectionLayoutBoundarySupplementaryItem(layoutSize: headerSize, elementKind: Self.headerKind,
                                                                 alignment: .top)
        section.boundarySupplementaryItems = [header]
        return section
    }

    private func nestedSection() -> NSCollectionLayoutSection {
        let leadingItem = NSCollectionLayoutItem(layoutSize: NSCollectionLayoutSize(widthDimension: .fractionalWidth(0.7),
                                                                                   heightDimension: .fractionalHeight(1.0)))
        leadingItem.contentInsets = NSDirectionalEdgeInsets(top: 10, leading: 10, bottom: 10, trailing: 10)
        let trailingItem = NSCollectionLayoutItem(layoutSize: NSCollectionLayoutSize(widthDimension: .fractionalWidth(1.0),
                                                                                    heightDimension: .fractionalHeight(0.3)))
        trailingItem.contentInsets = NSDirectionalEdgeInsets(top: 10, leading: 10, bottom: 10, trailing: 10)
        let trailingGroup = NSCollectionLayoutGroup.vertical(
            layoutSize: NSCollectionLayoutSize(widthDimension: .fractionalWidth(0.3), heightDimension: .fractionalHeight(1.0)),
            subitem: trailingItem, count: 2)
        let nestedGroup = NSCollectionLayoutGroup.horizontal(
            layoutSize: NSCollectionLayoutSize(widthDimension: .fractionalWidth(1.0), heightDimension: .fractionalHeight(0.4)),
            subitems: [leadingItem, trailingGroup])
        let section = NSCollectionLayoutSection(group: nestedGroup)
        let background = NSCollectionLayoutDecorationItem.background(elementKind: Self.backgroundKind)
        background.contentInsets = NSDirectionalEdgeInsets(top: 5, leading: 5, bottom: 5, trailing: 5)
        section.decorationItems = [background]
        return section
    }

    private func configureDataSource() {
        let cellRegistration = UICollectionView.CellRegistration<TextCell, Int> { cell, indexPath, identifier in
            cell.text = identifier == 302 ? "A row whose text wraps onto two lines" : "Item \(identifier)"
        }
        let headerRegistration = UICollectionView.SupplementaryRegistration<TitleSupplementaryView>(
            elementKind: Self.headerKind) { view, kind, indexPath in
            view.title = "Section \(indexPath.section)"
        }
        let listHeaderRegistration = UICollectionView.SupplementaryRegistration<TitleSupplementaryView>(
            elementKind: UICollectionView.elementKindSectionHeader) { view, kind, indexPath in
            view.title = "List"
        }
        let badgeRegistration = UICollectionView.SupplementaryRegistration<BadgeSupplementaryView>(
            elementKind: Self.badgeKind) { view, kind, indexPath in
            view.count = indexPath.item + 1
        }
        dataSource = UICollectionViewDiffableDataSource<Section, Int>(collectionView: collectionView) {
            collectionView, indexPath, identifier in
            collectionView.dequeueConfiguredReusableCell(using: cellRegistration, for: indexPath, item: identifier)
        }
        dataSource.supplementaryViewProvider = { collectionView, kind, indexPath in
            switch kind {
            case Self.headerKind: return collectionView.dequeueConfiguredReusableSupplementary(using: headerRegistration, for: indexPath)
            case Self.badgeKind: return collectionView.dequeueConfiguredReusableSupplementary(using: badgeRegistration, for: indexPath)
            default: return collectionView.dequeueConfiguredReusableSupplementary(using: listHeaderRegistration, for: indexPath)
            }
        }
        var snapshot = NSDiffableDataSourceSnapshot<Section, Int>()
        snapshot.appendSections(Section.allCases)
        snapshot.appendItems(Array(0..<5), toSection: .featured)
        snapshot.appendItems(Array(100..<107), toSection: .grid)
        snapshot.appendItems(Array(200..<203), toSection: .nested)
        snapshot.appendItems(Array(300..<330), toSection: .list)
        dataSource.apply(snapshot, animatingDifferences: false)
    }
}
