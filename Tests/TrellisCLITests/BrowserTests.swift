import Foundation
import Testing
import TrellisCLI
import TrellisTestSupport

/// Pages as a person meets them: loaded in headless Chromium, clicked, and read back from the DOM.
/// Skipped, with the reason printed, only where Chromium is not installed (`.ci/run` installs it).
@Suite("In a real browser")
struct BrowserTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Transcripts")

    static var chromium: String? {
        let found = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
            .first { FileManager.default.isExecutableFile(atPath: $0) }
        if found == nil { print("browser tests skipped: no Chromium (install Debian's chromium)") }
        return found
    }

    /// The DOM of `page` after its scripts ran, with `probe` (script) run on load.
    func dom(_ page: String, probe: String) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-browser-\(UUID().uuidString).html")
        try page.replacingOccurrences(of: "</body>", with: "<script>\(probe)</script>\n</body>")
            .write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try ChildProcess.run(
            [Self.chromium!, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", file.absoluteString],
            timeout: 120)
        #expect(!result.timedOut, "Chromium did not finish loading the page in 120 s")
        return result.output
    }

    /// What the probe wrote into `<pre id="probe">` after `page` loaded, or nil when it wrote nothing.
    func probed(_ page: String, probe: String) throws -> String? {
        let html = try dom(page, probe: probe)
        guard let start = html.range(of: "<pre id=\"probe\">"), let end = html.range(of: "</pre>", range: start.upperBound..<html.endIndex)
        else { return nil }
        return String(html[start.upperBound..<end.lowerBound])
    }

    /// The demo site, written into a new temporary folder (the caller removes it).
    func demoSite(_ name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-\(name)-\(UUID().uuidString)")
        var io = CommandIO(standardInput: { Data() }, currentDirectory: FileManager.default.temporaryDirectory)
        #expect(TrellisCommandLine.run(["demo", "-o", folder.path], io: &io) == 0, "\(io.stderr)")
        return folder
    }

    func run(_ arguments: [String]) -> String {
        var io = CommandIO(standardInput: { Data() }, currentDirectory: Self.examples)
        _ = TrellisCommandLine.run(arguments, io: &io)
        return io.stdout
    }

    /// The first column of a CSV sort's body, as `trellis sort` orders it.
    func order(_ keys: [String]) -> [String] {
        let csv = run(["sort", "groups.csv", "--pin-bottom", "组号=平均", "--format", "csv"] + keys)
        return csv.split(whereSeparator: \.isNewline).dropFirst().map { String($0.split(separator: ",").first ?? "") }
            .filter { $0 != "平均" }
    }

    @Test(
        "clicking a header of an interactive grid page re-sorts it in exactly trellis sort's order, 平均 kept last",
        .enabled(if: BrowserTests.chromium != nil))
    func headerClicks() throws {
        let page = run(["sort", "groups.csv", "--pin-bottom", "组号=平均", "--format", "html", "--interactive"])
        let probe = """
            window.addEventListener("load", function () {
              var table = document.querySelector("table"), heads = table.tHead.rows[0].cells, out = [];
              function body() { return Array.prototype.map.call(table.tBodies[0].rows, function (tr) { return tr.cells[0].textContent; }).join(" "); }
              function last() { var f = table.tFoot.rows; return f.length ? f[f.length - 1].cells[0].textContent : ""; }
              [2, 2, 2, 0, 1].forEach(function (i) { heads[i].click(); out.push(heads[i].getAttribute("aria-sort") + "|" + body() + "|" + last()); });
              var pre = document.createElement("pre"); pre.id = "probe"; pre.textContent = out.join("\\n"); document.body.appendChild(pre);
            });
            """
        guard let probedText = try probed(page, probe: probe) else {
            Issue.record("the probe did not run")
            return
        }
        let lines = probedText.split(separator: "\n").map { $0.split(separator: "|").map(String.init) }
        let expected: [(String, [String])] = [
            ("ascending", order(["--by", "分数:asc"])), ("descending", order(["--by", "分数:desc"])), ("none", order([])),
            ("ascending", order(["--by", "组号:asc"])), ("ascending", order(["--by", "组长:asc"])),
        ]
        #expect(lines.count == expected.count)
        for (line, (sort, rows)) in zip(lines, expected) {
            #expect(line.count == 3 && line[0] == sort)
            #expect(line.count == 3 && line[1].split(separator: " ").map(String.init) == rows, "\(line)")
            #expect(line.count == 3 && line[2] == "平均")
        }
    }
}

