import Foundation
import TrellisText

/// An order given as a list, as Excel's custom lists (自定义序列) give one: 甲, 乙, 丙, 丁; 一月 …
/// 十二月; 优, 良, 中, 差. A key sorts by it with `.text(.listed(items))` (or `:order=…` on the
/// command line); ``matching(_:)`` finds the built-in list that a column's values all belong to.
public struct CustomList: Hashable, Sendable {
    /// What the list is of, for messages (`the months`, `天干`).
    public var name: String
    public var items: [String]

    public init(name: String, items: [String]) {
        self.name = name
        self.items = items
    }

    /// The comparator of this order.
    public var comparator: TextComparator { .listed(items) }

    /// The lists a spreadsheet user sorts by without naming them: Excel's and WPS's built-in
    /// custom lists, and the grades and ranks Chinese sheets hold.
    public static let builtIn: [CustomList] = [
        CustomList(name: "天干", items: ["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛", "壬", "癸"]),
        CustomList(name: "地支", items: ["子", "丑", "寅", "卯", "辰", "巳", "午", "未", "申", "酉", "戌", "亥"]),
        CustomList(name: "月份", items: ["一月", "二月", "三月", "四月", "五月", "六月", "七月", "八月", "九月", "十月", "十一月", "十二月"]),
        CustomList(name: "月份", items: ["正月", "二月", "三月", "四月", "五月", "六月", "七月", "八月", "九月", "十月", "冬月", "腊月"]),
        CustomList(name: "the months", items: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]),
        CustomList(
            name: "the months",
            items: [
                "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
                "December",
            ]),
        CustomList(name: "星期", items: ["星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期日"]),
        CustomList(name: "星期", items: ["星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期天"]),
        CustomList(name: "星期", items: ["周一", "周二", "周三", "周四", "周五", "周六", "周日"]),
        CustomList(name: "星期", items: ["周一", "周二", "周三", "周四", "周五", "周六", "周天"]),
        CustomList(name: "the weekdays", items: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]),
        CustomList(name: "the weekdays", items: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]),
        CustomList(name: "季度", items: ["第一季度", "第二季度", "第三季度", "第四季度"]),
        CustomList(name: "季度", items: ["一季度", "二季度", "三季度", "四季度"]),
        CustomList(name: "等级", items: ["优", "良", "中", "差"]),
        CustomList(name: "等级", items: ["优", "良", "中", "及格", "差"]),
        CustomList(name: "等级", items: ["优秀", "良好", "中等", "及格", "不及格"]),
        CustomList(name: "等级", items: ["优秀", "良好", "合格", "不合格"]),
        CustomList(name: "高低", items: ["高", "中", "低"]),
        CustomList(name: "大小", items: ["大", "中", "小"]),
        CustomList(name: "上下", items: ["上", "中", "下"]),
        CustomList(name: "奖项", items: ["特等奖", "一等奖", "二等奖", "三等奖", "优秀奖", "鼓励奖"]),
    ]

    /// ``matching(_:)`` of a source's column: each cell read as bytes where the source stores
    /// them (compared with the few values seen so far, the search ended at the first cell of no
    /// list), as texts otherwise.
    public static func matching(column: Int, in source: GridDataSource) -> CustomList? {
        let count = max(0, source.rowCount)
        guard let storage = source as? ColumnStorageSource, column < storage.storeCount, storage.store(column).count >= count else {
            return matching((0..<count).lazy.map { source.text(row: $0, column: column) })
        }
        let store = storage.store(column)
        // One chunk of rows per core, each with the values it has seen (nil: a value of no list).
        let parts = Parallel.map(Parallel.chunks(count)) { _, range -> [[UInt8]]? in
            var seen: [[UInt8]] = []
            for row in range {
                let known = store.withText(at: row) { bytes -> Bool in
                    let value = CellText.trimmed(bytes)
                    if value.isEmpty { return true }
                    for known in seen where known.count == value.count {
                        if known.withUnsafeBufferPointer({ memcmp($0.baseAddress!, value.baseAddress!, value.count) }) == 0 { return true }
                    }
                    guard seen.count < 64, allItems.contains(String(decoding: value, as: UTF8.self)) else { return false }
                    seen.append(Array(value))
                    return true
                }
                if !known { return nil }
            }
            return seen
        }
        var seen: [[UInt8]] = []
        for part in parts {
            guard let part else { return nil }
            seen += part
        }
        return matching(seen.map { String(decoding: $0, as: UTF8.self) })
    }

    /// Every item of every built-in list.
    private static let allItems = Set(builtIn.flatMap(\.items))

    /// The first built-in list that holds every one of `values` (blanks aside, spaces around a
    /// value aside), when they are at least two distinct values and not all of them sort the same
    /// way as text already would; `nil` otherwise.
    public static func matching<S: Sequence>(_ values: S) -> CustomList? where S.Element == String {
        var distinct = Set<String>()
        for value in values {
            let trimmed = value.trimmingSpaces()
            if trimmed.isEmpty { continue }
            // A value of no list ends the search at once (most columns: their first value).
            guard allItems.contains(trimmed) else { return nil }
            distinct.insert(trimmed)
            if distinct.count > 64 { return nil }
        }
        guard distinct.count >= 2 else { return nil }
        for list in builtIn where distinct.isSubset(of: list.items) {
            // A list whose order natural text order already gives changes nothing: not announced.
            let listed = list.items.filter(distinct.contains)
            if listed == listed.sorted(by: { TextComparator.natural.compare($0, $1) == .orderedAscending }) { return nil }
            return list
        }
        return nil
    }
}
