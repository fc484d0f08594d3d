import Foundation
import Testing

/// The references the documentation makes must name what exists: a symbol a doc comment links
/// (``DisplayOrder/update(source:plan:change:hidden:)``) must be declared with those argument
/// labels, and a file or folder a guide names (`Sorting/External/KeyBytes.swift`) must be in the
/// package. A rename that leaves a reference behind fails here.
@Suite("references in the documentation")
struct DocReferenceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The package's files under `folder` whose names end with `suffix`, as paths from the root.
    static func files(under folder: String, ending suffix: String) -> [String] {
        let base = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(atPath: base.path) else { return [] }
        var found: [String] = []
        while let path = walker.nextObject() as? String {
            if path.hasPrefix(".build") || path.contains("/.build/") { walker.skipDescendants(); continue }
            if path.hasSuffix(suffix) { found.append(folder + "/" + path) }
        }
        return found.sorted()
    }

    static func read(_ path: String) -> String {
        (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)) ?? ""
    }

    /// What the sources declare: every name, and every callable's name with its argument labels
    /// (`update(source:plan:change:hidden:)`, `init(_:at:)`, an enum case's `sourceAnswerInvalid(_:)`).
    static func declarations() -> (names: Set<String>, signatures: Set<String>) {
        var names = Set<String>(), signatures = Set<String>()
        let keywords = ["func", "var", "let", "case", "class", "struct", "enum", "protocol", "typealias", "actor", "associatedtype"]
        for path in files(under: "Sources", ending: ".swift") {
            let code = read(path).split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
            let chars = Array(code.unicodeScalars)
            let words = Self.words(chars)
            for (k, word) in words.enumerated() where k + 1 < words.count && keywords.contains(word.text) {
                let next = words[k + 1]
                names.insert(next.text)
                // A callable: its name, then its parameters (a case's associated values).
                var i = next.end
                if word.text == "func", i < chars.count, chars[i] == "<" { i = Self.skip(chars, from: i, open: "<", close: ">") }
                while i < chars.count, chars[i] == " " { i += 1 }
                if ["func", "case"].contains(word.text), i < chars.count, chars[i] == "(" {
                    signatures.insert(next.text + "(" + Self.labels(chars, from: i, isCase: word.text == "case") + ")")
                }
                // `case a, b(Int), c`: the names after commas.
                if word.text == "case" {
                    var j = i
                    if j < chars.count, chars[j] == "(" { j = Self.skip(chars, from: j, open: "(", close: ")") }
                    while j < chars.count, chars[j] == "," {
                        j += 1
                        while j < chars.count, chars[j] == " " || chars[j] == "\n" { j += 1 }
                        let start = j
                        while j < chars.count, Self.isIdentifier(chars[j]) { j += 1 }
                        guard j > start else { break }
                        let name = String(String.UnicodeScalarView(chars[start..<j]))
                        names.insert(name)
                        if j < chars.count, chars[j] == "(" {
                            signatures.insert(name + "(" + Self.labels(chars, from: j, isCase: true) + ")")
                            j = Self.skip(chars, from: j, open: "(", close: ")")
                        }
                        while j < chars.count, chars[j] == " " { j += 1 }
                    }
                }
            }
            // Initializers and subscripts.
            for (k, word) in words.enumerated() where word.text == "init" || word.text == "subscript" {
                var i = word.end
                if i < chars.count, chars[i] == "?" || chars[i] == "!" { i += 1 }
                if i < chars.count, chars[i] == "<" { i = Self.skip(chars, from: i, open: "<", close: ">") }
                guard i < chars.count, chars[i] == "(", k == 0 || words[k - 1].text != "." else { continue }
                signatures.insert(word.text + "(" + Self.labels(chars, from: i, isCase: false) + ")")
            }
        }
        return (names, signatures)
    }

    static func isIdentifier(_ c: Unicode.Scalar) -> Bool { c == "_" || c.properties.isAlphabetic || ("0"..."9").contains(c) }

    /// The identifiers of the code, with where each ends.
    static func words(_ chars: [Unicode.Scalar]) -> [(text: String, end: Int)] {
        var words: [(String, Int)] = []
        var i = 0
        while i < chars.count {
            if chars[i] == "`" {
                var j = i + 1
                while j < chars.count, chars[j] != "`", chars[j] != "\n" { j += 1 }
                if j < chars.count, chars[j] == "`" {
                    words.append((String(String.UnicodeScalarView(chars[(i + 1)..<j])), j + 1))
                    i = j + 1
                    continue
                }
            }
            if isIdentifier(chars[i]), i == 0 || !isIdentifier(chars[i - 1]) {
                var j = i
                while j < chars.count, isIdentifier(chars[j]) { j += 1 }
                words.append((String(String.UnicodeScalarView(chars[i..<j])), j))
                i = j
                continue
            }
            if chars[i] == "." { words.append((".", i + 1)) }
            i += 1
        }
        return words
    }

    /// Past the bracket opened at `from` (nested ones, and `->` inside, passed over).
    static func skip(_ chars: [Unicode.Scalar], from: Int, open: Unicode.Scalar, close: Unicode.Scalar) -> Int {
        var depth = 0, i = from
        while i < chars.count {
            let c = chars[i]
            if c == "(" || c == "[" || c == "<" { depth += 1 }
            if c == ")" || c == "]" || (c == ">" && !(i > 0 && chars[i - 1] == "-")) { depth -= 1 }
            i += 1
            if depth == 0 { return i }
        }
        return i
    }

    /// The argument labels of the parameter list opened at `from`: `source:plan:` — `_:` for an
    /// unlabelled one (every associated value of a case without a label).
    static func labels(_ chars: [Unicode.Scalar], from: Int, isCase: Bool) -> String {
        let end = skip(chars, from: from, open: "(", close: ")")
        let inside = Array(chars[(from + 1)..<max(from + 1, end - 1)])
        var parts: [[Unicode.Scalar]] = [], current: [Unicode.Scalar] = [], depth = 0
        for (i, c) in inside.enumerated() {
            if c == "(" || c == "[" || c == "<" { depth += 1 }
            if c == ")" || c == "]" || (c == ">" && !(i > 0 && inside[i - 1] == "-")) { depth -= 1 }
            if c == ",", depth == 0 { parts.append(current); current = [] } else { current.append(c) }
        }
        if !current.allSatisfy({ $0 == " " || $0 == "\n" }) { parts.append(current) }
        return parts.map { part -> String in
            let text = String(String.UnicodeScalarView(part))
            guard let colon = text.firstIndex(of: ":"), !text[..<colon].contains("(") else { return "_:" }
            let head = text[..<colon].split(whereSeparator: { $0 == " " || $0 == "\n" })
                .filter { !$0.hasPrefix("@") && !["inout", "borrowing", "consuming", "isolated", "sending"].contains(String($0)) }
            guard let first = head.first else { return "_:" }
            return isCase && head.isEmpty ? "_:" : "\(first):"
        }.joined()
    }

    @Test("every symbol a doc comment links is declared, with the argument labels it names")
    func symbolLinks() {
        let (names, signatures) = Self.declarations()
        var broken: [String] = []
        for path in Self.files(under: "Sources", ending: ".swift") {
            for (n, line) in Self.read(path).split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.contains("///") {
                var rest = Substring(line)
                while let open = rest.range(of: "``") {
                    let after = rest[open.upperBound...]
                    guard let close = after.range(of: "``") else { break }
                    let reference = String(after[..<close.lowerBound])
                    rest = after[close.upperBound...]
                    // (`` `default` `` is code that holds backticks, not a link.)
                    if reference.hasPrefix(" ") || reference.contains("`") { continue }
                    // The last component, without DocC's disambiguation (`-swift.type.method`).
                    var last = String(reference.split(separator: "/").last ?? "")
                    if let dash = last.range(of: "-swift.") { last = String(last[..<dash.lowerBound]) }
                    let found = last.contains("(") ? signatures.contains(last) : names.contains(String(last.split(separator: ".").last ?? ""))
                    if !found { broken.append("\(path):\(n + 1): ``\(reference)``") }
                }
            }
        }
        #expect(broken.isEmpty, "links to nothing declared:\n\(broken.joined(separator: "\n"))")
    }

    @Test("every file and folder the README and the guides name is in the package")
    func pathsInGuides() {
        let guides = ["README.md", "CHANGELOG.md", "Benchmarks/README.md", "Benchmarks/History.md"] + Self.files(under: "Documentation", ending: ".md")
        let everything =
            Self.files(under: "Sources", ending: "") + Self.files(under: "Tests", ending: "")
            + Self.files(under: "Benchmarks/Sources", ending: "")
        var missing: [String] = []
        let folders = ["Sources/", "Tests/", "Examples/", "Documentation/", "Benchmarks/"]
        let fileEndings = [".swift", ".md", ".json", ".csv", ".sqlite", ".txt", ".sh"]
        for guide in guides {
            let text = Self.read(guide)
            var named: [String] = []
            // `Sorting/External/KeyBytes.swift`, `Examples/groups.csv`
            for piece in text.split(separator: "`") where !piece.contains(" ") && piece.contains("/") {
                let token = String(piece)
                // (A folder: `Sorting/External/`.)
                let folder = token.hasSuffix("/") && token.allSatisfy { $0.isLetter || $0.isNumber || "/+-_".contains($0) }
                guard folders.contains(where: token.hasPrefix) || fileEndings.contains(where: token.hasSuffix) || folder,
                    !token.hasPrefix("http"), !token.hasPrefix("/"), !token.hasPrefix("~"), !token.hasPrefix("."),
                    !token.hasPrefix("-"), !token.contains("*"), !token.contains("<"), !token.contains(".build")
                else { continue }
                named.append(token)
            }
            // [text](path)
            var rest = Substring(text)
            while let open = rest.range(of: "](") {
                let after = rest[open.upperBound...]
                guard let close = after.firstIndex(of: ")") else { break }
                let target = after[..<close].split(separator: "#").first.map(String.init) ?? ""
                rest = after[close...]
                if !target.isEmpty, !target.hasPrefix("http"), !target.contains(" ") {
                    let folder = (guide as NSString).deletingLastPathComponent
                    named.append(folder.isEmpty ? target : folder + "/" + target)
                }
            }
            // A path is the package's, or (`Results/`) the guide's own folder's.
            let here = (guide as NSString).deletingLastPathComponent
            for token in named {
                let path = token.hasSuffix("/") ? String(token.dropLast()) : token
                if FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path) { continue }
                if !here.isEmpty, FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(here + "/" + path).path) { continue }
                if everything.contains(where: { $0.hasSuffix("/" + path) }) { continue }
                missing.append("\(guide): \(token)")
            }
        }
        #expect(missing.isEmpty, "named but not in the package:\n\(missing.joined(separator: "\n"))")
    }
}
