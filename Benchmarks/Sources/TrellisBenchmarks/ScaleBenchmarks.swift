import Foundation

/// How time and memory grow with the input: `trellis sort` (a CSV of `n` rows sorted by a
/// decimal key, written as CSV) beside polars doing the same in its own process, `trellis view`'s
/// first screen beside VisiData's (in tmux), and `trellis layout` (a flow layout of `n` items, one
/// screen's rect listed), at each size, with the slope
/// of a least-squares line through log(time) against log(n): 1 is linear, n log n reads a little
/// above 1 over these sizes, 2 would be quadratic.
func scaleBenchmarks(runs: Int, sizes: [Int]) -> (rows: [(String, String, String)], verdicts: [String]) {
    var rows: [(String, String, String)] = []
    var verdicts: [String] = []
    let folder = scratchFolder("trellis-scale-bench")
    defer { try? FileManager.default.removeItem(at: folder) }
    let peerScript = writePeerScript(in: folder)
    let polars = run(["/usr/bin/env", "python3", "-c", "import polars"]).status == 0
    let out = folder.appendingPathComponent("out.csv").path
    var curves: [String: [(n: Int, seconds: Double, peakMB: Double)]] = [:]
    for n in sizes {
        let label = n >= 1_000_000 ? "\(n / 1_000_000)M" : "\(n / 1000)k"
        let csv = folder.appendingPathComponent("data-\(n).csv")
        try? Data(generatedCSV(rows: n).utf8).write(to: csv)
        let fileMB = Double((try? FileManager.default.attributesOfItem(atPath: csv.path)[.size] as? Int) ?? 0) / 1_048_576
        // Ours and polars in turn, so that their ratio is of one stretch of the machine's time.
        var commands: [() -> ProcessResult] = [
            { run([CommandLine.arguments[0], "trellis", "sort", csv.path, "--by", "score:desc", "--format", "csv", "-o", out]) }
        ]
        if polars { commands.append { run(["/usr/bin/env", "python3", peerScript.path, "polars", csv.path, out, "score"]) } }
        let timed = interleavedMedians(runs, commands)
        let sort = timed[0]
        curves["trellis sort", default: []].append((n, sort.wall, sort.peakMB))
        rows.append(
            (
                "trellis sort, \(label) rows (\(String(format: "%.1f", fileMB)) MB)", format(sort.wall),
                String(
                    format: "%.0f ns a row; peak %.0f MB, %.2f× the file", sort.wall / Double(n) * 1e9, sort.peakMB,
                    sort.peakMB / max(fileMB, 0.001))
            ))
        if polars {
            let peer = timed[1]
            curves["polars", default: []].append((n, peer.wall, peer.peakMB))
            rows.append(
                (
                    "polars read, sort, write, \(label) rows (its whole process)", format(peer.wall),
                    String(format: "peak %.0f MB; ours %.2f× its time", peer.peakMB, sort.wall / peer.wall)
                ))
        }
        // The viewer's first screen, beside VisiData's, in a terminal (tmux): from the start of the
        // program to the first row on the screen.
        if let marker = firstRowMarker(csv) {
            let view = medianSeconds(runs) { firstScreen(["\(CommandLine.arguments[0]) trellis view '\(csv.path)'"], marker: marker) }
            if let view {
                curves["trellis view first screen", default: []].append((n, view, 0))
                // The target the viewer's tests once asserted (and a loaded machine failed): here, as data.
                rows.append(
                    (
                        "trellis view, first screen of \(label) rows", format(view),
                        "in tmux, the first row drawn (target ≤ 1 s: \(view <= 1 ? "meets" : "MISSES"))"
                    ))
            }
            if run(["/bin/sh", "-c", "command -v vd"]).status == 0,
                let peer = medianSeconds(runs, { firstScreen(["vd '\(csv.path)'"], marker: marker) })
            {
                curves["VisiData first screen", default: []].append((n, peer, 0))
                rows.append(
                    (
                        "VisiData, first screen of \(label) rows", format(peer),
                        view.map { String(format: "ours %.2f× its time", $0 / peer) } ?? ""
                    ))
            }
        }
        let spec = folder.appendingPathComponent("flow-\(n).json")
        try? Data(
            #"{"collectionView": {"width": 375, "height": 667}, "layout": {"type": "flow", "itemSize": {"width": 100, "height": 100}}, "sections": [{"items": \#(n)}]}"#
                .utf8
        ).write(to: spec)
        let layout = median(runs) {
            run([CommandLine.arguments[0], "trellis", "layout", spec.path, "--rect", "0,0,375,800", "--format", "json"], discardingOutput: true)
        }
        curves["trellis layout", default: []].append((n, layout.wall, layout.peakMB))
        rows.append(
            (
                "trellis layout, a flow of \(label) items, one screen listed", format(layout.wall),
                String(format: "%.0f ns an item; peak %.0f MB", layout.wall / Double(n) * 1e9, layout.peakMB)
            ))
    }
    for name in ["trellis sort", "polars", "trellis layout", "trellis view first screen", "VisiData first screen"] {
        guard let points = curves[name], points.count >= 2 else { continue }
        // Over every size, and over the two largest alone (the small sizes are mostly the
        // process starting, which flattens the line).
        let time = slope(points.map { (Double($0.n), $0.seconds) }), memory = slope(points.map { (Double($0.n), $0.peakMB) })
        let top = Array(points.suffix(2))
        let topTime = slope(top.map { (Double($0.n), $0.seconds) }), topMemory = slope(top.map { (Double($0.n), $0.peakMB) })
        // The viewers' first screens are timed only (their memory is not read).
        let timed = points.allSatisfy { $0.peakMB == 0 }
        rows.append(
            (
                "Slope, \(name), \(points.map { String($0.n) }.joined(separator: " → "))", String(format: "%.2f", time),
                timed
                    ? String(format: "log–log, time; %d → %d alone: %.2f", top[0].n, top[1].n, topTime)
                    : String(
                        format: "log–log, time (memory %.2f); %d → %d alone: time %.2f, memory %.2f", memory,
                        top[0].n, top[1].n, topTime, topMemory)
            ))
        verdicts.append(
            timed
                ? String(
                    format: "%@: time grows as n^%.2f between the two largest sizes — %@", name, topTime,
                    topTime <= 1.15 ? "linear or n log n" : "WORSE than n log n")
                : String(
                    format: "%@: time grows as n^%.2f between the two largest sizes, memory as n^%.2f — %@", name,
                    topTime, topMemory, topTime <= 1.15 ? "linear or n log n" : "WORSE than n log n"))
    }
    return (rows, verdicts)
}

