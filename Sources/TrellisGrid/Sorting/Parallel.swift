import Dispatch
import Foundation
import TrellisText

/// Work over `0..<n` split into contiguous chunks run at once on the machine's cores, in chunk
/// order where order matters: what lets a sort of a million rows use both cores of a laptop.
/// Below ``minimumChunk`` rows a range is one chunk, run on the calling thread.
enum Parallel {
    /// Cores used (``Tuning/workers``).
    static var workers: Int { Tuning.current.workers }
    /// The fewest rows worth a thread of their own (``Tuning/minimumChunk``).
    static var minimumChunk: Int { Tuning.current.minimumChunk }

    /// `0..<n` as contiguous ranges, in order: one per worker when `n` is large, else one.
    /// `minimum` is the fewest elements worth a thread (``minimumChunk`` rows by default; less
    /// for costlier elements).
    static func chunks(_ n: Int, minimum: Int? = nil) -> [Range<Int>] {
        let count = max(1, min(workers, n / max(1, min(minimum ?? minimumChunk, minimumChunk))))
        guard count > 1 else { return [0..<n] }
        return (0..<count).map { c in (n * c / count)..<(n * (c + 1) / count) }
    }

    /// Runs `body` for every chunk, at once. `body` must touch only what its chunk owns.
    static func forEach(_ chunks: [Range<Int>], _ body: (Int, Range<Int>) -> Void) {
        guard chunks.count > 1 else {
            if let only = chunks.first { body(0, only) }
            return
        }
        withoutActuallyEscaping(body) { body in
            let shared = Unchecked(body)
            Tuning.concurrentPerform(iterations: chunks.count) { c in shared.value(c, chunks[c]) }
        }
    }

    /// `body` for every chunk at once, with each chunk's result, in chunk order.
    static func map<T>(_ chunks: [Range<Int>], _ body: (Int, Range<Int>) -> T) -> [T] {
        var results = [T?](repeating: nil, count: chunks.count)
        results.withUnsafeMutableBufferPointer { results in
            let out = Unchecked(results)
            forEach(chunks) { c, range in out.value[c] = body(c, range) }
        }
        return results.map { $0! }
    }

    /// `0..<n` as an array, filled a chunk per core.
    static func positions(_ n: Int) -> [Int] {
        array(count: n) { range, out in for i in range { out[i] = i } }
    }

    /// An array of `n` elements, each chunk of it filled by `fill` at once.
    static func array<T: BitwiseCopyable>(count n: Int, _ fill: (Range<Int>, UnsafeMutablePointer<T>) -> Void) -> [T] {
        [T](unsafeUninitializedCapacity: n) { buffer, initialized in
            LargeBuffers.advise(UnsafeMutableRawPointer(buffer.baseAddress), bytes: n * MemoryLayout<T>.stride)
            if let base = buffer.baseAddress {
                let shared = Unchecked(base)
                forEach(chunks(n)) { _, range in fill(range, shared.value) }
            }
            initialized = n
        }
    }
}
