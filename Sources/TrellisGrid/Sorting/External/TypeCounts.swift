import Foundation
import TrellisText

/// A column's cells of each kind among the body rows, with the first three of each, so that the
/// warnings of the whole file are made once its column types are known.
struct TypeCounts {
    var counts = [Int](repeating: 0, count: ValueKind.allCases.count)
    var examples = [[(row: Int, text: String)]](repeating: [], count: ValueKind.allCases.count)

    mutating func count(_ store: ColumnStore, rows: [Int], firstRow: Int) {
        for row in rows {
            guard let kind = Table.warnedKind(store.kinds[row]) else { continue }
            counts[Int(kind.rawValue)] += 1
            if examples[Int(kind.rawValue)].count < 3 { examples[Int(kind.rawValue)].append((firstRow + row, store.text(at: row))) }
        }
    }

    /// The warnings ``Table/typeWarnings(amongRows:)`` gives for the column.
    func warnings(_ column: Column) -> [TypeWarning] {
        guard column.type != .text else { return [] }
        let expected = Int(ValueKind(column.type).rawValue)
        var result: [TypeWarning] = []
        for (ranks, after) in [(0..<expected, false), ((expected + 1)..<ValueKind.allCases.count, true)] {
            let count = ranks.reduce(0) { $0 + counts[$1] }
            guard count > 0 else { continue }
            let first = ranks.flatMap { examples[$0] }.sorted { $0.row < $1.row }.prefix(3)
            result.append(
                TypeWarning(
                    column: column.identifier, type: column.type, count: count, examples: Array(first),
                    sortsAfter: after))
        }
        return result
    }
}
