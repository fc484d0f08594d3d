import Foundation
import TrellisText

/// One column's cells, compactly: every cell's text as UTF-8 in one buffer, and per cell its
/// place in the buffer (a 4-byte start and a 1-byte length; the few texts of 255 bytes or more
/// have their lengths kept apart), its kind and an 8-byte payload (see ``ClassifiedCell``).
/// About 14 bytes per cell besides the text; nothing is a `String` until someone asks for one.
///
/// Changing a cell appends its new text to the buffer; the old bytes stay until the buffer is
/// compacted, which happens when more than half of it is dead.
package struct ColumnStore: Sendable {
    package private(set) var bytes: [UInt8] = []
    private(set) var starts = PodArray<UInt32>()
    /// Each cell's length, or ``longLength`` for a text whose length is in ``longLengths``.
    private(set) var lengths = PodArray<UInt8>()
    /// The lengths of the cells whose texts are ``longLength`` bytes or more, by cell.
    private(set) var longLengths: [Int: UInt32] = [:]
    private(set) var kinds = PodArray<CellKind>()
    private(set) var payloads = PodArray<UInt64>()
    /// The most digits any number has after its point, while no cell was changed or removed.
    private var widestFraction: UInt8 = 0
    private var widestFractionIsCurrent = true
    /// How many cells of each kind (for the column's type).
    private(set) var census = KindCensus()
    private var deadBytes = 0
    /// The type the column's texts are read as, when one was given; otherwise each cell is read
    /// on its own.
    var reading = CellReading()
    /// The type the column is read as (`nil`: each cell on its own).
    var readAs: ColumnType? {
        get { reading.type }
        set { reading.type = newValue }
    }

    /// The most text one column can hold.
    static let maximumBytes = Int(UInt32.max)
    /// The length from which a cell's length is kept apart (as 255 stands for in ``lengths``).
    static let longLength = 255

    /// The byte that stands for a text's length: the length, or ``longLength`` for one kept apart.
    @inline(__always)
    static func lengthByte(_ length: Int) -> UInt8 { UInt8(min(length, longLength)) }

    /// The length a cell's length byte and the lengths kept apart give for cell `index`.
    @inline(__always)
    static func length(_ byte: UInt8, _ long: [Int: UInt32], at index: Int) -> Int {
        byte != UInt8(longLength) ? Int(byte) : Int(long[index] ?? 0)
    }

    /// The length of the cell at `index`'s text.
    @inline(__always)
    package func length(at index: Int) -> Int { Self.length(lengths[index], longLengths, at: index) }

    /// Sets the length of the cell at `index`, keeping a long one apart.
    private mutating func setLength(_ length: Int, at index: Int) {
        lengths[index] = Self.lengthByte(length)
        longLengths[index] = length >= Self.longLength ? UInt32(truncatingIfNeeded: length) : nil
    }

    /// Appends a length, keeping a long one apart.
    private mutating func appendLength(_ length: Int) {
        lengths.append(0)
        setLength(length, at: lengths.count - 1)
    }

    /// Moves the long lengths of cells at or past `index` by `shift` (a cell inserted or removed there).
    private mutating func shiftLongLengths(from index: Int, by shift: Int) {
        guard longLengths.keys.contains(where: { $0 >= index }) else { return }
        var moved: [Int: UInt32] = [:]
        for (cell, length) in longLengths { moved[cell >= index ? cell + shift : cell] = length }
        longLengths = moved
    }

    package var count: Int { hollowRows >= 0 ? hollowRows : kinds.count }

    /// For a column a file was read without (``Table``'s unread columns): how many rows it has;
    /// -1 for a column that holds its cells. A hollow store holds nothing else, and nothing but
    /// ``count`` may be asked of it: its table reads the cells from the file's records instead.
    private var hollowRows = -1

    /// Whether the store stands for a column whose cells were not read (see ``hollowRows``).
    var isHollow: Bool { hollowRows >= 0 }

    /// A store for a column of `rows` cells left in the file's records, read from them with
    /// `reading` when asked for: as text for a column the file was read without, as it was read
    /// for one whose cells were let go (``Table/releaseCells()``).
    init(hollowRows rows: Int, reading: CellReading = CellReading(type: .text)) {
        hollowRows = rows
        self.reading = reading
    }

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
        materializePayloads()
        starts.append(UInt32(truncatingIfNeeded: bytes.count))
        appendLength(text.count)
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
        let cell = withText(at: index) { CellText.classify($0, reading) }
        var removed = KindCensus()
        removed.count(cell)
        census.integers -= removed.integers
        census.decimals -= removed.decimals
        census.dates -= removed.dates
        census.booleans -= removed.booleans
        census.texts -= removed.texts
        if cell.kind.isNumber, cell.fractionDigits > 0 { widestFractionIsCurrent = false }
    }

    /// Reads every cell again as `reading` says (a column found to hold day-first dates).
    /// The cells are read a part per core; each part's counts are added after.
    mutating func reread(_ reading: CellReading) {
        self.reading = reading
        materializePayloads()
        let n = count
        // Each cell's kind and payload written on every core into buffers of their own (every
        // element is written: nothing is copied in or zeroed first).
        var newKinds = PodArray(adopting: LargeBuffers.allocate(CellKind.self, capacity: max(1, n)), count: n, capacity: max(1, n))
        var newPayloads = PodArray(adopting: LargeBuffers.allocate(UInt64.self, capacity: max(1, n)), count: n, capacity: max(1, n))
        let parts: [(census: KindCensus, widest: UInt8)] = withView(uniformity: false) { view in
            newKinds.withUnsafeMutableBufferPointer { kinds in
                newPayloads.withUnsafeMutableBufferPointer { payloads in
                    let shared = Unchecked((view, kinds, payloads))
                    return Parallel.map(Parallel.chunks(n)) { _, range in
                        let (view, kinds, payloads) = shared.value
                        var census = KindCensus()
                        var widest: UInt8 = 0
                        for i in range {
                            let cell = CellText.classify(view.text(i), reading)
                            kinds[i] = cell.kind
                            payloads[i] = cell.payload
                            census.count(cell)
                            if cell.kind.isNumber, cell.fractionDigits > widest { widest = cell.fractionDigits }
                        }
                        return (census, widest)
                    }
                }
            }
        }
        census = KindCensus()
        for part in parts { census.add(part.census) }
        widestFraction = parts.map(\.widest).max() ?? 0
        widestFractionIsCurrent = true
        kinds = newKinds
        payloads = newPayloads
        checkInvariants()
    }

    /// Whether the column holds identifiers written as digit strings of one length (at least 6),
    /// some of them with an ASCII letter in place of the last digit — 18-character 身份证号 whose
    /// check digit is X, about one in eleven — and nothing else but blanks: such a column is one
    /// kind of value, ordered by its text, not numbers with a few texts after them.
    func isIdentifierColumn() -> Bool {
        guard IdentifierEvidence.countsAllow(census) else { return false }
        return identifierEvidence().fits
    }

    /// Whether every present cell is an identifier's digits (a letter last in a text), all of one
    /// length, and that length (-1 when no cell is present): what ``isIdentifierColumn()`` asks
    /// of the cells, for one part of a file.
    func identifierEvidence() -> IdentifierEvidence {
        guard census.decimals == 0, census.dates == 0, census.booleans == 0 else { return IdentifierEvidence(fits: false, length: -1) }
        var length = -1
        for i in 0..<count {
            let kind = kinds[i]
            if kind == .missing { continue }
            guard kind == .integer || kind == .text else { return IdentifierEvidence(fits: false, length: length) }
            let fits: Bool = withText(at: i) { text in
                let n = text.count
                guard n >= 6, length == -1 || n == length else { return false }
                for k in 0..<(n - 1) where (text[k] &- 48) >= 10 { return false }
                let last = text[n - 1]
                return kind == .integer ? (last &- 48) < 10 : ((last | 0x20) &- 0x61) < 26
            }
            guard fits else { return IdentifierEvidence(fits: false, length: length) }
            if length == -1 { length = self.length(at: i) }
        }
        return IdentifierEvidence(fits: true, length: length)
    }

    /// How the column's dates whose year comes last (`3/1/2024`) are ordered, by what they show:
    /// how many can only be day first, only month first, or either — and one of the last.
    func yearLastDates() -> (dayFirst: Int, monthFirst: Int, either: Int, example: String?) {
        var result = (dayFirst: 0, monthFirst: 0, either: 0, example: String?.none)
        for i in 0..<count where kinds[i] == .date || kinds[i] == .text {
            let (isYearLast, order) = withText(at: i) { CellText.yearLastEvidence($0) }
            guard isYearLast else { continue }
            switch order {
            case .dmy: result.dayFirst += 1
            case .mdy: result.monthFirst += 1
            default:
                result.either += 1
                if result.example == nil { result.example = text(at: i) }
            }
        }
        return result
    }

    /// The most digits any number of the column has after its point: how summaries of the column
    /// are written. O(n) once after a change, O(1) otherwise.
    package mutating func fractionDigits() -> UInt8 {
        if !widestFractionIsCurrent {
            widestFraction = 0
            for i in kinds.indices where kinds[i].isNumber {
                let digits = withText(at: i) { CellText.classify($0, reading).fractionDigits }
                if digits > widestFraction { widestFraction = digits }
            }
            widestFractionIsCurrent = true
        }
        return widestFraction
    }

    /// An empty store.
    init() {}

    /// Appends every cell of `other` after this store's (a part of a column read on its own).
    mutating func append(contentsOf other: ColumnStore) -> Bool {
        guard bytes.count + other.bytes.count <= Self.maximumBytes else { return false }
        materializePayloads()
        reserve(count + other.count, bytes: bytes.count + other.bytes.count)
        for i in 0..<other.count {
            other.withText(at: i) { text in
                starts.append(UInt32(truncatingIfNeeded: bytes.count))
                appendLength(text.count)
                bytes.append(contentsOf: text)
            }
            kinds.append(other.kinds[i])
            payloads.append(other.payload(at: i))
        }
        census.add(other.census)
        widestFraction = max(widestFraction, other.widestFraction)
        widestFractionIsCurrent = widestFractionIsCurrent && other.widestFractionIsCurrent
        checkInvariants()
        return true
    }

    /// A store from a builder's cells, whose texts are in `shared`.
    init(_ builder: ColumnBuilder, shared: [UInt8], reading: CellReading) {
        self.reading = reading
        let n = builder.count
        (starts, lengths, longLengths, kinds, payloads) = builder.take()
        bytes = shared
        widestFraction = builder.widestFraction
        // The kinds counted in one pass; only numbers too wide for 64 bits are read again, to
        // tell integers from decimals.
        var histogram = [Int](repeating: 0, count: 16)
        kinds.withUnsafeBufferPointer { k in for kind in k { histogram[Int(kind.rawValue)] += 1 } }
        census.integers = histogram[Int(CellKind.integer.rawValue)]
        census.decimals = histogram[Int(CellKind.decimal.rawValue)]
        census.dates = histogram[Int(CellKind.date.rawValue)]
        census.booleans = histogram[Int(CellKind.boolean.rawValue)]
        census.texts = histogram[Int(CellKind.text.rawValue)]
        if histogram[Int(CellKind.approximate.rawValue)] > 0 {
            for i in 0..<n where kinds[i] == .approximate {
                if withText(at: i, { CellText.classify($0, reading).integral }) { census.integers += 1 } else { census.decimals += 1 }
            }
        }
        checkInvariants()
    }

    /// Checks that the store is well formed: one start, length and kind per cell (and a payload,
    /// where payloads are stored), every text inside the buffer, and no more cells counted by kind
    /// than there are. O(n); does nothing unless built with `TRELLIS_INVARIANT_CHECKS` (on in debug
    /// builds, so the tests run every mutation with it).
    @inline(__always)
    func checkInvariants() {
        #if TRELLIS_INVARIANT_CHECKS
            let n = kinds.count
            precondition(starts.count == n && lengths.count == n, "ColumnStore: \(starts.count) starts and \(lengths.count) lengths for \(n) cells")
            precondition(payloads.isEmpty || payloads.count == n, "ColumnStore: \(payloads.count) payloads for \(n) cells")
            for i in 0..<n {
                precondition(Int(starts[i]) + length(at: i) <= bytes.count, "ColumnStore: cell \(i)'s text is past the buffer")
                precondition((lengths[i] == UInt8(Self.longLength)) == (longLengths[i] != nil), "ColumnStore: cell \(i)'s length is misplaced")
            }
            let counted = census.integers + census.decimals + census.dates + census.booleans + census.texts
            precondition(counted >= 0 && counted <= n, "ColumnStore: \(counted) cells counted by kind of \(n)")
            precondition(deadBytes >= 0 && deadBytes <= bytes.count, "ColumnStore: \(deadBytes) dead bytes of \(bytes.count)")
        #endif
    }

    /// Appends a cell whose text is at `start` in the buffer the store will ``adopt(_:)``.
    @inline(__always)
    mutating func appendReference(start: Int, length: Int, _ cell: ClassifiedCell) {
        materializePayloads()
        starts.append(UInt32(truncatingIfNeeded: start))
        appendLength(length)
        kinds.append(cell.kind)
        payloads.append(cell.payload)
        note(cell)
    }

    /// Takes `shared` as the buffer the cells' texts are in (a file's bytes, shared by all the
    /// columns read from it: the array is not copied).
    mutating func adopt(_ shared: [UInt8]) {
        bytes = shared
        deadBytes = 0
        checkInvariants()
    }

    mutating func insert(_ text: String, _ cell: ClassifiedCell, at index: Int) -> Bool {
        var text = text
        materializePayloads()
        return text.withUTF8 { buffer in
            guard bytes.count + buffer.count <= Self.maximumBytes else { return false }
            starts.insert(UInt32(truncatingIfNeeded: bytes.count), at: index)
            shiftLongLengths(from: index, by: 1)
            lengths.insert(0, at: index)
            setLength(buffer.count, at: index)
            bytes.append(contentsOf: buffer)
            kinds.insert(cell.kind, at: index)
            payloads.insert(cell.payload, at: index)
            note(cell)
            checkInvariants()
            return true
        }
    }

    mutating func replace(at index: Int, with text: String, _ cell: ClassifiedCell) -> Bool {
        guard bytes.count + text.utf8.count <= Self.maximumBytes else { return false }
        materializePayloads()
        forget(index)
        var text = text
        let ok = text.withUTF8 { buffer -> Bool in
            guard bytes.count + buffer.count <= Self.maximumBytes else { return false }
            deadBytes += length(at: index)
            starts[index] = UInt32(truncatingIfNeeded: bytes.count)
            setLength(buffer.count, at: index)
            bytes.append(contentsOf: buffer)
            return true
        }
        guard ok else { return false }
        kinds[index] = cell.kind
        payloads[index] = cell.payload
        note(cell)
        compactIfWasteful()
        checkInvariants()
        return true
    }

    mutating func remove(at index: Int) {
        materializePayloads()
        forget(index)
        deadBytes += length(at: index)
        starts.remove(at: index)
        longLengths[index] = nil
        lengths.remove(at: index)
        shiftLongLengths(from: index + 1, by: -1)
        kinds.remove(at: index)
        payloads.remove(at: index)
        compactIfWasteful()
        checkInvariants()
    }

    private mutating func compactIfWasteful() {
        guard deadBytes > 4096, deadBytes * 2 > bytes.count else { return }
        var packed = [UInt8]()
        packed.reserveCapacity(bytes.count - deadBytes)
        for i in starts.indices {
            let start = Int(starts[i]), length = length(at: i)
            starts[i] = UInt32(truncatingIfNeeded: packed.count)
            packed.append(contentsOf: bytes[start..<(start + length)])
        }
        bytes = packed
        deadBytes = 0
    }

    /// The payload of the cell at `index` (none is stored for a column whose payloads are all zero).
    @inline(__always)
    package func payload(at index: Int) -> UInt64 { payloads.isEmpty ? 0 : payloads[index] }

    /// Stores the zeros a column without payloads stands for, before a change.
    private mutating func materializePayloads() {
        guard payloads.isEmpty, !kinds.isEmpty else { return }
        var zeros = PodArray<UInt64>()
        zeros.reserveCapacity(kinds.count)
        for _ in 0..<kinds.count { zeros.append(0) }
        payloads = zeros
    }

    /// The kinds of the cells, as an array.
    package var kindArray: [CellKind] { Array(kinds) }

    /// The kind of the cell at `index`.
    package func kind(at index: Int) -> CellKind { kinds[index] }

    /// Calls `body` with the cell's UTF-8 text.
    @inline(__always)
    package func withText<R>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let start = Int(starts[index]), length = length(at: index)
        return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<(start + length)])) }
    }

    package func text(at index: Int) -> String {
        withText(at: index) { String(decoding: $0, as: UTF8.self) }
    }

    package func cell(at index: Int) -> ClassifiedCell {
        ClassifiedCell(kind: kinds[index], payload: payload(at: index), fractionDigits: 0)
    }

    /// The type most of the column's cells have.
    var inferredType: ColumnType { census.type }

    /// Calls `body` with unsafe views of the column's storage, for one pass of reading.
    package func withView<R>(_ body: (CellBytesView) -> R) -> R { withView(uniformity: true, body) }

    /// ``withView(_:)``, saying (`uniformity`) whether the view says if every cell aligns alike
    /// and is a number alike (one pass over the kinds first), for a reader of every cell; a
    /// reader of some cells (one group's) asks each cell.
    package func withView<R>(uniformity: Bool, _ body: (CellBytesView) -> R) -> R {
        bytes.withUnsafeBufferPointer { b in
            starts.withUnsafeBufferPointer { s in
                lengths.withUnsafeBufferPointer { l in
                    kinds.withUnsafeBufferPointer { k in
                        // One sequential pass, so that a column of one alignment reads no kind per cell
                        // (none for a reader of some cells).
                        var right = 0, left = 0, numbers = 0
                        for kind in uniformity ? k : UnsafeBufferPointer(rebasing: k[0..<0]) {
                            switch kind {
                            case .integer, .decimal, .approximate: right += 1; numbers += 1
                            case .date: right += 1
                            case .missing: break
                            default: left += 1
                            }
                        }
                        let alignment: Bool? = !uniformity ? nil : left == 0 ? true : (right == 0 ? false : nil)
                        let number: Bool? = !uniformity ? nil : numbers == k.count ? true : (numbers == 0 ? false : nil)
                        return body(
                            CellBytesView(
                                bytes: b, starts: s, lengths: l, longLengths: longLengths, kinds: k,
                                uniformRight: alignment, uniformNumber: number))
                    }
                }
            }
        }
    }
}

