import Foundation

/// The declarations of a Swift file that `trellis port` rewrites around: type bodies split into
/// members, function signatures, postfix-expression chains. A token-level reading, enough for
/// the idioms it rewrites; anything it cannot place it leaves alone.
extension SwiftSource {
    static let modifierWords: Set<String> = [
        "static", "override", "public", "private", "fileprivate", "internal", "open", "final", "convenience",
        "required", "mutating", "nonmutating", "lazy", "weak", "unowned", "dynamic", "optional", "nonisolated",
        "package", "indirect", "prefix", "postfix", "infix", "consuming", "borrowing",
    ]
    static let declarationWords: Set<String> = [
        "func", "var", "let", "init", "deinit", "subscript", "typealias", "associatedtype", "struct", "enum",
        "protocol", "extension", "actor", "case", "operator", "macro", "class",
    ]
    /// Words after which a `.` does not continue a chain (`return .none`).
    static let expressionKeywords: Set<String> = [
        "return", "in", "if", "guard", "while", "case", "try", "await", "throw", "let", "var", "else", "switch",
        "where", "is", "as", "repeat", "defer", "do", "catch", "for", "yield",
    ]

    /// The top-level declarations introduced by one of `words` (`protocol`, `class`,
    /// `extension`) that have a body: the keyword's index, and the body's `{`.
    func topLevelBodies(_ words: Set<String>) -> [(keyword: Int, open: Int)] {
        var found: [(keyword: Int, open: Int)] = []
        var i = 0
        while i < tokens.count {
            if tokens[i].kind == .identifier, words.contains(text(i)), !isPunctuation(i - 1, UInt8(ascii: ".")),
                i + 1 < tokens.count, tokens[i + 1].kind == .identifier, let open = bodyOpen(after: i)
            {
                found.append((i, open))
                i = partner[open] + 1
                continue
            }
            // Skip over every bracket: a nested declaration is not top-level.
            if partner[i] > i { i = partner[i] }
            i += 1
        }
        return found
    }

    /// The `{` that opens the body of the declaration whose keyword is at `keyword` (`class`,
    /// `protocol`, `extension`), or `nil` where a `;` or `}` comes first. The search is bounded,
    /// so a file of bodiless declarations costs linear time.
    func bodyOpen(after keyword: Int) -> Int? {
        var i = keyword + 1
        while i < tokens.count, i < keyword + 4096 {
            if isPunctuation(i, UInt8(ascii: "{")) { return i }
            if isPunctuation(i, UInt8(ascii: ";")) || isPunctuation(i, UInt8(ascii: "}")) { return nil }
            // A new declaration on a line of its own: this one had no body.
            if tokens[i].lineBreakBefore,
                tokens[i].kind == .attribute
                    || (tokens[i].kind == .identifier && (Self.declarationWords.contains(text(i)) || Self.modifierWords.contains(text(i))))
            {
                return nil
            }
            if partner[i] > i { i = partner[i] }
            i += 1
        }
        return nil
    }

    func isPostfixMark(_ index: Int) -> Bool {
        guard index >= 0, index < tokens.count else { return false }
        let token = tokens[index]
        return token.kind == .operator && token.end == token.start + 1 && !token.spaceBefore
            && (bytes[token.start] == UInt8(ascii: "?") || bytes[token.start] == UInt8(ascii: "!"))
    }

    func isPunctuation(_ index: Int, _ spelling: UInt8) -> Bool {
        index >= 0 && index < tokens.count && tokens[index].kind == .punctuation && bytes[tokens[index].start] == spelling
            && tokens[index].end == tokens[index].start + 1
    }

