import Foundation
import TrellisCollectionView
import TrellisLayouts
import TrellisRender

/// A compositional layout as a spec describes it: the same pieces as the Swift API, as JSON.
///
/// ```json
/// "layout": {"type": "compositional", "interSectionSpacing": 20,
///            "section": {"group": {"kind": "horizontal",
///                                  "size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 80}},
///                                  "subitems": [{"size": {"width": {"fractionalWidth": 0.25},
///                                                         "height": {"fractionalHeight": 1}}}]}}}
/// ```
///
/// A section of `"sections"` may give its own `"section"`; the others take the layout's.
public struct CompositionalSpec: Equatable, Sendable {
    public var scrollDirection = CollectionView.ScrollDirection.vertical
    public var interSectionSpacing: CGFloat = 0
    public var boundarySupplementaryItems: [BoundarySpec] = []
    /// The arrangement of every section that gives none.
    public var section: SectionDescription?

    public enum Dimension: Equatable, Sendable {
        case fractionalWidth(CGFloat), fractionalHeight(CGFloat), absolute(CGFloat), estimated(CGFloat), uniform(CGFloat)
        var value: CollectionLayoutDimension {
            switch self {
            case .fractionalWidth(let v): .fractionalWidth(v)
            case .fractionalHeight(let v): .fractionalHeight(v)
            case .absolute(let v): .absolute(v)
            case .estimated(let v): .estimated(v)
            case .uniform(let v): .uniformAcrossSiblings(estimate: v)
            }
        }
    }

    public struct Size: Equatable, Sendable {
        public var width: Dimension, height: Dimension
        var value: CollectionLayoutSize { CollectionLayoutSize(widthDimension: width.value, heightDimension: height.value) }
    }

    public struct Spacing: Equatable, Sendable {
        public var value: CGFloat, flexible: Bool
        var layoutSpacing: CollectionLayoutSpacing { flexible ? .flexible(value) : .fixed(value) }
    }

    public struct SupplementarySpec: Equatable, Sendable {
        public var elementKind: String
        public var size: Size
        public var edges: DirectionalRectEdge
        public var offset: CGPoint
        public var fractional: Bool
        public var zIndex: Int?
    }

    public struct BoundarySpec: Equatable, Sendable {
        public var elementKind: String
        public var size: Size
        public var alignment: RectAlignment
        public var offset: CGPoint
        public var extendsBoundary = true
        public var pinToVisibleBounds = false
        public var zIndex: Int?
        var value: CollectionLayoutBoundarySupplementaryItem {
            let item = CollectionLayoutBoundarySupplementaryItem(
                layoutSize: size.value, elementKind: elementKind,
                alignment: alignment, absoluteOffset: offset)
            item.extendsBoundary = extendsBoundary
            item.pinToVisibleBounds = pinToVisibleBounds
            if let zIndex { item.zIndex = zIndex }
            return item
        }
    }

    public struct ItemSpec: Equatable, Sendable {
        public var size: Size
        public var contentInsets = DirectionalEdgeInsets.zero
        public var edgeSpacing: [Spacing?]? = nil  // leading, top, trailing, bottom
        public var supplementaryItems: [SupplementarySpec] = []
    }

    public indirect enum Subitem: Equatable, Sendable {
        case item(ItemSpec)
        case group(GroupSpec)
    }

    public struct GroupSpec: Equatable, Sendable {
        public enum Kind: String, Equatable, Sendable, CaseIterable { case horizontal, vertical, custom }
        public var kind: Kind
        public var size: Size
        public var subitems: [Subitem] = []
        public var count: Int?
        public var repeatingCount: Int?
        public var interItemSpacing: Spacing?
        public var contentInsets = DirectionalEdgeInsets.zero
        public var frames: [CGRect] = []
        public var zIndexes: [Int] = []
        public var supplementaryItems: [SupplementarySpec] = []
    }

    public struct DecorationSpec: Equatable, Sendable {
        public var elementKind: String
        public var contentInsets = DirectionalEdgeInsets.zero
        public var zIndex: Int?
    }

    public struct ListSpec: Equatable, Sendable {
        public var appearance: CollectionLayoutListConfiguration.Appearance
        public var headerMode = CollectionLayoutListConfiguration.HeaderMode.none
        public var footerMode = CollectionLayoutListConfiguration.FooterMode.none
    }

