import Foundation

/// A rectangle in a view hierarchy, without pixels: `UIView` without the prefix, reduced to what
/// layouts and the code that drives them read — geometry, margins and safe area, traits and
/// layout direction, and the view tree.
///
/// ```swift
/// let view = View(frame: CGRect(x: 10, y: 20, width: 100, height: 50))
/// view.center   // (60.0, 45.0)
/// view.bounds   // (0.0, 0.0, 100.0, 50.0)
/// ```
///
/// As in UIKit, `frame` is derived from `center`, `bounds` and `transform`; `bounds.origin` is
/// where the view's own content starts (a scroll view's content offset).
open class View: NSObject {
    private var storedCenter: CGPoint
    private var storedBounds: CGRect
    private var storedTraits: TraitCollection?

    /// Creates a view with `frame`.
    public init(frame: CGRect) {
        storedCenter = CGPoint(x: frame.midX, y: frame.midY)
        storedBounds = CGRect(origin: .zero, size: frame.size)
        super.init()
    }

    /// Creates a view from an archive. Nothing is archived, so this is `init(frame: .zero)`; it
    /// exists so that subclasses written for UIKit (`required init?(coder:)`) compile.
    public required init?(coder: NSCoder) {
        storedCenter = .zero
        storedBounds = .zero
        super.init()
    }

    /// A view with a zero frame.
    public override convenience init() {
        self.init(frame: .zero)
    }

    // MARK: Geometry

    /// The view's rectangle in its superview's coordinates: its bounds' size around its center,
    /// and the bounding box of the transformed bounds when a transform is set.
    open var frame: CGRect {
        get {
            let size = storedBounds.size
            let local = CGRect(x: -size.width * anchor.x, y: -size.height * anchor.y, width: size.width, height: size.height)
            guard !storedTransform3D.isIdentity else { return local.offsetBy(dx: storedCenter.x, dy: storedCenter.y) }
            return local.applying(transform).offsetBy(dx: storedCenter.x, dy: storedCenter.y)
        }
        set {
            let oldBounds = storedBounds
            let newBounds = CGRect(origin: oldBounds.origin, size: newValue.size)
            if newBounds != oldBounds { boundsWillChange(to: newBounds) }
            storedCenter = CGPoint(x: newValue.minX + newValue.width * anchor.x, y: newValue.minY + newValue.height * anchor.y)
            storedBounds = newBounds
            if newBounds != oldBounds {
                boundsDidChange(from: oldBounds)
                resizeSubviews(from: oldBounds.size)
            }
        }
    }

    /// The view's own coordinate system: its size, and the point of its content shown at its
    /// top left (a scroll view's content offset).
    open var bounds: CGRect {
        get { storedBounds }
        set {
            let oldBounds = storedBounds
            guard newValue != oldBounds else { return }
            boundsWillChange(to: newValue)
            storedBounds = newValue
            boundsDidChange(from: oldBounds)
            if newValue.size != oldBounds.size { resizeSubviews(from: oldBounds.size) }
        }
    }

    /// Where the layer's anchor point sits in the superview's coordinates: the center of the frame
    /// unless `layer.anchorPoint` was moved from (0.5, 0.5).
    open var center: CGPoint {
        get { storedCenter }
        set { storedCenter = newValue }
    }

    /// The transform applied around the center: the affine part of the layer's transform.
    /// Defaults to the identity.
    open var transform: CGAffineTransform {
        get { storedTransform3D.isIdentity ? .identity : Transform3DGetAffineTransform(storedTransform3D) }
        set { storedTransform3D = Transform3DMakeAffineTransform(newValue) }
    }

    /// The full transform, as `layer.transform` reads and writes it (a cell's attributes'
    /// `transform3D` lands here).
    var transform3D: Transform3D {
        get { storedTransform3D }
        set { storedTransform3D = newValue }
    }
    private var storedTransform3D = Transform3DIdentity

    /// The layer's anchor point, in unit coordinates of the bounds: what `center` places and
    /// transforms turn around.
    var anchor = CGPoint(x: 0.5, y: 0.5)

    /// The opacity, 0 to 1. Defaults to 1.
    open var alpha: CGFloat = 1

    /// Whether the view is hidden. Defaults to `false`.
    open var isHidden = false

    /// A number the app chooses to find the view by.
    open var tag = 0

    // MARK: Appearance (kept for renderers, never drawn here)

