import Foundation
import TrellisCLI
@_spi(Instrumentation) import TrellisGrid
import TrellisRender
import TrellisText

/// `trellis sort` end to end — a process that reads a CSV file, sorts it and writes CSV — beside
/// pandas, polars and DuckDB doing the same read, sort and write of the same file in a process
/// of their own, and the ranking of distinct texts beside a plain hash–sort–map program.
///
/// Every figure is a median of `runs`; wall time is from starting the process to its exit, and
/// peak memory is the process's maximum resident set (read through GNU time where it is installed: `run`).
func sortCommandBenchmarks(runs: Int, sizes: [Int] = [100_000, 1_000_000]) -> [(String, String, String)] {
    var rows: [(String, String, String)] = []
    let folder = scratchFolder("trellis-sort-bench")
    defer { try? FileManager.default.removeItem(at: folder) }
    let peerScript = writePeerScript(in: folder)
    let pythonAvailable = run(["/usr/bin/env", "python3", "-c", "pass"]).status == 0

    for count in sizes {
        let csv = folder.appendingPathComponent("data-\(count).csv")
        try? Data(generatedCSV(rows: count).utf8).write(to: csv)
        let out = folder.appendingPathComponent("out.csv").path
        let label = count >= 1_000_000 ? "\(count / 1_000_000)M" : "\(count / 1000)k"
        let ours = median(runs) { run([CommandLine.arguments[0], "trellis", "sort", csv.path, "--by", "score:desc", "--format", "csv", "-o", out]) }
        rows.append(
            (
                "trellis sort \(label) rows by a decimal key, CSV to CSV", format(ours.wall),
                String(format: "peak %.0f MB; end to end; %.0f ns a row", ours.peakMB, ours.wall / Double(count) * 1e9)
            ))
        // The same file as Chinese Excel writes it (GB18030) and as its "Unicode 文本" (UTF-16LE
        // with a mark): decoding and encoding back must cost less than reading.
        for (encoding, name) in [(TextEncoding.gb18030, "GB18030"), (.utf16LittleEndian, "UTF-16LE with a mark")] where count == 1_000_000 {
            let encoded = folder.appendingPathComponent("data-\(count)-\(encoding.name).csv")
            let utf8 = (try? Data(contentsOf: csv)).map { [UInt8]($0) } ?? []
            guard let bytes = try? encoding.encode(utf8) else { continue }
            try? Data((encoding == .utf16LittleEndian ? encoding.byteOrderMark : []) + bytes).write(to: encoded)
            let m = median(runs) { run([CommandLine.arguments[0], "trellis", "sort", encoded.path, "--by", "score:desc", "--format", "csv", "-o", out]) }
            rows.append(
                (
                    "trellis sort \(label) rows by a decimal key, \(name) CSV to \(name) CSV", format(m.wall),
                    String(format: "%.2f× the UTF-8 file; peak %.0f MB", m.wall / ours.wall, m.peakMB)
                ))
            // The peers on the same file, reading and writing it in its encoding.
            guard pythonAvailable else { continue }
            for tool in ["pandas", "polars", "duckdb"] where run(["/usr/bin/env", "python3", "-c", "import \(tool)"]).status == 0 {
                var inScript: [Double] = []
                let codec = encoding == .gb18030 ? "gb18030" : "utf-16"
                // Ours and the peer in turn, so that the ratio is of one stretch of the machine's time.
                let pair = interleavedMedians(
                    runs,
                    [
                        { run([CommandLine.arguments[0], "trellis", "sort", encoded.path, "--by", "score:desc", "--format", "csv", "-o", out]) },
                        {
                            let result = run(["/usr/bin/env", "python3", peerScript.path, tool, encoded.path, out, "score", codec])
                            if let seconds = Double(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) { inScript.append(seconds) }
                            return result
                        },
                    ])
                guard !inScript.isEmpty else { continue }
                let work = inScript.sorted()[inScript.count / 2]
                rows.append(
                    (
                        "Peer: \(tool), the same \(name) file in its encoding", format(pair[1].wall),
                        String(
                            format: "ours %.2f× its end to end, %.2f× its read–sort–write alone (%@)",
                            pair[0].wall / pair[1].wall, pair[0].wall / work, format(work))
                    ))
            }
        }
        if count == 1_000_000 {
            // The text keys and the decimal key in turn, so that their ratios are of one stretch of
            // the machine's time (a busier minute would otherwise fall on one of them alone).
            let keys: [(key: [String], what: String)] = [
                (["score:desc"], ""), (["item"], "a natural text key (100,000 distinct)"),
                (["name", "--locale", "zh"], "zh collation (100,000 distinct)"),
            ]
            let timed = interleavedMedians(
                runs,
                keys.map { key in
                    { run([CommandLine.arguments[0], "trellis", "sort", csv.path, "--by"] + key.key + ["--format", "csv", "-o", out]) }
                })
            for k in 1..<keys.count {
                rows.append(
                    (
                        "trellis sort \(label) rows by \(keys[k].what)", format(timed[k].wall),
                        String(
                            format: "%.2f× the decimal key in turn with it (%@; target ≤ 1.3×)", timed[k].wall / timed[0].wall,
                            format(timed[0].wall))
                    ))
            }
        }
        if count == 1_000_000 { rows += phaseBenchmark(csv: csv, out: out, runs: runs, python: pythonAvailable, folder: folder) }
        guard count <= 1_000_000 else {
            rows.append(("Peers at \(label) rows", "not run", "minutes each; the peers are compared at 100k and 1M"))
            continue
        }
        guard pythonAvailable else {
            rows.append(("Peers: pandas, polars, DuckDB", "skipped", "python3 could not be started"))
            continue
        }
        for tool in ["pandas", "polars", "duckdb"] {
            let probe = run(["/usr/bin/env", "python3", "-c", "import \(tool)"])
            guard probe.status == 0 else {
                rows.append(("Peer: \(tool), \(label) rows", "skipped", "\(tool) is not installed (pip install \(tool))"))
                continue
            }
            var inScript: [Double] = []
            // Ours and the peer in turn (see above).
            let pair = interleavedMedians(
                runs,
                [
                    { run([CommandLine.arguments[0], "trellis", "sort", csv.path, "--by", "score:desc", "--format", "csv", "-o", out]) },
                    {
                        let result = run(["/usr/bin/env", "python3", peerScript.path, tool, csv.path, out, "score"])
                        if let seconds = Double(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) { inScript.append(seconds) }
                        return result
                    },
                ])
            guard !inScript.isEmpty else {
                rows.append(("Peer: \(tool), \(label) rows", "failed", "the script printed no time"))
                continue
            }
            let work = inScript.sorted()[inScript.count / 2]
            rows.append(
                (
                    "Peer: \(tool) read, sort by the decimal key, write CSV, \(label) rows", format(pair[1].wall),
                    String(
                        format: "ours %.2f× its end to end, %.2f× its read–sort–write alone (%@); peak %.0f MB (ours %.0f MB)",
                        pair[0].wall / pair[1].wall, pair[0].wall / work, format(work), pair[1].peakMB, pair[0].peakMB)
                ))
        }
    }
    rows += rankingBenchmark(runs: runs)
    return rows
}

