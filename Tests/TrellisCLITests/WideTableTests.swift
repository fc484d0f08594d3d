import Foundation
import Testing
import TrellisGrid

@testable import TrellisCLI

/// Tables as wide as spreadsheets make them: Excel's 16,384 columns and more, through every
/// output and the viewer.
@Suite("Wide tables")
struct WideTableTests {
    /// `columns` columns, four body rows and a 平均 row, as a CSV file.
    static func table(columns: Int) -> String {
        var text = (0..<columns).map { "c\($0)" }.joined(separator: ",") + "\n"
        for r in 0..<4 { text += (0..<columns).map { String(($0 * 7 + r * 13) % 97) }.joined(separator: ",") + "\n" }
        text += (["平均"] + Array(repeating: "1", count: columns - 1)).joined(separator: ",") + "\n"
        return text
    }

    func run(_ arguments: [String], in folder: URL) -> (status: Int32, stdout: String, stderr: String) {
        var io = CommandIO(standardInput: { Data() }, currentDirectory: folder)
        let status = TrellisCommandLine.run(arguments, io: &io)
        return (status, io.stdout, io.stderr)
    }

    @Test(
        "16,384 columns (Excel's most) sort to text, CSV, JSON and HTML with a pinned, recomputed 平均 row: every column written",
        arguments: ["text", "csv", "json", "html"])
    func excelWidth(format: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-wide-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(Self.table(columns: 16_384).utf8).write(to: folder.appendingPathComponent("wide.csv"))
        let result = run(
            [
                "sort", "wide.csv", "--by", "c16383:desc", "--pin-bottom", "c0=平均", "--recompute", "labels",
                "--format", format,
            ], in: folder)
        #expect(result.status == 0, "\(result.stderr.prefix(400))")
        #expect(result.stdout.contains("c16383"))
        // The last column's largest value (16383 × 7 + 13 × r, mod 97) leads, in the last column.
        let last = (0..<4).map { (16_383 * 7 + $0 * 13) % 97 }.max()!
        #expect(result.stdout.contains("\(last)"))
        guard format == "csv" else { return }
        // Every column written, the rows in order, and the pinned row's cells recomputed: each the
        // mean of the four rows, with as many decimals as its own cell had ("1": none; x.5 rounds up).
        let lines = result.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(lines.count == 6 && lines.allSatisfy { $0.count == 16_384 }, "\(lines.map(\.count))")
        guard lines.count == 6, lines.allSatisfy({ $0.count == 16_384 }) else { return }
        #expect(lines[1].last.map(String.init) == "\(last)")
        #expect(lines[5][0] == "平均")
        for column in [1, 2, 8_191, 16_383] {
            let values = (0..<4).map { Double((column * 7 + $0 * 13) % 97) }
            let mean = (values.reduce(0, +) / 4).rounded(.toNearestOrAwayFromZero)
            #expect(lines[5][column] == "\(Int(mean))", "column \(column): \(values)")
        }
    }

    @Test("100,000 columns sort to text with a pinned 平均 row, its disagreements said in a few lines, not one per column")
    func hundredThousandColumns() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-wider-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(Self.table(columns: 100_000).utf8).write(to: folder.appendingPathComponent("wide.csv"))
        let result = run(["sort", "wide.csv", "--by", "c1", "--pin-bottom", "c0=平均"], in: folder)
        #expect(result.status == 0, "\(result.stderr.prefix(400))")
        #expect(result.stdout.contains("c99999"))
        let warnings = result.stderr.split(separator: "\n")
        #expect(warnings.count == 11, "\(warnings.prefix(3)) … \(warnings.count) lines")
        #expect(
            result.stderr.contains("99989 more cells of pinned rows do not say what the other rows give (in 99989 more columns)"),
            "\(warnings.last ?? "")")
    }

    @Test("the viewer draws a 100,000-column table and moves to its last column")
    func viewerAtWidth() throws {
        let table = try CSV.table(Data(Self.table(columns: 100_000).utf8))
        let grid = DataGrid(bound: table)
        var screen = GridScreen(grid: grid, width: 100, height: 12)
        screen.settle()
        #expect(screen.lines()[0].contains("c0"))
        // As the right arrow moves there: the column current, the view scrolled to show it.
        screen.column = 99_999
        screen.viewport.scroll(toColumn: 99_996)
        screen.settle()
        let header = screen.lines()[0]
        #expect(header.contains("c99999"), "\(header)")
        #expect(screen.lines().count == 12)
    }
}
