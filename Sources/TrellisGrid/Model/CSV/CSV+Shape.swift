import Foundation
import TrellisText

/// The shape of a table as its fields are read: the header and its columns' identifiers, each
/// column's cells typed as they come.
extension CSV {
    /// Builds a table from the fields of a file as they are read.
    struct TableLoader: CSVSink {
        let types: [String: ColumnType]
        let inputCount: Int
        var header: [String] = []
        /// The cells of a header's lines above the one read as its header (see
        /// ``CSV/headerBlockNames(above:last:)``); empty for a header of one line.
        var headerAbove: [[String]] = []
        /// The columns' unique identifiers (see ``CSV/identifiers(of:)``).
        var identifiers: [String] = []
        /// The first of the trailing columns without a name, which a row may leave out.
        var unnamedTail = 0
        var readAs: [CellReading] = []
        /// How the file's cells are read, but for their types (a `;` file's decimal comma, a date order).
        let reading: CellReading
        var builders: [ColumnBuilder] = []
        /// The builders, unretained, for the per-field path (``builders`` keeps them alive).
        var builderRefs: [Unmanaged<ColumnBuilder>] = []
        var column = 0
        var recordLine = 1
        var lineBreak: [UInt8]?
        var side: [UInt8] = []
        var records = RawRecords()
        var risky = false
        /// Whether the header has been read; with `headerOnly`, reading stops there.
        var pastHeader = false
        let headerOnly: Bool
        /// Where the first record after the header starts.
        var bodyStart: Int?
        /// Which columns to read, asked once the header is read.
        let selection: ColumnSelection?
        /// Whether each column is read (empty: every one); the others are left in the records.
        var kept: [Bool] = []
        /// The mapped file the records are left in, whose cells read are copied to ``side``
        /// (``inputCount`` is then 0) and which is let go of behind the reading.
        let mapped: MappedFile?
        /// Where in the file the reading has not let go of yet, and where it has not asked the
        /// system to map the pages ahead of it (``MappedFile/prepare(_:)``) from.
        var unreleased = 0
        var unprepared = 0

        init(
            types: [String: ColumnType], inputCount: Int, reading: CellReading, headerOnly: Bool = false,
            columns: ColumnSelection? = nil, mapped: MappedFile? = nil
        ) {
            self.reading = reading
            self.types = types
            self.inputCount = inputCount
            self.headerOnly = headerOnly
            selection = columns
            self.mapped = mapped
        }

        /// Whether column `c`'s cells are read.
        @inline(__always)
        func keeps(_ c: Int) -> Bool { kept.isEmpty || kept[c] }

        /// A loader for part of the body of the file whose header `header` read, the part starting
        /// at `start`; with a mapped file, room is reserved for `cellBytes` bytes of cells copied
        /// out (pages untouched until written).
        init(continuing header: TableLoader, estimatedRecords: Int, from start: Int, cellBytes: Int) {
            mapped = header.mapped
            unreleased = start
            unprepared = start
            if mapped != nil { side = [UInt8](largeCapacity: cellBytes) }
            types = header.types
            inputCount = header.inputCount
            headerOnly = false
            reading = header.reading
            self.header = header.header
            identifiers = header.identifiers
            unnamedTail = header.unnamedTail
            readAs = header.readAs
            selection = header.selection
            kept = header.kept
            lineBreak = header.lineBreak
            pastHeader = true
            records.header = header.records.header
            records.headerRisky = header.records.headerRisky
            records.gap = header.records.gap
            records.reserve(estimatedRecords)
            makeBuilders(estimatedRecords)
        }

        private mutating func makeBuilders(_ capacity: Int) {
            builders = header.indices.map { ColumnBuilder(capacity: keeps($0) ? capacity : 0) }
            builderRefs = builders.map { .passUnretained($0) }
        }

        /// Moves onto this loader's cells and records those another loader read after them; the
        /// other is left without them (its memory given back as they are copied).
        mutating func append(draining other: inout TableLoader) {
            for (mine, theirs) in zip(builders, other.builders) {
                mine.append(draining: theirs, shiftingFrom: inputCount, by: side.count)
            }
            records.append(draining: &other.records)
            side += other.side
            other.side = []
        }

