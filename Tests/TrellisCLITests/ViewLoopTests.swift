import Foundation
import Testing
import TrellisGrid

@testable import TrellisCLI

/// The viewer's keys, driven without a terminal: each test types events and reads the frame.
@Suite("The viewer's keys")
struct ViewLoopTests {
    static let csv =
        "组号,组长,分数,备注\n组1,张伟,88.5,进步明显\n组2,王芳,92,\n组3,李娜,75,缺一人\n组4,刘洋,92,\n组5,陈静,60.5,需复查\n"
        + "组6,杨帆,81,\n组7,赵磊,99,第一\n组8,黄敏,70,\n组9,周杰,85.5,\n组10,吴昊,64,缺考一次\n组11,徐丽,92,\n组12,孙涛,77,\n平均,,81.375,\n"

    static func loop(width: Int = 100, height: Int = 24, by keys: [SortKey] = [SortKey("分数", .descending)]) throws -> ViewLoop {
        let grid = DataGrid(bound: try CSV.table(Data(csv.utf8)))
        try grid.pin(.matching(column: "组号", value: "平均"), at: .bottom)
        try grid.sort(by: keys)
        var loop = ViewLoop(screen: GridScreen(grid: grid, width: width, height: height))
        loop.width = width
        loop.height = height
        return loop
    }

    static func type(_ loop: inout ViewLoop, _ events: [ViewLoop.Event]) {
        for event in events { _ = loop.handle(event) }
    }

    static func text(_ string: String) -> [ViewLoop.Event] { string.map { .character($0) } }

    static func plain(_ lines: [String]) -> [String] { lines.map(GridScreenTests.withoutOwnStyling) }

    static func status(_ loop: inout ViewLoop) -> String { plain(loop.frame()).last! }

    @Test("Ctrl-S is save, Ctrl-H is VisiData's help (a backspace while typing), DEL is backspace")
    func controlKeys() {
        #expect(ViewLoop.event([19]) == (.save, 1))
        #expect(ViewLoop.event([8]) == (.controlH, 1))
        #expect(ViewLoop.event([127]) == (.backspace, 1))
        var loop = try! Self.loop()
        _ = loop.handle(.controlH)
        #expect(loop.page?.title == "trellis view: keys")
        _ = loop.handle(.controlH)
        #expect(loop.page == nil)
        Self.type(&loop, [.character("/")] + Self.text("组1") + [.controlH])
        #expect(loop.prompt?.text == "组", "Ctrl-H erases while typing")
        Self.type(&loop, [.character("\u{15}")])
        #expect(loop.prompt?.text == "", "Ctrl-U clears")
    }

    @Test("e edits the current cell in place and the 平均 row follows; Esc leaves it, U undoes both; a view is not edited")
    func editKeys() throws {
        var loop = try Self.loop()
        // Row 1 is 组7 (99); the cursor on 分数.
        Self.type(&loop, [.right, .right, .character("e")])
        #expect(loop.prompt?.kind == .edit(row: 6, column: 2) && loop.prompt?.text == "99")
        Self.type(&loop, [.backspace, .backspace] + Self.text("10") + [.enter])
        #expect(loop.screen.grid.source.text(row: 6, column: 2) == "10")
        #expect(loop.screen.grid.displayedRow(at: 0) == .source(6), "the edited row stays first")
        #expect(loop.edits.count == 1 && loop.editsSinceSave == 1)
        // 平均 said the mean (81.375): it follows, with its own three decimals (887.5 / 12).
        #expect(loop.screen.grid.source.text(row: 12, column: 2) == "73.958")
        #expect(loop.edits[0].changes.count == 2 && Self.status(&loop).contains("with 1 summary cell"))
        Self.type(&loop, [.character("e"), .backspace, .character("5"), .escape])
        #expect(loop.screen.grid.source.text(row: 6, column: 2) == "10", "Esc: not edited")
        Self.type(&loop, [.character("U")])
        #expect(loop.screen.grid.source.text(row: 6, column: 2) == "99")
        #expect(loop.screen.grid.source.text(row: 12, column: 2) == "81.375", "undone with the cell that followed")
        #expect(loop.edits.isEmpty && loop.editsSinceSave == 2)
        Self.type(&loop, [.character("U")])
        #expect(Self.status(&loop).contains("nothing to undo"))
        // The 平均 row pinned at the bottom is one of the file's: edited like the others. A view is not.
        Self.type(&loop, [.character("F"), .character("e")])
        #expect(loop.prompt == nil && Self.status(&loop).contains("a view keeps its cells"))
        // q with changes not saved asks; q again quits.
        Self.type(&loop, [.character("q")])
        #expect(loop.handle(.character("q")) == .go && loop.confirmation == .quit)
        #expect(loop.handle(.character("q")) == .quit)
    }