/// Where the time of a sort of `csv` by its decimal key goes — reading and typing the file,
/// making the key and sorting, writing CSV — done in this process with the library the command
/// runs, beside the same three steps of polars timed inside its own process, in the same run.
func phaseBenchmark(csv: URL, out: String, runs: Int, python: Bool, folder: URL) -> [(String, String, String)] {
    var read: [Double] = [], sort: [Double] = [], write: [Double] = []
    let clock = ContinuousClock()
    for _ in 0..<runs {
        var start = clock.now
        // Read as the command reads it for a sort to CSV: the key column only.
        guard let bytes = try? Data(contentsOf: csv),
            let table = try? CSV.table(
                bytes: [UInt8](bytes),
                reading: { columns in
                    Set(columns.indices.filter { columns[$0].identifier == "score" })
                })
        else { return [] }
        read.append(Measurement.seconds(clock.now - start))
        start = clock.now
        let grid = DataGrid(bound: table)
        guard (try? grid.sort(by: [SortKey("score", .descending)])) != nil else { return [] }
        sort.append(Measurement.seconds(clock.now - start))
        start = clock.now
        let descriptor = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let output = TextOutput(.fileDescriptor(descriptor))
        GridRenderer.writeCSV(grid, neutralizeFormulas: false, to: output)
        try? output.finish()
        close(descriptor)
        write.append(Measurement.seconds(clock.now - start))
    }
    func middle(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    var peer: [Double] = []
    let script = folder.appendingPathComponent("phases.py")
    if python, (try? Data(polarsPhases.utf8).write(to: script)) != nil {
        var samples: [[Double]] = []
        for _ in 0..<runs {
            let result = run(["/usr/bin/env", "python3", script.path, csv.path, out])
            let numbers = result.output.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            if result.status == 0, numbers.count == 3 { samples.append(numbers) }
        }
        if !samples.isEmpty { peer = (0..<3).map { k in middle(samples.map { $0[k] }) } }
    }
    let ours = [middle(read), middle(sort), middle(write)]
    return zip(["read and type the file", "make the key and sort", "write CSV"], ours.indices).map { name, k in
        (
            "Phase of a 1M-row sort by the decimal key: \(name)", format(ours[k]),
            peer.isEmpty ? "polars not run" : String(format: "polars' same step %@: ours %.2f×", format(peer[k]), ours[k] / peer[k])
        )
    }
}

/// polars' read, sort and write of a file, each timed: three numbers of seconds.
let polarsPhases = """
    import sys, time
    import polars as pl
    src, dst = sys.argv[1:3]
    t0 = time.perf_counter()
    df = pl.read_csv(src)
    t1 = time.perf_counter()
    df = df.sort("score", descending=True, nulls_last=True, maintain_order=True)
    t2 = time.perf_counter()
    df.write_csv(dst)
    t3 = time.perf_counter()
    print(f"{t1 - t0:.4f} {t2 - t1:.4f} {t3 - t2:.4f}")
    """

/// Ranking 1M text cells of 100,000 distinct values in natural order, against a plain program
/// of the same run: a dictionary of the distinct strings, `sort()`, and a map back.
func rankingBenchmark(runs: Int) -> [(String, String, String)] {
    var state: UInt64 = 99
    func next(_ bound: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(bound))
    }
    let texts = (0..<1_000_000).map { _ in "item\(next(100_000))" }
    let csv = "item\n" + texts.joined(separator: "\n") + "\n"
    let table = try! CSV.table(Data(csv.utf8))
    let plain = measure("Baseline: hash, sort and map back 1M texts (100,000 distinct)", runs: runs) {
        var index: [String: Int32] = [:]
        var distinct: [String] = []
        let ids = texts.map { text -> Int32 in
            if let id = index[text] { return id }
            index[text] = Int32(distinct.count)
            distinct.append(text)
            return Int32(distinct.count - 1)
        }
        let order = distinct.indices.sorted { distinct[$0] < distinct[$1] }
        var rank = [Int32](repeating: 0, count: distinct.count)
        for (r, i) in order.enumerated() { rank[i] = Int32(r) }
        blackHole(ids.map { rank[Int($0)] })
    }
    let ours = measure("Natural ranks of the same 1M cells (the sort's text codes)", runs: runs) {
        blackHole(SortEngine.textCodes(of: table, column: 0, comparator: .natural))
    }
    let people = try! CSV.table(Data(generatedCSV(rows: 1_000_000).utf8))
    let zh = measure("zh ranks of 1M Chinese names (100,000 distinct)", runs: runs) {
        blackHole(SortEngine.textCodes(of: people, column: 2, comparator: .localized("zh")))
    }
    let base = Measurement.seconds(plain.median)
    return [
        (plain.name, format(base), "baseline"),
        (
            ours.name, format(Measurement.seconds(ours.median)),
            String(format: "%.2f× the plain program (target ≤ 1.5×)", Measurement.seconds(ours.median) / base)
        ),
        (
            zh.name, format(Measurement.seconds(zh.median)),
            String(format: "%.2f× the plain program", Measurement.seconds(zh.median) / base)
        ),
    ]
}

