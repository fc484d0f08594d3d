import Foundation
import Testing
import TrellisCollectionView
import TrellisRender
import TrellisText

/// The fast paths of reading and writing JSON, each checked against the plain way of doing the
/// same thing.
@Suite("JSON fast paths")
struct JSONStreamingTests {
    /// A deterministic generator, so a failure names a reproducible case.
    typealias Generator = SplitMix64

    static func written(_ body: (TextOutput) -> Void) -> String {
        let out = TextOutput()
        body(out)
        try? out.finish()
        return String(decoding: out.collected, as: UTF8.self)
    }

    @Test("numbers are written digit by digit exactly as their shortest description")
    func numbersMatchFormat() {
        var rng = Generator(state: 7)
        var values: [Double] = [
            0, -0.0, 0.5, -0.5, 1.0 / 16, 102.5, 1e11, 1e11 - 1.0 / 16, 99_999_999_999.9375,
            9_007_199_254_740_992, 9_007_199_254_740_994, -9_007_199_254_740_992, 1e21, 1e-7,
            .greatestFiniteMagnitude, .leastNonzeroMagnitude, .nan, .infinity, -.infinity,
            0.1, 1.0 / 3, 123.456, -2.0e-300,
        ]
        for _ in 0..<20_000 {
            switch rng.next() % 5 {
            case 0: values.append(Double(Int64(bitPattern: rng.next()) % 2_000_000) / 16)
            case 1: values.append(Double(Int64(bitPattern: rng.next()) % 1_000_000_000_000_000) / 16)
            case 2: values.append(Double(bitPattern: rng.next()))
            case 3: values.append(Double(Int64(bitPattern: rng.next()) % 100_000) / 100)
            default: values.append(Double.random(in: -1e12...1e12, using: &rng).rounded() / 4)
            }
        }
        for value in values {
            let fast = Self.written { $0.writeJSONNumber(value) }
            #expect(fast == JSONValue.format(value), "\(value.bitPattern)")
        }
    }

    @Test("integers are written as the standard library describes them")
    func integers() {
        var rng = Generator(state: 11)
        let values: [Int64] = [0, 1, -1, 9, 10, -10, .max, .min] + (0..<5_000).map { _ in Int64(bitPattern: rng.next()) >> (rng.next() % 64) }
        for value in values {
            #expect(Self.written { $0.writeInteger(value) } == String(value))
        }
    }

    @Test("numbers are read exactly as Double(String) reads them")
    func numbersMatchStandardLibrary() throws {
        var rng = Generator(state: 3)
        var texts = [
            "0", "-0", "0.1", "1e400", "-1e-400", "4.9e-324", "2.4703282292062328e-324", "1.7976931348623157e308",
            "9007199254740993", "123456789012345678901234567890", "0.30000000000000004", "1E+2", "1e-2",
            "2.2250738585072011e-308", "0.000000000000000000000000000001", "179769313486231580793728971405301e276",
        ]
        for _ in 0..<20_000 {
            var text = rng.next() % 4 == 0 ? "-" : ""
            let digits = Int(rng.next() % 25) + 1
            text += String(rng.next() % 9 + 1)
            for _ in 1..<digits { text += String(rng.next() % 10) }
            if rng.next() % 2 == 0 {
                text += "."
                for _ in 0...(rng.next() % 20) { text += String(rng.next() % 10) }
            }
            if rng.next() % 3 == 0 {
                text += ["e", "E", "e+", "e-"][Int(rng.next() % 4)] + String(rng.next() % 330)
            }
            texts.append(text)
        }
        for text in texts {
            let expected = Double(text)!
            do {
                let document = try JSONDocument(Array("[\(text)]".utf8))
                guard let read = document.root.elements.first(where: { _ in true })?.number else {
                    Issue.record("\(text) did not read as a number"); continue
                }
                #expect(read.bitPattern == expected.bitPattern || (read == 0 && expected == 0), "\(text)")
            } catch {
                // Out of range is refused rather than read as infinity.
                #expect(!expected.isFinite, "\(text): \(error)")
            }
        }
    }

    /// Random documents: what the serializer writes, the document reads back as the same value.
    @Test("random documents read back as the value that was written")
    func roundTrip() throws {
        var rng = Generator(state: 5)
        func value(_ depth: Int) -> JSONValue {
            switch rng.next() % (depth > 3 ? 4 : 6) {
            case 0: return .null
            case 1: return .bool(rng.next() % 2 == 0)
            case 2: return .number(Double(Int64(bitPattern: rng.next()) % 10_000_000) / Double(1 << (rng.next() % 12)))
            case 3:
                let scalars = ["a", "é", "\"", "\\", "\n", "\u{1}", "😀", "\u{2028}", "漢", " "]
                return .string((0..<Int(rng.next() % 8)).map { _ in scalars[Int(rng.next() % 10)] }.joined())
            case 4: return .array((0..<Int(rng.next() % 5)).map { _ in value(depth + 1) })
            default:
                let count = Int(rng.next() % 20)
                return .object((0..<count).map { k in ("k\(k)", value(depth + 1)) })
            }
        }
        for _ in 0..<2_000 {
            let original = value(0)
            for pretty in [true, false] {
                let text = original.serialized(pretty: pretty)
                let read = try JSONDocument(Array(text.utf8)).root.jsonValue
                #expect(read == original, "\(text)")
                #expect(try JSONValue.parse(text) == original)
            }
        }
    }

