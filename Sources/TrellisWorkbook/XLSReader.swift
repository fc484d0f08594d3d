import Foundation
import TrellisGrid

/// Reads a legacy Excel workbook (`.xls`, BIFF8: Excel 97–2003, and what WPS, LibreOffice and
/// pandas' old writers save as "Excel 97") from its compound file's `Workbook` stream ([MS-XLS]):
/// the sheets and the selected tab from the globals, the shared strings, the number formats and
/// cell styles (so that a cell is shown as the program shows it), and each sheet's cells with
/// their saved values. A formula's saved value is read; its text is not (BIFF stores formulas
/// compiled).
enum XLSReader {
    /// What the workbook stream's globals say.
    struct Book: Sendable {
        var stream: [UInt8]
        var sheets: [Workbook.Sheet]
        /// Where each sheet's records start in the stream.
        var offsets: [Int]
        var active: Int
        var date1904: Bool
        var strings: [String]
        /// The number format of each cell style, by the style's index.
        var formats: [NumberFormat]
    }

    /// A record of the stream: its type and where its data lie.
    struct Record {
        var type: UInt16
        var data: Range<Int>
    }

    static func records(_ stream: [UInt8], from start: Int) -> AnyIterator<Record> {
        var at = start
        return AnyIterator {
            guard at + 4 <= stream.count else { return nil }
            let type = UInt16(stream[at]) | UInt16(stream[at + 1]) << 8
            let length = Int(stream[at + 2]) | Int(stream[at + 3]) << 8
            let data = at + 4..<min(at + 4 + length, stream.count)
            at += 4 + length
            return Record(type: type, data: data)
        }
    }

    /// Opens the workbook in the compound file `bytes`.
    static func book(_ bytes: [UInt8]) throws(WorkbookError) -> Book {
        let file = try CompoundFile(bytes: bytes)
        guard let entry = file.entry(named: "Workbook") else {
            if file.entry(named: "EncryptedPackage") != nil {
                throw WorkbookError("it is an encrypted workbook (it has a password to open it): save it without one")
            }
            if file.entry(named: "Book") != nil {
                throw WorkbookError(
                    usage: "it is an Excel 5.0/95 workbook (BIFF5), which is not read; open it in a spreadsheet and save it as .xlsx")
            }
            let names = file.entries.filter { $0.type == 2 }.prefix(4).map { "'\($0.name)'" }.joined(separator: ", ")
            throw WorkbookError(
                "it is a compound file (as Office's older documents are) without a 'Workbook' stream (it holds \(names)): not an Excel workbook")
        }
        let stream = try file.read(entry)
        var book = Book(stream: stream, sheets: [], offsets: [], active: 0, date1904: false, strings: [], formats: [])
        var custom: [Int: String] = [:]
        var styleFormats: [Int] = []
        var first = true
        var sst: [Range<Int>] = []
        var inSST = false
        for record in records(stream, from: 0) {
            let d = record.data
            func u16(_ k: Int) -> Int { k + 1 < d.count ? Int(stream[d.lowerBound + k]) | Int(stream[d.lowerBound + k + 1]) << 8 : 0 }
            func u32(_ k: Int) -> Int { u16(k) | u16(k + 2) << 16 }
            if first {
                // BOF of the globals: BIFF8 is version 0x0600.
                guard record.type == 0x0809, u16(0) == 0x0600 else {
                    throw WorkbookError(
                        usage: "its workbook stream is not BIFF8 (Excel 97–2003), the only legacy form read; open it in a spreadsheet and save it as .xlsx")
                }
                first = false
                continue
            }
            if record.type == 0x003C, inSST {
                sst.append(d)
                continue
            }
            inSST = false
            switch record.type {
            case 0x002F:
                throw WorkbookError("it is an encrypted workbook (it has a password to open it): save it without one")
            case 0x0022:
                book.date1904 = u16(0) == 1
            case 0x041E:
                let index = u16(0)
                var at = d.lowerBound + 2
                if let code = unicodeString(stream, &at, end: d.upperBound, lengthBytes: 2) { custom[index] = code }
            case 0x00E0:
                styleFormats.append(u16(2))
            case 0x003D:
                book.active = u16(10)
            case 0x0085:
                let offset = u32(0), state = d.count > 4 ? stream[d.lowerBound + 4] : 0, kind = d.count > 5 ? stream[d.lowerBound + 5] : 0
                var at = d.lowerBound + 6
                let name = unicodeString(stream, &at, end: d.upperBound, lengthBytes: 1) ?? "Sheet\(book.sheets.count + 1)"
                let why: String? =
                    switch kind {
                    case 0: nil
                    case 2: "a chart sheet"
                    case 1: "a macro sheet"
                    default: "a Visual Basic module"
                    }
                book.sheets.append(Workbook.Sheet(name: name, hidden: state != 0, notATable: why, part: "\(book.sheets.count)"))
                book.offsets.append(offset)
            case 0x00FC:
                sst = [d]
                inSST = true
            case 0x000A:
                break
            default:
                continue
            }
            if record.type == 0x000A { break }
        }
        guard !book.sheets.isEmpty else { throw WorkbookError("its workbook stream names no sheet: the file is damaged") }
        if !book.sheets.indices.contains(book.active) { book.active = 0 }
        book.strings = try sharedStrings(stream, sst)
        var made: [Int: NumberFormat] = [:]
        book.formats = styleFormats.map { id in
            if let format = made[id] { return format }
            let format = NumberFormat(custom[id] ?? NumberFormat.builtIn(id) ?? "General")
            made[id] = format
            return format
        }
        return book
    }

