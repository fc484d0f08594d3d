import Foundation

/// Writing an `.xlsx` back with the rows of one sheet moved and nothing else changed: each
/// moved row's element carried whole — its cells' values, styles and saved values, its height and
/// hidden flag — its cells' formulas moved with it as a copied formula moves (relative
/// references by the rows it moved), its merged cells (within the row), hyperlinks and comments
/// with it. Every other part of the package is copied as it is, but `calcChain.xml`, which lists
/// the formula cells where they were: it is dropped with its relationship and content type, and
/// Excel rebuilds it, as the libraries that write workbooks do.
///
/// What cannot move safely is refused before anything is written: a merged range over more than
/// one row that a moved row is in (Excel's sort refuses it too), an array formula over more than
/// one row, a data table, a table object that some moved rows are in and others not, a formula
/// whose references would leave the sheet.
enum XLSXWriter {
    /// The rows moved: for each sheet row whose content changes, the row its content comes from.
    struct Moves {
        var sourceOf: [Int: Int] = [:]
        var targetOf: [Int: Int] = [:]

        init(rows: [Int], order: [Int]) {
            for (k, slot) in rows.enumerated() where rows[order[k]] != slot {
                sourceOf[slot] = rows[order[k]]
                targetOf[rows[order[k]]] = slot
            }
        }

        func moves(_ row: Int) -> Bool { sourceOf[row] != nil }
    }

    static func reordered(_ workbook: Workbook, sheet: Workbook.Sheet, rows: [Int], order: [Int]) throws(WorkbookError) -> [UInt8] {
        let moves = Moves(rows: rows, order: order)
        let archive = workbook.archive
        guard let sheetBytes = try Workbook.read(archive, sheet.part) else {
            throw WorkbookError("the sheet '\(sheet.name)' is the part '\(sheet.part)', which the package does not have")
        }
        var replaced: [String: [UInt8]] = [:]
        var dropped: Set<String> = []
        if !moves.sourceOf.isEmpty {
            replaced[sheet.part] = try rewriteSheet(sheetBytes, part: sheet.part, moves: moves)
            // The sheet's own relationships: comments move with their cells; tables must hold
            // all the moved rows or none.
            let relsPart = XLSXReader.relationshipsPart(of: sheet.part)
            if let relsBytes = try Workbook.read(archive, relsPart) {
                let rels = try XLSXReader.relationships(relsBytes, part: relsPart, base: XLSXReader.folder(of: sheet.part))
                for rel in rels.values.sorted(by: { $0.target < $1.target }) where !rel.external {
                    if rel.type.hasSuffix("/comments"), let bytes = try Workbook.read(archive, rel.target) {
                        replaced[rel.target] = try rewriteReferences(bytes, part: rel.target, element: "comment", moves: moves)
                    } else if rel.type.hasSuffix("/vmlDrawing"), let bytes = try Workbook.read(archive, rel.target) {
                        replaced[rel.target] = try rewriteNoteShapes(bytes, part: rel.target, moves: moves)
                    } else if rel.type.hasSuffix("/table"), let bytes = try Workbook.read(archive, rel.target) {
                        try checkTable(bytes, part: rel.target, moves: moves)
                    }
                }
            }
            // calcChain lists formula cells by where they were: dropped, with its relationship
            // and content type, so that Excel rebuilds it.
            if let chain = archive.entries.first(where: { $0.name.hasSuffix("calcChain.xml") })?.name {
                dropped.insert(chain)
                for entry in archive.entries where entry.name.hasSuffix(".rels") || entry.name == "[Content_Types].xml" {
                    guard let bytes = try Workbook.read(archive, entry.name) else { continue }
                    if let without = try removing(calcChain: chain, from: bytes, part: entry.name) { replaced[entry.name] = without }
                }
            }
        }
        do { return try archive.rewritten(replacing: replaced, dropping: dropped) } catch { throw WorkbookError(error) }
    }

    // MARK: The sheet

    struct SharedFormula {
        var row: Int
        var column: Int
        var text: String
        var rows: ClosedRange<Int>
    }

