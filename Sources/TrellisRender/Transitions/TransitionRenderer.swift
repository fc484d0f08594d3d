import Foundation
import TrellisCollectionView

/// Draws a ``CollectionViewTransition`` as an SVG that plays it with CSS animations — no script —
/// and loops, so it replays by itself. Elements that stay or appear are drawn where they end and
/// animated from where they start; elements that disappear are drawn where they start and
/// animated to where they end, fading as their attributes say.
public struct TransitionRenderer: Sendable {
    /// How long the change takes, in seconds.
    public var duration: Double = 1.2
    /// How long the end state is held before the animation starts again, in seconds.
    public var hold: Double = 1.0
    /// The timing curve.
    public var easing: Easing = .easeInOut
    /// Extra room around the content, in points.
    public var padding: CGFloat = 8
    /// A prefix for the animation names: CSS inside an inline SVG is global to its page, so two
    /// drawings on one page need different prefixes.
    public var prefix: String = "t"

    public init(duration: Double = 1.2, hold: Double = 1.0, easing: Easing = .easeInOut, prefix: String = "t") {
        self.duration = duration
        self.hold = hold
        self.easing = easing
        self.prefix = String(
            prefix.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) && $0.isASCII }
                .map(Character.init))
        if self.prefix.isEmpty || self.prefix.first!.isNumber { self.prefix = "t" + self.prefix }
    }

    /// The animated SVG. `viewport` (the collection view's bounds after the change) is outlined.
    public func render(_ transition: CollectionViewTransition, viewport: CGRect? = nil, title: String? = nil) -> String {
        let n = Markup.number
        var extent = CGRect(origin: .zero, size: transition.contentSizeAfter)
            .union(CGRect(origin: .zero, size: transition.contentSizeBefore))
        for element in transition.elements {
            for frame in [element.from.frame, element.to.frame] where frame.minX.isFinite && frame.width.isFinite {
                extent = extent.union(frame)
            }
        }
        if let viewport { extent = extent.union(viewport) }
        let titleHeight: CGFloat = title == nil ? 0 : 22
        let width = extent.width + 2 * padding, height = extent.height + 2 * padding + titleHeight
        let total = duration + hold
        let split = Markup.number(CGFloat((duration / total * 100 * 1000).rounded() / 1000))
        var css = ".el{transform-box:fill-box;transform-origin:center;animation-duration:\(n(CGFloat(total)))s;"
        css += "animation-iteration-count:infinite;animation-timing-function:\(easing.css)}"
        css += ".cell{fill:#dbeafe;stroke:#2563eb}.supplementaryView{fill:#fef3c7;stroke:#d97706}"
        css += ".decorationView{fill:#f1f5f9;stroke:#94a3b8}"
        css += "text{font-size:11px;fill:#1e293b;stroke:none;text-anchor:middle;dominant-baseline:central}"
        var body = ""
        let ordered = transition.elements.enumerated().sorted { a, b in
            (a.element.to.zIndex, a.offset) < (b.element.to.zIndex, b.offset)
        }
        for (index, element) in ordered {
            let leaving = element.role == .disappearing
            let drawn = leaving ? element.from : element.to
            let other = leaving ? element.to : element.from
            let moved = Self.cssTransform(from: drawn, to: other)
            let start = leaving ? "transform:none;opacity:\(n(drawn.alpha))" : "transform:\(moved);opacity:\(n(other.alpha))"
            let end = leaving ? "transform:\(moved);opacity:\(n(other.alpha))" : "transform:none;opacity:\(n(drawn.alpha))"
            let name = "\(prefix)-e\(index)"
            css += "@keyframes \(name){0%{\(start)}\(split)%,100%{\(end)}}.\(name){animation-name:\(name)}"
            let f = drawn.frame
            guard f.minX.isFinite, f.minY.isFinite, f.width.isFinite, f.height.isFinite else { continue }
            body += "<g class=\"el \(name) \(drawn.representedElementCategory.name)\">"
            body += "<rect x=\"\(n(f.minX))\" y=\"\(n(f.minY))\" width=\"\(n(f.width))\" height=\"\(n(f.height))\" rx=\"3\"/>"
            body += SVGRenderer.labelSVG(Self.label(element), in: f) + "</g>\n"
        }
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(width))\" height=\"\(n(height))\" "
        out += "viewBox=\"0 0 \(n(width)) \(n(height))\" font-family=\"Helvetica, Arial, sans-serif\">\n"
        out += "<style>\(css)</style>\n"
        if let title {
            out += "<text x=\"\(n(padding))\" y=\"14\" style=\"text-anchor:start;font-size:13px;font-weight:bold\">"
            out += Markup.escape(title) + "</text>\n"
        }
        out += "<g transform=\"translate(\(n(padding - extent.minX)) \(n(padding + titleHeight - extent.minY)))\">\n"
        out += "<rect x=\"0\" y=\"0\" width=\"\(n(transition.contentSizeAfter.width))\" "
        out += "height=\"\(n(transition.contentSizeAfter.height))\" fill=\"#ffffff\" stroke=\"#cbd5e1\"/>\n"
        out += body
        if let viewport {
            out += "<rect x=\"\(n(viewport.minX))\" y=\"\(n(viewport.minY))\" width=\"\(n(viewport.width))\" "
            out += "height=\"\(n(viewport.height))\" fill=\"none\" stroke=\"#dc2626\" stroke-width=\"2\"/>\n"
        }
        out += "</g>\n</svg>\n"
        return out
    }

    /// The CSS transform that takes an element drawn at `drawn` to where `target` has it: a move
    /// of the centre, a scale of the size, and the target's own 2D transform.
    /// A label that names one element through the whole animation: `0·1` when it stays where it
    /// is in the data, `0·1→0·2` when it moves, `+0·4` when it appears, `−0·1` when it goes — so
    /// that no two boxes on screen carry the same label at any moment.
    public static func label(_ element: CollectionViewTransition.Element) -> String {
        let before = SVGRenderer.label(element.from), after = SVGRenderer.label(element.to)
        switch element.role {
        case .appearing: return "+" + after
        case .disappearing: return "−" + before
        case .moving:
            guard let from = element.before, let to = element.after, from != to else { return after }
            return before + "→" + after
        }
    }

    static func cssTransform(from drawn: CollectionViewLayoutAttributes, to target: CollectionViewLayoutAttributes) -> String {
        let n = Markup.number
        let dx = target.center.x - drawn.center.x, dy = target.center.y - drawn.center.y
        let sx = drawn.frame.width > 0 ? target.frame.width / drawn.frame.width : 1
        let sy = drawn.frame.height > 0 ? target.frame.height / drawn.frame.height : 1
        var transform = "translate(\(n(dx))px,\(n(dy))px) scale(\(n(sx)),\(n(sy)))"
        if !target.transform3D.isIdentity, let t = target.transform3D.affineComponents {
            transform += " matrix(\(n(t.a)),\(n(t.b)),\(n(t.c)),\(n(t.d)),\(n(t.tx)),\(n(t.ty)))"
        }
        return transform
    }

    /// A page playing the animation in a loop, with Pause (no script needed) and a slider that
    /// steps through it: moving the slider pauses the animation at that point.
    public func page(title: String, caption: String, svg: String) -> String {
        let total = duration + hold
        let script = """
            <script>
            (function () {
              var slider = document.getElementById("step"), pause = document.getElementById("pause");
              slider.addEventListener("input", function () {
                pause.checked = true;
                var t = slider.value / 1000 * \(total) * 1000;
                document.getAnimations().forEach(function (a) { a.pause(); a.currentTime = t; });
              });
              pause.addEventListener("change", function () {
                document.getAnimations().forEach(function (a) { if (pause.checked) a.pause(); else a.play(); });
              });
            })();
            </script>
            """
        return HTMLPage.render(
            title: title, figures: [(caption, svg)],
            // The controls on the line above the figure they play, not beside it.
            style: "#pause:checked~figure .el{animation-play-state:paused}"
                + "figure{display:block;margin-top:8px}",
            preface: "<input type=\"checkbox\" id=\"pause\"><label for=\"pause\"> Pause</label> "
                + "<label for=\"step\">step</label> <input type=\"range\" id=\"step\" min=\"0\" max=\"1000\" "
                + "value=\"0\" aria-label=\"Step through the animation\"> "
                + "(the animation replays by itself)\n"
        )
        .replacingOccurrences(of: "</body>", with: script + "\n</body>")
    }
}
