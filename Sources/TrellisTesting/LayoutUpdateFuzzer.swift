import Foundation
import TrellisCollectionView

/// One batch update of a sequence the fuzzer applies: its `description` is the Swift that makes it.
public enum LayoutUpdateStep: Hashable, Sendable, CustomStringConvertible {
    case insertItem(IndexPath)
    case deleteItem(IndexPath)
    case reloadItem(IndexPath)
    case moveItem(IndexPath, to: IndexPath)
    /// A new section at `section`, holding `items` items inserted with it.
    case insertSection(Int, items: Int)
    case deleteSection(Int)
    case moveSection(Int, to: Int)
    /// A diffable data source's snapshot applied: the sections' and items' identifiers after it,
    /// the batch the difference from the current ones (``DiffableBatch``).
    case applySnapshot(sections: [Int], items: [[Int]])

    /// The batch this step is, for data whose identifiers are `model`'s (a snapshot's is the
    /// difference from them).
    func batch(from model: Identifiers) -> BatchUpdate {
        var batch = BatchUpdate()
        switch self {
        case .insertItem(let path): batch.insertItems(at: [path])
        case .deleteItem(let path): batch.deleteItems(at: [path])
        case .reloadItem(let path): batch.reloadItems(at: [path])
        case .moveItem(let from, let to): batch.moveItem(at: from, to: to)
        case .insertSection(let section, let items):
            batch.insertSections([section])
            batch.insertItems(at: (0..<items).map { IndexPath(item: $0, section: section) })
        case .deleteSection(let section): batch.deleteSections([section])
        case .moveSection(let from, let to): batch.moveSection(from, toSection: to)
        case .applySnapshot(let sections, let items):
            return DiffableBatch.between(model.snapshot, Identifiers(sections: sections, items: items).snapshot, identity: { AnyHashable($0) })
        }
        return batch
    }

    public var description: String {
        func path(_ p: IndexPath) -> String { "IndexPath(item: \(p.item), section: \(p.section))" }
        switch self {
        case .insertItem(let p): return ".insertItem(\(path(p)))"
        case .deleteItem(let p): return ".deleteItem(\(path(p)))"
        case .reloadItem(let p): return ".reloadItem(\(path(p)))"
        case .moveItem(let from, let to): return ".moveItem(\(path(from)), to: \(path(to)))"
        case .insertSection(let s, let items): return ".insertSection(\(s), items: \(items))"
        case .deleteSection(let s): return ".deleteSection(\(s))"
        case .moveSection(let from, let to): return ".moveSection(\(from), to: \(to))"
        case .applySnapshot(let sections, let items): return ".applySnapshot(sections: \(sections), items: \(items))"
        }
    }

    /// A random step that is valid for data of `counts` (at most `maximumItems` items in a
    /// section, `maximumSections` sections).
    static func random(for model: Identifiers, using random: inout some RandomNumberGenerator, maximumSections: Int = 6, maximumItems: Int = 30)
        -> LayoutUpdateStep
    {
        let counts = model.items.map(\.count)
        let filled = counts.indices.filter { counts[$0] > 0 }
        while true {
            switch Int.random(in: 0..<12, using: &random) {
            case 10...11 where !counts.isEmpty:
                // A new snapshot: some items gone, some new, some moved within or across sections.
                var next = model
                var fresh = next.nextItem
                for s in next.items.indices {
                    next.items[s].removeAll { _ in Int.random(in: 0..<5, using: &random) == 0 }
                    for _ in 0..<Int.random(in: 0...2, using: &random) where next.items[s].count < maximumItems {
                        next.items[s].insert(fresh, at: Int.random(in: 0...next.items[s].count, using: &random))
                        fresh += 1
                    }
                    if next.items[s].count > 1, Bool.random(using: &random) { next.items[s].swapAt(0, next.items[s].count - 1) }
                }
                if next.items.count > 1, let s = next.items.indices.first(where: { !next.items[$0].isEmpty }), Bool.random(using: &random) {
                    next.items[next.items.count - 1].append(next.items[s].removeFirst())
                }
                return .applySnapshot(sections: next.sections, items: next.items)
            case 0...2 where !counts.isEmpty:
                let s = Int.random(in: counts.indices, using: &random)
                guard counts[s] < maximumItems else { continue }
                return .insertItem(IndexPath(item: Int.random(in: 0...counts[s], using: &random), section: s))
            case 3...4 where !filled.isEmpty:
                let s = filled.randomElement(using: &random)!
                return .deleteItem(IndexPath(item: Int.random(in: 0..<counts[s], using: &random), section: s))
            case 5 where !filled.isEmpty:
                let s = filled.randomElement(using: &random)!
                return .reloadItem(IndexPath(item: Int.random(in: 0..<counts[s], using: &random), section: s))
            case 6 where !filled.isEmpty:
                let s = filled.randomElement(using: &random)!, t = Int.random(in: counts.indices, using: &random)
                let from = IndexPath(item: Int.random(in: 0..<counts[s], using: &random), section: s)
                let room = s == t ? counts[t] : counts[t] + 1
                return .moveItem(from, to: IndexPath(item: Int.random(in: 0..<room, using: &random), section: t))
            case 7 where counts.count < maximumSections:
                return .insertSection(Int.random(in: 0...counts.count, using: &random), items: Int.random(in: 0...5, using: &random))
            case 8 where counts.count > 1:
                return .deleteSection(Int.random(in: counts.indices, using: &random))
            case 9 where counts.count > 1:
                return .moveSection(Int.random(in: counts.indices, using: &random), to: Int.random(in: counts.indices, using: &random))
            default:
                if counts.isEmpty { return .insertSection(0, items: Int.random(in: 0...5, using: &random)) }
            }
        }
    }
}

