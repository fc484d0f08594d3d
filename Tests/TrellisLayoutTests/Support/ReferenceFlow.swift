import TrellisTestSupport

@_spi(Instrumentation) @testable import TrellisCollectionView

/// A deliberately plain implementation of the flow rules (vertical only, no storage tricks, no
/// fast paths, positions from closed formulas instead of running sums): the oracle the real
/// layout is compared with over random inputs.
enum ReferenceFlow {
    struct Output {
        var items: [[CGRect]] = []
        var headers: [CGRect?] = []
        var footers: [CGRect?] = []
        var contentSize = CGSize.zero

        /// Every element in the documented order.
        var elements: [ElementKey] {
            var out: [ElementKey] = []
            for s in items.indices {
                if let h = headers[s] {
                    out.append(
                        ElementKey(
                            category: .supplementaryView, kind: CollectionView.elementKindSectionHeader,
                            section: s, item: 0, frame: h))
                }
                for (i, f) in items[s].enumerated() {
                    out.append(ElementKey(category: .cell, kind: nil, section: s, item: i, frame: f))
                }
                if let f = footers[s] {
                    out.append(
                        ElementKey(
                            category: .supplementaryView, kind: CollectionView.elementKindSectionFooter,
                            section: s, item: 0, frame: f))
                }
            }
            return out
        }
    }

    static func layout(_ c: FlowCase) -> Output {
        let eps: CGFloat = 1e-6
        let snap = { (v: CGFloat) in LayoutGeometry.snapToPixel(v, scale: c.scale) }
        let width = max(0, c.width - c.contentInset.left - c.contentInset.right)
        var out = Output()
        var y: CGFloat = 0
        for section in c.sections {
            let inset = section.inset ?? c.inset
            let s = section.interitemSpacing ?? c.interitemSpacing
            let lineSpacing = section.lineSpacing ?? c.lineSpacing
            let header = (section.header ?? c.header).height
            let footer = (section.footer ?? c.footer).height
            let sizes = section.sizes ?? Array(repeating: c.itemSize, count: section.count)
            if header > 0 {
                out.headers.append(CGRect(x: 0, y: snap(y), width: width, height: header))
                y += header
            } else {
                out.headers.append(nil)
            }
            y += inset.top
            let available = width - inset.left - inset.right
            var lines: [[Int]] = []
            for i in sizes.indices {
                if var line = lines.last {
                    let used = line.map { sizes[$0].width }.reduce(0, +) + CGFloat(line.count) * s
                    if used + sizes[i].width <= available + eps {
                        line.append(i)
                        lines[lines.count - 1] = line
                        continue
                    }
                }
                lines.append([i])
            }
            var frames = [CGRect](repeating: .zero, count: sizes.count)
            for (index, line) in lines.enumerated() {
                let isLast = index == lines.count - 1
                let lineHeight = line.map { sizes[$0].height }.max()!
                let sum = line.map { sizes[$0].width }.reduce(0, +)
                let first = sizes[line[0]]
                var start = inset.left, gap = s
                if !isLast && line.count == 1 {
                    start = inset.left + (available - first.width) / 2
                } else if !isLast {
                    gap = (available - sum) / CGFloat(line.count - 1)
                } else if line.allSatisfy({ sizes[$0] == first }) {
                    var fit = 1
                    if first.width + s > 0 {
                        while CGFloat(fit + 1) * first.width + CGFloat(fit) * s <= available + eps { fit += 1 }
                    } else {
                        fit = Int.max
                    }
                    if fit == 1 {
                        start = inset.left + (available - first.width) / 2
                    } else if fit != .max {
                        gap = (available - CGFloat(fit) * first.width) / CGFloat(fit - 1)
                    }
                }
                for (k, i) in line.enumerated() {
                    let before = line[..<k].map { sizes[$0].width }.reduce(0, +)
                    let x = start + before + CGFloat(k) * gap
                    frames[i] = CGRect(
                        x: snap(x), y: snap(y + (lineHeight - sizes[i].height) / 2),
                        width: sizes[i].width, height: sizes[i].height)
                }
                y += lineHeight + (isLast ? 0 : lineSpacing)
            }
            out.items.append(frames)
            y += inset.bottom
            if footer > 0 {
                out.footers.append(CGRect(x: 0, y: snap(y), width: width, height: footer))
                y += footer
            } else {
                out.footers.append(nil)
            }
        }
        out.contentSize = CGSize(width: width, height: y)
        return out
    }

    /// A random case: sections of uniform or varied items, random insets, spacing, headers,
    /// footers, view width, content inset and display scale.
    static func randomCase(_ rng: inout SeededRandom, maxItems: Int = 40) -> FlowCase {
        var c = FlowCase()
        c.width = rng.points(40...500)
        c.contentInset =
            rng.chance(0.3)
            ? EdgeInsets(
                top: rng.points(0...20), left: rng.points(0...20),
                bottom: rng.points(0...20), right: rng.points(0...20)) : .zero
        c.scale = [1, 2, 3][Int.random(in: 0...2, using: &rng)]
        c.itemSize = CGSize(width: rng.points(0...120, quarters: true), height: rng.points(0...120, quarters: true))
        c.lineSpacing = rng.points(0...20)
        c.interitemSpacing = rng.points(0...20, quarters: true)
        c.inset = EdgeInsets(
            top: rng.points(0...20), left: rng.points(0...30), bottom: rng.points(0...20),
            right: rng.points(0...30))
        c.header = rng.chance(0.5) ? CGSize(width: 0, height: rng.points(0...40)) : .zero
        c.footer = rng.chance(0.3) ? CGSize(width: 0, height: rng.points(0...40)) : .zero
        for _ in 0..<Int.random(in: 0...4, using: &rng) {
            var section = FlowCase.Section(count: Int.random(in: 0...maxItems, using: &rng))
            if rng.chance(0.6) {
                let pool = (0..<3).map { _ in
                    CGSize(
                        width: rng.points(1...200, quarters: true),
                        height: rng.points(1...120, quarters: true))
                }
                section.sizes = (0..<section.count).map { _ in
                    rng.chance(0.3)
                        ? pool[Int.random(in: 0...2, using: &rng)]
                        : CGSize(width: rng.points(0...260, quarters: true), height: rng.points(0...150))
                }
            }
            if rng.chance(0.3) { section.lineSpacing = rng.points(0...30) }
            if rng.chance(0.3) { section.interitemSpacing = rng.points(0...30) }
            if rng.chance(0.3) {
                section.inset = EdgeInsets(
                    top: rng.points(0...10), left: rng.points(0...50),
                    bottom: rng.points(0...10), right: rng.points(0...50))
            }
            if rng.chance(0.2) { section.header = CGSize(width: 0, height: rng.points(0...30)) }
            c.sections.append(section)
        }
        return c
    }
}
