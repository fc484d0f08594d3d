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
///
/// With the `TRELLIS_INVARIANT_CHECKS` compilation condition (on in debug builds, so in the
/// tests; the benchmarks refuse to run with it) every read is bounds-checked and every mutation
/// ends by checking the storage's invariants.
final class FlowStorage: @unchecked Sendable {
    private var framePointer: UnsafeMutablePointer<CGRect>
    private(set) var frameCount = 0
    private var frameCapacity: Int
    /// How many frames fit without growing.
    var frameCapacityValue: Int { frameCapacity }
    private var lineFirstPointer: UnsafeMutablePointer<Int>
    private var lineTopPointer: UnsafeMutablePointer<CGFloat>
    private var lineHeightPointer: UnsafeMutablePointer<CGFloat>
    private(set) var lineCount = 0

    /// Frames of the items of varied sections, in the scroll frame, all sections concatenated,
    /// valid for their line's stored top.
    var frames: Buffer<CGRect> { Buffer(base: framePointer, count: frameCount) }
    /// Per line of a varied section: the index in `frames` of its first item.
    var lineFirst: Buffer<Int> { Buffer(base: lineFirstPointer, count: lineCount) }
    /// Per line: the unsnapped top of the line when it was built.
    var lineTop: Buffer<CGFloat> { Buffer(base: lineTopPointer, count: lineCount) }
    /// Per line: its height (the tallest item).
    var lineHeight: Buffer<CGFloat> { Buffer(base: lineHeightPointer, count: lineCount) }

    /// A read-only view of one of the buffers: a bare pointer read in release builds, a
    /// bounds-checked one with `TRELLIS_INVARIANT_CHECKS`.
    struct Buffer<Element> {
        let base: UnsafeMutablePointer<Element>
        let count: Int

        @inline(__always)
        subscript(index: Int) -> Element {
            #if TRELLIS_INVARIANT_CHECKS
                precondition(index >= 0 && index < count, "FlowStorage read \(index) outside 0..<\(count)")
            #endif
            return base[index]
        }
    }
    private var lineCapacity: Int
    /// Per line: the shift recorded at it (moving it and every later line), and the Fenwick
    /// tree of those shifts; both empty until the first change.
    private(set) var lineShift: [CGFloat] = []
    private var shiftTree: [CGFloat] = []

    init(frameCapacity: Int = 0, lineCapacity: Int = 0) {
        self.frameCapacity = max(frameCapacity, 1)
        self.lineCapacity = max(lineCapacity, 1)
        framePointer = .allocate(capacity: self.frameCapacity)
        lineFirstPointer = .allocate(capacity: self.lineCapacity)
        lineTopPointer = .allocate(capacity: self.lineCapacity)
        lineHeightPointer = .allocate(capacity: self.lineCapacity)
    }

    deinit {
        framePointer.deallocate()
        lineFirstPointer.deallocate()
        lineTopPointer.deallocate()
        lineHeightPointer.deallocate()
    }

    /// A copy, for a geometry that must change while another value still holds this storage.
    func copy() -> FlowStorage {
        let copy = FlowStorage(frameCapacity: frameCount, lineCapacity: lineCount)
        copy.framePointer.initialize(from: framePointer, count: frameCount)
        copy.lineFirstPointer.initialize(from: lineFirstPointer, count: lineCount)
        copy.lineTopPointer.initialize(from: lineTopPointer, count: lineCount)
        copy.lineHeightPointer.initialize(from: lineHeightPointer, count: lineCount)
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
            grown.moveInitialize(from: framePointer, count: frameCount)
            framePointer.deallocate()
            framePointer = grown
            frameCapacity = capacity
        }
        defer { frameCount += count }
        return framePointer + frameCount
    }

    /// Appends one line.
    @inline(__always)
    func appendLine(first: Int, top: CGFloat, height: CGFloat) {
        if lineCount == lineCapacity { growLines() }
        lineFirstPointer[lineCount] = first
        lineTopPointer[lineCount] = top
        lineHeightPointer[lineCount] = height
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
        lineFirstPointer = grow(lineFirstPointer)
        lineTopPointer = grow(lineTopPointer)
        lineHeightPointer = grow(lineHeightPointer)
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
        checkInvariants()
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
    func setLineHeight(_ line: Int, _ height: CGFloat) {
        precondition(line >= 0 && line < lineCount, "FlowStorage line \(line) outside 0..<\(lineCount)")
        lineHeightPointer[line] = height
        checkInvariants()
    }

    func setFrame(_ index: Int, _ frame: CGRect) {
        precondition(index >= 0 && index < frameCount, "FlowStorage frame \(index) outside 0..<\(frameCount)")
        framePointer[index] = frame
    }

    // MARK: Invariants

    /// Checks that the storage is well formed: counts within capacities, lines in item order,
    /// line heights finite and not negative, and the shift tree the prefix sums of the shifts.
    /// Does nothing unless built with `TRELLIS_INVARIANT_CHECKS`.
    @inline(__always)
    func checkInvariants() {
        #if TRELLIS_INVARIANT_CHECKS
            precondition(frameCount <= frameCapacity && lineCount <= lineCapacity, "FlowStorage counts exceed capacities")
            for line in 0..<lineCount {
                let first = lineFirstPointer[line]
                precondition(first >= 0 && first < frameCount, "line \(line) starts at frame \(first) of \(frameCount)")
                precondition(line == 0 || lineFirstPointer[line - 1] < first, "line \(line) does not follow line \(line - 1)")
                let height = lineHeightPointer[line]
                precondition(height.isFinite && height >= 0, "line \(line) has height \(height)")
            }
            if !lineShift.isEmpty {
                precondition(lineShift.count == lineCount && shiftTree.count == lineCount + 1, "shift tree size")
                var prefix: CGFloat = 0
                for line in 0..<lineCount {
                    prefix += lineShift[line]
                    let tolerance = 1e-9 * max(1, abs(prefix))
                    precondition(abs(shift(ofLine: line) - prefix) <= tolerance, "shift of line \(line) is wrong")
                }
            }
        #endif
    }
}
