import Foundation
import TrellisText

extension ExternalCSVSort {
    // MARK: Sorting

    /// Sorts the file by `keys`, `pins` taking their rows out first (in pin order, each row to the
    /// first pin that takes it), and writes it as CSV to `output`, with `summaries` computed over
    /// the body — as a ``DataGrid`` bound to the whole file with these pins and summaries writes it.
    public func sort(
        by keys: [SortKey], pins: [DisplayOrder.Pin], summaries: [SummaryRow] = [],
        to output: TextOutput
    ) throws(ExternalSortError) -> Report {
        try sort(SortPlan(keys: keys, pins: pins, summaries: summaries), to: output)
    }

    /// Carries out `plan` on the file and writes the result as CSV to `output`: byte for byte
    /// what a ``DataGrid`` bound to the whole file with this plan writes. An app's own order and
    /// custom comparators and summary functions are closures of the app, which a sort in parts
    /// does not call: such a plan is refused.
    public func sort(_ plan: SortPlan, to output: TextOutput) throws(ExternalSortError) -> Report {
        if let grouping = plan.grouping, grouping.order != .source {
            throw .unsupported(
                "a sort in parts keeps subtotal groups in their order; groups ordered by their \(grouping.order == .label ? "labels" : "subtotals") "
                    + "are sorted in memory (give more --memory)")
        }
        let firstTaken = format.encoding
        do {
            return try sortOnce(plan, to: output, firstTaken: firstTaken)
        } catch .csv(let error) where !encodingSettled {
            guard case .invalidUTF8 = error.problem else { throw .csv(error) }
            // A part is not UTF-8: what is the whole file in? (Throws when it is in none known.)
            try settleEncoding()
            encodingSettled = true
            guard encoding != .utf8 else { throw .csv(error) }
            return try sortOnce(plan, to: output, firstTaken: firstTaken)
        }
    }

    func sortOnce(_ plan: SortPlan, to output: TextOutput, firstTaken: TextEncoding) throws(ExternalSortError) -> Report {
        if plan.custom != nil { throw .unsupported("a sort in parts orders by the sort keys only, not by an app's own order") }
        if plan.summaries.contains(where: { if case .custom = $0.function { true } else { false } }) {
            throw .unsupported("a sort in parts computes the built-in summaries only")
        }
        if plan.keys.contains(where: { if case .custom = $0.comparator { true } else { false } }) {
            throw .unsupported("a sort in parts compares with the built-in comparators only")
        }
        let bound: BoundSortPlan
        do throws(SortError) {
            bound = try BoundSortPlan(plan, columns: columns)
            try bound.checkSummaryColumns()
        } catch {
            throw .sort(error)
        }
        let folder = try TemporaryPaths.makeFolder(in: options.folder)
        defer { TemporaryPaths.removeFolder(folder) }
        let read = try readRuns(bound, folder: folder)
        return try write(read, bound: bound, folder: folder, to: output, firstTaken: firstTaken)
    }

    /// What reading the file in parts leaves for the output: the runs of the body, the pinned
    /// rows (their records, and their cells for the summaries), the body's summary figures.
    struct RunsRead {
        var report = Report()
        var runs: [RunFile] = []
        var pinned: [[PinnedRow]] = []
        var pinnedStores: [ColumnStore] = []
        var parts = PartsSummary(columnCount: 0, everyRowInBody: true, extremes: [])
        /// A grouped sort's grand totals (their cells among the pinned ones), at the top or the bottom.
        var grandTotals: [(row: PinnedRow, atTop: Bool, function: SummaryFunction.Name?)] = []
    }

    /// A grouped sort's groups as the parts are read: where each row goes, each group's
    /// figures for its subtotal rows' checks, the subtotal rows' cells.
    struct GroupsRead {
        var builder = RowGroups.Builder(keepsRows: false)
        /// Each group's rows' figures, by the group's place among the groups met.
        var figures: [PartsSummary] = []
        /// The subtotal rows' cells, and where each row's are.
        var stores: [ColumnStore] = []
        var stored: [Int: Int] = [:]
        var grandTotals: [(row: PinnedRow, atTop: Bool)] = []

        /// What a run's key starts with for a row of group `group` in `section` (0: subtotal
        /// rows before the rows, 1: the rows, 2: subtotal rows after them): the groups in the
        /// order they were met, each one's parts in their order. Written as its five bytes.
        static func prefix(group: Int, section: UInt64) -> UInt64 { UInt64(truncatingIfNeeded: group) << 8 | section }