    @Test("an edit carries the 合计 row along by the rules of --recompute: the sum, the ratio as Σ利润/Σ收入, the row's own style")
    func editFollowsTotals() throws {
        let table = try CSV.table(Data(contentsOf: ReadmeTests.root.appendingPathComponent("Examples/totals.csv")))
        let grid = DataGrid(bound: table)
        try grid.pin(.matching(column: "部门", value: "合计"), at: .bottom)
        var loop = ViewLoop(screen: GridScreen(grid: grid, width: 120, height: 24))
        // 销售一部's 利润 98,765.43 becomes 100,000.00 (1,234.57 more).
        Self.type(&loop, [.right, .right, .character("e"), .character("\u{15}")] + Self.text("100,000.00") + [.enter])
        #expect(table.text(row: 0, column: 2) == "100,000.00")
        #expect(table.text(row: 6, column: 2) == "292,913.05", "the sum, written as the row writes it")
        #expect(table.text(row: 6, column: 3) == "8.8%", "a ratio of the row's sums (292,913.05 / 3,345,677.88), not a sum of rates")
        #expect(table.text(row: 0, column: 3) == "8.0%", "a body row's own rate is the user's: not touched")
        #expect(table.text(row: 6, column: 4) == "100.0%", "the shares are what they were")
        #expect(table.text(row: 6, column: 1) == "3,345,677.88")
        Self.type(&loop, [.character("U")])
        #expect(table.text(row: 6, column: 2) == "291,678.48" && table.text(row: 6, column: 3) == "8.7%")
    }

    @Test("on LibreOffice's 分类汇总 sheet an edit carries its group's subtotal and the grand total along, nothing else; the row stays; U undoes all")
    func editFollowsSubtotals() throws {
        // Examples/subtotals.csv with 华北's subtotal made stale (the rows give 214,000.40).
        let csv = try String(contentsOf: ReadmeTests.root.appendingPathComponent("Examples/subtotals.csv"), encoding: .utf8)
            .replacingOccurrences(of: "\"华北 结果\",,214000.4,", with: "\"华北 结果\",,200000.4,")
        let table = try CSV.table(Data(csv.utf8))
        let grid = DataGrid(bound: table)
        try grid.apply(SortPlan(keys: [SortKey("销售额", .descending)], grouping: RowGrouping(column: "地区")))
        var loop = ViewLoop(screen: GridScreen(grid: grid, width: 120, height: 24))
        func edit(row: Int, column: Int, to text: String) {
            loop.screen.current = grid.displayIndex(ofSourceRow: row)!
            loop.screen.column = column
            Self.type(&loop, [.character("e"), .character("\u{15}")] + Self.text(text) + [.enter])
        }
        // 杭州's 销售额 98000 becomes 100000: 华东 结果 and 总计 求和 take 2,000 more.
        let before = grid.displayIndex(ofSourceRow: 1)
        edit(row: 1, column: 2, to: "100000")
        #expect(table.text(row: 3, column: 2) == "301543.71", "华东's subtotal: its own rows' sum, written as the cell was")
        #expect(table.text(row: 12, column: 2) == "819544.21", "the grand total: every group's rows, never the subtotals")
        #expect(table.text(row: 11, column: 2) == "304000.1" && table.text(row: 3, column: 3) == "30100.35", "other cells as they were")
        #expect(grid.displayIndex(ofSourceRow: 1) == before, "the edited row stays where it was until the next sort")
        #expect(loop.edits.last?.changes.count == 3, "\(loop.edits.last?.changes ?? [])")
        // 北京 in the group whose subtotal was stale: that subtotal is left; the grand total, which
        // agreed, follows.
        edit(row: 4, column: 2, to: "150001")
        #expect(table.text(row: 6, column: 2) == "200000.4")
        #expect(table.text(row: 12, column: 2) == "819545.21")
        Self.type(&loop, [.character("U"), .character("U")])
        #expect(table.text(row: 3, column: 2) == "299543.71" && table.text(row: 12, column: 2) == "817544.21" && table.text(row: 1, column: 2) == "98000")
    }

