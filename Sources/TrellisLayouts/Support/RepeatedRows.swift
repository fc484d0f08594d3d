import TrellisCollectionView

/// The tops of rows that repeat — rows of equal items, each the same height and the same
/// spacing below the one before — kept without storing a number per row.
///
/// A layout that places rows one after another adds as it goes (`top + height + spacing`), and
/// floating-point addition is not exact: row 1,000,000's top is not `1,000,000 × pitch`. So the
/// rows are not computed by multiplication but re-added from the nearest checkpoint (every
/// 64th top, kept), in the layout's own order of operations: every top is the number the layout
/// would have stored, bit for bit, and finding one costs at most 63 additions.
///
/// Only rows that go down are kept this way (each top strictly below the one before, which a
/// rect query's search needs); ``init(top:count:height:spacing:order:)`` answers `nil` for
/// any other, and the layout stores those rows one by one.
struct RepeatedRows: Sendable {
    /// How a layout adds its way from one row's top to the next.
    enum Order: Sendable {
        /// `(top + height) + spacing`: the row's bottom edge, then the spacing (the waterfall's
        /// columns).
        case bottomThenSpacing
        /// `top + (height + spacing)`: the row's pitch at once (a justified container).
        case pitch
    }

    static let stride = 64

    let count: Int
    let height: CGFloat
    let spacing: CGFloat
    let order: Order
    /// The top of every 64th row, from row 0.
    private let checkpoints: [CGFloat]
    /// The top the row after the last would have (where the layout goes on from).
    let end: CGFloat

    /// Rows `0..<count` from `top`, or `nil` when a row would not start strictly below the one
    /// before (a spacing that cancels the height, or tops so large that adding no longer moves them).
    init?(top: CGFloat, count: Int, height: CGFloat, spacing: CGFloat, order: Order) {
        guard count > 0, top.isFinite, height.isFinite, spacing.isFinite else { return nil }
        self.count = count
        self.height = height
        self.spacing = spacing
        self.order = order
        var checkpoints: [CGFloat] = []
        checkpoints.reserveCapacity((count + Self.stride - 1) / Self.stride)
        var y = top
        for row in 0..<count {
            if row % Self.stride == 0 { checkpoints.append(y) }
            let next = Self.advance(y, height, spacing, order)
            guard next > y else { return nil }
            y = next
        }
        self.checkpoints = checkpoints
        end = y
    }

    @inline(__always)
    private static func advance(_ y: CGFloat, _ height: CGFloat, _ spacing: CGFloat, _ order: Order) -> CGFloat {
        switch order {
        case .bottomThenSpacing: return (y + height) + spacing
        case .pitch: return y + (height + spacing)
        }
    }

    /// Bytes held.
    var bytes: Int { checkpoints.capacity * MemoryLayout<CGFloat>.stride }

    /// Row `row`'s top.
    func top(_ row: Int) -> CGFloat {
        var y = checkpoints[row / Self.stride]
        var r = row - row % Self.stride
        while r < row {
            y = Self.advance(y, height, spacing, order)
            r += 1
        }
        return y
    }

    /// Row 0's top.
    var first: CGFloat { checkpoints[0] }
    /// The last row's top.
    var last: CGFloat { top(count - 1) }

    /// Calls `body` with each row whose bottom (`top + height`) is at or below `low`, and its
    /// top, in order, until `body` returns `false` or the rows end: every row that could meet a
    /// range starting at `low` (the rows skipped lie wholly above it).
    func forEachRow(reaching low: CGFloat, _ body: (_ row: Int, _ top: CGFloat) -> Bool) {
        // The last checkpoint whose row ends above `low`: every row before it ends above too.
        var lowBlock = 0, high = checkpoints.count - 1
        while lowBlock < high {
            let mid = (lowBlock + high + 1) >> 1
            if checkpoints[mid] + height < low { lowBlock = mid } else { high = mid - 1 }
        }
        var row = lowBlock * Self.stride
        var y = checkpoints[lowBlock]
        while row < count {
            if y + height >= low {
                guard body(row, y) else { return }
            }
            row += 1
            if row % Self.stride == 0, row < count {
                y = checkpoints[row / Self.stride]
            } else {
                y = Self.advance(y, height, spacing, order)
            }
        }
    }
}
