import Foundation
import Testing
import TrellisGrid
import TrellisRender

@Suite("Grid output")
struct GridRendererTests {
    func grid() throws -> DataGrid {
        let table = try Table(columns: [Column("组号"), Column("分数", type: .decimal), Column("备注")], rows: [
            [.text("组2"), .decimal(92), .text("<b>&amp;</b>")],
            [.text("组10"), .decimal(64), .text("=1+1")],
            [.text("平均"), .decimal(78), .missing],
        ])
        let grid = DataGrid(bound: table)
        try grid.pin(.matching(column: "组号", value: "平均"), at: .pinnedBottom)
        try grid.sort(by: [SortKey("组号")])
        return grid
    }

    @Test("East Asian wide characters take two columns", arguments: [
        ("组号", 4), ("abc", 3), ("组2", 3), ("é", 1), ("e\u{301}", 1), ("ｆｕｌｌ", 8), ("😀", 2), ("", 0),
    ])
    func widths(text: String, width: Int) {
        #expect(GridRenderer.displayWidth(text) == width)
    }

    @Test("the text table aligns by display width and separates pinned rows by a rule")
    func textTable() throws {
        let text = GridRenderer.text(try grid())
        let lines = text.components(separatedBy: "\n").filter { !$0.isEmpty }
        #expect(lines[0] == "组号 ▲  分数  备注")
        #expect(lines[2] == "组2       92  <b>&amp;</b>")
        #expect(lines[3] == "组10      64  =1+1")
        #expect(lines[4].hasPrefix("──"))
        #expect(lines[5] == "平均      78")
        let widths = Set([lines[2], lines[3]].map { GridRenderer.displayWidth(String($0.prefix(13))) })
        #expect(widths.count == 1, "columns line up by display width")
    }

    @Test("HTML escapes every cell and puts pinned rows in the table footer")
    func html() throws {
        let page = GridRenderer.html(try grid(), title: "<t>")
        #expect(page.contains("<td>&lt;b&gt;&amp;amp;&lt;/b&gt;</td>"))
        #expect(page.contains("<title>&lt;t&gt;</title>"))
        let footer = page.components(separatedBy: "<tfoot>")[1]
        #expect(footer.contains("平均") && !footer.contains("组2"))
        #expect(page.contains("aria-sort=\"ascending\""))
    }

    @Test("CSV output neutralises formulas unless asked not to, and JSON keeps numbers as numbers")
    func csvAndJSON() throws {
        let g = try grid()
        #expect(GridRenderer.csv(g, neutralizeFormulas: true).contains("'=1+1"))
        #expect(!GridRenderer.csv(g, neutralizeFormulas: false).contains("'="))
        let json = GridRenderer.json(g)
        #expect(json.contains(#"{"source": 0, "region": "body", "cells": ["组2", 92, "<b>&amp;</b>"]}"#))
        #expect(json.contains(#""region": "pinnedBottom", "cells": ["平均", 78, null]"#))
    }
}
