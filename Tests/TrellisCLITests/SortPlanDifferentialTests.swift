import Foundation
import Testing
import TrellisGrid
import TrellisRender
import TrellisTestSupport
import TrellisText

/// One ``SortPlan``, two executions: the order in memory (a ``DataGrid`` bound to the file read
/// whole, written as CSV) and the sort of the file in parts (``ExternalCSVSort``, dozens of runs
/// merged). Over random plans — keys of every comparator, direction and blank placement, pins by
/// value and by position at both edges (recomputed, checked by their label, or plain), summary
/// rows of every built-in function at both edges — both must give the same bytes and report the
/// same unmatched pins and the same disagreeing summary rows.
@Suite("one sort plan, carried out in memory and in parts")
struct SortPlanDifferentialTests {
    static let columns = ["id", "组号", "name", "score", "when", "flag", "身份证号", "note"]

    static func randomKey(_ rng: inout SeededRandom) -> SortKey {
        let column = columns[Int.random(in: 0..<columns.count, using: &rng)]
        let texts: [TextComparator] = [.natural, .lexical, .caseInsensitive, .naturalDecimal, .localized("zh")]
        let text = texts[Int.random(in: 0..<texts.count, using: &rng)]
        let comparator: KeyComparator =
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: .text(text)
            case 1: .asText(text)
            default: .standard
            }
        return SortKey(
            column, rng.chance(0.5) ? .descending : .ascending, comparator: comparator,
            nulls: NullPlacement.allCases[Int.random(in: 0..<NullPlacement.allCases.count, using: &rng)])
    }

    static func randomPin(_ rng: inout SeededRandom, rows: Int) -> DisplayOrder.Pin {
        let edge: PinEdge = rng.chance(0.7) ? .bottom : .top
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: return .init(.row(Int.random(in: 0..<(rows + 3), using: &rng)), at: edge)
        case 1: return .init(.matching(column: "组号", value: "合计"), at: edge, recomputing: .sum)
        case 2:
            return .init(
                .matching(column: "组号", value: "平均"), at: edge, recomputing: .mean,
                precision: rng.chance(0.5) ? nil : Int.random(in: 0...3, using: &rng))
        case 3: return .init(.matching(column: "组号", value: "组\(Int.random(in: 1...40, using: &rng))"), at: edge)
        case 4: return .init(.matching(column: "name", value: ["张三", "bob", "没有"][Int.random(in: 0..<3, using: &rng)]), at: edge)
        default: return .init(.matching(column: "组号", value: "平均"), at: edge)
        }
    }

    static func randomSummary(_ rng: inout SeededRandom) -> SummaryRow {
        let functions: [SummaryFunction] = [.mean, .sum, .count, .min, .max]
        let function = functions[Int.random(in: 0..<functions.count, using: &rng)]
        let chosen = columns.filter { _ in rng.chance(0.4) }
        let edge: PinEdge = rng.chance(0.7) ? .bottom : .top
        let label: String? = rng.chance(0.5) ? nil : "统计"
        if let label { return SummaryRow(label: label, function, columns: chosen.isEmpty ? ["score"] : chosen, edge: edge) }
        return SummaryRow(function, columns: chosen.isEmpty ? ["score"] : chosen, edge: edge)
    }

    static func randomPlan(_ rng: inout SeededRandom, rows: Int) -> SortPlan {
        var plan = SortPlan()
        plan.keys = (0..<Int.random(in: 0...3, using: &rng)).map { _ in randomKey(&rng) }
        plan.pins = (0..<Int.random(in: 0...3, using: &rng)).map { _ in randomPin(&rng, rows: rows) }
        plan.summaries = (0..<Int.random(in: 0...2, using: &rng)).map { _ in randomSummary(&rng) }
        return plan
    }

    /// The plan carried out in memory: a grid bound to the whole file, written as CSV.
    static func inMemory(_ plan: SortPlan, bytes: [UInt8]) throws -> (csv: [UInt8], unmatched: [RowPin], disagreements: [SummaryDisagreement]) {
        let grid = DataGrid(bound: try CSV.table(bytes: bytes, types: [:]))
        for pin in plan.pins {
            // A pin of a row the file does not have is refused by the grid; in parts it matches nothing.
            if case .row(let row) = pin.rows, row >= grid.rowCount { continue }
            try grid.pin(pin.rows, at: pin.edge, recomputing: pin.recomputing, precision: pin.precision)
        }
        for summary in plan.summaries { try grid.addSummary(summary) }
        try grid.sort(by: plan.keys)
        let out = TextOutput(encoding: .utf8)
        GridRenderer.writeCSV(grid, neutralizeFormulas: false, to: out)
        try out.finish()
        return (out.collected, grid.unmatchedPins, grid.summaryDisagreements)
    }

    @Test("random plans give the same bytes in memory and in parts", .smallParts, arguments: 0..<6)
    func samePlanSameBytes(seed: Int) throws {
        var rng = SeededRandom(seed: UInt64(9100 + seed))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-plan-\(getpid())-\(seed)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let rows = 900
        let text = SortInPartsTests.randomFile(&rng, rows: rows)
        let path = folder.appendingPathComponent("in.csv").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        for round in 0..<8 {
            let plan = Self.randomPlan(&rng, rows: rows)
            let expected = try Self.inMemory(plan, bytes: Array(text.utf8))
            var tuning = Tuning.current
            if round % 2 == 1 { tuning.fanIn = 4 }  // merged in groups first
            let (report, output) = try Tuning.$current.withValue(tuning) {
                let sorter = try ExternalCSVSort(path: path, options: .init(memory: 1 << 16, folder: folder))
                let out = TextOutput(encoding: .utf8)
                let report = try sorter.sort(plan, to: out)
                try out.finish()
                return (report, out.collected)
            }
            let described =
                "seed \(seed), round \(round): keys \(plan.keys.map { "\($0.column) \($0.direction) \($0.comparator) \($0.nulls)" }), "
                + "pins \(plan.pins.map { "\($0.rows) \($0.edge) \(String(describing: $0.recomputing))" }), "
                + "summaries \(plan.summaries.map { "\($0.function) \($0.columns) \($0.edge)" })"
            #expect(report.runs > 10, "\(described): the file was sorted in \(report.runs) runs")
            if output != expected.csv {
                let a = String(decoding: output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                let b = String(decoding: expected.csv, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                let line = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
                let inParts = Array(a.dropFirst(line).prefix(2)), inMemory = Array(b.dropFirst(line).prefix(2))
                Issue.record("\(described): the outputs differ from line \(line + 1): in parts \(inParts), in memory \(inMemory)")
            }
            // (A row pin past the file's end is refused in memory before it is made.)
            let unmatched = report.unmatchedPins.filter { if case .row(let row) = $0 { row < rows } else { true } }
            #expect("\(unmatched)" == "\(expected.unmatched)", "\(described)")
            #expect(report.summaryDisagreements == expected.disagreements, "\(described)")
        }
    }
}
