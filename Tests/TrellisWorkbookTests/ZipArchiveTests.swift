import Foundation
import Testing
import TrellisTestSupport
import TrellisWorkbook

/// The ZIP packages workbooks are, as the programs write them (`Fixtures/README.md`).
@Suite("ZIP archives")
struct ZipArchiveTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func bytes(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: fixtures.appendingPathComponent(name))) }

    @Test(
        "the parts of workbooks written by openpyxl, xlsxwriter and LibreOffice are listed and read, stored and deflated",
        arguments: [
            ("openpyxl-scores.xlsx", "xl/workbook.xml", "<sheet "),
            ("pandas-xlsxwriter-scores.xlsx", "xl/worksheets/sheet1.xml", "<sheetData>"),
            ("libreoffice-scores.xlsx", "xl/worksheets/sheet1.xml", "SUM(C2:D2)"),
            ("openpyxl-scores.ods", "content.xml", "table:table-row"),
        ])
    func workbooks(file: String, part: String, contains: String) throws {
        let archive = try ZipArchive(bytes: try Self.bytes(file))
        #expect(ZipArchive.looksLikeZip(archive.bytes))
        #expect(archive.entries.contains { $0.name == "[Content_Types].xml" } || file.hasSuffix(".ods"))
        let text = String(decoding: try #require(try archive.read(part)), as: UTF8.self)
        #expect(text.contains(contains), "\(text.prefix(300))")
        // Every part reads and checks out.
        for entry in archive.entries where !entry.isDirectory {
            #expect(try archive.read(entry).count == entry.uncompressedSize)
        }
        #expect(try archive.read("no/such/part.xml") == nil)
    }

    @Test("an ODF package's first part is its mimetype, stored")
    func odfMimetype() throws {
        let archive = try ZipArchive(bytes: try Self.bytes("openpyxl-scores.ods"))
        let first = try #require(archive.entries.first)
        #expect(first.name == "mimetype" && first.method == 0)
        #expect(String(decoding: try archive.read(first), as: UTF8.self) == "application/vnd.oasis.opendocument.spreadsheet")
    }

    @Test("ZIP64 entries and UTF-8 names, as Python's zipfile writes them")
    func zip64() throws {
        let archive = try ZipArchive(bytes: try Self.bytes("python-zip64.zip"))
        #expect(archive.entries.map(\.name) == ["一.txt", "b.txt"])
        #expect(String(decoding: try #require(try archive.read("一.txt")), as: UTF8.self) == String(repeating: "成绩\n", count: 100))
        #expect(try archive.read("b.txt") == Array("stored".utf8))
    }

    @Test("a file that is not a ZIP, cut short, or damaged is an error that says so; a part past the limit is refused")
    func damaged() throws {
        #expect(throws: ZipError.self) { try ZipArchive(bytes: Array("地区,城市\n华东,上海\n".utf8)) }
        let whole = try Self.bytes("openpyxl-scores.xlsx")
        // Cut short: the directory at the end is gone.
        #expect(throws: ZipError.self) { try ZipArchive(bytes: Array(whole.prefix(whole.count / 2))) }
        // A byte of a deflated part changed: its checksum or its inflating says so.
        let archive = try ZipArchive(bytes: whole)
        let entry = try #require(archive.entry(named: "xl/worksheets/sheet1.xml"))
        var flipped = whole
        flipped[entry.localHeaderOffset + 30 + entry.name.utf8.count + entry.compressedSize / 2] ^= 0x5A
        let damaged = try ZipArchive(bytes: flipped)
        #expect(throws: ZipError.self) { try damaged.read(entry) }
        do {
            _ = try damaged.read(entry)
        } catch {
            #expect(error.entry == "xl/worksheets/sheet1.xml")
        }
        #expect(throws: ZipError.self) { try archive.read(entry, limit: 100) }
        // A stored part's byte changed: its checksum says so.
        var zip = try Self.bytes("python-zip64.zip")
        let stored = try #require(try ZipArchive(bytes: zip).entry(named: "b.txt"))
        let at = try #require(zip.indices.first { zip[$0...].starts(with: Array("stored".utf8)) })
        zip[at] = UInt8(ascii: "S")
        do {
            _ = try ZipArchive(bytes: zip).read(stored)
            Issue.record("a changed stored part was read")
        } catch {
            #expect(error.problem.contains("checksum"), "\(error)")
        }
    }

    @Test("fuzz: bytes of a workbook changed or cut anywhere give an archive or an error, never a trap or a hang", arguments: 1...4)
    func fuzz(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(seed))
        let whole = try Self.bytes(["openpyxl-scores.xlsx", "openpyxl-scores.ods", "python-zip64.zip", "libreoffice-scores.xlsx"][seed - 1])
        for _ in 0..<300 {
            var bytes = whole
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                let at = Int.random(in: 0..<bytes.count, using: &random)
                bytes[at] = UInt8.random(in: 0...255, using: &random)
            }
            if Bool.random(using: &random) { bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random))) }
            guard let archive = try? ZipArchive(bytes: bytes) else { continue }
            for entry in archive.entries { _ = try? archive.read(entry, limit: 1 << 20) }
        }
    }
}