extension BrowserTests {
    /// What `probe` wrote into `<pre id="probe">` after `page` (a file of `folder`, whose relative
    /// links must load) loaded, read from a copy beside it.
    func probedInPlace(_ folder: URL, _ page: String, probe: String) throws -> String? {
        let source = try String(contentsOf: folder.appendingPathComponent(page), encoding: .utf8)
        let html = page.hasSuffix(".svg") ? "<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body>\(source)</body></html>" : source
        let copy = folder.appendingPathComponent("probe-\(UUID().uuidString).html")
        try html.replacingOccurrences(of: "</body>", with: "<script>\(probe)</script>\n</body>").write(to: copy, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: copy) }
        let result = try ChildProcess.run(
            [
                Self.chromium!, "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
                "--virtual-time-budget=5000", "--dump-dom", copy.absoluteString,
            ], timeout: 120)
        #expect(!result.timedOut, "\(page): Chromium did not finish loading the page in 120 s")
        guard let start = result.output.range(of: "<pre id=\"probe\">"),
            let end = result.output.range(of: "</pre>", range: start.upperBound..<result.output.endIndex)
        else { return nil }
        return String(result.output[start.upperBound..<end.lowerBound])
    }

    @Test(
        "every demo page in Chromium with a CJK font: a screenshot that is not blank, no label outside its box, no cell's text cut, the index's thumbnails loaded",
        .enabled(if: BrowserTests.chromium != nil))
    func everyDemoPage() throws {
        let folder = try demoSite("pages")
        defer { try? FileManager.default.removeItem(at: folder) }
        let pages = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".html") || $0.hasSuffix(".svg") }.sorted()
        #expect(pages.count >= 20)
        let fonts = ["/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.otf"]
        if !fonts.contains(where: { FileManager.default.fileExists(atPath: $0) }) {
            print("screenshots taken without a CJK font (install Debian's fonts-noto-cjk): Chinese shows as boxes")
        }
        // A label (an SVG text in a box's group) inside its box; a table cell's text not cut.
        let probe = """
            window.addEventListener("load", function () {
              var out = [];
              document.querySelectorAll("svg g").forEach(function (g) {
                var rect = g.querySelector(":scope > rect"), text = g.querySelector(":scope > text");
                if (!rect || !text || g.closest("defs")) return;
                var r = rect.getBBox(), t = text.getBBox();
                if (t.width === 0) return;
                // A label turned upright (rotated about the box's centre) runs along its height.
                var upright = /rotate/.test(text.getAttribute("transform") || "");
                var room = upright ? r.height : r.width, middle = upright ? r.y + r.height / 2 : r.x + r.width / 2;
                var start = upright ? middle - t.width / 2 : t.x;
                if (start < middle - room / 2 - 0.5 || start + t.width > middle + room / 2 + 0.5)
                  out.push("label " + JSON.stringify(text.textContent) + " " + Math.round(t.width) + " wide in a box " + Math.round(r.width) + " wide");
              });
              document.querySelectorAll("td, th").forEach(function (c) {
                if (c.scrollWidth > c.clientWidth + 1) out.push("cell " + JSON.stringify(c.textContent) + " cut");
              });
              document.querySelectorAll("img").forEach(function (i) {
                if (!i.complete || i.naturalWidth === 0) out.push("image " + i.getAttribute("src") + " not loaded");
              });
              var pre = document.createElement("pre"); pre.id = "probe"; pre.textContent = out.join("\\n") || "ok";
              document.body.appendChild(pre);
            });
            """
        for page in pages {
            let found = try probedInPlace(folder, page, probe: probe)
            #expect(found == "ok", "\(page): \(found ?? "the probe did not run")")
        }
        // Screenshots: nothing blank — each well above the size of an empty page's, taken alike.
        let shot = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-shot-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: shot) }
        let empty = folder.appendingPathComponent("empty-\(UUID().uuidString).html")
        try "<!DOCTYPE html><html><body></body></html>\n".write(to: empty, atomically: true, encoding: .utf8)
        _ = try ChildProcess.run(
            [
                Self.chromium!, "--headless", "--no-sandbox", "--disable-gpu", "--screenshot=\(shot.path)",
                "--window-size=800,600", empty.absoluteString,
            ], captureOutput: false, timeout: 120)
        try FileManager.default.removeItem(at: empty)
        let blank = (try? FileManager.default.attributesOfItem(atPath: shot.path)[.size] as? Int) ?? 0
        #expect(blank > 0, "Chromium took no screenshot of an empty page")
        for page in pages {
            try? FileManager.default.removeItem(at: shot)
            let result = try ChildProcess.run(
                [
                    Self.chromium!, "--headless", "--no-sandbox", "--disable-gpu", "--screenshot=\(shot.path)",
                    "--window-size=800,600", folder.appendingPathComponent(page).absoluteString,
                ],
                captureOutput: false, timeout: 120)
            #expect(!result.timedOut, "\(page): Chromium did not take the screenshot in 120 s")
            let size = (try? FileManager.default.attributesOfItem(atPath: shot.path)[.size] as? Int) ?? 0
            #expect(Double(size) > Double(blank) * 1.5, "\(page): the screenshot is \(size) bytes, an empty page's \(blank)")
        }
    }

    @Test(
        "every demo drawing, laid out by Chromium, puts each box where the layout computed it, and no page is blank",
        .enabled(if: BrowserTests.chromium != nil))
    func demoPages() throws {
        let folder = try demoSite("demo")
        defer { try? FileManager.default.removeItem(at: folder) }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".layout.json") }.map { String($0.dropLast(".layout.json".count)) }.sorted()
        #expect(names.count >= 10)
        let probe = """
            window.addEventListener("load", function () {
              var boxes = Array.prototype.map.call(document.querySelectorAll("g.cell > rect, g.supplementaryView > rect, g.decorationView > rect"),
                function (r) { var b = r.getBBox(); return [b.x, b.y, b.width, b.height].map(function (v) { return Math.round(v * 100) / 100; }).join(","); });
              var pre = document.createElement("pre"); pre.id = "probe"; pre.textContent = boxes.sort().join(";");
              document.body.appendChild(pre);
            });
            """
        for name in names {
            let svg = try String(contentsOf: folder.appendingPathComponent("\(name).svg"), encoding: .utf8)
            // Animated drawings move their boxes; their end state is checked by the transcripts.
            guard !svg.contains("@keyframes") else { continue }
            let page = "<!DOCTYPE html><html><body>\(svg)</body></html>"
            guard let probedText = try probed(page, probe: probe) else {
                Issue.record("\(name): the probe did not run")
                continue
            }
            let drawn = probedText.split(separator: ";").map(String.init)
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("\(name).layout.json")))
            let elements = ((json as? [String: Any])?["elements"] as? [[String: Any]]) ?? []
            let computed = elements.filter { ($0["isHidden"] as? Bool) != true }.compactMap { element -> String? in
                guard let f = element["frame"] as? [String: Double] else { return nil }
                return [f["x"]!, f["y"]!, f["width"]!, f["height"]!].map { String(format: "%g", ($0 * 100).rounded() / 100) }
                    .joined(separator: ",")
            }.sorted()
            #expect(drawn.count == computed.count, "\(name): \(drawn.count) boxes drawn, \(computed.count) computed")
            let normalize = { (s: String) in s.split(separator: ",").map { String(format: "%g", Double($0) ?? .nan) }.joined(separator: ",") }
            #expect(drawn.map(normalize).sorted() == computed.map(normalize).sorted(), "\(name): boxes differ")
        }
        // Screenshots: a page with drawings is not blank (a blank PNG of this size is a few kB).
        let shot = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-shot-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: shot) }
        for page in ["index.html", "grid.html"] {
            let result = try ChildProcess.run(
                [
                    Self.chromium!, "--headless", "--no-sandbox", "--disable-gpu", "--screenshot=\(shot.path)",
                    "--window-size=800,600", folder.appendingPathComponent(page).absoluteString,
                ],
                captureOutput: false, timeout: 120)
            #expect(!result.timedOut, "\(page): Chromium did not take the screenshot in 120 s")
            let size = (try? FileManager.default.attributesOfItem(atPath: shot.path)[.size] as? Int) ?? 0
            #expect(size > 8_000, "\(page): the screenshot is \(size) bytes, as a blank page's")
        }
    }
}

