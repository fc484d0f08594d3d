import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A text encoding a file can be in: what the spreadsheet programs of Trellis's users write —
/// UTF-8 (with or without a byte order mark), GB18030 and GBK (Chinese Excel's "CSV (逗号分隔)"),
/// UTF-16 (Excel's "Unicode 文本"), Big5, Shift_JIS, Windows-1252 and Latin-1.
///
/// ```swift
/// let encoding = TextEncoding(name: "gbk")!                // also "GBK", "cp936"
/// let utf8 = try encoding.decode([0xC6, 0xBD, 0xBE, 0xF9]) // "平均" in UTF-8
/// try encoding.encode(utf8)                                // [0xC6, 0xBD, 0xBE, 0xF9]
/// ```
///
/// Conversions go through the C library's `iconv` (glibc has every one of these; so has the
/// `libiconv` of Apple's platforms). Text inside Trellis is UTF-8: a file is decoded once when it
/// is read and encoded again when it is written, so that a sorted file comes back in its own
/// encoding.
public struct TextEncoding: Hashable, Sendable, CustomStringConvertible {
    /// The encoding's name as Trellis writes it: `utf-8`, `gb18030`, `gbk`, `utf-16le`,
    /// `utf-16be`, `big5`, `shift_jis`, `windows-1252`, `latin1`.
    public let name: String
    /// Its name for `iconv`.
    let iconvName: String

    private init(_ name: String, iconv: String) {
        self.name = name
        iconvName = iconv
    }

    public static let utf8 = TextEncoding("utf-8", iconv: "UTF-8")
    public static let gb18030 = TextEncoding("gb18030", iconv: "GB18030")
    public static let gbk = TextEncoding("gbk", iconv: "GBK")
    public static let utf16LittleEndian = TextEncoding("utf-16le", iconv: "UTF-16LE")
    public static let utf16BigEndian = TextEncoding("utf-16be", iconv: "UTF-16BE")
    public static let big5 = TextEncoding("big5", iconv: "BIG5")
    public static let shiftJIS = TextEncoding("shift_jis", iconv: "SHIFT_JIS")
    public static let windows1252 = TextEncoding("windows-1252", iconv: "WINDOWS-1252")
    public static let latin1 = TextEncoding("latin1", iconv: "ISO-8859-1")

    /// Every encoding Trellis reads and writes.
    public static let all: [TextEncoding] = [
        .utf8, .gb18030, .gbk, .utf16LittleEndian, .utf16BigEndian, .big5, .shiftJIS,
        .windows1252, .latin1,
    ]

    /// The encoding called `name`, in any case and with or without dashes and underscores:
    /// `utf-8`/`utf8`, `gb18030`, `gbk`/`cp936`/`gb2312`, `utf-16le`/`utf-16be` (`utf-16` is
    /// little-endian, as Windows writes it), `big5`, `shift_jis`/`sjis`, `windows-1252`/`cp1252`,
    /// `latin1`/`iso-8859-1`; `nil` for any other.
    public init?(name: String) {
        let key = name.lowercased().filter { $0.isLetter || $0.isNumber }
        switch key {
        case "utf8": self = .utf8
        case "gb18030": self = .gb18030
        case "gbk", "cp936", "gb2312", "936", "windows936": self = .gbk
        case "utf16le", "utf16", "unicode": self = .utf16LittleEndian
        case "utf16be": self = .utf16BigEndian
        case "big5", "cp950": self = .big5
        case "shiftjis", "sjis", "cp932", "windows31j": self = .shiftJIS
        case "windows1252", "cp1252": self = .windows1252
        case "latin1", "iso88591", "l1": self = .latin1
        default: return nil
        }
    }

    /// The names ``init(name:)`` lists, for messages.
    public static var names: String { all.map(\.name).joined(separator: ", ") }

    public var description: String { name }

    /// The byte order mark of the encoding, as a file starts with it.
    public var byteOrderMark: [UInt8] {
        switch self {
        case .utf8: return [0xEF, 0xBB, 0xBF]
        case .utf16LittleEndian: return [0xFF, 0xFE]
        case .utf16BigEndian: return [0xFE, 0xFF]
        default: return []
        }
    }

    /// The encoding a byte order mark at the start of `bytes` names, with the mark's length.
    public static func byteOrderMark(of bytes: some Collection<UInt8>) -> (encoding: TextEncoding, length: Int)? {
        let head = Array(bytes.prefix(3))
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { return (.utf8, 3) }
        if head.starts(with: [0xFF, 0xFE]) { return (.utf16LittleEndian, 2) }
        if head.starts(with: [0xFE, 0xFF]) { return (.utf16BigEndian, 2) }
        return nil
    }

    // MARK: Converting