    /// The layer that holds the view's appearance; its geometry, transform and opacity are the
    /// view's own (see ``CALayer``).
    open var layer: CALayer {
        if let storedLayer { return storedLayer }
        let layer = CALayer(owner: self)
        storedLayer = layer
        return layer
    }
    private var storedLayer: CALayer?

    /// The fill behind the view's content; `nil` (the default) is transparent.
    open var backgroundColor: Color?

    /// The colour controls inside the view are tinted with: the one set on it, else its
    /// superview's, else ``Color/systemBlue``.
    open var tintColor: Color! {
        get { storedTint ?? superview?.tintColor ?? Color.systemBlue }
        set { storedTint = newValue }
    }
    private var storedTint: Color?

    /// Whether subviews are clipped to the bounds.
    open var clipsToBounds = false

    /// Whether the view promises to fill its bounds with opaque content.
    open var isOpaque = true

    /// Whether touches reach the view.
    open var isUserInteractionEnabled = true

    /// How the view's content fills its bounds.
    open var contentMode: ContentMode = .scaleToFill

    // MARK: Animation

    /// Runs `animations` at once and then `completion(true)`: a headless view has no frames in
    /// between, so every change lands immediately, as a completed animation leaves it.
    open class func animate(
        withDuration duration: TimeInterval, delay: TimeInterval = 0,
        options: AnimationOptions = [], animations: @escaping () -> Void,
        completion: ((Bool) -> Void)? = nil
    ) {
        animations()
        completion?(true)
    }

    /// Runs `animations` at once (see ``animate(withDuration:delay:options:animations:completion:)``).
    open class func animate(withDuration duration: TimeInterval, animations: @escaping () -> Void) {
        animate(withDuration: duration, delay: 0, options: [], animations: animations, completion: nil)
    }

    /// Runs `animations` at once, then `completion(true)`.
    open class func animate(
        withDuration duration: TimeInterval, animations: @escaping () -> Void,
        completion: ((Bool) -> Void)?
    ) {
        animate(withDuration: duration, delay: 0, options: [], animations: animations, completion: completion)
    }

    /// Runs `animations` at once, then `completion(true)`: the spring has settled.
    open class func animate(
        withDuration duration: TimeInterval, delay: TimeInterval,
        usingSpringWithDamping dampingRatio: CGFloat, initialSpringVelocity velocity: CGFloat,
        options: AnimationOptions = [], animations: @escaping () -> Void,
        completion: ((Bool) -> Void)? = nil
    ) {
        animate(withDuration: duration, delay: delay, options: options, animations: animations, completion: completion)
    }

    /// Runs `actions` without animation — which is how everything runs here.
    open class func performWithoutAnimation(_ actions: () -> Void) { actions() }

