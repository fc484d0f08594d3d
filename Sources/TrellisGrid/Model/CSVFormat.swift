import Foundation
import TrellisText

/// How a delimited text file is written — its encoding, byte order mark, delimiter and line
/// break: what reading a file finds, so that writing it back reproduces it byte for byte.
///
/// ```swift
/// let table = try CSV.table(bytes: gbkBytes)   // Chinese Excel's "CSV (逗号分隔)"
/// table.csvFormat.encoding                     // .gb18030 (GBK is a part of it)
/// table.csvFormat.encodingWasGuessed           // true: it was not UTF-8, and read as GB18030
/// ```
public struct CSVFormat: Equatable, Sendable {
    /// The text encoding of the file.
    public var encoding: TextEncoding
    /// Whether the file starts with a byte order mark (Excel's "CSV UTF-8" and "Unicode 文本" do).
    public var byteOrderMark: Bool
    /// The byte between fields: `,` (the default), `;`, a tab or `|`.
    public var delimiter: UInt8
    /// The line break between records: the file's first (CRLF, LF or CR).
    public var lineBreak: [UInt8]
    /// The lines after the last record, as the file had them: blank lines, and a footer (lines of
    /// another width, as statements end with totals and notes; see ``footerLine``). Written back
    /// after the rows.
    public var trailingLines: [UInt8] = []
    /// The line of the file a footer starts on, when the file has one after its records.
    public var footerLine: Int?
    /// Excel's `sep=;` first line, with its line break, when the file has one: it names the
    /// delimiter, and is written back (naming the delimiter written).
    public var separatorLine: [UInt8]?
    /// The lines above the header that the reader was told to pass over (a title and the blank
    /// lines under it, as `--header-row` says), as the file had them: written back above it.
    public var leadingLines: [UInt8] = []
    /// How many lines the header has: 1, or more for a header whose rows under its first line
    /// are more of it (pandas' MultiIndex writes two, and a row of its index's names; a row of
    /// units) — read as one header, the columns named by every line (`成绩 语文`), the lines
    /// above the last kept in ``leadingLines`` and written back as they were.
    public var headerLines = 1
    /// The line that is most likely the header when the file's first line looks like a title
    /// above it — one cell, then a blank line, then a line of several — and no header row was
    /// given; `nil` otherwise. A reader suggests it.
    public var likelyHeaderLine: Int?
    /// Whether the encoding was found by looking at the bytes rather than given or marked: a
    /// file that is not UTF-8 read as GB18030, or UTF-16 without a mark. A reader says so.
    public var encodingWasGuessed: Bool
    /// Whether the delimiter was found in the file rather than given.
    public var delimiterWasDetected: Bool

    /// RFC 4180: UTF-8 without a mark, commas, CRLF.
    public init(
        encoding: TextEncoding = .utf8, byteOrderMark: Bool = false, delimiter: UInt8 = 0x2C,
        lineBreak: [UInt8] = [0x0D, 0x0A], encodingWasGuessed: Bool = false, delimiterWasDetected: Bool = false
    ) {
        self.encoding = encoding
        self.byteOrderMark = byteOrderMark
        self.delimiter = delimiter
        self.lineBreak = lineBreak
        self.encodingWasGuessed = encodingWasGuessed
        self.delimiterWasDetected = delimiterWasDetected
    }

    /// The delimiters a file is searched for, most likely first: comma, tab, semicolon, bar.
    public static let delimiters: [UInt8] = [0x2C, 0x09, 0x3B, 0x7C]

    /// The delimiter called `name`: one of `, ; |`, a tab (`tab`, `\t` or the character).
    public static func delimiter(named name: String) -> UInt8? {
        switch name {
        case ",", ";", "|": return name.utf8.first
        case "\t", "\\t", "tab", "TAB", "Tab": return 0x09
        default: return nil
        }
    }

    /// A delimiter as a person writes it: `,`, `;`, `|` or `tab`.
    public static func name(ofDelimiter delimiter: UInt8) -> String {
        delimiter == 0x09 ? "tab" : String(UnicodeScalar(delimiter))
    }

    /// The delimiter of the text `utf8`, judged from its first lines (at most 64 KB): of comma,
    /// tab, semicolon and bar, the one that splits the header into the most fields and every
    /// following line read into as many (quoted fields counted as one); a comma when none does.
    public static func detectDelimiter(_ utf8: some Collection<UInt8>) -> UInt8 {
        let (lines, cut) = firstLines(utf8, limit: 20, bytes: 1 << 16)
        guard let header = lines.first else { return 0x2C }
        var best: (delimiter: UInt8, fields: Int)?
        for candidate in delimiters {
            let fields = fieldCount(header, candidate)
            guard fields > 1 else { continue }
            // Every complete line after the header must split alike (the last may be cut where the
            // sample ends).
            let consistent = lines.dropFirst().dropLast(cut && lines.count > 2 ? 1 : 0)
                .allSatisfy { $0.isEmpty || fieldCount($0, candidate) == fields }
            guard consistent else { continue }
            if best == nil || fields > best!.fields { best = (candidate, fields) }
        }
        return best?.delimiter ?? 0x2C
    }

    /// The fields of one line split by `delimiter`, quoted delimiters not counted.
    private static func fieldCount(_ line: [UInt8], _ delimiter: UInt8) -> Int {
        var count = 1, quoted = false
        for c in line {
            if c == 0x22 { quoted.toggle() } else if c == delimiter, !quoted { count += 1 }
        }
        return count
    }

    /// The first records' bytes (line breaks inside quotes kept in their record), without a
    /// leading byte order mark, and whether the last is cut short by the end of the sample.
    private static func firstLines(_ utf8: some Collection<UInt8>, limit: Int, bytes: Int) -> (lines: [[UInt8]], cut: Bool) {
        var lines: [[UInt8]] = [], line: [UInt8] = [], quoted = false
        var sawCR = false
        let head = utf8.prefix(bytes)
        for c in head.starts(with: [0xEF, 0xBB, 0xBF]) ? head.dropFirst(3) : head.dropFirst(0) {
            if c == 0x22 { quoted.toggle() }
            if !quoted, c == 0x0A || c == 0x0D {
                if c == 0x0A && sawCR { sawCR = false; continue }
                sawCR = c == 0x0D
                lines.append(line)
                line = []
                if lines.count == limit { return (lines, false) }
                continue
            }
            sawCR = false
            line.append(c)
        }
        if !line.isEmpty { lines.append(line) }
        return (lines, !line.isEmpty && head.count < utf8.count)
    }
}

extension CSVFormat {
    /// What CSV output writes before the header, as the file had it: its byte order mark (where
    /// the output's encoding writes one), Excel's `sep=` line (naming `delimiter`, the one
    /// written) and the lines above the header.
    package func writeLinesAboveHeader(to output: TextOutput, delimiter: UInt8) {
        if byteOrderMark, [TextEncoding.utf8, .utf16LittleEndian, .utf16BigEndian].contains(output.encoding) {
            output.write("\u{FEFF}")
        }
        if let line = separatorLine {
            if delimiter == self.delimiter {
                output.write(bytes: line)
            } else {
                output.write("sep=")
                output.write(byte: delimiter)
                output.write(bytes: lineBreak)
            }
        }
        // A header of several lines written with another delimiter is written as one line of
        // its columns' names (its lines are not rewritten field by field).
        if headerLines > 1 && delimiter != self.delimiter { return }
        output.write(bytes: leadingLines)
    }
}
