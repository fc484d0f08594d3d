import Foundation

extension CollectionView {
    /// How cells of one class are made and configured for items of one type
    /// (`UICollectionView.CellRegistration`): create it once, then dequeue with
    /// ``CollectionView/dequeueConfiguredReusableCell(using:for:item:)``, which registers the
    /// class on first use and calls the handler with the cell, its index path and the item.
    ///
    /// ```swift
    /// final class NameCell: CollectionViewCell { var name = "" }
    /// let registration = CollectionView.CellRegistration<NameCell, String> { cell, indexPath, name in
    ///     cell.name = name
    /// }
    /// ```
    public struct CellRegistration<Cell: CollectionViewCell, Item> {
        /// Configures a dequeued cell for an item.
        public typealias Handler = (_ cell: Cell, _ indexPath: IndexPath, _ itemIdentifier: Item) -> Void
        /// The handler the registration was made with.
        public let handler: Handler
        let reuseIdentifier: String

        /// A registration whose cells are configured by `handler`.
        public init(handler: @escaping Handler) {
            self.handler = handler
            reuseIdentifier = RegistrationIdentifiers.next("cell", Cell.self)
        }
    }

    /// How supplementary views of one class and kind are made and configured
    /// (`UICollectionView.SupplementaryRegistration`).
    public struct SupplementaryRegistration<Supplementary: CollectionReusableView> {
        /// Configures a dequeued view for its kind and index path.
        public typealias Handler = (_ supplementaryView: Supplementary, _ elementKind: String, _ indexPath: IndexPath) -> Void
        /// The kind of element the views are for.
        public let elementKind: String
        /// The handler the registration was made with.
        public let handler: Handler
        let reuseIdentifier: String

        /// A registration for views of `elementKind`, configured by `handler`.
        public init(elementKind: String, handler: @escaping Handler) {
            self.elementKind = elementKind
            self.handler = handler
            reuseIdentifier = RegistrationIdentifiers.next(elementKind, Supplementary.self)
        }
    }

    /// A cell of the registration's class for `indexPath`, configured by its handler for `item`.
    /// A `nil` item leaves the cell unconfigured and is recorded in ``diagnostics`` (UIKit
    /// raises).
    public func dequeueConfiguredReusableCell<Cell, Item>(
        using registration: CellRegistration<Cell, Item>,
        for indexPath: IndexPath, item: Item?
    ) -> Cell {
        if !pool.isRegistered(.cell, registration.reuseIdentifier) {
            register(Cell.self, forCellWithReuseIdentifier: registration.reuseIdentifier)
        }
        let dequeued = dequeueReusableCell(withReuseIdentifier: registration.reuseIdentifier, for: indexPath)
        // The class registered for the identifier is `Cell`: the cast holds unless a cell being
        // reconfigured was handed back, which is of the same registration.
        let cell = dequeued as? Cell ?? Cell(reuseIdentifier: registration.reuseIdentifier)
        guard let item else {
            note(.noItemToConfigure(indexPath))
            return cell
        }
        registration.handler(cell, indexPath, item)
        return cell
    }

    /// A supplementary view of the registration's class and kind for `indexPath`, configured by
    /// its handler.
    public func dequeueConfiguredReusableSupplementary<Supplementary>(
        using registration: SupplementaryRegistration<Supplementary>,
        for indexPath: IndexPath
    ) -> Supplementary {
        let kind = registration.elementKind
        if !pool.isRegistered(.supplementary(kind), registration.reuseIdentifier) {
            register(Supplementary.self, forSupplementaryViewOfKind: kind, withReuseIdentifier: registration.reuseIdentifier)
        }
        let dequeued = dequeueReusableSupplementaryView(
            ofKind: kind, withReuseIdentifier: registration.reuseIdentifier,
            for: indexPath)
        let view = dequeued as? Supplementary ?? Supplementary(reuseIdentifier: registration.reuseIdentifier)
        registration.handler(view, kind, indexPath)
        return view
    }
}

/// Reuse identifiers for registrations: one per registration made, numbered in the order they
/// are made so that every run names them alike.
enum RegistrationIdentifiers {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var count = 0

    static func next(_ kind: String, _ type: Any.Type) -> String {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return "registration \(count): \(kind) \(type)"
    }
}
