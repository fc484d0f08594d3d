/// A pull reader of the XML a workbook's parts are: start tags with their attributes, end tags
/// and text, read in place from the part's bytes.
///
/// It reads what the programs that write workbooks write — elements, attributes, text, the five
/// predefined entities and character references, comments, processing instructions, CDATA — and
/// refuses a document type declaration: a DTD can declare entities that expand without bound (the
/// "billion laughs") or read other files, and no workbook needs one. Names are matched by their
/// local part (`x:row` is `row`), as writers differ in the prefixes they give a namespace.
struct XMLScanner {
    enum Token: Equatable {
        /// A start tag: its name, the bytes of its attributes, and whether it is empty (`<c/>`).
        case start(name: Range<Int>, attributes: Range<Int>, empty: Bool)
        case close(name: Range<Int>)
        /// Character data as written (entities not yet replaced; see ``XMLScanner/string(_:)``).
        case text(Range<Int>)
        /// A CDATA section's content, taken as it is.
        case cdata(Range<Int>)
        case finished
    }

    let bytes: UnsafeBufferPointer<UInt8>
    /// The part's name, for messages.
    let part: String
    private(set) var position = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>, part: String, from start: Int = 0) {
        self.bytes = bytes
        self.part = part
        position = start
        // A UTF-8 byte order mark before the declaration.
        if start == 0, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
    }

    func error(_ problem: String, at offset: Int? = nil) -> WorkbookError {
        WorkbookError(part: part, "\(problem) (byte \(offset ?? position))")
    }

    /// The next token.
    mutating func next() throws(WorkbookError) -> Token {
        let b = bytes
        let n = b.count
        var i = position
        guard i < n else { return .finished }
        if b[i] != 0x3C {
            // Text up to the next tag.
            let start = i
            while i < n, b[i] != 0x3C { i += 1 }
            position = i
            return .text(start..<i)
        }
        guard i + 1 < n else { throw error("the document ends inside a tag") }
        switch b[i + 1] {
        case 0x2F:  // </name>
            let start = i + 2
            i = start
            while i < n, b[i] != 0x3E { i += 1 }
            guard i < n else { throw error("the document ends inside an end tag", at: position) }
            var end = i
            while end > start, Self.isSpace(b[end - 1]) { end -= 1 }
            position = i + 1
            return .close(name: start..<end)
        case 0x3F:  // <? … ?>
            guard let close = find([0x3F, 0x3E], from: i + 2) else { throw error("a processing instruction is not closed") }
            position = close + 2
            return try next()
        case 0x21:  // <!-- -->, <![CDATA[ ]]>, <!DOCTYPE
            if matches("<!--", at: i) {
                guard let close = find([0x2D, 0x2D, 0x3E], from: i + 4) else { throw error("a comment is not closed") }
                position = close + 3
                return try next()
            }
            if matches("<![CDATA[", at: i) {
                guard let close = find([0x5D, 0x5D, 0x3E], from: i + 9) else { throw error("a CDATA section is not closed") }
                position = close + 3
                return .cdata((i + 9)..<close)
            }
            if matches("<!DOCTYPE", at: i) {
                throw error(
                    "it has a document type declaration (<!DOCTYPE>), which is refused: its entities could expand "
                        + "without bound or read other files, and no workbook needs one")
            }
            throw error("'<!' starts neither a comment nor a CDATA section")
        default:
            let nameStart = i + 1
            i = nameStart
            while i < n, !Self.isSpace(b[i]), b[i] != 0x3E, b[i] != 0x2F { i += 1 }
            let name = nameStart..<i
            guard !name.isEmpty else { throw error("a tag has no name") }
            let attributesStart = i
            var quote: UInt8 = 0
            while i < n {
                let c = b[i]
                if quote != 0 {
                    if c == quote { quote = 0 }
                } else if c == 0x22 || c == 0x27 {
                    quote = c
                } else if c == 0x3E {
                    break
                }
                i += 1
            }
            guard i < n else { throw error("the document ends inside the tag that starts here", at: position) }
            let empty = i > attributesStart && b[i - 1] == 0x2F
            position = i + 1
            return .start(name: name, attributes: attributesStart..<(empty ? i - 1 : i), empty: empty)
        }
    }

    /// Skips the content of the element whose start tag was just read, to after its end tag.
    mutating func skipElement() throws(WorkbookError) {
        var depth = 1
        while depth > 0 {
            switch try next() {
            case .start(_, _, let empty): if !empty { depth += 1 }
            case .close: depth -= 1
            case .finished: throw error("the document ends inside an element")
            default: break
            }
        }
    }

    /// The text inside the element whose start tag was just read, entities replaced, child
    /// elements' text included, to after its end tag.
    mutating func elementText() throws(WorkbookError) -> String {
        var bytes: [UInt8] = []
        var depth = 1
        while depth > 0 {
            switch try next() {
            case .start(_, _, let empty): if !empty { depth += 1 }
            case .close: depth -= 1
            case .text(let range): try appendText(range, to: &bytes)
            case .cdata(let range): bytes.append(contentsOf: self.bytes[range])
            case .finished: throw error("the document ends inside an element")
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: Names and attributes

    /// Whether the name in `range`, without its prefix, is `local`.
    func isNamed(_ range: Range<Int>, _ local: StaticString) -> Bool {
        var start = range.lowerBound
        var k = range.upperBound - 1
        while k >= start {
            if bytes[k] == 0x3A {
                start = k + 1
                break
            }
            k -= 1
        }
        return equals(start..<range.upperBound, local)
    }

    /// Whether the bytes in `range` are `text`.
    func equals(_ range: Range<Int>, _ text: StaticString) -> Bool {
        guard range.count == text.utf8CodeUnitCount else { return false }
        let p = text.utf8Start
        for k in 0..<range.count where bytes[range.lowerBound + k] != p[k] { return false }
        return true
    }

    /// The attribute after `i` among `attributes` (its name's and value's bytes), `i` moved past
    /// it; `nil` when there is none.
    @inline(__always)
    func nextAttribute(_ i: inout Int, in attributes: Range<Int>) -> (name: Range<Int>, value: Range<Int>)? {
        let end = attributes.upperBound
        while i < end, Self.isSpace(bytes[i]) { i += 1 }
        let nameStart = i
        while i < end, bytes[i] != 0x3D, !Self.isSpace(bytes[i]) { i += 1 }
        let name = nameStart..<i
        while i < end, bytes[i] != 0x22, bytes[i] != 0x27 { i += 1 }
        guard i < end else { return nil }
        let quote = bytes[i]
        let valueStart = i + 1
        i = valueStart
        while i < end, bytes[i] != quote { i += 1 }
        let value = valueStart..<i
        i += 1
        return (name, value)
    }

    /// The value (as written) of the attribute whose local name is `local` among `attributes`
    /// (with `qualified`, whose whole name is it: `calcext:value-type` beside `office:value-type`).
    func attribute(_ local: StaticString, in attributes: Range<Int>, qualified: Bool = false) -> Range<Int>? {
        var i = attributes.lowerBound
        while let (name, value) = nextAttribute(&i, in: attributes) {
            if !name.isEmpty, qualified ? equals(name, local) : isNamed(name, local) { return value }
        }
        return nil
    }

    /// The values of a cell's `r`, `s` and `t` attributes, in one pass over `attributes`.
    func cellAttributes(_ attributes: Range<Int>) -> (r: Range<Int>?, s: Range<Int>?, t: Range<Int>?) {
        var r: Range<Int>?, s: Range<Int>?, t: Range<Int>?
        var i = attributes.lowerBound
        while let (name, value) = nextAttribute(&i, in: attributes) {
            // A one-letter name (after any prefix).
            let local = name.upperBound - 1
            guard local >= name.lowerBound, local == name.lowerBound || bytes[local - 1] == 0x3A else { continue }
            switch bytes[local] {
            case 0x72: r = value
            case 0x73: s = value
            case 0x74: t = value
            default: break
            }
        }
        return (r, s, t)
    }

    /// The value of attribute `local` as a string, entities replaced.
    func attributeString(_ local: StaticString, in attributes: Range<Int>) throws(WorkbookError) -> String? {
        guard let range = attribute(local, in: attributes) else { return nil }
        return try string(range)
    }

    /// The value of attribute `local` as a whole number.
    func attributeInt(_ local: StaticString, in attributes: Range<Int>) -> Int? {
        guard let range = attribute(local, in: attributes) else { return nil }
        return integer(range)
    }

    /// The decimal whole number the bytes in `range` are (no sign, at most 15 digits).
    func integer(_ range: Range<Int>) -> Int? {
        guard !range.isEmpty, range.count <= 15 else { return nil }
        var value = 0
        for k in range {
            let d = bytes[k] &- 0x30
            guard d < 10 else { return nil }
            value = value * 10 + Int(d)
        }
        return value
    }

    /// The text in `range` with its entities and character references replaced.
    func string(_ range: Range<Int>) throws(WorkbookError) -> String {
        var out: [UInt8] = []
        try appendText(range, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the text in `range` to `out`, entities replaced.
    func appendText(_ range: Range<Int>, to out: inout [UInt8]) throws(WorkbookError) {
        var i = range.lowerBound
        let end = range.upperBound
        while i < end {
            let c = bytes[i]
            guard c == 0x26 else {
                out.append(c)
                i += 1
                continue
            }
            var k = i + 1
            while k < end, bytes[k] != 0x3B, k - i < 12 { k += 1 }
            guard k < end, bytes[k] == 0x3B else { throw error("an '&' that starts no entity", at: i) }
            let name = (i + 1)..<k
            if equals(name, "lt") {
                out.append(0x3C)
            } else if equals(name, "gt") {
                out.append(0x3E)
            } else if equals(name, "amp") {
                out.append(0x26)
            } else if equals(name, "quot") {
                out.append(0x22)
            } else if equals(name, "apos") {
                out.append(0x27)
            } else if name.count >= 2, bytes[name.lowerBound] == 0x23 {
                var value: UInt32 = 0
                let hex = bytes[name.lowerBound + 1] | 0x20 == 0x78
                for d in bytes[(name.lowerBound + (hex ? 2 : 1))..<name.upperBound] {
                    guard let digit = Self.digit(d, hex: hex), value < 0x11_0000 else {
                        throw error("a character reference that is not a number", at: i)
                    }
                    value = value * (hex ? 16 : 10) + digit
                }
                guard let scalar = Unicode.Scalar(value) else { throw error("a character reference to no character", at: i) }
                out.append(contentsOf: String(Character(scalar)).utf8)
            } else {
                throw error("the entity '&\(String(decoding: bytes[name], as: UTF8.self));' is not one XML defines", at: i)
            }
            i = k + 1
        }
    }

    static func digit(_ c: UInt8, hex: Bool) -> UInt32? {
        switch c {
        case 0x30...0x39: return UInt32(c - 0x30)
        case 0x61...0x66 where hex: return UInt32(c - 0x61 + 10)
        case 0x41...0x46 where hex: return UInt32(c - 0x41 + 10)
        default: return nil
        }
    }

    static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 }

    private func matches(_ text: StaticString, at i: Int) -> Bool {
        i + text.utf8CodeUnitCount <= bytes.count && equals(i..<(i + text.utf8CodeUnitCount), text)
    }

    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        var i = start
        let last = bytes.count - needle.count
        while i <= last {
            if bytes[i] == needle[0] {
                var k = 1
                while k < needle.count, bytes[i + k] == needle[k] { k += 1 }
                if k == needle.count { return i }
            }
            i += 1
        }
        return nil
    }
}

/// A workbook that cannot be read, naming the part and the problem.
public struct WorkbookError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The part of the package (`xl/worksheets/sheet1.xml`), when the problem is in one.
    public var part: String?
    public var problem: String
    /// Whether the request is at fault (a sheet or a column the workbook does not have), not the file.
    public var usage = false

    public init(part: String? = nil, _ problem: String) {
        self.part = part
        self.problem = problem
    }

    package init(usage problem: String) {
        self.problem = problem
        self.usage = true
    }

    init(_ zip: ZipError) {
        self.init(part: zip.entry, zip.problem)
    }

    public var description: String { part.map { "the part '\($0)': \(problem)" } ?? problem }

    /// Not an error of the file: the sheet must be read whole (a formula to compute, a row
    /// that does not say its number), which its reader then does.
    static let wholeSheetNeeded = WorkbookError("(the sheet is read whole)")
}
