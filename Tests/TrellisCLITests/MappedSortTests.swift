import Foundation
import Testing
import TrellisTestSupport
import TrellisText

@testable import TrellisCLI
@testable import TrellisGrid
@testable import TrellisRender

/// A large file sorted to CSV is mapped, not read: its key columns are copied out as they are
/// read, its records left in the file and gathered from it part by part when written. Whatever
/// the file, the output and the messages are those of the file read whole.
@Suite("trellis sort of a file whose records are left in it", .serialized)
struct MappedSortTests {
    func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-mapped-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    func run(_ arguments: [String], in folder: URL) -> (status: Int32, stderr: String, output: Data?) {
        var io = CommandIO(standardInput: { Data() }, currentDirectory: folder)
        let status = TrellisCommandLine.run(arguments, io: &io)
        return (status, io.stderr, try? Data(contentsOf: folder.appendingPathComponent("out.csv")))
    }

    /// `arguments` run on a file read whole, then mapped with the output gathered in parts of
    /// each of `partSizes` bytes: every run must give the first one's status, messages and bytes.
    func expectSame(_ arguments: [String], in folder: URL, partSizes: [Int], _ comment: String) {
        let whole = Tuning.$current.withValue(Tuning(mapFilesFrom: .max)) { run(arguments + ["-o", "out.csv"], in: folder) }
        #expect(whole.status == 0, "\(comment) \(arguments): \(whole.stderr)")
        for part in partSizes {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent("out.csv"))
            let mapped = Tuning.$current.withValue(Tuning(gatherPartBytes: part, mapFilesFrom: 0)) {
                run(arguments + ["-o", "out.csv"], in: folder)
            }
            #expect(mapped.status == whole.status, "\(comment) \(arguments), parts of \(part): \(mapped.stderr)")
            #expect(mapped.stderr == whole.stderr, "\(comment) \(arguments), parts of \(part)")
            #expect(mapped.output != nil && mapped.output == whole.output, "\(comment) \(arguments), parts of \(part): the outputs differ")
        }
    }

    @Test(
        "records left in the file give the bytes and the messages of the file read whole — every reading rule, summaries, parts of one row",
        arguments: 0..<6)
    func sameAsReadWhole(seed: Int) throws {
        var rng = SeededRandom(seed: UInt64(7300 + seed))
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        var text = SortInPartsTests.randomFile(&rng, rows: 900)
        // Excel's marks around the table: a byte order mark, a `sep=` line, a title above the header.
        var extra: [String] = []
        if seed % 3 == 1 { text = "\u{FEFF}" + text }
        if seed == 2 { text = "sep=,\n" + text }
        if seed == 5 { text = "成绩表\n,,,,,,,\n" + text; extra = ["--header-row", "3"] }
        try Data(text.utf8).write(to: folder.appendingPathComponent("in.csv"))
        for round in 0..<4 {
            var arguments = ["sort", "in.csv"] + extra + SortInPartsTests.keyChoices[(seed * 4 + round) % SortInPartsTests.keyChoices.count]
            if round == 1 { arguments += ["--summary", "mean:score", "--summary", "max:when,name"] }
            if round == 2 { arguments += ["--pin-bottom", "组号=平均"] }  // read whole either way: pins read every column
            if round == 3 { arguments += ["--summary", "平均=mean:score,id", "--precision", "1"] }
            expectSame(arguments, in: folder, partSizes: [0, 1, 700, 1 << 14], "seed \(seed), round \(round)")
        }
    }

    @Test("a file large enough to be read in two halves and gathered on two threads sorts as read whole")
    func inHalves() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        var rng = SeededRandom(seed: 7400)
        // Some 4.6 MB: read in two halves (above 4 MB), gathered in a part of more than 65,536 rows.
        var lines = ["id,score,name,note"]
        lines.reserveCapacity(150_001)
        for i in 0..<150_000 {
            let score = rng.chance(0.05) ? "" : String(Int.random(in: 0...99_999, using: &rng))
            let note = rng.chance(0.01) ? "\"a,\"\"b\"\"\"" : "n\(i % 7)"
            lines.append("\(i),\(score),名字\(Int.random(in: 0...999, using: &rng)),\(note)")
        }
        try Data((lines.joined(separator: "\r\n") + "\r\n").utf8).write(to: folder.appendingPathComponent("in.csv"))
        expectSame(["sort", "in.csv", "--by", "score:desc", "--by", "note", "--summary", "mean:score"], in: folder, partSizes: [0, 5000, 1 << 20], "halves")
    }

    @Test("records are gathered — not written some other way — in their order, on one thread and two, in one part and many")
    func gathered() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        var rng = SeededRandom(seed: 7600)
        for rows in [500, 70_000] {
            var text = "k,v\n"
            for i in 0..<rows { text += "\(Int.random(in: 0...999, using: &rng)),\"r\(i)\"\n" }
            let path = folder.appendingPathComponent("g\(rows).csv").path
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            let file = try #require(MappedFile(path: path))
            let table = try CSV.table(mapped: file, reading: { _ in [0] })
            let grid = DataGrid(bound: table)
            try grid.sort(by: [SortKey("k", .descending)])
            let whole = try #require(try CSV.table(bytes: Array(text.utf8), types: [:], splitAbove: 1 << 22, columns: { _ in [0] }).rawRecords)
            var expected: [UInt8] = []
            for index in 0..<grid.displayedRowCount {
                expected += whole.bytes[whole.range(try #require(grid.plainSourceRow(at: index)))] + [0x0A]
            }
            // (A part's pass looks at every row's place: a part a row is for the small file.)
            for part in rows < 1000 ? [0, 1, 1000] : [0, 1000, 64_000] {
                let out = TextOutput()
                let records = try #require(table.rawRecords)
                let guarded = Tuning.$current.withValue(Tuning(gatherPartBytes: part)) {
                    GridRenderer.writeGathering(
                        grid.order, count: grid.displayedRowCount, records: records, file: file, lineBreak: [0x0A],
                        otherRow: { _, _ in 0 }, to: out)
                }
                try out.finish()
                #expect(guarded == 0, "\(rows) rows, parts of \(part): gathered")
                let same = out.collected == expected  // (a Bool: a failure would otherwise diff megabytes)
                #expect(same, "\(rows) rows, parts of \(part): the rows differ")
            }
        }
    }

    @Test("a file cut shorter after it was read fails the gathered output with EIO, without stopping the program")
    func cutShorter() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        var rng = SeededRandom(seed: 7700)
        var text = "k,v\n"
        for i in 0..<20_000 { text += "\(Int.random(in: 0...999, using: &rng)),\"row \(i)\"\n" }
        let path = folder.appendingPathComponent("cut.csv").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let file = try #require(MappedFile(path: path))
        let table = try CSV.table(mapped: file, reading: { _ in [0] })
        let grid = DataGrid(bound: table)
        try grid.sort(by: [SortKey("k")])
        // Another program cuts the file to half its length: reading the mapping past the new end
        // would stop the program; the gatherer reads through the file and finds it short.
        #expect(truncate(path, off_t(text.utf8.count / 2)) == 0)
        for part in [0, 10_000] {
            let out = TextOutput()
            let records = try #require(table.rawRecords)
            let guarded = Tuning.$current.withValue(Tuning(gatherPartBytes: part)) {
                GridRenderer.writeGathering(
                    grid.order, count: grid.displayedRowCount, records: records, file: file, lineBreak: [0x0A],
                    otherRow: { _, _ in 0 }, to: out)
            }
            #expect(guarded == 0, "parts of \(part): the gatherer wrote, and stopped")
            #expect(throws: TextOutputError(code: EIO)) { try out.finish() }
        }
    }

    @Test("a mapped file that is not UTF-8 (GBK, UTF-16 with its mark) is read as a copy, as a file read whole is")
    func otherEncodings() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = "编号,姓名,分数\n" + (0..<300).map { "\($0),\(["张三", "李四", "王五"][$0 % 3]),\(($0 * 37) % 101)" }.joined(separator: "\n") + "\n"
        for (name, bytes) in [
            ("gbk", try TextEncoding.gbk.encode(Array(text.utf8))),
            ("utf-16", [0xFF, 0xFE] + (try TextEncoding.utf16LittleEndian.encode(Array(text.utf8)))),
        ] {
            try Data(bytes).write(to: folder.appendingPathComponent("in.csv"))
            expectSame(["sort", "in.csv", "--by", "分数:desc"], in: folder, partSizes: [0, 100], name)
        }
    }

    @Test("a mapped table's cells, records and format are those of the same bytes read whole, whole and in halves")
    func tableAsReadWhole() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        var rng = SeededRandom(seed: 7500)
        for round in 0..<4 {
            let text = (round == 3 ? "\u{FEFF}" : "") + SortInPartsTests.randomFile(&rng, rows: 300 + round * 50)
            let path = folder.appendingPathComponent("t\(round).csv").path
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            let keep: CSV.ColumnSelection = { _ in [1, 3, 7] }
            for splitAbove in [1, 1 << 22] {
                let whole = try CSV.table(bytes: Array(text.utf8), types: [:], splitAbove: splitAbove, columns: keep)
                let file = try #require(MappedFile(path: path))
                let mapped = try CSV.table(mapped: file, reading: keep, splitAbove: splitAbove)
                #expect(mapped.csvFormat == whole.csvFormat, "round \(round)")
                #expect(mapped.columns.map(\.type) == whole.columns.map(\.type), "round \(round)")
                #expect(mapped.rowCount == whole.rowCount)
                for row in 0..<whole.rowCount {
                    for column in 0..<whole.columns.count where mapped.text(row: row, column: column) != whole.text(row: row, column: column) {
                        Issue.record("round \(round), split above \(splitAbove): row \(row), column \(column) differs")
                    }
                }
                let (a, b) = (try #require(mapped.rawRecords), try #require(whole.rawRecords))
                #expect(a.mapped != nil && a.bytes.isEmpty && b.mapped == nil)
                #expect((0..<a.count).allSatisfy { a.range($0) == b.range($0) } && a.count == b.count && a.header == b.header)
            }
        }
    }

    @Test("a mapped file reads as its bytes, again after it is let go of, and tells when it has changed")
    func mappedFile() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("m.bin")
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }
        try Data(bytes).write(to: url)
        let file = try #require(MappedFile(path: url.path))
        #expect(Array(file.bytes) == bytes)
        file.release(4096..<200_000)
        file.release(-5..<10)
        file.release(250_000..<1 << 40)
        #expect(Array(file.bytes) == bytes, "what was let go of comes back as it was")
        file.releaseAll()
        #expect(Array(file.bytes) == bytes)
        #expect(file.isUnchanged())
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([1, 2, 3]))
        try handle.close()
        #expect(!file.isUnchanged(), "a file grown since it was mapped has changed")
        // What cannot be mapped is read instead.
        try Data().write(to: folder.appendingPathComponent("empty.csv"))
        #expect(MappedFile(path: folder.appendingPathComponent("empty.csv").path) == nil)
        #expect(MappedFile(path: folder.path) == nil)
        #expect(MappedFile(path: folder.appendingPathComponent("missing").path) == nil)
    }
}
