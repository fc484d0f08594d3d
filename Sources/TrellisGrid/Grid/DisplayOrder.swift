import Foundation
import TrellisText

/// Where every row of a grid is shown: pinned top rows, top summaries, the sorted body, pinned
/// bottom rows and bottom summaries, with the summaries' cells — the pure value under a
/// ``DataGrid``, as ``FlowGeometry`` is under the flow layout.
///
/// ```swift
/// let order = try DisplayOrder(source: table,
///                              pins: [.init(.matching(column: "组号", value: "平均"), at: .bottom)],
///                              sortKeys: [SortKey("分数", .descending)])
/// order.body            // the other rows, best first
/// order.pinnedBottom    // [12]: the 平均 row, whichever way the body is sorted
/// ```
///
/// An order is made by one throwing function of the source and a ``SortPlan`` — the sort, the
/// pins and the summaries (``update(source:plan:change:hidden:)``);
/// when it throws, the order is as it was. Rows are positions in the source; display indexes
/// count from the top of the grid.
///
/// - Complexity: an update sorts the body (see ``SortEngine``) and reads the summaries' columns
///   once; every lookup is O(1).
public struct DisplayOrder: Sendable {
    /// Rows a grid takes out of its body and pins to an edge, never sorted.
    public struct Pin: Sendable {
        /// Which rows.
        public var rows: RowPin
        /// The edge they stay at.
        public var edge: PinEdge
        /// When set, the pinned rows are the user's own summary rows: their cells that hold
        /// numbers, in number columns, show this function of the body.
        public var recomputing: SummaryFunction?
        /// The decimals recomputed cells are written with; `nil`: as many as the row's own cell
        /// has, and at least as many as the column's numbers have.
        public var precision: Int?

        public init(_ rows: RowPin, at edge: PinEdge, recomputing: SummaryFunction? = nil, precision: Int? = nil) {
            self.rows = rows
            self.edge = edge
            self.recomputing = recomputing
            self.precision = precision
        }
    }

    /// The rows pinned to the top, in the order they were pinned.
    public private(set) var pinnedTop: [Int] = []
    /// The body rows in their sorted order (4 bytes a row).
    public private(set) var body = RowList()
    /// The rows pinned to the bottom, in the order they were pinned.
    public private(set) var pinnedBottom: [Int] = []
    /// The pins and the summary rows the order was made with.
    public private(set) var pins: [Pin] = []
    public private(set) var summaries: [SummaryRow] = []
    /// The positions in ``summaries`` of those shown at the top, in order, and at the bottom.
    public private(set) var topSummaries: [Int] = []
    public private(set) var bottomSummaries: [Int] = []
    /// Pins that matched no row.
    public private(set) var unmatchedPins: [RowPin] = []
    /// Pinned rows labelled as a summary whose numbers differ from that summary of the body.
    public private(set) var summaryDisagreements: [SummaryDisagreement] = []
    /// Cells of summary rows whose meaning could not be established (a rate that is neither the
    /// label's function of its column nor a ratio of two other cells of its row): neither checked
    /// nor recomputed.
    public private(set) var uncheckedSummaryCells: [UncheckedSummaryCell] = []
    /// The subtotal groups, when the plan groups rows.
    public private(set) var groups: RowGroups?
    /// The subtotal rows of the groups (shown in the body, with their groups).
    public private(set) var subtotalRows: Set<Int> = []
    /// Each summary's cells, by column position.
    private(set) var summaryCells: [[Int: SummaryCell]] = []
    /// The first answer of the source that no table can be (a column's values one too many or too
    /// few), found while the summaries' cells were computed: the order's cells are then not to be
    /// shown (a sort that finds one throws instead).
    private(set) var readProblem: String?
    /// The cells of recomputed pinned rows, by source row, then column position.
    private(set) var recomputedCells: [Int: [Int: SummaryCell]] = [:]
    /// The display index of each source row; −1 for a row not shown.
    private(set) var displayIndexOfSource: [Int32] = []
    /// Whether the body is every row not pinned, in source order (made without sort keys, a row
    /// comparator or a filter): it can then be made again from the pins alone.
    private var bodyInSourceOrder = false
    /// Whether the body holds rows where they were before cells of them were edited
    /// (``OrderChange/cellsEdited``): it is then not in the sort's order, and rows appended are
    /// not placed in it by a search.
    private var bodyHeldAfterEdits = false
    /// Every row — pinned ones too — in the order of the plan's keys, from the last sort of them
    /// (a plan ordered by its keys alone, no filter, no groups, no edited row held): a pin added
    /// or removed takes the body from it without a sort. Without pins it is the body's own storage.
    private var sortedEveryRow: RowList?
    /// The number of source rows of an order whose body and inverse index were let go
    /// (``releaseSourceOrderRows()``); `nil` while it holds them.
    private var releasedRowCount: Int?

    /// The order of no rows.
    public init() {}

    /// The order of `source`'s rows under these pins, this sort and these summaries.
    public init(
        source: GridDataSource, pins: [Pin] = [], sortKeys: [SortKey] = [],
        hook: ((SortCompareArguments) -> ComparisonResult?)? = nil,
        rowComparator: ((Int, Int) -> ComparisonResult)? = nil,
        summaries: [SummaryRow] = []
    ) throws(SortError) {
        try update(
            source: source,
            plan: SortPlan(
                keys: sortKeys, custom: CustomOrder(hook: hook, rowComparator: rowComparator),
                pins: pins, summaries: summaries))
    }

    /// The order of `source`'s rows under `plan`.
    public init(source: GridDataSource, plan: SortPlan) throws(SortError) {
        try update(source: source, plan: plan)
    }