    /// `bytes` in this encoding as UTF-8. Throws at the first byte that is not text in it.
    ///
    /// - Complexity: O(n).
    public func decode(_ bytes: [UInt8]) throws(TextEncodingError) -> [UInt8] {
        if self == .utf8 {
            if let bad = TextEncoding.firstInvalidUTF8(bytes) { throw TextEncodingError(encoding: self, offset: bad, decoding: true) }
            return bytes
        }
        // A large text is decoded in two halves at once, split after a line feed (which no
        // multi-byte character of these encodings contains).
        if bytes.count >= 1 << 22, ProcessInfo.processInfo.activeProcessorCount > 1, let split = lineStart(near: bytes.count / 2, in: bytes) {
            var results: [Result<[UInt8], TextEncodingError>] = [.success([]), .success([])]
            bytes.withUnsafeBufferPointer { all in
                results.withUnsafeMutableBufferPointer { results in
                    let halves = [UnsafeBufferPointer(rebasing: all[..<split]), UnsafeBufferPointer(rebasing: all[split...])]
                    let shared = Unchecked((halves, results, self))
                    Tuning.concurrentPerform(iterations: 2) { k in
                        let (halves, results, encoding) = shared.value
                        results[k] = Result { () throws(TextEncodingError) in try encoding.decodeWhole(halves[k]) }
                    }
                }
            }
            var out = try results[0].get()
            do {
                out += try results[1].get()
            } catch {
                throw TextEncodingError(encoding: self, offset: split + error.offset, decoding: true)
            }
            return out
        }
        return try bytes.withUnsafeBufferPointer { bytes throws(TextEncodingError) in try decodeWhole(bytes) }
    }

    private func decodeWhole(_ bytes: UnsafeBufferPointer<UInt8>) throws(TextEncodingError) -> [UInt8] {
        var converter = try Converter(from: iconvName, to: "UTF-8", encoding: self, decoding: true)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 2)
        try converter.convert(bytes, final: true, into: &out)
        return out
    }

    /// Where a line starts at or after `middle`: after a line feed as this encoding writes it
    /// (`0A`; `0A 00` at an even offset in UTF-16LE, `00 0A` in UTF-16BE); `nil` when none does.
    private func lineStart(near middle: Int, in bytes: [UInt8]) -> Int? {
        switch self {
        case .utf16LittleEndian, .utf16BigEndian:
            var i = middle & ~1
            let feed: (UInt8, UInt8) = self == .utf16LittleEndian ? (0x0A, 0x00) : (0x00, 0x0A)
            while i + 1 < bytes.count {
                if bytes[i] == feed.0, bytes[i + 1] == feed.1 { return i + 2 < bytes.count ? i + 2 : nil }
                i += 2
            }
            return nil
        default:
            guard let feed = bytes[middle...].firstIndex(of: 0x0A), feed + 1 < bytes.count else { return nil }
            return feed + 1
        }
    }

    /// UTF-8 text in this encoding. Throws at the first character the encoding cannot hold.
    public func encode(_ utf8: [UInt8]) throws(TextEncodingError) -> [UInt8] {
        if self == .utf8 { return utf8 }
        var converter = try Converter(from: "UTF-8", to: iconvName, encoding: self, decoding: false)
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count * 2)
        try converter.convert(utf8, final: true, into: &out)
        return out
    }

    /// Whether `bytes` is text in this encoding that encodes back to exactly the same bytes.
    public func roundTrips(_ bytes: [UInt8]) -> Bool {
        guard let text = try? decode(bytes), let back = try? encode(text) else { return false }
        return back == bytes
    }

    /// The position of the first byte of `bytes` that is not part of valid UTF-8, or `nil`.
    public static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { firstInvalidUTF8($0) }
    }

    /// The position of the first byte that is not part of valid UTF-8, or `nil`; ASCII is
    /// skipped eight bytes at a time.
    public static func firstInvalidUTF8(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = b.count
        var i = 0
        while i < n {
            // Eight ASCII bytes at a time.
            if i + 8 <= n {
                let word = UnsafeRawPointer(b.baseAddress! + i).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 == 0 { i += 8; continue }
            }
            let c = b[i]
            if c < 0x80 { i += 1; continue }
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch c {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return i
            }
            guard i + length <= n, b[i + 1] >= low, b[i + 1] <= high else { return i }
            for k in 2..<max(2, length) where b[i + k] & 0xC0 != 0x80 { return i }
            i += length
        }
        return nil
    }

    /// A streaming conversion: text arrives in pieces that may end inside a character, which is
    /// kept for the next piece.
    public struct StreamEncoder: ~Copyable {
        private var converter: Converter?
        private var pending: [UInt8] = []

        /// Converts UTF-8 text to `encoding`.
        public init(to encoding: TextEncoding) throws(TextEncodingError) {
            converter =
                encoding == .utf8
                ? nil
                : try Converter(
                    from: "UTF-8", to: encoding.iconvName, encoding: encoding,
                    decoding: false)
        }

        /// Appends the encoding of `utf8` to `out`; a character cut at the end waits for the next call.
        public mutating func encode(_ utf8: UnsafeBufferPointer<UInt8>, final: Bool, into out: inout [UInt8]) throws(TextEncodingError) {
            guard converter != nil else { out.append(contentsOf: utf8); return }
            pending.append(contentsOf: utf8)
            let input = pending
            pending = []
            let consumed = try converter!.convert(input, final: final, into: &out)
            if consumed < input.count { pending = Array(input[consumed...]) }
        }
    }
}

