import Foundation

/// A misuse of a snapshot that UIKit would trap on: an identifier that is not there, or one that
/// is there twice. The snapshot is left as it was and the misuse is recorded.
public enum SnapshotError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A section identifier that the snapshot does not contain.
    case unknownSection(String)
    /// An item identifier that the snapshot does not contain.
    case unknownItem(String)
    /// A section identifier that is already in the snapshot (or given twice).
    case duplicateSection(String)
    /// An item identifier that is already in the snapshot (or given twice).
    case duplicateItem(String)
    /// Items appended without a section while the snapshot has none.
    case noSections
    /// An item or section moved relative to itself.
    case moveOntoItself(String)

    public var description: String {
        switch self {
        case .unknownSection(let id): "Invalid section identifier \(id): it is not in the snapshot"
        case .unknownItem(let id): "Invalid item identifier \(id): it is not in the snapshot"
        case .duplicateSection(let id): "Section identifier \(id) is already in the snapshot: identifiers must be unique"
        case .duplicateItem(let id): "Item identifier \(id) is already in the snapshot: identifiers must be unique"
        case .noSections: "There are no sections in the snapshot to append items to; append a section first"
        case .moveOntoItself(let id): "Identifier \(id) cannot be moved relative to itself"
        }
    }
}

/// The sections and items a collection view shows, by identifier
/// (`NSDiffableDataSourceSnapshot`). Identifiers are unique across the snapshot.
///
/// ```swift
/// var snapshot = DiffableDataSourceSnapshot<String, Int>()
/// snapshot.appendSections(["main"])
/// snapshot.appendItems([1, 2, 3])
/// snapshot.itemIdentifiers  // [1, 2, 3]
/// ```
///
/// A call that UIKit would trap on (an unknown or duplicate identifier) changes nothing and is
/// recorded in ``invalidOperations``; ``validate()`` throws the first one.
public struct DiffableDataSourceSnapshot<SectionIdentifierType: Hashable, ItemIdentifierType: Hashable> {
    public private(set) var sectionIdentifiers: [SectionIdentifierType] = []
    package private(set) var items: [[ItemIdentifierType]] = []
    private var sectionIndex: [SectionIdentifierType: Int] = [:]
    private var itemLocation: [ItemIdentifierType: IndexPath] = [:]
    /// Items marked with ``reloadItems(_:)``: applying the snapshot reloads them.
    public private(set) var reloadedItemIdentifiers: [ItemIdentifierType] = []
    /// Items marked with ``reconfigureItems(_:)``: applying the snapshot updates their cells in place.
    public private(set) var reconfiguredItemIdentifiers: [ItemIdentifierType] = []
    /// Sections marked with ``reloadSections(_:)``.
    public private(set) var reloadedSectionIdentifiers: [SectionIdentifierType] = []
    /// The calls that were refused, oldest first.
    public private(set) var invalidOperations: [SnapshotError] = []

    /// An empty snapshot.
    public init() {}

    /// Throws the first refused call, if any.
    public func validate() throws(SnapshotError) {
        if let first = invalidOperations.first { throw first }
    }

    // MARK: Reading

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

    public func sectionIdentifier(containingItem identifier: ItemIdentifierType) -> SectionIdentifierType? {
        itemLocation[identifier].map { sectionIdentifiers[$0.section] }
    }

    /// The index of a section, or `nil`.
    public func indexOfSection(_ identifier: SectionIdentifierType) -> Int? { sectionIndex[identifier] }

    /// The index of an item among all items of the snapshot (counted across sections), or `nil`.
    public func indexOfItem(_ identifier: ItemIdentifierType) -> Int? {
        guard let path = itemLocation[identifier] else { return nil }
        return items[..<path.section].reduce(0) { $0 + $1.count } + path.item
    }

    /// The index path of an item, or `nil`.
    package func indexPath(ofItem identifier: ItemIdentifierType) -> IndexPath? { itemLocation[identifier] }

    // MARK: Sections

    /// Adds sections at the end.
    public mutating func appendSections(_ identifiers: [SectionIdentifierType]) {
        insertSections(identifiers, at: sectionIdentifiers.count)
    }

    /// Inserts sections before another one.
    public mutating func insertSections(
        _ identifiers: [SectionIdentifierType],
        beforeSection toIdentifier: SectionIdentifierType
    ) {
        guard let index = sectionIndex[toIdentifier] else { return refuse(.unknownSection(name(toIdentifier))) }
        insertSections(identifiers, at: index)
    }

    /// Inserts sections after another one.
    public mutating func insertSections(
        _ identifiers: [SectionIdentifierType],
        afterSection toIdentifier: SectionIdentifierType
    ) {
        guard let index = sectionIndex[toIdentifier] else { return refuse(.unknownSection(name(toIdentifier))) }
        insertSections(identifiers, at: index + 1)
    }

