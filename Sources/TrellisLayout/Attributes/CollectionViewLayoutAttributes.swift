import Foundation

/// Where and how one element of a collection view is shown: `UICollectionViewLayoutAttributes`
/// as a value type.
///
/// ```swift
/// var attributes = CollectionViewLayoutAttributes(forCellWith: IndexPath(item: 2, section: 0))
/// attributes.frame = CGRect(x: 16, y: 8, width: 100, height: 60)
/// attributes.center  // (66.0, 38.0)
/// attributes.size = CGSize(width: 50, height: 30)
/// attributes.frame   // (41.0, 23.0, 50.0, 30.0): setting the size keeps the center
/// ```
///
/// Being a value, an attribute set that a layout hands out can never be mutated behind the
/// layout's back, which removes UIKit's "cached frame mismatch" class of bugs: a subclass that
/// calls `super` and adjusts the result adjusts its own copy.
///
/// The index path is stored as two integers (section, item) because collection views only use
/// two-level paths, and building a Foundation `IndexPath` costs more than the rest of the value.
public struct CollectionViewLayoutAttributes: Equatable, Sendable, CustomStringConvertible {
    /// The element's frame in the collection view's content coordinates (before `transform3D`).
    public var frame: CGRect
    /// The 3D transform applied around the center.
    public var transform3D: Transform3D {
        get { transformBox?.value ?? .identity }
        set { transformBox = newValue.isIdentity ? nil : TransformBox(newValue) }
    }
    /// Most elements are untransformed: keeping the 128-byte matrix out of line keeps the value
    /// small, which is what makes building a page of attributes cheap.
    @usableFromInline var transformBox: TransformBox?
    /// The opacity, 0 (transparent) to 1 (opaque). Defaults to 1.
    public var alpha: CGFloat = 1
    /// The stacking order: higher draws above lower. Defaults to 0.
    public var zIndex: Int = 0
    /// Whether the element is hidden. Defaults to `false`.
    public var isHidden: Bool = false
    /// The section of the element's index path.
    public var section: Int
    /// The item of the element's index path (for a supplementary or decoration view, the
    /// index the layout chose for it within its section).
    public var item: Int
    /// Whether this describes a cell, a supplementary view or a decoration view.
    public let representedElementCategory: CollectionElementCategory
    /// The kind of supplementary or decoration view; `nil` for cells.
    public let representedElementKind: String?
    @usableFromInline var custom: [ObjectIdentifier: CustomAttributeBox] = [:]

    /// Attributes for the cell at `indexPath`, with a zero frame.
    public init(forCellWith indexPath: IndexPath) {
        self.init(category: .cell, kind: nil, section: indexPath.section, item: indexPath.item, frame: .zero)
    }

    /// Attributes for a supplementary view of `elementKind` at `indexPath`, with a zero frame.
    public init(forSupplementaryViewOfKind elementKind: String, with indexPath: IndexPath) {
        self.init(category: .supplementaryView, kind: elementKind,
                  section: indexPath.section, item: indexPath.item, frame: .zero)
    }

    /// Attributes for a decoration view of `decorationViewKind` at `indexPath`, with a zero frame.
    public init(forDecorationViewOfKind decorationViewKind: String, with indexPath: IndexPath) {
        self.init(category: .decorationView, kind: decorationViewKind,
                  section: indexPath.section, item: indexPath.item, frame: .zero)
    }

    /// Attributes built directly from their parts: the fast path layouts use when answering
    /// queries, which needs no `IndexPath`.
    @inlinable
    public init(category: CollectionElementCategory, kind: String?, section: Int, item: Int, frame: CGRect,
                zIndex: Int = 0) {
        self.representedElementCategory = category
        self.representedElementKind = kind
        self.section = section
        self.item = item
        self.frame = frame
        self.zIndex = zIndex
    }

    /// The element's index path (section, item).
    public var indexPath: IndexPath {
        get { IndexPath(item: item, section: section) }
        set { section = newValue.section; item = newValue.item }
    }

