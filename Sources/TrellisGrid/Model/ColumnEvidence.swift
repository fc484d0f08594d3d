import Foundation

/// Whether a column's present cells are identifiers of one length (see
/// ``ColumnStore/isIdentifierColumn()``), as far as one part of a file shows.
struct IdentifierEvidence: Sendable, Equatable {
    /// Every present cell is an identifier's digits, a letter last in a text.
    var fits: Bool
    /// Their length, -1 when no cell was present.
    var length: Int

    /// Whether a column's kinds of cells allow identifiers: integers, some texts (at most as many),
    /// nothing else.
    static func countsAllow(_ census: KindCensus) -> Bool {
        census.integers > 0 && census.texts > 0 && census.texts <= census.integers && census.decimals == 0
            && census.dates == 0 && census.booleans == 0
    }
}

/// What one part of a CSV file showed about a column: the evidence a whole file's reading
/// decides its dates' order, its identifiers and its type by.
struct ColumnEvidence: Sendable {
    /// The dates whose year comes last (see ``ColumnStore/yearLastDates()``), when the column was
    /// looked at for them.
    var dates: (dayFirst: Int, monthFirst: Int, either: Int, example: String?)?
    /// The kinds of cells, after the part's own reading of its dates.
    var census = KindCensus()
    var identifier = IdentifierEvidence(fits: false, length: -1)

    init() {}

    /// The evidence of two parts, this one first.
    func merged(with other: ColumnEvidence) -> ColumnEvidence {
        var result = ColumnEvidence()
        switch (dates, other.dates) {
        case (nil, nil): result.dates = nil
        case (let a?, nil): result.dates = a
        case (nil, let b?): result.dates = b
        case (let a?, let b?):
            result.dates = (a.dayFirst + b.dayFirst, a.monthFirst + b.monthFirst, a.either + b.either, a.example ?? b.example)
        }
        result.census = KindCensus(
            integers: census.integers + other.census.integers, decimals: census.decimals + other.census.decimals,
            dates: census.dates + other.census.dates, booleans: census.booleans + other.census.booleans,
            texts: census.texts + other.census.texts)
        let lengths = [identifier.length, other.identifier.length].filter { $0 >= 0 }
        result.identifier = IdentifierEvidence(
            fits: identifier.fits && other.identifier.fits && Set(lengths).count <= 1,
            length: lengths.first ?? -1)
        return result
    }

    /// What the whole file decides, read as ``CSV/table(bytes:types:encoding:delimiter:headerRow:dateOrder:)``
    /// decides it for a file read at once.
    var decision: ColumnDecision {
        var decision = ColumnDecision()
        if let dates, dates.dayFirst > 0, dates.monthFirst == 0 { decision.dayFirst = true }
        decision.identifier = identifier.fits && IdentifierEvidence.countsAllow(census)
        return decision
    }

    /// The note a file read at once gives about the column's dates, if any.
    func dateNote(column: String) -> DateOrderNote? {
        guard let dates, !(dates.dayFirst > 0 && dates.monthFirst == 0),
            dates.dayFirst > 0 || (dates.either > 0 && dates.monthFirst == 0)
        else { return nil }
        return DateOrderNote(column: column, example: dates.example ?? "", mixed: dates.dayFirst > 0)
    }
}

/// How a whole file reads a column, given to each of its parts read on its own: day first for its
/// dates whose year comes last, and whether it holds identifiers (text, in byte order).
struct ColumnDecision: Sendable, Hashable {
    var dayFirst = false
    var identifier = false

    init(dayFirst: Bool = false, identifier: Bool = false) {
        self.dayFirst = dayFirst
        self.identifier = identifier
    }
}