/// The first row's second field (`item123`): what shows that a viewer has drawn its first screen.
func firstRowMarker(_ csv: URL) -> String? {
    guard let handle = FileHandle(forReadingAtPath: csv.path), let head = try? handle.read(upToCount: 4096) else { return nil }
    let lines = String(decoding: head, as: UTF8.self).split(separator: "\n")
    guard lines.count > 1 else { return nil }
    let fields = lines[1].split(separator: ",", omittingEmptySubsequences: false)
    return fields.count > 1 ? String(fields[1]) : nil
}

/// Seconds from starting `command` in a 100×30 tmux session to `marker` on its screen (read every
/// 5 ms), or `nil` when it did not show within 60 s; the session is ended after.
func firstScreen(_ command: [String], marker: String) -> Double? {
    let session = "trellis-bench-\(getpid())"
    _ = spawnAndWait(["/usr/bin/tmux", "kill-session", "-t", "=" + session], discardingOutput: true)
    let clock = ContinuousClock()
    let start = clock.now
    _ = spawnAndWait(["/usr/bin/tmux", "new-session", "-d", "-s", session, "-x", "100", "-y", "30"] + command, discardingOutput: true)
    defer { _ = spawnAndWait(["/usr/bin/tmux", "kill-session", "-t", "=" + session], discardingOutput: true) }
    while clock.now - start < .seconds(60) {
        if spawnAndWait(["/usr/bin/tmux", "capture-pane", "-t", "=" + session + ":", "-p"], discardingOutput: false).output.contains(marker) {
            return Measurement.seconds(clock.now - start)
        }
        usleep(5_000)
    }
    return nil
}

/// The median of `runs` measurements, `nil` when one failed.
func medianSeconds(_ runs: Int, _ body: () -> Double?) -> Double? {
    let values = (0..<runs).compactMap { _ in body() }
    guard values.count == runs else { return nil }
    return values.sorted()[runs / 2]
}

/// The slope of the least-squares line through (log x, log y).
func slope(_ points: [(x: Double, y: Double)]) -> Double {
    let logs = points.map { (log($0.x), log(max($0.y, 1e-9))) }
    let mx = logs.map(\.0).reduce(0, +) / Double(logs.count), my = logs.map(\.1).reduce(0, +) / Double(logs.count)
    let sxy = logs.reduce(0) { $0 + ($1.0 - mx) * ($1.1 - my) }, sxx = logs.reduce(0) { $0 + ($1.0 - mx) * ($1.0 - mx) }
    return sxx == 0 ? 0 : sxy / sxx
}
