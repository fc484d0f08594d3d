import Foundation

/// Where and how one element of a collection view is shown: `UICollectionViewLayoutAttributes`
/// without the prefix, with its reference semantics, copying and equality.
///
/// ```swift
/// let attributes = CollectionViewLayoutAttributes(forCellWith: IndexPath(item: 2, section: 0))
/// attributes.frame = CGRect(x: 16, y: 8, width: 100, height: 60)
/// attributes.center  // (66.0, 38.0)
/// attributes.size = CGSize(width: 50, height: 30)
/// attributes.frame   // (41.0, 23.0, 50.0, 30.0): setting the size keeps the center
/// ```
///
/// As in UIKit, attributes are objects: a layout may cache them in `prepare()` and change them
/// later, and a subclass that calls `super` gets objects it may adjust. Layouts that hand out
/// cached objects should return copies where a caller may change them (`copy() as! …`), the
/// contract UIKit documents.
///
/// Subclass to carry custom attributes: add properties, override ``copy(with:)`` (call `super`
/// and set the new properties on the copy) and ``isEqual(_:)`` (compare them, then call
/// `super`), and return the subclass from the layout's `layoutAttributesClass`. The collection
/// view applies attributes to a view only when ``isEqual(_:)`` says they changed.
///
/// A subclass that declares its own designated initialisers must also override `init()`, so that
/// it inherits the category initialisers through which layouts and ``copy(with:)`` create it.
open class CollectionViewLayoutAttributes: NSObject, NSCopying {
    // Layouts build an object for every element a query returns, so the storage is kept small and
    // cheap to set: no run-time exclusivity checks (each access is a plain load or store that no
    // other access can overlap), the rarely used 3D transform out of line.

    /// The frame and center are both kept, as UIKit keeps them, so that each reads back exactly
    /// what was set.
    @exclusivity(unchecked) private var storedFrame = CGRect.zero
    @exclusivity(unchecked) private var storedCenter = CGPoint.zero
    /// A non-identity transform; `nil` is the identity.
    @exclusivity(unchecked) private var storedTransform: TransformBox?
    /// The index path as two integers: building a Foundation `IndexPath` costs more than the rest
    /// of the object, and collection views use two-level paths. Paths of another length are kept
    /// whole in `otherPath`.
    @exclusivity(unchecked) package private(set) var section = 0
    @exclusivity(unchecked) package private(set) var item = 0
    @exclusivity(unchecked) private var otherPath: IndexPath?
    /// Whether the index path has two indexes (section and item), as nearly every one has.
    package var hasTwoIndexPath: Bool { otherPath == nil }

    /// The storage of the three overridable properties below, which ``reset(category:kind:section:item:frame:)``
    /// writes directly (a recycled object is of this very class).
    @exclusivity(unchecked) private var storedAlpha: CGFloat = 1
    @exclusivity(unchecked) private var storedZIndex = 0
    @exclusivity(unchecked) private var storedIsHidden = false

    /// The opacity, 0 (transparent) to 1 (opaque). Defaults to 1.
    open var alpha: CGFloat {
        get { storedAlpha }
        set { storedAlpha = newValue }
    }
    /// The stacking order: higher draws above lower. Defaults to 0.
    open var zIndex: Int {
        get { storedZIndex }
        set { storedZIndex = newValue }
    }
    /// Whether the element is hidden. Defaults to `false`.
    open var isHidden: Bool {
        get { storedIsHidden }
        set { storedIsHidden = newValue }
    }
    /// Whether this describes a cell, a supplementary view or a decoration view.
    @exclusivity(unchecked) public private(set) var representedElementCategory: CollectionView.ElementCategory = .cell
    /// The kind of supplementary or decoration view; `nil` for cells.
    @exclusivity(unchecked) public private(set) var representedElementKind: String?

    /// Attributes of a cell at `[0, 0]` with a zero frame.
    public override init() {
        super.init()
    }

    /// Attributes built from their parts, without a Foundation `IndexPath`: how the built-in
    /// layouts create the objects of a query through `layoutAttributesClass`.
    public required convenience init(
        category: CollectionView.ElementCategory, kind: String?,
        section: Int, item: Int
    ) {
        self.init()
        // Stores only what differs from the defaults: this runs for every element of every query.
        if category != .cell { representedElementCategory = category }
        if kind != nil { representedElementKind = kind }
        self.section = section
        self.item = item
    }

    /// Attributes for the cell at `indexPath`, with a zero frame.
    public convenience init(forCellWith indexPath: IndexPath) {
        self.init(category: .cell, kind: nil, section: 0, item: 0)
        self.indexPath = indexPath
    }

