// The example of Documentation/TestingOnLinux.md: a layout file as an iOS app has it (it says
// `import UIKit`), and its tests, which run on Linux against Trellis's UIKit module.
#if canImport(UIKit)
    import Testing
    import TrellisTesting
    import UIKit

    /// Cards in columns under a section header: two columns where the width is compact, three where
    /// it is regular; each card's height from the delegate's aspect ratios, placed in the shortest
    /// column.
    final class CardLayout: UICollectionViewLayout {
        var aspectRatios: [CGFloat] = []
        var spacing: CGFloat = 8
        private var cache: [UICollectionViewLayoutAttributes] = []
        private var headers: [UICollectionViewLayoutAttributes] = []
        private var contentHeight: CGFloat = 0

        override func prepare() {
            super.prepare()
            cache = []
            headers = []
            guard let collectionView else { return }
            let width = collectionView.bounds.width
            let columns = collectionView.traitCollection.horizontalSizeClass == .regular ? 3 : 2
            let columnWidth = (width - spacing * CGFloat(columns + 1)) / CGFloat(columns)
            var y: CGFloat = 0
            for section in 0..<collectionView.numberOfSections {
                let header = UICollectionViewLayoutAttributes(
                    forSupplementaryViewOfKind: UICollectionView.elementKindSectionHeader, with: IndexPath(item: 0, section: section))
                header.frame = CGRect(x: 0, y: y, width: width, height: 44)
                headers.append(header)
                var heights = [CGFloat](repeating: y + 44 + spacing, count: columns)
                for item in 0..<collectionView.numberOfItems(inSection: section) {
                    let column = heights.indices.min { heights[$0] < heights[$1] }!
                    let ratio = aspectRatios.isEmpty ? 1 : aspectRatios[item % aspectRatios.count]
                    let attributes = UICollectionViewLayoutAttributes(forCellWith: IndexPath(item: item, section: section))
                    attributes.frame = CGRect(
                        x: spacing + CGFloat(column) * (columnWidth + spacing), y: heights[column], width: columnWidth,
                        height: (columnWidth * ratio).rounded())
                    cache.append(attributes)
                    heights[column] = attributes.frame.maxY + spacing
                }
                y = heights.max()!
            }
            contentHeight = y
        }

        override var collectionViewContentSize: CGSize {
            CGSize(width: collectionView?.bounds.width ?? 0, height: contentHeight)
        }

        override func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? {
            (headers + cache).filter { $0.frame.intersects(rect) }
        }

        override func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
            cache.first { $0.indexPath == indexPath }
        }

        override func layoutAttributesForSupplementaryView(ofKind elementKind: String, at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
            headers.indices.contains(indexPath.section) ? headers[indexPath.section] : nil
        }

        override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool {
            newBounds.width != collectionView?.bounds.width
        }
    }

    @Suite("The testing guide's example")
    struct ExampleLayoutTests {
        static func layout() -> CardLayout {
            let layout = CardLayout()
            layout.aspectRatios = [1.2, 0.8, 1.5, 1, 0.6]
            return layout
        }

        @Test("the card layout keeps UIKit's rules on a phone, an iPad and a phone on its side")
        func conformance() {
            for device in [SnapshotDevice.iPhoneSE, .iPad, .iPhone15.landscape] {
                let host = device.host(Self.layout(), itemCounts: [14, 0, 9])
                let breaches = LayoutConformance.check(host, registeredKinds: [UICollectionView.elementKindSectionHeader])
                #expect(breaches.isEmpty, "\(device.name): \(breaches)")
            }
        }

        @Test("the card layout's frames, as recorded beside this file")
        func snapshots() {
            let failures = LayoutSnapshots.verify(named: "cards", devices: [.iPhoneSE, .iPad, .iPhoneSE.landscape]) { device in
                device.host(Self.layout(), itemCounts: [14, 0, 9])
            }
            #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        }
    }
#endif
