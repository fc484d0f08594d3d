import Foundation
import TrellisCollectionView
import TrellisRender
import TrellisText

/// `trellis layout SPEC.json [--rect X,Y,W,H] [--format json|svg|html] [-o FILE]`.
enum LayoutCommand {
    static let definition = CommandDefinition(
        name: "layout",
        overview: "Compute a collection-view layout from a JSON spec.",
        arguments: [("spec", "The layout spec (JSON), or '-' to read it from standard input.")],
        options: [
            OptionDefinition(
                names: ["--rect"], valueName: "x,y,w,h",
                help: "List only the elements whose frames intersect this rectangle; SVG and\nHTML draw only that part of the content."),
            OptionDefinition(
                names: ["--format"], valueName: "format",
                help: "Output format: json, svg or html. (default: json)", choices: ["json", "svg", "html"]),
            .output("Write to this file instead of standard output."),
            .force,
            .help,
        ],
        discussion: """
            Without --rect every element is listed: section by section, the header, then the items
            in order, then the footer. With --rect only elements whose frames overlap the rectangle
            (touching an edge is not overlapping).

            A spec with "updates" (one batch: insertItems, deleteItems, reloadItems, moveItem,
            insertSections, deleteSections, reloadSections, moveSection) and "contentOffset" is laid
            out after the batch; JSON then adds "transitions" (every element visible before or after,
            with its from and to attributes), and svg and html play the animation. An invalid batch
            exits with status 65 and UIKit's message.

            EXIT STATUS: 0 success, 1 a file cannot be written, 64 usage error, 65 invalid spec, 66 no
            such spec file, 77 a spec file that may not be read.
            """)

    enum Format: String, CaseIterable { case json, svg, html }

    /// `trellis layout`'s command line, as typed values.
    struct Options {
        var spec: String
        var format: Format
        var rect: CGRect?
        var output: String?
        var force: Bool

        init(_ arguments: [String]) throws(CommandError) {
            let parsed = try definition.parse(arguments)
            force = parsed.flags.contains("--force")
            guard let path = parsed.positionals.first else { throw CommandError(.missingArgument("<spec>")) }
            if parsed.positionals.count > 1 { throw CommandError(.unexpectedArgument(parsed.positionals[1])) }
            spec = path
            format = try parseFormat(parsed.value("--format"))
            rect = try parsed.value("--rect").map { (text: String) throws(CommandError) -> CGRect in try parseRect(text) }
            output = parsed.value("--output")
        }
    }

    static func run(_ arguments: [String], io: inout CommandIO) throws(CommandError) {
        let options = try Options(arguments)
        io.replacesReadOnlyFiles = options.force
        let specPath = options.spec, format = options.format, rect = options.rect
        let data = try io.read(specPath)
        let spec: LayoutSpec
        do { spec = try LayoutSpec.parse(data) } catch {
            // Another command's file: say which.
            let hint = specPath == "-" ? nil : FileKindSniffer.hint(command: "layout", path: specPath, kind: FileKindSniffer.kind(of: data))
            throw .data("\(specPath): \(error)" + (hint.map { "\nhint: " + $0 } ?? ""))
        }
        let run: LayoutRun
        do { run = try LayoutRun.run(spec, rect: rect) } catch { throw error.prefixed(specPath) }
        let title = "Layout of \(specPath == "-" ? "standard input" : specPath)"
        let output: String
        switch format {
        case .json:
            try io.stream(to: options.output) { run.writeJSON(to: $0) }
            return
        case .svg:
            if let transition = run.transition {
                output = TransitionRenderer().render(transition, viewport: run.viewport)
            } else {
                let snapshot = run.snapshot
                output = SVGRenderer(
                    viewport: spec.contentOffset != nil ? run.viewport : nil, crop: rect,
                    windows: run.orthogonalWindows(in: snapshot)
                ).render(snapshot)
            }
        case .html:
            let snapshot = run.snapshot
            if let transition = run.transition {
                let renderer = TransitionRenderer()
                output = renderer.page(
                    title: title, caption: caption(spec, snapshot) + "; the red outline is the viewport",
                    svg: renderer.render(transition, viewport: run.viewport))
            } else {
                let svg = SVGRenderer(
                    viewport: spec.contentOffset != nil ? run.viewport : nil, crop: rect,
                    windows: run.orthogonalWindows(in: snapshot)
                ).render(snapshot)
                output = HTMLPage.render(
                    title: title,
                    figures: [
                        (
                            caption(spec, snapshot)
                                + (spec.contentOffset != nil ? "; the red outline is the viewport" : ""), svg
                        )
                    ])
            }
        }
        try io.write(output, to: options.output)
    }

    static func caption(_ spec: LayoutSpec, _ snapshot: LayoutSnapshot) -> String {
        let items = spec.sections.reduce(0) { $0 + $1.count }
        let kind = spec.layout.caption
        return "\(kind), \(spec.sections.count) section(s), \(items) item(s) before any update; "
            + "content \(Markup.number(snapshot.contentSize.width)) × \(Markup.number(snapshot.contentSize.height))"
    }

    static func parseFormat(_ text: String?) throws(CommandError) -> Format {
        guard let text else { return .json }
        guard let format = Format(rawValue: text) else {
            throw CommandError(.invalidValue(text, option: "--format <format>", expected: "json, svg or html"))
        }
        return format
    }

    static func parseRect(_ text: String) throws(CommandError) -> CGRect {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double($0.trimmingSpaces()) }
        guard parts.count == 4, parts.allSatisfy({ $0 != nil && $0!.isFinite }) else {
            throw CommandError(.invalidValue(text, option: "--rect <x,y,w,h>", expected: "four numbers such as 0,0,375,667"))
        }
        guard parts[2]! >= 0, parts[3]! >= 0 else {
            throw CommandError(.rule("Invalid value '\(text)' for '--rect <x,y,w,h>'; width and height must not be negative"))
        }
        return CGRect(x: parts[0]!, y: parts[1]!, width: parts[2]!, height: parts[3]!)
    }
}

extension CommandError {
    /// The same error with the file it concerns named first (data errors only).
    func prefixed(_ file: String) -> CommandError {
        if case .data(let message) = self { return .data("\(file): \(message)") }
        return self
    }
}
