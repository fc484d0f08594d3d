import Foundation
import Testing
import TrellisGrid

@testable import TrellisCLI

/// What the viewer's Ctrl-S writes, on files as the programs wrote them: the file back in its own
/// encoding (GB18030 from LibreOffice, Excel's UTF-16 "Unicode text"), its title and footer lines
/// (a payment statement), with its rows in the file's order however they were sorted, and every
/// byte the same but the edited field's.
@Suite("trellis view: a save writes the file back as it was but the edit")
struct ViewSaveTests {
    static let root = ReadmeTests.root

    struct Case: CustomTestStringConvertible, Sendable {
        var file: String
        var encoding: String.Encoding
        /// The edited cell: in the row whose cell in `column` reads `was`, it becomes `now`.
        var column: Int
        var was: String
        var now: String
        /// The field as the file writes it, before and after (with its delimiter on both sides), in
        /// `encoding` (ASCII for GB18030's digits, which it writes as ASCII does).
        var before: String
        var after: String
        var testDescription: String { file }
    }

    static let cases: [Case] = [
        Case(
            file: "Tests/TrellisCLITests/Fixtures/Encodings/libreoffice-gb18030.csv", encoding: .ascii, column: 2,
            was: "88.5", now: "12345", before: ",88.5,", after: ",12345,"),
        Case(
            file: "Tests/TrellisCLITests/Fixtures/Encodings/excel-unicode-text.txt", encoding: .utf16LittleEndian, column: 2,
            was: "88.5", now: "12345", before: "\t88.5\t", after: "\t12345\t"),
        Case(file: "Examples/statement.csv", encoding: .utf8, column: 4, was: "12.50", now: "13.50", before: ",12.50,", after: ",13.50,"),
    ]

    @Test("edited, sorted and saved, the file is its own bytes but the edited field", arguments: cases)
    func savedAsItWas(_ example: Case) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-view-save-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = (example.file as NSString).lastPathComponent
        let original = try Data(contentsOf: Self.root.appendingPathComponent(example.file))
        try original.write(to: folder.appendingPathComponent(name))

        var io = CommandIO(currentDirectory: folder)
        let source = try io.openSource(name, table: nil, query: nil, types: [:], command: "view")
        let grid = DataGrid(bound: source)
        try grid.sort(by: [SortKey(grid.columns[example.column].identifier, .descending)])
        let row = try #require((0..<grid.rowCount).first { source.text(row: $0, column: example.column) == example.was })
        try grid.editCell(row: row, column: example.column, text: example.now)
        let message = try ViewCommand.save(
            grid, to: "out", source: name, opened: FileStamp(folder.appendingPathComponent(name).path), directory: folder)
        #expect(message.contains("1 edited cell"))

        // The expected bytes: the file's, the one field replaced, in the file's encoding.
        let before = try #require(example.before.data(using: example.encoding))
        let after = try #require(example.after.data(using: example.encoding))
        let at = try #require(original.range(of: before))
        #expect(original.range(of: before, in: at.upperBound..<original.count) == nil, "the field is the file's only one")
        var expected = original
        expected.replaceSubrange(at, with: after)
        let written = try Data(contentsOf: folder.appendingPathComponent("out"))
        #expect(written == expected)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [name, "out"].sorted(), "nothing else made")
    }

    @Test("the file read is not replaced when it changed on disk since; the refusal leaves it and makes nothing")
    func changedOnDisk() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-view-save-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("in.csv")
        try Data("名字,分数\n甲,70\n乙,90\n".utf8).write(to: path)
        var io = CommandIO(currentDirectory: folder)
        let grid = DataGrid(bound: try io.openSource("in.csv", table: nil, query: nil, types: [:], command: "view"))
        let opened = FileStamp(path.path)
        try grid.editCell(row: 0, column: 1, text: "71")
        // Another program writes the file meanwhile.
        try Data("名字,分数\n甲,70\n乙,90\n丙,80\n".utf8).write(to: path)
        #expect(throws: CommandError.self) { try ViewCommand.save(grid, to: "in.csv", source: "in.csv", opened: opened, directory: folder) }
        #expect(try String(contentsOf: path, encoding: .utf8) == "名字,分数\n甲,70\n乙,90\n丙,80\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["in.csv"])
        // Under another name it is written.
        _ = try ViewCommand.save(grid, to: "copy.csv", source: "in.csv", opened: opened, directory: folder)
        #expect(try String(contentsOf: folder.appendingPathComponent("copy.csv"), encoding: .utf8) == "名字,分数\n甲,71\n乙,90\n")
    }
}
