import Foundation
import Testing

@testable import TrellisPort

@Suite("trellis port's list of UIKit's optional requirements")
struct UIKitRequirementListTests {
    /// The requirements of TrellisCollectionView's protocols that have a default in an extension
    /// of the protocol, read from the module's sources.
    static func defaultedRequirements() throws -> Set<String> {
        let folder = Porting.root.appendingPathComponent("Sources/TrellisCollectionView")
        let files = FileManager.default.enumerator(atPath: folder.path)!.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }.sorted()
        var requirements: [String: Set<String>] = [:]
        var defaults: [String: Set<String>] = [:]
        for file in files {
            let source = try SwiftSource(String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8))
            var i = 0
            while i < source.tokens.count {
                let word = source.text(i)
                if ["protocol", "extension"].contains(word), source.tokens[i].kind == .identifier, i + 1 < source.tokens.count,
                    let open = source.bodyOpen(after: i)
                {
                    let name = source.text(i + 1)
                    for member in source.members(ofBodyAt: open) {
                        guard let keyword = source.declarationKeyword(in: member), source.text(keyword) == "func",
                            let signature = source.signature(at: keyword, within: member)
                        else { continue }
                        if word == "protocol" {
                            requirements[name, default: []].insert(signature.fullName)
                        } else {
                            defaults[name, default: []].insert(signature.fullName)
                        }
                    }
                    i = source.partner[open] + 1
                    continue
                }
                if source.partner[i] > i { i = source.partner[i] }
                i += 1
            }
        }
        var names: Set<String> = []
        for (proto, required) in requirements { names.formUnion(required.intersection(defaults[proto] ?? [])) }
        return names
    }

    @Test("the list is exactly the requirements TrellisCollectionView's protocols give defaults")
    func listMatchesSources() throws {
        let fromSources = try Self.defaultedRequirements()
        let missing = fromSources.subtracting(UIKitOptionalRequirements.names).sorted()
        let extra = UIKitOptionalRequirements.names.subtracting(fromSources).sorted()
        #expect(
            missing.isEmpty && extra.isEmpty,
            "missing from the list:\n\(missing.map { "        \"\($0)\"," }.joined(separator: "\n"))\nnot in the sources: \(extra)")
        #expect(fromSources.count >= 20, "expected UIKit's delegate and data-source defaults, found \(fromSources.count)")
    }
}