/// A sequence of batch updates that breaks a rule, shrunk to the fewest steps that still do, and
/// the Swift that replays it in a test.
public struct LayoutFuzzFailure: CustomStringConvertible, Sendable {
    public let seed: UInt64
    public let initialCounts: [Int]
    /// The steps, shrunk.
    public let steps: [LayoutUpdateStep]
    /// What the last step broke.
    public let breaches: [LayoutBreach]
    /// How many steps the sequence had before it was shrunk.
    public let originalLength: Int

    /// A test to paste: the steps replayed on a layout of the type given.
    public func swiftCode(layout: String) -> String {
        var code = "let breaches = LayoutUpdateFuzzer.replay(\n    [\n"
        for step in steps { code += "        \(step),\n" }
        code += "    ],\n    initialCounts: \(initialCounts), layout: { \(layout) })\n"
        code += "#expect(breaches.isEmpty, \"\\(breaches)\")\n"
        return code
    }

    public var description: String {
        "seed \(seed): \(steps.count) step\(steps.count == 1 ? "" : "s") (shrunk from \(originalLength)) from \(initialCounts) break "
            + breaches.prefix(3).map(\.description).joined(separator: "; ")
    }
}

/// Seeded random batch updates — items and sections inserted, deleted, moved and reloaded —
/// applied through a collection view to a layout, with UIKit's rules checked after each one (the
/// layout at the new data, at its start and end, and every element of the update's animation); a
/// sequence that breaks one is shrunk to the shortest that still does and given as Swift to paste
/// into a test.
///
/// ```swift
/// if let failure = LayoutUpdateFuzzer.run(seed: 7, initialCounts: [10, 4], layout: { MyLayout() }) {
///     Issue.record("\(failure)\n\(failure.swiftCode(layout: "MyLayout()"))")
/// }
/// ```
public enum LayoutUpdateFuzzer {
    /// Applies `steps` random updates from `initialCounts`; `nil` when every one keeps the rules.
    public static func run(
        seed: UInt64, steps: Int = 40, initialCounts: [Int], bounds: CGRect = CGRect(x: 0, y: 0, width: 375, height: 667),
        layout make: () -> CollectionViewLayout
    ) -> LayoutFuzzFailure? {
        var random = SplitMix(seed: seed)
        var model = Identifiers(counts: initialCounts)
        var sequence: [LayoutUpdateStep] = []
        for _ in 0..<steps {
            let step = LayoutUpdateStep.random(for: model, using: &random)
            sequence.append(step)
            model.apply(step)
        }
        // The whole sequence replayed, stopping at the first step that breaks a rule.
        guard let (length, breaches) = firstBreak(sequence, initialCounts: initialCounts, bounds: bounds, make: make) else { return nil }
        var shrunk = Array(sequence.prefix(length))
        var found = breaches
        // Each step left out in turn, from the first, while the rest still break a rule.
        var removed = true
        while removed {
            removed = false
            var k = 0
            while k < shrunk.count {
                var candidate = shrunk
                candidate.remove(at: k)
                if let (end, still) = firstBreak(candidate, initialCounts: initialCounts, bounds: bounds, make: make) {
                    shrunk = Array(candidate.prefix(end))
                    found = still
                    removed = true
                } else {
                    k += 1
                }
            }
        }
        return LayoutFuzzFailure(seed: seed, initialCounts: initialCounts, steps: shrunk, breaches: found, originalLength: length)
    }

    /// The breaches after replaying `steps` from `initialCounts` (those of the first step that
    /// breaks a rule; empty when none does). A step the collection view refuses as an invalid
    /// batch is itself a breach.
    public static func replay(
        _ steps: [LayoutUpdateStep], initialCounts: [Int], bounds: CGRect = CGRect(x: 0, y: 0, width: 375, height: 667),
        layout make: () -> CollectionViewLayout
    ) -> [LayoutBreach] {
        firstBreak(steps, initialCounts: initialCounts, bounds: bounds, refusalBreaks: true, make: make)?.breaches ?? []
    }