/// What one child process took.
struct ProcessResult {
    var status: Int32
    var wall: Double
    var peakMB: Double
    var output: String
}

/// Runs a process to its end, timing it and reading its peak memory; with `discardingOutput` its
/// standard output goes to /dev/null (ten million elements are 1.5 GB of JSON) and is not read.
///
/// The peak is read through GNU time where it is installed: a child started straight from this
/// process is charged, on Linux, with this process's own peak up to the moment it started
/// (its memory before it replaced itself with the program), which after a large input was made
/// here is larger than many a program's. GNU time's child starts from GNU time's small process.
func run(_ arguments: [String], discardingOutput: Bool = false) -> ProcessResult {
    let timer = "/usr/bin/time"
    guard FileManager.default.isExecutableFile(atPath: timer) else { return spawnAndWait(arguments, discardingOutput: discardingOutput) }
    let report = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-bench-peak-\(getpid())").path
    var result = spawnAndWait([timer, "-f", "%M", "-o", report] + arguments, discardingOutput: discardingOutput)
    if let text = try? String(contentsOfFile: report, encoding: .utf8),
        let kilobytes = text.split(separator: "\n").last.flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) })
    {
        result.peakMB = kilobytes / 1024
    }
    try? FileManager.default.removeItem(atPath: report)
    return result
}

