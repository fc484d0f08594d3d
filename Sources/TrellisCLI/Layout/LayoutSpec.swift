import Foundation
import TrellisCollectionView
import TrellisLayouts
import TrellisRender
import TrellisText

/// A layout spec as `trellis layout` reads it: the collection view, the layout and the sections.
/// The format is documented in `Documentation/CommandLine.md` and `Documentation/layout-spec.schema.json`.
public struct LayoutSpec: Equatable, Sendable {
    /// The collection view the layout is computed for.
    public struct CollectionViewSpec: Equatable, Sendable {
        public var width: CGFloat
        public var height: CGFloat
        public var displayScale: CGFloat = 2
        public var contentInset: EdgeInsets = .zero
        /// The view's direction: right to left mirrors the layouts that ask for it (flow,
        /// compositional), as a right-to-left interface shows them.
        public var layoutDirection: UserInterfaceLayoutDirection = .leftToRight
    }

    /// The layout's type and properties.
    public struct FlowSpec: Equatable, Sendable {
        /// `flow` (the default), `circle` (items on a circle, `itemSize.width` wide) or
        /// `carousel` (a horizontal row that comes to rest with an item centred).
        public var type: String = "flow"
        public var scrollDirection: CollectionView.ScrollDirection = .vertical
        public var itemSize = CGSize(width: 50, height: 50)
        public var minimumLineSpacing: CGFloat = 10
        public var minimumInteritemSpacing: CGFloat = 10
        public var sectionInset: EdgeInsets = .zero
        public var headerReferenceSize: CGSize = .zero
        public var footerReferenceSize: CGSize = .zero
        /// UIKit's `sectionHeadersPinToVisibleBounds` and `sectionFootersPinToVisibleBounds`.
        public var sectionHeadersPinToVisibleBounds = false
        public var sectionFootersPinToVisibleBounds = false
    }

    /// One section: its items and any per-section overrides (which ones depends on the layout).
    public struct SectionSpec: Equatable, Sendable {
        /// `nil` sizes: `count` items of the layout's `itemSize`.
        public var count: Int
        public var sizes: [CGSize]?
        public var sectionInset: EdgeInsets?
        public var minimumLineSpacing: CGFloat?
        public var minimumInteritemSpacing: CGFloat?
        public var headerReferenceSize: CGSize?
        public var footerReferenceSize: CGSize?
        /// Waterfall: the section's column count, column spacing, header and footer insets, and
        /// the items that span every column.
        public var columnCount: Int?
        public var minimumColumnSpacing: CGFloat?
        public var headerInset: EdgeInsets?
        public var footerInset: EdgeInsets?
        public var fullSpanItems: Set<Int> = []
        /// Waterfall and justified: the section's header and footer heights.
        public var headerHeight: CGFloat?
        public var footerHeight: CGFloat?
        /// Compositional: the section's own arrangement, and where its orthogonal scrolling is.
        public var compositional: CompositionalSpec.SectionDescription?
        public var orthogonalOffset: CGFloat?
    }

    public var collectionView: CollectionViewSpec
    /// The layout: its type and properties.
    public var layout: LayoutOptions
    public var sections: [SectionSpec]
    /// Where the viewport is scrolled to, if anywhere.
    public var contentOffset: CGPoint?
    /// One batch of updates to apply, if any: the output then also lists the transitions.
    public var updates: BatchUpdate?

    /// The most items a spec may hold, so that a typo cannot exhaust memory. An empty section
    /// counts as one item: sections cost memory too.
    public static let maximumItems = 10_000_000

    /// Parses and validates a spec. Errors name the JSON path and the fix.
    public static func parse(_ data: Data) throws(SpecError) -> LayoutSpec {
        try parse(data, maximumItems: maximumItems)
    }