    /// The worksheet XML with the moved rows' elements in their new places.
    static func rewriteSheet(_ bytes: [UInt8], part: String, moves: Moves) throws(WorkbookError) -> [UInt8] {
        try bytes.withUnsafeBufferPointer { buffer throws(WorkbookError) in
            // First: where each row element is, and the shared formulas.
            var rowElements: [(number: Int, range: Range<Int>)] = []
            var shared: [Int: SharedFormula] = [:]
            var scanner = XMLScanner(buffer, part: part)
            var rowNumber = 0
            var rowStart = -1
            var cellRow = 0, cellColumn = -1
            var sheetDataEnd = -1
            while true {
                let start = scanner.position
                let token = try scanner.next()
                if case .finished = token { break }
                switch token {
                case .start(let name, let attributes, let empty):
                    if scanner.isNamed(name, "row") {
                        rowNumber = scanner.attributeInt("r", in: attributes) ?? rowNumber + 1
                        rowStart = start
                        cellColumn = -1
                        if empty { rowElements.append((rowNumber, start..<scanner.position)) }
                    } else if scanner.isNamed(name, "c") {
                        cellRow = rowNumber
                        cellColumn =
                            scanner.attribute("r", in: attributes).flatMap { XLSXReader.cellReference(scanner.bytes, $0)?.column }
                            ?? cellColumn + 1
                    } else if scanner.isNamed(name, "f"), !empty,
                        try scanner.attributeString("t", in: attributes) == "shared",
                        let si = scanner.attributeInt("si", in: attributes),
                        let ref = try scanner.attributeString("ref", in: attributes)
                    {
                        let text = try scanner.elementText()
                        let ends = ref.split(separator: ":").compactMap { piece -> Int? in
                            let b = Array(piece.utf8)
                            return b.withUnsafeBufferPointer { XLSXReader.cellReference($0, 0..<$0.count)?.row }
                        }
                        let low = ends.min() ?? cellRow, high = ends.max() ?? cellRow
                        shared[si] = SharedFormula(row: cellRow, column: cellColumn, text: text, rows: low...high)
                    }
                case .close(let name):
                    if scanner.isNamed(name, "row"), rowStart >= 0 {
                        rowElements.append((rowNumber, rowStart..<scanner.position))
                        rowStart = -1
                    } else if scanner.isNamed(name, "sheetData") {
                        sheetDataEnd = start
                    }
                default: break
                }
            }
            guard sheetDataEnd >= 0 else { throw WorkbookError(part: part, "the sheet has no <sheetData>") }
            let byNumber = Dictionary(rowElements.map { ($0.number, $0.range) }, uniquingKeysWith: { a, _ in a })
            // A shared formula whose cells a moved row holds is written out cell by cell.
            let expanded = Set(
                shared.filter { _, formula in formula.rows.contains { moves.moves($0) } || moves.moves(formula.row) }.keys)
            let expandedRows = Set(shared.filter { expanded.contains($0.key) }.values.flatMap { Array($0.rows) })

            var out: [UInt8] = []
            out.reserveCapacity(buffer.count + 1024)
            var copied = 0
            for (number, range) in rowElements {
                let source = moves.sourceOf[number] ?? number
                guard source != number || expandedRows.contains(number) else { continue }
                guard let sourceRange = byNumber[source] else {
                    throw WorkbookError(part: part, "row \(source), which the sort moves, is not in the sheet")
                }
                out.append(contentsOf: buffer[copied..<range.lowerBound])
                try rewriteRow(
                    buffer, sourceRange, part: part, from: source, to: number, shared: shared, expanded: expanded, into: &out)
                copied = range.upperBound
            }
            // After the rows: merged cells and hyperlinks of moved rows move with them.
            out.append(contentsOf: buffer[copied..<sheetDataEnd])
            try rewriteAfterRows(buffer, from: sheetDataEnd, part: part, moves: moves, into: &out)
            return out
        }
    }

