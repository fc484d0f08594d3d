import Foundation
import TrellisCollectionView
import TrellisGrid
import TrellisLayouts
import TrellisRender

/// `trellis demo [--output DIR]`: lays out the built-in example specs and writes a page of them.
enum DemoCommand {
    static let definition = CommandDefinition(
        name: "demo",
        overview: "Write a demo page of layouts and animated updates (SVG and HTML) into a folder.",
        arguments: [],
        options: [
            .output("The folder to write into; created if missing. (default: trellis-demo)", valueName: "directory"),
            .help,
        ],
        discussion: """
            Writes index.html (a list of every page, then every example with its spec), and for
            each example its spec (NAME.spec.json), its computed layout (NAME.layout.json) and its
            drawing (NAME.svg). Examples with updates are drawn as animations (NAME.svg loops the
            insert and delete) and also get a page of their own (NAME.html) that can be paused and
            stepped. scrolling.html scrolls real collection views step by step (the views on
            screen, reuse, pinned headers, a carousel coming to rest). interaction.html drags a
            photo to reorder a grid, drops a photo from another app onto a placeholder, lets a
            spring layout settle, pinches between a grid and a list, and shows a flow layout
            left to right and right to left. grid.html and grid.txt show
            the data grid: the example groups sorted by score with the average row pinned last;
            a click on a header re-sorts the page in Trellis's order.
            """)

    /// One built-in example: a name, a caption saying which rule it shows, and its spec.
    struct Example {
        var name: String
        var caption: String
        var spec: String
    }

