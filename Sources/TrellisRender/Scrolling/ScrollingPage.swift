import Foundation
import TrellisCollectionView
import TrellisText

/// A page that plays back ``ScrollRecording``s: for each, the screen (the views on it, each with
/// its number, reused ones outlined, pinned headers marked), the whole content beside it with
/// the viewport and the visible set, and a line of counts; a slider steps through the offsets
/// and Play runs them. Without script the first step is drawn and a table lists every step.
///
/// ```swift
/// let html = ScrollingPage.render(title: "Scrolling", scenes: [(caption: "A flow layout", recording)])
/// ```
public enum ScrollingPage {
    /// The page, one figure per scene.
    public static func render(title: String, scenes: [(caption: String, recording: ScrollRecording)]) -> String {
        var body = ""
        for (index, scene) in scenes.enumerated() {
            body += figure(index, caption: scene.caption, recording: scene.recording)
        }
        let style =
            ".scene{margin-bottom:32px}.panes{display:flex;gap:24px;align-items:flex-start;flex-wrap:wrap}"
            + ".cell rect{fill:#dbeafe;stroke:#2563eb}.supplementaryView rect{fill:#fef3c7;stroke:#d97706}"
            + ".reused rect{stroke:#16a34a;stroke-width:3}.pinned rect{fill:#fde68a}"
            + ".ghost{fill:#f8fafc;stroke:#cbd5e1}.viewport{fill:none;stroke:#dc2626;stroke-width:2}"
            + "h2{font-size:15px;font-weight:600;max-width:760px;line-height:1.35}svg text{font-size:11px;fill:#1e293b;text-anchor:middle;dominant-baseline:central}"
            + "svg text.n{font-size:9px;fill:#475569}.stats{font-size:13px;font-variant-numeric:tabular-nums}"
            + "table.steps{border-collapse:collapse;font-size:12px}table.steps td,table.steps th{border:1px solid #cbd5e1;"
            + "padding:2px 6px;text-align:left;vertical-align:top}.key span{display:inline-block;width:12px;height:12px;"
            + "margin:0 4px 0 12px;vertical-align:middle;border:2px solid}"
        let key =
            "<p class=\"key\">Outlined in green<span style=\"border-color:#16a34a\"></span>: a view taken from the "
            + "reuse queue at this step, showing another element than before. Darker yellow<span style=\"background:#fde68a;"
            + "border-color:#d97706\"></span>: a header pinned to the top of the screen. #n is the view object: the same "
            + "number is the same view.</p>\n"
        return HTMLPage.head(title: title, style: style) + key + body + script + HTMLPage.foot
    }

    /// How far the map reaches from the content's origin: the content, every step's viewport and
    /// every view shown.
    static func mapExtent(_ recording: ScrollRecording) -> CGSize {
        var width = recording.contentSize.width, height = recording.contentSize.height
        for step in recording.steps {
            width = max(width, step.offset.x + recording.viewport.width)
            height = max(height, step.offset.y + recording.viewport.height)
            for view in step.views where view.frame.maxX.isFinite && view.frame.maxY.isFinite {
                width = max(width, view.frame.maxX)
                height = max(height, view.frame.maxY)
            }
        }
        return CGSize(width: width, height: height)
    }

