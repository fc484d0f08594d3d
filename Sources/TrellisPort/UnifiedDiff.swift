/// A unified diff of two texts by lines (Myers' O(ND) algorithm), as `diff -u` prints it, with
/// three lines of context.
public enum UnifiedDiff {
    public static func diff(_ old: String, _ new: String, oldName: String, newName: String, context: Int = 3) -> String {
        let a = lines(old), b = lines(new)
        let script = editScript(a, b)
        guard script.contains(where: { $0.kind != .same }) else { return "" }
        var out = "--- \(oldName)\n+++ \(newName)\n"
        // Group the script into hunks: changes with up to `context` lines around, merged when close.
        var index = 0
        while index < script.count {
            guard let firstChange = script[index...].firstIndex(where: { $0.kind != .same }) else { break }
            var end = firstChange
            var lastChange = firstChange
            while end < script.count {
                if script[end].kind != .same { lastChange = end }
                if end - lastChange > 2 * context { break }
                end += 1
            }
            let hunkStart = max(index, firstChange - context)
            let hunkEnd = min(script.count, lastChange + context + 1)
            let slice = script[hunkStart..<hunkEnd]
            let oldStart = slice.first!.oldLine, newStart = slice.first!.newLine
            let oldCount = slice.filter { $0.kind != .insert }.count
            let newCount = slice.filter { $0.kind != .delete }.count
            out += "@@ -\(range(oldStart, oldCount)) +\(range(newStart, newCount)) @@\n"
            for step in slice {
                switch step.kind {
                case .same: out += " " + a[step.oldLine]
                case .delete: out += "-" + a[step.oldLine]
                case .insert: out += "+" + b[step.newLine]
                }
                let shown = step.kind == .insert ? b[step.newLine] : a[step.oldLine]
                if !shown.hasSuffix("\n") { out += "\n\\ No newline at end of file\n" }
            }
            index = hunkEnd
        }
        return out
    }

    private static func range(_ start: Int, _ count: Int) -> String {
        // `diff -u` numbers from 1; an empty range names the line before it.
        count == 0 ? "\(start),0" : count == 1 ? "\(start + 1)" : "\(start + 1),\(count)"
    }

    /// The lines of a text, each with its line break.
    static func lines(_ text: String) -> [String] {
        var result: [String] = []
        var current = ""
        for character in text {
            current.append(character)
            if character == "\n" || character == "\r\n" { result.append(current); current = "" }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    struct Step {
        enum Kind { case same, delete, insert }
        var kind: Kind
        /// The index of the line in the old text (for `.same` and `.delete`), or where an
        /// insertion falls in it.
        var oldLine: Int
        var newLine: Int
    }

    /// The shortest edit script from `a` to `b`.
    static func editScript(_ a: [String], _ b: [String]) -> [Step] {
        let n = a.count, m = b.count
        let max = n + m
        guard max > 0 else { return [] }
        var v = [Int](repeating: 0, count: 2 * max + 2)
        var trace: [[Int]] = []
        var found = false
        for d in 0...max {
            trace.append(v)
            for k in stride(from: -d, through: d, by: 2) {
                var x: Int
                if k == -d || (k != d && v[k - 1 + max] < v[k + 1 + max]) { x = v[k + 1 + max] } else { x = v[k - 1 + max] + 1 }
                var y = x - k
                while x < n, y < m, a[x] == b[y] { x += 1; y += 1 }
                v[k + max] = x
                if x >= n, y >= m { found = true; break }
            }
            if found { break }
        }
        // Walk back through the trace.
        var steps: [Step] = []
        var x = n, y = m
        for d in stride(from: trace.count - 1, through: 0, by: -1) {
            let v = trace[d]
            let k = x - y
            let previousK = (k == -d || (k != d && v[k - 1 + max] < v[k + 1 + max])) ? k + 1 : k - 1
            let previousX = d == 0 ? 0 : v[previousK + max]
            let previousY = previousX - previousK
            while x > previousX, y > previousY {
                x -= 1; y -= 1
                steps.append(Step(kind: .same, oldLine: x, newLine: y))
            }
            if d > 0 {
                if x == previousX {
                    y -= 1; steps.append(Step(kind: .insert, oldLine: x, newLine: y))
                } else {
                    x -= 1; steps.append(Step(kind: .delete, oldLine: x, newLine: y))
                }
            }
        }
        return steps.reversed()
    }
}
