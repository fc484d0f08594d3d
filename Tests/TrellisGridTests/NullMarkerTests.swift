import Foundation
import Testing

@testable import TrellisGrid

/// Missing values as exports write them (`NULL`, `\N`, `NA`, `#N/A`, a dash) and as apps clear
/// them: placed by the key's rule in every direction, under a hook and a custom comparator too.
@Suite("null markers and cleared cells")
struct NullMarkerTests {
    @Test("NULL, \\N, NA, N/A, #N/A and a dash are missing in a number column: last both ways, written back as they were")
    func markers() throws {
        let csv = "name,score\nA,10\nB,NULL\nC,\\N\nD,NA\nE,#N/A\nF,-\nG,30\nH,n/a\n"
        let table = try CSV.table(Data(csv.utf8))
        #expect(table.columns[1].type == .integer)
        for direction in [SortDirection.ascending, .descending] {
            let order = try DisplayOrder(source: table, plan: SortPlan(keys: [SortKey("score", direction)]))
            let shown = order.body.rows.map { table.text(row: Int($0), column: 1) }
            #expect(shown.prefix(2) == (direction == .ascending ? ["10", "30"] : ["30", "10"]))
            #expect(Set(shown.dropFirst(2)) == ["NULL", "\\N", "NA", "#N/A", "-", "n/a"])
        }
        let first = try DisplayOrder(source: table, plan: SortPlan(keys: [SortKey("score", .descending, nulls: .first)]))
        #expect(table.text(row: Int(first.body.rows.last!), column: 1) == "10")
        // No type warning for them: they are the column's missing numbers.
        #expect(table.typeWarnings(amongRows: { _ in true }).isEmpty)
        // The mean skips them.
        let mean = try DisplayOrder(source: table, plan: SortPlan(summaries: [SummaryRow(.mean, columns: ["score"])]))
        #expect(mean.summaryCell(0, column: 1, columns: table.columns).text == "20")
    }

    @Test("in a text column they stay text: NA is North America there")
    func textColumns() throws {
        let table = try CSV.table(Data("code,v\nNA,1\nEU,2\n-,3\n".utf8))
        #expect(table.columns[0].type == .text)
        let order = try DisplayOrder(source: table, plan: SortPlan(keys: [SortKey("code")]))
        #expect(order.body.rows.map { table.text(row: Int($0), column: 0) } == ["-", "EU", "NA"])
    }

    /// An app's list: a cleared score is `nil`, which the source gives as missing.
    final class People: GridDataSource {
        var scores: [Double?] = [70, nil, 90, 80, nil]
        let columns = [Column("score", type: .decimal)]
        var rowCount: Int { scores.count }
        func value(row: Int, column: Int) -> CellValue { scores[row].map { .decimal($0) } ?? .missing }
    }

    @Test("a cleared cell of a list stays last, descending too, under a SortCompare hook and under a custom comparator")
    func clearedCells() throws {
        let people = People()
        let grid = DataGrid(bound: people)
        var seen: [CellValue] = []
        grid.sortCompare = { arguments in
            seen += [arguments.value1, arguments.value2]
            return arguments.value1.number! < arguments.value2.number! ? .orderedAscending : .orderedDescending
        }
        for direction in [SortDirection.ascending, .descending] {
            try grid.sort(by: [SortKey("score", direction)])
            #expect(Array(grid.bodyRows.suffix(2)) == [1, 4], "\(direction): \(grid.bodyRows)")
        }
        #expect(!seen.contains { $0.isMissing }, "the hook never sees a missing value, as SortCompare never sees DBNull")
        grid.sortCompare = nil
        let custom = SortKey(
            "score", .descending,
            comparator: .custom { a, b in
                a.number! < b.number! ? .orderedAscending : (a.number! > b.number! ? .orderedDescending : .orderedSame)
            })
        try grid.sort(by: [custom])
        #expect(grid.bodyRows == [2, 3, 0, 1, 4])
    }
}

/// Amounts with a unit and a currency together, and times on a 12-hour clock.
@Suite("amounts with units, times of day")
struct UnitsAndTimesTests {
    @Test(
        "a unit of 万 or 亿 beside a currency reads as its value",
        arguments: [
            ("12.5万元", CellValue.decimal(125_000)), ("1.2亿元", .decimal(120_000_000)), ("¥1.2万", .decimal(12_000)),
            ("1,200万", .decimal(12_000_000)), ("1.5万亿元", .decimal(1_500_000_000_000)), ("3,200元", .decimal(3200)),
        ])
    func units(text: String, value: CellValue) {
        #expect(CellValue.parse(text).number == value.number, "\(text)")
    }

    @Test("a unit alone after a currency, or a unit with a percent, is text", arguments: ["元万", "万元", "¥万", "12%万", "万"])
    func notUnits(text: String) {
        #expect(CellValue.parse(text) == .text(text))
    }

    @Test(
        "上午/下午 and AM/PM read on a 12-hour clock, with a date or alone",
        arguments: [
            ("2024/3/1 上午 12:20", 20 * 60), ("2024/3/1 下午 2:05", 14 * 3600 + 5 * 60), ("2024/3/1 下午2:05", 14 * 3600 + 5 * 60),
            ("2024/3/1 1:00 PM", 13 * 3600), ("2024/3/1 12:00 PM", 12 * 3600), ("2024/3/1 12:30 AM", 30 * 60),
            ("2024/3/1 9:00 am", 9 * 3600), ("2024/3/1 11:59:30 p.m.", 23 * 3600 + 59 * 60 + 30),
        ])
    func datedTimes(text: String, seconds: Int) throws {
        guard case .date(let date) = CellValue.parse(text) else {
            Issue.record("\(text) is not a date: \(CellValue.parse(text))")
            return
        }
        let midnight = 19_783 * 86_400.0  // 2024-03-01
        #expect(date.timeIntervalSince1970 - midnight == Double(seconds), "\(text)")
    }

    @Test("times alone sort by the clock, whichever way each is written (equal times in file order)")
    func times() throws {
        let table = try CSV.table(Data("t\n下午 2:05\n上午 9:30\n11:59 p.m.\n14:05\n2:05 PM\n9:30\n".utf8))
        #expect(table.columns[0].type == .date)
        let order = try DisplayOrder(source: table, plan: SortPlan(keys: [SortKey("t")]))
        #expect(order.body.rows.map { table.text(row: Int($0), column: 0) } == ["上午 9:30", "9:30", "下午 2:05", "14:05", "2:05 PM", "11:59 p.m."])
    }

    @Test("not times: an hour of 13 with a half of the day, one minute digit, a score", arguments: ["下午 13:05", "13:05 PM", "2:5", "3:1", "0:30 AM", "上午"])
    func notTimes(text: String) {
        if case .date = CellValue.parse(text) { Issue.record("\(text) read as a time") }
    }
}