    /// The number of steps up to the first that breaks a rule, and its breaches; `nil` when
    /// none does. A step that is no valid batch is a breach of its own with `refusalBreaks`, and
    /// otherwise (a shrunk sequence that no longer fits its data) ends the replay with `nil`.
    static func firstBreak(
        _ steps: [LayoutUpdateStep], initialCounts: [Int], bounds: CGRect, refusalBreaks: Bool = false, make: () -> CollectionViewLayout
    ) -> (Int, breaches: [LayoutBreach])? {
        let host = StaticLayoutHost(layout: make(), itemCounts: initialCounts, bounds: bounds)
        let data = Counts(initialCounts)
        host.collectionView.dataSource = data
        host.collectionView.reloadData()
        let before = LayoutConformance.check(host, scrollPositions: 2)
        if !before.isEmpty { return (0, before) }
        var model = Identifiers(counts: initialCounts)
        for (k, step) in steps.enumerated() {
            let old = data.counts
            let transition: CollectionViewTransition
            do throws(BatchUpdateError) {
                let batch = step.batch(from: model)
                // A snapshot says its counts (a section it inserts lists no items: the data says
                // how many it holds); a batch's follow from the old ones.
                let new: [Int]
                if case .applySnapshot(_, let items) = step { new = items.map(\.count) } else { new = try batch.expectedCounts(after: old) }
                transition = try host.collectionView.applyBatchUpdates(batch) { _ in data.counts = new }
                model.apply(step)
            } catch {
                guard refusalBreaks else { return nil }
                return (k + 1, [LayoutBreach(rule: .batchRefused, element: "", detail: error.message, context: "\(step) on \(old) items")])
            }
            var breaches = transitionBreaches(transition, step: step)
            breaches += LayoutConformance.check(host, scrollPositions: 2)
            if !breaches.isEmpty { return (k + 1, breaches) }
        }
        return nil
    }

    /// Every animating element's start and end: numbers, of sizes not below zero.
    static func transitionBreaches(_ transition: CollectionViewTransition, step: LayoutUpdateStep) -> [LayoutBreach] {
        var breaches: [LayoutBreach] = []
        for element in transition.elements {
            for (end, a) in [("start", element.from), ("end", element.to)] {
                let f = a.frame
                guard !(f.minX.isFinite && f.minY.isFinite && f.width.isFinite && f.height.isFinite && f.width >= 0 && f.height >= 0) else { continue }
                breaches.append(
                    LayoutBreach(
                        rule: .frameNotFinite, element: LayoutConformance.name(a),
                        detail: "its animation's \(end) (\(element.role)) is at \(LayoutConformance.describe(f))", context: "after \(step)"))
            }
        }
        return breaches
    }

    /// The data the updates change: item counts.
    final class Counts: CollectionViewDataSource {
        var counts: [Int]
        init(_ counts: [Int]) { self.counts = counts }
        func numberOfSections(in collectionView: CollectionView) -> Int { counts.count }
        func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int {
            counts.indices.contains(section) ? counts[section] : 0
        }
        func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
            CollectionViewCell(frame: .zero)
        }
    }

    /// A small seeded generator (SplitMix64): the same seed, the same sequence, everywhere.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}

/// The data a sequence of updates changes, by identifier (what a diffable snapshot sees): each
/// section's identifier and its items', new ones numbered on from the largest.
struct Identifiers: Sendable {
    var sections: [Int]
    var items: [[Int]]

    init(sections: [Int], items: [[Int]]) {
        self.sections = sections
        self.items = items
    }

    /// Sections 0, 1, … holding items numbered from 0 across them.
    init(counts: [Int]) {
        sections = Array(counts.indices)
        var next = 0
        items = counts.map { count in
            defer { next += count }
            return Array(next..<(next + count))
        }
    }

    var nextItem: Int { (items.joined().max() ?? -1) + 1 }
    var nextSection: Int { (sections.max() ?? -1) + 1 }

    var snapshot: DiffableDataSourceSnapshot<Int, Int> {
        var snapshot = DiffableDataSourceSnapshot<Int, Int>()
        snapshot.appendSections(sections)
        for (section, items) in zip(sections, items) { snapshot.appendItems(items, toSection: section) }
        return snapshot
    }

    /// The identifiers after `step` (which fits them).
    mutating func apply(_ step: LayoutUpdateStep) {
        switch step {
        case .insertItem(let p): items[p.section].insert(nextItem, at: p.item)
        case .deleteItem(let p): items[p.section].remove(at: p.item)
        case .reloadItem: break
        case .moveItem(let from, let to):
            let item = items[from.section].remove(at: from.item)
            items[to.section].insert(item, at: to.item)
        case .insertSection(let s, let count):
            let first = nextItem
            sections.insert(nextSection, at: s)
            items.insert(Array(first..<(first + count)), at: s)
        case .deleteSection(let s):
            sections.remove(at: s)
            items.remove(at: s)
        case .moveSection(let from, let to):
            sections.insert(sections.remove(at: from), at: to)
            items.insert(items.remove(at: from), at: to)
        case .applySnapshot(let sections, let items):
            self.sections = sections
            self.items = items
        }
    }
}
