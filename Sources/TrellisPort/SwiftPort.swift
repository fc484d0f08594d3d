import Foundation

/// One change `trellis port` made, or one place it left for a person, with the reason.
public struct PortChange: Equatable, Sendable {
    public var path: String
    /// The 1-based line of the input file.
    public var line: Int
    public var change: String
    public var reason: String

    public init(path: String, line: Int, change: String, reason: String) {
        self.path = path
        self.line = line
        self.change = change
        self.reason = reason
    }

    /// `path:line: change — reason`.
    public var description: String { "\(path):\(line): \(change) — \(reason)" }
}

/// A file as read and as ported.
public struct PortedFile: Equatable, Sendable {
    public var path: String
    public var original: String
    public var ported: String
}

/// What a port did: the files, every change, and the places left for a person.
public struct PortOutcome: Equatable, Sendable {
    public var files: [PortedFile]
    public var changes: [PortChange]
    public var left: [PortChange]
}

/// A file that cannot be read as Swift: which, where, and what was wrong.
public struct PortError: Error, Equatable, CustomStringConvertible {
    public var path: String
    public var line: Int
    public var message: String
    public var description: String { "\(path):\(line): \(message)" }
}

/// Ports UIKit Swift source to Trellis: the mechanical step, then the rewrites of the idioms that
/// only compile with the Objective-C runtime (see `Documentation/CustomLayouts.md`, "Porting
/// code that uses Objective-C idioms").
public enum SwiftPort {
    /// The mechanical step alone, renaming (see ``port(_:writing:renaming:)``).
    public static func mechanicalStep(_ source: String) -> String {
        guard let parsed = try? SwiftSource(source) else { return source }
        return mechanical(parsed, path: "", renaming: true, declared: declaredTypes(parsed)).text
    }

    /// Ports `files` together: a protocol declared in one file and called in another is
    /// rewritten in both, and an override in an extension moves into its class wherever that
    /// class is declared among them. Only files whose paths are in `writing` (all, when `nil`)
    /// are changed; the others are read for their declarations.
    ///
    /// UIKit's names stay as they are (the `UIKit` module on Linux has them) unless `renaming`:
    /// then the mechanical step gives each Trellis's own name — `import UIKit` → `import
    /// Trellis`, `UICollectionViewLayout` → `CollectionViewLayout`, `NSCollectionLayoutSize` →
    /// `CollectionLayoutSize`, `CATransform3DMakeScale` → `Transform3DMakeScale` — and the UIKit-style
    /// names a file declares itself lose their prefix alike. Either way a UIKit name Trellis does
    /// not implement is listed as left (the file will not compile on Linux while it uses it), and
    /// nothing inside a string literal or a comment changes (an interpolation's code does).
    public static func port(
        _ files: [(path: String, text: String)], writing: Set<String>? = nil, renaming: Bool = false
    ) throws(PortError) -> PortOutcome {
        var rewriter = try Rewriter(files: files, writing: writing, renaming: renaming)
        return rewriter.run()
    }

    /// The type names `source` declares (class, struct, enum, protocol, typealias, actor).
    static func declaredTypes(_ source: SwiftSource) -> Set<String> {
        var names: Set<String> = []
        let keywords: Set<String> = ["class", "struct", "enum", "protocol", "typealias", "actor"]
        for (i, token) in source.tokens.enumerated() where token.kind == .identifier && keywords.contains(source.text(i)) {
            if i + 1 < source.tokens.count, source.tokens[i + 1].kind == .identifier { names.insert(source.text(i + 1)) }
        }
        return names
    }

    /// The identifiers of `source` outside strings and comments, and those of the code inside
    /// its strings' interpolations: each token's byte range and text, and whether `import`
    /// comes right before it.
    static func identifiers(_ source: SwiftSource) -> [(range: Range<Int>, text: String, imported: Bool)] {
        var out: [(range: Range<Int>, text: String, imported: Bool)] = []
        for (i, token) in source.tokens.enumerated() {
            if token.kind == .identifier {
                out.append((token.start..<token.end, source.text(token), i > 0 && source.text(i - 1) == "import"))
            } else if token.kind == .string {
                for code in interpolations(in: source.bytes, token.start..<token.end) {
                    guard let inner = try? SwiftSource(String(decoding: source.bytes[code], as: UTF8.self)) else { continue }
                    for (range, text, _) in identifiers(inner) {
                        out.append(((range.lowerBound + code.lowerBound)..<(range.upperBound + code.lowerBound), text, false))
                    }
                }
            }
        }
        return out
    }

