@_spi(Instrumentation) @testable import TrellisCollectionView

/// A flow-layout configuration described as a vertical layout. `run(in:)` lays it out in either
/// direction — horizontally by transposing every input — and reports everything back in the
/// vertical frame, so each rule is written once and checked in both directions.
struct FlowCase: CustomStringConvertible {
    struct Section {
        var count = 0
        var sizes: [CGSize]?
        var inset: EdgeInsets?
        var lineSpacing: CGFloat?
        var interitemSpacing: CGFloat?
        var header: CGSize?
        var footer: CGSize?
    }

    var width: CGFloat = 300
    var height: CGFloat = 600
    var contentInset = EdgeInsets.zero
    var scale: CGFloat = 2
    var itemSize = CGSize(width: 50, height: 50)
    var lineSpacing: CGFloat = 10
    var interitemSpacing: CGFloat = 10
    var inset = EdgeInsets.zero
    var header = CGSize.zero
    var footer = CGSize.zero
    var sections: [Section] = []

    var description: String {
        "FlowCase(width: \(width), inset: \(inset), itemSize: \(itemSize), spacing: \(lineSpacing)/\(interitemSpacing), "
            + "sections: \(sections.map { $0.sizes.map { "\($0.count) sizes" } ?? "\($0.count)" }))"
    }

    /// The case laid out in `direction`, reported in the vertical frame.
    func run(in direction: ScrollDirection) -> FlowResult {
        let t = direction == .horizontal
        let size = { (s: CGSize) in t ? LayoutGeometry.transposed(s) : s }
        let insets = { (e: EdgeInsets) in t ? e.transposed : e }
        let layout = CollectionViewFlowLayout()
        layout.scrollDirection = direction
        layout.itemSize = size(itemSize)
        layout.minimumLineSpacing = lineSpacing
        layout.minimumInteritemSpacing = interitemSpacing
        layout.sectionInset = insets(inset)
        layout.headerReferenceSize = size(header)
        layout.footerReferenceSize = size(footer)
        let delegate = CaseDelegate(
            sections: sections.map { s in
                var s = s
                s.sizes = s.sizes?.map(size)
                s.inset = s.inset.map(insets)
                s.header = s.header.map(size)
                s.footer = s.footer.map(size)
                return s
            })
        let bounds = CGRect(origin: .zero, size: size(CGSize(width: width, height: height)))
        let host = StaticLayoutHost(
            layout: layout, itemCounts: sections.map(\.count), bounds: bounds,
            contentInset: insets(contentInset), displayScale: scale, delegate: delegate)
        return FlowResult(host: host, transposed: t)
    }
}

/// A laid-out case, read back in the vertical frame.
struct FlowResult {
    let host: StaticLayoutHost
    let transposed: Bool

    func back(_ r: CGRect) -> CGRect { transposed ? LayoutGeometry.transposed(r) : r }

    var contentSize: CGSize {
        let s = host.contentSize
        return transposed ? LayoutGeometry.transposed(s) : s
    }

    func frame(_ section: Int, _ item: Int) -> CGRect? {
        host.layoutAttributesForItem(at: IndexPath(item: item, section: section)).map { back($0.frame) }
    }

    func frames(_ section: Int) -> [CGRect] {
        (0..<host.collectionView.numberOfItems(inSection: section)).map { frame(section, $0)! }
    }

    func xs(_ section: Int = 0) -> [CGFloat] { frames(section).map(\.minX) }
    func ys(_ section: Int = 0) -> [CGFloat] { frames(section).map(\.minY) }

    func header(_ section: Int) -> CGRect? {
        host.layoutAttributesForSupplementaryElement(
            ofKind: CollectionView.elementKindSectionHeader,
            at: IndexPath(item: 0, section: section)
        ).map { back($0.frame) }
    }

    func footer(_ section: Int) -> CGRect? {
        host.layoutAttributesForSupplementaryElement(
            ofKind: CollectionView.elementKindSectionFooter,
            at: IndexPath(item: 0, section: section)
        ).map { back($0.frame) }
    }

    /// Every element, as (category, kind, section, item, frame in the vertical frame).
    func elements(in rect: CGRect = LayoutGeometry.everything) -> [ElementKey] {
        (host.layoutAttributesForElements(in: back(rect)) ?? []).map {
            ElementKey(
                category: $0.representedElementCategory, kind: $0.representedElementKind,
                section: $0.section, item: $0.item, frame: back($0.frame))
        }
    }
}

/// An element reduced to what identifies and places it.
struct ElementKey: Hashable, CustomStringConvertible {
    var category: CollectionElementCategory
    var kind: String?
    var section: Int
    var item: Int
    var frame: CGRect

    var description: String {
        "\(kind ?? category.name)[\(section),\(item)] (\(frame.minX), \(frame.minY), \(frame.width), \(frame.height))"
    }
}

final class CaseDelegate: CollectionViewDelegateFlowLayout {
    let sections: [FlowCase.Section]
    init(sections: [FlowCase.Section]) { self.sections = sections }

    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        sizeForItemAt indexPath: IndexPath
    ) -> CGSize {
        sections[indexPath.section].sizes?[indexPath.item] ?? (collectionViewLayout as! CollectionViewFlowLayout).itemSize
    }

    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        insetForSectionAt section: Int
    ) -> EdgeInsets {
        sections[section].inset ?? (collectionViewLayout as! CollectionViewFlowLayout).sectionInset
    }

    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        minimumLineSpacingForSectionAt section: Int
    ) -> CGFloat {
        sections[section].lineSpacing ?? (collectionViewLayout as! CollectionViewFlowLayout).minimumLineSpacing
    }

    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        minimumInteritemSpacingForSectionAt section: Int
    ) -> CGFloat {
        sections[section].interitemSpacing ?? (collectionViewLayout as! CollectionViewFlowLayout).minimumInteritemSpacing
    }

    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        referenceSizeForHeaderInSection section: Int
    ) -> CGSize {
        sections[section].header ?? (collectionViewLayout as! CollectionViewFlowLayout).headerReferenceSize
    }

    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        referenceSizeForFooterInSection section: Int
    ) -> CGSize {
        sections[section].footer ?? (collectionViewLayout as! CollectionViewFlowLayout).footerReferenceSize
    }
}

/// Describes where two frame lists differ: every index path with expected and actual frames,
/// the differing rows marked with `>`.
func frameDiff(expected: [CGRect], actual: [CGRect], section: Int = 0) -> String {
    var lines: [String] = []
    for i in 0..<max(expected.count, actual.count) {
        let e = i < expected.count ? "\(expected[i])" : "—"
        let a = i < actual.count ? "\(actual[i])" : "—"
        let differs = i >= expected.count || i >= actual.count || !approximatelyEqual(expected[i], actual[i])
        lines.append("\(differs ? ">" : " ") [\(section), \(i)] expected \(e) actual \(a)")
    }
    return lines.joined(separator: "\n")
}

func approximatelyEqual(_ a: CGRect, _ b: CGRect, tolerance: CGFloat = 1e-9) -> Bool {
    abs(a.minX - b.minX) <= tolerance && abs(a.minY - b.minY) <= tolerance
        && abs(a.width - b.width) <= tolerance && abs(a.height - b.height) <= tolerance
}