    /// The most rows a grid holds: as many as a 32-bit row index reaches (DataGridView's limit
    /// too). A source that says it has more is refused.
    public static let maximumRowCount = Int(Int32.max)

    /// Orders `source`'s rows again under `plan`, reusing this order's buffers: partitions the
    /// rows by the pins (first pin first), sorts the body, places the summaries and computes
    /// their cells. Throws before anything changes when the sort cannot be made.
    ///
    /// - Parameter change: what changed since the last update, when the caller knows that little
    ///   did (see ``OrderChange``): the body is then made from the last one rather than sorted.
    /// - Parameter hidden: rows the body leaves out (a filter's), one flag per source row; pinned
    ///   rows show whatever it says. Summaries are then computed over the rows shown, and pinned
    ///   summary rows are not checked against them.
    public mutating func update(
        source: GridDataSource, plan: SortPlan, change: OrderChange = .any,
        hidden: [Bool]? = nil
    ) throws(SortError) {
        let count = max(0, source.rowCount)
        guard count <= Self.maximumRowCount else {
            throw .sourceAnswerInvalid(
                "rowCount is \(count), more rows than a grid holds (at most \(Self.maximumRowCount), "
                    + "as many as a 32-bit row index reaches); give the number of rows the source has")
        }
        let bound = try BoundSortPlan(plan, columns: source.columns)
        var partition = Partition(bound, source: source, count: count)
        let filtered = hidden.map { $0.count == count } ?? false
        if filtered { partition.labelled = [] }
        let sorted: [Int32]
        var everyRow: RowList?
        var inSourceOrder = false
        var heldAfterEdits = false
        var groups: RowGroups?
        if let column = bound.groupColumn {
            let found = RowGroups(source: source, column: column, detail: bound.detailColumn, excluding: partition.isPinned)
            // An edit that leaves the groups as they were leaves every row where it is, as in a
            // sheet without groups (the grand totals stand pinned, out of the body).
            var kept: [Int32]?
            if case .cellsEdited = change, !filtered, let previous = self.groups, previous.groups == found.groups,
                previous.grandTotals.map(\.row) == found.grandTotals.map(\.row)
            {
                var outOfBody = partition.isPinned.isEmpty ? [Bool](repeating: false, count: count) : partition.isPinned
                for (row, _) in found.grandTotals where row < count { outOfBody[row] = true }
                kept = keptBody(less: outOfBody, count: count)
            }
            if let kept {
                sorted = kept
                heldAfterEdits = true
            } else {
                sorted = try Self.groupedBody(found, source: source, bound: bound, hidden: filtered ? hidden : nil, count: count)
            }
            partition.addGrandTotals(found)
            groups = found
        } else if filtered, let hidden {
            let rows =
                partition.isPinned.isEmpty
                ? (0..<count).filter { !hidden[$0] }
                : (0..<count).filter { !hidden[$0] && !partition.isPinned[$0] }
            sorted = try SortEngine.order(of: rows, in: source, plan: bound)
        } else if change == .pinsAdded || change == .pinsRemoved, plan.ordersByKeysAlone, !bodyHeldAfterEdits,
            let every = sortedEveryRow, every.count == count
        {
            // Every row in the keys' order, as the last sort left them: less the rows pinned now.
            sorted = Self.rows(every.rows, less: partition.isPinned)
            everyRow = every
            inSourceOrder = bodyInSourceOrder
        } else if case .pinsAdded = change, plan.ordersByKeysAlone, let kept = keptBody(less: partition.isPinned, count: count) {
            sorted = kept
            inSourceOrder = bodyInSourceOrder
            heldAfterEdits = bodyHeldAfterEdits
        } else if case .cellsEdited = change, let kept = keptBody(less: partition.isPinned, count: count) {
            sorted = kept
            inSourceOrder = bodyInSourceOrder
            heldAfterEdits = true
        } else if case .rowsAppended(let appended) = change, plan.ordersByKeysAlone, !bodyHeldAfterEdits,
            let placed = try bodyWithAppended(appended, source: source, bound: bound, partition: partition, count: count)
        {
            sorted = placed
        } else if partition.isPinned.isEmpty || plan.ordersByKeysAlone {
            // Every row, the pinned ones too (a sort by the keys alone orders each row by its own
            // cells): the sort needs no list of them, and a pin added or removed later takes the
            // body from this order without sorting again.
            let all = try SortEngine.order(ofFirst: count, in: source, plan: bound)
            sorted = Self.rows(all, less: partition.isPinned)
            if plan.ordersByKeysAlone { everyRow = RowList(stored: all) }
            inSourceOrder = plan.keepsSourceOrder
        } else {
            // An app's order: it never sees a pinned row.
            sorted = try SortEngine.order(of: partition.bodyRows(count: count), in: source, plan: bound)
            inSourceOrder = plan.keepsSourceOrder
        }
        bodyInSourceOrder = inSourceOrder
        bodyHeldAfterEdits = heldAfterEdits
        sortedEveryRow = everyRow
        releasedRowCount = nil
        self.pins = plan.pins
        pinnedTop = partition.top
        body = RowList(stored: sorted)
        pinnedBottom = partition.bottom
        unmatchedPins = partition.unmatched
        self.groups = groups
        subtotalRows = Set(groups?.groups.flatMap(\.subtotals) ?? [])
        placeSummaries(plan.summaries)
        computeCells(source: source, partition: partition, everyRowInBody: plan.pins.isEmpty && !filtered && groups == nil)
        if let groups, !filtered { checkGroups(groups, source: source) }
        writeDisplayIndexes(count: count)
    }