    /// Makes a folder and the folders above it, with the system's reason when it cannot.
    static func makeFolder(_ path: String, shown: String) throws(CommandError) {
        var info = stat()
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                throw .failure("cannot write into '\(shown)': it is a file, not a folder")
            }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try makeFolder(parent, shown: shown) }
        if mkdir(path, 0o777) != 0, errno != EEXIST {
            throw .failure("cannot create the folder '\(shown)': \(String(cString: strerror(errno)))")
        }
    }

    static func run(_ arguments: [String], io: inout CommandIO) throws(CommandError) {
        let parsed = try definition.parse(arguments)
        if let extra = parsed.positionals.first { throw CommandError(.unexpectedArgument(extra)) }
        let given = parsed.value("--output") ?? "trellis-demo"
        guard !given.isEmpty else { throw CommandError(.rule("Invalid value '' for '--output <folder>'; name a folder")) }
        let folder = io.url(for: given).standardizedFileURL
        try makeFolder(folder.path, shown: Excerpt.of(given, limit: 200))
        var figures: [(caption: String, svg: String)] = []
        var written: [String] = []
        // The index's list: every page, what it shows in a line, and its spec and computed frames.
        // The pictures first: each page's drawing, scaled, with a line under it.
        var thumbnails: [(page: String, picture: String, line: String)] = [
            (
                "grid.html", "<iframe src=\"grid.html\" title=\"grid.html\" loading=\"lazy\" tabindex=\"-1\"></iframe>",
                "the data grid: 分数 ▼, 平均 pinned last; click a header to re-sort"
            ),
            (
                "scrolling.html", "<iframe src=\"scrolling.html\" title=\"scrolling.html\" loading=\"lazy\" tabindex=\"-1\"></iframe>",
                "a collection view scrolled: reuse, pinned headers, a carousel flick"
            ),
            (
                "interaction.html", "<iframe src=\"interaction.html\" title=\"interaction.html\" loading=\"lazy\" tabindex=\"-1\"></iframe>",
                "a drag that reorders, a drop onto a placeholder, springs, a pinch between layouts, right to left"
            ),
            ("list.svg", "<img src=\"list.svg\" alt=\"list\">", "a settings screen of list cells: content configurations, accessories"),
        ]
        var links =
            "<ul class=\"pages\">\n<li><a href=\"scrolling.html\">scrolling.html</a> — a collection view scrolled "
            + "step by step: the views on screen, the ones taken from the reuse queue, headers pinned to the top, and a "
            + "carousel flick coming to rest with an item centred</li>\n"
            + "<li><a href=\"interaction.html\">interaction.html</a> — a drag that reorders a photo grid, a photo dropped "
            + "from another app onto a placeholder, a spring layout settling after a scroll, a pinch between "
            + "a grid and a list scrubbed through its progress, and one flow layout left to right and right to left</li>\n"
            + "<li><a href=\"grid.html\">grid.html</a> — the data grid sorted by 分数 with "
            + "平均 pinned last; click a header to re-sort it in Trellis's order (natural, blanks last) "
            + "(<a href=\"grid.txt\">as text</a>)</li>\n"
            + "<li><a href=\"list.svg\">list.svg</a> — a settings screen made of list cells: each row's content "
            + "configuration (a symbol, a text, a value), chevrons, a checkmark, an outline row expanded by a tap on its "
            + "disclosure, a selected row, a title that wraps and makes its row taller</li>\n"
        for example in examples {
            let spec: LayoutSpec
            do { spec = try LayoutSpec.parse(Data(example.spec.utf8)) } catch {
                throw .failure("built-in example '\(example.name)' is invalid: \(error)")
            }
            let run = try LayoutRun.run(spec, rect: nil)
            var files = [
                ("\(example.name).spec.json", example.spec + "\n"),
                ("\(example.name).layout.json", run.json),
            ]
            let svg: String
            if let transition = run.transition {
                let renderer = TransitionRenderer(prefix: example.name)
                svg = renderer.render(transition, viewport: run.viewport, title: example.name)
                files.append(("\(example.name).html", renderer.page(title: example.name, caption: example.caption, svg: svg)))
            } else {
                // A spec that scrolls the view draws its viewport, as `trellis layout` draws it.
                let snapshot = run.snapshot
                svg = SVGRenderer(
                    title: example.name, viewport: spec.contentOffset != nil ? run.viewport : nil,
                    windows: run.orthogonalWindows(in: snapshot)
                ).render(snapshot)
            }
            // The spec beside its picture.
            figures.append(
                (
                    example.caption,
                    "<div class=\"pair\">" + svg + "<details open><summary>spec</summary><pre>"
                        + Markup.escape(example.spec) + "</pre></details></div>"
                ))
            files.append(("\(example.name).svg", svg))
            let page = run.transition != nil ? "\(example.name).html" : "\(example.name).svg"
            thumbnails.insert(
                (
                    page, "<img src=\"\(example.name).svg\" alt=\"\(Markup.escape(example.name))\">",
                    example.name + (run.transition != nil ? " (animated)" : "")
                ), at: thumbnails.count - 4)
            links +=
                "<li><a href=\"\(page)\">\(Markup.escape(example.name))</a> — \(Markup.escape(example.caption)) "
                + "(<a href=\"\(example.name).spec.json\">spec</a>, <a href=\"\(example.name).layout.json\">frames</a>)</li>\n"
            for (file, contents) in files {
                try io.write(contents, to: folder.appendingPathComponent(file).path)
                written.append(file)
            }
        }
        links += "</ul>\n"
        let gallery =
            "<div class=\"thumbs\">\n"
            + thumbnails.map { thumbnail in
                "<a class=\"thumb\" href=\"\(thumbnail.page)\"><div class=\"picture\">\(thumbnail.picture)</div>"
                    + "<span>\(Markup.escape(thumbnail.line))</span></a>\n"
            }.joined() + "</div>\n"
        try io.write(
            HTMLPage.render(
                title: "Trellis: layouts, transitions, scrolling and a sortable grid", figures: figures,
                style: ".thumbs{display:flex;flex-wrap:wrap;gap:16px;margin-bottom:24px}"
                    + ".thumb{width:200px;color:inherit;text-decoration:none;font-size:12px;line-height:1.35}"
                    + ".thumb .picture{width:200px;height:150px;overflow:hidden;border:1px solid #cbd5e1;"
                    + "background:#fff;display:flex;align-items:center;justify-content:center;margin-bottom:4px}"
                    + ".thumb img{max-width:196px;max-height:146px}"
                    + ".thumb iframe{width:800px;height:600px;border:0;transform:scale(0.25);transform-origin:0 0;"
                    + "flex:none;align-self:flex-start;margin-right:-600px;margin-bottom:-450px;pointer-events:none}"
                    + "ul.pages{max-width:760px;font-size:13px;line-height:1.5}"
                    + ".pair{display:flex;gap:16px;align-items:flex-start;flex-wrap:wrap}"
                    + ".pair pre{font-size:11px;max-width:520px;overflow:auto;background:#f8fafc;padding:8px}",
                preface: gallery + "<p>Every page of this folder, and what it shows:</p>\n" + links),
            to: folder.appendingPathComponent("index.html").path)
        written.append("index.html")
        // The grid: the user's table sorted by score, the 平均 row pinned to the bottom.
        do {
            let grid = DataGrid(bound: try CSV.table(Data(groupsCSV.utf8)))
            try grid.pin(.matching(column: "组号", value: "平均"), at: .bottom)
            try grid.sort(by: [SortKey("分数", .descending)])
            let page = try InteractiveGridPage.render(grid, title: "groups.csv by 分数, 平均 pinned last; click a header to sort") {
                SortKey($0, $1)
            }
            try io.write(page, to: folder.appendingPathComponent("grid.html").path)
            try io.write(GridRenderer.text(grid), to: folder.appendingPathComponent("grid.txt").path)
            written += ["grid.html", "grid.txt"]
        } catch let error as CommandError {
            throw error
        } catch {
            throw .failure("the built-in grid example failed: \(error)")
        }
        try io.write(scrollingPage(), to: folder.appendingPathComponent("scrolling.html").path)
        written.append("scrolling.html")
        try io.write(interactionPage(), to: folder.appendingPathComponent("interaction.html").path)
        written.append("interaction.html")
        try io.write(listScreen(), to: folder.appendingPathComponent("list.svg").path)
        written.append("list.svg")
        io.stdout += "Wrote \(written.count) files to \(folder.path)\n"
        io.stdout += "Open \(folder.appendingPathComponent("index.html").path) in a browser.\n"
    }

    /// Counts, cells and section headers for the scrolling page: what an app's data source does.
    final class ScrollingDataSource: CollectionViewDataSource {
        let counts: [Int]
        init(counts: [Int]) { self.counts = counts }
        func numberOfSections(in collectionView: CollectionView) -> Int { counts.count }
        func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { counts[section] }
        func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
            collectionView.dequeueReusableCell(withReuseIdentifier: "cell", for: indexPath)
        }
        func collectionView(
            _ collectionView: CollectionView, viewForSupplementaryElementOfKind kind: String,
            at indexPath: IndexPath
        ) -> CollectionReusableView {
            collectionView.dequeueReusableSupplementaryView(ofKind: kind, withReuseIdentifier: "header", for: indexPath)
        }
    }

    static func collectionView(frame: CGRect, layout: CollectionViewLayout, counts: [Int]) -> (CollectionView, ScrollingDataSource) {
        let view = CollectionView(frame: frame, collectionViewLayout: layout)
        view.register(CollectionViewCell.self, forCellWithReuseIdentifier: "cell")
        view.register(
            CollectionReusableView.self, forSupplementaryViewOfKind: CollectionView.elementKindSectionHeader,
            withReuseIdentifier: "header")
        let source = ScrollingDataSource(counts: counts)
        view.dataSource = source
        return (view, source)
    }

    /// The scrolling page: a flow layout with pinned headers scrolled top to bottom, and a
    /// carousel flicked to where it comes to rest — each a real collection view, recorded.
    static func scrollingPage() -> String {
        let flow = CollectionViewFlowLayout()
        flow.itemSize = CGSize(width: 92, height: 60)
        flow.minimumLineSpacing = 10
        flow.minimumInteritemSpacing = 10
        flow.sectionInset = EdgeInsets(top: 10, left: 10, bottom: 10, right: 10)
        flow.headerReferenceSize = CGSize(width: 0, height: 30)
        flow.sectionHeadersPinToVisibleBounds = true
        let (list, listSource) = collectionView(frame: CGRect(x: 0, y: 0, width: 320, height: 360), layout: flow, counts: [14, 12, 10])
        list.layoutIfNeeded()
        let bottom = list.contentOffsetRange.max.y
        let listRecording = ScrollRecording.record(list, offsets: (0...36).map { CGPoint(x: 0, y: (bottom * CGFloat($0) / 36).rounded()) })

        let carousel = CarouselLayout(itemSize: CGSize(width: 200, height: 150), spacing: 16)
        let (strip, stripSource) = collectionView(frame: CGRect(x: 0, y: 0, width: 320, height: 190), layout: carousel, counts: [8])
        strip.layoutIfNeeded()
        let velocity = CGPoint(x: 2.4, y: 0)
        let proposed = strip.projectedOffset(velocity: velocity, decelerationRate: strip.decelerationRate)
        let rest = strip.endDragging(withVelocity: velocity)
        strip.setContentOffset(.zero, animated: false)
        // The deceleration as a scroll view eases it: fast at first, slowing to rest.
        let flick = (0...24).map { (k: Int) -> CGPoint in
            let t = CGFloat(k) / 24
            return CGPoint(x: (rest.x * (1 - pow(1 - t, 3))).rounded(), y: 0)
        }
        let stripRecording = ScrollRecording.record(strip, offsets: flick)
        let centred = stripRecording.steps.last?.views.min { abs($0.frame.midX - rest.x - 160) < abs($1.frame.midX - rest.x - 160) }
        _ = (listSource, stripSource)
        let n = Markup.number
        return ScrollingPage.render(
            title: "Scrolling a collection view",
            scenes: [
                (
                    "A flow layout of 36 items in three sections, its headers pinned (sectionHeadersPinToVisibleBounds), "
                        + "scrolled from the top to the bottom: \(listRecording.mostOnScreen) views on screen at most, "
                        + "\(listRecording.viewsMade) made in all for \(listRecording.elements.count) elements.", listRecording
                ),
                (
                    "A carousel (a flow layout subclass whose targetContentOffset centres an item) flicked at \(n(velocity.x)) points "
                        + "per millisecond: scrolling would stop at x = \(n(proposed.x.rounded())); the layout moves the rest to "
                        + "x = \(n(rest.x)), where item \(centred?.label ?? "?") is centred.", stripRecording
                ),
            ])
    }

    /// Twenty-two photos of the shapes cameras and phones take, for the justified examples.
    static let photoSection = """
        {"items": [{"width": 4000, "height": 3000}, {"width": 1080, "height": 1080}, {"width": 3024, "height": 4032},
                   {"width": 3024, "height": 4032}, {"width": 1080, "height": 1920}, {"width": 1920, "height": 1080},
                   {"width": 6000, "height": 4000}, {"width": 3000, "height": 4000}, {"width": 1920, "height": 1080},
                   {"width": 1080, "height": 1080}, {"width": 4000, "height": 3000}, {"width": 1920, "height": 1080},
                   {"width": 1920, "height": 1080}, {"width": 1080, "height": 1080}, {"width": 6000, "height": 4000},
                   {"width": 1920, "height": 1080}, {"width": 1920, "height": 1080}, {"width": 1080, "height": 1920},
                   {"width": 3000, "height": 4000}, {"width": 1080, "height": 1920}, {"width": 5000, "height": 1600},
                   {"width": 3024, "height": 4032}]}
        """

    static let examples: [Example] = [
        Example(
            name: "circle-insert-delete",
            caption: """
                The classic custom-animation layout: items on a circle. Item 0 is deleted and shrinks into the centre as it fades; \
                a new item grows out of the centre from alpha 0; the others move around the circle to make room.
                """,
            spec: """
                {
                  "collectionView": {"width": 320, "height": 320, "displayScale": 2},
                  "layout": {"type": "circle", "itemSize": {"width": 56, "height": 56}},
                  "sections": [{"items": 6}],
                  "updates": [{"deleteItems": [[0, 0]]}, {"insertItems": [[0, 3]]}]
                }
                """),
        Example(
            name: "flow-insert-delete",
            caption: """
                A batch on a flow layout: one item deleted, two inserted and one moved. Items that stay slide to their \
                new places; the deleted one fades out where it was and the inserted ones fade in where they land.
                """,
            spec: """
                {
                  "collectionView": {"width": 320, "height": 260, "displayScale": 2},
                  "layout": {"type": "flow", "itemSize": {"width": 90, "height": 50},
                             "minimumLineSpacing": 10, "minimumInteritemSpacing": 10,
                             "sectionInset": {"top": 10, "left": 10, "bottom": 10, "right": 10}},
                  "sections": [{"items": 9}],
                  "updates": [{"deleteItems": [[0, 2]]}, {"insertItems": [[0, 0], [0, 5]]}, {"moveItem": {"from": [0, 8], "to": [0, 1]}}]
                }
                """),
        Example(
            name: "flow-readme",
            caption: """
                The README example: 7 items of 100 × 60 in a 375-point-wide view with 16-point side insets. \
                Full lines are justified; the last line is spaced as if it were full, so it lines up with the columns above.
                """,
            spec: """
                {
                  "collectionView": {"width": 375, "height": 667, "displayScale": 2},
                  "layout": {"type": "flow", "scrollDirection": "vertical",
                             "itemSize": {"width": 100, "height": 60},
                             "minimumLineSpacing": 10, "minimumInteritemSpacing": 10,
                             "sectionInset": {"top": 8, "left": 16, "bottom": 8, "right": 16},
                             "headerReferenceSize": {"width": 0, "height": 30}},
                  "sections": [
                    {"items": 7},
                    {"items": [{"width": 80, "height": 40}, {"width": 120, "height": 55}],
                     "sectionInset": {"top": 0, "left": 0, "bottom": 0, "right": 0}, "minimumLineSpacing": 6}
                  ]
                }
                """),
        Example(
            name: "carousel",
            caption: """
                A carousel: a horizontal flow layout subclass whose section inset lets the first and last items be \
                centred, and whose targetContentOffset makes scrolling come to rest with an item centred; the red \
                viewport is at x = 432, where item 2 is (scrolling.html flicks it).
                """,
            spec: """
                {
                  "collectionView": {"width": 320, "height": 190, "displayScale": 2},
                  "layout": {"type": "carousel", "itemSize": {"width": 200, "height": 150}, "minimumLineSpacing": 16},
                  "sections": [{"items": 6}],
                  "contentOffset": {"x": 432, "y": 0}
                }
                """),
        Example(
            name: "grid-photos",
            caption: """
                A grid layout: as many columns of at least 100 points as fit (3 in 375), square cells 2 points apart \
                under a 36-point header per section, every edge on the 3× pixel grid; nothing is stored per item.
                """,
            spec: """
                {
                  "collectionView": {"width": 375, "height": 600, "displayScale": 3},
                  "layout": {"type": "grid", "minimumColumnWidth": 100, "aspectRatio": 1,
                             "interitemSpacing": 2, "lineSpacing": 2, "headerHeight": 36},
                  "sections": [{"items": 7}, {"items": 5}]
                }
                """),
        Example(
            name: "waterfall-masonry",
            caption: """
                A waterfall (CHTCollectionViewWaterfallLayout's rules): three columns, each item scaled to the column \
                width and put in the shortest column, ties to the leftmost; item 6 spans all columns below the tallest one.
                """,
            spec: """
                {
                  "collectionView": {"width": 375, "height": 800, "displayScale": 2},
                  "layout": {"type": "waterfall", "columnCount": 3, "minimumColumnSpacing": 8, "minimumInteritemSpacing": 8,
                             "sectionInset": {"top": 8, "left": 8, "bottom": 8, "right": 8}, "headerHeight": 32},
                  "sections": [
                    {"items": [{"width": 400, "height": 300}, {"width": 300, "height": 400}, {"width": 400, "height": 600},
                               {"width": 300, "height": 500}, {"width": 400, "height": 400}, {"width": 400, "height": 400},
                               {"width": 1200, "height": 300, "fullSpan": true}, {"width": 400, "height": 600}, {"width": 400, "height": 600},
                               {"width": 400, "height": 600}, {"width": 400, "height": 400}, {"width": 600, "height": 400},
                               {"width": 300, "height": 400}, {"width": 500, "height": 300}]}
                  ]
                }
                """),
        Example(
            name: "waterfall-insert-delete",
            caption: """
                A batch on a waterfall: item 1 deleted and two items inserted. The items after them are placed in the \
                shortest columns again, so they move between columns; the inserted ones fade in where they land.
                """,
            spec: """
                {
                  "collectionView": {"width": 320, "height": 420, "displayScale": 2},
                  "layout": {"type": "waterfall", "columnCount": 3, "minimumColumnSpacing": 8, "minimumInteritemSpacing": 8,
                             "sectionInset": {"top": 8, "left": 8, "bottom": 8, "right": 8},
                             "itemSize": {"width": 100, "height": 80}},
                  "sections": [
                    {"items": [{"width": 100, "height": 140}, {"width": 100, "height": 60}, {"width": 100, "height": 100},
                               {"width": 100, "height": 80}, {"width": 100, "height": 120}, {"width": 100, "height": 50},
                               {"width": 100, "height": 90}, {"width": 100, "height": 70}]}
                  ],
                  "updates": [{"deleteItems": [[0, 1]]}, {"insertItems": [[0, 0], [0, 4]]}]
                }
                """),
        Example(
            name: "justified-gallery",
            caption: """
                Justified rows, Flickr's justified-layout numbers: photos scaled to a common height near the 120-point \
                target (±25%) so that each row fills the width; the widows of the last row are centred at the height of \
                the row above.
                """,
            spec: """
                {
                  "collectionView": {"width": 600, "height": 800, "displayScale": 2},
                  "layout": {"type": "justified", "targetRowHeight": 120, "boxSpacing": 4, "containerPadding": 8,
                             "widowLayoutStyle": "center"},
                  "sections": [
                    \(photoSection)
                  ]
                }
                """),
        Example(
            name: "justified-breakout",
            caption: """
                Every third row is a breakout row: its first photo, being landscape, fills the width alone (clamped to \
                twice the target height, so it keeps the width and not its ratio).
                """,
            spec: """
                {
                  "collectionView": {"width": 600, "height": 800, "displayScale": 2},
                  "layout": {"type": "justified", "targetRowHeight": 110, "boxSpacing": 4, "containerPadding": 8,
                             "fullWidthBreakoutRowCadence": 3},
                  "sections": [
                    \(photoSection)
                  ]
                }
                """),
        Example(
            name: "compositional-gallery",
            caption: """
                A compositional layout (UIKit's items, groups and sections): a carousel of cards 0.8 of the width that \
                scrolls on its own (here 120 points in: the dashed red frame is what is on screen, the faded cards are \
                off it), a grid with a header and a badge on each cell, nested groups \
                on a section background, and an inset grouped list with its header.
                """,
            spec: """
                {
                  "collectionView": {"width": 390, "height": 844, "displayScale": 3},
                  "layout": {"type": "compositional", "interSectionSpacing": 20},
                  "sections": [
                    {"items": 5, "orthogonalOffset": 120, "section": {
                      "group": {"kind": "horizontal", "size": {"width": {"fractionalWidth": 0.8}, "height": {"absolute": 200}},
                                "subitems": [{"size": {"width": {"fractionalWidth": 1}, "height": {"fractionalHeight": 1}}}]},
                      "orthogonalScrollingBehavior": "groupPagingCentered", "interGroupSpacing": 10,
                      "contentInsets": {"top": 10, "bottom": 10}}},
                    {"items": 7, "section": {
                      "group": {"kind": "horizontal", "size": {"width": {"fractionalWidth": 1}, "height": {"fractionalWidth": 0.3333333333}},
                                "subitems": [{"size": {"width": {"fractionalWidth": 0.3333333333}, "height": {"fractionalHeight": 1}},
                                              "contentInsets": {"top": 4, "leading": 4, "bottom": 4, "trailing": 4},
                                              "supplementaryItems": [{"elementKind": "badge", "size": {"width": {"absolute": 20}, "height": {"absolute": 20}},
                                                                      "containerAnchor": {"edges": ["top", "trailing"], "fractionalOffset": {"x": 0.3, "y": -0.3}}}]}]},
                      "contentInsets": {"top": 8, "bottom": 8},
                      "boundarySupplementaryItems": [{"elementKind": "header", "size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 44}}, "alignment": "top"}]}},
                    {"items": 3, "section": {
                      "group": {"kind": "horizontal", "size": {"width": {"fractionalWidth": 1}, "height": {"fractionalHeight": 0.4}},
                                "subitems": [{"size": {"width": {"fractionalWidth": 0.7}, "height": {"fractionalHeight": 1}}, "contentInsets": {"top": 10, "leading": 10, "bottom": 10, "trailing": 10}},
                                             {"kind": "vertical", "size": {"width": {"fractionalWidth": 0.3}, "height": {"fractionalHeight": 1}}, "count": 2,
                                              "subitems": [{"size": {"width": {"fractionalWidth": 1}, "height": {"fractionalHeight": 0.3}}, "contentInsets": {"top": 10, "leading": 10, "bottom": 10, "trailing": 10}}]}]},
                      "decorationItems": [{"elementKind": "background", "contentInsets": {"top": 5, "leading": 5, "bottom": 5, "trailing": 5}}]}},
                    {"items": 6, "section": {"list": {"appearance": "insetGrouped", "headerMode": "supplementary"}}}
                  ]
                }
                """),
        Example(
            name: "compositional-insert-delete",
            caption: """
                A batch on a compositional grid of three columns: item 1 deleted and two inserted; the items after them \
                move to their new cells, group by group.
                """,
            spec: """
                {
                  "collectionView": {"width": 320, "height": 360, "displayScale": 2},
                  "layout": {"type": "compositional",
                             "section": {"group": {"kind": "horizontal",
                                                   "size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 90}},
                                                   "subitems": [{"size": {"width": {"fractionalWidth": 0.3333333333333333},
                                                                          "height": {"fractionalHeight": 1}},
                                                                 "contentInsets": {"top": 4, "leading": 4, "bottom": 4, "trailing": 4}}]},
                                         "contentInsets": {"top": 8, "leading": 8, "bottom": 8, "trailing": 8}}},
                  "sections": [{"items": 7}],
                  "updates": [{"deleteItems": [[0, 1]]}, {"insertItems": [[0, 0], [0, 4]]}]
                }
                """),
        Example(
            name: "mixed-sizes",
            caption: """
                Items of mixed sizes: each full line is justified edge to edge, shorter items are centred \
                vertically in their line, and the last line (sizes differ) is left-aligned with the minimum spacing.
                """,
            spec: """
                {
                  "collectionView": {"width": 320, "height": 480, "displayScale": 2},
                  "layout": {"type": "flow", "minimumLineSpacing": 8, "minimumInteritemSpacing": 8,
                             "sectionInset": {"top": 12, "left": 12, "bottom": 12, "right": 12},
                             "headerReferenceSize": {"width": 0, "height": 28},
                             "footerReferenceSize": {"width": 0, "height": 20}},
                  "sections": [
                    {"items": [{"width": 90, "height": 40}, {"width": 60, "height": 60}, {"width": 100, "height": 30},
                               {"width": 140, "height": 50}, {"width": 70, "height": 70}, {"width": 50, "height": 40},
                               {"width": 200, "height": 36}, {"width": 80, "height": 44}, {"width": 60, "height": 30},
                               {"width": 110, "height": 50}]}
                  ]
                }
                """),
        Example(
            name: "centred-singles",
            caption: """
                An item that is alone on a full line is centred (even when wider than the line); \
                a lone item of a size that would fit several times on the last line starts at the leading inset.
                """,
            spec: """
                {
                  "collectionView": {"width": 300, "height": 400, "displayScale": 2},
                  "layout": {"type": "flow", "minimumLineSpacing": 10, "minimumInteritemSpacing": 10,
                             "sectionInset": {"top": 10, "left": 20, "bottom": 10, "right": 20}},
                  "sections": [
                    {"items": [{"width": 180, "height": 50}, {"width": 150, "height": 40}, {"width": 290, "height": 40},
                               {"width": 60, "height": 60}]}
                  ]
                }
                """),
        Example(
            name: "horizontal",
            caption: """
                Horizontal scrolling: lines become columns filled top to bottom, headers and footers use their \
                reference width and span the full height, and an item narrower than its column is centred in it.
                """,
            spec: """
                {
                  "collectionView": {"width": 600, "height": 240, "displayScale": 2},
                  "layout": {"type": "flow", "scrollDirection": "horizontal",
                             "itemSize": {"width": 70, "height": 50},
                             "minimumLineSpacing": 12, "minimumInteritemSpacing": 8,
                             "sectionInset": {"top": 10, "left": 10, "bottom": 10, "right": 10},
                             "headerReferenceSize": {"width": 36, "height": 0},
                             "footerReferenceSize": {"width": 24, "height": 0}},
                  "sections": [
                    {"items": 8},
                    {"items": [{"width": 90, "height": 60}, {"width": 50, "height": 40}, {"width": 70, "height": 90},
                               {"width": 110, "height": 50}, {"width": 60, "height": 60}]}
                  ]
                }
                """),
    ]

    /// The user's table (also `Examples/groups.csv`).
    static let groupsCSV = """
        组号,组长,分数,备注
        组1,张伟,88.5,进步明显
        组2,王芳,92,
        组3,李娜,75,缺一人
        组4,刘洋,92,
        组5,陈静,60.5,需复查
        组6,杨帆,81,
        组7,赵磊,99,第一
        组8,黄敏,70,
        组9,周杰,85.5,
        组10,吴昊,64,缺考一次
        组11,徐丽,92,
        组12,孙涛,77,
        平均,,81.375,

        """
}
