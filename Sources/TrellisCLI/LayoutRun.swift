import Foundation
import TrellisCollectionView
import TrellisRender

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

    /// Lays out `spec` in a headless collection view: scrolls to its offset, applies its batch of
    /// updates (to a copy of the data that the batch implies) and lists the elements in `rect`, or
    /// every element.
    public static func run(_ spec: LayoutSpec, rect: CGRect?) throws(CommandError) -> LayoutRun {
        let model = SpecModel(sections: spec.sections)
        let layout = spec.makeLayout()
        let view = CollectionView(frame: CGRect(x: 0, y: 0, width: spec.collectionView.width,
                                                height: spec.collectionView.height), collectionViewLayout: layout)
        view.contentInset = spec.collectionView.contentInset
        view.displayScale = spec.collectionView.displayScale
        view.register(CollectionViewCell.self, forCellWithReuseIdentifier: "")
        view.dataSource = model
        view.delegate = model
        view.layoutIfNeeded()
        if let offset = spec.contentOffset {
            view.contentOffset = offset
            view.layoutIfNeeded()
        }
        var transition: CollectionViewTransition?
        if let batch = spec.updates {
            let oldCounts = model.sections.map(\.count)
            do {
                let newCounts = try batch.expectedCounts(after: oldCounts)
                let mapping = try batch.validated(oldCounts: oldCounts, newCounts: newCounts)
                model.apply(mapping, defaultSize: spec.layout.itemSize)
                transition = try view.applyBatchUpdates { view.record(batch) }
            } catch {
                throw .data("$.updates: \(error.message)")
            }
        }
        return LayoutRun(layout: layout, rect: rect, transition: transition, viewport: view.bounds, view: view, model: model)
    }

    /// The listed elements and the content size, as the renderers take them.
    public var snapshot: LayoutSnapshot {
        let elements = layout.layoutAttributesForElements(in: rect ?? LayoutGeometry.everything) ?? []
        return LayoutSnapshot(contentSize: layout.collectionViewContentSize, elements: elements)
    }

    /// Writes the JSON output — the snapshot, plus `"transitions"` when there were updates — as
    /// the elements are produced, without holding them.
    public func writeJSON(to out: TextOutput) {
        let trailing: [(key: String, value: JSONValue)] = transition.map {
            [("transitions", .array($0.elements.map(Self.json)))]
        } ?? []
        let layout = self.layout, rect = self.rect ?? LayoutGeometry.everything
        LayoutJSONWriter.write(contentSize: layout.collectionViewContentSize,
                               elements: { layout.forEachLayoutAttributes(in: rect, $0) },
                               trailing: trailing, to: out)
    }

    /// The JSON output, in memory.
    public var json: String {
        let out = TextOutput()
        writeJSON(to: out)
        try? out.finish()
        return String(decoding: out.collected, as: UTF8.self)
    }

    static func json(_ id: ElementID) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("category", .string(id.category.name))]
        if let kind = id.kind { members.append(("kind", .string(kind))) }
        members.append(("indexPath", .array([.number(Double(id.section)), .number(Double(id.item))])))
        return .object(members)
    }

    static func json(_ element: CollectionViewTransition.Element) -> JSONValue {
        .object([
            ("role", .string(element.role.rawValue)),
            ("before", element.before.map(json) ?? .null),
            ("after", element.after.map(json) ?? .null),
            ("from", LayoutSnapshot.json(element.from)),
            ("to", LayoutSnapshot.json(element.to)),
        ])
    }
}

extension LayoutSpec {
    /// The layout the spec describes.
    func makeLayout() -> CollectionViewLayout {
        if layout.type == "circle" {
            let circle = CircleLayout()
            circle.itemSize = layout.itemSize.width
            return circle
        }
        let flow = CollectionViewFlowLayout()
        flow.scrollDirection = layout.scrollDirection
        flow.itemSize = layout.itemSize
        flow.minimumLineSpacing = layout.minimumLineSpacing
        flow.minimumInteritemSpacing = layout.minimumInteritemSpacing
        flow.sectionInset = layout.sectionInset
        flow.headerReferenceSize = layout.headerReferenceSize
        flow.footerReferenceSize = layout.footerReferenceSize
        return flow
    }
}

extension SpecModel: CollectionViewDataSource {
    /// Rebuilds the sections as they are after the update: surviving items keep their sizes,
    /// new items take `defaultSize`, surviving sections keep their overrides.
    func apply(_ mapping: UpdateMapping, defaultSize: CGSize) {
        let old = sections
        let varied = old.contains { $0.sizes != nil }
        sections = mapping.newCounts.enumerated().map { newSection, count in
            let oldSection = mapping.oldSection(forNew: newSection)
            var section = oldSection.map { old[$0] } ?? LayoutSpec.SectionSpec(count: 0)
            section.count = count
            if varied {
                section.sizes = (0..<count).map { item in
                    guard let path = mapping.oldIndexPath(forNew: IndexPath(item: item, section: newSection)) else {
                        return defaultSize
                    }
                    return old[path.section].sizes?[path.item] ?? defaultSize
                }
            }
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