    /// The body of a grouped order: each group's rows sorted by the plan (one sort of them all,
    /// then dealt to their groups in that order), its subtotal rows before or after them, the
    /// groups in the grouping's order.
    private static func groupedBody(
        _ groups: RowGroups, source: GridDataSource, bound: BoundSortPlan, hidden: [Bool]?, count: Int
    ) throws(SortError) -> [Int32] {
        let groupCount = groups.groups.count
        // Where each group's rows are a run of consecutive rows (as a sheet's subtotal groups
        // are), each run is sorted on its own, straight into its place.
        if hidden == nil, let ranges = groups.ranges {
            let (start, length, subtotalPlaces) = try places(groups, kept: ranges.map(\.count), source: source, bound: bound)
            var sorted = true
            let body = try [Int32](unsafeUninitializedCapacity: length) { body, initialized throws(SortError) in
                for (at, row) in subtotalPlaces { body[at] = row }
                sorted = try SortEngine.order(within: ranges, count: count, in: source, plan: bound, into: body, starts: start)
                initialized = sorted ? length : 0
            }
            if sorted { return body }
        }
        // The rows to sort, each with its group; and how many each group keeps. (The groups'
        // rows are apart: each core writes its groups' own.)
        var groupOf = [Int32](repeating: -1, count: count)
        let kept: [Int] = groupOf.withUnsafeMutableBufferPointer { groupOf in
            let out = Unchecked(groupOf)
            return Parallel.map(Parallel.chunks(groupCount, minimum: 1)) { _, range in
                range.map { g in
                    var kept = 0
                    for row in groups.groups[g].rows where hidden?[row] != true {
                        out.value[row] = Int32(g)
                        kept += 1
                    }
                    return kept
                }
            }.flatMap { $0 }
        }
        let sorted: [Int32]
        if bound.plan.custom == nil, hidden == nil {
            // Every row at once, as a flat sort sorts them (a column's codes read in one pass):
            // the rows of no group (subtotals, grand totals, pinned rows) are passed over as the
            // rows are dealt. (An app's comparator is never asked about them: it sorts the
            // groups' rows alone.)
            sorted = try SortEngine.order(ofFirst: count, in: source, plan: bound)
        } else {
            var detail: [Int] = []
            detail.reserveCapacity(kept.reduce(0, +))
            for group in groups.groups { detail += group.rows.lazy.filter { hidden?[$0] != true } }
            sorted = try SortEngine.order(of: detail, in: source, plan: bound)
        }
        // The sorted rows are dealt to their places.
        let (start, length, subtotalPlaces) = try places(groups, kept: kept, source: source, bound: bound)
        return [Int32](unsafeUninitializedCapacity: length) { body, initialized in
            for (at, row) in subtotalPlaces { body[at] = row }
            Self.deal(sorted, groupOf: groupOf, groupCount: groupCount, start: start, into: body)
            initialized = length
        }
    }

    /// Where each group's rows start in the body, the groups in their order, each subtotal before
    /// or after its rows (`kept`: how many rows each group has there); the body's length; and
    /// the subtotal rows' places.
    private static func places(_ groups: RowGroups, kept: [Int], source: GridDataSource, bound: BoundSortPlan) throws(SortError)
        -> (start: [Int], length: Int, subtotals: [(at: Int, row: Int32)])
    {
        var start = [Int](repeating: 0, count: groups.groups.count)
        var subtotalPlaces: [(at: Int, row: Int32)] = []
        var length = 0
        for g in try groupOrder(groups, source: source, bound: bound) {
            let group = groups.groups[g]
            if group.subtotalsFirst {
                for row in group.subtotals { subtotalPlaces.append((length, Int32(row))); length += 1 }
            }
            start[g] = length
            length += kept[g]
            if !group.subtotalsFirst {
                for row in group.subtotals { subtotalPlaces.append((length, Int32(row))); length += 1 }
            }
        }
        return (start, length, subtotalPlaces)
    }

    /// Writes the rows of `sorted` that have a group (`groupOf` ≥ 0) into `body`, each group's in
    /// the order `sorted` gives them from its `start` on: a stable counting sort by group. On
    /// every core at once: each counts its part's rows by group (keeping each row's group), then
    /// writes them after the earlier parts' rows of the same group.
    private static func deal(_ sorted: [Int32], groupOf: [Int32], groupCount: Int, start: [Int], into body: UnsafeMutableBufferPointer<Int32>) {
        let chunks = Parallel.chunks(sorted.count)
        var counts = [Int](repeating: 0, count: chunks.count * groupCount)
        var groupOfSorted = [Int32](uninitializedLarge: sorted.count)
        sorted.withUnsafeBufferPointer { sorted in
            groupOf.withUnsafeBufferPointer { groupOf in
                counts.withUnsafeMutableBufferPointer { counts in
                    groupOfSorted.withUnsafeMutableBufferPointer { groupOfSorted in
                        let shared = Unchecked((sorted, groupOf, counts, groupOfSorted))
                        Parallel.forEach(chunks) { c, range in
                            let (sorted, groupOf, counts, groupOfSorted) = shared.value
                            let row = counts.baseAddress! + c * groupCount
                            for i in range {
                                let g = groupOf[Int(sorted[i])]
                                groupOfSorted[i] = g
                                if g >= 0 { row[Int(g)] += 1 }
                            }
                        }
                        // Each part's place in each group: after the earlier parts'.
                        for g in 0..<groupCount {
                            var at = start[g]
                            for c in chunks.indices {
                                let n = counts[c * groupCount + g]
                                counts[c * groupCount + g] = at
                                at += n
                            }
                        }
                        let out = Unchecked(body)
                        Parallel.forEach(chunks) { c, range in
                            let (sorted, _, counts, groupOfSorted) = shared.value
                            let next = counts.baseAddress! + c * groupCount
                            for i in range {
                                let g = Int(groupOfSorted[i])
                                if g < 0 { continue }
                                out.value[next[g]] = sorted[i]
                                next[g] += 1
                            }
                        }
                    }
                }
            }
        }
    }

