import Foundation
import Testing
import TrellisCollectionView
import TrellisLayouts
import TrellisTestSupport

/// An element as the oracles compare it: what it is and where.
struct Element: Equatable, CustomStringConvertible {
    var category: CollectionView.ElementCategory
    var kind: String?
    var indexPath: IndexPath
    var frame: CGRect

    init(_ attributes: CollectionViewLayoutAttributes) {
        category = attributes.representedElementCategory
        kind = attributes.representedElementKind
        indexPath = attributes.indexPath
        frame = attributes.frame
    }

    var description: String {
        "\(category)\(kind.map { " \($0)" } ?? "") \(indexPath.map(String.init).joined(separator: ".")) \(frame)"
    }
}

/// The checks every built-in layout must pass, whatever it is.
enum LayoutOracles {
    /// Every element of the layout.
    static func all(_ layout: CollectionViewLayout) -> [Element] {
        (layout.layoutAttributesForElements(in: LayoutGeometry.everything) ?? []).map(Element.init)
    }

    /// A rect query returns exactly the elements a brute-force filter of every element finds, in
    /// the same order; each element is also what the per-element query answers.
    static func checkRectQueries(
        _ layout: CollectionViewLayout, _ rng: inout SeededRandom, queries: Int = 30,
        _ context: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let all = self.all(layout)
        let size = layout.collectionViewContentSize
        for element in all {
            let single: CollectionViewLayoutAttributes?
            switch element.category {
            case .cell: single = layout.layoutAttributesForItem(at: element.indexPath)
            case .supplementaryView:
                single = layout.layoutAttributesForSupplementaryView(ofKind: element.kind ?? "", at: element.indexPath)
            case .decorationView:
                single = layout.layoutAttributesForDecorationView(ofKind: element.kind ?? "", at: element.indexPath)
            }
            #expect(
                single.map(Element.init) == element, "\(context): the single query of \(element)",
                sourceLocation: sourceLocation)
        }
        for _ in 0..<queries {
            let w = max(size.width, 1), h = max(size.height, 1)
            let rect = CGRect(
                x: CGFloat(Double.random(in: -0.2...1.0, using: &rng)) * w,
                y: CGFloat(Double.random(in: -0.2...1.1, using: &rng)) * h,
                width: CGFloat(Double.random(in: 0...0.8, using: &rng)) * w,
                height: CGFloat(Double.random(in: 0...0.5, using: &rng)) * h)
            let expected = all.filter { LayoutGeometry.intersects($0.frame, rect) }
            let actual = (layout.layoutAttributesForElements(in: rect) ?? []).map(Element.init)
            #expect(
                actual == expected, "\(context): rect \(rect)\n\(listDifference(actual, expected))",
                sourceLocation: sourceLocation)
        }
    }

    /// Every element lies inside the content size (to a millionth of a point).
    static func checkInsideContent(
        _ layout: CollectionViewLayout, _ context: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let size = layout.collectionViewContentSize
        for element in all(layout) {
            let f = element.frame
            let inside = f.minX >= -1e-6 && f.minY >= -1e-6 && f.maxX <= size.width + 1e-6 && f.maxY <= size.height + 1e-6
            #expect(inside, "\(context): \(element) lies outside the content size \(size)", sourceLocation: sourceLocation)
        }
    }

    /// No two cells overlap (touching edges is not overlapping).
    static func checkNoOverlap(
        _ layout: CollectionViewLayout, _ context: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let cells = all(layout).filter { $0.category == .cell && $0.frame.width > 0 && $0.frame.height > 0 }
            .sorted { $0.frame.minY < $1.frame.minY }
        for (i, a) in cells.enumerated() {
            for b in cells[(i + 1)...] {
                if b.frame.minY >= a.frame.maxY - 1e-9 { break }
                let overlap = a.frame.intersection(b.frame)
                #expect(
                    overlap.isNull || overlap.width < 1e-9 || overlap.height < 1e-9,
                    "\(context): \(a) overlaps \(b)", sourceLocation: sourceLocation)
            }
        }
    }

    /// A random valid batch (deletes, inserts, moves) applied to `model` through `view`, then the
    /// layout compared with a fresh layout of the new data.
    static func checkBatchEqualsFresh(
        _ makeLayout: () -> CollectionViewLayout, _ model: SizedModel,
        _ rng: inout SeededRandom, width: CGFloat, _ context: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let layout = makeLayout()
        let view = host(layout, model, width: width)
        var deleted: [IndexPath] = [], inserted: [IndexPath] = []
        var moved: [(IndexPath, IndexPath)] = []
        var new = model.sections
        // Deletions and moves by old position, then insertions at final positions.
        var survivors: [[SizedModel.Item]] = model.sections.map { _ in [] }
        var carried: [(SizedModel.Item, IndexPath?)] = []
        var id = model.nextID
        for (s, items) in model.sections.enumerated() {
            for (i, item) in items.enumerated() {
                if rng.chance(0.15) {
                    deleted.append(IndexPath(item: i, section: s))
                } else if rng.chance(0.1) {
                    carried.append((item, IndexPath(item: i, section: s)))
                } else {
                    survivors[s].append(item)
                }
            }
        }
        for _ in 0..<Int.random(in: 0...6, using: &rng) {
            carried.append((SizedModel.Item(id: id, size: SizedModel.randomSize(&rng), fullSpan: rng.chance(0.1)), nil))
            id += 1
        }
        new = survivors
        let sectionCount = max(new.count, 1)
        guard !new.isEmpty else { return }
        var placements: [[(SizedModel.Item, IndexPath?)]] = Array(repeating: [], count: sectionCount)
        for entry in carried { placements[Int.random(in: 0..<sectionCount, using: &rng)].append(entry) }
        for s in 0..<sectionCount {
            let total = new[s].count + placements[s].count
            var positions = Array(0..<total).shuffled(using: &rng).prefix(placements[s].count).sorted()
            for (item, from) in placements[s] {
                let position = positions.removeFirst()
                new[s].insert(item, at: position)
                if let from { moved.append((from, IndexPath(item: position, section: s))) } else { inserted.append(IndexPath(item: position, section: s)) }
            }
        }
        _ = try view.applyBatchUpdates {
            model.sections = new
            view.deleteItems(at: deleted)
            view.insertItems(at: inserted)
            for (from, to) in moved { view.moveItem(at: from, to: to) }
        }
        view.layoutIfNeeded()
        let fresh = makeLayout()
        let freshModel = model.duplicate()
        let freshView = host(fresh, freshModel, width: width)
        let after = all(layout), expected = all(fresh)
        #expect(
            after == expected, "\(context): after the batch\n\(listDifference(after, expected))",
            sourceLocation: sourceLocation)
        #expect(
            layout.collectionViewContentSize == fresh.collectionViewContentSize, "\(context)",
            sourceLocation: sourceLocation)
        withExtendedLifetime((view, freshView)) {}
    }

    /// The first few rows that differ between two element lists.
    static func listDifference(_ actual: [Element], _ expected: [Element]) -> String {
        var lines: [String] = []
        if actual.count != expected.count { lines.append("\(actual.count) elements, expected \(expected.count)") }
        for i in 0..<max(actual.count, expected.count) {
            let a = i < actual.count ? actual[i].description : "—"
            let e = i < expected.count ? expected[i].description : "—"
            if a != e { lines.append("  [\(i)] \(a)\n   expected \(e)") }
            if lines.count > 6 { break }
        }
        return lines.joined(separator: "\n")
    }
}
