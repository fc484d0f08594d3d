import Foundation
import TrellisTestSupport

@testable import TrellisGrid

/// The same rows as a grid in each binding mode, so that every test runs in all three.
enum GridFixture {
    static let modes: [DataGrid.Mode] = [.unbound, .bound, .virtual]

    static func grid(_ mode: DataGrid.Mode, columns: [Column], rows: [[CellValue]]) -> DataGrid {
        switch mode {
        case .unbound:
            let grid = DataGrid(columns: columns)
            for row in rows { try! grid.addRow(row) }
            return grid
        case .bound:
            return DataGrid(bound: try! Table(columns: columns, rows: rows))
        case .virtual:
            let copy = rows
            return DataGrid(columns: columns, rowCount: rows.count) { row, column in copy[row][column] }
        }
    }

    /// The user's table: groups 组1…组12 with scores, and a last row 平均 holding their mean.
    static func userTable(_ mode: DataGrid.Mode) -> DataGrid {
        let scores: [Double] = [88.5, 92, 75, 92, 60.5, 81, 99, 70, 85.5, 64, 92, 77]
        var rows: [[CellValue]] = scores.enumerated().map { [.text("组\($0.offset + 1)"), .decimal($0.element)] }
        rows.append([.text("平均"), .decimal(scores.reduce(0, +) / Double(scores.count))])
        return grid(mode, columns: [Column("组号"), Column("分数", type: .decimal)], rows: rows)
    }

    static func column(_ grid: DataGrid, _ index: Int) -> [String] {
        grid.displayedRows.map { grid.value($0, column: index).description }
    }
}
