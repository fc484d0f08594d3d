import Foundation
import TrellisGrid
import TrellisSQL
import TrellisSources

/// A large CSV file shown before it is read: `trellis view` draws the file's first lines at once
/// and reads the whole file on another thread; the loop swaps the whole table in when it is read,
/// keeping the sort, the pins, the current row and column. Until then every key works on the rows
/// read, and the status line says so.
final class BackgroundRead: @unchecked Sendable {
    /// Files at least this large are shown before they are read.
    static let threshold = 16 << 20
    /// How much of the file is read first.
    static let headBytes = 1 << 20

    let name: String
    let totalBytes: Int
    let started = ContinuousClock.now
    /// Written to when the read ends, so that a loop waiting on the keyboard wakes.
    let wake: (read: Int32, write: Int32)
    private let lock = NSLock()
    private var result: Result<Table, CommandError>?
    /// What reading the whole file had to say (its encoding guessed, its delimiter found), as a
    /// file read at once says it on standard error once the viewer ends.
    private(set) var notes = ""

    private init(name: String, totalBytes: Int, wake: (Int32, Int32)) {
        self.name = name
        self.totalBytes = totalBytes
        self.wake = wake
    }

    deinit {
        close(wake.read)
        close(wake.write)
    }

    /// The read's result and notes once it ended, taken once.
    func take() -> (Result<Table, CommandError>, notes: String)? {
        lock.lock()
        defer { lock.unlock() }
        defer { result = nil }
        return result.map { ($0, notes) }
    }

    /// The head of the file at `path` as a table, and the read of the whole file started, when the
    /// file is a large CSV file whose first lines read as the whole file will (UTF-16 and a file
    /// whose first megabyte holds no whole line are read at once, as before); otherwise `nil`.
    static func start(
        _ path: String, types: [String: ColumnType], reading: CSVReading,
        io: CommandIO
    ) -> (head: Table, read: BackgroundRead)? {
        guard path != "-", !ConnectionSecrets.isConnectionString(path) else { return nil }
        let url = io.url(for: path)
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
            attributes[.type] as? FileAttributeType == .typeRegular,
            let size = attributes[.size] as? Int, size >= threshold,
            let handle = FileHandle(forReadingAtPath: url.path)
        else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: headBytes), !data.starts(with: SQLiteSourceKind.magic),
            !CSV.isWorkbook(Array(data.prefix(8))),
            let end = data.lastIndex(of: 0x0A)
        else { return nil }
        let head: Table
        do {
            head = try CSV.table(
                bytes: [UInt8](data.prefix(through: end)), types: types, encoding: reading.encoding,
                delimiter: reading.delimiter, headerRow: reading.headerRow, dateOrder: reading.dateOrder)
        } catch {
            return nil
        }
        let encoding = head.csvFormat.encoding
        guard encoding != .utf16LittleEndian, encoding != .utf16BigEndian else { return nil }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        let read = BackgroundRead(name: url.lastPathComponent, totalBytes: size, wake: (fds[0], fds[1]))
        let directory = io.currentDirectory
        let options = Unsendable((types, reading))
        Thread.detachNewThread {
            var quiet = CommandIO(currentDirectory: directory)
            let (types, reading) = options.value
            let outcome: Result<Table, CommandError>
            do throws(CommandError) {
                let source = try quiet.openSource(path, table: nil, query: nil, types: types, reading: reading)
                if let table = source as? Table { outcome = .success(table) } else { outcome = .failure(.failure("not a CSV file")) }
            } catch {
                outcome = .failure(error)
            }
            read.lock.lock()
            read.result = outcome
            read.notes = quiet.stderr
            read.lock.unlock()
            var byte: UInt8 = 1
            _ = write(read.wake.write, &byte, 1)
        }
        return (head, read)
    }

    /// What the status line says while the file is read.
    func progress(rowsShown: Int) -> String {
        let seconds = Double((ContinuousClock.now - started).components.seconds)
        let megabytes = Double(totalBytes) / 1_048_576
        return String(
            format: "reading %@ (%.0f MB), %.0f s; the first %@ rows shown", name, megabytes, seconds,
            GridScreen.grouped(rowsShown))
    }
}

/// A value handed to another thread that only that thread uses from then on.
struct Unsendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
