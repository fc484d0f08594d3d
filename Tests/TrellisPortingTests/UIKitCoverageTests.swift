import Foundation
import Testing

@testable import TrellisPort

/// `Documentation/UIKitCoverage.md` against the modules: what it says is there is, what it says
/// is not yet is not, and every UIKit name the modules give is listed.
@Suite("What of UIKit is there")
struct UIKitCoverageTests {
    /// The names in backticks of each table row's "there" and "not yet" columns.
    static func table() throws -> (there: [String], notYet: [String]) {
        let text = try String(contentsOf: Porting.root.appendingPathComponent("Documentation/UIKitCoverage.md"), encoding: .utf8)
        var there: [String] = [], notYet: [String] = []
        func names(_ cell: Substring) -> [String] {
            cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        }
        for line in text.split(separator: "\n") where line.hasPrefix("| ") && !line.hasPrefix("| area") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
            guard cells.count >= 4 else { continue }
            there += names(cells[2])
            notYet += names(cells[3])
        }
        return (there, notYet)
    }

    /// Whether a member named `name` is declared in the collection-view and layout modules.
    static func declared(_ name: String) throws -> Bool {
        let pattern = try NSRegularExpression(pattern: "\\b(var|let|func|case)\\s+\(NSRegularExpression.escapedPattern(for: name))\\b")
        for module in ["Sources/TrellisCollectionView", "Sources/TrellisLayouts"] {
            let folder = Porting.root.appendingPathComponent(module)
            for case let file as String in FileManager.default.enumerator(atPath: folder.path)! where file.hasSuffix(".swift") {
                let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                if pattern.firstMatch(in: source, range: NSRange(source.startIndex..., in: source)) != nil { return true }
            }
        }
        return false
    }

    @Test("every name said to be there is, every name not yet is not, and every UIKit name the modules give is listed")
    func agreesWithModules() throws {
        let (there, notYet) = try Self.table()
        let given = Set(UIKitNames.renamed.keys).union(UIKitNames.kept).subtracting(["UIKit"])
        #expect(there.count > 100 && notYet.count > 10)
        for name in there {
            let parts = name.split(separator: ".")
            #expect(given.contains(String(parts[0])), "\(name): not a name the UIKit module gives")
            if parts.count == 2 { #expect(try Self.declared(String(parts[1])), "\(name): no such member in the sources") }
        }
        for name in notYet {
            let parts = name.split(separator: ".")
            if parts.count == 2 {
                #expect(given.contains(String(parts[0])), "\(name): its type is not there either; list the type")
                #expect(try !Self.declared(String(parts[1])), "\(name) is there now: move it to the 'there' column")
            } else {
                #expect(!given.contains(name), "\(name) is there now: move it to the 'there' column")
            }
        }
        let listed = Set(there.filter { !$0.contains(".") })
        #expect(given.subtracting(listed).isEmpty, "not listed: \(given.subtracting(listed).sorted())")
    }
}
