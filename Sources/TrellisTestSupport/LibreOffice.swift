import Foundation

/// LibreOffice headless for tests: a workbook a test wrote, reopened by the program users have
/// and exported as the cells show (recalculated where it recalculates).
public enum LibreOffice {
    /// `soffice`, or nil (with the reason printed) where LibreOffice is not installed.
    public static let path: String? = {
        let found = ["/usr/bin/soffice", "/usr/bin/libreoffice", "/usr/local/bin/soffice"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        if found == nil { print("LibreOffice checks skipped: soffice is not installed (Debian's libreoffice-calc-nogui)") }
        return found
    }()

    /// Sheet `sheet` (from 1) of the workbook `bytes` as LibreOffice exports it to CSV: UTF-8,
    /// commas, the cells' shown text. Each call has a profile of its own, so that tests may run
    /// it side by side.
    public static func shownCSV(of bytes: [UInt8], name: String = "book.xlsx", sheet: Int = 1) throws -> String {
        guard let path else { throw SpawnFailure(description: "LibreOffice is not installed") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-lo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent(name)
        try Data(bytes).write(to: input)
        let result = try ChildProcess.run(
            [
                path, "-env:UserInstallation=file://\(folder.path)/profile", "--headless", "--convert-to",
                "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true,false,false,\(sheet)", "--outdir",
                folder.appendingPathComponent("out").path, input.path,
            ], mergeStandardError: true, timeout: 180)
        let outFolder = folder.appendingPathComponent("out")
        guard let file = try? FileManager.default.contentsOfDirectory(atPath: outFolder.path).first(where: { $0.hasSuffix(".csv") }) else {
            throw SpawnFailure(description: "LibreOffice wrote no CSV (status \(result.status)): \(result.output)")
        }
        return try String(contentsOf: outFolder.appendingPathComponent(file), encoding: .utf8)
    }

    public struct SpawnFailure: Error, CustomStringConvertible {
        public var description: String
    }
}