    @Test("a summary cell that was stale, or of a meaning not established, before an edit is left as it is")
    func editLeavesDoubtfulCells() throws {
        // 合计's 收入 is stale (the rows give 300); its 均价 is neither their sum nor a ratio of the row's cells.
        let csv = "部门,收入,均价\n甲,100,3.5\n乙,200,4.25\n合计,250,9.99\n"
        let table = try CSV.table(Data(csv.utf8))
        let grid = DataGrid(bound: table)
        try grid.pin(.matching(column: "部门", value: "合计"), at: .bottom)
        var loop = ViewLoop(screen: GridScreen(grid: grid, width: 100, height: 24))
        Self.type(&loop, [.right, .character("e"), .character("\u{15}")] + Self.text("150") + [.enter])
        #expect(table.text(row: 0, column: 1) == "150")
        #expect(table.text(row: 2, column: 1) == "250", "stale before: not rewritten")
        #expect(table.text(row: 2, column: 2) == "9.99", "its meaning unknown: not rewritten")
        #expect(loop.edits.last?.changes.count == 1)
    }

    @Test("I shows the description made ahead while it is current; a pin or an edit makes it stale, and it is made again")
    func describedAhead() throws {
        var loop = try Self.loop()
        #expect(loop.descriptionIsStale)
        loop.describeAhead()
        #expect(!loop.descriptionIsStale)
        Self.type(&loop, [.character("I")])
        #expect(Self.status(&loop).contains("described ahead"))
        Self.type(&loop, [.character("q")])
        // An edit makes it stale: I describes the rows as they are now (组7's 99 is 10: the max is 92).
        Self.type(&loop, [.right, .right, .character("e"), .character("\u{15}")] + Self.text("10") + [.enter])
        #expect(loop.descriptionIsStale)
        Self.type(&loop, [.character("I")])
        #expect(!Self.status(&loop).contains("described ahead"))
        let scores = loop.screen.grid.displayedRows.map { loop.screen.grid.text($0, column: 0) }.firstIndex(of: "分数")
        let row = try #require(scores.flatMap { loop.screen.grid.displayedRow(at: $0) })
        #expect(loop.screen.grid.text(row, column: 6) == "92", "the max after the edit")
        // Described again column by column: the changed column's figures are the grid's own now.
        Self.type(&loop, [.character("q"), .character("e"), .character("\u{15}")] + Self.text("91") + [.enter])
        #expect(loop.descriptionIsStale)
        let again = loop.currentDescription()
        #expect(again.map(\.maximum) == loop.sheets[0].screen.grid.describe().map(\.maximum))
        #expect(again.map(\.mean) == loop.sheets[0].screen.grid.describe().map(\.mean))
        #expect(!loop.descriptionIsStale)
        // Sorting does not change what the rows hold: still current. A pin does.
        Self.type(&loop, [.character("[")])
        #expect(!loop.descriptionIsStale && loop.screen.grid.sortKeys.first?.direction == .ascending)
        Self.type(&loop, [.character("p")])
        #expect(loop.descriptionIsStale, "a pin takes a row out of the body")
    }

    @Test("a column read as another type and back takes its description again; one edited since is described anew")
    func descriptionAfterTypeKeys() throws {
        var loop = try Self.loop()
        let first = loop.currentDescription()
        Self.type(&loop, [.right, .right, .character("~")])
        #expect(loop.descriptionIsStale)
        let asText = loop.currentDescription()
        #expect(asText[2] != first[2] && asText[2] == loop.screen.grid.describe(columns: [2])[0], "described as text")
        let kept = loop.descriptions.columns.count
        Self.type(&loop, [.character("%")])
        let back = loop.currentDescription()
        #expect(back == first && loop.descriptions.columns.count == kept, "as decimals again: the first description, taken again")
        // An edit, then as text and back: described as the cells are now.
        Self.type(&loop, [.character("e"), .character("\u{15}")] + Self.text("100") + [.enter])
        Self.type(&loop, [.character("~"), .character("%")])
        #expect(loop.currentDescription() == loop.screen.grid.describe())
        #expect(loop.currentDescription()[2].maximum != first[2].maximum)
    }

