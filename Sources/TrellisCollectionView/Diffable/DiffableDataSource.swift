import Foundation

/// A data source that takes snapshots and animates from one to the next
/// (`UICollectionViewDiffableDataSource`).
///
/// ```swift
/// let dataSource = CollectionViewDiffableDataSource<String, Int>(collectionView: view) { view, indexPath, item in
///     view.dequeueReusableCell(withReuseIdentifier: "cell", for: indexPath)
/// }
/// dataSource.apply(snapshot)   // computes and runs the batch update
/// ```
///
/// Items are matched by identity — the identifier itself, or what `identity` returns for it (an
/// `id` property, say; then an item whose value differs under the same identity is reloaded).
open class CollectionViewDiffableDataSource<SectionIdentifierType: Hashable, ItemIdentifierType: Hashable>:
    NSObject, CollectionViewDataSource, OutlineToggling
{
    public typealias Snapshot = DiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>
    public typealias CellProvider = (CollectionView, IndexPath, ItemIdentifierType) -> CollectionViewCell?
    public typealias SupplementaryViewProvider = (CollectionView, String, IndexPath) -> CollectionReusableView?

    private weak var collectionView: CollectionView?
    private let cellProvider: CellProvider
    private let identity: (ItemIdentifierType) -> AnyHashable
    private var current = Snapshot()

    /// Supplies the views of supplementary elements (headers, footers, badges).
    public var supplementaryViewProvider: SupplementaryViewProvider?

    /// What a reorder asks and tells (`UICollectionViewDiffableDataSource.ReorderingHandlers`).
    public struct ReorderingHandlers {
        /// Whether an item may be moved interactively. Without it no item may.
        public var canReorderItem: ((ItemIdentifierType) -> Bool)?
        /// Called when a move ends, before the data source's snapshot becomes the final one.
        public var willReorder: ((DiffableDataSourceTransaction<SectionIdentifierType, ItemIdentifierType>) -> Void)?
        /// Called when a move ends, after the data source's snapshot became the final one: the
        /// place to update the app's own model (`transaction.difference`, `finalSnapshot`).
        public var didReorder: ((DiffableDataSourceTransaction<SectionIdentifierType, ItemIdentifierType>) -> Void)?

        public init() {}
    }

    /// The handlers of interactive reordering; reordering is allowed once `canReorderItem` is set.
    public var reorderingHandlers = ReorderingHandlers()

    /// What expanding and collapsing an outline's item asks and tells
    /// (`UICollectionViewDiffableDataSource.SectionSnapshotHandlers`): played by
    /// ``tapOutlineDisclosure(ofItemAt:)``, as a tap on a row's outline disclosure.
    public struct SectionSnapshotHandlers<Item: Hashable> {
        /// Whether the item may expand. Default: yes.
        public var shouldExpandItem: ((Item) -> Bool)?
        /// Called before the item expands.
        public var willExpandItem: ((Item) -> Void)?
        /// Whether the item may collapse. Default: yes.
        public var shouldCollapseItem: ((Item) -> Bool)?
        /// Called before the item collapses.
        public var willCollapseItem: ((Item) -> Void)?
        /// The children of an item as it expands, given the ones it has (`snapshot(of:)` of it):
        /// what loads an outline's children lazily.
        public var snapshotForExpandingParent: ((Item, DiffableDataSourceSectionSnapshot<Item>) -> DiffableDataSourceSectionSnapshot<Item>)?

        public init() {}
    }

    /// The handlers of expanding and collapsing.
    public var sectionSnapshotHandlers = SectionSnapshotHandlers<ItemIdentifierType>()

    /// The outlines applied to sections (``apply(_:to:animatingDifferences:completion:)``),
    /// kept while the section shows their visible items.
    private var outlines: [SectionIdentifierType: DiffableDataSourceSectionSnapshot<ItemIdentifierType>] = [:]

    /// Creates the data source and makes it `collectionView`'s data source (held weakly there,
    /// as in UIKit: keep a reference).
    public init(collectionView: CollectionView, cellProvider: @escaping CellProvider) {
        self.collectionView = collectionView
        self.cellProvider = cellProvider
        self.identity = { AnyHashable($0) }
        super.init()
        collectionView.dataSource = self
    }

    /// Creates the data source with items matched by `identity`: an item present in both
    /// snapshots under the same identity whose value differs is reloaded.
    public init(
        collectionView: CollectionView, identity: @escaping (ItemIdentifierType) -> AnyHashable,
        cellProvider: @escaping CellProvider
    ) {
        self.collectionView = collectionView
        self.cellProvider = cellProvider
        self.identity = identity
        super.init()
        collectionView.dataSource = self
    }

    /// The snapshot shown now.
    open func snapshot() -> Snapshot { current }

    /// The items of one section as an outline: the one applied to it — its hierarchy and what is
    /// expanded — while the section shows its visible items; else flat, every item a root.
    open func snapshot(for section: SectionIdentifierType) -> DiffableDataSourceSectionSnapshot<ItemIdentifierType> {
        let items = current.indexOfSection(section) == nil ? [] : current.itemIdentifiers(inSection: section)
        if let outline = outlines[section], outline.visibleItems == items { return outline }
        var outline = DiffableDataSourceSectionSnapshot<ItemIdentifierType>()
        outline.append(items)
        return outline
    }

    /// Plays a tap on the outline disclosure of the item at `indexPath` (what a list cell's
    /// `.outlineDisclosure()` accessory does): a collapsed item with children — or with
    /// `snapshotForExpandingParent`, which gives its children first — expands, an expanded one
    /// collapses, as ``sectionSnapshotHandlers`` allow and are told; the section's outline is
    /// applied with the change. Returns whether the item expanded or collapsed.
    @discardableResult
    open func tapOutlineDisclosure(ofItemAt indexPath: IndexPath) -> Bool {
        guard let item = itemIdentifier(for: indexPath), let section = sectionIdentifier(for: indexPath.section) else { return false }
        var outline = snapshot(for: section)
        let handlers = sectionSnapshotHandlers
        if outline.isExpanded(item) {
            guard handlers.shouldCollapseItem?(item) ?? true else { return false }
            handlers.willCollapseItem?(item)
            outline.collapse([item])
        } else {
            if let provide = handlers.snapshotForExpandingParent {
                guard handlers.shouldExpandItem?(item) ?? true else { return false }
                handlers.willExpandItem?(item)
                outline.replace(childrenOf: item, using: provide(item, outline.snapshot(of: item)))
            } else {
                guard !outline.snapshot(of: item).items.isEmpty, handlers.shouldExpandItem?(item) ?? true else { return false }
                handlers.willExpandItem?(item)
            }
            outline.expand([item])
        }
        apply(outline, to: section)
        return true
    }

    package func toggleOutline(ofItemAt indexPath: IndexPath) -> Bool { tapOutlineDisclosure(ofItemAt: indexPath) }

    package func isExpanded(itemAt indexPath: IndexPath) -> Bool {
        guard let item = itemIdentifier(for: indexPath), let section = sectionIdentifier(for: indexPath.section) else { return false }
        return outlines[section]?.isExpanded(item) ?? false
    }

    /// The item at an index path.
    open func itemIdentifier(for indexPath: IndexPath) -> ItemIdentifierType? {
        guard indexPath.count == 2, current.items.indices.contains(indexPath.section),
            current.items[indexPath.section].indices.contains(indexPath.item)
        else { return nil }
        return current.items[indexPath.section][indexPath.item]
    }

    /// The index path of an item.
    open func indexPath(for itemIdentifier: ItemIdentifierType) -> IndexPath? { current.indexPath(ofItem: itemIdentifier) }

    /// The section at an index.
    open func sectionIdentifier(for index: Int) -> SectionIdentifierType? {
        current.sectionIdentifiers.indices.contains(index) ? current.sectionIdentifiers[index] : nil
    }

    /// The index of a section.
    open func index(for sectionIdentifier: SectionIdentifierType) -> Int? { current.indexOfSection(sectionIdentifier) }

    /// Shows `snapshot`: the difference from the current snapshot is computed (``DiffableBatch``)
    /// and applied as one batch update, animated (its transition is the collection view's
    /// `currentTransition`) or completed at once. Items marked with `reconfigureItems` are updated
    /// in place afterwards. Refused snapshot calls are recorded in the collection view's
    /// diagnostics; a batch the collection view refuses leaves the current snapshot in place.
    open func apply(_ snapshot: Snapshot, animatingDifferences: Bool = true, completion: (() -> Void)? = nil) {
        guard let collectionView else { current = snapshot; completion?(); return }
        for error in snapshot.invalidOperations { collectionView.note(.snapshotOperationRefused("\(error)")) }
        collectionView.layoutIfNeeded()
        let batch = DiffableBatch.between(current, snapshot, identity: identity)
        let previous = current
        current = snapshot
        current.clearMarks()
        do {
            try collectionView.applyBatchUpdates { collectionView.record(batch) }
        } catch {
            current = previous
            completion?()
            return
        }
        if !animatingDifferences { collectionView.completeTransition() }
        let reconfigured = snapshot.reconfiguredItemIdentifiers.compactMap { current.indexPath(ofItem: $0) }
        if !reconfigured.isEmpty { collectionView.reconfigureItems(at: reconfigured) }
        completion?()
    }

    /// Shows `snapshot` by reloading the collection view, without computing a difference.
    open func applySnapshotUsingReloadData(_ snapshot: Snapshot, completion: (() -> Void)? = nil) {
        current = snapshot
        current.clearMarks()
        collectionView?.reloadData()
        collectionView?.layoutIfNeeded()
        completion?()
    }

    /// Shows an outline's visible items as the items of `section`, animating the difference.
    open func apply(
        _ snapshot: DiffableDataSourceSectionSnapshot<ItemIdentifierType>, to section: SectionIdentifierType,
        animatingDifferences: Bool = true, completion: (() -> Void)? = nil
    ) {
        var next = current
        if next.indexOfSection(section) == nil { next.appendSections([section]) }
        next.replaceItems(inSection: section, with: snapshot.visibleItems)
        outlines[section] = snapshot
        apply(next, animatingDifferences: animatingDifferences, completion: completion)
        // The cells on screen show whether their items are expanded now.
        if let collectionView, let index = current.indexOfSection(section) {
            for cell in collectionView.visibleCells {
                guard let path = collectionView.indexPath(for: cell), path.section == index else { continue }
                cell.isExpandedItem = isExpanded(itemAt: path)
            }
        }
    }

    open func numberOfSections(in collectionView: CollectionView) -> Int { current.numberOfSections }

    /// Whether the item may be moved: `reorderingHandlers.canReorderItem`'s answer; no without it.
    open func collectionView(_ collectionView: CollectionView, canMoveItemAt indexPath: IndexPath) -> Bool {
        guard let canReorder = reorderingHandlers.canReorderItem, let item = itemIdentifier(for: indexPath) else { return false }
        return canReorder(item)
    }

    /// The end of an interactive move: the snapshot with the item moved becomes the current one
    /// (the collection view already shows it), between `willReorder` and `didReorder`.
    open func collectionView(
        _ collectionView: CollectionView, moveItemAt sourceIndexPath: IndexPath,
        to destinationIndexPath: IndexPath
    ) {
        guard let item = itemIdentifier(for: sourceIndexPath),
            current.items.indices.contains(destinationIndexPath.section)
        else { return }
        let initial = current
        var final = current
        var sectionItems = final.items
        sectionItems[sourceIndexPath.section].remove(at: sourceIndexPath.item)
        let destinationItems = sectionItems[destinationIndexPath.section]
        sectionItems[destinationIndexPath.section].insert(item, at: min(max(0, destinationIndexPath.item), destinationItems.count))
        // The section the item leaves first: an item may be in one section only.
        let touched =
            sourceIndexPath.section == destinationIndexPath.section
            ? [sourceIndexPath.section] : [sourceIndexPath.section, destinationIndexPath.section]
        for section in touched {
            final.replaceItems(inSection: final.sectionIdentifiers[section], with: sectionItems[section])
        }
        final.clearMarks()
        let sections = touched.sorted().map { index in
            let identifier = initial.sectionIdentifiers[index]
            var before = DiffableDataSourceSectionSnapshot<ItemIdentifierType>()
            before.append(initial.itemIdentifiers(inSection: identifier))
            var after = DiffableDataSourceSectionSnapshot<ItemIdentifierType>()
            after.append(final.itemIdentifiers(inSection: identifier))
            return DiffableDataSourceSectionTransaction<SectionIdentifierType, ItemIdentifierType>(
                sectionIdentifier: identifier, initialSnapshot: before, finalSnapshot: after,
                difference: after.items.difference(from: before.items))
        }
        let transaction = DiffableDataSourceTransaction(
            initialSnapshot: initial, finalSnapshot: final,
            difference: final.itemIdentifiers.difference(from: initial.itemIdentifiers),
            sectionTransactions: sections)
        reorderingHandlers.willReorder?(transaction)
        current = final
        reorderingHandlers.didReorder?(transaction)
    }

    open func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int {
        current.items.indices.contains(section) ? current.items[section].count : 0
    }

    open func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
        guard let item = itemIdentifier(for: indexPath),
            let cell = cellProvider(collectionView, indexPath, item)
        else {
            collectionView.note(.noCellFromProvider(indexPath))
            return collectionView.dequeueReusableCell(withReuseIdentifier: "", for: indexPath)
        }
        return cell
    }

    open func collectionView(
        _ collectionView: CollectionView, viewForSupplementaryElementOfKind kind: String,
        at indexPath: IndexPath
    ) -> CollectionReusableView {
        if let view = supplementaryViewProvider?(collectionView, kind, indexPath) { return view }
        collectionView.note(.noSupplementaryViewFromProvider(kind: kind, indexPath))
        return collectionView.dequeueReusableSupplementaryView(ofKind: kind, withReuseIdentifier: "", for: indexPath)
    }
}