    /// One section's arrangement.
    public struct SectionDescription: Equatable, Sendable {
        public var group: GroupSpec?
        public var list: ListSpec?
        public var contentInsets = DirectionalEdgeInsets.zero
        public var interGroupSpacing: CGFloat = 0
        public var orthogonalScrollingBehavior = CollectionLayoutSectionOrthogonalScrollingBehavior.none
        public var boundarySupplementaryItems: [BoundarySpec] = []
        public var supplementariesFollowContentInsets = true
        public var decorationItems: [DecorationSpec] = []
    }

    static let behaviorNames: [(String, CollectionLayoutSectionOrthogonalScrollingBehavior)] = [
        ("none", .none), ("continuous", .continuous), ("continuousGroupLeadingBoundary", .continuousGroupLeadingBoundary),
        ("paging", .paging), ("groupPaging", .groupPaging), ("groupPagingCentered", .groupPagingCentered),
    ]
    static let alignmentNames: [(String, RectAlignment)] = [
        ("none", .none), ("top", .top), ("topLeading", .topLeading), ("leading", .leading), ("bottomLeading", .bottomLeading),
        ("bottom", .bottom), ("bottomTrailing", .bottomTrailing), ("trailing", .trailing), ("topTrailing", .topTrailing),
    ]
    static let appearanceNames: [(String, CollectionLayoutListConfiguration.Appearance)] = [
        ("plain", .plain), ("grouped", .grouped), ("insetGrouped", .insetGrouped), ("sidebar", .sidebar), ("sidebarPlain", .sidebarPlain),
    ]

    // MARK: Reading

    static func parse(_ o: inout SpecObject) throws(SpecError) -> CompositionalSpec {
        var spec = CompositionalSpec()
        if let d = try o.string("scrollDirection", oneOf: ["vertical", "horizontal"]) {
            spec.scrollDirection = d == "horizontal" ? .horizontal : .vertical
        }
        if let v = try o.number("interSectionSpacing") { spec.interSectionSpacing = v }
        spec.boundarySupplementaryItems = try list(&o, "boundarySupplementaryItems", parseBoundary)
        if var s = try o.object("section") { spec.section = try parseSection(&s) }
        try o.finish()
        return spec
    }

    static func list<T>(
        _ o: inout SpecObject, _ key: String,
        _ parse: (inout SpecObject) throws(SpecError) -> T
    ) throws(SpecError) -> [T] {
        guard let value = o.value(key) else { return [] }
        guard value.kind == .array else {
            throw SpecError(path: o.childPath(key), message: "expected an array, found \(value.typeName)")
        }
        var result: [T] = []
        for (i, element) in value.elements.enumerated() {
            var e = try SpecObject(element, path: "\(o.childPath(key))[\(i)]")
            result.append(try parse(&e))
        }
        return result
    }

    static func parseSection(_ o: inout SpecObject) throws(SpecError) -> SectionDescription {
        var section = SectionDescription()
        if var g = try o.object("group") { section.group = try parseGroup(&g) }
        if var l = try o.object("list") {
            var list = ListSpec(appearance: .plain)
            if let a = try l.string("appearance", oneOf: appearanceNames.map(\.0)) {
                list.appearance = appearanceNames.first { $0.0 == a }!.1
            }
            if let h = try l.string("headerMode", oneOf: ["none", "supplementary", "firstItemInSection"]) {
                list.headerMode = h == "supplementary" ? .supplementary : h == "firstItemInSection" ? .firstItemInSection : .none
            }
            if let f = try l.string("footerMode", oneOf: ["none", "supplementary"]) {
                list.footerMode = f == "supplementary" ? .supplementary : .none
            }
            try l.finish()
            section.list = list
        }
        switch (section.group, section.list) {
        case (nil, nil): throw SpecError(path: o.path, message: "missing required key \"group\" (or \"list\")")
        case (_?, _?): throw SpecError(path: o.path, message: "give \"group\" or \"list\", not both")
        default: break
        }
        if let i = try insets(&o, "contentInsets") { section.contentInsets = i }
        if let v = try o.number("interGroupSpacing") { section.interGroupSpacing = v }
        if let b = try o.string("orthogonalScrollingBehavior", oneOf: behaviorNames.map(\.0)) {
            section.orthogonalScrollingBehavior = behaviorNames.first { $0.0 == b }!.1
        }
        section.boundarySupplementaryItems = try list(&o, "boundarySupplementaryItems", parseBoundary)
        if let v = try o.bool("supplementariesFollowContentInsets") { section.supplementariesFollowContentInsets = v }
        section.decorationItems = try list(&o, "decorationItems") { (d: inout SpecObject) throws(SpecError) -> DecorationSpec in
            guard let kind = try d.string("elementKind") else { throw SpecError(path: d.path, message: "missing required key \"elementKind\"") }
            var decoration = DecorationSpec(elementKind: kind)
            if let i = try insets(&d, "contentInsets") { decoration.contentInsets = i }
            decoration.zIndex = try d.number("zIndex", .finite).map { Int($0) }
            try d.finish()
            return decoration
        }
        try o.finish()
        return section
    }