    /// Damaged documents: an error with a position inside the text, or a value — never a trap.
    @Test("damaged documents give an error inside the text, never a crash")
    func damaged() {
        var rng = Generator(state: 9)
        let seeds = [
            #"{"a": [1, 2.5, -3e2, true, null], "b": {"c": "d\u00e9\n"}, "e": []}"#,
            #"[{"width": 10, "height": 20}, {"width": 30.5, "height": 1e1}]"#,
        ]
        let alphabet = Array(#"{}[]:,"\ 0123456789.eE+-tfnu"#.utf8) + [0x00, 0xC3, 0xA9, 0xFF]
        for _ in 0..<5_000 {
            var bytes = Array(seeds[Int(rng.next() % 2)].utf8)
            for _ in 0...(rng.next() % 4) {
                let at = Int(rng.next() % UInt64(bytes.count + 1))
                switch rng.next() % 3 {
                case 0: bytes.insert(alphabet[Int(rng.next() % UInt64(alphabet.count))], at: at)
                case 1: if at < bytes.count { bytes.remove(at: at) }
                default: if at < bytes.count { bytes[at] = alphabet[Int(rng.next() % UInt64(alphabet.count))] }
                }
            }
            do {
                let document = try JSONDocument(bytes)
                _ = document.root.jsonValue
            } catch {
                let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
                #expect(error.line >= 1 && error.line <= lines.count)
                #expect(error.column >= 1 && error.column <= lines[error.line - 1].count + 1)
                #expect(!error.message.isEmpty)
            }
        }
    }

    @Test("the streamed layout JSON is byte for byte the serialized snapshot")
    func streamedLayoutMatchesSnapshot() {
        var elements: [CollectionViewLayoutAttributes] = []
        let header = CollectionViewLayoutAttributes(forSupplementaryViewOfKind: "quote\"kind", with: IndexPath(item: 0, section: 1))
        header.frame = CGRect(x: 0.5, y: -3.25, width: 375, height: 40.123456789)
        header.zIndex = -2
        elements.append(header)
        for item in 0..<40 {
            let cell = CollectionViewLayoutAttributes(forCellWith: IndexPath(item: item, section: 1))
            cell.frame = CGRect(x: Double(item % 3) * 118.33333333333333, y: Double(item / 3) * 60, width: 117.5, height: 50)
            cell.alpha = item % 4 == 0 ? 0 : 1
            cell.isHidden = item == 7
            if item % 5 == 0 { cell.transform3D = Transform3DMakeRotation(Double(item) / 10, 0, 0, 1) }
            elements.append(cell)
        }
        let decoration = CollectionViewLayoutAttributes(forDecorationViewOfKind: "band", with: IndexPath(item: 2, section: 0))
        decoration.frame = CGRect(x: 1e-7, y: 1e21, width: 0, height: 0)
        elements.append(decoration)
        let size = CGSize(width: 375, height: 1234.5)
        let trailing: [(key: String, value: JSONValue)] = [("transitions", .array([.object([("role", .string("inserted"))])]))]
        for (list, members) in [(elements, trailing), ([], []), (Array(elements.prefix(1)), [])] {
            let streamed = Self.written { out in
                LayoutJSONWriter.write(contentSize: size, elements: { body in list.forEach(body) }, trailing: members, to: out)
            }
            guard case .object(var expected) = LayoutSnapshot(contentSize: size, elements: list).json else {
                Issue.record("the snapshot is not an object"); return
            }
            expected += members
            #expect(streamed == JSONValue.object(expected).serialized())
        }
    }

    @Test("output larger than the buffer reaches a descriptor whole and in order")
    func chunkedOutput() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-textoutput-\(getpid()).txt")
        defer { try? FileManager.default.removeItem(at: url) }
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(descriptor >= 0)
        let out = TextOutput(.fileDescriptor(descriptor))
        var expected = ""
        for k in 0..<200_000 {
            let line = "line \(k) \(JSONValue.format(Double(k) / 8))\n"
            out.write("line ")
            out.writeInteger(Int64(k))
            out.write(" ")
            out.writeJSONNumber(Double(k) / 8)
            out.write("\n")
            expected += line
        }
        try out.finish()
        close(descriptor)
        #expect(expected.utf8.count > TextOutput.chunkSize)
        #expect(try String(contentsOf: url, encoding: .utf8) == expected)
    }

    @Test("a write that fails is reported by finish, with the reason")
    func failedWrite() {
        let out = TextOutput(.fileDescriptor(-1))
        out.write("text")
        #expect(throws: TextOutputError.self) { try out.finish() }
        #expect(out.failure == EBADF)
    }
}
