import Foundation

/// One token of Swift source, as `trellis port` needs to see it: where it is and what kind it is.
/// Comments and whitespace are not tokens; each token says whether space or a line break came
/// before it, which is what Swift's own rules for postfix operators and declarations look at.
struct SwiftToken: Equatable {
    enum Kind: Equatable {
        /// A name or keyword (`func`, `delegate`, `` `default` ``, `$0`).
        case identifier
        /// `@objc`, `@available`: the `@` and the name.
        case attribute
        /// `#selector`, `#if`: the `#` and the name.
        case pound
        case number
        /// A whole string literal, interpolations included.
        case string
        /// `(`, `)`, `[`, `]`, `{`, `}`, `,`, `:`, `;`, and `.` as member access.
        case punctuation
        /// Any other operator; a postfix `?` or `!` is a token of its own.
        case `operator`
    }

    var kind: Kind
    /// Byte offsets of the token in the UTF-8 source.
    var start: Int
    var end: Int
    /// Whether whitespace or a comment separates it from the previous token (or it is first).
    var spaceBefore: Bool
    /// Whether a line break separates it from the previous token (or it is first).
    var lineBreakBefore: Bool
}

/// Why a file could not be read as Swift.
struct SwiftLexError: Error, Equatable {
    var line: Int
    var message: String
}

/// The tokens of a Swift file, with the matching bracket of every bracket.
struct SwiftSource {
    let bytes: [UInt8]
    private(set) var tokens: [SwiftToken] = []
    /// For each token that is a bracket, the index of its partner; -1 otherwise.
    private(set) var partner: [Int] = []
    /// Byte offsets where lines start.
    private(set) var lineStarts: [Int] = [0]

    init(_ text: String) throws(SwiftLexError) {
        bytes = Array(text.utf8)
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { lineStarts.append(offset + 1) }
        try lex()
        try pair()
    }

    func text(_ token: SwiftToken) -> String { String(decoding: bytes[token.start..<token.end], as: UTF8.self) }
    func text(_ index: Int) -> String { index >= 0 && index < tokens.count ? text(tokens[index]) : "" }
    func text(from start: Int, to end: Int) -> String { String(decoding: bytes[start..<end], as: UTF8.self) }

    /// The 1-based line of a byte offset.
    func line(of offset: Int) -> Int {
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return low + 1
    }

    func lineStart(of offset: Int) -> Int { lineStarts[line(of: offset) - 1] }

    /// The offset just past the end of the line holding `offset` (past its line break).
    func lineEnd(of offset: Int) -> Int {
        let next = line(of: offset)
        return next < lineStarts.count ? lineStarts[next] : bytes.count
    }

    /// Whether the token is the given identifier or punctuation.
    func `is`(_ index: Int, _ spelling: String) -> Bool {
        index >= 0 && index < tokens.count && text(tokens[index]) == spelling
    }

    // MARK: Lexing

    private static func isIdentifierHead(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b >= 0x80
    }
    private static func isIdentifierBody(_ b: UInt8) -> Bool { isIdentifierHead(b) || (b >= 0x30 && b <= 0x39) }
    private static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    private static let operatorBytes = Set("/=-+!*%<>&|^~?.".utf8)

