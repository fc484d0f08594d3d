import Foundation
import TrellisGrid
import TrellisText

/// How the command line reads a CSV file: `--encoding` and `--delimiter`, when given.
struct CSVReading {
    var encoding: TextEncoding?
    var delimiter: UInt8?
    var headerRow: Int?
    var dateOrder: DateOrder?
    /// The sheet of a workbook to read (`--sheet`).
    var sheet: String?

    /// The options that say how a CSV file is read, which `sort` and `view` both take.
    static let options = [
        OptionDefinition(
            names: ["--encoding"], valueName: "name",
            help:
                "Read the CSV file in this encoding: utf-8, gb18030, gbk, utf-16le,\nutf-16be, big5, shift_jis, windows-1252 or latin1. (default: its\nbyte order mark, else UTF-8, else GB18030 or GBK)",
            choices: ["utf-8", "gb18030", "gbk", "utf-16le", "utf-16be", "big5", "shift_jis", "windows-1252", "latin1"]),
        OptionDefinition(
            names: ["--delimiter"], valueName: "char",
            help: "The CSV file's field separator: , ; | or tab. (default: found\nin its first lines)"),
        OptionDefinition(
            names: ["--header-row"], valueName: "n",
            help: "The line of the CSV file that names the columns; the lines above it\n(a title) are kept and written back. (default: 1)"),
        OptionDefinition(
            names: ["--sheet"], valueName: "name",
            help: "The sheet of a workbook (.xlsx, .ods, .xls) to read: its name, or its\nplace from 1. (default: the sheet selected when it was saved)"),
        OptionDefinition(
            names: ["--date-order"], valueName: "order",
            help: "Read dates whose year comes last (3/1/2024) as mdy or dmy, or not at\nall (ymd). (default: as the column's dates show, else mdy)",
            choices: ["mdy", "dmy", "ymd"]),
    ]

    init() {}

    init(_ parsed: ParsedArguments) throws(CommandError) {
        encoding = try parsed.value("--encoding").map { (name: String) throws(CommandError) -> TextEncoding in
            try Self.encoding(name, option: "--encoding <name>")
        }
        if let text = parsed.value("--delimiter") {
            guard let delimiter = CSVFormat.delimiter(named: text) else {
                throw CommandError(.invalidValue(text, option: "--delimiter <char>", expected: ", ; | or tab"))
            }
            self.delimiter = delimiter
        }
        dateOrder = try SortCommand.value(
            parsed.value("--date-order"), option: "--date-order <order>", expected: "mdy, dmy or ymd",
            DateOrder.init(rawValue:))
        sheet = parsed.value("--sheet")
        if let text = parsed.value("--header-row") {
            guard let line = Int(text), line >= 1 else {
                throw CommandError(.invalidValue(text, option: "--header-row <n>", expected: "a line number from 1"))
            }
            headerRow = line
        }
    }

    /// The option given, if any: a database refuses them.
    var givenOption: String? {
        encoding != nil
            ? "--encoding"
            : delimiter != nil
                ? "--delimiter"
                : headerRow != nil
                    ? "--header-row"
                    : dateOrder != nil ? "--date-order" : nil
    }

    static func encoding(_ name: String, option: String) throws(CommandError) -> TextEncoding {
        guard let encoding = TextEncoding(name: name) else {
            throw CommandError(
                .invalidValue(
                    name, option: option, expected: TextEncoding.names,
                    suggestion: closest(name, in: TextEncoding.all.map(\.name))))
        }
        return encoding
    }
}