    private static func figure(_ index: Int, caption: String, recording: ScrollRecording) -> String {
        let n = Markup.number
        let id = "scene\(index)"
        let pad: CGFloat = 4
        let screenWidth = recording.viewport.width + 2 * pad, screenHeight = recording.viewport.height + 2 * pad
        // The whole content at most 420 points on its longer side — with every step's viewport
        // and views, so that an outline or a view past the content's end (a viewport taller than
        // the content, an item dropped in) is drawn whole.
        let extent = mapExtent(recording)
        let scale = min(1, 420 / max(1, max(extent.width, extent.height)))
        let mapWidth = extent.width * scale + 2 * pad, mapHeight = extent.height * scale + 2 * pad
        var out = "<section class=\"scene\" id=\"\(id)\">\n<h2>\(Markup.escape(caption))</h2>\n"
        out +=
            "<p><label>step <input type=\"range\" class=\"step\" min=\"0\" max=\"\(max(0, recording.steps.count - 1))\" "
            + "value=\"0\" aria-label=\"Step through the scroll\"></label> <label><input type=\"checkbox\" class=\"play\"> Play</label></p>\n"
        out += "<p class=\"stats\">\(Markup.escape(stats(recording, 0)))</p>\n<div class=\"panes\">\n"
        out +=
            "<figure><figcaption>the screen</figcaption><svg class=\"screen\" xmlns=\"http://www.w3.org/2000/svg\" "
            + "width=\"\(n(screenWidth))\" height=\"\(n(screenHeight))\" viewBox=\"0 0 \(n(screenWidth)) \(n(screenHeight))\" "
            + "font-family=\"Helvetica, Arial, sans-serif\"><rect x=\"\(n(pad))\" y=\"\(n(pad))\" width=\"\(n(recording.viewport.width))\" "
            + "height=\"\(n(recording.viewport.height))\" fill=\"#ffffff\" stroke=\"#1e293b\"/>"
            + "<svg x=\"\(n(pad))\" y=\"\(n(pad))\" width=\"\(n(recording.viewport.width))\" height=\"\(n(recording.viewport.height))\" overflow=\"hidden\">"
            + "<g class=\"views\">\(screenViews(recording, 0))</g></svg></svg></figure>\n"
        out +=
            "<figure><figcaption>the whole content, \(n(recording.contentSize.width)) × \(n(recording.contentSize.height))"
            + (scale < 1 ? " at \(n((scale * 100).rounded()))%" : "") + "</figcaption><svg class=\"map\" xmlns=\"http://www.w3.org/2000/svg\" "
            + "width=\"\(n(mapWidth))\" height=\"\(n(mapHeight))\" viewBox=\"0 0 \(n(mapWidth)) \(n(mapHeight))\">"
            + "<g transform=\"translate(\(n(pad)) \(n(pad))) scale(\(n(scale)))\">"
        for element in recording.elements {
            out +=
                "<rect class=\"ghost\" x=\"\(n(element.frame.minX))\" y=\"\(n(element.frame.minY))\" "
                + "width=\"\(n(element.frame.width))\" height=\"\(n(element.frame.height))\"/>"
        }
        out += "<g class=\"visible\">\(mapViews(recording, 0))</g></g></svg></figure>\n</div>\n"
        out += "<script type=\"application/json\" class=\"recording\">\(data(recording))</script>\n"
        out +=
            "<details><summary>every step as a table</summary><table class=\"steps\"><tr><th>step</th><th>offset</th>"
            + "<th>on screen (element #view)</th><th>came on screen</th><th>went off screen</th></tr>\n"
        for (i, step) in recording.steps.enumerated() {
            out +=
                "<tr><td>\(i)</td><td>\(n(step.offset.x)), \(n(step.offset.y))</td><td>"
                + Markup.escape(
                    step.views.map { "\($0.label) #\($0.view)\($0.reused ? " reused" : "")\($0.pinned ? " pinned" : "")" }
                        .joined(separator: ", "))
                + "</td><td>\(Markup.escape(step.shown.joined(separator: ", ")))</td>"
                + "<td>\(Markup.escape(step.hidden.joined(separator: ", ")))</td></tr>\n"
        }
        out += "</table></details>\n</section>\n"
        return out
    }

    /// The counts under a step's slider.
    public static func stats(_ recording: ScrollRecording, _ index: Int) -> String {
        let step = recording.steps[index]
        let n = Markup.number
        var parts = [
            "step \(index + 1) of \(recording.steps.count)", "offset \(n(step.offset.x)), \(n(step.offset.y))",
            "\(step.views.count) views on screen", "\(step.viewsMade) views made so far",
        ]
        let reused = step.views.filter(\.reused).count
        if !step.shown.isEmpty { parts.append("\(step.shown.count) came on screen (\(reused) in reused views)") }
        if !step.hidden.isEmpty { parts.append("\(step.hidden.count) went off") }
        let pinned = step.views.filter(\.pinned).map(\.label)
        if !pinned.isEmpty { parts.append("pinned: " + pinned.joined(separator: ", ")) }
        return parts.joined(separator: " · ")
    }

