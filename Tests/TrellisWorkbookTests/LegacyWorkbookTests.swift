import Foundation
import Testing
import TrellisGrid
import TrellisTestSupport

@testable import TrellisWorkbook

/// Legacy `.xls` workbooks (BIFF8 in a compound file), as LibreOffice saves them with its
/// "MS Excel 97" filter (`Fixtures/README.md`).
@Suite("Reading legacy .xls workbooks")
struct LegacyWorkbookTests {
    @Test("every cell of a 400-row sheet reads as LibreOffice shows it: shared strings over several records, formats, formulas' values")
    func shownAsLibreOffice() throws {
        let workbook = try WorkbookReadingTests.workbook("legacy-names.xls")
        #expect(workbook.kind == .xls)
        #expect(workbook.sheets.map(\.name) == ["名单", "空表"])
        #expect(workbook.activeSheet == 0)
        let rows = try WorkbookReadingTests.shownRows(workbook)
        let expected = try SheetTableTests.libreOfficeRows("legacy-names-shown.csv")
        #expect(rows.count == expected.count)
        #expect(rows.count == 402)
        for (k, (ours, theirs)) in zip(rows, expected).enumerated() {
            // Column G holds truth values, which LibreOffice saves as formulas (TRUE()) and then
            // shows as 1 and 0; Excel shows a formula's truth value as TRUE or FALSE.
            var theirs = theirs
            if k > 0, theirs.count > 6 { theirs[6] = ["1": "TRUE", "0": "FALSE"][theirs[6]] ?? theirs[6] }
            #expect(ours == theirs, "row \(k + 1)")
        }
        let cells = try workbook.read(sheet: 0)
        let first = cells.rows[1].cells
        #expect(first[3].value == .decimal(51258.77))
        #expect(first[4].shown == "63.1%")
        #expect(first[5].value == .date(ISO8601DateFormatter().date(from: "2024-11-20T00:00:00Z")!))
        #expect(first[6].value == .boolean(true))
        let total = try #require(cells.rows.last)
        #expect(total.cells.map(\.shown) == ["合计", "20,222,874.00", "正", "TRUE", "#DIV/0!"])
        #expect(total.cells[4].value == .missing)
        #expect(try workbook.read(sheet: 1).rows.isEmpty)
    }

    @Test("a legacy workbook sorts as a table, its sheet's rows numbered as the sheet numbers them")
    func table() throws {
        let read = try WorkbookReadingTests.workbook("legacy-names.xls").table(sheet: 0)
        #expect(read.headerRow == 1)
        #expect(read.table.rowCount == 401)
        #expect(read.table.columns.map(\.type) == [.text, .text, .text, .decimal, .decimal, .date, .boolean, .text])
        #expect(read.rowNumbers.first == 2)
        #expect(read.rowNumbers.last == 402)
    }

    /// The compound file with the bytes at `offset` changed.
    static func patched(_ bytes: [UInt8], at offset: Int, _ new: [UInt8]) -> [UInt8] {
        var bytes = bytes
        bytes.replaceSubrange(offset..<offset + new.count, with: new)
        return bytes
    }

    @Test("an encrypted, older (BIFF5), damaged or foreign compound file is named, never trusted")
    func refused() throws {
        let original = try ZipArchiveTests.bytes("libreoffice-sales.xls")
        func problem(_ bytes: [UInt8]) -> String? {
            do {
                let workbook = try Workbook(bytes: bytes)
                _ = try workbook.read(sheet: 1)
                return nil
            } catch { return error.problem }
        }
        // The globals' BOF record (BIFF8, a workbook's globals), and the record after it.
        let bof: [UInt8] = [0x09, 0x08, 0x10, 0x00, 0x00, 0x06, 0x05, 0x00]
        let at = try #require(original.indices.first { original[$0...].starts(with: bof) })
        #expect(problem(Self.patched(original, at: at + 20, [0x2F, 0x00]))?.hasPrefix("it is an encrypted workbook") == true)
        #expect(problem(Self.patched(original, at: at + 4, [0x00, 0x05]))?.hasPrefix("its workbook stream is not BIFF8") == true)
        // The stream renamed, as a Word document's would be named otherwise.
        let name = Array("Workbook".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let entry = try #require(original.indices.first { original[$0...].starts(with: name) })
        let foreign = problem(Self.patched(original, at: entry, Array("W".utf16).flatMap { [UInt8($0), 0] } + [0x78, 0x00]))
        #expect(foreign?.contains("without a 'Workbook' stream") == true, "\(String(describing: foreign))")
        // An .xlsx saved with a password is a compound file holding an EncryptedPackage.
        var encrypted = original
        let directoryName: [UInt8] = Array("EncryptedPackage".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } + [0, 0]
        encrypted.replaceSubrange(entry..<entry + directoryName.count, with: directoryName)
        encrypted[entry + 0x40] = UInt8(directoryName.count)
        #expect(
            problem(encrypted)?.hasPrefix("it is an encrypted workbook (it has a password to open it)") == true, "\(String(describing: problem(encrypted)))")
        // Cut anywhere: an error, never a trap — or, cut where only unused bytes of the last
        // sector were, the same rows.
        let rows = try WorkbookReadingTests.shownRows(try Workbook(bytes: original), sheet: 1)
        for cut in stride(from: 8, to: original.count, by: 389) {
            let bytes = Array(original.prefix(cut))
            let same = (try? WorkbookReadingTests.shownRows(try Workbook(bytes: bytes), sheet: 1)) == rows
            #expect(problem(bytes) != nil || same, "cut at \(cut)")
        }
    }

    @Test("fuzz: a legacy workbook changed anywhere reads as rows or an error, never a trap or a hang", arguments: 1...4)
    func fuzz(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let original = try ZipArchiveTests.bytes("libreoffice-sales.xls")
        for _ in 0..<120 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let at = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes[at] = UInt8.random(in: 0...255, using: &random)
                case 1: bytes[at] = [0x00, 0xFF, 0xFE, 0x3C, 0x2F, 0x0A][Int.random(in: 0..<6, using: &random)]
                default: bytes.replaceSubrange(at..<min(bytes.count, at + 4), with: [0xFF, 0xFF, 0xFF, 0xFF].prefix(min(bytes.count, at + 4) - at))
                }
            }
            do {
                let workbook = try Workbook(bytes: bytes)
                for sheet in workbook.sheets.indices where workbook.sheets[sheet].notATable == nil {
                    _ = try? workbook.read(sheet: sheet)
                }
            } catch {
                #expect(!error.description.isEmpty)
            }
        }
    }

    @Test("RK numbers: integers and doubles, each perhaps divided by 100")
    func rk() {
        #expect(XLSReader.rkNumber(UInt32(bitPattern: Int32(12345) << 2) | 0x02) == 12345)
        #expect(XLSReader.rkNumber(UInt32(bitPattern: Int32(-7) << 2) | 0x03) == -0.07)
        let high = UInt32(truncatingIfNeeded: (1.5).bitPattern >> 32)
        #expect(XLSReader.rkNumber(high) == 1.5)
        #expect(XLSReader.rkNumber(high | 0x01) == 0.015)
    }
}
