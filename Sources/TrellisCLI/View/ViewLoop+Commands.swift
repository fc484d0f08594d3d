/// VisiData's command line: Space, then a command's name (`sort-desc`, `freq-col`, `save-sheet`;
/// Tab completes it), Enter runs it — every key of the viewer by name, VisiData's names where it
/// has the command.
extension ViewLoop {
    /// A command by name: the keys it stands for and what it does.
    struct NamedCommand {
        var name: String
        var keys: String
        var events: [Event]
        var help: String
    }

    static let namedCommands: [NamedCommand] = [
        NamedCommand(name: "go-up", keys: "k", events: [.up], help: "the row above"),
        NamedCommand(name: "go-down", keys: "j", events: [.down], help: "the row below"),
        NamedCommand(name: "go-left", keys: "h", events: [.left], help: "the column to the left"),
        NamedCommand(name: "go-right", keys: "l", events: [.right], help: "the column to the right"),
        NamedCommand(name: "go-top", keys: "gg", events: [.home], help: "the first row"),
        NamedCommand(name: "go-bottom", keys: "G", events: [.end], help: "the last row"),
        NamedCommand(name: "go-leftmost", keys: "gh", events: [.character("g"), .character("h")], help: "the first column"),
        NamedCommand(name: "go-rightmost", keys: "gl", events: [.character("g"), .character("l")], help: "the last column"),
        NamedCommand(name: "go-pageup", keys: "Page Up", events: [.pageUp], help: "a screen of rows up"),
        NamedCommand(name: "go-pagedown", keys: "Page Down", events: [.pageDown], help: "a screen of rows down"),
        NamedCommand(name: "go-row-number", keys: ":", events: [.character(":")], help: "a row by its number"),
        NamedCommand(name: "sort-asc", keys: "[", events: [.character("[")], help: "sort by the current column, ascending"),
        NamedCommand(name: "sort-desc", keys: "]", events: [.character("]")], help: "sort by the current column, descending"),
        NamedCommand(
            name: "sort-asc-add", keys: "g[", events: [.character("g"), .character("[")], help: "add the current column as a key, ascending"),
        NamedCommand(
            name: "sort-desc-add", keys: "g]", events: [.character("g"), .character("]")], help: "add the current column as a key, descending"),
        NamedCommand(name: "sort-cycle", keys: "s", events: [.character("s")], help: "cycle the current column's sort: ▲, ▼, off"),
        NamedCommand(name: "sort-cycle-add", keys: "S", events: [.character("S")], help: "add the current column as a further key"),
        NamedCommand(name: "search-col", keys: "/", events: [.character("/")], help: "find a text in the current column"),
        NamedCommand(name: "search-next", keys: "n", events: [.character("n")], help: "find it again, down"),
        NamedCommand(name: "search-prev", keys: "N", events: [.character("N")], help: "find it again, up"),
        NamedCommand(name: "pin-row", keys: "p", events: [.character("p")], help: "pin the current row to the bottom (or unpin it)"),
        NamedCommand(name: "unpin-row", keys: "P", events: [.character("P")], help: "unpin the current row"),
        NamedCommand(name: "resize-col-narrow", keys: "<", events: [.character("<")], help: "narrow the current column"),
        NamedCommand(name: "resize-col-widen", keys: ">", events: [.character(">")], help: "widen the current column"),
        NamedCommand(name: "resize-col-max", keys: "_", events: [.character("_")], help: "fit the current column to its widest cell"),
        NamedCommand(name: "hide-col", keys: "-", events: [.character("-")], help: "hide the current column"),
        NamedCommand(name: "unhide-cols", keys: "+", events: [.character("+")], help: "show every hidden column"),
        NamedCommand(name: "type-int", keys: "#", events: [.character("#")], help: "read the current column as integers"),
        NamedCommand(name: "type-float", keys: "%", events: [.character("%")], help: "read the current column as decimals"),
        NamedCommand(name: "type-currency", keys: "$", events: [.character("$")], help: "read the current column as amounts"),
        NamedCommand(name: "type-string", keys: "~", events: [.character("~")], help: "read the current column as text"),
        NamedCommand(name: "type-date", keys: "@", events: [.character("@")], help: "read the current column as dates"),
        NamedCommand(name: "freq-col", keys: "F", events: [.character("F")], help: "the current column's values and counts"),
        NamedCommand(name: "describe-sheet", keys: "I", events: [.character("I")], help: "every column described"),
        NamedCommand(name: "edit-cell", keys: "e", events: [.character("e")], help: "edit the current cell"),
        NamedCommand(name: "undo-last", keys: "U", events: [.character("U")], help: "undo the last edit"),
        NamedCommand(name: "save-sheet", keys: "Ctrl-S", events: [.save], help: "save the table"),
        NamedCommand(name: "next-sheet", keys: "Tab", events: [.character("\t")], help: "a workbook's next sheet"),
        NamedCommand(name: "prev-sheet", keys: "Shift-Tab", events: [.backTab], help: "a workbook's sheet before"),
        NamedCommand(name: "open-warnings", keys: "w", events: [.character("w")], help: "the file's warnings"),
        NamedCommand(name: "help", keys: "?", events: [.character("?")], help: "the keys and commands"),
        NamedCommand(name: "quit-sheet", keys: "q", events: [.character("q")], help: "back from a view, or quit"),
    ]

    /// The help page's list of the commands by name.
    static var commandHelp: [String] {
        ["Commands by name (Space, then the name; Tab completes it)"]
            + namedCommands.map { command in
                "  " + command.name.padding(toLength: 19, withPad: " ", startingAt: 0)
                    + (command.keys + " ").padding(toLength: 11, withPad: " ", startingAt: 0) + command.help
            }
    }

    /// Tab on the command line: the name typed so far completed as far as the commands that
    /// start with it agree (the prompt lists them as the name is typed).
    mutating func completeCommand() {
        guard var prompt, prompt.kind == .command else { return }
        let matching = Self.namedCommands.map(\.name).filter { $0.hasPrefix(prompt.text) }
        guard let first = matching.first else {
            screen.message = "no command starts with '\(prompt.text)'"
            return
        }
        var common = first
        for name in matching.dropFirst() {
            while !name.hasPrefix(common) { common.removeLast() }
        }
        prompt.text = common
        self.prompt = prompt
    }

    /// Enter on the command line: the command named, run as its keys.
    mutating func runCommand(_ typed: String) -> Outcome {
        let name = typed.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return .go }
        guard let command = Self.namedCommands.first(where: { $0.name == name }) else {
            let near = Self.namedCommands.map(\.name).filter { $0.hasPrefix(String(name.prefix(3))) || $0.contains(name) }
            screen.message =
                "no command '\(name)'" + (near.isEmpty ? "" : "; perhaps \(near.prefix(4).joined(separator: ", "))") + " · ? lists them"
            return .go
        }
        var outcome = Outcome.go
        for event in command.events where outcome == .go { outcome = handle(event) }
        return outcome
    }
}
