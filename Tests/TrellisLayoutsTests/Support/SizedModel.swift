import Foundation
import TrellisCollectionView
import TrellisLayouts
import TrellisTestSupport

/// Sections of items, each with an identity and a natural size: the data source and delegate
/// the layout tests host every layout with.
final class SizedModel: NSObject, CollectionViewDataSource, CollectionViewDelegateJustifiedLayout,
    CollectionViewDelegateWaterfallLayout
{
    struct Item: Equatable {
        var id: Int
        var size: CGSize
        var fullSpan = false
    }

    var sections: [[Item]]
    /// Per-section answers the delegate gives; a missing one falls back to the layout's property.
    var headerHeights: [Int: CGFloat] = [:]
    var footerHeights: [Int: CGFloat] = [:]
    var columnCounts: [Int: Int] = [:]
    /// Whether the delegate answers all of a section's sizes in one call.
    var answersInBulk = false

    init(_ sections: [[Item]]) { self.sections = sections }

    /// Sections of `counts` items with sizes drawn from `rng`.
    static func random(_ rng: inout SeededRandom, sections: Int, items: ClosedRange<Int>) -> SizedModel {
        var id = 0
        return SizedModel(
            (0..<sections).map { _ in
                (0..<Int.random(in: items, using: &rng)).map { _ in
                    id += 1
                    return Item(id: id, size: randomSize(&rng))
                }
            })
    }

    static func randomSize(_ rng: inout SeededRandom) -> CGSize {
        CGSize(width: rng.points(20...400, quarters: true), height: rng.points(20...400, quarters: true))
    }

    var nextID: Int { (sections.flatMap { $0 }.map(\.id).max() ?? 0) + 1 }

    func duplicate() -> SizedModel {
        let copy = SizedModel(sections)
        copy.headerHeights = headerHeights
        copy.footerHeights = footerHeights
        copy.columnCounts = columnCounts
        copy.answersInBulk = answersInBulk
        return copy
    }

    func numberOfSections(in collectionView: CollectionView) -> Int { sections.count }

    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int {
        sections[section].count
    }

    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
        collectionView.dequeueReusableCell(withReuseIdentifier: "cell", for: indexPath)
    }

    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        sizeForItemAt indexPath: IndexPath
    ) -> CGSize {
        sections[indexPath.section][indexPath.item].size
    }

    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        sizesForItemsInSection section: Int
    ) -> [CGSize]? {
        answersInBulk ? sections[section].map(\.size) : nil
    }

    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        heightForHeaderIn section: Int
    ) -> CGFloat {
        headerHeights[section] ?? (collectionViewLayout as? JustifiedLayout)?.headerHeight
            ?? (collectionViewLayout as? WaterfallLayout)?.headerHeight ?? 0
    }

    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        heightForFooterIn section: Int
    ) -> CGFloat {
        footerHeights[section] ?? (collectionViewLayout as? JustifiedLayout)?.footerHeight
            ?? (collectionViewLayout as? WaterfallLayout)?.footerHeight ?? 0
    }

    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        columnCountFor section: Int
    ) -> Int {
        columnCounts[section] ?? (collectionViewLayout as? WaterfallLayout)?.columnCount ?? 2
    }

    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        isFullSpanItemAt indexPath: IndexPath
    ) -> Bool {
        sections[indexPath.section][indexPath.item].fullSpan
    }
}

/// A collection view hosting `layout` over `model`, laid out.
func host(
    _ layout: CollectionViewLayout, _ model: SizedModel, width: CGFloat = 390, height: CGFloat = 844,
    scale: CGFloat = 2
) -> CollectionView {
    let view = CollectionView(frame: CGRect(x: 0, y: 0, width: width, height: height), collectionViewLayout: layout)
    view.displayScale = scale
    view.register(CollectionViewCell.self, forCellWithReuseIdentifier: "cell")
    view.dataSource = model
    view.delegate = model
    view.layoutIfNeeded()
    return view
}
