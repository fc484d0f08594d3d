import Foundation

/// `trellis sort` of files that hold one very long cell in the column sorted by, among 100,000
/// ordinary rows: the memory a sort takes (peak resident set) against the file's size and what
/// `--memory` allows, and its time beside the same file without the long cell.
///
/// Targets: a sort at once peaks at most at five times its file (the figure `--memory` plans
/// with), a sort under `--memory` at most at that memory, and a row a sort in parts cannot hold
/// is refused before it is read whole (peak far below the row).
func longCellBenchmarks(runs: Int, cellMB: [Int]) -> (rows: [(String, String, String)], verdicts: [String]) {
    var rows: [(String, String, String)] = []
    var verdicts: [String] = []
    let folder = scratchFolder("trellis-long-cell-bench")
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("out.csv").path
    func write(_ name: String, cell megabytes: Int) -> (path: String, bytes: Int) {
        let url = folder.appendingPathComponent(name)
        FileManager.default.createFile(atPath: url.path, contents: nil)
        guard let handle = try? FileHandle(forWritingTo: url) else { return (url.path, 0) }
        defer { try? handle.close() }
        var head = "k,v\n"
        for i in 0..<50_000 { head += "\(i % 997),row \(i)\n" }
        try? handle.write(contentsOf: Data(head.utf8))
        if megabytes > 0 {
            let block = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
            for _ in 0..<megabytes { try? handle.write(contentsOf: block) }
            try? handle.write(contentsOf: Data(",the long cell\n".utf8))
        }
        try? handle.write(contentsOf: Data(head.dropFirst(4).utf8))
        return (url.path, Int((try? handle.offset()) ?? 0))
    }
    let plain = write("plain.csv", cell: 0)
    let base = median(runs) { run([CommandLine.arguments[0], "trellis", "sort", plain.path, "--by", "k", "-o", out]) }
    rows.append(("trellis sort, 100,000 rows, no long cell", format(base.wall), String(format: "peak %.0f MB", base.peakMB)))
    for megabytes in cellMB {
        let file = write("cell-\(megabytes).csv", cell: megabytes)
        let fileMB = Double(file.bytes) / Double(1 << 20)
        let once = median(runs) { run([CommandLine.arguments[0], "trellis", "sort", file.path, "--by", "k", "-o", out]) }
        let ratio = once.peakMB / fileMB
        rows.append(
            (
                "… with one \(megabytes) MB cell in the key column, at once", format(once.wall),
                String(format: "peak %.0f MB, %.2f× the file (target ≤ 5×)", once.peakMB, ratio)
            ))
        verdicts.append(
            String(
                format: "%d MB cell sorted at once: peak %.2f× its file — %@", megabytes, ratio,
                ratio <= 5 ? "meets ≤ 5×" : "MISSES ≤ 5×"))
        // Under a memory too small to hold the row in a sort in parts: refused, having held little.
        let small = "\(max(64, megabytes * 2))M"
        let refused = run([CommandLine.arguments[0], "trellis", "sort", file.path, "--by", "k", "--memory", small, "-o", out])
        rows.append(
            (
                "… under --memory \(small): refused", format(refused.wall),
                String(format: "exit %d; peak %.0f MB (the row is %d MB)", refused.status, refused.peakMB, megabytes)
            ))
        verdicts.append(
            String(
                format: "%d MB cell under --memory %@: exit %d, peak %.0f MB — %@", megabytes, small, refused.status,
                refused.peakMB,
                refused.status == 64 && refused.peakMB < Double(megabytes)
                    ? "refused before it was held"
                    : "NOT REFUSED EARLY"))
    }
    return (rows, verdicts)
}
