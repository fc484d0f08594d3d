import Foundation

/// What a view's appearance is made of, as Core Animation's `CALayer` names it: geometry,
/// transform, opacity, corners, border and shadow — kept, never drawn. Code written for UIKit
/// (`cell.layer.cornerRadius = 8`, `contentView.layer.transform = …`) runs unchanged, and a
/// renderer can read what it set.
///
/// A view's layer (`view.layer`) is the view: its `frame`, `bounds`, `position`, `transform`,
/// `opacity`, `isHidden`, `backgroundColor` and `masksToBounds` are the view's `frame`, `bounds`,
/// `center`, transform (its 3D form), `alpha`, `isHidden`, `backgroundColor` and `clipsToBounds`.
/// A layer made on its own keeps them itself.
///
/// ```swift
/// let cell = View(frame: CGRect(x: 0, y: 0, width: 80, height: 40))
/// cell.layer.cornerRadius = 8
/// cell.layer.transform = Transform3DMakeScale(0.5, 0.5, 1)
/// cell.transform.a   // 0.5
/// ```
open class CALayer: NSObject {
    /// The view this layer backs, if any.
    weak var owner: View?
    private var ownFrameCenter = CGPoint.zero
    private var ownBounds = CGRect.zero
    private var ownTransform = Transform3DIdentity
    private var ownOpacity: Float = 1
    private var ownHidden = false
    private var ownBackground: CGColor?
    private var ownMasks = false

    /// A layer of its own, not backing a view.
    public override init() { super.init() }

    /// A layer with the properties of `layer` (Core Animation's presentation copies).
    public init(layer: Any) {
        super.init()
        guard let other = layer as? CALayer else { return }
        anchorPoint = other.anchorPoint
        bounds = other.bounds
        position = other.position
        transform = other.transform
        opacity = other.opacity
        isHidden = other.isHidden
        backgroundColor = other.backgroundColor
        masksToBounds = other.masksToBounds
        cornerRadius = other.cornerRadius
        maskedCorners = other.maskedCorners
        borderWidth = other.borderWidth
        borderColor = other.borderColor
        shadowColor = other.shadowColor
        shadowOpacity = other.shadowOpacity
        shadowOffset = other.shadowOffset
        shadowRadius = other.shadowRadius
        zPosition = other.zPosition
        name = other.name
    }

    init(owner: View) {
        self.owner = owner
        super.init()
    }

    // MARK: Geometry

    /// The rectangle in the superlayer's coordinates.
    open var frame: CGRect {
        get {
            if let owner { return owner.frame }
            let local = CGRect(
                x: -ownBounds.width * ownAnchor.x, y: -ownBounds.height * ownAnchor.y,
                width: ownBounds.width, height: ownBounds.height)
            let transformed = Transform3DIsIdentity(ownTransform) ? local : local.applying(affineTransform())
            return transformed.offsetBy(dx: ownFrameCenter.x, dy: ownFrameCenter.y)
        }
        set {
            if let owner { owner.frame = newValue; return }
            ownFrameCenter = CGPoint(
                x: newValue.minX + newValue.width * ownAnchor.x,
                y: newValue.minY + newValue.height * ownAnchor.y)
            ownBounds.size = newValue.size
        }
    }

    /// The layer's own coordinate system.
    open var bounds: CGRect {
        get { owner?.bounds ?? ownBounds }
        set { if let owner { owner.bounds = newValue } else { ownBounds = newValue } }
    }

    /// Where the anchor point sits in the superlayer (a view's `center`).
    open var position: CGPoint {
        get { owner?.center ?? ownFrameCenter }
        set { if let owner { owner.center = newValue } else { ownFrameCenter = newValue } }
    }

    /// The point of the bounds, in unit coordinates, that `position` places and transforms turn
    /// around. Defaults to the centre (0.5, 0.5). Moving it moves the frame, not the position.
    open var anchorPoint: CGPoint {
        get { owner?.anchor ?? ownAnchor }
        set { if let owner { owner.anchor = newValue } else { ownAnchor = newValue } }
    }
    private var ownAnchor = CGPoint(x: 0.5, y: 0.5)

    /// The layer's place along the z axis: higher draws in front.
    open var zPosition: CGFloat = 0

    /// The transform applied around the anchor point.
    open var transform: Transform3D {
        get { owner?.transform3D ?? ownTransform }
        set { if let owner { owner.transform3D = newValue } else { ownTransform = newValue } }
    }

    /// The affine part of ``transform``.
    open func affineTransform() -> CGAffineTransform { Transform3DGetAffineTransform(transform) }

    /// Sets ``transform`` to an affine transform.
    open func setAffineTransform(_ m: CGAffineTransform) { transform = Transform3DMakeAffineTransform(m) }

    /// The transform applied to the sublayers, on top of their own.
    open var sublayerTransform = Transform3DIdentity

    /// Whether the back of the layer shows when it is turned away. Defaults to `true`.
    open var isDoubleSided = true

    // MARK: Appearance

