import CPrefetch
import Foundation
import TrellisGrid
import TrellisText

extension GridRenderer {
    /// The bytes of output a gathering pass holds at most (0: an eighth of the file, at least
    /// ``smallestGatherPart``): ``Tuning/gatherPartBytes``.
    static var gatherPartBytes: Int { Tuning.current.gatherPartBytes }
    /// The smallest part of the output a gathering pass makes, whatever the file's size.
    static let smallestGatherPart = 4 << 20
    /// The most rows written otherwise than as their record (summaries, recomputed rows) that a
    /// gathering keeps aside; more are written as a table whose text is held is.
    static let gatheredOtherRows = 4096

    /// Writes display rows `0..<count` of a table whose records were left in a mapped file
    /// (``RawRecords/mapped``) by gathering them, part by part. First, in display order, each
    /// source row is given the place in the output where its record goes, and the output is cut
    /// into parts of at most ``gatherPartBytes``; then, for each part, the file is read through
    /// once, in order, on two threads, a stretch at a time (``MappedFile/readingStep``), and each
    /// record whose place is in the part is copied there; the part is written (on a thread of
    /// its own, while the next one is gathered). What is held is two parts, a place per row and
    /// a stretch per thread — not the file, which is read through the system's file cache.
    /// Rows written otherwise (`otherRow`: a summary, a recomputed row) are written once each,
    /// first, and copied into their parts. A file that can no longer be read (cut shorter, a
    /// failing disk) stops the writing and fails `out` (`EIO`): no output holds bytes the file
    /// never had.
    ///
    /// Returns how many cells got a leading `'`, or `nil` — nothing written — when the rows are
    /// not such: a source row shown twice, more than ``gatheredOtherRows`` rows written
    /// otherwise, or an output of 4 GB or more.
    static func writeGathering(
        _ order: DisplayOrder, count: Int, records: RawRecords, file: MappedFile, lineBreak: [UInt8],
        otherRow: (Int, TextOutput) -> Int, to out: TextOutput
    ) -> Int? {
        let n = records.count
        guard count > 0, n > 0, count < Int(Int32.max) else { return nil }
        let unplaced = UInt32.max
        // Where each source row's record goes in the output (`unplaced`: not shown); the other
        // rows' places and text; where each part starts (in the output, and in display rows).
        var placeOf = [UInt32](repeating: unplaced, largeCount: n)
        var others: [(place: Int, text: [UInt8])] = []
        var partStarts: [Int] = [0]
        /// How many source rows each part holds.
        var rowsInPart: [Int] = [0]
        var guarded = 0
        let partBytes = gatherPartBytes > 0 ? gatherPartBytes : max(smallestGatherPart, file.bytes.count / 8)
        let breakBytes = lineBreak.count, ends = RecordEnds(records)
        let placed: Bool = records.starts.withUnsafeBufferPointer { starts in
            placeOf.withUnsafeMutableBufferPointer { placeOf in
                var place = 0
                // A batch of rows at a time: their sources found, then each placed while the starts
                // and places (both at random) of the rows a little further on are asked for.
                let batch = 1024, ahead = 32
                return withUnsafeTemporaryAllocation(of: Int.self, capacity: batch) { sources in
                    @inline(__always) func askFor(_ source: Int) {
                        guard source >= 0 else { return }
                        trellis_prefetch(starts.baseAddress! + source)
                        trellis_prefetch(placeOf.baseAddress! + source)
                    }
                    var first = 0
                    while first < count {
                        let end = min(count, first + batch)
                        for index in first..<end {
                            let source = order.plainSourceRow(at: index) ?? -1
                            sources[index - first] = source < n ? source : -1
                        }
                        for k in 0..<min(ahead, end - first) { askFor(sources[k]) }
                        for index in first..<end {
                            if index + ahead < end { askFor(sources[index + ahead - first]) }
                            let source = sources[index - first]
                            let length: Int
                            if source >= 0 {
                                guard placeOf[source] == unplaced else { return false }
                                let start = Int(starts[source])
                                length = ends.end(of: source, starts) - start + breakBytes
                                guard place + length < Int(unplaced) else { return false }
                                placeOf[source] = UInt32(place)
                            } else {
                                guard others.count < gatheredOtherRows else { return false }
                                let text = TextOutput()
                                guarded += otherRow(index, text)
                                text.write(bytes: lineBreak)
                                try? text.finish()  // to memory, in UTF-8: nothing can fail
                                others.append((place, text.collected))
                                length = others[others.count - 1].text.count
                            }
                            // A part holds at least one row.
                            if place + length - partStarts[partStarts.count - 1] > partBytes, place > partStarts[partStarts.count - 1] {
                                partStarts.append(place)
                                rowsInPart.append(0)
                            }
                            if source >= 0 { rowsInPart[rowsInPart.count - 1] += 1 }
                            place += length
                        }
                        first = end
                    }
                    partStarts.append(place)
                    return true
                }
            }
        }
        guard placed else { return nil }
        let partCount = partStarts.count - 1
        let largest = zip(partStarts.dropFirst(), partStarts).map { $0 - $1 }.max() ?? 0
        // Two parts: one is written (on a thread of its own) while the next is gathered.
        let parts = partCount > 1 ? 2 : 1
        let buffers = (0..<parts).map { _ in LargeBuffers.allocate(UInt8.self, capacity: max(1, largest)) }
        defer { for buffer in buffers { buffer.deallocate() } }
        let writing = DispatchGroup()
        let target = Unchecked(out)
        for p in 0..<partCount {
            let part = buffers[p % parts]
            let span = partStarts[p]..<partStarts[p + 1]
            for other in others where span.contains(other.place) {
                other.text.withUnsafeBufferPointer { (part + other.place - span.lowerBound).update(from: $0.baseAddress!, count: $0.count) }
            }
            guard
                gather(
                    into: part, span: span, rows: rowsInPart[p], placeOf: placeOf, records: records, file: file,
                    lineBreak: lineBreak)
            else {
                // The file could not be read (cut shorter, or the disk failed): nothing more is
                // written, and the output fails rather than hold bytes the file never had.
                writing.wait()
                out.fail(EIO)
                return guarded
            }
            writing.wait()
            let written = Unchecked(UnsafeBufferPointer(start: part, count: span.count))
            DispatchQueue.global().async(group: writing) {
                // A slice at a time, through the output's buffer: a write of many megabytes at
                // once costs the system far more than its slices do.
                let part = written.value
                var offset = 0
                while offset < part.count {
                    let slice = min(part.count - offset, 256 << 10)
                    target.value.write(bytes: UnsafeBufferPointer(rebasing: part[offset..<(offset + slice)]))
                    offset += slice
                }
            }
        }
        writing.wait()
        return guarded
    }

