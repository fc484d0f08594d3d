import Foundation

/// The rewrites of the Objective-C-only idioms, each a pass over one file's tokens.
extension Rewriter {
    // MARK: Optional requirements

    /// `@objc optional func f(…) -> R` in a protocol becomes a requirement, and a protocol
    /// extension after the protocol gives it a default: nothing for `Void`, `nil` for an optional
    /// result, and otherwise a throw of `UnimplementedOptionalRequirement` (the requirement
    /// becomes `throws`, which the conforming types' own non-throwing methods still satisfy), so
    /// that a caller's fallback applies exactly where an unimplemented method left it before.
    mutating func rewriteOptionalRequirements(_ file: Int) {
        let source = sources[file]
        for (i, open) in source.topLevelBodies(["protocol"]) {
            let name = source.text(i + 1)
            // The protocol's own modifiers: a public protocol's defaults are public.
            var k = i - 1
            var isPublic = false
            while k >= 0, source.tokens[k].kind == .identifier || source.tokens[k].kind == .attribute,
                SwiftSource.modifierWords.contains(source.text(k)) || source.tokens[k].kind == .attribute
            {
                if ["public", "open"].contains(source.text(k)) { isPublic = true }
                k -= 1
            }
            var defaults: [String] = []
            for member in source.members(ofBodyAt: open) {
                guard let optional = source.modifier("optional", in: member),
                    let keyword = source.declarationKeyword(in: member)
                else { continue }
                let indent = source.indentation(of: member.lowerBound)
                let access = isPublic ? "public " : ""
                let kind = source.text(keyword)
                // Everything from the first modifier that stays (not `@objc`, not `optional`).
                var signatureStart = member.lowerBound
                while signatureStart < keyword,
                    source.tokens[signatureStart].kind == .attribute || source.text(signatureStart) == "optional"
                {
                    if source.tokens[signatureStart].kind == .attribute, source.isPunctuation(signatureStart + 1, UInt8(ascii: "(")),
                        !source.tokens[signatureStart + 1].spaceBefore
                    {
                        signatureStart = source.partner[signatureStart + 1]
                    }
                    signatureStart += 1
                }
                let (removeStart, removeEnd) = removal(file, optional, through: optional)
                if kind == "func", let signature = source.signature(at: keyword, within: member) {
                    // Continuation lines aligned under the first line's text move left by what
                    // `@objc optional ` took from it.
                    let firstLine = source.line(of: source.tokens[signatureStart].start)
                    let shift =
                        source.line(of: source.tokens[member.lowerBound].start) == firstLine
                        ? source.tokens[signatureStart].start - source.tokens[member.lowerBound].start : 0
                    let continuation = String(repeating: " ", count: shift)
                    let throwing = Self.callKind(result: signature.result) == .throwing
                    var text = source.text(from: source.tokens[signatureStart].start, to: source.tokens[signature.last].end)
                    if throwing, signature.throwsToken == nil, let arrow = signature.arrow {
                        text =
                            source.text(from: source.tokens[signatureStart].start, to: source.tokens[arrow].start) + "throws "
                            + source.text(from: source.tokens[arrow].start, to: source.tokens[signature.last].end)
                    }
                    if shift > 0 {
                        text = text.replacingOccurrences(of: "\n" + indent + continuation, with: "\n" + indent)
                        for lineNumber in (firstLine + 1)...max(firstLine + 1, source.line(of: source.tokens[signature.last].start))
                        where lineNumber <= source.line(of: source.tokens[signature.last].start) {
                            let lineStart = source.lineStarts[lineNumber - 1]
                            let prefix = indent + continuation
                            if source.text(from: lineStart, to: min(source.bytes.count, lineStart + prefix.utf8.count)) == prefix {
                                edit(file, lineStart + indent.utf8.count, lineStart + prefix.utf8.count, "")
                            }
                        }
                    }
                    let qualified = "\(name).\(signature.fullName)"
                    switch Self.callKind(result: signature.result) {
                    case .plain:
                        edit(file, removeStart, removeEnd, "")
                        let body = Self.isVoid(signature.result) ? "{}" : "{ nil }"
                        defaults.append("\(indent)\(access)\(text) \(body)")
                        note(
                            file, keyword,
                            "optional requirement \(qualified) → a requirement with a default that "
                                + (Self.isVoid(signature.result) ? "does nothing" : "returns nil"),
                            "Swift on Linux has no optional requirements; the default answers as an unimplemented method did")
                    case .throwing:
                        edit(file, removeStart, removeEnd, "")
                        if signature.throwsToken == nil, let arrow = signature.arrow {
                            edit(file, source.tokens[arrow].start, source.tokens[arrow].start, "throws ")
                        }
                        defaults.append("\(indent)\(access)\(text) {\n\(indent)    throw UnimplementedOptionalRequirement(\"\(qualified)\")\n\(indent)}")
                        note(
                            file, keyword,
                            "optional requirement \(qualified) → a throwing requirement whose default throws "
                                + "UnimplementedOptionalRequirement",
                            "\(signature.result) has no value meaning 'not implemented'; callers' ?( become (try? …), "
                                + "so their fallbacks apply as before, and conforming types' methods still satisfy it")
                    }
                } else if kind == "var", let colon = (keyword..<member.upperBound).first(where: { source.isPunctuation($0, UInt8(ascii: ":")) }),
                    let accessors = (colon..<(member.upperBound + 1)).first(where: { source.isPunctuation($0, UInt8(ascii: "{")) })
                {
                    let type = source.text(from: source.tokens[colon].end, to: source.tokens[accessors].start)
                        .trimmingCharacters(in: .whitespacesAndNewlines)
                    let propertyName = source.text(keyword + 1)
                    guard Self.isOptional(type) else {
                        leave(
                            file, keyword, "left: optional property requirement \(name).\(propertyName): \(type)",
                            "a property whose type is not optional has no default that answers 'not implemented'; "
                                + "make its type \(type)? (and its readers expect nil), or give it a default value by hand")
                        continue
                    }
                    edit(file, removeStart, removeEnd, "")
                    defaults.append("\(indent)\(access)var \(propertyName): \(type) { nil }")
                    note(
                        file, keyword, "optional property requirement \(name).\(propertyName) → a requirement with a default of nil",
                        "Swift on Linux has no optional requirements; nil is what an unimplemented property read as")
                } else {
                    leave(
                        file, keyword, "left: optional requirement \(name).\(source.text(keyword + 1))",
                        "only optional methods and properties are rewritten; give this one a default in a protocol extension by hand")
                }
            }
            if !defaults.isEmpty {
                let close = source.partner[open]
                let position = source.tokens[close].end
                edit(
                    file, position, position,
                    "\n\n// Defaults for the optional requirements of \(name).\nextension \(name) {\n"
                        + defaults.joined(separator: "\n\n") + "\n}")
            }
        }
    }

