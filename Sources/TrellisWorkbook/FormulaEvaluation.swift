import Foundation
import TrellisGrid

/// Computing the formulas a workbook saved without their values (openpyxl saves none; Excel
/// and LibreOffice compute them on opening). The common functions are computed — `SUM`,
/// `AVERAGE`, `COUNT`, `COUNTA`, `MIN`, `MAX`, `SUBTOTAL`, `ROUND`, `ABS`, `IF` — with arithmetic,
/// comparison and `&` on the sheet's own cells; a formula that needs anything else (another
/// sheet, a defined name, another function) is left missing and named, never guessed.
struct FormulaCells {
    private(set) var rows: [SheetRow]
    let date1904: Bool
    let formats: [NumberFormat]
    /// Where each cell is: (row index, cell index), by row << 14 | column.
    private var places: [Int: (Int, Int)] = [:]
    /// Values computed so far, and the cells being computed (to find a cycle).
    private var done: [Int: Value] = [:]
    private var computing: Set<Int> = []

    init(rows: [SheetRow], date1904: Bool, formats: [NumberFormat]) {
        self.rows = rows
        self.date1904 = date1904
        self.formats = formats
    }

    enum Value {
        case number(Double)
        case text(String)
        case boolean(Bool)
        case error(String)
        case blank
        /// A range's cells, each with whether it holds a `SUBTOTAL` (which `SUBTOTAL` leaves out).
        case range([(Value, subtotal: Bool)])
    }

    struct Unsupported: Error {
        var reason: String
    }

    private static func key(_ row: Int, _ column: Int) -> Int { row << 14 | column }

    /// Computes every formula cell without a saved value: how many were computed, and the
    /// references of those that could not be (left missing).
    mutating func computeMissingValues() -> (Int, [String]) {
        guard rows.contains(where: { $0.cells.contains { $0.formulaWithoutValue } }) else { return (0, []) }
        for (r, row) in rows.enumerated() {
            for (c, cell) in row.cells.enumerated() { places[Self.key(row.number, cell.column)] = (r, c) }
        }
        var computed = 0
        var uncomputed: [String] = []
        for r in rows.indices {
            for c in rows[r].cells.indices where rows[r].cells[c].formulaWithoutValue {
                let cell = rows[r].cells[c]
                let value: Value
                do throws(Unsupported) {
                    value = try self.value(row: rows[r].number, column: cell.column)
                } catch {
                    rows[r].cells[c].value = .missing
                    rows[r].cells[c].shown = ""
                    rows[r].cells[c].formulaWithoutValue = false
                    uncomputed.append(SheetCell.columnName(cell.column) + String(rows[r].number))
                    continue
                }
                var result = cell
                result.formulaWithoutValue = false
                switch value {
                case .number(let n):
                    let format = cell.format >= 0 && cell.format < formats.count ? formats[cell.format] : NumberFormat.general
                    var made = XLSXReader.numberCell(n, column: cell.column, format: format, date1904: date1904)
                    made.formula = cell.formula
                    made.format = cell.format
                    result = made
                    computed += 1
                case .text(let s):
                    result.value = s.isEmpty ? .missing : .text(s)
                    result.shown = s
                    computed += 1
                case .boolean(let b):
                    result.value = .boolean(b)
                    result.shown = b ? "TRUE" : "FALSE"
                    computed += 1
                case .blank:
                    result.value = .integer(0)
                    result.shown = "0"
                    computed += 1
                case .error(let e):
                    // An error is what the formula gives (`#DIV/0!`): missing, shown as the error.
                    result.value = .missing
                    result.shown = e
                    computed += 1
                case .range:
                    result.value = .missing
                    result.shown = ""
                    uncomputed.append(SheetCell.columnName(cell.column) + String(rows[r].number))
                }
                rows[r].cells[c] = result
            }
        }
        return (computed, uncomputed)
    }