    /// The order of the groups themselves (see ``RowGrouping/GroupOrder``).
    private static func groupOrder(_ groups: RowGroups, source: GridDataSource, bound: BoundSortPlan) throws(SortError) -> [Int] {
        let all = Array(groups.groups.indices)
        guard let grouping = bound.plan.grouping, let first = bound.plan.keys.first else { return all }
        switch grouping.order {
        case .source:
            return all
        case .subtotal:
            // The first subtotal row of each group that has one, sorted by the plan's keys (an
            // app's SortCompare hook or row comparator sorts the groups' rows alone: it is never
            // asked about a subtotal row).
            let withSubtotal = all.filter { !groups.groups[$0].subtotals.isEmpty }
            var groupOfRow: [Int: Int] = [:]
            for g in withSubtotal { groupOfRow[groups.groups[g].subtotals[0]] = g }
            var byKeys = bound.plan
            byKeys.custom = nil
            let sorted = try SortEngine.order(
                of: withSubtotal.map { groups.groups[$0].subtotals[0] }, in: source, plan: BoundSortPlan(byKeys, columns: source.columns))
            return sorted.map { groupOfRow[Int($0)]! } + all.filter { groups.groups[$0].subtotals.isEmpty }
        case .label:
            // Each group by a row that carries its label, by the label column in the first key's direction.
            var key = SortKey(grouping.column, first.direction, nulls: first.nulls)
            if case .text(let text) = first.comparator { key.comparator = .text(text) }
            let byLabel = try BoundSortPlan(SortPlan(keys: [key]), columns: source.columns)
            var groupOfRow: [Int: Int] = [:]
            var rows: [Int] = []
            for g in all {
                let group = groups.groups[g]
                // A subtotal's label is "华东 汇总": the group's own rows carry the bare label.
                guard let row = group.rows.first ?? group.subtotals.first else { continue }
                groupOfRow[row] = g
                rows.append(row)
            }
            return try SortEngine.order(of: rows, in: source, plan: byLabel).map { groupOfRow[Int($0)]! }
        }
    }

    /// Checks each subtotal row against its group's rows and each grand total against every
    /// group's rows (never against other subtotal rows).
    private mutating func checkGroups(_ groups: RowGroups, source: GridDataSource) {
        let columns = source.columns
        func subtotals(_ range: Range<Int>) -> SummaryArithmetic.Check {
            var result = SummaryArithmetic.Check()
            for group in groups.groups[range] where !group.subtotals.isEmpty {
                // Each group's sums are written with the decimals of its own rows.
                var arithmetic = SummaryArithmetic(source: source, body: RowList(stored: group.rows.map { Int32($0) }), bodyIsEveryRow: false)
                for (row, function) in zip(group.subtotals, group.functions) {
                    result += arithmetic.check(
                        row: row, label: groups.label(ofSummaryRow: row, in: source), function: function?.function, columns: columns)
                }
            }
            return result
        }
        func grandTotals() -> SummaryArithmetic.Check {
            var result = SummaryArithmetic.Check()
            guard !groups.grandTotals.isEmpty else { return result }
            var detail: [Int32] = []
            detail.reserveCapacity(groups.groups.reduce(0) { $0 + $1.rows.count })
            for group in groups.groups { detail += group.rows.lazy.map { Int32($0) } }
            var all = SummaryArithmetic(source: source, body: RowList(stored: detail), bodyIsEveryRow: false)
            for (row, function) in groups.grandTotals {
                result += all.check(row: row, label: groups.label(ofSummaryRow: row, in: source), function: function?.function, columns: columns)
            }
            return result
        }
        // The grand totals read as many rows as the subtotals together: on a table (which is
        // read from several threads safely; an app's own source is asked from one thread), the
        // grand totals and each half of the groups at once.
        let all = groups.groups.indices
        let checks: [SummaryArithmetic.Check]
        if source is Table, all.count > 1 {
            // Quarters of the groups and the grand totals, taken by whichever core is free.
            let n = min(all.count, 4)
            let parts = (0..<n).map { all.count * $0 / n..<all.count * ($0 + 1) / n }
            checks = Parallel.map((0...n).map { $0..<$0 + 1 }) { c, _ in c < n ? subtotals(parts[c]) : grandTotals() }
        } else {
            checks = [subtotals(all), grandTotals()]
        }
        let found = checks.flatMap(\.disagreements), left = checks.flatMap(\.left)
        summaryDisagreements = (summaryDisagreements + found).sorted { ($0.row, $0.column) < ($1.row, $1.column) }
        uncheckedSummaryCells = (uncheckedSummaryCells + left).sorted { ($0.row, $0.column) < ($1.row, $1.column) }
    }

