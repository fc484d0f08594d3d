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

/// Whether an interface is light or dark (`UIUserInterfaceStyle`).
public enum UserInterfaceStyle: Int, Sendable {
    case unspecified = 0
    case light = 1
    case dark = 2
}

/// The reader's preferred text size (`UIContentSizeCategory`), smallest to largest; the
/// accessibility sizes come last. The raw values are UIKit's.
public struct ContentSizeCategory: RawRepresentable, Hashable, Comparable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let unspecified = ContentSizeCategory(rawValue: "_UICTContentSizeCategoryUnspecified")
    public static let extraSmall = ContentSizeCategory(rawValue: "UICTContentSizeCategoryXS")
    public static let small = ContentSizeCategory(rawValue: "UICTContentSizeCategoryS")
    public static let medium = ContentSizeCategory(rawValue: "UICTContentSizeCategoryM")
    public static let large = ContentSizeCategory(rawValue: "UICTContentSizeCategoryL")
    public static let extraLarge = ContentSizeCategory(rawValue: "UICTContentSizeCategoryXL")
    public static let extraExtraLarge = ContentSizeCategory(rawValue: "UICTContentSizeCategoryXXL")
    public static let extraExtraExtraLarge = ContentSizeCategory(rawValue: "UICTContentSizeCategoryXXXL")
    public static let accessibilityMedium = ContentSizeCategory(rawValue: "UICTContentSizeCategoryAccessibilityM")
    public static let accessibilityLarge = ContentSizeCategory(rawValue: "UICTContentSizeCategoryAccessibilityL")
    public static let accessibilityExtraLarge = ContentSizeCategory(rawValue: "UICTContentSizeCategoryAccessibilityXL")
    public static let accessibilityExtraExtraLarge = ContentSizeCategory(rawValue: "UICTContentSizeCategoryAccessibilityXXL")
    public static let accessibilityExtraExtraExtraLarge = ContentSizeCategory(rawValue: "UICTContentSizeCategoryAccessibilityXXXL")

    private static let order: [ContentSizeCategory] = [
        .unspecified, .extraSmall, .small, .medium, .large, .extraLarge, .extraExtraLarge, .extraExtraExtraLarge,
        .accessibilityMedium, .accessibilityLarge, .accessibilityExtraLarge, .accessibilityExtraExtraLarge,
        .accessibilityExtraExtraExtraLarge,
    ]

    /// Whether this is one of the accessibility sizes.
    public var isAccessibilityCategory: Bool { rawValue.hasPrefix("UICTContentSizeCategoryAccessibility") }

    public static func < (a: ContentSizeCategory, b: ContentSizeCategory) -> Bool {
        (order.firstIndex(of: a) ?? 0) < (order.firstIndex(of: b) ?? 0)
    }
}

