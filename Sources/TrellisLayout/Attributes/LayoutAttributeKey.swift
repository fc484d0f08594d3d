import Foundation

/// A key for an attribute that a layout adds to ``CollectionViewLayoutAttributes``: the value-type
/// replacement for subclassing `UICollectionViewLayoutAttributes`.
///
/// ```swift
/// enum CornerRadius: LayoutAttributeKey { static let defaultValue: CGFloat = 0 }
///
/// var attributes = CollectionViewLayoutAttributes(forCellWith: IndexPath(item: 0, section: 0))
/// attributes[CornerRadius.self] = 12
/// attributes[CornerRadius.self]  // 12
/// ```
///
/// Custom attributes take part in `==` (the host applies attributes to a cell only when they
/// differ from the last ones applied, so an attribute outside equality would never reach the
/// cell — the bug UIKit's documentation warns about when `isEqual:` is not overridden), and being
/// values they survive every copy without a `copy(with:)` override.
public protocol LayoutAttributeKey {
    /// The attribute's type.
    associatedtype Value: Equatable & Sendable
    /// The value reported when the attribute was never set.
    static var defaultValue: Value { get }
    /// The name used when attributes are printed or serialized. Defaults to the type's name.
    static var name: String { get }
}

extension LayoutAttributeKey {
    public static var name: String { String(describing: Self.self) }
}

/// Type-erased storage for one custom attribute value.
@usableFromInline
struct CustomAttributeBox: Sendable {
    @usableFromInline let value: any Sendable
    let name: String
    let isEqualTo: @Sendable (any Sendable) -> Bool

    init<K: LayoutAttributeKey>(_ key: K.Type, _ value: K.Value) {
        self.value = value
        self.name = K.name
        self.isEqualTo = { other in (other as? K.Value) == value }
    }
}
