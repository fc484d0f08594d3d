/// Source rows in an order, 4 bytes a row: a grid's body (``DisplayOrder/body``). It reads as a
/// collection of `Int` and compares with an array literal; a grid of ten million rows holds 40 MB
/// of it instead of 80.
public struct RowList: RandomAccessCollection, Equatable, Hashable, Sendable, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// The rows, as stored.
    package private(set) var rows: [Int32]

    /// The rows of `rows`. A grid's rows are below `Int32.max`; a number outside `Int32`'s range
    /// is kept as its nearest end, which no grid row equals.
    public init<S: Sequence>(_ rows: S) where S.Element == Int {
        self.rows = rows.map { Int32(clamping: $0) }
    }

    /// Takes over rows as stored.
    package init(stored rows: [Int32]) {
        self.rows = rows
    }

    public init(arrayLiteral elements: Int...) {
        self.init(elements)
    }

    public init() {
        rows = []
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { rows.count }

    @inline(__always)
    public subscript(position: Int) -> Int { Int(rows[position]) }

    /// Whether the rows are those of `array`, in its order.
    public static func == (list: RowList, array: [Int]) -> Bool { list.elementsEqual(array) }
    public static func == (array: [Int], list: RowList) -> Bool { list.elementsEqual(array) }
    public static func != (list: RowList, array: [Int]) -> Bool { !list.elementsEqual(array) }
    public static func != (array: [Int], list: RowList) -> Bool { !list.elementsEqual(array) }

    public var description: String { "[" + rows.map { String($0) }.joined(separator: ", ") + "]" }

    /// The rows as an array of `Int` (8 bytes a row).
    public var array: [Int] { rows.map { Int($0) } }

    /// Inserts `row` at `position`.
    package mutating func insert(_ row: Int, at position: Int) {
        rows.insert(Int32(truncatingIfNeeded: row), at: position)
    }

    /// Calls `body` with the rows as stored.
    package func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Int32>) -> R) -> R {
        rows.withUnsafeBufferPointer(body)
    }
}
