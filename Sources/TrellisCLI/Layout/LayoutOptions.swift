import Foundation
import TrellisCollectionView
import TrellisLayouts
import TrellisRender
import TrellisText

/// The `"layout"` of a spec: which layout, with its properties. Each type has its own keys;
/// `Documentation/layout-spec.schema.json` lists them.
public enum LayoutOptions: Equatable, Sendable {
    /// `"flow"` (the default), `"circle"` or `"carousel"`.
    case flow(LayoutSpec.FlowSpec)
    /// `"grid"`: ``GridLayout``.
    case grid(GridSpec)
    /// `"waterfall"`: ``WaterfallLayout``.
    case waterfall(WaterfallSpec)
    /// `"justified"`: ``JustifiedLayout``.
    case justified(JustifiedSpec)
    /// `"compositional"`: ``CollectionViewCompositionalLayout``.
    case compositional(CompositionalSpec)

    /// The properties of a grid.
    public struct GridSpec: Equatable, Sendable {
        public var scrollDirection = CollectionView.ScrollDirection.vertical
        public var columns = GridLayout.ColumnRule.count(3)
        public var itemHeight = GridLayout.ItemHeight.aspectRatio(1)
        public var interitemSpacing: CGFloat = 10
        public var lineSpacing: CGFloat = 10
        public var sectionInset = EdgeInsets.zero
        public var headerHeight: CGFloat = 0
        public var footerHeight: CGFloat = 0
    }

    /// The properties of a waterfall, CHT's names and defaults.
    public struct WaterfallSpec: Equatable, Sendable {
        /// The size of the items of a section given as a count (and of inserted items).
        public var itemSize = CGSize(width: 50, height: 50)
        public var columnCount = 2
        public var minimumColumnSpacing: CGFloat = 10
        public var minimumInteritemSpacing: CGFloat = 10
        public var headerHeight: CGFloat = 0
        public var footerHeight: CGFloat = 0
        public var headerInset = EdgeInsets.zero
        public var footerInset = EdgeInsets.zero
        public var sectionInset = EdgeInsets.zero
        public var itemRenderDirection = WaterfallItemRenderDirection.shortestFirst
        public var minimumContentHeight: CGFloat = 0
    }

    /// The properties of justified rows: Flickr's options under its names.
    public struct JustifiedSpec: Equatable, Sendable {
        /// The size of the items of a section given as a count (and of inserted items).
        public var itemSize = CGSize(width: 50, height: 50)
        public var configuration = JustifiedLayoutConfiguration()
        public var headerHeight: CGFloat = 0
        public var footerHeight: CGFloat = 0
        public var snapsToPixels = false
    }

    /// Every `"type"`.
    public static let typeNames = ["flow", "circle", "carousel", "grid", "waterfall", "justified", "compositional"]

    /// The `"type"` of these options.
    public var typeName: String {
        switch self {
        case .flow(let flow): flow.type
        case .grid: "grid"
        case .waterfall: "waterfall"
        case .justified: "justified"
        case .compositional: "compositional"
        }
    }

    /// The size of items given by a count and of items an update inserts.
    var defaultItemSize: CGSize {
        switch self {
        case .flow(let flow): flow.itemSize
        case .grid: CGSize(width: 1, height: 1)
        case .waterfall(let w): w.itemSize
        case .justified(let j): j.itemSize
        case .compositional: CGSize(width: 1, height: 1)
        }
    }

    /// Reads `"layout"`: its `"type"` first, then that type's keys.
    static func parse(_ o: inout SpecObject) throws(SpecError) -> LayoutOptions {
        let type = try o.string("type", oneOf: typeNames) ?? "flow"
        let options: LayoutOptions
        switch type {
        case "grid": options = .grid(try parseGrid(&o))
        case "waterfall": options = .waterfall(try parseWaterfall(&o))
        case "justified": options = .justified(try parseJustified(&o))
        case "compositional": options = .compositional(try CompositionalSpec.parse(&o))
        default: options = .flow(try LayoutSpec.parseFlow(&o, type: type))
        }
        return options
    }

    private static func direction(_ o: inout SpecObject) throws(SpecError) -> CollectionView.ScrollDirection? {
        try o.string("scrollDirection", oneOf: CollectionView.ScrollDirection.allCases.map(\.name)).map {
            $0 == "horizontal" ? .horizontal : .vertical
        }
    }

