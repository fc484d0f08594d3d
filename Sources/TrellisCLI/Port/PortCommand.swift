import Foundation
import TrellisGrid
import TrellisPort

/// `trellis port FILE…|DIR [--dry-run] [--stdout FILE] [--rename]`: UIKit Swift source to Trellis.
enum PortCommand {
    static let definition = CommandDefinition(
        name: "port",
        overview: "Port UIKit Swift source to Trellis, rewriting the idioms that need Objective-C.",
        arguments: [("path", "Swift files or folders (their .swift files, hidden folders and .build left out).")],
        options: [
            OptionDefinition(
                names: ["--dry-run"], valueName: nil,
                help: "Print the changes as a unified diff; write nothing."),
            OptionDefinition(
                names: ["--stdout"], valueName: "file",
                help: "Print the ported text of this one file; write nothing. The <path>\narguments, if any, are read for their declarations."),
            OptionDefinition(
                names: ["--rename"], valueName: nil,
                help:
                    "Also give UIKit's names Trellis's own (import UIKit → import Trellis,\nUIName → Name, …), for code that imports Trellis instead of UIKit."),
            .help,
        ],
        discussion: """
            The files are ported together, in place, for Swift on Linux against Trellis's UIKit
            module, which has UIKit's names: only the idioms the Objective-C runtime alone compiles
            are rewritten (with --rename, first the mechanical step too: import UIKit → import
            Trellis; UIName → Name; NSCollectionLayout…, NSDiffableDataSource… and CATransform3D…
            lose their prefix):
              @objc optional requirements  → requirements with defaults in a protocol extension
              delegate?.method?(…)          → delegate?.method(…), or (try? …) where the default throws
              x.responds(to: #selector(…))  → true (nil through an optional chain)
              x.conforms(to: P.self)        → x is P
              override in an extension      → moved into the class (dropped if it only serves
                                              debugging a class declared elsewhere)
              Recognizer(target: t, action: #selector(m(_:)))
                                            → the action as a closure calling t's m
              Timer(…, target:, selector:, …), perform(_:with:afterDelay:)
                                            → Foundation's block-based timer calling it
              @objc, @objcMembers, @IB…     → removed
            Every change is listed with its reason (on standard error with --dry-run and --stdout);
            what cannot be rewritten is listed as left, with what to do — a UIKit name Trellis does
            not implement (UIImage, UIDragItem) among them, never renamed. Nothing inside a string
            literal or a comment changes. A second run changes nothing.
            See Documentation/CustomLayouts.md, "Porting code that uses Objective-C idioms".

            EXIT STATUS: 0 ported, 1 some places are left for you (the rest is written) or a file
            cannot be read or written, 64 usage error, 65 a file is not UTF-8 or not valid Swift
            (nothing is written).
            """)

    /// `trellis port`'s command line, as typed values.
    struct Options {
        /// The files and folders named.
        var paths: [String]
        /// `--stdout FILE`: that one file's port printed.
        var single: String?
        var dryRun: Bool
        /// `--rename`: UIKit's names to Trellis's.
        var rename: Bool

        init(_ arguments: [String]) throws(CommandError) {
            let parsed = try definition.parse(arguments)
            paths = parsed.positionals
            single = parsed.value("--stdout")
            dryRun = parsed.flags.contains("--dry-run")
            rename = parsed.flags.contains("--rename")
            if single != nil, dryRun { throw CommandError(.rule("'--dry-run' and '--stdout' print different things; give one of them")) }
        }
    }

