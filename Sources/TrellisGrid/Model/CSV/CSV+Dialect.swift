import Foundation
import TrellisText

/// What a file's bytes say about how to read them: its encoding (a byte order mark, UTF-16
/// without one, GB18030 or GBK), Excel's `sep=` line, a title above the header, where the records end.
extension CSV {
    /// Excel's first line `sep=C` (C one of the delimiters), and its length with its line break.
    static func separatorLine(_ text: UnsafeBufferPointer<UInt8>, from start: Int) -> (delimiter: UInt8, length: Int)? {
        let prefix = Array("sep=".utf8)
        guard text.count >= start + 5, Array(text[start..<(start + 4)]).map({ $0 | 0x20 }) == prefix,
            CSVFormat.delimiters.contains(text[start + 4])
        else { return nil }
        var end = start + 5
        guard end == text.count || text[end] == 0x0A || text[end] == 0x0D else { return nil }
        if end < text.count { end += text[end] == 0x0D && end + 1 < text.count && text[end + 1] == 0x0A ? 2 : 1 }
        return (text[start + 4], end - start)
    }

    /// Where line `line` of the file starts, `text[from...]` being line `firstLine`; an error when
    /// the file is shorter or the line starts inside a quoted field.
    static func startOfLine(_ line: Int, in text: UnsafeBufferPointer<UInt8>, from start: Int, firstLine: Int) throws(CSVError) -> Int {
        guard start < text.count else { throw CSVError(line: 1, column: 1, problem: .emptyFile) }
        var current = firstLine, quoted = false, quoteLine = firstLine
        var i = start
        while i < text.count, current < line {
            let c = text[i]
            if c == 0x22 {
                quoted.toggle()
                if quoted { quoteLine = current }
            } else if c == 0x0A || c == 0x0D {
                if c == 0x0D, i + 1 < text.count, text[i + 1] == 0x0A { i += 1 }
                current += 1
            }
            i += 1
        }
        guard current == line, i < text.count else {
            throw CSVError(
                line: 1, column: 1,
                problem: .other(
                    "the file has \(current) line\(current == 1 ? "" : "s"); the header row \(line) is past its end"))
        }
        guard !quoted else {
            throw CSVError(
                line: line, column: 1,
                problem: .other(
                    "line \(line) is inside a quoted field that starts on line \(quoteLine); name the line the header starts on"))
        }
        return i
    }

    /// The line (counted from `start`, which is line 1) that is most likely the header when line 1
    /// looks like a title above it: for some delimiter, line 1 has one cell that is not blank,
    /// one or more lines of nothing but delimiters follow, and then a line of two or more cells
    /// that are not blank. `nil` when the file does not start so.
    static func likelyHeaderLine(_ text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var lines: [Slice<UnsafeBufferPointer<UInt8>>] = []
        var i = start, lineStart = start
        while i < text.count, lines.count < 12, i - start < 1 << 16 {
            let c = text[i]
            if c == 0x0A || c == 0x0D {
                lines.append(text[lineStart..<i])
                if c == 0x0D, i + 1 < text.count, text[i + 1] == 0x0A { i += 1 }
                lineStart = i + 1
            }
            i += 1
        }
        if lineStart < text.count, lines.count < 12 { lines.append(text[lineStart..<min(text.count, lineStart + (1 << 16))]) }
        guard lines.count >= 3 else { return nil }
        for delimiter in CSVFormat.delimiters {
            func filled(_ line: Slice<UnsafeBufferPointer<UInt8>>) -> Int {
                line.split(separator: delimiter, omittingEmptySubsequences: false)
                    .filter { $0.contains { $0 != 0x20 && $0 != 0x09 && $0 != 0x22 } }.count
            }
            guard filled(lines[0]) == 1 else { continue }
            var k = 1
            while k < lines.count, filled(lines[k]) == 0 { k += 1 }
            if k > 1, k < lines.count, filled(lines[k]) >= 2 { return k + 1 }
        }
        return nil
    }

    /// `input` (after a mark of `skipping` bytes) decoded from `encoding` to UTF-8, or the error
    /// that says where it is not text in that encoding.
    static func decoded(_ input: [UInt8], _ encoding: TextEncoding, skipping: Int) throws(CSVError) -> [UInt8] {
        let body = skipping == 0 ? input : Array(input[skipping...])
        do {
            return try encoding.decode(body)
        } catch {
            // The line of the byte that failed, counting line feeds in any ASCII-compatible
            // encoding and in UTF-16 alike (a zero byte beside each).
            let upTo = body.prefix(error.offset)
            let line = upTo.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
            throw CSVError(line: line, column: 1, problem: .notInEncoding(encoding.name, byte: skipping + error.offset))
        }
    }

    /// Whether `input` starts as a workbook: a ZIP archive (`.xlsx`, `.ods`) or an OLE2 compound
    /// file (a legacy `.xls`).
    package static func isWorkbook(_ input: [UInt8]) -> Bool {
        input.starts(with: [0x50, 0x4B, 0x03, 0x04]) || input.starts(with: [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1])
    }

