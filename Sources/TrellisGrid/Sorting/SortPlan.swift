import Foundation

/// What a sort does, stated once: the keys (each with its comparator and where its blanks go) or
/// an app's own order, the rows pinned to an edge and what is checked or recomputed in them, and
/// the summary rows.
///
/// ```swift
/// let plan = SortPlan(keys: [SortKey("分数", .descending)],
///                     pins: [.init(.matching(column: "组号", value: "平均"), at: .bottom)])
/// let order = try DisplayOrder(source: table, plan: plan)
/// ```
///
/// A plan is made from a command's options or by an app, and carried out alike by the order in
/// memory (``DisplayOrder``, under ``DataGrid``) and by the sort of a file in parts
/// (``ExternalCSVSort``): both read it through one ``BoundSortPlan`` — the keys' columns and
/// comparators, which pin takes a row, what a pinned row's label asks for — so that the rules are
/// decided in one place.
public struct SortPlan {
    /// The sort keys, most significant first. Empty: source order (or ``custom``'s row order).
    public var keys: [SortKey]
    /// An app's own order, consulted beside the keys or in their place.
    public var custom: CustomOrder?
    /// Rows taken out of the body, in pin order: a row goes to the first pin that takes it.
    public var pins: [DisplayOrder.Pin]
    /// Summary rows, computed over the body.
    public var summaries: [SummaryRow]
    /// Subtotal groups kept together: rows sort within their group (see ``RowGrouping``).
    public var grouping: RowGrouping?

    public init(keys: [SortKey] = [], custom: CustomOrder? = nil, pins: [DisplayOrder.Pin] = [], summaries: [SummaryRow] = []) {
        self.keys = keys
        self.custom = custom
        self.pins = pins
        self.summaries = summaries
    }

    /// A plan whose rows sort within their subtotal groups.
    public init(
        keys: [SortKey] = [], custom: CustomOrder? = nil, pins: [DisplayOrder.Pin] = [], summaries: [SummaryRow] = [],
        grouping: RowGrouping?
    ) {
        self.init(keys: keys, custom: custom, pins: pins, summaries: summaries)
        self.grouping = grouping
    }

    /// Whether the body keeps the source's order (no key, no row order).
    var keepsSourceOrder: Bool {
        if case .rows? = custom { return false }
        if grouping != nil { return false }
        return keys.isEmpty
    }

    /// Whether the plan's order is the keys' alone (no hook, no row comparator).
    var ordersByKeysAlone: Bool { custom == nil && grouping == nil }
}

/// An app's own order, beside the sort keys or in their place: the two ways DataGridView lets an
/// app decide.
public enum CustomOrder {
    /// Consulted for each key's pair of present values (DataGridView's `SortCompare` event):
    /// answers ascending order, or `nil` to leave the pair to the key's own comparison. The key's
    /// direction is applied to the answer.
    case compareHook((SortCompareArguments) -> ComparisonResult?)
    /// Orders whole rows (source positions), ascending, ties in source order (DataGridView's
    /// `Sort(IComparer)`); the keys are not used.
    case rows((Int, Int) -> ComparisonResult)

    /// A hook, or a row comparator, as the two optional closures of the older API give them: the
    /// row comparator wins, as it replaces the keys.
    init?(hook: ((SortCompareArguments) -> ComparisonResult?)?, rowComparator: ((Int, Int) -> ComparisonResult)?) {
        if let rowComparator { self = .rows(rowComparator) } else if let hook { self = .compareHook(hook) } else { return nil }
    }

    var hook: ((SortCompareArguments) -> ComparisonResult?)? {
        if case .compareHook(let hook) = self { return hook }
        return nil
    }
}

/// A ``SortPlan`` read against a source's columns: what every execution of the plan needs, found
/// once — each key's column and text comparator, what each pin looks for, what a pinned row's
/// cells are checked or recomputed as, which columns a summary needs the extremes of.
struct BoundSortPlan {
    /// A key with its column found.
    struct Key {
        var key: SortKey
        var column: Int
        /// The comparator of its texts: the key's own, or its column's.
        var text: TextComparator
        /// Whether every present cell is compared as its text (`:natural` given explicitly).
        var asText: Bool {
            if case .asText = key.comparator { return true }
            return false
        }
        /// Whether an app's closure compares its values.
        var isCustom: Bool {
            if case .custom = key.comparator { return true }
            return false
        }
    }

    /// What a pin looks for, in the source's columns.
    enum Target {
        case row(Int)
        case matching(column: Int, PinTarget)
        /// A column the source does not have: the pin takes no row.
        case nothing
    }

    /// What a pinned row shows in its number cells.
    enum PinnedCells {
        /// This function of the body, written with these decimals (`--recompute`).
        case recomputed(SummaryFunction, precision: Int?)
        /// Its own cells, checked against the summary its label names (a pin by 平均, 合计, …).
        case checked(label: String)
        /// Its own cells (a pin by position).
        case plain
    }

    let plan: SortPlan
    let columns: [Column]
    let keys: [Key]
    let targets: [Target]
    /// The grouping's label column, when the plan groups rows.
    let groupColumn: Int?
    /// The grouping's detail column, for groups of SQL's `ROLLUP` shape.
    let detailColumn: Int?

