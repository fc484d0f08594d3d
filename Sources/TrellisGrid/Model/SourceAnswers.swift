import Foundation

extension GridDataSource {
    /// ``GridDataSource/values(ofColumn:rows:)`` with exactly one value per row, as every reader
    /// of it assumes: an answer with more or fewer is recorded (``SourceAnswers``) and cut, or
    /// padded with `.missing`, so that nothing reads past it — the grid then refuses the sort.
    package func checkedValues(ofColumn column: Int, rows: [Int]) -> [CellValue] {
        var values = self.values(ofColumn: column, rows: rows)
        guard values.count != rows.count else { return values }
        let name = columns.indices.contains(column) ? "\"\(Excerpt.of(columns[column].identifier))\"" : "\(column)"
        SourceAnswers.record(self, "values(ofColumn:rows:) gave \(values.count) values for \(rows.count) rows of column "
                             + "\(name); give one value per row, in the rows' order")
        if values.count > rows.count {
            values.removeLast(values.count - rows.count)
        } else {
            values.append(contentsOf: repeatElement(.missing, count: rows.count - values.count))
        }
        return values
    }
}

/// What a data source answered that no table can be: the first such answer per source since a
/// grid last asked (the reads of a sort may run on several threads).
///
/// A grid takes it after each refresh: an answer recorded during the refresh fails the sort with
/// ``SortError/sourceAnswerInvalid(_:)`` and leaves the order as it was.
package enum SourceAnswers {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var problems: [ObjectIdentifier: String] = [:]

    /// Records `message` for `source`, unless a problem is already waiting for it.
    package static func record(_ source: AnyObject, _ message: String) {
        lock.lock()
        defer { lock.unlock() }
        let key = ObjectIdentifier(source)
        if problems[key] == nil { problems[key] = message }
    }

    /// The problem recorded for `source`, which is forgotten.
    package static func take(_ source: AnyObject) -> String? {
        lock.lock()
        defer { lock.unlock() }
        return problems.removeValue(forKey: ObjectIdentifier(source))
    }
}
