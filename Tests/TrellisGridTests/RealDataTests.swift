import Foundation
import Testing
import TrellisTestSupport
import TrellisText

@testable import TrellisGrid

/// The rules that real spreadsheets test: exact numbers, texts kept as written, stray cells,
/// Unicode, Chinese numbers.
@Suite("Real spreadsheets")
struct RealDataTests {
    static func table(_ csv: String, types: [String: ColumnType] = [:]) throws -> Table {
        try CSV.table(Data(csv.utf8), types: types)
    }

    static func sorted(_ table: Table, _ keys: [SortKey]) throws -> [String] {
        let grid = DataGrid(bound: table)
        try grid.sort(by: keys)
        return grid.displayedRows.map { grid.text($0, column: 0) }
    }

    @Test("18- and 19-digit integers sort exactly, in both directions")
    func wideIntegers() throws {
        let ids = [
            "110105194912310021", "110105194912310019", "110105194912310020", "1234567890123456789",
            "1234567890123456788", "-9223372036854775808", "9223372036854775807",
        ]
        let table = try Self.table("id\n" + ids.joined(separator: "\n") + "\n")
        #expect(table.columns[0].type == .integer)
        let ascending = try Self.sorted(table, [SortKey("id")])
        #expect(ascending == ids.sorted { ExactDecimal($0)! < ExactDecimal($1)! })
        #expect(ascending.first == "-9223372036854775808" && ascending.last == "9223372036854775807")
        #expect(try Self.sorted(table, [SortKey("id", .descending)]) == ascending.reversed())
    }

    @Test("digit strings wider than 64 bits and decimals with many digits are exact too, and printed as written")
    func widerThan64Bits() throws {
        let values = [
            "12345678901234567890123", "12345678901234567890122", "9.0000000000000000001", "9",
            "0.1000000000000000001", "0.1", "1e400", "-1e400", "99999999999999999999999999999999999",
        ]
        let table = try Self.table("n\n" + values.joined(separator: "\n") + "\n")
        let expected = values.sorted { ExactDecimal($0)! < ExactDecimal($1)! }
        #expect(try Self.sorted(table, [SortKey("n")]) == expected)
        #expect(try Self.sorted(table, [SortKey("n", .descending)]) == expected.reversed())
        #expect(!(try Self.sorted(table, [SortKey("n")])).contains { $0.contains("e+") }, "never 1.2345678901234567e+22")
    }

    @Test("a sort reorders and never rewrites: every cell is written back as it was read, in every format")
    func textKept() throws {
        let cells = ["007", "1.50", "2.0", "1e3", "+5", "-0", "  12 ", "NaN"]
        let csv =
            "k,v,flag\n"
            + cells.enumerated().map { "\($0.offset),\($0.element),\($0.offset % 2 == 0 ? "FALSE" : "true")" }
            .joined(separator: "\n") + "\n"
        let table = try Self.table(csv)
        let grid = DataGrid(bound: table)
        try grid.sort(by: [SortKey("v", .descending)])
        let shown = grid.displayedRows.map { grid.text($0, column: 1) }
        #expect(Set(shown) == Set(cells))
        #expect(shown == ["1e3", "  12 ", "007", "+5", "2.0", "1.50", "-0", "NaN"], "by value: 1000, 12, 7, 5, 2, 1.5, 0, then NaN (missing)")
        #expect(grid.displayedRows.map { grid.text($0, column: 2) }.contains("FALSE"))
    }