    private mutating func insertSections(_ identifiers: [SectionIdentifierType], at index: Int) {
        var seen = Set<SectionIdentifierType>()
        for id in identifiers where sectionIndex[id] != nil || !seen.insert(id).inserted {
            return refuse(.duplicateSection(name(id)))
        }
        sectionIdentifiers.insert(contentsOf: identifiers, at: index)
        items.insert(contentsOf: identifiers.map { _ in [] }, at: index)
        reindexSections(from: index)
    }

    /// Removes sections with their items.
    public mutating func deleteSections(_ identifiers: [SectionIdentifierType]) {
        for id in identifiers where sectionIndex[id] == nil { return refuse(.unknownSection(name(id))) }
        let gone = Set(identifiers)
        let keep = sectionIdentifiers.indices.filter { !gone.contains(sectionIdentifiers[$0]) }
        for index in sectionIdentifiers.indices where gone.contains(sectionIdentifiers[index]) {
            for item in items[index] { itemLocation[item] = nil }
        }
        sectionIdentifiers = keep.map { sectionIdentifiers[$0] }
        items = keep.map { items[$0] }
        reloadedSectionIdentifiers.removeAll { gone.contains($0) }
        dropMarks(notIn: itemLocation)
        reindexSections(from: 0)
    }

    /// Moves a section before another one.
    public mutating func moveSection(_ identifier: SectionIdentifierType, beforeSection toIdentifier: SectionIdentifierType) {
        moveSection(identifier, relativeTo: toIdentifier, after: false)
    }

    /// Moves a section after another one.
    public mutating func moveSection(_ identifier: SectionIdentifierType, afterSection toIdentifier: SectionIdentifierType) {
        moveSection(identifier, relativeTo: toIdentifier, after: true)
    }

    private mutating func moveSection(
        _ identifier: SectionIdentifierType, relativeTo other: SectionIdentifierType,
        after: Bool
    ) {
        guard let from = sectionIndex[identifier] else { return refuse(.unknownSection(name(identifier))) }
        guard sectionIndex[other] != nil else { return refuse(.unknownSection(name(other))) }
        guard identifier != other else { return refuse(.moveOntoItself(name(identifier))) }
        let id = sectionIdentifiers.remove(at: from)
        let sectionItems = items.remove(at: from)
        var to = sectionIdentifiers.firstIndex(of: other)!
        if after { to += 1 }
        sectionIdentifiers.insert(id, at: to)
        items.insert(sectionItems, at: to)
        reindexSections(from: 0)
    }

    /// Marks sections whose content changed, so that applying the snapshot reloads them.
    public mutating func reloadSections(_ identifiers: [SectionIdentifierType]) {
        for id in identifiers where sectionIndex[id] == nil { return refuse(.unknownSection(name(id))) }
        for id in identifiers where !reloadedSectionIdentifiers.contains(id) { reloadedSectionIdentifiers.append(id) }
    }

    // MARK: Items

    /// Adds items at the end of a section (the last one when `nil`).
    public mutating func appendItems(
        _ identifiers: [ItemIdentifierType],
        toSection sectionIdentifier: SectionIdentifierType? = nil
    ) {
        let index: Int
        if let sectionIdentifier {
            guard let found = sectionIndex[sectionIdentifier] else {
                return refuse(.unknownSection(name(sectionIdentifier)))
            }
            index = found
        } else {
            guard !items.isEmpty else { return refuse(.noSections) }
            index = items.count - 1
        }
        insertItems(identifiers, section: index, at: items[index].count)
    }

    /// Inserts items before another item.
    public mutating func insertItems(_ identifiers: [ItemIdentifierType], beforeItem beforeIdentifier: ItemIdentifierType) {
        guard let path = itemLocation[beforeIdentifier] else { return refuse(.unknownItem(name(beforeIdentifier))) }
        insertItems(identifiers, section: path.section, at: path.item)
    }

    /// Inserts items after another item.
    public mutating func insertItems(_ identifiers: [ItemIdentifierType], afterItem afterIdentifier: ItemIdentifierType) {
        guard let path = itemLocation[afterIdentifier] else { return refuse(.unknownItem(name(afterIdentifier))) }
        insertItems(identifiers, section: path.section, at: path.item + 1)
    }

    private mutating func insertItems(_ identifiers: [ItemIdentifierType], section: Int, at index: Int) {
        var seen = Set<ItemIdentifierType>()
        for id in identifiers where itemLocation[id] != nil || !seen.insert(id).inserted {
            return refuse(.duplicateItem(name(id)))
        }
        items[section].insert(contentsOf: identifiers, at: index)
        reindexItems(inSection: section, from: index)
    }