    @Test("VisiData's type keys: ~ reads a number column as text (it sorts as text), # and % as numbers again; the cells stay as written")
    func typeKeys() throws {
        var loop = try Self.loop(by: [])
        let grid = loop.screen.grid
        Self.type(&loop, [.right, .right, .character("~")])
        #expect(grid.columns[2].type == .text && Self.status(&loop).contains("分数 read as text"))
        #expect(grid.source.value(row: 0, column: 2) == .text("88.5"), "read as text, written as it was")
        Self.type(&loop, [.character("#")])
        #expect(grid.columns[2].type == .integer)
        #expect(Self.status(&loop).contains("read as integer") && Self.status(&loop).contains("not"), "88.5 and the others are not integers")
        Self.type(&loop, [.character("%")])
        #expect(grid.columns[2].type == .decimal && !Self.status(&loop).contains("not ("))
        #expect(grid.source.value(row: 0, column: 2) == .decimal(88.5) && grid.source.text(row: 0, column: 2) == "88.5")
        Self.type(&loop, [.character("F"), .character("#")])
        #expect(Self.status(&loop).contains("a view keeps its cells"))
    }

    @Test("a type key on the sorted column leaves the rows where they are until the next sort, which reads the new type")
    func typeKeyKeepsRows() throws {
        var loop = try Self.loop(by: [SortKey("分数", .descending)])
        let grid = loop.screen.grid
        let before = grid.bodyRows
        // 分数 read as integers: 88.5, 60.5 and 85.5 are not, and a sort puts them after the numbers.
        Self.type(&loop, [.right, .right, .character("#")])
        #expect(grid.bodyRows == before, "the rows stay")
        // (The fourth: 平均's 81.375.)
        #expect(loop.screen.message == "分数 read as integer · 4 cells are not (a sort puts them after) · the rows stay until the next sort")
        let fresh = try DisplayOrder(source: grid.source, plan: grid.plan)
        #expect(!(fresh.body == before), "the new type orders the rows otherwise")
        // ] sorts again: by the new type.
        Self.type(&loop, [.character("]")])
        #expect(fresh.body == grid.bodyRows)
        // Back as decimals and sorted: the first order.
        Self.type(&loop, [.character("%"), .character("]")])
        #expect(grid.bodyRows == before)
        #expect(grid.order.pinnedBottom.count == 1, "the 平均 row stays pinned")
    }

    @Test("Space runs a command by name, Tab completes it; an unknown name says what is near; every command does what its keys do")
    func commandLine() throws {
        var loop = try Self.loop(by: [])
        Self.type(&loop, [.right, .right, .character(" ")] + Self.text("sort-d") + [.character("\t")])
        #expect(loop.prompt?.text == "sort-desc" && Self.status(&loop).contains("sort-desc-add"), "completed as far as they agree")
        Self.type(&loop, [.enter])
        #expect(loop.screen.grid.sortKeys.map(\.column) == ["分数"] && loop.screen.grid.sortKeys.first?.direction == .descending)
        Self.type(&loop, [.character(" ")] + Self.text("sort-cols") + [.enter])
        #expect(Self.status(&loop).contains("no command 'sort-cols'") && Self.status(&loop).contains("sort-asc"))
        // Each command runs as its keys: none is a key that does nothing.
        for command in ViewLoop.namedCommands where !["quit-sheet", "help", "open-warnings"].contains(command.name) {
            var fresh = try Self.loop()
            Self.type(&fresh, [.character(" ")] + Self.text(command.name) + [.enter, .escape])
            #expect(!Self.status(&fresh).contains("does nothing"), "\(command.name): \(Self.status(&fresh))")
        }
        var quitting = try Self.loop()
        Self.type(&quitting, [.character(" ")] + Self.text("quit-sheet"))
        #expect(quitting.handle(.enter) == .quit, "the command's outcome is the key's")
        #expect(ViewLoop.helpPage.contains { $0.contains("describe-sheet") && $0.contains("I ") })
    }

