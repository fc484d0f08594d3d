import Foundation
import Testing
import TrellisTestSupport

@testable import TrellisGrid

/// The shapes spreadsheet programs export: names shared or missing, rows that leave out empty
/// trailing cells, a title above the header, Excel's `sep=` line.
@Suite("CSV export shapes")
struct ShapeTests {
    @Test(
        "identifiers: a name for its first column, NAME#k for the k-th, #N for an unnamed column N; never a column's own name",
        arguments: [
            (["a", "b"], ["a", "b"]),
            (["备注", "x", "备注", "备注"], ["备注", "x", "备注#2", "备注#3"]),
            (["a", "", ""], ["a", "#2", "#3"]),
            (["a", "a", "a#2"], ["a", "#2", "a#2"]),  // a made name that is a column's own yields #N
            (["", "#1"], ["#1#2", "#1"]),
            (["", ""], ["#1", "#2"]),
        ])
    func identifiers(header: [String], expected: [String]) {
        let made = CSV.identifiers(of: header)
        #expect(made == expected)
        #expect(Set(made).count == made.count)
    }

    @Test("columns that share a name or have none load with unique identifiers and keep their names as titles")
    func sharedNames() throws {
        let table = try CSV.table(bytes: Array("组号,备注,备注,,\n组1,a,b,,\n".utf8))
        #expect(table.columns.map(\.identifier) == ["组号", "备注", "备注#2", "#4", "#5"])
        #expect(table.columns.map(\.title) == ["组号", "备注", "备注", "", ""])
        #expect(table.text(row: 0, column: 2) == "b")
        let typed = try CSV.table(bytes: Array("a,a\n1,2\n".utf8), types: ["a#2": .text])
        #expect(typed.columns.map(\.type) == [.integer, .text], "a type reaches the second column by its identifier")
    }

