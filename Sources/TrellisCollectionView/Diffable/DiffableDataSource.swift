import Foundation
import TrellisLayout

/// A misuse of a snapshot: an identifier that is not there, or one that is there twice.
public struct SnapshotError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The sections and items a collection view shows, by identifier
/// (`NSDiffableDataSourceSnapshot`). Identifiers are unique across the snapshot.
///
/// ```swift
/// var snapshot = DiffableDataSourceSnapshot<String, Int>()
/// try snapshot.appendSections(["main"])
/// try snapshot.appendItems([1, 2, 3])
/// snapshot.itemIdentifiers  // [1, 2, 3]
/// ```
public struct DiffableDataSourceSnapshot<SectionIdentifierType: Hashable, ItemIdentifierType: Hashable> {
    public private(set) var sectionIdentifiers: [SectionIdentifierType] = []
    private(set) var items: [[ItemIdentifierType]] = []
    private var sectionIndex: [SectionIdentifierType: Int] = [:]
    private var itemLocation: [ItemIdentifierType: IndexPath] = [:]
    /// Items marked for reloading with ``reloadItems(_:)``.
    public private(set) var reloadedItemIdentifiers: Set<ItemIdentifierType> = []

    /// An empty snapshot.
    public init() {}

    public var numberOfSections: Int { sectionIdentifiers.count }
    public var numberOfItems: Int { items.reduce(0) { $0 + $1.count } }
    /// Every item, section by section.
    public var itemIdentifiers: [ItemIdentifierType] { items.flatMap { $0 } }

    public func numberOfItems(inSection identifier: SectionIdentifierType) -> Int {
        sectionIndex[identifier].map { items[$0].count } ?? 0
    }

    public func itemIdentifiers(inSection identifier: SectionIdentifierType) -> [ItemIdentifierType] {
        sectionIndex[identifier].map { items[$0] } ?? []
    }

    public func indexOfSection(_ identifier: SectionIdentifierType) -> Int? { sectionIndex[identifier] }

    /// The index path of an item.
    public func indexPath(ofItem identifier: ItemIdentifierType) -> IndexPath? { itemLocation[identifier] }

    public func sectionIdentifier(containingItem identifier: ItemIdentifierType) -> SectionIdentifierType? {
        itemLocation[identifier].map { sectionIdentifiers[$0.section] }
    }

    /// Adds sections at the end.
    public mutating func appendSections(_ identifiers: [SectionIdentifierType]) throws(SnapshotError) {
        try insertSections(identifiers, at: sectionIdentifiers.count)
    }

    /// Inserts sections before another one.
    public mutating func insertSections(_ identifiers: [SectionIdentifierType],
                                        beforeSection: SectionIdentifierType) throws(SnapshotError) {
        guard let index = sectionIndex[beforeSection] else { throw SnapshotError("Invalid section identifier \(beforeSection)") }
        try insertSections(identifiers, at: index)
    }

    private mutating func insertSections(_ identifiers: [SectionIdentifierType], at index: Int) throws(SnapshotError) {
        var seen = Set<SectionIdentifierType>()
        for id in identifiers where sectionIndex[id] != nil || !seen.insert(id).inserted {
            throw SnapshotError("Section identifier \(id) is already in the snapshot: identifiers must be unique")
        }
        sectionIdentifiers.insert(contentsOf: identifiers, at: index)
        items.insert(contentsOf: identifiers.map { _ in [] }, at: index)
        reindex()
    }

    /// Adds items at the end of a section (the last one when `nil`).
    public mutating func appendItems(_ identifiers: [ItemIdentifierType],
                                     toSection section: SectionIdentifierType? = nil) throws(SnapshotError) {
        let index: Int
        if let section {
            guard let found = sectionIndex[section] else { throw SnapshotError("Invalid section identifier \(section)") }
            index = found
        } else {
            guard !items.isEmpty else { throw SnapshotError("There are no sections to append items to; append a section first") }
            index = items.count - 1
        }
        try insertItems(identifiers, section: index, at: items[index].count)
    }

    /// Inserts items before another item.
    public mutating func insertItems(_ identifiers: [ItemIdentifierType],
                                     beforeItem: ItemIdentifierType) throws(SnapshotError) {
        guard let path = itemLocation[beforeItem] else { throw SnapshotError("Invalid item identifier \(beforeItem)") }
        try insertItems(identifiers, section: path.section, at: path.item)
    }

    /// Inserts items after another item.
    public mutating func insertItems(_ identifiers: [ItemIdentifierType],
                                     afterItem: ItemIdentifierType) throws(SnapshotError) {
        guard let path = itemLocation[afterItem] else { throw SnapshotError("Invalid item identifier \(afterItem)") }
        try insertItems(identifiers, section: path.section, at: path.item + 1)
    }

