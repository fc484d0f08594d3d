import Foundation
import TrellisText

/// A run: entries (key, record) in key order, in a file unlinked as soon as it was made.
final class RunFile {
    let fd: Int32

    private init(fd: Int32) { self.fd = fd }

    deinit { close(fd) }

    static func create(in folder: String) throws(ExternalSortError) -> RunFile {
        guard let (fd, path) = TemporaryPaths.makeFile(in: folder, prefix: "run-") else {
            throw .io("cannot write a run file in '\(folder)': \(String(cString: strerror(errno)))")
        }
        // Gone from the folder at once: the file lives while it is open, and no exit leaves it.
        unlink(path)
        return RunFile(fd: fd)
    }

    /// Writes every byte of `bytes`.
    func write(_ bytes: UnsafeRawBufferPointer) throws(ExternalSortError) {
        var offset = 0
        while offset < bytes.count {
            let n = Foundation.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw .io("cannot write a run file: \(String(cString: strerror(errno))) (a sort in parts writes about the input's size beside the output)")
            }
            offset += n
        }
    }

    /// Back to the start, for reading.
    func rewind() throws(ExternalSortError) {
        guard lseek(fd, 0, SEEK_SET) == 0 else { throw .io("cannot read a run file back") }
    }
}

/// Writes a run's entries — a 4-byte length and the key, a 4-byte length and the record —
/// through a buffer of 1 MB.
struct RunWriter {
    let run: RunFile
    let buffer: UnsafeMutableRawBufferPointer
    var used = 0

    init(in folder: String) throws(ExternalSortError) {
        run = try RunFile.create(in: folder)
        buffer = .allocate(byteCount: 1 << 20, alignment: 8)
    }

    @inline(__always)
    mutating func append(key: UnsafeBufferPointer<UInt8>, record: UnsafeBufferPointer<UInt8>) throws(ExternalSortError) {
        let size = 8 + key.count + record.count
        if used + size > buffer.count {
            try flush()
            if size > buffer.count {
                var entry = [UInt8]()
                entry.reserveCapacity(size)
                Self.appendLength(key.count, to: &entry)
                entry.append(contentsOf: key)
                Self.appendLength(record.count, to: &entry)
                entry.append(contentsOf: record)
                let failure: ExternalSortError? = entry.withUnsafeBytes { bytes in
                    do throws(ExternalSortError) { try run.write(bytes); return nil } catch { return error }
                }
                if let failure { throw failure }
                return
            }
        }
        let base = buffer.baseAddress! + used
        base.storeBytes(of: UInt32(truncatingIfNeeded: key.count).littleEndian, as: UInt32.self)
        if !key.isEmpty { (base + 4).copyMemory(from: key.baseAddress!, byteCount: key.count) }
        (base + 4 + key.count).storeBytes(of: UInt32(truncatingIfNeeded: record.count).littleEndian, as: UInt32.self)
        if !record.isEmpty { (base + 8 + key.count).copyMemory(from: record.baseAddress!, byteCount: record.count) }
        used += size
    }

    private static func appendLength(_ n: Int, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: UInt32(truncatingIfNeeded: n).littleEndian) { bytes.append(contentsOf: $0) }
    }

    private mutating func flush() throws(ExternalSortError) {
        try run.write(UnsafeRawBufferPointer(rebasing: buffer[0..<used]))
        used = 0
    }

    /// Writes what is buffered, frees the buffer and hands the run over for reading.
    mutating func finish() throws(ExternalSortError) -> RunFile {
        defer { buffer.deallocate() }
        try flush()
        try run.rewind()
        return run
    }
}

/// Reads a run's entries in order.
final class RunReader {
    let run: RunFile
    // The merge reads these for every entry of every run, each access checked at run time for
    // overlapping ones (a class's stored properties are): 9% of a sort in parts went to those
    // checks. No method here holds one of them across a call that reaches another.
    @exclusivity(unchecked) private var buffer: [UInt8]
    @exclusivity(unchecked) private var start = 0
    @exclusivity(unchecked) private var end = 0
    @exclusivity(unchecked) private var eof = false
    /// The current entry: its key and record in `buffer`.
    @exclusivity(unchecked) private var key = 0..<0
    @exclusivity(unchecked) private var record = 0..<0

