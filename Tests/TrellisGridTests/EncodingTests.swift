import Foundation
import Testing
import TrellisTestSupport
import TrellisText

@testable import TrellisGrid

/// Files in the encodings and with the delimiters spreadsheet programs write. Byte layouts are
/// built here from the encodings' own tables (the C library's), as Excel would write them:
/// "CSV (逗号分隔)" in GBK, "CSV UTF-8" with a byte order mark, "Unicode 文本" in UTF-16LE with a
/// mark and tabs.
@Suite("Encodings and delimiters")
struct EncodingTests {
    static let groups = "组号,组长,分数,备注\r\n组1,张伟,88.5,\r\n组2,王芳,92,\"优秀,第一\"\r\n组10,李娜,75.25,\r\n平均,,85.25,\r\n"

    static func encoded(_ text: String, _ encoding: TextEncoding, mark: Bool = false) throws -> [UInt8] {
        (mark ? encoding.byteOrderMark : []) + (try encoding.encode(Array(text.utf8)))
    }

    @Test("every encoding reads its names and carries text there and back", arguments: TextEncoding.all)
    func roundTrip(encoding: TextEncoding) throws {
        #expect(TextEncoding(name: encoding.name) == encoding)
        #expect(TextEncoding(name: encoding.name.uppercased().replacingOccurrences(of: "-", with: "_")) == encoding)
        let sample: String
        switch encoding {
        case .big5: sample = "組號,分數\n組一,九十\n"
        case .shiftJIS: sample = "名前,点数\nテスト,８８\n"
        case .windows1252: sample = "Name,Note\nJosé,€5 – ok\n"
        case .latin1: sample = "Name,Note\nJosé,½ ü\n"
        case .gbk: sample = "组号,备注\n組一,平均 ｘ\n"
        default: sample = "组号,备注\n組一,😀 €\n"
        }
        let bytes = try encoding.encode(Array(sample.utf8))
        #expect(try encoding.decode(bytes) == Array(sample.utf8))
        #expect(encoding.roundTrips(bytes))
    }

    @Test("names: aliases, case and punctuation, and nothing else")
    func names() {
        #expect(TextEncoding(name: "UTF8") == .utf8 && TextEncoding(name: "cp936") == .gbk && TextEncoding(name: "GB2312") == .gbk)
        #expect(TextEncoding(name: "sjis") == .shiftJIS && TextEncoding(name: "utf-16") == .utf16LittleEndian)
        #expect(TextEncoding(name: "cp1252") == .windows1252 && TextEncoding(name: "ISO-8859-1") == .latin1)
        #expect(TextEncoding(name: "ebcdic") == nil && TextEncoding(name: "") == nil)
    }

