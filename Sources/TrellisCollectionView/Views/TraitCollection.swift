import Foundation

/// The size class of one dimension of an environment (`UIUserInterfaceSizeClass`).
public enum UserInterfaceSizeClass: Int, Sendable {
    case unspecified = 0
    case compact = 1
    case regular = 2
}

/// The direction in which text and leading-to-trailing layouts run (`UIUserInterfaceLayoutDirection`).
public enum UserInterfaceLayoutDirection: Int, Sendable {
    case leftToRight = 0
    case rightToLeft = 1
}

/// The layout direction of a trait environment, which may be unknown (`UITraitEnvironmentLayoutDirection`).
public enum TraitEnvironmentLayoutDirection: Int, Sendable {
    case unspecified = -1
    case leftToRight = 0
    case rightToLeft = 1
}

/// The kind of device an interface is laid out for (`UIUserInterfaceIdiom`).
public enum UserInterfaceIdiom: Int, Sendable {
    case unspecified = -1
    case phone = 0
    case pad = 1
    case tv = 2
    case carPlay = 3
    case mac = 5
    case vision = 6
}

/// The traits of the environment a view is laid out in (`UITraitCollection`): what layouts read
/// as `collectionView.traitCollection.displayScale` and size classes. Immutable, as in UIKit;
/// a headless collection view is given a new one with ``View/traitCollection``.
///
/// ```swift
/// let traits = TraitCollection(displayScale: 3)
/// traits.displayScale  // 3.0
/// ```
open class TraitCollection: NSObject, @unchecked Sendable {
    /// Pixels per point. 0 means unspecified; layouts then round to whole points.
    public let displayScale: CGFloat
    public let horizontalSizeClass: UserInterfaceSizeClass
    public let verticalSizeClass: UserInterfaceSizeClass
    public let layoutDirection: TraitEnvironmentLayoutDirection
    public let userInterfaceIdiom: UserInterfaceIdiom

    /// Traits with every value unspecified.
    public override convenience init() {
        self.init(displayScale: 0, horizontalSizeClass: .unspecified, verticalSizeClass: .unspecified,
                  layoutDirection: .unspecified, userInterfaceIdiom: .unspecified)
    }

    /// Traits with every value given (the headless way to describe a screen).
    public init(displayScale: CGFloat, horizontalSizeClass: UserInterfaceSizeClass = .unspecified,
                verticalSizeClass: UserInterfaceSizeClass = .unspecified,
                layoutDirection: TraitEnvironmentLayoutDirection = .unspecified,
                userInterfaceIdiom: UserInterfaceIdiom = .unspecified) {
        self.displayScale = displayScale
        self.horizontalSizeClass = horizontalSizeClass
        self.verticalSizeClass = verticalSizeClass
        self.layoutDirection = layoutDirection
        self.userInterfaceIdiom = userInterfaceIdiom
        super.init()
    }

    /// Traits with only a horizontal size class.
    public convenience init(horizontalSizeClass: UserInterfaceSizeClass) {
        self.init(displayScale: 0, horizontalSizeClass: horizontalSizeClass)
    }

    /// Traits with only a vertical size class.
    public convenience init(verticalSizeClass: UserInterfaceSizeClass) {
        self.init(displayScale: 0, verticalSizeClass: verticalSizeClass)
    }

    /// Traits with only a layout direction.
    public convenience init(layoutDirection: TraitEnvironmentLayoutDirection) {
        self.init(displayScale: 0, layoutDirection: layoutDirection)
    }

    /// Traits with only an idiom.
    public convenience init(userInterfaceIdiom: UserInterfaceIdiom) {
        self.init(displayScale: 0, userInterfaceIdiom: userInterfaceIdiom)
    }

    /// The traits of several collections merged: later collections win for every trait they
    /// specify (`init(traitsFrom:)`).
    public convenience init(traitsFrom traitCollections: [TraitCollection]) {
        var scale: CGFloat = 0
        var horizontal = UserInterfaceSizeClass.unspecified, vertical = UserInterfaceSizeClass.unspecified
        var direction = TraitEnvironmentLayoutDirection.unspecified, idiom = UserInterfaceIdiom.unspecified
        for traits in traitCollections {
            if traits.displayScale != 0 { scale = traits.displayScale }
            if traits.horizontalSizeClass != .unspecified { horizontal = traits.horizontalSizeClass }
            if traits.verticalSizeClass != .unspecified { vertical = traits.verticalSizeClass }
            if traits.layoutDirection != .unspecified { direction = traits.layoutDirection }
            if traits.userInterfaceIdiom != .unspecified { idiom = traits.userInterfaceIdiom }
        }
        self.init(displayScale: scale, horizontalSizeClass: horizontal, verticalSizeClass: vertical,
                  layoutDirection: direction, userInterfaceIdiom: idiom)
    }

    /// Whether every trait `trait` specifies has the same value here (`containsTraits(in:)`).
    open func containsTraits(in trait: TraitCollection?) -> Bool {
        guard let trait else { return true }
        return (trait.displayScale == 0 || trait.displayScale == displayScale)
            && (trait.horizontalSizeClass == .unspecified || trait.horizontalSizeClass == horizontalSizeClass)
            && (trait.verticalSizeClass == .unspecified || trait.verticalSizeClass == verticalSizeClass)
            && (trait.layoutDirection == .unspecified || trait.layoutDirection == layoutDirection)
            && (trait.userInterfaceIdiom == .unspecified || trait.userInterfaceIdiom == userInterfaceIdiom)
    }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? TraitCollection else { return false }
        return displayScale == other.displayScale && horizontalSizeClass == other.horizontalSizeClass
            && verticalSizeClass == other.verticalSizeClass && layoutDirection == other.layoutDirection
            && userInterfaceIdiom == other.userInterfaceIdiom
    }

    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(displayScale)
        hasher.combine(horizontalSizeClass)
        hasher.combine(verticalSizeClass)
        hasher.combine(layoutDirection)
        hasher.combine(userInterfaceIdiom)
        return hasher.finalize()
    }
}

/// The display a headless interface is computed for (`UIScreen`): `Screen.main.scale` is 2,
/// the default display scale of every collection view.
public final class Screen: NSObject, Sendable {
    /// The screen every view is on unless its traits say otherwise.
    public static let main = Screen(bounds: CGRect(x: 0, y: 0, width: 390, height: 844), scale: 2)

    /// The screen's size in points.
    public let bounds: CGRect
    /// Pixels per point.
    public let scale: CGFloat
    /// Pixels per point of the panel itself; the same as ``scale`` here.
    public var nativeScale: CGFloat { scale }
    /// The screen's traits.
    public var traitCollection: TraitCollection { TraitCollection(displayScale: scale) }

    /// A screen of `bounds` points at `scale` pixels per point.
    public init(bounds: CGRect, scale: CGFloat) {
        self.bounds = bounds
        self.scale = scale
        super.init()
    }
}