/// A reorder's change to a diffable data source (`NSDiffableDataSourceTransaction`).
public struct DiffableDataSourceTransaction<SectionIdentifierType: Hashable, ItemIdentifierType: Hashable> {
    /// The snapshot before the move.
    public let initialSnapshot: DiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>
    /// The snapshot after it.
    public let finalSnapshot: DiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>
    /// The change of the whole list of items, section after section: what
    /// `items.applying(difference)` does to an app's own flat list.
    public let difference: CollectionDifference<ItemIdentifierType>
    /// The change of each section the move touched, in section order.
    public let sectionTransactions: [DiffableDataSourceSectionTransaction<SectionIdentifierType, ItemIdentifierType>]
}

/// One section's part of a reorder (`NSDiffableDataSourceSectionTransaction`).
public struct DiffableDataSourceSectionTransaction<SectionIdentifierType: Hashable, ItemIdentifierType: Hashable> {
    public let sectionIdentifier: SectionIdentifierType
    public let initialSnapshot: DiffableDataSourceSectionSnapshot<ItemIdentifierType>
    public let finalSnapshot: DiffableDataSourceSectionSnapshot<ItemIdentifierType>
    /// The change of the section's items.
    public let difference: CollectionDifference<ItemIdentifierType>
}

/// The batch update that turns one snapshot into another.
public enum DiffableBatch {
    /// Sections are matched by identifier and items by identity across the whole snapshot
    /// (Heckel's algorithm, linear). Of the items that stay in their section, those on a longest
    /// increasing run of old positions stay put and the others move, giving the fewest moves;
    /// items that change section move. An item whose value changed (or that the new snapshot
    /// marks for reloading) is reloaded when it keeps its index path, and deleted and inserted
    /// otherwise (a reload names one path for both sides). Sections the new snapshot marks for
    /// reloading are reloaded.
    public static func between<S: Hashable, I: Hashable>(
        _ old: DiffableDataSourceSnapshot<S, I>,
        _ new: DiffableDataSourceSnapshot<S, I>,
        identity: (I) -> AnyHashable
    ) -> BatchUpdate {
        var batch = BatchUpdate()
        let reloaded = Set(new.reloadedItemIdentifiers)
        let sections = HeckelDiff(old: old.sectionIdentifiers, new: new.sectionIdentifiers)
        batch.deleteSections(IndexSet(sections.deletes))
        batch.insertSections(IndexSet(sections.inserts))
        let sectionStays = longestIncreasingSubsequence(sections.matches.map(\.old))
        for (k, match) in sections.matches.enumerated() where !sectionStays.contains(k) {
            batch.moveSection(match.old, toSection: match.new)
        }
        // A marked section that keeps its index is reloaded whole (its item changes are absorbed);
        // one whose index changes has each of its items reloaded instead.
        var reloadedOld = Set<Int>(), reloadedByItem = Set<Int>()
        for id in new.reloadedSectionIdentifiers {
            guard let newIndex = new.indexOfSection(id), let oldIndex = old.indexOfSection(id) else { continue }
            if oldIndex == newIndex, sectionStays.contains(where: { sections.matches[$0].old == oldIndex }) {
                reloadedOld.insert(oldIndex)
            } else {
                reloadedByItem.insert(newIndex)
            }
        }
        batch.reloadSections(IndexSet(reloadedOld))
        var oldPlace: [AnyHashable: (path: IndexPath, value: I)] = [:]
        for (s, items) in old.items.enumerated() {
            for (i, item) in items.enumerated() { oldPlace[identity(item)] = (IndexPath(item: i, section: s), item) }
        }
        var placedOld = Set<AnyHashable>()
        for (newSection, items) in new.items.enumerated() {
            guard let oldSection = sections.newToOld[newSection] else { continue }  // inserted: absorbed
            if reloadedOld.contains(oldSection) {  // reloaded: absorbed
                for item in items { placedOld.insert(identity(item)) }
                continue
            }
            var stayCandidates: [(old: Int, new: Int)] = []
            var candidatePaths: [(from: IndexPath, to: IndexPath)] = []
            for (k, item) in items.enumerated() {
                let key = identity(item)
                let to = IndexPath(item: k, section: newSection)
                guard let previous = oldPlace[key], sections.oldToNew[previous.path.section] != nil,
                    !reloadedOld.contains(previous.path.section)
                else {
                    batch.insertItems(at: [to])
                    continue
                }
                placedOld.insert(key)
                let changed = previous.value != item || reloaded.contains(item) || reloadedByItem.contains(newSection)
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
        let gone = oldPlace.filter {
            !placedOld.contains($0.key) && sections.oldToNew[$0.value.path.section] != nil
                && !reloadedOld.contains($0.value.path.section)
        }.map(\.value.path)
        batch.deleteItems(at: gone.sorted())
        return batch
    }
}
