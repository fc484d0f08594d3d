import Testing
@_spi(Instrumentation) import TrellisCollectionView
import TrellisRender

@Suite("SVG and HTML")
struct SVGRendererTests {
    func snapshot() -> LayoutSnapshot {
        let header = CollectionViewLayoutAttributes(
            forSupplementaryViewOfKind: CollectionElementKindSectionHeader,
            with: IndexPath(item: 0, section: 0))
        header.frame = CGRect(x: 0, y: 0, width: 200, height: 20)
        header.zIndex = 10
        let cell = CollectionViewLayoutAttributes(forCellWith: IndexPath(item: 3, section: 0))
        cell.frame = CGRect(x: 10.25, y: 30, width: 60, height: 40)
        cell.alpha = 0.5
        cell.transform3D = Transform3DMakeScale(0.5, 0.5, 1)
        let background = CollectionViewLayoutAttributes(forDecorationViewOfKind: "<bg>", with: IndexPath(item: 0, section: 0))
        background.frame = CGRect(x: 0, y: 20, width: 200, height: 100)
        background.zIndex = -1
        let hidden = CollectionViewLayoutAttributes(forCellWith: IndexPath(item: 4, section: 0))
        hidden.isHidden = true
        return LayoutSnapshot(contentSize: CGSize(width: 200, height: 120), elements: [header, cell, background, hidden])
    }

    @Test("every visible element is drawn as a labelled box, decorations first, then by zIndex")
    func drawsElements() {
        let svg = SVGRenderer(title: "A & B").render(snapshot())
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.contains("A &amp; B"))
        let decoration = svg.range(of: "&lt;bg&gt; 0·0")!, cell = svg.range(of: ">0·3<")!, header = svg.range(of: ">header 0<")!
        #expect(decoration.lowerBound < cell.lowerBound && cell.lowerBound < header.lowerBound)
        #expect(svg.contains("opacity=\"0.5\""))
        #expect(svg.contains("matrix(0.5 0 0 0.5 0 0)"))
        #expect(svg.contains("x=\"10.25\""))
        #expect(!svg.contains("0·4"), "hidden elements are not drawn")
    }

    @Test("the same snapshot renders to the same bytes")
    func deterministic() {
        #expect(SVGRenderer().render(snapshot()) == SVGRenderer().render(snapshot()))
        let page = HTMLPage.render(title: "<t>", figures: [("c & d", SVGRenderer().render(snapshot()))])
        #expect(page == HTMLPage.render(title: "<t>", figures: [("c & d", SVGRenderer().render(snapshot()))]))
        #expect(page.contains("<title>&lt;t&gt;</title>") && page.contains("<figcaption>c &amp; d</figcaption>"))
    }

    @Test("the JSON form lists each element with its category, kind, index path and frame")
    func json() {
        let text = snapshot().json.serialized()
        #expect(
            text.contains(
                #"{"category": "supplementaryView", "kind": "sectionHeader", "indexPath": [0, 0], "frame": {"x": 0, "y": 0, "width": 200, "height": 20}, "zIndex": 10, "alpha": 1, "isHidden": false}"#
            ))
        #expect(text.contains(#""transform3D": [0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]"#))
    }
}

extension SVGRendererTests {
    @Test("a snapshot of a host lists every element, or those in a rect")
    func snapshotOfHost() {
        let layout = CollectionViewFlowLayout()
        layout.headerReferenceSize = CGSize(width: 0, height: 20)
        let host = StaticLayoutHost(layout: layout, itemCounts: [12], bounds: CGRect(x: 0, y: 0, width: 200, height: 100))
        let all = LayoutSnapshot(host: host)
        #expect(all.elements.count == 13)
        #expect(all.contentSize == host.contentSize)
        let some = LayoutSnapshot(host: host, rect: CGRect(x: 0, y: 0, width: 200, height: 40))
        #expect(some.elements.count == 1 + 3)
    }
}

@Suite("Labels that fit their boxes")
struct FittedLabelTests {
    @Test("a label stays as it is when it fits, turns upright in a tall box, is shortened, or is left out")
    func fitting() {
        #expect(SVGRenderer.fittedLabel("0·3", in: CGRect(x: 0, y: 0, width: 60, height: 40))! == ("0·3", false))
        #expect(SVGRenderer.fittedLabel("header 0", in: CGRect(x: 0, y: 0, width: 30, height: 300))! == ("header 0", true))
        #expect(SVGRenderer.fittedLabel("badge 1·4", in: CGRect(x: 0, y: 0, width: 24, height: 24))! == ("1·4", false))
        #expect(SVGRenderer.fittedLabel("1·2", in: CGRect(x: 0, y: 0, width: 20, height: 20))! == ("1·2", false))
        #expect(SVGRenderer.fittedLabel("background 2·0", in: CGRect(x: 0, y: 0, width: 40, height: 14))! == ("2·0", false))
        #expect(SVGRenderer.fittedLabel("header 12", in: CGRect(x: 0, y: 0, width: 16, height: 20)).map { $0.text } == "12")
        #expect(SVGRenderer.fittedLabel("header 1234", in: CGRect(x: 0, y: 0, width: 24, height: 14)).map { $0.text } == "1…")
        #expect(SVGRenderer.fittedLabel("0·3", in: CGRect(x: 0, y: 0, width: 5, height: 5)) == nil)
        // Chinese text counts twice.
        #expect(SVGRenderer.labelWidth("平均") == 22)
    }
}
