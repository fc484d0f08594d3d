import Foundation
import TrellisGrid

/// Reading Office Open XML spreadsheets (ECMA-376 part 1, SpreadsheetML): the workbook part
/// (its sheets, the selected tab, the date system), the relationships that name the parts, the
/// shared strings, the number formats of the cell styles, and the cells of a worksheet.
enum XLSXReader {
    struct Relationship {
        var type: String
        /// The part it points at, resolved to a path in the package (no leading `/`).
        var target: String
        var external: Bool
    }

    struct WorkbookInfo {
        var sheets: [Workbook.Sheet]
        var active: Int
        var date1904: Bool
        var recalculates = false
        var sharedStrings: String?
        var styles: String?
    }

    /// The relationships of a `.rels` part, by id; targets resolved against `base` (the folder
    /// of the part they belong to).
    static func relationships(_ bytes: [UInt8], part: String, base: String) throws(WorkbookError) -> [String: Relationship] {
        try bytes.withUnsafeBufferPointer { buffer throws(WorkbookError) in
            var scanner = XMLScanner(buffer, part: part)
            var out: [String: Relationship] = [:]
            while true {
                let token = try scanner.next()
                if case .finished = token { break }
                guard case .start(let name, let attributes, _) = token, scanner.isNamed(name, "Relationship") else { continue }
                guard let id = try scanner.attributeString("Id", in: attributes),
                    let target = try scanner.attributeString("Target", in: attributes)
                else { continue }
                let type = try scanner.attributeString("Type", in: attributes) ?? ""
                let external = try scanner.attributeString("TargetMode", in: attributes) == "External"
                out[id] = Relationship(type: type, target: external ? target : resolve(target, base: base), external: external)
            }
            return out
        }
    }

    /// A relationship's target as a path in the package: absolute (`/xl/…`) or relative to `base`.
    static func resolve(_ target: String, base: String) -> String {
        let decoded = target.removingPercentEncoding ?? target
        var parts: [Substring] = decoded.hasPrefix("/") ? [] : base.split(separator: "/")
        for piece in decoded.split(separator: "/") {
            if piece == ".." {
                if !parts.isEmpty { parts.removeLast() }
            } else if piece != "." {
                parts.append(piece)
            }
        }
        return parts.joined(separator: "/")
    }

    static func folder(of part: String) -> String {
        guard let slash = part.lastIndex(of: "/") else { return "" }
        return String(part[..<slash])
    }

    /// The relationships part of `part` (`xl/_rels/workbook.xml.rels` for `xl/workbook.xml`).
    static func relationshipsPart(of part: String) -> String {
        let folder = folder(of: part)
        let file = part.split(separator: "/").last.map(String.init) ?? part
        return (folder.isEmpty ? "" : folder + "/") + "_rels/" + file + ".rels"
    }

    static func workbook(_ archive: ZipArchive, part: String) throws(WorkbookError) -> WorkbookInfo {
        guard let bytes = try Workbook.read(archive, part) else {
            throw WorkbookError("'_rels/.rels' names the workbook part '\(part)', which the package does not have")
        }
        let relsPart = relationshipsPart(of: part)
        let rels =
            try Workbook.read(archive, relsPart).map { bytes throws(WorkbookError) in
                try relationships(bytes, part: relsPart, base: folder(of: part))
            } ?? [:]
        var info = WorkbookInfo(sheets: [], active: 0, date1904: false)
        info.sharedStrings = rels.values.first { $0.type.hasSuffix("/sharedStrings") }?.target
        info.styles = rels.values.first { $0.type.hasSuffix("/styles") }?.target
        try bytes.withUnsafeBufferPointer { buffer throws(WorkbookError) in
            var scanner = XMLScanner(buffer, part: part)
            while true {
                let token = try scanner.next()
                if case .finished = token { break }
                guard case .start(let name, let attributes, _) = token else { continue }
                if scanner.isNamed(name, "workbookPr") {
                    let value = try scanner.attributeString("date1904", in: attributes)
                    info.date1904 = value == "1" || value == "true"
                } else if scanner.isNamed(name, "calcPr") {
                    let value = try scanner.attributeString("fullCalcOnLoad", in: attributes)
                    info.recalculates = value == "1" || value == "true"
                } else if scanner.isNamed(name, "workbookView") {
                    info.active = scanner.attributeInt("activeTab", in: attributes) ?? 0
                } else if scanner.isNamed(name, "sheet") {
                    let sheetName = try scanner.attributeString("name", in: attributes) ?? "Sheet\(info.sheets.count + 1)"
                    let state = try scanner.attributeString("state", in: attributes)
                    guard let id = try scanner.attributeString("id", in: attributes), let rel = rels[id] else {
                        throw scanner.error("the sheet '\(sheetName)' names no part of the package")
                    }
                    var why: String?
                    if rel.type.hasSuffix("/chartsheet") {
                        why = "a chart sheet"
                    } else if rel.type.hasSuffix("/dialogsheet") {
                        why = "a dialog sheet"
                    } else if rel.type.hasSuffix("/xlMacrosheet") || rel.type.hasSuffix("/xlIntlMacrosheet") {
                        why = "a macro sheet"
                    }
                    info.sheets.append(
                        Workbook.Sheet(name: sheetName, hidden: state == "hidden" || state == "veryHidden", notATable: why, part: rel.target))
                }
            }
        }
        guard !info.sheets.isEmpty else { throw WorkbookError(part: part, "the workbook lists no sheets") }
        if !info.sheets.indices.contains(info.active) { info.active = 0 }
        return info
    }