    /// An `XLUnicodeString` at `at` (its length in 1 or 2 bytes, a flags byte, then its
    /// characters, one byte each or UTF-16), `at` moved past it; `nil` when cut short.
    static func unicodeString(_ stream: [UInt8], _ at: inout Int, end: Int, lengthBytes: Int) -> String? {
        guard at + lengthBytes < end else { return nil }
        let count = lengthBytes == 1 ? Int(stream[at]) : Int(stream[at]) | Int(stream[at + 1]) << 8
        at += lengthBytes
        let flags = stream[at]
        at += 1
        let wide = flags & 0x01 != 0
        let bytes = count * (wide ? 2 : 1)
        guard at + bytes <= end else { return nil }
        defer { at += bytes }
        return characters(stream[at..<at + bytes], wide: wide)
    }

    static func characters(_ bytes: ArraySlice<UInt8>, wide: Bool) -> String {
        if wide {
            var units: [UInt16] = []
            units.reserveCapacity(bytes.count / 2)
            var i = bytes.startIndex
            while i + 1 < bytes.endIndex {
                units.append(UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8)
                i += 2
            }
            return String(decoding: units, as: UTF16.self)
        }
        // One byte a character: the low byte of each UTF-16 unit (Latin-1).
        return String(decoding: bytes.map { UInt16($0) }, as: UTF16.self)
    }

