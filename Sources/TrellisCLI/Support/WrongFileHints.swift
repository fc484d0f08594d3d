import Foundation
import TrellisGrid

/// What a file is, by its first bytes, so that a command given another command's file says
/// which command takes it — instead of a parse error alone (a CSV file read as JSON, a layout
/// spec read as CSV, a database read as text).
enum FileKindSniffer {
    enum Kind: Equatable {
        case sqlite, zipWorkbook, legacyWorkbook, layoutSpec, json, delimited, other
    }

    /// The kind of a file whose first bytes are `head` (64 KB are plenty).
    static func kind(of head: Data) -> Kind {
        let bytes = [UInt8](head.prefix(65_536))
        if bytes.starts(with: Array("SQLite format 3\u{0}".utf8)) { return .sqlite }
        if bytes.starts(with: [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) { return .legacyWorkbook }
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            // A workbook's parts: Excel's `xl/`, OpenDocument's spreadsheet mimetype.
            let text = String(decoding: bytes.prefix(4096), as: UTF8.self)
            if text.contains("xl/") || text.contains("[Content_Types].xml") || text.contains("opendocument.spreadsheet") { return .zipWorkbook }
            return .other
        }
        var start = bytes.startIndex
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
        while start < bytes.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        guard start < bytes.endIndex else { return .other }
        if bytes[start] == UInt8(ascii: "{") || bytes[start] == UInt8(ascii: "[") {
            let text = String(decoding: bytes[start...], as: UTF8.self)
            // A layout spec names its viewport and its layout.
            if text.contains("\"collectionView\"") && text.contains("\"layout\"") { return .layoutSpec }
            return .json
        }
        // Text whose first line has a delimiter a table uses, and no NUL bytes.
        guard !bytes.contains(0) else { return .other }
        let firstLine = bytes[start...].prefix { $0 != 0x0A }
        if firstLine.contains(UInt8(ascii: ",")) || firstLine.contains(0x09) || firstLine.contains(UInt8(ascii: ";")) { return .delimited }
        return .other
    }

    /// The hint for `trellis <command>` given `path` of `kind`, when another command takes it.
    static func hint(command: String, path: String, kind: Kind) -> String? {
        let shown = Excerpt.of(path)
        let quoted = shown.contains(" ") ? "'\(shown)'" : shown
        switch (command, kind) {
        case ("layout", .sqlite):
            return "\(shown) is an SQLite database, not a layout spec: trellis sort \(quoted) --table NAME sorts a table of it, trellis view \(quoted) shows it"
        case ("layout", .zipWorkbook), ("layout", .legacyWorkbook):
            return "\(shown) is a workbook, not a layout spec: trellis sort \(quoted) sorts its first sheet, trellis view \(quoted) shows it"
        case ("layout", .delimited):
            return "\(shown) looks like a CSV or TSV table, not a layout spec: trellis sort \(quoted) sorts it, trellis view \(quoted) shows it"
        case ("sort", .layoutSpec), ("view", .layoutSpec):
            return "\(shown) is a layout spec (JSON), not a table: trellis layout \(quoted) draws it"
        case ("sort", .json), ("view", .json):
            return
                "\(shown) is JSON; trellis \(command) reads CSV and TSV files, SQLite databases, PostgreSQL and workbooks (.xlsx, .ods, .xls), and trellis layout reads layout specs in JSON"
        default: return nil
        }
    }

    /// The hint for `path` (read from `folder`), or `nil` when the file cannot be read or its
    /// command is this one.
    static func hint(command: String, path: String, in folder: URL) -> String? {
        guard path != "-" else { return nil }
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : folder.appendingPathComponent(path)
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 65_536) else { return nil }
        return hint(command: command, path: path, kind: kind(of: head))
    }
}
