import Foundation
import TrellisText

extension CSV {
    /// Rows under a header that are more of the header: pandas' second header row of a
    /// MultiIndex (`,语文,数学` under `,成绩,成绩`) and the row of its index's names under it
    /// (`班级,,`), or a row of units (`,kg,元` under `名称,重量,价格`).
    struct HeaderBlock {
        /// How many rows under the header line belong to the header (1 or 2).
        var rows: Int
        /// The cells of the header line and of each row of the block but the last, top to
        /// bottom: what the columns' names are made of, with the last row's.
        var above: [[String]]
    }

    /// The header block of the text from `start` (the header line) to `end`, judged from its
    /// first 100 lines: `nil` when the header is one line, as for most files.
    ///
    /// The row under the header is more of it when it is a row of text over number columns: each
    /// of its cells blank or text (no number, no date), text in at least one column whose cells
    /// below are all numbers, blank or text in every such column; and the header shows that it
    /// is not whole on its own — a header cell is blank, or a name stands over two columns side
    /// by side (`成绩,成绩`), or the row leaves every text column blank (a row of units). A
    /// row after it with text only where it is blank, and blank in every number column, is
    /// pandas' row of the index's names, and part of the header too.
    static func headerBlock(
        _ text: UnsafeBufferPointer<UInt8>, from start: Int, upTo end: Int, delimiter: UInt8, reading: CellReading
    ) -> HeaderBlock? {
        // The head: its first 100 lines at most (of 64 KB at most), cut after a line break —
        // what every file read whole pays for the look.
        var cut = min(end, start + (1 << 16))
        var lines = 0
        for i in start..<cut where text[i] == 0x0A {
            lines += 1
            if lines == 100 {
                cut = i + 1
                break
            }
        }
        if cut < end {
            while cut > start, text[cut - 1] != 0x0A, text[cut - 1] != 0x0D { cut -= 1 }
        }
        guard cut > start,
            // (The head is the whole text the table is told of: a cell copied out, as one with
            // doubled quotes is, goes after it.)
            let head = try? parseTable(
                UnsafeBufferPointer(rebasing: text[0..<cut]), owner: .array(Array(text[0..<cut])), from: start, upTo: cut, types: [:], reading: reading,
                delimiter: delimiter,
                splitAbove: Int.max, decisions: nil, gatherEvidence: false, columns: nil)
        else { return nil }
        let count = head.rowCount, width = head.columns.count
        guard count >= 2, width >= 2 else { return nil }
        func cell(_ row: Int, _ c: Int) -> String { head.text(row: row, column: c).trimmingSpaces() }
        func isText(_ row: Int, _ c: Int) -> Bool {
            let kind = head.store(c).kind(at: row)
            return kind == .text || kind == .boolean
        }
        let header = head.columns.map { $0.title.trimmingSpaces() }
        // A quoted line break in the block would make its lines not the file's lines.
        for c in 0..<width where header[c].contains(where: \.isNewline) || cell(0, c).contains(where: \.isNewline) { return nil }
        // The second row: pandas' row of index names, when it is one.
        let indexNames =
            count >= 3
            && (0..<width).contains { !cell(1, $0).isEmpty }
            && (0..<width).allSatisfy { c in cell(1, c).isEmpty || (cell(0, c).isEmpty && isText(1, c)) }
        let bodyStart = indexNames ? 2 : 1
        // The number columns, by the rows under the block.
        let numeric = (0..<width).map { c in
            var present = 0
            for row in bodyStart..<count where !cell(row, c).isEmpty {
                let kind = head.store(c).kind(at: row)
                if kind == .notANumber { continue }
                guard kind.isNumber else { return false }
                present += 1
            }
            return present > 0
        }
        guard numeric.contains(true) else { return nil }
        // The row under the header: text or blank, text over some number column.
        for c in 0..<width where !cell(0, c).isEmpty && !isText(0, c) { return nil }
        guard (0..<width).contains(where: { numeric[$0] && !cell(0, $0).isEmpty }) else { return nil }
        if indexNames {
            // Its index names stand where the row above is blank, and no number column has one.
            for c in 0..<width where numeric[c] && !cell(1, c).isEmpty { return nil }
        }
        // The header is not whole on its own.
        let blankHeader = header.contains(where: \.isEmpty)
        let spanning = (1..<width).contains { !header[$0].isEmpty && header[$0] == header[$0 - 1] }
        let units = (0..<width).allSatisfy { numeric[$0] || cell(0, $0).isEmpty }
        guard blankHeader || spanning || units else { return nil }
        var above = [header]
        if indexNames { above.append((0..<width).map { cell(0, $0) }) }
        return HeaderBlock(rows: bodyStart, above: above)
    }

    /// The names of the columns of a header of several lines: each column's non-blank cells top
    /// to bottom, joined by a space (`成绩 语文`, `语文 mean`, `班级`). A blank cell of a line above
    /// the last, under which a line below names the column, takes the name to its left in its
    /// line: a spreadsheet's merged cell over several columns, written once.
    static func headerBlockNames(above: [[String]], last: [String]) -> [String] {
        let width = last.count
        var filled = above.map { line in (0..<width).map { $0 < line.count ? line[$0].trimmingSpaces() : "" } }
        let lines = filled + [last.map { $0.trimmingSpaces() }]
        for k in filled.indices {
            for c in 1..<max(1, width) where filled[k][c].isEmpty && !filled[k][c - 1].isEmpty {
                if lines[(k + 1)...].contains(where: { !$0[c].isEmpty }) { filled[k][c] = filled[k][c - 1] }
            }
        }
        return (0..<width).map { c in
            var parts: [String] = []
            for line in filled + [lines[lines.count - 1]] where !line[c].isEmpty && parts.last != line[c] { parts.append(line[c]) }
            return parts.joined(separator: " ")
        }
    }
}