/// ``run(_:discardingOutput:)`` without GNU time: the peak is the child's own account.
func spawnAndWait(_ arguments: [String], discardingOutput: Bool) -> ProcessResult {
    let clock = ContinuousClock()
    let start = clock.now
    var pid: pid_t = 0
    var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    let capture =
        discardingOutput
        ? "/dev/null"
        : FileManager.default.temporaryDirectory.appendingPathComponent("trellis-bench-out-\(getpid())").path
    posix_spawn_file_actions_addopen(&actions, 1, capture, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    guard posix_spawn(&pid, arguments[0], &actions, nil, argv, environ) == 0 else {
        return ProcessResult(status: -1, wall: 0, peakMB: 0, output: "")
    }
    var status: Int32 = 0
    var usage = rusage()
    wait4(pid, &status, 0, &usage)
    let wall = Measurement.seconds(clock.now - start)
    let output = discardingOutput ? "" : (try? String(contentsOfFile: capture, encoding: .utf8)) ?? ""
    return ProcessResult(status: (status >> 8) & 0xFF, wall: wall, peakMB: Double(usage.ru_maxrss) / 1024, output: output)
}

/// The median wall time and peak memory of `runs` runs.
func median(_ runs: Int, _ body: () -> ProcessResult) -> (wall: Double, peakMB: Double) {
    withoutActuallyEscaping(body) { body in
        let result = interleavedMedians(runs, [body])[0]
        return (result.wall, result.peakMB)
    }
}

/// The median wall time and peak memory of each of `bodies`, run in turn `runs` times (one run
/// of each, then the next round): a slower minute of the machine falls on all of them alike,
/// which a ratio between them needs.
func interleavedMedians(_ runs: Int, _ bodies: [() -> ProcessResult]) -> [(wall: Double, peakMB: Double, walls: [Double])] {
    var results = bodies.map { _ in [ProcessResult]() }
    // Each round starts one body later: a run right after a heavier one (whose memory the system
    // is still taking back) is measured slower, and no body should always follow the same one.
    for round in 0..<runs {
        for j in bodies.indices {
            let k = (round + j) % bodies.count
            results[k].append(bodies[k]())
        }
    }
    return results.map { runsOfOne in
        let walls = runsOfOne.map(\.wall), peaks = runsOfOne.map(\.peakMB).sorted()
        return (walls.sorted()[runs / 2], peaks[runs / 2], walls)
    }
}

/// The median of the ratios of `a`'s and `b`'s wall times run by run (each run of one beside the
/// same run of the other, under the same load): a ratio that a machine's load drifting between
/// runs moves less than the ratio of the two medians.
func pairedRatio(_ a: (wall: Double, peakMB: Double, walls: [Double]), _ b: (wall: Double, peakMB: Double, walls: [Double])) -> Double {
    let ratios = zip(a.walls, b.walls).map { $0 / $1 }.sorted()
    return ratios.isEmpty ? a.wall / b.wall : ratios[ratios.count / 2]
}

/// A new folder of the benchmark process's own under the temporary directory (the caller removes it).
func scratchFolder(_ name: String) -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// The peers' script (``peerSource``), written into `folder`.
func writePeerScript(in folder: URL) -> URL {
    let script = folder.appendingPathComponent("peer.py")
    try? Data(peerSource.utf8).write(to: script)
    return script
}

/// A table of `rows` rows: an integer id, a natural text key of 100,000 distinct values, Chinese
/// names (100,000 distinct), a decimal score with 5% blanks, and a note (some quoted).
func generatedCSV(rows: Int) -> String {
    var state: UInt64 = 7
    func next(_ bound: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(bound))
    }
    let surnames = Array("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤")
    let given = Array("伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰萍红鹏飞斌宇浩凯健俊帆")
    let names = (0..<100_000).map { n in
        String([
            surnames[n % surnames.count], given[(n / surnames.count) % given.count],
            given[(n / (surnames.count * given.count)) % given.count],
        ])
    }
    let notes = ["", "ok", "needs review", "\"late, excused\"", "第一"]
    var out = "id,item,name,score,note\n"
    out.reserveCapacity(rows * 42)
    for i in 0..<rows {
        let score = next(20) == 0 ? "" : String(format: "%.2f", Double(next(10_000)) / 100)
        out += "\(i + 1),item\(next(100_000)),\(names[next(100_000)]),\(score),\(notes[next(notes.count)])\n"
    }
    return out
}

