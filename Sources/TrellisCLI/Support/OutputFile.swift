import Foundation
import TrellisGrid

/// A file a command writes (`-o FILE`, the files `trellis port` rewrites), replaced as `cp` and a
/// shell's `>` would leave it, and never half-written.
///
/// The rules, in one place (`trellis help sort` and `Documentation/CommandLine.md` say them):
///
/// - **Links**: a symbolic link is written through, to the file it leads to, and stays a link; one
///   that leads nowhere (dangling) or in a loop is refused with a message, as `cp` refuses it.
/// - **Read-only files**: a file without write permission is refused unless the command is given
///   `--force` (a shell's `>` fails on it; `cp -f` replaces it).
/// - **Whole or not at all**: the output is made under a temporary name beside the file
///   (`.NAME.PID.partial`) and renamed over it once complete, so a failed or interrupted run leaves
///   the old file as it was. The temporary file is removed on every way out — an error, Ctrl-C,
///   SIGTERM, SIGHUP, a file-size limit (`ulimit -f`, which fails the write instead of killing the
///   process) — and one left by a run that was killed outright (SIGKILL) is removed by the next
///   run that writes the same file.
/// - **Permissions and owner**: a replaced file keeps its permission bits and, where the writer
///   may set them (root, or a group the writer is in), its owner and group; set-user-ID,
///   set-group-ID and sticky bits are never carried over. A new file gets 0666 less the umask.
/// - **Hard links**: a file with other hard links is rewritten in place once the output is
///   complete — as `cp` and `>` write it — so every link sees the new contents; that last copy is
///   the one step that is not atomic. A folder where no temporary file may be made (but whose file
///   may be written) is handled the same way, the output made in the system's temporary folder.
/// - **Anything else** — a device such as `/dev/null`, a named pipe — is written in place, as `>`
///   writes it.
struct OutputFile {
    enum Kind {
        /// No file there yet.
        case new
        /// A regular file, as `stat` describes it.
        case regular(stat)
        /// A device or a pipe: written in place.
        case special
    }

    /// The name as the user gave it, for messages.
    let shown: String
    /// The file written: the path given, or the file its symbolic links lead to.
    let path: String
    let kind: Kind

    /// Resolves `path` (absolute) as the rules say, or throws the message that says why it cannot
    /// be written.
    static func resolve(_ path: String, shown: String, replacingReadOnly: Bool) throws(CommandError) -> OutputFile {
        func failure(_ reason: String) -> CommandError { .failure("cannot write '\(shown)': \(reason)") }
        var info = stat()
        guard lstat(path, &info) == 0 else {
            let code = errno
            guard code == ENOENT else { throw failure(String(cString: strerror(code))) }
            let folder = (path as NSString).deletingLastPathComponent
            var folderInfo = stat()
            guard folder.isEmpty || stat(folder, &folderInfo) == 0 else {
                let named = (shown as NSString).deletingLastPathComponent
                throw failure("there is no folder '\(named.isEmpty ? Excerpt.of(folder, limit: 200) : named)'; make it first")
            }
            return OutputFile(shown: shown, path: path, kind: .new)
        }
        var target = path
        if (info.st_mode & S_IFMT) == S_IFLNK {
            guard let resolved = realpath(path, nil) else {
                let code = errno
                let leadsTo = linkText(path).map { " to '\(Excerpt.of($0, limit: 200))'" } ?? ""
                if code == ELOOP {
                    throw failure("it is a symbolic link\(leadsTo) that leads round in a loop; name the file itself")
                }
                if code == ENOENT || code == ENOTDIR {
                    throw failure(
                        "it is a symbolic link\(leadsTo), which does not exist (a dangling link is not written "
                            + "through, as cp does not); name a file that exists, or remove the link")
                }
                throw failure(String(cString: strerror(code)))
            }
            target = String(cString: resolved)
            free(resolved)
            guard stat(target, &info) == 0 else { throw failure(String(cString: strerror(errno))) }
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: throw failure("it is a directory; expected a file")
        case S_IFREG: break
        default: return OutputFile(shown: shown, path: target, kind: .special)
        }
        if !replacingReadOnly, (info.st_mode & 0o222) == 0 || access(target, W_OK) != 0 {
            let mode = String(info.st_mode & 0o7777, radix: 8)
            throw failure("it is read-only (mode \(mode)); give --force to replace it, or name another file")
        }
        return OutputFile(shown: shown, path: target, kind: .regular(info))
    }