    private static func parseGrid(_ o: inout SpecObject) throws(SpecError) -> GridSpec {
        var spec = GridSpec()
        if let d = try direction(&o) { spec.scrollDirection = d }
        let count = try o.number("columnCount", .nonNegativeInteger)
        let minimum = try o.number("minimumColumnWidth", .positive)
        switch (count, minimum) {
        case (let n?, nil):
            guard n >= 1, n <= 10_000 else {
                throw SpecError(path: o.childPath("columnCount"), message: "expected 1 to 10000 columns, found \(JSONValue.format(n))")
            }
            spec.columns = .count(Int(n))
        case (nil, let w?): spec.columns = .minimumWidth(w)
        case (nil, nil): break
        case (_?, _?):
            throw SpecError(path: o.path, message: "give \"columnCount\" or \"minimumColumnWidth\", not both")
        }
        let ratio = try o.number("aspectRatio", .positive), height = try o.number("itemHeight", .nonNegative)
        switch (ratio, height) {
        case (let r?, nil): spec.itemHeight = .aspectRatio(r)
        case (nil, let h?): spec.itemHeight = .fixed(h)
        case (nil, nil): break
        case (_?, _?): throw SpecError(path: o.path, message: "give \"aspectRatio\" or \"itemHeight\", not both")
        }
        if let v = try o.number("interitemSpacing", .nonNegative) { spec.interitemSpacing = v }
        if let v = try o.number("lineSpacing", .nonNegative) { spec.lineSpacing = v }
        if let inset = try nonNegativeInsets(&o, "sectionInset") { spec.sectionInset = inset }
        if let v = try o.number("headerHeight", .nonNegative) { spec.headerHeight = v }
        if let v = try o.number("footerHeight", .nonNegative) { spec.footerHeight = v }
        try o.finish()
        return spec
    }

    private static func parseWaterfall(_ o: inout SpecObject) throws(SpecError) -> WaterfallSpec {
        var spec = WaterfallSpec()
        if let size = try o.size("itemSize") { spec.itemSize = size }
        if let n = try o.number("columnCount", .nonNegativeInteger) {
            guard n >= 1, n <= Double(WaterfallSectionMetrics.maximumColumnCount) else {
                throw SpecError(
                    path: o.childPath("columnCount"),
                    message: "expected 1 to "
                        + "\(WaterfallSectionMetrics.maximumColumnCount) columns, found \(JSONValue.format(n))")
            }
            spec.columnCount = Int(n)
        }
        if let v = try o.number("minimumColumnSpacing") { spec.minimumColumnSpacing = v }
        if let v = try o.number("minimumInteritemSpacing") { spec.minimumInteritemSpacing = v }
        if let v = try o.number("headerHeight", .nonNegative) { spec.headerHeight = v }
        if let v = try o.number("footerHeight", .nonNegative) { spec.footerHeight = v }
        if let v = try LayoutSpec.insets(&o, "headerInset") { spec.headerInset = v }
        if let v = try LayoutSpec.insets(&o, "footerInset") { spec.footerInset = v }
        if let v = try LayoutSpec.insets(&o, "sectionInset") { spec.sectionInset = v }
        if let v = try o.string("itemRenderDirection", oneOf: ["shortestFirst", "leftToRight", "rightToLeft"]) {
            spec.itemRenderDirection = v == "leftToRight" ? .leftToRight : v == "rightToLeft" ? .rightToLeft : .shortestFirst
        }
        if let v = try o.number("minimumContentHeight", .nonNegative) { spec.minimumContentHeight = v }
        try o.finish()
        return spec
    }

    private static func parseJustified(_ o: inout SpecObject) throws(SpecError) -> JustifiedSpec {
        var spec = JustifiedSpec()
        if o.value("containerWidth") != nil {
            throw SpecError(
                path: o.childPath("containerWidth"),
                message: "the container is the collection view: "
                    + "set \"collectionView.width\" (less its \"contentInset\") instead")
        }
        if let size = try o.size("itemSize") { spec.itemSize = size }
        if let padding = o.value("containerPadding") {
            let path = o.childPath("containerPadding")
            if padding.kind == .number {
                let v = try SpecObject.number(padding, path: path, .finite)
                spec.configuration.containerPadding = EdgeInsets(top: v, left: v, bottom: v, right: v)
            } else if let inset = try LayoutSpec.insets(&o, "containerPadding") {
                spec.configuration.containerPadding = inset
            }
        }
        if let spacing = o.value("boxSpacing") {
            let path = o.childPath("boxSpacing")
            if spacing.kind == .number {
                spec.configuration.boxSpacing = .init(try SpecObject.number(spacing, path: path, .finite))
            } else {
                var s = try SpecObject(spacing, path: path)
                spec.configuration.boxSpacing = .init(
                    horizontal: try s.number("horizontal") ?? 0,
                    vertical: try s.number("vertical") ?? 0)
                try s.finish()
            }
        }
        if let v = try o.number("targetRowHeight", .positive) { spec.configuration.targetRowHeight = v }
        if let v = try o.number("targetRowHeightTolerance", .nonNegative) { spec.configuration.targetRowHeightTolerance = v }
        if let v = try o.number("maxNumRows", .nonNegativeInteger) {
            guard v >= 1 else { throw SpecError(path: o.childPath("maxNumRows"), message: "expected at least 1 row, found 0") }
            spec.configuration.maxNumRows = Int(v)
        }
        if let v = o.value("forceAspectRatio"), v.bool != false {
            spec.configuration.forceAspectRatio = try SpecObject.number(v, path: o.childPath("forceAspectRatio"), .positive)
        }
        if let v = try o.bool("showWidows") { spec.configuration.showWidows = v }
        if let v = o.value("fullWidthBreakoutRowCadence"), v.bool != false {
            let n = try SpecObject.number(v, path: o.childPath("fullWidthBreakoutRowCadence"), .nonNegativeInteger)
            guard n >= 1 else {
                throw SpecError(path: o.childPath("fullWidthBreakoutRowCadence"), message: "expected at least 1 (every row), or false")
            }
            spec.configuration.fullWidthBreakoutRowCadence = Int(n)
        }
        if let v = try o.string("widowLayoutStyle", oneOf: JustifiedLayoutConfiguration.WidowLayoutStyle.allCases.map(\.rawValue)) {
            spec.configuration.widowLayoutStyle = .init(rawValue: v)!
        }
        if let v = try o.number("headerHeight", .nonNegative) { spec.headerHeight = v }
        if let v = try o.number("footerHeight", .nonNegative) { spec.footerHeight = v }
        if let v = try o.bool("snapsToPixels") { spec.snapsToPixels = v }
        try o.finish()
        return spec
    }

