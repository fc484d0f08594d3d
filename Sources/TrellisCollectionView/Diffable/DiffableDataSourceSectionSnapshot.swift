import Foundation

/// The items of one section as an outline: items with children, each either expanded or
/// collapsed (`NSDiffableDataSourceSectionSnapshot`). Applied to a section, its
/// ``visibleItems`` become the section's items.
///
/// ```swift
/// var outline = DiffableDataSourceSectionSnapshot<String>()
/// outline.append(["Fruit", "Vegetables"])
/// outline.append(["Apple", "Pear"], to: "Fruit")
/// outline.visibleItems      // ["Fruit", "Vegetables"]
/// outline.expand(["Fruit"])
/// outline.visibleItems      // ["Fruit", "Apple", "Pear", "Vegetables"]
/// ```
///
/// As with ``DiffableDataSourceSnapshot``, a call that UIKit would trap on changes nothing and is
/// recorded in ``invalidOperations``.
public struct DiffableDataSourceSectionSnapshot<ItemIdentifierType: Hashable> {
    private var roots: [ItemIdentifierType] = []
    private var children: [ItemIdentifierType: [ItemIdentifierType]] = [:]
    private var parents: [ItemIdentifierType: ItemIdentifierType] = [:]
    private var members: Set<ItemIdentifierType> = []
    private var expanded: Set<ItemIdentifierType> = []
    /// The calls that were refused, oldest first.
    public private(set) var invalidOperations: [SnapshotError] = []

    /// An empty outline.
    public init() {}

    // MARK: Reading

    /// Every item, depth first (parents before their children).
    public var items: [ItemIdentifierType] {
        var result: [ItemIdentifierType] = []
        walk(roots, onlyVisible: false) { result.append($0) }
        return result
    }

    /// The items at the top level.
    public var rootItems: [ItemIdentifierType] { roots }

    /// The items shown: roots, and the children of expanded items whose ancestors are expanded.
    public var visibleItems: [ItemIdentifierType] {
        var result: [ItemIdentifierType] = []
        walk(roots, onlyVisible: true) { result.append($0) }
        return result
    }

    /// Whether `item` is in the outline.
    public func contains(_ item: ItemIdentifierType) -> Bool { members.contains(item) }

    /// How deep `item` is: 0 for a root.
    public func level(of item: ItemIdentifierType) -> Int {
        var depth = 0
        var current = item
        while let parent = parents[current] {
            depth += 1
            current = parent
        }
        return depth
    }

    /// The position of `item` in ``items``, or `nil`.
    public func index(of item: ItemIdentifierType) -> Int? { items.firstIndex(of: item) }

    /// The parent of `item`, `nil` for a root.
    public func parent(of child: ItemIdentifierType) -> ItemIdentifierType? { parents[child] }

    /// Whether `item` is expanded.
    public func isExpanded(_ item: ItemIdentifierType) -> Bool { expanded.contains(item) }

    /// Whether `item` is shown: every ancestor is expanded.
    public func isVisible(_ item: ItemIdentifierType) -> Bool {
        guard members.contains(item) else { return false }
        var current = item
        while let parent = parents[current] {
            guard expanded.contains(parent) else { return false }
            current = parent
        }
        return true
    }

    /// The outline under `parent`: its descendants (with `parent` itself as the only root when
    /// `includingParent`).
    public func snapshot(of parent: ItemIdentifierType, includingParent: Bool = false) -> Self {
        var result = Self()
        guard members.contains(parent) else {
            result.refuse(.unknownItem(String(describing: parent)))
            return result
        }
        if includingParent {
            result.append([parent])
            copyChildren(of: parent, into: &result)
        } else {
            result.append(children[parent] ?? [])
            for child in children[parent] ?? [] { copyChildren(of: child, into: &result) }
        }
        return result
    }

    /// The outline as indented text, one item a line, `+` for expanded and `-` for collapsed
    /// items with children.
    public func visualDescription() -> String {
        var lines: [String] = []
        walk(roots, onlyVisible: false) { item in
            let marker = (children[item]?.isEmpty ?? true) ? " " : (expanded.contains(item) ? "+" : "-")
            lines.append(String(repeating: "  ", count: level(of: item)) + marker + " \(item)")
        }
        return lines.joined(separator: "\n")
    }

    // MARK: Changing