/// A column's cells seen through unsafe pointers, valid inside ``ColumnStore/withView(_:)``:
/// how renderers write a million rows without a copy or a retain per cell.
package struct CellBytesView {
    let bytes: UnsafeBufferPointer<UInt8>
    let starts: UnsafeBufferPointer<UInt32>
    let lengths: UnsafeBufferPointer<UInt8>
    let longLengths: [Int: UInt32]
    let kinds: UnsafeBufferPointer<CellKind>
    /// Whether every cell aligns right (`true`) or none does (`false`); `nil` when they differ.
    /// Blank cells go either way.
    let uniformRight: Bool?
    /// Whether every cell is a number (`true`) or none is (`false`); `nil` when they differ.
    let uniformNumber: Bool?

    /// The text of the cell at `row`.
    @inline(__always)
    package func text(_ row: Int) -> UnsafeBufferPointer<UInt8> {
        guard let base = bytes.baseAddress else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: base + Int(starts[row]), count: ColumnStore.length(lengths[row], longLengths, at: row))
    }

    /// Whether the cell at `row` is a number or a date (aligned to the right).
    @inline(__always)
    package func alignsRight(_ row: Int) -> Bool {
        if let uniformRight { return uniformRight }
        let kind = kinds[row]
        return kind.isNumber || kind == .date
    }

    /// Whether the cell at `row` is a number.
    @inline(__always)
    package func isNumber(_ row: Int) -> Bool { uniformNumber ?? kinds[row].isNumber }
}

