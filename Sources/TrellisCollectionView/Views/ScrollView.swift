import Foundation

/// A view whose content is larger than itself and moves under it: `UIScrollView` without the
/// prefix and without touches. The content offset is `bounds.origin`; scrolling is setting it, or
/// ending a simulated drag with `CollectionView.endDragging(withVelocity:)`.
open class ScrollView: View {
    /// How quickly a scroll slows down after a drag: the fraction of the velocity kept per
    /// millisecond (`UIScrollView.DecelerationRate`).
    public struct DecelerationRate: RawRepresentable, Hashable, Sendable {
        public var rawValue: CGFloat
        public init(rawValue: CGFloat) { self.rawValue = rawValue }

        /// 0.998 per millisecond: the default.
        public static let normal = DecelerationRate(rawValue: 0.998)
        /// 0.99 per millisecond: what paging-like layouts use.
        public static let fast = DecelerationRate(rawValue: 0.99)
    }

    /// How the safe area adds to the content inset (`UIScrollView.ContentInsetAdjustmentBehavior`).
    public enum ContentInsetAdjustmentBehavior: Int, Sendable {
        /// Top and bottom always; left and right when the content scrolls horizontally.
        case automatic = 0
        /// Only along axes in which the content scrolls.
        case scrollableAxes = 1
        /// Never.
        case never = 2
        /// Every edge, always.
        case always = 3
    }

    /// The size of the content. A collection view sets it from its layout at each layout pass.
    open var contentSize: CGSize = .zero

    /// The recognizer of the finger that scrolls the content (`UIScrollView.panGestureRecognizer`),
    /// attached to the scroll view when first asked for. What a layout reads of it — where the
    /// finger is (`location(in:)`), how far and how fast it moved — is what is played on it with
    /// ``PanGestureRecognizer/send(_:at:velocity:)``; the content moves as it is scrolled, by
    /// setting ``contentOffset`` (a bouncy layout reads the finger while the offset changes).
    public private(set) lazy var panGestureRecognizer: PanGestureRecognizer = {
        let pan = PanGestureRecognizer()
        addGestureRecognizer(pan)
        return pan
    }()

    /// Where the content is scrolled to: the origin of ``View/bounds``.
    open var contentOffset: CGPoint {
        get { bounds.origin }
        set { bounds.origin = newValue }
    }

    /// Extra scrollable space around the content.
    open var contentInset: EdgeInsets = .zero {
        didSet { if contentInset != oldValue { adjustedContentInsetDidChange() } }
    }

    /// How the safe area adds to ``contentInset``. Default `.automatic`.
    open var contentInsetAdjustmentBehavior: ContentInsetAdjustmentBehavior = .automatic {
        didSet { if contentInsetAdjustmentBehavior != oldValue { adjustedContentInsetDidChange() } }
    }

    /// The inset applied: ``contentInset`` plus the parts of the safe area that
    /// ``contentInsetAdjustmentBehavior`` adds. Layouts measure from this one.
    open var adjustedContentInset: EdgeInsets {
        let safe = safeAreaInsets
        var vertical = false, horizontal = false
        switch contentInsetAdjustmentBehavior {
        case .never: break
        case .always: vertical = true; horizontal = true
        case .automatic: vertical = true; horizontal = scrollsHorizontally
        case .scrollableAxes: vertical = scrollsVertically; horizontal = scrollsHorizontally
        }
        var inset = contentInset
        if vertical { inset.top += safe.top; inset.bottom += safe.bottom }
        if horizontal { inset.left += safe.left; inset.right += safe.right }
        return inset
    }

    private var scrollsVertically: Bool { alwaysBounceVertical || contentSize.height > bounds.height }
    private var scrollsHorizontally: Bool { alwaysBounceHorizontal || contentSize.width > bounds.width }

    /// Called when ``adjustedContentInset`` may have changed.
    open func adjustedContentInsetDidChange() {}

    open override func safeAreaInsetsDidChange() {
        super.safeAreaInsetsDidChange()
        adjustedContentInsetDidChange()
    }

    /// Whether scrolling stops on multiples of the viewport size. Default `false`.
    open var isPagingEnabled = false
    /// Whether the content can be scrolled. Default `true`.
    open var isScrollEnabled = true
    /// How quickly a scroll slows down after a drag. Default ``DecelerationRate/normal``.
    open var decelerationRate: DecelerationRate = .normal
    /// Whether scrolling may pass the content's edges and bounce back. Default `true`.
    open var bounces = true
    /// Whether vertical scrolling bounces even when the content is shorter than the view.
    open var alwaysBounceVertical = false
    /// Whether horizontal scrolling bounces even when the content is narrower than the view.
    open var alwaysBounceHorizontal = false
    /// Whether the vertical scroll indicator shows. Default `true`.
    open var showsVerticalScrollIndicator = true
    /// Whether the horizontal scroll indicator shows. Default `true`.
    open var showsHorizontalScrollIndicator = true
    /// Whether a tap on the status bar scrolls to the top. Default `true`.
    open var scrollsToTop = true

    /// Whether a (simulated) finger is on the content.
    open internal(set) var isTracking = false
    /// Whether the content is being dragged.
    open internal(set) var isDragging = false
    /// Whether the content is decelerating after a drag.
    open internal(set) var isDecelerating = false
}
