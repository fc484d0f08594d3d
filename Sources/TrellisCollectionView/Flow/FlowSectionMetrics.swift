import Foundation

/// The resolved metrics of one flow section, in the layout's *scroll frame*: the frame in which
/// the layout scrolls vertically. For a horizontal layout every value is transposed first
/// (insets with ``EdgeInsets/transposed``, the header and footer reference widths become extents),
/// so one algorithm serves both directions.
public struct FlowSectionMetrics: Hashable, Sendable {
    /// The section inset (top/bottom along the scroll axis).
    public var inset: EdgeInsets
    /// The minimum spacing between lines.
    public var minimumLineSpacing: CGFloat
    /// The minimum spacing between items on one line.
    public var minimumInteritemSpacing: CGFloat
    /// The header's extent along the scroll axis; zero or less means no header.
    public var headerExtent: CGFloat
    /// The footer's extent along the scroll axis; zero or less means no footer.
    public var footerExtent: CGFloat

    /// Creates section metrics. The defaults are UIKit's flow layout defaults.
    public init(
        inset: EdgeInsets = .zero, minimumLineSpacing: CGFloat = 10, minimumInteritemSpacing: CGFloat = 10,
        headerExtent: CGFloat = 0, footerExtent: CGFloat = 0
    ) {
        self.inset = inset
        self.minimumLineSpacing = minimumLineSpacing
        self.minimumInteritemSpacing = minimumInteritemSpacing
        self.headerExtent = headerExtent
        self.footerExtent = footerExtent
    }
}
