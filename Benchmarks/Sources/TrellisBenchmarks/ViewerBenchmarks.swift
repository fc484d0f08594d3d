import Foundation
import TrellisGrid
import TrellisRender
import TrellisTestSupport
import TrellisText

/// `trellis view` where a person feels it: a 1,000,000-row file in a real terminal (tmux), every
/// key timed from its press to the moment the viewer's output with the screen it makes reaches
/// the terminal — the moves (VisiData's too), the sorts, a find, a jump, an edit and its undo,
/// the type keys, the frequency table and the description, the command line. Each key's figure is
/// the median of `runs` sessions; the target is 50 ms for every key. After its first screen each
/// session is left idle for a second, as a person reading it is (the viewer describes the
/// sheet ahead then).
///
/// And saving an edit: the file written back in its own order with one cell changed, against
/// writing the sorted file, in turn in one run (target ≤ 2×).
func viewerBenchmarks(runs: Int, count: Int) -> (rows: [(String, String, String)], verdicts: [String]) {
    var rows: [(String, String, String)] = []
    var verdicts: [String] = []
    let folder = scratchFolder("trellis-viewer-bench")
    defer { try? FileManager.default.removeItem(at: folder) }
    let label = count >= 1_000_000 ? "\(count / 1_000_000)M" : "\(count / 1000)k"
    let file = folder.appendingPathComponent("rows.csv")
    var text = "id,组号,分数\n"
    text.reserveCapacity(count * 24)
    for i in 0..<count { text += "\(i),组\(i % 997),\(Double((i * 7919) % 10_001) / 100)\n" }
    try? Data(text.utf8).write(to: file)
    text = ""

    // The keys in order: what is typed first without timing, the key timed, and the text the
    // screen it makes writes.
    let shown = GridCount.grouped(count)
    // A row deep in the file to jump to (654,321 of a million).
    let target = max(1, count * 654_321 / 1_000_000)
    let keys: [(before: [String], key: String, until: String, name: String)] = [
        ([], "j", "row 2/\(shown)", "j (down)"), ([], "k", "row 1/\(shown)", "k (up)"),
        ([], "G", "row \(shown)/\(shown)", "G (last row)"), (["g"], "g", "row 1/\(shown)", "gg (first row)"),
        ([], "PageDown", "row 22/", "Page Down"), ([], "Home", "row 1/", "Home"),
        ([], "l", "column 组号", "l (right)"), (["g"], "l", "column 分数", "gl (last column)"),
        (["g"], "h", "column id", "gh (first column)"), (["l", "l"], "[", "分数 ▲1", "[ (sort ascending)"),
        ([], "]", "分数 ▼1", "] (sort descending)"), (["h"], "s", "组号 ▲1", "s (sort cycle)"),
        (["l", "g"], "]", "分数 ▼2", "g] (a further key)"), (["h", "/", "组5"], "Enter", "found \"组5\"", "/ Enter (find)"),
        ([], "n", "found \"组5\"", "n (find next)"), ([], "N", "found \"组5\"", "N (find previous)"),
        ([":", String(target)], "Enter", "row \(GridCount.grouped(target))/", ": Enter (go to row)"), ([], "p", "row pinned", "p (pin)"),
        (["End"], "P", "row unpinned", "P (unpin)"), (["e", "C-u", "组X"], "Enter", "edited", "e Enter (edit a cell)"),
        ([], "U", "undone", "U (undo)"), (["l"], "#", "read as integer", "# (type)"), ([], "%", "read as decimal", "% (type)"),
        ([], "F", "values in \(shown) rows", "F (frequency table)"), ([], "q", "row ", "q (back)"),
        ([], "I", "3 columns", "I (describe)"), ([], "q", "row ", "q (back)"), ([" ", "sort-asc"], "Enter", "分数 ▲1", "Space sort-asc Enter"),
        ([], "-", "hidden", "- (hide a column)"), ([], "+", "shown again", "+ (show them)"), ([], "?", "trellis view: keys", "? (help)"),
        ([], "q", "row ", "q (close help)"),
    ]
    guard Tmux.path != nil else {
        verdicts.append("viewer keys: tmux is not installed, not measured")
        return (rows, verdicts)
    }
    // This program, by its full path: the session runs in the scratch folder.
    let trellis = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
    var times = [[Double]](repeating: [], count: keys.count)
    var failures: [String] = []
    for run in 0..<runs {
        let tmux = Tmux(session: "trellis-viewer-bench-\(getpid())-\(run)")
        defer { tmux.kill() }
        do {
            try tmux.start("'\(trellis)' trellis view '\(file.path)'", in: folder.path, width: 100, height: 24)
            let first = try tmux.wait(seconds: 120) { $0.contains { $0.contains("row 1/\(shown)") } }
            guard first.contains(where: { $0.contains("row 1/\(shown)") }) else {
                failures.append("run \(run): no first screen (\(first.filter { !$0.isEmpty }.suffix(3).joined(separator: " | ")))")
                continue
            }
            // Idle a moment, as a person reading the first screen is.
            usleep(1_000_000)
            let output = try tmux.outputStream()
            for (k, step) in keys.enumerated() {
                for typed in step.before {
                    let literal = !["C-u", "Enter", "End", "Home", "Left", "Right"].contains(typed) && typed.count > 1
                    try tmux.send([typed], literal: literal)
                }
                if !step.before.isEmpty { usleep(50_000) }
                output.drain()
                let start = Date()
                try tmux.send([step.key])
                let came = output.wait(for: step.until, seconds: 30)
                let elapsed = Date().timeIntervalSince(start)
                guard came else {
                    // A key that did not give its screen leaves the session where the next keys mean
                    // something else: the session ends here, with what the screen showed.
                    let screen = (try? tmux.screen().filter { !$0.isEmpty }.suffix(3).joined(separator: " | ")) ?? ""
                    failures.append("\(step.name): no \"\(step.until)\" (\(screen))")
                    break
                }
                times[k].append(elapsed)
            }
            try tmux.send(["q"])
            // (Edits were undone: q quits at once.)
        } catch {
            failures.append("run \(run): \(error)")
        }
    }
    var slowest = 0.0
    for (k, step) in keys.enumerated() where !times[k].isEmpty {
        let median = times[k].sorted()[times[k].count / 2]
        slowest = max(slowest, median)
        rows.append(("trellis view, \(label) rows: \(step.name)", format(median), median <= 0.05 ? "" : "over 50 ms"))
    }
    verdicts.append(
        failures.isEmpty
            ? String(
                format: "viewer keys at %@ rows: the slowest key's median %.0f ms — %@ ≤ 50 ms", label, slowest * 1000, slowest <= 0.05 ? "meets" : "misses")
            : "viewer keys: \(failures.count) presses did not give their screen (\(failures.prefix(3).joined(separator: "; ")))")

    // Saving an edit against writing the sorted file: the same table, the same rows written.
    if let table = try? CSV.table(bytes: [UInt8](Data(contentsOf: file))) {
        let sorted = DataGrid(bound: table)
        try? sorted.sort(by: [SortKey("分数", .descending)])
        let out = folder.appendingPathComponent("out.csv").path
        func write(_ grid: DataGrid) -> Double {
            let descriptor = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            defer { close(descriptor) }
            let clock = ContinuousClock()
            return Measurement.seconds(
                clock.measure {
                    let output = TextOutput(.fileDescriptor(descriptor))
                    GridRenderer.writeCSV(grid, neutralizeFormulas: false, to: output)
                    try? output.finish()
                })
        }
        var pairs: [(Double, Double)] = []
        for k in 0..<max(3, runs) {
            let sortedTime = write(sorted)
            // One cell edited (a different one each time), the file written back in its order.
            try? table.setText("组\(k)", row: count / 2 + k, column: 1)
            let saved = write(DataGrid(bound: table))
            pairs.append((sortedTime, saved))
        }
        let sortedMedian = pairs.map(\.0).sorted()[pairs.count / 2], savedMedian = pairs.map(\.1).sorted()[pairs.count / 2]
        let ratio = pairs.map { $0.1 / $0.0 }.sorted()[pairs.count / 2]
        rows.append(("writing the sorted \(label)-row file", format(sortedMedian), ""))
        rows.append(
            (
                "saving an edit: the \(label)-row file written back in its order", format(savedMedian),
                String(format: "%.2f× the sorted file in turn (target ≤ 2×)", ratio)
            ))
        verdicts.append(String(format: "saving an edit: %.2f× writing the sorted file — %@ ≤ 2×", ratio, ratio <= 2 ? "meets" : "misses"))
    }
    return (rows, verdicts)
}

/// A count as the viewer's status line writes it (`1,000,000`).
enum GridCount {
    static func grouped(_ n: Int) -> String {
        let digits = String(n)
        var out = ""
        for (k, c) in digits.enumerated() {
            if k > 0, (digits.count - k) % 3 == 0 { out += "," }
            out.append(c)
        }
        return out
    }
}