    /// ``update(source:plan:change:hidden:)`` with the plan's parts given one by one.
    @available(*, deprecated, message: "use update(source:plan:change:hidden:): a SortPlan, and an OrderChange for the two flags")
    public mutating func update(
        source: GridDataSource, pins: [Pin], sortKeys: [SortKey],
        hook: ((SortCompareArguments) -> ComparisonResult?)? = nil,
        rowComparator: ((Int, Int) -> ComparisonResult)? = nil,
        summaries: [SummaryRow], bodyStillSorted: Bool = false,
        appended: Range<Int>? = nil, hidden: [Bool]? = nil
    ) throws(SortError) {
        let change: OrderChange = bodyStillSorted ? .pinsAdded : appended.map { .rowsAppended($0) } ?? .any
        try update(
            source: source,
            plan: SortPlan(
                keys: sortKeys, custom: CustomOrder(hook: hook, rowComparator: rowComparator),
                pins: pins, summaries: summaries),
            change: change, hidden: hidden)
    }

    // MARK: Steps

    /// Rows taken out of the body by pins, in pin order: a row goes to the first pin that takes it.
    private struct Partition {
        var top: [Int] = [], bottom: [Int] = []
        /// Per source row, whether a pin took it; empty when there are no pins.
        var isPinned: [Bool] = []
        var recomputed: [Int: (function: SummaryFunction, precision: Int?, label: String)] = [:]
        var unmatched: [RowPin] = []
        /// Rows pinned by their label (`组号 == 平均`), checked against the summary they name.
        var labelled: [(row: Int, label: String)] = []

        init(_ bound: BoundSortPlan, source: GridDataSource, count: Int) {
            let pins = bound.plan.pins
            guard !pins.isEmpty else { return }
            var matched = [Bool](repeating: false, count: pins.count)
            let storage = source as? ColumnStorageSource
            let pinOf = bound.assignPins(count: count, matched: &matched) { column, target in
                if let storage, column < storage.storeCount {
                    // The column's bytes read in place: no copy of its storage, no text, a row.
                    let store = storage.store(column)
                    return store.withView(uniformity: false) { view in (0..<min(count, store.count)).filter { target.matches(view.text($0)) } }
                }
                return (0..<count).filter { row in
                    var text = source.text(row: row, column: column)
                    return text.withUTF8 { target.matches($0) }
                }
            }
            isPinned = pinOf.map { $0 >= 0 }
            // Each pin's rows in source order, the pins in their order.
            var rowsOf = [[Int]](repeating: [], count: pins.count)
            for (row, p) in pinOf.enumerated() where p >= 0 { rowsOf[Int(p)].append(row) }
            for (p, rows) in rowsOf.enumerated() {
                if !matched[p] { unmatched.append(pins[p].rows) }
                if pins[p].edge == .top { top += rows } else { bottom += rows }
                switch bound.cells(ofPin: p) {
                case .recomputed(let function, let precision):
                    let label: String
                    if case .matching(_, let value) = pins[p].rows { label = value } else { label = "" }
                    for row in rows { recomputed[row] = (function, precision, label) }
                case .checked(let label): labelled += rows.map { ($0, label) }
                case .plain: break
                }
            }
        }

        /// Takes a grouping's grand totals out of the body, to the edge they stand at.
        mutating func addGrandTotals(_ groups: RowGroups) {
            for (row, _) in groups.grandTotals {
                if groups.grandTotalsAtTop.contains(row) { top.append(row) } else { bottom.append(row) }
            }
        }

        func bodyRows(count: Int) -> [Int] {
            isPinned.isEmpty ? Array(0..<count) : (0..<count).filter { !isPinned[$0] }
        }
    }

    /// The current body with `appended` placed in it by binary search — O(k log n) comparisons
    /// reading O(k log n) cells — or `nil` where that does not give the sort's order: the sort
    /// must read only the rows' values (no hook, row comparator or custom comparator, a source
    /// without column storage or exact digits), and no new row may be pinned.
    private func bodyWithAppended(
        _ appended: Range<Int>, source: GridDataSource, bound: BoundSortPlan, partition: Partition,
        count: Int
    ) throws(SortError) -> [Int32]? {
        guard appended.lowerBound == sourceRowCount, appended.upperBound == count, !appended.isEmpty,
            displayIndexOfSource.count == sourceRowCount,
            !(source is ColumnStorageSource), !(source is ExactNumberDataSource),
            !bound.comparesValues
        else { return nil }
        // Pinned rows are as they were, and no new row is pinned.
        if !partition.isPinned.isEmpty {
            guard appended.allSatisfy({ !partition.isPinned[$0] }) else { return nil }
            let shown = displayIndexOfSource
            let start = Int32(bodyStart), end = Int32(bodyStart + body.count)
            for row in 0..<appended.lowerBound where partition.isPinned[row] == (shown[row] >= start && shown[row] < end) {
                return nil
            }
        } else if body.count != sourceRowCount {
            return nil
        }
        // A filtered body (rows left out) is sorted whole.
        guard body.count + pinnedTop.count + pinnedBottom.count == sourceRowCount else { return nil }
        let keys = bound.keys
        // Whether body row `a` sorts before the new row `b` (whose cells are read once): each key's
        // values (missing placed by its rule), then the source position.
        func precedes(_ a: Int, _ b: Int, _ mine: [(value: CellValue, text: String?)]) -> Bool {
            for (k, own) in zip(keys, mine) {
                let x = source.value(row: a, column: k.column), y = own.value
                let descending = k.key.direction == .descending
                switch (x.isMissing, y.isMissing) {
                case (true, true): continue
                case (true, false), (false, true): return x.isMissing == k.key.nulls.missingFirst(descending: descending)
                default: break
                }
                var order =
                    k.asText
                    ? k.text.compare(source.text(row: a, column: k.column), own.text ?? "")
                    : SortEngine.standardCompare(x, y, text: k.text)
                if descending { order = order.reversed }
                if order != .orderedSame { return order == .orderedAscending }
            }
            return a < b
        }
        var placed = body
        for row in appended {
            let mine = keys.map { k in
                (value: source.value(row: row, column: k.column), text: k.asText ? source.text(row: row, column: k.column) : nil)
            }
            var low = 0, high = placed.count
            while low < high {
                let mid = (low + high) / 2
                if precedes(placed[mid], row, mine) { low = mid + 1 } else { high = mid }
            }
            placed.insert(row, at: low)
        }
        return placed.rows
    }