    private mutating func lex() throws(SwiftLexError) {
        var i = 0
        var space = true, lineBreak = true
        let n = bytes.count
        func add(_ kind: SwiftToken.Kind, _ start: Int, _ end: Int) {
            tokens.append(SwiftToken(kind: kind, start: start, end: end, spaceBefore: space, lineBreakBefore: lineBreak))
            space = false
            lineBreak = false
        }
        while i < n {
            let b = bytes[i]
            switch b {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), 0x0B, 0x0C:
                space = true; i += 1
            case UInt8(ascii: "\n"):
                space = true; lineBreak = true; i += 1
            case UInt8(ascii: "/") where i + 1 < n && bytes[i + 1] == UInt8(ascii: "/"):
                while i < n && bytes[i] != UInt8(ascii: "\n") { i += 1 }
                space = true
            case UInt8(ascii: "/") where i + 1 < n && bytes[i + 1] == UInt8(ascii: "*"):
                let start = i
                var depth = 0
                repeat {
                    if i + 1 < n, bytes[i] == UInt8(ascii: "/"), bytes[i + 1] == UInt8(ascii: "*") {
                        depth += 1; i += 2
                    } else if i + 1 < n, bytes[i] == UInt8(ascii: "*"), bytes[i + 1] == UInt8(ascii: "/") {
                        depth -= 1; i += 2
                    } else {
                        if bytes[i] == UInt8(ascii: "\n") { lineBreak = true }
                        i += 1
                    }
                } while depth > 0 && i < n
                if depth > 0 { throw SwiftLexError(line: line(of: start), message: "a /* comment that is never closed") }
                space = true
            case UInt8(ascii: "\""):
                let start = i
                i = try stringEnd(from: i, hashes: 0)
                add(.string, start, i)
            case UInt8(ascii: "#"):
                var hashes = 0
                var j = i
                while j < n && bytes[j] == UInt8(ascii: "#") { hashes += 1; j += 1 }
                if j < n, bytes[j] == UInt8(ascii: "\"") {
                    let start = i
                    i = try stringEnd(from: j, hashes: hashes)
                    add(.string, start, i)
                } else if hashes == 1, j < n, Self.isIdentifierHead(bytes[j]) {
                    let start = i
                    i = j
                    while i < n && Self.isIdentifierBody(bytes[i]) { i += 1 }
                    add(.pound, start, i)
                } else {
                    add(.punctuation, i, i + 1); i += 1
                }
            case UInt8(ascii: "@"):
                let start = i
                i += 1
                while i < n && Self.isIdentifierBody(bytes[i]) { i += 1 }
                add(i > start + 1 ? .attribute : .punctuation, start, i)
            case UInt8(ascii: "`"):
                let start = i
                i += 1
                while i < n && bytes[i] != UInt8(ascii: "`") && bytes[i] != UInt8(ascii: "\n") { i += 1 }
                guard i < n, bytes[i] == UInt8(ascii: "`") else {
                    throw SwiftLexError(line: line(of: start), message: "a `name` whose closing backtick is missing")
                }
                i += 1
                add(.identifier, start, i)
            case UInt8(ascii: "$"):
                let start = i
                i += 1
                while i < n && Self.isIdentifierBody(bytes[i]) { i += 1 }
                add(.identifier, start, i)
            case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"),
                UInt8(ascii: "}"), UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: ";"):
                add(.punctuation, i, i + 1); i += 1
            default:
                if Self.isIdentifierHead(b) {
                    let start = i
                    while i < n && Self.isIdentifierBody(bytes[i]) { i += 1 }
                    add(.identifier, start, i)
                } else if Self.isDigit(b) {
                    let start = i
                    while i < n {
                        let c = bytes[i]
                        if Self.isIdentifierBody(c) { i += 1; continue }
                        if c == UInt8(ascii: "."), i + 1 < n, Self.isDigit(bytes[i + 1]) { i += 1; continue }
                        if c == UInt8(ascii: "-") || c == UInt8(ascii: "+"), i > start,
                            [UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "p"), UInt8(ascii: "P")].contains(bytes[i - 1]),
                            !(bytes[start] == UInt8(ascii: "0") && i > start + 1 && bytes[start + 1] == UInt8(ascii: "x") && bytes[i - 1] == UInt8(ascii: "e"))
                        {
                            i += 1; continue
                        }
                        break
                    }
                    add(.number, start, i)
                } else if Self.operatorBytes.contains(b) {
                    let start = i
                    let previous = tokens.last
                    let adjacent =
                        !space
                        && previous.map {
                            [.identifier, .string, .number].contains($0.kind)
                                || [UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ">")].contains(bytes[$0.end - 1])
                                || (($0.kind == .operator) && [UInt8(ascii: "?"), UInt8(ascii: "!")].contains(bytes[$0.start]) && $0.end == $0.start + 1)
                        } ?? false
                    let next: UInt8 = i + 1 < n ? bytes[i + 1] : UInt8(ascii: " ")
                    let binary = (b == UInt8(ascii: "?") && next == UInt8(ascii: "?")) || (b == UInt8(ascii: "!") && next == UInt8(ascii: "="))
                    if b == UInt8(ascii: "."), next != UInt8(ascii: ".") {
                        add(.punctuation, i, i + 1); i += 1
                    } else if b == UInt8(ascii: "?") || b == UInt8(ascii: "!"), adjacent, !binary,
                        !Self.operatorBytes.contains(next) || next == UInt8(ascii: ".") || next == UInt8(ascii: "?") || next == UInt8(ascii: "!")
                    {
                        add(.operator, i, i + 1); i += 1
                    } else {
                        i += 1
                        while i < n, Self.operatorBytes.contains(bytes[i]) {
                            // A run ends before a comment.
                            if bytes[i] == UInt8(ascii: "/"), i + 1 < n, bytes[i + 1] == UInt8(ascii: "/") || bytes[i + 1] == UInt8(ascii: "*") { break }
                            i += 1
                        }
                        add(.operator, start, i)
                    }
                } else if b == UInt8(ascii: "\\") {
                    add(.operator, i, i + 1); i += 1  // a key path
                } else {
                    // Anything else (a stray byte) is kept as an operator of its own; the compiler
                    // will say what it is.
                    add(.operator, i, i + 1); i += 1
                }
            }
        }
    }

    /// The offset past the string literal that opens at `quote` (the first `"`), with `hashes`
    /// `#` before it. Interpolations may hold any expression, strings included.
    private func stringEnd(from quote: Int, hashes: Int, nesting: Int = 0) throws(SwiftLexError) -> Int {
        // Strings inside interpolations inside strings: real code nests a few; a file nesting
        // hundreds is refused rather than read by ever deeper recursion.
        guard nesting < 64 else {
            throw SwiftLexError(line: line(of: quote), message: "string interpolations nested more than 64 deep")
        }
        let n = bytes.count
        let multiline = quote + 2 < n && bytes[quote + 1] == UInt8(ascii: "\"") && bytes[quote + 2] == UInt8(ascii: "\"")
        var i = quote + (multiline ? 3 : 1)
        func closes(at j: Int) -> Bool {
            let quotes = multiline ? 3 : 1
            guard j + quotes + hashes <= n else { return false }
            for k in 0..<quotes where bytes[j + k] != UInt8(ascii: "\"") { return false }
            for k in 0..<hashes where bytes[j + quotes + k] != UInt8(ascii: "#") { return false }
            return true
        }
        while i < n {
            let b = bytes[i]
            if b == UInt8(ascii: "\n"), !multiline {
                throw SwiftLexError(line: line(of: quote), message: "a string literal that ends with its line")
            }
            if b == UInt8(ascii: "\"") && closes(at: i) { return i + (multiline ? 3 : 1) + hashes }
            if b == UInt8(ascii: "\\") {
                var j = i + 1
                var h = 0
                while h < hashes && j < n && bytes[j] == UInt8(ascii: "#") { h += 1; j += 1 }
                if h == hashes, j < n {
                    if bytes[j] == UInt8(ascii: "(") {
                        i = try interpolationEnd(from: j, nesting: nesting)
                        continue
                    }
                    i = j + 1
                    continue
                }
            }
            i += 1
        }
        throw SwiftLexError(line: line(of: quote), message: "a string literal that is never closed")
    }

    /// The offset past the `)` that closes the interpolation opening at `paren`.
    private func interpolationEnd(from paren: Int, nesting: Int) throws(SwiftLexError) -> Int {
        var depth = 0
        var i = paren
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b == UInt8(ascii: "(") {
                depth += 1
            } else if b == UInt8(ascii: ")") {
                depth -= 1; if depth == 0 { return i + 1 }
            } else if b == UInt8(ascii: "\"") {
                i = try stringEnd(from: i, hashes: 0, nesting: nesting + 1); continue
            } else if b == UInt8(ascii: "#"), i + 1 < n, bytes[i + 1] == UInt8(ascii: "\"") || bytes[i + 1] == UInt8(ascii: "#") {
                var j = i, h = 0
                while j < n && bytes[j] == UInt8(ascii: "#") { h += 1; j += 1 }
                if j < n, bytes[j] == UInt8(ascii: "\"") { i = try stringEnd(from: j, hashes: h, nesting: nesting + 1); continue }
            }
            i += 1
        }
        throw SwiftLexError(line: line(of: paren), message: "a string interpolation that is never closed")
    }

    private mutating func pair() throws(SwiftLexError) {
        partner = Array(repeating: -1, count: tokens.count)
        var stack: [Int] = []
        let closing: [UInt8: UInt8] = [
            UInt8(ascii: ")"): UInt8(ascii: "("), UInt8(ascii: "]"): UInt8(ascii: "["),
            UInt8(ascii: "}"): UInt8(ascii: "{"),
        ]
        for (index, token) in tokens.enumerated() where token.kind == .punctuation {
            let b = bytes[token.start]
            if b == UInt8(ascii: "(") || b == UInt8(ascii: "[") || b == UInt8(ascii: "{") {
                stack.append(index)
            } else if let opener = closing[b] {
                guard let last = stack.popLast(), bytes[tokens[last].start] == opener else {
                    throw SwiftLexError(line: line(of: token.start), message: "a '\(Character(Unicode.Scalar(b)))' that closes nothing open")
                }
                partner[last] = index
                partner[index] = last
            }
        }
        if let open = stack.last {
            throw SwiftLexError(
                line: line(of: tokens[open].start),
                message: "a '\(Character(Unicode.Scalar(bytes[tokens[open].start])))' that is never closed")
        }
    }
}
