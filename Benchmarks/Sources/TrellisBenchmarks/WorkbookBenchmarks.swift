import Foundation
import TrellisText
import TrellisWorkbook

/// `trellis sort` of an `.xlsx` sheet end to end — read, sorted by a decimal column, written as
/// CSV, and written back as `.xlsx` — beside python-calamine (Rust; the fastest reader there is)
/// and openpyxl's read-only mode each reading the same sheet to rows in its own process, in turn
/// in one run. The sheet: `count` rows of 10 columns (an id, shared-string names and regions, a
/// `yyyy-mm-dd` date, decimals in `#,##0.00` and `0.00%`, whole numbers, codes and notes).
func workbookBenchmarks(runs: Int, count: Int) -> (rows: [(String, String, String)], verdicts: [String]) {
    var rows: [(String, String, String)] = []
    var verdicts: [String] = []
    let folder = scratchFolder("trellis-workbook-bench")
    defer { try? FileManager.default.removeItem(at: folder) }
    let label = count >= 1_000_000 ? "\(count / 1_000_000)M" : "\(count / 1000)k"
    let book = folder.appendingPathComponent("sheet.xlsx")
    let sheetMB: Double
    do {
        let (bytes, xml) = try generatedWorkbook(rows: count)
        try Data(bytes).write(to: book)
        sheetMB = Double(xml) / 1_048_576
    } catch {
        return ([("workbook", "skipped", "the workbook could not be made: \(error)")], [])
    }
    let fileMB = Double(((try? FileManager.default.attributesOfItem(atPath: book.path)[.size]) as? Int) ?? 0) / 1_048_576
    let trellis = CommandLine.arguments[0]
    let csv = folder.appendingPathComponent("out.csv").path
    let xlsx = folder.appendingPathComponent("out.xlsx").path
    let peers = folder.appendingPathComponent("peers.py")
    try? Data(
        """
        import sys
        which, path = sys.argv[1], sys.argv[2]
        if which == "calamine":
            from python_calamine import CalamineWorkbook
            rows = CalamineWorkbook.from_path(path).get_sheet_by_index(0).to_python()
        else:
            import openpyxl
            rows = list(openpyxl.load_workbook(path, read_only=True).active.iter_rows(values_only=True))
        print(len(rows))
        """.utf8
    ).write(to: peers)
    // Each peer: its argument to the script, the module it imports, what it is called, and the
    // most our time may be of its.
    let peerList: [(which: String, module: String, name: String, atMost: Double)] = [
        ("calamine", "python_calamine", "python-calamine", 1), ("openpyxl", "openpyxl", "openpyxl read-only", 0.25),
    ]
    let present = peerList.map { run(["/usr/bin/env", "python3", "-c", "import \($0.module)"]).status == 0 }
    var commands: [() -> ProcessResult] = [
        { run([trellis, "trellis", "sort", book.path, "--by", "amount:desc", "-o", csv]) },
        { run([trellis, "trellis", "sort", book.path, "--by", "amount:desc", "-o", xlsx]) },
    ]
    for (peer, there) in zip(peerList, present) where there {
        commands.append { run(["/usr/bin/env", "python3", peers.path, peer.which, book.path]) }
    }
    let timed = interleavedMedians(runs, commands)
    let ours = timed[0]
    rows.append(
        (
            "trellis sort \(label) rows × 10 of an .xlsx to CSV", format(ours.wall),
            String(
                format: "peak %.0f MB, %.2f× the sheet's XML of %.0f MB (target ≤ 2×; the file %.0f MB)", ours.peakMB, ours.peakMB / sheetMB,
                sheetMB, fileMB)
        ))
    verdicts.append(
        String(
            format: "peak memory reading the sheet: %.2f× its XML — %@ ≤ 2×", ours.peakMB / sheetMB, ours.peakMB / sheetMB <= 2 ? "meets" : "misses"))
    rows.append(
        (
            "… written back as .xlsx, only its rows moved", format(timed[1].wall),
            String(format: "%.2f× the CSV output in turn with it (target ≤ 2×); peak %.0f MB", timed[1].wall / ours.wall, timed[1].peakMB)
        ))
    verdicts.append(
        String(
            format: "writing the sorted .xlsx: %.2f× the CSV output — %@ ≤ 2×", timed[1].wall / ours.wall,
            timed[1].wall / ours.wall <= 2 ? "meets" : "misses"))
    var k = 2
    for (peer, there) in zip(peerList, present) {
        guard there else {
            rows.append((peer.name, "skipped", "pip install \(peer.module.replacingOccurrences(of: "_", with: "-"))"))
            continue
        }
        let timing = timed[k]
        k += 1
        rows.append(
            (
                "\(peer.name) reading the sheet to rows (its whole process)", format(timing.wall),
                String(
                    format: "%.2f× ours in turn with it (target: ours ≤ %@×); peak %.0f MB", ours.wall / timing.wall,
                    String(format: "%g", peer.atMost), timing.peakMB)
            ))
        verdicts.append(
            String(
                format: "reading, sorting and writing the sheet: %.2f× %@'s reading it — %@ ≤ %@×", ours.wall / timing.wall, peer.name,
                ours.wall <= peer.atMost * timing.wall ? "meets" : "misses", String(format: "%g", peer.atMost)))
    }
    return (rows, verdicts)
}