    static func run(_ arguments: [String], io: inout CommandIO) throws(CommandError) {
        let options = try Options(arguments)
        let single = options.single, dryRun = options.dryRun
        var inputs: [String] = []
        for argument in options.paths {
            let (found, skipped) = try swiftFiles(argument, io: io)
            inputs += found
            for note in skipped { io.stderr += "skipped: \(note)\n" }
        }
        if let single {
            guard single.hasSuffix(".swift") else { throw CommandError(.rule("'--stdout' takes one Swift file (.swift), not '\(Excerpt.of(single))'")) }
            if !inputs.contains(single) { inputs.insert(contentsOf: try swiftFiles(single, io: io).found, at: 0) }
        }
        guard !inputs.isEmpty else {
            throw CommandError(
                .rule(
                    options.paths.isEmpty
                        ? "Missing expected argument '<path>'"
                        : "No Swift files in \(options.paths.map { "'\(Excerpt.of($0))'" }.joined(separator: ", "))"))
        }
        // Every file is read and ported before any is written.
        var files: [(path: String, text: String)] = []
        var marks: [String: Bool] = [:]
        for path in inputs {
            let (text, mark) = try Self.sourceText(try io.readBytes(path), path: path)
            files.append((path, text))
            marks[path] = mark
        }
        let outcome: PortOutcome
        do {
            outcome = try SwiftPort.port(files, writing: single.map { [$0] }, renaming: options.rename)
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
            // A file that began with a byte order mark keeps it.
            try Self.writeAll(changed.map { ($0.path, Data(((marks[$0.path] == true ? "\u{FEFF}" : "") + $0.ported).utf8)) }, io: io)
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

    /// The Swift files a path names, as named (relative to the folder given, for messages and
    /// diffs): itself, or the regular `.swift` files under a folder, sorted, without hidden files
    /// and folders (`.build` among them) — and what was passed over, each with why: a symbolic
    /// link (a link inside the folder to a file in it names a file ported under its own name; one
    /// that leads out of the folder would write outside it), a named pipe, a device or a socket
    /// (which cannot be read as a file, and a pipe would wait forever).
    static func swiftFiles(_ path: String, io: CommandIO) throws(CommandError) -> (found: [String], skipped: [String]) {
        let url = io.url(for: path)
        var info = stat()
        guard stat(url.path, &info) == 0 else {
            throw .failure("cannot read '\(Excerpt.of(path))': no such file or folder")
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            guard path.hasSuffix(".swift") else { throw CommandError(.rule("'\(Excerpt.of(path))' is not a Swift file (.swift)")) }
            if let kind = nonFileKind(info.st_mode) {
                throw .failure("cannot read '\(Excerpt.of(path))': it is \(kind), not a file; name a Swift file")
            }
            return ([path], [])
        }
        let base = path.hasSuffix("/") ? String(path.dropLast()) : path
        var found: [String] = [], skipped: [String] = []
        func walk(_ folder: String, shown: String) {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
                skipped.append("'\(Excerpt.of(shown))': the folder cannot be read")
                return
            }
            for name in names.sorted() where !name.hasPrefix(".") {
                let full = folder + "/" + name, named = shown + "/" + name
                var entry = stat()
                guard lstat(full, &entry) == 0 else { continue }
                switch entry.st_mode & S_IFMT {
                case S_IFDIR:
                    walk(full, shown: named)
                case S_IFLNK:
                    guard name.hasSuffix(".swift") || isFolder(full) else { continue }
                    let target = OutputFile.linkText(full).map { " to '\(Excerpt.of($0))'" } ?? ""
                    skipped.append(
                        "'\(Excerpt.of(named))': a symbolic link\(target); only files in the folder are ported, "
                            + "under their own names")
                case S_IFREG:
                    if name.hasSuffix(".swift") { found.append(named) }
                default:
                    if name.hasSuffix(".swift") {
                        skipped.append("'\(Excerpt.of(named))': \(nonFileKind(entry.st_mode) ?? "not a file"), not a file")
                    }
                }
            }
        }
        walk(url.path, shown: base)
        return (found.sorted(), skipped)
    }

    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// What a file that is not a regular file is, for a message; `nil` for a regular file.
    static func nonFileKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFIFO: return "a named pipe"
        case S_IFSOCK: return "a socket"
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFDIR: return "a folder"
        default: return "not a regular file"
        }
    }

    /// A Swift file's text, and whether it began with a UTF-8 byte order mark (kept when it is
    /// written back); a byte that is not UTF-8 is named by its line and place.
    static func sourceText(_ bytes: [UInt8], path: String) throws(CommandError) -> (text: String, byteOrderMark: Bool) {
        let mark = bytes.starts(with: [0xEF, 0xBB, 0xBF])
        let body = mark ? Array(bytes.dropFirst(3)) : bytes
        if let text = String(validating: body, as: UTF8.self) { return (text, mark) }
        // The first byte that does not begin or continue a character.
        var i = 0, line = 1, lineStart = 0
        while i < body.count {
            let b = body[i]
            let length = b < 0x80 ? 1 : b >= 0xC2 && b < 0xE0 ? 2 : b >= 0xE0 && b < 0xF0 ? 3 : b >= 0xF0 && b < 0xF5 ? 4 : 0
            let valid =
                length > 0 && i + length <= body.count
                && String(validating: body[i..<(i + length)], as: UTF8.self) != nil
            guard valid else {
                let offset = i + (mark ? 3 : 0)
                throw .data(
                    "\(path): line \(line), byte \(i - lineStart + 1) (byte \(offset + 1) of the file, "
                        + String(format: "0x%02X", b) + ") is not UTF-8; Swift source is UTF-8 — save the file as UTF-8")
            }
            if b == 0x0A { line += 1; lineStart = i + 1 }
            i += length
        }
        throw .data("\(path): not UTF-8 text; Swift source is UTF-8")
    }

    /// Writes every ported file, or none: each is made whole beside itself first (as ``OutputFile``
    /// makes an output), then all are put in place. Should putting one in place fail, the message
    /// lists exactly which files were written and which were not.
    static func writeAll(_ files: [(path: String, bytes: Data)], io: CommandIO) throws(CommandError) {
        var made: [(file: OutputFile, temporary: OutputFile.Temporary)] = []
        func discardAll() { for (file, temporary) in made { file.discard(temporary) } }
        for (path, bytes) in files {
            do throws(CommandError) {
                let file = try OutputFile.resolve(io.url(for: path).path, shown: Excerpt.of(path), replacingReadOnly: false)
                if case .special = file.kind { throw .failure("cannot write '\(Excerpt.of(path))': it is not a regular file") }
                let temporary = try file.makeTemporary()
                made.append((file, temporary))
                var offset = 0
                while offset < bytes.count {
                    let n = bytes.withUnsafeBytes { write(temporary.descriptor, $0.baseAddress! + offset, bytes.count - offset) }
                    if n < 0 {
                        if errno == EINTR { continue }
                        throw .failure("cannot write '\(Excerpt.of(path))': \(String(cString: strerror(errno)))")
                    }
                    offset += n
                }
            } catch {
                discardAll()
                guard case .failure(let message) = error else { throw error }
                throw .failure(message + "; no file was written")
            }
        }
        for (k, (file, temporary)) in made.enumerated() {
            do throws(CommandError) {
                try file.commit(temporary)
            } catch {
                for (later, laterTemporary) in made[(k + 1)...] { later.discard(laterTemporary) }
                let written = made[..<k].map { "'\($0.file.shown)'" }, left = made[k...].map { "'\($0.file.shown)'" }
                guard case .failure(let message) = error else { throw error }
                throw .failure(
                    message + "; written: " + (written.isEmpty ? "none" : written.joined(separator: ", "))
                        + "; not written: " + left.joined(separator: ", "))
            }
        }
    }
}
