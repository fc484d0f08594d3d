import Foundation
import Testing
@testable import TrellisCLI
import TrellisGrid

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