extension BrowserTests {
    @Test(
        "an animation page steps: the slider pauses it and moves every box to that point of the change",
        .enabled(if: BrowserTests.chromium != nil))
    func stepping() throws {
        let folder = try demoSite("step")
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = try String(contentsOf: folder.appendingPathComponent("flow-insert-delete.html"), encoding: .utf8)
        let probe = """
            window.addEventListener("load", function () {
              var slider = document.getElementById("step"), out = [];
              [0, 250, 1000].forEach(function (v) {
                slider.value = v; slider.dispatchEvent(new Event("input"));
                var boxes = Array.prototype.map.call(document.querySelectorAll("g.el"), function (g) { return getComputedStyle(g).transform; });
                out.push(boxes.join("|"));
              });
              out.push(document.getElementById("pause").checked ? "paused" : "playing");
              out.push(document.getAnimations().every(function (a) { return a.playState === "paused"; }) ? "all paused" : "running");
              var pre = document.createElement("pre"); pre.id = "probe"; pre.textContent = out.join("\\n"); document.body.appendChild(pre);
            });
            """
        guard let probedText = try probed(page, probe: probe) else {
            Issue.record("the probe did not run")
            return
        }
        let lines = probedText.split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        guard lines.count == 5 else { return }
        #expect(lines[0] != lines[1], "a quarter of the way, boxes have moved from the start")
        #expect(lines[1] != lines[2])
        #expect(lines[3] == "paused" && lines[4] == "all paused")
    }
}