/// The traits of the environment a view is laid out in (`UITraitCollection`): what layouts read
/// as `collectionView.traitCollection.displayScale`, size classes, the idiom, the style and the
/// text size. Immutable, as in UIKit; a headless collection view is given a new one with
/// ``View/traitCollection``.
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
    public let userInterfaceStyle: UserInterfaceStyle
    public let preferredContentSizeCategory: ContentSizeCategory

    /// Traits with every value unspecified.
    public override convenience init() {
        self.init(displayScale: 0)
    }

    /// Traits with every value given (the headless way to describe a screen).
    public init(
        displayScale: CGFloat, horizontalSizeClass: UserInterfaceSizeClass = .unspecified,
        verticalSizeClass: UserInterfaceSizeClass = .unspecified,
        layoutDirection: TraitEnvironmentLayoutDirection = .unspecified,
        userInterfaceIdiom: UserInterfaceIdiom = .unspecified,
        userInterfaceStyle: UserInterfaceStyle = .unspecified,
        preferredContentSizeCategory: ContentSizeCategory = .unspecified
    ) {
        self.displayScale = displayScale
        self.horizontalSizeClass = horizontalSizeClass
        self.verticalSizeClass = verticalSizeClass
        self.layoutDirection = layoutDirection
        self.userInterfaceIdiom = userInterfaceIdiom
        self.userInterfaceStyle = userInterfaceStyle
        self.preferredContentSizeCategory = preferredContentSizeCategory
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

    /// Traits with only a style.
    public convenience init(userInterfaceStyle: UserInterfaceStyle) {
        self.init(displayScale: 0, userInterfaceStyle: userInterfaceStyle)
    }

    /// Traits with only a text size.
    public convenience init(preferredContentSizeCategory: ContentSizeCategory) {
        self.init(displayScale: 0, preferredContentSizeCategory: preferredContentSizeCategory)
    }

    /// The traits of several collections merged: later collections win for every trait they
    /// specify (`init(traitsFrom:)`).
    public convenience init(traitsFrom traitCollections: [TraitCollection]) {
        var scale: CGFloat = 0
        var horizontal = UserInterfaceSizeClass.unspecified, vertical = UserInterfaceSizeClass.unspecified
        var direction = TraitEnvironmentLayoutDirection.unspecified, idiom = UserInterfaceIdiom.unspecified
        var style = UserInterfaceStyle.unspecified, size = ContentSizeCategory.unspecified
        for traits in traitCollections {
            if traits.displayScale != 0 { scale = traits.displayScale }
            if traits.horizontalSizeClass != .unspecified { horizontal = traits.horizontalSizeClass }
            if traits.verticalSizeClass != .unspecified { vertical = traits.verticalSizeClass }
            if traits.layoutDirection != .unspecified { direction = traits.layoutDirection }
            if traits.userInterfaceIdiom != .unspecified { idiom = traits.userInterfaceIdiom }
            if traits.userInterfaceStyle != .unspecified { style = traits.userInterfaceStyle }
            if traits.preferredContentSizeCategory != .unspecified { size = traits.preferredContentSizeCategory }
        }
        self.init(
            displayScale: scale, horizontalSizeClass: horizontal, verticalSizeClass: vertical,
            layoutDirection: direction, userInterfaceIdiom: idiom, userInterfaceStyle: style,
            preferredContentSizeCategory: size)
    }

    /// Whether every trait `trait` specifies has the same value here (`containsTraits(in:)`).
    open func containsTraits(in trait: TraitCollection?) -> Bool {
        guard let trait else { return true }
        return (trait.displayScale == 0 || trait.displayScale == displayScale)
            && (trait.horizontalSizeClass == .unspecified || trait.horizontalSizeClass == horizontalSizeClass)
            && (trait.verticalSizeClass == .unspecified || trait.verticalSizeClass == verticalSizeClass)
            && (trait.layoutDirection == .unspecified || trait.layoutDirection == layoutDirection)
            && (trait.userInterfaceIdiom == .unspecified || trait.userInterfaceIdiom == userInterfaceIdiom)
            && (trait.userInterfaceStyle == .unspecified || trait.userInterfaceStyle == userInterfaceStyle)
            && (trait.preferredContentSizeCategory == .unspecified
                || trait.preferredContentSizeCategory == preferredContentSizeCategory)
    }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? TraitCollection else { return false }
        return displayScale == other.displayScale && horizontalSizeClass == other.horizontalSizeClass
            && verticalSizeClass == other.verticalSizeClass && layoutDirection == other.layoutDirection
            && userInterfaceIdiom == other.userInterfaceIdiom && userInterfaceStyle == other.userInterfaceStyle
            && preferredContentSizeCategory == other.preferredContentSizeCategory
    }

    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(displayScale)
        hasher.combine(horizontalSizeClass)
        hasher.combine(verticalSizeClass)
        hasher.combine(layoutDirection)
        hasher.combine(userInterfaceIdiom)
        hasher.combine(userInterfaceStyle)
        hasher.combine(preferredContentSizeCategory)
        return hasher.finalize()
    }
}

/// The device an interface is computed for (`UIDevice`): a phone, as the default traits of
/// every view say. To lay out for another idiom, give the collection view traits that say so
/// (`collectionView.traitCollection = TraitCollection(userInterfaceIdiom: .pad)`).
public final class Device: NSObject, Sendable {
    /// The device the app runs on.
    public static let current = Device()

    /// The kind of device: `.phone`.
    public let userInterfaceIdiom = UserInterfaceIdiom.phone
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
    public var traitCollection: TraitCollection {
        TraitCollection(
            displayScale: scale, userInterfaceIdiom: .phone, userInterfaceStyle: .light,
            preferredContentSizeCategory: .large)
    }

    /// A screen of `bounds` points at `scale` pixels per point.
    public init(bounds: CGRect, scale: CGFloat) {
        self.bounds = bounds
        self.scale = scale
        super.init()
    }
}
