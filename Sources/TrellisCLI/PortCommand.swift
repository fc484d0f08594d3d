import Foundation
import TrellisGrid
import TrellisPort

/// `trellis port FILE…|DIR [--dry-run] [--stdout FILE]`: UIKit Swift source to Trellis.
enum PortCommand {
    static let definition = CommandDefinition(
        name: "port",
        overview: "Port UIKit Swift source to Trellis, rewriting the idioms that need Objective-C.",
        arguments: [("path", "Swift files or folders (their .swift files, hidden folders and .build left out).")],
        options: [
            OptionDefinition(names: ["--dry-run"], valueName: nil,
                             help: "Print the changes as a unified diff; write nothing."),
            OptionDefinition(names: ["--stdout"], valueName: "file",
                             help: "Print the ported text of this one file; write nothing. The <path>\narguments, if any, are read for their declarations."),
            OptionDefinition(names: ["--help", "-h"], valueName: nil, help: "Show help information."),
        ],
        discussion: """
        The files are ported together, in place: the mechanical step (import UIKit → import
        Trellis; UIName → Name; NSCollectionLayout…, NSDiffableDataSource… and CATransform3D…
        lose their prefix), then the idioms only the Objective-C runtime compiles:
          @objc optional requirements  → requirements with defaults in a protocol extension
          delegate?.method?(…)          → delegate?.method(…), or (try? …) where the default throws
          x.responds(to: #selector(…))  → true (nil through an optional chain)
          x.conforms(to: P.self)        → x is P
          override in an extension      → moved into the class (dropped if it only serves
                                          debugging a class declared elsewhere)
          @objc, @objcMembers, @IB…     → removed
        Every change is listed with its reason (on standard error with --dry-run and --stdout);
        what cannot be rewritten is listed as left, with what to do. A second run changes nothing.
        See Documentation/CustomLayouts.md, "Porting code that uses Objective-C idioms".

        EXIT STATUS: 0 ported, 1 some places are left for you (the rest is written) or a file
        cannot be read or written, 64 usage error, 65 a file is not UTF-8 or not valid Swift
        (nothing is written).
        """)

    static func run(_ arguments: [String], io: inout CommandIO) throws(CommandError) {
        let parsed = try definition.parse(arguments)
        let single = parsed.value("--stdout")
        let dryRun = parsed.flags.contains("--dry-run")
        if single != nil, dryRun { throw .usage("'--dry-run' and '--stdout' print different things; give one of them") }
        var paths: [String] = []
        for argument in parsed.positionals { paths += try swiftFiles(argument, io: io) }
        if let single {
            guard single.hasSuffix(".swift") else { throw .usage("'--stdout' takes one Swift file (.swift), not '\(Excerpt.of(single))'") }
            if !paths.contains(single) { paths.insert(single, at: 0) }
        }
        guard !paths.isEmpty else {
            throw .usage(parsed.positionals.isEmpty ? "Missing expected argument '<path>'"
                         : "No Swift files in \(parsed.positionals.map { "'\(Excerpt.of($0))'" }.joined(separator: ", "))")
        }
        var files: [(path: String, text: String)] = []
        for path in paths {
            let data = try io.read(path)
            guard let text = String(data: data, encoding: .utf8) else {
                throw .data("\(path): not UTF-8 text; Swift source is UTF-8")
            }
            files.append((path, text))
        }
        let outcome: PortOutcome
        do {
            outcome = try SwiftPort.port(files, writing: single.map { [$0] })
        } catch {
            throw .data(error.description)
        }
        var log = ""
        for change in outcome.changes { log += change.description + "\n" }
        for place in outcome.left { log += place.description + "\n" }
        let changed = outcome.files.filter { $0.original != $0.ported }
        if let single, let file = outcome.files.first(where: { $0.path == single }) {
            io.stdout += file.ported
            io.stderr += log + summary(outcome, changed: changed, verb: "would change")
        } else if dryRun {
            for file in changed {
                io.stdout += UnifiedDiff.diff(file.original, file.ported, oldName: "a/\(file.path)", newName: "b/\(file.path)")
            }
            io.stderr += log + summary(outcome, changed: changed, verb: "would change")
        } else {
            for file in changed { try io.write(file.ported, to: file.path) }
            io.stdout += log + summary(outcome, changed: changed, verb: "changed")
        }
        if !outcome.left.isEmpty {
            throw .failure("\(outcome.left.count) place\(outcome.left.count == 1 ? "" : "s") left for you (listed above)")
        }
    }

    static func summary(_ outcome: PortOutcome, changed: [PortedFile], verb: String) -> String {
        let files = outcome.files.count
        var line = "\(files) file\(files == 1 ? "" : "s") read, \(changed.count) \(verb), "
        line += "\(outcome.changes.count) change\(outcome.changes.count == 1 ? "" : "s")"
        if !outcome.left.isEmpty { line += ", \(outcome.left.count) left for you" }
        return line + ".\n"
    }

    /// The Swift files a path names: itself, or the `.swift` files under a folder, sorted, without
    /// hidden folders and `.build`.
    static func swiftFiles(_ path: String, io: CommandIO) throws(CommandError) -> [String] {
        let url = io.url(for: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw .failure("cannot read '\(Excerpt.of(path))': no such file or folder")
        }
        guard isDirectory.boolValue else {
            guard path.hasSuffix(".swift") else { throw .usage("'\(Excerpt.of(path))' is not a Swift file (.swift)") }
            return [path]
        }
        var found: [String] = []
        let base = path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isDirectoryKey],
                                                              options: [.skipsHiddenFiles]) else { return [] }
        for case let item as URL in enumerator {
            if item.lastPathComponent == ".build" { enumerator.skipDescendants(); continue }
            guard item.pathExtension == "swift" else { continue }
            let relative = String(item.path.dropFirst(url.path.count))
            found.append(base + relative)
        }
        return found.sorted()
    }
}
