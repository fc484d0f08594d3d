import Foundation
import TrellisCollectionView

/// One breach of a rule UIKit enforces on a layout — by raising, by logging, or by showing the
/// wrong thing — found by ``LayoutConformance``.
public struct LayoutBreach: Hashable, Sendable, CustomStringConvertible {
    /// The rules a layout is checked against.
    public enum Rule: String, Sendable, CaseIterable {
        /// A frame with a coordinate that is not a number or infinite, or a negative size.
        case frameNotFinite
        /// Attributes for an index path the data does not have (UIKit: "received layout
        /// attributes for a cell with an index path that does not exist").
        case elementDoesNotExist
        /// One element listed twice in one answer of `layoutAttributesForElements(in:)`.
        case listedTwice
        /// `layoutAttributesForItem(at:)` (or the supplementary or decoration query) answers
        /// another frame than `layoutAttributesForElements(in:)`, or nothing for an element it listed.
        case queriesDisagree
        /// `layoutAttributesForElements(in:)` leaves out an element whose frame meets the rect:
        /// the view is not shown while it is on screen.
        case missingFromRect
        /// A frame past the content size: the element cannot be scrolled to.
        case outsideContentSize
        /// A content size that is not a number, infinite or negative.
        case contentSizeNotFinite
        /// An attributes object the layout returned changed afterwards without a new layout
        /// pass (UIKit: "cached frame mismatch" — a subclass changing super's objects without
        /// copying them).
        case mutatedAfterReturn
        /// The layout invalidated itself in every pass (UIKit loops, or logs that it gave up).
        case invalidationLoop
        /// `targetContentOffset(forProposedContentOffset:withScrollingVelocity:)` answers an
        /// offset outside the range scrolling can reach.
        case targetOffsetOutOfRange
        /// A supplementary or decoration kind no view class is registered for (UIKit raises
        /// when it dequeues one).
        case kindNotRegistered
        /// A batch update the collection view refuses (UIKit raises "Invalid update"): found by
        /// ``LayoutUpdateFuzzer/replay(_:initialCounts:bounds:layout:)`` of a step that does not fit the data.
        case batchRefused
    }

    public let rule: Rule
    /// The element, as `item [0, 3]`, `header [1, 0]`, `decoration background [0, 0]`; empty
    /// for a breach of the whole layout.
    public let element: String
    /// What was found.
    public let detail: String
    /// Where: the bounds and the content offset.
    public let context: String

    public var description: String {
        "\(rule.rawValue)\(element.isEmpty ? "" : " \(element)"): \(detail) (\(context))"
    }
}

/// Runs a layout on a ``StaticLayoutHost`` and reports every breach of the rules UIKit enforces
/// on it (``LayoutBreach/Rule``), at the content's start, at scroll positions along it and at its
/// end, at each of the sizes given.
///
/// ```swift
/// let host = StaticLayoutHost(layout: MyLayout(), itemCounts: [12, 0, 5])
/// let breaches = LayoutConformance.check(host)
/// #expect(breaches.isEmpty, "\(breaches)")
/// ```
///
/// The checks read the layout as the collection view does — `prepare()`, the content size,
/// `layoutAttributesForElements(in:)` for the whole content and for each visible rect, the
/// per-element queries for everything listed, `targetContentOffset(…)` for offsets across the
/// range — and never change the layout's own state except through bounds changes, as scrolling
/// does.
public enum LayoutConformance {
    /// How far two frames may differ and still be the same (layouts round to pixels).
    public static let tolerance: CGFloat = 0.01

    /// The breaches of `host`'s layout, at its bounds' size and at each of `sizes` (the host is
    /// left at the first of them); `scrollPositions` visible rects along the scrolling axis at
    /// each size, the start and the end among them. `registeredKinds`: the supplementary kinds the
    /// app registers views for (`nil`: not checked; decoration kinds are checked against the
    /// layout's own registrations).
    ///
    /// `fitting`: for self-sizing cells, the size a cell fits at the attributes the layout gives
    /// it (what its `preferredLayoutAttributesFitting(_:)` answers). At each position the cells
    /// shown are then sized as the collection view sizes them — each one's preferred attributes
    /// offered to the layout, which takes them or not — before the checks: a content size that
    /// does not grow with the cells is found so, and a layout that asks for a cell's size in
    /// every pass without ever giving it is an ``LayoutBreach/Rule/invalidationLoop``.
    public static func check(
        _ host: StaticLayoutHost, sizes: [CGSize] = [], scrollPositions: Int = 5, registeredKinds: Set<String>? = nil,
        fitting: ((CollectionViewLayoutAttributes) -> CGSize)? = nil
    ) -> [LayoutBreach] {
        var breaches: [LayoutBreach] = []
        let original = host.bounds
        for size in [original.size] + sizes {
            host.setBounds(CGRect(origin: .zero, size: size))
            breaches += checkAtOffsets(host, positions: max(2, scrollPositions), registeredKinds: registeredKinds, fitting: fitting)
        }
        host.setBounds(original)
        host.layoutIfNeeded()
        // One report of a breach that every position repeats.
        var seen = Set<String>()
        return breaches.filter { seen.insert("\($0.rule)|\($0.element)|\($0.detail)").inserted }
    }