    /// The value of the cell at (`row`, `column`): what it holds, or its formula computed.
    private mutating func value(row: Int, column: Int) throws(Unsupported) -> Value {
        let key = Self.key(row, column)
        if let known = done[key] { return known }
        guard let (r, c) = places[key] else { return .blank }
        let cell = rows[r].cells[c]
        guard cell.formulaWithoutValue, let formula = cell.formula else {
            switch cell.value {
            case .missing: return cell.shown.isEmpty ? .blank : .error(cell.shown)
            case .integer(let i): return .number(Double(i))
            case .decimal(let d): return .number(d)
            case .date(let d): return .number(WorkbookDates.serial(ofSeconds: d.timeIntervalSince1970, date1904: date1904))
            case .text(let s): return .text(s)
            case .boolean(let b): return .boolean(b)
            case .error(let e): return .error(e)
            }
        }
        guard computing.insert(key).inserted else { throw Unsupported(reason: "a circular reference") }
        defer { computing.remove(key) }
        guard let tokens = Formula.tokens(formula) else { throw Unsupported(reason: "a formula that cannot be read") }
        var parser = Parser(tokens: tokens.map(\.0))
        let result = try parser.expression(&self)
        guard parser.atEnd else { throw Unsupported(reason: "a formula that cannot be read") }
        let value = try Self.single(result)
        done[key] = value
        return value
    }

    fileprivate static func single(_ value: Value) throws(Unsupported) -> Value {
        if case .range(let cells) = value {
            guard cells.count == 1 else { throw Unsupported(reason: "a range where one value is meant") }
            return cells[0].0
        }
        return value
    }

    fileprivate mutating func range(_ from: CellReference, _ to: CellReference) throws(Unsupported) -> Value {
        let rows = min(from.row, to.row)...max(from.row, to.row)
        let columns = min(from.column, to.column)...max(from.column, to.column)
        guard rows.count * columns.count <= 1 << 20 else { throw Unsupported(reason: "a range of more than a million cells") }
        var cells: [(Value, subtotal: Bool)] = []
        for r in rows {
            for c in columns {
                let subtotal = places[Self.key(r, c)].map { self.rows[$0.0].cells[$0.1].formula?.uppercased().contains("SUBTOTAL(") ?? false } ?? false
                cells.append((try value(row: r, column: c), subtotal))
            }
        }
        return .range(cells)
    }

    fileprivate mutating func cell(_ ref: CellReference) throws(Unsupported) -> Value {
        try value(row: ref.row, column: ref.column)
    }

    // MARK: The parser

