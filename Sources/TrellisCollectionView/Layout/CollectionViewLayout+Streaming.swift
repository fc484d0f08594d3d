import Foundation

/// One element that a layout finds in a rect: what an attributes object is made from.
///
/// A layout that keeps its frames in a geometry of its own walks it and hands each element to
/// ``CollectionViewLayout/layoutAttributes(recycling:_:)`` and
/// ``CollectionViewLayout/streamLayoutAttributes(in:walkOf:reusing:to:_:)``, which make the objects:
/// recycled ones where the layout's attributes class is the base class, objects of its own class
/// otherwise.
///
/// An element is plain bytes — its kind is held as a number standing for the kind's name — so
/// that a walk hands elements on without copying a string's reference at each.
public struct LayoutElement: Sendable {
    public var category: CollectionView.ElementCategory
    /// The supplementary or decoration kind; `nil` for a cell.
    @inlinable
    public var kind: String? {
        get { kindNumber == 0 ? nil : ElementKindNames.name(kindNumber) }
        set { kindNumber = ElementKindNames.number(newValue) }
    }
    /// The kind's number among the names seen (``ElementKindNames``); 0 for none.
    @usableFromInline var kindNumber: Int32
    public var section: Int
    public var item: Int
    public var frame: CGRect
    public var zIndex: Int

    @inlinable
    public init(
        _ category: CollectionView.ElementCategory, kind: String? = nil, section: Int, item: Int, frame: CGRect,
        zIndex: Int = 0
    ) {
        self.category = category
        kindNumber = ElementKindNames.number(kind)
        self.section = section
        self.item = item
        self.frame = frame
        self.zIndex = zIndex
    }
}

/// The kinds of supplementary and decoration views elements name, each given a number once:
/// a program uses a handful (headers, footers, its decorations).
@usableFromInline
enum ElementKindNames {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var names: [String] = []
    nonisolated(unsafe) private static var numbers: [String: Int32] = [:]

    /// The number of `kind`, 0 for none.
    @usableFromInline
    static func number(_ kind: String?) -> Int32 {
        guard let kind else { return 0 }
        lock.lock()
        defer { lock.unlock() }
        if let known = numbers[kind] { return known }
        names.append(kind)
        let number = Int32(names.count)
        numbers[kind] = number
        return number
    }

    /// The name of kind `number` (from 1).
    @usableFromInline
    static func name(_ number: Int32) -> String {
        lock.lock()
        defer { lock.unlock() }
        return names[Int(number) - 1]
    }
}

extension CollectionViewLayout {
    /// A new attributes object of the layout's ``layoutAttributesClass`` for `element`.
    public func makeLayoutAttributes(_ element: LayoutElement) -> CollectionViewLayoutAttributes {
        let type =
            (Swift.type(of: self).layoutAttributesClass as? CollectionViewLayoutAttributes.Type)
            ?? CollectionViewLayoutAttributes.self
        let attributes = type.init(
            category: element.category, kind: element.kind, section: element.section,
            item: element.item)
        attributes.frame = element.frame
        if element.zIndex != 0 { attributes.zIndex = element.zIndex }
        return attributes
    }

    /// Whether the layout's attributes are of the base class, whose objects a recycler may reset
    /// and hand out again (a subclass's could not be reset, and may observe its frame being set).
    @inlinable
    public var layoutAttributesAreRecyclable: Bool {
        (Swift.type(of: self).layoutAttributesClass as? CollectionViewLayoutAttributes.Type) == CollectionViewLayoutAttributes.self
    }

    /// The answer to a rect query, made from the layout's own walk over the elements in the rect:
    /// objects from `recycler` where they can be recycled, new objects of the layout's class
    /// otherwise; the result has room for as many elements as the last query returned.
    ///
    /// ```swift
    /// override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
    ///     layoutAttributes(recycling: recycler) { emit in
    ///         for item in geometry.items(in: rect) { emit(LayoutElement(.cell, section: 0, item: item, frame: geometry.frames[item])) }
    ///     }
    /// }
    /// ```
    ///
    /// - Complexity: the walk's, plus O(1) per element.
    @inlinable
    public func layoutAttributes(
        recycling recycler: AttributesRecycler,
        _ walk: (_ emit: (LayoutElement) -> Void) -> Void
    ) -> [CollectionViewLayoutAttributes] {
        var result: [CollectionViewLayoutAttributes] = []
        if layoutAttributesAreRecyclable {
            result.reserveCapacity(max(16, recycler.begin()))
            walk { element in result.append(recycler.make(element)) }
        } else {
            result.reserveCapacity(16)
            walk { element in result.append(makeLayoutAttributes(element)) }
        }
        return result
    }

    /// Streams a rect query through one reused object, straight from the layout's walk — unless
    /// the layout is an instance of a subclass of `layoutClass` (the class whose walk this is),
    /// which may have changed what a rect query answers: then what its
    /// ``layoutAttributesForElements(in:)`` answers is streamed, as the default does.
    ///
    /// ```swift
    /// override func forEachLayoutAttributes(in rect: CGRect, _ body: (CollectionViewLayoutAttributes) -> Void) {
    ///     streamLayoutAttributes(in: rect, walkOf: MyLayout.self, reusing: streamRecycler, to: body) { emit in
    ///         for item in geometry.items(in: rect) { emit(LayoutElement(.cell, section: 0, item: item, frame: geometry.frames[item])) }
    ///     }
    /// }
    /// ```
    ///
    /// - Complexity: the walk's, plus O(1) per element; no allocation per element.
    @inlinable
    public func streamLayoutAttributes(
        in rect: CGRect, walkOf layoutClass: AnyClass, reusing recycler: AttributesRecycler,
        to body: (CollectionViewLayoutAttributes) -> Void,
        _ walk: (_ emit: (LayoutElement) -> Void) -> Void
    ) {
        guard Swift.type(of: self) == layoutClass else {
            for attributes in layoutAttributesForElements(in: rect) ?? [] { body(attributes) }
            return
        }
        withoutActuallyEscaping(body) { body in
            walk { element in
                recycler.begin()
                body(recycler.make(element))
            }
        }
    }
}
