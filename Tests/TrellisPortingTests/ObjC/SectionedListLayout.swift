import UIKit

/// What a sectioned list asks of its delegate. Only the row height is required; the rest are
/// optional, as delegates of Objective-C-era layouts are written.
@objc protocol SectionedListLayoutDelegate: AnyObject {
    func collectionView(_ collectionView: UICollectionView, heightForRowAt indexPath: IndexPath) -> CGFloat
    /// The header's height; the layout's `headerHeight` when not implemented.
    @objc optional func collectionView(_ collectionView: UICollectionView,
                                       heightForHeaderInSection section: Int) -> CGFloat
    @objc optional func collectionView(_ collectionView: UICollectionView, titleForSection section: Int) -> String?
    @objc optional func collectionViewWillPrepareLayout(_ collectionView: UICollectionView)
}

/// A list of sections, each a header above its rows.
final class SectionedListLayout: UICollectionViewLayout {
    weak var delegate: SectionedListLayoutDelegate?
    var headerHeight: CGFloat = 30
    private(set) var titles: [String] = []
    private var cache: [UICollectionViewLayoutAttributes] = []
    private var contentHeight: CGFloat = 0

    override func prepare() {
        super.prepare()
        guard let collectionView = collectionView else { return }
        delegate?.collectionViewWillPrepareLayout?(collectionView)
        cache = []
        titles = []
        var y: CGFloat = 0
        for section in 0 ..< collectionView.numberOfSections {
            let header = delegate?.collectionView?(collectionView, heightForHeaderInSection: section) ?? headerHeight
            titles.append(delegate?.collectionView?(collectionView, titleForSection: section) ?? "untitled")
            let headerAttributes = UICollectionViewLayoutAttributes(
                forSupplementaryViewOfKind: UICollectionView.elementKindSectionHeader,
                with: IndexPath(item: 0, section: section))
            headerAttributes.frame = CGRect(x: 0, y: y, width: collectionView.bounds.width, height: header)
            cache.append(headerAttributes)
            y += header
            for row in 0 ..< collectionView.numberOfItems(inSection: section) {
                let indexPath = IndexPath(item: row, section: section)
                let height = delegate?.collectionView(collectionView, heightForRowAt: indexPath) ?? 44
                let attributes = UICollectionViewLayoutAttributes(forCellWith: indexPath)
                attributes.frame = CGRect(x: 0, y: y, width: collectionView.bounds.width, height: height)
                cache.append(attributes)
                y += height
            }
        }
        contentHeight = y
    }

    override var collectionViewContentSize: CGSize {
        return CGSize(width: collectionView?.bounds.width ?? 0, height: contentHeight)
    }

    override func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? {
        return cache.filter { $0.frame.intersects(rect) }
    }

    override func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
        return cache.first { $0.representedElementCategory == .cell && $0.indexPath == indexPath }
    }

    override func layoutAttributesForSupplementaryView(ofKind elementKind: String,
                                                       at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
        return cache.first { $0.representedElementKind == elementKind && $0.indexPath == indexPath }
    }
}

/// Answers every optional requirement.
final class ChattyListDelegate: NSObject, UICollectionViewDataSource, SectionedListLayoutDelegate {
    var preparations = 0

    func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int { 2 }
    func numberOfSections(in collectionView: UICollectionView) -> Int { 2 }
    func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        return collectionView.dequeueReusableCell(withReuseIdentifier: "row", for: indexPath)
    }

    func collectionView(_ collectionView: UICollectionView, heightForRowAt indexPath: IndexPath) -> CGFloat {
        return indexPath.section == 0 ? 40 : 60
    }

    @objc func collectionView(_ collectionView: UICollectionView, heightForHeaderInSection section: Int) -> CGFloat {
        return section == 0 ? 50 : 0
    }

    @objc func collectionView(_ collectionView: UICollectionView, titleForSection section: Int) -> String? {
        return section == 0 ? "Fruit" : nil
    }

    @objc func collectionViewWillPrepareLayout(_ collectionView: UICollectionView) {
        preparations += 1
    }
}

/// Answers only the required row height.
final class QuietListDelegate: NSObject, UICollectionViewDataSource, SectionedListLayoutDelegate {
    func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int { 1 }
    func numberOfSections(in collectionView: UICollectionView) -> Int { 2 }
    func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        return collectionView.dequeueReusableCell(withReuseIdentifier: "row", for: indexPath)
    }

    func collectionView(_ collectionView: UICollectionView, heightForRowAt indexPath: IndexPath) -> CGFloat {
        return 44
    }
}

func sectionedListSample() {
    for (name, delegate) in [("chatty", ChattyListDelegate() as NSObject & UICollectionViewDataSource & SectionedListLayoutDelegate),
                             ("quiet", QuietListDelegate())] {
        let layout = SectionedListLayout()
        layout.delegate = delegate
        let collectionView = UICollectionView(frame: CGRect(x: 0, y: 0, width: 320, height: 480), collectionViewLayout: layout)
        collectionView.register(UICollectionViewCell.self, forCellWithReuseIdentifier: "row")
        collectionView.dataSource = delegate
        collectionView.layoutIfNeeded()
        let header1 = layout.layoutAttributesForSupplementaryView(ofKind: UICollectionView.elementKindSectionHeader,
                                                                  at: IndexPath(item: 0, section: 1))!
        report("objc.\(name).header1", header1.frame)
        report("objc.\(name).lastRow", layout.layoutAttributesForItem(at: IndexPath(item: collectionView.numberOfItems(inSection: 1) - 1, section: 1))!.frame)
        report("objc.\(name).contentSize", layout.collectionViewContentSize)
        report("objc.\(name).titles", layout.titles.joined(separator: ","))
        if let chatty = delegate as? ChattyListDelegate { report("objc.\(name).preparations", chatty.preparations) }
    }
}
