import Foundation
import Testing
import TrellisTestSupport

@testable import TrellisGrid

/// Numbers as spreadsheets format them: read by value, their text kept.
@Suite("Formatted numbers")
struct FormattedNumberTests {
    func value(_ text: String, decimalComma: Bool = false) -> CellValue {
        CellValue(CellText.classify(text, CellReading(decimalComma: decimalComma)), text: text, numericColumn: true)
    }

    @Test(
        "grouped thousands, percents, currencies and accounting negatives are numbers",
        arguments: [
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

    @Test(
        "lists, versions, addresses and half-formatted text stay text",
        arguments: [
            "1,2,3", "1.2.3", "192.168.1.1", "10.100.200.100", "12,5", "1,23", "1,2345", "$", "%", "12%%",
            "(12", "(-12)", "1,000.000.0", "1 234", "$1,2", "12,", "1,,000", "¥", "1.234.567", "abc$1", "1 000 000",
        ])
    func text(text: String) {
        #expect(value(text) == .text(text), "\(text)")
    }

    @Test(
        "where the comma is the decimal mark (a ; file): 1,5 is 1.5, dots group, 1.5 stays 1.5",
        arguments: [
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

/// Dates in the forms spreadsheets write, and the order of a column's day and month.
@Suite("Date forms")
struct DateFormTests {
    static func day(_ year: Int, _ month: Int, _ day: Int, _ seconds: Int = 0) -> Date {
        Date(timeIntervalSince1970: Double(CellText.daysFromCivil(year, month, day) * 86_400 + seconds))
    }

    @Test(
        "year first with - / . or 年月日, year last in the order given, dots day first, with an optional time",
        arguments: [
            ("2024/3/1", DateOrder.mdy, day(2024, 3, 1)), ("2024-3-1", .mdy, day(2024, 3, 1)), ("2024.03.01", .mdy, day(2024, 3, 1)),
            ("2024年3月1日", .mdy, day(2024, 3, 1)), ("12/25/2023", .mdy, day(2023, 12, 25)), ("3/1/2024", .mdy, day(2024, 3, 1)),
            ("3/1/2024", .dmy, day(2024, 1, 3)), ("25/12/2023", .dmy, day(2023, 12, 25)), ("1.3.2024", .mdy, day(2024, 3, 1)),
            ("2024/3/1 9:30", .mdy, day(2024, 3, 1, 9 * 3600 + 1800)), ("2024年3月1日 14:05:09", .mdy, day(2024, 3, 1, 14 * 3600 + 309)),
            ("3-1-2024", .mdy, day(2024, 3, 1)), ("2024/2/29", .ymd, day(2024, 2, 29)),
        ])
    func forms(text: String, order: DateOrder, expected: Date) {
        #expect(
            CellValue(CellText.classify(text, CellReading(dateOrder: order)), text: text, numericColumn: false) == .date(expected),
            "\(text)")
    }

    @Test(
        "impossible or half dates stay text",
        arguments: [
            ("2023/2/29", DateOrder.mdy), ("13/1/2024", .mdy), ("3/1/2024", .ymd), ("2024/3", .mdy), ("2024年3月1", .mdy), ("2024年3/1", .mdy),
            ("2024/3-1", .mdy), ("3/1/24", .mdy), ("2024/3/1 25:00", .mdy), ("2024/3/1 9:3", .mdy), ("2024/03/001", .mdy), ("1/2/3/2024", .mdy),
        ])
    func notDates(text: String, order: DateOrder) {
        #expect(CellText.classify(text, CellReading(dateOrder: order)).kind == .text, "\(text)")
    }

    @Test("a column whose dates can only be day first is read day first; one that cannot tell is month first, with a note")
    func columnOrder() throws {
        let dayFirst = try CSV.table(bytes: Array("d\n25/12/2023\n3/1/2024\n13/1/2024\n".utf8))
        #expect(dayFirst.columns[0].type == .date && dayFirst.dateNotes.isEmpty)
        #expect(dayFirst.value(row: 1, column: 0) == .date(Self.day(2024, 1, 3)))
        let monthFirst = try CSV.table(bytes: Array("d\n12/25/2023\n3/1/2024\n".utf8))
        #expect(monthFirst.value(row: 1, column: 0) == .date(Self.day(2024, 3, 1)) && monthFirst.dateNotes.isEmpty)
        let either = try CSV.table(bytes: Array("d,n\n2/12/2023,1\n3/1/2024,2\n".utf8))
        #expect(either.dateNotes == [DateOrderNote(column: "d", example: "2/12/2023", mixed: false)])
        let mixed = try CSV.table(bytes: Array("d\n25/12/2023\n12/25/2023\n1/2/2024\n".utf8))
        #expect(mixed.dateNotes.map(\.mixed) == [true] && mixed.value(row: 0, column: 0) == .text("25/12/2023"))
        let told = try CSV.table(bytes: Array("d\n2/12/2023\n3/1/2024\n".utf8), dateOrder: .dmy)
        #expect(told.dateNotes.isEmpty && told.value(row: 0, column: 0) == .date(Self.day(2023, 12, 2)))
        let grid = DataGrid(bound: dayFirst)
        try grid.sort(by: [SortKey("d", .descending)])
        #expect((0..<3).map { grid.text(grid.displayedRow(at: $0)!, column: 0) } == ["13/1/2024", "3/1/2024", "25/12/2023"])
    }
}

@Suite("Formatted values: random text")
struct FormattedFuzzTests {
    @Test("random strings of digits, signs, separators, currency and date marks never crash the reader, in every reading")
    func random() {
        var rng = SeededRandom(seed: 77)
        let pieces = [
            "1", "2", "9", "0", "12", "123", ",", ".", " ", "\u{00A0}", "\u{202F}", "'", "’", "-", "+", "(", ")", "$", "¥",
            "￥", "€", "£", "元", "%", "/", "年", "月", "日", ":", "T", "e", "2024", "万", "#", "\u{3000}",
        ]
        var numbers = 0
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 0...9, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            for reading in [CellReading(), CellReading(decimalComma: true), CellReading(dateOrder: .dmy), CellReading(type: .integer)] {
                let cell = CellText.classify(text, reading)
                if cell.kind.isNumber { numbers += 1 }
            }
        }
        #expect(numbers > 1000, "the random texts reach the number paths")
    }
}

@Suite("Recomputed values in their row's own style")
struct StyledValueTests {
    @Test(
        "a value is written as the template writes its number: currency, grouping, decimal mark, percent, parentheses",
        arguments: [
            (50.1667, nil, "$1,000.00", "$50.17"), (-2000, nil, "($2,000.00)", "($2,000.00)"), (1234567.891, nil, "$1,000.00", "$1,234,567.89"),
            (333740.75, nil, "333.740,75", "333.740,75"), (0.391666, nil, "39,2 %", "39,2 %"), (0.35667, nil, "50.0%", "35.7%"),
            (1234.5, nil, "1 234,50", "1 234,50"), (1200, nil, "¥1,200.00", "¥1,200.00"), (85.25, 3, "85,50", "85,250"),
            (-5.5, nil, "-1.234,50 €", "-5,50 €"), (1200, nil, "1,200元", "1,200元"), (0.05, nil, "5%", "5%"),
        ] as [(Double, Int?, String, String)])
    func styled(value: Double, decimals: Int?, template: String, expected: String) {
        #expect(DecimalFormat.format(value, decimals: decimals, like: template) == expected, "\(template)")
    }

    @Test("plain numbers and texts without a number are left to the plain writer", arguments: ["85.50", "-3", "+5", "12", "缺考", ""])
    func plain(template: String) {
        #expect(DecimalFormat.format(1.5, decimals: 2, like: template) == nil)
    }

    @Test("a recomputed Mittel row of a German export keeps its style; labels in German, French and Spanish name their function")
    func germanRow() throws {
        let text = "Name;Betrag;Anteil\nA;1.234,50;12,5 %\nB;-12,25;5,0 %\nC;1.000.000,00;100,0 %\nMittel;0,00;0,0 %\n"
        let grid = DataGrid(bound: try CSV.table(bytes: Array(text.utf8)))
        try grid.pin(.matching(column: "Name", value: "Mittel"), at: .bottom, recomputing: SummaryFunction(label: "Mittel"))
        let row = grid.displayedRow(at: 3)!
        #expect(grid.text(row, column: 1) == "333740,75" && grid.text(row, column: 2) == "39,2 %", "as the row wrote 0,00 and 0,0 %")
        for (label, function) in [("Mittelwert", "mean"), ("Summe", "sum"), ("moyenne", "mean"), ("suma", "sum"), ("Gesamt", "sum")] {
            #expect(SummaryFunction(label: label)?.description == function)
        }
    }

    /// A double's exact decimal digits, a digit at a time: the reference.
    static func referenceDigits(_ value: Double) -> (digits: [UInt8], exponent: Int) {
        guard value != 0, value.isFinite else { return ([], 0) }
        var significand = value.significandBitPattern | (value.isNormal ? 1 << UInt64(Double.significandBitCount) : 0)
        var shift = value.isNormal ? Int(value.exponent) - Double.significandBitCount : -1074
        while significand & 1 == 0 { significand >>= 1; shift += 1 }
        var number: [UInt8] = []
        var s = significand
        while s > 0 { number.append(UInt8(s % 10)); s /= 10 }
        for _ in 0..<abs(shift) {
            var carry = 0
            for k in number.indices {
                let product = Int(number[k]) * (shift > 0 ? 2 : 5) + carry
                number[k] = UInt8(product % 10)
                carry = product / 10
            }
            while carry > 0 { number.append(UInt8(carry % 10)); carry /= 10 }
        }
        var digits = Array(number.reversed())
        var exponent = digits.count + min(shift, 0)
        while digits.first == 0 { digits.removeFirst(); exponent -= 1 }
        while digits.last == 0 { digits.removeLast() }
        return (digits, exponent)
    }

    @Test("a double's exact decimal digits are those of the digit-at-a-time reference, from subnormals to the largest double")
    func exactDigitsOfDoubles() {
        var rng = SeededRandom(seed: 2026)
        var values: [Double] = [
            0.1, 1.0 / 3, 2.5, -0.125, 123_456.789, 1e22, 1e23, .leastNonzeroMagnitude, .leastNormalMagnitude,
            .greatestFiniteMagnitude, -(.ulpOfOne), 81.375, 9_007_199_254_740_992,
        ]
        for _ in 0..<400 { values.append(Double(bitPattern: UInt64.random(in: 0...0x7FEF_FFFF_FFFF_FFFF, using: &rng))) }
        for _ in 0..<400 { values.append(Double(Int.random(in: -1_000_000...1_000_000, using: &rng)) / 100) }
        for value in values {
            let exact = ExactDecimal(value)
            let reference = Self.referenceDigits(value)
            #expect(exact.digits == reference.digits && exact.exponent == reference.exponent && exact.negative == (value < 0), "\(value)")
        }
        #expect(ExactDecimal(0.1).digits.map(String.init).joined() == "1000000000000000055511151231257827021181583404541015625")
        #expect(ExactDecimal(0.1).exponent == 0)
    }
}
