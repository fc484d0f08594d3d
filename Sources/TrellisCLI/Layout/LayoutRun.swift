import Foundation
import TrellisCollectionView
import TrellisLayouts
import TrellisRender
import TrellisText

/// What `trellis layout` computes for a spec: the layout after any updates, and the transition
/// of the updates.
///
/// ```swift
/// let spec = try LayoutSpec.parse(Data(#"{"collectionView": {"width": 375, "height": 667}, "sections": [{"items": 3}]}"#.utf8))
/// let run = try LayoutRun.run(spec, rect: nil)
/// run.snapshot.elements.count   // 3
/// ```
public struct LayoutRun {
    /// The layout, prepared, after any updates.
    public let layout: CollectionViewLayout
    /// The rectangle whose elements are listed, or `nil` for every element.
    public let rect: CGRect?
    /// The transition of the spec's updates, if it has any.
    public let transition: CollectionViewTransition?
    /// The collection view's bounds after the updates.
    public let viewport: CGRect
    /// The collection view and its data source, alive as long as the layout may ask them (the
    /// layout holds its collection view weakly, as in UIKit).
    private let view: CollectionView
    private let model: SpecModel
    private let sized: SizedSpecDelegate

    /// Lays out `spec` in a headless collection view: scrolls to its offset, applies its batch of
    /// updates (to a copy of the data that the batch implies) and lists the elements in `rect`, or
    /// every element.
    public static func run(_ spec: LayoutSpec, rect: CGRect?) throws(CommandError) -> LayoutRun {
        let model = SpecModel(sections: spec.sections)
        let layout = spec.makeLayout()
        let view = CollectionView(
            frame: CGRect(
                x: 0, y: 0, width: spec.collectionView.width,
                height: spec.collectionView.height), collectionViewLayout: layout)
        view.contentInset = spec.collectionView.contentInset
        view.displayScale = spec.collectionView.displayScale
        if spec.collectionView.layoutDirection == .rightToLeft { view.semanticContentAttribute = .forceRightToLeft }
        view.register(CollectionViewCell.self, forCellWithReuseIdentifier: "")
        view.dataSource = model
        let sized = SizedSpecDelegate(model: model, defaultSize: spec.layout.defaultItemSize)
        switch spec.layout {
        case .waterfall, .justified: view.delegate = sized
        case .flow, .grid, .compositional: view.delegate = model
        }
        // Without updates only the layout is needed, not the views on screen (a circle of ten
        // million items has every one of them on screen); a batch animates from the views.
        let settle = spec.updates == nil ? view.prepareLayoutIfNeeded : view.layoutIfNeeded
        settle()
        for (s, section) in spec.sections.enumerated() {
            if let offset = section.orthogonalOffset { view.setOrthogonalContentOffset(CGPoint(x: offset, y: offset), forSection: s) }
        }
        if let offset = spec.contentOffset {
            view.contentOffset = offset
            settle()
        }
        var transition: CollectionViewTransition?
        if let batch = spec.updates {
            do {
                transition = try view.applyBatchUpdates(batch) { model.apply($0, defaultSize: spec.layout.defaultItemSize) }
            } catch {
                throw .data("$.updates: \(error.message)")
            }
        }
        if let error = (layout as? LayoutConfigurationReporting)?.configurationError {
            throw .data(path(of: error, in: spec) + ": " + error.message)
        }
        return LayoutRun(
            layout: layout, rect: rect, transition: transition, viewport: view.bounds, view: view,
            model: model, sized: sized)
    }

    /// Where in the spec a layout error points: the item, the section or the layout.
    private static func path(of error: LayoutConfigurationError, in spec: LayoutSpec) -> String {
        guard let section = error.section else { return "$.layout" }
        if case .compositional = spec.layout {
            // The arrangement at fault: the section's own, or the layout's that it takes.
            return spec.sections.indices.contains(section) && spec.sections[section].compositional != nil
                ? "$.sections[\(section)].section" : "$.layout.section"
        }
        guard let item = error.item else { return "$.sections[\(section)]" }
        return spec.sections.indices.contains(section) && spec.sections[section].sizes != nil
            ? "$.sections[\(section)].items[\(item)]" : "$.sections[\(section)].items"
    }

