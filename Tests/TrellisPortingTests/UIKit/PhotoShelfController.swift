import UIKit

// A modern controller: cell and header registrations, a diffable data source, selection through
// the delegate, a flow subclass that draws a background behind each section (a decoration view
// with a colour and rounded corners), and appearance set on views and layers.

final class PhotoCell: UICollectionViewCell {
    var title = ""

    override init(frame: CGRect) {
        super.init(frame: frame)
        contentView.layer.cornerRadius = 6
        contentView.layer.borderWidth = 1
        contentView.layer.borderColor = UIColor.systemGray4.cgColor
        contentView.clipsToBounds = true
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    override var isSelected: Bool {
        didSet {
            contentView.backgroundColor = isSelected ? .systemBlue : .secondarySystemBackground
        }
    }

    override func prepareForReuse() {
        super.prepareForReuse()
        title = ""
        transform = .identity
    }
}

final class TitleHeader: UICollectionReusableView {
    var text = ""
}

final class ShelfBackground: UICollectionReusableView {
    override init(frame: CGRect) {
        super.init(frame: frame)
        backgroundColor = UIColor(white: 0.95, alpha: 1)
        layer.cornerRadius = 12
    }

    required init?(coder: NSCoder) {
        super.init(coder: coder)
    }
}

final class ShelfLayout: UICollectionViewFlowLayout {
    static let backgroundKind = "shelf-background"

    private var backgrounds: [Int: UICollectionViewLayoutAttributes] = [:]
    private var cachedRects: [NSValue] = []

    var backgroundRects: [CGRect] { cachedRects.map { $0.cgRectValue } }

    override init() {
        super.init()
        itemSize = CGSize(width: 100, height: 100)
        minimumInteritemSpacing = 10
        minimumLineSpacing = 10
        sectionInset = UIEdgeInsets(top: 10, left: 15, bottom: 20, right: 15)
        headerReferenceSize = CGSize(width: 0, height: 40)
        register(ShelfBackground.self, forDecorationViewOfKind: ShelfLayout.backgroundKind)
    }

    required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    override func prepare() {
        super.prepare()
        backgrounds = [:]
        cachedRects = []
        guard let collectionView = collectionView else { return }
        for section in 0..<collectionView.numberOfSections {
            let count = collectionView.numberOfItems(inSection: section)
            guard count > 0,
                  let first = layoutAttributesForItem(at: NSIndexPath(item: 0, section: section) as IndexPath),
                  let last = layoutAttributesForItem(at: IndexPath(item: count - 1, section: section)) else { continue }
            let frame = CGRect(x: sectionInset.left - 5, y: first.frame.minY - 5,
                               width: collectionView.bounds.width - sectionInset.left - sectionInset.right + 10,
                               height: last.frame.maxY - first.frame.minY + 10)
            let attributes = UICollectionViewLayoutAttributes(forDecorationViewOfKind: ShelfLayout.backgroundKind,
                                                              with: IndexPath(item: 0, section: section))
            attributes.frame = frame
            attributes.zIndex = -1
            backgrounds[section] = attributes
            cachedRects.append(NSValue(cgRect: frame))
        }
    }

    override func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? {
        var result = super.layoutAttributesForElements(in: rect) ?? []
        for section in backgrounds.keys.sorted() {
            if let background = backgrounds[section], background.frame.intersects(rect) {
                result.append(background)
            }
        }
        return result
    }

    override func layoutAttributesForDecorationView(ofKind elementKind: String,
                                                    at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
        guard elementKind == ShelfLayout.backgroundKind else { return nil }
        return backgrounds[indexPath.section]
    }
}

final class PhotoShelfController: NSObject, UICollectionViewDelegate {
    enum Shelf: Int, CaseIterable {
        case recent, favorites
    }

    let collectionView: UICollectionView
    var dataSource: UICollectionViewDiffableDataSource<Shelf, String>!
    private(set) var opened: [String] = []
    private(set) var log: [String] = []

    override init() {
        collectionView = UICollectionView(frame: CGRect(x: 0, y: 0, width: 375, height: 600),
                                          collectionViewLayout: ShelfLayout())
        super.init()
        collectionView.backgroundColor = .systemBackground
        collectionView.delegate = self
        collectionView.allowsMultipleSelection = false

        let cellRegistration = UICollectionView.CellRegistration<PhotoCell, String> { cell, indexPath, name in
            cell.title = name
        }
        let headerRegistration = UICollectionView.SupplementaryRegistration<TitleHeader>(
            elementKind: UICollectionView.elementKindSectionHeader) { [weak self] header, kind, indexPath in
            guard let shelf = self?.dataSource.sectionIdentifier(for: indexPath.section) else { return }
            header.text = "\(shelf)"
        }
        dataSource = UICollectionViewDiffableDataSource<Shelf, String>(collectionView: collectionView) {
            collectionView, indexPath, name in
            collectionView.dequeueConfiguredReusableCell(using: cellRegistration, for: indexPath, item: name)
        }
        dataSource.supplementaryViewProvider = { collectionView, kind, indexPath in
            collectionView.dequeueConfiguredReusableSupplementary(using: headerRegistration, for: indexPath)
        }
    }

    func load() {
        var snapshot = NSDiffableDataSourceSnapshot<Shelf, String>()
        snapshot.appendSections(Shelf.allCases)
        snapshot.appendItems(["a", "b", "c", "d", "locked"], toSection: .recent)
        snapshot.appendItems(["e", "f"], toSection: .favorites)
        dataSource.apply(snapshot, animatingDifferences: false)
    }

    func moveToEnd(_ name: String) {
        var snapshot = dataSource.snapshot()
        guard let section = snapshot.sectionIdentifier(containingItem: name),
              let last = snapshot.itemIdentifiers(inSection: section).last, last != name else { return }
        snapshot.moveItem(name, afterItem: last)
        dataSource.apply(snapshot, animatingDifferences: true)
    }

    func remove(_ name: String) {
        var snapshot = dataSource.snapshot()
        snapshot.deleteItems([name])
        dataSource.apply(snapshot)
    }

    func collectionView(_ collectionView: UICollectionView, shouldSelectItemAt indexPath: IndexPath) -> Bool {
        return dataSource.itemIdentifier(for: indexPath) != "locked"
    }

    func collectionView(_ collectionView: UICollectionView, didSelectItemAt indexPath: IndexPath) {
        guard let name = dataSource.itemIdentifier(for: indexPath) else { return }
        opened.append(name)
        UIView.animate(withDuration: 0.25, delay: 0, options: [.curveEaseOut], animations: {
            collectionView.cellForItem(at: indexPath)?.transform = CGAffineTransform(scaleX: 0.95, y: 0.95)
        }, completion: nil)
    }

    func collectionView(_ collectionView: UICollectionView, didDeselectItemAt indexPath: IndexPath) {
        log.append("deselected \(indexPath.section).\(indexPath.item)")
    }
}
