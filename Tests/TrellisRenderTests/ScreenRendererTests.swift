import Foundation
import Testing
import TrellisCollectionView
import TrellisLayouts
import TrellisRender

/// A list screen drawn as a person sees it: rows' texts where their content views put them, in
/// their fonts and colours, accessories as glyphs, backgrounds by state.
@Suite("Screen renderer")
@MainActor
struct ScreenRendererTests {
    static func settings() -> (CollectionView, CollectionViewDiffableDataSource<Int, String>) {
        let layout = CollectionViewCompositionalLayout.list(using: CollectionLayoutListConfiguration(appearance: .plain))
        let view = CollectionView(frame: CGRect(x: 0, y: 0, width: 375, height: 150), collectionViewLayout: layout)
        let registration = CollectionView.CellRegistration<ListCell, String> { cell, indexPath, title in
            var content = indexPath.item == 1 ? ListContentConfiguration.valueCell() : cell.defaultContentConfiguration()
            content.text = title
            if indexPath.item == 0 { content.image = Image(systemName: "airplane") }
            if indexPath.item == 1 { content.secondaryText = "家里的网络" }
            cell.contentConfiguration = content
            cell.backgroundConfiguration = cell.defaultBackgroundConfiguration()
            cell.accessories = indexPath.item == 2 ? [.checkmark()] : [.disclosureIndicator()]
        }
        let source = CollectionViewDiffableDataSource<Int, String>(collectionView: view) { view, indexPath, title in
            view.dequeueConfiguredReusableCell(using: registration, for: indexPath, item: title)
        }
        var snapshot = DiffableDataSourceSnapshot<Int, String>()
        snapshot.appendSections([0])
        snapshot.appendItems(["Airplane <Mode>", "Wi-Fi", "蓝牙", "Cellular", "Hotspot"])
        source.apply(snapshot, animatingDifferences: false)
        view.layoutIfNeeded()
        return (view, source)
    }

    @Test("texts at their content views' frames on their baselines, glyphs for accessories, the same bytes every time")
    func settingsScreen() throws {
        let (view, _) = Self.settings()
        let svg = ScreenRenderer().render(view)
        #expect(svg == ScreenRenderer().render(view), "deterministic")
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"375\" height=\"150\""))
        let body = Font.preferredFont(forTextStyle: .body)
        // Row 0: the text after the image's slot, its baseline the line's top plus the ascender.
        let baseline = Markup.number((44 - body.lineHeight) / 2 + body.ascender)
        #expect(svg.contains("<text x=\"61\" y=\"\(baseline)\" font-size=\"17\" font-weight=\"400\" fill=\"#000000\">Airplane &lt;Mode&gt;</text>"))
        #expect(svg.contains("<title>airplane</title>"))
        // Row 1: the secondary text in the secondary label's colour, at the trailing side.
        #expect(svg.contains("fill=\"#3C3C43\" fill-opacity=\"0.6\">家里的网络</text>"))
        // Row 4 is below 150 points: not drawn.
        #expect(svg.contains(">Cellular<") && !svg.contains(">Hotspot<"))
        #expect(svg.components(separatedBy: "<polyline").count - 1 == 4, "three chevrons and a checkmark")
        // A hairline under each row, from its text: after the image on row 0, at the margin below.
        let line = Markup.number(1 / view.traitCollection.displayScale)
        #expect(
            svg.contains(
                "<rect x=\"61\" y=\"\(Markup.number(44 - 1 / view.traitCollection.displayScale))\" width=\"314\" height=\"\(line)\" fill=\"#3C3C43\" fill-opacity=\"0.29\"/>"
            ))
        #expect(svg.components(separatedBy: "height=\"\(line)\" fill=\"#3C3C43\"").count - 1 == 4, "the four rows on screen")
    }

    @Test("a selected row's background is drawn grey; scrolled, what is on screen is drawn where it shows")
    func stateAndScrolling() throws {
        // (The data source is kept: the collection view holds it weakly, as UIKit's does.)
        let (view, source) = Self.settings()
        defer { withExtendedLifetime(source) {} }
        #expect(ScreenRenderer().render(view).contains("fill=\"#FFFFFF\"/>"))
        view.selectItem(at: IndexPath(item: 0, section: 0), animated: false, scrollPosition: [])
        #expect(ScreenRenderer().render(view).contains("rx=\"0\" fill=\"#D1D1D6\"/>"), "system grey 4")
        view.contentOffset = CGPoint(x: 0, y: 44)
        view.layoutIfNeeded()
        let svg = ScreenRenderer().render(view)
        #expect(svg.contains("<g transform=\"translate(0 -44)\">") && svg.contains(">Hotspot<") && !svg.contains("Airplane"))
    }

    @Test("a long text breaks at spaces and between CJK characters within its frame")
    func lines() {
        let body = Font.preferredFont(forTextStyle: .body)
        #expect(TextMeasure.breakLines(of: "分类汇总分类", font: body, width: 4 * 17) == ["分类汇总", "分类"])
        #expect(TextMeasure.breakLines(of: "one two", font: body, width: 40) == ["one ", "two"])
        #expect(TextMeasure.breakLines(of: "a\nb", font: body, width: 100) == ["a", "b"])
        // A word wider than the line breaks inside it; the count is the lines drawn.
        let long = "Supercalifragilistic"
        let broken = TextMeasure.breakLines(of: long, font: body, width: 60)
        #expect(broken.count > 2 && broken.joined() == long && broken.allSatisfy { TextMeasure.width(of: $0, font: body) <= 60.001 })
        #expect(TextMeasure.lines(of: long, font: body, width: 60) == broken.count)
    }
}
