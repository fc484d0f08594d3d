import Foundation

/// `trellis sort --memory` on a file larger than the memory it is given, beside the tools that
/// sort in parts too, in the same run: GNU sort with the same key, memory and temporary folder,
/// and DuckDB with a memory limit and a temporary directory; and `trellis sort` with all the
/// memory it wants, whose output the sort in parts must equal byte for byte.
func externalSortBenchmarks(rows: Int, memory: String, runs: Int) -> (rows: [(String, String, String)], verdicts: [String]) {
    var table: [(String, String, String)] = []
    var verdicts: [String] = []
    let folder = scratchFolder("trellis-external-bench")
    defer { try? FileManager.default.removeItem(at: folder) }
    let label = rows >= 1_000_000 ? "\(rows / 1_000_000)M" : "\(rows / 1000)k"
    let csv = folder.appendingPathComponent("data.csv")
    try? Data(generatedCSV(rows: rows).utf8).write(to: csv)
    let fileMB = Double((try? FileManager.default.attributesOfItem(atPath: csv.path)[.size] as? Int) ?? 0) / 1_048_576
    let inParts = folder.appendingPathComponent("parts.csv").path, atOnce = folder.appendingPathComponent("once.csv").path
    let limitMB = Double(memory.dropLast()).map { memory.uppercased().hasSuffix("G") ? $0 * 1024 : $0 } ?? 0

    // GNU sort: the header kept first, the rest by the 4th field as a number, descending, stable;
    // the same memory and a temporary folder beside the output.
    let gnu = folder.appendingPathComponent("gnu.csv").path
    let script = "(head -n 1 '\(csv.path)'; tail -n +2 '\(csv.path)' | LC_ALL=C sort -t, -k4,4gr -s -S \(memory) -T '\(folder.path)') > '\(gnu)'"
    // DuckDB with a memory limit, spilling to a temporary directory.
    let duck = folder.appendingPathComponent("duck.csv").path
    let program = """
        import duckdb, time
        c = duckdb.connect()
        c.execute("SET memory_limit='\(memory)B'")
        c.execute("SET temp_directory='\(folder.path)/duck.tmp'")
        c.execute("SET preserve_insertion_order=true")
        t = time.perf_counter()
        c.execute("COPY (SELECT * FROM read_csv_auto('\(csv.path)') ORDER BY score DESC NULLS LAST) TO '\(duck)' (HEADER)")
        print(f"{time.perf_counter() - t:.4f}")
        """
    let hasDuckDB = run(["/usr/bin/env", "python3", "-c", "import duckdb"]).status == 0
    // The four in turn, one run of each per round, so that their ratios are of one stretch of the
    // machine's time.
    var commands: [() -> ProcessResult] = [
        { run([CommandLine.arguments[0], "trellis", "sort", csv.path, "--by", "score:desc", "--memory", memory, "-o", inParts]) },
        { run([CommandLine.arguments[0], "trellis", "sort", csv.path, "--by", "score:desc", "-o", atOnce]) },
        { run(["/bin/sh", "-c", script]) },
    ]
    if hasDuckDB { commands.append { run(["/usr/bin/env", "python3", "-c", program]) } }
    let timed = interleavedMedians(runs, commands)
    let (parts, once, gnuSort) = (timed[0], timed[1], timed[2])
    table.append(
        (
            "trellis sort --memory \(memory), \(label) rows (\(String(format: "%.0f", fileMB)) MB)", format(parts.wall),
            String(
                format: "peak %.0f MB (%.2f× the limit, %.2f× the file)", parts.peakMB, parts.peakMB / max(limitMB, 1),
                parts.peakMB / max(fileMB, 1))
        ))
    table.append(
        (
            "trellis sort at once (no --memory), same file", format(once.wall),
            String(format: "peak %.0f MB; in parts takes %.2f× its time", once.peakMB, parts.wall / once.wall)
        ))
    let same = FileManager.default.contentsEqual(atPath: inParts, andPath: atOnce)
    verdicts.append(
        "sort in parts under --memory \(memory): output \(same ? "byte-identical to" : "DIFFERENT from") the sort at once; "
            + String(format: "peak %.0f MB for a %.0f MB file", parts.peakMB, fileMB))
    table.append(
        (
            "GNU sort -t, -k4,4gr -s -S \(memory) (C locale), same file", format(gnuSort.wall),
            String(format: "peak %.0f MB; ours %.2f× its time", gnuSort.peakMB, parts.wall / gnuSort.wall)
        ))
    if hasDuckDB {
        let duckdb = timed[3]
        table.append(
            (
                "DuckDB, memory_limit \(memory), same file (its whole process)", format(duckdb.wall),
                String(format: "peak %.0f MB; ours %.2f× its time", duckdb.peakMB, parts.wall / duckdb.wall)
            ))
    }
    return (table, verdicts)
}
