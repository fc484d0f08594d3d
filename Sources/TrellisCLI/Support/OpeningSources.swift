import Foundation
import TrellisGrid
import TrellisSources
import TrellisText

extension CommandIO {
    /// The rows a command reads — a CSV file or standard input, an SQLite table or query, a
    /// PostgreSQL table or query — opened by ``SourceOpener`` as every command opens them, with
    /// a CSV file's reading notes (a guessed encoding or delimiter, dates read one way of two, a
    /// title above the header) written on standard error. With `snapshot`, an SQLite database is
    /// read in one read transaction from start to end (a sort; a viewer, which lives long,
    /// refreshes instead).
    mutating func openSource(
        _ path: String, table: String?, query: String?, types: [String: ColumnType],
        reading: CSVReading = CSVReading(), snapshot: Bool = false,
        columns: CSV.ColumnSelection? = nil, command: String = "sort"
    ) throws(CommandError) -> GridDataSource {
        var request = SourceRequest(path, currentDirectory: currentDirectory)
        request.table = table
        request.query = query
        request.types = types
        request.encoding = reading.encoding
        request.delimiter = reading.delimiter
        request.headerRow = reading.headerRow
        request.dateOrder = reading.dateOrder
        request.sheet = reading.sheet
        request.csvOptionGiven = reading.givenOption
        request.snapshot = snapshot
        request.columns = columns
        request.mapsLargeFiles = { size, columns in SortCommand.leavesRecordsInFile(ofSize: size, columns: columns) }
        let standardInput = readStandardInput
        request.readStandardInput = { [UInt8](standardInput()) }
        let source: GridDataSource
        do throws(InputError) {
            source = try SourceOpener.open(request)
        } catch {
            // Another command's file (a layout spec, JSON): say which command takes it.
            if error.kind == .data, table == nil, query == nil,
                let hint = FileKindSniffer.hint(command: command, path: path, in: currentDirectory)
            {
                throw CommandError(InputError(error.kind, error.message + "\nhint: " + hint))
            }
            throw CommandError(error)
        }
        if table == nil, query == nil, let read = source as? Table {
            SortCommand.noteFormat(read.csvFormat, columns: read.columns, dateNotes: read.dateNotes, shownPath: request.shown, io: &self)
            for note in read.readingNotes { stderr += note + "\n" }
        }
        return source
    }
}

extension CommandError {
    /// An input that could not be read, as its kind says.
    init(_ error: InputError) {
        switch error.kind {
        case .usage: self = .usage(error.message)
        case .data: self = .data(error.message)
        case .noInput: self = .noInput(error.message)
        case .unavailable: self = .unavailable(error.message)
        case .tempFail: self = .tempFail(error.message)
        case .noPermission: self = .noPermission(error.message)
        case .failure: self = .failure(error.message)
        }
    }
}
