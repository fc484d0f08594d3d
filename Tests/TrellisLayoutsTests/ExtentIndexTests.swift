import Testing
import TrellisCollectionView
import TrellisLayouts
import TrellisTestSupport

@Suite("Extent index")
struct ExtentIndexTests {
    /// Every element overlapping a range lies in the candidates, for sorted and unsorted starts,
    /// sealed and not, across the sample blocks' edges.
    @Test("candidates hold every overlapping element", arguments: [false, true])
    func candidatesHoldEveryHit(sorted: Bool) {
        var rng = SeededRandom(seed: sorted ? 11 : 12)
        for count in [0, 1, 63, 64, 65, 128, 129, 700] {
            var index = ExtentIndex()
            var extents: [(Double, Double)] = []
            var top = 0.0
            for _ in 0..<count {
                let low = sorted ? top : top - Double(rng.next() % 300)
                let high = low + Double(rng.next() % 200)
                extents.append((low, high))
                index.append(min: CGFloat(low), max: CGFloat(high))
                top += Double(rng.next() % 40)
            }
            var sealed = index
            sealed.seal()
            // Ranges that start just under each element's end and end just past each start, so
            // that every position is a search's answer once, plus random ones.
            var reach = -Double.infinity
            var ranges: [(Double, Double)] = extents.map {
                reach = max(reach, $0.1)
                return (reach - 0.5, reach + Double(rng.next() % 300))
            }
            ranges += extents.map { ($0.0 - 1 - Double(rng.next() % 300), $0.0 + 0.5) }
            for _ in 0..<200 {
                let a = Double(rng.next() % UInt64(max(1, Int(top) + 400))) - 200
                ranges.append((a, a + 1 + Double(rng.next() % 500)))
            }
            for (a, b) in ranges {
                let hits = extents.indices.filter { extents[$0].0 < b && extents[$0].1 > a }
                for candidates in [
                    index.candidates(from: CGFloat(a), to: CGFloat(b)),
                    sealed.candidates(from: CGFloat(a), to: CGFloat(b)),
                ] {
                    #expect(
                        hits.allSatisfy { candidates.contains($0) },
                        "count \(count), range \(a)..<\(b), hits \(hits), candidates \(candidates), \(hits.map { extents[$0] })")
                }
                // The walk's start is the candidates' start; with sorted starts, walking on from it
                // to the first element starting at or past the end finds every hit.
                for i in [index, sealed] {
                    #expect(
                        i.firstCandidate(reachingPast: CGFloat(a)) == i.candidates(from: CGFloat(a), to: CGFloat(b)).lowerBound
                            || i.candidates(from: CGFloat(a), to: CGFloat(b)).isEmpty)
                }
                if sorted {
                    var walked: [Int] = []
                    var p = sealed.firstCandidate(reachingPast: CGFloat(a))
                    while p < extents.count, extents[p].0 < b {
                        if extents[p].1 > a { walked.append(p) }
                        p += 1
                    }
                    #expect(walked == hits)
                }
                // With sorted starts nothing at or past the range's end is a candidate.
                if sorted, let last = sealed.candidates(from: CGFloat(a), to: CGFloat(b)).last {
                    #expect(extents[last].0 < b)
                }
            }
        }
    }
}
