import Foundation

/// `trellis layout` of every spec type at 1M and 10M items, the whole process: its wall time
/// and peak resident memory beside a tiny spec's of the same run (the binary and runtime), so
/// that "memory beyond the binary" and the growth from 1M to 10M are same-run figures.
///
/// Targets: at most 64 MB beyond the binary at any count, time 10M / 1M at most 12 (linear).
@MainActor
func streamingBenchmarks(runs: Int, counts: [Int]) -> (rows: [(String, String, String)], verdicts: [String]) {
    var rows: [(String, String, String)] = []
    var verdicts: [String] = []
    let folder = scratchFolder("trellis-bench-layout")
    defer { try? FileManager.default.removeItem(at: folder) }
    let view = #""collectionView": {"width": 390, "height": 844}"#
    let group = #""size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 50}}"#
    let quarter = #"{"size": {"width": {"fractionalWidth": 0.25}, "height": {"fractionalHeight": 1}}}"#
    let specs: [(name: String, layout: String, extra: String)] = [
        ("flow", #"{"type": "flow"}"#, ""),
        ("grid", #"{"type": "grid"}"#, ""),
        ("carousel", #"{"type": "carousel"}"#, ""),
        ("circle", #"{"type": "circle"}"#, ""),
        ("waterfall", #"{"type": "waterfall"}"#, ""),
        ("justified", #"{"type": "justified"}"#, ""),
        ("compositional grid", #"{"type": "compositional", "section": {"group": {"kind": "horizontal", \#(group), "subitems": [\#(quarter)]}}}"#, ""),
        (
            "compositional estimated",
            #"{"type": "compositional", "section": {"group": {"kind": "vertical", "size": {"width": {"fractionalWidth": 1}, "height": {"estimated": 44}}, "subitems": [{"size": {"width": {"fractionalWidth": 1}, "height": {"estimated": 44}}}]}}}"#,
            ""
        ),
        (
            "compositional orthogonal",
            #"{"type": "compositional", "section": {"orthogonalScrollingBehavior": "continuous", "group": {"kind": "horizontal", "size": {"width": {"fractionalWidth": 0.8}, "height": {"absolute": 50}}, "subitems": [\#(quarter)]}}}"#,
            ""
        ),
        (
            "flow with a batch", #"{"type": "flow"}"#,
            #", "updates": [{"insertItems": [[0, 5]]}, {"deleteItems": [[0, 9]]}, {"moveItem": {"from": [0, 3], "to": [0, 700]}}]"#
        ),
    ]
    func write(_ name: String, _ layout: String, _ extra: String, items: Int) -> String {
        let path = folder.appendingPathComponent(name.replacingOccurrences(of: " ", with: "-") + "-\(items).json").path
        let text = "{\(view), \"layout\": \(layout), \"sections\": [{\"items\": \(items)}]\(extra)}"
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }
    let tiny = write("tiny", #"{"type": "flow"}"#, "", items: 1)
    let binary = median(runs) { run([CommandLine.arguments[0], "trellis", "layout", tiny], discardingOutput: true) }
    rows.append(("trellis layout, 1 item (the binary and runtime)", format(binary.wall), String(format: "%.0f MB peak", binary.peakMB)))
    var worstMemory = 0.0, worstGrowth = 0.0
    var failures: [String] = []
    for spec in specs {
        var walls: [Int: Double] = [:]
        for count in counts {
            let path = write(spec.name, spec.layout, spec.extra, items: count)
            var status: Int32 = 0
            let m = median(runs) {
                let r = run([CommandLine.arguments[0], "trellis", "layout", path], discardingOutput: true)
                status = r.status
                return r
            }
            if status != 0 { failures.append("\(spec.name) at \(count): status \(status)") }
            walls[count] = m.wall
            let beyond = m.peakMB - binary.peakMB
            worstMemory = max(worstMemory, beyond)
            rows.append(
                (
                    "trellis layout, \(spec.name), \(count.formatted()) items", format(m.wall),
                    String(format: "%.0f MB peak, %.0f MB beyond the binary (target ≤ 64)", m.peakMB, beyond)
                ))
        }
        if let small = counts.min(), let large = counts.max(), small < large, let a = walls[small], let b = walls[large] {
            let growth = (b / a) / (Double(large) / Double(small))
            worstGrowth = max(worstGrowth, growth)
            rows.append(
                (
                    "  \(spec.name): time \(large.formatted()) / \(small.formatted())", String(format: "%.2f×", b / a),
                    String(format: "%.2f× the item ratio (linear: 1; target ≤ 1.2)", growth)
                ))
        }
    }
    verdicts.append(
        String(
            format: "trellis layout memory beyond the binary, worst spec: %.0f MB — %@", worstMemory,
            worstMemory <= 64 ? "meets ≤ 64 MB" : "MISSES ≤ 64 MB"))
    if counts.count > 1 {
        verdicts.append(
            String(
                format: "trellis layout time growth over the item ratio, worst spec: %.2f× — %@", worstGrowth,
                worstGrowth <= 1.2 ? "linear (meets ≤ 1.2)" : "MISSES ≤ 1.2"))
    }
    verdicts.append(failures.isEmpty ? "every spec laid out (status 0)" : "FAILED: " + failures.joined(separator: "; "))
    return (rows, verdicts)
}