    /// Writes the row element in `range` (row `from`) as row `to`.
    static func rewriteRow(
        _ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, part: String, from: Int, to: Int, shared: [Int: SharedFormula],
        expanded: Set<Int>, into out: inout [UInt8]
    ) throws(WorkbookError) {
        var scanner = XMLScanner(buffer, part: part, from: range.lowerBound)
        var copied = range.lowerBound
        var column = -1
        func replace(_ r: Range<Int>, with text: String) {
            out.append(contentsOf: buffer[copied..<r.lowerBound])
            out.append(contentsOf: text.utf8)
            copied = r.upperBound
        }
        let cellName = { (column: Int, row: Int) in SheetCell.columnName(column) + String(row) }
        while scanner.position < range.upperBound {
            let start = scanner.position
            let token = try scanner.next()
            guard case .start(let name, let attributes, let empty) = token else { continue }
            if scanner.isNamed(name, "row") {
                if let r = scanner.attribute("r", in: attributes) { replace(r, with: String(to)) }
            } else if scanner.isNamed(name, "c") {
                if let r = scanner.attribute("r", in: attributes), let (c, _) = XLSXReader.cellReference(buffer, r) {
                    column = c
                    replace(r, with: cellName(c, to))
                } else {
                    column += 1
                }
            } else if scanner.isNamed(name, "f") {
                let kind = try scanner.attributeString("t", in: attributes)
                let si = scanner.attributeInt("si", in: attributes)
                let contentStart = scanner.position
                let text = empty ? "" : try scanner.elementText()
                let end = scanner.position
                let here = cellName(column, from)
                if kind == nil || kind == "normal" {
                    // A plain formula: its text moved, its element's other attributes kept.
                    guard !empty, from != to else { continue }
                    guard let moved = Formula.shifted(text, rows: to - from, columns: 0) else {
                        throw WorkbookError(
                            part: part, "the formula of \(here) (=\(text)) would refer past the sheet's edge once moved to row \(to)")
                    }
                    var contentEnd = end - 1
                    while contentEnd > contentStart, buffer[contentEnd] != 0x3C { contentEnd -= 1 }
                    replace(contentStart..<contentEnd, with: escaped(moved))
                    continue
                }
                var written: String
                switch kind {
                case "shared":
                    guard let si, expanded.contains(si) else { continue }
                    guard let anchor = shared[si],
                        let own = Formula.shifted(anchor.text, rows: from - anchor.row, columns: column - anchor.column)
                    else {
                        throw WorkbookError(part: part, "the shared formula of \(here) cannot be written out cell by cell")
                    }
                    written = own
                case "array":
                    let ref = try scanner.attributeString("ref", in: attributes) ?? here
                    if ref.contains(":") {
                        let rows = Set(ref.split(separator: ":").map { $0.drop { !$0.isNumber } })
                        if rows.count > 1 {
                            throw WorkbookError(
                                part: part,
                                "the array formula at \(here) spans the rows of \(ref), which the sort would split; "
                                    + "Excel cannot sort it either — change it to formulas of one row each")
                        }
                    }
                    written = text
                default:
                    throw WorkbookError(part: part, "\(here) is part of a data table (What-If analysis), which a sort cannot move")
                }
                guard let moved = Formula.shifted(written, rows: to - from, columns: 0) else {
                    throw WorkbookError(
                        part: part, "the formula of \(here) (=\(written)) would refer past the sheet's edge once moved to row \(to)")
                }
                var element = "<f"
                if kind == "array" {
                    element += " t=\"array\" ref=\"\(cellName(column, to))\""
                    if let ref = try scanner.attributeString("ref", in: attributes), ref.contains(":"),
                        let shifted = Formula.shifted(ref, rows: to - from, columns: 0)
                    {
                        element = "<f t=\"array\" ref=\"\(shifted)\""
                    }
                }
                element += ">" + escaped(moved) + "</f>"
                replace(start..<end, with: element)
            }
        }
        out.append(contentsOf: buffer[copied..<range.upperBound])
    }

    /// The part of the sheet after its rows, with the merged cells and hyperlinks of moved rows
    /// moved; a merged range over several rows that a moved row is in is refused.
    static func rewriteAfterRows(_ buffer: UnsafeBufferPointer<UInt8>, from: Int, part: String, moves: Moves, into out: inout [UInt8])
        throws(WorkbookError)
    {
        var scanner = XMLScanner(buffer, part: part, from: from)
        var copied = from
        while true {
            let token = try scanner.next()
            if case .finished = token { break }
            guard case .start(let name, let attributes, _) = token else { continue }
            let merged = scanner.isNamed(name, "mergeCell")
            guard merged || scanner.isNamed(name, "hyperlink"), let ref = scanner.attribute("ref", in: attributes) else { continue }
            let text = String(decoding: buffer[ref], as: UTF8.self)
            guard let rows = rowSpan(text) else { continue }
            let touched = rows.filter { moves.moves($0) }
            guard !touched.isEmpty else { continue }
            guard rows.count == 1, let target = moves.targetOf[rows.lowerBound] else {
                throw WorkbookError(
                    part: part,
                    "the \(merged ? "merged cells" : "hyperlink") \(text) cover\(merged ? "" : "s") rows "
                        + "\(rows.lowerBound)–\(rows.upperBound), which the sort would move apart; Excel refuses this sort too — "
                        + "unmerge them first")
            }
            guard let shifted = Formula.shifted(text, rows: target - rows.lowerBound, columns: 0) else { continue }
            out.append(contentsOf: buffer[copied..<ref.lowerBound])
            out.append(contentsOf: shifted.utf8)
            copied = ref.upperBound
        }
        out.append(contentsOf: buffer[copied...])
    }

