/// SplitMix64: a small, fast, repeatable stream of 64-bit numbers from a state, so that
/// generated inputs — test cases, benchmark data, adversarial specs — can be replayed from
/// their seed. The one implementation the package's generators share.
///
/// ```swift
/// var random = SplitMix64(state: 42)
/// let first = random.next()
/// let die = Int.random(in: 1...6, using: &random)
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public var state: UInt64

    public init(state: UInt64) { self.state = state }

    @inlinable
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
