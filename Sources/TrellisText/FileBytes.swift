import Dispatch
import Foundation

/// Why an input (a file, a database, a server) could not be read, with the kind of failure a
/// command reports it as.
public struct InputError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// What was named, or how, cannot be read so (the command line's fault: an empty file
        /// name, a database named without its table).
        case usage
        /// The data could not be read as what it says it is.
        case data
        /// No such file, or a directory where a file was expected.
        case noInput
        /// A server out of reach.
        case unavailable
        /// A lock that was waited out.
        case tempFail
        /// A refusal: a file that may not be read, a password refused.
        case noPermission
        /// Anything else the system refused.
        case failure
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

/// Reading a whole file into bytes, fast: into one array as large as the file says it is (not
/// zeroed first), a large one in two halves at once (the system's copying, and its clearing of
/// the new memory, are much of the time a sort takes, and the halves share them between two
/// cores), then on in chunks if it is larger than it said (a pipe, a file that grows).
public enum FileBytes {
    /// Reads the file at `path`; `shown` is how messages name it.
    public static func read(_ path: String, shown: String) throws(InputError) -> [UInt8] {
        guard !path.isEmpty else { throw InputError(.usage, "Invalid file name ''; name a file, or - for standard input") }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { throw InputError(.noInput, "no such file '\(shown)'") }
            if code == EACCES { throw InputError(.noPermission, "cannot read '\(shown)': \(String(cString: strerror(code)))") }
            throw InputError(.failure, "cannot read '\(shown)': \(String(cString: strerror(code)))")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw InputError(.failure, "cannot read '\(shown)': \(String(cString: strerror(errno)))")
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw InputError(.noInput, "'\(shown)' is a directory; expected a file") }
        let expected = (info.st_mode & S_IFMT) == S_IFREG ? Int(max(0, info.st_size)) : 0
        var failure: Int32?
        var bytes = [UInt8](unsafeUninitializedCapacity: expected) { buffer, count in
            LargeBuffers.advise(UnsafeMutableRawPointer(buffer.baseAddress), bytes: expected)
            count = 0
            guard let base = buffer.baseAddress, expected > 0 else { return }
            let halves =
                expected >= Tuning.current.readInHalvesAbove && ProcessInfo.processInfo.activeProcessorCount > 1
                ? [0..<expected / 2, expected / 2..<expected] : [0..<expected]
            // What each half read (fewer bytes than it spans where the file ended early), or −errno.
            var read = [Int](repeating: 0, count: halves.count)
            read.withUnsafeMutableBufferPointer { read in
                let shared = Unchecked((base, read))
                Tuning.concurrentPerform(iterations: halves.count) { k in
                    let (base, read) = shared.value
                    let half = halves[k]
                    var done = 0
                    while done < half.count {
                        let n = pread(descriptor, base + half.lowerBound + done, half.count - done, off_t(half.lowerBound + done))
                        if n < 0 { if errno == EINTR { continue }; read[k] = -Int(errno); return }
                        if n == 0 { break }
                        done += n
                    }
                    read[k] = done
                }
            }
            // The bytes read from the start on without a gap; the rest is read on from there.
            for (k, half) in halves.enumerated() {
                if read[k] < 0 { failure = Int32(-read[k]); return }
                count += read[k]
                if read[k] < half.count { break }
            }
            if lseek(descriptor, off_t(count), SEEK_SET) < 0 { failure = errno }
        }
        if let failure { throw InputError(.failure, "cannot read '\(shown)': \(String(cString: strerror(failure)))") }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw InputError(.failure, "cannot read '\(shown)': \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return bytes
    }

    /// The first `count` bytes of a regular file (fewer where it is shorter), or `nil` where
    /// `path` is not a regular file that can be read: what a source kind recognises a file by.
    public static func head(_ path: String, count: Int) -> [UInt8]? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        let n = bytes.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, count) }
        guard n >= 0 else { return nil }
        return Array(bytes.prefix(n))
    }

    /// The last `count` bytes of a regular file (all of a shorter one), or `nil` for anything else.
    public static func tail(_ path: String, count: Int) -> [UInt8]? {
        guard let size = regularFileSize(path) else { return nil }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        let wanted = min(count, size)
        var bytes = [UInt8](repeating: 0, count: wanted)
        let n = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, wanted, off_t(size - wanted)) }
        guard n >= 0 else { return nil }
        return Array(bytes.prefix(n))
    }

    /// The size of a regular file, or `nil` for anything else (a pipe, a device, no file).
    public static func regularFileSize(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }
}