    /// The shared string table: `parts` are the SST record's data and its CONTINUE records'. A
    /// string's characters may break across parts, each continuation opening with its own flags
    /// byte; its formatting runs and phonetic data are skipped wherever they fall.
    static func sharedStrings(_ stream: [UInt8], _ parts: [Range<Int>]) throws(WorkbookError) -> [String] {
        guard let firstPart = parts.first, firstPart.count >= 8 else { return [] }
        var part = 0
        var at = firstPart.lowerBound + 8
        func u8() -> UInt8? {
            while at >= parts[part].upperBound {
                part += 1
                guard part < parts.count else { return nil }
                at = parts[part].lowerBound
            }
            defer { at += 1 }
            return stream[at]
        }
        func u16() -> Int? { guard let a = u8(), let b = u8() else { return nil }; return Int(a) | Int(b) << 8 }
        func u32() -> Int? { guard let a = u16(), let b = u16() else { return nil }; return a | b << 16 }
        func skip(_ n: Int) -> Bool {
            var left = n
            while left > 0 {
                while at >= parts[part].upperBound {
                    part += 1
                    guard part < parts.count else { return false }
                    at = parts[part].lowerBound
                }
                let step = min(left, parts[part].upperBound - at)
                at += step
                left -= step
            }
            return true
        }
        let unique =
            Int(stream[firstPart.lowerBound + 4]) | Int(stream[firstPart.lowerBound + 5]) << 8
            | Int(stream[firstPart.lowerBound + 6]) << 16 | Int(stream[firstPart.lowerBound + 7]) << 24
        var strings: [String] = []
        strings.reserveCapacity(min(unique, stream.count / 3))
        for _ in 0..<unique {
            guard let count = u16(), let flags = u8() else { break }
            var wide = flags & 0x01 != 0
            let runs = flags & 0x08 != 0 ? u16() ?? 0 : 0
            let extra = flags & 0x04 != 0 ? u32() ?? 0 : 0
            var units: [UInt16] = []
            units.reserveCapacity(count)
            while units.count < count {
                // The characters left in this part; a new part starts with a flags byte.
                if at >= parts[part].upperBound {
                    part += 1
                    guard part < parts.count else { throw WorkbookError("its shared strings are cut short: the file is damaged") }
                    at = parts[part].lowerBound
                    wide = stream[at] & 0x01 != 0
                    at += 1
                }
                let available = (parts[part].upperBound - at) / (wide ? 2 : 1)
                let take = min(count - units.count, available)
                if take == 0 { at = parts[part].upperBound; continue }
                if wide {
                    for k in 0..<take { units.append(UInt16(stream[at + 2 * k]) | UInt16(stream[at + 2 * k + 1]) << 8) }
                    at += 2 * take
                } else {
                    for k in 0..<take { units.append(UInt16(stream[at + k])) }
                    at += take
                }
            }
            strings.append(String(decoding: units, as: UTF16.self))
            guard skip(4 * runs + extra) else { break }
        }
        return strings
    }

    /// The error a `BoolErr` code stands for.
    static func errorText(_ code: UInt8) -> String {
        switch code {
        case 0x00: "#NULL!"
        case 0x07: "#DIV/0!"
        case 0x0F: "#VALUE!"
        case 0x17: "#REF!"
        case 0x1D: "#NAME?"
        case 0x24: "#NUM!"
        default: "#N/A"
        }
    }

    /// A packed `RK` number: an integer or the high 32 bits of a double, perhaps divided by 100.
    static func rkNumber(_ rk: UInt32) -> Double {
        let value: Double =
            rk & 0x02 != 0
            ? Double(Int32(bitPattern: rk) >> 2)
            : Double(bitPattern: UInt64(rk & 0xFFFF_FFFC) << 32)
        return rk & 0x01 != 0 ? value / 100 : value
    }