    /// Attributes for a supplementary view of `elementKind` at `indexPath`, with a zero frame.
    public convenience init(forSupplementaryViewOfKind elementKind: String, with indexPath: IndexPath) {
        self.init(category: .supplementaryView, kind: elementKind, section: 0, item: 0)
        self.indexPath = indexPath
    }

    /// Attributes for a decoration view of `decorationViewKind` at `indexPath`, with a zero frame.
    public convenience init(forDecorationViewOfKind decorationViewKind: String, with indexPath: IndexPath) {
        self.init(category: .decorationView, kind: decorationViewKind, section: 0, item: 0)
        self.indexPath = indexPath
    }

    // MARK: Geometry

    /// The element's frame in the collection view's content coordinates (before the transform).
    /// Setting it sets ``center`` and ``size`` too.
    open var frame: CGRect {
        get { storedFrame }
        set {
            setFrameOfBaseObject(newValue)
        }
    }

    /// The center of the frame. Setting it moves the frame and keeps its size.
    open var center: CGPoint {
        get { storedCenter }
        set {
            storedCenter = newValue
            let size = storedFrame.size
            storedFrame.origin = CGPoint(x: newValue.x - size.width / 2, y: newValue.y - size.height / 2)
        }
    }

    /// The size of the frame. Setting it keeps the center, as in UIKit.
    open var size: CGSize {
        get { storedFrame.size }
        set {
            storedFrame = CGRect(
                x: storedCenter.x - newValue.width / 2, y: storedCenter.y - newValue.height / 2,
                width: newValue.width, height: newValue.height)
        }
    }

    /// The element's bounds: its size at the origin. Setting it sets the size (and keeps the center).
    open var bounds: CGRect {
        get { CGRect(origin: .zero, size: storedFrame.size) }
        set { size = newValue.size }
    }

    /// The 3D transform applied around the center. Defaults to the identity.
    open var transform3D: Transform3D {
        get { storedTransform?.value ?? Transform3DIdentity }
        set { storedTransform = newValue.isIdentity ? nil : TransformBox(newValue) }
    }

    /// The 2D affine transform: the affine part of ``transform3D``. Setting it replaces the 3D
    /// transform, as in UIKit.
    open var transform: CGAffineTransform {
        get { Transform3DGetAffineTransform(transform3D) }
        set { transform3D = Transform3DMakeAffineTransform(newValue) }
    }

    /// The element's index path.
    open var indexPath: IndexPath {
        get { otherPath ?? IndexPath(item: item, section: section) }
        set {
            if newValue.count == 2 {
                section = newValue[0]
                item = newValue[1]
                otherPath = nil
            } else {
                section = newValue.count > 0 ? newValue[0] : 0
                item = 0
                otherPath = newValue
            }
        }
    }

    /// Sets the frame of an object known to be of this very class, past the overridable setter
    /// (the setter's own body): the center is the frame's middle, `origin + size / 2`.
    @inline(__always)
    package func setFrameOfBaseObject(_ frame: CGRect) {
        storedFrame = frame
        storedCenter = CGPoint(x: frame.origin.x + frame.size.width / 2, y: frame.origin.y + frame.size.height / 2)
    }

    /// Makes a recycled object of this very class describe another element, as if new.
    package func reset(
        category: CollectionView.ElementCategory, kind: String?, section: Int, item: Int,
        frame: CGRect
    ) {
        representedElementCategory = category
        representedElementKind = kind
        self.section = section
        self.item = item
        otherPath = nil
        setFrameOfBaseObject(frame)
        storedTransform = nil
        storedAlpha = 1
        storedZIndex = 0
        storedIsHidden = false
    }

    /// A copy (of this object's class), mirrored across `width`: its center's x becomes
    /// `width − x`; the element's content is not mirrored.
    package func mirroredSnapshot(across width: CGFloat) -> CollectionViewLayoutAttributes {
        let copy = snapshot()
        copy.center.x = width - center.x
        return copy
    }

    /// A copy of this object of the base class, mirrored across `width` (its center's x becomes
    /// `width − x`), from `recycler`: what a right-to-left collection view shows for it.
    package func mirroredCopy(across width: CGFloat, recycler: AttributesRecycler) -> CollectionViewLayoutAttributes {
        let copy = recycler.make(
            category: representedElementCategory, kind: representedElementKind, section: section,
            item: item, frame: storedFrame)
        copy.otherPath = otherPath
        copy.storedFrame = CGRect(
            x: width - storedFrame.origin.x - storedFrame.size.width, y: storedFrame.origin.y,
            width: storedFrame.size.width, height: storedFrame.size.height)
        copy.storedCenter = CGPoint(x: width - storedCenter.x, y: storedCenter.y)
        copy.storedTransform = storedTransform
        copy.storedAlpha = storedAlpha
        copy.storedZIndex = storedZIndex
        copy.storedIsHidden = storedIsHidden
        return copy
    }

