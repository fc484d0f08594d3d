import Foundation
import Testing
@testable import TrellisGrid

/// Numbers as spreadsheets format them: read by value, their text kept.
@Suite("Formatted numbers")
struct FormattedNumberTests {
    func value(_ text: String, decimalComma: Bool = false) -> CellValue {
        CellValue(CellText.classify(text, CellReading(decimalComma: decimalComma)), text: text, numericColumn: true)
    }

    @Test("grouped thousands, percents, currencies and accounting negatives are numbers", arguments: [
        ("1,000,000.00", 1_000_000.0), ("12,000.00", 12_000), ("12%", 0.12), ("-5%", -0.05), ("12.5 %", 0.125),
        ("$1,200", 1200), ("¥1,200.00", 1200), ("￥1,200.00", 1200), ("€12.50", 12.5), ("£3", 3), ("-$1,200", -1200),
        ("$-1,200", -1200), ("(12.50)", -12.5), ("($1,200.00)", -1200), ("1 234,50", 1234.5), ("1\u{00A0}234,50", 1234.5),
        ("1\u{202F}234,50", 1234.5), ("1.234,50", 1234.5), ("1'234.50", 1234.5), ("1.234,50 €", 1234.5), ("1,200元", 1200),
        (".5%", 0.005), ("1,234,567", 1_234_567),
    ] as [(String, Double)])
    func formatted(text: String, expected: Double) {
        let read = value(text)
        switch read {
        case .integer(let i): #expect(Double(i) == expected, "\(text)")
        case .decimal(let d): #expect(abs(d - expected) < 1e-12, "\(text) → \(d)")
        default: Issue.record("\(text) read as \(read)")
        }
    }

    @Test("lists, versions, addresses, dates and half-formatted text stay text", arguments: [
        "1,2,3", "1.2.3", "192.168.1.1", "10.100.200.100", "12,5", "12/25/2023", "1,23", "1,2345", "$", "%", "12%%",
        "(12", "(-12)", "1,000.000.0", "1 234", "$1,2", "12,", "1,,000", "¥", "1.234.567", "abc$1", "1 000 000",
    ])
    func text(text: String) {
        #expect(value(text) == .text(text), "\(text)")
    }

    @Test("where the comma is the decimal mark (a ; file): 1,5 is 1.5, dots group, 1.5 stays 1.5", arguments: [
        ("1,5", 1.5), ("-1,25", -1.25), ("1.234,5", 1234.5), ("1.234.567", 1_234_567), ("1 234", 1234), ("12,5 %", 0.125),
        ("1,500", 1.5), ("1.5", 1.5), ("€ 1.234", 1234),
    ] as [(String, Double)])
    func decimalComma(text: String, expected: Double) {
        let read = value(text, decimalComma: true)
        switch read {
        case .integer(let i): #expect(Double(i) == expected, "\(text)")
        case .decimal(let d): #expect(abs(d - expected) < 1e-12, "\(text) → \(d)")
        default: Issue.record("\(text) read as \(read)")
        }
        #expect(value("1,2,3", decimalComma: true) == .text("1,2,3"))
        #expect(value("1.234,5,6", decimalComma: true) == .text("1.234,5,6"))
    }

    @Test("a column of formatted numbers is a number column and sorts by value; the text is written back as it was")
    func sorted() throws {
        let table = try CSV.table(bytes: Array("名,金额,比例\n甲,\"$1,200.00\",12%\n乙,$950.5,-5%\n丙,\"($2,000.00)\",100%\n丁,\"$12,000\",0.5%\n".utf8))
        #expect(table.columns.map(\.type) == [.text, .decimal, .decimal])
        let grid = DataGrid(bound: table)
        try grid.sort(by: [SortKey("金额", .descending)])
        #expect((0..<4).map { grid.text(grid.displayedRow(at: $0)!, column: 0) } == ["丁", "甲", "乙", "丙"])
        try grid.sort(by: [SortKey("比例")])
        #expect((0..<4).map { grid.text(grid.displayedRow(at: $0)!, column: 2) } == ["-5%", "0.5%", "12%", "100%"])
        #expect(table.text(row: 2, column: 1) == "($2,000.00)")
    }

    @Test("a ;-separated file reads 1,5 as a number and keeps its text; a comma file reads its quoted 1,5 as text")
    func semicolonFile() throws {
        let table = try CSV.table(bytes: Array("name;score\nA;1,5\nB;10\nC;2,25\n".utf8))
        #expect(table.columns[1].type == .decimal)
        let grid = DataGrid(bound: table)
        try grid.sort(by: [SortKey("score")])
        #expect((0..<3).map { grid.text(grid.displayedRow(at: $0)!, column: 1) } == ["1,5", "2,25", "10"])
        let comma = try CSV.table(bytes: Array("name,score\nA,\"1,5\"\nB,10\nC,\"2,25\"\n".utf8))
        #expect(comma.value(row: 0, column: 1) == .text("1,5"))
    }
}