    private static func checkAtOffsets(
        _ host: StaticLayoutHost, positions: Int, registeredKinds: Set<String>?, fitting: ((CollectionViewLayoutAttributes) -> CGSize)?
    ) -> [LayoutBreach] {
        var breaches: [LayoutBreach] = []
        let collectionView = host.collectionView
        let settled = collectionView.diagnostics.count
        // The collection view's own layout pass, which repeats while the layout invalidates itself.
        collectionView.setNeedsLayout()
        collectionView.layoutIfNeeded()
        host.layoutIfNeeded()
        let size = host.bounds.size
        func context() -> String {
            let b = host.bounds
            return "bounds \(number(b.width))×\(number(b.height)), offset (\(number(b.minX)), \(number(b.minY)))"
        }
        if collectionView.diagnostics.dropFirst(settled).contains(where: { if case .layoutDidNotSettle = $0 { true } else { false } }) {
            breaches.append(LayoutBreach(rule: .invalidationLoop, element: "", detail: "the layout invalidated itself in every pass", context: context()))
            return breaches
        }
        let content = host.layout.collectionViewContentSize
        guard content.width.isFinite, content.height.isFinite, content.width >= 0, content.height >= 0 else {
            breaches.append(
                LayoutBreach(
                    rule: .contentSizeNotFinite, element: "", detail: "collectionViewContentSize is \(number(content.width))×\(number(content.height))",
                    context: context()))
            return breaches
        }
        let range = collectionView.contentOffsetRange
        let vertical = content.height - size.height >= content.width - size.width
        let start = vertical ? range.min.y : range.min.x, end = vertical ? range.max.y : range.max.x
        for k in 0..<positions {
            let along = positions == 1 ? start : start + (end - start) * CGFloat(k) / CGFloat(positions - 1)
            let origin = vertical ? CGPoint(x: range.min.x, y: along) : CGPoint(x: along, y: range.min.y)
            host.setBounds(CGRect(origin: origin, size: size))
            host.layoutIfNeeded()
            if let fitting {
                let looping = selfSizeShown(host, fitting: fitting, context: context())
                breaches += looping
                if !looping.isEmpty { continue }
            }
            breaches += checkHere(host, registeredKinds: registeredKinds, context: context())
        }
        breaches += checkTargetOffsets(host, vertical: vertical, context: context())
        host.setBounds(CGRect(origin: range.min, size: size))
        return breaches
    }

    /// The most passes of self-sizing at one position: a layout that takes the cells' sizes
    /// settles in one (two when cells come into view as others grow or shrink).
    static let selfSizingPasses = 4

