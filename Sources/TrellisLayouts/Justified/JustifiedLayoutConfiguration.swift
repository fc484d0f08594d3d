import TrellisCollectionView

/// The options of a justified layout, with the names and defaults of Flickr's justified-layout
/// (version 4.1.0), all in one place.
///
/// ```swift
/// var configuration = JustifiedLayoutConfiguration()
/// configuration.containerWidth = 1060     // the default, Flickr's
/// configuration.targetRowHeight = 250
/// configuration.widowLayoutStyle = .center
/// ```
public struct JustifiedLayoutConfiguration: Equatable, Sendable {
    /// How the items of the last, incomplete row (the widows) are placed.
    public enum WidowLayoutStyle: String, CaseIterable, Sendable {
        /// At the target (or previous row's) height, from the left padding.
        case left
        /// At that height, stretched by the rounding correction to fill the row exactly as a
        /// full row is (which is little: widows are not scaled up to the width).
        case justify
        /// At that height, centred in the row.
        case center
    }

    /// The spacing between boxes: `horizontal` between boxes of a row, `vertical` between rows.
    public struct BoxSpacing: Equatable, Sendable {
        /// Between neighbouring boxes of a row.
        public var horizontal: CGFloat
        /// Between rows.
        public var vertical: CGFloat

        /// Spacings of `horizontal` and `vertical`.
        public init(horizontal: CGFloat, vertical: CGFloat) {
            self.horizontal = horizontal
            self.vertical = vertical
        }

        /// The same spacing both ways (Flickr's `boxSpacing: 10`).
        public init(_ both: CGFloat) { self.init(horizontal: both, vertical: both) }
    }

    /// The width of the container the rows fill, padding included. Default 1060. The
    /// ``JustifiedLayout`` class shell sets it from its collection view.
    public var containerWidth: CGFloat = 1060
    /// The padding inside the container, around all rows. Default 10 on every edge.
    public var containerPadding = EdgeInsets(top: 10, left: 10, bottom: 10, right: 10)
    /// The spacing between boxes and rows. Default 10 both ways.
    public var boxSpacing = BoxSpacing(10)
    /// The height every row aims for. Default 320.
    public var targetRowHeight: CGFloat = 320
    /// How far a row's height may stray from the target, as a fraction of it: 0.25 (the
    /// default) accepts rows from 240 to 400 high for a target of 320.
    public var targetRowHeightTolerance: CGFloat = 0.25
    /// The most rows to lay out; items after them get no box. `nil` (the default) is no limit.
    public var maxNumRows: Int?
    /// An aspect ratio that replaces every item's, or `nil` (the default) to use the items' own.
    public var forceAspectRatio: CGFloat?
    /// Whether the items of the last, incomplete row are laid out. Default `true`; when `false`
    /// they get no box.
    public var showWidows = true
    /// Every this many rows, a row is a "breakout" row: its first item, when square or
    /// landscape, fills the row's width alone. `nil` (the default) never.
    public var fullWidthBreakoutRowCadence: Int?
    /// How the widows are placed. Default `.left`.
    public var widowLayoutStyle = WidowLayoutStyle.left

    /// Flickr's defaults.
    public init() {}

    /// Checks every option, naming the first that is out of range.
    public func validate() throws(LayoutConfigurationError) {
        try LayoutConfigurationError.checkSize(containerWidth, "containerWidth")
        try LayoutConfigurationError.checkInsets(containerPadding, "containerPadding")
        try LayoutConfigurationError.checkFinite(boxSpacing.horizontal, "boxSpacing.horizontal")
        try LayoutConfigurationError.checkFinite(boxSpacing.vertical, "boxSpacing.vertical")
        guard targetRowHeight.isFinite, targetRowHeight > 0 else {
            throw LayoutConfigurationError(
                "targetRowHeight is \(LayoutConfigurationError.format(targetRowHeight)); "
                    + "give a finite height above 0")
        }
        guard targetRowHeightTolerance.isFinite, targetRowHeightTolerance >= 0 else {
            throw LayoutConfigurationError(
                "targetRowHeightTolerance is "
                    + "\(LayoutConfigurationError.format(targetRowHeightTolerance)); "
                    + "give a finite fraction of 0 or more (0.25 is 25%)")
        }
        if let maxNumRows, maxNumRows < 1 {
            throw LayoutConfigurationError("maxNumRows is \(maxNumRows); give at least 1, or no limit")
        }
        if let forceAspectRatio, !(forceAspectRatio.isFinite && forceAspectRatio > 0) {
            throw LayoutConfigurationError(
                "forceAspectRatio is \(LayoutConfigurationError.format(forceAspectRatio)); "
                    + "give a finite ratio above 0 (width / height)")
        }
        if let fullWidthBreakoutRowCadence, fullWidthBreakoutRowCadence < 1 {
            throw LayoutConfigurationError(
                "fullWidthBreakoutRowCadence is \(fullWidthBreakoutRowCadence); "
                    + "give at least 1 (every row), or none")
        }
    }

    /// Checks that the padding leaves room for the rows (needed only when there are items).
    func checkRowWidth() throws(LayoutConfigurationError) {
        let rowWidth = containerWidth - containerPadding.left - containerPadding.right
        guard rowWidth > 0 else {
            throw LayoutConfigurationError(
                "the container is \(LayoutConfigurationError.format(containerWidth)) wide "
                    + "and its padding leaves \(LayoutConfigurationError.format(rowWidth)) for "
                    + "the rows; make it wider or the left and right padding smaller")
        }
    }
}
