import Trellis

// The test bench of the ported samples: how they report what they computed. Values print the
// same on every platform: numbers rounded to a millionth, without trailing zeros.

nonisolated(unsafe) var reportedLines: [String] = []

func number(_ value: CGFloat) -> String {
    let rounded = (value * 1_000_000).rounded() / 1_000_000
    if rounded == rounded.rounded() && abs(rounded) < 1e15 { return String(Int(rounded)) }
    var text = String(format: "%.6f", rounded)
    while text.hasSuffix("0") { text.removeLast() }
    return text
}

func report(_ key: String, _ value: String) { reportedLines.append("\(key) = \(value)") }
func report(_ key: String, _ value: Int) { report(key, String(value)) }
func report(_ key: String, _ value: Bool) { report(key, value ? "true" : "false") }
func report(_ key: String, _ value: CGFloat) { report(key, number(value)) }
func report(_ key: String, _ value: CGRect) {
    report(key, "(\(number(value.minX)), \(number(value.minY)), \(number(value.width)), \(number(value.height)))")
}
func report(_ key: String, _ value: CGSize) { report(key, "\(number(value.width)) x \(number(value.height))") }
func report(_ key: String, _ value: CGPoint) { report(key, "(\(number(value.x)), \(number(value.y)))") }
func report(_ key: String, _ value: EdgeInsets) {
    report(key, "{\(number(value.top)), \(number(value.left)), \(number(value.bottom)), \(number(value.right))}")
}
func report(_ key: String, _ value: [Int]) { report(key, "[" + value.map(String.init).joined(separator: ", ") + "]") }
func report(_ key: String, _ value: [String]) { report(key, "[" + value.joined(separator: ", ") + "]") }
func report(_ key: String, _ value: [CGFloat]) { report(key, "[" + value.map(number).joined(separator: ", ") + "]") }

/// One element of a transition, as `role from → to` with alpha and scale at each end.
func report(_ key: String, _ element: CollectionViewTransition.Element) {
    func describe(_ a: CollectionViewLayoutAttributes) -> String {
        let f = a.frame
        return "(\(number(f.minX)), \(number(f.minY)), \(number(f.width)), \(number(f.height))) alpha \(number(a.alpha))"
            + " scale \(number(a.transform3D.m11))"
    }
    report(key, "\(element.role.rawValue) \(describe(element.from)) -> \(describe(element.to))")
}
