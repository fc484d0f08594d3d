import Foundation
import TrellisCollectionView
import TrellisText

/// Draws a ``LayoutSnapshot`` as SVG: every element a labelled box at its frame, decoration views
/// below everything, then elements in ascending zIndex (ties keep the layout's order), as a host
/// would stack them.
///
/// ```swift
/// let svg = SVGRenderer().render(snapshot)   // "<svg xmlns=… viewBox=\"0 0 375 216\" …>"
/// ```
public struct SVGRenderer: Sendable {
    /// Extra room around the content, in points.
    public var padding: CGFloat = 8
    /// A title drawn above the content, if any.
    public var title: String?
    /// Whether to draw the viewport rectangle of the collection view on top of the content.
    public var viewport: CGRect?
    /// When set, only this part of the content is drawn (elements clipped to it): a query's rect
    /// of a long layout draws a picture the size of the rect, not of the whole content.
    public var crop: CGRect?
    /// The part on screen of each section that scrolls across on its own (an orthogonal section
    /// of a compositional layout, which scrolls down), in content coordinates: drawn as a dashed
    /// red frame, with what the section holds left and right of it faded.
    public var windows: [CGRect]

    /// Creates a renderer.
    public init(
        padding: CGFloat = 8, title: String? = nil, viewport: CGRect? = nil, crop: CGRect? = nil,
        windows: [CGRect] = []
    ) {
        self.padding = padding
        self.title = title
        self.viewport = viewport
        self.crop = crop
        self.windows = windows
    }