    // MARK: Calls of optional requirements

    /// `delegate?.method?(…)` and `delegate.method!(…)` of an optional requirement — one declared
    /// in the files, or one of UIKit's, which Trellis declares with defaults — become plain
    /// calls, or `(try? …)` / `(try! …)` where the default throws.
    mutating func rewriteCalls(_ file: Int) {
        let source = sources[file]
        for mark in source.tokens.indices where source.isPostfixMark(mark) {
            let open = mark + 1
            guard source.isPunctuation(open, UInt8(ascii: "(")), !source.tokens[open].spaceBefore,
                mark >= 2, source.tokens[mark - 1].kind == .identifier, source.isPunctuation(mark - 2, UInt8(ascii: "."))
            else { continue }
            let name = source.text(mark - 1)
            let fullName = name + "(" + source.argumentLabels(open: open).map { $0 + ":" }.joined() + ")"
            let kind: OptionalCall
            if let declared = declaredOptional[fullName] {
                kind = declared
            } else if UIKitOptionalRequirements.names.contains(fullName) {
                kind = .plain
            } else {
                continue
            }
            let forced = source.bytes[source.tokens[mark].start] == UInt8(ascii: "!")
            let markText = forced ? "!" : "?"
            switch kind {
            case .plain:
                if edit(file, source.tokens[mark].start, source.tokens[mark].end, "") {
                    note(
                        file, mark, "\(name)\(markText)( → \(name)(",
                        UIKitOptionalRequirements.names.contains(fullName) && declaredOptional[fullName] == nil
                            ? "\(fullName) is a requirement with a default in Trellis (UIKit's default answer), so every delegate answers it"
                            : "\(fullName) now has a default, so every conforming type answers it")
                }
            case .throwing:
                let start = source.chainStart(memberName: mark - 1)
                let end = source.chainEnd(after: source.partner[open])
                let attempt = forced ? "try!" : "try?"
                guard edit(file, source.tokens[mark].start, source.tokens[mark].end, "") else { continue }
                edit(file, source.tokens[start].start, source.tokens[start].start, "(\(attempt) ")
                edit(file, source.tokens[end].end, source.tokens[end].end, ")")
                note(
                    file, mark, "\(name)\(markText)(…) → (\(attempt) \(name)(…))",
                    "\(fullName)'s default throws UnimplementedOptionalRequirement"
                        + (forced ? ", which stops the program as calling an unimplemented method did" : ", which try? turns into nil, as ?( gave"))
            }
        }
    }