    init(_ run: RunFile, bufferBytes: Int) throws(ExternalSortError) {
        self.run = run
        buffer = [UInt8](repeating: 0, count: bufferBytes)
    }

    /// Makes sure `count` bytes from `start` are in the buffer; false at the end of the run.
    func ensure(_ count: Int) throws(ExternalSortError) -> Bool {
        while end - start < count {
            if eof { return false }
            if start > 0 {
                buffer.withUnsafeMutableBytes { b in _ = memmove(b.baseAddress!, b.baseAddress! + start, end - start) }
                end -= start
                start = 0
            }
            if count > buffer.count { buffer += [UInt8](repeating: 0, count: count - buffer.count) }
            let n = buffer.withUnsafeMutableBytes { b in read(run.fd, b.baseAddress! + end, b.count - end) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .io("cannot read a run file: \(String(cString: strerror(errno)))")
            }
            if n == 0 { eof = true } else { end += n }
        }
        return true
    }

    func length(at i: Int) -> Int {
        Int(buffer[i]) | Int(buffer[i + 1]) << 8 | Int(buffer[i + 2]) << 16 | Int(buffer[i + 3]) << 24
    }

    /// Moves to the next entry; false when the run is done.
    func advance() throws(ExternalSortError) -> Bool {
        start = record.upperBound > start ? record.upperBound : start
        guard try ensure(4) else { return false }
        let keyLength = length(at: start)
        guard try ensure(8 + keyLength) else { throw .io("a run file ends inside an entry") }
        let recordLength = length(at: start + 4 + keyLength)
        guard try ensure(8 + keyLength + recordLength) else { throw .io("a run file ends inside an entry") }
        key = (start + 4)..<(start + 4 + keyLength)
        record = (key.upperBound + 4)..<(key.upperBound + 4 + recordLength)
        return true
    }

    func withEntry(_ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) throws(ExternalSortError) -> Void) throws(ExternalSortError) {
        let (key, record) = (self.key, self.record)
        let result: ExternalSortError? = buffer.withUnsafeBufferPointer { b in
            do throws(ExternalSortError) {
                try body(UnsafeBufferPointer(rebasing: b[key]), UnsafeBufferPointer(rebasing: b[record]))
                return nil
            } catch {
                return error
            }
        }
        if let result { throw result }
    }

    /// The order of this reader's key against another's (negative, zero, positive).
    func compareKey(with other: RunReader) -> Int {
        buffer.withUnsafeBufferPointer { a in
            other.buffer.withUnsafeBufferPointer { b in
                switch SortKeys.order(UnsafeBufferPointer(rebasing: a[key]), UnsafeBufferPointer(rebasing: b[other.key])) {
                case .orderedAscending: return -1
                case .orderedSame: return 0
                case .orderedDescending: return 1
                }
            }
        }
    }
}

extension ExternalCSVSort {
    /// Merges runs whose entries are in key order, handing each entry on in order.
    static func merge(
        _ runs: [RunFile], bufferBytes: Int,
        _ emit: (_ key: UnsafeBufferPointer<UInt8>, _ record: UnsafeBufferPointer<UInt8>) throws(ExternalSortError) -> Void
    )
        throws(ExternalSortError)
    {
        let readers = try runs.map { run throws(ExternalSortError) in
            try RunReader(run, bufferBytes: max(64 << 10, bufferBytes / max(1, runs.count)))
        }
        // A binary heap of the readers that have an entry, smallest key first.
        var heap: [Int] = []
        for (i, reader) in readers.enumerated() where try reader.advance() { heap.append(i) }
        func less(_ a: Int, _ b: Int) -> Bool { readers[a].compareKey(with: readers[b]) < 0 }
        func siftDown(_ start: Int) {
            var i = start
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < heap.count, less(heap[l], heap[m]) { m = l }
                if r < heap.count, less(heap[r], heap[m]) { m = r }
                if m == i { return }
                heap.swapAt(i, m)
                i = m
            }
        }
        for i in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(i) }
        while let top = heap.first {
            let reader = readers[top]
            try reader.withEntry { key, record throws(ExternalSortError) in try emit(key, record) }
            if try reader.advance() {
                siftDown(0)
            } else {
                heap[0] = heap[heap.count - 1]
                heap.removeLast()
                if !heap.isEmpty { siftDown(0) }
            }
        }
    }
}
