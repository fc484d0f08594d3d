import Foundation

/// The per-item and per-line storage of a ``FlowGeometry``: plain buffers, written by the builder
/// and afterwards changed only in place by self-sizing updates.
///
/// Raw buffers instead of arrays because this is the innermost loop of a million-item layout:
/// writing through a pointer needs no zero-fill of fresh storage, no uniqueness check per append
/// and no bounds check per read, and a query retains one object instead of four arrays.
///
/// When a line changes height after the build (a cell measured its size), the lines after it
/// move. Rather than rewriting them all, the change is recorded in a Fenwick tree of per-line
/// shifts (Fenwick, "A new data structure for cumulative frequency tables", 1994): a line's top is
/// its stored top plus the prefix sum of shifts up to it, so a change costs O(log n) and so does
/// reading any line's position. Stored item frames stay valid for their line's stored top; a
/// shifted line's items are placed again from their line when read.
final class FlowStorage: @unchecked Sendable {
    /// Frames of the items of varied sections, in the scroll frame, all sections concatenated,
    /// valid for their line's stored top.
    private(set) var frames: UnsafeMutablePointer<CGRect>
    private(set) var frameCount = 0
    private var frameCapacity: Int
    /// How many frames fit without growing.
    var frameCapacityValue: Int { frameCapacity }
    /// Per line of a varied section: the index in `frames` of its first item.
    private(set) var lineFirst: UnsafeMutablePointer<Int>
    /// Per line: the unsnapped top of the line when it was built.
    private(set) var lineTop: UnsafeMutablePointer<CGFloat>
    /// Per line: its height (the tallest item).
    private(set) var lineHeight: UnsafeMutablePointer<CGFloat>
    private(set) var lineCount = 0
    private var lineCapacity: Int
    /// Per line: the shift recorded at it (moving it and every later line), and the Fenwick
    /// tree of those shifts; both empty until the first change.
    private(set) var lineShift: [CGFloat] = []
    private var shiftTree: [CGFloat] = []

    init(frameCapacity: Int = 0, lineCapacity: Int = 0) {
        self.frameCapacity = max(frameCapacity, 1)
        self.lineCapacity = max(lineCapacity, 1)
        frames = .allocate(capacity: self.frameCapacity)
        lineFirst = .allocate(capacity: self.lineCapacity)
        lineTop = .allocate(capacity: self.lineCapacity)
        lineHeight = .allocate(capacity: self.lineCapacity)
    }

    deinit {
        frames.deallocate()
        lineFirst.deallocate()
        lineTop.deallocate()
        lineHeight.deallocate()
    }

    /// A copy, for a geometry that must change while another value still holds this storage.
    func copy() -> FlowStorage {
        let copy = FlowStorage(frameCapacity: frameCount, lineCapacity: lineCount)
        copy.frames.initialize(from: frames, count: frameCount)
        copy.lineFirst.initialize(from: lineFirst, count: lineCount)
        copy.lineTop.initialize(from: lineTop, count: lineCount)
        copy.lineHeight.initialize(from: lineHeight, count: lineCount)
        copy.frameCount = frameCount
        copy.lineCount = lineCount
        copy.lineShift = lineShift
        copy.shiftTree = shiftTree
        return copy
    }

    /// Forgets the contents but keeps the memory, for a re-layout of about the same size: fresh
    /// memory of a million-item layout costs tens of thousands of page faults.
    func removeAll() {
        frameCount = 0
        lineCount = 0
        lineShift = []
        shiftTree = []
    }

    /// Bytes held, capacity included.
    var bytes: Int {
        frameCapacity * MemoryLayout<CGRect>.stride
            + lineCapacity * (MemoryLayout<Int>.stride + 2 * MemoryLayout<CGFloat>.stride)
            + (lineShift.capacity + shiftTree.capacity) * MemoryLayout<CGFloat>.stride
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
    func appendLine(first: Int, top: CGFloat, height: CGFloat) {
        if lineCount == lineCapacity { growLines() }
        lineFirst[lineCount] = first
        lineTop[lineCount] = top
        lineHeight[lineCount] = height
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
        lineHeight = grow(lineHeight)
        lineCapacity = capacity
    }

    // MARK: Shifts

    /// Whether any line moved since the build.
    var hasShifts: Bool { !lineShift.isEmpty }

    /// Moves line `line` and every line after it by `delta`. O(log n).
    func shiftLines(from line: Int, by delta: CGFloat) {
        guard line < lineCount, delta != 0 else { return }
        if lineShift.isEmpty {
            lineShift = Array(repeating: 0, count: lineCount)
            shiftTree = Array(repeating: 0, count: lineCount + 1)
        }
        lineShift[line] += delta
        var i = line + 1
        while i <= lineCount {
            shiftTree[i] += delta
            i += i & -i
        }
    }

    /// The total shift of line `line`: the sum of shifts recorded at it and before it. O(log n).
    @inline(__always)
    func shift(ofLine line: Int) -> CGFloat {
        guard !shiftTree.isEmpty else { return 0 }
        var sum: CGFloat = 0
        var i = line + 1
        while i > 0 {
            sum += shiftTree[i]
            i -= i & -i
        }
        return sum
    }

    /// Sets a line's height and rewrites one frame (self-sizing updates).
    func setLineHeight(_ line: Int, _ height: CGFloat) { lineHeight[line] = height }
    func setFrame(_ index: Int, _ frame: CGRect) { frames[index] = frame }
}