    private static func nonNegativeInsets(_ o: inout SpecObject, _ key: String) throws(SpecError) -> EdgeInsets? {
        guard var i = try o.object(key) else { return nil }
        let inset = EdgeInsets(
            top: try i.number("top", .nonNegative) ?? 0, left: try i.number("left", .nonNegative) ?? 0,
            bottom: try i.number("bottom", .nonNegative) ?? 0,
            right: try i.number("right", .nonNegative) ?? 0)
        try i.finish()
        return inset
    }

    /// The layout these options describe, for `sections`.
    func makeLayout(sections: [LayoutSpec.SectionSpec] = []) -> CollectionViewLayout {
        switch self {
        case .compositional(let spec):
            return spec.makeLayout(sections: sections)
        case .flow(let spec):
            if spec.type == "circle" {
                let circle = CircleLayout()
                circle.itemSize = spec.itemSize.width
                return circle
            }
            // A carousel sets its own section inset (half a viewport less half an item) in prepare().
            let flow =
                spec.type == "carousel"
                ? CarouselLayout(itemSize: spec.itemSize, spacing: spec.minimumLineSpacing)
                : CollectionViewFlowLayout()
            flow.scrollDirection = spec.scrollDirection
            flow.itemSize = spec.itemSize
            flow.minimumLineSpacing = spec.minimumLineSpacing
            flow.minimumInteritemSpacing = spec.minimumInteritemSpacing
            flow.sectionInset = spec.sectionInset
            flow.headerReferenceSize = spec.headerReferenceSize
            flow.footerReferenceSize = spec.footerReferenceSize
            flow.sectionHeadersPinToVisibleBounds = spec.sectionHeadersPinToVisibleBounds
            flow.sectionFootersPinToVisibleBounds = spec.sectionFootersPinToVisibleBounds
            return flow
        case .grid(let spec):
            let grid = GridLayout()
            grid.scrollDirection = spec.scrollDirection
            grid.columns = spec.columns
            grid.itemHeight = spec.itemHeight
            grid.interitemSpacing = spec.interitemSpacing
            grid.lineSpacing = spec.lineSpacing
            grid.sectionInset = spec.sectionInset
            grid.headerHeight = spec.headerHeight
            grid.footerHeight = spec.footerHeight
            return grid
        case .waterfall(let spec):
            let waterfall = WaterfallLayout()
            waterfall.columnCount = spec.columnCount
            waterfall.minimumColumnSpacing = spec.minimumColumnSpacing
            waterfall.minimumInteritemSpacing = spec.minimumInteritemSpacing
            waterfall.headerHeight = spec.headerHeight
            waterfall.footerHeight = spec.footerHeight
            waterfall.headerInset = spec.headerInset
            waterfall.footerInset = spec.footerInset
            waterfall.sectionInset = spec.sectionInset
            waterfall.itemRenderDirection = spec.itemRenderDirection
            waterfall.minimumContentHeight = spec.minimumContentHeight
            return waterfall
        case .justified(let spec):
            let justified = JustifiedLayout()
            justified.configuration = spec.configuration
            justified.headerHeight = spec.headerHeight
            justified.footerHeight = spec.footerHeight
            justified.snapsToPixels = spec.snapsToPixels
            return justified
        }
    }

    /// A phrase for captions: "vertical flow", "waterfall", …
    var caption: String {
        switch self {
        case .flow(let flow):
            flow.type == "circle"
                ? "circle layout"
                : flow.type == "carousel"
                    ? "carousel"
                    : "\(flow.scrollDirection.name) flow"
        case .grid(let grid): "\(grid.scrollDirection.name) grid"
        case .waterfall(let w): "waterfall of \(w.columnCount) columns"
        case .justified: "justified rows"
        case .compositional(let c): "\(c.scrollDirection.name) compositional layout"
        }
    }
}

extension SpecObject {
    /// A boolean value, or `nil` when the key is absent.
    mutating func bool(_ key: String) throws(SpecError) -> Bool? {
        guard let v = value(key) else { return nil }
        guard let b = v.bool else { throw SpecError(path: childPath(key), message: "expected true or false, found \(v.typeName)") }
        return b
    }
}