    /// Sizes the cells shown as the collection view does when it shows them: each cell's
    /// preferred attributes — its attributes at the size `fitting` gives — offered to the layout,
    /// pass after pass until the layout takes none. A cell the layout took a size for in every
    /// pass is reported: the layout asks for its size and never shows it (UIKit lays out again
    /// and again).
    private static func selfSizeShown(
        _ host: StaticLayoutHost, fitting: (CollectionViewLayoutAttributes) -> CGSize, context: String
    ) -> [LayoutBreach] {
        let layout = host.layout, collectionView = host.collectionView
        var taken: [Key: (times: Int, preferred: CGSize, shown: CGSize, name: String)] = [:]
        for _ in 0..<selfSizingPasses {
            host.layoutIfNeeded()
            let bounds = host.bounds
            let shown = (layout.layoutAttributesForElements(in: bounds) ?? [])
                .filter { $0.representedElementCategory == .cell && $0.frame.intersects(bounds) }
                .map(\.indexPath)
            var took = false
            for path in Set(shown).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                // The item as the layout gives it now (an earlier cell's size may have moved it).
                guard let current = layout.layoutAttributesForItem(at: path) else { continue }
                let size = fitting(current)
                guard size.width.isFinite, size.height.isFinite, size.width >= 0, size.height >= 0 else { continue }
                let preferred = current.snapshot()
                preferred.size = size
                guard collectionView.selfSize(preferred: preferred, shown: current) else { continue }
                took = true
                let key = Key(current)
                taken[key] = ((taken[key]?.times ?? 0) + 1, size, current.size, name(current))
            }
            if !took { return [] }
        }
        return taken.values.filter { $0.times == selfSizingPasses }.sorted { $0.name < $1.name }.map { cell in
            LayoutBreach(
                rule: .invalidationLoop, element: cell.name,
                detail: "the layout took the cell's preferred size \(number(cell.preferred.width))×\(number(cell.preferred.height)) "
                    + "in each of \(selfSizingPasses) passes and still gives \(number(cell.shown.width))×\(number(cell.shown.height))",
                context: context)
        }
    }

    /// An element's name in a breach.
    static func name(_ a: CollectionViewLayoutAttributes) -> String {
        let path = "[\(a.indexPath.map(String.init).joined(separator: ", "))]"
        switch a.representedElementCategory {
        case .cell: return "item \(path)"
        case .supplementaryView: return "\(a.representedElementKind ?? "supplementary") \(path)"
        case .decorationView: return "decoration \(a.representedElementKind ?? "") \(path)"
        }
    }

    /// An element's identity: its category, kind and index path.
    struct Key: Hashable {
        var category: Int
        var kind: String?
        var path: IndexPath
        init(_ a: CollectionViewLayoutAttributes) {
            switch a.representedElementCategory {
            case .cell: category = 0
            case .supplementaryView: category = 1
            case .decorationView: category = 2
            }
            kind = a.representedElementKind
            path = a.indexPath
        }
    }

    /// The checks at the host's current bounds.
    private static func checkHere(_ host: StaticLayoutHost, registeredKinds: Set<String>?, context: String) -> [LayoutBreach] {
        var breaches: [LayoutBreach] = []
        func breach(_ rule: LayoutBreach.Rule, _ element: String, _ detail: String) {
            breaches.append(LayoutBreach(rule: rule, element: element, detail: detail, context: context))
        }
        let layout = host.layout
        let collectionView = host.collectionView
        let counts = (0..<collectionView.numberOfSections).map { collectionView.numberOfItems(inSection: $0) }
        let content = layout.collectionViewContentSize
        let bounds = host.bounds
        // Everything there is: the content and the visible rect, with a margin around them.
        let everything = CGRect(x: 0, y: 0, width: max(content.width, bounds.maxX), height: max(content.height, bounds.maxY))
            .union(bounds).insetBy(dx: -bounds.width, dy: -bounds.height)
        let all = layout.layoutAttributesForElements(in: everything) ?? []
        // What each returned object said when returned, to find one changed afterwards.
        let returned = all.map { (object: $0, frame: $0.frame) }
        var byKey: [Key: CollectionViewLayoutAttributes] = [:]
        for a in all {
            let element = name(a)
            let frame = a.frame
            if !(frame.origin.x.isFinite && frame.origin.y.isFinite && frame.width.isFinite && frame.height.isFinite)
                || frame.width < 0 || frame.height < 0
            {
                breach(.frameNotFinite, element, "frame \(describe(frame))")
                continue
            }
            let key = Key(a)
            if byKey[key] != nil {
                breach(.listedTwice, element, "listed twice by layoutAttributesForElements(in:)")
                continue
            }
            byKey[key] = a
            let path = a.indexPath
            let section = path.count > 0 ? path[0] : -1
            switch a.representedElementCategory {
            case .cell:
                let item = path.count > 1 ? path[1] : -1
                if section < 0 || section >= counts.count || item < 0 || item >= counts[section] {
                    breach(.elementDoesNotExist, element, "the data has \(counts.count) sections, with \(counts) items")
                    continue
                }
                if let own = layout.layoutAttributesForItem(at: path) {
                    if !same(own.frame, frame) {
                        breach(.queriesDisagree, element, "layoutAttributesForItem(at:) says \(describe(own.frame)), the rect query \(describe(frame))")
                    }
                } else {
                    breach(.queriesDisagree, element, "layoutAttributesForItem(at:) answers nil for an item the rect query lists")
                }
            case .supplementaryView, .decorationView:
                let supplementary = a.representedElementCategory == .supplementaryView
                let kind = a.representedElementKind ?? ""
                if section < 0 || section >= max(counts.count, 1) {
                    breach(.elementDoesNotExist, element, "the data has \(counts.count) sections")
                    continue
                }
                if supplementary, let registeredKinds, !registeredKinds.contains(kind) {
                    breach(.kindNotRegistered, element, "no view class is registered for the supplementary kind \"\(kind)\"")
                }
                if !supplementary, layout.decorationViewClasses[kind] == nil {
                    breach(
                        .kindNotRegistered, element, "no view class is registered for the decoration kind \"\(kind)\" (register(_:forDecorationViewOfKind:))")
                }
                let own =
                    supplementary
                    ? layout.layoutAttributesForSupplementaryView(ofKind: kind, at: path)
                    : layout.layoutAttributesForDecorationView(ofKind: kind, at: path)
                let query = supplementary ? "layoutAttributesForSupplementaryView(ofKind:at:)" : "layoutAttributesForDecorationView(ofKind:at:)"
                if let own {
                    if !same(own.frame, frame) { breach(.queriesDisagree, element, "\(query) says \(describe(own.frame)), the rect query \(describe(frame))") }
                } else {
                    breach(.queriesDisagree, element, "\(query) answers nil for an element the rect query lists")
                }
            }
            if frame.maxX > content.width + 0.5 || frame.maxY > content.height + 0.5, !a.isHidden, a.alpha > 0 {
                breach(.outsideContentSize, element, "frame \(describe(frame)) ends past the content size \(number(content.width))×\(number(content.height))")
            }
        }
        // Every item the per-item query places is in the rect query's answer.
        for (section, count) in counts.enumerated() {
            for item in 0..<count {
                let path = IndexPath(item: item, section: section)
                guard let own = layout.layoutAttributesForItem(at: path), !own.isHidden, own.frame.width > 0, own.frame.height > 0,
                    own.frame.width.isFinite, own.frame.height.isFinite, own.frame.intersects(everything), byKey[Key(own)] == nil
                else { continue }
                breach(
                    .missingFromRect, "item [\(section), \(item)]",
                    "layoutAttributesForItem(at:) places it at \(describe(own.frame)); the rect query leaves it out")
            }
        }
        // The visible rect's answer holds every element that meets it, at the same frames.
        let visible = layout.layoutAttributesForElements(in: bounds) ?? []
        var inVisible = Set<Key>()
        for a in visible {
            let key = Key(a)
            guard inVisible.insert(key).inserted else {
                breach(.listedTwice, name(a), "listed twice by layoutAttributesForElements(in:) for the visible rect")
                continue
            }
            if let whole = byKey[key], !same(whole.frame, a.frame) {
                breach(.queriesDisagree, name(a), "the visible rect's query says \(describe(a.frame)), the whole content's \(describe(whole.frame))")
            }
        }
        for (key, a) in byKey where !inVisible.contains(key) && !a.isHidden && a.frame.width > 0 && a.frame.height > 0 {
            let meets = a.frame.intersection(bounds)
            if !meets.isNull, meets.width > tolerance, meets.height > tolerance {
                breach(.missingFromRect, name(a), "frame \(describe(a.frame)) meets the visible rect \(describe(bounds)); its query leaves it out")
            }
        }
        for (object, frame) in returned where !same(object.frame, frame) {
            breach(
                .mutatedAfterReturn, name(object),
                "an attributes object returned with \(describe(frame)) now says \(describe(object.frame)); copy attributes before changing them")
        }
        return breaches
    }

    /// Where scrolling comes to rest, for offsets across the range and beyond it and three
    /// velocities: within the range, a number.
    private static func checkTargetOffsets(_ host: StaticLayoutHost, vertical: Bool, context: String) -> [LayoutBreach] {
        var breaches: [LayoutBreach] = []
        let range = host.collectionView.contentOffsetRange
        let start = vertical ? range.min.y : range.min.x, end = vertical ? range.max.y : range.max.x
        // (Scrolling proposes offsets it can reach; the layout may move them, within the range.)
        let span = end - start
        for fraction in [0, 0.3, 0.5, 0.71, 1] {
            let along = start + span * CGFloat(fraction)
            let proposed = vertical ? CGPoint(x: range.min.x, y: along) : CGPoint(x: along, y: range.min.y)
            for speed in [-2.0, 0, 2.0] {
                let velocity = vertical ? CGPoint(x: 0, y: speed) : CGPoint(x: speed, y: 0)
                let target = host.layout.targetContentOffset(forProposedContentOffset: proposed, withScrollingVelocity: velocity)
                let value = vertical ? target.y : target.x
                let ok = target.x.isFinite && target.y.isFinite && value >= start - 0.5 && value <= end + 0.5
                if !ok {
                    breaches.append(
                        LayoutBreach(
                            rule: .targetOffsetOutOfRange, element: "",
                            detail: "proposed (\(number(proposed.x)), \(number(proposed.y))) at velocity \(number(CGFloat(speed))): "
                                + "(\(number(target.x)), \(number(target.y))), outside \(number(start))…\(number(end))",
                            context: context))
                }
            }
        }
        return breaches
    }

    static func same(_ a: CGRect, _ b: CGRect) -> Bool {
        if a == b { return true }
        return abs(a.minX - b.minX) <= tolerance && abs(a.minY - b.minY) <= tolerance && abs(a.width - b.width) <= tolerance
            && abs(a.height - b.height) <= tolerance
    }

    static func number(_ value: CGFloat) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(describing: Double(rounded))
    }

    static func describe(_ r: CGRect) -> String {
        "(\(number(r.origin.x)), \(number(r.origin.y)), \(number(r.width))×\(number(r.height)))"
    }
}