        @inline(__always)
        mutating func field(_ field: UnsafeBufferPointer<UInt8>, last isLast: Bool, _ reader: inout Position) throws(CSVError) -> Bool {
            if let first = field.first,
                first == 0x3D || first == 0x2B || first == 0x2D || first == 0x40 || first == 0x09
                    || first == 0x0D, looksLikeFormula(field)
            {
                risky = true
            }
            guard pastHeader else {
                try takeHeader(field, isLast, &reader)
                return !(pastHeader && headerOnly)
            }
            if column == 0 { recordLine = reader.recordLine }
            if column < builderRefs.count, keeps(column) {
                let cell = CellText.classify(field, readAs[column])
                let builder = builderRefs[column]
                // Text that starts with a digit may be a day-first date (25/12/2023), which the
                // column's reading looks at once the file is read.
                if cell.kind == .text, let first = field.first, (first &- 48) < 10 {
                    builder._withUnsafeGuaranteedRef { $0.sawTextStartingWithDigit = true }
                }
                if mapped == nil, let offset = reader.fieldOffset {
                    builder._withUnsafeGuaranteedRef { $0.append(start: offset, length: field.count, cell) }
                } else {
                    let start = inputCount + side.count
                    builder._withUnsafeGuaranteedRef { $0.append(start: start, length: field.count, cell) }
                    side.append(contentsOf: field)
                }
            }
            column += 1
            if isLast {
                if column < header.count, column >= unnamedTail {
                    // Trailing columns without a name, left out (as Excel does past a sheet's 16th
                    // row): blank cells, the record kept as it is.
                    for c in column..<header.count where keeps(c) {
                        builderRefs[c]._withUnsafeGuaranteedRef { $0.append(start: reader.recordEnd, length: 0, .missing) }
                    }
                    column = header.count
                }
                guard column == header.count else {
                    throw CSVError(line: recordLine, column: 1, problem: .wrongFieldCount(found: column, expected: header.count))
                }
                records.append(reader.recordStart..<reader.recordEnd, risky: risky)
                risky = false
                column = 0
                if let mapped, reader.recordEnd - unreleased > mapped.readingStep || reader.recordEnd >= unprepared {
                    if reader.recordEnd - unreleased > mapped.readingStep {
                        mapped.release(unreleased..<reader.recordEnd)
                        unreleased = reader.recordEnd
                    }
                    if reader.recordEnd >= unprepared {
                        unprepared = reader.recordEnd + mapped.readingStep
                        mapped.prepare(reader.recordEnd..<unprepared)
                    }
                }
            }
            return true
        }

        private mutating func takeHeader(_ field: UnsafeBufferPointer<UInt8>, _ isLast: Bool, _ reader: inout Position) throws(CSVError) {
            header.append(String(decoding: field, as: UTF8.self))
            guard isLast else { return }
            pastHeader = true
            lineBreak = reader.lineBreak
            bodyStart = reader.nextRecordStart
            let names = headerAbove.isEmpty ? header : CSV.headerBlockNames(above: headerAbove, last: header)
            identifiers = CSV.identifiers(of: names)
            try checkHeader(header, identifiers: identifiers, types: types)
            unnamedTail = (names.lastIndex { !$0.isEmpty } ?? -1) + 1
            // A column of a header of several lines is shown by all of its names (its last
            // line is written back as it was, from its record).
            header = names
            if let selection, let chosen = selection(header.indices.map { Column(identifiers[$0], title: header[$0], type: .text) }) {
                kept = header.indices.map { chosen.contains($0) }
            }
            readAs = identifiers.map { identifier in
                var reading = reading
                reading.type = types[identifier]
                return reading
            }
            if !headerOnly { makeBuilders(reader.estimatedRecords) }
            records.header = reader.recordStart..<reader.recordEnd
            records.headerRisky = risky
            records.gap = reader.lineBreak?.count ?? 1
            records.reserve(reader.estimatedRecords)
            risky = false
        }

