import Foundation
import TrellisGrid
import TrellisText

/// What `--recompute` says each pinned row's function is: by the row's label (`labels`), by a
/// label named (`平均=mean,合计=sum`), or one function for rows whose label names none.
struct RecomputeRule {
    /// The functions named per label.
    var byLabel: [(label: String, function: SummaryFunction)] = []
    /// The one function given, if any.
    var function: SummaryFunction?
    let text: String

    init(_ text: String) throws(CommandError) {
        self.text = text
        let lowered = text.lowercased()
        if lowered == "labels" || lowered == "auto" { return }
        if let function = SummaryFunction(name: text) {
            self.function = function
            return
        }
        for part in text.components(separatedBy: ",") {
            guard let equals = part.lastIndex(of: "="), equals != part.startIndex else {
                throw CommandError(
                    .invalidValue(
                        text, option: "--recompute <rule>",
                        expected: "labels, mean, sum, count, min or max, or LABEL=FUNC[,LABEL=FUNC…] (平均=mean,合计=sum)"))
            }
            let name = String(part[part.index(after: equals)...])
            guard let function = SummaryFunction(name: name) else {
                throw CommandError(.invalidPart(kind: "function", part: name, given: "--recompute \(text)", expected: "mean, sum, count, min or max"))
            }
            byLabel.append((String(part[..<equals]), function))
        }
    }

    /// The function for pinned rows labelled `label` (the value the pin matches), or the error
    /// that says why there is none or why the one given would be wrong.
    func function(forLabel label: String, option: String) throws(CommandError) -> SummaryFunction {
        let trimmed = label.trimmingSpaces()
        if let named = byLabel.first(where: { $0.label.trimmingSpaces() == trimmed }) { return named.function }
        let named = SummaryFunction(label: trimmed)
        if let function {
            // One function for every row would put sums under 平均: a row whose label names
            // another is refused rather than filled with numbers it does not mean.
            if let named, named.description != function.description {
                throw CommandError(
                    .rule(
                        "'--recompute \(Excerpt.of(text))' would put the \(function) in the '\(Excerpt.of(trimmed))' row "
                            + "('\(Excerpt.of(option))'), which is a \(named); give --recompute labels, or "
                            + "'\(Excerpt.of(trimmed))=\(named)' for each row"))
            }
            return function
        }
        guard let named else {
            throw CommandError(
                .rule(
                    "'\(Excerpt.of(option))' pins rows whose label names no summary; "
                        + "give '--recompute \(Excerpt.of(trimmed))=mean' (or sum, count, min, max)"))
        }
        return named
    }

    /// A label named that no pin has.
    func unusedLabel(pinned: [String]) -> String? {
        let labels = Set(pinned.map { $0.trimmingSpaces() })
        return byLabel.first { !labels.contains($0.label.trimmingSpaces()) }?.label
    }
}
