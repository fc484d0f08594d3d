import CZlib
import Foundation

/// A ZIP file read in memory: the package a workbook is (`.xlsx`, `.xlsm` and `.ods` are ZIP files
/// of XML parts). Its entries are listed from the central directory at its end, as every ZIP
/// reader lists them; an entry's bytes are read from its local header, inflated (DEFLATE) or as
/// stored, and checked against their CRC-32 and size.
///
/// ```swift
/// let archive = try ZipArchive(bytes: [UInt8](Data(contentsOf: url)))
/// let workbook = try archive.read("xl/workbook.xml")
/// ```
///
/// Nothing in the file is trusted: every offset and length is checked against the file, an
/// entry is never inflated past the size its directory declares (nor past `limit`), and a file
/// that is not what it says is an error that names the entry, never a trap. ZIP64 (archives or
/// entries past 4 GB) is read; encrypted entries and methods other than stored and DEFLATE are
/// refused.
public struct ZipArchive: Sendable {
    /// One file of the archive, as its central directory describes it.
    public struct Entry: Sendable, Equatable {
        /// Its path in the archive (`xl/worksheets/sheet1.xml`).
        public var name: String
        /// 0: stored; 8: DEFLATE.
        public var method: UInt16
        public var flags: UInt16
        public var crc32: UInt32
        public var compressedSize: Int
        public var uncompressedSize: Int
        /// Where its local header starts in the file.
        public var localHeaderOffset: Int

        /// Whether it is a folder (a name ending in `/`), which holds no bytes.
        public var isDirectory: Bool { name.hasSuffix("/") }
    }

    /// The file's bytes.
    public let bytes: [UInt8]
    /// The entries, in the order of the central directory.
    public let entries: [Entry]

    /// The first bytes of a ZIP file that holds any entry: a local file header's signature.
    public static let magic: [UInt8] = [0x50, 0x4B, 0x03, 0x04]

    /// Whether `head` (a file's first bytes) starts as a ZIP file.
    public static func looksLikeZip(_ head: some Collection<UInt8>) -> Bool { head.starts(with: magic) }

    /// Reads the central directory of the ZIP file `bytes`.
    public init(bytes: [UInt8]) throws(ZipError) {
        self.bytes = bytes
        entries = try Self.centralDirectory(bytes)
    }

    private init() {
        bytes = []
        entries = []
    }

    /// An archive of no entries.
    static let empty = ZipArchive()

    /// The entry called `name` (the first, should two share it).
    public func entry(named name: String) -> Entry? { entries.first { $0.name == name } }

    /// The bytes of the entry called `name`; `nil` when the archive has none of that name.
    public func read(_ name: String, limit: Int = ZipArchive.defaultLimit) throws(ZipError) -> [UInt8]? {
        guard let entry = entry(named: name) else { return nil }
        return try read(entry, limit: limit)
    }

    /// The most bytes an entry is inflated to unless told otherwise: 1 GB (a sheet of a million
    /// rows is some 100 MB of XML).
    public static let defaultLimit = 1 << 30

    /// The bytes of `entry`, inflated or as stored, checked against its CRC-32 and size.
    public func read(_ entry: Entry, limit: Int = ZipArchive.defaultLimit) throws(ZipError) -> [UInt8] {
        let name = entry.name
        if entry.flags & 0x1 != 0 {
            throw ZipError(entry: name, "it is encrypted (the workbook has a password to open it): save it without one")
        }
        guard entry.uncompressedSize <= limit else {
            throw ZipError(
                entry: name, "it says it holds \(entry.uncompressedSize) bytes, more than the \(limit) a part is read to")
        }
        let data = try dataRange(of: entry)
        let out: [UInt8]
        switch entry.method {
        case 0:
            guard entry.compressedSize == entry.uncompressedSize else {
                throw ZipError(entry: name, "it is stored, but its sizes differ (\(entry.compressedSize) and \(entry.uncompressedSize))")
            }
            out = Array(bytes[data])
        case 8:
            out = try Self.inflate(bytes, data, size: entry.uncompressedSize, entry: name)
        default:
            throw ZipError(entry: name, "it is compressed with method \(entry.method); a workbook's parts are stored or DEFLATE (8)")
        }
        let crc = out.withUnsafeBufferPointer { buffer in
            UInt32(CZlib.crc32(0, buffer.baseAddress, uInt(buffer.count)))
        }
        guard crc == entry.crc32 else {
            throw ZipError(entry: name, String(format: "its bytes do not match their checksum (CRC-32 %08x, the directory says %08x)", crc, entry.crc32))
        }
        return out
    }