    /// The members of the type body whose `{` is `open`: token index ranges, each from its first
    /// attribute or modifier to its last token.
    func members(ofBodyAt open: Int) -> [ClosedRange<Int>] {
        let close = partner[open]
        guard close > open + 1 else { return [] }
        var starts: [Int] = []
        var inPrefix = false
        var i = open + 1
        var previousWasSemicolon = true
        while i < close {
            let token = tokens[i]
            let word = text(token)
            let starter =
                token.kind == .attribute || token.kind == .pound
                || (token.kind == .identifier && (Self.modifierWords.contains(word) || Self.declarationWords.contains(word)))
            if starter, token.lineBreakBefore || previousWasSemicolon || i == open + 1, !inPrefix {
                starts.append(i)
            }
            previousWasSemicolon = isPunctuation(i, UInt8(ascii: ";"))
            if token.kind == .attribute {
                inPrefix = true
                if isPunctuation(i + 1, UInt8(ascii: "(")), !tokens[i + 1].spaceBefore { i = partner[i + 1] }
            } else if token.kind == .identifier, Self.modifierWords.contains(word) {
                inPrefix = true
                if isPunctuation(i + 1, UInt8(ascii: "(")), !tokens[i + 1].spaceBefore { i = partner[i + 1] }  // private(set)
            } else if token.kind == .identifier, word == "class", i + 1 < close,
                ["func", "var", "let", "subscript"].contains(text(i + 1)) || Self.modifierWords.contains(text(i + 1))
            {
                inPrefix = true  // `class func`: a modifier here
            } else {
                inPrefix = false
            }
            if partner[i] > i { i = partner[i] }
            i += 1
        }
        if starts.isEmpty { return [] }
        var ranges: [ClosedRange<Int>] = []
        for (k, start) in starts.enumerated() {
            let end = k + 1 < starts.count ? starts[k + 1] - 1 : close - 1
            if end >= start { ranges.append(start...end) }
        }
        return ranges
    }

    /// The index of a member's introducing keyword (`func`, `var`, `init`…) after its attributes
    /// and modifiers, or `nil`.
    func declarationKeyword(in member: ClosedRange<Int>) -> Int? {
        var i = member.lowerBound
        while i <= member.upperBound {
            let token = tokens[i]
            let word = text(token)
            if token.kind == .attribute || token.kind == .pound {
                if isPunctuation(i + 1, UInt8(ascii: "(")), !tokens[i + 1].spaceBefore { i = partner[i + 1] }
            } else if token.kind == .identifier, word == "class",
                ["func", "var", "let", "subscript"].contains(text(i + 1))
                    || Self.modifierWords.contains(text(i + 1))
            {
                // a modifier
            } else if token.kind == .identifier, Self.modifierWords.contains(word) {
                if isPunctuation(i + 1, UInt8(ascii: "(")), !tokens[i + 1].spaceBefore { i = partner[i + 1] }
            } else if token.kind == .identifier, Self.declarationWords.contains(word) {
                return i
            } else {
                return nil
            }
            i += 1
        }
        return nil
    }

    /// Whether a member carries the modifier `word` before its keyword.
    func modifier(_ word: String, in member: ClosedRange<Int>) -> Int? {
        guard let keyword = declarationKeyword(in: member) else { return nil }
        return (member.lowerBound..<keyword).first { tokens[$0].kind == .identifier && text($0) == word }
    }

    /// A function's signature from its `func` keyword: name, the parameter clause's brackets, the
    /// `->` (if any) and the last token of the signature.
    struct Signature {
        var name: String
        var open: Int
        var close: Int
        var arrow: Int?
        var throwsToken: Int?
        var last: Int
        /// `name(label:label:)`.
        var fullName: String
        /// The result type's text; empty for none.
        var result: String
    }