    /// ``parse(_:)`` with another cap (the tests check the rule on small numbers).
    static func parse(_ data: Data, maximumItems: Int) throws(SpecError) -> LayoutSpec {
        let bytes = [UInt8](data)
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw SpecError(path: "$", message: "the file is not valid UTF-8 text")
        }
        let document: JSONDocument
        do { document = try JSONDocument(bytes) } catch {
            throw SpecError(path: "line \(error.line), column \(error.column)", message: "invalid JSON: \(error.message)")
        }
        var root = try SpecObject(document.root, path: "$")
        // An editor's pointer to the schema; any string, and otherwise ignored.
        if let schema = root.value("$schema"), schema.string == nil {
            throw SpecError(path: "$.$schema", message: "expected the schema's address as a string, found \(schema.typeName)")
        }
        guard var cv = try root.object("collectionView") else {
            throw SpecError(path: "$", message: "missing required key \"collectionView\"")
        }
        let collectionView = try parseCollectionView(&cv)
        let layout =
            try root.object("layout").map { (o: SpecObject) throws(SpecError) -> LayoutOptions in
                var o = o
                return try LayoutOptions.parse(&o)
            } ?? .flow(FlowSpec())
        var sections: [SectionSpec] = []
        if let value = root.value("sections") {
            guard value.kind == .array else {
                throw SpecError(path: "$.sections", message: "expected an array of sections, found \(value.typeName)")
            }
            var total = 0
            for (index, element) in value.elements.enumerated() {
                var o = try SpecObject(element, path: "$.sections[\(index)]")
                let section = try parseSection(&o, layout: layout)
                total += max(section.count, 1)
                if total > maximumItems {
                    throw SpecError(
                        path: "$.sections[\(index)]",
                        message: "the spec holds more than \(maximumItems) items (an empty section counts as one); "
                            + "split it or lower the counts")
                }
                sections.append(section)
            }
        }
        var contentOffset: CGPoint?
        if var offset = try root.object("contentOffset") {
            contentOffset = CGPoint(x: try offset.number("x") ?? 0, y: try offset.number("y") ?? 0)
            try offset.finish()
        }
        let updates = try root.value("updates").map { (value: SpecObject.Value) throws(SpecError) -> BatchUpdate in
            try parseUpdates(value, path: "$.updates")
        }
        try root.finish()
        if case .flow(let flow) = layout, flow.type == "circle", sections.count > 1 {
            throw SpecError(path: "$.sections", message: "a circle layout shows one section; found \(sections.count)")
        }
        return LayoutSpec(
            collectionView: collectionView, layout: layout, sections: sections,
            contentOffset: contentOffset, updates: updates)
    }

    private static func parseCollectionView(_ o: inout SpecObject) throws(SpecError) -> CollectionViewSpec {
        let width = try o.number("width", .nonNegative)
        let height = try o.number("height", .nonNegative)
        var spec = CollectionViewSpec(width: width ?? 0, height: height ?? 0)
        if let scale = try o.number("displayScale", .nonNegative) { spec.displayScale = scale }
        if let inset = try insets(&o, "contentInset") { spec.contentInset = inset }
        if let direction = try o.string("layoutDirection", oneOf: ["leftToRight", "rightToLeft"]) {
            spec.layoutDirection = direction == "rightToLeft" ? .rightToLeft : .leftToRight
        }
        try o.finish(required: ["width", "height"])
        return spec
    }

    static func parseFlow(_ o: inout SpecObject, type: String) throws(SpecError) -> FlowSpec {
        var spec = FlowSpec()
        spec.type = type
        if let direction = try o.string("scrollDirection", oneOf: CollectionView.ScrollDirection.allCases.map(\.name)) {
            spec.scrollDirection = direction == "horizontal" ? .horizontal : .vertical
        }
        if let size = try o.size("itemSize") { spec.itemSize = size }
        if let v = try o.number("minimumLineSpacing") { spec.minimumLineSpacing = v }
        if let v = try o.number("minimumInteritemSpacing") { spec.minimumInteritemSpacing = v }
        if let inset = try insets(&o, "sectionInset") { spec.sectionInset = inset }
        if let size = try o.size("headerReferenceSize") { spec.headerReferenceSize = size }
        if let size = try o.size("footerReferenceSize") { spec.footerReferenceSize = size }
        if let v = try o.bool("sectionHeadersPinToVisibleBounds") { spec.sectionHeadersPinToVisibleBounds = v }
        if let v = try o.bool("sectionFootersPinToVisibleBounds") { spec.sectionFootersPinToVisibleBounds = v }
        if type == "carousel" {
            if spec.scrollDirection == .vertical, o.value("scrollDirection") != nil {
                throw SpecError(path: o.childPath("scrollDirection"), message: "a carousel scrolls horizontally; leave scrollDirection out")
            }
            spec.scrollDirection = .horizontal
        }
        try o.finish()
        return spec
    }

    private static func parseSection(_ o: inout SpecObject, layout: LayoutOptions) throws(SpecError) -> SectionSpec {
        var section = SectionSpec(count: 0)
        guard let items = o.value("items") else {
            throw SpecError(path: o.path, message: "missing required key \"items\" (a count, or a list of sizes)")
        }
        switch items.kind {
        case .number:
            let n = try SpecObject.number(items, path: o.childPath("items"), .nonNegativeInteger)
            guard n <= Double(maximumItems) else {
                throw SpecError(path: o.childPath("items"), message: "more than \(maximumItems) items")
            }
            section.count = Int(n)
        case .array:
            guard items.count <= maximumItems else {
                throw SpecError(path: o.childPath("items"), message: "more than \(maximumItems) items")
            }
            if case .grid = layout {
                throw SpecError(
                    path: o.childPath("items"),
                    message: "expected a count: a grid's cells all have "
                        + "the layout's size, found \(items.typeName)")
            }
            if case .compositional = layout {
                throw SpecError(
                    path: o.childPath("items"),
                    message: "expected a count: a compositional section's "
                        + "groups size its items, found \(items.typeName)")
            }
            let sizes = try itemSizes(
                items, path: o.childPath("items"), layout: layout,
                fullSpan: &section.fullSpanItems)
            section.count = sizes.count
            section.sizes = sizes
        default:
            throw SpecError(
                path: o.childPath("items"),
                message: "expected a count or a list of sizes, found \(items.typeName)")
        }
        switch layout {
        case .flow:
            section.sectionInset = try insets(&o, "sectionInset")
            section.minimumLineSpacing = try o.number("minimumLineSpacing").map { CGFloat($0) }
            section.minimumInteritemSpacing = try o.number("minimumInteritemSpacing").map { CGFloat($0) }
            section.headerReferenceSize = try o.size("headerReferenceSize")
            section.footerReferenceSize = try o.size("footerReferenceSize")
        case .waterfall:
            section.columnCount = try o.number("columnCount", .nonNegativeInteger).map { Int($0) }
            if let n = section.columnCount, !(1...WaterfallSectionMetrics.maximumColumnCount).contains(n) {
                throw SpecError(
                    path: o.childPath("columnCount"),
                    message: "expected 1 to "
                        + "\(WaterfallSectionMetrics.maximumColumnCount) columns, found \(n)")
            }
            section.sectionInset = try insets(&o, "sectionInset")
            section.minimumColumnSpacing = try o.number("minimumColumnSpacing").map { CGFloat($0) }
            section.minimumInteritemSpacing = try o.number("minimumInteritemSpacing").map { CGFloat($0) }
            section.headerHeight = try o.number("headerHeight", .nonNegative).map { CGFloat($0) }
            section.footerHeight = try o.number("footerHeight", .nonNegative).map { CGFloat($0) }
            section.headerInset = try insets(&o, "headerInset")
            section.footerInset = try insets(&o, "footerInset")
        case .justified:
            section.headerHeight = try o.number("headerHeight", .nonNegative).map { CGFloat($0) }
            section.footerHeight = try o.number("footerHeight", .nonNegative).map { CGFloat($0) }
        case .grid:
            break
        case .compositional(let spec):
            if var own = try o.object("section") { section.compositional = try CompositionalSpec.parseSection(&own) }
            section.orthogonalOffset = try o.number("orthogonalOffset").map { CGFloat($0) }
            if section.compositional == nil, spec.section == nil {
                throw SpecError(
                    path: o.path,
                    message: "missing required key \"section\" (or give the layout a \"section\" "
                        + "for every section)")
            }
        }
        try o.finish()
        return section
    }

    /// A list of `{"width": w, "height": h}`: read directly where every size is two plain
    /// numbers in range (the million-item case), through ``SpecObject`` for the first one that is
    /// not, so that its error names the place.
    private static func itemSizes(
        _ list: SpecObject.Value, path: String, layout: LayoutOptions,
        fullSpan: inout Set<Int>
    ) throws(SpecError) -> [CGSize] {
        var isWaterfall = false, isJustified = false
        if case .waterfall = layout { isWaterfall = true }
        if case .justified = layout { isJustified = true }
        var sizes: [CGSize] = []
        sizes.reserveCapacity(list.count)
        for (index, element) in list.elements.enumerated() {
            if element.kind == .object, element.count == 2 {
                var width: Double?, height: Double?
                for member in element.members {
                    if member.keyValue.isString("width") {
                        width = member.value.number
                    } else if member.keyValue.isString("height") {
                        height = member.value.number
                    }
                }
                if let width, let height, width >= 0, height >= 0,
                    width <= SpecObject.maximumMagnitude, height <= SpecObject.maximumMagnitude
                {
                    sizes.append(CGSize(width: width, height: height))
                    continue
                }
            }
            let here = "\(path)[\(index)]"
            if isJustified, element.kind == .number {
                // Flickr's input: an aspect ratio (width / height) alone.
                let ratio = try SpecObject.number(element, path: here, .positive)
                sizes.append(CGSize(width: ratio, height: 1))
                continue
            }
            var s = try SpecObject(element, path: here)
            let width = try s.number("width", .nonNegative), height = try s.number("height", .nonNegative)
            if isWaterfall, let spans = s.value("fullSpan") {
                guard let spans = spans.bool else {
                    throw SpecError(path: "\(here).fullSpan", message: "expected true or false, found \(spans.typeName)")
                }
                if spans { fullSpan.insert(index) }
            }
            try s.finish(required: ["width", "height"])
            sizes.append(CGSize(width: width!, height: height!))
        }
        return sizes
    }

    /// `"updates"`: a list of operations, each an object with one key — `insertItems`,
    /// `deleteItems`, `reloadItems` (lists of `[section, item]`), `insertSections`,
    /// `deleteSections`, `reloadSections` (lists of sections), `moveItem` (`{"from": [s, i],
    /// "to": [s, i]}`) or `moveSection` (`{"from": s, "to": s}`) — applied as one batch.
    private static func parseUpdates(_ value: SpecObject.Value, path: String) throws(SpecError) -> BatchUpdate {
        guard value.kind == .array else {
            throw SpecError(path: path, message: "expected a list of update operations, found \(value.typeName)")
        }
        var batch = BatchUpdate()
        let kinds = [
            "insertItems", "deleteItems", "reloadItems", "moveItem", "insertSections", "deleteSections",
            "reloadSections", "moveSection",
        ]
        for (index, element) in value.elements.enumerated() {
            let here = "\(path)[\(index)]"
            guard element.kind == .object, element.count == 1, let member = element.members.first(where: { _ in true }) else {
                throw SpecError(path: here, message: "expected an object with exactly one of: \(kinds.joined(separator: ", "))")
            }
            let (key, operand) = (member.key, member.value)
            let at = "\(here).\(key)"
            switch key {
            case "insertItems": batch.insertItems(at: try indexPaths(operand, path: at))
            case "deleteItems": batch.deleteItems(at: try indexPaths(operand, path: at))
            case "reloadItems": batch.reloadItems(at: try indexPaths(operand, path: at))
            case "insertSections": batch.insertSections(IndexSet(try sectionList(operand, path: at)))
            case "deleteSections": batch.deleteSections(IndexSet(try sectionList(operand, path: at)))
            case "reloadSections": batch.reloadSections(IndexSet(try sectionList(operand, path: at)))
            case "moveItem":
                var o = try SpecObject(operand, path: at)
                guard let from = o.value("from"), let to = o.value("to") else {
                    throw SpecError(path: at, message: "expected {\"from\": [section, item], \"to\": [section, item]}")
                }
                let source = try indexPath(from, path: "\(at).from"), target = try indexPath(to, path: "\(at).to")
                try o.finish()
                batch.moveItem(at: source, to: target)
            case "moveSection":
                var o = try SpecObject(operand, path: at)
                let from = try o.number("from", .nonNegativeInteger), to = try o.number("to", .nonNegativeInteger)
                try o.finish(required: ["from", "to"])
                batch.moveSection(Int(from!), toSection: Int(to!))
            default:
                var message = "unknown update \"\(key)\""
                if let guess = closest(key, in: kinds) {
                    message += "; did you mean \"\(guess)\"?"
                } else {
                    message += "; expected one of: \(kinds.joined(separator: ", "))"
                }
                throw SpecError(path: at, message: message)
            }
        }
        return batch
    }

    private static func indexPath(_ value: SpecObject.Value, path: String) throws(SpecError) -> IndexPath {
        guard value.kind == .array, value.count == 2 else {
            throw SpecError(path: path, message: "expected an index path [section, item], found \(value.typeName)")
        }
        let pair = Array(value.elements)
        let section = try SpecObject.number(pair[0], path: "\(path)[0]", .nonNegativeInteger)
        let item = try SpecObject.number(pair[1], path: "\(path)[1]", .nonNegativeInteger)
        return IndexPath(item: Int(item), section: Int(section))
    }

    private static func indexPaths(_ value: SpecObject.Value, path: String) throws(SpecError) -> [IndexPath] {
        guard value.kind == .array else {
            throw SpecError(path: path, message: "expected a list of index paths [[section, item], …], found \(value.typeName)")
        }
        var result: [IndexPath] = []
        for (i, element) in value.elements.enumerated() { result.append(try indexPath(element, path: "\(path)[\(i)]")) }
        return result
    }

    private static func sectionList(_ value: SpecObject.Value, path: String) throws(SpecError) -> [Int] {
        guard value.kind == .array else {
            throw SpecError(path: path, message: "expected a list of sections, found \(value.typeName)")
        }
        var result: [Int] = []
        for (i, element) in value.elements.enumerated() {
            result.append(Int(try SpecObject.number(element, path: "\(path)[\(i)]", .nonNegativeInteger)))
        }
        return result
    }

    static func insets(_ o: inout SpecObject, _ key: String) throws(SpecError) -> EdgeInsets? {
        guard var i = try o.object(key) else { return nil }
        let inset = EdgeInsets(
            top: try i.number("top") ?? 0, left: try i.number("left") ?? 0,
            bottom: try i.number("bottom") ?? 0, right: try i.number("right") ?? 0)
        try i.finish()
        return inset
    }
}

