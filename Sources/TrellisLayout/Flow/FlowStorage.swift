import Foundation

/// The per-item and per-line storage of a ``FlowGeometry``: plain buffers, written once by the
/// builder and read-only afterwards.
///
/// Raw buffers instead of arrays because this is the innermost loop of a million-item layout:
/// writing through a pointer needs no zero-fill of fresh storage, no uniqueness check per append
/// and no bounds check per read, and a query retains one object instead of four arrays.
final class FlowStorage: @unchecked Sendable {
    /// Frames of the items of varied sections, in the scroll frame, all sections concatenated.
    private(set) var frames: UnsafeMutablePointer<CGRect>
    private(set) var frameCount = 0
    private var frameCapacity: Int
    /// How many frames fit without growing.
    var frameCapacityValue: Int { frameCapacity }
    /// Per line of a varied section: the index in `frames` of its first item.
    private(set) var lineFirst: UnsafeMutablePointer<Int>
    /// Per line: the unsnapped top of the line (monotone).
    private(set) var lineTop: UnsafeMutablePointer<CGFloat>
    /// Per line: the largest snapped bottom of any element up to and including this line.
    private(set) var lineReach: UnsafeMutablePointer<CGFloat>
    private(set) var lineCount = 0
    private var lineCapacity: Int

    init(frameCapacity: Int = 0, lineCapacity: Int = 0) {
        self.frameCapacity = max(frameCapacity, 1)
        self.lineCapacity = max(lineCapacity, 1)
        frames = .allocate(capacity: self.frameCapacity)
        lineFirst = .allocate(capacity: self.lineCapacity)
        lineTop = .allocate(capacity: self.lineCapacity)
        lineReach = .allocate(capacity: self.lineCapacity)
    }

    deinit {
        frames.deallocate()
        lineFirst.deallocate()
        lineTop.deallocate()
        lineReach.deallocate()
    }

    /// Forgets the contents but keeps the memory, for a re-layout of about the same size: fresh
    /// memory of a million-item layout costs tens of thousands of page faults.
    func removeAll() {
        frameCount = 0
        lineCount = 0
    }

    /// Bytes held, capacity included.
    var bytes: Int {
        frameCapacity * MemoryLayout<CGRect>.stride
            + lineCapacity * (MemoryLayout<Int>.stride + 2 * MemoryLayout<CGFloat>.stride)
    }

    /// Makes room for `count` more frames and returns where they go; the caller writes all of
    /// them before reading any.
    func appendFrames(_ count: Int) -> UnsafeMutablePointer<CGRect> {
        if frameCount + count > frameCapacity {
            let capacity = max(frameCount + count, frameCapacity * 2)
            let grown = UnsafeMutablePointer<CGRect>.allocate(capacity: capacity)
            grown.moveInitialize(from: frames, count: frameCount)
            frames.deallocate()
            frames = grown
            frameCapacity = capacity
        }
        defer { frameCount += count }
        return frames + frameCount
    }

    /// Appends one line.
    @inline(__always)
    func appendLine(first: Int, top: CGFloat, reach: CGFloat) {
        if lineCount == lineCapacity { growLines() }
        lineFirst[lineCount] = first
        lineTop[lineCount] = top
        lineReach[lineCount] = reach
        lineCount += 1
    }

    private func growLines() {
        let capacity = lineCapacity * 2
        func grow<T>(_ p: UnsafeMutablePointer<T>) -> UnsafeMutablePointer<T> {
            let grown = UnsafeMutablePointer<T>.allocate(capacity: capacity)
            grown.moveInitialize(from: p, count: lineCount)
            p.deallocate()
            return grown
        }
        lineFirst = grow(lineFirst)
        lineTop = grow(lineTop)
        lineReach = grow(lineReach)
        lineCapacity = capacity
    }
}