    /// The opacity, 0 to 1 (a view's `alpha`).
    open var opacity: Float {
        get { owner.map { Float($0.alpha) } ?? ownOpacity }
        set { if let owner { owner.alpha = CGFloat(newValue) } else { ownOpacity = newValue } }
    }

    /// Whether the layer is hidden.
    open var isHidden: Bool {
        get { owner?.isHidden ?? ownHidden }
        set { if let owner { owner.isHidden = newValue } else { ownHidden = newValue } }
    }

    /// The fill behind the content.
    open var backgroundColor: CGColor? {
        get {
            if let owner { return owner.backgroundColor?.cgColor }
            return ownBackground
        }
        set {
            if let owner { owner.backgroundColor = newValue.map { Color(cgColor: $0) } } else { ownBackground = newValue }
        }
    }

    /// Whether sublayers are clipped to the bounds (a view's `clipsToBounds`).
    open var masksToBounds: Bool {
        get { owner?.clipsToBounds ?? ownMasks }
        set { if let owner { owner.clipsToBounds = newValue } else { ownMasks = newValue } }
    }

    /// The radius of the rounded corners.
    open var cornerRadius: CGFloat = 0
    /// Which corners ``cornerRadius`` rounds. Defaults to all four.
    open var maskedCorners: CACornerMask = [.layerMinXMinYCorner, .layerMaxXMinYCorner, .layerMinXMaxYCorner, .layerMaxXMaxYCorner]
    /// The width of the border, drawn inside the bounds.
    open var borderWidth: CGFloat = 0
    /// The colour of the border. Defaults to opaque black.
    open var borderColor: CGColor? = CGColor(gray: 0, alpha: 1)
    /// The colour of the shadow. Defaults to opaque black.
    open var shadowColor: CGColor? = CGColor(gray: 0, alpha: 1)
    /// The opacity of the shadow, 0 to 1. Defaults to 0 (no shadow).
    open var shadowOpacity: Float = 0
    /// The offset of the shadow. Defaults to (0, −3).
    open var shadowOffset = CGSize(width: 0, height: -3)
    /// The blur radius of the shadow. Defaults to 3.
    open var shadowRadius: CGFloat = 3
    /// Whether the layer is drawn once into a bitmap and reused.
    open var shouldRasterize = false
    /// The scale of that bitmap.
    open var rasterizationScale: CGFloat = 1
    /// The scale of the layer's content.
    open var contentsScale: CGFloat = 1
    /// A name to find the layer by.
    open var name: String?

    // MARK: The layer tree

    /// The layer this one is a sublayer of.
    open private(set) weak var superlayer: CALayer?

    /// The layers inside this one, back to front; `nil` when there are none.
    open var sublayers: [CALayer]? {
        get { children.isEmpty ? nil : children }
        set {
            for layer in children { layer.superlayer = nil }
            children = []
            for layer in newValue ?? [] { addSublayer(layer) }
        }
    }
    private var children: [CALayer] = []

    /// Adds `layer` on top of the sublayers (moving it from its old superlayer).
    open func addSublayer(_ layer: CALayer) {
        insertSublayer(layer, at: UInt32(clamping: children.count))
    }

    /// Inserts `layer` at `index` of the sublayers.
    open func insertSublayer(_ layer: CALayer, at index: UInt32) {
        guard layer !== self else { return }
        layer.removeFromSuperlayer()
        children.insert(layer, at: min(Int(index), children.count))
        layer.superlayer = self
    }

    /// Inserts `layer` just behind `sibling` (at the end when `sibling` is not a sublayer).
    open func insertSublayer(_ layer: CALayer, below sibling: CALayer?) {
        let index = sibling.flatMap { s in children.firstIndex { $0 === s } } ?? children.count
        insertSublayer(layer, at: UInt32(clamping: index))
    }

    /// Inserts `layer` just in front of `sibling` (at the end when `sibling` is not a sublayer).
    open func insertSublayer(_ layer: CALayer, above sibling: CALayer?) {
        let index = sibling.flatMap { s in children.firstIndex { $0 === s }.map { $0 + 1 } } ?? children.count
        insertSublayer(layer, at: UInt32(clamping: index))
    }

    /// Removes the layer from its superlayer.
    open func removeFromSuperlayer() {
        guard let parent = superlayer else { return }
        parent.children.removeAll { $0 === self }
        superlayer = nil
    }

    /// Marks the layer as needing layout; nothing is laid out headlessly.
    open func setNeedsLayout() {}
    /// Marks the layer as needing display; nothing is drawn headlessly.
    open func setNeedsDisplay() {}
    /// Removes every animation; there are none headlessly.
    open func removeAllAnimations() {}
}

/// The corners a layer's corner radius rounds (`CACornerMask`).
public struct CACornerMask: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let layerMinXMinYCorner = CACornerMask(rawValue: 1 << 0)
    public static let layerMaxXMinYCorner = CACornerMask(rawValue: 1 << 1)
    public static let layerMinXMaxYCorner = CACornerMask(rawValue: 1 << 2)
    public static let layerMaxXMaxYCorner = CACornerMask(rawValue: 1 << 3)
}