    /// Options of an animation (`UIView.AnimationOptions`); recorded by nobody, accepted so that
    /// code passing them compiles.
    public struct AnimationOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let layoutSubviews = AnimationOptions(rawValue: 1 << 0)
        public static let allowUserInteraction = AnimationOptions(rawValue: 1 << 1)
        public static let beginFromCurrentState = AnimationOptions(rawValue: 1 << 2)
        public static let `repeat` = AnimationOptions(rawValue: 1 << 3)
        public static let autoreverse = AnimationOptions(rawValue: 1 << 4)
        public static let curveEaseInOut = AnimationOptions(rawValue: 0 << 16)
        public static let curveEaseIn = AnimationOptions(rawValue: 1 << 16)
        public static let curveEaseOut = AnimationOptions(rawValue: 2 << 16)
        public static let curveLinear = AnimationOptions(rawValue: 3 << 16)
        public static let transitionCrossDissolve = AnimationOptions(rawValue: 5 << 20)
    }

    /// How a view's content fills its bounds (`UIView.ContentMode`).
    public enum ContentMode: Int, Sendable {
        case scaleToFill, scaleAspectFit, scaleAspectFill, redraw, center, top, bottom, left, right
        case topLeft, topRight, bottomLeft, bottomRight
    }

    /// Called before the bounds change (their origin or their size), while ``bounds`` still has
    /// the old value; the collection view asks its layout here.
    func boundsWillChange(to newBounds: CGRect) {}

    /// Called after the bounds changed; the collection view invalidates its layout here.
    func boundsDidChange(from oldBounds: CGRect) {}

    /// How the view follows a change of its superview's size (`UIView.AutoresizingMask`).
    public struct AutoresizingMask: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let flexibleLeftMargin = AutoresizingMask(rawValue: 1 << 0)
        public static let flexibleWidth = AutoresizingMask(rawValue: 1 << 1)
        public static let flexibleRightMargin = AutoresizingMask(rawValue: 1 << 2)
        public static let flexibleTopMargin = AutoresizingMask(rawValue: 1 << 3)
        public static let flexibleHeight = AutoresizingMask(rawValue: 1 << 4)
        public static let flexibleBottomMargin = AutoresizingMask(rawValue: 1 << 5)
    }

    /// What follows the superview's size: the flexible parts of each axis (margin before, size,
    /// margin after) share the change in proportion to their lengths, as UIKit's autoresizing
    /// does; none flexible, the view keeps its frame. Default: none.
    open var autoresizingMask: AutoresizingMask = []

    private func resizeSubviews(from oldSize: CGSize) {
        let newSize = storedBounds.size
        for subview in subviews where !subview.autoresizingMask.isEmpty {
            let f = subview.frame, mask = subview.autoresizingMask
            let (x, width) = Self.share(
                newSize.width - oldSize.width, before: f.minX, length: f.width, after: oldSize.width - f.maxX,
                flexible: (mask.contains(.flexibleLeftMargin), mask.contains(.flexibleWidth), mask.contains(.flexibleRightMargin)))
            let (y, height) = Self.share(
                newSize.height - oldSize.height, before: f.minY, length: f.height, after: oldSize.height - f.maxY,
                flexible: (mask.contains(.flexibleTopMargin), mask.contains(.flexibleHeight), mask.contains(.flexibleBottomMargin)))
            let resized = CGRect(x: x, y: y, width: max(0, width), height: max(0, height))
            if resized != f { subview.frame = resized }
        }
    }

    /// One axis of autoresizing: the new start and length.
    private static func share(
        _ delta: CGFloat, before: CGFloat, length: CGFloat, after: CGFloat, flexible: (Bool, Bool, Bool)
    ) -> (CGFloat, CGFloat) {
        guard delta != 0, delta.isFinite, flexible.0 || flexible.1 || flexible.2 else { return (before, length) }
        let parts = [flexible.0 ? max(0, before) : 0, flexible.1 ? max(0, length) : 0, flexible.2 ? max(0, after) : 0]
        let total = parts.reduce(0, +)
        let count = CGFloat([flexible.0, flexible.1, flexible.2].filter { $0 }.count)
        // Proportional to the flexible parts' lengths; equal shares when they are all zero.
        func portion(_ i: Int, _ isFlexible: Bool) -> CGFloat {
            guard isFlexible else { return 0 }
            return total > 0 ? delta * parts[i] / total : delta / count
        }
        return (before + portion(0, flexible.0), length + portion(1, flexible.1))
    }

    // MARK: Margins, safe area and direction

    /// The margins content is laid out within (what layouts measure from with
    /// `sectionInsetReference = .fromLayoutMargins` or `contentInsetsReference = .layoutMargins`).
    /// Set, they are the view's own margins — UIKit's default is 8 points on every edge; read,
    /// they are what the view has, as UIKit reports them: the own margins, at least the view
    /// controller's ``ViewController/systemMinimumLayoutMargins`` for a view controller's view,
    /// measured from the safe area (``insetsLayoutMarginsFromSafeArea``), and at least the
    /// superview's where they reach into the view (``preservesSuperviewLayoutMargins``).
    open var layoutMargins: EdgeInsets {
        get { effectiveLayoutMargins }
        set {
            let old = effectiveLayoutMargins
            requestedMargins = newValue
            marginsWereSet = true
            if effectiveLayoutMargins != old { marginsChanged() }
        }
    }

    private var requestedMargins = EdgeInsets(top: 8, left: 8, bottom: 8, right: 8)
    /// The layout guides the view made (margins, safe area, readable content), and the app's.
    var madeGuides: [LayoutGuide] = []
    var ownGuides: [LayoutGuide] = []
    private var marginsWereSet = false

    /// A view controller's view starts with no margins of its own: it has the system minimum
    /// (unless the app set others).
    func becameRootView() {
        if !marginsWereSet { requestedMargins = .zero }
    }

    /// Whether the view takes its superview's margins where they reach into it (a subview 10
    /// points in from an edge whose superview's margin there is 16 has at least 6). Default
    /// `false`, as in UIKit.
    open var preservesSuperviewLayoutMargins = false {
        didSet { if preservesSuperviewLayoutMargins != oldValue { marginsChanged() } }
    }

    /// Whether the margins are measured from the safe area rather than the bounds (the safe
    /// area's insets are added to them). Default `true`, as in UIKit.
    open var insetsLayoutMarginsFromSafeArea = true {
        didSet { if insetsLayoutMarginsFromSafeArea != oldValue { marginsChanged() } }
    }

    /// The view controller whose view this is.
    package internal(set) weak var owningViewController: ViewController?

    private var effectiveLayoutMargins: EdgeInsets {
        var m = requestedMargins
        if let controller = owningViewController, controller.viewRespectsSystemMinimumLayoutMargins {
            let minimum = controller.systemMinimumLayoutMargins
            let rightToLeft = effectiveUserInterfaceLayoutDirection == .rightToLeft
            m.top = max(m.top, minimum.top)
            m.bottom = max(m.bottom, minimum.bottom)
            m.left = max(m.left, rightToLeft ? minimum.trailing : minimum.leading)
            m.right = max(m.right, rightToLeft ? minimum.leading : minimum.trailing)
        }
        if insetsLayoutMarginsFromSafeArea {
            let safe = safeAreaInsets
            m = EdgeInsets(top: m.top + safe.top, left: m.left + safe.left, bottom: m.bottom + safe.bottom, right: m.right + safe.right)
        }
        if preservesSuperviewLayoutMargins, let superview {
            let outer = superview.layoutMargins, f = frame, b = superview.bounds
            m.top = max(m.top, outer.top - (f.minY - b.minY))
            m.left = max(m.left, outer.left - (f.minX - b.minX))
            m.bottom = max(m.bottom, outer.bottom - (b.maxY - f.maxY))
            m.right = max(m.right, outer.right - (b.maxX - f.maxX))
        }
        return m
    }

    /// The margins may have changed: the view hears of it, and so do the subviews that take its
    /// margins.
    func marginsChanged() {
        layoutMarginsDidChange()
        for subview in subviews where subview.preservesSuperviewLayoutMargins { subview.marginsChanged() }
    }

    /// Called when the layout margins change.
    open func layoutMarginsDidChange() {}

    /// The layout margins, leading and trailing in the view's layout direction rather than left
    /// and right (the same margins as ``layoutMargins``, read and set either way).
    open var directionalLayoutMargins: DirectionalEdgeInsets {
        get {
            let m = layoutMargins
            let rightToLeft = effectiveUserInterfaceLayoutDirection == .rightToLeft
            return DirectionalEdgeInsets(top: m.top, leading: rightToLeft ? m.right : m.left, bottom: m.bottom, trailing: rightToLeft ? m.left : m.right)
        }
        set {
            let rightToLeft = effectiveUserInterfaceLayoutDirection == .rightToLeft
            layoutMargins = EdgeInsets(
                top: newValue.top, left: rightToLeft ? newValue.trailing : newValue.leading, bottom: newValue.bottom,
                right: rightToLeft ? newValue.leading : newValue.trailing)
        }
    }

    /// The part of the view that bars and rounded corners do not cover, as insets. A headless
    /// view has no window to read them from: the app sets them (zero by default).
    open var safeAreaInsets: EdgeInsets = .zero {
        didSet {
            guard safeAreaInsets != oldValue else { return }
            safeAreaInsetsDidChange()
            if insetsLayoutMarginsFromSafeArea { marginsChanged() }
        }
    }

    /// Called when the safe area changes.
    open func safeAreaInsetsDidChange() {}

    /// How the view's content is mirrored in right-to-left languages.
    open var semanticContentAttribute: SemanticContentAttribute = .unspecified

    /// The direction the view's content runs in: right to left when its semantic content attribute
    /// forces it, or when its traits say so and the attribute allows it.
    open var effectiveUserInterfaceLayoutDirection: UserInterfaceLayoutDirection {
        switch semanticContentAttribute {
        case .forceLeftToRight, .playback, .spatial: return .leftToRight
        case .forceRightToLeft: return .rightToLeft
        case .unspecified:
            return traitCollection.layoutDirection == .rightToLeft ? .rightToLeft : .leftToRight
        }
    }

    /// The view's traits: those set on it, else its superview's, else the main screen's (display
    /// scale 2, left to right, a phone, light, large text). Setting them (the headless way to
    /// change screens; `TraitCollection(traitsFrom: [view.traitCollection, change])` keeps the
    /// rest) calls ``traitCollectionDidChange(_:)`` when they differ.
    open var traitCollection: TraitCollection {
        get {
            if let storedTraits { return storedTraits }
            if let superview { return superview.traitCollection }
            return View.defaultTraits
        }
        set {
            let previous = traitCollection
            storedTraits = newValue
            guard !previous.isEqual(newValue) else { return }
            traitCollectionDidChange(previous)
            // A view controller's minimum margins follow the size class.
            if owningViewController != nil { marginsChanged() }
        }
    }

    /// Whether traits were set on the view itself.
    package var hasOwnTraits: Bool { storedTraits != nil }

    private static let defaultTraits = TraitCollection(
        displayScale: Screen.main.scale, layoutDirection: .leftToRight,
        userInterfaceIdiom: .phone, userInterfaceStyle: .light,
        preferredContentSizeCategory: .large)

    /// Called when the view's traits change.
    open func traitCollectionDidChange(_ previousTraitCollection: TraitCollection?) {}

    // MARK: The view tree

    /// The view this one is a subview of.
    open private(set) weak var superview: View?

    /// The views inside this one, back to front.
    open private(set) var subviews: [View] = []

    /// The gesture recognizers attached (see ``gestureRecognizers``).
    var attachedRecognizers: [GestureRecognizer] = []

    /// Adds `view` on top of the other subviews (moving it from its old superview).
    open func addSubview(_ view: View) {
        insertSubview(view, at: subviews.count)
    }

    /// Inserts `view` at `index` of the subviews (moving it from its old superview).
    open func insertSubview(_ view: View, at index: Int) {
        guard view !== self else { return }
        view.removeFromSuperview()
        subviews.insert(view, at: max(0, min(index, subviews.count)))
        view.superview = self
        setNeedsLayout()
        if view.preservesSuperviewLayoutMargins { view.marginsChanged() }
    }

    /// Removes the view from its superview.
    open func removeFromSuperview() {
        guard let parent = superview else { return }
        parent.subviews.removeAll { $0 === self }
        superview = nil
    }

    /// Moves `view` to the front of the subviews.
    open func bringSubviewToFront(_ view: View) {
        guard let index = subviews.firstIndex(where: { $0 === view }) else { return }
        subviews.append(subviews.remove(at: index))
    }

    /// Moves `view` to the back of the subviews.
    open func sendSubviewToBack(_ view: View) {
        guard let index = subviews.firstIndex(where: { $0 === view }) else { return }
        subviews.insert(subviews.remove(at: index), at: 0)
    }

    /// Whether `view` is this view or inside it.
    open func isDescendant(of view: View) -> Bool {
        var current: View? = self
        while let candidate = current {
            if candidate === view { return true }
            current = candidate.superview
        }
        return false
    }

    // MARK: Layout

    private(set) var needsLayout = true

    /// Marks the view as needing ``layoutSubviews()`` before it is next read.
    open func setNeedsLayout() { needsLayout = true }

    /// Runs ``layoutSubviews()`` if the view was marked as needing layout.
    open func layoutIfNeeded() {
        guard needsLayout else { return }
        needsLayout = false
        layoutSubviews()
    }

    /// Lays out the subviews. The default does nothing.
    open func layoutSubviews() {}

    /// The size that best fits `size`. The default is the current size, as in UIKit.
    open func sizeThatFits(_ size: CGSize) -> CGSize { bounds.size }

    /// Resizes the view to ``sizeThatFits(_:)`` of its current size.
    open func sizeToFit() {
        bounds.size = sizeThatFits(bounds.size)
    }

    /// The size the view's content needs on its own, or ``noIntrinsicMetric`` in a dimension with
    /// no such size. The default has none.
    open var intrinsicContentSize: CGSize { CGSize(width: View.noIntrinsicMetric, height: View.noIntrinsicMetric) }

    /// The value of an ``intrinsicContentSize`` dimension that has no intrinsic size.
    public static let noIntrinsicMetric: CGFloat = -1

    /// Says that the view's content needs another size. A cell's content view passes it to the
    /// cell, which a collection view then sizes again (``CollectionView/selfSizingInvalidation``).
    open func invalidateIntrinsicContentSize() {
        if let cell = superview as? CollectionViewCell, cell.holdsContentView(self) { cell.invalidateIntrinsicContentSize() }
    }

    /// The size the view needs to fit `targetSize`: what self-sizing cells answer. Headless views
    /// have no constraints to solve, so this is ``sizeThatFits(_:)``; override either.
    open func systemLayoutSizeFitting(_ targetSize: CGSize) -> CGSize { sizeThatFits(targetSize) }
}

/// How a view's content is mirrored in right-to-left languages (`UISemanticContentAttribute`).
public enum SemanticContentAttribute: Int, Sendable {
    case unspecified = 0
    case playback = 1
    case spatial = 2
    case forceLeftToRight = 3
    case forceRightToLeft = 4
}
