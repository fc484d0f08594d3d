import Foundation
import Testing
import TrellisCLI
import TrellisSQL
import TrellisTestSupport

/// Editing and saving in `trellis view`, typed into a real terminal: `e` edits a cell and the row
/// stays, `U` undoes, Ctrl-S saves to a name typed and (after `y`) to the file itself with every
/// byte but the edited cell's as the file had them, `q` with an edit not saved asks first and
/// leaves the file as it was; Ctrl-H shows the keys, as in VisiData.
@Suite("trellis view: editing and saving, in tmux", .serialized)
struct ViewEditingTerminalTests {
    /// A file as spreadsheets write them: a byte order mark, CR LF, a quoted header, quoted cells
    /// with a delimiter and doubled quotes inside, a summary row.
    static let original = "\u{FEFF}名字,\"分数\",备注\r\n\"甲\",70,\"a, b\"\r\n乙,90,\"say \"\"hi\"\"\"\r\n丙,80,\r\n平均,80,\r\n"

    func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-edit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(Self.original.utf8).write(to: folder.appendingPathComponent("成绩.csv"))
        return folder
    }

    func bytes(_ url: URL) -> String? { (try? Data(contentsOf: url)).map { String(decoding: $0, as: UTF8.self) } }

    /// The screen once `condition` holds for it; an issue (with the screen) when it never does.
    func screen(
        _ tmux: Tmux, _ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ condition: ([String]) -> Bool
    ) throws -> [String] {
        let lines = try tmux.wait(seconds: 10, condition)
        #expect(condition(lines), "\(what): \(lines.filter { !$0.isEmpty })", sourceLocation: sourceLocation)
        return lines
    }

    /// `trellis view 成绩.csv OPTIONS` in tmux, in a scratch folder holding the file, once its first
    /// screen is up; the session and the folder go after `body`.
    func viewing(_ options: String, session: String, _ body: (Tmux, URL) throws -> Void) throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tmux = Tmux(session: "\(session)-\(getpid())")
        defer { tmux.kill() }
        try tmux.start("\(TerminalTests.trellis) view 成绩.csv \(options)", in: folder.path)
        _ = try screen(tmux, "the first screen") { $0.contains { $0.contains("row 1/4") } }
        try body(tmux, folder)
    }

    @Test(
        "e edits a cell and its row stays; U undoes; Ctrl-S saves byte for byte but the edit, to a new name and to the file after y",
        .enabled(if: Tmux.path != nil))
    func editUndoSave() throws {
        try viewing("--by 分数:desc --pin-bottom 名字=平均", session: "trellis-edit") { tmux, folder in try editUndoSave(tmux, folder) }
    }

    func editUndoSave(_ tmux: Tmux, _ folder: URL) throws {
        var lines = try tmux.screen()
        #expect(lines[line: 2].hasPrefix("乙"), "\(lines)")
        // 乙's 90 becomes 10: the row stays first until the next sort.
        try tmux.send(["l", "e"])
        lines = try screen(tmux, "the screen shows edit 分数, row 2") { $0.contains { $0.contains("edit 分数, row 2") && $0.contains(": 90") } }
        try tmux.send(["C-u"])
        try tmux.send(["10"], literal: true)
        try tmux.send(["Enter"])
        lines = try screen(tmux, "the screen shows edited") { $0.contains { $0.contains("edited") } }
        #expect(lines[line: 2].hasPrefix("乙") && lines[line: 2].contains("10"), "the edited row stays where it was: \(lines)")
        #expect(lines[line: 3].hasPrefix("丙") && lines[line: 4].hasPrefix("甲"))
        // U: back to 90.
        try tmux.send(["U"])
        lines = try screen(tmux, "the screen shows undone") { $0.contains { $0.contains("undone") } }
        #expect(lines[line: 2].hasPrefix("乙") && lines[line: 2].contains("90"), "\(lines)")
        // The edit again, saved under a new name: only its field differs from the file.
        try tmux.send(["e", "C-u"])
        try tmux.send(["10"], literal: true)
        try tmux.send(["Enter", "C-s"])
        lines = try screen(tmux, "the screen shows save to and 成绩.csv") { $0.contains { $0.contains("save to") && $0.contains("成绩.csv") } }
        try tmux.send(["C-u"])
        try tmux.send(["新.csv"], literal: true)
        try tmux.send(["Enter"])
        lines = try screen(tmux, "the screen shows saved 新.csv") { $0.contains { $0.contains("saved 新.csv") } }
        // 平均 said the mean (80): it follows the edit, (70 + 10 + 80) / 3 written as it was, with no decimals.
        let edited = Self.original.replacingOccurrences(of: "乙,90,", with: "乙,10,").replacingOccurrences(of: "平均,80,", with: "平均,53,")
        #expect(bytes(folder.appendingPathComponent("新.csv")) == edited)
        #expect(bytes(folder.appendingPathComponent("成绩.csv")) == Self.original, "the file read is untouched")
        // To the file itself: asked first; any key but y leaves it.
        try tmux.send(["C-s", "Enter"])
        lines = try screen(tmux, "the screen shows replace 成绩.csv") { $0.contains { $0.contains("replace 成绩.csv") } }
        try tmux.send(["n"])
        lines = try screen(tmux, "the screen shows not saved") { $0.contains { $0.contains("not saved") } }
        #expect(bytes(folder.appendingPathComponent("成绩.csv")) == Self.original)
        try tmux.send(["C-s", "Enter"])
        lines = try screen(tmux, "the screen shows replace 成绩.csv") { $0.contains { $0.contains("replace 成绩.csv") } }
        try tmux.send(["y"])
        lines = try screen(tmux, "the screen shows saved 成绩.csv") { $0.contains { $0.contains("saved 成绩.csv") } }
        #expect(bytes(folder.appendingPathComponent("成绩.csv")) == edited)
        // Saved: q quits at once.
        try tmux.send(["q"])
        lines = try screen(tmux, "the screen shows icanon and -icanon") { $0.contains("icanon") || $0.contains("-icanon") }
        #expect(lines.contains("EXIT=0"))
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(left == ["成绩.csv", "新.csv"], "nothing else beside them: \(left)")
    }

    @Test(
        "q with an edit not saved asks; a key other than q stays; q again quits and the file is as it was; Ctrl-H shows the keys",
        .enabled(if: Tmux.path != nil))
    func quitAsks() throws {
        try viewing("", session: "trellis-edit-quit") { tmux, folder in try quitAsks(tmux, folder) }
    }

    func quitAsks(_ tmux: Tmux, _ folder: URL) throws {
        var lines: [String]
        try tmux.send(["C-h"])
        lines = try screen(tmux, "the keys page") { $0.contains { $0.contains("trellis view: keys") } }
        try tmux.send(["End"])
        lines = try screen(tmux, "the keys page's end lists the commands by name") { $0.contains { $0.contains("quit-sheet") } }
        try tmux.send(["q", "e", "C-u"])
        try tmux.send(["丁"], literal: true)
        try tmux.send(["Enter"])
        lines = try screen(tmux, "the screen shows edited") { $0.contains { $0.contains("edited") } }
        #expect(lines[line: 2].hasPrefix("丁"))
        try tmux.send(["q"])
        lines = try screen(tmux, "the screen shows 1 change not saved") { $0.contains { $0.contains("1 change not saved") } }
        try tmux.send(["j"])
        lines = try screen(tmux, "the screen shows still here") { $0.contains { $0.contains("still here") } }
        try tmux.send(["q"])
        lines = try screen(tmux, "the screen shows not saved: q quits") { $0.contains { $0.contains("not saved: q quits") } }
        try tmux.send(["q"])
        lines = try screen(tmux, "the screen shows icanon and -icanon") { $0.contains("icanon") || $0.contains("-icanon") }
        #expect(lines.contains("EXIT=0"))
        #expect(bytes(folder.appendingPathComponent("成绩.csv")) == Self.original)
    }

    @Test(
        "an SQLite table: e edits in memory (the file untouched, q asks), Ctrl-S asks on the whole status line and y writes the cell by UPDATE",
        .enabled(if: Tmux.path != nil))
    func databaseSave() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let database = folder.appendingPathComponent("scores.sqlite")
        try FileManager.default.copyItem(at: examples.appendingPathComponent("Examples/scores.sqlite"), to: database)
        let original = try Data(contentsOf: database)
        let tmux = Tmux(session: "trellis-edit-db-\(getpid())")
        defer { tmux.kill() }
        try tmux.start("\(TerminalTests.trellis) view scores.sqlite --table scores --by 分数:desc", in: folder.path)
        var lines = try screen(tmux, "the first screen") { $0.contains { $0.contains("row 1/13") } }
        #expect(lines[line: 2].hasPrefix("组6"), "\(lines)")
        try tmux.send(["l", "l", "e", "C-u"])
        try tmux.send(["99"], literal: true)
        try tmux.send(["Enter"])
        lines = try screen(tmux, "the screen shows edited") { $0.contains { $0.contains("edited") } }
        #expect(lines[line: 2].hasPrefix("组6") && lines[line: 2].contains("99"), "\(lines)")
        #expect(try Data(contentsOf: database) == original, "nothing written before the save")
        // q asks; any other key stays.
        try tmux.send(["q"])
        lines = try screen(tmux, "the screen shows 1 change not saved") { $0.contains { $0.contains("1 change not saved") } }
        try tmux.send(["j"])
        // Ctrl-S: the question has the status line (no hints after it), n leaves the database.
        try tmux.send(["C-s"])
        lines = try screen(tmux, "the screen asks to write 1 edited cell") {
            $0.contains { $0.contains("y writes 1 edited cell to table \"scores\" in scores.sqlite") }
        }
        #expect(lines.contains { $0.contains("y writes 1 edited cell") && !$0.contains("q quit") }, "\(lines)")
        try tmux.send(["n"])
        lines = try screen(tmux, "the screen shows not saved") { $0.contains { $0.contains("not saved") } }
        #expect(try Data(contentsOf: database) == original)
        try tmux.send(["C-s"])
        lines = try screen(tmux, "the screen asks again") { $0.contains { $0.contains("y writes 1 edited cell") } }
        try tmux.send(["y"])
        lines = try screen(tmux, "the screen shows saved 1 cell") { $0.contains { $0.contains("saved 1 cell to table \"scores\"") } }
        // Saved: q quits at once.
        try tmux.send(["q"])
        lines = try screen(tmux, "the shell after the viewer") { $0.contains("icanon") || $0.contains("-icanon") }
        #expect(lines.contains("EXIT=0"))
        var stored: [String] = []
        let db = try SQLiteConnection(path: database.path)
        try db.rows("SELECT 组号, typeof(分数), 分数 FROM scores WHERE 组号 = '组6'") { row in stored = [row.text(0), row.text(1), row.text(2)] }
        #expect(stored == ["组6", "integer", "99"])
    }
}