    private static func screenViews(_ recording: ScrollRecording, _ index: Int) -> String {
        let step = recording.steps[index]
        let n = Markup.number
        var out = ""
        // Cells under supplementary views, as the layouts' zIndex puts pinned headers above cells,
        // and within each, by zIndex (a lifted item above the others). Within one such layer the
        // labels are drawn after every card, so that cards of one layer that overlap (mid-way
        // through a change of layouts) never hide each other's labels; a higher layer still
        // covers a lower one's.
        let views = stacked(step.views), layers = layerNumbers(views)
        var labels = ""
        for (i, view) in views.enumerated() {
            let f = view.frame.offsetBy(dx: -step.offset.x, dy: -step.offset.y)
            let opacity = view.alpha < 1 ? " opacity=\"\(n(view.alpha))\"" : ""
            out +=
                "<g class=\"\(view.category.name)\(view.reused ? " reused" : "")\(view.pinned ? " pinned" : "")\" "
                + "data-label=\"\(Markup.escape(view.label))\" data-view=\"\(view.view)\"\(opacity)>"
                + "<rect x=\"\(n(f.minX))\" y=\"\(n(f.minY))\" width=\"\(n(f.width))\" height=\"\(n(f.height))\" rx=\"3\"/></g>"
            labels +=
                "<text x=\"\(n(f.midX))\" y=\"\(n(f.midY - (f.height >= 30 ? 6 : 0)))\"\(opacity)>\(Markup.escape(view.label))</text>"
                + (f.height >= 30 ? "<text class=\"n\" x=\"\(n(f.midX))\" y=\"\(n(f.midY + 8))\"\(opacity)>#\(view.view)</text>" : "")
            if i == views.count - 1 || layers[i + 1] != layers[i] {
                out += labels
                labels = ""
            }
        }
        return out
    }

    /// Each view's layer (in drawing order): views of one category and zIndex share one.
    static func layerNumbers(_ views: [ScrollRecording.View]) -> [Int] {
        var layers: [Int] = [], layer = 0
        for (i, view) in views.enumerated() {
            if i > 0, views[i - 1].category != view.category || views[i - 1].zIndex != view.zIndex { layer += 1 }
            layers.append(layer)
        }
        return layers
    }

    /// Views in drawing order: cells, then supplementary views; each by zIndex, stable.
    static func stacked(_ views: [ScrollRecording.View]) -> [ScrollRecording.View] {
        views.enumerated().sorted { a, b in
            let ka = (a.element.category == .cell ? 0 : 1, min(a.element.zIndex, 1 << 30)),
                kb = (b.element.category == .cell ? 0 : 1, min(b.element.zIndex, 1 << 30))
            return ka != kb ? ka < kb : a.offset < b.offset
        }.map(\.element)
    }

    private static func mapViews(_ recording: ScrollRecording, _ index: Int) -> String {
        let step = recording.steps[index]
        let n = Markup.number
        var out = ""
        for view in step.views {
            out +=
                "<g class=\"\(view.category.name)\(view.reused ? " reused" : "")\"><rect x=\"\(n(view.frame.minX))\" "
                + "y=\"\(n(view.frame.minY))\" width=\"\(n(view.frame.width))\" height=\"\(n(view.frame.height))\"/></g>"
        }
        out +=
            "<rect class=\"viewport\" x=\"\(n(step.offset.x))\" y=\"\(n(step.offset.y))\" width=\"\(n(recording.viewport.width))\" "
            + "height=\"\(n(recording.viewport.height))\"/>"
        return out
    }

