import Foundation
import Testing
import TrellisGrid

@testable import TrellisCLI

@Suite("The viewer's screen")
struct GridScreenTests {
    @Test("a cell's control characters are shown as escapes, never sent to the terminal; lines keep their width")
    func controlCharacters() throws {
        let fitted = GridScreen.fit("a\u{1B}[2Jb\nc\u{202E}", 12, right: false)
        #expect(!fitted.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x202E })
        #expect(fitted == "a\\u{1B}[2Jb…")
        #expect(GridScreen.fit("组1\t", 8, right: true) == "   组1\\t")
        // A whole screen over a table holding an escape sequence: no line carries it.
        let table = try CSV.table(Data("name,note\n组1,\"\u{1B}[31mred\u{1B}[0m\"\n组2,\"two\nlines\"\n".utf8))
        var screen = GridScreen(grid: DataGrid(bound: table), width: 40, height: 8)
        screen.settle()
        let lines = screen.lines()
        #expect(lines.count == 8)
        let body = lines.dropFirst(2).dropLast().joined()
        #expect(body.contains("\\u{1B}[31mred") && body.contains("two\\nlines"), "\(body)")
        // Only the screen's own styling escapes are left: reverse video and underline around cells.
        let own = body.replacingOccurrences(of: "\u{1B}[7m", with: "").replacingOccurrences(of: "\u{1B}[27m", with: "")
            .replacingOccurrences(of: "\u{1B}[4m", with: "").replacingOccurrences(of: "\u{1B}[24m", with: "")
        #expect(!own.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x0A })
    }
}

extension GridScreenTests {
    @Test("the current column is marked in the header as well as in the current row, and the mark follows it")
    func currentColumnInHeader() throws {
        let table = try CSV.table(Data("组号,组长,分数\n组1,张伟,88.5\n组2,王芳,92\n".utf8))
        var screen = GridScreen(grid: DataGrid(bound: table), width: 40, height: 8)
        screen.settle()
        var header = screen.lines()[0]
        #expect(header.contains("\u{1B}[7m组号"), "\(header.debugDescription)")
        screen.column = 2
        screen.settle()
        header = screen.lines()[0]
        #expect(header.contains("\u{1B}[7m") && !header.contains("\u{1B}[7m组号"))
        let marked = header.components(separatedBy: "\u{1B}[7m")[1].components(separatedBy: "\u{1B}[27m")[0]
        #expect(marked.trimmingCharacters(in: .whitespaces) == "分数", "\(marked.debugDescription)")
        #expect(Self.withoutOwnStyling(header).hasPrefix("组号"), "the title itself is unchanged")
    }

    static func grouped(_ n: Int) -> String { GridScreen.grouped(n) }

    /// The escapes the screen writes itself: bold, reverse video, underline, and their ends.
    static func withoutOwnStyling(_ text: String) -> String {
        ["\u{1B}[1m", "\u{1B}[22m", "\u{1B}[7m", "\u{1B}[27m", "\u{1B}[4m", "\u{1B}[24m"]
            .reduce(text) { $0.replacingOccurrences(of: $1, with: "") }
    }

    @Test("hostile cells — OSC 52 clipboard writes, CSI, C1, BEL, bidi overrides, joiners, 100 KB cells, 5,000 columns — reach no terminal, at any size")
    func hostileCells() throws {
        let hostile = [
            "\u{1B}]52;c;SGVsbG8=\u{07}", "\u{1B}[2J\u{1B}[H", "\u{9B}31m", "\u{07}\u{07}", "\u{202E}evil\u{202C}",
            "👨‍👩‍👧‍👦 family", String(repeating: "长", count: 100_000), "\u{1B}P1;2|ab\u{1B}\\", "\u{8D}\u{8E}\u{90}",
        ]
        var csv = "name,note\n"
        for (i, cell) in hostile.enumerated() { csv += "组\(i),\"\(cell.replacingOccurrences(of: "\"", with: "\"\""))\"\n" }
        let wide = (0..<5_000).map { "c\($0)" }.joined(separator: ",") + "\n" + (0..<5_000).map { "\u{1B}]52;c;\($0)\u{07}" }.joined(separator: ",") + "\n"
        for text in [csv, wide] {
            let table = try CSV.table(Data(text.utf8))
            for (width, height) in [(80, 24), (1, 1), (2, 3), (20, 5), (400, 60)] {
                var screen = GridScreen(grid: DataGrid(bound: table), width: width, height: height)
                screen.settle()
                let lines = screen.lines()
                #expect(lines.count == height, "\(width)×\(height)")
                let own = Self.withoutOwnStyling(lines.joined())
                #expect(
                    !own.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E },
                    "\(width)×\(height): a control character reached the screen")
            }
        }
    }
}

extension GridScreenTests {
    @Test("a grouped grid shows each subtotal row in bold with its group, the grand total below the line")
    func subtotalRowsInBold() throws {
        let table = try CSV.table(Data("地区,城市,销售额\n华东,上海,300\n华东,杭州,100\n华东 汇总,,400\n华北,北京,500\n华北 汇总,,500\n总计,,900\n".utf8))
        let grid = DataGrid(bound: table)
        try grid.apply(SortPlan(keys: [SortKey("销售额")], grouping: RowGrouping.detect(in: table)))
        var screen = GridScreen(grid: grid, width: 40, height: 12)
        screen.current = 0
        screen.settle()
        let lines = screen.lines()
        let bold = lines.dropFirst(2).filter { $0.hasPrefix("\u{1B}[1m") }.map { Self.withoutOwnStyling($0) }
        #expect(bold.count == 2, "\(lines)")
        #expect(bold.allSatisfy { $0.contains("汇总") })
        let plain = lines.map { Self.withoutOwnStyling($0) }
        #expect(plain[2].hasPrefix("华东") && plain[2].contains("杭州"), "\(plain)")
        #expect(plain[4].hasPrefix("华东 汇总"), "\(plain)")
        #expect(plain.contains { $0.hasPrefix("总计") })
    }
}