    @Test("a conversion stops where the text stops being text, and says where and what")
    func errors() throws {
        #expect(throws: TextEncodingError(encoding: .gb18030, offset: 2, decoding: true)) {
            try TextEncoding.gb18030.decode([0x41, 0x42, 0xFF, 0x43])
        }
        #expect(throws: TextEncodingError(encoding: .utf8, offset: 1, decoding: true)) { try TextEncoding.utf8.decode([0x41, 0xC0]) }
        let error = try #require(throws: TextEncodingError.self) { try TextEncoding.latin1.encode(Array("ab组".utf8)) }
        #expect(error.offset == 2 && error.character == "组" && error.description == "latin1 has no '组' (U+7EC4)")
    }

    @Test(
        "a large text is decoded in two halves at once, with the same result and the error at its place in the whole",
        arguments: [TextEncoding.gb18030, .utf16LittleEndian, .utf16BigEndian])
    func halves(encoding: TextEncoding) throws {
        let line = try encoding.encode(Array("组号,平均,😀,第十组,x\n".utf8))
        var bytes: [UInt8] = []
        bytes.reserveCapacity((1 << 22) + 4 * line.count)
        while bytes.count < (1 << 22) + line.count { bytes += line }
        let decoded = try encoding.decode(bytes)
        #expect(decoded.count == Array("组号,平均,😀,第十组,x\n".utf8).count * (bytes.count / line.count))
        #expect(decoded.starts(with: Array("组号,平均".utf8)) && decoded.suffix(2) == [0x78, 0x0A])
        // The comma before the last line's x becomes a byte no character has (GB18030) or a
        // high surrogate with no low one after it (UTF-16).
        let lastLine = bytes.count - (bytes.count % line.count == 0 ? line.count : bytes.count % line.count)
        let unit = encoding == .gb18030 ? 1 : 2
        let comma = lastLine + line.count - 3 * unit
        var broken = bytes
        switch encoding {
        case .gb18030: broken[comma] = 0xFF
        case .utf16LittleEndian: (broken[comma], broken[comma + 1]) = (0x00, 0xD8)
        default: (broken[comma], broken[comma + 1]) = (0xD8, 0x00)
        }
        do {
            _ = try encoding.decode(broken)
            Issue.record("\(encoding): the broken text decoded")
        } catch {
            #expect(error.offset == comma, "\(encoding): \(error.offset) against \(comma) in \(bytes.count)")
        }
    }

    @Test("a stream encoder carries a character cut between two pieces over to the next", arguments: [1, 2, 3, 5, 7])
    func streaming(pieceSize: Int) throws {
        let text = Array("平均,😀,x\n组10".utf8)
        for encoding in [TextEncoding.gb18030, .utf16BigEndian, .utf8] {
            var encoder = try TextEncoding.StreamEncoder(to: encoding)
            var out: [UInt8] = []
            var start = 0
            while start < text.count {
                let end = min(text.count, start + pieceSize)
                try text[start..<end].withUnsafeBufferPointer { try encoder.encode($0, final: end == text.count, into: &out) }
                start = end
            }
            #expect(out == (try encoding.encode(text)), "\(encoding) in pieces of \(pieceSize)")
        }
    }

    @Test(
        "a file's encoding is found: its mark, UTF-8, UTF-16 by its zero bytes, else GB18030",
        arguments: [
            ("gbk", TextEncoding.gbk, false, TextEncoding.gb18030, true, false),
            ("gb18030", .gb18030, false, .gb18030, true, false),
            ("utf-8 with a mark", .utf8, true, .utf8, false, true),
            ("utf-8", .utf8, false, .utf8, false, false),
            ("utf-16le with a mark", .utf16LittleEndian, true, .utf16LittleEndian, false, true),
            ("utf-16be with a mark", .utf16BigEndian, true, .utf16BigEndian, false, true),
            ("utf-16le without one", .utf16LittleEndian, false, .utf16LittleEndian, true, false),
        ])
    func detection(name: String, written: TextEncoding, mark: Bool, read: TextEncoding, guessed: Bool, marked: Bool) throws {
        let bytes = try Self.encoded(Self.groups, written, mark: mark)
        let table = try CSV.table(bytes: bytes)
        #expect(table.csvFormat.encoding == read && table.csvFormat.encodingWasGuessed == guessed, "\(name)")
        #expect(table.csvFormat.byteOrderMark == marked && table.csvFormat.delimiter == 0x2C)
        #expect(table.columns.map(\.identifier) == ["组号", "组长", "分数", "备注"])
        #expect(table.text(row: 1, column: 3) == "优秀,第一" && table.value(row: 2, column: 2) == .decimal(75.25))
        #expect(table.columns[2].type == .decimal)
    }

    @Test("a forced encoding reads what detection would read as another, and a wrong one says where")
    func forced() throws {
        let big5 = try Self.encoded("組號,分數\n組一,88\n組二,92\n", .big5)
        let guessed = try CSV.table(bytes: big5)
        #expect(
            guessed.csvFormat.encoding == .gb18030 && guessed.columns[0].identifier != "組號",
            "Big5 bytes are GB18030 text too: without --encoding they read as something else")
        let table = try CSV.table(bytes: big5, encoding: .big5)
        #expect(table.columns.map(\.identifier) == ["組號", "分數"] && !table.csvFormat.encodingWasGuessed)
        let error = try #require(throws: CSVError.self) { try CSV.table(bytes: Array("a,b\n组,1\n".utf8), encoding: .shiftJIS) }
        #expect(error.line == 2, "\(error)")
        if case .notInEncoding(let encoding, _) = error.problem { #expect(encoding == "shift_jis") } else { Issue.record("\(error)") }
    }

    @Test(
        "the delimiter is the one that splits the header and every line alike",
        arguments: [
            ("a;b;c\n1,5;2;3\n4;5,25;6\n", UInt8(0x3B), 3),
            ("a\tb\n1,2\t3\n", 0x09, 2),
            ("a|b|c\nx|y|z\n", 0x7C, 3),
            ("a,b\n\"x;y\",2\n", 0x2C, 2),
            ("a;b,c\n1;2,3\n", 0x2C, 2),  // both split every line alike: the comma, as RFC 4180
            ("only\nvalue\n", 0x2C, 1),
            ("a;b\n1;2;3\n", 0x2C, 1),  // no candidate splits every line alike: commas, as RFC 4180
        ])
    func delimiters(text: String, delimiter: UInt8, columns: Int) throws {
        #expect(CSVFormat.detectDelimiter(Array(text.utf8)) == delimiter, "\(text)")
        if let table = try? CSV.table(bytes: Array(text.utf8)) {
            #expect(table.columns.count == columns && table.csvFormat.delimiter == delimiter)
            #expect(table.csvFormat.delimiterWasDetected == (delimiter != 0x2C))
        } else {
            #expect(columns == 1 && delimiter == 0x2C, "only a file no delimiter fits may be refused")
        }
    }

    @Test("a forced delimiter wins, and names are as a person writes them")
    func forcedDelimiter() throws {
        let table = try CSV.table(bytes: Array("a;b,c\n1;2,3\n".utf8), delimiter: 0x3B)
        #expect(table.columns.map(\.identifier) == ["a", "b,c"])
        #expect(CSVFormat.delimiter(named: "tab") == 0x09 && CSVFormat.delimiter(named: "\\t") == 0x09)
        #expect(CSVFormat.delimiter(named: ";") == 0x3B && CSVFormat.delimiter(named: "::") == nil)
        #expect(CSVFormat.name(ofDelimiter: 0x09) == "tab" && CSVFormat.name(ofDelimiter: 0x7C) == "|")
    }

    @Test("Excel's \"Unicode 文本\": UTF-16LE with a mark, tab-separated, read whole", arguments: [0, 1 << 30])
    func unicodeText(splitAbove: Int) throws {
        var text = Self.groups.replacingOccurrences(of: ",", with: "\t").replacingOccurrences(of: "\"优秀\t第一\"", with: "优秀")
        for k in 0..<50 { text += "组\(k + 20)\t某\(k)\t\(k)\t\r\n" }
        let bytes = try Self.encoded(text, .utf16LittleEndian, mark: true)
        let table = try CSV.table(bytes: bytes, types: [:], splitAbove: splitAbove)
        #expect(
            table.csvFormat
                == CSVFormat(
                    encoding: .utf16LittleEndian, byteOrderMark: true, delimiter: 0x09, lineBreak: [0x0D, 0x0A],
                    encodingWasGuessed: false, delimiterWasDetected: true))
        #expect(table.rowCount == 54 && table.text(row: 53, column: 1) == "某49" && table.value(row: 1, column: 2) == .integer(92))
    }

    @Test(
        "blank lines after the last record are kept aside, not read as rows",
        arguments: [
            ("a,b\n1,2\n\n\n", 1, "\n\n"),
            ("a,b\r\n2,1\r\n1,3\r\n\r\n", 2, "\r\n"),
            ("a;b\n1;2\n\n", 1, "\n"),
            ("a,b\n1,2\n", 1, ""),
            ("a,b\n1,\"x\n\n\"\n\n", 1, "\n"),  // line breaks inside a quoted field are its own
            ("a\n1\n\n", 2, ""),  // one column: an empty line is an empty cell
        ])
    func trailingBlankLines(text: String, rows: Int, trailer: String) throws {
        let table = try CSV.table(bytes: Array(text.utf8))
        #expect(table.rowCount == rows && table.csvFormat.trailingLines == Array(trailer.utf8), "\(text.debugDescription)")
    }

    @Test("a blank line before the last record is still a row of the wrong length")
    func blankLineInside() {
        #expect(throws: CSVError(line: 3, column: 1, problem: .wrongFieldCount(found: 1, expected: 2))) {
            try CSV.table(bytes: Array("a,b\n1,2\n\n3,4\n".utf8))
        }
    }

    /// A sort in parts opens its output before it knows the file's encoding for sure: the output
    /// takes the encoding found as long as nothing was written to it, and refuses after.
    @Test("an output takes another encoding before anything is written to it, never after")
    func outputTakesEncodingBeforeWriting() throws {
        let output = TextOutput(encoding: .utf8)
        #expect(output.handOn(in: .gb18030) && output.encoding == .gb18030)
        output.write("张三,1\n")
        #expect(!output.handOn(in: .utf8), "something was written")
        try output.finish()
        #expect(output.collected == (try TextEncoding.gb18030.encode(Array("张三,1\n".utf8))))
        #expect(output.encoding == .gb18030)
        // Handed on already (a chunk flushed): refused as well.
        let flushed = TextOutput(encoding: .utf8)
        flushed.write(String(repeating: "a", count: TextOutput.chunkSize + 10))
        #expect(!flushed.handOn(in: .gb18030) && flushed.encoding == .utf8)
    }
}