    /// The listed elements and the content size, as the renderers take them: as the collection
    /// view shows them (mirrored in a right-to-left view whose layout asks for it).
    public var snapshot: LayoutSnapshot {
        var elements: [CollectionViewLayoutAttributes] = []
        forEachShownElement { elements.append($0.copy() as! CollectionViewLayoutAttributes) }
        return LayoutSnapshot(contentSize: layout.collectionViewContentSize, elements: elements)
    }

    /// The part on screen of each orthogonal section (a compositional section that scrolls
    /// across, in a layout that scrolls down) among `snapshot`'s elements, as the view shows it:
    /// the view's width over the band the section's items take; empty for other layouts.
    public func orthogonalWindows(in snapshot: LayoutSnapshot) -> [CGRect] {
        guard let compositional = layout as? CollectionViewCompositionalLayout else { return [] }
        let sections = (0..<view.numberOfSections).filter { compositional.orthogonalContentSize(forSection: $0) != nil }
        guard !sections.isEmpty else { return [] }
        let orthogonal = Set(sections)
        var bands: [Int: CGRect] = [:]
        for element in snapshot.elements where element.representedElementCategory == .cell && orthogonal.contains(element.indexPath.section) {
            bands[element.indexPath.section] = bands[element.indexPath.section].map { $0.union(element.frame) } ?? element.frame
        }
        let bounds = view.bounds
        return sections.compactMap { bands[$0] }.map { CGRect(x: bounds.minX, y: $0.minY, width: bounds.width, height: $0.height) }
    }

    /// Each listed element as the view shows it. The object may be reused once `body` returns.
    private func forEachShownElement(_ body: (CollectionViewLayoutAttributes) -> Void) {
        let rect = self.rect ?? LayoutGeometry.everything
        guard view.isMirroringLayout else { layout.forEachLayoutAttributes(in: rect, body); return }
        let view = self.view
        layout.forEachLayoutAttributes(in: self.rect.map { view.mirrored($0) } ?? rect) { body(view.mirrored($0)) }
    }

    /// Writes the JSON output — the snapshot, plus `"transitions"` when there were updates — as
    /// the elements are produced, without holding them.
    public func writeJSON(to out: TextOutput) {
        let trailing: [(key: String, value: JSONValue)] =
            transition.map {
                [("transitions", LayoutSnapshot.json($0))]
            } ?? []
        LayoutJSONWriter.write(
            contentSize: layout.collectionViewContentSize,
            elements: { forEachShownElement($0) },
            trailing: trailing, to: out)
    }

    /// The JSON output, in memory.
    public var json: String {
        let out = TextOutput()
        writeJSON(to: out)
        try? out.finish()
        return String(decoding: out.collected, as: UTF8.self)
    }
}

extension LayoutSpec {
    /// The layout the spec describes.
    func makeLayout() -> CollectionViewLayout { layout.makeLayout(sections: sections) }
}

extension SpecModel: CollectionViewDataSource {
    /// Rebuilds the sections as they are after the update: surviving items keep their sizes,
    /// new items take `defaultSize`, surviving sections keep their overrides.
    func apply(_ mapping: UpdateMapping, defaultSize: CGSize) {
        let old = sections
        // Per-item arrays only for what the spec gives per item: a batch over ten million items
        // of the default size holds nothing per item.
        let varied = old.contains { $0.sizes != nil }
        let spanning = old.contains { !$0.fullSpanItems.isEmpty }
        let sizes =
            varied
            ? mapping.apply(to: old.map { $0.sizes ?? Array(repeating: defaultSize, count: $0.count) }) { _ in defaultSize } : []
        let fullSpan =
            spanning
            ? mapping.apply(to: old.map { section in (0..<section.count).map(section.fullSpanItems.contains) }) { _ in false } : []
        sections = mapping.newCounts.enumerated().map { newSection, count in
            var section = mapping.oldSection(forNew: newSection).map { old[$0] } ?? LayoutSpec.SectionSpec(count: 0)
            section.count = count
            if varied { section.sizes = sizes[newSection] }
            section.fullSpanItems = spanning ? Set(fullSpan[newSection].indices.filter { fullSpan[newSection][$0] }) : []
            return section
        }
    }

