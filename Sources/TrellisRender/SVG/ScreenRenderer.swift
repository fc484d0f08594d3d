import Foundation
import TrellisCollectionView
import TrellisText

/// Draws what a collection view shows on screen as SVG, the way a person would see it: each
/// cell's background (its ``BackgroundConfiguration``, or its view's background colour), a list
/// cell's image, text and secondary text where its ``ListContentView`` puts them, in their fonts
/// and colours, and its accessories as UIKit's glyphs — so that a ported settings screen looks
/// like one. Cells are drawn in the order of their frames (top to bottom, then leading), each
/// clipped to its frame; a symbol image is drawn as a rounded square in its tint with the symbol's
/// name as its title.
///
/// ```swift
/// let svg = ScreenRenderer().render(collectionView)   // "<svg xmlns=… viewBox=\"0 0 375 667\" …>"
/// ```
public struct ScreenRenderer: Sendable {
    /// The colour a view's tint resolves to: the system blue.
    public var tintColor: Color = .systemBlue

    /// Creates a renderer.
    public init() {}

    /// The SVG document of `collectionView`'s visible part.
    public func render(_ collectionView: CollectionView) -> String {
        let n = Markup.number
        let size = collectionView.bounds.size, origin = collectionView.bounds.origin
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(size.width))\" height=\"\(n(size.height))\" "
        out += "viewBox=\"0 0 \(n(size.width)) \(n(size.height))\" "
        out += "font-family=\"-apple-system, 'SF Pro Text', Helvetica, Arial, 'Noto Sans CJK SC', sans-serif\">\n"
        let background = collectionView.backgroundColor ?? .systemBackground
        out += "<rect x=\"0\" y=\"0\" width=\"\(n(size.width))\" height=\"\(n(size.height))\" fill=\"\(background.hexString)\"/>\n"
        out += "<g transform=\"translate(\(n(-origin.x)) \(n(-origin.y)))\">\n"
        let cells = collectionView.visibleCells.filter { !$0.isHidden && $0.alpha > 0 }.sorted {
            ($0.frame.minY, $0.frame.minX) < ($1.frame.minY, $1.frame.minX)
        }
        for (index, cell) in cells.enumerated() { out += cellSVG(cell, id: index) }
        out += "</g>\n</svg>\n"
        return out
    }

    private func cellSVG(_ cell: CollectionViewCell, id: Int) -> String {
        let n = Markup.number
        let f = cell.frame
        guard [f.minX, f.minY, f.width, f.height].allSatisfy(\.isFinite) else { return "" }
        var out = "<clipPath id=\"cell\(id)\"><rect x=\"\(n(f.minX))\" y=\"\(n(f.minY))\" width=\"\(n(f.width))\" height=\"\(n(f.height))\"/></clipPath>\n"
        out += "<g clip-path=\"url(#cell\(id))\"\(cell.alpha < 1 ? " opacity=\"\(n(cell.alpha))\"" : "")>\n"
        if let background = cell.backgroundConfiguration {
            let insets = background.backgroundInsets
            let box = CGRect(
                x: f.minX + insets.leading, y: f.minY + insets.top, width: max(0, f.width - insets.leading - insets.trailing),
                height: max(0, f.height - insets.top - insets.bottom))
            let color = background.resolvedBackgroundColor(for: tintColor)
            out += "<rect x=\"\(n(box.minX))\" y=\"\(n(box.minY))\" width=\"\(n(box.width))\" height=\"\(n(box.height))\""
            out += " rx=\"\(n(background.cornerRadius))\"\(fill(color))"
            if let stroke = background.strokeColor, background.strokeWidth > 0 {
                out += paint("stroke", stroke) + " stroke-width=\"\(n(background.strokeWidth))\""
            }
            out += "/>\n"
        } else if let color = cell.backgroundColor {
            out += "<rect x=\"\(n(f.minX))\" y=\"\(n(f.minY))\" width=\"\(n(f.width))\" height=\"\(n(f.height))\"\(fill(color))/>\n"
        }
        let content = cell.contentView
        let origin = CGPoint(x: f.minX + content.frame.minX, y: f.minY + content.frame.minY)
        if let list = content as? ListContentView {
            out += listSVG(list, at: origin)
        }
        if let listCell = cell as? ListCell {
            let separators = listCell.separatorFrames
            let color = listCell.listSeparatorColor ?? .separator
            for line in [separators.top, separators.bottom].compactMap({ $0 }) {
                let box = line.offsetBy(dx: f.minX, dy: f.minY)
                out += "<rect x=\"\(n(box.minX))\" y=\"\(n(box.minY))\" width=\"\(n(box.width))\" height=\"\(n(box.height))\"\(fill(color))/>\n"
            }
            let expanded = cell.configurationState.isExpanded
            for (accessory, frame) in listCell.accessoryFrames where !accessory.isHidden {
                out += accessorySVG(accessory, in: frame.offsetBy(dx: f.minX, dy: f.minY), expanded: expanded)
            }
        }
        out += "</g>\n"
        return out
    }

    /// ` fill="#…"`, with the alpha as an opacity (SVG 1.1 readers do not take eight-digit colours).
    private func fill(_ color: Color) -> String { paint("fill", color) }

    /// ` fill="#…"` or ` stroke="#…"` in `color`'s opaque form, its alpha as the matching opacity.
    private func paint(_ property: String, _ color: Color) -> String {
        let opaque = Color(red: color.red, green: color.green, blue: color.blue, alpha: 1).hexString
        return " \(property)=\"\(opaque)\"" + (color.alpha < 1 ? " \(property)-opacity=\"\(Markup.number(color.alpha))\"" : "")
    }

    private func listSVG(_ view: ListContentView, at origin: CGPoint) -> String {
        let c = view.listConfiguration
        let parts = view.parts(in: view.bounds.size)
        var out = ""
        if let image = c.image, let frame = parts.imageFrame?.offsetBy(dx: origin.x, dy: origin.y) {
            out += imageSVG(image, tint: c.resolvedImageTintColor(for: tintColor), radius: c.imageProperties.cornerRadius, in: frame)
        }
        if let text = c.shownText, let frame = parts.textFrame?.offsetBy(dx: origin.x, dy: origin.y) {
            out += textSVG(text, font: view.shownTextFont, color: c.resolvedTextColor, in: frame)
        }
        if let text = c.shownSecondaryText, let frame = parts.secondaryTextFrame?.offsetBy(dx: origin.x, dy: origin.y) {
            out += textSVG(text, font: view.shownSecondaryTextFont, color: c.resolvedSecondaryTextColor, in: frame)
        }
        return out
    }

    /// A text's lines, as ``TextMeasure/breakLines(of:font:width:)`` breaks them (the lines its
    /// frame was measured for), each on its baseline.
    private func textSVG(_ text: String, font: Font, color: Color, in frame: CGRect) -> String {
        let n = Markup.number
        let weight = font.weight >= .bold ? "700" : font.weight >= .semibold ? "600" : font.weight >= .medium ? "500" : "400"
        let lines = TextMeasure.breakLines(of: text, font: font, width: frame.width)
        var out = ""
        for (k, line) in lines.enumerated() {
            let y = frame.minY + CGFloat(k) * font.lineHeight + font.ascender
            guard y - font.ascender < frame.maxY - 0.001 else { break }
            out += "<text x=\"\(n(frame.minX))\" y=\"\(n(y))\" font-size=\"\(n(font.pointSize))\" font-weight=\"\(weight)\""
            out += "\(fill(color))\(font.isItalic ? " font-style=\"italic\"" : "")>\(Markup.escape(line))</text>\n"
        }
        return out
    }

    private func imageSVG(_ image: Image, tint: Color, radius: CGFloat, in frame: CGRect) -> String {
        let n = Markup.number
        let name = image.symbolName ?? image.assetName ?? "image"
        let color = image.renderingMode == .alwaysOriginal ? (image.tintColor ?? .systemGray) : (image.tintColor ?? tint)
        var out = "<rect x=\"\(n(frame.minX))\" y=\"\(n(frame.minY))\" width=\"\(n(frame.width))\" height=\"\(n(frame.height))\""
        out += " rx=\"\(n(max(radius, min(frame.width, frame.height) / 4)))\"\(fill(color))><title>\(Markup.escape(name))</title></rect>\n"
        return out
    }

    /// An accessory's glyph in `f`; an outline disclosure points down while its row is `expanded`.
    private func accessorySVG(_ accessory: CellAccessory, in f: CGRect, expanded: Bool) -> String {
        let n = Markup.number
        let gray = accessory.tintColor ?? .tertiaryLabel
        let tint = accessory.tintColor ?? tintColor
        func stroke(_ color: Color, _ width: CGFloat) -> String {
            " fill=\"none\"" + paint("stroke", color) + " stroke-width=\"\(n(width))\" stroke-linecap=\"round\" stroke-linejoin=\"round\""
        }
        func points(_ p: [(CGFloat, CGFloat)]) -> String {
            p.map { "\(n(f.minX + $0.0 * f.width)),\(n(f.minY + $0.1 * f.height))" }.joined(separator: " ")
        }
        let circle = "<circle cx=\"\(n(f.midX))\" cy=\"\(n(f.midY))\" r=\"\(n(min(f.width, f.height) / 2 - 1))\""
        switch accessory.kind {
        case .disclosureIndicator:
            return "<polyline points=\"\(points([(0.3, 0.1), (0.75, 0.5), (0.3, 0.9)]))\"\(stroke(gray, 2))/>\n"
        case .outlineDisclosure:
            let chevron: [(CGFloat, CGFloat)] = expanded ? [(0.25, 0.35), (0.5, 0.65), (0.75, 0.35)] : [(0.35, 0.25), (0.65, 0.5), (0.35, 0.75)]
            return "<polyline points=\"\(points(chevron))\"\(stroke(tint, 2))/>\n"
        case .checkmark:
            return "<polyline points=\"\(points([(0.05, 0.55), (0.38, 0.9), (0.95, 0.1)]))\"\(stroke(tint, 2))/>\n"
        case .delete, .insert:
            let color = accessory.backgroundColor ?? (accessory.kind == .delete ? .systemRed : .systemGreen)
            var out = circle + "\(fill(color))/>\n"
            out += "<polyline points=\"\(points([(0.3, 0.5), (0.7, 0.5)]))\"\(stroke(.white, 2))/>\n"
            if accessory.kind == .insert { out += "<polyline points=\"\(points([(0.5, 0.3), (0.5, 0.7)]))\"\(stroke(.white, 2))/>\n" }
            return out
        case .reorder:
            return [0.2, 0.5, 0.8].map { y in "<polyline points=\"\(points([(0.1, y), (0.9, y)]))\"\(stroke(.systemGray, 1.5))/>\n" }.joined()
        case .multiselect:
            return circle + "\(stroke(.systemGray3, 1.5))/>\n"
        case .detail:
            return circle
                + "\(stroke(tint, 1.5))/>\n<text x=\"\(n(f.midX))\" y=\"\(n(f.midY + 5))\" font-size=\"14\" text-anchor=\"middle\"\(fill(tint))>i</text>\n"
        case .label:
            return textSVG(accessory.text ?? "", font: accessory.labelFont, color: accessory.tintColor ?? .secondaryLabel, in: f)
        case .customView:
            let color = accessory.customView?.backgroundColor ?? .systemGray5
            return "<rect x=\"\(n(f.minX))\" y=\"\(n(f.minY))\" width=\"\(n(f.width))\" height=\"\(n(f.height))\" rx=\"3\"\(fill(color))/>\n"
        }
    }
}
