import Foundation

/// A Compound File Binary (OLE2) container, as a legacy `.xls` is one: a small file system of
/// named streams in fixed-size sectors, chained through a file allocation table ([MS-CFB]).
/// Only reading; every chain and size is checked against the file, so that a damaged or hostile
/// file is an error, never a loop or a read past its end.
struct CompoundFile {
    /// The first 8 bytes of every compound file.
    static let signature: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]

    struct Entry {
        var name: String
        /// 1 a storage, 2 a stream, 5 the root.
        var type: UInt8
        var start: UInt32
        var size: Int
    }

    let bytes: [UInt8]
    let sectorSize: Int
    let miniSectorSize: Int
    let miniCutoff: Int
    let fat: [UInt32]
    let miniFAT: [UInt32]
    let entries: [Entry]
    /// The stream the small streams live in (the root entry's).
    let miniStream: [UInt8]

    static let endOfChain: UInt32 = 0xFFFF_FFFE
    static let free: UInt32 = 0xFFFF_FFFF

    static func looksLikeCompoundFile(_ head: some Collection<UInt8>) -> Bool { head.starts(with: signature) }

    init(bytes: [UInt8]) throws(WorkbookError) {
        self.bytes = bytes
        guard bytes.count >= 512, bytes.starts(with: Self.signature) else {
            throw WorkbookError("it starts as a compound file (a legacy .xls workbook), but its header is cut short")
        }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> UInt32 { UInt32(u16(at)) | UInt32(u16(at + 2)) << 16 }
        let sectorShift = u16(0x1E), miniShift = u16(0x20)
        guard sectorShift == 9 || sectorShift == 12, miniShift == 6 else {
            throw WorkbookError("its compound file header names sectors of 2^\(sectorShift) bytes, which no version has")
        }
        let sectorSize = 1 << sectorShift
        self.sectorSize = sectorSize
        miniSectorSize = 1 << miniShift
        miniCutoff = Int(u32(0x38))
        let sectorCount = (bytes.count + sectorSize - 1) / sectorSize
        /// The bytes of sector `n`, checked to lie in the file.
        func sector(_ n: UInt32) throws(WorkbookError) -> ArraySlice<UInt8> {
            let start = (Int(n) + 1) * sectorSize
            guard Int(n) < sectorCount, start < bytes.count else {
                throw WorkbookError("its compound file points to sector \(n), past the end of the file: the file is damaged or cut short")
            }
            return bytes[start..<min(start + sectorSize, bytes.count)]
        }
        func words(_ slice: ArraySlice<UInt8>) -> [UInt32] {
            stride(from: slice.startIndex, to: slice.endIndex - 3, by: 4).map { i in
                UInt32(slice[i]) | UInt32(slice[i + 1]) << 8 | UInt32(slice[i + 2]) << 16 | UInt32(slice[i + 3]) << 24
            }
        }
        // The sectors of the allocation table: 109 in the header, the rest in a chain of their own.
        var fatSectors = words(bytes[0x4C..<0x200]).filter { $0 < 0xFFFF_FFFA }
        var difat = u32(0x44)
        var seen = 0
        while difat < 0xFFFF_FFFA {
            seen += 1
            guard seen <= sectorCount else { throw WorkbookError("its compound file's sector list loops: the file is damaged") }
            let list = words(try sector(difat))
            fatSectors += list.dropLast().filter { $0 < 0xFFFF_FFFA }
            difat = list.last ?? Self.endOfChain
        }
        guard fatSectors.count <= sectorCount else { throw WorkbookError("its compound file lists more sectors than it has: the file is damaged") }
        var table: [UInt32] = []
        table.reserveCapacity(fatSectors.count * sectorSize / 4)
        for n in fatSectors { table += words(try sector(n)) }
        self.fat = table
        /// The sectors of the chain that starts at `start`, checked for loops and ends.
        func chain(_ start: UInt32, in table: [UInt32], limit: Int) throws(WorkbookError) -> [UInt32] {
            var sectors: [UInt32] = []
            var n = start
            while n != Self.endOfChain {
                guard Int(n) < table.count, sectors.count < limit else {
                    throw WorkbookError("its compound file has a broken chain of sectors: the file is damaged or cut short")
                }
                sectors.append(n)
                n = table[Int(n)]
            }
            return sectors
        }
        func read(_ start: UInt32, size: Int?) throws(WorkbookError) -> [UInt8] {
            var data: [UInt8] = []
            for n in try chain(start, in: table, limit: sectorCount) {
                data += try sector(n)
                if let size, data.count >= size { break }
            }
            if let size {
                guard data.count >= size else { throw WorkbookError("a stream of its compound file is cut short: the file is damaged") }
                data.removeSubrange(size...)
            }
            return data
        }
        // The directory: 128 bytes an entry.
        let directory = try read(u32(0x30), size: nil)
        var found: [Entry] = []
        for at in stride(from: 0, to: directory.count - 127, by: 128) {
            let type = directory[at + 0x42]
            guard type == 1 || type == 2 || type == 5 else { continue }
            let length = min(64, Int(directory[at + 0x40]) | Int(directory[at + 0x41]) << 8)
            var units: [UInt16] = []
            for k in stride(from: 0, to: max(0, length - 2), by: 2) { units.append(UInt16(directory[at + k]) | UInt16(directory[at + k + 1]) << 8) }
            func word(_ i: Int) -> UInt32 {
                UInt32(directory[i]) | UInt32(directory[i + 1]) << 8 | UInt32(directory[i + 2]) << 16 | UInt32(directory[i + 3]) << 24
            }
            // Version 3 files keep only the low 32 bits of a size.
            let size = sectorSize == 512 ? Int(word(at + 0x78)) : Int(word(at + 0x78)) | Int(word(at + 0x7C)) << 32
            guard size >= 0, size <= bytes.count else {
                throw WorkbookError("its compound file names a stream of \(size) bytes in a file of \(bytes.count): the file is damaged")
            }
            found.append(Entry(name: String(decoding: units, as: UTF16.self), type: type, start: word(at + 0x74), size: size))
        }
        self.entries = found
        guard let root = found.first(where: { $0.type == 5 }) else {
            throw WorkbookError("its compound file has no root entry: the file is damaged")
        }
        miniStream = root.size > 0 ? try read(root.start, size: root.size) : []
        var miniTable: [UInt32] = []
        if u32(0x3C) < 0xFFFF_FFFA { miniTable = words(try read(u32(0x3C), size: nil)[...]) }
        self.miniFAT = miniTable
    }

    /// The entry named `name` (compared ignoring case, as the format does).
    func entry(named name: String) -> Entry? {
        entries.first { $0.type == 2 && $0.name.lowercased() == name.lowercased() }
    }

    /// The bytes of the stream `entry`.
    func read(_ entry: Entry) throws(WorkbookError) -> [UInt8] {
        var data: [UInt8] = []
        data.reserveCapacity(entry.size)
        var n = entry.start
        var steps = 0
        if entry.size < miniCutoff {
            while data.count < entry.size {
                let start = Int(n) * miniSectorSize
                guard n != Self.endOfChain, Int(n) < miniFAT.count, start < miniStream.count, steps <= miniFAT.count else {
                    throw WorkbookError("the stream '\(entry.name)' of its compound file is cut short: the file is damaged")
                }
                data += miniStream[start..<min(start + miniSectorSize, miniStream.count)]
                n = miniFAT[Int(n)]
                steps += 1
            }
        } else {
            while data.count < entry.size {
                let start = (Int(n) + 1) * sectorSize
                guard n != Self.endOfChain, Int(n) < fat.count, start < bytes.count, steps <= fat.count else {
                    throw WorkbookError("the stream '\(entry.name)' of its compound file is cut short: the file is damaged")
                }
                data += bytes[start..<min(start + sectorSize, bytes.count)]
                n = fat[Int(n)]
                steps += 1
            }
        }
        data.removeSubrange(entry.size...)
        return data
    }
}