    /// Where `entry`'s data (compressed or stored) is in ``bytes``, found from its local header.
    func dataRange(of entry: Entry) throws(ZipError) -> Range<Int> {
        // The local header: its own name and extra field lengths say where the data starts.
        let local = entry.localHeaderOffset
        guard local >= 0, local + 30 <= bytes.count, Self.uint32(bytes, local) == 0x0403_4B50 else {
            throw ZipError(entry: entry.name, "its local header is not where the directory says (byte \(local))")
        }
        let start = local + 30 + Int(Self.uint16(bytes, local + 26)) + Int(Self.uint16(bytes, local + 28))
        guard start <= bytes.count, entry.compressedSize <= bytes.count - start else {
            throw ZipError(entry: entry.name, "its data runs past the end of the file (the file is cut short?)")
        }
        return start..<(start + entry.compressedSize)
    }

    /// The modification time and date of `entry` (MS-DOS format), from its local header.
    func timeAndDate(of entry: Entry) -> (UInt16, UInt16) {
        let local = entry.localHeaderOffset
        guard local >= 0, local + 14 <= bytes.count else { return (0, 0x21) }
        return (Self.uint16(bytes, local + 10), Self.uint16(bytes, local + 12))
    }

    // MARK: The directory

    static func uint16(_ b: [UInt8], _ at: Int) -> UInt16 { UInt16(b[at]) | UInt16(b[at + 1]) << 8 }
    static func uint32(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24
    }
    static func uint64(_ b: [UInt8], _ at: Int) -> UInt64 { UInt64(uint32(b, at)) | UInt64(uint32(b, at + 4)) << 32 }

    /// The entries the central directory lists (found from the end-of-directory record, within
    /// the last 64 KB and 22 bytes of the file, where a comment may push it).
    static func centralDirectory(_ b: [UInt8]) throws(ZipError) -> [Entry] {
        guard b.count >= 22 else { throw ZipError("the file is too short to be a ZIP file (\(b.count) bytes)") }
        var end = -1
        var at = b.count - 22
        let lowest = max(0, b.count - 22 - 0xFFFF)
        while at >= lowest {
            if b[at] == 0x50, uint32(b, at) == 0x0605_4B50 {
                end = at
                break
            }
            at -= 1
        }
        guard end >= 0 else {
            throw ZipError("no central directory at its end: not a ZIP file, or one cut short")
        }
        var count = Int(uint16(b, end + 10))
        var size = Int(uint32(b, end + 12))
        var offset = Int(uint32(b, end + 16))
        // ZIP64: the record before it says where the 64-bit one is.
        if count == 0xFFFF || size == 0xFFFF_FFFF || offset == 0xFFFF_FFFF, end >= 20, uint32(b, end - 20) == 0x0706_4B50 {
            let record = uint64(b, end - 20 + 8)
            guard record <= UInt64(b.count - 56), uint32(b, Int(record)) == 0x0606_4B50 else {
                throw ZipError("its ZIP64 directory record is not where the file says")
            }
            let r = Int(record)
            guard let c = Int(exactly: uint64(b, r + 32)), let s = Int(exactly: uint64(b, r + 40)), let o = Int(exactly: uint64(b, r + 48)) else {
                throw ZipError("its ZIP64 directory record holds sizes past any file's")
            }
            count = c
            size = s
            offset = o
        }
        guard offset >= 0, size >= 0, offset <= b.count, size <= b.count - offset else {
            throw ZipError("its central directory (\(size) bytes at byte \(offset)) is not inside the file")
        }
        // Every entry takes 46 bytes at least.
        guard count <= size / 46 + 1 else { throw ZipError("its directory says \(count) entries in \(size) bytes") }
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        var p = offset
        let limit = offset + size
        for k in 0..<count {
            guard p + 46 <= limit, uint32(b, p) == 0x0201_4B50 else {
                throw ZipError("entry \(k + 1) of its central directory is not where it should be (byte \(p))")
            }
            let flags = uint16(b, p + 8)
            let method = uint16(b, p + 10)
            let crc = uint32(b, p + 16)
            var compressed = UInt64(uint32(b, p + 20))
            var uncompressed = UInt64(uint32(b, p + 24))
            let nameLength = Int(uint16(b, p + 28)), extraLength = Int(uint16(b, p + 30)), commentLength = Int(uint16(b, p + 32))
            var local = UInt64(uint32(b, p + 42))
            let nameStart = p + 46
            guard nameStart + nameLength + extraLength + commentLength <= limit else {
                throw ZipError("entry \(k + 1) of its central directory runs past the directory")
            }
            let name = String(decoding: b[nameStart..<(nameStart + nameLength)], as: UTF8.self)
            // ZIP64's extra field holds the sizes and the offset that do not fit 32 bits, in order.
            var e = nameStart + nameLength
            let extraEnd = e + extraLength
            while e + 4 <= extraEnd {
                let id = uint16(b, e), length = Int(uint16(b, e + 2))
                let body = e + 4
                guard body + length <= extraEnd else { break }
                if id == 0x0001 {
                    var q = body
                    for field in 0..<3 {
                        let wide = field == 0 ? uncompressed == 0xFFFF_FFFF : field == 1 ? compressed == 0xFFFF_FFFF : local == 0xFFFF_FFFF
                        guard wide else { continue }
                        guard q + 8 <= body + length else { throw ZipError(entry: name, "its ZIP64 sizes are cut short") }
                        switch field {
                        case 0: uncompressed = uint64(b, q)
                        case 1: compressed = uint64(b, q)
                        default: local = uint64(b, q)
                        }
                        q += 8
                    }
                }
                e = body + length
            }
            guard let c = Int(exactly: compressed), let u = Int(exactly: uncompressed), let l = Int(exactly: local),
                c <= b.count, l <= b.count
            else {
                throw ZipError(entry: name, "its sizes or place (\(compressed), \(uncompressed), at \(local)) are past the file's end")
            }
            entries.append(
                Entry(name: name, method: method, flags: flags, crc32: crc, compressedSize: c, uncompressedSize: u, localHeaderOffset: l))
            p = extraEnd + commentLength
        }
        return entries
    }

