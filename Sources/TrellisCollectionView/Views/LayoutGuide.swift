import Foundation

/// A rectangle of a view that content is placed by (`UILayoutGuide`): its margins, its safe
/// area, its readable width, a list row's separator. Headless there is no Auto Layout to
/// constrain to it; its ``layoutFrame`` — in its view's coordinates — is what code that places
/// content by hand reads.
open class LayoutGuide: NSObject {
    /// Which rectangle of the view a guide is.
    enum Kind {
        case margins, safeArea, readableContent, separator
    }

    /// The guide's name, for debugging.
    open var identifier: String
    /// The view the guide belongs to.
    open internal(set) weak var owningView: View?
    let kind: Kind?

    /// A guide of the app's own: its frame is zero until it belongs to a view and is set
    /// through ``frameForOwnGuide``.
    public override init() {
        identifier = ""
        kind = nil
        super.init()
    }

    init(_ kind: Kind, identifier: String, view: View) {
        self.kind = kind
        self.identifier = identifier
        owningView = view
        super.init()
    }

    /// The frame of a guide of the app's own (`addLayoutGuide`): there are no constraints
    /// headless, so it is set.
    open var frameForOwnGuide: CGRect = .zero

    /// The guide's rectangle in its view's coordinates: the bounds less the layout margins
    /// (`layoutMarginsGuide`), less the safe area's insets (`safeAreaLayoutGuide`), the margins'
    /// rectangle narrowed to the readable width and centred (`readableContentGuide`), or a list
    /// row's bottom separator (`separatorLayoutGuide`).
    open var layoutFrame: CGRect {
        guard let view = owningView, let kind else { return frameForOwnGuide }
        let b = view.bounds
        switch kind {
        case .margins:
            return Self.inset(b, view.layoutMargins)
        case .safeArea:
            return Self.inset(b, view.safeAreaInsets)
        case .readableContent:
            let m = view.layoutMargins
            let width = min(View.readableWidth, max(0, b.width - m.left - m.right))
            let side = (b.width - width) / 2
            let left = max(m.left, side)
            return CGRect(x: b.minX + left, y: b.minY + m.top, width: width, height: max(0, b.height - m.top - m.bottom))
        case .separator:
            return (view as? ListCell)?.separatorGuideFrame ?? .zero
        }
    }

    private static func inset(_ rect: CGRect, _ insets: EdgeInsets) -> CGRect {
        CGRect(
            x: rect.minX + insets.left, y: rect.minY + insets.top, width: max(0, rect.width - insets.left - insets.right),
            height: max(0, rect.height - insets.top - insets.bottom))
    }
}

extension View {
    /// The widest a column of text is comfortable to read at the default text size: 672 points
    /// (UIKit's readable width at Large; the widths of other text sizes are not published).
    package static let readableWidth: CGFloat = 672

    /// The bounds less the layout margins (`layoutMarginsGuide`).
    public var layoutMarginsGuide: LayoutGuide { guide(.margins, "UIViewLayoutMarginsGuide") }

    /// The bounds less the safe area's insets (`safeAreaLayoutGuide`).
    public var safeAreaLayoutGuide: LayoutGuide { guide(.safeArea, "UIViewSafeAreaLayoutGuide") }

    /// The layout margins' rectangle, at most 672 points wide and centred in the view
    /// (`readableContentGuide`).
    public var readableContentGuide: LayoutGuide { guide(.readableContent, "UIViewReadableContentGuide") }

    func guide(_ kind: LayoutGuide.Kind, _ identifier: String) -> LayoutGuide {
        if let made = madeGuides.first(where: { $0.kind == kind }) { return made }
        let made = LayoutGuide(kind, identifier: identifier, view: self)
        madeGuides.append(made)
        return made
    }

    /// The app's own guides (`layoutGuides`).
    public var layoutGuides: [LayoutGuide] { ownGuides }

    /// Adds a guide of the app's own.
    public func addLayoutGuide(_ guide: LayoutGuide) {
        guide.owningView = self
        if !ownGuides.contains(where: { $0 === guide }) { ownGuides.append(guide) }
    }

    /// Removes a guide of the app's own.
    public func removeLayoutGuide(_ guide: LayoutGuide) {
        ownGuides.removeAll { $0 === guide }
        if guide.owningView === self { guide.owningView = nil }
    }
}