    /// Reads every row of the sheet at `index` that holds a cell, in order.
    static func readRows(of book: Book, sheet index: Int, _ body: (SheetRow) throws(WorkbookError) -> Void) throws(WorkbookError) {
        let stream = book.stream
        let start = book.offsets[index]
        guard start >= 0, start + 4 <= stream.count else {
            throw WorkbookError("the sheet '\(book.sheets[index].name)' starts past the end of the workbook stream: the file is damaged")
        }
        var cells: [Int: [SheetCell]] = [:]
        var pendingString: (row: Int, column: Int, format: NumberFormat)?
        func place(_ row: Int, _ cell: SheetCell) { cells[row, default: []].append(cell) }
        func format(_ style: Int) -> NumberFormat { book.formats.indices.contains(style) ? book.formats[style] : NumberFormat("General") }
        func number(_ value: Double, row: Int, column: Int, style: Int) {
            place(row, XLSXReader.numberCell(value, column: column, format: format(style), date1904: book.date1904))
        }
        func text(_ value: String, row: Int, column: Int, style: Int) {
            guard !value.isEmpty else { return }
            place(row, SheetCell(column: column, value: .text(value), shown: format(style).format(text: value)))
        }
        var first = true
        for record in records(stream, from: start) {
            let d = record.data
            func u16(_ k: Int) -> Int { k + 1 < d.count ? Int(stream[d.lowerBound + k]) | Int(stream[d.lowerBound + k + 1]) << 8 : 0 }
            func u32(_ k: Int) -> UInt32 { UInt32(u16(k)) | UInt32(u16(k + 2)) << 16 }
            func double(_ k: Int) -> Double { Double(bitPattern: UInt64(u32(k)) | UInt64(u32(k + 4)) << 32) }
            if first {
                guard record.type == 0x0809 else {
                    throw WorkbookError("the sheet '\(book.sheets[index].name)' does not start where the workbook says: the file is damaged")
                }
                first = false
                continue
            }
            if record.type == 0x000A { break }
            let row = u16(0) + 1, column = u16(2), style = u16(4)
            switch record.type {
            case 0x00FD where d.count >= 10:  // LabelSst
                let k = Int(u32(6))
                if book.strings.indices.contains(k) { text(book.strings[k], row: row, column: column, style: style) }
            case 0x0204, 0x00D6:  // Label, RString
                var at = d.lowerBound + 6
                if let value = unicodeString(stream, &at, end: d.upperBound, lengthBytes: 2) { text(value, row: row, column: column, style: style) }
            case 0x0203 where d.count >= 14:  // Number
                number(double(6), row: row, column: column, style: style)
            case 0x027E where d.count >= 10:  // RK
                number(rkNumber(u32(6)), row: row, column: column, style: style)
            case 0x00BD where d.count >= 6:  // MulRk: (style, rk) for each column from the first
                let count = (d.count - 6) / 6
                for k in 0..<count {
                    number(rkNumber(u32(6 + 6 * k)), row: row, column: column + k, style: u16(4 + 6 * k))
                }
            case 0x0205 where d.count >= 8:  // BoolErr
                let value = stream[d.lowerBound + 6]
                if stream[d.lowerBound + 7] == 0 {
                    place(row, SheetCell(column: column, value: .boolean(value != 0), shown: value != 0 ? "TRUE" : "FALSE"))
                } else {
                    place(row, SheetCell(column: column, value: .missing, shown: errorText(value)))
                }
            case 0x0006 where d.count >= 14:  // Formula: its saved value
                pendingString = nil
                if u16(12) == 0xFFFF {
                    let kind = stream[d.lowerBound + 6], value = stream[d.lowerBound + 8]
                    switch kind {
                    case 0: pendingString = (row, column, format(style))
                    case 1: place(row, SheetCell(column: column, value: .boolean(value != 0), shown: value != 0 ? "TRUE" : "FALSE"))
                    case 2: place(row, SheetCell(column: column, value: .missing, shown: errorText(value)))
                    default: break
                    }
                } else {
                    number(double(6), row: row, column: column, style: style)
                }
                continue
            case 0x0207:  // String: the text a formula just before it gave
                if let pending = pendingString {
                    var at = d.lowerBound
                    if let value = unicodeString(stream, &at, end: d.upperBound, lengthBytes: 2), !value.isEmpty {
                        place(pending.row, SheetCell(column: pending.column, value: .text(value), shown: pending.format.format(text: value)))
                    }
                }
            case 0x04BC, 0x0221, 0x0236:
                // A shared or array formula's, or a data table's, record between a formula and its text.
                continue
            default:
                break
            }
            pendingString = nil
        }
        for row in cells.keys.sorted() {
            let sorted = cells[row]!.sorted { $0.column < $1.column }
            // A cell written twice (a damaged file) counts once: the last.
            var unique: [SheetCell] = []
            for cell in sorted {
                if unique.last?.column == cell.column { unique[unique.count - 1] = cell } else { unique.append(cell) }
            }
            try body(SheetRow(number: row, cells: unique))
        }
    }
}