    /// The center of the frame. Setting it moves the frame and keeps its size.
    public var center: CGPoint {
        get { CGPoint(x: frame.midX, y: frame.midY) }
        set {
            frame.origin = CGPoint(x: newValue.x - frame.size.width / 2, y: newValue.y - frame.size.height / 2)
        }
    }

    /// The size of the frame. Setting it keeps the center, as in UIKit.
    public var size: CGSize {
        get { frame.size }
        set {
            let c = center
            frame = CGRect(x: c.x - newValue.width / 2, y: c.y - newValue.height / 2,
                           width: newValue.width, height: newValue.height)
        }
    }

    /// The element's bounds: its size at the origin. Setting it sets the size (and keeps the center).
    public var bounds: CGRect {
        get { CGRect(origin: .zero, size: frame.size) }
        set { size = newValue.size }
    }

    /// The 2D part of `transform3D`, in Foundation's `AffineTransform` (`m11 m12 m21 m22 tX tY`).
    /// Reading it when the transform has a 3D component returns the affine part UIKit would;
    /// setting it replaces the 3D transform, as setting `transform` does in UIKit.
    public var transform: AffineTransform {
        get {
            AffineTransform(m11: transform3D.m11, m12: transform3D.m12, m21: transform3D.m21,
                            m22: transform3D.m22, tX: transform3D.m41, tY: transform3D.m42)
        }
        set {
            var t = Transform3D.identity
            t.m11 = newValue.m11; t.m12 = newValue.m12; t.m21 = newValue.m21; t.m22 = newValue.m22
            t.m41 = newValue.tX; t.m42 = newValue.tY
            transform3D = t
        }
    }

    /// Reads or writes a custom attribute; reading one that was never set gives its default.
    public subscript<K: LayoutAttributeKey>(key: K.Type) -> K.Value {
        get { (custom[ObjectIdentifier(key)]?.value as? K.Value) ?? K.defaultValue }
        set { custom[ObjectIdentifier(key)] = CustomAttributeBox(key, newValue) }
    }

    /// The custom attributes that were set, as (name, value) pairs sorted by name.
    public var customAttributes: [(name: String, value: any Sendable)] {
        custom.values.map { ($0.name, $0.value) }.sorted { $0.name < $1.name }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        guard lhs.frame == rhs.frame, lhs.section == rhs.section, lhs.item == rhs.item,
              lhs.alpha == rhs.alpha, lhs.zIndex == rhs.zIndex, lhs.isHidden == rhs.isHidden,
              lhs.representedElementCategory == rhs.representedElementCategory,
              lhs.representedElementKind == rhs.representedElementKind,
              lhs.transformBox?.value == rhs.transformBox?.value, lhs.custom.count == rhs.custom.count else { return false }
        for (key, box) in lhs.custom {
            guard let other = rhs.custom[key], box.isEqualTo(other.value) else { return false }
        }
        return true
    }

    public var description: String {
        var parts = ["\(representedElementCategory)"]
        if let kind = representedElementKind { parts.append("kind: \(kind)") }
        parts.append("indexPath: [\(section), \(item)]")
        parts.append("frame: (\(frame.minX), \(frame.minY), \(frame.width), \(frame.height))")
        if zIndex != 0 { parts.append("zIndex: \(zIndex)") }
        if alpha != 1 { parts.append("alpha: \(alpha)") }
        if isHidden { parts.append("hidden") }
        if !transform3D.isIdentity { parts.append("transform3D: \(transform3D)") }
        for (name, value) in customAttributes { parts.append("\(name): \(value)") }
        return "<" + parts.joined(separator: "; ") + ">"
    }
}

/// Out-of-line storage for a non-identity transform.
@usableFromInline
final class TransformBox: Sendable {
    let value: Transform3D
    init(_ value: Transform3D) { self.value = value }
}