/// Cells gathered while a file is read, in memory the builder owns: appending a cell is four
/// stores, with no copy-on-write check per array (what a million-row file would otherwise pay
/// twenty million times). ``ColumnStore/init(_:shared:reading:)`` takes them over.
final class ColumnBuilder {
    private(set) var count = 0
    private var capacity: Int
    private(set) var starts: UnsafeMutablePointer<UInt32>
    private(set) var lengths: UnsafeMutablePointer<UInt8>
    /// The lengths of the texts of ``ColumnStore/longLength`` bytes or more, by cell.
    private(set) var longLengths: [Int: UInt32] = [:]
    private(set) var kinds: UnsafeMutablePointer<CellKind>
    /// Made only when a cell has a payload other than zero (a text column has none).
    private(set) var payloads: UnsafeMutablePointer<UInt64>?
    private(set) var widestFraction: UInt8 = 0
    /// Whether a cell read as text starts with a digit (it may be a date of another order).
    var sawTextStartingWithDigit = false

    init(capacity: Int) {
        self.capacity = max(16, capacity)
        starts = LargeBuffers.allocate(capacity: self.capacity)
        lengths = LargeBuffers.allocate(capacity: self.capacity)
        kinds = LargeBuffers.allocate(capacity: self.capacity)
    }

