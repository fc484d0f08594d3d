import Foundation
import Testing
import TrellisTestSupport
import TrellisText

@testable import TrellisGrid

@Suite("CSV")
struct CSVTests {
    func data(_ s: String) -> Data { Data(s.utf8) }

    @Test("RFC 4180: quotes, doubled quotes, embedded commas and line breaks, CRLF, a byte order mark")
    func parsing() throws {
        let text = "\u{FEFF}name,note\r\n\"Smith, J\",\"said \"\"hi\"\"\"\r\nplain,\"two\nlines\"\r\nempty,\r\n"
        let records = try CSV.parse(data(text))
        #expect(records == [["name", "note"], ["Smith, J", "said \"hi\""], ["plain", "two\nlines"], ["empty", ""]])
        #expect(try CSV.parse(data("a,b\n1,2")) == [["a", "b"], ["1", "2"]], "no final line break")
        #expect(try CSV.parse(data("a\n\"\"\n")) == [["a"], [""]])
    }

    @Test("types are inferred per column, and can be given")
    func inference() throws {
        let csv = "i,d,b,day,t,mixed\n1,1.5,true,2026-11-30,x,1\n-2,,false,2024-02-29,y,two\n3,NaN,TRUE,,z,#N/A\n"
        let table = try CSV.table(data(csv))
        #expect(
            table.columns.map(\.type) == [.integer, .decimal, .boolean, .date, .text, .text],
            "a column whose values are not all of one type is text")
        #expect(table.value(row: 1, column: 1) == .missing)
        #expect(table.value(row: 2, column: 1) == .missing, "NaN is missing")
        let typed = try CSV.table(data(csv), types: ["i": .text, "mixed": .integer])
        #expect(typed.value(row: 0, column: 0) == .text("1"))
        #expect(typed.value(row: 0, column: 5) == .integer(1))
        #expect(typed.value(row: 1, column: 5) == .text("two"), "a value that is not of the type keeps its text")
        #expect(typed.value(row: 2, column: 5) == .missing, "Excel's #N/A in a number column is a missing number, as pandas reads it")
        #expect(throws: CSVError.self) { try CSV.table(data(csv), types: ["nope": .text]) }
        let dates = try CSV.table(data("d\n2026-02-30\n"))
        #expect(dates.columns[0].type == .text, "February 30th is not a date")
    }

    @Test(
        "a malformed file is refused with the line and column, and nothing is loaded",
        arguments: [
            ("a,b\n1,\"open\n", 2, 3, "a quoted field is never closed; add the closing double quote"),
            ("a,b\n1,x\"y\n", 2, 4, "a double quote inside an unquoted field; quote the whole field and double the quote"),
            ("a,b\n1,\"x\"y\n", 2, 6, "text after a closing quote; put the whole field in quotes and double any quote inside"),
            ("a,b\n1,2\n3\n", 3, 1, "this row has 1 fields; the header has 2"),
            ("a,b,,\n1,2,3,4\n5\n", 3, 1, "this row has 1 fields; the header has 4"),
            ("", 1, 1, "the file is empty; the first line must name the columns"),
            ("a,b\n\"x\ny\",1\n2\n", 4, 1, "this row has 1 fields; the header has 2"),
        ])
    func errors(text: String, line: Int, column: Int, message: String) {
        #expect(throws: CSVError(line: line, column: column, message: message)) { try CSV.table(data(text)) }
    }

    @Test("bytes that are neither UTF-8 nor GB18030 are refused with their position and the likely encoding")
    func invalidUTF8() {
        var bytes = Array("a\n1".utf8)
        bytes.append(0xFF)
        #expect(throws: CSVError(line: 2, column: 2, problem: .unknownEncoding(likely: .windows1252))) {
            try CSV.table(Data(bytes))
        }
        #expect(
            CSVError(line: 2, column: 2, problem: .unknownEncoding(likely: .windows1252)).message
                == "the file is neither UTF-8 nor GB18030 (or GBK) text; it reads as windows-1252: name its encoding (--encoding windows-1252)")
    }

    @Test("writing quotes what must be quoted, neutralises formulas, and reads back the same")
    func writing() throws {
        let records = [
            ["name", "formula", "number"], ["Smith, J", "=SUM(A1)", "-5"], ["q\"uote", "@cmd", " pad "],
            ["two\nlines", "+1+1", "3"],
        ]
        let safe = CSV.write(records, neutralizeFormulas: true)
        #expect(safe.contains("'=SUM(A1)") && safe.contains("'@cmd") && safe.contains("'+1+1"))
        #expect(safe.contains(",-5\r\n"), "a negative number is not a formula")
        let raw = CSV.write(records, neutralizeFormulas: false)
        #expect(try CSV.parse(Data(raw.utf8)) == records)
    }
}

