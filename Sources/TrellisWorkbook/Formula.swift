import Foundation
import TrellisGrid

/// A cell reference in a formula: `C5`, `$C$5`, `$C5`.
struct CellReference: Equatable, Hashable {
    var column: Int
    var row: Int
    var absoluteColumn = false
    var absoluteRow = false

    var text: String {
        (absoluteColumn ? "$" : "") + SheetCell.columnName(column) + (absoluteRow ? "$" : "") + String(row)
    }
}

/// The pieces of a formula in Excel's A1 syntax, as written: what reference shifting and the
/// evaluator read.
enum FormulaToken: Equatable {
    case number(Double)
    case string(String)
    case boolean(Bool)
    case error(String)
    /// A cell reference, with the sheet it names if any (`Sheet2!A1`).
    case reference(CellReference, sheet: String?)
    /// A function's name, its `(` next.
    case function(String)
    /// A defined name or anything else read as a word.
    case name(String)
    case op(String)
    case open, close, comma
}

enum Formula {
    /// The tokens of `text` (a formula without its `=`), each with the range of the text it was
    /// read from; `nil` when it cannot be read.
    static func tokens(_ text: String) -> [(FormulaToken, Range<Int>)]? {
        let b = Array(text.utf8)
        var out: [(FormulaToken, Range<Int>)] = []
        var i = 0
        func isWordByte(_ c: UInt8) -> Bool {
            (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x5F || c == 0x2E || c >= 0x80
        }
        while i < b.count {
            let c = b[i]
            let start = i
            switch c {
            case 0x20, 0x0A, 0x0D, 0x09:
                i += 1
            case 0x22:  // "text"
                guard let s = quoted(b, &i, 0x22) else { return nil }
                out.append((.string(s), start..<i))
            case 0x27:  // 'Sheet name'!A1
                guard let s = quoted(b, &i, 0x27) else { return nil }
                guard i < b.count, b[i] == 0x21 else { return nil }
                i += 1
                guard let (ref, end) = reference(b, from: i) else { return nil }
                out.append((.reference(ref, sheet: s), start..<end))
                i = end
            case 0x23:  // #N/A, #REF!
                i += 1
                while i < b.count, b[i] != 0x2C, b[i] != 0x29, b[i] != 0x20 {
                    let ch = b[i]
                    i += 1
                    if ch == 0x21 || ch == 0x3F || (ch == 0x41 && b[i - 2] == 0x2F) { break }
                }
                out.append((.error(String(decoding: b[start..<i], as: UTF8.self)), start..<i))
            case 0x28:
                out.append((.open, start..<(i + 1)))
                i += 1
            case 0x29:
                out.append((.close, start..<(i + 1)))
                i += 1
            case 0x2C, 0x3B:
                out.append((.comma, start..<(i + 1)))
                i += 1
            case 0x2B, 0x2D, 0x2A, 0x2F, 0x5E, 0x26, 0x25, 0x3A, 0x3D:
                out.append((.op(String(UnicodeScalar(c))), start..<(i + 1)))
                i += 1
            case 0x3C, 0x3E:
                if i + 1 < b.count, b[i + 1] == 0x3D || (c == 0x3C && b[i + 1] == 0x3E) {
                    out.append((.op(String(decoding: b[i..<(i + 2)], as: UTF8.self)), start..<(i + 2)))
                    i += 2
                } else {
                    out.append((.op(String(UnicodeScalar(c))), start..<(i + 1)))
                    i += 1
                }
            case 0x30...0x39 where !(out.last.map { if case .op(":") = $0.0 { true } else { false } } ?? false):
                // A number (a row range such as 3:5 is not read; it is not a cell).
                while i < b.count, (b[i] >= 0x30 && b[i] <= 0x39) || b[i] == 0x2E { i += 1 }
                if i < b.count, b[i] | 0x20 == 0x65, i + 1 < b.count, b[i + 1] == 0x2B || b[i + 1] == 0x2D || (b[i + 1] >= 0x30 && b[i + 1] <= 0x39) {
                    i += 2
                    while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
                }
                guard let v = Double(String(decoding: b[start..<i], as: UTF8.self)) else { return nil }
                out.append((.number(v), start..<i))
            default:
                guard isWordByte(c) || c == 0x24 else { return nil }
                while i < b.count, isWordByte(b[i]) || b[i] == 0x24 { i += 1 }
                let word = String(decoding: b[start..<i], as: UTF8.self)
                if i < b.count, b[i] == 0x21 {
                    // Sheet2!A1
                    guard let (ref, end) = reference(b, from: i + 1) else { return nil }
                    out.append((.reference(ref, sheet: word), start..<end))
                    i = end
                } else if i < b.count, b[i] == 0x28 {
                    out.append((.function(word.uppercased()), start..<i))
                } else if let (ref, end) = reference(b, from: start), end == i {
                    out.append((.reference(ref, sheet: nil), start..<end))
                } else if word.uppercased() == "TRUE" || word.uppercased() == "FALSE" {
                    out.append((.boolean(word.uppercased() == "TRUE"), start..<i))
                } else {
                    out.append((.name(word), start..<i))
                }
            }
        }
        return out
    }

    /// The text between the quote at `i` and its closing one (a doubled quote standing for one),
    /// `i` moved past it; `nil` when it is not closed.
    static func quoted(_ b: [UInt8], _ i: inout Int, _ quote: UInt8) -> String? {
        var s: [UInt8] = []
        i += 1
        while i < b.count {
            if b[i] == quote {
                guard i + 1 < b.count, b[i + 1] == quote else {
                    i += 1
                    return String(decoding: s, as: UTF8.self)
                }
                i += 1
            }
            s.append(b[i])
            i += 1
        }
        return nil
    }

    /// The cell reference at `i` (`$A$1`), and where it ends.
    static func reference(_ b: [UInt8], from start: Int) -> (CellReference, Int)? {
        var i = start
        var ref = CellReference(column: 0, row: 0)
        if i < b.count, b[i] == 0x24 {
            ref.absoluteColumn = true
            i += 1
        }
        var letters = 0
        var column = 0
        while i < b.count, case let c = b[i] | 0x20, c >= 0x61, c <= 0x7A {
            column = column * 26 + Int(c - 0x60)
            letters += 1
            i += 1
        }
        guard letters >= 1, letters <= 3 else { return nil }
        if i < b.count, b[i] == 0x24 {
            ref.absoluteRow = true
            i += 1
        }
        var row = 0
        var digits = 0
        while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
            row = row * 10 + Int(b[i] - 0x30)
            digits += 1
            i += 1
        }
        guard digits >= 1, digits <= 7, row >= 1, column <= XLSXReader.maximumColumns else { return nil }
        // A name that goes on (`A1B`, `LOG10(`) is not a reference.
        if i < b.count, (b[i] >= 0x41 && b[i] <= 0x5A) || (b[i] >= 0x61 && b[i] <= 0x7A) || b[i] == 0x5F || b[i] == 0x28 { return nil }
        ref.column = column - 1
        ref.row = row
        return (ref, i)
    }