    /// The payload buffer, made (with zeros for the cells so far) if it was not.
    private func payloadBuffer() -> UnsafeMutablePointer<UInt64> {
        if let payloads { return payloads }
        let made = LargeBuffers.allocate(UInt64.self, capacity: capacity)
        made.initialize(repeating: 0, count: count)
        payloads = made
        return made
    }

    private var taken = false

    deinit {
        guard !taken else { return }
        starts.deallocate()
        lengths.deallocate()
        kinds.deallocate()
        payloads?.deallocate()
    }

    /// The cells, as arrays that now own the builder's memory.
    func take() -> (PodArray<UInt32>, PodArray<UInt8>, [Int: UInt32], PodArray<CellKind>, PodArray<UInt64>) {
        precondition(!taken)
        taken = true
        return (
            PodArray(adopting: starts, count: count, capacity: capacity),
            PodArray(adopting: lengths, count: count, capacity: capacity),
            longLengths,
            PodArray(adopting: kinds, count: count, capacity: capacity),
            payloads.map { PodArray(adopting: $0, count: count, capacity: capacity) } ?? PodArray()
        )
    }

    @inline(__always)
    func append(start: Int, length: Int, _ cell: ClassifiedCell) {
        if count == capacity { grow() }
        starts[count] = UInt32(truncatingIfNeeded: start)
        lengths[count] = ColumnStore.lengthByte(length)
        if length >= ColumnStore.longLength { longLengths[count] = UInt32(truncatingIfNeeded: length) }
        kinds[count] = cell.kind
        if let payloads { payloads[count] = cell.payload } else if cell.payload != 0 { payloadBuffer()[count] = cell.payload }
        count += 1
        if cell.fractionDigits > widestFraction, cell.kind.isNumber { widestFraction = cell.fractionDigits }
    }

