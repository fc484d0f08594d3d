import Foundation
import TrellisGrid

/// Windows of a PostgreSQL table in a sort the server runs, for tables too large to hold an order
/// of in the client: pages follow one another by keyset pagination over (sort keys…, the table's
/// key), correct with NULLs and mixed directions, never an `OFFSET` scan; a jump to a position
/// reads a rank the server computed once for the sort (a temporary table, which a read-only role
/// may create).
///
/// ```swift
/// let windows = try PostgreSQLSortedWindows(source: source, keys: [SortKey("分数", .descending)])
/// let first = try windows.rows(at: 0, count: 100)           // by rank
/// let next = try windows.rows(after: first.last!, count: 100) // by keyset, from the last row seen
/// ```
///
/// The keys must be ones the server orders as the grid does (number columns, the standard
/// comparator: see ``PostgreSQLTableSource/sortsOnServer``); others are refused.
public final class PostgreSQLSortedWindows {
    /// One row of a window: its cells, and what the next page starts after.
    public struct Row: Sendable {
        public var values: [CellValue]
        public var texts: [String]
        /// The sort keys' values and the table's key, as the server writes them.
        public var cursor: [String?]
    }

    public let source: PostgreSQLTableSource
    public let keys: [SortKey]
    private let expressions: [String]
    private let types: [String]
    private let order: String
    private let rankTable: String
    /// The number of rows in the sort.
    public let count: Int

    public init(source: PostgreSQLTableSource, keys: [SortKey]) throws(PostgreSQLError) {
        guard let order = source.orderBy(keys) else {
            throw PostgreSQLError(
                message: "the server cannot order these keys as the grid does; sort number columns by the "
                    + "standard comparator on the server, others in the grid")
        }
        self.source = source
        self.keys = keys
        self.order = order
        var expressions: [String] = [], types: [String] = []
        for key in keys {
            let c = source.columns.firstIndex { $0.identifier == key.column }!
            expressions.append(source.sortExpression(column: c))
            types.append(source.sqlType(column: c))
        }
        expressions.append(source.keyColumn)
        types.append(source.keyTypeName)
        self.expressions = expressions
        self.types = types
        rankTable = "trellis_rank_\(UInt32.random(in: 0...UInt32.max))"
        let table = PostgreSQLConnection.quote(source.table)
        _ = try source.connection.query(
            "CREATE TEMPORARY TABLE \(rankTable) AS SELECT \(source.keyColumn) AS k, "
                + "row_number() OVER (ORDER BY \(order)) - 1 AS rank FROM \(table)")
        _ = try source.connection.query("CREATE INDEX ON \(rankTable) (rank)")
        _ = try source.connection.query("CREATE INDEX ON \(rankTable) (k)")
        count = Int(try source.connection.query("SELECT count(*) FROM \(rankTable)").text(0, 0)) ?? 0
    }

    deinit { _ = try? source.connection.query("DROP TABLE IF EXISTS \(rankTable)") }

    private var selectList: String {
        // The cursor's columns named apart, so that ORDER BY reads the table's columns.
        (source.columns.map { PostgreSQLConnection.quote($0.identifier) }
            + expressions.enumerated().map { "(\($1))::text AS trellis_cursor_\($0)" })
            .joined(separator: ", ")
    }

    private func rows(_ result: PostgreSQLResult, offset: Int) -> [Row] {
        let width = source.columns.count
        return (0..<result.rowCount).map { r in
            Row(
                values: (0..<width).map { source.read(result.cell(r, $0 + offset), column: $0) },
                texts: (0..<width).map { result.isNull(r, $0 + offset) ? "" : result.text(r, $0 + offset) },
                cursor: (0..<expressions.count).map { result.isNull(r, width + offset + $0) ? nil : result.text(r, width + offset + $0) })
        }
    }

    /// `count` rows from `position` in the sort, by the rank computed once.
    public func rows(at position: Int, count: Int) throws(PostgreSQLError) -> [Row] {
        let table = PostgreSQLConnection.quote(source.table)
        // The rows whose rank is in range, in the sort's own order (which is the rank's).
        let result = try source.connection.query(
            """
            SELECT \(selectList) FROM \(table) WHERE \(source.keyColumn) = ANY (SELECT k FROM \(rankTable)
            WHERE rank >= $1 AND rank < $2) ORDER BY \(order)
            """, [String(max(0, position)), String(max(0, position) + max(0, count))])
        return rows(result, offset: 0)
    }

    /// The `count` rows that follow `row` in the sort: from its rank when the rank table holds
    /// it (an index lookup), by keyset pagination over the sort keys and the table's key otherwise
    /// (a row deleted since the sort was ranked).
    public func rows(after row: Row, count: Int) throws(PostgreSQLError) -> [Row] {
        if let key = row.cursor.last ?? nil {
            let ranked = try source.connection.query("SELECT rank FROM \(rankTable) WHERE k = $1::\(types[types.count - 1])", [key])
            if ranked.rowCount == 1, let rank = Int(ranked.text(0, 0)) { return try rows(at: rank + 1, count: count) }
        }
        return try keysetRows(after: row, count: count)
    }

    /// The `count` rows that follow `row` by keyset pagination: the rows after it on the sort keys
    /// and then the table's key, with NULLs placed as the keys say, in either direction.
    public func keysetRows(after row: Row, count: Int) throws(PostgreSQLError) -> [Row] {
        var parameters: [String?] = []
        func parameter(_ value: String?, _ type: String) -> String {
            parameters.append(value)
            return "$\(parameters.count)::\(type)"
        }
        // Row r comes after the cursor when, for some key i, it equals the cursor on every key
        // before i and comes after it on key i; the table's key breaks the last tie.
        var disjuncts: [String] = []
        for i in expressions.indices {
            var terms: [String] = []
            for j in 0..<i {
                terms.append("(\(expressions[j])) IS NOT DISTINCT FROM \(parameter(row.cursor[j], types[j]))")
            }
            let e = "(\(expressions[i]))"
            if i == expressions.count - 1 {
                terms.append("\(e) > \(parameter(row.cursor[i], types[i]))")
            } else {
                let key = keys[i]
                let descending = key.direction == .descending
                let nullsFirst = key.nulls.missingFirst(descending: descending)
                if let value = row.cursor[i] {
                    let beyond = "\(e) \(descending ? "<" : ">") \(parameter(value, types[i]))"
                    terms.append(nullsFirst ? beyond : "(\(beyond) OR \(e) IS NULL)")
                } else {
                    // After a missing value come the present ones when missing values go first;
                    // when they go last, nothing but other missing values (the equal case).
                    terms.append(nullsFirst ? "\(e) IS NOT NULL" : "FALSE")
                }
            }
            disjuncts.append("(" + terms.joined(separator: " AND ") + ")")
        }
        let table = PostgreSQLConnection.quote(source.table)
        parameters.append(String(max(0, count)))
        let result = try source.connection.query(
            "SELECT \(selectList) FROM \(table) WHERE \(disjuncts.joined(separator: " OR ")) "
                + "ORDER BY \(order) LIMIT $\(parameters.count)", parameters)
        return rows(result, offset: 0)
    }
}