    /// The byte ranges of the code of a string literal's interpolations (`\(…)`, `\#(…)` in a
    /// raw string), between their parentheses.
    static func interpolations(in bytes: [UInt8], _ literal: Range<Int>) -> [Range<Int>] {
        var hashes = 0
        var i = literal.lowerBound
        while i < literal.upperBound, bytes[i] == UInt8(ascii: "#") { hashes += 1; i += 1 }
        var ranges: [Range<Int>] = []
        while i < literal.upperBound {
            guard bytes[i] == UInt8(ascii: "\\") else { i += 1; continue }
            var j = i + 1
            var count = 0
            while j < literal.upperBound, bytes[j] == UInt8(ascii: "#") { count += 1; j += 1 }
            guard count == hashes, j < literal.upperBound, bytes[j] == UInt8(ascii: "(") else { i = j; continue }
            // The matching parenthesis, passing over nested strings.
            var depth = 1
            var k = j + 1
            var quoted = false
            while k < literal.upperBound, depth > 0 {
                let c = bytes[k]
                if c == UInt8(ascii: "\\") { k += 2; continue }
                if c == UInt8(ascii: "\"") { quoted.toggle() }
                if !quoted { if c == UInt8(ascii: "(") { depth += 1 } else if c == UInt8(ascii: ")") { depth -= 1 } }
                k += 1
            }
            if depth == 0 { ranges.append((j + 1)..<(k - 1)) }
            i = k
        }
        return ranges
    }

    /// The mechanical step on one file: with `renaming`, UIKit's names to Trellis's (and the
    /// UIKit-style names `declared` in the files, without their prefix); UIKit names Trellis does
    /// not implement listed as left either way.
    static func mechanical(_ source: SwiftSource, path: String, renaming: Bool, declared: Set<String>)
        -> (text: String, changes: [PortChange], left: [PortChange])
    {
        var edits: [(range: Range<Int>, to: String)] = []
        var renamed: [String: (line: Int, count: Int, to: String)] = [:]
        var renamedOrder: [String] = []
        var missing: [String: (line: Int, count: Int)] = [:]
        var missingOrder: [String] = []
        for (range, name, imported) in identifiers(source) {
            let line = source.line(of: range.lowerBound)
            var to: String?
            if name == "UIKit" {
                if imported { to = "Trellis" }
            } else if let trellis = UIKitNames.renamed[name] {
                to = trellis
            } else if UIKitNames.kept.contains(name) || !UIKitNames.looksLikeUIKit(name) {
                continue
            } else if declared.contains(name) {
                to = String(name.dropFirst(2))
            } else {
                if missing[name] == nil {
                    missing[name] = (line, 0)
                    missingOrder.append(name)
                }
                missing[name]!.count += 1
                continue
            }
            guard renaming, let to else { continue }
            edits.append((range, to))
            let from = imported ? "import \(name)" : name
            if renamed[from] == nil {
                renamed[from] = (line, 0, imported ? "import \(to)" : to)
                renamedOrder.append(from)
            }
            renamed[from]!.count += 1
        }
        var bytes = source.bytes
        for (range, to) in edits.reversed() { bytes.replaceSubrange(range, with: Array(to.utf8)) }
        let changes = renamedOrder.map { from in
            let entry = renamed[from]!
            return PortChange(
                path: path, line: entry.line, change: "\(from) → \(entry.to)\(entry.count == 1 ? "" : " (\(entry.count) times)")",
                reason: from.hasPrefix("import")
                    ? "the mechanical step: Trellis is the module a UIKit file's collection-view code needs"
                    : declared.contains(from)
                        ? "the mechanical step: a name of the file's own, in UIKit's style, without the prefix as the others"
                        : "the mechanical step: Trellis names UIKit's types without the prefix")
        }
        let left = missingOrder.map { name in
            let entry = missing[name]!
            return PortChange(
                path: path, line: entry.line, change: "left: \(name)\(entry.count == 1 ? "" : " (\(entry.count) times)")",
                reason: "UIKit's, and Trellis does not implement it: the file does not compile on Linux while it uses it; "
                    + "replace it, or keep the code that uses it out of the Linux build")
        }
        return (String(decoding: bytes, as: UTF8.self), changes, left)
    }
}

