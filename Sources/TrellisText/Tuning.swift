import Dispatch
import Foundation

/// The sizes at which the work changes its way — how many cores a sort uses, from how many rows
/// it splits, when a file is mapped rather than read, how many runs a sort in parts merges at
/// once. Results never depend on them: the tests set them small to reach every path with small
/// inputs, and prove that the bytes are the same.
///
/// They are read from the task under way (a task-local value), so that a test sets them for its
/// own work alone — the suites running beside it see the defaults:
///
/// ```swift
/// try Tuning.$current.withValue(Tuning(minimumPartBytes: 2048, fanIn: 5)) {
///     try sorter.sort(plan, to: output)
/// }
/// ```
///
/// Work handed to other threads (a sort's chunks, a file read in halves) goes through
/// ``concurrentPerform(iterations:_:)``, which hands the caller's values on with it.
package struct Tuning: Sendable {
    /// Cores a sort uses: all the machine has, at most eight (more chunks only add merging).
    package var workers = max(1, min(8, ProcessInfo.processInfo.activeProcessorCount))
    /// The fewest rows worth a thread of their own.
    package var minimumChunk = 1 << 16
    /// The most distinct texts a chunk of rows counts in a table of its own before the rows are
    /// split into buckets by hash instead (a table of more misses the cache at every row).
    package var textTableLimit = 1 << 13
    /// From how many rows a radix sort of packed keys runs with a buffer of half their size (two
    /// halves sorted one after the other, then merged): 4 bytes a row less at the sort's peak for
    /// a pass more; below, what it saves is small beside the program itself.
    package var radixInHalvesFrom = 1 << 19
    /// How many records may end otherwise than a line break before the next before every
    /// record's end is kept (at least a sixteenth of the records).
    package var unusualEndsLimit = 4096
    /// The smallest part a sort in parts reads at once, whatever the memory given.
    package var minimumPartBytes = 64 << 10
    /// The most runs a sort in parts merges at once; more are merged in groups first.
    package var fanIn = 128
    /// The bytes of output a pass that gathers records from a mapped file holds at most (0: an
    /// eighth of the file, at least 4 MB).
    package var gatherPartBytes = 0
    /// Files of at least this many bytes are read in two halves at once.
    package var readInHalvesAbove = 8 << 20
    /// A CSV file this large or larger, sorted to CSV, is mapped into memory and its records left
    /// in it rather than read whole: what is held is its key columns, not its text. 32 MB: from
    /// about a million rows, where the file's copy is the largest thing a sort holds.
    package var mapFilesFrom = 32 << 20

    package init(
        workers: Int? = nil, minimumChunk: Int? = nil, textTableLimit: Int? = nil, radixInHalvesFrom: Int? = nil,
        unusualEndsLimit: Int? = nil, minimumPartBytes: Int? = nil, fanIn: Int? = nil, gatherPartBytes: Int? = nil,
        readInHalvesAbove: Int? = nil, mapFilesFrom: Int? = nil
    ) {
        if let workers { self.workers = max(1, workers) }
        if let minimumChunk { self.minimumChunk = max(1, minimumChunk) }
        if let textTableLimit { self.textTableLimit = max(1, textTableLimit) }
        if let radixInHalvesFrom { self.radixInHalvesFrom = radixInHalvesFrom }
        if let unusualEndsLimit { self.unusualEndsLimit = unusualEndsLimit }
        if let minimumPartBytes { self.minimumPartBytes = minimumPartBytes }
        if let fanIn { self.fanIn = max(2, fanIn) }
        if let gatherPartBytes { self.gatherPartBytes = gatherPartBytes }
        if let readInHalvesAbove { self.readInHalvesAbove = readInHalvesAbove }
        if let mapFilesFrom { self.mapFilesFrom = mapFilesFrom }
    }

    /// The values the work under way reads.
    @TaskLocal package static var current = Tuning()

    /// `DispatchQueue.concurrentPerform` with the caller's values seen by every iteration: a task's
    /// values do not follow work handed to other threads on their own, and work split across
    /// cores must take the same ways it would take on one.
    package static func concurrentPerform(iterations: Int, _ body: (Int) -> Void) {
        let tuning = current
        withoutActuallyEscaping(body) { body in
            let shared = Unchecked(body)
            DispatchQueue.concurrentPerform(iterations: iterations) { k in
                $current.withValue(tuning) { shared.value(k) }
            }
        }
    }
}
