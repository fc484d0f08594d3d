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
    /// The mechanical step, exactly: `import UIKit` → `import Trellis`; `UIName` → `Name`;
    /// `NSCollectionLayout…` and `NSDiffableDataSource…` lose `NS`; `CATransform3D…` loses `CA`.
    public static let mechanicalRules: [(pattern: String, template: String)] = [
        (#"\bimport UIKit\b"#, "import Trellis"),
        (#"\bUI([A-Z]\w*)"#, "$1"),
        (#"\bNS(CollectionLayout\w*|DiffableDataSource\w*)"#, "$1"),
        (#"\bCA(Transform3D\w*)"#, "$1"),
    ]

    /// The mechanical step alone.
    public static func mechanicalStep(_ source: String) -> String { mechanical(source, path: "").text }

    /// Ports `files` together: a protocol declared in one file and called in another is
    /// rewritten in both, and an override in an extension moves into its class wherever that
    /// class is declared among them. Only files whose paths are in `writing` (all, when `nil`)
    /// are changed; the others are read for their declarations.
    public static func port(_ files: [(path: String, text: String)], writing: Set<String>? = nil) throws(PortError) -> PortOutcome {
        var rewriter = try Rewriter(files: files, writing: writing)
        return rewriter.run()
    }

    static func mechanical(_ source: String, path: String) -> (text: String, changes: [PortChange]) {
        var text = source
        var changes: [PortChange] = []
        for (pattern, template) in mechanicalRules {
            let regex = try! NSRegularExpression(pattern: pattern)
            let whole = NSRange(text.startIndex..., in: text)
            var seen: [String: (line: Int, count: Int, to: String)] = [:]
            var order: [String] = []
            for match in regex.matches(in: text, range: whole) {
                guard let range = Range(match.range, in: text) else { continue }
                let from = String(text[range])
                let to = regex.replacementString(for: match, in: text, offset: 0, template: template)
                if seen[from] == nil {
                    let line = text[..<range.lowerBound].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
                    seen[from] = (line, 0, to)
                    order.append(from)
                }
                seen[from]!.count += 1
            }
            for from in order {
                let entry = seen[from]!
                let times = entry.count == 1 ? "" : " (\(entry.count) times)"
                changes.append(
                    PortChange(
                        path: path, line: entry.line, change: "\(from) → \(entry.to)\(times)",
                        reason: pattern.contains("import")
                            ? "the mechanical step: Trellis is the module a UIKit file's collection-view code needs"
                            : "the mechanical step: Trellis names UIKit's types without the prefix"))
            }
            text = regex.stringByReplacingMatches(in: text, range: whole, withTemplate: template)
        }
        return (text, changes)
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

    init(files: [(path: String, text: String)], writing: Set<String>?) throws(PortError) {
        paths = files.map(\.path)
        originals = files.map(\.text)
        self.writing = writing
        edits = Array(repeating: [], count: files.count)
        for (path, text) in files {
            let (ported, mechanicalChanges) = SwiftPort.mechanical(text, path: path)
            if writes(path) { changes += mechanicalChanges }
            mechanicalTexts.append(ported)
            do {
                sources.append(try SwiftSource(ported))
            } catch {
                throw PortError(
                    path: path, line: error.line,
                    message: "cannot read this file as Swift: \(error.message); "
                        + "it must compile with Swift before it can be ported")
            }
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
