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
        if plan.grouping != nil {
            throw .unsupported("subtotal groups are sorted in memory; sort the file with a DataGrid (trellis sort --group-by reads it whole)")
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
        var evidence: [ColumnEvidence]?
        var partDecisions = Set<[ColumnDecision]>()
        var exactSeen = columns.map { _ in false }
        let keyColumns = Set(resolved.map(\.column))
        // What a sort at once to CSV reads: the key and summary columns, unless pins check every
        // number column or the records are written again field by field; the others stay in
        // each part's records.
        let read: Set<Int>? =
            pins.isEmpty && options.outputDelimiter == nil
            ? keyColumns.union(summaries.flatMap(\.columns).compactMap { name in columns.firstIndex { $0.identifier == name } })
            : nil
        for attempt in 0..<3 {
            let decided = attempt > 0
            report = Report()
            report.readings = attempt + 1
            runs = []
            pinned = [[PinnedRow]](repeating: [], count: pins.count)
            pinnedStores = columns.map { _ in ColumnStore() }
            parts = PartsSummary(columnCount: columns.count, everyRowInBody: pins.isEmpty, extremes: extremes)
            typeCounts = [TypeCounts](repeating: TypeCounts(), count: columns.count)
            matched = [Bool](repeating: false, count: pins.count)
            lastLabels = []
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
                let pinOf = bound.assignPins(count: count, firstRow: firstRow, matched: &matched) { row, column, target in
                    table.store(column).withText(at: row) { target.matches($0) }
                }
                let body = pins.isEmpty ? Array(0..<count) : (0..<count).filter { pinOf[$0] < 0 }
                let records = Records(table: table, outputDelimiter: self.options.outputDelimiter)
                for row in 0..<count where !pins.isEmpty && pinOf[row] >= 0 {
                    // The pinned row, kept with its cells for the summaries that check or recompute it.
                    let at = pinnedStores.first?.count ?? 0
                    for c in pinnedStores.indices {
                        let store = table.store(c)
                        let cell = store.cell(at: row)
                        _ = store.withText(at: row) { pinnedStores[c].append($0, cell) }
                    }
                    pinned[Int(pinOf[row])].append(PinnedRow(row: firstRow + row, record: records.record(row), stored: at))
                }
                if !summaries.isEmpty || !pins.isEmpty { parts.add(table, body: body, exactNumbers: self.exactNumbers) }
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
        return RunsRead(report: report, runs: runs, pinned: pinned, pinnedStores: pinnedStores, parts: parts)
    }
}