    /// Lets go of the body and the inverse index when the body is every row not pinned, in source
    /// order (``remakeReleasedRows()`` makes them again from the pins alone); `false` when it is
    /// not, and the order is unchanged. A grid keeps its last order to fall back on while it makes
    /// a new one: an order in source order need not be held twice for that (at 10M rows, 120 MB).
    /// Until an update or ``remakeReleasedRows()``, the order shows no rows.
    mutating func releaseSourceOrderRows() -> Bool {
        guard bodyInSourceOrder, releasedRowCount == nil else { return false }
        releasedRowCount = displayIndexOfSource.count
        body = RowList()
        displayIndexOfSource = []
        return true
    }

    /// Makes again the body and the inverse index ``releaseSourceOrderRows()`` let go of.
    mutating func remakeReleasedRows() {
        guard let count = releasedRowCount else { return }
        releasedRowCount = nil
        var isPinned = [Bool](repeating: false, count: count)
        for row in pinnedTop + pinnedBottom where row < count { isPinned[row] = true }
        body = RowList(stored: (0..<Int32(count)).filter { !isPinned[Int($0)] })
        writeDisplayIndexes(count: count)
    }

    /// `rows` less those `isPinned` flags (empty: none; `rows` itself, its storage shared).
    private static func rows(_ rows: [Int32], less isPinned: [Bool]) -> [Int32] {
        guard !isPinned.isEmpty else { return rows }
        return isPinned.withUnsafeBufferPointer { isPinned in rows.filter { !isPinned[Int($0)] } }
    }

    /// The current body less the rows now pinned, when every row not pinned now is in it.
    /// - Parameter isPinned: per source row, whether a pin takes it now; empty when no pin does.
    private func keptBody(less isPinned: [Bool], count: Int) -> [Int32]? {
        guard count > 0, releasedRowCount == nil, displayIndexOfSource.count == count,
            body.count + pinnedTop.count + pinnedBottom.count == count
        else { return nil }
        // No pin now: the body kept whole, when it holds every row.
        guard !isPinned.isEmpty else { return body.count == count ? body.rows : nil }
        let start = Int32(bodyStart), end = Int32(bodyStart + body.count)
        let shown = displayIndexOfSource
        guard (0..<count).allSatisfy({ isPinned[$0] || (shown[$0] >= start && shown[$0] < end) }) else { return nil }
        return Self.rows(body.rows, less: isPinned)
    }

    private mutating func placeSummaries(_ summaries: [SummaryRow]) {
        self.summaries = summaries
        topSummaries = summaries.indices.filter { summaries[$0].edge == .top }
        bottomSummaries = summaries.indices.filter { summaries[$0].edge == .bottom }
    }

    /// Forgets every computed cell — summaries show their labels only, recomputed rows the
    /// source's own cells — where they were computed from answers the source got wrong.
    mutating func blankComputedCells() {
        summaryCells = summaries.map { _ in [:] }
        recomputedCells = [:]
        summaryDisagreements = []
        uncheckedSummaryCells = []
    }

    private mutating func computeCells(source: GridDataSource, partition: Partition, everyRowInBody: Bool) {
        let columns = source.columns
        // A grouped body's subtotal rows are not rows of the body for its summaries.
        let rows: RowList
        // (Made only when something is computed over them.)
        let computes = !summaries.isEmpty || !partition.recomputed.isEmpty || !partition.labelled.isEmpty
        if let groups, !subtotalRows.isEmpty, computes {
            // The groups' rows shown: the body less its subtotal rows, in source order.
            var shown = [Bool](repeating: false, count: max(0, source.rowCount))
            for row in body.rows { shown[Int(row)] = true }
            for row in subtotalRows { shown[row] = false }
            rows = RowList(stored: groups.detailRows.lazy.filter { shown[$0] }.map { Int32($0) })
        } else {
            rows = body
        }
        var arithmetic = SummaryArithmetic(source: source, body: rows, bodyIsEveryRow: everyRowInBody)
        summaryCells = summaries.map { arithmetic.cells(of: $0, columns: columns) }
        recomputedCells = [:]
        var left: [UncheckedSummaryCell] = []
        for (row, recompute) in partition.recomputed {
            let (cells, unknown) = arithmetic.recomputedCells(
                recompute.function, row: row, label: recompute.label, precision: recompute.precision, columns: columns)
            recomputedCells[row] = cells
            left += unknown
        }
        var disagreements: [SummaryDisagreement] = []
        for (row, label) in partition.labelled.sorted(by: { $0.row < $1.row }) {
            guard let function = SummaryFunction(label: label) else { continue }
            let check = arithmetic.check(row: row, label: label, function: function, columns: columns)
            disagreements += check.disagreements
            left += check.left
        }
        summaryDisagreements = disagreements
        uncheckedSummaryCells = left.sorted { ($0.row, $0.column) < ($1.row, $1.column) }
        readProblem = arithmetic.readProblem
    }

