import Foundation
import Testing
import TrellisCollectionView

@testable import TrellisRender

/// A data source as an app writes one: counts, and cells and headers dequeued by identifier.
final class ScrollTestSource: CollectionViewDataSource {
    let counts: [Int]
    init(_ counts: [Int]) { self.counts = counts }
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

@Suite("Scroll recordings")
struct ScrollRecordingTests {
    func list(_ counts: [Int], pinned: Bool) -> (CollectionView, ScrollTestSource) {
        let flow = CollectionViewFlowLayout()
        flow.itemSize = CGSize(width: 92, height: 60)
        flow.sectionInset = EdgeInsets(top: 10, left: 10, bottom: 10, right: 10)
        flow.headerReferenceSize = CGSize(width: 0, height: 30)
        flow.sectionHeadersPinToVisibleBounds = pinned
        let view = CollectionView(frame: CGRect(x: 0, y: 0, width: 320, height: 360), collectionViewLayout: flow)
        view.register(CollectionViewCell.self, forCellWithReuseIdentifier: "cell")
        view.register(
            CollectionReusableView.self, forSupplementaryViewOfKind: CollectionView.elementKindSectionHeader,
            withReuseIdentifier: "header")
        let source = ScrollTestSource(counts)
        view.dataSource = source
        return (view, source)
    }

    @Test("each step shows exactly what the layout puts in the viewport, pinned headers at the top, in reused views")
    func visibleSetAndReuse() {
        let (view, source) = list([14, 12, 10], pinned: true)
        view.layoutIfNeeded()
        let bottom = view.contentOffsetRange.max.y
        let offsets = (0...30).map { CGPoint(x: 0, y: (bottom * CGFloat($0) / 30).rounded()) }
        let recording = ScrollRecording.record(view, offsets: offsets)
        #expect(recording.steps.count == 31)
        #expect(recording.elements.count == 36 + 3)
        for (step, offset) in zip(recording.steps, offsets) {
            #expect(step.offset == offset)
            // Pinned headers are placed for the bounds: the layout is asked at the step's offset.
            view.setContentOffset(offset, animated: false)
            let visible = CGRect(origin: offset, size: recording.viewport)
            let expected = (view.collectionViewLayout.layoutAttributesForElements(in: visible) ?? [])
                .filter { LayoutGeometry.intersects($0.frame, visible) }.map { SVGRenderer.label($0) }
            #expect(Set(step.views.map(\.label)) == Set(expected), "at \(offset.y)")
            // Distinct elements in distinct views.
            #expect(Set(step.views.map(\.view)).count == step.views.count)
            for header in step.views where header.pinned {
                #expect(header.category == .supplementaryView)
                // Pinned: at the top of the viewport, or pushed up by the end of its section.
                #expect(header.frame.minY >= offset.y - 30 && header.frame.minY <= offset.y + 0.5, "\(header.label) at \(offset.y)")
            }
        }
        // Somewhere in the middle a header is pinned, and views are reused as the scroll goes on.
        #expect(recording.steps.contains { $0.views.contains(where: \.pinned) })
        #expect(recording.steps.contains { $0.views.contains(where: \.reused) })
        #expect(recording.viewsMade < recording.elements.count, "views are reused rather than made for every element")
        #expect(recording.viewsMade <= recording.mostOnScreen + 6)
        // A view that came back from the queue shows another element than it did before.
        var last: [Int: String] = [:]
        for step in recording.steps {
            for v in step.views {
                if v.reused { #expect(last[v.view] != nil && last[v.view] != v.label) }
                last[v.view] = v.label
            }
        }
        _ = source
    }

    @Test("without pinning no header is marked pinned; the page embeds every step and reads without script")
    func unpinnedAndPage() {
        let (view, source) = list([9, 9], pinned: false)
        view.layoutIfNeeded()
        let recording = ScrollRecording.record(view, offsets: [CGPoint(x: 0, y: 0), CGPoint(x: 0, y: 150), CGPoint(x: 0, y: 300)])
        #expect(!recording.steps.contains { $0.views.contains(where: \.pinned) })
        // At y = 150 the first header and row are gone and rows further down came on screen.
        #expect(recording.steps[1].hidden.contains("header 0") && recording.steps[1].hidden.contains("0·0"))
        #expect(!recording.steps[1].shown.isEmpty && !recording.steps[1].shown.contains { recording.steps[0].views.map(\.label).contains($0) })
        let page = ScrollingPage.render(title: "t", scenes: [("a <list>", recording)])
        #expect(page.contains("a &lt;list&gt;"))
        #expect(page.contains("<script type=\"application/json\" class=\"recording\">"))
        // The table lists every step; the first step is drawn without script.
        #expect(page.components(separatedBy: "<tr><td>").count - 1 == 3)
        #expect(page.contains("data-label=\"0·0\" data-view=\"1\""), "the first step is drawn without script")
        #expect(page == ScrollingPage.render(title: "t", scenes: [("a <list>", recording)]), "deterministic")
        _ = source
    }
}
