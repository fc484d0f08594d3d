import Foundation
import Testing
import TrellisTestSupport
import TrellisText

@testable import TrellisCLI
@testable import TrellisGrid

/// `trellis sort --memory`: a file that needs more memory than it is given is sorted in parts —
/// runs written beside the output, merged — and writes what a sort at once writes, byte for byte.
@Suite("trellis sort in parts", .serialized)
struct SortInPartsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-parts-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A scratch folder for a test run with parts as small as 2 KB (its trait `.smallParts`), so
    /// that a small file makes dozens of runs; ``restore(_:)`` removes it.
    func smallParts() throws -> URL {
        #expect(Tuning.current.minimumPartBytes == 2048, "a test that sorts in small parts has the trait .smallParts")
        return try scratch()
    }

    func restore(_ folder: URL) {
        try? FileManager.default.removeItem(at: folder)
    }

    func run(_ arguments: [String], in folder: URL) -> (status: Int32, stdout: [UInt8], stderr: String) {
        var io = CommandIO(standardInput: { Data() }, currentDirectory: folder)
        let status = TrellisCommandLine.run(arguments, io: &io)
        return (status, io.stdoutBytes, io.stderr)
    }

    @Test("a file read in two halves at once is the file's bytes, at every size around the split, and sorts as read whole")
    func readInHalves() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let inHalves = Tuning(readInHalvesAbove: 1), whole = Tuning(readInHalvesAbove: .max)
        var rng = SeededRandom(seed: 53)
        let text = Self.randomFile(&rng, rows: 400)
        let file = folder.appendingPathComponent("t.csv")
        let io = CommandIO(standardInput: { Data() }, currentDirectory: folder)
        for size in [1, 2, 3, 4, 5, 100, 4097, text.utf8.count] {
            let bytes = Array(Array(text.utf8).prefix(size))
            try Data(bytes).write(to: file)
            let halves = try Tuning.$current.withValue(inHalves) { try io.readBytes("t.csv") }
            let whole = try Tuning.$current.withValue(whole) { try io.readBytes("t.csv") }
            #expect(halves == bytes && whole == bytes, "\(size) bytes")
        }
        let a = Tuning.$current.withValue(inHalves) { run(["sort", "t.csv", "--by", "score:desc", "--by", "name", "-o", "a.csv"], in: folder) }
        let b = Tuning.$current.withValue(whole) { run(["sort", "t.csv", "--by", "score:desc", "--by", "name", "-o", "b.csv"], in: folder) }
        #expect(a.status == 0 && b.status == 0 && a.stderr == b.stderr)
        let first = try Data(contentsOf: folder.appendingPathComponent("a.csv"))
        let second = try Data(contentsOf: folder.appendingPathComponent("b.csv"))
        #expect(first == second && first.count == text.utf8.count)
    }

    /// Leftovers of a sort in a folder: run folders and partial outputs.
    static func leftovers(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }
    }

    /// A CSV text of random rows that tries every reading rule a sort meets: ties, blanks, NaN,
    /// texts among numbers, numbers wider than a double, dates written day first in some rows,
    /// identifiers with a check letter, errors, truth values, quoted fields over two lines, CJK.
    static func randomFile(_ rng: inout SeededRandom, rows: Int) -> String {
        let dayFirst = rng.chance(0.5), wide = rng.chance(0.3), crlf = rng.chance(0.3)
        let names = ["张三", "李四", "王五", "赵六", "alice", "Bob", "bob", "", "x\"y", "组10", "组2", "第十组", "第二组", "Émile", "emile"]
        var lines = ["id,组号,name,score,when,flag,身份证号,note"]
        func quoted(_ s: String) -> String {
            s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
        }
        for i in 0..<rows {
            let group = rng.chance(0.02) ? "平均" : (rng.chance(0.01) ? "合计" : "组\(Int.random(in: 1...40, using: &rng))")
            let score: String =
                switch Int.random(in: 0..<12, using: &rng) {
                case 0: ""
                case 1: "缺考"
                case 2: "NaN"
                case 3: String(Int.random(in: -50...150, using: &rng))
                case 4: wide ? "1234567890123456789\(Int.random(in: 0...9, using: &rng))" : "7"
                case 5: wide ? "0.100000000000000000\(Int.random(in: 1...9, using: &rng))" : "0.1"
                case 6: "#N/A"
                default: String(format: "%.2f", Double(Int.random(in: 0...10_000, using: &rng)) / 100)
                }
            let day = Int.random(in: 1...28, using: &rng), month = Int.random(in: 1...12, using: &rng)
            let when: String =
                switch Int.random(in: 0..<6, using: &rng) {
                case 0: ""
                case 1: "2024-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
                case 2: dayFirst ? "\(day + 12 > 28 ? 28 : day + 12)/\(month)/2023" : "\(month)/\(day)/2023"
                default: "\(month)/\(day)/2024"
                }
            let flag = ["TRUE", "false", "", "yes?"][Int.random(in: 0..<4, using: &rng)]
            let id =
                rng.chance(0.1)
                ? ""
                : "1101051949123\(String(format: "%04d", Int.random(in: 0...9999, using: &rng)))"
                    + (rng.chance(0.1) ? "X" : String(Int.random(in: 0...9, using: &rng)))
            let note = ["", "ok", "a,b", "two\nlines", "引号\"在内"][Int.random(in: 0..<5, using: &rng)]
            let name = names[Int.random(in: 0..<names.count, using: &rng)]
            lines.append([String(i), group, quoted(name), score, when, flag, id, quoted(note)].joined(separator: ","))
        }
        let text = lines.joined(separator: "\n") + "\n" + (rng.chance(0.3) ? "\n\n" : "")
        return crlf ? text.replacingOccurrences(of: "\n", with: "\r\n") : text
    }

    static let keyChoices = [
        ["--by", "score"], ["--by", "score:desc"], ["--by", "组号"], ["--by", "组号:desc", "--by", "score"],
        ["--by", "name", "--locale", "zh"], ["--by", "name:nocase:desc"], ["--by", "name:lexical"], ["--by", "when"],
        ["--by", "when:desc", "--nulls", "first"], ["--by", "flag", "--by", "id:desc"], ["--by", "身份证号"],
        ["--by", "score:natural"], ["--by", "note", "--nulls", "smallest"], ["--by", "score:desc", "--nulls", "smallest"],
        ["--by", "id:desc"],
    ]

    @Test(
        "a file sorted in dozens of parts gives the bytes and the messages of a sort at once — ties, blanks, pins, every reading rule", .smallParts,
        arguments: 0..<8)
    func sameAsAtOnce(seed: Int) throws {
        var rng = SeededRandom(seed: UInt64(4100 + seed))
        let folder = try smallParts()
        defer { restore(folder) }
        // Odd seeds merge in groups of five first.
        var tuning = Tuning.current
        if seed % 2 == 1 { tuning.fanIn = 5 }
        try Tuning.$current.withValue(tuning) {
            let text = Self.randomFile(&rng, rows: 1500)  // some 110 KB: parts of 2,340 bytes (64K less the program, a seventh), some 48 runs
            try Data(text.utf8).write(to: folder.appendingPathComponent("in.csv"))
            for round in 0..<4 {
                var arguments = Self.keyChoices[(seed * 4 + round) % Self.keyChoices.count]
                if round % 2 == 1 { arguments += ["--pin-bottom", "组号=平均"] }
                if round == 2 { arguments += ["--pin-top", "组号=合计", "--pin-bottom", "组号=没有", "--summary", "max:score,when"] }
                if round == 3 { arguments += ["--recompute", "labels", "--summary", "平均=mean:score,id", "--summary", "count:name"] }
                if round == 3 && seed % 2 == 0 { arguments += ["--precision", "3", "--summary", "min:score,name,flag"] }
                let atOnce = run(["sort", "in.csv"] + arguments + ["-o", "once.csv"], in: folder)
                let inParts = run(["sort", "in.csv"] + arguments + ["--memory", "64K", "-o", "parts.csv"], in: folder)
                #expect(atOnce.status == 0, "\(arguments): \(atOnce.stderr)")
                #expect(inParts.status == atOnce.status, "\(arguments): \(inParts.stderr)")
                let once = try Data(contentsOf: folder.appendingPathComponent("once.csv"))
                let parts = try Data(contentsOf: folder.appendingPathComponent("parts.csv"))
                #expect(parts == once, "seed \(seed), \(arguments): the outputs differ")
                #expect(inParts.stderr == atOnce.stderr, "seed \(seed), \(arguments)")
                #expect(try Self.leftovers(folder).isEmpty, "no run folder or partial file is left")
            }
        }
    }

    @Test(
        "parts that read alone would read a column otherwise than the whole file does: the file's reading wins, in every part", .smallParts,
        arguments: 0..<3)
    func partsThatDisagree(seed: Int) throws {
        var rng = SeededRandom(seed: UInt64(5200 + seed))
        let folder = try smallParts()
        defer { restore(folder) }
        let rows = 3000
        var lines = ["k,when,id,mix,wide"]
        for i in 0..<rows {
            let late = i > rows * 2 / 3
            let day = Int.random(in: 1...12, using: &rng), month = Int.random(in: 1...12, using: &rng)
            // Dates that could be either way until, late in the file, some that can only be day first.
            let when = late && rng.chance(0.3) ? "\(Int.random(in: 13...28, using: &rng))/\(month)/2023" : "\(month)/\(day)/2024"
            // Identifiers: digits only at first, a check letter X in some rows later.
            let id =
                "11010519491231" + String(format: "%03d", Int.random(in: 0...999, using: &rng))
                + (i > rows / 2 && rng.chance(0.3) ? "X" : String(Int.random(in: 0...9, using: &rng)))
            // Numbers at first, then mostly text: a text column in the end, NaN a text among texts.
            let mix = i < rows / 4 ? String(Int.random(in: 0...99, using: &rng)) : (rng.chance(0.1) ? "NaN" : "t\(Int.random(in: 0...99, using: &rng))")
            // Numbers a double holds, until one near the end that needs its digits.
            let wide = i == rows - 5 ? "123456789012345678901" : String(format: "%.2f", Double(Int.random(in: 0...9999, using: &rng)) / 100)
            lines.append("\(i),\(when),\(id),\(mix),\(wide)")
        }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: folder.appendingPathComponent("in.csv"))
        for arguments in [
            ["--by", "when"], ["--by", "id:desc"], ["--by", "mix", "--nulls", "first"], ["--by", "wide:desc", "--by", "k"],
            ["--by", "mix:desc", "--summary", "max:wide,mix,when"],
        ] {
            let atOnce = run(["sort", "in.csv"] + arguments + ["-o", "once.csv"], in: folder)
            let inParts = run(["sort", "in.csv"] + arguments + ["--memory", "64K", "-o", "parts.csv"], in: folder)
            #expect(atOnce.status == 0 && inParts.status == 0, "\(arguments): \(inParts.stderr)")
            let once = try Data(contentsOf: folder.appendingPathComponent("once.csv"))
            let parts = try Data(contentsOf: folder.appendingPathComponent("parts.csv"))
            #expect(parts == once, "seed \(seed), \(arguments): the outputs differ")
            #expect(inParts.stderr == atOnce.stderr, "seed \(seed), \(arguments)")
        }
        // Read twice: once part by part, then again as the whole file reads its columns.
        let sorter = try ExternalCSVSort(path: folder.appendingPathComponent("in.csv").path, options: .init(memory: 1 << 16, folder: folder))
        let output = TextOutput(encoding: .utf8)
        #expect(try sorter.sort(by: [SortKey("when")], pins: [], to: output).readings == 2)
    }

    @Test("a file whose start is UTF-8 and whose text further on is GBK, GB18030 or neither reads as a sort at once reads it", .smallParts)
    func encodingFurtherOn() throws {
        let folder = try smallParts()
        defer { restore(folder) }
        // More than the first megabyte (what the sort reads first) in ASCII, then Chinese.
        var text = "id,name,score\n"
        var i = 0
        while text.utf8.count < 1_200_000 { text += "\(i),name\(i % 97),\(i % 1000).5\n"; i += 1 }
        for k in 0..<2000 { text += "\(i + k),\(["张三", "李四", "王五", "赵六"][k % 4]),\(k % 100)\n" }
        let utf8 = Array(text.utf8)
        guard let gb18030 = try? TextEncoding.gb18030.encode(utf8) else { Issue.record("cannot encode"); return }
        // Windows' code page 936 writes € as 0x80, which GB18030 lacks: such a file reads as GBK.
        let gbk = gb18030 + Array("\(i + 2000),".utf8) + [0x80] + Array(",1\n".utf8)
        let neither = utf8 + [0x31, 0x2C, 0xFF, 0xFE, 0x2C, 0x33, 0x0A]
        for (name, bytes) in [("gb18030", gb18030), ("gbk", gbk), ("neither", neither)] {
            try Data(bytes).write(to: folder.appendingPathComponent("\(name).csv"))
            let atOnce = run(["sort", "\(name).csv", "--by", "name", "-o", "once.csv"], in: folder)
            let inParts = run(["sort", "\(name).csv", "--by", "name", "--memory", "64K", "-o", "parts.csv"], in: folder)
            #expect(inParts.status == atOnce.status && inParts.stderr == atOnce.stderr, "\(name): \(inParts.stderr) / \(atOnce.stderr)")
            if atOnce.status == 0 {
                #expect(atOnce.stderr.contains("as \(name)"), "\(atOnce.stderr)")
                #expect(
                    try Data(contentsOf: folder.appendingPathComponent("parts.csv")) == Data(contentsOf: folder.appendingPathComponent("once.csv")),
                    "\(name): the same bytes, in the file's encoding")
            } else {
                #expect(name == "neither" && atOnce.status == 65)
            }
            #expect(try Self.leftovers(folder).isEmpty)
        }
    }

    @Test("the runs: dozens for a small memory, each file gone from the folder at once, the folder removed at the end", .smallParts)
    func runs() throws {
        var rng = SeededRandom(seed: 99)
        let folder = try smallParts()
        defer { restore(folder) }
        let input = folder.appendingPathComponent("in.csv")
        try Data(Self.randomFile(&rng, rows: 1500).utf8).write(to: input)
        let sorter = try ExternalCSVSort(path: input.path, options: .init(memory: 1 << 12, folder: folder))
        let output = TextOutput(encoding: .utf8)
        let report = try sorter.sort(
            by: [SortKey("score")], pins: [DisplayOrder.Pin(.matching(column: "组号", value: "平均"), at: .bottom)],
            to: output)
        try output.finish()
        #expect(report.runs >= 24, "\(report.runs) runs")
        // Parts that read their columns as the whole file does are read once.
        let plain = folder.appendingPathComponent("plain.csv")
        try Data(("id,score,name\n" + (0..<6000).map { "\($0),\(($0 * 7919) % 1000).5,n\($0 % 97)\n" }.joined()).utf8).write(to: plain)
        let once = try ExternalCSVSort(path: plain.path, options: .init(memory: 1 << 12, folder: folder))
        let plainReport = try once.sort(by: [SortKey("score", .descending)], pins: [], to: TextOutput(encoding: .utf8))
        #expect(plainReport.readings == 1 && plainReport.runs >= 24, "\(plainReport.readings) readings, \(plainReport.runs) runs")
        #expect(report.rows == 1500)
        #expect(try Self.leftovers(folder).isEmpty)
        let table = try CSV.table(bytes: output.collected)
        #expect(table.rowCount == 1500)
    }

    @Test("a file that does not fit: its errors name the line in the file; what a sort in parts cannot write is refused with the way out", .smallParts)
    func refusals() throws {
        let folder = try smallParts()
        defer { restore(folder) }
        // A blank line or a stray quote anywhere — at the end of a part too: the error of a sort at once.
        let rows = (1...4000).map { "\($0),x\($0)" }
        for (k, position) in [1, 517, 1024, 1025, 1026, 2047, 2500, 3999].enumerated() {
            var lines = ["a,b"] + rows
            lines[position] = k % 2 == 0 ? "" : "\(position),x\"y"
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: folder.appendingPathComponent("bad.csv"))
            let once = run(["sort", "bad.csv", "--by", "a", "-o", "x.csv"], in: folder)
            let parts = run(["sort", "bad.csv", "--by", "a", "--memory", "64K", "-o", "x.csv"], in: folder)
            #expect(once.status == 65 && parts.status == 65)
            #expect(parts.stderr == once.stderr && once.stderr.contains("line \(position + 1)"), "\(parts.stderr) / \(once.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("x.csv").path))
            #expect(try Self.leftovers(folder).isEmpty)
        }

        try Data(((["a,b"] + rows).joined(separator: "\n") + "\n").utf8).write(to: folder.appendingPathComponent("ok.csv"))
        for (arguments, expected) in [
            (["--by", "a"], "which writes CSV: add '--format csv' or '-o FILE.csv'"),
            (["--by", "a", "-o", "x.json"], "which writes CSV"),
            (["--by", "a", "-o", "x.csv", "--memory", "12"], "Invalid value '12' for '--memory <size>'"),
            (["--by", "a", "-o", "x.csv", "--memory", "lots"], "expected a size such as 512M"),
        ] {
            let result = run(["sort", "ok.csv"] + arguments + (arguments.contains("--memory") ? [] : ["--memory", "64K"]), in: folder)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
        }
        let database = run(["sort", "ok.sqlite", "--table", "t", "--memory", "1G"], in: folder)
        #expect(database.status == 64 && database.stderr.contains("a database sorts with its own memory"))
        // UTF-16 cannot be cut at a line feed's byte: refused, with what to do.
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in ((["a,b"] + rows).joined(separator: "\n") + "\n").utf16 {
            utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        try Data(utf16).write(to: folder.appendingPathComponent("wide.csv"))
        let wide = run(["sort", "wide.csv", "--by", "a", "--memory", "64K", "-o", "x.csv"], in: folder)
        #expect(wide.status == 64 && wide.stderr.contains("convert it"), "\(wide.stderr)")
        #expect(try Self.leftovers(folder).isEmpty)
    }

    @Test(
        "long cells: one that fits sorts in parts as at once, byte for byte; a row longer than the memory can sort is refused, named, with the memory that takes it",
        .smallParts)
    func longCells() throws {
        let folder = try smallParts()
        defer { restore(folder) }
        // Cells of 300 KB, alike for their first 200 KB, among short rows.
        let shared = String(repeating: "x", count: 200_000)
        var lines = ["k,v"]
        for i in 0..<120_000 { lines.append("\(i % 97),\(i)") }
        lines.insert(shared + String(repeating: "b", count: 100_000) + ",long b", at: 700)
        lines.insert(shared + String(repeating: "a", count: 100_000) + ",long a", at: 1500)
        lines.insert("1" + String(repeating: "0", count: 150_000) + ",a long number", at: 2200)
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: folder.appendingPathComponent("long.csv"))
        let once = run(["sort", "long.csv", "--by", "k", "-o", "once.csv"], in: folder)
        let parts = run(["sort", "long.csv", "--by", "k", "--memory", "8M", "-o", "parts.csv"], in: folder)
        #expect(once.status == 0 && parts.status == 0, "\(once.stderr) / \(parts.stderr)")
        let sortedOnce = try Data(contentsOf: folder.appendingPathComponent("once.csv"))
        #expect(sortedOnce == (try Data(contentsOf: folder.appendingPathComponent("parts.csv"))))
        // Keys alike for their first 64 KB are equal for the sort: the two long texts keep their order.
        let text = String(decoding: sortedOnce, as: UTF8.self)
        let b = text.range(of: ",long b")!, a = text.range(of: ",long a")!
        #expect(b.lowerBound < a.lowerBound)
        #expect(parts.stderr == once.stderr)
        // A row longer than a sort in parts with this memory takes: refused before it is held.
        let refused = run(["sort", "long.csv", "--by", "k", "--memory", "1M", "-o", "parts.csv"], in: folder)
        #expect(refused.status == 64)
        #expect(
            refused.stderr.contains("line 701 of the file starts a row of 293 KB, longer than a sort in parts with this memory can hold"),
            "\(refused.stderr)")
        #expect(refused.stderr.contains("give --memory"), "\(refused.stderr)")
        #expect(try Self.leftovers(folder).isEmpty)
    }

    @Test("standard input larger than the memory is kept beside the output and sorted in parts; a small one is read at once", .smallParts)
    func standardInput() throws {
        var rng = SeededRandom(seed: 31)
        let folder = try smallParts()
        defer { restore(folder) }
        let input = folder.appendingPathComponent("in.csv")
        try Data(Self.randomFile(&rng, rows: 1500).utf8).write(to: input)
        let arguments = ["--by", "score:desc", "--pin-bottom", "组号=平均", "-o"]
        let atOnce = run(["sort", "in.csv"] + arguments + ["once.csv"], in: folder)
        for memory in ["64K", "1G"] {
            let descriptor = open(input.path, O_RDONLY)
            defer { close(descriptor) }
            var io = CommandIO(standardInput: { Data() }, currentDirectory: folder)
            io.standardInputDescriptor = descriptor
            let status = TrellisCommandLine.run(["sort", "-"] + arguments + ["piped.csv", "--memory", memory], io: &io)
            #expect(status == 0 && io.stderr == atOnce.stderr, "--memory \(memory): \(io.stderr)")
            #expect(
                try Data(contentsOf: folder.appendingPathComponent("piped.csv")) == Data(contentsOf: folder.appendingPathComponent("once.csv")),
                "--memory \(memory)")
            #expect(try Self.leftovers(folder).isEmpty, "no kept input, run folder or partial file is left")
        }
    }

    @Test("the progress line: percent, rows, time so far and left, drawn over itself, cleared at the end; nothing in the first half second")
    func progressLine() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let line = SortCommand.ProgressLine(descriptor: ends[1], what: "big.csv")
        line.draw(0.1, 5)  // too early: nothing
        usleep(600_000)
        line.draw(0.25, 1_234_567)
        line.draw(0.26, 1_300_000)  // within a fifth of a second of the last: nothing
        line.clear()
        close(ends[1])
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(ends[0], &buffer, buffer.count)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        let text = String(decoding: bytes, as: UTF8.self)
        // One line drawn (the time so far and the estimate depend on the machine's speed), then cleared.
        #expect(text.hasPrefix("\rsorting big.csv: 25% · 1,234,567 rows · "), "\(text.debugDescription)")
        #expect(text.hasSuffix(" s left\u{1B}[K\r\u{1B}[K") && text.contains(" s · about "), "\(text.debugDescription)")
        #expect(text.filter { $0 == "\r" }.count == 2, "drawn once, cleared once: \(text.debugDescription)")
    }

    @Test(
        "in a real terminal the progress line shows while the sort runs and is gone when it ends",
        .enabled(if: Tmux.path != nil))
    func progressInTerminal() throws {
        let binary = ProcessInfo.processInfo.environment["TRELLIS_BINARY"] ?? Self.root.appendingPathComponent(".build/debug/trellis").path
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        var text = "id,score,name\n"
        var rng = SeededRandom(seed: 11)
        // Long enough for the line to show (after half a second) with a release build too.
        let rows = ProcessInfo.processInfo.environment["TRELLIS_BINARY"] == nil ? 400_000 : 2_000_000
        for i in 0..<rows { text += "\(i),\(Int.random(in: 0...100_000, using: &rng)),name of row \(i)\n" }
        try Data(text.utf8).write(to: folder.appendingPathComponent("big.csv"))
        let terminal = Tmux(session: "trellis-parts-\(getpid())")
        defer { terminal.kill() }
        try terminal.start("\(binary) sort big.csv --by score --memory 1M -o out.csv", in: folder.path, width: 100, height: 10)
        let during = try terminal.wait(seconds: 120) { $0.contains { $0.hasPrefix("sorting big.csv: ") && $0.contains("% · ") } }
        let line = during.first { $0.hasPrefix("sorting big.csv: ") } ?? ""
        #expect(line.contains(" rows · ") && line.contains(" s"), "the progress line: \(line)")
        let after = try terminal.wait(seconds: 120) { $0.contains { $0.hasPrefix("EXIT=") } }
        #expect(after.contains("EXIT=0"), "\(after)")
        #expect(!after.contains { $0.contains("sorting big.csv") }, "the line is cleared at the end: \(after)")
    }

    @Test("the memory size: 512M, 2G, 1.5g, 64KiB, bytes")
    func sizes() {
        #expect(SortCommand.size("512M") == 512 << 20)
        #expect(SortCommand.size("2G") == 2 << 30)
        #expect(SortCommand.size("1.5g") == 3 << 29)
        #expect(SortCommand.size("64KiB") == 64 << 10)
        #expect(SortCommand.size("100000") == 100_000)
        #expect(SortCommand.size("-1G") == nil && SortCommand.size("G") == nil && SortCommand.size("nan") == nil)
    }

    @Test("Ctrl-C in the middle of the merge: the run folder and the partial output are removed, the old output stays")
    func interrupted() throws {
        let binary = ProcessInfo.processInfo.environment["TRELLIS_BINARY"] ?? Self.root.appendingPathComponent(".build/debug/trellis").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            Issue.record("no trellis binary at \(binary)")
            return
        }
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Large enough that the merge writes for a while: 300,000 rows, some 12 MB.
        var text = "id,score,name\n"
        var rng = SeededRandom(seed: 7)
        for i in 0..<300_000 { text += "\(i),\(Int.random(in: 0...100_000, using: &rng)),name\(Int.random(in: 0...999, using: &rng)) of row \(i)\n" }
        try Data(text.utf8).write(to: folder.appendingPathComponent("big.csv"))
        let target = folder.appendingPathComponent("out.csv")
        try Data("old contents\n".utf8).write(to: target)
        var pid: pid_t = 0
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let arguments = [binary, "sort", folder.appendingPathComponent("big.csv").path, "--by", "score", "--memory", "1M", "-o", target.path]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        guard posix_spawn(&pid, binary, &actions, nil, &argv, environ) == 0 else {
            Issue.record("could not start \(binary)")
            return
        }
        // The merge has begun once the partial output holds bytes (the runs are written before).
        let deadline = Date().addingTimeInterval(120)
        var merging = false
        while Date() < deadline {
            let partial = try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".partial") }
            if let partial, let size = try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(partial).path)[.size] as? Int,
                size > 0
            {
                merging = true
                break
            }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { break }
            usleep(2_000)
        }
        #expect(merging, "the merge was seen under way")
        kill(pid, SIGINT)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        if merging {
            #expect((status >> 8) & 0xFF == 130, "exit status 130 after SIGINT (\(status))")
        }
        let left = try Self.leftovers(folder)
        #expect(left.isEmpty, "left: \(left)")
        #expect(try String(contentsOf: target, encoding: .utf8) == "old contents\n", "the old output is untouched")
    }
}

/// Runs a test with its own sizes (``Tuning``), seen by its task alone.
struct Tuned: TestTrait, TestScoping {
    var change: @Sendable (inout Tuning) -> Void

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        var tuning = Tuning.current
        change(&tuning)
        try await Tuning.$current.withValue(tuning) { try await function() }
    }
}

extension Trait where Self == Tuned {
    /// Parts as small as 2 KB: a small file makes dozens of runs.
    static var smallParts: Self { Tuned { $0.minimumPartBytes = 2048 } }
}