    /// Inflates raw DEFLATE data to exactly `size` bytes: more or fewer is an error.
    static func inflate(_ b: [UInt8], _ range: Range<Int>, size: Int, entry: String) throws(ZipError) -> [UInt8] {
        var stream = z_stream()
        // Raw DEFLATE (no zlib header): negative window bits.
        guard inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw ZipError(entry: entry, "zlib could not start inflating it")
        }
        defer { inflateEnd(&stream) }
        // One byte more than declared, so that data that runs on is seen.
        var out = [UInt8](repeating: 0, count: size + 1)
        var status: Int32 = Z_OK
        var produced = 0
        b.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress! + range.lowerBound)
                stream.next_out = output.baseAddress
                var inputLeft = range.count
                var outputLeft = output.count
                // zlib counts in 32 bits: large parts are fed in pieces.
                while true {
                    let feed = min(inputLeft, Int(UInt32.max))
                    let room = min(outputLeft, Int(UInt32.max))
                    stream.avail_in = uInt(feed)
                    stream.avail_out = uInt(room)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    inputLeft -= feed - Int(stream.avail_in)
                    outputLeft -= room - Int(stream.avail_out)
                    if status != Z_OK || (inputLeft == 0 && stream.avail_in == 0) || outputLeft == 0 { break }
                }
                produced = output.count - outputLeft
            }
        }
        switch status {
        case Z_STREAM_END:
            guard produced == size else {
                throw ZipError(entry: entry, "it inflates to \(produced) bytes; the directory says \(size)")
            }
        case Z_OK, Z_BUF_ERROR:
            if produced > size {
                throw ZipError(entry: entry, "it inflates to more than the \(size) bytes the directory says")
            }
            throw ZipError(entry: entry, "its compressed data ends early (the file is cut short?)")
        default:
            let message = stream.msg.map { String(cString: $0) } ?? zError(status).map { String(cString: $0) } ?? "error \(status)"
            throw ZipError(entry: entry, "its compressed data is damaged (zlib: \(message))")
        }
        out.removeLast()
        return out
    }
}

/// A ZIP file that cannot be read, with what is wrong and, where it is one entry's fault, which.
public struct ZipError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The entry at fault, when one is.
    public var entry: String?
    public var problem: String

    public init(entry: String? = nil, _ problem: String) {
        self.entry = entry
        self.problem = problem
    }

    public var description: String { entry.map { "the part '\($0)': \(problem)" } ?? problem }
}