    /// The SVG document.
    public func render(_ snapshot: LayoutSnapshot) -> String {
        let titleHeight: CGFloat = title == nil ? 0 : 22
        var extent = CGRect(origin: .zero, size: snapshot.contentSize)
        if let crop, crop.width.isFinite, crop.height.isFinite {
            extent = crop.standardized
        } else {
            for element in snapshot.elements where element.frame.width.isFinite && element.frame.height.isFinite {
                extent = extent.union(element.frame)
            }
            if let viewport { extent = extent.union(viewport) }
        }
        let width = extent.width + 2 * padding
        let height = extent.height + 2 * padding + titleHeight
        let n = Markup.number
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(width))\" height=\"\(n(height))\" "
        out += "viewBox=\"0 0 \(n(width)) \(n(height))\" font-family=\"Helvetica, Arial, sans-serif\">\n"
        out += "<style>.cell{fill:#dbeafe;stroke:#2563eb}.supplementaryView{fill:#fef3c7;stroke:#d97706}"
        out += ".decorationView{fill:#f1f5f9;stroke:#94a3b8;stroke-dasharray:4 3}"
        out += "text{font-size:11px;fill:#1e293b;stroke:none;text-anchor:middle;dominant-baseline:central}</style>\n"
        if let title {
            out += "<text x=\"\(n(padding))\" y=\"14\" style=\"text-anchor:start;font-size:13px;font-weight:bold\">"
            out += Markup.escape(title) + "</text>\n"
        }
        let dx = padding - extent.minX, dy = padding + titleHeight - extent.minY
        if crop != nil {
            out += "<clipPath id=\"crop\"><rect x=\"\(n(extent.minX))\" y=\"\(n(extent.minY))\" width=\"\(n(extent.width))\" "
            out += "height=\"\(n(extent.height))\"/></clipPath>\n"
            out += "<g transform=\"translate(\(n(dx)) \(n(dy)))\" clip-path=\"url(#crop)\">\n"
        } else {
            out += "<g transform=\"translate(\(n(dx)) \(n(dy)))\">\n"
        }
        out += "<rect class=\"content\" x=\"0\" y=\"0\" width=\"\(n(snapshot.contentSize.width))\" "
        out += "height=\"\(n(snapshot.contentSize.height))\" fill=\"#ffffff\" stroke=\"#cbd5e1\"/>\n"
        for element in Self.paintOrder(snapshot.elements) {
            out += elementSVG(element)
        }
        for window in windows where [window.minX, window.minY, window.width, window.height].allSatisfy(\.isFinite) {
            // Faded left and right of the window along the section's band, then its frame.
            let outside = [
                CGRect(x: extent.minX, y: window.minY, width: window.minX - extent.minX, height: window.height),
                CGRect(x: window.maxX, y: window.minY, width: extent.maxX - window.maxX, height: window.height),
            ]
            for part in outside where part.width > 0 && part.height > 0 {
                out += "<rect class=\"offscreen\" x=\"\(n(part.minX))\" y=\"\(n(part.minY))\" width=\"\(n(part.width))\" "
                out += "height=\"\(n(part.height))\" fill=\"#ffffff\" fill-opacity=\"0.65\" stroke=\"none\"/>\n"
            }
            out += "<rect class=\"window\" x=\"\(n(window.minX))\" y=\"\(n(window.minY))\" width=\"\(n(window.width))\" "
            out += "height=\"\(n(window.height))\" fill=\"none\" stroke=\"#dc2626\" stroke-width=\"2\" stroke-dasharray=\"6 4\"/>\n"
        }
        if let viewport {
            out += "<rect class=\"viewport\" x=\"\(n(viewport.minX))\" y=\"\(n(viewport.minY))\" "
            out += "width=\"\(n(viewport.width))\" height=\"\(n(viewport.height))\" fill=\"none\" "
            out += "stroke=\"#dc2626\" stroke-width=\"2\"/>\n"
        }
        out += "</g>\n</svg>\n"
        return out
    }

    /// Elements in the order they are painted: decoration views first, then by zIndex, stable.
    public static func paintOrder(_ elements: [CollectionViewLayoutAttributes]) -> [CollectionViewLayoutAttributes] {
        elements.enumerated().sorted { a, b in
            let ka = (a.element.representedElementCategory == .decorationView ? 0 : 1, a.element.zIndex)
            let kb = (b.element.representedElementCategory == .decorationView ? 0 : 1, b.element.zIndex)
            return ka != kb ? ka < kb : a.offset < b.offset
        }.map(\.element)
    }

    /// The width of `text` in the drawings' 11-pixel Helvetica: Helvetica's advance widths for
    /// digits (6.12), spaces and the middle dot (3.06), lower- and upper-case letters on average
    /// (5.5, 7.3), arrows and the ellipsis (11); a wide character (Chinese, emoji) 11, others 6.2.
    public static func labelWidth(_ text: String) -> CGFloat {
        var width: CGFloat = 0
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x30...0x39, 0x2B, 0x2D, 0x2212: width += 6.12
            case 0x20, 0xB7, 0x2E, 0x2C, 0x3A: width += 3.06
            case 0x61...0x7A: width += 5.5
            case 0x41...0x5A: width += 7.3
            case 0x2026, 0x2192: width += 11
            default: width += TextWidth.columns(String(scalar)) >= 2 ? 11 : 6.2
            }
        }
        return width
    }

    /// A label that fits its box: as it is when it fits across; turned upright in a box taller
    /// than wide where it fits that way; else shortened — the part after the kind (`1·4` for
    /// `badge 1·4`), then cut with an ellipsis; and left out when not even that fits.
    public static func fittedLabel(_ text: String, in box: CGRect) -> (text: String, upright: Bool)? {
        let room = box.width - 4, tall = box.height - 4
        if labelWidth(text) <= room { return (text, false) }
        if box.height > box.width, labelWidth(text) <= tall, box.width >= 12 { return (text, true) }
        var shorter = text
        if let space = text.lastIndex(of: " ") { shorter = String(text[text.index(after: space)...]) }
        if labelWidth(shorter) <= room, box.height >= 12 { return (shorter, false) }
        if box.height > box.width, labelWidth(shorter) <= tall, box.width >= 12 { return (shorter, true) }
        let upright = box.height > box.width
        let length = upright ? tall : room
        guard (upright ? box.width : box.height) >= 12 else { return nil }
        var cut = ""
        for character in shorter {
            if labelWidth(cut + String(character) + "…") > length { break }
            cut.append(character)
        }
        return cut.isEmpty ? nil : (cut + "…", upright)
    }

    /// The `<text>` of a label fitted to `box`, or nothing.
    static func labelSVG(_ text: String, in box: CGRect) -> String {
        guard let fitted = fittedLabel(text, in: box) else { return "" }
        let n = Markup.number
        let turn = fitted.upright ? " transform=\"rotate(-90 \(n(box.midX)) \(n(box.midY)))\"" : ""
        return "<text x=\"\(n(box.midX))\" y=\"\(n(box.midY))\"\(turn)>\(Markup.escape(fitted.text))</text>"
    }

    /// A short label for an element: `0·3` for an item, `header 0`, `footer 0`, or the kind.
    public static func label(_ a: CollectionViewLayoutAttributes) -> String {
        switch a.representedElementCategory {
        case .cell: return "\(a.section)·\(a.item)"
        case .supplementaryView, .decorationView:
            switch a.representedElementKind {
            case CollectionView.elementKindSectionHeader?: return "header \(a.section)"
            case CollectionView.elementKindSectionFooter?: return "footer \(a.section)"
            default: return "\(a.representedElementKind ?? "?") \(a.section)·\(a.item)"
            }
        }
    }

    private func elementSVG(_ a: CollectionViewLayoutAttributes) -> String {
        guard !a.isHidden, a.frame.minX.isFinite, a.frame.minY.isFinite,
            a.frame.width.isFinite, a.frame.height.isFinite
        else { return "" }
        let n = Markup.number
        let f = a.frame
        var attributes = "class=\"\(a.representedElementCategory.name)\""
        if a.alpha != 1 { attributes += " opacity=\"\(n(max(0, min(1, a.alpha))))\"" }
        var out = "<g \(attributes)"
        if let t = a.transform3D.affineComponents, !a.transform3D.isIdentity {
            // Layout transforms apply about the element's center.
            let c = a.center
            out += " transform=\"translate(\(n(c.x)) \(n(c.y))) matrix(\(n(t.a)) \(n(t.b)) \(n(t.c)) \(n(t.d)) "
            out += "\(n(t.tx)) \(n(t.ty))) translate(\(n(-c.x)) \(n(-c.y)))\""
        }
        out += "><rect x=\"\(n(f.minX))\" y=\"\(n(f.minY))\" width=\"\(n(f.width))\" height=\"\(n(f.height))\" rx=\"3\"/>"
        out += Self.labelSVG(Self.label(a), in: f) + "</g>\n"
        return out
    }
}

