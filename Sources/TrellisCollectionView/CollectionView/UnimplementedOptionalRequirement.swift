import Foundation

/// Thrown by the default of a requirement that was an `@objc optional` method in UIKit code, where
/// the method's result has no value that means "not implemented" (`trellis port` writes these
/// defaults). A caller that used `delegate?.method?(…)` calls `(try? delegate?.method(…))`, which
/// is `nil` exactly where the optional method was not implemented.
///
/// ```swift
/// protocol HeightProvider: AnyObject {
///     func height(forSection section: Int) throws -> CGFloat
/// }
/// extension HeightProvider {
///     func height(forSection section: Int) throws -> CGFloat {
///         throw UnimplementedOptionalRequirement("HeightProvider.height(forSection:)")
///     }
/// }
/// ```
public struct UnimplementedOptionalRequirement: Error, Equatable, CustomStringConvertible, Sendable {
    /// The requirement, as `Protocol.method(label:)`.
    public var requirement: String

    public init(_ requirement: String) { self.requirement = requirement }

    public var description: String { "\(requirement) is not implemented" }
}
