import CZlib
import Foundation

/// Writes a ZIP file: the package of a workbook written back. Entries are added in order; an
/// entry of another archive is copied as it is (its compressed bytes, checksum, method and
/// time), so that a part a sort does not change is the same part, byte for byte.
///
/// ```swift
/// var writer = ZipWriter()
/// try writer.copy(entry, from: archive)
/// try writer.add("xl/worksheets/sheet1.xml", sheet)
/// let bytes = try writer.finish()
/// ```
public struct ZipWriter {
    private var out: [UInt8] = []
    private var directory: [UInt8] = []
    private var count = 0

    public init() {}

    /// Copies `entry` of `archive`: its data as stored there.
    public mutating func copy(_ entry: ZipArchive.Entry, from archive: ZipArchive) throws(ZipError) {
        let range = try archive.dataRange(of: entry)
        let (time, date) = archive.timeAndDate(of: entry)
        try append(
            name: entry.name, method: entry.method, flags: entry.flags & 0x0800, crc: entry.crc32, data: archive.bytes[range],
            size: entry.uncompressedSize, time: time, date: date)
    }

    /// Adds `bytes` as the entry `name`, deflated (or stored, with `stored`).
    public mutating func add(_ name: String, _ bytes: [UInt8], stored: Bool = false, time: UInt16 = 0, date: UInt16 = 0x21) throws(ZipError) {
        let crc = bytes.withUnsafeBufferPointer { UInt32(CZlib.crc32(0, $0.baseAddress, uInt($0.count))) }
        let data = stored ? bytes : try Self.deflate(bytes, entry: name)
        let utf8 = name.utf8.contains { $0 >= 0x80 }
        try append(
            name: name, method: stored ? 0 : 8, flags: utf8 ? 0x0800 : 0, crc: crc, data: data[...], size: bytes.count, time: time, date: date)
    }

    /// The whole file: the entries, their directory and its end.
    public mutating func finish() throws(ZipError) -> [UInt8] {
        guard out.count <= Int(UInt32.max), directory.count <= Int(UInt32.max), count < 0xFFFF else {
            throw ZipError("the package would need ZIP64 (4 GB or 65,535 entries), which is not written")
        }
        let offset = out.count
        out += directory
        out += [0x50, 0x4B, 0x05, 0x06, 0, 0, 0, 0]
        Self.put16(&out, UInt16(count))
        Self.put16(&out, UInt16(count))
        Self.put32(&out, UInt32(directory.count))
        Self.put32(&out, UInt32(offset))
        Self.put16(&out, 0)
        return out
    }

    private mutating func append(
        name: String, method: UInt16, flags: UInt16, crc: UInt32, data: ArraySlice<UInt8>, size: Int, time: UInt16, date: UInt16
    ) throws(ZipError) {
        guard data.count <= Int(UInt32.max) - 1, size <= Int(UInt32.max) - 1, out.count <= Int(UInt32.max) - 1 else {
            throw ZipError(entry: name, "it would need ZIP64 (4 GB), which is not written")
        }
        let nameBytes = Array(name.utf8)
        let offset = out.count
        // The fields a local header and the directory's record share, from the version needed
        // to extract (2.0) to the name's length.
        var shared: [UInt8] = []
        Self.put16(&shared, 20)
        Self.put16(&shared, flags)
        Self.put16(&shared, method)
        Self.put16(&shared, time)
        Self.put16(&shared, date)
        Self.put32(&shared, crc)
        Self.put32(&shared, UInt32(data.count))
        Self.put32(&shared, UInt32(size))
        Self.put16(&shared, UInt16(nameBytes.count))
        // The local header (no extra field), then the data.
        out += [0x50, 0x4B, 0x03, 0x04] + shared + [0, 0]
        out += nameBytes
        out += data
        // Its record in the directory: made by 2.0; no extra field, comment, disk or attributes.
        directory += [0x50, 0x4B, 0x01, 0x02, 20, 0] + shared + [UInt8](repeating: 0, count: 12)
        Self.put32(&directory, UInt32(offset))
        directory += nameBytes
        count += 1
    }

    static func put16(_ b: inout [UInt8], _ v: UInt16) { b += [UInt8(v & 0xFF), UInt8(v >> 8)] }
    static func put32(_ b: inout [UInt8], _ v: UInt32) {
        b += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)]
    }

    /// Raw DEFLATE of `bytes` (no zlib header), as a ZIP entry holds it.
    static func deflate(_ bytes: [UInt8], entry: String) throws(ZipError) -> [UInt8] {
        var stream = z_stream()
        // zlib's fastest level for a large part, its default for the rest: a sheet of 87 MB of
        // XML deflates in 0.50 s to 18.9 MB at level 1 against 1.97 s to 15.1 MB at level 6.
        let level: Int32 = bytes.count > 1 << 20 ? 1 : 6
        guard deflateInit2_(&stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw ZipError(entry: entry, "zlib could not start deflating it")
        }
        defer { deflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 64)
        var status: Int32 = Z_OK
        var produced = 0
        bytes.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = output.baseAddress
                stream.avail_out = uInt(output.count)
                status = CZlib.deflate(&stream, Z_FINISH)
                produced = output.count - Int(stream.avail_out)
            }
        }
        guard status == Z_STREAM_END else { throw ZipError(entry: entry, "zlib could not deflate it (status \(status))") }
        out.removeSubrange(produced...)
        return out
    }
}

extension ZipArchive {
    /// This package again, in its entries' order, with the parts in `replaced` written anew (each
    /// stored or deflated as it was, its time kept), those in `dropped` left out, and every other
    /// entry copied as it is stored, byte for byte.
    func rewritten(replacing replaced: [String: [UInt8]], dropping dropped: Set<String> = []) throws(ZipError) -> [UInt8] {
        var writer = ZipWriter()
        for entry in entries where !dropped.contains(entry.name) {
            if let bytes = replaced[entry.name] {
                let (time, date) = timeAndDate(of: entry)
                try writer.add(entry.name, bytes, stored: entry.method == 0, time: time, date: date)
            } else {
                try writer.copy(entry, from: self)
            }
        }
        return try writer.finish()
    }
}