    /// Appends items at the end of the top level, or of `parent`'s children.
    public mutating func append(_ items: [ItemIdentifierType], to parent: ItemIdentifierType? = nil) {
        if let parent, !members.contains(parent) { return refuse(.unknownItem(String(describing: parent))) }
        guard checkNew(items) else { return }
        if let parent {
            children[parent, default: []].append(contentsOf: items)
            for item in items { parents[item] = parent }
        } else {
            roots.append(contentsOf: items)
        }
        members.formUnion(items)
    }

    /// Inserts items before `item`, at its level.
    public mutating func insert(_ items: [ItemIdentifierType], before item: ItemIdentifierType) {
        insert(items, next: item, after: false)
    }

    /// Inserts items after `item`, at its level.
    public mutating func insert(_ items: [ItemIdentifierType], after item: ItemIdentifierType) {
        insert(items, next: item, after: true)
    }

    private mutating func insert(_ items: [ItemIdentifierType], next item: ItemIdentifierType, after: Bool) {
        guard members.contains(item) else { return refuse(.unknownItem(String(describing: item))) }
        guard checkNew(items) else { return }
        if let parent = parents[item] {
            var list = children[parent] ?? []
            let index = list.firstIndex(of: item)! + (after ? 1 : 0)
            list.insert(contentsOf: items, at: index)
            children[parent] = list
            for new in items { parents[new] = parent }
        } else {
            let index = roots.firstIndex(of: item)! + (after ? 1 : 0)
            roots.insert(contentsOf: items, at: index)
        }
        members.formUnion(items)
    }

    /// Removes items with their descendants.
    public mutating func delete(_ items: [ItemIdentifierType]) {
        for item in items where !members.contains(item) { return refuse(.unknownItem(String(describing: item))) }
        for item in items where members.contains(item) { remove(item) }
    }

    /// Removes every item.
    public mutating func deleteAll() {
        self = Self()
    }

    /// Replaces `parent`'s children with the roots of `snapshot` (and their descendants).
    public mutating func replace(childrenOf parent: ItemIdentifierType, using snapshot: Self) {
        guard members.contains(parent) else { return refuse(.unknownItem(String(describing: parent))) }
        for child in children[parent] ?? [] { remove(child) }
        for item in snapshot.items where members.contains(item) { return refuse(.duplicateItem(String(describing: item))) }
        append(snapshot.roots, to: parent)
        for root in snapshot.roots { snapshot.copyChildren(of: root, into: &self) }
        expanded.formUnion(snapshot.expanded)
    }

    /// Expands items: their children become visible (where the items themselves are).
    public mutating func expand(_ items: [ItemIdentifierType]) {
        for item in items where !members.contains(item) { return refuse(.unknownItem(String(describing: item))) }
        expanded.formUnion(items)
    }

    /// Collapses items: their descendants are hidden.
    public mutating func collapse(_ items: [ItemIdentifierType]) {
        for item in items where !members.contains(item) { return refuse(.unknownItem(String(describing: item))) }
        expanded.subtract(items)
    }

    // MARK: Bookkeeping

    private mutating func refuse(_ error: SnapshotError) { invalidOperations.append(error) }

    private mutating func checkNew(_ items: [ItemIdentifierType]) -> Bool {
        var seen = Set<ItemIdentifierType>()
        for item in items where members.contains(item) || !seen.insert(item).inserted {
            refuse(.duplicateItem(String(describing: item)))
            return false
        }
        return true
    }

    private mutating func remove(_ item: ItemIdentifierType) {
        for child in children[item] ?? [] { remove(child) }
        children[item] = nil
        if let parent = parents.removeValue(forKey: item) {
            children[parent]?.removeAll { $0 == item }
        } else {
            roots.removeAll { $0 == item }
        }
        members.remove(item)
        expanded.remove(item)
    }

    private func copyChildren(of item: ItemIdentifierType, into result: inout Self) {
        guard let list = children[item], !list.isEmpty else { return }
        result.append(list, to: item)
        if expanded.contains(item) { result.expanded.insert(item) }
        for child in list { copyChildren(of: child, into: &result) }
    }

    private func walk(_ level: [ItemIdentifierType], onlyVisible: Bool, _ visit: (ItemIdentifierType) -> Void) {
        for item in level {
            visit(item)
            if !onlyVisible || expanded.contains(item) {
                walk(children[item] ?? [], onlyVisible: onlyVisible, visit)
            }
        }
    }
}