    static func parseGroup(_ o: inout SpecObject) throws(SpecError) -> GroupSpec {
        guard let kind = try o.string("kind", oneOf: GroupSpec.Kind.allCases.map(\.rawValue)) else {
            throw SpecError(path: o.path, message: "missing required key \"kind\" (\"horizontal\", \"vertical\" or \"custom\")")
        }
        var group = GroupSpec(kind: GroupSpec.Kind(rawValue: kind)!, size: try requiredSize(&o))
        if let i = try insets(&o, "contentInsets") { group.contentInsets = i }
        group.supplementaryItems = try list(&o, "supplementaryItems", parseSupplementary)
        if group.kind == .custom {
            var zIndexes: [Int] = []
            group.frames = try list(&o, "frames") { (f: inout SpecObject) throws(SpecError) -> CGRect in
                let rect = CGRect(
                    x: try f.number("x") ?? 0, y: try f.number("y") ?? 0, width: try f.number("width", .nonNegative) ?? 0,
                    height: try f.number("height", .nonNegative) ?? 0)
                zIndexes.append(Int(try f.number("zIndex") ?? 0))
                try f.finish(required: ["x", "y", "width", "height"])
                return rect
            }
            group.zIndexes = zIndexes
            guard !group.frames.isEmpty else { throw SpecError(path: o.childPath("frames"), message: "a custom group needs at least one frame") }
        } else {
            group.subitems = try list(&o, "subitems") { (s: inout SpecObject) throws(SpecError) -> Subitem in
                if s.members.contains(where: { $0.key == "kind" }) { return .group(try parseGroup(&s)) }
                return .item(try parseItem(&s))
            }
            guard !group.subitems.isEmpty else {
                throw SpecError(path: o.childPath("subitems"), message: "a group needs at least one subitem")
            }
            group.count = try o.number("count", .nonNegativeInteger).map { Int($0) }
            group.repeatingCount = try o.number("repeatingCount", .nonNegativeInteger).map { Int($0) }
            if group.count != nil || group.repeatingCount != nil {
                guard group.subitems.count == 1, group.count == nil || group.repeatingCount == nil else {
                    throw SpecError(path: o.path, message: "\"count\" and \"repeatingCount\" take one subitem, and not both")
                }
            }
            if let s = try o.object("interItemSpacing") { group.interItemSpacing = try spacing(s) }
        }
        try o.finish(required: ["size"])
        return group
    }

    static func parseItem(_ o: inout SpecObject) throws(SpecError) -> ItemSpec {
        var item = ItemSpec(size: try requiredSize(&o))
        if let i = try insets(&o, "contentInsets") { item.contentInsets = i }
        if var e = try o.object("edgeSpacing") {
            var sides: [Spacing?] = []
            for key in ["leading", "top", "trailing", "bottom"] {
                sides.append(try e.object(key).map { (s: SpecObject) throws(SpecError) -> Spacing in try spacing(s) })
            }
            try e.finish()
            item.edgeSpacing = sides
        }
        item.supplementaryItems = try list(&o, "supplementaryItems", parseSupplementary)
        try o.finish(required: ["size"])
        return item
    }

    static func parseSupplementary(_ o: inout SpecObject) throws(SpecError) -> SupplementarySpec {
        guard let kind = try o.string("elementKind") else { throw SpecError(path: o.path, message: "missing required key \"elementKind\"") }
        let size = try requiredSize(&o)
        guard var anchor = try o.object("containerAnchor") else {
            throw SpecError(path: o.path, message: "missing required key \"containerAnchor\"")
        }
        var edges: DirectionalRectEdge = []
        for (i, edge) in try strings(&anchor, "edges", oneOf: ["top", "leading", "bottom", "trailing"]).enumerated() {
            _ = i
            switch edge {
            case "top": edges.insert(.top)
            case "leading": edges.insert(.leading)
            case "bottom": edges.insert(.bottom)
            default: edges.insert(.trailing)
            }
        }
        var offset = CGPoint.zero, fractional = false
        if let p = try point(&anchor, "absoluteOffset") { offset = p }
        if let p = try point(&anchor, "fractionalOffset") {
            offset = p
            fractional = true
        }
        try anchor.finish()
        var spec = SupplementarySpec(elementKind: kind, size: size, edges: edges, offset: offset, fractional: fractional)
        spec.zIndex = try o.number("zIndex").map { Int($0) }
        try o.finish(required: ["size", "containerAnchor"])
        return spec
    }