    /// Copies into `part` the records whose places (`placeOf`) are in `span`, the part's span of
    /// the output, each at its place less the span's start and followed by `lineBreak`: the file
    /// read once, in order, by two threads (each its half of the rows between the part's first
    /// and last, finding the part's among them by their places), a stretch at a time into a
    /// buffer of its own — read through the file, not the mapping, so that what is read is never
    /// this program's memory, whatever size of page the system caches the file in. `rows`: how
    /// many of the part's rows are source rows. Returns `false` when a read failed.
    private static func gather(
        into part: UnsafeMutablePointer<UInt8>, span: Range<Int>, rows: Int,
        placeOf: [UInt32], records: RawRecords, file: MappedFile, lineBreak: [UInt8]
    ) -> Bool {
        let n = records.count
        let halves = rows > 1 << 16 && ProcessInfo.processInfo.activeProcessorCount > 1 ? 2 : 1
        let low = Int(span.lowerBound), width = UInt32(span.count), low32 = UInt32(span.lowerBound)
        let ends = RecordEnds(records)
        let step = file.readingStep, fileSize = file.bytes.count
        let failures = Failures()
        placeOf.withUnsafeBufferPointer { placeOf in
            // The part's rows, by their places (`unplaced` is past every span); the first and the
            // last found, the rows between are shared out in halves.
            guard let first = (0..<n).first(where: { placeOf[$0] &- low32 < width }),
                let last = (0..<n).last(where: { placeOf[$0] &- low32 < width })
            else { return }
            records.starts.withUnsafeBufferPointer { starts in
                lineBreak.withUnsafeBufferPointer { lineBreak in
                    let shared = Unchecked((part, placeOf, starts, lineBreak))
                    Tuning.concurrentPerform(iterations: halves) { k in
                        let (part, placeOf, starts, lineBreak) = shared.value
                        @inline(__always) func inPart(_ source: Int) -> Bool { placeOf[source] &- low32 < width }
                        let between = last - first + 1
                        let mine = (first + between * k / halves)..<(first + between * (k + 1) / halves)
                        guard let first = mine.first(where: inPart), let lastSource = mine.last(where: inPart) else { return }
                        let breakBytes = lineBreak.count
                        // The stretch of the file in the buffer.
                        var capacity = step
                        var buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
                        defer { buffer.deallocate() }
                        var held = 0..<0
                        // Each copy waits `ahead` records while its place in the part (a random
                        // one) is asked for.
                        let ahead = 8
                        withUnsafeTemporaryAllocation(
                            of: (UnsafePointer<UInt8>, Int, UnsafeMutablePointer<UInt8>).self,
                            capacity: ahead
                        ) { waiting in
                            var pending = 0, next = 0
                            @inline(__always) func copy(_ entry: (UnsafePointer<UInt8>, Int, UnsafeMutablePointer<UInt8>)) {
                                let (from, count, target) = entry
                                target.update(from: from, count: count)
                                if breakBytes > 0 { (target + count).update(from: lineBreak.baseAddress!, count: breakBytes) }
                            }
                            /// The copies waiting, done (before the buffer is read into again).
                            func drain() {
                                for j in 0..<pending { copy(waiting[(next + ahead - pending + j) % ahead]) }
                                pending = 0
                                next = 0
                            }
                            for source in first...lastSource where inPart(source) {
                                let start = Int(starts[source]), end = ends.end(of: source, starts)
                                if end > held.upperBound || start < held.lowerBound {
                                    drain()
                                    // The next stretch, from this record on: a step, or the record if longer.
                                    let count = min(fileSize - start, max(step, end - start))
                                    if count > capacity {
                                        buffer.deallocate()
                                        capacity = count
                                        buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
                                    }
                                    guard file.read(into: buffer, count: count, at: start) else {
                                        failures.note()
                                        return
                                    }
                                    held = start..<(start + count)
                                }
                                let target = part + (Int(placeOf[source]) - low)
                                trellis_prefetch(target)
                                if pending == ahead { copy(waiting[next]) } else { pending += 1 }
                                waiting[next] = (UnsafePointer(buffer + (start - held.lowerBound)), end - start, target)
                                next = next + 1 == ahead ? 0 : next + 1
                            }
                            drain()
                        }
                    }
                }
            }
        }
        return !failures.any
    }
}

/// Whether any of the threads of a gathering pass failed to read.
private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func note() { lock.withLock { count += 1 } }
    var any: Bool { lock.withLock { count > 0 } }
}

/// Where records end, found in their starts where every record ends the line break's length
/// before the next one starts (the common case, and one read beside the start's), through the
/// records otherwise.
private struct RecordEnds {
    let records: RawRecords
    let gap: Int, last: Int, count: Int, followStarts: Bool

    init(_ records: RawRecords) {
        self.records = records
        (gap, last, count, followStarts) = (records.gap, records.lastRecordEnd, records.count, records.endsFollowStarts)
    }

    @inline(__always)
    func end(of row: Int, _ starts: UnsafeBufferPointer<UInt32>) -> Int {
        guard followStarts else { return records.range(row).upperBound }
        return row + 1 < count ? Int(starts[row + 1]) - gap : last
    }
}
