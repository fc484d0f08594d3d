#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A regular file's bytes mapped into memory, read-only: its pages are the system's file cache,
/// which the reader touches in place and can let go of (``release(_:)``) once read — unlike a
/// copy, they come back from the cache, unchanged, when read again. A sort that leaves a large
/// file's records where they are holds what it reads from them, not the file.
///
/// The file is kept open, and ``isUnchanged()`` tells whether it still has the size and time of
/// change it was mapped with: a file cut shorter by another program while mapped cannot be read
/// past its new end (the system stops the program), so a reader checks before it goes back to it.
package final class MappedFile: @unchecked Sendable {
    /// The file's bytes; valid while the mapping lives.
    package let bytes: UnsafeBufferPointer<UInt8>
    /// How much of the file a reading maps ahead of itself (``prepare(_:)``) and goes through
    /// before it lets go of what it read (``release(_:)``), or reads at a time through the file
    /// (``read(into:count:at:)``): a 64th of the file, from 256 KB to 2 MB — a stretch small
    /// beside the file, large beside a call's cost.
    package let readingStep: Int
    private let descriptor: Int32
    private let size: Int
    private let changed: (seconds: Int, nanoseconds: Int)

    /// Maps the regular file at `path`; `nil` when it cannot be (not a regular file, empty,
    /// unreadable, or a system without mappings), which a caller meets by reading it instead.
    package init?(path: String) {
        #if canImport(Glibc) || canImport(Darwin)
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            var info = stat()
            guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0,
                let address = mmap(nil, Int(info.st_size), PROT_READ, MAP_PRIVATE, fd, 0), Int(bitPattern: address) != -1
            else {
                close(fd)
                return nil
            }
            descriptor = fd
            size = Int(info.st_size)
            changed = Self.changeTime(info)
            bytes = UnsafeBufferPointer(start: address.assumingMemoryBound(to: UInt8.self), count: size)
            readingStep = min(2 << 20, max(256 << 10, size / 64))
        #else
            return nil
        #endif
    }

    deinit {
        #if canImport(Glibc) || canImport(Darwin)
            munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), size)
            close(descriptor)
        #endif
    }

    /// Lets the system take back the whole pages within `range` (offsets into ``bytes``) from
    /// this program's memory; reading them again brings them back from the file cache.
    package func release(_ range: Range<Int>) {
        #if canImport(Glibc) || canImport(Darwin)
            let page = Int(getpagesize())
            let lower = (max(0, range.lowerBound) + page - 1) & ~(page - 1)
            let upper = range.upperBound >= size ? size : min(size, range.upperBound) & ~(page - 1)
            guard upper > lower, let base = bytes.baseAddress else { return }
            _ = madvise(UnsafeMutableRawPointer(mutating: base + lower), upper - lower, MADV_DONTNEED)
        #endif
    }

    /// Maps the pages within `range` into this program's memory at once, ahead of reading them:
    /// one request instead of a page fault every 64 KB. Only advice (Linux's
    /// `MADV_POPULATE_READ`); elsewhere, or on an older system, the pages fault in as read.
    package func prepare(_ range: Range<Int>) {
        #if os(Linux)
            let page = Int(getpagesize())
            let lower = max(0, range.lowerBound) & ~(page - 1)
            let upper = min(size, range.upperBound)
            guard upper > lower, let base = bytes.baseAddress else { return }
            _ = madvise(UnsafeMutableRawPointer(mutating: base + lower), upper - lower, 22)  // MADV_POPULATE_READ
        #endif
    }

    /// Reads `count` bytes of the file from `offset` into `buffer` (through the file, not the
    /// mapping: what is read this way is never part of this program's memory); `false` when the
    /// system could not (an error, or the file now ends sooner).
    package func read(into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int) -> Bool {
        #if canImport(Glibc) || canImport(Darwin)
            var done = 0
            while done < count {
                let n = pread(descriptor, buffer + done, count - done, off_t(offset + done))
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { return false }
                done += n
            }
            return true
        #else
            return false
        #endif
    }

    /// ``release(_:)`` of the whole file.
    package func releaseAll() { release(0..<size) }

    /// Whether the file still has the size and time of change it had when mapped.
    package func isUnchanged() -> Bool {
        #if canImport(Glibc) || canImport(Darwin)
            var info = stat()
            guard fstat(descriptor, &info) == 0 else { return false }
            return Int(info.st_size) == size && Self.changeTime(info) == changed
        #else
            return false
        #endif
    }

    #if canImport(Glibc)
        private static func changeTime(_ info: stat) -> (seconds: Int, nanoseconds: Int) {
            (Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec))
        }
    #elseif canImport(Darwin)
        private static func changeTime(_ info: stat) -> (seconds: Int, nanoseconds: Int) {
            (Int(info.st_mtimespec.tv_sec), Int(info.st_mtimespec.tv_nsec))
        }
    #endif
}