extension BrowserTests {
    /// The boxes of a scene's screen: `label#view:x,y,w,h`, sorted.
    static func boxes(_ views: [[Any]], offset: (Double, Double)) -> String {
        views.map { v in
            let numbers = [(v[3] as! Double) - offset.0, (v[4] as! Double) - offset.1, v[5] as! Double, v[6] as! Double]
            return "\(v[0] as! String)#\(v[1] as! Double == 0 ? 0 : Int(v[1] as! Double)):"
                + numbers.map { String(format: "%g", ($0 * 100).rounded() / 100) }.joined(separator: ",")
        }.sorted().joined(separator: ";")
    }

    @Test(
        "the scrolling and interaction pages draw, at every step the slider picks, the views the recording holds, where it holds them",
        .enabled(if: BrowserTests.chromium != nil), arguments: [("scrolling.html", 2), ("interaction.html", 6)])
    func recordedPage(file: String, scenes: Int) throws {
        let folder = try demoSite("scroll")
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        let probe = """
            window.addEventListener("load", function () {
              var out = [];
              Array.prototype.forEach.call(document.querySelectorAll("section.scene"), function (scene) {
                var slider = scene.querySelector("input.step"), last = +slider.max;
                [0, Math.floor(last / 3), Math.floor(2 * last / 3), last].forEach(function (i) {
                  slider.value = i; slider.dispatchEvent(new Event("input"));
                  var boxes = Array.prototype.map.call(scene.querySelectorAll("svg.screen g.views > g"), function (g) {
                    var b = g.querySelector("rect").getBBox();
                    return g.getAttribute("data-label") + "#" + g.getAttribute("data-view") + ":" +
                      [b.x, b.y, b.width, b.height].map(function (v) { return Math.round(v * 100) / 100; }).join(",");
                  }).sort().join(";");
                  out.push(i + "|" + boxes + "|" + scene.querySelector(".stats").textContent);
                });
              });
              var pre = document.createElement("pre"); pre.id = "probe"; pre.textContent = out.join("\\n"); document.body.appendChild(pre);
            });
            """
        guard let probedText = try probed(page, probe: probe) else {
            Issue.record("the probe did not run")
            return
        }
        let lines = probedText.split(separator: "\n").map(String.init)
        // The recordings the page embeds, read by Swift.
        let recordings = page.components(separatedBy: "<script type=\"application/json\" class=\"recording\">").dropFirst().map {
            String($0[..<$0.range(of: "</script>")!.lowerBound]).replacingOccurrences(of: "<\\/", with: "</")
        }
        #expect(recordings.count == scenes && lines.count == 4 * scenes, "\(lines.count) probe lines")
        guard recordings.count == scenes, lines.count == 4 * scenes else { return }
        var sawPinnedAtTop = false
        for (s, text) in recordings.enumerated() {
            let data = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
            let steps = data["steps"] as! [[String: Any]]
            for line in lines[(s * 4)..<(s * 4 + 4)] {
                let parts = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
                let step = steps[Int(parts[0])!]
                let views = step["views"] as! [[Any]]
                let expected = Self.boxes(views, offset: (step["x"] as! Double, step["y"] as! Double))
                #expect(parts[1] == expected, "scene \(s) step \(parts[0])")
                #expect(parts[2] == step["stats"] as! String)
                for v in views where (v[8] as! Bool) && (v[4] as! Double) == (step["y"] as! Double) { sawPinnedAtTop = true }
            }
            // With script off, the page shows the first step: the same boxes the script draws for it.
            let section = page.components(separatedBy: "<section class=\"scene\"")[s + 1]
            let statics = section.components(separatedBy: "data-label=\"").dropFirst().map { chunk -> String in
                let label = String(chunk[..<chunk.firstIndex(of: "\"")!])
                let view = chunk.components(separatedBy: "data-view=\"")[1].prefix { $0 != "\"" }
                let rect = chunk.components(separatedBy: "<rect ")[1]
                func attribute(_ name: String) -> String {
                    String(rect.components(separatedBy: "\(name)=\"")[1].prefix { $0 != "\"" })
                }
                return "\(label)#\(view):"
                    + ["x", "y", "width", "height"].map { String(format: "%g", Double(attribute($0))!) }
                    .joined(separator: ",")
            }.sorted().joined(separator: ";")
            #expect(
                statics == lines[s * 4].split(separator: "|", omittingEmptySubsequences: false)[1].description,
                "scene \(s): the page without script draws the first step as the script does")
        }
        if file == "scrolling.html" {
            #expect(sawPinnedAtTop, "a pinned header sits at the top of the screen at some step the slider picked")
        }
        if file == "interaction.html" {
            // The drop (scene 1): at step 4 the gap is at item 3 — nothing drawn in its slot, the
            // second line's first — and at the end photo 10 stands where the placeholder stood.
            let gap = lines[4 + 2].split(separator: "|")[1]
            #expect(gap.split(separator: ";").count == 9 && !gap.contains(":8,88,96,72"), "\(gap)")
            let landed = lines[4 + 3].split(separator: "|")[1].split(separator: ";").first { $0.hasPrefix("photo 10#") }
            #expect(landed?.hasSuffix(":8,8,96,72") == true, "\(landed ?? "no photo 10")")
            // The springs (scene 2): moving a third of the way in, at rest at the end.
            #expect(lines[8 + 1].split(separator: "|")[1] != lines[8 + 3].split(separator: "|")[1])
        }
    }
}

