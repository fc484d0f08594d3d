import Foundation

/// The kinds of values, in the order a sort of mixed kinds places them: numbers < dates < text <
/// truth values < errors — a spreadsheet's order, with dates apart from numbers. Blanks have no
/// kind here: a sort key places them by its own rule (``NullPlacement``). Every sort (in memory,
/// in parts, a summary's extremes, a type warning's "sorts before" or "after") reads the order
/// from here.
public enum ValueKind: UInt8, Comparable, Sendable, CaseIterable {
    case number = 0
    case date
    case text
    case truthValue
    case error

    public static func < (a: ValueKind, b: ValueKind) -> Bool { a.rawValue < b.rawValue }

    /// The kind of a value; `nil` for a missing one.
    public init?(_ value: CellValue) {
        switch value {
        case .integer, .decimal: self = .number
        case .date: self = .date
        case .text: self = .text
        case .boolean: self = .truthValue
        case .error: self = .error
        case .missing: return nil
        }
    }

    /// The kind a column of this type holds.
    public init(_ type: ColumnType) {
        switch type {
        case .integer, .decimal: self = .number
        case .date: self = .date
        case .text: self = .text
        case .boolean: self = .truthValue
        }
    }

    /// The kind of a stored cell; `nil` for a blank. `NaN` is a blank in a number column and a
    /// text elsewhere.
    @inline(__always)
    package init?(_ kind: CellKind, numericColumn: Bool) {
        switch kind {
        case .integer, .decimal, .approximate: self = .number
        case .date: self = .date
        case .text: self = .text
        case .boolean: self = .truthValue
        case .error: self = .error
        case .notANumber:
            guard !numericColumn else { return nil }
            self = .text
        case .missing: return nil
        }
    }
}

extension CellValue {
    /// Where the value's kind sorts among kinds (``ValueKind``); `nil` for a missing value.
    public var kind: ValueKind? { ValueKind(self) }

    /// The value's kind as a number (0 numbers … 4 errors, 5 missing).
    @available(*, deprecated, renamed: "kind", message: "use kind, a ValueKind (nil for a missing value)")
    public var kindRank: Int { kind.map { Int($0.rawValue) } ?? 5 }
}