    /// Binds `plan` to `columns`. Throws for a key whose column the source lacks or whose locale
    /// ICU has no collation for. A pin of a column the source lacks takes no row (the grid checks
    /// a pin's column when it is pinned; a source whose columns changed since leaves it unmatched).
    init(_ plan: SortPlan, columns: [Column]) throws(SortError) {
        self.plan = plan
        self.columns = columns
        var keys: [Key] = []
        if case .rows? = plan.custom {
        } else {
            for key in plan.keys {
                guard let c = columns.firstIndex(where: { $0.identifier == key.column }) else {
                    throw .unknownColumn(key.column, columns: columns.map(\.identifier))
                }
                let bound = Key(key: key, column: c, text: Self.comparator(for: key, column: columns[c]))
                if let error = bound.text.checkLocale() { throw error }
                keys.append(bound)
            }
        }
        self.keys = keys
        if let grouping = plan.grouping {
            guard let c = columns.firstIndex(where: { $0.identifier == grouping.column }) else {
                throw .unknownColumn(grouping.column, columns: columns.map(\.identifier))
            }
            groupColumn = c
            if let detail = grouping.detail {
                guard let d = columns.firstIndex(where: { $0.identifier == detail }) else {
                    throw .unknownColumn(detail, columns: columns.map(\.identifier))
                }
                detailColumn = d
            } else {
                detailColumn = nil
            }
        } else {
            groupColumn = nil
            detailColumn = nil
        }
        targets = plan.pins.map { pin in
            switch pin.rows {
            case .row(let row): return .row(row)
            case .matching(let column, let value):
                guard let c = columns.firstIndex(where: { $0.identifier == column }) else { return .nothing }
                return .matching(column: c, PinTarget(value))
            }
        }
    }

    /// The text comparator of a key: its own, or its column's.
    static func comparator(for key: SortKey, column: Column) -> TextComparator {
        switch key.comparator {
        case .text(let text), .asText(let text): return text
        default: return column.textComparator
        }
    }

    /// Whether the order needs comparisons of values (an app's hook or a key's own comparator)
    /// rather than the keys' codes alone.
    var comparesValues: Bool {
        if case .compareHook? = plan.custom { return true }
        return keys.contains(where: \.isCustom)
    }

    /// Throws for a summary column the source lacks.
    func checkSummaryColumns() throws(SortError) {
        for summary in plan.summaries {
            for column in summary.columns where !columns.contains(where: { $0.identifier == column }) {
                throw .unknownColumn(column, columns: columns.map(\.identifier))
            }
        }
    }

    /// What pinned row `pin`'s cells show.
    func cells(ofPin pin: Int) -> PinnedCells {
        let pin = plan.pins[pin]
        if let function = pin.recomputing { return .recomputed(function, precision: pin.precision) }
        if case .matching(_, let value) = pin.rows { return .checked(label: value) }
        return .plain
    }

    /// The columns whose least and most values the summaries ask for: a summary row's own, and
    /// every column where a pinned row's label or its recompute names a minimum or a maximum (it
    /// applies to whichever columns turn out numbers).
    var extremeColumns: Set<Int> {
        func isExtreme(_ function: SummaryFunction) -> Bool {
            if case .min = function { true } else if case .max = function { true } else { false }
        }
        let pinFunctions = plan.pins.indices.compactMap { p -> SummaryFunction? in
            switch cells(ofPin: p) {
            case .recomputed(let function, _): return function
            case .checked(let label): return SummaryFunction(label: label)
            case .plain: return nil
            }
        }
        if pinFunctions.contains(where: isExtreme) { return Set(columns.indices) }
        return Set(
            plan.summaries.filter { isExtreme($0.function) }.flatMap(\.columns).compactMap { name in
                columns.firstIndex { $0.identifier == name }
            })
    }

    /// Which pin takes each of `count` rows — the source's rows `firstRow..<firstRow + count` —
    /// or −1 (empty when there are no pins): each row goes to the first pin that takes it. A pin
    /// matches when any of these rows is one it looks for, taken by it or by a pin before it
    /// (`matched`, one flag per pin, is set for those).
    ///
    /// - Parameter rowsMatching: the rows (counted from `firstRow`) whose cell in a column is a
    ///   pin's target, in order: one pass over the column per pin.
    func assignPins(
        count: Int, firstRow: Int = 0, matched: inout [Bool],
        rowsMatching: (_ column: Int, _ target: PinTarget) -> [Int]
    ) -> [Int32] {
        guard !targets.isEmpty else { return [] }
        var pinOf = [Int32](repeating: -1, count: count)
        for (p, target) in targets.enumerated() {
            switch target {
            case .nothing: continue
            case .row(let row):
                guard row >= firstRow, row < firstRow + count else { continue }
                matched[p] = true
                if pinOf[row - firstRow] < 0 { pinOf[row - firstRow] = Int32(p) }
            case .matching(let column, let wanted):
                for row in rowsMatching(column, wanted) {
                    matched[p] = true
                    if pinOf[row] < 0 { pinOf[row] = Int32(p) }
                }
            }
        }
        return pinOf
    }
}
