import Foundation
import Testing
import TrellisCLI
import TrellisTestSupport

/// Random damage to valid inputs: the commands must answer with an error status and message,
/// never crash or hang.
@Suite("Malformed input")
struct FuzzTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Transcripts")

    func damaged(_ bytes: [UInt8], _ rng: inout SeededRandom) -> [UInt8] {
        var out = bytes
        let alphabet = Array("{}[],:\"0123456789-.eE \n\r\\abc组,".utf8) + [0xFF, 0xC3]
        for _ in 0..<Int.random(in: 1...6, using: &rng) {
            guard !out.isEmpty else { break }
            let i = Int.random(in: 0..<out.count, using: &rng)
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: out.remove(at: i)
            case 1: out.insert(alphabet.randomElement(using: &rng)!, at: i)
            case 2: out[i] = alphabet.randomElement(using: &rng)!
            default: out = Array(out.prefix(i))
            }
        }
        return out
    }

    func run(_ arguments: [String], input: [UInt8]) -> Int32 {
        var io = CommandIO(standardInput: { Data(input) })
        return TrellisCommandLine.run(arguments, io: &io)
    }

    @Test("damaged layout specs give status 0 or 65, never a crash", arguments: ["small.json", "updates.json", "circle.json"])
    func damagedSpecs(file: String) throws {
        let original = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent(file)))
        var rng = SeededRandom(seed: UInt64(file.count))
        var statuses = Set<Int32>()
        for _ in 0..<150 {
            let status = run(["layout", "-"], input: damaged(original, &rng))
            statuses.insert(status)
            #expect(status == 0 || status == 65)
        }
        #expect(statuses.contains(65), "the damage must reach the error paths")
    }

    @Test("damaged CSV files give status 0 or 65, never a crash", arguments: ["groups.csv", "products.csv"])
    func damagedCSV(file: String) throws {
        let original = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent(file)))
        var rng = SeededRandom(seed: UInt64(file.count * 7))
        var statuses = Set<Int32>()
        for _ in 0..<150 {
            let status = run(["sort", "-", "--format", "json"], input: damaged(original, &rng))
            statuses.insert(status)
            #expect(status == 0 || status == 65)
        }
        #expect(statuses == [0, 65], "some damage leaves a valid file, some does not")
    }

    @Test(
        "damaged files in other encodings and delimiters give status 0 or 65, never a crash, and CSV out of a good one reads back",
        arguments: ["excel-unicode-text.txt", "excel-csv-gbk.csv", "libreoffice-semicolon.csv", "excel-csv-utf-8.csv"])
    func damagedEncodings(file: String) throws {
        let folder = Self.folder.deletingLastPathComponent().appendingPathComponent("Fixtures/Encodings")
        let original = [UInt8](try Data(contentsOf: folder.appendingPathComponent(file)))
        var rng = SeededRandom(seed: UInt64(file.count * 13))
        for _ in 0..<120 {
            var bytes = damaged(original, &rng)
            // Zero bytes and byte order marks, which decide encodings, in random places.
            if rng.chance(0.3), !bytes.isEmpty {
                bytes.insert([0x00, 0xFE, 0xFF, 0xEF].randomElement(using: &rng)!, at: Int.random(in: 0..<bytes.count, using: &rng))
            }
            var io = CommandIO(standardInput: { Data(bytes) })
            let status = TrellisCommandLine.run(["sort", "-", "--format", "csv"], io: &io)
            #expect(status == 0 || status == 65, "\(io.stderr)")
            if status == 0 {
                // What was written is read again as the same table.
                var again = CommandIO(standardInput: { Data(io.stdoutBytes) })
                #expect(TrellisCommandLine.run(["sort", "-", "--format", "csv"], io: &again) == 0, "\(again.stderr)")
                #expect(again.stdoutBytes == io.stdoutBytes)
            }
        }
    }

    @Test(
        "damaged export shapes, with and without a header row, give status 0 or 65, and CSV out of a good one reads back",
        arguments: ["libreoffice-title-row.csv", "excel-sep-line.csv", "excel-short-trailing-rows.csv", "pandas-duplicate-names.csv"])
    func damagedShapes(file: String) throws {
        let folder = Self.folder.deletingLastPathComponent().appendingPathComponent("Fixtures/Shapes")
        let original = [UInt8](try Data(contentsOf: folder.appendingPathComponent(file)))
        var rng = SeededRandom(seed: UInt64(file.count * 17))
        for _ in 0..<100 {
            let bytes = damaged(original, &rng)
            let header = rng.chance(0.5) ? ["--header-row", "\(Int.random(in: 1...5, using: &rng))"] : []
            var io = CommandIO(standardInput: { Data(bytes) })
            let status = TrellisCommandLine.run(["sort", "-", "--format", "csv", "--by", "#1"] + header, io: &io)
            #expect(status == 0 || status == 65, "\(io.stderr)")
            if status == 0 {
                var again = CommandIO(standardInput: { Data(io.stdoutBytes) })
                #expect(TrellisCommandLine.run(["sort", "-", "--format", "csv", "--by", "#1"] + header, io: &again) == 0, "\(again.stderr) \(header) \(bytes)")
                #expect(again.stdoutBytes == io.stdoutBytes)
            }
        }
    }
}
