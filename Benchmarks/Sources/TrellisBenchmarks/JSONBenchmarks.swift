import Foundation
import TrellisCLI
import TrellisCollectionView
import TrellisRender
import TrellisText

/// `trellis layout`'s reading and writing of 1M-item documents, side by side with Python's
/// orjson on the same files: the spec read (`LayoutSpec.parse` against `orjson.loads`), the
/// output written (`LayoutRun.writeJSON` streaming to `/dev/null` against `orjson.dumps` of the
/// same output document written to `/dev/null`), and the command end to end.
func jsonBenchmarks(runs: Int, sizes: [CGSize]) -> [(String, String, String)] {
    var rows: [(String, String, String)] = []
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-json-bench-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let specURL = folder.appendingPathComponent("spec.json")
    let outputURL = folder.appendingPathComponent("layout.json")

    // The spec, as a user would write it: one object per item.
    var text =
        #"{"collectionView": {"width": 375, "height": 800}, "layout": {"type": "flow", "#
        + #""itemSize": {"width": 50, "height": 50}, "minimumLineSpacing": 10, "minimumInteritemSpacing": 10}, "#
        + #""sections": [{"items": ["#
    text.reserveCapacity(sizes.count * 32)
    for (i, size) in sizes.enumerated() {
        if i > 0 { text += ", " }
        text += "{\"width\": \(JSONValue.format(Double(size.width))), \"height\": \(JSONValue.format(Double(size.height)))}"
    }
    text += "]}]}\n"
    let specData = Data(text.utf8)
    try? specData.write(to: specURL)

    var spec: LayoutSpec?
    let read = measure("LayoutSpec.parse, 1M-item spec (\(specData.count / 1_000_000) MB)", runs: runs) {
        spec = try? LayoutSpec.parse(specData)
    }
    guard let spec, let run = try? LayoutRun.run(spec, rect: nil) else {
        return [("JSON benchmarks", "failed", "the generated spec did not parse or lay out")]
    }
    let readSeconds = Measurement.seconds(read.median)
    rows.append((read.name, format(readSeconds), "median of \(runs)"))

    let devNull = open("/dev/null", O_WRONLY)
    defer { close(devNull) }
    let write = measure("LayoutRun.writeJSON, 1M elements streamed to /dev/null", runs: runs) {
        let out = TextOutput(.fileDescriptor(devNull))
        run.writeJSON(to: out)
        try? out.finish()
    }
    let writeSeconds = Measurement.seconds(write.median)
    rows.append((write.name, format(writeSeconds), "median of \(runs)"))

    let end = measure("trellis layout spec.json -o layout.json (in process, file to file)", runs: runs) {
        var io = CommandIO()
        _ = TrellisCommandLine.run(["layout", specURL.path, "-o", outputURL.path], io: &io)
    }
    let outputBytes = (try? FileManager.default.attributesOfItem(atPath: outputURL.path)[.size] as? Int) ?? 0
    rows.append(
        (
            end.name, format(Measurement.seconds(end.median)),
            "median of \(runs); \(outputBytes / 1_000_000) MB written"
        ))

    // The peer, on the same two files.
    let script = """
        import sys, time, os
        try:
            import orjson
        except ImportError:
            print("missing"); sys.exit(0)
        spec = open(sys.argv[1], "rb").read()
        out = open(sys.argv[2], "rb").read()
        runs = int(sys.argv[3])
        def median(f):
            times = []
            for _ in range(runs):
                t = time.perf_counter(); f(); times.append(time.perf_counter() - t)
            return sorted(times)[len(times) // 2]
        loads = median(lambda: orjson.loads(spec))
        doc = orjson.loads(out)
        sink = open(os.devnull, "wb")
        dumps = median(lambda: sink.write(orjson.dumps(doc)))
        print(loads, dumps, len(orjson.dumps(doc)))
        """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, specURL.path, outputURL.path, String(runs)]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = Pipe()
    let peerRead = "Peer: orjson.loads, the same spec"
    let peerWrite = "Peer: orjson.dumps of the same output document, written to /dev/null"
    do { try process.run() } catch {
        return rows + [(peerRead, "skipped", "python3 could not be started")]
    }
    let reply = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        .trimmingCharacters(in: .whitespacesAndNewlines)
    process.waitUntilExit()
    let fields = reply.split(separator: " ").compactMap { Double($0) }
    guard fields.count == 3 else {
        let why = reply == "missing" ? "orjson is not installed (pip install orjson)" : "orjson failed"
        return rows + [(peerRead, "skipped", why)]
    }
    let (loads, dumps) = (fields[0], fields[1])
    rows.append((peerRead, format(loads), String(format: "ours is %.2f× orjson (target ≤ 2×)", readSeconds / loads)))
    rows.append(
        (
            peerWrite, format(dumps),
            String(
                format: "ours is %.2f× orjson (target ≤ 2×); orjson writes %d MB compact",
                writeSeconds / dumps, Int(fields[2]) / 1_000_000)
        ))
    return rows
}
