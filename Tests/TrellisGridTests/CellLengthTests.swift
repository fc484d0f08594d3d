import Foundation
import Testing
import TrellisTestSupport

@testable import TrellisGrid

/// A cell's length is one byte beside its start; texts of 255 bytes or more keep theirs apart.
/// Cells of every length around that edge, read whole and in halves, then inserted, replaced and
/// removed at random, read back as they were written, cell by cell and through a column's view.
@Suite("Cell lengths")
struct CellLengthTests {
    /// A cell's text of `length` bytes, told apart from its neighbours by `tag`.
    static func text(_ length: Int, tag: Int) -> String {
        let head = "c\(tag)-"
        return length <= head.count ? String(head.prefix(length)) : head + String(repeating: "x", count: length - head.count)
    }

    static func check(_ table: Table, _ expected: [[String]], _ what: String) {
        #expect(table.rowCount == expected.count, "\(what): rows")
        guard table.rowCount == expected.count else { return }
        for c in 0..<table.columns.count {
            table.store(c).withView { view in
                for (row, cells) in expected.enumerated() {
                    let shown = String(decoding: view.text(row), as: UTF8.self)
                    #expect(shown == cells[c], "\(what): view of row \(row), column \(c): \(shown.utf8.count) bytes")
                }
            }
            for (row, cells) in expected.enumerated() {
                #expect(table.text(row: row, column: c) == cells[c], "\(what): row \(row), column \(c)")
            }
        }
    }

    @Test("texts of every length around 255 bytes read back as written, read whole, in halves and after edits")
    func lengthsAroundTheEdge() throws {
        var rng = SeededRandom(seed: 77)
        let lengths = [0, 1, 7, 254, 255, 256, 300, 1000, 70_000]
        var tag = 0
        func cell() -> String {
            tag += 1
            return Self.text(lengths.randomElement(using: &rng)!, tag: tag)
        }
        for round in 0..<6 {
            var rows = (0..<Int.random(in: 5...40, using: &rng)).map { _ in [cell(), cell()] }
            let csv = "a,b\n" + rows.map { $0.joined(separator: ",") + "\n" }.joined()
            for splitAbove in [Int.max, 0] {
                let table = try CSV.table(bytes: Array(csv.utf8), types: [:], splitAbove: splitAbove)
                Self.check(table, rows, "round \(round), split above \(splitAbove)")
            }
            let table = try CSV.table(bytes: Array(csv.utf8), types: [:], splitAbove: 0)
            for step in 0..<60 {
                switch Int.random(in: 0..<3, using: &rng) {
                case 0:
                    let at = Int.random(in: 0...rows.count, using: &rng)
                    let new = [cell(), cell()]
                    try table.insertRow(new, at: at)
                    rows.insert(new, at: at)
                case 1 where !rows.isEmpty:
                    let at = Int.random(in: 0..<rows.count, using: &rng)
                    try table.removeRow(at: at)
                    rows.remove(at: at)
                default:
                    guard !rows.isEmpty else { continue }
                    let row = Int.random(in: 0..<rows.count, using: &rng), column = Int.random(in: 0..<2, using: &rng)
                    let new = cell()
                    try table.setText(new, row: row, column: column)
                    rows[row][column] = new
                }
                Self.check(table, rows, "round \(round), step \(step)")
            }
        }
    }
}