    fileprivate struct Parser {
        var tokens: [FormulaToken]
        var at = 0

        var atEnd: Bool { at == tokens.count }

        mutating func peekOp() -> String? {
            guard at < tokens.count, case .op(let op) = tokens[at] else { return nil }
            return op
        }

        mutating func expression(_ cells: inout FormulaCells) throws(Unsupported) -> Value {
            var left = try concatenation(&cells)
            while let op = peekOp(), ["=", "<>", "<", ">", "<=", ">="].contains(op) {
                at += 1
                let right = try concatenation(&cells)
                left = try compare(op, FormulaCells.single(left), FormulaCells.single(right))
            }
            return left
        }

        mutating func concatenation(_ cells: inout FormulaCells) throws(Unsupported) -> Value {
            var left = try arithmetic(level: 0, &cells)
            while peekOp() == "&" {
                at += 1
                let right = try arithmetic(level: 0, &cells)
                let a = try FormulaCells.single(left), b = try FormulaCells.single(right)
                if case .error = a { return a }
                if case .error = b { return b }
                left = .text(Self.text(a) + Self.text(b))
            }
            return left
        }

        /// The arithmetic operators by precedence, loosest first; each level left-associative.
        static let levels: [[String]] = [["+", "-"], ["*", "/"], ["^"]]

        /// Operands joined by the operators of `level` and tighter ones.
        mutating func arithmetic(level: Int, _ cells: inout FormulaCells) throws(Unsupported) -> Value {
            guard level < Self.levels.count else { return try unary(&cells) }
            var left = try arithmetic(level: level + 1, &cells)
            while let op = peekOp(), Self.levels[level].contains(op) {
                at += 1
                let right = try arithmetic(level: level + 1, &cells)
                left = try arithmetic(op, left, right)
            }
            return left
        }

        mutating func unary(_ cells: inout FormulaCells) throws(Unsupported) -> Value {
            if let op = peekOp(), op == "-" || op == "+" {
                at += 1
                let operand = try unary(&cells)
                return op == "-" ? try arithmetic("-", .number(0), operand) : try arithmetic("+", .number(0), operand)
            }
            var value = try primary(&cells)
            while peekOp() == "%" {
                at += 1
                value = try arithmetic("/", value, .number(100))
            }
            return value
        }

        mutating func primary(_ cells: inout FormulaCells) throws(Unsupported) -> Value {
            guard at < tokens.count else { throw Unsupported(reason: "a formula that ends early") }
            let token = tokens[at]
            at += 1
            switch token {
            case .number(let n): return .number(n)
            case .string(let s): return .text(s)
            case .boolean(let b): return .boolean(b)
            case .error(let e): return .error(e)
            case .reference(let from, let sheet):
                guard sheet == nil else { throw Unsupported(reason: "a reference to another sheet") }
                if peekOp() == ":" {
                    at += 1
                    guard at < tokens.count, case .reference(let to, nil) = tokens[at] else {
                        throw Unsupported(reason: "a range that is not two cells")
                    }
                    at += 1
                    return try cells.range(from, to)
                }
                return try cells.cell(from)
            case .open:
                let inner = try expression(&cells)
                guard at < tokens.count, tokens[at] == .close else { throw Unsupported(reason: "an unclosed parenthesis") }
                at += 1
                return inner
            case .function(let name):
                guard at < tokens.count, tokens[at] == .open else { throw Unsupported(reason: "a function without arguments") }
                at += 1
                var arguments: [Value] = []
                if at < tokens.count, tokens[at] == .close {
                    at += 1
                } else {
                    while true {
                        arguments.append(try expression(&cells))
                        guard at < tokens.count else { throw Unsupported(reason: "an unclosed function") }
                        if tokens[at] == .comma {
                            at += 1
                            continue
                        }
                        guard tokens[at] == .close else { throw Unsupported(reason: "an unclosed function") }
                        at += 1
                        break
                    }
                }
                return try FormulaCells.call(name, arguments)
            case .name(let name): throw Unsupported(reason: "the name '\(name)'")
            default: throw Unsupported(reason: "a formula that cannot be read")
            }
        }

        static func text(_ v: Value) -> String {
            switch v {
            case .number(let n): NumberFormat.general(n)
            case .text(let s): s
            case .boolean(let b): b ? "TRUE" : "FALSE"
            default: ""
            }
        }

        /// A value as arithmetic takes it: blank as 0, truth values as 1 and 0, number-like text.
        static func number(_ v: Value) -> Double? {
            switch v {
            case .number(let n): return n
            case .blank: return 0
            case .boolean(let b): return b ? 1 : 0
            case .text(let s): return Double(s.trimmingCharacters(in: .whitespaces))
            default: return nil
            }
        }

        func arithmetic(_ op: String, _ a: Value, _ b: Value) throws(Unsupported) -> Value {
            let a = try FormulaCells.single(a), b = try FormulaCells.single(b)
            if case .error = a { return a }
            if case .error = b { return b }
            guard let x = Self.number(a), let y = Self.number(b) else { return .error("#VALUE!") }
            switch op {
            case "+": return .number(x + y)
            case "-": return .number(x - y)
            case "*": return .number(x * y)
            case "/": return y == 0 ? .error("#DIV/0!") : .number(x / y)
            default:
                let p = pow(x, y)
                return p.isFinite ? .number(p) : .error("#NUM!")
            }
        }

        func compare(_ op: String, _ a: Value, _ b: Value) -> Value {
            if case .error = a { return a }
            if case .error = b { return b }
            let order: Int
            switch (a, b) {
            case (.text(let x), .text(let y)):
                let l = x.lowercased(), r = y.lowercased()
                order = l < r ? -1 : l == r ? 0 : 1
            case (.text, _): order = 1
            case (_, .text): order = -1
            default:
                let x = Self.number(a) ?? 0, y = Self.number(b) ?? 0
                order = x < y ? -1 : x == y ? 0 : 1
            }
            switch op {
            case "=": return .boolean(order == 0)
            case "<>": return .boolean(order != 0)
            case "<": return .boolean(order < 0)
            case ">": return .boolean(order > 0)
            case "<=": return .boolean(order <= 0)
            default: return .boolean(order >= 0)
            }
        }
    }

    // MARK: Functions

    /// The numbers of arguments as the aggregate functions take them: numbers in ranges (text,
    /// truth values and blanks in them left out), numbers and number-like text given directly;
    /// the first error met instead.
    private static func numbers(_ arguments: ArraySlice<Value>, skippingSubtotals: Bool = false) -> Result<[Double], ErrorValue> {
        var out: [Double] = []
        for argument in arguments {
            switch argument {
            case .range(let cells):
                for (cell, subtotal) in cells where !(skippingSubtotals && subtotal) {
                    if case .number(let n) = cell { out.append(n) }
                    if case .error(let e) = cell { return .failure(ErrorValue(text: e)) }
                }
            case .number(let n): out.append(n)
            case .boolean(let b): out.append(b ? 1 : 0)
            case .text(let s):
                guard let n = Double(s.trimmingCharacters(in: .whitespaces)) else { return .failure(ErrorValue(text: "#VALUE!")) }
                out.append(n)
            case .error(let e): return .failure(ErrorValue(text: e))
            case .blank: break
            }
        }
        return .success(out)
    }