        static func append(_ prefix: UInt64, to key: inout [UInt8]) {
            for shift in stride(from: 32, through: 0, by: -8) { key.append(UInt8(truncatingIfNeeded: prefix >> UInt64(shift))) }
        }
    }

    /// Reads the file part by part — each part's body rows sorted by their key bytes into a run,
    /// its pinned rows kept — once, or again where the whole file reads its columns otherwise
    /// than the parts assumed (see ``Report/readings``).
    func readRuns(_ bound: BoundSortPlan, folder: String) throws(ExternalSortError) -> RunsRead {
        let pins = bound.plan.pins, summaries = bound.plan.summaries, keys = bound.plan.keys
        let resolved = bound.keys
        let extremes = bound.extremeColumns
        var report = Report()
        var runs: [RunFile] = []
        var pinned = [[PinnedRow]](repeating: [], count: pins.count)
        var pinnedStores: [ColumnStore] = []
        var parts = PartsSummary(columnCount: 0, everyRowInBody: true, extremes: [])
        var typeCounts = [TypeCounts](repeating: TypeCounts(), count: columns.count)
        var matched = [Bool](repeating: false, count: pins.count)
        let total = max(1, fileSize)
        var lastLabels: [(row: Int, label: String, pinned: Bool)] = []
        // The types the first reading found are those of its parts' own readings of their dates;
        // read with the file's, a key column that turns out a number column (or stops being one)
        // reads NaN otherwise, and the parts are sorted again.
        // The first reading reads each part as the part alone shows its columns, and types them
        // as the file's start does; it is the sort when the whole file, once read, agrees — each
        // part's reading of its dates and identifiers, the columns' types and comparators, numbers
        // a double holds — which is nearly always. Otherwise the parts are read again, each told
        // what the file decided.
        let groupColumn = bound.groupColumn
        var grouped = GroupsRead()
        var evidence: [ColumnEvidence]?
        var partDecisions = Set<[ColumnDecision]>()
        var exactSeen = columns.map { _ in false }
        let keyColumns = Set(resolved.map(\.column))
        // What a sort at once to CSV reads: the key and summary columns, unless pins check every
        // number column or the records are written again field by field; the others stay in
        // each part's records.
        // (A grouped sort reads its label column and the number columns its subtotal rows are
        // checked in too.)
        let read: Set<Int>? =
            pins.isEmpty && options.outputDelimiter == nil
            ? keyColumns.union(summaries.flatMap(\.columns).compactMap { name in columns.firstIndex { $0.identifier == name } })
                .union(groupColumn.map { [$0] + columns.indices.filter { columns[$0].type.isNumeric } } ?? [])
            : nil
        for attempt in 0..<3 {
            let decided = attempt > 0
            report = Report()
            report.readings = attempt + 1
            runs = []
            pinned = [[PinnedRow]](repeating: [], count: pins.count)
            pinnedStores = columns.map { _ in ColumnStore() }
            parts = PartsSummary(columnCount: columns.count, everyRowInBody: pins.isEmpty && groupColumn == nil, extremes: extremes)
            typeCounts = [TypeCounts](repeating: TypeCounts(), count: columns.count)
            matched = [Bool](repeating: false, count: pins.count)
            lastLabels = []
            grouped = GroupsRead()
            grouped.stores = columns.map { _ in ColumnStore() }
            var census = [KindCensus](repeating: KindCensus(), count: columns.count)
            try forEachPart { part, firstLine, firstRow, last, done throws(ExternalSortError) in
                let parsed = try self.table(part, firstLine: firstLine, last: last, decided: decided, reading: read)
                if last { self.trailingLines = parsed.csvFormat.trailingLines }
                if !decided {
                    let found = parsed.columnEvidence ?? []
                    partDecisions.insert(found.map(\.decision))
                    evidence = evidence.map { zip($0, found).map { $0.merged(with: $1) } } ?? found
                }
                for c in 0..<parsed.storeCount where !exactSeen[c] && !parsed.isUnread(c) {
                    exactSeen[c] = Self.needsExactNumbers(parsed.store(c))
                }
                for c in census.indices where !parsed.isUnread(c) { census[c].add(parsed.store(c).census) }
                let table = parsed.withColumns(self.columns)
                let count = table.rowCount
                // Rows taken by pins, in pin order.
                let pinOf = bound.assignPins(count: count, firstRow: firstRow, matched: &matched) { column, target in
                    let store = table.store(column)
                    return store.withView(uniformity: false) { view in (0..<min(count, store.count)).filter { target.matches(view.text($0)) } }
                }
                var body = pins.isEmpty ? Array(0..<count) : (0..<count).filter { pinOf[$0] < 0 }
                let records = Records(table: table, outputDelimiter: self.options.outputDelimiter)
                // A grouped sort: each row not pinned goes to its group (the body keeps the
                // groups' rows), a subtotal row into the run after or before its group's rows,
                // a grand total to its edge.
                var placed: [UInt64] = []
                var subtotalRows: [(row: Int, prefix: UInt64)] = []
                if let groupColumn {
                    let labels = table.store(groupColumn)
                    let details = bound.detailColumn.map { table.store($0) }
                    var detail: [Int] = []
                    detail.reserveCapacity(body.count)
                    var rowsOfGroup: [Int: [Int]] = [:]
                    for row in body {
                        let placement = labels.withText(at: row) { label in
                            guard let details else { return grouped.builder.add(firstRow + row, label) }
                            return details.withText(at: row) { grouped.builder.add(firstRow + row, label, detail: $0) }
                        }
                        switch placement {
                        case .row(let g):
                            placed.append(GroupsRead.prefix(group: g, section: 1))
                            detail.append(row)
                            rowsOfGroup[g, default: []].append(row)
                        case .subtotal(let g, let first):
                            subtotalRows.append((row, GroupsRead.prefix(group: g, section: first ? 0 : 2)))
                            grouped.stored[firstRow + row] = Self.keep(row, of: table, in: &grouped.stores)
                        case .grandTotal(let atTop):
                            let at = Self.keep(row, of: table, in: &pinnedStores)
                            grouped.grandTotals.append((PinnedRow(row: firstRow + row, record: records.record(row), stored: at), atTop))
                        }
                    }
                    for (g, rows) in rowsOfGroup {
                        while grouped.figures.count <= g {
                            grouped.figures.append(PartsSummary(columnCount: self.columns.count, everyRowInBody: false, extremes: []))
                        }
                        grouped.figures[g].add(table, body: rows, exactNumbers: self.exactNumbers)
                    }
                    body = detail
                }
                for row in 0..<count where !pins.isEmpty && pinOf[row] >= 0 {
                    // The pinned row, kept with its cells for the summaries that check or recompute it.
                    let at = Self.keep(row, of: table, in: &pinnedStores)
                    pinned[Int(pinOf[row])].append(PinnedRow(row: firstRow + row, record: records.record(row), stored: at))
                }
                if !summaries.isEmpty || !pins.isEmpty || groupColumn != nil { parts.add(table, body: body, exactNumbers: self.exactNumbers) }
                for c in keyColumns { typeCounts[c].count(table.store(c), rows: body, firstRow: firstRow) }
                // The rows a summary-row hint looks at.
                if firstRow == 0, count > 0 {
                    report.edgeRows.append((0, table.text(row: 0, column: 0), !pins.isEmpty && pinOf[0] >= 0))
                }
                for row in max(0, count - 2)..<count {
                    lastLabels.append((firstRow + row, table.text(row: row, column: 0), !pins.isEmpty && pinOf[row] >= 0))
                }
                lastLabels = Array(lastLabels.suffix(2))
                // The body's rows by their keys' bytes, written as a run.
                let keyBytes = KeyBytes(table: table, rows: body, firstRow: firstRow, keys: resolved, exactNumbers: self.exactNumbers)
                let order = keyBytes.sortedPositions()
                var writer = try RunWriter(in: folder)
                if groupColumn != nil {
                    // The groups' rows by group, then key; the subtotal rows in their places
                    // (their keys the group's and the row's place, not their cells).
                    // Each entry: its prefix, and its rank within it (a row's place in key order;
                    // a subtotal row's place in the file, after the rows' ranks).
                    var entries: [(prefix: UInt64, rank: Int, position: Int)] = []
                    entries.reserveCapacity(order.count + subtotalRows.count)
                    for (k, position) in order.enumerated() { entries.append((placed[position], k, position)) }
                    for (k, subtotal) in subtotalRows.enumerated() { entries.append((subtotal.prefix, order.count + k, -1 - k)) }
                    entries.sort { $0.prefix != $1.prefix ? $0.prefix < $1.prefix : $0.rank < $1.rank }
                    var full: [UInt8] = []
                    try keyBytes.withKeys { key throws(ExternalSortError) in
                        for entry in entries {
                            full.removeAll(keepingCapacity: true)
                            GroupsRead.append(entry.prefix, to: &full)
                            let row: Int
                            if entry.position >= 0 {
                                full.append(contentsOf: key(entry.position))
                                row = body[entry.position]
                            } else {
                                row = subtotalRows[-1 - entry.position].row
                                let place = UInt64(firstRow + row)
                                for shift in stride(from: 56, through: 0, by: -8) { full.append(UInt8(truncatingIfNeeded: place >> UInt64(shift))) }
                            }
                            try full.withUnsafeBufferPointer { full throws(ExternalSortError) in
                                if let raw = records.raw {
                                    let span = raw.place(row)
                                    try raw.bytes.withUnsafeBufferPointer { part throws(ExternalSortError) in
                                        try writer.append(key: full, record: UnsafeBufferPointer(rebasing: part[Int(span >> 32)..<Int(span & 0xFFFF_FFFF)]))
                                    }
                                } else {
                                    try records.record(row).withUnsafeBufferPointer { record throws(ExternalSortError) in
                                        try writer.append(key: full, record: record)
                                    }
                                }
                            }
                        }
                    }
                    runs.append(try writer.finish())
                    report.rows += count
                    options.progress?(0.3 + 0.4 * Double(done) / Double(total), report.rows)
                    return count
                }
                try keyBytes.withKeys { key throws(ExternalSortError) in
                    if let raw = records.raw {
                        // Each row's record span, in the body's order (read in sequence), then the
                        // rows in key order with one jump each into the keys and the part.
                        let spans = body.map { raw.place($0) }
                        try raw.bytes.withUnsafeBufferPointer { part throws(ExternalSortError) in
                            for position in order {
                                let span = spans[position]
                                let record = UnsafeBufferPointer(rebasing: part[Int(span >> 32)..<Int(span & 0xFFFF_FFFF)])
                                try writer.append(key: key(position), record: record)
                            }
                        }
                    } else {
                        for position in order {
                            let record = records.record(body[position])
                            try record.withUnsafeBufferPointer { record throws(ExternalSortError) in
                                try writer.append(key: key(position), record: record)
                            }
                        }
                    }
                }
                runs.append(try writer.finish())
                report.rows += count
                options.progress?(0.3 + 0.4 * Double(done) / Double(total), report.rows)
                return count
            }
            if !decided {
                // What the whole file decides, against what the first reading assumed.
                let assumed = columns
                let merged = evidence ?? columns.map { _ in ColumnEvidence() }
                decide(from: merged)
                let partsAgree = partDecisions.allSatisfy { $0 == decisions }
                // (A column left in the records is text in every part, whatever the file's start showed.)
                let sameColumns = columns.indices.allSatisfy { c in
                    read.map { !$0.contains(c) } == true
                        || (assumed[c].type.isNumeric == columns[c].type.isNumeric && assumed[c].textComparator == columns[c].textComparator)
                }
                let keyed = keyColumns.union(extremes)
                let sameNumbers = keyed.allSatisfy { !exactSeen[$0] }
                exactNumbers = exactSeen
                if partsAgree && sameColumns && sameNumbers { break }
                continue
            }
            var redo = false
            for c in columns.indices
            where !(decisions[c].identifier && options.types[columns[c].identifier] == nil)
                && options.types[columns[c].identifier] == nil
            {
                let type = census[c].type
                if type.isNumeric != columns[c].type.isNumeric, keyColumns.contains(c) { redo = true }
                columns[c].type = type
            }
            if !redo || attempt == 2 { break }
        }
        var grandTotals: [(row: PinnedRow, atTop: Bool, function: SummaryFunction.Name?)] = []
        if groupColumn != nil {
            grouped.builder.close()
            grouped.builder.nameUnnamedFunctions()
            let met = grouped.builder.groups
            let functions = Dictionary(uniqueKeysWithValues: grouped.builder.grandTotals.map { ($0.row, $0.function) })
            grandTotals = grouped.grandTotals.map { ($0.row, $0.atTop, functions[$0.row.row] ?? nil) }
            // Each subtotal row checked against its own group's rows (a bare 小计 that opened a
            // group of none, against the group before it), as a sort at once checks it.
            let subtotalTable = Table(columns: columns, stores: grouped.stores)
            var checks: [SummaryArithmetic.Check] = []
            for (g, group) in met.enumerated() where !group.subtotals.isEmpty {
                let of = RowGroups.Builder.closesTheGroupBefore(g, in: met) ? g - 1 : g
                let figures = of < grouped.figures.count ? grouped.figures[of] : PartsSummary(columnCount: columns.count, everyRowInBody: false, extremes: [])
                var arithmetic = SummaryArithmetic(pinned: subtotalTable, parts: figures)
                for (row, function) in zip(group.subtotals, group.functions) {
                    guard let stored = grouped.stored[row] else { continue }
                    let label = RowGroups.label(ofSummaryRow: stored, in: subtotalTable, column: groupColumn!, detail: bound.detailColumn)
                    checks.append(Self.checkInParts(&arithmetic, row: row, stored: stored, label: label, function: function, columns: columns))
                }
            }
            report.summaryDisagreements += checks.flatMap(\.disagreements)
            report.uncheckedSummaryCells += checks.flatMap(\.left)
            var finished = grouped.builder
            let first = met.first { !$0.subtotals.isEmpty }.flatMap { grouped.stored[$0.subtotals[0]] }
            report.groups = RowGroups.Summary(
                groups: finished.finishedGroups(), grandTotals: grandTotals.map(\.row.row),
                firstSubtotalLabel: first.map { RowGroups.label(ofSummaryRow: $0, in: subtotalTable, column: groupColumn!, detail: bound.detailColumn) })
        }
        report.edgeRows += lastLabels.filter { last in !report.edgeRows.contains { $0.row == last.row } }
        report.runs = runs.count
        report.unmatchedPins = pins.indices.filter { !matched[$0] }.map { pins[$0].rows }
        // As a sort at once says them: in the columns the keys read.
        report.typeWarnings = columns.enumerated().flatMap { c, column in
            keyColumns.contains(c) ? typeCounts[c].warnings(column) : []
        }.map { warning in
            var warning = warning
            warning.descending = keys.first { $0.column == warning.column }?.direction == .descending
            return warning
        }
        return RunsRead(report: report, runs: runs, pinned: pinned, pinnedStores: pinnedStores, parts: parts, grandTotals: grandTotals)
    }

