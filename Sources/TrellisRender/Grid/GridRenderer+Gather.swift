import Foundation
import TrellisText
import TrellisGrid
import CPrefetch

extension GridRenderer {
    /// The bytes of output a gathering pass holds at most (0: an eighth of the file, at least
    /// ``smallestGatherPart``). The tests lower it to make many passes of a small file.
    nonisolated(unsafe) static var gatherPartBytes = 0
    /// The smallest part of the output a gathering pass makes, whatever the file's size.
    static let smallestGatherPart = 4 << 20
    /// The most rows written otherwise than as their record (summaries, recomputed rows) that a
    /// gathering keeps aside; more are written as a table whose text is held is.
    static let gatheredOtherRows = 4096

    /// Writes display rows `0..<count` of a table whose records were left in a mapped file
    /// (``RawRecords/mapped``) by gathering them, part by part. First, in display order, each
    /// source row is given the place in the output where its record goes, and the output is cut
    /// into parts of at most ``gatherPartBytes``; then, for each part, the file is read through
    /// once, in order, on two threads, and each record whose place is in the part is copied
    /// there; the part is written (on a thread of its own, while the next one is gathered), and
    /// what was read of the file let go of as the reading goes. What is held is two parts and a
    /// place per row — not the file, whose pages come from the system's file cache a stretch at a
    /// time. Rows written otherwise (`otherRow`: a summary, a
    /// recomputed row) are written once each, first, and copied into their parts.
    ///
    /// Returns how many cells got a leading `'`, or `nil` — nothing written — when the rows are
    /// not such: a source row shown twice, more than ``gatheredOtherRows`` rows written
    /// otherwise, or an output of 4 GB or more.
    static func writeGathering(_ order: DisplayOrder, count: Int, records: RawRecords, file: MappedFile, lineBreak: [UInt8],
                               otherRow: (Int, TextOutput) -> Int, to out: TextOutput) -> Int? {
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
                                try? text.finish()   // to memory, in UTF-8: nothing can fail
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
            gather(into: part, span: span, rows: rowsInPart[p], placeOf: placeOf, records: records, file: file, lineBreak: lineBreak)
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
        file.releaseAll()
        return guarded
    }

    /// Copies into `part` the records whose places (`placeOf`) are in `span`, the part's span of
    /// the output, each at its place less the span's start and followed by `lineBreak`: the file
    /// read once, in order, by two threads (each its half of the source rows, finding its part's
    /// rows among them by their places), each letting go of what it has read. `rows`: how many
    /// of the part's rows are source rows.
    private static func gather(into part: UnsafeMutablePointer<UInt8>, span: Range<Int>, rows: Int,
                               placeOf: [UInt32], records: RawRecords, file: MappedFile, lineBreak: [UInt8]) {
        let n = records.count
        let halves = rows > 1 << 16 && ProcessInfo.processInfo.activeProcessorCount > 1 ? 2 : 1
        let low = Int(span.lowerBound), width = UInt32(span.count), low32 = UInt32(span.lowerBound)
        let ends = RecordEnds(records)
        let step = file.readingStep
        placeOf.withUnsafeBufferPointer { placeOf in
            // The part's rows, by their places (`unplaced` is past every span); the first and the
            // last found, the rows between are shared out in halves.
            guard let first = (0..<n).first(where: { placeOf[$0] &- low32 < width }),
                  let last = (0..<n).last(where: { placeOf[$0] &- low32 < width }) else { return }
            records.starts.withUnsafeBufferPointer { starts in
                lineBreak.withUnsafeBufferPointer { lineBreak in
                    let shared = Unchecked((part, placeOf, starts, lineBreak))
                    DispatchQueue.concurrentPerform(iterations: halves) { k in
                        let (part, placeOf, starts, lineBreak) = shared.value
                        @inline(__always) func inPart(_ source: Int) -> Bool { placeOf[source] &- low32 < width }
                        let between = last - first + 1
                        let mine = (first + between * k / halves)..<(first + between * (k + 1) / halves)
                        guard let base = file.bytes.baseAddress, let first = mine.first(where: inPart),
                              let lastSource = mine.last(where: inPart) else { return }
                        let breakBytes = lineBreak.count
                        var unreleased = Int(starts[first]), unprepared = unreleased
                        // Each copy waits `ahead` records while its place in the part (a random
                        // one) is asked for.
                        let ahead = 8
                        withUnsafeTemporaryAllocation(of: (UnsafePointer<UInt8>, Int, UnsafeMutablePointer<UInt8>).self,
                                                      capacity: ahead) { waiting in
                            var pending = 0, next = 0
                            @inline(__always) func copy(_ entry: (UnsafePointer<UInt8>, Int, UnsafeMutablePointer<UInt8>)) {
                                let (from, count, target) = entry
                                target.update(from: from, count: count)
                                if breakBytes > 0 { (target + count).update(from: lineBreak.baseAddress!, count: breakBytes) }
                            }
                            for source in first...lastSource where inPart(source) {
                                let offset = Int(placeOf[source]) - low
                                let start = Int(starts[source])
                                if start >= unprepared {
                                    // The next stretch of the file mapped at once, not page by page.
                                    unprepared = start + step
                                    file.prepare(start..<unprepared)
                                }
                                let end = ends.end(of: source, starts)
                                let target = part + Int(offset)
                                trellis_prefetch(target)
                                if pending == ahead { copy(waiting[next]) } else { pending += 1 }
                                waiting[next] = (base + start, end - start, target)
                                next = next + 1 == ahead ? 0 : next + 1
                                // What is read is let go of behind the oldest copy waiting.
                                let read = pending == ahead ? waiting[next].0 - base : start
                                if read - unreleased > step {
                                    file.release(unreleased..<read)
                                    unreleased = read
                                }
                            }
                            // The last ones.
                            for j in 0..<pending { copy(waiting[(next + ahead - pending + j) % ahead]) }
                        }
                        file.release(unreleased..<records.range(lastSource).upperBound)
                    }
                }
            }
        }
    }
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