    @Test("a row may leave out trailing columns without a name (blank cells), in one read or two halves", arguments: [0, 1 << 30])
    func shortRows(splitAbove: Int) throws {
        var text = "k,v,,\r\n"
        for i in 0..<40 { text += i % 3 == 0 ? "\(i),\(i * 7 % 11)\r\n" : "\(i),\(i * 7 % 11),,\r\n" }
        let table = try CSV.table(bytes: Array(text.utf8), types: [:], splitAbove: splitAbove)
        #expect(table.rowCount == 40 && table.columns.count == 4)
        #expect(table.value(row: 0, column: 2) == .missing && table.value(row: 0, column: 3) == .missing)
        #expect(table.value(row: 3, column: 1) == .integer(10))
        #expect(throws: CSVError(line: 2, column: 1, problem: .wrongFieldCount(found: 1, expected: 3))) {
            try CSV.table(bytes: Array("k,v,\n1\n".utf8))
        }
    }

    @Test("a header row: the lines above are kept aside, lines are counted from the top of the file", arguments: [0, 1 << 30])
    func headerRow(splitAbove: Int) throws {
        var text = "\u{FEFF}成绩表,,\n\"注: a, b\",,\n\n名,分,备注\n"
        for i in 0..<30 { text += "名\(i),\(i),\n" }
        let bytes = Array(text.utf8)
        let table = try CSV.table(bytes: bytes, types: [:], headerRow: 4, splitAbove: splitAbove)
        #expect(table.columns.map(\.identifier) == ["名", "分", "备注"] && table.rowCount == 30)
        #expect(table.csvFormat.leadingLines == Array("成绩表,,\n\"注: a, b\",,\n\n".utf8) && table.csvFormat.byteOrderMark)
        #expect(table.csvFormat.likelyHeaderLine == nil)
        #expect(throws: CSVError(line: 6, column: 1, problem: .wrongFieldCount(found: 2, expected: 3))) {
            try CSV.table(bytes: Array("t\n\nx\na,b,c\n1,2,3\n1,2\n".utf8), types: [:], headerRow: 4, splitAbove: splitAbove)
        }
        #expect(throws: CSVError.self) { try CSV.table(bytes: Array("a\n\"x\ny\"\n".utf8), headerRow: 3) }
        #expect(throws: CSVError.self) { try CSV.table(bytes: Array("a,b\n1,2\n".utf8), headerRow: 3) }
        #expect(throws: CSVError.self) { try CSV.table(bytes: Array("a,b\n1,2\n".utf8), headerRow: 0) }
        let first = try CSV.table(bytes: Array("a,b\n1,2\n".utf8), headerRow: 1)
        #expect(first.columns.count == 2 && first.csvFormat.leadingLines.isEmpty)
    }

    @Test(
        "a title above the header is noticed, for any delimiter; a table that starts with its header is not",
        arguments: [
            ("成绩\n\n名,分\n1,2\n", 3),
            ("成绩,,\n,,\n,,\n名,分,备注\n", 4),
            ("成绩;;\n;;\n名;分;备注\n", 3),
            ("名,分\n1,2\n", nil),
            ("名\n\n1\n", nil),  // one column: the blank line is a blank cell
            ("说明,\n,\n,\n", nil),  // nothing with two cells under it
            ("a,b\n,\nc,d\n", nil),  // two cells on line 1: a header
        ] as [(String, Int?)])
    func likelyTitle(text: String, line: Int?) {
        #expect(Array(text.utf8).withUnsafeBufferPointer { CSV.likelyHeaderLine($0, from: 0) } == line, "\(text.debugDescription)")
    }

    @Test("Excel's sep= line names the delimiter and is kept aside; a first line that merely starts so is the header")
    func separatorLine() throws {
        let table = try CSV.table(bytes: Array("sep=|\r\na|b\r\n1,5|2\r\n".utf8))
        #expect(table.csvFormat.delimiter == 0x7C && !table.csvFormat.delimiterWasDetected)
        #expect(table.csvFormat.separatorLine == Array("sep=|\r\n".utf8) && table.text(row: 0, column: 0) == "1,5")
        let forced = try CSV.table(bytes: Array("sep=;\na,b\n1,2\n".utf8), delimiter: 0x2C)
        #expect(forced.columns.count == 2, "--delimiter wins over the line")
        let header = try CSV.table(bytes: Array("sep=x,b\n1,2\n".utf8))
        #expect(header.columns.map(\.identifier) == ["sep=x", "b"] && header.csvFormat.separatorLine == nil)
        #expect(throws: CSVError(line: 3, column: 1, problem: .wrongFieldCount(found: 1, expected: 2))) {
            try CSV.table(bytes: Array("sep=;\na;b\n1\n".utf8))
        }
    }

    @Test("身份证号 ending in X sort among the others: digit strings of one length with a letter last are one run of text")
    func identifiers() throws {
        let ids = ["110105194912310021", "11010519491231002X", "110105194912310013", "440524188001010014", "", "11010519491231003x"]
        let table = try CSV.table(bytes: Array(("id\n" + ids.joined(separator: "\n") + "\n").utf8))
        #expect(table.columns[0].type == .text && table.columns[0].textComparator == .lexical)
        #expect(table.value(row: 0, column: 0) == .text("110105194912310021"), "the text is the value: nothing rounds")
        let grid = DataGrid(bound: table)
        try grid.sort(by: [SortKey("id")])
        #expect(grid.displayedRows == [.source(2), .source(0), .source(1), .source(5), .source(3), .source(4)])
        #expect(table.typeWarnings(amongRows: { _ in true }).isEmpty)
        // Not identifiers: lengths differ, a decimal, or mostly text.
        for column in [["1234567", "123456X", "12345678"], ["123456", "12345X", "1.5"], ["123456", "12345X", "12345Y"]] {
            let other = try CSV.table(bytes: Array(("id\n" + column.joined(separator: "\n") + "\n").utf8))
            #expect(other.columns[0].textComparator == .natural, "\(column)")
        }
    }
}
