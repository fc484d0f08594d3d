import Foundation

/// One column's cells, compactly: every cell's text as UTF-8 in one buffer, and per cell its
/// place in the buffer, its kind and an 8-byte payload (see ``ClassifiedCell``). About 17 bytes
/// per cell besides the text; nothing is a `String` until someone asks for one.
///
/// Changing a cell appends its new text to the buffer; the old bytes stay until the buffer is
/// compacted, which happens when more than half of it is dead.
package struct ColumnStore: Sendable {
    package private(set) var bytes: [UInt8] = []
    package private(set) var starts: [UInt32] = []
    package private(set) var lengths: [UInt32] = []
    package private(set) var kinds: [CellKind] = []
    package private(set) var payloads: [UInt64] = []
    /// The most digits any number has after its point, while no cell was changed or removed.
    private var widestFraction: UInt8 = 0
    private var widestFractionIsCurrent = true
    /// How many cells of each kind (for the column's type).
    private(set) var census = KindCensus()
    private var deadBytes = 0
    /// The type the column's texts are read as, when one was given; otherwise each cell is read
    /// on its own.
    var readAs: ColumnType?

    /// The most text one column can hold.
    static let maximumBytes = Int(UInt32.max)

    package var count: Int { kinds.count }

    mutating func reserve(_ cells: Int, bytes byteCount: Int) {
        starts.reserveCapacity(cells)
        lengths.reserveCapacity(cells)
        kinds.reserveCapacity(cells)
        payloads.reserveCapacity(cells)
        bytes.reserveCapacity(byteCount)
    }

    /// Appends a cell; `false` when the column's text would pass ``maximumBytes``.
    @inline(__always)
    mutating func append(_ text: UnsafeBufferPointer<UInt8>, _ cell: ClassifiedCell) -> Bool {
        guard bytes.count + text.count <= Self.maximumBytes else { return false }
        starts.append(UInt32(truncatingIfNeeded: bytes.count))
        lengths.append(UInt32(truncatingIfNeeded: text.count))
        bytes.append(contentsOf: text)
        kinds.append(cell.kind)
        payloads.append(cell.payload)
        note(cell)
        return true
    }

    @inline(__always)
    private mutating func note(_ cell: ClassifiedCell) {
        census.count(cell)
        if cell.kind.isNumber, cell.fractionDigits > widestFraction { widestFraction = cell.fractionDigits }
    }

    /// Takes a cell that is about to go out of the counts.
    private mutating func forget(_ index: Int) {
        let cell = withText(at: index) { CellText.classify($0, as: readAs) }
        var removed = KindCensus()
        removed.count(cell)
        census.integers -= removed.integers
        census.decimals -= removed.decimals
        census.dates -= removed.dates
        census.booleans -= removed.booleans
        census.texts -= removed.texts
        if cell.kind.isNumber, cell.fractionDigits > 0 { widestFractionIsCurrent = false }
    }

    /// The most digits any number of the column has after its point: how summaries of the column
    /// are written. O(n) once after a change, O(1) otherwise.
    package mutating func fractionDigits() -> UInt8 {
        if !widestFractionIsCurrent {
            widestFraction = 0
            for i in kinds.indices where kinds[i].isNumber {
                let digits = withText(at: i) { CellText.classify($0, as: readAs).fractionDigits }
                if digits > widestFraction { widestFraction = digits }
            }
            widestFractionIsCurrent = true
        }
        return widestFraction
    }

    mutating func insert(_ text: String, _ cell: ClassifiedCell, at index: Int) -> Bool {
        var text = text
        return text.withUTF8 { buffer in
            guard bytes.count + buffer.count <= Self.maximumBytes else { return false }
            starts.insert(UInt32(truncatingIfNeeded: bytes.count), at: index)
            lengths.insert(UInt32(truncatingIfNeeded: buffer.count), at: index)
            bytes.append(contentsOf: buffer)
            kinds.insert(cell.kind, at: index)
            payloads.insert(cell.payload, at: index)
            note(cell)
            return true
        }
    }

    mutating func replace(at index: Int, with text: String, _ cell: ClassifiedCell) -> Bool {
        guard bytes.count + text.utf8.count <= Self.maximumBytes else { return false }
        forget(index)
        var text = text
        let ok = text.withUTF8 { buffer -> Bool in
            guard bytes.count + buffer.count <= Self.maximumBytes else { return false }
            deadBytes += Int(lengths[index])
            starts[index] = UInt32(truncatingIfNeeded: bytes.count)
            lengths[index] = UInt32(truncatingIfNeeded: buffer.count)
            bytes.append(contentsOf: buffer)
            return true
        }
        guard ok else { return false }
        kinds[index] = cell.kind
        payloads[index] = cell.payload
        note(cell)
        compactIfWasteful()
        return true
    }

    mutating func remove(at index: Int) {
        forget(index)
        deadBytes += Int(lengths[index])
        starts.remove(at: index)
        lengths.remove(at: index)
        kinds.remove(at: index)
        payloads.remove(at: index)
        compactIfWasteful()
    }

    private mutating func compactIfWasteful() {
        guard deadBytes > 4096, deadBytes * 2 > bytes.count else { return }
        var packed = [UInt8]()
        packed.reserveCapacity(bytes.count - deadBytes)
        for i in starts.indices {
            let start = Int(starts[i]), length = Int(lengths[i])
            starts[i] = UInt32(truncatingIfNeeded: packed.count)
            packed.append(contentsOf: bytes[start..<(start + length)])
        }
        bytes = packed
        deadBytes = 0
    }

    /// Calls `body` with the cell's UTF-8 text.
    @inline(__always)
    package func withText<R>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let start = Int(starts[index]), length = Int(lengths[index])
        return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<(start + length)])) }
    }

    package func text(at index: Int) -> String {
        withText(at: index) { String(decoding: $0, as: UTF8.self) }
    }

    package func cell(at index: Int) -> ClassifiedCell {
        ClassifiedCell(kind: kinds[index], payload: payloads[index], fractionDigits: 0)
    }

    /// The type most of the column's cells have.
    var inferredType: ColumnType { census.type }
}
