import Foundation
import TrellisText

extension ExternalCSVSort {
    /// Writes the sorted file: the lines above the header and the header, the pinned rows and
    /// summaries of the top, the runs merged, those of the bottom, the blank lines the file ends
    /// with — as CSV output of the whole table writes them. Returns the report, with what the
    /// summaries found.
    func write(
        _ read: RunsRead, bound: BoundSortPlan, folder: String, to output: TextOutput,
        firstTaken: TextEncoding
    ) throws(ExternalSortError) -> Report {
        var report = read.report, runs = read.runs
        let pinned = read.pinned, pins = bound.plan.pins, summaries = bound.plan.summaries
        // The summaries of the body: the pinned rows checked or recomputed, the summary rows.
        let pinnedTable = Table(columns: columns, stores: read.pinnedStores)
        var arithmetic = SummaryArithmetic(pinned: pinnedTable, parts: read.parts)
        var recomputed: [Int: [Int: SummaryCell]] = [:]
        var labelled: [(row: Int, stored: Int, label: String)] = []
        var unchecked: [UncheckedSummaryCell] = []
        for (p, rows) in pinned.enumerated() {
            for row in rows {
                switch bound.cells(ofPin: p) {
                case .recomputed(let function, let precision):
                    let label: String
                    if case .matching(_, let value) = pins[p].rows { label = value } else { label = "" }
                    let (cells, left) = arithmetic.recomputedCells(
                        function, row: row.stored, reportedAs: row.row, label: label, precision: precision, columns: columns)
                    recomputed[row.stored] = cells
                    unchecked += left
                case .checked(let label): labelled.append((row.row, row.stored, label))
                case .plain: break
                }
            }
        }
        // (A grouped sort's subtotal rows were checked as the parts were read.)
        var disagreements = report.summaryDisagreements
        unchecked += report.uncheckedSummaryCells
        for (row, stored, label) in labelled.sorted(by: { $0.row < $1.row }) {
            guard let function = SummaryFunction(label: label) else { continue }
            let check = arithmetic.check(row: stored, reportedAs: row, label: label, function: function, columns: columns)
            disagreements += check.disagreements
            unchecked += check.left
        }
        // A grouped sort's grand totals, against every group's rows.
        if let groupColumn = bound.groupColumn {
            for (row, _, function) in read.grandTotals {
                let label = RowGroups.label(ofSummaryRow: row.stored, in: pinnedTable, column: groupColumn, detail: bound.detailColumn)
                let check = Self.checkInParts(&arithmetic, row: row.row, stored: row.stored, label: label, function: function, columns: columns)
                disagreements += check.disagreements
                unchecked += check.left
            }
        }
        report.summaryDisagreements = disagreements.sorted { ($0.row, $0.column) < ($1.row, $1.column) }
        report.uncheckedSummaryCells = unchecked.sorted { ($0.row, $0.column) < ($1.row, $1.column) }
        let summaryCells = summaries.map { arithmetic.cells(of: $0, columns: columns) }
        /// A pinned or summary row written field by field.
        func writeFields(_ text: (Int) -> String) {
            var record: [UInt8] = []
            for c in columns.indices {
                if c > 0 { record.append(delimiter) }
                var cell = text(c)
                cell.withUTF8 { Records.appendField($0, delimiter: delimiter, to: &record) }
            }
            output.write(bytes: record)
            output.write(bytes: lineBreak)
        }
        func writePinned(_ edge: PinEdge) {
            for (p, rows) in pinned.enumerated() where pins[p].edge == edge {
                for row in rows {
                    if let cells = recomputed[row.stored], !cells.isEmpty {
                        writeFields { c in cells[c]?.text ?? pinnedTable.text(row: row.stored, column: c) }
                    } else {
                        output.write(bytes: row.record)
                        output.write(bytes: lineBreak)
                    }
                }
            }
        }
        func writeGrandTotals(atTop: Bool) {
            for (row, top, _) in read.grandTotals where top == atTop {
                output.write(bytes: row.record)
                output.write(bytes: lineBreak)
            }
        }
        func writeSummaries(_ edge: PinEdge) {
            for (s, summary) in summaries.enumerated() where summary.edge == edge {
                let labelColumn = columns.firstIndex { !summary.columns.contains($0.identifier) }
                writeFields { c in
                    if let cell = summaryCells[s][c] { return cell.text }
                    return c == labelColumn ? summary.label ?? summary.function.description : ""
                }
            }
        }
        // Many runs are merged in groups first, so that few files are open at once.
        while runs.count > Self.fanIn {
            var merged: [RunFile] = []
            for start in stride(from: 0, to: runs.count, by: Self.fanIn) {
                let group = Array(runs[start..<min(runs.count, start + Self.fanIn)])
                var writer = try RunWriter(in: folder)
                try Self.merge(group, bufferBytes: Self.workingMemory(options.memory) / 2) { key, record throws(ExternalSortError) in
                    try writer.append(key: key, record: record)
                }
                merged.append(try writer.finish())
            }
            runs = merged
        }
        // The output: as CSV output of the whole table writes it — in the file's encoding, found
        // to be another than it was first taken to be, when the output was opened in that one.
        if options.outputEncoding == nil, format.encoding != firstTaken, output.encoding == firstTaken,
            !output.handOn(in: format.encoding)
        {
            throw .io("the output was written to before the file's encoding (\(format.encoding.name)) was known")
        }
        let delimiter = options.outputDelimiter ?? format.delimiter
        let lineBreak = format.lineBreak
        format.writeLinesAboveHeader(to: output, delimiter: delimiter)
        if delimiter == format.delimiter, let header = headerText() {
            output.write(bytes: header)
        } else {
            for (c, column) in columns.enumerated() {
                if c > 0 { output.write(byte: delimiter) }
                var title = column.title
                var field: [UInt8] = []
                title.withUTF8 { Records.appendField($0, delimiter: delimiter, to: &field) }
                output.write(bytes: field)
            }
        }
        output.write(bytes: lineBreak)
        writePinned(.top)
        writeGrandTotals(atTop: true)
        writeSummaries(.top)
        var written = 0
        let bodyRows = report.rows - pinned.reduce(0) { $0 + $1.count } - read.grandTotals.count
        try Self.merge(runs, bufferBytes: Self.workingMemory(options.memory) / 2) { _, record throws(ExternalSortError) in
            output.write(bytes: record)
            output.write(bytes: lineBreak)
            written += 1
            if written & 0xFFFF == 0 { options.progress?(0.7 + 0.3 * Double(written) / Double(max(1, bodyRows)), report.rows) }
        }
        writePinned(.bottom)
        writeGrandTotals(atTop: false)
        writeSummaries(.bottom)
        output.write(bytes: trailingLines)
        options.progress?(1, report.rows)
        return report
    }
}
