import Foundation

/// How an animation's progress maps to time: CSS's named timing curves and any cubic Bézier.
///
/// ```swift
/// Easing.easeInOut.progress(at: 0.5)  // 0.5
/// Easing.easeIn.progress(at: 0.5)     // ≈ 0.3154
/// ```
public enum Easing: Hashable, Sendable {
    case linear
    /// `cubic-bezier(0.42, 0, 1, 1)`.
    case easeIn
    /// `cubic-bezier(0, 0, 0.58, 1)`.
    case easeOut
    /// `cubic-bezier(0.42, 0, 0.58, 1)` — UIKit's default for collection view updates.
    case easeInOut
    /// Any cubic Bézier from (0, 0) to (1, 1) with control points (x1, y1) and (x2, y2); x1 and
    /// x2 are clamped to [0, 1] so the curve is a function of time.
    case cubicBezier(Double, Double, Double, Double)

    /// The control points of the curve.
    public var controlPoints: (Double, Double, Double, Double) {
        switch self {
        case .linear: return (0, 0, 1, 1)
        case .easeIn: return (0.42, 0, 1, 1)
        case .easeOut: return (0, 0, 0.58, 1)
        case .easeInOut: return (0.42, 0, 0.58, 1)
        case let .cubicBezier(x1, y1, x2, y2): return (min(max(x1, 0), 1), y1, min(max(x2, 0), 1), y2)
        }
    }

    /// The CSS `animation-timing-function` value of this curve.
    public var css: String {
        switch self {
        case .linear: return "linear"
        case .easeIn: return "ease-in"
        case .easeOut: return "ease-out"
        case .easeInOut: return "ease-in-out"
        case .cubicBezier:
            let (a, b, c, d) = controlPoints
            return "cubic-bezier(\(a), \(b), \(c), \(d))"
        }
    }

    /// The progress at time `t` in [0, 1] (clamped): solves the curve's x for `t` by Newton's
    /// method, falling back to bisection, and returns its y.
    public func progress(at t: Double) -> Double {
        let t = t.isNaN ? 0 : min(max(t, 0), 1)
        if case .linear = self { return t }
        let (x1, y1, x2, y2) = controlPoints
        func bezier(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
            let u = 1 - s
            return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
        }
        func slope(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
            let u = 1 - s
            return 3 * u * u * p1 + 6 * u * s * (p2 - p1) + 3 * s * s * (1 - p2)
        }
        var s = t
        for _ in 0..<8 {
            let error = bezier(s, x1, x2) - t
            if abs(error) < 1e-12 { return bezier(s, y1, y2) }
            let d = slope(s, x1, x2)
            if abs(d) < 1e-9 { break }
            s -= error / d
        }
        var low = 0.0, high = 1.0
        s = t
        for _ in 0..<60 {
            let x = bezier(s, x1, x2)
            if abs(x - t) < 1e-12 { break }
            if x < t { low = s } else { high = s }
            s = (low + high) / 2
        }
        return bezier(s, y1, y2)
    }
}
