import Foundation
import TrellisText

/// Layout specs built to break `trellis layout`: for each layout type, specs whose numbers are
/// extremes (±1e308, −0, 0, tiny, negative), whose counts are negative, zero or past the cap,
/// whose compositional groups nest deep and whose fractions sum past 1, whose estimates are 0,
/// whose orthogonal offsets are huge. The same seed gives the same spec. The tests run a few
/// per type; `TrellisBenchmarks fuzz` runs thousands. Every one must end in status 0 or 65.
public enum AdversarialLayoutSpecs {
    public static let types = ["flow", "grid", "waterfall", "justified", "carousel", "circle", "compositional"]

    /// The spec's choices, from a ``SplitMix64`` stream, so that the specs are the same everywhere.
    struct Random {
        var stream: SplitMix64
        init(state: UInt64) { stream = SplitMix64(state: state) }
        mutating func next() -> UInt64 { stream.next() }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }
        mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
        mutating func pick<T>(_ values: [T]) -> T { values[below(values.count)] }
    }

    static let numbers = [
        "0", "-0", "1", "0.5", "3", "44", "100", "320", "-5", "1e-308", "1e308", "-1e308", "1.7976931348623157e308",
        "12.345", "2.5", "1e6",
    ]
    static let counts = ["0", "1", "3", "17", "200", "-1", "1000000000", "2147483648", "1.5", "1e300"]
    static let fractions = ["0", "-0", "0.25", "0.5", "1", "1.5", "2", "-0.5", "1e308", "0.3333333333"]

    /// The spec of `type` for `seed`, as JSON text.
    public static func spec(type: String, seed: UInt64, maximumDepth: Int = 24) -> String {
        var r = Random(state: seed &* 2654435761 &+ UInt64(types.firstIndex(of: type) ?? 0))
        // Mostly ordinary numbers, so that specs reach the layout; the rest extremes.
        func number() -> String { r.chance(65) ? r.pick(["1", "3", "8", "44", "100", "320", "0.5", "12.345"]) : r.pick(numbers) }
        func size() -> String { "{\"width\": \(number()), \"height\": \(number())}" }
        // Spacings: ordinary, negative (overlapping; longer than an item), or extreme.
        func spacing() -> String {
            r.chance(50)
                ? r.pick(["0", "1", "8", "12.5"])
                : r.chance(70)
                    ? r.pick(["-1", "-5", "-44", "-100", "-150", "-320", "-1000"])
                    : r.pick(numbers)
        }
        func insets() -> String {
            "{\"top\": \(number()), \"left\": \(number()), \"bottom\": \(number()), \"right\": \(number())}"
        }
        func items() -> String {
            if r.chance(60) { return r.chance(60) ? r.pick(["1", "3", "17", "200"]) : r.pick(counts) }
            let n = r.below(12)
            return "[" + (0..<n).map { _ in r.chance(30) ? number() : size() }.joined(separator: ", ") + "]"
        }
        let view =
            "{\"width\": \(number()), \"height\": \(number())\(r.chance(30) ? ", \"displayScale\": \(number())" : "")"
            + (r.chance(20) ? ", \"contentInset\": \(insets())" : "") + (r.chance(20) ? ", \"layoutDirection\": \"rightToLeft\"" : "") + "}"
        var layout = "\"type\": \"\(type)\""
        var sectionExtras: () -> String = { "" }
        switch type {
        case "flow", "carousel", "circle":
            if type != "carousel", r.chance(50) { layout += ", \"scrollDirection\": \"\(r.pick(["vertical", "horizontal"]))\"" }
            layout += ", \"itemSize\": \(size()), \"minimumLineSpacing\": \(spacing()), \"minimumInteritemSpacing\": \(spacing())"
            if r.chance(50) { layout += ", \"sectionInset\": \(insets()), \"headerReferenceSize\": \(size())" }
            if r.chance(30) { layout += ", \"sectionHeadersPinToVisibleBounds\": true" }
        case "grid":
            layout +=
                r.chance(50)
                ? ", \"columnCount\": \(r.chance(50) ? r.pick(["1", "2", "3", "5"]) : r.pick(counts))"
                : ", \"minimumColumnWidth\": \(number())"
            layout += r.chance(50) ? ", \"itemHeight\": \(number())" : ", \"aspectRatio\": \(number())"
            if r.chance(50) { layout += ", \"interitemSpacing\": \(spacing()), \"lineSpacing\": \(spacing())" }
        case "waterfall":
            layout +=
                ", \"columnCount\": \(r.chance(50) ? r.pick(["1", "2", "3"]) : r.pick(counts)), \"minimumColumnSpacing\": \(spacing()), \"minimumInteritemSpacing\": \(spacing())"
            if r.chance(50) { layout += ", \"sectionInset\": \(insets()), \"headerHeight\": \(number())" }
            sectionExtras = { r.chance(30) ? ", \"columnCount\": \(r.pick(counts))" : "" }
        case "justified":
            layout += ", \"targetRowHeight\": \(number()), \"boxSpacing\": \(spacing()), \"containerPadding\": \(number())"
        default:
            layout += r.chance(50) ? ", \"interSectionSpacing\": \(spacing())" : ""
            sectionExtras = {
                var section = ", \"section\": {\"group\": \(group(&r, depth: 0, maximumDepth: maximumDepth))"
                if r.chance(40) {
                    section += ", \"orthogonalScrollingBehavior\": \"\(r.pick(["continuous", "paging", "groupPaging", "groupPagingCentered", "none"]))\""
                }
                if r.chance(40) { section += ", \"interGroupSpacing\": \(spacing())" }
                if r.chance(25) {
                    section +=
                        ", \"contentInsets\": {\"top\": \(spacing()), \"leading\": \(spacing()), \"bottom\": \(spacing()), "
                        + "\"trailing\": \(spacing())}"
                }
                section += "}"
                if r.chance(30) { section += ", \"orthogonalOffset\": \(r.pick(numbers))" }
                return section
            }
        }
        let sectionCount = r.below(4)
        let sections = (0..<sectionCount).map { _ in "{\"items\": \(items())\(sectionExtras())}" }
        var spec = "{\"collectionView\": \(view), \"layout\": {\(layout)}, \"sections\": [\(sections.joined(separator: ", "))]"
        if r.chance(30) { spec += ", \"contentOffset\": {\"x\": \(number()), \"y\": \(number())}" }
        return spec + "}"
    }

    /// A compositional group: nested up to `maximumDepth`, with fractions that may sum past 1
    /// and estimated sizes that may be 0.
    static func group(_ r: inout Random, depth: Int, maximumDepth: Int) -> String {
        func dimension() -> String {
            switch r.below(4) {
            case 0: return "{\"fractionalWidth\": \(r.pick(fractions))}"
            case 1: return "{\"fractionalHeight\": \(r.pick(fractions))}"
            case 2: return "{\"absolute\": \(r.pick(numbers))}"
            default: return "{\"estimated\": \(r.pick(["0", "-0", "1", "44", "1e308"]))}"
            }
        }
        let size = "{\"width\": \(dimension()), \"height\": \(dimension())}"
        // Wide near the top, then a deep chain: nesting depth without an explosion of nodes.
        let nested = depth < maximumDepth && r.chance(depth < 3 ? 70 : 85)
        let subitems = (0..<(depth < 2 ? 1 + r.below(3) : 1)).map { _ in
            nested ? group(&r, depth: depth + 1, maximumDepth: maximumDepth) : "{\"size\": {\"width\": \(dimension()), \"height\": \(dimension())}}"
        }
        var text = "{\"kind\": \"\(r.pick(["horizontal", "vertical"]))\", \"size\": \(size), \"subitems\": [\(subitems.joined(separator: ", "))]"
        if r.chance(30) { text += ", \"count\": \(r.pick(["0", "1", "2", "3", "-1", "1.5", "1000000000"]))" }
        if r.chance(30) {
            let value = r.pick(["0", "4", "-1", "-20", "-300", "1e308", "-1e308"])
            text += ", \"interItemSpacing\": {\"\(r.chance(70) ? "fixed" : "flexible")\": \(value)}"
        }
        return text + "}"
    }
}