    private mutating func insertItems(_ identifiers: [ItemIdentifierType], section: Int, at index: Int) throws(SnapshotError) {
        var seen = Set<ItemIdentifierType>()
        for id in identifiers where itemLocation[id] != nil || !seen.insert(id).inserted {
            throw SnapshotError("Item identifier \(id) is already in the snapshot: identifiers must be unique")
        }
        items[section].insert(contentsOf: identifiers, at: index)
        reindex()
    }

    /// Removes items.
    public mutating func deleteItems(_ identifiers: [ItemIdentifierType]) throws(SnapshotError) {
        for id in identifiers where itemLocation[id] == nil { throw SnapshotError("Invalid item identifier \(id)") }
        let gone = Set(identifiers)
        items = items.map { $0.filter { !gone.contains($0) } }
        reloadedItemIdentifiers.subtract(gone)
        reindex()
    }

    /// Removes sections with their items.
    public mutating func deleteSections(_ identifiers: [SectionIdentifierType]) throws(SnapshotError) {
        for id in identifiers where sectionIndex[id] == nil { throw SnapshotError("Invalid section identifier \(id)") }
        let gone = Set(identifiers)
        let keep = sectionIdentifiers.indices.filter { !gone.contains(sectionIdentifiers[$0]) }
        sectionIdentifiers = keep.map { sectionIdentifiers[$0] }
        items = keep.map { items[$0] }
        reindex()
    }

    /// Moves an item before another one.
    public mutating func moveItem(_ identifier: ItemIdentifierType, beforeItem other: ItemIdentifierType) throws(SnapshotError) {
        guard itemLocation[identifier] != nil else { throw SnapshotError("Invalid item identifier \(identifier)") }
        guard itemLocation[other] != nil, other != identifier else { throw SnapshotError("Invalid item identifier \(other)") }
        let from = itemLocation[identifier]!
        items[from.section].remove(at: from.item)
        reindex()
        let to = itemLocation[other]!
        items[to.section].insert(identifier, at: to.item)
        reindex()
    }

    /// Marks items whose content changed, so that applying the snapshot reloads them.
    public mutating func reloadItems(_ identifiers: [ItemIdentifierType]) throws(SnapshotError) {
        for id in identifiers where itemLocation[id] == nil { throw SnapshotError("Invalid item identifier \(id)") }
        reloadedItemIdentifiers.formUnion(identifiers)
    }

    private mutating func reindex() {
        sectionIndex = [:]
        itemLocation = [:]
        for (s, id) in sectionIdentifiers.enumerated() { sectionIndex[id] = s }
        for (s, section) in items.enumerated() {
            for (i, id) in section.enumerated() { itemLocation[id] = IndexPath(item: i, section: s) }
        }
    }
}

/// A data source that takes snapshots and animates from one to the next
/// (`UICollectionViewDiffableDataSource`).
///
/// ```swift
/// let dataSource = CollectionViewDiffableDataSource<String, Int>(collectionView: view) { view, indexPath, item in
///     view.dequeueReusableCell(withReuseIdentifier: "cell", for: indexPath)
/// }
/// try dataSource.apply(snapshot)   // computes and runs the batch update
/// ```
///
/// Items are matched by identity — the item itself, or what `identity` returns for it (an `id`
/// property, say). An item present in both snapshots whose value differs is reloaded.
public final class CollectionViewDiffableDataSource<SectionIdentifierType: Hashable, ItemIdentifierType: Hashable>:
    CollectionViewDataSource {
    public typealias Snapshot = DiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>
    public typealias CellProvider = (CollectionView, IndexPath, ItemIdentifierType) -> CollectionViewCell?

    private weak var collectionView: CollectionView?
    private let cellProvider: CellProvider
    private let identity: (ItemIdentifierType) -> AnyHashable
    private var current = Snapshot()

    /// Creates the data source and makes it `collectionView`'s data source (held weakly there,
    /// as in UIKit: keep a reference).
    public init(collectionView: CollectionView, identity: @escaping (ItemIdentifierType) -> AnyHashable = { AnyHashable($0) },
                cellProvider: @escaping CellProvider) {
        self.collectionView = collectionView
        self.cellProvider = cellProvider
        self.identity = identity
        collectionView.dataSource = self
    }

    /// The snapshot shown now.
    public func snapshot() -> Snapshot { current }

    /// The item at an index path.
    public func itemIdentifier(for indexPath: IndexPath) -> ItemIdentifierType? {
        guard current.items.indices.contains(indexPath.section),
              current.items[indexPath.section].indices.contains(indexPath.item) else { return nil }
        return current.items[indexPath.section][indexPath.item]
    }

    /// The index path of an item.
    public func indexPath(for itemIdentifier: ItemIdentifierType) -> IndexPath? { current.indexPath(ofItem: itemIdentifier) }

    /// Shows `snapshot`. Animated, the difference from the current snapshot is computed
    /// (``DiffableBatch``) and applied as one batch update, whose transition is returned;
    /// otherwise the collection view reloads.
    @discardableResult
    public func apply(_ snapshot: Snapshot, animatingDifferences: Bool = true) throws -> CollectionViewTransition {
        guard let collectionView else { current = snapshot; return .none }
        guard animatingDifferences else {
            current = snapshot
            collectionView.reloadData()
            collectionView.layoutIfNeeded()
            return .none
        }
        collectionView.layoutIfNeeded()
        let batch = DiffableBatch.between(current, snapshot, identity: identity)
        let previous = current
        current = snapshot
        do {
            return try collectionView.performBatchUpdates {
                collectionView.pendingBatch.append(batch)
            }
        } catch {
            current = previous
            throw error
        }
    }

    public func numberOfSections(in collectionView: CollectionView) -> Int { current.numberOfSections }

    public func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int {
        current.items.indices.contains(section) ? current.items[section].count : 0
    }

    public func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
        guard let item = itemIdentifier(for: indexPath),
              let cell = cellProvider(collectionView, indexPath, item) else {
            return collectionView.dequeueReusableCell(withReuseIdentifier: "", for: indexPath)
        }
        return cell
    }
}