    func numberOfSections(in collectionView: CollectionView) -> Int { sections.count }

    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int {
        sections.indices.contains(section) ? sections[section].count : 0
    }

    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
        collectionView.dequeueReusableCell(withReuseIdentifier: "", for: indexPath)
    }
}

/// A waterfall and justified delegate that answers every question with the protocols' defaults,
/// but for the one they have none for, the items' sizes, which it is never asked.
final class SizedDelegateDefaults: NSObject, CollectionViewDelegateWaterfallLayout, CollectionViewDelegateJustifiedLayout {
    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        sizeForItemAt indexPath: IndexPath
    ) -> CGSize { .zero }
}

/// The delegate of the layouts that scale items by their natural size (waterfall, justified):
/// the spec's sizes, full-span items and per-section values.
final class SizedSpecDelegate: NSObject, CollectionViewDelegateWaterfallLayout, CollectionViewDelegateJustifiedLayout {
    let model: SpecModel
    let defaultSize: CGSize

    init(model: SpecModel, defaultSize: CGSize) {
        self.model = model
        self.defaultSize = defaultSize
    }

    private func section(_ s: Int) -> LayoutSpec.SectionSpec? { model.sections.indices.contains(s) ? model.sections[s] : nil }

    /// What the library's delegates answer for what the spec leaves out (see ``FlowDelegateDefaults``).
    private let defaults = SizedDelegateDefaults()

    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        sizeForItemAt indexPath: IndexPath
    ) -> CGSize {
        section(indexPath.section)?.sizes?[indexPath.item] ?? defaultSize
    }

    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        sizesForItemsInSection s: Int
    ) -> [CGSize]? {
        // Without sizes of its own, the layout asks item by item and finds them all alike
        // (storing nothing per item); an array of a million equal sizes would be held.
        section(s)?.sizes
    }

    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        isFullSpanItemAt indexPath: IndexPath
    ) -> Bool {
        section(indexPath.section)?.fullSpanItems.contains(indexPath.item) ?? false
    }

    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        columnCountFor s: Int
    ) -> Int {
        section(s)?.columnCount
            ?? defaults.collectionView(collectionView, layout: collectionViewLayout, columnCountFor: s)
    }

    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        heightForHeaderIn s: Int
    ) -> CGFloat {
        section(s)?.headerHeight
            ?? defaults.collectionView(collectionView, layout: collectionViewLayout, heightForHeaderIn: s)
    }

    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        heightForFooterIn s: Int
    ) -> CGFloat {
        section(s)?.footerHeight
            ?? defaults.collectionView(collectionView, layout: collectionViewLayout, heightForFooterIn: s)
    }

    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        insetsFor s: Int
    ) -> EdgeInsets {
        section(s)?.sectionInset
            ?? defaults.collectionView(collectionView, layout: collectionViewLayout, insetsFor: s)
    }

    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        insetsForHeaderIn s: Int
    ) -> EdgeInsets {
        section(s)?.headerInset
            ?? defaults.collectionView(collectionView, layout: collectionViewLayout, insetsForHeaderIn: s)
    }

    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        insetsForFooterIn s: Int
    ) -> EdgeInsets {
        section(s)?.footerInset
            ?? defaults.collectionView(collectionView, layout: collectionViewLayout, insetsForFooterIn: s)
    }

    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        minimumInteritemSpacingFor s: Int
    ) -> CGFloat {
        section(s)?.minimumInteritemSpacing
            ?? defaults.collectionView(collectionView, layout: collectionViewLayout, minimumInteritemSpacingFor: s)
    }

    func collectionView(
        _ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout,
        minimumColumnSpacingFor s: Int
    ) -> CGFloat {
        section(s)?.minimumColumnSpacing
            ?? defaults.collectionView(collectionView, layout: collectionViewLayout, minimumColumnSpacingFor: s)
    }
}
