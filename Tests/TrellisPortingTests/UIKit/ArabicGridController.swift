import UIKit

/// A grid of Arabic section titles and numbered items, in a right-to-left interface: an
/// Arabic-language app's views run right to left, which the flow layout mirrors.
final class ArabicGridController: NSObject, UICollectionViewDataSource, UICollectionViewDelegateFlowLayout {
    let numbers = ["١", "٢", "٣", "٤", "٥", "٦", "٧"]
    let collectionView: UICollectionView

    override init() {
        let layout = UICollectionViewFlowLayout()
        layout.itemSize = CGSize(width: 96, height: 96)
        layout.minimumInteritemSpacing = 8
        layout.minimumLineSpacing = 8
        layout.sectionInset = UIEdgeInsets(top: 0, left: 16, bottom: 0, right: 4)
        layout.headerReferenceSize = CGSize(width: 0, height: 40)
        collectionView = UICollectionView(frame: CGRect(x: 0, y: 0, width: 340, height: 600), collectionViewLayout: layout)
        super.init()
        collectionView.semanticContentAttribute = .forceRightToLeft
        collectionView.register(UICollectionViewCell.self, forCellWithReuseIdentifier: "number")
        collectionView.register(UICollectionReusableView.self, forSupplementaryViewOfKind: UICollectionView.elementKindSectionHeader,
                                withReuseIdentifier: "title")
        collectionView.dataSource = self
        collectionView.delegate = self
    }

    func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
        return numbers.count
    }

    func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        return collectionView.dequeueReusableCell(withReuseIdentifier: "number", for: indexPath)
    }

    func collectionView(_ collectionView: UICollectionView, viewForSupplementaryElementOfKind kind: String,
                        at indexPath: IndexPath) -> UICollectionReusableView {
        return collectionView.dequeueReusableSupplementaryView(ofKind: kind, withReuseIdentifier: "title", for: indexPath)
    }
}

func arabicGridSample() {
    let controller = ArabicGridController()
    let view = controller.collectionView
    view.layoutIfNeeded()
    report("arabic.direction", view.effectiveUserInterfaceLayoutDirection == .rightToLeft)
    report("arabic.item0", view.cellForItem(at: IndexPath(item: 0, section: 0))!.frame)
    report("arabic.item2", view.cellForItem(at: IndexPath(item: 2, section: 0))!.frame)
    report("arabic.item3", view.layoutAttributesForItem(at: IndexPath(item: 3, section: 0))!.frame)
    report("arabic.header", view.layoutAttributesForSupplementaryElement(ofKind: UICollectionView.elementKindSectionHeader,
                                                                         at: IndexPath(item: 0, section: 0))!.frame)
    report("arabic.tapAtTopRight", view.indexPathForItem(at: CGPoint(x: 300, y: 60))!.item)
    report("arabic.layoutsOwnItem0", view.collectionViewLayout.layoutAttributesForItem(at: IndexPath(item: 0, section: 0))!.frame)
}