    /// `text` with its relative references moved by `rows` and `columns`, as a formula copied
    /// that far reads (a shared formula's cells; a row moved by a sort); `nil` when a reference
    /// would leave the sheet or the formula cannot be read.
    static func shifted(_ text: String, rows: Int, columns: Int) -> String? {
        guard rows != 0 || columns != 0 else { return text }
        guard let tokens = tokens(text) else { return nil }
        let b = Array(text.utf8)
        var out: [UInt8] = []
        var last = 0
        for (token, range) in tokens {
            guard case .reference(var ref, let sheet) = token else { continue }
            if !ref.absoluteRow { ref.row += rows }
            if !ref.absoluteColumn { ref.column += columns }
            guard ref.row >= 1, ref.row <= XLSXReader.maximumRows, ref.column >= 0, ref.column < XLSXReader.maximumColumns else { return nil }
            out.append(contentsOf: b[last..<range.lowerBound])
            // The sheet part as written, then the moved reference.
            let written = b[range]
            if sheet != nil, let bang = written.lastIndex(of: 0x21) { out.append(contentsOf: b[range.lowerBound...bang]) }
            out.append(contentsOf: ref.text.utf8)
            last = range.upperBound
        }
        out.append(contentsOf: b[last...])
        return String(decoding: out, as: UTF8.self)
    }
}