/// Wraps SVG drawings in a self-contained HTML page.
public enum HTMLPage {
    /// A page titled `title` showing `figures` (caption, SVG markup) one after the other.
    /// `style` is added to the page's CSS and `preface` (markup, not escaped) goes before the figures.
    public static func render(
        title: String, figures: [(caption: String, svg: String)],
        style: String = "", preface: String = ""
    ) -> String {
        var out = head(title: title, style: style) + preface
        for figure in figures {
            out += "<figure>\n<figcaption>\(Markup.escape(figure.caption))</figcaption>\n\(figure.svg)</figure>\n"
        }
        return out + foot
    }

    /// A page's beginning, to its title heading: what content streamed after it goes under.
    public static func head(title: String, style: String = "") -> String {
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<title>\(Markup.escape(title))</title>\n"
        out += "<style>body{font-family:Helvetica,Arial,sans-serif;margin:24px;color:#1e293b}"
        out += "figure{display:inline-block;vertical-align:top;margin:0 24px 24px 0}"
        out += "figcaption{font-size:13px;margin-bottom:6px;max-width:420px}\(style)</style>\n</head>\n<body>\n"
        return out + "<h1>\(Markup.escape(title))</h1>\n"
    }

    /// A page's end.
    public static let foot = "</body>\n</html>\n"
}
