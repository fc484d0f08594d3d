import Foundation
import Testing

@testable import TrellisGrid

/// Orders given as lists (Excel's 自定义序列): the comparator, the built-in lists and which one a
/// column's values call for.
@Suite("custom lists")
struct CustomListTests {
    @Test("a listed order puts items at their places and other texts after them, naturally; blanks stay last both ways")
    func listedOrder() throws {
        let table = try CSV.table(Data("等级\n差\n优\n\n其他10\n中\n其他2\n良\n 优 \n".utf8))
        let key = SortKey("等级", comparator: .asText(.listed(["优", "良", "中", "差"])))
        let ascending = try DisplayOrder(source: table, plan: SortPlan(keys: [key]))
        #expect(ascending.body.rows.map(Int.init) == [1, 7, 6, 4, 0, 5, 3, 2])
        var descending = key
        descending.direction = .descending
        let down = try DisplayOrder(source: table, plan: SortPlan(keys: [descending]))
        #expect(down.body.rows.map(Int.init) == [3, 5, 0, 4, 6, 1, 7, 2])
        #expect(TextComparator.listed(["甲", "乙"]).compare("乙", "甲") == .orderedDescending)
        #expect(TextComparator.listed(["甲", "乙"]).description == "order(甲,乙)")
    }

    @Test(
        "the built-in list every value belongs to",
        arguments: [
            (["丙", "甲", "丁", "乙", "甲"], "天干"),
            (["正月", "腊月", "三月"], "月份"),
            (["Mar", "Jan", "Dec"], "the months"),
            (["Sun", "Mon", "Wed"], "the weekdays"),
            (["良", "优", "差", ""], "等级"),
            (["不及格", "优秀", "及格"], "等级"),
            (["低", "高", "中"], "高低"),
            (["三等奖", "一等奖", "特等奖"], "奖项"),
        ])
    func matching(values: [String], name: String) {
        #expect(CustomList.matching(values)?.name == name)
    }

    @Test("no list for mixed values, one value, or values whose text order is already the list's")
    func noMatch() {
        #expect(CustomList.matching(["甲", "组1"]) == nil)
        #expect(CustomList.matching(["甲", "甲", ""]) == nil)
        #expect(CustomList.matching(["第一季度", "第三季度"]) == nil)
        // Chinese numerals already sort naturally: 一月 < 三月 < 十二月, 周一 < 周三 < 周日.
        #expect(CustomList.matching(["三月", "十二月", "一月"]) == nil)
        #expect(CustomList.matching(["周三", "周日", "周一"]) == nil)
        #expect(CustomList.matching([String]()) == nil)
    }

    @Test("a list key sorts as fast as the other text keys do: by codes, with no comparator closure")
    func noClosure() throws {
        let plan = try BoundSortPlan(
            SortPlan(keys: [SortKey("x", comparator: .asText(.listed(["a", "b"])))]), columns: [Column("x")])
        #expect(!plan.comparesValues)
    }
}