/// An `.xlsx` of one sheet of `rows` rows × 10 columns as Excel lays one out (shared strings,
/// styles with number formats, a `<dimension>`), and the size of its sheet XML.
func generatedWorkbook(rows: Int) throws -> ([UInt8], Int) {
    var random = BenchmarkRandom(seed: 20261205)
    let regions = ["华东", "华北", "华南", "西南", "东北", "西北", "华中"]
    var strings: [String] = ["id", "name", "region", "date", "amount", "rate", "qty", "score", "code", "note"] + regions
    let names = 50_000
    for i in 0..<names { strings.append("name\(i)") }
    let notes = 97
    for i in 0..<notes { strings.append("备注\(i)") }
    var sheet = [UInt8]()
    sheet.reserveCapacity(rows * 260)
    func add(_ s: String) { sheet.append(contentsOf: s.utf8) }
    add(
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\">"
            + "<dimension ref=\"A1:J\(rows + 1)\"/><sheetData><row r=\"1\">")
    for (c, letter) in "ABCDEFGHIJ".enumerated() { add("<c r=\"\(letter)1\" t=\"s\"><v>\(c)</v></c>") }
    add("</row>")
    for r in 2...(rows + 1) {
        let region = 10 + Int(random.next() % UInt64(regions.count))
        let name = 10 + regions.count + Int(random.next() % UInt64(names))
        let note = 10 + regions.count + names + r % notes
        let amount = Double(random.next() % 10_000_000) / 100
        let rate = Double(random.next() % 1_000_000) / 1_000_000
        add(
            "<row r=\"\(r)\"><c r=\"A\(r)\"><v>\(r - 1)</v></c><c r=\"B\(r)\" t=\"s\"><v>\(name)</v></c><c r=\"C\(r)\" t=\"s\"><v>\(region)</v></c>"
                + "<c r=\"D\(r)\" s=\"1\"><v>\(43_000 + Int(random.next() % 3000))</v></c><c r=\"E\(r)\" s=\"2\"><v>\(amount)</v></c>"
                + "<c r=\"F\(r)\" s=\"3\"><v>\(rate)</v></c><c r=\"G\(r)\"><v>\(random.next() % 500)</v></c>"
                + "<c r=\"H\(r)\"><v>\(random.next() % 101)</v></c><c r=\"I\(r)\" t=\"inlineStr\"><is><t>C\(random.next() % 100_000)</t></is></c>"
                + "<c r=\"J\(r)\" t=\"s\"><v>\(note)</v></c></row>")
    }
    add("</sheetData></worksheet>")
    var shared = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<sst xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\">"
    for s in strings { shared += "<si><t>\(s)</t></si>" }
    shared += "</sst>"
    let relationships = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    let parts: [(String, String)] = [
        (
            "[Content_Types].xml",
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">"
                + "<Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/>"
                + "<Default Extension=\"xml\" ContentType=\"application/xml\"/>"
                + "<Override PartName=\"/xl/workbook.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml\"/>"
                + "<Override PartName=\"/xl/worksheets/sheet1.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml\"/>"
                + "<Override PartName=\"/xl/styles.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml\"/>"
                + "<Override PartName=\"/xl/sharedStrings.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml\"/>"
                + "</Types>"
        ),
        (
            "_rels/.rels",
            "<?xml version=\"1.0\"?><Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
                + "<Relationship Id=\"rId1\" Type=\"\(relationships)/officeDocument\" Target=\"xl/workbook.xml\"/></Relationships>"
        ),
        (
            "xl/workbook.xml",
            "<?xml version=\"1.0\"?><workbook xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" xmlns:r=\"\(relationships)\">"
                + "<sheets><sheet name=\"data\" sheetId=\"1\" r:id=\"rId1\"/></sheets></workbook>"
        ),
        (
            "xl/_rels/workbook.xml.rels",
            "<?xml version=\"1.0\"?><Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
                + "<Relationship Id=\"rId1\" Type=\"\(relationships)/worksheet\" Target=\"worksheets/sheet1.xml\"/>"
                + "<Relationship Id=\"rId2\" Type=\"\(relationships)/styles\" Target=\"styles.xml\"/>"
                + "<Relationship Id=\"rId3\" Type=\"\(relationships)/sharedStrings\" Target=\"sharedStrings.xml\"/></Relationships>"
        ),
        (
            "xl/styles.xml",
            "<?xml version=\"1.0\"?><styleSheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\">"
                + "<numFmts count=\"1\"><numFmt numFmtId=\"164\" formatCode=\"yyyy-mm-dd\"/></numFmts>"
                + "<cellXfs count=\"4\"><xf numFmtId=\"0\"/><xf numFmtId=\"164\" applyNumberFormat=\"1\"/><xf numFmtId=\"4\" applyNumberFormat=\"1\"/>"
                + "<xf numFmtId=\"10\" applyNumberFormat=\"1\"/></cellXfs></styleSheet>"
        ),
        ("xl/sharedStrings.xml", shared),
    ]
    var writer = ZipWriter()
    for (name, text) in parts { try writer.add(name, Array(text.utf8)) }
    try writer.add("xl/worksheets/sheet1.xml", sheet)
    return (try writer.finish(), sheet.count)
}
