import Foundation
import Testing
import TrellisCollectionView

@testable import TrellisLayouts

/// One case of `Fixtures/flickr-justified-layout-4.1.0.json`: an input and a configuration in
/// Flickr's terms, and what Flickr's library computed for them.
struct FlickrCase: Decodable, CustomStringConvertible {
    enum Item: Decodable {
        case ratio(Double)
        case size(width: Double, height: Double)

        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let ratio = try? container.decode(Double.self) {
                self = .ratio(ratio)
            } else {
                let size = try container.decode([String: Double].self)
                self = .size(width: size["width"] ?? 0, height: size["height"] ?? 0)
            }
        }

        /// Flickr's reading of an input item: `width / height` for a size, the number itself.
        var aspectRatio: CGFloat {
            switch self {
            case .ratio(let r): r
            case .size(let w, let h): w / h
            }
        }
    }

    /// A number, or an object of per-side numbers, as Flickr's `containerPadding` and `boxSpacing`.
    enum Sides: Decodable {
        case all(Double)
        case each([String: Double])

        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let all = try? container.decode(Double.self) {
                self = .all(all)
            } else {
                self = .each(try container.decode([String: Double].self))
            }
        }

        func side(_ name: String) -> CGFloat {
            switch self {
            case .all(let v): v
            case .each(let sides): sides[name] ?? 0
            }
        }
    }

    struct Config: Decodable {
        var containerWidth: Double?
        var containerPadding: Sides?
        var boxSpacing: Sides?
        var targetRowHeight: Double?
        var targetRowHeightTolerance: Double?
        var maxNumRows: Int?
        var forceAspectRatio: Double?
        var showWidows: Bool?
        var fullWidthBreakoutRowCadence: Int?
        var widowLayoutStyle: String?
    }

    struct Output: Decodable {
        var containerHeight: Double
        var widowCount: Int
        var boxes: [[Double]]
    }

    var name: String
    var config: Config
    var input: [Item]
    var output: Output

    var description: String { name }

    var configuration: JustifiedLayoutConfiguration {
        var c = JustifiedLayoutConfiguration()
        if let v = config.containerWidth { c.containerWidth = v }
        if let p = config.containerPadding {
            c.containerPadding = EdgeInsets(
                top: p.side("top"), left: p.side("left"), bottom: p.side("bottom"),
                right: p.side("right"))
        }
        if let s = config.boxSpacing {
            c.boxSpacing = .init(horizontal: s.side("horizontal"), vertical: s.side("vertical"))
        }
        if let v = config.targetRowHeight { c.targetRowHeight = v }
        if let v = config.targetRowHeightTolerance { c.targetRowHeightTolerance = v }
        c.maxNumRows = config.maxNumRows
        c.forceAspectRatio = config.forceAspectRatio.map { CGFloat($0) }
        if let v = config.showWidows { c.showWidows = v }
        c.fullWidthBreakoutRowCadence = config.fullWidthBreakoutRowCadence
        if let v = config.widowLayoutStyle { c.widowLayoutStyle = .init(rawValue: v)! }
        return c
    }

    var expectedBoxes: [CGRect] {
        output.boxes.map { CGRect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) }
    }

    struct File: Decodable {
        var source: String
        var cases: [FlickrCase]
    }

    static let all: [FlickrCase] = {
        let url = Bundle.module.url(
            forResource: "flickr-justified-layout-4.1.0", withExtension: "json",
            subdirectory: "Fixtures")!
        // swiftlint:disable:next force_try
        return try! JSONDecoder().decode(File.self, from: Data(contentsOf: url)).cases
    }()
}

/// Lists the boxes that differ, with both frames, so a mismatch explains itself.
func boxDifferences(_ actual: [CGRect], _ expected: [CGRect]) -> String {
    var lines: [String] = []
    if actual.count != expected.count { lines.append("\(actual.count) boxes, expected \(expected.count)") }
    for i in 0..<min(actual.count, expected.count) where actual[i] != expected[i] {
        lines.append("box \(i): \(actual[i]) expected \(expected[i])")
        if lines.count > 8 { break }
    }
    return lines.joined(separator: "\n")
}

@Suite("Justified rows give Flickr's numbers")
struct JustifiedFixtureTests {
    @Test(
        "every fixture case gives Flickr's boxes, container height and widow count, bit for bit",
        arguments: FlickrCase.all)
    func matchesFlickr(_ fixture: FlickrCase) throws {
        let result = try justifiedLayout(fixture.input.map(\.aspectRatio), fixture.configuration)
        let differences = boxDifferences(result.boxes, fixture.expectedBoxes)
        #expect(differences.isEmpty, "\(differences)")
        #expect(Double(result.containerHeight) == fixture.output.containerHeight)
        #expect(result.widowCount == fixture.output.widowCount)
    }

    @Test("the fixture file names where its numbers come from")
    func fixtureNamesItsSource() throws {
        let url = try #require(
            Bundle.module.url(
                forResource: "flickr-justified-layout-4.1.0", withExtension: "json",
                subdirectory: "Fixtures"))
        let file = try JSONDecoder().decode(FlickrCase.File.self, from: Data(contentsOf: url))
        #expect(file.source.contains("justified-layout 4.1.0"))
        #expect(file.cases.count >= 30)
    }
}