/// A replacement of a byte range of one file's text (after the mechanical step).
struct Edit {
    var start: Int
    var end: Int
    var replacement: String
}

/// What a `?(` call of a requirement becomes.
enum OptionalCall {
    /// A plain call: the requirement now has a default that answers as not implementing it did
    /// (nothing for `Void`, `nil` for an optional result, the layout's own value for UIKit's).
    case plain
    /// `(try? …)`: the default throws, so the caller's own fallback still applies.
    case throwing
}

struct Rewriter {
    var paths: [String]
    var writing: Set<String>?
    var sources: [SwiftSource] = []
    var edits: [[Edit]]
    var changes: [PortChange] = []
    var left: [PortChange] = []
    var mechanicalTexts: [String] = []
    var originals: [String]

    /// Optional requirements declared in the files: full name → how its calls are rewritten.
    var declaredOptional: [String: OptionalCall] = [:]
    /// Classes declared at the top level: name → (file, index of the body's `{`).
    var classes: [String: (file: Int, open: Int)] = [:]

    init(files: [(path: String, text: String)], writing: Set<String>?, renaming: Bool) throws(PortError) {
        paths = files.map(\.path)
        originals = files.map(\.text)
        self.writing = writing
        edits = Array(repeating: [], count: files.count)
        func read(_ text: String, _ path: String) throws(PortError) -> SwiftSource {
            do {
                return try SwiftSource(text)
            } catch {
                throw PortError(
                    path: path, line: error.line,
                    message: "cannot read this file as Swift: \(error.message); "
                        + "it must compile with Swift before it can be ported")
            }
        }
        let parsed = try files.map { file throws(PortError) in try read(file.text, file.path) }
        let declared = parsed.reduce(into: Set<String>()) { $0.formUnion(SwiftPort.declaredTypes($1)) }
        for ((path, _), source) in zip(files, parsed) {
            let (ported, mechanicalChanges, missing) = SwiftPort.mechanical(source, path: path, renaming: renaming, declared: declared)
            if writes(path) {
                changes += mechanicalChanges
                left += missing
            }
            mechanicalTexts.append(ported)
            // Read again only where the step changed the text.
            sources.append(mechanicalChanges.isEmpty ? source : try read(ported, path))
        }
    }

    func writes(_ path: String) -> Bool { writing?.contains(path) ?? true }

    mutating func run() -> PortOutcome {
        collectDeclarations()
        for file in sources.indices where writes(paths[file]) {
            rewriteOptionalRequirements(file)
            rewriteCalls(file)
            rewriteRuntimeChecks(file)
            removeAttributes(file)
            moveOverrides(file)
        }
        var ported: [PortedFile] = []
        for file in sources.indices where writes(paths[file]) {
            ported.append(
                PortedFile(
                    path: paths[file], original: originals[file],
                    ported: apply(edits[file], to: sources[file].bytes)))
        }
        let order = Dictionary(uniqueKeysWithValues: paths.enumerated().map { ($1, $0) })
        func sorted(_ list: [PortChange]) -> [PortChange] {
            list.enumerated().sorted { a, b in
                let (x, y) = (a.element, b.element)
                if x.path != y.path { return order[x.path, default: 0] < order[y.path, default: 0] }
                if x.line != y.line { return x.line < y.line }
                return a.offset < b.offset
            }.map(\.element)
        }
        return PortOutcome(files: ported, changes: sorted(changes), left: sorted(left))
    }

