/// A value handed to concurrent code that only reads it or writes disjoint parts of it (each
/// thread its own chunk of a buffer, its own slot of a result): the one place the package tells
/// the compiler so, rather than a wrapper per module.
package struct Unchecked<T>: @unchecked Sendable {
    package let value: T
    package init(_ value: T) { self.value = value }
}