    /// Keeps the cells of `table`'s row `row` in `stores`; returns where.
    static func keep(_ row: Int, of table: Table, in stores: inout [ColumnStore]) -> Int {
        let at = stores.first?.count ?? 0
        for c in stores.indices {
            if table.isUnread(c) {
                // A column left in the records: its cell, read as text (not the whole column).
                var text = table.text(row: row, column: c)
                _ = text.withUTF8 { stores[c].append($0, CellText.classify($0, as: .text)) }
                continue
            }
            let store = table.store(c)
            let cell = store.cell(at: row)
            _ = store.withText(at: row) { stores[c].append($0, cell) }
        }
        return at
    }

    /// A summary row checked against the figures of the rows it summarises, read in parts:
    /// as ``SummaryArithmetic/check(row:reportedAs:label:function:columns:)``, but a minimum or
    /// maximum, whose cells the parts do not keep, is said to be left unchecked.
    static func checkInParts(
        _ arithmetic: inout SummaryArithmetic, row: Int, stored: Int, label: String, function: SummaryFunction.Name?, columns: [Column]
    ) -> SummaryArithmetic.Check {
        switch function {
        case .min?, .max?:
            var check = SummaryArithmetic.Check()
            for (c, column) in columns.enumerated() where column.type.isNumeric {
                let says = arithmetic.source.text(row: stored, column: c).trimmingSpaces()
                guard !says.isEmpty else { continue }
                check.left.append(
                    UncheckedSummaryCell(
                        row: row, label: label.trimmingSpaces(), column: column.identifier, says: says,
                        function: function?.function.description ?? ""))
            }
            return check
        default:
            // (A row that names no function is tried as each; the parts keep no extremes, so a
            // cell that is its group's least or most is left.)
            return arithmetic.check(row: stored, reportedAs: row, label: label, function: function?.function, columns: columns)
        }
    }
}
