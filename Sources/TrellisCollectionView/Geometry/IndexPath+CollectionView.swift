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