    /// The rows a reference (`B5`, `A5:C7`) covers.
    static func rowSpan(_ ref: String) -> ClosedRange<Int>? {
        let rows = ref.split(separator: ":").compactMap { piece -> Int? in
            let b = Array(piece.utf8)
            return b.withUnsafeBufferPointer { XLSXReader.cellReference($0, 0..<$0.count)?.row }
        }
        guard let low = rows.min(), let high = rows.max() else { return nil }
        return low...high
    }

    static func escaped(_ text: String) -> String {
        var out = ""
        for ch in text {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(ch)
            }
        }
        return out
    }

    // MARK: Other parts

    /// A part whose `element`s name a cell by `ref` (comments): those of moved rows moved.
    static func rewriteReferences(_ bytes: [UInt8], part: String, element: StaticString, moves: Moves) throws(WorkbookError) -> [UInt8] {
        try bytes.withUnsafeBufferPointer { buffer throws(WorkbookError) in
            var scanner = XMLScanner(buffer, part: part)
            var out: [UInt8] = []
            var copied = 0
            while true {
                let token = try scanner.next()
                if case .finished = token { break }
                guard case .start(let name, let attributes, _) = token, scanner.isNamed(name, element),
                    let ref = scanner.attribute("ref", in: attributes)
                else { continue }
                let text = String(decoding: buffer[ref], as: UTF8.self)
                guard let rows = rowSpan(text), rows.count == 1, let target = moves.targetOf[rows.lowerBound],
                    let shifted = Formula.shifted(text, rows: target - rows.lowerBound, columns: 0)
                else { continue }
                out.append(contentsOf: buffer[copied..<ref.lowerBound])
                out.append(contentsOf: shifted.utf8)
                copied = ref.upperBound
            }
            out.append(contentsOf: buffer[copied...])
            return out
        }
    }

    /// The VML drawing of a sheet's notes: each note's shape (`<x:Row>`, counted from 0, and the
    /// rows of its `<x:Anchor>`) moved with its cell.
    static func rewriteNoteShapes(_ bytes: [UInt8], part: String, moves: Moves) throws(WorkbookError) -> [UInt8] {
        // VML is older than the rest and not always well-formed XML: its shapes are found as text.
        var text = String(decoding: bytes, as: UTF8.self)
        var out = ""
        while let open = text.range(of: "<x:ClientData") {
            guard let close = text.range(of: "</x:ClientData>", range: open.upperBound..<text.endIndex) else { break }
            out += text[..<open.lowerBound]
            var data = String(text[open.lowerBound..<close.upperBound])
            if let rowOpen = data.range(of: "<x:Row>"), let rowClose = data.range(of: "</x:Row>", range: rowOpen.upperBound..<data.endIndex),
                let row = Int(data[rowOpen.upperBound..<rowClose.lowerBound].trimmingCharacters(in: .whitespaces)),
                let target = moves.targetOf[row + 1]
            {
                let delta = target - (row + 1)
                data.replaceSubrange(rowOpen.upperBound..<rowClose.lowerBound, with: String(target - 1))
                if let anchorOpen = data.range(of: "<x:Anchor>"),
                    let anchorClose = data.range(of: "</x:Anchor>", range: anchorOpen.upperBound..<data.endIndex)
                {
                    // Left column, offset, top row, offset, right column, offset, bottom row, offset.
                    var numbers = data[anchorOpen.upperBound..<anchorClose.lowerBound].split(separator: ",").map {
                        $0.trimmingCharacters(in: .whitespacesAndNewlines)
                    }
                    if numbers.count == 8, let top = Int(numbers[2]), let bottom = Int(numbers[6]) {
                        numbers[2] = String(max(0, top + delta))
                        numbers[6] = String(max(0, bottom + delta))
                        data.replaceSubrange(anchorOpen.upperBound..<anchorClose.lowerBound, with: " " + numbers.joined(separator: ", "))
                    }
                }
            }
            out += data
            text = String(text[close.upperBound...])
        }
        out += text
        return Array(out.utf8)
    }

    /// Refuses a table object that some moved rows are in and others not.
    static func checkTable(_ bytes: [UInt8], part: String, moves: Moves) throws(WorkbookError) {
        try bytes.withUnsafeBufferPointer { buffer throws(WorkbookError) in
            var scanner = XMLScanner(buffer, part: part)
            while true {
                let token = try scanner.next()
                if case .finished = token { return }
                guard case .start(let name, let attributes, _) = token, scanner.isNamed(name, "table"),
                    let ref = try scanner.attributeString("ref", in: attributes), let rows = rowSpan(ref)
                else { continue }
                let moved = Set(moves.sourceOf.keys).union(moves.targetOf.keys)
                let inside = moved.filter { rows.contains($0) && $0 != rows.lowerBound }
                if !inside.isEmpty, inside.count != moved.count || moved.contains(rows.lowerBound) {
                    let shown = try scanner.attributeString("displayName", in: attributes) ?? "a table"
                    throw WorkbookError(
                        part: part,
                        "the table '\(shown)' (\(ref)) holds some of the rows the sort moves and not others; sort within the "
                            + "table, or convert it to a range first")
                }
                return
            }
        }
    }

    /// A relationships or content types part without what names `calcChain` (its `Relationship`
    /// or `Override` element); `nil` when it names none.
    static func removing(calcChain chain: String, from bytes: [UInt8], part: String) throws(WorkbookError) -> [UInt8]? {
        try bytes.withUnsafeBufferPointer { buffer throws(WorkbookError) in
            var scanner = XMLScanner(buffer, part: part)
            var out: [UInt8] = []
            var copied = 0
            let file = chain.split(separator: "/").last.map(String.init) ?? chain
            while true {
                let start = scanner.position
                let token = try scanner.next()
                if case .finished = token { break }
                guard case .start(let name, let attributes, let empty) = token, empty,
                    scanner.isNamed(name, "Relationship") || scanner.isNamed(name, "Override")
                else { continue }
                let relationship = try scanner.attributeString("Target", in: attributes)
                let override = try scanner.attributeString("PartName", in: attributes)
                let target = relationship ?? override ?? ""
                guard target == file || target.hasSuffix("/" + file) else { continue }
                out.append(contentsOf: buffer[copied..<start])
                copied = scanner.position
            }
            guard copied > 0 else { return nil }
            out.append(contentsOf: buffer[copied...])
            return out
        }
    }
}