extension BrowserTests {
    @Test(
        "mid-pinch, no card hides another's label and no two labels overlap, at every step; the minimap holds every viewport outline",
        .enabled(if: BrowserTests.chromium != nil))
    func pinchLabelsAndMinimap() throws {
        let folder = try demoSite("pinch")
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = try String(contentsOf: folder.appendingPathComponent("interaction.html"), encoding: .utf8)
        // For every scene and step: labels whose boxes meet another label's, labels a card drawn
        // after them covers (a lifted card, of a higher layer, may), and viewport outlines that
        // reach past their map.
        let probe = """
            window.addEventListener("load", function () {
              function meets(a, b) { return a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5; }
              var out = [];
              Array.prototype.forEach.call(document.querySelectorAll("section.scene"), function (scene, s) {
                var slider = scene.querySelector("input.step");
                var map = scene.querySelector("svg.map"), mapBox = {w: +map.getAttribute("width"), h: +map.getAttribute("height")};
                for (var i = 0; i <= +slider.max; i++) {
                  slider.value = i; slider.dispatchEvent(new Event("input"));
                  var views = scene.querySelector("svg.screen g.views");
                  var nodes = Array.prototype.slice.call(views.childNodes);
                  var labels = nodes.filter(function (n) { return n.tagName === "text" && n.getAttribute("class") !== "n"; });
                  var cards = nodes.filter(function (n) { return n.tagName === "g"; });
                  if (labels.length !== cards.length) out.push(s + "/" + i + " " + cards.length + " cards but " + labels.length + " labels drawn over them");
                  labels.forEach(function (t, a) {
                    var box = t.getBBox();
                    labels.forEach(function (u, b) { if (b > a && meets(box, u.getBBox())) out.push(s + "/" + i + " labels meet: " + t.textContent + " & " + u.textContent); });
                    nodes.slice(nodes.indexOf(t) + 1).forEach(function (n) {
                      if (n.tagName !== "g") return;
                      var r = n.querySelector("rect").getBBox();
                      if (meets(box, r)) out.push(s + "/" + i + " covered: " + t.textContent + " by " + n.getAttribute("data-label"));
                    });
                  });
                  var outline = map.querySelector("rect.viewport").getBoundingClientRect(), frame = map.getBoundingClientRect();
                  if (outline.bottom > frame.bottom + 0.5 || outline.right > frame.right + 0.5) out.push(s + "/" + i + " outline past the map");
                }
              });
              var pre = document.createElement("pre"); pre.id = "probe"; pre.textContent = out.join("\\n") || "clean"; document.body.appendChild(pre);
            });
            """
        let probed = try #require(try probed(page, probe: probe))
        // The drag scene lifts a card above the others: it may cover labels. Every other scene,
        // the pinch's included, is clean.
        let problems = probed.split(separator: "\n").filter { !$0.hasPrefix("0/") && $0 != "clean" }
        #expect(problems.isEmpty, "\(problems.prefix(10))")
        // The probe sees covering where there is some: the lifted photo passes over others' labels.
        #expect(probed.split(separator: "\n").contains { $0.hasPrefix("0/") && $0.contains("covered: ") && $0.contains("by photo 2") })
    }
}

