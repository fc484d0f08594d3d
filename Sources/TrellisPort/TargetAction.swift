import Foundation

/// Target–action with a gesture recognizer: `UILongPressGestureRecognizer(target: self, action:
/// #selector(handle(_:)))` and `recognizer.addTarget(self, action: #selector(handle(_:)))` name a
/// method to the Objective-C runtime. Trellis's recognizers take the action as a closure
/// (`init(target:action:)`, `addTarget(_:action:)`) and hold the target weakly, as UIKit does;
/// the selector becomes a closure that calls the same method of the same target.
extension Rewriter {
    /// A method declared in the files: its parameters' labels and types.
    struct DeclaredMethod {
        var parameters: [(label: String, type: String)]
    }

    /// The methods named `base` declared in any of the files.
    func declaredMethods(named base: String) -> [DeclaredMethod] {
        var found: [DeclaredMethod] = []
        for source in sources {
            for i in source.tokens.indices where source.tokens[i].kind == .identifier && source.text(i) == "func" && source.text(i + 1) == base {
                var open = i + 2
                if source.text(open) == "<", let close = (open..<source.tokens.count).first(where: { source.text($0) == ">" }) { open = close + 1 }
                guard source.isPunctuation(open, UInt8(ascii: "(")) else { continue }
                let close = source.partner[open]
                guard close > open else { continue }
                var parameters: [(label: String, type: String)] = []
                var start = open + 1
                var depth = 0
                for k in (open + 1)...close {
                    let text = source.text(k)
                    if source.tokens[k].kind == .punctuation, ["(", "[", "{"].contains(text) { depth += 1 }
                    if source.tokens[k].kind == .punctuation, [")", "]", "}"].contains(text), k != close { depth -= 1 }
                    guard k == close || (depth == 0 && source.isPunctuation(k, UInt8(ascii: ","))) else { continue }
                    if k > start, let colon = (start..<k).first(where: { source.isPunctuation($0, UInt8(ascii: ":")) }) {
                        let typeEnd = (colon..<k).first(where: { source.text($0) == "=" }) ?? k
                        parameters.append(
                            (
                                source.text(start),
                                source.text(from: source.tokens[colon].end, to: source.tokens[typeEnd - 1].end).trimmingCharacters(in: .whitespaces)
                            ))
                    }
                    start = k + 1
                }
                found.append(DeclaredMethod(parameters: parameters))
            }
        }
        return found
    }

    /// Rewrites the `#selector` of a recognizer's target–action in `file`, adding each rewritten
    /// selector's index to `handled`.
    mutating func rewriteTargetActions(_ file: Int, handled: inout Set<Int>) {
        let source = sources[file]
        for index in source.tokens.indices where source.tokens[index].kind == .pound && source.text(index) == "#selector" {
            guard source.isPunctuation(index + 1, UInt8(ascii: "(")), index >= 6,
                source.isPunctuation(index - 1, UInt8(ascii: ":")), source.text(index - 2) == "action",
                source.isPunctuation(index - 3, UInt8(ascii: ",")), source.tokens[index - 4].kind == .identifier
            else { continue }
            let selectorClose = source.partner[index + 1]
            // The call ends with the action: no `for:` after it (that is a control's).
            guard source.isPunctuation(selectorClose + 1, UInt8(ascii: ")")) else { continue }
            let target = source.text(index - 4)
            let isInit =
                index >= 8 && source.isPunctuation(index - 5, UInt8(ascii: ":")) && source.text(index - 6) == "target"
                && source.isPunctuation(index - 7, UInt8(ascii: "(")) && source.text(index - 8).hasSuffix("GestureRecognizer")
            let isAdd =
                source.isPunctuation(index - 5, UInt8(ascii: "(")) && source.text(index - 6) == "addTarget"
                && source.isPunctuation(index - 7, UInt8(ascii: "."))
            guard isInit || isAdd else { continue }
            let selector = source.text(from: source.tokens[index + 1].end, to: source.tokens[selectorClose].start).filter { !$0.isWhitespace }
            let path = selector.split(separator: "(").first.map(String.init) ?? selector
            let base = path.split(separator: ".").last.map(String.init) ?? path
            let methods = declaredMethods(named: base)
            guard methods.count == 1, let method = methods.first, method.parameters.count <= 1 else { continue }
            let receiver = target == "self" ? "self" : "target"
            let capture = target == "self" ? "[weak self]" : "[weak target = \(target)]"
            let closure: String
            if let parameter = method.parameters.first {
                let plain = ["UIGestureRecognizer", "GestureRecognizer", "Any", "AnyObject"].contains(parameter.type)
                let argument = plain ? "$0" : "$0 as! \(parameter.type)"
                let call = parameter.label == "_" ? "\(base)(\(argument))" : "\(base)(\(parameter.label): \(argument))"
                closure = "{ \(capture) in \(receiver)?.\(call) }"
            } else {
                closure = "{ \(capture) _ in \(receiver)?.\(base)() }"
            }
            if edit(file, source.tokens[index].start, source.tokens[selectorClose].end, closure) {
                handled.insert(index)
                note(
                    file, index, "#selector(\(selector)) → \(closure)",
                    "Swift on Linux has no selectors; Trellis's recognizers take the action as a closure that calls the same "
                        + "method, and hold the target weakly as UIKit does")
            }
        }
    }
}