    // MARK: Shared strings and styles

    /// The shared strings table: each `<si>`'s text, its runs joined and phonetic guides left out.
    static func sharedStrings(_ archive: ZipArchive, part: String?) throws(WorkbookError) -> [String] {
        guard let part, let bytes = try Workbook.read(archive, part) else { return [] }
        return try bytes.withUnsafeBufferPointer { buffer throws(WorkbookError) in
            var scanner = XMLScanner(buffer, part: part)
            var strings: [String] = []
            while true {
                let token = try scanner.next()
                if case .finished = token { break }
                guard case .start(let name, _, let empty) = token, scanner.isNamed(name, "si") else { continue }
                strings.append(empty ? "" : try stringItem(&scanner))
            }
            return strings
        }
    }

    /// The text of a string item (`<si>`, `<is>`) whose start tag was just read: its `<t>`
    /// elements' text, outside phonetic runs (`<rPh>`), with `_xHHHH_` escapes replaced.
    static func stringItem(_ scanner: inout XMLScanner) throws(WorkbookError) -> String {
        var bytes: [UInt8] = []
        var depth = 1
        var inText = false
        var phonetic = 0
        while depth > 0 {
            switch try scanner.next() {
            case .start(let name, _, let empty):
                guard !empty else { continue }
                depth += 1
                if scanner.isNamed(name, "rPh") {
                    phonetic = depth
                } else if scanner.isNamed(name, "t"), phonetic == 0 {
                    inText = true
                }
            case .close(let name):
                if phonetic == depth { phonetic = 0 }
                if scanner.isNamed(name, "t") { inText = false }
                depth -= 1
            case .text(let range):
                if inText { try scanner.appendText(range, to: &bytes) }
            case .cdata(let range):
                if inText { bytes.append(contentsOf: scanner.bytes[range]) }
            case .finished:
                throw scanner.error("the document ends inside a string")
            }
        }
        return unescaped(bytes)
    }