extension Workbook {
    /// The workbook's package with the rows of sheet `index` reordered: `rows` are sheet rows
    /// (ascending; a table's ``SheetTable/rowNumbers``), and row `rows[k]` receives what row
    /// `rows[order[k]]` held. Only that sheet's rows move (see ``XLSXWriter`` and ``ODSWriter``);
    /// a legacy `.xls` is refused (it is read only).
    public func reordered(sheet index: Int, rows: [Int], order: [Int]) throws(WorkbookError) -> [UInt8] {
        guard sheets.indices.contains(index) else { throw WorkbookError("there is no sheet \(index + 1)") }
        guard order.count == rows.count, Set(order) == Set(rows.indices), zip(rows, rows.dropFirst()).allSatisfy({ $0 < $1 }) else {
            throw WorkbookError(usage: "the new order is not an order of the sheet's \(rows.count) rows")
        }
        switch kind {
        case .xlsx: return try XLSXWriter.reordered(self, sheet: sheets[index], rows: rows, order: order)
        case .ods: return try ODSWriter.reordered(self, sheet: index, rows: rows, order: order)
        case .xls: throw WorkbookError(usage: "a legacy .xls workbook is read only; write .csv, or save it as .xlsx in a spreadsheet and sort that")
        }
    }

    /// Whether the workbook holds macros (an `.xlsm`): its main part's content type says so.
    public var isMacroEnabled: Bool {
        guard kind == .xlsx, let types = try? archive.read("[Content_Types].xml") else { return false }
        return String(decoding: types, as: UTF8.self).contains("macroEnabled")
    }
}