/// Text that is not valid in the encoding it is read or written in.
public struct TextEncodingError: Error, Equatable, Sendable, CustomStringConvertible {
    public let encoding: TextEncoding
    /// Where the conversion stopped: a byte offset in the input.
    public let offset: Int
    /// Whether it stopped reading (bytes that are not text in the encoding) or writing (a
    /// character the encoding cannot hold).
    public let decoding: Bool
    /// The character that could not be written, when writing.
    public let character: String?

    public init(encoding: TextEncoding, offset: Int, decoding: Bool, character: String? = nil) {
        self.encoding = encoding
        self.offset = offset
        self.decoding = decoding
        self.character = character
    }

    public var description: String {
        if decoding { return "byte \(offset) is not \(encoding.name) text" }
        let shown = character.map { "'\($0)' (U+\(String($0.unicodeScalars.first!.value, radix: 16, uppercase: true)))" } ?? "a character"
        return "\(encoding.name) has no \(shown)"
    }
}

/// One `iconv` conversion.
struct Converter: ~Copyable {
    private let handle: iconv_t
    private let encoding: TextEncoding
    private let decoding: Bool
    /// Bytes consumed by earlier calls, for error offsets.
    private var consumedBefore = 0

    init(from: String, to: String, encoding: TextEncoding, decoding: Bool) throws(TextEncodingError) {
        let handle = iconv_open(to, from)
        guard let handle, handle != iconv_t(bitPattern: -1) else {
            throw TextEncodingError(encoding: encoding, offset: 0, decoding: decoding)
        }
        self.handle = handle
        self.encoding = encoding
        self.decoding = decoding
    }

    deinit { iconv_close(handle) }

    /// Converts `input`, appending to `out`; returns how much of `input` was used. Without
    /// `final`, a character cut off at the end is left unused; with it, that is an error.
    @discardableResult
    mutating func convert(_ input: [UInt8], final: Bool, into out: inout [UInt8]) throws(TextEncodingError) -> Int {
        try input.withUnsafeBufferPointer { input throws(TextEncodingError) in try convert(input, final: final, into: &out) }
    }

    /// ``convert(_:final:into:)`` over bytes in place.
    @discardableResult
    mutating func convert(_ input: UnsafeBufferPointer<UInt8>, final: Bool, into out: inout [UInt8]) throws(TextEncodingError) -> Int {
        var failureOffset: Int?
        let handle = self.handle
        let used: Int = { (source: UnsafeBufferPointer<UInt8>) -> Int in
            guard let base = source.baseAddress, !source.isEmpty else { return 0 }
            var inPointer: UnsafeMutablePointer<CChar>? = UnsafeMutablePointer(
                mutating: UnsafeRawPointer(base)
                    .assumingMemoryBound(to: CChar.self))
            var inLeft = source.count
            var chunk = [UInt8](repeating: 0, count: max(256, min(1 << 16, source.count * 4)))
            var cut = false
            while inLeft > 0 && !cut && failureOffset == nil {
                let produced: Int = chunk.withUnsafeMutableBufferPointer { target in
                    var outPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(target.baseAddress!)
                        .assumingMemoryBound(to: CChar.self)
                    var outLeft = target.count
                    if iconv(handle, &inPointer, &inLeft, &outPointer, &outLeft) == -1 {
                        switch errno {
                        case E2BIG: break  // the chunk is full: go on
                        case EINVAL where !final: cut = true  // a character continues in the next piece
                        default: failureOffset = source.count - inLeft
                        }
                    }
                    return target.count - outLeft
                }
                out.append(contentsOf: chunk[0..<produced])
            }
            return source.count - inLeft
        }(input)
        if let failureOffset {
            // The character that could not be written: the UTF-8 sequence that starts there.
            var character: String?
            if !decoding, failureOffset < input.count {
                let tail = input[failureOffset...].prefix(4)
                character = String(decoding: tail, as: UTF8.self).first.map(String.init)
            }
            throw TextEncodingError(
                encoding: encoding, offset: consumedBefore + failureOffset, decoding: decoding,
                character: character)
        }
        consumedBefore += used
        return used
    }
}
