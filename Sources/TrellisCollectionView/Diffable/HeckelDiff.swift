import Foundation

/// The difference between two sequences, found with Paul Heckel's algorithm ("A technique for
/// isolating differences between files", CACM 21(4), 1978), as IGListKit uses it.
///
/// ```swift
/// let diff = HeckelDiff(old: ["a", "b", "c"], new: ["b", "c", "d"])
/// diff.deletes   // [0]
/// diff.inserts   // [2]
/// diff.matches   // [(old: 1, new: 0), (old: 2, new: 1)]
/// ```
///
/// - Complexity: O(n + m) for the matching (six linear passes over a symbol table).
public struct HeckelDiff: Sendable {
    /// Old indices with no counterpart in the new sequence, ascending.
    public let deletes: [Int]
    /// New indices with no counterpart in the old sequence, ascending.
    public let inserts: [Int]
    /// Matched pairs, in new order.
    public let matches: [(old: Int, new: Int)]
    /// For each new index, its old index or `nil`.
    public let newToOld: [Int?]
    /// For each old index, its new index or `nil`.
    public let oldToNew: [Int?]

    /// Compares `old` with `new`.
    public init<Element: Hashable>(old: [Element], new: [Element]) {
        // Pass 1 and 2: a symbol table entry per distinct element, counting occurrences in each
        // sequence and remembering the last old position.
        var table: [Element: Int] = [:]
        var entries: [HeckelSymbol] = []
        func entry(_ e: Element) -> Int {
            if let i = table[e] { return i }
            table[e] = entries.count
            entries.append(HeckelSymbol())
            return entries.count - 1
        }
        let newSymbols = new.map(entry)
        for symbol in newSymbols { entries[symbol].newCount += 1 }
        let oldSymbols = old.map(entry)
        for (i, symbol) in oldSymbols.enumerated() {
            entries[symbol].oldCount += 1
            entries[symbol].oldIndex = i
        }
        var na = [Int?](repeating: nil, count: new.count)
        var oa = [Int?](repeating: nil, count: old.count)
        // Pass 3: elements that occur exactly once in each sequence are the same element.
        for (i, symbol) in newSymbols.enumerated() {
            let e = entries[symbol]
            if e.oldCount == 1 && e.newCount == 1 {
                na[i] = e.oldIndex
                oa[e.oldIndex] = i
            }
        }
        // Pass 4: a match extends forward over equal neighbours.
        if new.count > 1 {
            for i in 0..<(new.count - 1) {
                if let j = na[i], j + 1 < old.count, na[i + 1] == nil, oa[j + 1] == nil,
                    newSymbols[i + 1] == oldSymbols[j + 1]
                {
                    na[i + 1] = j + 1
                    oa[j + 1] = i + 1
                }
            }
        }
        // Pass 5: and backward.
        if new.count > 1 {
            for i in stride(from: new.count - 1, to: 0, by: -1) {
                if let j = na[i], j > 0, na[i - 1] == nil, oa[j - 1] == nil, newSymbols[i - 1] == oldSymbols[j - 1] {
                    na[i - 1] = j - 1
                    oa[j - 1] = i - 1
                }
            }
        }
        // Pass 6: what is left unmatched was inserted or deleted.
        newToOld = na
        oldToNew = oa
        deletes = oa.indices.filter { oa[$0] == nil }
        inserts = na.indices.filter { na[$0] == nil }
        matches = na.enumerated().compactMap { i, j in j.map { (old: $0, new: i) } }
    }
}

/// A symbol table entry: how often an element occurs in each sequence, and where in the old one.
struct HeckelSymbol {
    var oldCount = 0, newCount = 0, oldIndex = -1
}

/// The positions of a longest strictly increasing subsequence of `values` (patience sorting):
/// the matched items that can stay while the others move, giving the fewest moves.
///
/// - Complexity: O(n log n).
func longestIncreasingSubsequence(_ values: [Int]) -> Set<Int> {
    var tails: [Int] = []  // index into values of the smallest tail of each length
    var previous = [Int](repeating: -1, count: values.count)
    for (i, v) in values.enumerated() {
        var low = 0, high = tails.count
        while low < high {
            let mid = (low + high) / 2
            if values[tails[mid]] < v { low = mid + 1 } else { high = mid }
        }
        if low > 0 { previous[i] = tails[low - 1] }
        if low == tails.count { tails.append(i) } else { tails[low] = i }
    }
    var result = Set<Int>()
    var k = tails.last ?? -1
    while k >= 0 {
        result.insert(k)
        k = previous[k]
    }
    return result
}
