import Dispatch
import Foundation
import Testing
import TrellisText

@Suite("Tuning: sizes set for one task")
struct TuningTests {
    @Test("work split across threads sees the values of the task that split it, and other tasks see theirs")
    func valuesFollowTheWork() {
        let seen = UnsafeMutableBufferPointer<Int>.allocate(capacity: 4)
        defer { seen.deallocate() }
        let out = Unchecked(seen)
        Tuning.$current.withValue(Tuning(fanIn: 7, gatherPartBytes: 11)) {
            Tuning.concurrentPerform(iterations: 4) { k in
                out.value[k] = Tuning.current.fanIn * 100 + Tuning.current.gatherPartBytes
            }
        }
        #expect(Array(seen) == [711, 711, 711, 711])
        #expect(Tuning.current.fanIn == Tuning().fanIn, "outside the task, the defaults")
    }
}