/// A flow delegate that answers every question with the protocol's defaults.
final class FlowDelegateDefaults: NSObject, CollectionViewDelegateFlowLayout {}

/// The spec's data: answers the flow layout's delegate questions from the per-section values,
/// and (in `LayoutRun`) a collection view's data source questions.
final class SpecModel: CollectionViewDelegateFlowLayout {
    var sections: [LayoutSpec.SectionSpec]

    init(sections: [LayoutSpec.SectionSpec]) { self.sections = sections }

    /// What the library's flow delegate answers for what the spec leaves out: the layout's own
    /// property, or UIKit's default. The defaults are stated once, in the library.
    private let defaults = FlowDelegateDefaults()

    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        sizesForItemsInSection section: Int
    ) -> [CGSize]? {
        sections.indices.contains(section) ? sections[section].sizes : nil
    }

    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        insetForSectionAt section: Int
    ) -> EdgeInsets {
        section >= sections.count
            ? .zero
            : sections[section].sectionInset
                ?? defaults.collectionView(collectionView, layout: collectionViewLayout, insetForSectionAt: section)
    }

    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        minimumLineSpacingForSectionAt section: Int
    ) -> CGFloat {
        section >= sections.count
            ? 0
            : sections[section].minimumLineSpacing
                ?? defaults.collectionView(collectionView, layout: collectionViewLayout, minimumLineSpacingForSectionAt: section)
    }

    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        minimumInteritemSpacingForSectionAt section: Int
    ) -> CGFloat {
        section >= sections.count
            ? 0
            : sections[section].minimumInteritemSpacing
                ?? defaults.collectionView(collectionView, layout: collectionViewLayout, minimumInteritemSpacingForSectionAt: section)
    }

    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        referenceSizeForHeaderInSection section: Int
    ) -> CGSize {
        section >= sections.count
            ? .zero
            : sections[section].headerReferenceSize
                ?? defaults.collectionView(collectionView, layout: collectionViewLayout, referenceSizeForHeaderInSection: section)
    }

    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        referenceSizeForFooterInSection section: Int
    ) -> CGSize {
        section >= sections.count
            ? .zero
            : sections[section].footerReferenceSize
                ?? defaults.collectionView(collectionView, layout: collectionViewLayout, referenceSizeForFooterInSection: section)
    }
}