        mutating func finish(_ owner: TextOwner, decisions: [ColumnDecision]? = nil, gatherEvidence: Bool = false) throws(CSVError) -> Table {
            guard inputCount + side.count < Int(UInt32.max) else {
                throw CSVError(line: 1, column: 1, problem: .fileTooLarge)
            }
            if header.isEmpty {
                throw CSVError(line: 1, column: 1, problem: .emptyFile)
            }
            var shared: [UInt8]
            switch owner {
            case .array(let input):
                shared = input
                if !side.isEmpty { shared.append(contentsOf: side) }
            case .mapped(let file):
                // The cells read are all in the side buffer; the records stay in the file, none
                // of whose pages is kept (the last stretches read, the header's).
                shared = side
                side = []
                records.mapped = file
                file.releaseAll()
            }
            var stores = builders.indices.map { c in
                keeps(c) ? ColumnStore(builders[c], shared: shared, reading: readAs[c]) : ColumnStore(hollowRows: records.count)
            }
            // Dates whose year comes last (3/1/2024) are read month first unless told: a column
            // whose dates can only be day first (25/12/2023) and never only month first is read so.
            var dateNotes: [DateOrderNote] = []
            let decided = decisions.flatMap { $0.count == stores.count ? $0 : nil }
            var evidence = gatherEvidence ? stores.map { _ in ColumnEvidence() } : []
            for c in stores.indices
            where keeps(c) && readAs[c].dateOrder == nil && (readAs[c].type == nil || readAs[c].type == .date)
                && (decided != nil || stores[c].census.dates > 0 || builders[c].sawTextStartingWithDigit)
            {
                if let decided {
                    if decided[c].dayFirst {
                        var reading = readAs[c]
                        reading.dateOrder = .dmy
                        stores[c].reread(reading)
                    }
                    continue
                }
                let found = stores[c].yearLastDates()
                if gatherEvidence { evidence[c].dates = found }
                if found.dayFirst > 0 && found.monthFirst == 0 {
                    var reading = readAs[c]
                    reading.dateOrder = .dmy
                    stores[c].reread(reading)
                } else if found.dayFirst > 0 || (found.either > 0 && found.monthFirst == 0) {
                    let example = found.example ?? ""
                    dateNotes.append(DateOrderNote(column: identifiers[c], example: example, mixed: found.dayFirst > 0))
                }
            }
            // Identifiers of one length, a few with a letter last (身份证号 ending in the check
            // digit X): one run of text in byte order, not numbers with texts after them.
            var identifierColumns = Set<Int>()
            if gatherEvidence {
                for c in stores.indices where keeps(c) && readAs[c].type == nil {
                    evidence[c].census = stores[c].census
                    evidence[c].identifier = stores[c].identifierEvidence()
                }
            }
            for c in stores.indices where keeps(c) && readAs[c].type == nil && (decided.map { $0[c].identifier } ?? stores[c].isIdentifierColumn()) {
                var reading = readAs[c]
                reading.type = .text
                stores[c].reread(reading)
                identifierColumns.insert(c)
            }
            builderRefs = []
            builders = []
            if case .array = owner { records.bytes = shared }
            let columns = header.indices.map { c in
                !keeps(c)
                    ? Column(identifiers[c], title: header[c], type: .text)
                    : identifierColumns.contains(c)
                        ? Column(identifiers[c], title: header[c], type: .text, textComparator: .lexical)
                        : Column(identifiers[c], title: header[c], type: types[identifiers[c]] ?? stores[c].inferredType)
            }
            let table = Table(columns: columns, stores: stores)
            table.dateNotes = dateNotes
            if gatherEvidence { table.columnEvidence = evidence }
            if let lineBreak { table.lineBreak = lineBreak }
            table.rawRecords = records
            return table
        }
    }

    static func checkHeader(_ header: [String], identifiers: [String], types: [String: ColumnType]) throws(CSVError) {
        if header.count == 1 && header[0].isEmpty {
            throw CSVError(line: 1, column: 1, problem: .emptyFile)
        }
        let known = Set(identifiers)
        for name in types.keys.sorted() where !known.contains(name) {
            throw CSVError(line: 1, column: 1, problem: .unknownColumn(name, columns: identifiers))
        }
    }

    /// Unique identifiers for the columns of a header whose names may repeat or be empty: a
    /// name is its first column's identifier; a later column of the same name is `NAME#2`,
    /// `NAME#3`…; a column without a name is `#N`, N its place from 1. A made identifier that
    /// is already some column's name gets `#N` (and then `#N#2`…) instead.
    public static func identifiers(of header: [String]) -> [String] {
        var used = Set<String>()
        var identifiers = [String?](repeating: nil, count: header.count)
        // Names first: a column's own name is never taken by a made identifier.
        for (c, name) in header.enumerated() where !name.isEmpty && used.insert(name).inserted { identifiers[c] = name }
        var occurrences: [String: Int] = [:]
        for (c, name) in header.enumerated() {
            occurrences[name, default: 0] += 1
            guard identifiers[c] == nil else { continue }
            var candidates = name.isEmpty ? [] : ["\(name)#\(occurrences[name]!)"]
            candidates.append("#\(c + 1)")
            var made = candidates.first { !used.contains($0) }
            var k = 2
            while made == nil {
                if !used.contains("#\(c + 1)#\(k)") { made = "#\(c + 1)#\(k)" }
                k += 1
            }
            used.insert(made!)
            identifiers[c] = made
        }
        return identifiers.map { $0! }
    }
}
