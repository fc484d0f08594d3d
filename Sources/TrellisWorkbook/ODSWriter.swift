import Foundation

/// Writing an `.ods` back with the rows of one table moved and nothing else changed. An
/// OpenDocument row carries its cells whole — values, styles, the shown text, annotations
/// (notes) and links are inside its element — so a moved row's element is carried as it is;
/// its cells' formulas are moved with it as a copied formula moves (relative references by the
/// rows it moved). A row element that stands for several identical rows
/// (`number-rows-repeated`) is written out row by row where any of them moves. Every other part
/// of the package, and everything else in `content.xml`, is copied byte for byte.
///
/// Refused before anything is written, as for an `.xlsx`: a cell merged over several rows that a
/// moved row is in, an array formula over several rows, a formula whose references cannot be
/// read or would leave the sheet once moved.
enum ODSWriter {
    /// A row element of the table: its bytes, the sheet rows it stands for, and where its
    /// `number-rows-repeated` attribute is (to write one of its rows alone).
    struct RowElement {
        var bytes: Range<Int>
        var first: Int
        var count: Int
        var repeatAttribute: Range<Int>?
    }

    static func reordered(_ workbook: Workbook, sheet index: Int, rows: [Int], order: [Int]) throws(WorkbookError) -> [UInt8] {
        let moves = XLSXWriter.Moves(rows: rows, order: order)
        let archive = workbook.archive
        guard let content = try Workbook.read(archive, "content.xml") else {
            throw WorkbookError("the OpenDocument package has no 'content.xml'")
        }
        let replaced = moves.sourceOf.isEmpty ? [:] : ["content.xml": try rewrite(content, table: index, name: workbook.sheets[index].name, moves: moves)]
        // The entries in their order (`mimetype` first, stored, as the format requires).
        do { return try archive.rewritten(replacing: replaced) } catch { throw WorkbookError(error) }
    }

    /// `content.xml` with the rows of table `index` moved.
    static func rewrite(_ content: [UInt8], table index: Int, name: String, moves: XLSXWriter.Moves) throws(WorkbookError) -> [UInt8] {
        try content.withUnsafeBufferPointer { buffer throws(WorkbookError) in
            var scanner = XMLScanner(buffer, part: "content.xml")
            let elements = try rowElements(&scanner, table: index)
            // Merges and array formulas over several rows, checked in every row.
            for element in elements {
                try checkSpans(&scanner, element, sheet: name, moves: moves)
            }
            var out: [UInt8] = []
            out.reserveCapacity(content.count + content.count / 8)
            var copied = 0
            /// The element holding sheet row `row`.
            func holder(of row: Int) -> RowElement? {
                var low = 0, high = elements.count
                while low < high {
                    let mid = (low + high) / 2
                    if elements[mid].first + elements[mid].count <= row { low = mid + 1 } else { high = mid }
                }
                return low < elements.count && elements[low].first <= row ? elements[low] : nil
            }
            for element in elements {
                let rows = element.first..<element.first + element.count
                guard rows.contains(where: { moves.sourceOf[$0] != nil }) else { continue }
                out.append(contentsOf: buffer[copied..<element.bytes.lowerBound])
                for row in rows {
                    // A repeated row's formulas are written as at its first row, and read
                    // moved to each of its rows: one of them alone is moved from the first.
                    let source = moves.sourceOf[row] ?? row
                    guard let from = holder(of: source) else {
                        throw WorkbookError("the table '\(name)' has no row \(source) to move: the file is damaged")
                    }
                    out += try moved(from, by: row - from.first, in: &scanner, sheet: name, row: source)
                }
                copied = element.bytes.upperBound
            }
            out.append(contentsOf: buffer[copied...])
            return out
        }
    }

