import Foundation
import Testing
import TrellisGrid
import TrellisText

@testable import TrellisRender

@Suite("Grid output")
struct GridRendererTests {
    func grid() throws -> DataGrid {
        let table = try Table(
            columns: [Column("组号"), Column("分数", type: .decimal), Column("备注")],
            rows: [
                [.text("组2"), .decimal(92), .text("<b>&amp;</b>")],
                [.text("组10"), .decimal(64), .text("=1+1")],
                [.text("平均"), .decimal(78), .missing],
            ])
        let grid = DataGrid(bound: table)
        try grid.pin(.matching(column: "组号", value: "平均"), at: .bottom)
        try grid.sort(by: [SortKey("组号")])
        return grid
    }

    @Test(
        "East Asian wide characters take two columns",
        arguments: [
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

    @Test("every format writes each cell as it was read; JSON writes one type per column and the texts its values do not spell")
    func textKeptInEveryFormat() throws {
        let csv = "k,v,flag\n0,007,FALSE\n1,1.50,true\n2,2.0,x\n3,1e3,y\n4,+5,z\n5,-0,w\n6,  12 ,v\n7,NaN,u\n"
        let grid = DataGrid(bound: try CSV.table(Data(csv.utf8)))
        try grid.sort(by: [SortKey("v", .descending)])
        let text = GridRenderer.text(grid), html = GridRenderer.html(grid, title: "t")
        let out = GridRenderer.csv(grid, neutralizeFormulas: true), json = GridRenderer.json(grid)
        for cell in ["007", "1.50", "2.0", "1e3", "+5", "-0", "NaN", "FALSE"] {
            #expect(text.contains(cell) && html.contains(cell) && out.contains(cell) && json.contains(cell), "\(cell)")
        }
        #expect(out.contains("6,  12 ,v\n"), "surrounding spaces kept: the record is copied as the file has it")
        #expect(out.contains("4,+5,z\n") && out.contains("5,-0,w\n"), "a signed number is not a formula")
        #expect(json.contains(#"[3, 1e3, "y"]"#) && json.contains(#"[0, 7, "FALSE"], "texts": {"v": "007"}"#), "\(json)")
        #expect(json.contains(#"[4, 5, "z"], "texts": {"v": "+5"}"#))
        #expect(
            json.contains(#"[1, 1.50, "true"]"#) && json.contains(#"[6, 12, "v"], "texts": {"v": "  12 "}"#),
            "flag is a text column (mostly text): its truth values are strings")
        #expect(json.contains(#"[7, null, "u"], "texts": {"v": "NaN"}"#))
        let truths = GridRenderer.json(DataGrid(bound: try CSV.table(Data("b\ntrue\nFALSE\nx\nfalse\n".utf8))))
        #expect(
            truths.contains(#""cells": [true]}"#) && truths.contains(#""cells": [false], "texts": {"b": "FALSE"}}"#)
                && truths.contains(#""cells": [null], "texts": {"b": "x"}}"#), "one JSON type in a truth-value column")
        #expect(out.hasPrefix("k,v,flag\n"), "the file's own line breaks")
    }

    @Test(
        "formula-like text is neutralised, numbers are not",
        arguments: [
            ("=1+1", true), ("-inf", true), ("+nan", true), ("+0x1p3", true), ("@x", true), ("-1+1", true),
            ("-5", false), ("+1.5e3", false), ("-0", false), ("abc", false),
        ])
    func formulas(cell: String, neutralised: Bool) {
        #expect(CSV.field(cell, neutralizeFormulas: true) == (neutralised ? "'" + cell : cell))
    }

    @Test("the text table escapes control characters, C1 controls and bidi overrides")
    func controls() throws {
        let table = try Table(columns: [Column("a")], rows: [[.text("x\u{202E}y\u{85}z\u{1B}[31m")]])
        let text = GridRenderer.text(DataGrid(bound: table))
        #expect(text.contains(#"x\u{202E}y\u{85}z\u{1B}[31m"#))
        #expect(!text.unicodeScalars.contains { $0.value == 0x202E || $0.value == 0x85 || $0.value == 0x1B })
    }

    @Test("CSV written in two halves at once is the same bytes")
    func csvInHalves() throws {
        var csv = "k,v,note\n"
        for k in 0..<500 { csv += "\(k),\((k * 7919) % 1000),\(k % 3 == 0 ? "\"a, b\"" : k % 5 == 0 ? "=1+\(k)" : "x")\n" }
        let grid = DataGrid(bound: try CSV.table(Data(csv.utf8)))
        try grid.pin(.matching(column: "k", value: "7"), at: .top)
        try grid.addSummary(SummaryRow(.mean, columns: ["v"]))
        try grid.sort(by: [SortKey("v", .descending)])
        for neutralize in [true, false] {
            let whole = TextOutput(), halves = TextOutput()
            GridRenderer.writeCSV(grid, neutralizeFormulas: neutralize, to: whole, splitAbove: .max)
            GridRenderer.writeCSV(grid, neutralizeFormulas: neutralize, to: halves, splitAbove: 0)
            try whole.finish()
            try halves.finish()
            #expect(whole.collected == halves.collected && whole.collected.count > 5000)
        }
    }

    @Test(
        "sorted CSV copies each row's record from the file in the sorted order; guarded rows and summaries are written field by field",
        arguments: [0, Int.max])
    func recordsInSortedOrder(splitAbove: Int) throws {
        var lines = ["k,v,note"]
        // More rows than four of the writer's batches of 256, the last one short.
        for k in 0..<1100 { lines.append("\(k),\((k * 7919) % 1000),\(k % 3 == 0 ? "\"a, b\"" : k % 5 == 0 ? "=1+\(k)" : "\"x\"")") }
        let grid = DataGrid(bound: try CSV.table(Data((lines.joined(separator: "\n") + "\n").utf8)))
        try grid.pin(.matching(column: "k", value: "7"), at: .top)
        try grid.addSummary(SummaryRow(.mean, columns: ["v"]))
        try grid.sort(by: [SortKey("v", .descending)])
        for neutralize in [true, false] {
            let out = TextOutput()
            GridRenderer.writeCSV(grid, neutralizeFormulas: neutralize, to: out, splitAbove: splitAbove)
            try out.finish()
            let written = String(decoding: out.collected, as: UTF8.self).components(separatedBy: "\n")
            #expect(written.first == "k,v,note" && written.count == grid.displayedRowCount + 2)
            for (index, row) in grid.displayedRows.enumerated() {
                let line = written[index + 1]
                guard case .source(let source) = row else {
                    #expect(line == "mean,499,", "the summary, field by field (the mean 498.7 with v's no decimals)")
                    continue
                }
                let record = lines[source + 1]
                // A formula is guarded with a leading ' (the record then written field by field,
                // its other cells quoted only where they must be); any other record as the file has it.
                let expected = neutralize && record.contains("=1+") ? record.replacingOccurrences(of: ",=1+", with: ",'=1+") : record
                #expect(line == expected, "display row \(index), source row \(source)")
            }
        }
    }

    @Test(
        "CSV in another encoding, written and encoded in two halves at once, is the same bytes, mark and all",
        arguments: [TextEncoding.gb18030, .utf16LittleEndian, .utf8])
    func encodedInHalves(encoding: TextEncoding) throws {
        var csv = "组号\t分数\t备注\n"
        for k in 0..<400 { csv += "组\(k)\t\((k * 7919) % 1000)\t\(k % 3 == 0 ? "平均以上" : "")\n" }
        let bytes = encoding.byteOrderMark + (try encoding.encode(Array(csv.utf8)))
        let grid = DataGrid(bound: try CSV.table(bytes: bytes))
        try grid.addSummary(SummaryRow(label: "平均", .mean, columns: ["分数"]))
        try grid.sort(by: [SortKey("分数", .descending)])
        let whole = TextOutput(encoding: encoding), halves = TextOutput(encoding: encoding)
        GridRenderer.writeCSV(grid, neutralizeFormulas: true, to: whole, splitAbove: .max)
        GridRenderer.writeCSV(grid, neutralizeFormulas: true, to: halves, splitAbove: 0)
        try whole.finish()
        try halves.finish()
        #expect(whole.collected == halves.collected)
        #expect(whole.collected.starts(with: encoding.byteOrderMark + (try encoding.encode(Array("组号\t分数".utf8)))))
        let back = String(decoding: try encoding.decode(Array(whole.collected.dropFirst(encoding.byteOrderMark.count))), as: UTF8.self)
        #expect(back.hasSuffix("\n平均\t501\t\n"), "the mean 500.5 with the column's no decimals, as the file's tabs: \(back.suffix(40))")
    }
}
