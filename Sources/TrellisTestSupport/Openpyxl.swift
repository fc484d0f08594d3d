import Foundation

/// openpyxl (Python's most used `.xlsx` library) for tests: a workbook a test wrote, reopened as
/// the scripts our users run would open it.
public enum Openpyxl {
    /// `python3` where it imports openpyxl (Debian's python3-openpyxl, or pip's), or nil with
    /// the reason printed.
    public static let python: String? = {
        // The PATH's first, as a user's script runs, then the system's.
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/local/bin", "/usr/bin"]
        let found = folders.map { $0 + "/python3" }.first { path in
            FileManager.default.isExecutableFile(atPath: path)
                && (try? ChildProcess.run([path, "-c", "import openpyxl"], mergeStandardError: true, timeout: 60).status) == 0
        }
        if found == nil { print("openpyxl checks skipped: python3 cannot import openpyxl (Debian's python3-openpyxl)") }
        return found
    }()

    /// The cells of the sheet at `sheet` (from 0) of the `.xlsx` `bytes` as openpyxl loads them,
    /// row by row: a formula as its text (`=SUM(C2:D2)`), or with `savedValues` the value the
    /// workbook saved for it; numbers as Python writes them, empty cells as "".
    public static func rows(of bytes: [UInt8], sheet: Int = 0, savedValues: Bool = false) throws -> [[String]] {
        guard let python else { throw LibreOffice.SpawnFailure(description: "openpyxl is not installed") }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-openpyxl-\(UUID().uuidString).xlsx")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let script = """
            import json, sys, openpyxl
            wb = openpyxl.load_workbook(sys.argv[1], data_only=sys.argv[3] == "1")
            ws = wb.worksheets[int(sys.argv[2])]
            print(json.dumps([["" if c is None else str(c) for c in row] for row in ws.iter_rows(values_only=True)], ensure_ascii=False))
            """
        let result = try ChildProcess.run([python, "-c", script, file.path, String(sheet), savedValues ? "1" : "0"], timeout: 120)
        guard result.status == 0, let rows = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String]] else {
            throw LibreOffice.SpawnFailure(description: "openpyxl could not load the workbook (status \(result.status)): \(result.output)")
        }
        return rows
    }
}