    /// Moves `other`'s cells onto the end of this builder's, leaving `other` empty: its memory
    /// is given back to the system as it is copied, so that the two halves of a file read at
    /// once are not held twice. Texts at or past `threshold` (in the side buffer) move by `shift`.
    func append(draining other: ColumnBuilder, shiftingFrom threshold: Int, by shift: Int) {
        sawTextStartingWithDigit = sawTextStartingWithDigit || other.sawTextStartingWithDigit
        while capacity < count + other.count { grow() }
        LargeBuffers.copyReleasing(from: other.kinds, to: kinds + count, count: other.count)
        if let theirs = other.payloads {
            LargeBuffers.copyReleasing(from: theirs, to: payloadBuffer() + count, count: other.count)
        } else if let payloads {
            (payloads + count).initialize(repeating: 0, count: other.count)
        }
        LargeBuffers.copyReleasing(from: other.lengths, to: lengths + count, count: other.count)
        for (cell, length) in other.longLengths { longLengths[count + cell] = length }
        other.longLengths = [:]
        if shift != 0 {
            for k in 0..<other.count {
                let start = other.starts[k]
                other.starts[k] = Int(start) >= threshold ? start + UInt32(shift) : start
            }
        }
        LargeBuffers.copyReleasing(from: other.starts, to: starts + count, count: other.count)
        count += other.count
        other.count = 0
        if other.widestFraction > widestFraction { widestFraction = other.widestFraction }
    }

    private func grow() {
        let bigger = capacity * 2
        func move<T>(_ old: UnsafeMutablePointer<T>) -> UnsafeMutablePointer<T> {
            let new = LargeBuffers.allocate(T.self, capacity: bigger)
            new.moveInitialize(from: old, count: count)
            old.deallocate()
            return new
        }
        starts = move(starts)
        lengths = move(lengths)
        kinds = move(kinds)
        payloads = payloads.map(move)
        capacity = bigger
    }
}
