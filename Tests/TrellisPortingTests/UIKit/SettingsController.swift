import UIKit

final class SectionTitleView: UICollectionReusableView {
    var title = ""

    override init(frame: CGRect) {
        super.init(frame: frame)
    }

    required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    override func prepareForReuse() {
        super.prepareForReuse()
        title = ""
    }
}

final class SettingsCell: UICollectionViewCell {
    var label = ""
}

/// A settings screen: full-width rows, a taller first row per section, a title over the first
/// section only, all from the flow layout's delegate.
final class SettingsController: NSObject, UICollectionViewDataSource, UICollectionViewDelegateFlowLayout {
    let sections = [["Wi-Fi", "Bluetooth", "Cellular"], ["Notifications"]]
    let collectionView: UICollectionView
    private(set) var displayed: [String] = []

    override init() {
        collectionView = UICollectionView(frame: CGRect(x: 0, y: 0, width: 320, height: 568),
                                          collectionViewLayout: UICollectionViewFlowLayout())
        super.init()
        collectionView.register(SettingsCell.self, forCellWithReuseIdentifier: "row")
        collectionView.register(SectionTitleView.self, forSupplementaryViewOfKind: UICollectionView.elementKindSectionHeader,
                                withReuseIdentifier: "title")
        collectionView.dataSource = self
        collectionView.delegate = self
    }

    func numberOfSections(in collectionView: UICollectionView) -> Int {
        return sections.count
    }

    func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
        return sections[section].count
    }

    func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        let cell = collectionView.dequeueReusableCell(withReuseIdentifier: "row", for: indexPath) as! SettingsCell
        cell.label = sections[indexPath.section][indexPath.row]
        return cell
    }

    func collectionView(_ collectionView: UICollectionView, viewForSupplementaryElementOfKind kind: String,
                        at indexPath: IndexPath) -> UICollectionReusableView {
        let view = collectionView.dequeueReusableSupplementaryView(ofKind: kind, withReuseIdentifier: "title", for: indexPath)
        (view as? SectionTitleView)?.title = "Connections"
        return view
    }

    func collectionView(_ collectionView: UICollectionView, willDisplay cell: UICollectionViewCell,
                        forItemAt indexPath: IndexPath) {
        displayed.append((cell as! SettingsCell).label)
    }

    func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                        sizeForItemAt indexPath: IndexPath) -> CGSize {
        return CGSize(width: collectionView.bounds.width - 32, height: indexPath.row == 0 ? 60 : 44)
    }

    func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                        insetForSectionAt section: Int) -> UIEdgeInsets {
        return UIEdgeInsets(top: 8, left: 16, bottom: 8, right: 16)
    }

    func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                        minimumLineSpacingForSectionAt section: Int) -> CGFloat {
        return 1
    }

    func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                        referenceSizeForHeaderInSection section: Int) -> CGSize {
        return CGSize(width: collectionView.bounds.width, height: section == 0 ? 40 : 0)
    }
}

func settingsSample() {
    let controller = SettingsController()
    let collectionView = controller.collectionView
    collectionView.layoutIfNeeded()
    for section in 0 ..< collectionView.numberOfSections {
        for row in 0 ..< collectionView.numberOfItems(inSection: section) {
            let indexPath = IndexPath(row: row, section: section)
            report("settings.row\(section).\(row)", collectionView.layoutAttributesForItem(at: indexPath)!.frame)
        }
    }
    let titles = collectionView.visibleSupplementaryViews(ofKind: UICollectionView.elementKindSectionHeader)
    report("settings.titles", titles.map { ($0 as! SectionTitleView).title })
    report("settings.title0", titles.first?.frame ?? .zero)
    report("settings.noTitle1", collectionView.layoutAttributesForSupplementaryElement(
        ofKind: UICollectionView.elementKindSectionHeader, at: IndexPath(item: 0, section: 1)) == nil)
    report("settings.contentSize", collectionView.contentSize)
    report("settings.displayed", controller.displayed)
    report("settings.cell1.0", collectionView.cellForItem(at: IndexPath(row: 0, section: 1))!.frame)
}
