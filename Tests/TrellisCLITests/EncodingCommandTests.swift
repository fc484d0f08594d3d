import Foundation
import Testing
import TrellisCLI
import TrellisText

/// `trellis sort` on the files Chinese Excel, LibreOffice and other Windows locales write: read in
/// their own encoding and delimiter, written back the same, byte for byte.
@Suite("trellis sort in every encoding")
struct EncodingCommandTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/Encodings")

    /// A fixture, what reading it must find, and how to sort it.
    struct Fixture: CustomTestStringConvertible, Sendable {
        var file: String
        var encoding: TextEncoding
        var mark: Bool
        var delimiter: String
        /// Options the file needs (`--encoding` where detection cannot tell).
        var options: [String] = []
        var key: String
        var pin: String
        /// The first column, top to bottom, after sorting by `key` descending with `pin` at the bottom.
        var sorted: [String]
        var testDescription: String { file }
    }

    static let simplified = ["组2", "组1", "组10", "组3", "平均"]
    static let cases: [Fixture] = [
        Fixture(file: "libreoffice-utf-8.csv", encoding: .utf8, mark: false, delimiter: ",", key: "分数", pin: "组号=平均", sorted: simplified),
        Fixture(
            file: "libreoffice-gb18030.csv", encoding: .gb18030, mark: false, delimiter: ",", key: "分数", pin: "组号=平均",
            sorted: simplified),
        Fixture(
            file: "libreoffice-unicode.csv", encoding: .utf16LittleEndian, mark: true, delimiter: ",", key: "分数",
            pin: "组号=平均", sorted: simplified),
        Fixture(
            file: "libreoffice-unicode-tab.txt", encoding: .utf16LittleEndian, mark: true, delimiter: "\t", key: "分数",
            pin: "组号=平均", sorted: simplified),
        Fixture(
            file: "libreoffice-semicolon.csv", encoding: .utf8, mark: false, delimiter: ";", key: "分数", pin: "组号=平均",
            sorted: simplified),
        Fixture(file: "excel-csv-utf-8.csv", encoding: .utf8, mark: true, delimiter: ",", key: "分数", pin: "组号=平均", sorted: simplified),
        Fixture(
            file: "excel-csv-gbk.csv", encoding: .gb18030, mark: false, delimiter: ",", key: "分数", pin: "组号=平均",
            sorted: simplified),
        Fixture(
            file: "excel-csv-cp936-euro.csv", encoding: .gbk, mark: false, delimiter: ",", key: "分数", pin: "组号=平均",
            sorted: simplified),
        Fixture(
            file: "excel-unicode-text.txt", encoding: .utf16LittleEndian, mark: true, delimiter: "\t", key: "分数",
            pin: "组号=平均", sorted: simplified),
        Fixture(
            file: "excel-csv-big5.csv", encoding: .big5, mark: false, delimiter: ",", options: ["--encoding", "big5"],
            key: "分數", pin: "組號=平均", sorted: ["組2", "組1", "組10", "組3", "平均"]),
        Fixture(
            file: "excel-csv-shift_jis.csv", encoding: .shiftJIS, mark: false, delimiter: ",", options: ["--encoding", "sjis"],
            key: "点数", pin: "名前=平均", sorted: ["サンプル", "テスト", "例", "平均"]),
        Fixture(
            file: "excel-csv-windows-1252.csv", encoding: .windows1252, mark: false, delimiter: ";",
            options: ["--encoding", "windows-1252"], key: "Name", pin: "Name=Mean", sorted: ["Zoë", "José", "Anna", "Mean"]),
    ]

    func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-encodings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A scratch folder holding the fixture `file` as `name`, and the fixture's bytes.
    func scratch(with file: String, as name: String) throws -> (folder: URL, bytes: [UInt8]) {
        let folder = try scratch()
        let bytes = try [UInt8](Data(contentsOf: Self.fixtures.appendingPathComponent(file)))
        try Data(bytes).write(to: folder.appendingPathComponent(name))
        return (folder, bytes)
    }

    func run(_ arguments: [String], in folder: URL) -> (status: Int32, stdout: [UInt8], stderr: String) {
        var io = CommandIO(standardInput: { Data() }, currentDirectory: folder)
        let status = TrellisCommandLine.run(arguments, io: &io)
        return (status, io.stdoutBytes, io.stderr)
    }

    /// The records of `bytes` (a byte order mark left off) as byte strings: split at each line
    /// feed as `encoding` writes it (at an even offset in UTF-16), a carriage return before it
    /// dropped. These files hold no line break inside a field.
    static func records(_ bytes: [UInt8], _ fixture: Fixture) -> [[UInt8]] {
        let body = Array(bytes.dropFirst(fixture.mark ? fixture.encoding.byteOrderMark.count : 0))
        let (lineFeed, carriageReturn): ([UInt8], [UInt8]) =
            switch fixture.encoding {
            case .utf16LittleEndian: ([0x0A, 0x00], [0x0D, 0x00])
            case .utf16BigEndian: ([0x00, 0x0A], [0x00, 0x0D])
            default: ([0x0A], [0x0D])
            }
        var records: [[UInt8]] = [], start = 0, i = 0
        while i + lineFeed.count <= body.count {
            if Array(body[i..<(i + lineFeed.count)]) == lineFeed {
                var record = Array(body[start..<i])
                if record.count >= carriageReturn.count, Array(record.suffix(carriageReturn.count)) == carriageReturn {
                    record.removeLast(carriageReturn.count)
                }
                records.append(record)
                i += lineFeed.count
                start = i
            } else {
                i += lineFeed.count
            }
        }
        if start < body.count { records.append(Array(body[start...])) }
        return records
    }

    @Test("with no key the output is the file, byte for byte, in its own encoding, mark and delimiter", arguments: cases)
    func byteExact(fixture: Fixture) throws {
        let (folder, input) = try scratch(with: fixture.file, as: "in")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = run(["sort", "in", "--format", "csv", "-o", "out"] + fixture.options, in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let output = try [UInt8](Data(contentsOf: folder.appendingPathComponent("out")))
        #expect(output == input, "\(fixture.file)")
        let toStandardOutput = run(["sort", "in", "--format", "csv"] + fixture.options, in: folder)
        #expect(toStandardOutput.stdout == input)
    }

    @Test("a sort reorders the file's records and changes none of them; the 平均 row stays at the bottom", arguments: cases)
    func sortedInPlace(fixture: Fixture) throws {
        let (folder, input) = try scratch(with: fixture.file, as: "in")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = run(
            ["sort", "in", "--by", fixture.key + ":desc", "--pin-bottom", fixture.pin, "--format", "csv"] + fixture.options,
            in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Array(result.stdout.prefix(fixture.mark ? fixture.encoding.byteOrderMark.count : 0)) == (fixture.mark ? fixture.encoding.byteOrderMark : []))
        let before = Self.records(input, fixture), after = Self.records(result.stdout, fixture)
        #expect(after.first == before.first, "the header as it was")
        #expect(
            after.sorted { $0.lexicographicallyPrecedes($1) } == before.sorted { $0.lexicographicallyPrecedes($1) },
            "the same records, each byte for byte")
        // The order, read back with the fixture's own encoding.
        let text = String(
            decoding: try fixture.encoding.decode(Array(result.stdout.dropFirst(fixture.mark ? fixture.encoding.byteOrderMark.count : 0))),
            as: UTF8.self)
        let firstColumn = text.split(whereSeparator: \.isNewline).dropFirst().map {
            String($0.split(separator: Character(fixture.delimiter), omittingEmptySubsequences: false)[0])
        }
        #expect(firstColumn == fixture.sorted, "\(fixture.file)")
        let guessed = fixture.options.isEmpty && (fixture.encoding == .gb18030 || fixture.encoding == .gbk)
        #expect(result.stderr.contains("as \(fixture.encoding.name) (it is not UTF-8)") == guessed, "\(result.stderr)")
        #expect(result.stderr.contains("separated by") == (fixture.delimiter != ","), "\(result.stderr)")
    }

    @Test("--output-encoding converts on purpose, and a character the encoding lacks fails without touching the file")
    func outputEncoding() throws {
        let folder = try scratch(with: "excel-csv-gbk.csv", as: "in.csv").folder
        defer { try? FileManager.default.removeItem(at: folder) }
        let utf8 = run(["sort", "in.csv", "--format", "csv", "--output-encoding", "utf-8"], in: folder)
        #expect(utf8.status == 0 && String(decoding: utf8.stdout, as: UTF8.self).hasPrefix("组号,组长,分数,备注\r\n"))
        let utf16 = run(["sort", "in.csv", "--format", "csv", "--output-encoding", "UTF-16LE"], in: folder)
        #expect(Array(utf16.stdout.prefix(4)) == [0xC4, 0x7E, 0xF7, 0x53], "组号 in UTF-16LE, without a mark the input did not have")
        try Data("old".utf8).write(to: folder.appendingPathComponent("kept.csv"))
        let latin = run(["sort", "in.csv", "--format", "csv", "--output-encoding", "latin1", "-o", "kept.csv"], in: folder)
        #expect(latin.status == 65 && latin.stderr.contains("latin1 has no '组' (U+7EC4)"), "\(latin.stderr)")
        #expect(try String(contentsOf: folder.appendingPathComponent("kept.csv"), encoding: .utf8) == "old")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(files.sorted() == ["in.csv", "kept.csv"], "no partial file left behind")
        let text = run(["sort", "in.csv", "--output-encoding", "gb18030"], in: folder)
        let decoded = try TextEncoding.gb18030.decode(text.stdout)
        #expect(text.status == 0 && decoded.count > text.stdout.count, "a text table in GB18030")
    }

    @Test("bad names and impossible combinations are usage errors")
    func usage() throws {
        let folder = try scratch(with: "libreoffice-utf-8.csv", as: "in.csv").folder
        defer { try? FileManager.default.removeItem(at: folder) }
        let bad = run(["sort", "in.csv", "--encoding", "gbk2"], in: folder)
        #expect(
            bad.status == 64 && bad.stderr.contains("expected utf-8, gb18030, gbk,") && bad.stderr.contains("did you mean 'gbk'?"),
            "\(bad.stderr)")
        let delimiter = run(["sort", "in.csv", "--delimiter", "::"], in: folder)
        #expect(delimiter.status == 64 && delimiter.stderr.contains("expected , ; | or tab"))
        let json = run(["sort", "in.csv", "--format", "json", "--output-encoding", "gbk"], in: folder)
        #expect(json.status == 64 && json.stderr.contains("JSON and HTML are written in UTF-8"))
        let wrong = run(["sort", "in.csv", "--encoding", "shift_jis"], in: folder)
        #expect(wrong.status == 65 && wrong.stderr.contains("is not shift_jis text"), "\(wrong.stderr)")
        try Data([0x61, 0x2C, 0x62, 0x0A, 0x31, 0x2C, 0xFF, 0x0A]).write(to: folder.appendingPathComponent("mystery.csv"))
        let mystery = run(["sort", "mystery.csv"], in: folder)
        #expect(
            mystery.status == 65 && mystery.stderr.contains("neither UTF-8 nor GB18030") && mystery.stderr.contains("--encoding windows-1252"),
            "\(mystery.stderr)")
    }

    @Test("-o's extension names the format: .tsv is CSV with tabs, .json JSON, .txt the text table; --format may not contradict it")
    func formatFromExtension() throws {
        let folder = try scratch(with: "excel-csv-gbk.csv", as: "in.csv").folder
        defer { try? FileManager.default.removeItem(at: folder) }
        func read(_ name: String) throws -> String {
            String(decoding: try TextEncoding.gb18030.decode([UInt8](Data(contentsOf: folder.appendingPathComponent(name)))), as: UTF8.self)
        }
        #expect(run(["sort", "in.csv", "--by", "分数", "-o", "out.tsv"], in: folder).status == 0)
        let tsv = try read("out.tsv")
        #expect(tsv.hasPrefix("组号\t组长\t分数\t备注\r\n组3\t刘洋\t60\ta, b\r\n"), "a comma needs no quotes between tabs: \(tsv)")
        let back = run(["sort", "out.tsv", "--format", "csv", "-o", "again.tsv"], in: folder)
        #expect(back.status == 0 && back.stderr.contains("separated by 'tab'"))
        #expect(try read("again.tsv") == tsv, "a .tsv read back and written as .tsv is the same file")
        #expect(run(["sort", "in.csv", "-o", "out.json"], in: folder).status == 0)
        #expect(try String(contentsOf: folder.appendingPathComponent("out.json"), encoding: .utf8).hasPrefix("{"))
        #expect(run(["sort", "in.csv", "-o", "out.txt"], in: folder).status == 0)
        #expect(try String(contentsOf: folder.appendingPathComponent("out.txt"), encoding: .utf8).contains("────"))
        let clash = run(["sort", "in.csv", "--format", "json", "-o", "x.csv"], in: folder)
        #expect(clash.status == 64 && clash.stderr.contains("'--format json' contradicts '-o x.csv', which writes csv"))
        #expect(run(["sort", "in.csv", "--format", "csv", "-o", "x.csv"], in: folder).status == 0, "agreeing is fine")
        #expect(run(["sort", "in.csv", "--format", "csv", "-o", "x.out"], in: folder).status == 0, "an extension that names nothing")
    }

    @Test("a file that ends with blank lines is sorted and comes back with them, in its encoding")
    func trailingBlankLines() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = "组号,分数\r\n组1,88\r\n组2,92\r\n平均,90\r\n\r\n\r\n"
        let bytes = try TextEncoding.gbk.encode(Array(text.utf8))
        try Data(bytes).write(to: folder.appendingPathComponent("in.csv"))
        let same = run(["sort", "in.csv", "--format", "csv"], in: folder)
        #expect(same.status == 0 && same.stdout == bytes, "\(same.stderr)")
        let sorted = run(["sort", "in.csv", "--by", "分数:desc", "--pin-bottom", "组号=平均", "--format", "csv"], in: folder)
        #expect(
            String(decoding: try TextEncoding.gb18030.decode(sorted.stdout), as: UTF8.self)
                == "组号,分数\r\n组2,92\r\n组1,88\r\n平均,90\r\n\r\n\r\n")
    }

    func sorted(_ bytes: [UInt8]) throws -> (status: Int32, stderr: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-shapes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(bytes).write(to: folder.appendingPathComponent("file.csv"))
        var io = CommandIO(standardInput: { Data() }, currentDirectory: folder)
        let status = TrellisCommandLine.run(["sort", "file.csv", "--by", "#1"], io: &io)
        return (status, io.stderr)
    }

    /// Chinese Excel's GBK table, its last character cut in half (a copy that stopped).
    static let cutTable: [UInt8] = {
        let text = "组号,组长,分数\n组1,张伟,88\n组2,王芳,92\n组3,李娜,45 补考"
        let gbk = try! TextEncoding.gbk.encode(Array(text.utf8))
        return Array(gbk.dropLast())
    }()

    static func utf32(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        for byte in text.utf8 { bytes += [byte, 0, 0, 0] }
        return bytes
    }

    static let shapes: [(String, [UInt8], String)] = {
        var cutUTF8: [UInt8] = Array("a,b\n1,组".utf8)
        cutUTF8.removeLast()
        let nul: [UInt8] = Array("a,b".utf8) + [0] + Array("c\n1,2\n".utf8)
        let zip: [UInt8] = [0x50, 0x4B, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00] + [UInt8](repeating: 0x41, count: 40)
        let xls: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1] + [UInt8](repeating: 0, count: 40)
        return [
            (
                "GBK cut inside its last character", cutTable,
                "line 4, column 11: the file ends in the middle of a character (byte 54 of 54, 0xBF): it is GB18030 (or GBK) text cut short"
            ),
            (
                "UTF-8 cut inside its last character", cutUTF8,
                "line 2, column 3: the file ends in the middle of a character (byte 7 of 8, 0xE7): it is UTF-8 text cut short"
            ),
            (
                "UTF-32 with its mark", [0xFF, 0xFE, 0x00, 0x00] + utf32("a,b\n1,2\n"),
                "the file is UTF-32 text (its byte order mark says so), which is not read here"
            ),
            ("UTF-32 without a mark", utf32("a,b\n1,2\n"), "the file is UTF-32 text (four bytes a character, without a byte order mark)"),
            ("a NUL in the header", nul, "byte 4 of the file is a NUL (0x00), which no text holds"),
            ("a workbook cut short", zip, "it starts as a ZIP package (an .xlsx or .ods workbook), but no central directory"),
            ("a legacy .xls workbook cut short", xls, "it starts as a compound file (a legacy .xls workbook), but its header is cut short"),
        ]
    }()

    @Test("a file that is not a text table, or is cut short, is named for what it is: where, and what to do", arguments: shapes)
    func notATextTable(name: String, bytes: [UInt8], message: String) throws {
        let result = try sorted(bytes)
        #expect(result.status == 65, "\(name)")
        #expect(result.stderr.contains(message), "\(name): \(result.stderr)")
        #expect(!result.stderr.contains("windows-1252"), "\(name): no advice to read it as another encoding")
    }

    @Test("a workbook is read whatever its name, refuses the options of a CSV file, and is read whole past --memory")
    func workbookWhateverTheOptions() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("TrellisWorkbookTests/Fixtures")
        let xlsx = try Data(contentsOf: fixtures.appendingPathComponent("openpyxl-scores.xlsx"))
        let refused = try runInScratch(["sort", "in.bin", "--by", "总分:desc", "--encoding", "gbk"], files: ["in.bin": xlsx])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("'--encoding' reads CSV files; a workbook's cells carry their own types and text"), "\(refused.stderr)")
        let ods = try Data(contentsOf: fixtures.appendingPathComponent("openpyxl-scores.ods"))
        let read = try runInScratch(["sort", "in.bin", "--by", "总分:desc", "--memory", "64K", "-o", "out.csv"], files: ["in.bin": ods])
        #expect(read.status == 0, "\(read.stderr)")
        // As Excel opens CSV: UTF-8 with a mark, CRLF.
        #expect(
            read.left["out.csv"]
                == Data("\u{FEFF}学号,姓名,语文,数学,总分\r\nS01,张伟,88,95,183\r\nS04,刘洋,81,90,171\r\nS02,李娜,92,78,170\r\nS03,王芳,75,88,163\r\n平均,,84,87.75,\r\n".utf8))
    }

    @Test("a short UTF-16 file without a mark is still recognised; a stray zero byte in UTF-8 text does not make it UTF-16")
    func utf16WithoutMark() throws {
        let utf16 = Array("a,b\n1,2\n".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-utf16-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(utf16).write(to: folder.appendingPathComponent("file.csv"))
        var io = CommandIO(standardInput: { Data() }, currentDirectory: folder)
        #expect(
            TrellisCommandLine.run(["sort", "file.csv", "--by", "a", "--format", "csv", "--output-encoding", "utf-8"], io: &io) == 0,
            "\(io.stderr)")
        #expect(io.stdout == "a,b\n1,2\n", "\(io.stdout.debugDescription)")
    }
}
