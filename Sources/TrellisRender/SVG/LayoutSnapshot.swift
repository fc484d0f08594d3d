import Foundation
import TrellisCollectionView
import TrellisText

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
    /// A transition as `trellis layout` writes it: per element its role, its identity before and
    /// after, and its attributes at the start and the end.
    public static func json(_ transition: CollectionViewTransition) -> JSONValue {
        .array(
            transition.elements.map { element in
                .object([
                    ("role", .string(element.role.rawValue)),
                    ("before", element.before.map(json) ?? .null),
                    ("after", element.after.map(json) ?? .null),
                    ("from", json(element.from)),
                    ("to", json(element.to)),
                ])
            })
    }

    /// An element's identity: its category, kind and index path.
    public static func json(_ id: ElementID) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("category", .string(id.category.name))]
        if let kind = id.kind { members.append(("kind", .string(kind))) }
        members.append(("indexPath", .array([.number(Double(id.section)), .number(Double(id.item))])))
        return .object(members)
    }

    public static func json(_ r: CGRect) -> JSONValue {
        .object([
            ("x", .number(Double(r.minX))), ("y", .number(Double(r.minY))),
            ("width", .number(Double(r.width))), ("height", .number(Double(r.height))),
        ])
    }

    /// A size as `{"width", "height"}`.
    public static func json(_ s: CGSize) -> JSONValue {
        .object([("width", .number(Double(s.width))), ("height", .number(Double(s.height)))])
    }
}

/// Writes the JSON of a layout as it is computed, element by element: what `trellis layout`
/// prints, byte for byte the pretty serialization of ``LayoutSnapshot/json`` (plus any members
/// that follow), without building the document first.
public enum LayoutJSONWriter {
    /// Writes `{"contentSize": …, "elements": [ … ], <trailing members>}` and a final newline.
    /// `elements` calls its argument once per element, in order; the attributes need not outlive
    /// the call.
    public static func write(
        contentSize: CGSize,
        elements: ((CollectionViewLayoutAttributes) -> Void) -> Void,
        trailing: [(key: String, value: JSONValue)] = [],
        to out: TextOutput
    ) {
        var count = 0
        elements { attributes in
            if count == 0 {
                out.write("{\n  \"contentSize\": ")
                LayoutSnapshot.json(contentSize).write(to: out, nestedAt: 1)
                out.write(",\n  \"elements\": [\n    ")
            } else {
                out.write(",\n    ")
            }
            writeElement(attributes, to: out)
            count += 1
        }
        guard count > 0 else {
            // Without elements the document may be small enough to go on one line: leave that
            // to the serializer.
            JSONValue.object([("contentSize", LayoutSnapshot.json(contentSize)), ("elements", .array([]))] + trailing)
                .write(to: out, pretty: true)
            return
        }
        out.write("\n  ]")
        for member in trailing {
            out.write(",\n  ")
            JSONValue.writeQuoted(member.key, to: out)
            out.write(": ")
            member.value.write(to: out, nestedAt: 1)
        }
        out.write("\n}\n")
    }

    /// One element on one line, as ``LayoutSnapshot/json(_:)-swift.type.method`` serializes it.
    public static func writeElement(_ a: CollectionViewLayoutAttributes, to out: TextOutput) {
        out.write("{\"category\": \"")
        out.write(a.representedElementCategory.name)
        out.write("\"")
        if let kind = a.representedElementKind {
            out.write(", \"kind\": ")
            JSONValue.writeQuoted(kind, to: out)
        }
        out.write(", \"indexPath\": [")
        out.writeInteger(Int64(a.section))
        out.write(", ")
        out.writeInteger(Int64(a.item))
        out.write("], \"frame\": {\"x\": ")
        let frame = a.frame
        out.writeJSONNumber(Double(frame.minX))
        out.write(", \"y\": ")
        out.writeJSONNumber(Double(frame.minY))
        out.write(", \"width\": ")
        out.writeJSONNumber(Double(frame.width))
        out.write(", \"height\": ")
        out.writeJSONNumber(Double(frame.height))
        out.write("}, \"zIndex\": ")
        out.writeInteger(Int64(a.zIndex))
        out.write(", \"alpha\": ")
        out.writeJSONNumber(Double(a.alpha))
        out.write(a.isHidden ? ", \"isHidden\": true" : ", \"isHidden\": false")
        let transform = a.transform3D
        if !transform.isIdentity {
            out.write(", \"transform3D\": [")
            for (k, value) in transform.rows.flatMap({ $0 }).enumerated() {
                if k > 0 { out.write(", ") }
                out.writeJSONNumber(Double(value))
            }
            out.write("]")
        }
        out.write("}")
    }
}
