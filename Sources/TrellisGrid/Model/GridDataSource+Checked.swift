import Foundation

extension GridDataSource {
    /// ``GridDataSource/values(ofColumn:rows:)`` with exactly one value per row, as every reader
    /// of it assumes: an answer with more or fewer is cut, or padded with `.missing`, so that
    /// nothing reads past it, and what was wrong with it comes back beside the values (`nil` for
    /// a right answer) — a grid then refuses the order made from them.
    package func checkedValues(ofColumn column: Int, rows: [Int]) -> (values: [CellValue], problem: String?) {
        var values = self.values(ofColumn: column, rows: rows)
        guard values.count != rows.count else { return (values, nil) }
        let name = columns.indices.contains(column) ? "\"\(Excerpt.of(columns[column].identifier))\"" : "\(column)"
        let problem =
            "values(ofColumn:rows:) gave \(values.count) values for \(rows.count) rows of column \(name); "
            + "give one value per row, in the rows' order"
        if values.count > rows.count {
            values.removeLast(values.count - rows.count)
        } else {
            values.append(contentsOf: repeatElement(.missing, count: rows.count - values.count))
        }
        return (values, problem)
    }
}
