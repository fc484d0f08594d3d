import Foundation
import TrellisText

/// The folders of run files being written, which a signal handler removes
/// (``removeAll()`` is async-signal-safe: it only calls `rmdir` and `unlink`).
public enum TemporaryPaths {
    private static let capacity = 16
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let slots = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        slots.initialize(repeating: nil, count: capacity)
        return slots
    }()
    nonisolated(unsafe) private static let isFolder: UnsafeMutablePointer<Bool> = {
        let flags = UnsafeMutablePointer<Bool>.allocate(capacity: capacity)
        flags.initialize(repeating: false, count: capacity)
        return flags
    }()
    private static let lock = NSLock()

    /// Remembers a path to remove (a file, or an empty folder) if the process is stopped.
    public static func register(_ path: String, folder: Bool = false) {
        lock.lock()
        defer { lock.unlock() }
        for i in 0..<capacity where slots[i] == nil {
            isFolder[i] = folder
            slots[i] = strdup(path)
            return
        }
    }

    /// Forgets a path (it was removed, or kept on purpose).
    public static func unregister(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        for i in 0..<capacity {
            if let p = slots[i], String(cString: p) == path {
                slots[i] = nil
                free(p)
            }
        }
    }

    /// Removes every registered path: for a signal handler.
    public static func removeAll() {
        for i in 0..<capacity {
            guard let p = slots[i] else { continue }
            if isFolder[i] { rmdir(p) } else { unlink(p) }
        }
    }

    /// A new file in `folder` named `prefix` and six characters that no other file there has
    /// (`mkstemp`'s template), open for reading and writing: its descriptor and path; `nil`, with
    /// `errno` saying why, when it cannot be made.
    public static func makeFile(in folder: String, prefix: String) -> (descriptor: Int32, path: String)? {
        var template = Array(((folder.hasSuffix("/") ? folder : folder + "/") + prefix + "XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return nil }
        return (fd, String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// The name a file made to replace `path` has while it is made: `.NAME.PID.partial` beside
    /// it (so that a rename puts it in place), PID the process making it.
    public static func partialName(for path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return (folder.isEmpty ? "" : folder + "/") + ".\((path as NSString).lastPathComponent).\(getpid()).partial"
    }

    /// Removes the partial files (``partialName(for:)``, and an SQLite journal of one) beside
    /// `path` whose process is gone: a run killed outright, which no signal handler saw.
    public static func removeLeftovers(for path: String) {
        let folder = (path as NSString).deletingLastPathComponent
        let prefix = ".\((path as NSString).lastPathComponent)."
        guard let directory = opendir(folder.isEmpty ? "." : folder) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            // (An SQLite database's journal goes with it.)
            guard name.hasPrefix(prefix), let suffix = [".partial", ".partial-journal"].first(where: name.hasSuffix) else { continue }
            let middle = name.dropFirst(prefix.count).dropLast(suffix.count)
            guard !middle.isEmpty, middle.allSatisfy(\.isASCII), middle.allSatisfy(\.isNumber), let pid = pid_t(middle) else { continue }
            if pid == getpid() || (kill(pid, 0) != 0 && errno == ESRCH) {
                unlink((folder.isEmpty ? "" : folder + "/") + name)
            }
        }
    }

    /// A new folder for run files in `parent`, registered.
    static func makeFolder(in parent: URL) throws(ExternalSortError) -> String {
        // mkdtemp's template: six characters it replaces with a name no other folder there has.
        var template = Array((parent.path + "/.trellis-sort-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else {
            throw .io("cannot make a folder for run files in '\(parent.path)': \(String(cString: strerror(errno)))")
        }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        register(path, folder: true)
        return path
    }

    static func removeFolder(_ path: String) {
        rmdir(path)
        unregister(path)
    }
}