    /// The recording as the script reads it: per step the offset, the counts line and the views.
    private static func data(_ recording: ScrollRecording) -> String {
        let steps: [JSONValue] = recording.steps.indices.map { i in
            let step = recording.steps[i]
            // In drawing order, so the script draws them as listed.
            let ordered = stacked(step.views), layers = layerNumbers(ordered)
            let views: [JSONValue] = ordered.enumerated().map { i, v in
                .array([
                    .string(v.label), .number(Double(v.view)), .string(v.category.name), .number(Double(v.frame.minX)),
                    .number(Double(v.frame.minY)), .number(Double(v.frame.width)), .number(Double(v.frame.height)),
                    .bool(v.reused), .bool(v.pinned), .number(Double(v.alpha)), .number(Double(layers[i])),
                ])
            }
            return .object([
                ("x", .number(Double(step.offset.x))), ("y", .number(Double(step.offset.y))),
                ("stats", .string(stats(recording, i))), ("views", .array(views)),
            ])
        }
        let json = JSONValue.object([
            ("width", .number(Double(recording.viewport.width))),
            ("height", .number(Double(recording.viewport.height))), ("steps", .array(steps)),
        ])
        .serialized(pretty: false)
        // Inside a script element, "</" would end it.
        return json.replacingOccurrences(of: "</", with: "<\\/")
    }

    /// Redraws a scene from its recording at the slider's step; Play advances it every 120 ms.
    private static let script = """
        <script>
        (function () {
          var NS = "http://www.w3.org/2000/svg";
          function el(name, attrs, text) {
            var e = document.createElementNS(NS, name);
            for (var k in attrs) e.setAttribute(k, attrs[k]);
            if (text !== undefined) e.textContent = text;
            return e;
          }
          Array.prototype.forEach.call(document.querySelectorAll("section.scene"), function (scene) {
            var data = JSON.parse(scene.querySelector("script.recording").textContent);
            var slider = scene.querySelector("input.step"), play = scene.querySelector("input.play");
            var stats = scene.querySelector(".stats"), screen = scene.querySelector("svg.screen g.views");
            var map = scene.querySelector("svg.map g.visible"), timer = null;
            function show(i) {
              var step = data.steps[i];
              stats.textContent = step.stats;
              screen.textContent = ""; map.textContent = "";
              // A layer's cards, then its labels (cards that overlap never hide a label of their layer).
              var labels = [];
              step.views.forEach(function (v, i) {
                var cls = v[2] + (v[7] ? " reused" : "") + (v[8] ? " pinned" : "");
                var x = v[3] - step.x, y = v[4] - step.y, w = v[5], h = v[6];
                var attrs = {"class": cls, "data-label": v[0], "data-view": v[1]};
                var faded = v[9] < 1 ? {opacity: v[9]} : {};
                if (v[9] < 1) attrs.opacity = v[9];
                var g = el("g", attrs);
                g.appendChild(el("rect", {x: x, y: y, width: w, height: h, rx: 3}));
                screen.appendChild(g);
                var label = {x: x + w / 2, y: y + h / 2 - (h >= 30 ? 6 : 0)};
                for (var k in faded) label[k] = faded[k];
                labels.push(el("text", label, v[0]));
                if (h >= 30) {
                  var number = {"class": "n", x: x + w / 2, y: y + h / 2 + 8};
                  for (var k2 in faded) number[k2] = faded[k2];
                  labels.push(el("text", number, "#" + v[1]));
                }
                var next = step.views[i + 1];
                if (!next || next[10] !== v[10]) {
                  labels.forEach(function (t) { screen.appendChild(t); });
                  labels = [];
                }
              });
              step.views.forEach(function (v) {
                var g = el("g", {"class": v[2] + (v[7] ? " reused" : "")});
                g.appendChild(el("rect", {x: v[3], y: v[4], width: v[5], height: v[6]}));
                map.appendChild(g);
              });
              map.appendChild(el("rect", {"class": "viewport", x: step.x, y: step.y, width: data.width, height: data.height}));
            }
            slider.addEventListener("input", function () { play.checked = false; stop(); show(+slider.value); });
            function stop() { if (timer) { clearInterval(timer); timer = null; } }
            play.addEventListener("change", function () {
              stop();
              if (!play.checked) return;
              timer = setInterval(function () {
                var next = (+slider.value + 1) % data.steps.length;
                slider.value = next;
                show(next);
              }, 120);
            });
            show(+slider.value);
          });
        })();
        </script>

        """
}