    // MARK: responds(to:), conforms(to:), #selector

    /// `x.responds(to: #selector(P.m))` becomes `true` (or, through an optional chain, `nil`
    /// when the chain is), since every conforming type now answers every requirement;
    /// `x.conforms(to: P.self)` becomes `x is P`. A `#selector` anywhere else is left, named.
    mutating func rewriteRuntimeChecks(_ file: Int) {
        let source = sources[file]
        var handledSelectors: Set<Int> = []
        for name in source.tokens.indices where source.tokens[name].kind == .identifier {
            let word = source.text(name)
            guard word == "responds" || word == "conforms", source.isPunctuation(name - 1, UInt8(ascii: ".")),
                source.isPunctuation(name + 1, UInt8(ascii: "(")), source.text(name + 2) == "to",
                source.isPunctuation(name + 3, UInt8(ascii: ":"))
            else { continue }
            let open = name + 1
            let close = source.partner[open]
            let start = source.chainStart(memberName: name)
            // The receiver: up to the `.` before the name, less a final `?`.
            var receiverEnd = name - 2
            let finalMark = source.isPostfixMark(receiverEnd) && source.bytes[source.tokens[receiverEnd].start] == UInt8(ascii: "?")
            if finalMark { receiverEnd -= 1 }
            guard receiverEnd >= start else { continue }
            let receiver = source.text(from: source.tokens[start].start, to: source.tokens[receiverEnd].end)
            let optional = source.chainsOptionally(from: start, to: name - 1)
            let simple = start == receiverEnd && source.tokens[start].kind == .identifier
            let wrapped = simple ? receiver : "(\(receiver))"
            if word == "responds" {
                guard source.tokens[name + 4].kind == .pound, source.text(name + 4) == "#selector",
                    source.isPunctuation(name + 5, UInt8(ascii: "("))
                else { continue }
                let selectorOpen = name + 5
                let selectorClose = source.partner[selectorOpen]
                handledSelectors.insert(name + 4)
                let selector = source.text(from: source.tokens[selectorOpen].end, to: source.tokens[selectorClose].start)
                    .filter { !$0.isWhitespace }
                let method = selector.split(separator: ".").last.map(String.init) ?? selector
                // `#selector(P.width)` names a method by its base name alone.
                let throwing =
                    method.contains("(")
                    ? declaredOptional[method] == .throwing
                    : declaredOptional.contains { $0.value == .throwing && $0.key.hasPrefix(method + "(") }
                if throwing {
                    leave(
                        file, name, "left: responds(to: #selector(\(selector)))",
                        "\(method)'s default throws, so no test short of calling it can tell; call it as "
                            + "(try? \(receiver).\(method.prefix { $0 != "(" })(…)) and use nil for 'does not respond'")
                    continue
                }
                let replacement = optional ? "\(wrapped).map({ _ in true })" : "true"
                if edit(file, source.tokens[start].start, source.tokens[close].end, replacement) {
                    note(
                        file, name, "\(receiver)\(finalMark ? "?" : "").responds(to: #selector(\(selector))) → \(replacement)",
                        "every conforming type answers every requirement now (optional ones have defaults)"
                            + (optional ? "; nil still when the chain is" : "")
                            + "; check that the code only guards a call with it (a caller that reads it as "
                            + "'the delegate implements this' now always hears yes)")
                }
            } else {
                let items = source.topLevelItems(open: open)
                guard items.count == 1 else { continue }
                var typeText = source.text(from: source.tokens[name + 4].start, to: source.tokens[close - 1].end)
                guard typeText.hasSuffix(".self") else { continue }
                typeText.removeLast(5)
                let replacement = optional ? "\(wrapped).map({ $0 is \(typeText) })" : "(\(receiver) is \(typeText))"
                if edit(file, source.tokens[start].start, source.tokens[close].end, replacement) {
                    note(
                        file, name, "\(receiver)\(finalMark ? "?" : "").conforms(to: \(typeText).self) → \(replacement)",
                        "conforms(to:) asks the Objective-C runtime; `is` asks Swift the same question")
                }
            }
        }
        rewriteTargetActions(file, handled: &handledSelectors)
        rewriteTimers(file, handled: &handledSelectors)
        for index in source.tokens.indices
        where source.tokens[index].kind == .pound && source.text(index) == "#selector"
            && !handledSelectors.contains(index)
        {
            let close = source.isPunctuation(index + 1, UInt8(ascii: "(")) ? source.partner[index + 1] : index
            leave(
                file, index, "left: \(source.text(from: source.tokens[index].start, to: source.tokens[close].end))",
                "a selector names a method to the Objective-C runtime (target–action, perform); "
                    + "pass a closure that calls the method instead")
        }
    }

    // MARK: Attributes

    /// `@objc`, `@objcMembers`, `@nonobjc` and Interface Builder's `@IB…` attributes are removed:
    /// they only say how Objective-C sees a declaration.
    mutating func removeAttributes(_ file: Int) {
        let source = sources[file]
        let removable: [String: String] = [
            "@objc": "Swift on Linux has no Objective-C runtime to expose it to",
            "@objcMembers": "Swift on Linux has no Objective-C runtime to expose it to",
            "@nonobjc": "Swift on Linux has no Objective-C runtime to hide it from",
            "@IBOutlet": "Interface Builder's marker; the property stays",
            "@IBAction": "Interface Builder's marker; the method stays",
            "@IBInspectable": "Interface Builder's marker; the property stays",
            "@IBDesignable": "Interface Builder's marker; the class stays",
        ]
        for index in source.tokens.indices where source.tokens[index].kind == .attribute {
            let word = source.text(index)
            guard let reason = removable[word] else { continue }
            var last = index
            if source.isPunctuation(index + 1, UInt8(ascii: "(")), !source.tokens[index + 1].spaceBefore {
                last = source.partner[index + 1]
            }
            let (start, end) = removal(file, index, through: last)
            if edit(file, start, end, "") {
                note(file, index, "removed \(source.text(from: source.tokens[index].start, to: source.tokens[last].end))", reason)
            }
        }
    }

    // MARK: Overrides in extensions

    /// An `override` inside an extension moves into the class's own body when the class is
    /// declared in the files; one that only serves debugging (`description`, `debugDescription`,
    /// `debugQuickLookObject`) of a class declared elsewhere is dropped; any other is left.
    mutating func moveOverrides(_ file: Int) {
        let source = sources[file]
        for (i, open) in source.topLevelBodies(["extension"]) {
            let typeName = source.text(i + 1)
            for member in source.members(ofBodyAt: open) {
                guard source.modifier("override", in: member) != nil, let keyword = source.declarationKeyword(in: member) else { continue }
                let memberName = source.text(keyword) == "init" ? "init" : source.text(keyword + 1)
                let (start, spanEnd) = memberSpan(file, member)
                let end = spanEnd
                // The member goes with one blank line that separated it from the next.
                var removalEnd = spanEnd
                if spanEnd < source.bytes.count, source.bytes[spanEnd - 1] == UInt8(ascii: "\n") {
                    let next = source.lineEnd(of: spanEnd)
                    if source.bytes[spanEnd..<next].allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n") }) {
                        removalEnd = next
                    }
                }
                let inner = edits[file].filter { $0.start >= start && $0.end <= end && !($0.start == start && $0.end == start) }
                let text = apply(inner, to: source.bytes, from: start, to: end)
                if let target = classes[typeName], writes(paths[target.file]) || target.file == file {
                    let targetSource = sources[target.file]
                    let close = targetSource.partner[target.open]
                    let closeToken = targetSource.tokens[close]
                    let lineStart = targetSource.lineStart(of: closeToken.start)
                    let onOwnLine = targetSource.bytes[lineStart..<closeToken.start].allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
                    let position = onOwnLine ? lineStart : closeToken.start
                    let block = "\n" + (text.hasSuffix("\n") ? text : text + "\n")
                    edits[file].removeAll { $0.start >= start && $0.end <= end && !($0.start == start && $0.end == start) }
                    edit(file, start, removalEnd, "")
                    edit(target.file, position, position, block)
                    let place = target.file == file ? "" : " in \(paths[target.file])"
                    note(
                        file, keyword, "moved override \(memberName) from an extension of \(typeName) into the class\(place)",
                        "Swift on Linux overrides only in the class body (an extension's override needs the Objective-C runtime)")
                } else if ["description", "debugDescription", "debugQuickLookObject"].contains(memberName) {
                    edits[file].removeAll { $0.start >= start && $0.end <= end && !($0.start == start && $0.end == start) }
                    edit(file, start, removalEnd, "")
                    note(
                        file, keyword, "dropped override \(memberName) in an extension of \(typeName)",
                        "\(typeName) is not declared in these files, so it cannot move into its class, and it only serves debugging")
                } else {
                    leave(
                        file, keyword, "left: override \(memberName) in an extension of \(typeName)",
                        "Swift on Linux overrides only in the class body, and \(typeName) is not declared in the files given; "
                            + "move it into a subclass's body, or port the file that declares \(typeName) with this one")
                }
            }
        }
    }

    /// The bytes of a member with the comment lines directly above it, as whole lines when it
    /// has its lines to itself.
    func memberSpan(_ file: Int, _ member: ClosedRange<Int>) -> (Int, Int) {
        let source = sources[file]
        let first = source.tokens[member.lowerBound]
        let last = source.tokens[member.upperBound]
        let nextToken = member.upperBound + 1 < source.tokens.count ? source.tokens[member.upperBound + 1] : nil
        guard first.lineBreakBefore, nextToken?.lineBreakBefore ?? true else { return (first.start, last.end) }
        var start = source.lineStart(of: first.start)
        // Comment lines directly above belong to it.
        while start > 0 {
            let previousStart = source.lineStart(of: start - 1)
            let line = source.text(from: previousStart, to: start - 1).trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix("//") || line.hasPrefix("*") || line.hasPrefix("/*") else { break }
            start = previousStart
        }
        let end = source.lineEnd(of: last.end - 1)
        return (start, end)
    }
}