    static func linkText(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A temporary file the output is made in: its descriptor and path, and whether it is beside
    /// the file (so that a rename puts it in place).
    struct Temporary {
        let descriptor: Int32
        let path: String
        let beside: Bool
    }

    /// Makes the temporary file (registered with ``TemporaryPaths``, so a signal removes it),
    /// after removing those that killed runs left for the same file.
    func makeTemporary() throws(CommandError) -> Temporary {
        TemporaryPaths.removeLeftovers(for: path)
        let beside = TemporaryPaths.partialName(for: path)
        unlink(beside)
        // Registered before it exists: a signal between the two still removes it.
        TemporaryPaths.register(beside)
        var descriptor = open(beside, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(0o600))
        var temporary = beside
        var isBeside = true
        if descriptor < 0 {
            let code = errno
            TemporaryPaths.unregister(beside)
            // A folder that refuses new files, holding a file that may be written: made elsewhere, copied in.
            guard case .regular = kind, code == EACCES || code == EROFS || code == EPERM,
                let made = TemporaryPaths.makeFile(in: NSTemporaryDirectory(), prefix: ".trellis-output-")
            else {
                throw .failure("cannot write '\(shown)': \(String(cString: strerror(code)))")
            }
            (descriptor, temporary) = made
            isBeside = false
            TemporaryPaths.register(temporary)
        }
        return Temporary(descriptor: descriptor, path: temporary, beside: isBeside)
    }

    /// Gives up a temporary file: closed and removed.
    func discard(_ temporary: Temporary) {
        close(temporary.descriptor)
        unlink(temporary.path)
        TemporaryPaths.unregister(temporary.path)
    }

    /// Puts a complete temporary file in place (closing it), by the rules above; on failure the
    /// temporary file is removed and the file is as it was.
    func commit(_ temporary: Temporary) throws(CommandError) {
        func failure(_ code: Int32) -> CommandError { .failure("cannot write '\(shown)': \(String(cString: strerror(code)))") }
        defer { TemporaryPaths.unregister(temporary.path) }
        var links: nlink_t = 1
        switch kind {
        case .new:
            // 0666 less the umask, as a new file gets.
            let mask = umask(0)
            umask(mask)
            if fchmod(temporary.descriptor, 0o666 & ~mask) != 0 { let code = errno; discard(temporary); throw failure(code) }
        case .regular(let existing):
            links = existing.st_nlink
            // The owner and group where the writer may keep them (root; a group the writer is in).
            if existing.st_uid != geteuid() || existing.st_gid != getegid() {
                if fchown(temporary.descriptor, existing.st_uid, existing.st_gid) != 0 {
                    _ = fchown(temporary.descriptor, uid_t.max, existing.st_gid)
                }
            }
            // The permission bits, never set-user-ID, set-group-ID or sticky.
            if fchmod(temporary.descriptor, existing.st_mode & 0o777) != 0 { let code = errno; discard(temporary); throw failure(code) }
        case .special:
            break
        }
        if temporary.beside, links <= 1 {
            if close(temporary.descriptor) != 0 { let code = errno; unlink(temporary.path); throw failure(code) }
            if rename(temporary.path, path) != 0 { let code = errno; unlink(temporary.path); throw failure(code) }
            return
        }
        // Other hard links, or made elsewhere: copied into the file itself.
        defer { close(temporary.descriptor); unlink(temporary.path) }
        try copyInPlace(from: temporary.path)
    }

    /// Rewrites the file itself with the bytes of `source`: every hard link sees them.
    private func copyInPlace(from source: String) throws(CommandError) {
        func failure(_ code: Int32) -> CommandError { .failure("cannot write '\(shown)': \(String(cString: strerror(code)))") }
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw failure(errno) }
        defer { close(input) }
        let output = open(path, O_WRONLY | O_CLOEXEC)
        guard output >= 0 else { throw failure(errno) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var written: off_t = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 { if errno == EINTR { continue }; let code = errno; close(output); throw failure(code) }
            if count == 0 { break }
            var done = 0
            while done < count {
                let n = buffer.withUnsafeBytes { pwrite(output, $0.baseAddress! + done, count - done, written + off_t(done)) }
                if n < 0 { if errno == EINTR { continue }; let code = errno; close(output); throw failure(code) }
                done += n
            }
            written += off_t(count)
        }
        var info = stat()
        if ftruncate(output, written) != 0 { let code = errno; close(output); throw failure(code) }
        if fstat(output, &info) == 0, info.st_mode & 0o7000 != 0 { _ = fchmod(output, info.st_mode & 0o777) }
        if close(output) != 0 { throw failure(errno) }
    }
}