    static func parseBoundary(_ o: inout SpecObject) throws(SpecError) -> BoundarySpec {
        guard let kind = try o.string("elementKind") else { throw SpecError(path: o.path, message: "missing required key \"elementKind\"") }
        let size = try requiredSize(&o)
        guard let a = try o.string("alignment", oneOf: alignmentNames.map(\.0)) else {
            throw SpecError(path: o.path, message: "missing required key \"alignment\"")
        }
        var spec = BoundarySpec(
            elementKind: kind, size: size, alignment: alignmentNames.first { $0.0 == a }!.1,
            offset: try point(&o, "absoluteOffset") ?? .zero)
        if let v = try o.bool("extendsBoundary") { spec.extendsBoundary = v }
        if let v = try o.bool("pinToVisibleBounds") { spec.pinToVisibleBounds = v }
        spec.zIndex = try o.number("zIndex").map { Int($0) }
        try o.finish()
        return spec
    }

    static func requiredSize(_ o: inout SpecObject) throws(SpecError) -> Size {
        guard var s = try o.object("size") else { throw SpecError(path: o.path, message: "missing required key \"size\"") }
        guard var w = try s.object("width") else { throw SpecError(path: s.path, message: "missing required key \"width\"") }
        guard var h = try s.object("height") else { throw SpecError(path: s.path, message: "missing required key \"height\"") }
        let size = Size(width: try dimension(&w), height: try dimension(&h))
        try s.finish()
        return size
    }

    static func dimension(_ o: inout SpecObject) throws(SpecError) -> Dimension {
        let kinds = ["fractionalWidth", "fractionalHeight", "absolute", "estimated", "uniformAcrossSiblings"]
        let present = o.members.map(\.key).filter { kinds.contains($0) }
        guard present.count == 1, let key = present.first else {
            throw SpecError(path: o.path, message: "give exactly one of " + kinds.map { "\"\($0)\"" }.joined(separator: ", "))
        }
        let value = CGFloat(try o.number(key, key == "estimated" || key == "uniformAcrossSiblings" ? .positive : .nonNegative)!)
        try o.finish()
        switch key {
        case "fractionalWidth": return .fractionalWidth(value)
        case "fractionalHeight": return .fractionalHeight(value)
        case "absolute": return .absolute(value)
        case "estimated": return .estimated(value)
        default: return .uniform(value)
        }
    }

    static func spacing(_ s: SpecObject) throws(SpecError) -> Spacing {
        var s = s
        let fixed = try s.number("fixed"), flexible = try s.number("flexible")
        try s.finish()
        switch (fixed, flexible) {
        case (let f?, nil): return Spacing(value: f, flexible: false)
        case (nil, let f?): return Spacing(value: f, flexible: true)
        default: throw SpecError(path: s.path, message: "give exactly one of \"fixed\", \"flexible\"")
        }
    }

    static func insets(_ o: inout SpecObject, _ key: String) throws(SpecError) -> DirectionalEdgeInsets? {
        guard var i = try o.object(key) else { return nil }
        let insets = DirectionalEdgeInsets(
            top: try i.number("top") ?? 0, leading: try i.number("leading") ?? 0,
            bottom: try i.number("bottom") ?? 0, trailing: try i.number("trailing") ?? 0)
        try i.finish()
        return insets
    }

    static func point(_ o: inout SpecObject, _ key: String) throws(SpecError) -> CGPoint? {
        guard var p = try o.object(key) else { return nil }
        let point = CGPoint(x: try p.number("x") ?? 0, y: try p.number("y") ?? 0)
        try p.finish()
        return point
    }

    static func strings(_ o: inout SpecObject, _ key: String, oneOf allowed: [String]) throws(SpecError) -> [String] {
        guard let value = o.value(key) else { return [] }
        guard value.kind == .array else { throw SpecError(path: o.childPath(key), message: "expected an array of strings, found \(value.typeName)") }
        var result: [String] = []
        for (i, element) in value.elements.enumerated() {
            guard let s = element.string, allowed.contains(s) else {
                throw SpecError(
                    path: "\(o.childPath(key))[\(i)]",
                    message: "expected one of: " + allowed.map { "\"\($0)\"" }.joined(separator: ", "))
            }
            result.append(s)
        }
        return result
    }

    // MARK: Building

