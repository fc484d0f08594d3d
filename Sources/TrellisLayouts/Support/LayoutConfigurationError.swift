import TrellisCollectionView

/// Why a layout cannot lay out what it was given: zero columns, a negative or NaN size, a group
/// that cannot hold its item. Names the section and the item (or group) where it applies, and
/// says what to change.
///
/// UIKit raises an exception for these; a Trellis layout's pure functions throw this error and
/// its class shell, whose `prepare()` cannot throw, keeps it in `configurationError` and lays out
/// nothing, so that a bad value never traps or hangs.
///
/// ```swift
/// let layout = WaterfallLayout()
/// layout.columnCount = 0
/// // after the host's layout pass:
/// layout.configurationError?.description
/// // "section 0: the column count is 0; give a column count of at least 1"
/// ```
public struct LayoutConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The section the problem is in, when it is in one.
    public var section: Int?
    /// The item the problem is at, when it is at one.
    public var item: Int?
    /// What is wrong and how to fix it.
    public var message: String

    /// An error at `section` and `item` (either may be `nil`).
    public init(section: Int? = nil, item: Int? = nil, _ message: String) {
        self.section = section
        self.item = item
        self.message = message
    }

    /// `section S, item I: message`, leaving out what is `nil`.
    public var description: String {
        var place: [String] = []
        if let section { place.append("section \(section)") }
        if let item { place.append("item \(item)") }
        return place.isEmpty ? message : place.joined(separator: ", ") + ": " + message
    }

    /// The same error placed in `section` (when it names none yet).
    func inSection(_ section: Int) -> LayoutConfigurationError {
        var copy = self
        if copy.section == nil { copy.section = section }
        return copy
    }

    /// Checks that `value` is a finite number that is not negative.
    static func checkSize(
        _ value: CGFloat, _ what: @autoclosure () -> String,
        section: Int? = nil, item: Int? = nil
    ) throws(LayoutConfigurationError) {
        guard value.isFinite, value >= 0 else {
            throw LayoutConfigurationError(
                section: section, item: item,
                "\(what()) is \(format(value)); give a finite size of 0 or more")
        }
    }

    /// Checks that `value` is finite (spacings and insets may be negative).
    static func checkFinite(
        _ value: CGFloat, _ what: @autoclosure () -> String,
        section: Int? = nil, item: Int? = nil
    ) throws(LayoutConfigurationError) {
        guard value.isFinite else {
            throw LayoutConfigurationError(section: section, item: item, "\(what()) is \(format(value)); give a finite number")
        }
    }

    /// Checks every edge of `insets`.
    static func checkInsets(
        _ insets: EdgeInsets, _ what: String,
        section: Int? = nil
    ) throws(LayoutConfigurationError) {
        for (edge, value) in [("top", insets.top), ("left", insets.left), ("bottom", insets.bottom), ("right", insets.right)] {
            try checkFinite(value, "the \(what) \(edge)", section: section)
        }
    }

    /// A number as the messages show it: whole numbers without a fraction.
    static func format(_ value: CGFloat) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-infinity" : "infinity" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}

/// A layout that reports why its last `prepare()` laid out nothing (a configuration no layout
/// can honour: a negative size, fractions past the whole, a column count of zero): every layout
/// of this module. A host asks for the error once, by protocol, whatever the layout's class.
///
/// ```swift
/// if let error = (layout as? LayoutConfigurationReporting)?.configurationError { print(error) }
/// ```
public protocol LayoutConfigurationReporting: AnyObject {
    /// Why the last `prepare()` laid out nothing, or `nil` when it succeeded.
    var configurationError: LayoutConfigurationError? { get }
}

extension GridLayout: LayoutConfigurationReporting {}
extension WaterfallLayout: LayoutConfigurationReporting {}
extension JustifiedLayout: LayoutConfigurationReporting {}
extension CollectionViewCompositionalLayout: LayoutConfigurationReporting {}