    @Test("one stray cell does not change a column's type; it sorts after the numbers, and the reading says so")
    func strayCell() throws {
        let table = try Self.table("组号,分数\n组1,88.5\n组2,9\n组3,88.25\n组4,100\n组5,-3\n组6,缺考\n组7,\n")
        #expect(table.columns[1].type == .decimal)
        #expect(try Self.sorted(table, [SortKey("分数")]) == ["组5", "组2", "组3", "组1", "组4", "组6", "组7"])
        #expect(
            try Self.sorted(table, [SortKey("分数", .descending)]) == ["组6", "组4", "组1", "组3", "组2", "组5", "组7"],
            "descending reverses the kinds too; blanks stay last")
        #expect(table.typeWarnings.map(\.description) == ["分数: 1 cell is not a number (row 6: 缺考); it sorts after the numbers"])
        let many = try Self.table("v\n1\n2\n3\n4\n5\n6\nx\ny\nz\nw\n7\n")
        #expect(
            many.typeWarnings.map(\.description)
                == ["v: 4 cells are not numbers (row 7: x, row 8: y, row 9: z, …); they sort after the numbers"])
        let truth = try Self.table("ok\ntrue\nfalse\nTRUE\nmaybe\n")
        #expect(truth.columns[0].type == .boolean)
        #expect(truth.typeWarnings.map(\.description) == ["ok: 1 cell is not a truth value (row 4: maybe); it sorts before the truth values"])
    }

    @Test("hex, infinity and comma decimals are text, not numbers", arguments: ["0x10", "0x1p3", "inf", "-inf", "+nan", "1,5", "1.2.3", "--1"])
    func notNumbers(text: String) {
        #expect(CellValue.parse(text) == .text(text))
    }

    @Test(
        "numbers as spreadsheets write them",
        arguments: [
            ("42", CellValue.integer(42)), ("-0", .integer(0)), ("+5", .integer(5)), ("007", .integer(7)), (" 12 ", .integer(12)),
            ("1.50", .decimal(1.5)), ("1e3", .decimal(1000)), (".5", .decimal(0.5)), ("5.", .decimal(5)), ("1.2万", .decimal(12000)),
            ("3亿", .integer(300_000_000)), ("2万亿", .integer(2_000_000_000_000)), ("TRUE", .boolean(true)), ("", .missing),
            ("#N/A", .missing), ("#DIV/0!", .error("#DIV/0!")), ("NULL", .missing), ("\\N", .missing), ("NA", .missing),
            ("-", .missing), ("2024-02-29", .date(Date(timeIntervalSince1970: 1_709_164_800))),
        ])
    func numbers(text: String, value: CellValue) {
        #expect(CellValue.parse(text) == value)
    }

    @Test("units of ten thousand and a hundred million sort by value in a numeric column")
    func chineseUnits() throws {
        let table = try Self.table("播放量\n1.2万\n9000\n3亿\n13000\n")
        #expect(try Self.sorted(table, [SortKey("播放量")]) == ["9000", "1.2万", "13000", "3亿"])
    }

    @Test("composed and decomposed é are the same text everywhere")
    func unicodeNormalization() throws {
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        for comparator in [TextComparator.lexical, .caseInsensitive, .natural, .naturalDecimal, .localized("fr")] {
            #expect(comparator.compare(composed, decomposed) == .orderedSame, "\(comparator)")
            let ranks = comparator.ranks([decomposed, "cafe", composed])
            #expect(ranks[0] == ranks[2] && ranks[1] < ranks[0], "\(comparator): \(ranks)")
        }
        // Whichever spelling comes first in the file, the two are tied and keep file order.
        for order in [[composed, decomposed], [decomposed, composed]] {
            let table = try Self.table("k,n\n" + ["cafe,1", "\(order[0]),2", "caff,3", "\(order[1]),4"].joined(separator: "\n") + "\n")
            let grid = DataGrid(bound: table)
            try grid.sort(by: [SortKey("k")])
            #expect(
                grid.displayedRows.map { grid.text($0, column: 1) } == ["1", "3", "2", "4"],
                "natural order puts é after f (scalar order); the two spellings stay in file order")
        }
    }

    @Test("every script's decimal digits count as digits in natural order")
    func unicodeDigits() {
        let natural = TextComparator.natural
        #expect(natural.compare("组２", "组１０") == .orderedAscending, "full-width")
        #expect(natural.compare("组\u{662}", "组\u{661}\u{660}") == .orderedAscending, "Arabic-Indic ٢ < ١٠")
        #expect(natural.compare("组2", "组２") != .orderedSame, "equal in value, still distinct texts")
        #expect(["组１０", "组2", "组１"].sorted(using: TextSortComparator(.natural)) == ["组１", "组2", "组１０"])
    }

    @Test(
        "Chinese numbers in natural order",
        arguments: [
            ["第二组", "第十组", "第十一组", "第一百零五组"],
            ["一班", "二班", "三班", "十班", "十二班", "二十班"],
            ["一月", "二月", "三月", "四月", "五月", "六月", "七月", "八月", "九月", "十月", "十一月", "十二月"],
            ["二〇二五年", "二〇二六年"], ["三千", "三万五千", "两亿"],
        ])
    func chineseNumerals(ordered: [String]) {
        var rng = SeededRandom(seed: 17)
        let shuffled = ordered.shuffled(using: &rng)
        #expect(shuffled.sorted(using: TextSortComparator(.natural)) == ordered)
        #expect(TextComparator.natural.compare("万达", "千岛湖") != .orderedSame, "units alone are words, not numbers")
    }

    @Test("signed and fractional numbers in text, as an option")
    func naturalDecimal() {
        let values = ["88.5", "-3", "9", "88.25", "100", "-12.5", "0.5"]
        #expect(values.sorted(using: TextSortComparator(.naturalDecimal)) == ["-12.5", "-3", "0.5", "9", "88.25", "88.5", "100"])
        #expect(["组10", "组2"].sorted(using: TextSortComparator(.naturalDecimal)) == ["组2", "组10"])
        #expect(["v1.10", "v1.9"].sorted(using: TextSortComparator(.natural)) == ["v1.9", "v1.10"], "plain natural keeps versions")
        #expect(["a-3", "a-10"].sorted(using: TextSortComparator(.naturalDecimal)) == ["a-3", "a-10"], "a dash inside a word is no sign")
    }

    @Test("a zh locale keeps natural numbering, and an unknown locale is refused with a suggestion")
    func locales() throws {
        #expect(TextComparator.localized("zh").compare("组2", "组10") == .orderedAscending)
        #expect(
            TextComparator.localized("zh-u-kn-false").compare("组2", "组10") == .orderedDescending,
            "the locale id may turn it off")
        #expect(TextComparator.localized("zh").checkLocale() == nil && TextComparator.localized("zh@collation=stroke").checkLocale() == nil)
        #expect(TextComparator.localized("zhh").checkLocale() == .unknownLocale("zhh", suggestion: "zh"))
        let table = try Self.table("name\n张\n李\n")
        #expect(throws: SortError.unknownLocale("qqqq", suggestion: nil)) {
            try DataGrid(bound: table).sort(by: [SortKey("name", comparator: .text(.localized("qqqq")))])
        }
    }

    /// Generated columns with wide integers, long decimals, stray text, Unicode variants and
    /// blanks, sorted by the engine and by a reference that parses with `Decimal` and compares
    /// texts by a fixed order.
    @Test("sorting equals an exact reference over generated columns")
    func differential() throws {
        var rng = SeededRandom(seed: 23)
        // The stray texts in their natural order; the two spellings of café are one text.
        let texts = ["ABC", "abc", "caf\u{E9}", "cafe\u{301}", "n/a", "缺考"]
        let textRank = [0, 1, 2, 2, 3, 4]
        for round in 0..<40 {
            var cells: [String] = []
            for _ in 0..<Int.random(in: 1...200, using: &rng) {
                switch Int.random(in: 0..<10, using: &rng) {
                case 0: cells.append("")
                case 1: cells.append(texts.randomElement(using: &rng)!)
                case 2: cells.append(String(Int.random(in: 1...9, using: &rng)) + String((0..<20).map { _ in "0123456789".randomElement(using: &rng)! }))
                case 3: cells.append("0." + String((0..<Int.random(in: 1...25, using: &rng)).map { _ in "0123456789".randomElement(using: &rng)! }))
                case 4: cells.append(["-", "+", ""].randomElement(using: &rng)! + String(Int.random(in: 0...50, using: &rng)))
                case 5: cells.append(String(Int.random(in: 0...50, using: &rng)) + "." + String(Int.random(in: 0...99, using: &rng)))
                default: cells.append(String(Int64.random(in: -1_000_000_000_000_000_000...1_000_000_000_000_000_000, using: &rng)))
                }
            }
            let csv = "v\n" + cells.map { $0.contains(",") ? "\"\($0)\"" : $0 }.joined(separator: "\n") + "\n"
            let table = try Self.table(csv)
            for direction in [SortDirection.ascending, .descending] {
                let grid = DataGrid(bound: table)
                try grid.sort(by: [SortKey("v", direction)])
                // The reference: (kind, value) per cell; missing last; stable.
                func key(_ text: String) -> (Int, Decimal, Int)? {
                    let t = text.trimmingCharacters(in: .whitespaces)
                    // Blank, and a null marker (n/a) in this column of numbers, are missing.
                    if t.isEmpty || t == "n/a" { return nil }
                    if let index = texts.firstIndex(of: text) { return (1, 0, textRank[index]) }
                    return (0, Decimal(string: t)!, 0)
                }
                let expected = cells.indices.sorted { a, b in
                    switch (key(cells[a]), key(cells[b])) {
                    case (nil, nil): return a < b
                    case (nil, _): return false
                    case (_, nil): return true
                    case let (x?, y?):
                        var order: ComparisonResult =
                            x.0 != y.0
                            ? (x.0 < y.0 ? .orderedAscending : .orderedDescending)
                            : x.0 == 0
                                ? (x.1 == y.1 ? .orderedSame : (x.1 < y.1 ? .orderedAscending : .orderedDescending))
                                : (x.2 == y.2 ? .orderedSame : (x.2 < y.2 ? .orderedAscending : .orderedDescending))
                        if direction == .descending { order = order.reversed }
                        return order == .orderedSame ? a < b : order == .orderedAscending
                    }
                }
                #expect(grid.bodyRows == expected, "round \(round) \(direction)")
            }
        }
    }

    @Test("short decimals sort as scaled integers, exactly as their values")
    func shortDecimals() throws {
        var rng = SeededRandom(seed: 41)
        for _ in 0..<30 {
            let cells = (0..<Int.random(in: 2...300, using: &rng)).map { _ -> String in
                let whole = Int.random(in: -99_999...99_999, using: &rng)
                let digits = Int.random(in: 0...4, using: &rng)
                let fraction = digits == 0 ? "" : "." + String((0..<digits).map { _ in "0123456789".randomElement(using: &rng)! })
                return Int.random(in: 0..<12, using: &rng) == 0 ? "" : "\(whole)\(fraction)"
            }
            let table = try Self.table("v\n" + cells.joined(separator: "\n") + "\n")
            for direction in [SortDirection.ascending, .descending] {
                let grid = DataGrid(bound: table)
                try grid.sort(by: [SortKey("v", direction)])
                let expected = cells.indices.sorted { a, b in
                    switch (Decimal(string: cells[a]), Decimal(string: cells[b])) {
                    case (nil, nil): return a < b
                    case (nil, _): return false
                    case (_, nil): return true
                    case let (x?, y?): return x == y ? a < b : (direction == .ascending ? x < y : x > y)
                    }
                }
                #expect(grid.bodyRows == expected)
            }
        }
    }

    @Test("random text never traps the cell reader, the sort keys or the width of text")
    func fuzzCells() throws {
        var rng = SeededRandom(seed: 77)
        let alphabet = Array("0123456789+-.eE万亿十一二〇零两百千 \t#/NaTRUEfalse,\"\n组é\u{301}１٣\u{202E}\u{0}")
        for _ in 0..<4000 {
            let text = String((0..<Int.random(in: 0...12, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
            _ = CellValue.parse(text)
            for type in ColumnType.allCases { _ = CellValue.parse(text, as: type) }
            _ = ExactDecimal(text)
            _ = NaturalKey.make(text)
            _ = NaturalKey.make(text, decimals: true)
            _ = TextWidth.columns(text)
            #expect(TextComparator.natural.compare(text, text) == .orderedSame)
        }
        // Bytes that are not UTF-8 at all go to the reader as CSV: an error, never a trap.
        for _ in 0..<300 {
            let bytes = (0..<Int.random(in: 1...64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            _ = try? CSV.table(bytes: [0x61, 0x0A] + bytes, types: [:], splitAbove: 8)
        }
    }
}