    /// Removes items.
    public mutating func deleteItems(_ identifiers: [ItemIdentifierType]) {
        for id in identifiers where itemLocation[id] == nil { return refuse(.unknownItem(name(id))) }
        let gone = Set(identifiers)
        let sections = Set(identifiers.compactMap { itemLocation[$0]?.section })
        for id in gone { itemLocation[id] = nil }
        for section in sections.sorted() {
            items[section].removeAll { gone.contains($0) }
            reindexItems(inSection: section, from: 0)
        }
        dropMarks(notIn: itemLocation)
    }

    /// Removes every section and item.
    public mutating func deleteAllItems() {
        sectionIdentifiers = []
        items = []
        sectionIndex = [:]
        itemLocation = [:]
        reloadedItemIdentifiers = []
        reconfiguredItemIdentifiers = []
        reloadedSectionIdentifiers = []
    }

    /// Moves an item before another one.
    public mutating func moveItem(_ identifier: ItemIdentifierType, beforeItem toIdentifier: ItemIdentifierType) {
        moveItem(identifier, relativeTo: toIdentifier, after: false)
    }

    /// Moves an item after another one.
    public mutating func moveItem(_ identifier: ItemIdentifierType, afterItem toIdentifier: ItemIdentifierType) {
        moveItem(identifier, relativeTo: toIdentifier, after: true)
    }

    private mutating func moveItem(_ identifier: ItemIdentifierType, relativeTo other: ItemIdentifierType, after: Bool) {
        guard let from = itemLocation[identifier] else { return refuse(.unknownItem(name(identifier))) }
        guard itemLocation[other] != nil else { return refuse(.unknownItem(name(other))) }
        guard identifier != other else { return refuse(.moveOntoItself(name(identifier))) }
        items[from.section].remove(at: from.item)
        reindexItems(inSection: from.section, from: from.item)
        let to = itemLocation[other]!
        let index = after ? to.item + 1 : to.item
        items[to.section].insert(identifier, at: index)
        reindexItems(inSection: to.section, from: index)
    }

    /// Marks items whose content changed, so that applying the snapshot reloads their cells
    /// (replaced, with a cross-fade).
    public mutating func reloadItems(_ identifiers: [ItemIdentifierType]) {
        for id in identifiers where itemLocation[id] == nil { return refuse(.unknownItem(name(id))) }
        for id in identifiers where !reloadedItemIdentifiers.contains(id) { reloadedItemIdentifiers.append(id) }
    }

    /// Marks items whose content changed, so that applying the snapshot updates their cells in
    /// place (the same cell objects, no animation).
    public mutating func reconfigureItems(_ identifiers: [ItemIdentifierType]) {
        for id in identifiers where itemLocation[id] == nil { return refuse(.unknownItem(name(id))) }
        for id in identifiers where !reconfiguredItemIdentifiers.contains(id) { reconfiguredItemIdentifiers.append(id) }
    }

    /// Replaces the items of one section (what applying a section snapshot does).
    package mutating func replaceItems(inSection identifier: SectionIdentifierType, with identifiers: [ItemIdentifierType]) {
        guard let section = sectionIndex[identifier] else { return refuse(.unknownSection(name(identifier))) }
        var seen = Set<ItemIdentifierType>()
        for id in identifiers where (itemLocation[id].map { $0.section != section } ?? false) || !seen.insert(id).inserted {
            return refuse(.duplicateItem(name(id)))
        }
        for id in items[section] { itemLocation[id] = nil }
        items[section] = identifiers
        reindexItems(inSection: section, from: 0)
        dropMarks(notIn: itemLocation)
    }

    /// Forgets the marks of things no longer in the snapshot.
    package mutating func clearMarks() {
        reloadedItemIdentifiers = []
        reconfiguredItemIdentifiers = []
        reloadedSectionIdentifiers = []
    }

    // MARK: Bookkeeping

    private mutating func refuse(_ error: SnapshotError) {
        invalidOperations.append(error)
    }

    private func name<T>(_ value: T) -> String { String(describing: value) }

    private mutating func dropMarks(notIn locations: [ItemIdentifierType: IndexPath]) {
        reloadedItemIdentifiers.removeAll { locations[$0] == nil }
        reconfiguredItemIdentifiers.removeAll { locations[$0] == nil }
    }

    private mutating func reindexSections(from start: Int) {
        for s in start..<sectionIdentifiers.count {
            sectionIndex[sectionIdentifiers[s]] = s
            reindexItems(inSection: s, from: 0)
        }
        if start == 0 {
            sectionIndex = Dictionary(uniqueKeysWithValues: sectionIdentifiers.enumerated().map { ($1, $0) })
        }
    }

    private mutating func reindexItems(inSection section: Int, from start: Int) {
        let list = items[section]
        for i in max(0, start)..<list.count { itemLocation[list[i]] = IndexPath(item: i, section: section) }
    }
}