/// The peers' side: each reads the file, sorts it by the key, descending with blanks last and
/// ties in file order where it can, writes CSV, and prints how long that took.
let peerSource = """
    import io, os, sys, time
    tool, src, dst, key = sys.argv[1:5]
    # An encoding other than UTF-8 (gb18030, utf-16): read in it and written back in it. pandas does
    # both itself; polars reads only UTF-8 and DuckDB has no GB 18030 without a downloaded extension,
    # so they decode and encode with Python's codecs, inside the timed part.
    enc = sys.argv[5] if len(sys.argv) > 5 else None
    if tool == "pandas":
        import pandas as pd
        t = time.perf_counter()
        df = pd.read_csv(src, dtype={"item": str, "name": str, "note": str}, keep_default_na=False, na_values=[""], encoding=enc)
        df.sort_values(key, ascending=False, na_position="last", kind="stable").to_csv(dst, index=False, encoding=enc)
    elif tool == "polars":
        import polars as pl
        t = time.perf_counter()
        if enc is None:
            pl.read_csv(src).sort(key, descending=True, nulls_last=True, maintain_order=True).write_csv(dst)
        else:
            text = open(src, "rb").read().decode(enc).encode("utf-8")
            out = pl.read_csv(io.BytesIO(text)).sort(key, descending=True, nulls_last=True, maintain_order=True).write_csv()
            open(dst, "wb").write(out.encode(enc))
    else:
        import duckdb
        t = time.perf_counter()
        if enc is None:
            duckdb.connect().execute(f"COPY (SELECT * FROM read_csv_auto('{src}') ORDER BY {key} DESC NULLS LAST) TO '{dst}' (HEADER)")
        else:
            plain_in, plain_out = dst + ".in.csv", dst + ".out.csv"
            open(plain_in, "wb").write(open(src, "rb").read().decode(enc).encode("utf-8"))
            duckdb.connect().execute(f"COPY (SELECT * FROM read_csv_auto('{plain_in}') ORDER BY {key} DESC NULLS LAST) TO '{plain_out}' (HEADER)")
            open(dst, "wb").write(open(plain_out, "rb").read().decode("utf-8").encode(enc))
            os.remove(plain_in)
            os.remove(plain_out)
    print(f"{time.perf_counter() - t:.4f}")
    """