    // MARK: Edits

    /// Adds an edit unless it overlaps one already made (the first rewrite of a range wins); an
    /// insertion may not fall inside a replaced range either.
    @discardableResult
    mutating func edit(_ file: Int, _ start: Int, _ end: Int, _ replacement: String) -> Bool {
        for existing in edits[file] where start < existing.end && existing.start < end {
            return false
        }
        edits[file].append(Edit(start: start, end: end, replacement: replacement))
        return true
    }

    func apply(_ list: [Edit], to bytes: [UInt8], from lower: Int = 0, to upper: Int? = nil) -> String {
        let upper = upper ?? bytes.count
        var out: [UInt8] = []
        var position = lower
        let ordered = list.enumerated().sorted { a, b in
            a.element.start != b.element.start ? a.element.start < b.element.start : a.offset < b.offset
        }.map(\.element)
        for edit in ordered where edit.start >= lower && edit.end <= upper {
            guard edit.start >= position else { continue }
            out += bytes[position..<edit.start]
            out += Array(edit.replacement.utf8)
            position = edit.end
        }
        out += bytes[position..<upper]
        return String(decoding: out, as: UTF8.self)
    }

    func line(_ file: Int, _ token: Int) -> Int { sources[file].line(of: sources[file].tokens[token].start) }

    mutating func note(_ file: Int, _ token: Int, _ change: String, _ reason: String) {
        changes.append(PortChange(path: paths[file], line: line(file, token), change: change, reason: reason))
    }

    mutating func leave(_ file: Int, _ token: Int, _ change: String, _ reason: String) {
        left.append(PortChange(path: paths[file], line: line(file, token), change: change, reason: reason))
    }

    /// The range that removes the token at `index` (and its arguments, if `withGroup`) with the
    /// space after it, or its whole line when it stands alone there.
    func removal(_ file: Int, _ index: Int, through last: Int) -> (Int, Int) {
        let source = sources[file]
        let first = source.tokens[index]
        let end = source.tokens[last].end
        let next = last + 1 < source.tokens.count ? source.tokens[last + 1] : nil
        if first.lineBreakBefore, next?.lineBreakBefore ?? true {
            let lineStart = source.lineStart(of: first.start)
            let onlySpaceBefore = source.bytes[lineStart..<first.start].allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            var afterEnd = end
            while afterEnd < source.bytes.count, source.bytes[afterEnd] == UInt8(ascii: " ") || source.bytes[afterEnd] == UInt8(ascii: "\t") { afterEnd += 1 }
            if onlySpaceBefore, afterEnd >= source.bytes.count || source.bytes[afterEnd] == UInt8(ascii: "\n") {
                return (lineStart, min(afterEnd + 1, source.bytes.count))
            }
        }
        var stop = end
        while stop < source.bytes.count, source.bytes[stop] == UInt8(ascii: " ") || source.bytes[stop] == UInt8(ascii: "\t") { stop += 1 }
        return (first.start, stop)
    }

    // MARK: Declarations

    mutating func collectDeclarations() {
        for (file, source) in sources.enumerated() {
            for (i, open) in source.topLevelBodies(["class", "protocol"]) {
                let name = source.text(i + 1)
                if source.text(i) == "class" {
                    if classes[name] == nil { classes[name] = (file, open) }
                    continue
                }
                for member in source.members(ofBodyAt: open) where source.modifier("optional", in: member) != nil {
                    guard let keyword = source.declarationKeyword(in: member), source.text(keyword) == "func",
                        let signature = source.signature(at: keyword, within: member)
                    else { continue }
                    declaredOptional[signature.fullName] = Self.callKind(result: signature.result)
                }
            }
        }
    }

    static func callKind(result: String) -> OptionalCall {
        isVoid(result) || isOptional(result) ? .plain : .throwing
    }

    static func isVoid(_ type: String) -> Bool { ["", "Void", "()"].contains(type) }

    static func isOptional(_ type: String) -> Bool {
        type.hasSuffix("?") || type.hasSuffix("!") || type.hasPrefix("Optional<")
    }
}
