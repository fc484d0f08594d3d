import Foundation

extension IndexPath {
    /// An index path for the item `item` in section `section`, as collection views use.
    ///
    /// Foundation on Linux lacks this initializer (it lives in UIKit's overlay on Apple systems).
    public init(item: Int, section: Int) {
        self.init(index: section)
        append(item)
    }

    /// An index path for row `row` in section `section` (table-view style; the same as
    /// `IndexPath(item:section:)`).
    public init(row: Int, section: Int) {
        self.init(item: row, section: section)
    }

    /// The section: the first index (0 for an empty path).
    public var section: Int {
        get { count > 0 ? self[0] : 0 }
        set { if count > 0 { self[0] = newValue } else { self = IndexPath(index: newValue) } }
    }

    /// The item within the section: the second index (0 when the path has none).
    public var item: Int {
        get { count > 1 ? self[1] : 0 }
        set {
            if count > 1 { self[1] = newValue } else { self = IndexPath(item: newValue, section: section) }
        }
    }

    /// The row within the section: the same index as ``item``.
    public var row: Int {
        get { item }
        set { item = newValue }
    }
}

// Where Apple's UIKit is, it declares these. (Not `canImport(UIKit)`: the package's own `UIKit`
// module for Linux is on the search path once built, and would make this file's answer depend on
// the order of the build.)
#if !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
    extension NSIndexPath {
        /// An index path for the item `item` in section `section` (UIKit's `NSIndexPath` addition).
        public convenience init(item: Int, section: Int) {
            self.init(indexes: [section, item], length: 2)
        }

        /// An index path for row `row` in section `section`.
        public convenience init(row: Int, section: Int) {
            self.init(item: row, section: section)
        }

        /// The section: the first index.
        public var section: Int { length > 0 ? index(atPosition: 0) : 0 }

        /// The item within the section: the second index.
        public var item: Int { length > 1 ? index(atPosition: 1) : 0 }

        /// The row within the section: the same index as ``item``.
        public var row: Int { item }
    }

    extension NSValue {
        /// A value holding a rectangle (UIKit's spelling of `NSValue(rect:)`).
        public convenience init(cgRect rect: CGRect) { self.init(rect: rect) }
        /// A value holding a point.
        public convenience init(cgPoint point: CGPoint) { self.init(point: point) }
        /// A value holding a size.
        public convenience init(cgSize size: CGSize) { self.init(size: size) }
        /// The rectangle held.
        public var cgRectValue: CGRect { rectValue }
        /// The point held.
        public var cgPointValue: CGPoint { pointValue }
        /// The size held.
        public var cgSizeValue: CGSize { sizeValue }
    }
#endif
