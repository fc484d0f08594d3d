import Foundation

/// The marker protocol for a collection view's delegate (`UICollectionViewDelegate`). Layouts look
/// for their own delegate protocols on it, as the flow layout does with
/// ``CollectionViewDelegateFlowLayout``.
public protocol CollectionViewDelegate: AnyObject {}

/// Everything a layout may ask of the collection view that owns it.
///
/// In UIKit a layout reads `collectionView` (a `UICollectionView`); here it reads this protocol, so a
/// layout can be driven and tested by any host: the headless collection view, a renderer, or the
/// small ``StaticLayoutHost`` in a unit test. `collectionView.traitCollection.displayScale` becomes
/// ``displayScale``.
public protocol CollectionViewLayoutHost: AnyObject {
    /// The number of sections, as the data source reports it (the old count inside a batch update).
    var numberOfSections: Int { get }
    /// The number of items in `section`; 0 for a section that does not exist.
    func numberOfItems(inSection section: Int) -> Int
    /// The visible rectangle in content coordinates: origin = content offset, size = viewport.
    var bounds: CGRect { get }
    /// The content offset (the origin of `bounds`).
    var contentOffset: CGPoint { get }
    /// The content inset the app set.
    var contentInset: EdgeInsets { get }
    /// The inset actually applied (content inset plus any system adjustment); layouts use this one.
    var adjustedContentInset: EdgeInsets { get }
    /// The safe area, for `sectionInsetReference = .fromSafeArea`.
    var safeAreaInsets: EdgeInsets { get }
    /// The layout margins, for `sectionInsetReference = .fromLayoutMargins`.
    var layoutMargins: EdgeInsets { get }
    /// Pixels per point of the display the layout is for (UIKit's `traitCollection.displayScale`).
    var displayScale: CGFloat { get }
    /// The delegate, which a layout may cast to its own delegate protocol.
    var delegate: (any CollectionViewDelegate)? { get }
}

extension CollectionViewLayoutHost {
    public var contentOffset: CGPoint { bounds.origin }
    public var adjustedContentInset: EdgeInsets { contentInset }
    public var safeAreaInsets: EdgeInsets { .zero }
    public var layoutMargins: EdgeInsets { .zero }
    public var displayScale: CGFloat { 2 }
}