    /// Sets the index path from its two parts (the fast path of the built-in layouts).
    package func setIndexPath(section: Int, item: Int) {
        self.section = section
        self.item = item
        otherPath = nil
    }

    /// Whether the index path has the usual two parts.
    package var hasTwoPartIndexPath: Bool { otherPath == nil }

    // MARK: Copying and equality

    /// A copy of the same dynamic class with every attribute copied. Subclasses override to copy
    /// their own attributes onto the copy `super` returns.
    open func copy(with zone: NSZone? = nil) -> Any {
        copyingBaseAttributes(
            into: type(of: self).init(
                category: representedElementCategory, kind: representedElementKind,
                section: section, item: item))
    }

    /// A copy, without the `Any` round trip of ``copy(with:)`` for objects of the base class,
    /// whose copying no subclass can change.
    package final func snapshot() -> CollectionViewLayoutAttributes {
        guard type(of: self) == CollectionViewLayoutAttributes.self else {
            return copy() as? CollectionViewLayoutAttributes ?? self
        }
        return copyingBaseAttributes(
            into: CollectionViewLayoutAttributes(
                category: representedElementCategory,
                kind: representedElementKind,
                section: section, item: item))
    }

    private func copyingBaseAttributes(into copy: CollectionViewLayoutAttributes) -> CollectionViewLayoutAttributes {
        copy.otherPath = otherPath
        copy.storedFrame = storedFrame
        copy.storedCenter = storedCenter
        copy.storedTransform = storedTransform
        copy.alpha = alpha
        copy.zIndex = zIndex
        copy.isHidden = isHidden
        return copy
    }

    /// Whether `object` is of the same class and describes the same element with the same
    /// attributes: index path, category, kind, frame, center, transform, alpha, zIndex and hidden.
    /// Subclasses with custom attributes override it, compare theirs, and call `super`.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CollectionViewLayoutAttributes, type(of: other) == type(of: self) else { return false }
        return hasEqualBaseAttributes(other)
    }

    /// ``isEqual(_:)`` without the `Any` round trip when both objects are of the base class, whose
    /// equality no subclass can change: what the collection view runs for every visible element
    /// of every pass.
    package final func isEqualAttributes(_ other: CollectionViewLayoutAttributes) -> Bool {
        if type(of: self) == CollectionViewLayoutAttributes.self, type(of: other) == CollectionViewLayoutAttributes.self {
            return hasEqualBaseAttributes(other)
        }
        return isEqual(other)
    }

    private func hasEqualBaseAttributes(_ other: CollectionViewLayoutAttributes) -> Bool {
        if other === self { return true }
        return section == other.section && item == other.item && otherPath == other.otherPath
            && representedElementCategory == other.representedElementCategory
            && representedElementKind == other.representedElementKind
            && storedFrame == other.storedFrame && storedCenter == other.storedCenter
            && alpha == other.alpha && zIndex == other.zIndex && isHidden == other.isHidden
            && (storedTransform?.value ?? Transform3DIdentity).isEqual(to: other.storedTransform?.value ?? Transform3DIdentity)
    }

    /// A hash of the element's identity (category, kind and index path), consistent with
    /// ``isEqual(_:)``.
    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(section)
        hasher.combine(item)
        hasher.combine(representedElementCategory)
        hasher.combine(representedElementKind)
        return hasher.finalize()
    }

    open override var description: String {
        var parts = ["\(type(of: self))", "\(representedElementCategory.name)"]
        if let kind = representedElementKind { parts.append("kind: \(kind)") }
        parts.append("indexPath: \(Array(indexPath))")
        parts.append("frame: (\(frame.minX), \(frame.minY), \(frame.width), \(frame.height))")
        if zIndex != 0 { parts.append("zIndex: \(zIndex)") }
        if alpha != 1 { parts.append("alpha: \(alpha)") }
        if isHidden { parts.append("hidden") }
        if let transform = storedTransform?.value { parts.append("transform3D: \(transform.summary)") }
        return "<" + parts.joined(separator: "; ") + ">"
    }
}

/// Out-of-line storage for a non-identity transform: an immutable box, shared by copies.
private final class TransformBox: Sendable {
    let value: Transform3D
    init(_ value: Transform3D) { self.value = value }
}
