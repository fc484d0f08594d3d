import Foundation

extension IndexPath {
    /// An index path for the item `item` in section `section`, as UIKit's collection views use.
    ///
    /// Foundation on Linux lacks this initializer (it lives in UIKit's overlay on Apple systems).
    public init(item: Int, section: Int) {
        self.init(index: section)
        append(item)
    }

    /// The section: the first index.
    public var section: Int {
        get { count > 0 ? self[0] : 0 }
        set { if count > 0 { self[0] = newValue } else { self = IndexPath(index: newValue) } }
    }

    /// The item within the section: the second index.
    public var item: Int {
        get { count > 1 ? self[1] : 0 }
        set {
            if count > 1 { self[1] = newValue } else { self = IndexPath(item: newValue, section: section) }
        }
    }
}
