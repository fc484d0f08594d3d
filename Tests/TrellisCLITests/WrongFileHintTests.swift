import Foundation
import Testing

@testable import TrellisCLI

@Suite("Wrong-file hints")
struct WrongFileHintTests {
    typealias Sniffer = FileKindSniffer

    @Test("a file's kind by its first bytes: databases, workbooks, layout specs, other JSON, tables")
    func kinds() {
        #expect(Sniffer.kind(of: Data("SQLite format 3\u{0}rest".utf8)) == .sqlite)
        #expect(Sniffer.kind(of: Data([0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1, 0])) == .legacyWorkbook)
        #expect(Sniffer.kind(of: Data([0x50, 0x4B, 0x03, 0x04] + Array("....[Content_Types].xml".utf8))) == .zipWorkbook)
        #expect(Sniffer.kind(of: Data([0x50, 0x4B, 0x03, 0x04] + Array("mimetypeapplication/vnd.oasis.opendocument.spreadsheet".utf8))) == .zipWorkbook)
        #expect(Sniffer.kind(of: Data([0x50, 0x4B, 0x03, 0x04] + Array("photos/a.jpg".utf8))) == .other, "a ZIP file of something else")
        #expect(Sniffer.kind(of: Data("\u{FEFF}  {\"collectionView\": {}, \"layout\": {}}".utf8)) == .layoutSpec)
        #expect(Sniffer.kind(of: Data("[{\"a\": 1}]".utf8)) == .json)
        #expect(Sniffer.kind(of: Data("名字\t分数\n王\t1\n".utf8)) == .delimited)
        #expect(Sniffer.kind(of: Data("just words\n".utf8)) == .other)
        #expect(Sniffer.kind(of: Data()) == .other)
    }

    @Test("each command names the one that takes the file; its own kind gets no hint")
    func hints() {
        #expect(Sniffer.hint(command: "sort", path: "a.csv", kind: .delimited) == nil)
        #expect(Sniffer.hint(command: "layout", path: "spec.json", kind: .layoutSpec) == nil)
        #expect(
            Sniffer.hint(command: "view", path: "my spec.json", kind: .layoutSpec)
                == "my spec.json is a layout spec (JSON), not a table: trellis layout 'my spec.json' draws it")
        #expect(Sniffer.hint(command: "layout", path: "b.xls", kind: .legacyWorkbook)?.contains("trellis view b.xls shows it") == true)
    }
}
