import Foundation

/// Target–action: `UILongPressGestureRecognizer(target: self, action: #selector(handle(_:)))`,
/// `recognizer.addTarget(self, action: …)`, `control.addTarget(self, action: …, for: .valueChanged)`,
/// `UIBarButtonItem(title:style:target:action:)` and `CADisplayLink(target: self, selector: …)`
/// name a method to the Objective-C runtime. Trellis's recognizers, controls, bar button items and
/// display links take the action as a closure; the selector becomes a closure that calls the same
/// method of the same target.
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

    /// Rewrites the `#selector` of a target–action in `file` — a gesture recognizer's
    /// (`init(target:action:)`, `addTarget(_:action:)`), a control's (`addTarget(_:action:for:)`),
    /// a bar button item's (`init(title:style:target:action:)`, `init(barButtonSystemItem:target:action:)`)
    /// and a display link's (`CADisplayLink(target:selector:)`, whose label becomes `action:`) —
    /// adding each rewritten selector's index to `handled`.
    mutating func rewriteTargetActions(_ file: Int, handled: inout Set<Int>) {
        let source = sources[file]
        for index in source.tokens.indices where source.tokens[index].kind == .pound && source.text(index) == "#selector" {
            guard source.isPunctuation(index + 1, UInt8(ascii: "(")), index >= 6,
                source.isPunctuation(index - 1, UInt8(ascii: ":")), ["action", "selector"].contains(source.text(index - 2)),
                source.isPunctuation(index - 3, UInt8(ascii: ",")), source.tokens[index - 4].kind == .identifier
            else { continue }
            let selectorClose = source.partner[index + 1]
            let label = source.text(index - 2)
            let target = source.text(index - 4)
            // The call the selector is an argument of: the nearest `(` before it that closes after it.
            guard
                let open = stride(from: index - 5, through: 1, by: -1).first(where: { k in
                    source.isPunctuation(k, UInt8(ascii: "(")) && source.partner[k] > selectorClose
                })
            else { continue }
            let callee = source.text(open - 1)
            let endsCall = source.isPunctuation(selectorClose + 1, UInt8(ascii: ")")) && source.partner[open] == selectorClose + 1
            let forEvents =
                source.isPunctuation(selectorClose + 1, UInt8(ascii: ",")) && source.text(selectorClose + 2) == "for"
                && source.isPunctuation(selectorClose + 3, UInt8(ascii: ":"))
            let isAdd = callee == "addTarget" && source.isPunctuation(open - 2, UInt8(ascii: ".")) && open == index - 5
            let kind: String
            if label == "selector" {
                guard ["CADisplayLink", "DisplayLink"].contains(callee), endsCall, source.text(index - 6) == "target" else { continue }
                kind = "display link"
            } else if callee.hasSuffix("GestureRecognizer") && endsCall && source.text(index - 6) == "target" && open == index - 7 {
                kind = "recognizer"
            } else if ["UIBarButtonItem", "BarButtonItem"].contains(callee) && endsCall && source.text(index - 6) == "target" {
                kind = "bar button item"
            } else if isAdd && endsCall {
                kind = "recognizer"
            } else if isAdd && forEvents {
                kind = "control"
            } else {
                continue
            }
            let selector = source.text(from: source.tokens[index + 1].end, to: source.tokens[selectorClose].start).filter { !$0.isWhitespace }
            let path = selector.split(separator: "(").first.map(String.init) ?? selector
            let base = path.split(separator: ".").last.map(String.init) ?? path
            let methods = declaredMethods(named: base)
            guard methods.count == 1, let method = methods.first, method.parameters.count <= 1 else { continue }
            let receiver = target == "self" ? "self" : "target"
            let capture = target == "self" ? "[weak self]" : "[weak target = \(target)]"
            let closure: String
            if let parameter = method.parameters.first {
                let plain = [
                    "UIGestureRecognizer", "GestureRecognizer", "UIControl", "Control", "UIBarButtonItem", "BarButtonItem", "CADisplayLink",
                    "DisplayLink", "Any", "AnyObject",
                ].contains(parameter.type)
                let argument = plain ? "$0" : "$0 as! \(parameter.type)"
                let call = parameter.label == "_" ? "\(base)(\(argument))" : "\(base)(\(parameter.label): \(argument))"
                closure = "{ \(capture) in \(receiver)?.\(call) }"
            } else {
                closure = "{ \(capture) _ in \(receiver)?.\(base)() }"
            }
            // A display link's argument is named `action:` here (`selector:` in Core Animation).
            let start = label == "selector" ? index - 2 : index
            let replacement = label == "selector" ? "action: \(closure)" : closure
            if edit(file, source.tokens[start].start, source.tokens[selectorClose].end, replacement) {
                handled.insert(index)
                let holds =
                    kind == "display link"
                    ? "and the link holds its target until it is invalidated, as Core Animation's does"
                    : "and the \(kind) holds the target weakly as UIKit does"
                note(
                    file, index, "\(label == "selector" ? "selector: " : "")#selector(\(selector)) → \(replacement)",
                    "Swift on Linux has no selectors; Trellis's \(kind)s take the action as a closure that calls the same method, \(holds)")
            }
        }
    }

    /// The arguments of the call whose `(` is at `open`: each one's label (or `nil`) and the
    /// tokens of its value.
    func arguments(_ source: SwiftSource, open: Int) -> [(label: String?, value: ClosedRange<Int>)] {
        let close = source.partner[open]
        guard close > open + 1 else { return [] }
        var out: [(label: String?, value: ClosedRange<Int>)] = []
        var start = open + 1
        var k = open + 1
        while k <= close {
            if k == close || source.isPunctuation(k, UInt8(ascii: ",")) {
                guard k > start else { return [] }
                if source.tokens[start].kind == .identifier, source.isPunctuation(start + 1, UInt8(ascii: ":")), start + 2 < k {
                    out.append((source.text(start), (start + 2)...(k - 1)))
                } else {
                    out.append((nil, start...(k - 1)))
                }
                start = k + 1
            } else if source.tokens[k].kind == .punctuation, ["(", "[", "{"].contains(source.text(k)) {
                k = source.partner[k]
                continue
            }
            k += 1
        }
        return out
    }

    /// A timer's or a delayed perform's `#selector`: `Timer.scheduledTimer(timeInterval: t, target:
    /// x, selector: #selector(m), userInfo: nil, repeats: r)` (and `Timer(timeInterval:…)`) becomes
    /// the block-based timer Foundation has on Linux; `perform(#selector(m), with: a, afterDelay:
    /// d)` a one-shot timer on the current run loop, as it was. Both keep their target (and the
    /// argument) until they fire, as the selector-based ones do. A `userInfo` other than `nil`
    /// (the block's timer has none) is left.
    mutating func rewriteTimers(_ file: Int, handled: inout Set<Int>) {
        let source = sources[file]
        func text(_ range: ClosedRange<Int>) -> String { source.text(from: source.tokens[range.lowerBound].start, to: source.tokens[range.upperBound].end) }
        func selector(_ value: ClosedRange<Int>) -> (index: Int, base: String, text: String)? {
            let index = value.lowerBound
            guard source.tokens[index].kind == .pound, source.text(index) == "#selector", source.isPunctuation(index + 1, UInt8(ascii: "(")),
                source.partner[index + 1] == value.upperBound
            else { return nil }
            let inner = source.text(from: source.tokens[index + 1].end, to: source.tokens[value.upperBound].start).filter { !$0.isWhitespace }
            let path = inner.split(separator: "(").first.map(String.init) ?? inner
            return (index, path.split(separator: ".").last.map(String.init) ?? path, inner)
        }
        /// The call of `base` on `target` with `argument` (or its first parameter), or `nil` when the
        /// method is not one declared in the files with at most one parameter.
        func call(_ base: String, on target: String, passing argument: String) -> String? {
            let methods = declaredMethods(named: base)
            guard methods.count == 1, let method = methods.first, method.parameters.count <= 1 else { return nil }
            guard let parameter = method.parameters.first else { return "\(target).\(base)()" }
            return parameter.label == "_" ? "\(target).\(base)(\(argument))" : "\(target).\(base)(\(parameter.label): \(argument))"
        }
        for open in source.tokens.indices where open > 0 && source.isPunctuation(open, UInt8(ascii: "(")) {
            let callee = source.text(open - 1)
            guard ["scheduledTimer", "Timer", "perform"].contains(callee) else { continue }
            let arguments = arguments(source, open: open)
            let labels = arguments.map { $0.label ?? "_" }
            let close = source.partner[open]
            if labels == ["timeInterval", "target", "selector", "userInfo", "repeats"],
                callee == "scheduledTimer" || (callee == "Timer" && !source.isPunctuation(open - 2, UInt8(ascii: "."))),
                let (index, base, inner) = selector(arguments[2].value)
            {
                let target = text(arguments[1].value)
                guard text(arguments[3].value) == "nil", let body = call(base, on: target, passing: "timer") else { continue }
                let uses = body.contains("(timer)") || body.contains(": timer)")
                let replacement =
                    "(withTimeInterval: \(text(arguments[0].value)), repeats: \(text(arguments[4].value))) { \(uses ? "timer" : "_") in \(body) }"
                if edit(file, source.tokens[open].start, source.tokens[close].end, replacement) {
                    handled.insert(index)
                    note(
                        file, index, "\(callee)(…, selector: #selector(\(inner)), …) → \(callee)\(replacement)",
                        "Swift on Linux has no selectors; Foundation's block-based timer calls the same method on the same run loop, "
                            + "and keeps its target as the selector-based one does")
                }
            } else if callee == "perform", labels == ["_", "with", "afterDelay"], let (index, base, inner) = selector(arguments[0].value) {
                // The receiver: `x.perform(…)`, or the implicit `self`.
                let receiver = source.isPunctuation(open - 2, UInt8(ascii: ".")) && source.tokens[open - 3].kind == .identifier ? source.text(open - 3) : "self"
                let start = receiver == "self" && !source.isPunctuation(open - 2, UInt8(ascii: ".")) ? open - 1 : open - 3
                // (A method of no parameter ignores the argument, as the runtime's call does.)
                guard let body = call(base, on: receiver, passing: text(arguments[1].value)) else { continue }
                let replacement = "_ = Timer.scheduledTimer(withTimeInterval: \(text(arguments[2].value)), repeats: false) { _ in \(body) }"
                if edit(file, source.tokens[start].start, source.tokens[close].end, replacement) {
                    handled.insert(index)
                    note(
                        file, index, "perform(#selector(\(inner)), …, afterDelay: …) → \(replacement)",
                        "Swift on Linux has no selectors; a one-shot timer on the current run loop is what perform(_:with:afterDelay:) "
                            + "schedules, keeping its receiver and argument until it fires")
                }
            }
        }
    }
}
