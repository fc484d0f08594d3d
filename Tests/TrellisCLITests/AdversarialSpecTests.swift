import Foundation
import Testing
import TrellisCLI

/// Seeded adversarial specs of every layout type: each ends in status 0 or 65, never a trap or a
/// hang. A few per type here; `TrellisBenchmarks fuzz` runs thousands in release.
@Suite("Adversarial layout specs")
struct AdversarialSpecTests {
    static let rounds = Int(ProcessInfo.processInfo.environment["TRELLIS_FUZZ_ROUNDS"] ?? "") ?? 100

    @Test("every layout type survives extreme numbers, counts, nesting and offsets", arguments: AdversarialLayoutSpecs.types)
    func survives(type: String) {
        var statuses: [Int32: Int] = [:]
        for seed in 0..<UInt64(Self.rounds) {
            let spec = AdversarialLayoutSpecs.spec(type: type, seed: seed)
            var io = CommandIO(standardInput: { Data(spec.utf8) })
            let arguments = seed % 3 == 0 ? ["layout", "-", "--rect", "0,0,375,800"] : ["layout", "-"]
            let status = TrellisCommandLine.run(arguments, io: &io)
            statuses[status, default: 0] += 1
            #expect(status == 0 || status == 65, "seed \(seed): status \(status)\n\(spec)\n\(io.stderr)")
            if status == 65 { #expect(io.stderr.hasPrefix("Error: "), "seed \(seed): \(io.stderr)") }
        }
        // The generator must reach both ends: specs that lay out and specs that are refused.
        #expect((statuses[0] ?? 0) > 0 && (statuses[65] ?? 0) > 0, "\(type): \(statuses)")
    }

    @Test("the same seed gives the same spec")
    func deterministic() {
        #expect(AdversarialLayoutSpecs.spec(type: "compositional", seed: 7) == AdversarialLayoutSpecs.spec(type: "compositional", seed: 7))
        #expect(AdversarialLayoutSpecs.spec(type: "flow", seed: 7) != AdversarialLayoutSpecs.spec(type: "flow", seed: 8))
    }
}
