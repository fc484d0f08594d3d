import Foundation
import TrellisText

/// A sort written as ADO.NET's `DataView.Sort` and `BindingSource.Sort` write it:
/// `"分数 DESC, 组号 ASC"` — keys separated by commas, each a column name and an optional `ASC`
/// or `DESC` (any case; ascending when left out). A name with spaces, commas or brackets goes in
/// brackets, `]` doubled inside: `[Final score] DESC`.
///
/// ```swift
/// try grid.sort(by: SortString.parse("分数 DESC, 组号 ASC", columns: grid.columns.map(\.identifier)))
/// SortString.write(grid.sortKeys)   // "分数 DESC, 组号 ASC"
/// ```
public enum SortString {
    /// A sort string that cannot be read: what is wrong and where (a 1-based character position).
    public struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        public var position: Int
        public var message: String
        public var description: String { "sort string, character \(position): \(message)" }
    }

    /// The keys `text` names, each checked against `columns` (identifiers); an empty or blank
    /// string is no keys (no sort).
    public static func parse(_ text: String, columns: [String]) throws(ParseError) -> [SortKey] {
        let scalars = Array(text.unicodeScalars)
        var i = 0
        var keys: [SortKey] = []
        func skipSpaces() { while i < scalars.count, scalars[i].properties.isWhitespace { i += 1 } }
        func fail(_ message: String) -> ParseError { ParseError(position: i + 1, message: message) }
        skipSpaces()
        if i == scalars.count { return [] }
        while true {
            skipSpaces()
            let start = i
            var name = ""
            if i < scalars.count, scalars[i] == "[" {
                i += 1
                var closed = false
                while i < scalars.count {
                    if scalars[i] == "]" {
                        if i + 1 < scalars.count, scalars[i + 1] == "]" { name.unicodeScalars.append("]"); i += 2; continue }
                        i += 1
                        closed = true
                        break
                    }
                    name.unicodeScalars.append(scalars[i])
                    i += 1
                }
                guard closed else { i = start; throw fail("a bracketed column name is never closed; add ']'") }
            } else {
                // Up to a comma; a last word ASC or DESC is the direction.
                while i < scalars.count, scalars[i] != "," { name.unicodeScalars.append(scalars[i]); i += 1 }
                i = start + name.unicodeScalars.count
                name = name.trimmingSpaces()
                var direction: SortDirection?
                if let space = name.lastIndex(where: { $0.isWhitespace }) {
                    let word = name[name.index(after: space)...].uppercased()
                    if word == "ASC" || word == "DESC" {
                        direction = word == "ASC" ? .ascending : .descending
                        name = String(name[..<space]).trimmingSpaces()
                    }
                }
                guard !name.isEmpty else { i = start; throw fail("a key without a column name; write 'column [ASC|DESC]'") }
                guard columns.contains(name) else {
                    // `分数 DOWN`: a column, then a word that is no direction.
                    if direction == nil, let space = name.lastIndex(where: { $0.isWhitespace }),
                        columns.contains(String(name[..<space]).trimmingSpaces())
                    {
                        let word = String(name[name.index(after: space)...])
                        i = start + name.unicodeScalars.count - word.unicodeScalars.count
                        throw fail("'\(Excerpt.of(word))' is not a direction; write ASC or DESC")
                    }
                    i = start
                    throw fail(unknown(name, columns))
                }
                keys.append(SortKey(name, direction ?? .ascending))
                skipSpaces()
                if i == scalars.count { return keys }
                i += 1  // the comma
                continue
            }
            guard columns.contains(name) else { i = start; throw fail(unknown(name, columns)) }
            skipSpaces()
            var word = ""
            while i < scalars.count, scalars[i] != ",", !scalars[i].properties.isWhitespace { word.unicodeScalars.append(scalars[i]); i += 1 }
            switch word.uppercased() {
            case "", "ASC": keys.append(SortKey(name, .ascending))
            case "DESC": keys.append(SortKey(name, .descending))
            default: i -= word.unicodeScalars.count; throw fail("'\(Excerpt.of(word))' is not a direction; write ASC or DESC")
            }
            skipSpaces()
            if i == scalars.count { return keys }
            guard scalars[i] == "," else { throw fail("expected a comma between keys") }
            i += 1
        }
    }

    /// `keys` as a sort string: names in brackets where they need them, `ASC` or `DESC` each.
    /// Comparators and null placements are not part of a sort string and are left out.
    public static func write(_ keys: [SortKey]) -> String {
        keys.map { key in
            let plain = !key.column.isEmpty && !key.column.contains(where: { $0 == "," || $0 == "[" || $0 == "]" || $0.isWhitespace })
            let name = plain ? key.column : "[" + key.column.replacingOccurrences(of: "]", with: "]]") + "]"
            return name + (key.direction == .ascending ? " ASC" : " DESC")
        }.joined(separator: ", ")
    }

    private static func unknown(_ name: String, _ columns: [String]) -> String {
        "no column named '\(Excerpt.of(name))'; the columns are " + columns.prefix(20).map { "'\(Excerpt.of($0))'" }.joined(separator: ", ")
    }
}

/// Which way a grid is sorted by its first key, as DataGridView's `SortOrder` says (named apart
/// from Foundation's `SortOrder`, which a file importing both would otherwise find ambiguous).
public enum GridSortOrder: String, Sendable {
    case none, ascending, descending
}

extension DataGrid {
    /// Sorts by a sort string (`"分数 DESC, 组号 ASC"`, as `BindingSource.Sort` takes it); an empty
    /// string removes the sort. Nothing changes when the string cannot be read.
    public func sort(_ sortString: String) throws(SortString.ParseError) {
        let keys = try SortString.parse(sortString, columns: columns.map(\.identifier))
        if keys.isEmpty { removeSort(); return }
        do { try sort(by: keys) } catch { throw SortString.ParseError(position: 1, message: error.description) }
    }

    /// The sort as a sort string (`BindingSource.Sort`'s getter): empty when unsorted.
    public var sortString: String { SortString.write(sortKeys) }

    /// The column of the first sort key (DataGridView's `SortedColumn`), or `nil` when the grid is
    /// not sorted by keys.
    public var sortedColumn: Column? {
        guard let first = sortKeys.first else { return nil }
        return columns.first { $0.identifier == first.column }
    }

    /// The direction of the first sort key (DataGridView's `SortOrder`): `none` when unsorted or
    /// ordered by a whole-row comparator.
    public var sortOrder: GridSortOrder {
        guard let first = sortKeys.first else { return .none }
        return first.direction == .ascending ? .ascending : .descending
    }
}
