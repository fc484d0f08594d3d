import Foundation
import Testing
import TrellisCollectionView
import TrellisLayouts
import TrellisTestSupport

private func size(_ w: CollectionLayoutDimension, _ h: CollectionLayoutDimension) -> CollectionLayoutSize {
    CollectionLayoutSize(widthDimension: w, heightDimension: h)
}

private func staticHost(
    _ layout: CollectionViewLayout, _ counts: [Int], width: CGFloat = 375,
    height: CGFloat = 600
) -> StaticLayoutHost {
    let host = StaticLayoutHost(layout: layout, itemCounts: counts, bounds: CGRect(x: 0, y: 0, width: width, height: height))
    host.layoutIfNeeded()
    return host
}

private func frame(_ host: StaticLayoutHost, _ s: Int, _ i: Int) -> CGRect {
    host.layoutAttributesForItem(at: IndexPath(item: i, section: s))?.frame ?? .null
}

private func close(_ a: CGRect, _ b: CGRect, _ tolerance: CGFloat = 1e-9) -> Bool {
    abs(a.minX - b.minX) <= tolerance && abs(a.minY - b.minY) <= tolerance
        && abs(a.width - b.width) <= tolerance && abs(a.height - b.height) <= tolerance
}

@Suite("Compositional layout: UIKit's rules")
struct CompositionalLayoutRuleTests {
    @Test("a grid of fractional items repeats across the group, insets shrink the cells, the header extends the section")
    func grid() {
        let item = CollectionLayoutItem(layoutSize: size(.fractionalWidth(0.2), .fractionalHeight(1)))
        item.contentInsets = NSDirectionalEdgeInsets(top: 2, leading: 2, bottom: 2, trailing: 2)
        let group = CollectionLayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1), .fractionalWidth(0.2)), subitems: [item])
        let section = CollectionLayoutSection(group: group)
        section.boundarySupplementaryItems = [
            CollectionLayoutBoundarySupplementaryItem(
                layoutSize: size(.fractionalWidth(1), .absolute(44)), elementKind: "header", alignment: .top)
        ]
        section.decorationItems = [.background(elementKind: "background")]
        let layout = CollectionViewCompositionalLayout(section: section)
        let host = staticHost(layout, [12, 3])
        #expect(layout.configurationError == nil)
        // 375 × 0.2 = 75 a cell, less 2 on each side; rows 75 high under the 44-point header.
        #expect(frame(host, 0, 0) == CGRect(x: 2, y: 46, width: 71, height: 71))
        #expect(frame(host, 0, 4) == CGRect(x: 302, y: 46, width: 71, height: 71))
        #expect(frame(host, 0, 11) == CGRect(x: 77, y: 196, width: 71, height: 71))
        // Section 0 ends at 44 + 3 · 75 = 269; section 1 holds one row.
        #expect(frame(host, 1, 0) == CGRect(x: 2, y: 315, width: 71, height: 71))
        #expect(layout.collectionViewContentSize == CGSize(width: 375, height: 388))
        let header = host.layoutAttributesForSupplementaryElement(ofKind: "header", at: IndexPath(item: 0, section: 1))
        #expect(header?.frame == CGRect(x: 0, y: 269, width: 375, height: 44))
        let background = layout.layoutAttributesForDecorationView(ofKind: "background", at: IndexPath(item: 0, section: 0))
        #expect(background?.frame == CGRect(x: 0, y: 0, width: 375, height: 269))
        #expect(background?.representedElementCategory == .decorationView)
    }

    @Test("nested groups: a count group shares its length and ignores its item's own")
    func nested() {
        let leading = CollectionLayoutItem(layoutSize: size(.fractionalWidth(0.7), .fractionalHeight(1)))
        leading.contentInsets = NSDirectionalEdgeInsets(top: 10, leading: 10, bottom: 10, trailing: 10)
        let trailingItem = CollectionLayoutItem(layoutSize: size(.fractionalWidth(1), .fractionalHeight(0.3)))
        trailingItem.contentInsets = NSDirectionalEdgeInsets(top: 10, leading: 10, bottom: 10, trailing: 10)
        let trailing = CollectionLayoutGroup.vertical(
            layoutSize: size(.fractionalWidth(0.3), .fractionalHeight(1)),
            subitem: trailingItem, count: 2)
        let nested = CollectionLayoutGroup.horizontal(
            layoutSize: size(.fractionalWidth(1), .fractionalHeight(0.4)),
            subitems: [leading, trailing])
        let layout = CollectionViewCompositionalLayout(section: CollectionLayoutSection(group: nested))
        let host = staticHost(layout, [5])
        // The group is 0.4 of 600 = 240 high: 262.5 wide on the left, two 120-high cells on the right.
        #expect(close(frame(host, 0, 0), CGRect(x: 10, y: 10, width: 242.5, height: 220)))
        #expect(close(frame(host, 0, 1), CGRect(x: 272.5, y: 10, width: 92.5, height: 100)))
        #expect(close(frame(host, 0, 2), CGRect(x: 272.5, y: 130, width: 92.5, height: 100)))
        #expect(close(frame(host, 0, 3), CGRect(x: 10, y: 250, width: 242.5, height: 220)))
        #expect(close(frame(host, 0, 4), CGRect(x: 272.5, y: 250, width: 92.5, height: 100)))
        #expect(layout.collectionViewContentSize == CGSize(width: 375, height: 480))
    }

    @Test("flexible spacing shares the leftover between the gaps; flexible edges share it around the items")
    func flexible() {
        let item = CollectionLayoutItem(layoutSize: size(.absolute(100), .absolute(50)))
        let group = CollectionLayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1), .absolute(50)), subitems: [item])
        group.interItemSpacing = .flexible(10)
        let host = staticHost(CollectionViewCompositionalLayout(section: CollectionLayoutSection(group: group)), [4])
        // Three fit (320 of 375); the 55 left are shared by the two gaps.
        #expect(frame(host, 0, 0).minX == 0)
        #expect(frame(host, 0, 1).minX == 137.5)
        #expect(frame(host, 0, 2).minX == 275)
        #expect(frame(host, 0, 3) == CGRect(x: 0, y: 50, width: 100, height: 50))

        let centred = CollectionLayoutItem(layoutSize: size(.absolute(100), .absolute(50)))
        centred.edgeSpacing = CollectionLayoutEdgeSpacing(leading: .flexible(0), top: nil, trailing: .flexible(0), bottom: nil)
        let narrow = CollectionLayoutGroup.horizontal(layoutSize: size(.absolute(250), .absolute(50)), subitems: [centred])
        let edges = staticHost(CollectionViewCompositionalLayout(section: CollectionLayoutSection(group: narrow)), [2])
        // Two fit in 250; the 50 left go to the four flexible edges.
        #expect(frame(edges, 0, 0).minX == 12.5)
        #expect(frame(edges, 0, 1).minX == 137.5)
    }

    @Test("count and repeating groups, fixed spacing, inter-group spacing and section insets")
    func counts() {
        let item = CollectionLayoutItem(layoutSize: size(.absolute(999), .fractionalHeight(1)))
        let group = CollectionLayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1), .absolute(60)), subitem: item, count: 3)
        group.interItemSpacing = .fixed(10)
        let section = CollectionLayoutSection(group: group)
        section.interGroupSpacing = 8
        section.contentInsets = NSDirectionalEdgeInsets(top: 4, leading: 16, bottom: 20, trailing: 16)
        let layout = CollectionViewCompositionalLayout(section: section)
        let host = staticHost(layout, [4])
        // (375 − 32 − 2 · 10) / 3 = 107.67 each, whatever the item's own width says.
        let w = (343.0 - 20) / 3
        #expect(close(frame(host, 0, 1), CGRect(x: 16 + w + 10, y: 4, width: w, height: 60)))
        #expect(close(frame(host, 0, 3), CGRect(x: 16, y: 72, width: w, height: 60)))
        #expect(Double(layout.collectionViewContentSize.height) == 4 + 60 + 8 + 60 + 20)

        let repeating = CollectionLayoutGroup.vertical(
            layoutSize: size(.absolute(100), .absolute(200)),
            repeatingSubitem: CollectionLayoutItem(layoutSize: size(.absolute(100), .absolute(40))),
            count: 3)
        let stacked = staticHost(CollectionViewCompositionalLayout(section: CollectionLayoutSection(group: repeating)), [4])
        #expect(frame(stacked, 0, 2) == CGRect(x: 0, y: 80, width: 100, height: 40))
        #expect(frame(stacked, 0, 3) == CGRect(x: 0, y: 200, width: 100, height: 40))
    }

    @Test("a custom group places its items where the closure says, told the group's size")
    func custom() {
        var seen: CGSize?
        let group = CollectionLayoutGroup.custom(layoutSize: size(.fractionalWidth(1), .absolute(200))) { environment in
            seen = environment.container.contentSize
            return [
                CollectionLayoutGroupCustomItem(frame: CGRect(x: 0, y: 0, width: 100, height: 100)),
                CollectionLayoutGroupCustomItem(frame: CGRect(x: 100, y: 50, width: 200, height: 150), zIndex: 3),
            ]
        }
        let section = CollectionLayoutSection(group: group)
        section.interGroupSpacing = 10
        let layout = CollectionViewCompositionalLayout(section: section)
        let host = staticHost(layout, [3])
        #expect(seen == CGSize(width: 375, height: 200))
        #expect(frame(host, 0, 1) == CGRect(x: 100, y: 50, width: 200, height: 150))
        #expect(host.layoutAttributesForItem(at: IndexPath(item: 1, section: 0))?.zIndex == 3)
        #expect(frame(host, 0, 2) == CGRect(x: 0, y: 210, width: 100, height: 100))
    }

    @Test("badges anchor to their item: fractional offsets are of the badge's own size")
    func badges() {
        let badge = CollectionLayoutSupplementaryItem(
            layoutSize: size(.absolute(20), .absolute(20)), elementKind: "badge",
            containerAnchor: CollectionLayoutAnchor(
                edges: [.top, .trailing],
                fractionalOffset: CGPoint(x: 0.3, y: -0.3)))
        let item = CollectionLayoutItem(layoutSize: size(.fractionalWidth(0.25), .fractionalHeight(1)), supplementaryItems: [badge])
        let group = CollectionLayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1), .absolute(100)), subitems: [item])
        let layout = CollectionViewCompositionalLayout(section: CollectionLayoutSection(group: group))
        let host = staticHost(layout, [5], width: 400)
        let attributes = host.layoutAttributesForSupplementaryElement(ofKind: "badge", at: IndexPath(item: 1, section: 0))
        // Item 1 is (100, 0, 100, 100): the badge's trailing edge on 200, moved 6 right and 6 up.
        #expect(attributes?.frame == CGRect(x: 186, y: -6, width: 20, height: 20))
        #expect(attributes?.zIndex == 1)
        let all = host.layoutAttributesForElements(in: CGRect(x: 0, y: -10, width: 400, height: 300)) ?? []
        #expect(all.filter { $0.representedElementKind == "badge" }.count == 5)
    }

    @Test("estimated rows take what the cell measures, and the rows below move; nothing else changes")
    func estimated() {
        let layout = CollectionViewCompositionalLayout.list(using: CollectionLayoutListConfiguration(appearance: .plain))
        let host = staticHost(layout, [3, 2])
        #expect(frame(host, 0, 2) == CGRect(x: 0, y: 88, width: 375, height: 44))
        let original = host.layoutAttributesForItem(at: IndexPath(item: 1, section: 0))!
        let preferred = original.copy() as! CollectionViewLayoutAttributes
        preferred.frame.size.height = 80
        #expect(layout.shouldInvalidateLayout(forPreferredLayoutAttributes: preferred, withOriginalAttributes: original))
        layout.invalidateLayout(
            with: layout.invalidationContext(
                forPreferredLayoutAttributes: preferred,
                withOriginalAttributes: original))
        host.layoutIfNeeded()
        #expect(frame(host, 0, 1) == CGRect(x: 0, y: 44, width: 375, height: 80))
        #expect(frame(host, 0, 2) == CGRect(x: 0, y: 124, width: 375, height: 44))
        #expect(frame(host, 1, 0) == CGRect(x: 0, y: 168, width: 375, height: 44))
        #expect(layout.collectionViewContentSize.height == 256)
        // An absolute row is not measured.
        let fixed = CollectionLayoutItem(layoutSize: size(.fractionalWidth(1), .absolute(44)))
        let fixedLayout = CollectionViewCompositionalLayout(
            section: CollectionLayoutSection(
                group: .horizontal(
                    layoutSize: size(.fractionalWidth(1), .absolute(44)), subitems: [fixed])))
        let fixedHost = staticHost(fixedLayout, [2])
        let a = fixedHost.layoutAttributesForItem(at: IndexPath(item: 0, section: 0))!
        let b = a.copy() as! CollectionViewLayoutAttributes
        b.frame.size.height = 90
        #expect(!fixedLayout.shouldInvalidateLayout(forPreferredLayoutAttributes: b, withOriginalAttributes: a))
    }

    @Test("uniformAcrossSiblings: every cell of a row takes the tallest measured")
    func uniform() {
        let item = CollectionLayoutItem(layoutSize: size(.fractionalWidth(0.5), .uniformAcrossSiblings(estimate: 50)))
        let group = CollectionLayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1), .estimated(50)), subitems: [item])
        let layout = CollectionViewCompositionalLayout(section: CollectionLayoutSection(group: group))
        let host = staticHost(layout, [4])
        let original = host.layoutAttributesForItem(at: IndexPath(item: 1, section: 0))!
        let preferred = original.copy() as! CollectionViewLayoutAttributes
        preferred.frame.size.height = 70
        layout.invalidateLayout(with: layout.invalidationContext(forPreferredLayoutAttributes: preferred, withOriginalAttributes: original))
        host.layoutIfNeeded()
        #expect(frame(host, 0, 0).height == 70)
        #expect(frame(host, 0, 1).height == 70)
        #expect(frame(host, 0, 2) == CGRect(x: 0, y: 70, width: 187.5, height: 50))
    }

    @Test("a pinned header stays at the top of the visible bounds while its section scrolls through")
    func pinned() {
        let item = CollectionLayoutItem(layoutSize: size(.fractionalWidth(1), .absolute(50)))
        let section = CollectionLayoutSection(group: .horizontal(layoutSize: size(.fractionalWidth(1), .absolute(50)), subitems: [item]))
        let header = CollectionLayoutBoundarySupplementaryItem(
            layoutSize: size(.fractionalWidth(1), .absolute(30)),
            elementKind: CollectionView.elementKindSectionHeader, alignment: .top)
        header.pinToVisibleBounds = true
        section.boundarySupplementaryItems = [header]
        let layout = CollectionViewCompositionalLayout(section: section)
        let host = staticHost(layout, [10, 10], height: 300)
        let path = IndexPath(item: 0, section: 0)
        #expect(host.layoutAttributesForSupplementaryElement(ofKind: CollectionView.elementKindSectionHeader, at: path)?.frame.minY == 0)
        host.setBounds(CGRect(x: 0, y: 200, width: 375, height: 300))
        #expect(host.layoutAttributesForSupplementaryElement(ofKind: CollectionView.elementKindSectionHeader, at: path)?.frame.minY == 200)
        // Near the section's end it is pushed up by it: section 0 ends at 30 + 500 = 530.
        host.setBounds(CGRect(x: 0, y: 520, width: 375, height: 300))
        #expect(host.layoutAttributesForSupplementaryElement(ofKind: CollectionView.elementKindSectionHeader, at: path)?.frame.minY == 500)
        let second = IndexPath(item: 0, section: 1)
        #expect(host.layoutAttributesForSupplementaryElement(ofKind: CollectionView.elementKindSectionHeader, at: second)?.frame.minY == 530)
    }

    @Test("an orthogonal section scrolls on its own; every behaviour comes to rest where UIKit's does")
    func orthogonal() {
        let item = CollectionLayoutItem(layoutSize: size(.fractionalWidth(1), .fractionalHeight(1)))
        let group = CollectionLayoutGroup.horizontal(layoutSize: size(.fractionalWidth(0.8), .absolute(100)), subitems: [item])
        let section = CollectionLayoutSection(group: group)
        section.orthogonalScrollingBehavior = .groupPaging
        section.interGroupSpacing = 10
        section.contentInsets = NSDirectionalEdgeInsets(top: 0, leading: 20, bottom: 0, trailing: 20)
        let layout = CollectionViewCompositionalLayout(section: section)
        let host = staticHost(layout, [5, 5])
        // Groups of 0.8 · (375 − 40) = 268, 10 apart, in one line: 20 + 5 · 268 + 4 · 10 + 20 = 1420.
        #expect(layout.orthogonalContentSize(forSection: 0) == CGSize(width: 1420, height: 100))
        #expect(frame(host, 0, 1) == CGRect(x: 298, y: 0, width: 268, height: 100))
        #expect(frame(host, 1, 0) == CGRect(x: 20, y: 100, width: 268, height: 100))
        layout.setOrthogonalContentOffset(CGPoint(x: 150, y: 0), forSection: 0)
        host.layoutIfNeeded()
        #expect(frame(host, 0, 1) == CGRect(x: 148, y: 0, width: 268, height: 100))
        #expect(frame(host, 1, 0).minX == 20, "the other section does not move")
        let visible = host.layoutAttributesForElements(in: CGRect(x: 0, y: 0, width: 375, height: 100)) ?? []
        #expect(visible.map(\.indexPath.item) == [0, 1], "item 2 starts at 426, past the screen")

        func target(
            _ behavior: CollectionLayoutSectionOrthogonalScrollingBehavior, from: CGFloat, to: CGFloat,
            velocity: CGFloat
        ) -> CGFloat {
            section.orthogonalScrollingBehavior = behavior
            layout.invalidateLayout()
            host.layoutIfNeeded()
            layout.setOrthogonalContentOffset(CGPoint(x: from, y: 0), forSection: 0)
            return layout.targetOrthogonalContentOffset(
                forProposedContentOffset: CGPoint(x: to, y: 0),
                withScrollingVelocity: CGPoint(x: velocity, y: 0), inSection: 0
            ).x
        }
        // Groups start every 278 points.
        #expect(target(.continuous, from: 0, to: 500, velocity: 1) == 500)
        #expect(target(.continuous, from: 0, to: 5000, velocity: 1) == 1045, "clamped to 1420 − 375")
        #expect(target(.continuousGroupLeadingBoundary, from: 0, to: 500, velocity: 1) == 556)
        #expect(target(.groupPaging, from: 0, to: 900, velocity: 1) == 278, "one group per swipe")
        #expect(target(.groupPaging, from: 278, to: 200, velocity: 0) == 278)
        #expect(target(.paging, from: 0, to: 900, velocity: 1) == 375, "one page, the container's width")
        // Centred: group 1's centre (20 + 278 + 134 = 432) on the container's (187.5).
        let centred = target(.groupPagingCentered, from: 0, to: 300, velocity: 1)
        #expect(Double(centred) == 432 - 187.5)
    }

    @Test("a swipe of an orthogonal section ends where its deceleration rate projects it, snapped by its behavior")
    func orthogonalSwipe() {
        let item = CollectionLayoutItem(layoutSize: size(.fractionalWidth(1), .fractionalHeight(1)))
        let group = CollectionLayoutGroup.horizontal(layoutSize: size(.absolute(200), .absolute(100)), subitems: [item])
        let section = CollectionLayoutSection(group: group)
        section.orthogonalScrollingBehavior = .continuous
        let layout = CollectionViewCompositionalLayout(section: section)
        let host = staticHost(layout, [20, 20])
        // 1 point per millisecond at the collection view's 0.998: 0.998 / 0.002 = 499 points on.
        #expect(section.orthogonalScrollingProperties.decelerationRate == .automatic)
        #expect(abs(host.collectionView.endOrthogonalDragging(inSection: 0, withVelocity: CGPoint(x: 1, y: 0)).x - 499) < 1e-6)
        // At .fast (0.99): 0.99 / 0.01 = 99 points on.
        section.orthogonalScrollingProperties.decelerationRate = .fast
        #expect(abs(host.collectionView.endOrthogonalDragging(inSection: 0, withVelocity: CGPoint(x: 1, y: 0)).x - 598) < 1e-6)
        #expect(abs(host.collectionView.endOrthogonalDragging(inSection: 0, withVelocity: CGPoint(x: -2, y: 0)).x - 400) < 1e-6)
        // Snapped by the behavior: group by group, 200 points each.
        section.orthogonalScrollingBehavior = .continuousGroupLeadingBoundary
        layout.invalidateLayout()
        host.layoutIfNeeded()
        #expect(host.collectionView.endOrthogonalDragging(inSection: 0, withVelocity: CGPoint(x: 1.3, y: 0)).x == 600, "400 + 128.7, at the group's edge")
        #expect(frame(host, 0, 3).minX == 0 && frame(host, 1, 0).minX == 0, "the swiped section moved; the other did not")
        #expect(host.collectionView.endOrthogonalDragging(inSection: 0, withVelocity: CGPoint(x: CGFloat.nan, y: 0)).x == 600, "not a number: no swipe")
    }

    @Test("the visible-items handler sees each scroll's visible elements, before the orthogonal offset, and can change them")
    func visibleItemsHandler() {
        let item = CollectionLayoutItem(layoutSize: size(.fractionalWidth(1), .fractionalHeight(1)))
        let group = CollectionLayoutGroup.horizontal(layoutSize: size(.absolute(200), .absolute(100)), subitems: [item])
        let section = CollectionLayoutSection(group: group)
        section.orthogonalScrollingBehavior = .continuous
        var calls: [(frames: [CGRect], offset: CGPoint)] = []
        section.visibleItemsInvalidationHandler = { items, offset, environment in
            calls.append((items.map(\.frame), offset))
            for item in items {
                let distance = abs(item.frame.midX - offset.x - environment.container.contentSize.width / 2)
                let scale = max(1 - distance / environment.container.contentSize.width, 0.5)
                item.transform = CGAffineTransform(scaleX: scale, y: scale)
            }
        }
        let layout = CollectionViewCompositionalLayout(section: section)
        let host = staticHost(layout, [4])
        layout.setOrthogonalContentOffset(CGPoint(x: 100, y: 0), forSection: 0)
        calls = []
        let visible = host.layoutAttributesForElements(in: CGRect(x: 0, y: 0, width: 375, height: 100)) ?? []
        #expect(calls.count == 1)
        #expect(calls.first?.offset == CGPoint(x: 100, y: 0))
        #expect(calls.first?.frames.first == CGRect(x: 0, y: 0, width: 200, height: 100), "frames before the offset")
        // Item 1's centre (300) is 12.5 from the screen's (187.5 + 100): nearly full size.
        let one = visible.first { $0.indexPath.item == 1 }
        #expect(abs((one?.transform.a ?? 0) - (1 - 12.5 / 375)) < 1e-9)
    }

    @Test("a horizontal layout puts sections side by side")
    func horizontal() {
        let item = CollectionLayoutItem(layoutSize: size(.absolute(100), .fractionalHeight(0.5)))
        let group = CollectionLayoutGroup.vertical(layoutSize: size(.absolute(100), .fractionalHeight(1)), subitems: [item])
        let configuration = CollectionViewCompositionalLayoutConfiguration()
        configuration.scrollDirection = .horizontal
        configuration.interSectionSpacing = 20
        let section = CollectionLayoutSection(group: group)
        section.interGroupSpacing = 5
        let layout = CollectionViewCompositionalLayout(section: section, configuration: configuration)
        let host = staticHost(layout, [3, 2], height: 400)
        #expect(frame(host, 0, 1) == CGRect(x: 0, y: 200, width: 100, height: 200))
        #expect(frame(host, 0, 2) == CGRect(x: 105, y: 0, width: 100, height: 200))
        #expect(frame(host, 1, 0) == CGRect(x: 225, y: 0, width: 100, height: 200))
        #expect(layout.collectionViewContentSize == CGSize(width: 325, height: 400))
    }

    @Test("the layout's own header and footer, and the section provider's environment")
    func providerAndGlobals() {
        var widths: [CGFloat] = []
        let configuration = CollectionViewCompositionalLayoutConfiguration()
        configuration.boundarySupplementaryItems = [
            CollectionLayoutBoundarySupplementaryItem(layoutSize: size(.fractionalWidth(1), .absolute(40)), elementKind: "banner", alignment: .top),
            CollectionLayoutBoundarySupplementaryItem(layoutSize: size(.fractionalWidth(1), .absolute(25)), elementKind: "credits", alignment: .bottom),
        ]
        let layout = CollectionViewCompositionalLayout(
            sectionProvider: { index, environment in
                widths.append(environment.container.effectiveContentSize.width)
                let columns = index == 0 ? 2 : 3
                let item = CollectionLayoutItem(layoutSize: size(.fractionalWidth(1 / CGFloat(columns)), .absolute(50)))
                return CollectionLayoutSection(group: .horizontal(layoutSize: size(.fractionalWidth(1), .absolute(50)), subitems: [item]))
            }, configuration: configuration)
        let host = staticHost(layout, [2, 3])
        #expect(widths == [375, 375])
        #expect(frame(host, 0, 1) == CGRect(x: 187.5, y: 40, width: 187.5, height: 50))
        #expect(frame(host, 1, 2) == CGRect(x: 250, y: 90, width: 125, height: 50))
        #expect(layout.collectionViewContentSize.height == 165)
        #expect(
            layout.layoutAttributesForSupplementaryView(ofKind: "credits", at: IndexPath(item: 0, section: 0))?.frame
                == CGRect(x: 0, y: 140, width: 375, height: 25))
    }

    @Test("bad configurations are errors that name the section, never traps")
    func errors() {
        func error(_ make: () -> CollectionLayoutSection, counts: [Int] = [3], horizontal: Bool = false) -> String? {
            let configuration = CollectionViewCompositionalLayoutConfiguration()
            if horizontal { configuration.scrollDirection = .horizontal }
            let layout = CollectionViewCompositionalLayout(section: make(), configuration: configuration)
            let host = staticHost(layout, counts)
            let shown = host.layoutAttributesForElements(in: CGRect(x: 0, y: 0, width: 1000, height: 1000)) ?? []
            if layout.configurationError != nil { #expect(shown.isEmpty, "a bad layout shows nothing") }
            return layout.configurationError?.description
        }
        func plain(
            _ w: CollectionLayoutDimension, _ h: CollectionLayoutDimension,
            group gw: CollectionLayoutDimension = .fractionalWidth(1)
        ) -> CollectionLayoutSection {
            let item = CollectionLayoutItem(layoutSize: size(w, h))
            return CollectionLayoutSection(group: .horizontal(layoutSize: size(gw, .absolute(50)), subitems: [item]))
        }
        #expect(error { plain(.absolute(-1), .absolute(10)) }?.contains("section 0: an item's width is .absolute(-1)") == true)
        #expect(error { plain(.absolute(.nan), .absolute(10)) }?.contains("finite") == true)
        #expect(error { plain(.absolute(400), .absolute(10)) }?.contains("cannot fit a single item") == true)
        #expect(error { plain(.absolute(10), .absolute(10), group: .fractionalWidth(1.5)) }?.contains("more than the section holds") == true)
        #expect(error { plain(.absolute(0), .absolute(10)) }?.contains("repeat without end") == true)
        #expect(error({ plain(.absolute(10), .absolute(10)) }, counts: [3], horizontal: false) == nil)
        #expect(
            error {
                CollectionLayoutSection(
                    group: .custom(layoutSize: size(.absolute(100), .absolute(100))) { _ in
                        [CollectionLayoutGroupCustomItem(frame: CGRect(x: 50, y: 0, width: 80, height: 10))]
                    })
            }?.contains("outside the group's 100 × 100") == true)
        #expect(
            error(
                {
                    let s = plain(.absolute(10), .absolute(10))
                    s.orthogonalScrollingBehavior = .continuous
                    return s
                }, horizontal: true)?.contains("orthogonal sections need a vertical layout") == true)
        #expect(
            error {
                CollectionLayoutSection(
                    group: .horizontal(
                        layoutSize: size(.fractionalWidth(1), .absolute(10)),
                        subitem: CollectionLayoutItem(layoutSize: size(.absolute(1), .absolute(1))), count: 0))
            }?.contains("count is 0") == true)
        let provider = CollectionViewCompositionalLayout(sectionProvider: { index, _ in index == 1 ? nil : plain(.absolute(10), .absolute(10)) })
        _ = staticHost(provider, [1, 1])
        #expect(provider.configurationError?.description.contains("section 1: the section provider returned nil") == true)
    }
}
