import Foundation
import Testing
import TrellisRender
import TrellisText

@Suite("JSON")
struct JSONValueTests {
    @Test("parsing keeps member order and reads every JSON type")
    func parsesEverything() throws {
        let value = try JSONValue.parse(#"{"b": 1, "a": [true, false, null, -2.5e2, "x\u00e9\n\ud83d\ude00"], "c": {}}"#)
        guard case .object(let members) = value else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["b", "a", "c"])
        #expect(value["a"] == .array([.bool(true), .bool(false), .null, .number(-250), .string("xé\n😀")]))
        #expect(value["c"] == .object([]))
    }

    @Test(
        "syntax errors give the line and column",
        arguments: [
            ("{\n  \"a\": 1,\n}", 3, 1, "expected a string key in double quotes"),
            ("[1, 2", 1, 6, "unexpected end of input; expected ',' or ']'"),
            ("{\"a\": 01}", 1, 7, "invalid number: leading zero"),
            ("{\"a\": 1, \"a\": 2}", 1, 10, "duplicate key \"a\""),
            ("\"tab\there\"", 1, 5, "control character in a string; escape it"),
            ("nul", 1, 1, "invalid literal; expected 'null'"),
            ("{} x", 1, 4, "unexpected text after the JSON value"),
            ("", 1, 1, "the document is empty; expected a JSON value"),
            ("\"\\ud800\"", 1, 8, "unpaired surrogate in \\u escape"),
            ("1e999", 1, 1, "number out of range"),
        ])
    func syntaxErrors(text: String, line: Int, column: Int, message: String) {
        #expect(throws: JSONSyntaxError(line: line, column: column, message: message)) { try JSONValue.parse(text) }
    }

    @Test("deeply nested input is refused instead of exhausting the stack")
    func deepNesting() {
        let text = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(text) }
    }

    @Test("serializing round-trips and is byte-identical for the same value")
    func roundTrip() throws {
        let text = #"{"s": "quote \" backslash \\ tab \t ctl \u0001", "n": [0, 16, 102.5, -0.25, 1e+21, 0.1], "o": {"k": null}}"#
        let value = try JSONValue.parse(text)
        let once = value.serialized()
        #expect(try JSONValue.parse(once) == value)
        #expect(value.serialized() == once)
        #expect(once.contains(#""quote \" backslash \\ tab \t ctl \u0001""#))
        #expect(once.contains("[0, 16, 102.5, -0.25, 1e+21, 0.1]"))
        #expect(value.serialized(pretty: false) == #"{"s":"quote \" backslash \\ tab \t ctl \u0001","n":[0,16,102.5,-0.25,1e+21,0.1],"o":{"k":null}}"#)
    }

    @Test(
        "numbers are written in their shortest exact form",
        arguments: [
            (16.0, "16"), (102.5, "102.5"), (-0.0, "0"), (1.0 / 3.0, "0.3333333333333333"), (1e15, "1000000000000000"), (1e21, "1e+21"),
            (123456789012345.0, "123456789012345"), (Double.nan, "null"),
        ])
    func numbers(value: Double, text: String) {
        #expect(JSONValue.format(value) == text)
    }
}

@Suite("Markup")
struct MarkupTests {
    @Test("text is escaped for both element content and attributes")
    func escaping() {
        #expect(Markup.escape(#"<a href="x">'&'</a>"#) == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
        #expect(Markup.escape("bell\u{7}") == "bell\u{FFFD}")
        #expect(Markup.escape("组号 平均") == "组号 平均")
    }
}