extension BrowserTests {
    /// Markup that runs script if a page ever lets it through: each sets the title to "pwned…".
    static let payloads = [
        #"<img src=x onerror="document.title='pwned-img'">"#, #"</script><script>document.title="pwned-script"</script>"#,
        #""><svg onload="document.title='pwned-svg'">"#, #"';document.title='pwned-js';'"#,
        #"<iframe srcdoc="<script>parent.document.title='pwned-frame'</script>">"#, "\u{202E}<b>bidi</b>",
        #"javascript:document.title="pwned-href""#,
    ]

    @Test(
        "script in cells, headers and file names never runs on a page: sort pages, interactive ones clicked, layout pages",
        .enabled(if: BrowserTests.chromium != nil))
    func hostileText() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-xss-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func field(_ text: String) -> String { "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        var csv = [Self.payloads[1], "分数", Self.payloads[0]].map(field).joined(separator: ",") + "\n"
        for (i, payload) in Self.payloads.enumerated() { csv += [payload, String(i), payload].map(field).joined(separator: ",") + "\n" }
        csv += "平均,3,\n"
        let name = #"x"><img src=x onerror=document.title='pwned-name'>.csv"#
        try csv.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        let spec = #"{"collectionView": {"width": 200, "height": 100}, "sections": [{"items": 3}]}"#
        let specName = #"s"><svg onload=document.title='pwned-spec'>.json"#
        try spec.write(to: folder.appendingPathComponent(specName), atomically: true, encoding: .utf8)
        var pages: [(String, String)] = []
        for arguments in [
            ["sort", name, "--by", "分数:desc", "--pin-bottom", "#1=平均", "--format", "html", "--interactive"],
            ["sort", name, "--format", "html"], ["layout", specName, "--format", "html"],
        ] {
            var io = CommandIO(standardInput: { Data() }, currentDirectory: folder)
            #expect(TrellisCommandLine.run(arguments, io: &io) == 0, "\(arguments): \(io.stderr)")
            pages.append((arguments.joined(separator: " "), io.stdout))
        }
        // Click every header (re-sorting redraws the cells), then report what ran.
        let probe = """
            window.addEventListener("load", function () {
              var table = document.querySelector("table");
              if (table && table.tHead) Array.prototype.forEach.call(table.tHead.rows[0].cells, function (h) { h.click(); h.click(); });
              var pre = document.createElement("pre"); pre.id = "probe";
              pre.textContent = document.title + "|" + document.querySelectorAll("img, iframe, svg[onload], script:not([src])").length;
              document.body.appendChild(pre);
            });
            """
        for (command, page) in pages {
            guard let result = try probed(page, probe: probe) else { Issue.record("\(command): the probe did not run"); continue }
            let parts = result.split(separator: "|").map(String.init)
            // A payload that ran set the whole title; the page's own title only quotes the file name.
            #expect(
                parts.first.map { !$0.hasPrefix("pwned") && ($0.hasPrefix("Sorted ") || $0.hasPrefix("Layout of ")) } == true,
                "\(command): a payload ran: \(result)")
            // The page's own scripts and the probe, and no element a payload would add.
            let ownScripts = page.components(separatedBy: "<script").count - 1
            #expect(parts.count == 2 && Int(parts[1]) == ownScripts + 1, "\(command): \(result)")
        }
    }
}