    func signature(at keyword: Int, within member: ClosedRange<Int>) -> Signature? {
        guard keyword + 1 <= member.upperBound else { return nil }
        let name = text(keyword + 1)
        var i = keyword + 2
        while i <= member.upperBound, !isPunctuation(i, UInt8(ascii: "(")) { i += 1 }
        guard i <= member.upperBound else { return nil }
        let open = i, close = partner[i]
        guard close > open, close <= member.upperBound else { return nil }
        var arrow: Int?
        var throwsToken: Int?
        var last = close
        var j = close + 1
        while j <= member.upperBound {
            if isPunctuation(j, UInt8(ascii: "{")) { break }  // a body
            if tokens[j].kind == .identifier, text(j) == "where" { break }
            if tokens[j].kind == .operator, text(j) == "->", arrow == nil { arrow = j }
            if tokens[j].kind == .identifier, ["throws", "rethrows"].contains(text(j)), arrow == nil { throwsToken = j }
            last = partner[j] > j ? partner[j] : j
            j = last + 1
        }
        let result = arrow.map { text(from: tokens[$0].end, to: tokens[last].end).trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
        return Signature(
            name: name, open: open, close: close, arrow: arrow, throwsToken: throwsToken, last: last,
            fullName: name + "(" + parameterLabels(open: open).map { $0 + ":" }.joined() + ")", result: result)
    }

    /// The argument labels of a parameter clause: `_` where there is none.
    func parameterLabels(open: Int) -> [String] {
        var labels: [String] = []
        for argument in topLevelItems(open: open) {
            var names: [String] = []
            for k in argument where k < tokens.count {
                if isPunctuation(k, UInt8(ascii: ":")) { break }
                if tokens[k].kind == .identifier { names.append(text(k).replacingOccurrences(of: "`", with: "")) }
            }
            labels.append(names.first ?? "_")
        }
        return labels
    }

    /// The argument labels of a call's argument list: `_` for an unlabelled argument.
    func argumentLabels(open: Int) -> [String] {
        topLevelItems(open: open).map { argument in
            if let first = argument.first, tokens[first].kind == .identifier, isPunctuation(first + 1, UInt8(ascii: ":")),
                argument.contains(first + 1)
            {
                return text(first).replacingOccurrences(of: "`", with: "")
            }
            return "_"
        }
    }

    /// The comma-separated items inside the bracket at `open`, as token index ranges.
    func topLevelItems(open: Int) -> [ClosedRange<Int>] {
        let close = partner[open]
        guard close > open + 1 else { return [] }
        var items: [ClosedRange<Int>] = []
        var start = open + 1
        var i = open + 1
        while i < close {
            if isPunctuation(i, UInt8(ascii: ",")) {
                if i > start { items.append(start...(i - 1)) }
                start = i + 1
            } else if partner[i] > i {
                i = partner[i]
            }
            i += 1
        }
        if close > start { items.append(start...(close - 1)) }
        return items
    }

    /// The first token of the postfix expression whose member name is the token at `name`
    /// (`self.collectionView?.delegate` for `…delegate?.responds`): back over `.member`,
    /// postfix `?`/`!`, calls and subscripts.
    func chainStart(memberName name: Int) -> Int {
        var j = name
        while true {
            let dot = j - 1
            guard isPunctuation(dot, UInt8(ascii: ".")) else { return j }
            var k = dot - 1
            while isPostfixMark(k) { k -= 1 }
            guard let primary = primaryStart(endingAt: k) else { return j }
            j = primary
        }
    }

    private func primaryStart(endingAt end: Int) -> Int? {
        var k = end
        while true {
            guard k >= 0 else { return nil }
            let token = tokens[k]
            switch token.kind {
            case .identifier:
                return Self.expressionKeywords.contains(text(token)) ? nil : k
            case .string, .number:
                return k
            case .punctuation where isPunctuation(k, UInt8(ascii: ")")) || isPunctuation(k, UInt8(ascii: "]")):
                let opener = partner[k]
                guard opener >= 0 else { return nil }
                // A call or subscript continues back to what it applies to; a bare bracket
                // (a parenthesized expression, an array literal) is the primary itself.
                guard opener > 0, !tokens[opener].spaceBefore else { return opener }
                var before = opener - 1
                while isPostfixMark(before) { before -= 1 }
                guard before >= 0,
                    tokens[before].kind == .identifier || tokens[before].kind == .string
                        || isPunctuation(before, UInt8(ascii: ")")) || isPunctuation(before, UInt8(ascii: "]")),
                    !(tokens[before].kind == .identifier && Self.expressionKeywords.contains(text(before)))
                else { return opener }
                k = before
            default:
                return nil
            }
        }
    }

    /// The last token of the postfix expression that continues after the token at `end`
    /// (`?.count`, `!`, `(…)`, `[…]`).
    func chainEnd(after end: Int) -> Int {
        var e = end
        while e + 1 < tokens.count {
            let next = e + 1
            if isPostfixMark(next) { e = next; continue }
            if isPunctuation(next, UInt8(ascii: ".")), next + 1 < tokens.count, tokens[next + 1].kind == .identifier,
                !tokens[next + 1].spaceBefore
            {
                e = next + 1; continue
            }
            if isPunctuation(next, UInt8(ascii: "(")) || isPunctuation(next, UInt8(ascii: "[")), !tokens[next].spaceBefore {
                e = partner[next]; continue
            }
            break
        }
        return e
    }

    /// Whether the chain from `start` to `end` (token indices) chains optionally: a postfix `?`
    /// followed by a member, call or subscript.
    func chainsOptionally(from start: Int, to end: Int) -> Bool {
        var i = start
        while i <= end {
            if isPostfixMark(i), bytes[tokens[i].start] == UInt8(ascii: "?") { return true }
            if partner[i] > i { i = partner[i] }
            i += 1
        }
        return false
    }

    /// The whitespace that starts the line holding the token at `index`.
    func indentation(of index: Int) -> String {
        let start = lineStart(of: tokens[index].start)
        var end = start
        while end < bytes.count, bytes[end] == UInt8(ascii: " ") || bytes[end] == UInt8(ascii: "\t") { end += 1 }
        return text(from: start, to: end)
    }
}