    @Test("a key's bytes split between two reads wait for the rest; only a lone ESC with nothing after it is Escape")
    func splitSequences() {
        #expect(ViewLoop.event([27]) == (.ignored, 0), "ESC alone may be the start of an arrow")
        #expect(ViewLoop.event([27], complete: true) == (.escape, 1))
        #expect(ViewLoop.event([27, 91]) == (.ignored, 0))
        #expect(ViewLoop.event([27, 91], complete: true) == (.ignored, 2), "a cut sequence is dropped, not typed")
        #expect(ViewLoop.event([27, 91, 66, 27, 91]) == (.down, 3))
        #expect(ViewLoop.event(Array("\u{1B}[Z".utf8)) == (.backTab, 3), "Shift-Tab")
        #expect(ViewLoop.event([27, 79, 80]) == (.f1, 3) && ViewLoop.event(Array("\u{1B}[11~".utf8)) == (.f1, 5))
        #expect(ViewLoop.event([27, 79, 65]) == (.up, 3), "arrows in application mode")
        #expect(ViewLoop.event([0xE7, 0xBB]) == (.ignored, 0), "half a UTF-8 character waits")
        #expect(ViewLoop.event([27, 113]) == (.escape, 1), "ESC then a key: Escape, then the key")
    }

    @Test("a large file read in the background: its first lines at once, the whole table and what its reading noted after")
    func backgroundRead() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-background-\(UUID().uuidString).csv")
        defer { try? FileManager.default.removeItem(at: file) }
        // A `;`-separated file over the size read in the background: the reader notes its delimiter.
        var text = "组号;分数\n"
        text.reserveCapacity(BackgroundRead.threshold + 64)
        var row = 0
        while text.utf8.count < BackgroundRead.threshold + 1024 { text += "组\(row);\(row % 100),5\n"; row += 1 }
        try text.write(to: file, atomically: true, encoding: .utf8)
        let io = CommandIO(currentDirectory: file.deletingLastPathComponent())
        let started = try #require(BackgroundRead.start(file.lastPathComponent, types: [:], reading: CSVReading(), io: io))
        #expect(started.head.rowCount > 0 && started.head.rowCount < row, "the first lines only: \(started.head.rowCount)")
        #expect(started.head.value(row: 0, column: 1).number == 0.5, "read as the whole file is: a decimal comma")
        var byte: UInt8 = 0
        #expect(read(started.read.wake.read, &byte, 1) == 1, "the read says when it ends")
        let (outcome, notes) = try #require(started.read.take())
        let table = try outcome.get()
        #expect(table.rowCount == row)
        #expect(notes.contains("separated by ';'"), "\(notes)")
        // A file under the size is read at once, as before.
        #expect(BackgroundRead.start("Examples/groups.csv", types: [:], reading: CSVReading(), io: CommandIO(currentDirectory: ReadmeTests.root)) == nil)
    }

    @Test("keys typed during a database sort: Esc or Ctrl-C stop it, an arrow (which starts with ESC) and q are kept for after")
    func stopKeys() {
        #expect(ViewLoop.stopKeys([27]) == (true, []))
        #expect(ViewLoop.stopKeys([3]) == (true, []))
        #expect(ViewLoop.stopKeys(Array("\u{1B}[Aq".utf8)) == (false, Array("\u{1B}[Aq".utf8)))
        #expect(ViewLoop.stopKeys(Array("j\u{1B}".utf8)) == (true, Array("j".utf8)))
        #expect(ViewLoop.stopKeys(Array("组".utf8)) == (false, Array("组".utf8)))
    }

    @Test("keys applied before the screen is drawn (a burst) move from where the last one left the cursor, never past the ends")
    func burst() throws {
        var loop = try Self.loop()
        Self.type(&loop, Array(repeating: .down, count: 600) + Array(repeating: .up, count: 400) + Array(repeating: .down, count: 5))
        #expect(loop.screen.current == 5)
        Self.type(&loop, Array(repeating: .pageUp, count: 3) + [.down])
        #expect(loop.screen.current == 1)
    }

    @Test("the status line keeps ? help and q quit at every width, with the warnings counted and w showing them")
    func statusHints() throws {
        for width in [16, 40, 60, 89, 90, 140] {
            var loop = try Self.loop(width: width)
            loop.sheets[0].screen.warnings = ["分数: 1 of 13 cells is text (缺考), sorted after the numbers"]
            let status = Self.status(&loop)
            if width >= 30 {
                #expect(status.hasSuffix(" ? help · q quit "), "\(width): \(status)")
                #expect(
                    status.contains(width >= 90 ? "⚠ 1 warning (w) · s sort · / find · ? help" : "⚠ 1 (w) · ? help"),
                    "\(width): the warnings' count is never cut: \(status)")
            }
            #expect(TextWidthCheck.columns(status) == width, "\(width): \(status)")
        }
        var loop = try Self.loop()
        loop.sheets[0].screen.warnings = ["分数: 1 of 13 cells is text (缺考)"]
        Self.type(&loop, [.character("w")])
        let page = Self.plain(loop.frame())
        #expect(page[0].hasPrefix(" warnings") && page[2].contains("⚠ 分数: 1 of 13 cells is text (缺考)"))
        Self.type(&loop, [.escape])
        #expect(Self.status(&loop).hasPrefix(" row 1/13"))
        // A warning longer than the screen is wrapped, its advice read whole.
        let hint = "hint: row 13 ('平均') looks like a summary row and is sorted with the others; --pin-bottom 组号=平均 keeps it last"
        var narrow = try Self.loop(width: 50)
        narrow.sheets[0].screen.warnings = [hint]
        Self.type(&narrow, [.character("w")])
        let wrapped = Self.plain(narrow.frame())
        let text = wrapped[2...].prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(text.count == 3 && !text.contains { $0.contains("…") }, "\(wrapped)")
        #expect(text.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") == "⚠ " + hint)
        #expect(text.allSatisfy { TextWidthCheck.columns($0) <= 50 })
        #expect(ViewLoop.wrap("一二三四五六七八九十一二三四五六七八九十", width: 10) == ["一二三四五", "  六七八九", "  十一二三", "  四五六七", "  八九十"])
    }

    @Test("VisiData's moves: h j k l as the arrows, G the last row; a key that does nothing says so")
    func visiDataMoves() throws {
        var loop = try Self.loop()
        Self.type(&loop, [.character("j"), .character("j"), .character("k")])
        #expect(loop.screen.current == 1)
        Self.type(&loop, [.character("l"), .character("l"), .character("h")])
        #expect(loop.screen.column == 1)
        Self.type(&loop, [.character("G")])
        #expect(loop.screen.current == loop.screen.grid.displayedRowCount - 1)
        Self.type(&loop, [.character("x")])
        #expect(Self.status(&loop).contains("'x' does nothing here · ? lists the keys"))
        Self.type(&loop, [.character("\u{13}")])
        #expect(Self.status(&loop).contains("that key does nothing here"), "Ctrl-S, unbound, says so too")
        Self.type(&loop, [.down])
        #expect(!Self.status(&loop).contains("does nothing"), "the next key clears it")
        // g is VisiData's prefix: gg the first row, gl / gh the last / first column.
        Self.type(&loop, [.character("g"), .character("g")])
        #expect(loop.screen.current == 0 && loop.prompt == nil, "no longer 'go to row'")
        Self.type(&loop, [.character("g"), .character("l")])
        let last = loop.screen.column
        #expect(last == loop.screen.grid.columns.count - 1)
        Self.type(&loop, [.character("g"), .character("h")])
        #expect(loop.screen.column == 0)
        Self.type(&loop, [.character("g"), .character("z")])
        #expect(Self.status(&loop).contains("g then 'z' does nothing"))
    }

    @Test("[ and ] sort by the current column ascending and descending; g[ and g] add it as a further key")
    func visiDataSorts() throws {
        var loop = try Self.loop()
        let grid = loop.screen.grid
        Self.type(&loop, [.character("l"), .character("l"), .character("]")])
        let third = grid.columns[2].identifier
        #expect(grid.sortKeys.map(\.column) == [third] && grid.sortKeys.map(\.direction) == [.descending])
        Self.type(&loop, [.character("]")])
        #expect(grid.sortKeys.map(\.direction) == [.descending], "] again stays descending (not a cycle)")
        Self.type(&loop, [.character("[")])
        #expect(grid.sortKeys.map(\.direction) == [.ascending])
        Self.type(&loop, [.character("h"), .character("g"), .character("]")])
        #expect(grid.sortKeys.map(\.column) == [third, grid.columns[1].identifier])
        #expect(grid.sortKeys.map(\.direction) == [.ascending, .descending])
        Self.type(&loop, [.character("g"), .character("[")])
        #expect(grid.sortKeys.map(\.direction) == [.ascending, .ascending], "in place where it is a key already")
    }

    @Test("? and F1 show every key on a page that scrolls and closes with q or Esc, without quitting")
    func help() throws {
        var loop = try Self.loop(height: 12)
        for opener in [ViewLoop.Event.character("?"), .f1] {
            Self.type(&loop, [opener])
            var page = Self.plain(loop.frame())
            #expect(page.count == 12 && page[0].contains("keys") && page.last!.contains("q or Esc closes"))
            #expect(page.last!.contains("lines 1–9 of \(ViewLoop.helpPage.count)"))
            Self.type(&loop, [.end])
            page = Self.plain(loop.frame())
            #expect(page[page.count - 2].contains("quit-sheet"), "the last line, the last command by name, is on the page: \(page)")
            #expect(loop.handle(.character("q")) == .go, "q closes the page")
            #expect(loop.page == nil)
        }
        // Every key the loop handles is on the page.
        let page = ViewLoop.helpPage.joined(separator: "\n")
        for key in [
            "n / N", ": (was g)", "gg / G", "gh / gl", "[ / ]", "g[ / g]", "P ", "< / >", "_ ", "- ", "+ ", "F ", "I ", "Enter", "w ", "?, F1 or Ctrl-H",
            "Ctrl-Z",
            "/ ", "e ", "U ", "Ctrl-S", "Ctrl-U", "VisiData's keys here",
        ] {
            #expect(page.contains(key), "\(key) is not on the help page")
        }
    }

    @Test("n and N repeat a find down and up, saying when it went round an end; : jumps to a row number")
    func findAgainAndJump() throws {
        var loop = try Self.loop(by: [])
        #expect(loop.handle(.character("n")) == .go)
        #expect(Self.status(&loop).contains("nothing to repeat"))
        Self.type(&loop, [.character("/")] + Self.text("组1") + [.enter])
        #expect(loop.screen.current == 9, "组10, the next after 组1 itself")
        Self.type(&loop, [.character("n")])
        #expect(loop.screen.current == 10)
        Self.type(&loop, [.character("n"), .character("n")])
        #expect(loop.screen.current == 0 && Self.status(&loop).contains("going round from the top"))
        Self.type(&loop, [.character("N")])
        #expect(loop.screen.current == 11 && Self.status(&loop).contains("going round from the bottom"))
        Self.type(&loop, [.character("N")])
        #expect(loop.screen.current == 10 && !Self.status(&loop).contains("going round"))
        Self.type(&loop, [.character(":")] + Self.text("5") + [.enter])
        #expect(loop.screen.current == 4)
        Self.type(&loop, [.character(":")] + Self.text("1,3") + [.enter])
        #expect(loop.screen.current == 12, "grouping commas are read")
        Self.type(&loop, [.character(":")] + Self.text("99") + [.enter])
        #expect(loop.screen.current == 12 && Self.status(&loop).contains("give a number from 1 to 13"))
        Self.type(&loop, [.character(":")] + Self.text("x") + [.backspace] + Self.text("2") + [.enter])
        #expect(loop.screen.current == 1)
        Self.type(&loop, [.character(":")] + Self.text("7") + [.escape])
        #expect(loop.screen.current == 1, "Esc drops the jump")
    }

    @Test("p pins the current row and p or P on it unpins it back into its sorted place; the 平均 pin goes whole")
    func pinAndUnpin() throws {
        var loop = try Self.loop()
        Self.type(&loop, [.down, .down, .down, .down, .character("p")])  // 组1, 88.5
        var lines = Self.plain(loop.frame())
        #expect(lines.contains { $0.hasPrefix("组1 ") } && loop.screen.grid.pinnedBottomCount == 2)
        Self.type(&loop, [.end])
        #expect(loop.handle(.character("p")) == .go)
        #expect(loop.screen.grid.pinnedBottomCount == 1 && loop.screen.current == 4, "back at 组1's sorted place, the cursor with it")
        #expect(Self.status(&loop).contains("row unpinned"))
        Self.type(&loop, [.character("P")])
        #expect(Self.status(&loop).contains("this row is not pinned"))
        Self.type(&loop, [.end, .character("P")])
        #expect(loop.screen.grid.pinnedBottomCount == 0 && Self.status(&loop).contains("unpinned every 组号 = 平均 row"))
        lines = Self.plain(loop.frame())
        #expect(!lines.contains { $0.hasPrefix("────") && $0 != lines[1] }, "no pinned section left")
    }

    @Test("< and > narrow and widen a column, _ fits it to its widest cell and back, - hides and + shows again")
    func columns() throws {
        var loop = try Self.loop()
        func header() -> String { Self.plain(loop.frame())[0] }
        Self.type(&loop, [.right])  // 组长
        let before = header()
        Self.type(&loop, [.character(">"), .character(">")])
        #expect(header().components(separatedBy: "分数").first!.count == before.components(separatedBy: "分数").first!.count + 4)
        Self.type(&loop, [.character("<"), .character("<"), .character("<")])
        #expect(header().components(separatedBy: "分数").first!.count == before.components(separatedBy: "分数").first!.count - 2)
        Self.type(&loop, [.character("_")])
        #expect(loop.screen.widthOverrides[1] == nil, "_ after < goes back to the measured width")
        Self.type(&loop, [.character("-")])
        #expect(!header().contains("组长") && loop.screen.column == 2, "hidden, the next column current")
        Self.type(&loop, [.left])
        #expect(loop.screen.column == 0, "left skips the hidden column")
        Self.type(&loop, [.character("-"), .character("-"), .character("-")])
        #expect(Self.status(&loop).contains("the last column shown stays") && loop.screen.hiddenColumns.count == 3)
        Self.type(&loop, [.character("+")])
        #expect(header().contains("组长") && header().contains("组号") && Self.status(&loop).contains("3 hidden columns shown again"))
    }

    @Test("F shows a column's values with counts, percents and bars in its sort order; Enter shows their rows; q goes back")
    func frequency() throws {
        var loop = try Self.loop()
        Self.type(&loop, [.right, .right, .character("F")])
        var lines = Self.plain(loop.frame())
        #expect(lines[2].hasPrefix("     99│       1  8.33 "), "descending, as the sheet is sorted: \(lines[2])")
        #expect(lines[3].hasPrefix("     92│       3 25.00 ████████████████████"), "\(lines[3])")
        #expect(Self.status(&loop).contains("values of 分数") && Self.status(&loop).contains("10 values in 12 rows"))
        Self.type(&loop, [.right, .character("s"), .character("s")])  // by count, descending
        lines = Self.plain(loop.frame())
        #expect(lines[2].contains("     92│       3"), "\(lines[2])")
        Self.type(&loop, [.home, .enter])
        lines = Self.plain(loop.frame())
        #expect(lines.dropFirst(2).filter { $0.hasPrefix("组") }.map { String($0.prefix(3)) } == ["组2 ", "组4 ", "组11"], "\(lines)")
        #expect(lines.contains { $0.hasPrefix("平均") }, "the 平均 row stays")
        #expect(Self.status(&loop).contains("分数 = 92") && Self.status(&loop).contains("3 rows"))
        // A frequency table of the filtered rows, and the rows of one of its values: both filters hold.
        Self.type(&loop, [.left, .left, .character("F"), .end, .enter])
        #expect(loop.sheets.count == 5 && loop.screen.grid.bodyRows.count == 1)
        Self.type(&loop, [.character("q"), .character("q"), .character("q"), .character("q")])
        #expect(loop.sheets.count == 1 && loop.screen.grid.bodyRows.count == 12, "the file's sheet, unfiltered")
        #expect(loop.handle(.character("q")) == .quit)
    }

    @Test("I describes every column; Enter goes to the column described")
    func describe() throws {
        var loop = try Self.loop()
        Self.type(&loop, [.character("I")])
        let lines = Self.plain(loop.frame())
        #expect(lines[0].hasPrefix("column") && lines[0].contains("median"))
        let score = lines.first { $0.hasPrefix("分数") } ?? ""
        #expect(score.contains("decimal") && score.contains("60.5") && score.contains("81.375") && score.contains("83.25"), "\(score)")
        Self.type(&loop, [.down, .down, .down, .enter])
        #expect(loop.sheets.count == 1 && loop.screen.column == 3)
    }
}

/// Terminal columns of a line, as the screen counts them.
enum TextWidthCheck {
    static func columns(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) {
            $0
                + ((0x1100...0x115F).contains($1.value) || (0x2E80...0xA4CF).contains($1.value)
                    || (0xAC00...0xD7A3).contains($1.value) || (0xF900...0xFAFF).contains($1.value)
                    || (0xFF00...0xFF60).contains($1.value) ? 2 : 1)
        }
    }
}