/// The batch update that turns one snapshot into another.
public enum DiffableBatch {
    /// Sections are matched by identifier and items by identity across the whole snapshot
    /// (Heckel's algorithm, linear). Of the items that stay in their section, those on a longest
    /// increasing run of old positions stay put and the others move, giving the fewest moves;
    /// items that change section move. An item whose value changed is reloaded when it keeps its
    /// index path, and deleted and inserted otherwise (a reload names one path for both sides).
    public static func between<S: Hashable, I: Hashable>(_ old: DiffableDataSourceSnapshot<S, I>,
                                                         _ new: DiffableDataSourceSnapshot<S, I>,
                                                         identity: (I) -> AnyHashable) -> BatchUpdate {
        var batch = BatchUpdate()
        let sections = HeckelDiff(old: old.sectionIdentifiers, new: new.sectionIdentifiers)
        batch.deleteSections(IndexSet(sections.deletes))
        batch.insertSections(IndexSet(sections.inserts))
        let sectionStays = longestIncreasingSubsequence(sections.matches.map(\.old))
        for (k, match) in sections.matches.enumerated() where !sectionStays.contains(k) {
            batch.moveSection(match.old, toSection: match.new)
        }
        var oldPlace: [AnyHashable: (path: IndexPath, value: I)] = [:]
        for (s, items) in old.items.enumerated() {
            for (i, item) in items.enumerated() { oldPlace[identity(item)] = (IndexPath(item: i, section: s), item) }
        }
        var placedOld = Set<AnyHashable>()
        for (newSection, items) in new.items.enumerated() {
            guard let oldSection = sections.newToOld[newSection] else { continue }   // inserted: absorbed
            var stayCandidates: [(old: Int, new: Int)] = []
            var candidatePaths: [(from: IndexPath, to: IndexPath)] = []
            for (k, item) in items.enumerated() {
                let key = identity(item)
                let to = IndexPath(item: k, section: newSection)
                guard let previous = oldPlace[key], sections.oldToNew[previous.path.section] != nil else {
                    batch.insertItems(at: [to])
                    continue
                }
                placedOld.insert(key)
                let changed = previous.value != item || new.reloadedItemIdentifiers.contains(item)
                if changed {
                    if previous.path.section == oldSection && previous.path.item == k {
                        batch.reloadItems(at: [previous.path])
                    } else {
                        batch.deleteItems(at: [previous.path])
                        batch.insertItems(at: [to])
                    }
                } else if previous.path.section == oldSection {
                    stayCandidates.append((previous.path.item, k))
                    candidatePaths.append((previous.path, to))
                } else {
                    batch.moveItem(at: previous.path, to: to)
                }
            }
            let stays = longestIncreasingSubsequence(stayCandidates.map(\.old))
            for (k, paths) in candidatePaths.enumerated() where !stays.contains(k) {
                batch.moveItem(at: paths.from, to: paths.to)
            }
        }
        for (key, place) in oldPlace where !placedOld.contains(key) && sections.oldToNew[place.path.section] != nil {
            batch.deleteItems(at: [place.path])
        }
        return batch
    }
}