    /// Fills the inverse index in place: the buffer of the last update is reused when it is not
    /// shared, and the body's part is written one chunk of rows per core.
    private mutating func writeDisplayIndexes(count: Int) {
        if displayIndexOfSource.capacity < count {
            displayIndexOfSource = [Int32](largeCapacity: count)
        } else {
            displayIndexOfSource.removeAll(keepingCapacity: true)
        }
        displayIndexOfSource.append(contentsOf: repeatElement(-1, count: count))
        for (position, row) in pinnedTop.enumerated() { displayIndexOfSource[row] = Int32(position) }
        let start = bodyStart
        displayIndexOfSource.withUnsafeMutableBufferPointer { inverse in
            body.withUnsafeBufferPointer { order in
                // Rows are distinct: each chunk writes its own.
                let shared = Unchecked((inverse, order))
                Parallel.forEach(Parallel.chunks(order.count)) { _, range in
                    let (inverse, order) = shared.value
                    for position in range { inverse[Int(order[position])] = Int32(start + position) }
                }
            }
        }
        let bottomStart = start + body.count
        for (position, row) in pinnedBottom.enumerated() { displayIndexOfSource[row] = Int32(bottomStart + position) }
    }

    // MARK: Reading

    /// The number of displayed rows.
    public var count: Int { pinnedTop.count + topSummaries.count + body.count + pinnedBottom.count + bottomSummaries.count }

    /// The display index of the first body row.
    public var bodyStart: Int { pinnedTop.count + topSummaries.count }

    /// How many displayed rows stay at the top (pinned rows and top summaries).
    public var pinnedTopCount: Int { bodyStart }

    /// How many displayed rows stay at the bottom (pinned rows and bottom summaries).
    public var pinnedBottomCount: Int { pinnedBottom.count + bottomSummaries.count }

    /// The number of source rows the order was made for.
    public var sourceRowCount: Int { displayIndexOfSource.count }

    /// The row shown at display `index`, or `nil` outside the display. O(1).
    public func row(at index: Int) -> DisplayRow? {
        guard index >= 0 else { return nil }
        var i = index
        if i < pinnedTop.count { return .source(pinnedTop[i]) }
        i -= pinnedTop.count
        if i < topSummaries.count { return .summary(topSummaries[i]) }
        i -= topSummaries.count
        if i < body.count { return .source(body[i]) }
        i -= body.count
        if i < pinnedBottom.count { return .source(pinnedBottom[i]) }
        i -= pinnedBottom.count
        return i < bottomSummaries.count ? .summary(bottomSummaries[i]) : nil
    }

    /// Where a source row is shown, or `nil` when it is not. O(1).
    public func displayIndex(ofSourceRow row: Int) -> Int? {
        guard row >= 0, row < displayIndexOfSource.count else { return nil }
        let index = displayIndexOfSource[row]
        return index < 0 ? nil : Int(index)
    }

    /// The display index of the summary at `summary` in ``summaries``.
    public func displayIndex(ofSummary summary: Int) -> Int? {
        if let i = topSummaries.firstIndex(of: summary) { return pinnedTop.count + i }
        if let i = bottomSummaries.firstIndex(of: summary) { return bodyStart + body.count + pinnedBottom.count + i }
        return nil
    }

    /// The part of the grid a row is shown in (`.body` for a source row that is not shown).
    public func region(of row: DisplayRow) -> RowRegion {
        switch row {
        case .source(let index):
            guard let shown = displayIndex(ofSourceRow: index) else { return .body }
            if shown < pinnedTop.count { return .pinnedTop }
            if shown >= bodyStart + body.count { return .pinnedBottom }
            return .body
        case .summary(let index):
            guard summaries.indices.contains(index) else { return .body }
            return summaries[index].edge == .top ? .pinnedTop : .pinnedBottom
        }
    }

    /// What a recomputed row shows in `column` in place of the source's cell, or `nil` where the
    /// source's own cell is shown. O(1).
    @inline(__always)
    func recomputedCell(row: Int, column: Int) -> SummaryCell? {
        recomputedCells.isEmpty ? nil : recomputedCells[row]?[column]
    }

    /// The text of ``recomputedCell(row:column:)``.
    package func recomputedText(row: Int, column: Int) -> String? { recomputedCell(row: row, column: column)?.text }

    /// The text of ``recomputedCell(row:column:)`` where its number is not what the source's
    /// cell holds: what an edit changes in a recomputed row.
    package func recomputedChange(row: Int, column: Int, in source: GridDataSource) -> String? {
        guard let cells = recomputedCells[row], let cell = cells[column] else { return nil }
        return Self.sameNumber(cell.value, source.value(row: row, column: column)) ? nil : cell.text
    }

    /// Whether two cells hold the same number (or neither holds one). (Not inlined: Swift 6.3's
    /// optimizer failed its ownership check on this comparison written in place.)
    @inline(never)
    private static func sameNumber(_ a: CellValue, _ b: CellValue) -> Bool {
        let x = a.number, y = b.number
        return x == y
    }