extension CSVTests {
    /// The cells of a table, their kinds and texts, and its raw records, to compare two reads.
    static func fingerprint(_ table: Table) -> [String] {
        var out = table.columns.map { "\($0.identifier):\($0.type)" }
        for row in 0..<table.rowCount {
            out.append(
                (0..<table.columns.count).map { "\(table.value(row: row, column: $0))|\(table.text(row: row, column: $0))" }
                    .joined(separator: ";"))
        }
        if let raw = table.rawRecords {
            for k in 0..<raw.count { out.append("\(raw.range(k)) \(raw.isRisky(k))") }
        }
        out.append(table.typeWarnings.map(\.description).joined(separator: "/"))
        return out
    }

    @Test("a file read in two halves at once is the same table as one read from start to end")
    func halves() throws {
        var rng = TrellisTestSupport.SeededRandom(seed: 31)
        let pieces = [
            "plain", "\"quoted, comma\"", "\"two\nlines\"", "\"cr\rline\"", "\"say \"\"hi\"\"\"", "12", "-3.5", "", "=1+1",
            "张伟", "007", "\"\"\"\"",
        ]
        for round in 0..<30 {
            let lineBreak = ["\n", "\r\n", "\r"].randomElement(using: &rng)!
            var text = (Bool.random(using: &rng) ? "\u{FEFF}" : "") + "a,b,c" + lineBreak
            for _ in 0..<Int.random(in: 1...60, using: &rng) {
                text += (0..<3).map { _ in pieces.randomElement(using: &rng)! }.joined(separator: ",") + lineBreak
            }
            let bytes = Array(text.utf8)
            let whole = try CSV.table(bytes: bytes, types: [:], splitAbove: Int.max)
            let split = try CSV.table(bytes: bytes, types: [:], splitAbove: 0)
            #expect(Self.fingerprint(whole) == Self.fingerprint(split), "round \(round)")
        }
    }

    @Test("each record's bytes are found from its start, whatever line breaks the file mixes, read whole or in halves")
    func recordsFromStarts() throws {
        var rng = TrellisTestSupport.SeededRandom(seed: 57)
        let pieces = [
            "plain", "\"quoted, comma\"", "\"two\nlines\"", "\"cr\r\nline\"", "\"say \"\"hi\"\"\"", "12", "", "=1+1", "-3",
            "张伟", "@x",
        ]
        for round in 0..<40 {
            // One line break for most records, and (in most rounds) others here and there.
            let usual = ["\n", "\r\n", "\r"][round % 3]
            let mixed = round % 4 != 0
            var text = "a,b,c" + usual
            var records: [String] = []
            let count = Int.random(in: 1...80, using: &rng)
            for k in 0..<count {
                let record = (0..<3).map { _ in pieces.randomElement(using: &rng)! }.joined(separator: ",")
                records.append(record)
                let lineBreak = mixed && Int.random(in: 0..<5, using: &rng) == 0 ? ["\n", "\r\n", "\r"].randomElement(using: &rng)! : usual
                text += record + (k == count - 1 && round % 2 == 1 ? "" : lineBreak)
            }
            let bytes = Array(text.utf8)
            // Every end kept once a few records end unusually, in every other pair of rounds.
            try Tuning.$current.withValue(Tuning(unusualEndsLimit: round % 4 < 2 ? 2 : nil)) {
                for splitAbove in [Int.max, 0] {
                    let table = try CSV.table(bytes: bytes, types: [:], splitAbove: splitAbove)
                    let raw = try #require(table.rawRecords)
                    #expect(raw.count == records.count, "round \(round)")
                    for (row, record) in records.enumerated() where row < raw.count {
                        #expect(
                            Array(raw.bytes[raw.range(row)]) == Array(record.utf8),
                            "round \(round), row \(row), split above \(splitAbove), limit \(RawRecords.unusualEndsLimit)")
                        let risky = record.split(separator: ",", omittingEmptySubsequences: false)
                            .contains { $0.hasPrefix("=") || $0.hasPrefix("@") }
                        #expect(raw.isRisky(row) == risky, "round \(round), row \(row)")
                    }
                }
            }
        }
    }

    @Test("an error in the second half is reported at its line in the file")
    func errorInSecondHalf() {
        var text = "a,b\n"
        for k in 0..<200 { text += "\(k),\"x\ny\"\n" }  // every record takes two lines
        text += "1,2,3\n"
        for k in 0..<50 { text += "\(k),z\n" }
        #expect(throws: CSVError(line: 402, column: 1, message: "this row has 3 fields; the header has 2")) {
            try CSV.table(bytes: Array(text.utf8), types: [:], splitAbove: 0)
        }
        var bad = Array("a,b\n".utf8)
        for k in 0..<300 { bad += Array("\(k),ok\n".utf8) }
        bad += [0x31, 0x2C, 0xFF, 0x0A]
        #expect(throws: CSVError(line: 302, column: 3, problem: .unknownEncoding(likely: .windows1252))) {
            try CSV.table(bytes: bad, types: [:], splitAbove: 0)
        }
    }
}
