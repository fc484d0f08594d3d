import Foundation

/// Text written in large chunks: to a file descriptor as it is produced, or kept in memory.
///
/// A command that prints a million lines must not hold them all: writes go into a buffer of
/// ``chunkSize`` bytes that is handed to the destination each time it fills, so memory stays
/// bounded by the buffer whatever the output's length.
///
/// ```swift
/// let output = TextOutput()
/// output.write("x = ")
/// output.writeJSONNumber(102.5)
/// try output.finish()
/// String(decoding: output.collected, as: UTF8.self)   // "x = 102.5"
/// ```
public final class TextOutput {
    /// Where the text goes.
    public enum Destination {
        /// A file descriptor the caller owns (standard output, or a file opened for writing).
        case fileDescriptor(Int32)
        /// Memory: read it back from ``collected``.
        case memory
    }

    /// How many bytes are buffered before they are handed on.
    public static let chunkSize = 1 << 20

    private let destination: Destination
    @exclusivity(unchecked) private var buffer: [UInt8] = []
    /// Everything written, for the `.memory` destination.
    public private(set) var collected: [UInt8] = []
    /// The first write that failed, if any (the descriptor's `errno`).
    public private(set) var failure: Int32?

    /// An output to `destination` (memory by default).
    public init(_ destination: Destination = .memory) {
        self.destination = destination
        buffer.reserveCapacity(Self.chunkSize + 4096)
    }

    /// Writes UTF-8 text.
    @inline(__always)
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { buffer.append(contentsOf: $0) }
        flushIfFull()
    }

    /// Writes text known at compile time.
    @inline(__always)
    public func write(_ text: StaticString) {
        text.withUTF8Buffer { buffer.append(contentsOf: $0) }
        flushIfFull()
    }

    /// Writes bytes.
    @inline(__always)
    public func write(bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        flushIfFull()
    }

    /// Writes bytes.
    @inline(__always)
    public func write(bytes: UnsafeBufferPointer<UInt8>) {
        buffer.append(contentsOf: bytes)
        flushIfFull()
    }

    /// Writes a number as JSON writes it (``JSONValue/format(_:)``): integers without a
    /// fraction, others in the shortest form that reads back to the same value, `null` for a
    /// value that is not a number.
    public func writeJSONNumber(_ value: Double) {
        guard value.isFinite else { write("null"); return }
        if value == value.rounded(), abs(value) <= 9_007_199_254_740_992 {
            writeInteger(value == 0 ? 0 : Int64(value))
            return
        }
        // Multiples of 1/16 below 10^11 have at most 15 significant digits, so their exact
        // decimal expansion is the shortest form that reads back: written digit by digit
        // instead of through a string (layouts are full of halves and quarters).
        let sixteenths = value * 16
        if abs(value) < 1e11, sixteenths == sixteenths.rounded() {
            let whole = Int64(sixteenths)
            let negative = whole < 0
            let magnitude = negative ? -whole : whole
            if negative { buffer.append(UInt8(ascii: "-")) }
            appendDigits(UInt64(magnitude / 16))
            var fraction = magnitude % 16 * 625     // in ten-thousandths
            buffer.append(UInt8(ascii: "."))
            var divisor: Int64 = 1000
            while fraction > 0 {
                buffer.append(UInt8(ascii: "0") + UInt8(fraction / divisor))
                fraction %= divisor
                divisor /= 10
            }
            flushIfFull()
            return
        }
        write(value.description)
    }

    /// Writes an integer in decimal.
    public func writeInteger(_ value: Int64) {
        if value < 0 {
            buffer.append(UInt8(ascii: "-"))
            appendDigits(value == .min ? UInt64(Int64.max) + 1 : UInt64(-value))
        } else {
            appendDigits(UInt64(value))
        }
        flushIfFull()
    }

    @inline(__always)
    private func appendDigits(_ value: UInt64) {
        guard value >= 10 else {
            buffer.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var count = 0
            var rest = value
            while rest > 0 {
                digits[19 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: digits[(20 - count)...]))
        }
    }

    @inline(__always)
    private func flushIfFull() {
        if buffer.count >= Self.chunkSize { handOn() }
    }

    /// Hands the buffered bytes to the destination.
    private func handOn() {
        guard !buffer.isEmpty else { return }
        switch destination {
        case .memory:
            collected.append(contentsOf: buffer)
        case .fileDescriptor(let descriptor):
            if failure == nil {
                buffer.withUnsafeBytes { bytes in
                    var offset = 0
                    while offset < bytes.count {
                        let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                        if written < 0, errno == EINTR { continue }
                        if written <= 0 {
                            // A descriptor that accepts nothing would loop forever: stop.
                            failure = written < 0 ? errno : EIO
                            return
                        }
                        offset += written
                    }
                }
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Hands on what is buffered. Throws when a write failed (a full disk, a closed pipe).
    public func finish() throws(TextOutputError) {
        handOn()
        if let failure { throw TextOutputError(code: failure) }
    }
}

/// A write to a file descriptor that failed.
public struct TextOutputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The `errno` of the failed write.
    public let code: Int32
    public var description: String { String(cString: strerror(code)) }
}
