import Foundation
import Testing
import TrellisCLI
import TrellisText

/// `trellis sort` on the shapes spreadsheet programs export: a title above the header, columns
/// that share a name or have none, rows that leave out empty trailing cells, Excel's `sep=` line.
@Suite("trellis sort on export shapes")
struct ShapeCommandTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/Shapes")

    /// An empty scratch folder (the caller removes it).
    func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-shapes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A scratch folder holding the fixture `file` as `name`, and the fixture's bytes.
    func scratch(with file: String, as name: String = "in.csv") throws -> (folder: URL, bytes: [UInt8]) {
        let folder = try scratch()
        let bytes = try [UInt8](Data(contentsOf: Self.fixtures.appendingPathComponent(file)))
        try Data(bytes).write(to: folder.appendingPathComponent(name))
        return (folder, bytes)
    }

    func run(_ arguments: [String], in folder: URL) -> (status: Int32, stdout: String, bytes: [UInt8], stderr: String) {
        var io = CommandIO(standardInput: { Data() }, currentDirectory: folder)
        let status = TrellisCommandLine.run(arguments, io: &io)
        return (status, String(decoding: io.stdoutBytes, as: UTF8.self), io.stdoutBytes, io.stderr)
    }

    static let files = [
        "libreoffice-title-row.csv", "libreoffice-title-row-gb18030.csv", "pandas-duplicate-names.csv",
        "excel-sep-line.csv", "excel-short-trailing-rows.csv", "libreoffice-formatted-as-shown.csv",
        "libreoffice-german-semicolon.csv",
    ]
    static func options(_ file: String) -> [String] { file.hasPrefix("libreoffice-title-row") ? ["--header-row", "3"] : [] }

    @Test("with no key every shape comes back byte for byte", arguments: files)
    func byteExact(file: String) throws {
        let (folder, input) = try scratch(with: file)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = run(["sort", "in.csv", "--format", "csv"] + Self.options(file), in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.bytes == input, "\(file)")
    }

    @Test("a title above the header: a warning names --header-row, which reads the table under it and keeps the title")
    func titleRow() throws {
        let folder = try scratch(with: "libreoffice-title-row.csv").folder
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = run(["sort", "in.csv"], in: folder)
        #expect(
            plain.stderr.contains(
                "warning: line 1 of in.csv looks like a title above the header (one cell, then a blank line); "
                    + "if the header is line 3, add --header-row 3"), "\(plain.stderr)")
        let sorted = run(
            ["sort", "in.csv", "--header-row", "3", "--by", "分数:desc", "--pin-bottom", "组号=平均", "--format", "csv"],
            in: folder)
        #expect(sorted.status == 0 && !sorted.stderr.contains("title"), "\(sorted.stderr)")
        #expect(
            sorted.stdout == """
                2024年期末成绩,,,,,,
                ,,,,,,
                组号,姓名,分数,备注,备注,,
                组10,李雷,92,班长,,,
                组2,王芳,88.5,,补考,,
                组3,赵敏,75.25,,,,
                组1,张伟,,缺考,,,
                平均,,85.25,,,,

                """)
        // GB 18030 alike, the title read in it.
        let gb = try scratch(with: "libreoffice-title-row-gb18030.csv").folder
        defer { try? FileManager.default.removeItem(at: gb) }
        let fromGB = run(
            [
                "sort", "in.csv", "--header-row", "3", "--by", "分数:desc", "--pin-bottom", "组号=平均", "--format", "csv",
                "--output-encoding", "utf-8",
            ], in: gb)
        #expect(fromGB.stdout == sorted.stdout, "\(fromGB.stderr)")
        // A line past the end, and a bad value.
        let past = run(["sort", "in.csv", "--header-row", "30"], in: folder)
        #expect(past.status == 65 && past.stderr.contains("the file has 9 lines; the header row 30 is past its end"), "\(past.stderr)")
        let bad = run(["sort", "in.csv", "--header-row", "0"], in: folder)
        #expect(bad.status == 64 && bad.stderr.contains("expected a line number from 1"))
        let database = run(["sort", "x.sqlite", "--table", "t", "--header-row", "2"], in: folder)
        #expect(database.status == 64 && database.stderr.contains("'--header-row' reads CSV files"), "\(database.stderr)")
    }

    @Test("a title above a header of more cells, without --header-row: the error names the line to give")
    func titleRowError() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("2024年期末成绩\r\n\r\n组号,分数\r\n组1,88\r\n".utf8).write(to: folder.appendingPathComponent("in.csv"))
        let result = run(["sort", "in.csv"], in: folder)
        #expect(result.status == 65)
        #expect(
            result.stderr.contains(
                "line 3, column 1: this row has 2 fields; the header has 1; line 1 looks like a title above the header "
                    + "(one cell, then a blank line): if the header is line 3, give --header-row 3"), "\(result.stderr)")
        #expect(run(["sort", "in.csv", "--header-row", "3", "--by", "分数"], in: folder).status == 0)
        // Errors under a header given so are placed by the file's own lines.
        try Data("标题\r\n\r\n组号,分数\r\n组1,88\r\n组2\r\n".utf8).write(to: folder.appendingPathComponent("short.csv"))
        let short = run(["sort", "short.csv", "--header-row", "3"], in: folder)
        #expect(short.status == 65 && short.stderr.contains("line 5, column 1: this row has 1 fields; the header has 2"), "\(short.stderr)")
    }

    @Test("columns sharing a name: the bare name takes the first and says so; NAME#2 and #N reach the others")
    func duplicateNames() throws {
        let folder = try scratch(with: "pandas-duplicate-names.csv").folder
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = run(["sort", "in.csv", "--by", "备注", "--pin-bottom", "组号=平均", "--format", "csv"], in: folder)
        #expect(first.status == 0)
        #expect(
            first.stderr.contains("note: 2 columns are named '备注': '备注' is the first (column 3); '备注#2' (or '#4') names the other"),
            "\(first.stderr)")
        #expect(
            first.stdout.split(separator: "\n").map { $0.prefix { $0 != "," } } == ["组号", "组10", "组1", "组2", "平均"],
            "by the first 备注: 班长, 缺考, then the blank")
        let second = run(["sort", "in.csv", "--by", "备注#2", "--pin-bottom", "组号=平均", "--format", "csv"], in: folder)
        #expect(second.status == 0 && !second.stderr.contains("note:"))
        #expect(second.stdout.split(separator: "\n").map { $0.prefix { $0 != "," } } == ["组号", "组2", "组10", "组1", "平均"])
        let numbered = run(["sort", "in.csv", "--by", "#4", "--pin-bottom", "组号=平均", "--format", "csv"], in: folder)
        #expect(numbered.stdout == second.stdout)
        #expect(first.stdout.hasPrefix("组号,分数,备注,备注\n"), "the header as it was")
        let json = run(["sort", "in.csv", "--format", "json"], in: folder)
        #expect(json.stdout.contains(#"{"identifier": "备注#2", "title": "备注", "type": "text"}"#), "\(json.stdout)")
        let unknown = run(["sort", "in.csv", "--by", "#9"], in: folder)
        #expect(unknown.status == 64 && unknown.stderr.contains("Unknown column '#9'"))
    }

    @Test("rows that leave out empty trailing cells read as blanks and go back as they were")
    func shortTrailingRows() throws {
        let folder = try scratch(with: "excel-short-trailing-rows.csv").folder
        defer { try? FileManager.default.removeItem(at: folder) }
        let sorted = run(["sort", "in.csv", "--by", "分数:desc", "--pin-bottom", "组号=平均", "--format", "csv"], in: folder)
        #expect(sorted.status == 0, "\(sorted.stderr)")
        let lines = String(sorted.stdout.dropFirst()).components(separatedBy: "\r\n")
        #expect(lines.first == "组号,分数,,")
        #expect(lines.contains("组19,94") && lines.contains("组1,63,,"), "each record as the file had it")
        let scores = lines.dropFirst().dropLast(2).map { Int($0.split(separator: ",")[1])! }
        #expect(scores == scores.sorted(by: >) && scores.count == 20)
        #expect(lines.suffix(2) == ["平均,80.5,,", ""])
        // A row that leaves out a named column is still an error.
        try Data("组号,分数,备注\r\n组1,88\r\n".utf8).write(to: folder.appendingPathComponent("named.csv"))
        let named = run(["sort", "named.csv"], in: folder)
        #expect(named.status == 65 && named.stderr.contains("line 2, column 1: this row has 2 fields; the header has 3"))
    }

    @Test("Excel's sep= line names the delimiter and is kept; written with another delimiter, it names that one")
    func separatorLine() throws {
        let folder = try scratch(with: "excel-sep-line.csv").folder
        defer { try? FileManager.default.removeItem(at: folder) }
        let sorted = run(
            ["sort", "in.csv", "--by", "分数:desc", "--pin-bottom", "组号=平均", "--format", "csv", "--output-encoding", "utf-8"],
            in: folder)
        #expect(sorted.status == 0 && !sorted.stderr.contains("separated by"), "\(sorted.stderr)")
        #expect(sorted.stdout == "sep=;\r\n组号;分数;备注\r\n组10;92;班长\r\n组2;88;补考\r\n组3;75;\r\n组1;;缺考\r\n平均;85;\r\n")
        #expect(run(["sort", "in.csv", "--by", "分数", "-o", "out.tsv"], in: folder).status == 0)
        let tsv = String(
            decoding: try TextEncoding.gb18030.decode([UInt8](Data(contentsOf: folder.appendingPathComponent("out.tsv")))),
            as: UTF8.self)
        #expect(tsv.hasPrefix("sep=\t\r\n组号\t分数\t备注\r\n"), "\(tsv)")
    }

    @Test(
        "every shape, in every encoding read, comes back byte for byte with no key, and sorted keeps each record",
        arguments: [
            "成绩,,,\n,,,\n名,备注,备注,\n乙,x,y,\n甲,,,\n丙,z,,\n",
            "sep=;\r\n名;分;;\r\n乙;1;;\r\n甲;2\r\n丙;3;;\r\n",
            "k,v,,\r\n1,2,,\r\n3,4\r\n5,0,,\r\n\r\n",
        ])
    func roundTrip(text: String) throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let header = text.hasPrefix("成绩") ? ["--header-row", "3"] : []
        for (encoding, mark) in [(TextEncoding.utf8, false), (.utf8, true), (.gb18030, false), (.utf16LittleEndian, true), (.utf16BigEndian, false)] {
            let bytes = (mark ? encoding.byteOrderMark : []) + (try encoding.encode(Array(text.utf8)))
            try Data(bytes).write(to: folder.appendingPathComponent("in.csv"))
            let same = run(["sort", "in.csv", "--format", "csv"] + header, in: folder)
            #expect(same.status == 0 && same.bytes == bytes, "\(encoding.name) \(mark) \(text.debugDescription): \(same.stderr)")
            let sorted = run(["sort", "in.csv", "--format", "csv", "--by", "#1:desc", "--output-encoding", "utf-8"] + header, in: folder)
            let lines = sorted.stdout.replacingOccurrences(of: "\u{FEFF}", with: "").replacingOccurrences(of: "\r\n", with: "\n")
                .components(separatedBy: "\n")
            let original = text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n")
            #expect(lines.sorted() == original.sorted(), "\(encoding.name) \(mark): the same lines, reordered")
            #expect(lines != original || text.hasPrefix("k"), "and reordered")
        }
    }

    @Test("numbers as a spreadsheet shows them sort by value: currency, accounting negatives, percents, grouped thousands")
    func formattedNumbers() throws {
        let folder = try scratch(with: "libreoffice-formatted-as-shown.csv").folder
        defer { try? FileManager.default.removeItem(at: folder) }
        func order(_ key: String) -> [String] {
            run(["sort", "in.csv", "--by", key, "--format", "csv"], in: folder).stdout.split(separator: "\n").dropFirst()
                .map { String($0.prefix { $0 != "," }) }
        }
        #expect(order("Amount:desc") == ["Fig", "Apple", "Plum", "Pear"])
        #expect(order("Share") == ["Pear", "Fig", "Apple", "Plum"])
        #expect(order("Units") == ["Plum", "Apple", "Pear", "Fig"])
        let json = run(["sort", "in.csv", "--format", "json"], in: folder).stdout
        #expect(json.contains(#"{"identifier": "Amount", "type": "decimal"}"#) && json.contains(#""($2,000.00)""#), "the text kept")
    }

    @Test("a ;-separated European export: decimal commas and dot-grouped thousands are numbers, written back as they were")
    func decimalCommas() throws {
        let folder = try scratch(with: "libreoffice-german-semicolon.csv").folder
        defer { try? FileManager.default.removeItem(at: folder) }
        let sorted = run(["sort", "in.csv", "--by", "Betrag:desc", "--pin-bottom", "Name=Mittel", "--format", "csv"], in: folder)
        #expect(sorted.status == 0)
        #expect(sorted.stderr.contains("separated by ';' (a comma in a number is its decimal mark)"), "\(sorted.stderr)")
        #expect(sorted.stdout == "Name;Betrag;Anteil\nWeiß;1.000.000,00;100,0 %\nMüller;1.234,50;12,5 %\nSchmidt;-12,25;5,0 %\nMittel;333.740,75;39,2 %\n")
        let shares = run(["sort", "in.csv", "--by", "Anteil", "--pin-bottom", "Name=Mittel", "--format", "csv"], in: folder)
        #expect(shares.stdout.split(separator: "\n").map { $0.prefix { $0 != ";" } } == ["Name", "Schmidt", "Müller", "Weiß", "Mittel"])
    }

    @Test("dates in every common form sort as dates; a column that cannot tell day from month is warned of, --date-order settles it")
    func dates() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("名,日期\n甲,2024年3月1日\n乙,12/25/2023\n丙,2024-02-29\n丁,2024/3/1 9:30\n".utf8)
            .write(to: folder.appendingPathComponent("forms.csv"))
        let forms = run(["sort", "forms.csv", "--by", "日期", "--format", "csv"], in: folder)
        #expect(
            forms.stdout == "名,日期\n乙,12/25/2023\n丙,2024-02-29\n甲,2024年3月1日\n丁,2024/3/1 9:30\n" && forms.stderr.isEmpty,
            "\(forms.stderr)")
        try Data("名,日期\n甲,2/12/2023\n乙,3/1/2024\n丙,5/6/2023\n".utf8).write(to: folder.appendingPathComponent("either.csv"))
        let either = run(["sort", "either.csv", "--by", "日期", "--format", "csv"], in: folder)
        #expect(
            either.stderr.contains(
                "warning: column '日期' has dates such as 2/12/2023 that may be month or day first; "
                    + "read as month/day/year (--date-order dmy reads them as day/month/year)"), "\(either.stderr)")
        #expect(either.stdout.split(separator: "\n").dropFirst().map { $0.prefix(1) } == ["甲", "丙", "乙"])
        let dayFirst = run(["sort", "either.csv", "--by", "日期", "--format", "csv", "--date-order", "dmy"], in: folder)
        #expect(dayFirst.stderr.isEmpty && dayFirst.stdout.split(separator: "\n").dropFirst().map { $0.prefix(1) } == ["丙", "甲", "乙"])
        let none = run(["sort", "either.csv", "--by", "日期", "--format", "json", "--date-order", "ymd"], in: folder)
        #expect(none.stdout.contains(#""type": "text""#))
        let bad = run(["sort", "either.csv", "--date-order", "dym"], in: folder)
        #expect(bad.status == 64 && bad.stderr.contains("expected mdy, dmy or ymd"))
    }

    @Test("--recompute labels gives each pinned row its label's function; a map names them; one function never fills a row named otherwise")
    func recompute() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("学号,分数,订单数\n1001,88,3\n1002,92,5\n1003,75.5,2\n平均,80.50,\n合计,,1\n".utf8)
            .write(to: folder.appendingPathComponent("in.csv"))
        try Data("学号,分数,订单数\n1001,88,3\n1002,92,5\n1003,75.5,2\n说明,0,\n".utf8).write(to: folder.appendingPathComponent("other.csv"))
        let pins = ["--pin-bottom", "学号=平均", "--pin-bottom", "学号=合计"]
        let labels = run(["sort", "in.csv", "--format", "csv", "--recompute", "labels"] + pins, in: folder)
        #expect(labels.status == 0 && labels.stdout.hasSuffix("平均,85.17,\n合计,,10\n"), "\(labels.stdout)\(labels.stderr)")
        let named = run(["sort", "in.csv", "--format", "csv", "--recompute", "平均=max,合计=sum", "--precision", "1"] + pins, in: folder)
        #expect(named.stdout.hasSuffix("平均,92.0,\n合计,,10.0\n"), "\(named.stdout)")
        let one = run(["sort", "in.csv", "--format", "csv", "--recompute", "sum"] + pins, in: folder)
        #expect(
            one.status == 64
                && one.stderr.contains(
                    "'--recompute sum' would put the sum in the '平均' row ('--pin-bottom 学号=平均'), "
                        + "which is a mean; give --recompute labels, or '平均=mean' for each row"),
            "\(one.stderr)")
        let unnamed = run(["sort", "other.csv", "--recompute", "labels", "--pin-bottom", "学号=说明"], in: folder)
        #expect(unnamed.status == 64 && unnamed.stderr.contains("give '--recompute 说明=mean'"), "\(unnamed.stderr)")
        let forOthers = run(["sort", "other.csv", "--format", "csv", "--recompute", "max", "--pin-bottom", "学号=说明"], in: folder)
        #expect(forOthers.status == 0 && forOthers.stdout.hasSuffix("说明,92.0,\n"), "one function fills rows whose label names none")
        let stray = run(["sort", "in.csv", "--recompute", "小计=sum"] + pins, in: folder)
        #expect(stray.status == 64 && stray.stderr.contains("'--recompute' names '小计', which no --pin-top or --pin-bottom pins"))
        let bad = run(["sort", "in.csv", "--recompute", "平均=median"] + pins, in: folder)
        #expect(bad.status == 64 && bad.stderr.contains("Invalid function 'median'"))
    }

    @Test("a comparator named on the key compares every cell as text; --locale zh keeps numerals by value on every key")
    func textComparators() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("v\n1.9.9a\n1.11\n1.10.1\n1.9.9b\n".utf8).write(to: folder.appendingPathComponent("v.csv"))
        #expect(run(["sort", "v.csv", "--by", "v:natural", "--format", "csv"], in: folder).stdout == "v\n1.9.9a\n1.9.9b\n1.10.1\n1.11\n")
        try Data("小组,姓名,分数\n第十组,王一博,9\n第二组,张三,88.5\n第一组,李雷,-3\n第二组,阿明,88.25\n".utf8)
            .write(to: folder.appendingPathComponent("g.csv"))
        let both = run(["sort", "g.csv", "--by", "小组", "--by", "姓名", "--locale", "zh", "--format", "csv"], in: folder)
        #expect(both.stdout == "小组,姓名,分数\n第一组,李雷,-3\n第二组,阿明,88.25\n第二组,张三,88.5\n第十组,王一博,9\n", "\(both.stdout)")
        let scores = run(["sort", "g.csv", "--by", "分数", "--locale", "zh", "--format", "csv"], in: folder)
        #expect(
            scores.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",")[2] } == ["-3", "9", "88.25", "88.5"],
            "--locale leaves numbers sorting by value")
    }
}