    /// The subtotal and grand total cells `cells` (source row, column position) of a grouped
    /// order recomputed over the rows each summarises — a subtotal its own group's rows, a grand
    /// total every group's rows, never another summary row — by the function its label names,
    /// in the row's own style (the rules of a recomputed pinned row): what follows an edit. A row
    /// that names no function (SQL's `ROLLUP` shape) and a cell whose meaning is not established
    /// are left out.
    package func recomputedGroupCells(_ cells: [(row: Int, column: Int)], source: GridDataSource) -> [(cell: (row: Int, column: Int), text: String)] {
        guard let groups, !cells.isEmpty else { return [] }
        let wanted = Dictionary(grouping: cells, by: \.row)
        let columns = source.columns
        var out: [(cell: (row: Int, column: Int), text: String)] = []
        func recompute(_ row: Int, _ function: SummaryFunction.Name?, over rows: [Int]) {
            guard let asked = wanted[row], let function = function?.function else { return }
            var arithmetic = SummaryArithmetic(source: source, body: RowList(stored: rows.map { Int32($0) }), bodyIsEveryRow: false)
            let computed = arithmetic.recomputedCells(
                function, row: row, label: groups.label(ofSummaryRow: row, in: source), precision: nil, columns: columns
            ).cells
            for cell in asked {
                // A cell whose number is what it was is left as written (83101.1 is not made 83101.10).
                guard let new = computed[cell.column] else { continue }
                if !Self.sameNumber(new.value, source.value(row: cell.row, column: cell.column)) { out.append((cell, new.text)) }
            }
        }
        for group in groups.groups {
            for (row, function) in zip(group.subtotals, group.functions) { recompute(row, function, over: group.rows) }
        }
        if groups.grandTotals.contains(where: { wanted[$0.row] != nil }) {
            let detail = groups.detailRows
            for (row, function) in groups.grandTotals { recompute(row, function, over: detail) }
        }
        return out
    }

    /// What summary row `summary` shows in `column`: its result in its columns, its label in the
    /// first other column, nothing elsewhere.
    func summaryCell(_ summary: Int, column: Int, columns: [Column]) -> SummaryCell {
        guard summaries.indices.contains(summary), columns.indices.contains(column) else {
            return SummaryCell(value: .missing, text: "")
        }
        if let cell = summaryCells[summary][column] { return cell }
        let definition = summaries[summary]
        let labelColumn = columns.firstIndex { !definition.columns.contains($0.identifier) }
        guard labelColumn == column else { return SummaryCell(value: .missing, text: "") }
        let label = definition.label ?? definition.function.description
        return SummaryCell(value: .text(label), text: label)
    }

    /// Whether a source row's cells are all shown as the source holds them (not recomputed).
    @inline(__always)
    package func showsAsStored(_ row: Int) -> Bool { recomputedCells.isEmpty || recomputedCells[row] == nil }

    /// Whether a source row's cell in `column` is shown as the source holds it.
    @inline(__always)
    func showsAsStored(_ row: Int, column: Int) -> Bool {
        recomputedCells.isEmpty || recomputedCells[row]?[column] == nil
    }

    /// The source rows whose cells are recomputed, with the columns that are.
    var recomputedColumns: [(row: Int, columns: [Int])] {
        recomputedCells.map { ($0.key, Array($0.value.keys)) }
    }

    /// The source row shown at display `index` when it is shown as the source holds it (not a
    /// summary, not recomputed). O(1).
    @inline(__always)
    package func plainSourceRow(at index: Int) -> Int? {
        guard case .source(let row)? = row(at: index), showsAsStored(row) else { return nil }
        return row
    }
}

/// What changed since an order's last update, when the caller knows that little did: the body is
/// then made from the last one instead of sorted again.
public enum OrderChange: Sendable, Equatable {
    /// Anything may have changed: the body is sorted.
    case any
    /// The source and the sort are what they were, and pins were only added: the old body less
    /// the rows now pinned is the new body (the sort is a total order, ties by source position),
    /// and no sort runs — what a new pin costs. Taken as `.any` where it cannot hold (an app's
    /// own order).
    case pinsAdded
    /// The source and the sort are what they were, and pins were only removed (or added): the
    /// rows they held go back to their sorted places, taken from the last sort of every row by
    /// the keys without sorting again. Taken as `.any` where that order is not at hand (an app's
    /// own order, a filter, groups, rows held where they were before an edit).
    case pinsRemoved
    /// The source and the sort are what they were but for these rows, added at the source's end:
    /// each is placed in the sorted body by a binary search where the sort reads only the rows'
    /// values and no new row is pinned; otherwise taken as `.any`.
    case rowsAppended(Range<Int>)
    /// The source's rows are what they were but for some cells, edited through the grid: every
    /// row stays where it is (DataGridView's and Excel's way: an edited row moves at the next
    /// sort), a row a pin now matches is pinned, and the summaries and recomputed rows follow
    /// the new values. Taken as `.any` where a row would have nowhere to stay (it was pinned and
    /// no pin holds it now).
    case cellsEdited
}

/// What a `.matching` pin looks for: a text, compared without surrounding spaces, and the value
/// it reads as, compared when both are numbers.
struct PinTarget {
    private let text: [UInt8]
    private let number: ExactDecimal?

    init(_ value: String) {
        var value = value
        let (text, number) = value.withUTF8 { buffer -> ([UInt8], ExactDecimal?) in
            var start = 0, end = buffer.count
            CellText.trim(buffer, &start, &end)
            return (Array(buffer[start..<end]), ExactDecimal(buffer))
        }
        self.text = text
        self.number = number
    }

    func matches(_ cell: UnsafeBufferPointer<UInt8>) -> Bool {
        var start = 0, end = cell.count
        CellText.trim(cell, &start, &end)
        if end - start == text.count,
            text.withUnsafeBufferPointer({ t in
                t.isEmpty || memcmp(t.baseAddress!, cell.baseAddress! + start, t.count) == 0
            })
        {
            return true
        }
        guard let number, let first = cell.first,
            first == UInt8(ascii: "-") || first == UInt8(ascii: "+")
                || first == UInt8(ascii: ".") || first == 0x20 || (first &- 48) < 10
        else { return false }
        return ExactDecimal(cell) == number
    }
}
