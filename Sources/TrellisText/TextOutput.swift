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
    /// The buffer: `capacity` bytes, the first `used` of them written.
    private let storage: UnsafeMutablePointer<UInt8>
    private let capacity = TextOutput.chunkSize + 4096
    @exclusivity(unchecked) private var used = 0
    /// Everything written, for the `.memory` destination (after ``finish()``).
    public var collected: [UInt8] {
        if chunks.count == 1 { return chunks[0] }
        var all: [UInt8] = []
        all.reserveCapacity(chunks.reduce(0) { $0 + $1.count })
        for chunk in chunks { all += chunk }
        return all
    }
    /// What a memory output holds, in the chunks it was handed on in (never copied to grow).
    private var chunks: [[UInt8]] = []
    /// The first write that failed, if any (the descriptor's `errno`).
    public private(set) var failure: Int32?
    /// The encoding the UTF-8 text written is handed on in.
    public private(set) var encoding: TextEncoding
    /// Converts what is handed on when the encoding is not UTF-8.
    private var encoder: TextEncoding.StreamEncoder
    /// The first character the encoding could not hold, if any.
    public private(set) var encodingFailure: TextEncodingError?
    /// Whether any bytes were handed on (to memory or the descriptor).
    private var handedOnAnything = false

    /// An output to `destination` (memory by default) of text written in UTF-8 and handed on in
    /// `encoding` (UTF-8 by default), a chunk at a time: a character cut at the end of a chunk
    /// waits for the next.
    public init(_ destination: Destination = .memory, encoding: TextEncoding = .utf8) {
        self.destination = destination
        self.encoding = encoding
        storage = .allocate(capacity: capacity)
        var failure: TextEncodingError?
        encoder = Self.encoder(to: encoding, failure: &failure)
        encodingFailure = failure
    }

    /// The converter to `encoding`. An encoding Trellis names is one the C library converts;
    /// should it not be, `failure` says so (the output reports it at `finish()` rather than
    /// writing anything wrong) and the converter passes UTF-8 on.
    private static func encoder(to encoding: TextEncoding, failure: inout TextEncodingError?) -> TextEncoding.StreamEncoder {
        do {
            return try TextEncoding.StreamEncoder(to: encoding)
        } catch {
            failure = error
            return try! TextEncoding.StreamEncoder(to: .utf8)
        }
    }

    deinit { storage.deallocate() }

    /// Hands on in `encoding` from now on, when nothing was written yet (an output opened before
    /// its text's encoding was known); `false`, and nothing changes, once something was.
    public func handOn(in encoding: TextEncoding) -> Bool {
        guard used == 0, !handedOnAnything else { return false }
        self.encoding = encoding
        var failure: TextEncodingError?
        encoder = Self.encoder(to: encoding, failure: &failure)
        encodingFailure = failure
        return true
    }

    /// Writes UTF-8 text.
    @inline(__always)
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { write(bytes: $0) }
    }

    /// Writes text known at compile time.
    @inline(__always)
    public func write(_ text: StaticString) {
        text.withUTF8Buffer { write(bytes: $0) }
    }

    /// Writes bytes.
    @inline(__always)
    public func write(bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { write(bytes: $0) }
    }

    /// Writes bytes.
    @inline(__always)
    public func write(bytes: UnsafeBufferPointer<UInt8>) {
        let n = bytes.count
        guard n > 0, let source = bytes.baseAddress else { return }
        if used + n > capacity {
            handOn()
            if n > capacity {
                handOn(UnsafeRawBufferPointer(bytes))
                return
            }
        }
        (storage + used).update(from: source, count: n)
        used += n
        if used >= Self.chunkSize { handOn() }
    }

    /// Writes one byte.
    @inline(__always)
    public func write(byte: UInt8) {
        if used == capacity { handOn() }
        storage[used] = byte
        used += 1
    }

    /// Room for `n` more bytes in the buffer (at most 4096), handing on what is there if needed.
    @inline(__always)
    private func reserve(_ n: Int) {
        if used + n > capacity { handOn() }
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
            reserve(40)
            if negative { append(UInt8(ascii: "-")) }
            appendDigits(UInt64(magnitude / 16))
            var fraction = magnitude % 16 * 625  // in ten-thousandths
            append(UInt8(ascii: "."))
            var divisor: Int64 = 1000
            while fraction > 0 {
                append(UInt8(ascii: "0") + UInt8(fraction / divisor))
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
        reserve(24)
        if value < 0 {
            append(UInt8(ascii: "-"))
            appendDigits(value == .min ? UInt64(Int64.max) + 1 : UInt64(-value))
        } else {
            appendDigits(UInt64(value))
        }
        flushIfFull()
    }

    @inline(__always)
    private func appendDigits(_ value: UInt64) {
        guard value >= 10 else {
            append(UInt8(ascii: "0") + UInt8(value))
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
            (storage + used).update(from: digits.baseAddress! + (20 - count), count: count)
            used += count
        }
    }

    /// Appends a byte there is room for (see ``reserve(_:)``).
    @inline(__always)
    private func append(_ byte: UInt8) {
        storage[used] = byte
        used += 1
    }

    @inline(__always)
    private func flushIfFull() {
        if used >= Self.chunkSize { handOn() }
    }

    /// Hands the buffered bytes to the destination, converted to the output's encoding.
    private func handOn(final: Bool = false) {
        guard used > 0 || (final && encoding != .utf8) else { return }
        if encoding == .utf8 {
            handOn(UnsafeRawBufferPointer(start: storage, count: used))
        } else if encodingFailure == nil {
            var converted: [UInt8] = []
            converted.reserveCapacity(used * 2)
            do {
                try encoder.encode(UnsafeBufferPointer(start: storage, count: used), final: final, into: &converted)
            } catch {
                encodingFailure = error
            }
            converted.withUnsafeBytes { handOn($0) }
        }
        used = 0
    }

    private func handOn(_ bytes: UnsafeRawBufferPointer) {
        if !bytes.isEmpty { handedOnAnything = true }
        switch destination {
        case .memory:
            chunks.append(Array(bytes))
        case .fileDescriptor(let descriptor):
            guard failure == nil, let base = bytes.baseAddress else { return }
            var offset = 0
            while offset < bytes.count {
                let written = Foundation.write(descriptor, base + offset, bytes.count - offset)
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

    /// Writes everything this memory output holds (collected and buffered) to `other`. When
    /// both are in one encoding other than UTF-8, what this output already encoded is handed on
    /// as it is: so two threads can write and encode the two halves of one output, the second
    /// into memory, and the second half is not encoded again. `other` must then be at the end of
    /// a character.
    public func writeCollected(to other: TextOutput) {
        if encoding != .utf8, other.encoding == encoding {
            handOn(final: true)
            other.handOn()
            for chunk in chunks { chunk.withUnsafeBytes { other.handOn($0) } }
            if other.encodingFailure == nil { other.encodingFailure = encodingFailure }
            return
        }
        handOn()
        for chunk in chunks { chunk.withUnsafeBufferPointer { other.write(bytes: $0) } }
    }

    /// Marks the output failed with `code` (an `errno`), as a failed write does: what it was
    /// written from could not be read. ``finish()`` then throws.
    public func fail(_ code: Int32) {
        if failure == nil { failure = code }
    }

    /// Hands on what is buffered. Throws when a write failed (a full disk, a closed pipe) or a
    /// character could not be written in the output's encoding.
    public func finish() throws(TextOutputError) {
        handOn(final: true)
        if let failure { throw TextOutputError(code: failure) }
        if let encodingFailure { throw TextOutputError(code: EILSEQ, encoding: encodingFailure) }
    }
}

/// A write to a file descriptor that failed, or text its encoding cannot hold.
public struct TextOutputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The `errno` of the failed write (`EILSEQ` for an encoding failure).
    public let code: Int32
    /// The character the output's encoding could not hold, for an encoding failure.
    public let encoding: TextEncodingError?

    public init(code: Int32, encoding: TextEncodingError? = nil) {
        self.code = code
        self.encoding = encoding
    }

    public var description: String { encoding.map { "\($0)" } ?? String(cString: strerror(code)) }
}
