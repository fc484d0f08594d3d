#if canImport(Glibc)
    import Glibc
#endif

/// Buffers of many megabytes backed by transparent huge pages where the system gives them on
/// request (Linux's `madvise` setting, the common default): such a buffer then takes one page
/// fault per 2 MB it fills instead of one per 4 KB — for a million-row sort, a fraction of the
/// faults that took a fifth of its time (`Benchmarks/History.md`, "What a sort holds").
/// Elsewhere, and for smaller buffers, nothing changes.
package enum LargeBuffers {
    /// Buffers smaller than this are left alone (a huge page half used would cost more than it saves).
    package static let threshold = 2 << 20
    private static let hugePage = 2 << 20

    /// Asks for huge pages behind the whole 2 MB pages of `bytes` bytes at `base`, before they
    /// are touched. Only advice: nothing is moved, and a refusal changes nothing.
    @inline(__always)
    package static func advise(_ base: UnsafeMutableRawPointer?, bytes: Int) {
        #if canImport(Glibc)
            guard let base, bytes >= threshold else { return }
            let start = (Int(bitPattern: base) + hugePage - 1) & ~(hugePage - 1)
            let end = (Int(bitPattern: base) + bytes) & ~(hugePage - 1)
            guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
            _ = madvise(aligned, end - start, MADV_HUGEPAGE)
        #endif
    }

    /// Gives the system back the whole pages of `bytes` bytes at `base`, which their owner will
    /// not read again (a buffer read through once on its way to being freed): what it held is
    /// gone, the memory stays the owner's and is freed as any other. Buffers smaller than
    /// ``threshold`` are left alone.
    @inline(__always)
    package static func release(_ base: UnsafeRawPointer?, bytes: Int) {
        #if canImport(Glibc)
            guard let base, bytes >= threshold else { return }
            let page = 4096
            let start = (Int(bitPattern: base) + page - 1) & ~(page - 1)
            let end = (Int(bitPattern: base) + bytes) & ~(page - 1)
            guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
            _ = madvise(aligned, end - start, MADV_DONTNEED)
        #endif
    }

    /// Copies `count` plain values from `source` to `target` a block at a time, giving the
    /// system back each block of `source` once copied (see ``release(_:bytes:)``): moving a
    /// large buffer's contents onto the end of another then holds one of them, not both.
    /// `source` must not be read again.
    package static func copyReleasing<T: BitwiseCopyable>(
        from source: UnsafeMutablePointer<T>, to target: UnsafeMutablePointer<T>,
        count: Int
    ) {
        let block = max(1, threshold / MemoryLayout<T>.stride)
        var done = 0
        while done < count {
            let n = min(block, count - done)
            (target + done).update(from: source + done, count: n)
            release(source + done, bytes: n * MemoryLayout<T>.stride)
            done += n
        }
    }

    /// Memory for `capacity` values (uninitialized), freed with `deallocate()` as any other. From
    /// ``threshold`` bytes on it starts at a 2 MB boundary, so that every page of it can be huge
    /// (at most one huge page's worth more is resident than a plain allocation would hold).
    @inline(__always)
    package static func allocate<T>(_ type: T.Type = T.self, capacity: Int) -> UnsafeMutablePointer<T> {
        let bytes = capacity * MemoryLayout<T>.stride
        #if canImport(Glibc)
            if bytes >= threshold {
                let raw = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: hugePage)
                advise(raw, bytes: bytes)
                return raw.bindMemory(to: T.self, capacity: capacity)
            }
        #endif
        return UnsafeMutablePointer<T>.allocate(capacity: capacity)
    }
}

extension Array where Element: BitwiseCopyable {
    /// An empty array with room for `capacity` elements, its memory advised as
    /// ``LargeBuffers/advise(_:bytes:)`` says.
    package init(largeCapacity capacity: Int) {
        self.init(unsafeUninitializedCapacity: capacity) { buffer, count in
            LargeBuffers.advise(UnsafeMutableRawPointer(buffer.baseAddress), bytes: capacity * MemoryLayout<Element>.stride)
            count = 0
        }
    }

    /// `count` copies of `value`, in memory advised as ``LargeBuffers/advise(_:bytes:)`` says.
    package init(repeating value: Element, largeCount count: Int) {
        self.init(uninitializedLarge: count)
        withUnsafeMutableBufferPointer { $0.update(repeating: value) }
    }

    /// An array of `count` elements left uninitialized for the caller to fill (plain values
    /// only), its memory advised as ``LargeBuffers/advise(_:bytes:)`` says.
    package init(uninitializedLarge count: Int) {
        self.init(unsafeUninitializedCapacity: count) { buffer, initialized in
            LargeBuffers.advise(UnsafeMutableRawPointer(buffer.baseAddress), bytes: count * MemoryLayout<Element>.stride)
            initialized = count
        }
    }
}
