import Foundation

/// A minimal benchmark harness: each task runs a number of times and reports its fastest and
/// median run, so one slow run (the other core busy) does not decide the figure.
struct Measurement {
    var name: String
    var runs: [Duration]

    var median: Duration { runs.sorted()[runs.count / 2] }
    var fastest: Duration { runs.min()! }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }
}

func measure(_ name: String, runs: Int, _ body: () -> Void) -> Measurement {
    let clock = ContinuousClock()
    var times: [Duration] = []
    for _ in 0..<runs { times.append(clock.measure(body)) }
    return Measurement(name: name, runs: times)
}

/// Keeps the optimizer from discarding a computed value.
@inline(never)
func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

/// The resident set size of this process, from `/proc/self/statm` (Linux); 0 elsewhere. Large
/// arrays are mapped and unmapped whole, so the growth across a step is what that step keeps.
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

func format(_ seconds: Double) -> String {
    switch seconds {
    case ..<1e-6: return String(format: "%.0f ns", seconds * 1e9)
    case ..<1e-3: return String(format: "%.2f µs", seconds * 1e6)
    case ..<1: return String(format: "%.2f ms", seconds * 1e3)
    default: return String(format: "%.2f s", seconds)
    }
}
