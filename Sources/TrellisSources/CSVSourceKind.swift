import Foundation
import TrellisGrid
import TrellisSQL
import TrellisText
import TrellisWorkbook

/// A CSV (or TSV, or Excel's "Unicode 文本") file, or standard input: whatever no other kind
/// recognised. A large file read for some of its columns (a sort to CSV, which copies the
/// records) is mapped, not read: its records stay in it.
public enum CSVSourceKind: SourceKind {
    public static func recognizes(_ request: SourceRequest) -> Bool { request.table == nil && request.query == nil }

    public static func open(_ request: SourceRequest) throws(InputError) -> GridDataSource {
        let shown = request.shown
        if request.namesServer {
            throw InputError(
                .usage,
                "'\(PostgreSQLConnection.redactedURL(shown))' names a PostgreSQL server; name its table with "
                    + "--table, or give --query")
        }
        let file = request.path
        let mapped =
            request.name != "-" && request.mapsLargeFiles(FileBytes.regularFileSize(file) ?? 0, request.columns)
                // (A workbook is read whole, where the reader says what it is.)
                && !CSV.isWorkbook(FileBytes.head(file, count: 8) ?? [])
            ? MappedFile(path: file) : nil
        var bytes: [UInt8] = []
        if mapped == nil {
            if request.name == "-" {
                bytes = request.readStandardInput()
            } else {
                bytes = try FileBytes.read(request.name.isEmpty ? "" : file, shown: shown)
            }
        }
        // A workbook on standard input is known once it is read.
        if request.name == "-", Workbook.mayBe(bytes.prefix(8)) { return try WorkbookSourceKind.open(bytes, request) }
        if mapped?.bytes.starts(with: SQLiteSourceKind.magic) ?? bytes.starts(with: SQLiteSourceKind.magic) {
            throw InputError(.usage, "\(shown) is an SQLite database; name its table with --table, or give --query")
        }
        do {
            if let mapped {
                return try CSV.table(
                    mapped: mapped, types: request.types, encoding: request.encoding, delimiter: request.delimiter,
                    headerRow: request.headerRow, dateOrder: request.dateOrder, reading: request.columns)
            }
            return try CSV.table(
                bytes: bytes, types: request.types, encoding: request.encoding, delimiter: request.delimiter,
                headerRow: request.headerRow, dateOrder: request.dateOrder, reading: request.columns)
        } catch {
            if case .unknownColumn = error.problem { throw InputError(.usage, "\(shown): \(error.message)") }
            throw InputError(.data, "\(shown): \(error)")
        }
    }
}