    /// The row elements of table `index`, in order, with the sheet rows each stands for.
    static func rowElements(_ scanner: inout XMLScanner, table index: Int) throws(WorkbookError) -> [RowElement] {
        var tables = 0
        while true {
            let token = try scanner.next()
            if case .finished = token { throw WorkbookError(part: "content.xml", "the spreadsheet has no table \(index + 1)") }
            guard case .start(let name, _, let empty) = token, scanner.isNamed(name, "table") else { continue }
            if tables < index {
                tables += 1
                if !empty { try scanner.skipElement() }
                continue
            }
            var elements: [RowElement] = []
            guard !empty else { return elements }
            var row = 1
            try ODSReader.forEachRow(&scanner) { scanner, name, attributes, empty throws(WorkbookError) in
                let start = name.lowerBound - 1
                var repeatAttribute: Range<Int>?
                var count = 1
                var i = attributes.lowerBound
                while let (attribute, value) = scanner.nextAttribute(&i, in: attributes) {
                    guard scanner.isNamed(attribute, "number-rows-repeated") else { continue }
                    count = max(1, scanner.integer(value) ?? 1)
                    // The attribute with the space before it.
                    repeatAttribute = (attribute.lowerBound - 1)..<(value.upperBound + 1)
                }
                if !empty { try scanner.skipElement() }
                guard row + count - 1 <= XLSXReader.maximumRows else {
                    throw scanner.error("rows past the last row a sheet has (\(XLSXReader.maximumRows))")
                }
                elements.append(RowElement(bytes: start..<scanner.position, first: row, count: count, repeatAttribute: repeatAttribute))
                row += count
            }
            return elements
        }
    }

    /// The cells of `element` in turn: each start tag's name and attributes.
    static func forEachCell(
        _ scanner: inout XMLScanner, _ element: RowElement, _ body: (Range<Int>, Range<Int>) throws(WorkbookError) -> Void
    ) throws(WorkbookError) {
        var cells = XMLScanner(UnsafeBufferPointer(rebasing: scanner.bytes[element.bytes]), part: "content.xml")
        // (Offsets in `cells` count from the element's start.)
        while true {
            let token = try cells.next()
            if case .finished = token { return }
            if case .start(let name, let attributes, _) = token, cells.isNamed(name, "table-cell") || cells.isNamed(name, "covered-table-cell") {
                let base = element.bytes.lowerBound
                try body((name.lowerBound + base)..<(name.upperBound + base), (attributes.lowerBound + base)..<(attributes.upperBound + base))
            }
        }
    }

    /// Refuses a cell merged over several rows, or an array formula over several rows, when a
    /// row it covers moves or another row moves into its span.
    static func checkSpans(_ scanner: inout XMLScanner, _ element: RowElement, sheet: String, moves: XLSXWriter.Moves) throws(WorkbookError) {
        let reader = scanner
        let spans: [(StaticString, String)] = [("number-rows-spanned", "merged cells"), ("number-matrix-rows-spanned", "an array formula")]
        try forEachCell(&scanner, element) { _, attributes throws(WorkbookError) in
            for (local, what) in spans {
                guard let value = reader.attribute(local, in: attributes), let span = reader.integer(value), span > 1 else { continue }
                let covered = element.first..<element.first + element.count - 1 + span
                if covered.contains(where: moves.moves) || covered.contains(where: { moves.targetOf[$0] != nil }) {
                    throw WorkbookError(
                        usage: "the table '\(sheet)' has \(what) over rows \(covered.lowerBound)–\(covered.upperBound - 1), "
                            + "which the sort would move apart (a spreadsheet's sort refuses it too); unmerge them, or sort the rows outside them")
                }
            }
        }
    }

    /// The bytes of one of `element`'s rows alone (without its repeat count), written `delta`
    /// rows below the element's first: its formulas' relative references moved as far.
    static func moved(_ element: RowElement, by delta: Int, in scanner: inout XMLScanner, sheet: String, row: Int) throws(WorkbookError) -> [UInt8] {
        var formulas: [(Range<Int>, String)] = []
        let reader = scanner
        try forEachCell(&scanner, element) { _, attributes throws(WorkbookError) in
            guard let value = reader.attribute("formula", in: attributes) else { return }
            let formula = try reader.string(value)
            guard let shifted = ODSFormula.shifted(formula, rows: delta) else {
                throw WorkbookError(
                    usage: "the formula \(formula) in row \(row) of the table '\(sheet)' cannot be moved with its row (a reference "
                        + "that would leave the sheet, or one not read here); write .csv instead")
            }
            formulas.append((value, shifted))
        }
        let buffer = scanner.bytes
        var out: [UInt8] = []
        var copied = element.bytes.lowerBound
        func copy(upTo end: Int) {
            // The repeat count left out.
            if let repeatAttribute = element.repeatAttribute, copied <= repeatAttribute.lowerBound, repeatAttribute.upperBound <= end {
                out.append(contentsOf: buffer[copied..<repeatAttribute.lowerBound])
                copied = repeatAttribute.upperBound
            }
            out.append(contentsOf: buffer[copied..<end])
            copied = end
        }
        for (value, shifted) in formulas {
            copy(upTo: value.lowerBound)
            out += escaped(shifted)
            copied = value.upperBound
        }
        copy(upTo: element.bytes.upperBound)
        return out
    }