    struct ErrorValue: Error {
        var text: String
    }

    private static func count(_ arguments: ArraySlice<Value>, nonBlank: Bool, skippingSubtotals: Bool = false) -> Double {
        var n = 0
        for argument in arguments {
            switch argument {
            case .range(let cells):
                for (cell, subtotal) in cells where !(skippingSubtotals && subtotal) {
                    switch cell {
                    case .number: n += 1
                    case .blank: break
                    default: if nonBlank { n += 1 }
                    }
                }
            case .number: n += 1
            case .blank: break
            default: if nonBlank { n += 1 }
            }
        }
        return Double(n)
    }

    fileprivate static func call(_ name: String, _ arguments: [Value]) throws(Unsupported) -> Value {
        let all = arguments[...]
        func aggregate(_ function: Int, _ args: ArraySlice<Value>, skipping: Bool) throws(Unsupported) -> Value {
            if function == 2 { return .number(count(args, nonBlank: false, skippingSubtotals: skipping)) }
            if function == 3 { return .number(count(args, nonBlank: true, skippingSubtotals: skipping)) }
            let values: [Double]
            switch numbers(args, skippingSubtotals: skipping) {
            case .success(let v): values = v
            case .failure(let e): return .error(e.text)
            }
            let sum = values.reduce(0, +)
            let n = Double(values.count)
            func variance(_ sample: Bool) -> Value {
                guard values.count > (sample ? 1 : 0) else { return .error("#DIV/0!") }
                let mean = sum / n
                return .number(values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (sample ? n - 1 : n))
            }
            switch function {
            case 1: return values.isEmpty ? .error("#DIV/0!") : .number(sum / n)
            case 4: return .number(values.max() ?? 0)
            case 5: return .number(values.min() ?? 0)
            case 6: return .number(values.reduce(1, *))
            case 7, 8:
                if case .number(let v) = variance(function == 7) { return .number(v.squareRoot()) }
                return .error("#DIV/0!")
            case 9: return .number(sum)
            case 10, 11: return variance(function == 10)
            default: throw Unsupported(reason: "SUBTOTAL(\(function), …)")
            }
        }
        switch name {
        case "SUM": return try aggregate(9, all, skipping: false)
        case "AVERAGE": return try aggregate(1, all, skipping: false)
        case "COUNT": return try aggregate(2, all, skipping: false)
        case "COUNTA": return try aggregate(3, all, skipping: false)
        case "MAX": return try aggregate(4, all, skipping: false)
        case "MIN": return try aggregate(5, all, skipping: false)
        case "SUBTOTAL":
            guard let first = arguments.first, case .number(let f) = try single(first), f == f.rounded() else {
                throw Unsupported(reason: "SUBTOTAL without a function number")
            }
            // 101–111 also leave out hidden rows; rows are read without their hidden flag here,
            // so those are computed as 1–11 (the saved value, where there is one, is what is read).
            return try aggregate(Int(f) % 100, all.dropFirst(), skipping: true)
        case "ROUND":
            guard arguments.count == 2, case .number(let x) = try single(arguments[0]), case .number(let d) = try single(arguments[1]) else {
                throw Unsupported(reason: "ROUND of something not a number")
            }
            var digits = DecimalDigits(x)
            digits.round(places: Int(d))
            let text = (digits.negative ? "-" : "") + "0." + digits.digits.map(String.init).joined() + "e\(digits.exponent)"
            return .number(Double(text) ?? x)
        case "ABS":
            guard arguments.count == 1, case .number(let x) = try single(arguments[0]) else { throw Unsupported(reason: "ABS of something not a number") }
            return .number(abs(x))
        case "IF":
            guard (2...3).contains(arguments.count) else { throw Unsupported(reason: "IF with \(arguments.count) arguments") }
            let condition = try single(arguments[0])
            let truth: Bool
            switch condition {
            case .boolean(let b): truth = b
            case .number(let n): truth = n != 0
            case .blank: truth = false
            case .error: return condition
            default: return .error("#VALUE!")
            }
            return truth ? try single(arguments[1]) : arguments.count == 3 ? try single(arguments[2]) : .boolean(false)
        default:
            throw Unsupported(reason: "the function \(name)")
        }
    }
}
