import Foundation
import TrellisGrid
import TrellisText

/// A grid page whose headers sort it in the browser with exactly Trellis's order: the orders are
/// computed here (natural order, pinyin, blanks last, pins and summaries kept where they are),
/// one per column and direction, and embedded; a few lines of script apply them on a click. The
/// page reads without script: the table is shown in the grid's current order.
public enum InteractiveGridPage {
    /// The most body rows a page embeds orders for.
    public static let maximumRows = 200_000

    public enum PageError: Error, Equatable, CustomStringConvertible {
        case tooManyRows(Int)
        public var description: String {
            switch self {
            case .tooManyRows(let n):
                return "an interactive page embeds one order per column and direction; \(n) rows is more than "
                    + "\(maximumRows) (write a plain page without --interactive)"
            }
        }
    }

    /// The page for `grid`, whose headers sort it by the keys `key(column, direction)` makes (the
    /// command line passes its own comparator and null placement). Sortable columns are those
    /// whose sort mode is not `.notSortable`. The grid's sort is restored afterwards.
    public static func render(
        _ grid: DataGrid, title: String,
        key: (String, SortDirection) -> SortKey
    ) throws -> String {
        let body = grid.order.body.count
        guard body <= maximumRows else { throw PageError.tooManyRows(body) }
        let saved = grid.sortKeys
        defer { try? grid.sort(by: saved) }
        // The body's source rows for each column and direction, and in source order.
        func bodyRows() -> RowList {
            grid.bodyRows
        }
        var orders: [String] = []
        for column in grid.columns {
            guard column.sortMode != .notSortable else { orders.append("null"); continue }
            var pair: [String] = []
            for direction in [SortDirection.ascending, .descending] {
                try grid.sort(by: [key(column.identifier, direction)])
                pair.append("[" + bodyRows().map(String.init).joined(separator: ",") + "]")
            }
            orders.append("{\"a\":\(pair[0]),\"d\":\(pair[1])}")
        }
        try grid.sort(by: [])
        let sourceOrder = "[" + bodyRows().map(String.init).joined(separator: ",") + "]"
        try grid.sort(by: saved)
        let initial = saved.first.flatMap { key in
            grid.columns.firstIndex { $0.identifier == key.column }.map { ($0, key.direction == .ascending ? "a" : "d") }
        }

        let out = TextOutput()
        GridRenderer.writeHTML(grid, title: title, to: out, tagBodyRows: true)
        try? out.finish()
        var page = String(decoding: out.collected, as: UTF8.self)
        let script = """
            <script>
            (function () {
              var orders = [\(orders.joined(separator: ","))], source = \(sourceOrder);
              var state = \(initial.map { "{column: \($0.0), direction: \"\($0.1)\"}" } ?? "null");
              var table = document.querySelector("table"), tbody = table.tBodies[0];
              var rows = {};
              Array.prototype.forEach.call(tbody.rows, function (tr) { rows[tr.getAttribute("data-row")] = tr; });
              var heads = table.tHead.rows[0].cells;
              function show() {
                var order = state ? orders[state.column][state.direction] : source;
                order.forEach(function (r) { tbody.appendChild(rows[r]); });
                Array.prototype.forEach.call(heads, function (th, i) {
                  var on = state && state.column === i;
                  th.setAttribute("aria-sort", on ? (state.direction === "a" ? "ascending" : "descending") : "none");
                  th.textContent = th.getAttribute("data-title") + (on ? (state.direction === "a" ? " ▲" : " ▼") : "");
                });
              }
              Array.prototype.forEach.call(heads, function (th, i) {
                th.setAttribute("data-title", th.textContent.replace(/ [▲▼]$/, ""));
                if (!orders[i]) return;
                th.style.cursor = "pointer";
                th.addEventListener("click", function () {
                  if (!state || state.column !== i) state = {column: i, direction: "a"};
                  else if (state.direction === "a") state.direction = "d";
                  else state = null;
                  show();
                });
              });
            })();
            </script>
            """
        page = page.replacingOccurrences(of: "</body>", with: script + "\n</body>")
        return page
    }
}