    /// Why `input` is not a table of text any encoding read here holds, when its first bytes say
    /// so: a UTF-32 file (by its mark, or by the three zero bytes beside each ASCII character), a
    /// workbook (a ZIP archive, or the compound file of a legacy .xls), or a NUL byte in a file
    /// that is not UTF-16 — each named with what it is and what to do, where reading on would
    /// give garbled cells or a row count that says nothing.
    static func notATextTable(_ input: [UInt8]) -> CSVError? {
        let head = input.prefix(1 << 16)
        func at(_ offset: Int, _ problem: String) -> CSVError {
            CSVError(line: head.prefix(offset).reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }, column: 1, problem: .other(problem))
        }
        func utf32(_ how: String) -> String {
            "the file is UTF-32 text (\(how)), which is not read here: save it as UTF-8 (or UTF-16), e.g. iconv -f UTF-32 -t UTF-8"
        }
        if head.starts(with: [0xFF, 0xFE, 0x00, 0x00]) || head.starts(with: [0x00, 0x00, 0xFE, 0xFF]) {
            return at(0, utf32("its byte order mark says so"))
        }
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            return at(
                0,
                "the file is a ZIP archive — an .xlsx or .ods workbook? Save the sheet as CSV (UTF-8) from the "
                    + "spreadsheet program and sort that")
        }
        if head.starts(with: [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) {
            return at(
                0,
                "the file is an OLE compound file — a legacy Excel workbook (.xls), or an .xlsx saved with a password "
                    + "to open it — not CSV text: read it as a workbook (trellis sort reads .xls; in Swift, Workbook(bytes:)), "
                    + "or save the sheet as CSV UTF-8 from the spreadsheet program")
        }
        guard let firstZero = head.firstIndex(of: 0) else { return nil }
        if TextEncoding.byteOrderMark(of: head).map({ $0.encoding != .utf8 }) == true || utf16WithoutMark(Array(head.prefix(4096))) != nil {
            return nil
        }
        // Four bytes a character, three of them zero beside ASCII.
        let groups = head.count / 4
        if groups >= 2 {
            var little = 0, big = 0
            for g in 0..<groups {
                let b = head.startIndex + g * 4
                if head[b + 1] == 0, head[b + 2] == 0, head[b + 3] == 0 { little += 1 }
                if head[b] == 0, head[b + 1] == 0, head[b + 2] == 0 { big += 1 }
            }
            if little * 10 >= groups * 9 || big * 10 >= groups * 9 { return at(0, utf32("four bytes a character, without a byte order mark")) }
        }
        return at(
            firstZero,
            "byte \(firstZero + 1) of the file is a NUL (0x00), which no text holds: the file is not a table of "
                + "text (a binary file?), or UTF-16 without its byte order mark (--encoding utf-16le or utf-16be)")
    }

    /// The error of a file that is text in `encoding` but for its last character, cut off in the
    /// middle (a copy or a download that stopped): where, and what to do. `nil` otherwise.
    static func cutShort(_ input: [UInt8], _ encoding: TextEncoding) -> CSVError? {
        for cut in 1...3 where input.count > cut {
            let whole = Array(input.dropLast(cut))
            guard (try? encoding.decode(whole)) != nil else { continue }
            // The bytes left over must begin a character (a lead byte), not be any bytes at all.
            let lead = input[input.count - cut]
            let begins = encoding == .utf8 ? lead >= 0xC2 && lead <= 0xF4 : lead >= 0x81 && lead <= 0xFE
            guard begins else { return nil }
            let line = whole.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
            let lineStart = whole.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
            let column = ((try? encoding.decode(Array(whole[lineStart...]))).map { String(decoding: $0, as: UTF8.self).count } ?? 0) + 1
            let name = encoding == .utf8 ? "UTF-8" : encoding == .gbk ? "GBK" : "GB18030 (or GBK)"
            return CSVError(
                line: line, column: column,
                problem: .other(
                    "the file ends in the middle of a character (byte \(whole.count + 1) of \(input.count), "
                        + String(format: "0x%02X", lead) + "): it is \(name) text cut short — a copy or download that stopped? "
                        + "Get the whole file again, or remove its incomplete last line"))
        }
        return nil
    }

    /// UTF-16 without a byte order mark, told by its zero bytes, which text in any other encoding
    /// read here does not have: in the first 4 KB, the high byte of every ASCII character — the
    /// delimiters, line breaks and digits of a table, a fifth of the characters at least — is
    /// zero, at odd offsets (little-endian) or even ones (big-endian), and zeros on the other side
    /// are rare (U+4E00 一 has one).
    static func utf16WithoutMark(_ input: [UInt8]) -> TextEncoding? {
        let sample = input.prefix(4096)
        guard sample.count >= 4 else { return nil }
        var evenZeros = 0, oddZeros = 0
        for (i, byte) in sample.enumerated() where byte == 0 {
            if i % 2 == 0 { evenZeros += 1 } else { oddZeros += 1 }
        }
        let characters = sample.count / 2
        // A line break, where there is one, must be a UTF-16 one: 0A 00 at an even offset
        // (little-endian) or 00 0A at an odd one — not a byte of ASCII beside a stray zero.
        let bytes = Array(sample)
        let feeds = bytes.indices.filter { bytes[$0] == 0x0A }
        func breaks(littleEndian: Bool) -> Bool {
            feeds.isEmpty
                || feeds.contains { i in
                    littleEndian ? i % 2 == 0 && i + 1 < bytes.count && bytes[i + 1] == 0 : i % 2 == 1 && bytes[i - 1] == 0
                }
        }
        if oddZeros * 5 >= characters && evenZeros * 4 <= oddZeros && breaks(littleEndian: true) { return .utf16LittleEndian }
        if evenZeros * 5 >= characters && oddZeros * 4 <= evenZeros && breaks(littleEndian: false) { return .utf16BigEndian }
        return nil
    }

    /// The encoding a file that is neither UTF-8 nor GB18030 nor GBK most likely is: the first of
    /// Shift_JIS, Big5 and Windows-1252 it is wholly text in.
    static func likelyEncoding(_ input: [UInt8]) -> TextEncoding? {
        // Whole lines of the start: a character cut at the end would fail every encoding.
        var sample = Array(input.prefix(1 << 16))
        if sample.count < input.count, let lastFeed = sample.lastIndex(of: 0x0A) { sample.removeSubrange((lastFeed + 1)...) }
        return [TextEncoding.shiftJIS, .big5, .windows1252].first { (try? $0.decode(sample)) != nil }
    }

    /// Where the records of `text` end: after the line break that ends the last line holding
    /// anything, when only line breaks follow it — the blank lines an export ends with — and only
    /// in a table of two or more columns (in a one-column table an empty line is an empty cell).
    static func endOfRecords(_ text: UnsafeBufferPointer<UInt8>, from start: Int = 0, delimiter: UInt8) -> Int {
        var end = text.count
        while end > start, text[end - 1] == 0x0A || text[end - 1] == 0x0D { end -= 1 }
        guard end > start, end < text.count else { return text.count }
        // The line break of the last line: CRLF, LF or CR.
        let lastBreak = text[end] == 0x0D && end + 1 < text.count && text[end + 1] == 0x0A ? end + 2 : end + 1
        guard lastBreak < text.count else { return text.count }
        // A header of one column keeps its empty lines as cells.
        var quoted = false
        for c in text[start...] {
            if c == 0x22 { quoted.toggle() } else if !quoted, c == delimiter { return lastBreak } else if !quoted, c == 0x0A || c == 0x0D { break }
        }
        return text.count
    }

    /// Where a footer starts: the start of `line` (counted from `start`, the header's line 1), when
    /// it and every line after it up to `end` are records of another width than the header's —
    /// at most 100 of them — and not the whole body; `nil` otherwise.
    static func footerStart(
        _ text: UnsafeBufferPointer<UInt8>, from start: Int, line: Int, upTo end: Int, delimiter: UInt8
    ) throws(CSVError) -> Int? {
        guard line > 2 else { return nil }
        let footer = try startOfLine(line, in: text, from: start, firstLine: 1)
        guard footer < end else { return nil }
        // Each record's field count, quotes respected.
        func fields(from i: inout Int, to end: Int) -> Int {
            var count = 1, quoted = false
            while i < end {
                let c = text[i]
                if c == 0x22 {
                    quoted.toggle()
                } else if !quoted, c == delimiter {
                    count += 1
                } else if !quoted, c == 0x0A || c == 0x0D {
                    if c == 0x0D, i + 1 < end, text[i + 1] == 0x0A { i += 1 }
                    i += 1
                    return count
                }
                i += 1
            }
            return count
        }
        var i = start
        let width = fields(from: &i, to: end)
        i = footer
        var lines = 0
        while i < end {
            if fields(from: &i, to: end) == width { return nil }
            lines += 1
            if lines > 100 { return nil }
        }
        // One short line at the end is more likely a record cut short than a footer, unless it
        // is set apart: a blank line first, or a rule (`-----`, `=====`, `#…`).
        var firstEnd = footer
        while firstEnd < end, text[firstEnd] != 0x0A, text[firstEnd] != 0x0D { firstEnd += 1 }
        let first = text[footer..<firstEnd]
        let blank = first.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == delimiter }
        let rule = !first.isEmpty && (first.first == UInt8(ascii: "#") || first.allSatisfy { "-=*_ ".utf8.contains($0) || $0 == delimiter })
        return lines >= 2 || blank || rule ? footer : nil
    }
}
