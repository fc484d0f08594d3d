import Foundation
import TrellisText

/// A repeatable generator (``SplitMix64``, started one step on from the seed), so every random
/// test can be replayed from its seed. Shared by the test targets (this target is not a product).
public struct SeededRandom: RandomNumberGenerator {
    private var stream: SplitMix64

    public init(seed: UInt64) { stream = SplitMix64(state: seed &+ 0x9E37_79B9_7F4A_7C15) }

    public mutating func next() -> UInt64 { stream.next() }

    /// A whole number of points in `range`, or a quarter point when `quarters`.
    public mutating func points(_ range: ClosedRange<Int>, quarters: Bool = false) -> CGFloat {
        let whole = CGFloat(Int.random(in: range, using: &self))
        return quarters ? whole + CGFloat(Int.random(in: 0...3, using: &self)) / 4 : whole
    }

    public mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }
}

extension Sequence where Element: Equatable {
    /// Whether `other` occurs in order, contiguously (a byte search's reference).
    public func containsRun<S: Sequence>(_ other: S) -> Bool where S.Element == Element {
        let a = Array(self), b = Array(other)
        guard !b.isEmpty else { return true }
        guard b.count <= a.count else { return false }
        return (0...(a.count - b.count)).contains { Array(a[$0..<($0 + b.count)]) == b }
    }
}

/// The first of `count` positions after `after` — going on, wrapping round, `after` itself last —
/// for which `matches` holds: the walk a find is checked against.
public func firstMatch(count: Int, after: Int, _ matches: (Int) -> Bool) -> Int? {
    guard count > 0 else { return nil }
    let start = min(max(after, -1), count - 1)
    for step in 1...count {
        let index = (start + step + count) % count
        if matches(index) { return index }
    }
    return nil
}