    /// Text with OOXML's `_xHHHH_` escapes (a character XML cannot hold, such as `_x000D_`)
    /// replaced by the character.
    static func unescaped(_ bytes: [UInt8]) -> String {
        guard bytes.contains(0x5F) else { return String(decoding: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x5F, i + 6 < bytes.count, bytes[i + 1] == 0x78, bytes[i + 6] == 0x5F {
                var value: UInt32 = 0
                var ok = true
                for k in 2..<6 {
                    guard let d = XMLScanner.digit(bytes[i + k], hex: true) else {
                        ok = false
                        break
                    }
                    value = value * 16 + d
                }
                if ok, let scalar = Unicode.Scalar(value) {
                    out.append(contentsOf: String(Character(scalar)).utf8)
                    i += 7
                    continue
                }
            }
            out.append(bytes[i])
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The number format of each cell style (`<cellXfs>`), by the style's index.
    static func cellFormats(_ archive: ZipArchive, part: String?) throws(WorkbookError) -> [NumberFormat] {
        guard let part, let bytes = try Workbook.read(archive, part) else { return [] }
        return try bytes.withUnsafeBufferPointer { buffer throws(WorkbookError) in
            var scanner = XMLScanner(buffer, part: part)
            var custom: [Int: String] = [:]
            var ids: [Int] = []
            var inCellXfs = false
            while true {
                let token = try scanner.next()
                if case .finished = token { break }
                switch token {
                case .start(let name, let attributes, let empty):
                    if scanner.isNamed(name, "numFmt"), let id = scanner.attributeInt("numFmtId", in: attributes) {
                        custom[id] = try scanner.attributeString("formatCode", in: attributes) ?? "General"
                    } else if scanner.isNamed(name, "cellXfs") {
                        inCellXfs = !empty
                    } else if inCellXfs, scanner.isNamed(name, "xf") {
                        ids.append(scanner.attributeInt("numFmtId", in: attributes) ?? 0)
                    }
                case .close(let name):
                    if scanner.isNamed(name, "cellXfs") { inCellXfs = false }
                default: break
                }
            }
            var made: [Int: NumberFormat] = [:]
            return ids.map { id in
                if let format = made[id] { return format }
                let format = NumberFormat(custom[id] ?? NumberFormat.builtIn(id) ?? "General")
                made[id] = format
                return format
            }
        }
    }

    // MARK: Worksheets

    /// The column (from 0) and row (from 1) of a reference such as `B12`, `$B$12`.
    static func cellReference(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> (column: Int, row: Int)? {
        var i = range.lowerBound
        var column = 0
        var letters = 0
        while i < range.upperBound {
            var c = bytes[i]
            if c == 0x24 {
                i += 1
                continue
            }
            c |= 0x20
            guard c >= 0x61, c <= 0x7A else { break }
            column = column * 26 + Int(c - 0x60)
            letters += 1
            i += 1
        }
        guard letters > 0, letters <= 3 else { return nil }
        var row = 0
        var digits = 0
        while i < range.upperBound {
            let c = bytes[i]
            if c == 0x24, digits == 0 {
                i += 1
                continue
            }
            let d = c &- 0x30
            guard d < 10 else { return nil }
            row = row * 10 + Int(d)
            digits += 1
            i += 1
        }
        guard digits > 0, digits <= 7 else { return nil }
        return (column - 1, row)
    }

    /// The most rows and columns a sheet has (Excel's limits): a reference past them is an error.
    static let maximumRows = 1_048_576
    static let maximumColumns = 16_384

    static func readRows(
        of workbook: Workbook, sheet: Workbook.Sheet, rowsHint: (Int) -> Void = { _ in }, piece: Int = 4 << 20,
        _ body: (SheetRow) throws(WorkbookError) -> Void
    ) throws(WorkbookError) {
        let part = sheet.part
        guard let entry = workbook.archive.entry(named: part) else {
            throw WorkbookError("the sheet '\(sheet.name)' is the part '\(part)', which the package does not have")
        }
        var reader = SheetReader(
            part: part, strings: try sharedStrings(workbook.archive, part: workbook.sharedStringsPart),
            formats: try cellFormats(workbook.archive, part: workbook.stylesPart), date1904: workbook.date1904,
            recalculates: workbook.recalculatesOnLoad)
        // Inflated a few megabytes at a time and read up to the last whole row of each piece:
        // the sheet's XML is never held whole.
        let inflater: ZipInflater
        do { inflater = try ZipInflater(workbook.archive, entry) } catch { throw WorkbookError(error) }
        var buffer: [UInt8] = []
        while !reader.done {
            let more: Bool
            do { more = try inflater.read(into: &buffer, count: piece) } catch { throw WorkbookError(error) }
            let end = more ? SheetReader.endOfLastRow(buffer) : buffer.count
            guard end > 0 else {
                if more { continue }
                break
            }
            try buffer.withUnsafeBufferPointer { all throws(WorkbookError) in
                try reader.read(UnsafeBufferPointer(rebasing: all[0..<end]), last: !more && end == all.count, rowsHint: rowsHint, body)
            }
            buffer.removeSubrange(0..<end)
            if !more { break }
        }
    }

    /// Reads sheet `sheet` into `assembly`: the first rows in turn until the header is found,
    /// then the rest a piece at a time on other threads, each piece's rows put into a part of
    /// the table of its own, the parts appended in order. `false` when the sheet must be read
    /// whole instead: a formula saved without its value (computed from the whole sheet), or a
    /// row that does not say its number (which only the rows before it tell).
    static func readTable(
        of workbook: Workbook, sheet: Workbook.Sheet, into assembly: inout SheetAssembly, piece: Int = 4 << 20
    ) throws(WorkbookError) -> Bool {
        let part = sheet.part
        guard let entry = workbook.archive.entry(named: part) else {
            throw WorkbookError("the sheet '\(sheet.name)' is the part '\(part)', which the package does not have")
        }
        let strings = try sharedStrings(workbook.archive, part: workbook.sharedStringsPart)
        let formats = try cellFormats(workbook.archive, part: workbook.stylesPart)
        let date1904 = workbook.date1904, recalculates = workbook.recalculatesOnLoad
        var reader = SheetReader(part: part, strings: strings, formats: formats, date1904: date1904, recalculates: recalculates)
        let inflater: ZipInflater
        do { inflater = try ZipInflater(workbook.archive, entry) } catch { throw WorkbookError(error) }
        var buffer: [UInt8] = []
        var more = true
        func nextPiece() throws(WorkbookError) -> Int? {
            while true {
                do { more = try inflater.read(into: &buffer, count: piece) } catch { throw WorkbookError(error) }
                let end = more ? SheetReader.endOfLastRow(buffer) : buffer.count
                if end > 0 { return end }
                if !more { return nil }
            }
        }
        // The header first, in turn.
        while more, !reader.done, !assembly.foundHeader {
            guard let end = try nextPiece() else { break }
            var wholeSheet = false
            do {
                try buffer.withUnsafeBufferPointer { all throws(WorkbookError) in
                    try reader.read(UnsafeBufferPointer(rebasing: all[0..<end]), last: !more && end == all.count, rowsHint: { assembly.reserve($0) }) {
                        row throws(WorkbookError) in
                        guard !row.cells.contains(where: \.formulaWithoutValue), try assembly.add(row) else {
                            wholeSheet = true
                            throw WorkbookError.wholeSheetNeeded
                        }
                    }
                }
            } catch  where wholeSheet {
                return false
            }
            buffer.removeSubrange(0..<end)
        }
        guard more, !reader.done else { return true }
        // The rest on other threads, a few pieces at most in hand at once.
        let queue = DispatchQueue(label: "trellis.sheet-pieces", attributes: .concurrent)
        let group = DispatchGroup()
        let inHand = DispatchSemaphore(value: 3)
        let parts = PieceResults()
        let template = assembly.part
        var count = 0
        var merged = 0
        var wholeSheet = false
        /// Appends the parts read so far, in order, so that their rows are not held twice.
        func merge(waiting: Bool) throws(WorkbookError) {
            while merged < count, !wholeSheet {
                guard let result = parts.take(merged) else {
                    if waiting { throw WorkbookError(part: part, "a piece of the sheet was not read") }
                    return
                }
                merged += 1
                switch result {
                case .success(let rows): try assembly.append(rows)
                case .failure(let error):
                    guard error == WorkbookError.wholeSheetNeeded else { throw error }
                    wholeSheet = true
                }
            }
        }
        while more, !wholeSheet {
            guard let end = try nextPiece() else { break }
            let chunk = Array(buffer[0..<end])
            buffer.removeSubrange(0..<end)
            let last = !more, k = count
            count += 1
            inHand.wait()
            group.enter()
            queue.async {
                defer {
                    inHand.signal()
                    group.leave()
                }
                var reader = SheetReader(
                    part: part, strings: strings, formats: formats, date1904: date1904, recalculates: recalculates, numberedRowsOnly: true)
                var rows = template
                do throws(WorkbookError) {
                    try chunk.withUnsafeBufferPointer { buffer throws(WorkbookError) in
                        try reader.read(buffer, last: last, rowsHint: { _ in }) { row throws(WorkbookError) in
                            guard !row.cells.contains(where: \.formulaWithoutValue) else { throw WorkbookError.wholeSheetNeeded }
                            try rows.append(row)
                        }
                    }
                    parts.set(k, .success(rows))
                } catch {
                    parts.set(k, .failure(error))
                }
            }
            do { try merge(waiting: false) } catch {
                group.wait()
                throw error
            }
        }
        group.wait()
        try merge(waiting: true)
        return !wholeSheet
    }

    /// The parts of a sheet read on other threads, by their place.
    final class PieceResults: @unchecked Sendable {
        private let lock = NSLock()
        private var results: [Int: Result<AssembledRows, WorkbookError>] = [:]

        func set(_ k: Int, _ result: Result<AssembledRows, WorkbookError>) {
            lock.lock()
            results[k] = result
            lock.unlock()
        }

        func take(_ k: Int) -> Result<AssembledRows, WorkbookError>? {
            lock.lock()
            defer { lock.unlock() }
            return results.removeValue(forKey: k)
        }
    }

    /// The rows of a worksheet part's XML, held whole.
    static func readRows(
        xml bytes: [UInt8], part: String, strings: [String], formats: [NumberFormat], date1904: Bool, recalculates: Bool,
        rowsHint: (Int) -> Void = { _ in }, _ body: (SheetRow) throws(WorkbookError) -> Void
    ) throws(WorkbookError) {
        var reader = SheetReader(part: part, strings: strings, formats: formats, date1904: date1904, recalculates: recalculates)
        try bytes.withUnsafeBufferPointer { buffer throws(WorkbookError) in try reader.read(buffer, last: true, rowsHint: rowsHint, body) }
    }

    /// Reads a worksheet's rows from its XML, a piece at a time: each piece ends after a row's
    /// end tag (or at the end of the part), and what the reading knows — the row it is in, the
    /// shared formulas met — carries over to the next.
    struct SheetReader {
        let part: String
        let strings: [String]
        let formats: [NumberFormat]
        let date1904: Bool
        let recalculates: Bool
        /// Whether a row must say its number (a piece read apart from the rows before it).
        let numberedRowsOnly: Bool
        private var rowNumber = 0
        private var cells: [SheetCell] = []
        private var inRow = false
        private var nextColumn = 0
        private var shared: [Int: (Int, Int, String)] = [:]
        /// Whether the rows are over (`</sheetData>` read).
        private(set) var done = false

        init(part: String, strings: [String], formats: [NumberFormat], date1904: Bool, recalculates: Bool, numberedRowsOnly: Bool = false) {
            self.numberedRowsOnly = numberedRowsOnly
            self.part = part
            self.strings = strings
            self.formats = formats
            self.date1904 = date1904
            self.recalculates = recalculates
        }

        /// Where the last row's end tag (`</row>`, `</x:row>`) in `bytes` ends; 0 when none is.
        static func endOfLastRow(_ bytes: [UInt8]) -> Int {
            var i = bytes.count - 4
            while i >= 2 {
                // "row>" after "</" or "</prefix:".
                if bytes[i] == 0x72, bytes[i + 1] == 0x6F, bytes[i + 2] == 0x77, bytes[i + 3] == 0x3E {
                    var k = i - 1
                    if bytes[k] == 0x3A {
                        k -= 1
                        while k > 0, bytes[k] != 0x2F, bytes[k] != 0x3C, bytes[k] != 0x3E { k -= 1 }
                    }
                    if bytes[k] == 0x2F, k > 0, bytes[k - 1] == 0x3C { return i + 4 }
                }
                i -= 1
            }
            return 0
        }

        /// Reads the rows in `buffer`, which ends after a row's end tag, or is the part's
        /// `last` piece.
        mutating func read(
            _ buffer: UnsafeBufferPointer<UInt8>, last: Bool, rowsHint: (Int) -> Void, _ body: (SheetRow) throws(WorkbookError) -> Void
        ) throws(WorkbookError) {
            var scanner = XMLScanner(buffer, part: part)
            while true {
                let token = try scanner.next()
                switch token {
                case .finished:
                    if last {
                        if inRow { throw scanner.error("the document ends inside row \(rowNumber)") }
                        done = true
                    }
                    return
                case .start(let name, let attributes, let empty):
                    if scanner.isNamed(name, "row") {
                        let said = scanner.attributeInt("r", in: attributes)
                        if said == nil, numberedRowsOnly { throw WorkbookError.wholeSheetNeeded }
                        let number = said ?? rowNumber + 1
                        guard number > rowNumber, number <= maximumRows else {
                            throw scanner.error("row \(number) comes after row \(rowNumber), or past the last row a sheet has")
                        }
                        rowNumber = number
                        nextColumn = 0
                        cells.removeAll(keepingCapacity: true)
                        inRow = !empty
                    } else if scanner.isNamed(name, "c") {
                        if !inRow {
                            // A cell outside a row is not SpreadsheetML.
                            throw scanner.error("a cell outside a row")
                        }
                        var column = nextColumn
                        // The three attributes a cell has, found in one pass.
                        let (reference, styleRange, type) = scanner.cellAttributes(attributes)
                        if let reference {
                            guard let (c, r) = cellReference(scanner.bytes, reference), r == rowNumber else {
                                throw scanner.error(
                                    "the cell '\(String(decoding: scanner.bytes[reference], as: UTF8.self))' is not a cell of row \(rowNumber)")
                            }
                            column = c
                        }
                        guard column >= nextColumn, column < maximumColumns else {
                            throw scanner.error("the cells of row \(rowNumber) are out of order, or past the last column")
                        }
                        nextColumn = column + 1
                        let style = styleRange.flatMap { scanner.integer($0) } ?? 0
                        if empty { continue }
                        if var cell = try readCell(
                            &scanner, row: rowNumber, column: column, type: type, format: style < formats.count ? formats[style] : .general,
                            styleIndex: style, strings: strings, date1904: date1904, shared: &shared)
                        {
                            // A workbook that asks to be computed on opening (XlsxWriter's: it
                            // saves 0 for every formula) has saved no values to go by.
                            if recalculates, cell.formula != nil { cell.formulaWithoutValue = true }
                            cells.append(cell)
                        }
                    } else if scanner.isNamed(name, "dimension") {
                        // The sheet's extent, which a reader may size its columns by.
                        if let ref = scanner.attribute("ref", in: attributes),
                            let last = String(decoding: scanner.bytes[ref], as: UTF8.self).split(separator: ":").last
                        {
                            let b = Array(last.utf8)
                            if let (_, row) = b.withUnsafeBufferPointer({ cellReference($0, 0..<$0.count) }) { rowsHint(row) }
                        }
                        if !empty { try scanner.skipElement() }
                    } else if scanner.isNamed(name, "sheetData") || scanner.isNamed(name, "worksheet") {
                        continue
                    } else if !empty {
                        // Columns, views, merged cells, conditional formats; a row's extensions.
                        try scanner.skipElement()
                    }
                case .close(let name):
                    if scanner.isNamed(name, "row") {
                        inRow = false
                        if !cells.isEmpty { try body(SheetRow(number: rowNumber, cells: cells)) }
                    } else if scanner.isNamed(name, "sheetData") {
                        done = true
                        return
                    }
                default:
                    break
                }
            }
        }
    }

    /// Reads a `<c>` element's content (its start tag just read) into a cell; `nil` for a cell
    /// that holds nothing.
    static func readCell(
        _ scanner: inout XMLScanner, row: Int, column: Int, type: Range<Int>?, format: NumberFormat, styleIndex: Int, strings: [String],
        date1904: Bool, shared: inout [Int: (Int, Int, String)]
    ) throws(WorkbookError) -> SheetCell? {
        var valueRange: Range<Int>?
        var valueText: [UInt8]?
        var formula: String?
        var inline: String?
        while true {
            switch try scanner.next() {
            case .start(let name, let attributes, let empty):
                if scanner.isNamed(name, "v") {
                    if empty { continue }
                    // Mostly a number: its bytes in place; text with entities is decoded.
                    let start = scanner.position
                    var end = start
                    let bytes = scanner.bytes
                    while end < bytes.count, bytes[end] != 0x3C, bytes[end] != 0x26 { end += 1 }
                    // `</v>` (or `</x:v>`) right after: the bytes are the value.
                    if end + 1 < bytes.count, bytes[end] == 0x3C, bytes[end + 1] == 0x2F {
                        valueRange = start..<end
                        while true {
                            let inner = try scanner.next()
                            if case .close = inner { break }
                            if case .finished = inner { throw scanner.error("the document ends inside a value") }
                        }
                        continue
                    }
                    var text: [UInt8] = []
                    var plain = true
                    while true {
                        let inner = try scanner.next()
                        if case .close = inner { break }
                        if case .text(let r) = inner {
                            if scanner.bytes[r].contains(0x26) { plain = false }
                            try scanner.appendText(r, to: &text)
                        } else if case .cdata(let r) = inner {
                            plain = false
                            text.append(contentsOf: scanner.bytes[r])
                        } else if case .finished = inner {
                            throw scanner.error("the document ends inside a value")
                        }
                    }
                    if plain {
                        var end = start
                        while end < scanner.bytes.count, scanner.bytes[end] != 0x3C { end += 1 }
                        valueRange = start..<end
                    } else {
                        valueText = text
                    }
                } else if scanner.isNamed(name, "f") {
                    var text = empty ? "" : try scanner.elementText()
                    if try scanner.attributeString("t", in: attributes) == "shared", let si = scanner.attributeInt("si", in: attributes) {
                        // A shared formula: written once, at the first cell of its range; the
                        // others read it moved by their distance from that cell.
                        if !text.isEmpty {
                            shared[si] = (row, column, text)
                        } else if let (anchorRow, anchorColumn, anchor) = shared[si] {
                            text = Formula.shifted(anchor, rows: row - anchorRow, columns: column - anchorColumn) ?? "#REF!"
                        }
                    }
                    formula = text
                } else if scanner.isNamed(name, "is") {
                    inline = empty ? "" : try stringItem(&scanner)
                } else if !empty {
                    try scanner.skipElement()
                }
            case .close:
                return makeCell(
                    scanner, column: column, type: type, value: valueRange, decodedValue: valueText, formula: formula, inline: inline,
                    format: format, styleIndex: styleIndex, strings: strings, date1904: date1904)
            case .finished:
                throw scanner.error("the document ends inside a cell")
            default:
                break
            }
        }
    }

    static func makeCell(
        _ scanner: XMLScanner, column: Int, type: Range<Int>?, value: Range<Int>?, decodedValue: [UInt8]?, formula: String?,
        inline: String?, format: NumberFormat, styleIndex: Int, strings: [String], date1904: Bool
    ) -> SheetCell? {
        func valueString() -> String? {
            if let decodedValue { return String(decoding: decodedValue, as: UTF8.self) }
            return value.map { String(decoding: scanner.bytes[$0], as: UTF8.self) }
        }
        // The type's bytes, without making a string of them: `s` and none are most cells'.
        let kind: String
        if let type {
            kind = scanner.equals(type, "s") ? "s" : scanner.equals(type, "n") ? "n" : String(decoding: scanner.bytes[type], as: UTF8.self)
        } else {
            kind = "n"
        }
        var cell: SheetCell
        switch kind {
        case "s":
            let index = value.flatMap { scanner.integer($0) } ?? valueString().flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard let index, strings.indices.contains(index) else {
                cell = SheetCell(column: column, value: .missing, shown: "")
                break
            }
            let text = strings[index]
            cell = SheetCell(column: column, value: text.isEmpty ? .missing : .text(text), shown: format.format(text: text))
        case "inlineStr":
            let text = inline ?? valueString() ?? ""
            cell = SheetCell(column: column, value: text.isEmpty ? .missing : .text(text), shown: format.format(text: text))
        case "str":
            let text = unescaped(Array((valueString() ?? "").utf8))
            cell = SheetCell(column: column, value: text.isEmpty ? .missing : .text(text), shown: format.format(text: text))
        case "b":
            let truth = valueString().map { $0 == "1" || $0.lowercased() == "true" }
            cell = SheetCell(column: column, value: truth.map(CellValue.boolean) ?? .missing, shown: truth.map { $0 ? "TRUE" : "FALSE" } ?? "")
        case "e":
            cell = SheetCell(column: column, value: .missing, shown: valueString() ?? "#N/A")
        case "d":
            guard let text = valueString(), let seconds = isoSeconds(text) else {
                cell = SheetCell(column: column, value: .missing, shown: valueString() ?? "")
                break
            }
            let serial = WorkbookDates.serial(ofSeconds: seconds, date1904: date1904)
            cell = SheetCell(
                column: column, value: .date(Date(timeIntervalSince1970: seconds)),
                shown: (format.isDate ? format : NumberFormat("yyyy/m/d")).format(serial, date1904: date1904))
        default:
            guard let number = numberValue(scanner, value, decodedValue) else {
                cell = SheetCell(column: column, value: .missing, shown: valueString() ?? "")
                break
            }
            // General shows a short number as it is written (`88.5`, `-3`): its text is taken
            // as it is, without formatting it again.
            if format.isGeneral, let value, decodedValue == nil, isPlainShortNumber(scanner.bytes, value) {
                cell = SheetCell(
                    column: column, value: number == number.rounded() && abs(number) < 9.0e15 ? .integer(Int(number)) : .decimal(number),
                    shown: String(decoding: scanner.bytes[value], as: UTF8.self))
            } else {
                cell = numberCell(number, column: column, format: format, date1904: date1904)
            }
        }
        cell.format = styleIndex
        if let formula {
            cell.formula = formula
            cell.formulaWithoutValue = value == nil && decodedValue == nil && inline == nil
        } else if cell.value == .missing && cell.shown.isEmpty {
            return nil
        }
        return cell
    }

    /// A number cell: a date when its format shows a date, shown by its format.
    static func numberCell(_ number: Double, column: Int, format: NumberFormat, date1904: Bool) -> SheetCell {
        if format.isDate, number >= 0 {
            return SheetCell(
                column: column, value: .date(Date(timeIntervalSince1970: WorkbookDates.seconds(ofSerial: number, date1904: date1904))),
                shown: format.format(number, date1904: date1904))
        }
        let value: CellValue =
            number == number.rounded() && abs(number) < 9.0e15 ? .integer(Int(number)) : .decimal(number)
        let shown = format.isGeneral || format.isText ? NumberFormat.general(number) : format.format(number, date1904: date1904)
        return SheetCell(column: column, value: value, shown: shown)
    }

    /// Whether the bytes are a number General shows as written: `[-]digits[.digits]`, at most
    /// ten digits, no leading zero before another digit, no trailing zero after the point.
    static func isPlainShortNumber(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        var i = range.lowerBound
        if i < range.upperBound, b[i] == 0x2D { i += 1 }
        guard i < range.upperBound else { return false }
        var digits = 0
        var point = -1
        let first = i
        while i < range.upperBound {
            let c = b[i]
            if c == 0x2E, point < 0 {
                point = i
            } else if c &- 0x30 < 10 {
                digits += 1
            } else {
                return false
            }
            i += 1
        }
        guard digits >= 1, digits <= 10 else { return false }
        if b[first] == 0x30, first + 1 < range.upperBound, b[first + 1] != 0x2E { return false }
        if point >= 0 {
            guard point > first, point < range.upperBound - 1, b[range.upperBound - 1] != 0x30 else { return false }
        }
        return true
    }

    /// The number a `<v>` holds.
    static func numberValue(_ scanner: XMLScanner, _ range: Range<Int>?, _ decoded: [UInt8]?) -> Double? {
        if let decoded { return Double(String(decoding: decoded, as: UTF8.self).trimmed) }
        guard let range, !range.isEmpty else { return nil }
        // Whole numbers, the most common, without making a string.
        var value = 0
        var negative = false
        var i = range.lowerBound
        if scanner.bytes[i] == 0x2D {
            negative = true
            i += 1
        }
        if i < range.upperBound, range.upperBound - i <= 15 {
            var whole = true
            for k in i..<range.upperBound {
                let d = scanner.bytes[k] &- 0x30
                if d >= 10 {
                    whole = false
                    break
                }
                value = value * 10 + Int(d)
            }
            if whole { return Double(negative ? -value : value) }
        }
        return Double(String(decoding: scanner.bytes[range], as: UTF8.self).trimmed)
    }

    /// Seconds since 1970 of an ISO 8601 date (`2024-03-01`, `2024-03-01T12:20:00`, with an
    /// optional fraction and `Z`), as `t="d"` cells and OpenDocument write dates.
    static func isoSeconds(_ text: String) -> Double? {
        let parts = text.split(separator: "T", maxSplits: 1)
        guard let datePart = parts.first else { return nil }
        let ymd = datePart.split(separator: "-")
        guard ymd.count == 3, let y = Int(ymd[0]), let m = Int(ymd[1]), let d = Int(ymd[2]), (1...12).contains(m), (1...31).contains(d)
        else { return nil }
        var seconds = Double(CellText.daysFromCivil(y, m, d)) * 86_400
        if parts.count == 2 {
            var time = parts[1]
            if time.hasSuffix("Z") { time = time.dropLast() }
            let hms = time.split(separator: ":")
            guard hms.count >= 2, let h = Int(hms[0]), let mi = Int(hms[1]) else { return nil }
            let s = hms.count > 2 ? Double(hms[2]) ?? 0 : 0
            seconds += Double(h * 3600 + mi * 60) + s
        }
        return seconds
    }

}

extension String {
    /// Without spaces at either end (ASCII spaces and tabs, as XML writers leave them).
    var trimmed: Substring {
        var s = self[...]
        while let c = s.first, c == " " || c == "\t" || c == "\n" || c == "\r" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\n" || c == "\r" { s = s.dropLast() }
        return s
    }
}