    /// `text` as an attribute value between double quotes.
    static func escaped(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        for c in text.utf8 {
            switch c {
            case 0x26: out += Array("&amp;".utf8)
            case 0x3C: out += Array("&lt;".utf8)
            case 0x3E: out += Array("&gt;".utf8)
            case 0x22: out += Array("&quot;".utf8)
            default: out.append(c)
            }
        }
        return out
    }
}

/// References in OpenFormula, the syntax of an `.ods` cell's formula (`of:=SUM([.C5:.E5])`):
/// each in brackets, its parts `Sheet.C5` (the sheet left out for the formula's own, quoted when
/// it must be, `$` before what is absolute).
enum ODSFormula {
    /// `text` with the rows of its relative references moved by `rows`; `nil` when a reference
    /// cannot be read or would leave the sheet.
    static func shifted(_ text: String, rows: Int) -> String? {
        guard rows != 0 else { return text }
        let b = Array(text.utf8)
        var out: [UInt8] = []
        var i = 0
        while i < b.count {
            switch b[i] {
            case 0x22:  // a string, "" standing for a quote
                let start = i
                i += 1
                while i < b.count {
                    if b[i] == 0x22 {
                        if i + 1 < b.count, b[i + 1] == 0x22 { i += 2; continue }
                        break
                    }
                    i += 1
                }
                guard i < b.count else { return nil }
                i += 1
                out += b[start..<i]
            case 0x5B:  // [reference]
                var end = i + 1
                var quoted = false
                while end < b.count, quoted || b[end] != 0x5D {
                    if b[end] == 0x27 { quoted.toggle() }
                    end += 1
                }
                guard end < b.count, let moved = reference(Array(b[(i + 1)..<end]), rows: rows) else { return nil }
                out.append(0x5B)
                out += moved
                out.append(0x5D)
                i = end + 1
            default:
                out.append(b[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A bracketed reference's text (`.C5:.E5`, `$Sheet2.$C$5`) with its relative rows moved.
    static func reference(_ b: [UInt8], rows: Int) -> [UInt8]? {
        // Its parts, split at colons outside quoted sheet names.
        var parts: [[UInt8]] = [[]]
        var quoted = false
        for c in b {
            if c == 0x27 { quoted.toggle() }
            if c == 0x3A, !quoted { parts.append([]) } else { parts[parts.count - 1].append(c) }
        }
        var out: [UInt8] = []
        for (k, part) in parts.enumerated() {
            if k > 0 { out.append(0x3A) }
            // The cell after the last dot outside quotes.
            var dot: Int?
            quoted = false
            for (j, c) in part.enumerated() {
                if c == 0x27 { quoted.toggle() }
                if c == 0x2E, !quoted { dot = j }
            }
            guard let dot else { return nil }
            let cell = Array(part[(dot + 1)...])
            var j = 0
            if j < cell.count, cell[j] == 0x24 { j += 1 }
            while j < cell.count, case let c = cell[j] | 0x20, c >= 0x61, c <= 0x7A { j += 1 }
            let absolute = j < cell.count && cell[j] == 0x24
            let digitsStart = absolute ? j + 1 : j
            var row = 0
            var digits = 0
            var d = digitsStart
            while d < cell.count, cell[d] >= 0x30, cell[d] <= 0x39, digits < 8 {
                row = row * 10 + Int(cell[d] - 0x30)
                digits += 1
                d += 1
            }
            guard d == cell.count, j > (cell.first == 0x24 ? 1 : 0) || digits > 0 else { return nil }
            out += part[...dot]
            if digits == 0 || absolute {
                out += cell
                continue
            }
            let moved = row + rows
            guard moved >= 1, moved <= XLSXReader.maximumRows else { return nil }
            out += cell[..<digitsStart]
            out += Array(String(moved).utf8)
        }
        return out
    }
}
