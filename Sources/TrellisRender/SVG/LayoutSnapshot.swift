import Foundation
import TrellisCollectionView

/// A computed layout as plain data: its content size and the attributes of its elements, in a
/// stable order. What the renderers draw and the command line prints.
public struct LayoutSnapshot: Equatable {
    /// The content size of the layout.
    public var contentSize: CGSize
    /// The elements, in the order the layout returned them.
    public var elements: [CollectionViewLayoutAttributes]

    /// Creates a snapshot from a content size and elements.
    public init(contentSize: CGSize, elements: [CollectionViewLayoutAttributes]) {
        self.contentSize = contentSize
        self.elements = elements
    }

    /// A snapshot of `host`'s layout: the elements intersecting `rect`, or every element when
    /// `rect` is `nil`.
    public init(host: StaticLayoutHost, rect: CGRect? = nil) {
        let size = host.contentSize
        let elements = host.layoutAttributesForElements(in: rect ?? LayoutGeometry.everything) ?? []
        self.init(contentSize: size, elements: elements)
    }

    /// The snapshot as the JSON that `trellis layout --format json` writes:
    /// `{"contentSize": {…}, "elements": [{"category", "kind"?, "indexPath", "frame", "zIndex",
    /// "alpha", "isHidden", "transform3D"?}]}`.
    public var json: JSONValue {
        .object([
            ("contentSize", Self.json(contentSize)),
            ("elements", .array(elements.map(Self.json))),
        ])
    }

    /// One element as JSON.
    public static func json(_ a: CollectionViewLayoutAttributes) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("category", .string(a.representedElementCategory.name))]
        if let kind = a.representedElementKind { members.append(("kind", .string(kind))) }
        members.append(("indexPath", .array([.number(Double(a.section)), .number(Double(a.item))])))
        members.append(("frame", json(a.frame)))
        members.append(("zIndex", .number(Double(a.zIndex))))
        members.append(("alpha", .number(Double(a.alpha))))
        members.append(("isHidden", .bool(a.isHidden)))
        if !a.transform3D.isIdentity {
            members.append(("transform3D", .array(a.transform3D.rows.flatMap { $0 }.map { .number(Double($0)) })))
        }
        return .object(members)
    }

    /// A rectangle as `{"x", "y", "width", "height"}`.
    public static func json(_ r: CGRect) -> JSONValue {
        .object([("x", .number(Double(r.minX))), ("y", .number(Double(r.minY))),
                 ("width", .number(Double(r.width))), ("height", .number(Double(r.height)))])
    }

    /// A size as `{"width", "height"}`.
    public static func json(_ s: CGSize) -> JSONValue {
        .object([("width", .number(Double(s.width))), ("height", .number(Double(s.height)))])
    }
}