    func makeLayout(sections: [LayoutSpec.SectionSpec]) -> CollectionViewLayout {
        let configuration = CollectionViewCompositionalLayoutConfiguration()
        configuration.scrollDirection = scrollDirection
        configuration.interSectionSpacing = interSectionSpacing
        configuration.boundarySupplementaryItems = boundarySupplementaryItems.map(\.value)
        let fallback = section
        let own = sections.map(\.compositional)
        return CollectionViewCompositionalLayout(
            sectionProvider: { index, environment in
                let description = (own.indices.contains(index) ? own[index] : nil) ?? fallback
                return description?.make(environment)
            }, configuration: configuration)
    }
}

extension CompositionalSpec.SectionDescription {
    func make(_ environment: CollectionLayoutEnvironment) -> CollectionLayoutSection {
        let section: CollectionLayoutSection
        if let list {
            var configuration = CollectionLayoutListConfiguration(appearance: list.appearance)
            configuration.headerMode = list.headerMode
            configuration.footerMode = list.footerMode
            section = .list(using: configuration, layoutEnvironment: environment)
        } else {
            section = CollectionLayoutSection(group: group!.make())
            section.contentInsets = contentInsets
        }
        section.interGroupSpacing = interGroupSpacing
        section.orthogonalScrollingBehavior = orthogonalScrollingBehavior
        section.boundarySupplementaryItems += boundarySupplementaryItems.map(\.value)
        section.supplementariesFollowContentInsets = supplementariesFollowContentInsets
        section.decorationItems = decorationItems.map { d in
            let item = CollectionLayoutDecorationItem.background(elementKind: d.elementKind)
            item.contentInsets = d.contentInsets
            if let z = d.zIndex { item.zIndex = z }
            return item
        }
        return section
    }
}

extension CompositionalSpec.SupplementarySpec {
    var value: CollectionLayoutSupplementaryItem {
        let anchor =
            fractional
            ? CollectionLayoutAnchor(edges: edges, fractionalOffset: offset)
            : CollectionLayoutAnchor(edges: edges, absoluteOffset: offset)
        let item = CollectionLayoutSupplementaryItem(layoutSize: size.value, elementKind: elementKind, containerAnchor: anchor)
        if let zIndex { item.zIndex = zIndex }
        return item
    }
}

extension CompositionalSpec.GroupSpec {
    func make() -> CollectionLayoutGroup {
        let group: CollectionLayoutGroup
        switch kind {
        case .custom:
            let items = zip(frames, zIndexes).map { CollectionLayoutGroupCustomItem(frame: $0, zIndex: $1) }
            group = .custom(layoutSize: size.value) { _ in items }
        case .horizontal, .vertical:
            let subitems: [CollectionLayoutItem] = self.subitems.map { subitem in
                switch subitem {
                case .group(let g): return g.make()
                case .item(let i): return i.make()
                }
            }
            let layoutSize = size.value
            if let count {
                group =
                    kind == .horizontal
                    ? .horizontal(layoutSize: layoutSize, subitem: subitems[0], count: count)
                    : .vertical(layoutSize: layoutSize, subitem: subitems[0], count: count)
            } else if let repeatingCount {
                group =
                    kind == .horizontal
                    ? .horizontal(layoutSize: layoutSize, repeatingSubitem: subitems[0], count: repeatingCount)
                    : .vertical(layoutSize: layoutSize, repeatingSubitem: subitems[0], count: repeatingCount)
            } else {
                group =
                    kind == .horizontal
                    ? .horizontal(layoutSize: layoutSize, subitems: subitems)
                    : .vertical(layoutSize: layoutSize, subitems: subitems)
            }
            group.interItemSpacing = interItemSpacing?.layoutSpacing
        }
        group.contentInsets = contentInsets
        group.supplementaryItems = supplementaryItems.map(\.value)
        return group
    }
}

extension CompositionalSpec.ItemSpec {
    func make() -> CollectionLayoutItem {
        let item = CollectionLayoutItem(layoutSize: size.value, supplementaryItems: supplementaryItems.map(\.value))
        item.contentInsets = contentInsets
        if let e = edgeSpacing {
            item.edgeSpacing = CollectionLayoutEdgeSpacing(
                leading: e[0]?.layoutSpacing, top: e[1]?.layoutSpacing,
                trailing: e[2]?.layoutSpacing, bottom: e[3]?.layoutSpacing)
        }
        return item
    }
}

extension SpecObject {
    /// A string value, or `nil` when the key is absent.
    mutating func string(_ key: String) throws(SpecError) -> String? {
        guard let v = value(key) else { return nil }
        guard let s = v.string else { throw SpecError(path: childPath(key), message: "expected a string, found \(v.typeName)") }
        return s
    }
}