/// An entry of a ZIP archive inflated a piece at a time, so that a large part (a sheet of a
/// million rows) is never held whole; checked, as ``ZipArchive/read(_:limit:)`` checks it,
/// against its size (never inflated past it) and, at its end, its CRC-32.
final class ZipInflater {
    private let archive: ZipArchive
    private let entry: ZipArchive.Entry
    private let data: Range<Int>
    private let stream: UnsafeMutablePointer<z_stream>
    private var started = false
    private var consumed = 0
    private var produced = 0
    private var crc: uLong = 0
    private var ended = false

    init(_ archive: ZipArchive, _ entry: ZipArchive.Entry, limit: Int = ZipArchive.defaultLimit) throws(ZipError) {
        if entry.flags & 0x1 != 0 {
            throw ZipError(entry: entry.name, "it is encrypted (the workbook has a password to open it): save it without one")
        }
        guard entry.uncompressedSize <= limit else {
            throw ZipError(entry: entry.name, "it says it holds \(entry.uncompressedSize) bytes, more than the \(limit) a part is read to")
        }
        guard entry.method == 0 || entry.method == 8 else {
            throw ZipError(entry: entry.name, "it is compressed with method \(entry.method); a workbook's parts are stored or DEFLATE (8)")
        }
        if entry.method == 0, entry.compressedSize != entry.uncompressedSize {
            throw ZipError(entry: entry.name, "it is stored, but its sizes differ (\(entry.compressedSize) and \(entry.uncompressedSize))")
        }
        self.archive = archive
        self.entry = entry
        data = try archive.dataRange(of: entry)
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        if entry.method == 8 {
            // (zlib keeps a pointer back to the stream: it must stay where it is, on the heap.)
            guard inflateInit2_(stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                stream.deallocate()
                throw ZipError(entry: entry.name, "zlib could not start inflating it")
            }
            started = true
        }
    }

    deinit {
        if started { inflateEnd(stream) }
        stream.deallocate()
    }

    /// Appends up to `count` more bytes of the entry to `out`; `false` once the entry is over
    /// (and checked).
    func read(into out: inout [UInt8], count: Int) throws(ZipError) -> Bool {
        guard !ended else { return false }
        let size = entry.uncompressedSize
        let name = entry.name
        let old = out.count
        let room = min(count, size - produced + 1)
        out.append(contentsOf: repeatElement(0, count: room))
        var made = 0
        var status: Int32 = Z_OK
        if entry.method == 0 {
            made = min(room, data.count - consumed)
            out.withUnsafeMutableBufferPointer { o in
                archive.bytes.withUnsafeBufferPointer { b in
                    (o.baseAddress! + old).update(from: b.baseAddress! + data.lowerBound + consumed, count: made)
                }
            }
            consumed += made
            if consumed == data.count { status = Z_STREAM_END }
        } else {
            archive.bytes.withUnsafeBufferPointer { input in
                out.withUnsafeMutableBufferPointer { output in
                    stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress! + data.lowerBound + consumed)
                    let feed = min(data.count - consumed, Int(UInt32.max))
                    stream.pointee.avail_in = uInt(feed)
                    stream.pointee.next_out = output.baseAddress! + old
                    stream.pointee.avail_out = uInt(room)
                    status = CZlib.inflate(stream, Z_NO_FLUSH)
                    consumed += feed - Int(stream.pointee.avail_in)
                    made = room - Int(stream.pointee.avail_out)
                }
            }
        }
        out.removeLast(room - made)
        produced += made
        out.withUnsafeBufferPointer { b in crc = CZlib.crc32(crc, b.baseAddress! + old, uInt(made)) }
        if produced > size {
            throw ZipError(entry: name, "it inflates to more than the \(size) bytes the directory says")
        }
        switch status {
        case Z_STREAM_END:
            ended = true
            guard produced == size else { throw ZipError(entry: name, "it inflates to \(produced) bytes; the directory says \(size)") }
            guard UInt32(crc) == entry.crc32 else {
                throw ZipError(
                    entry: name, String(format: "its bytes do not match their checksum (CRC-32 %08x, the directory says %08x)", UInt32(crc), entry.crc32))
            }
            return true
        case Z_OK:
            return true
        case Z_BUF_ERROR where made > 0:
            return true
        case Z_BUF_ERROR:
            throw ZipError(entry: name, "its compressed data ends early (the file is cut short?)")
        default:
            let message = stream.pointee.msg.map { String(cString: $0) } ?? "error \(status)"
            throw ZipError(entry: name, "its compressed data is damaged (zlib: \(message))")
        }
    }
}
