/// `trellis(1)`, the manual page, written from the same definitions as the help: every command
/// with its arguments, options and discussion, the exit statuses and where the guides are. What
/// `trellis --generate-man-page` prints and the Debian package installs.
enum ManPage {
    /// The page, in the `man` macros of roff. The same for the same program: no date in it.
    static func page(version: String) -> String {
        var out = ".\\\" The manual page of trellis, written by `trellis --generate-man-page`.\n"
        out += ".TH TRELLIS 1 \"\" \"trellis \(escape(version))\" \"User Commands\"\n"
        out += ".SH NAME\ntrellis \\- \(escape(lowercasedFirst(TrellisCommandLine.overview)).dropLast(".".count))\n"
        out += ".SH SYNOPSIS\n"
        for command in TrellisCommandLine.commands {
            out += ".B trellis \(command.name)\n"
            let arguments = command.definition.arguments.map { "\\fI\(escape($0.name))\\fR" }
            out += (arguments + (command.definition.options.count > 1 ? ["[\\fIoptions\\fR]"] : [])).joined(separator: " ") + "\n.br\n"
        }
        out += ".B trellis\n[\\fB\\-\\-version\\fR] [\\fB\\-\\-help\\fR] [\\fB\\-\\-generate\\-completion\\-script\\fR \\fIshell\\fR]\n"
        out += ".SH DESCRIPTION\n"
        out += paragraph(
            "\(TrellisCommandLine.overview) Each command below reads what its arguments name and writes to standard output or to the file -o names; "
                + "`trellis help COMMAND` prints the same as its section here.")
        out += ".SH OPTIONS\n"
        out += item("\\fB\\-\\-version\\fR", "Show the version and the commit it was built from.")
        out += item("\\fB\\-\\-generate\\-completion\\-script\\fR \\fIshell\\fR", "Print a completion script for bash, zsh or fish.")
        out += item("\\fB\\-\\-generate\\-man\\-page\\fR", "Print this page.")
        out += item("\\fB\\-h\\fR, \\fB\\-\\-help\\fR", "Show help information.")
        out += ".SH COMMANDS\n"
        for command in TrellisCommandLine.commands {
            let definition = command.definition
            out += ".SS \"\(escape(definition.shortUsage))\"\n"
            out += paragraph(definition.overview)
            for argument in definition.arguments {
                out += item("\\fI\(escape(argument.name))\\fR", argument.help)
            }
            for option in definition.options {
                let names = option.names.sorted { $0.count < $1.count }.map { "\\fB\(escape($0))\\fR" }.joined(separator: ", ")
                out += item(names + (option.valueName.map { " \\fI\(escape($0))\\fR" } ?? ""), option.help)
            }
            out += discussion(definition.discussion)
        }
        out += ".SH EXIT STATUS\n"
        out += paragraph(CommandError.statusTable.replacingOccurrences(of: "EXIT STATUS (sysexits): ", with: "As sysexits(3) has them: "))
        out += ".SH SEE ALSO\n"
        out += paragraph(
            "The guides in the source's Documentation folder: CommandLine.md (every rule of sort and view), Sorting.md, "
                + "Workbooks.md, DataSources.md, CollectionView.md. sqlite3(1), psql(1), vd(1).")
        return out
    }

    /// A paragraph of text, its lines joined (roff fills it to the reader's width).
    static func paragraph(_ text: String) -> String {
        ".PP\n" + lines(escape(joined(text))) + "\n"
    }

    /// A tagged paragraph: `tag` (already roff) over its help, indented.
    static func item(_ tag: String, _ help: String) -> String {
        ".TP\n\(tag)\n" + lines(escape(joined(help))) + "\n"
    }

    /// A command's discussion, paragraph by paragraph; one whose lines are laid out by spaces
    /// (a table, an indented list) is kept as it is.
    static func discussion(_ text: String) -> String {
        var out = ""
        for block in text.components(separatedBy: "\n\n") where !block.trimmingSpaces().isEmpty {
            let rows = block.split(separator: "\n", omittingEmptySubsequences: false)
            if rows.contains(where: { $0.hasPrefix(" ") || $0.contains("   ") }) {
                out += ".PP\n.nf\n" + rows.map { guarded(escape(String($0))) }.joined(separator: "\n") + "\n.fi\n"
            } else {
                out += paragraph(block)
            }
        }
        return out
    }

    /// The lines of a help text joined by spaces.
    static func joined(_ text: String) -> String {
        text.split(separator: "\n").map { $0.trimmingSpaces() }.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// Text as roff reads it literally: a backslash written as `\e`, a hyphen as `\-` (a minus,
    /// which a terminal shows as `-` and a search finds), and every character past ASCII by its
    /// code point (`\[u5206]` for 分), which every roff reads whatever the page's encoding.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            case _ where scalar.value > 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A line roff would take for a request (one starting with `.` or `'`) made text.
    static func guarded(_ line: String) -> String {
        line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : line
    }

    /// A filled text broken into lines of about 80 characters at spaces, each guarded.
    static func lines(_ text: String) -> String {
        var rows: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if !current.isEmpty, current.count + 1 + word.count > 80 {
                rows.append(current)
                current = ""
            }
            current += current.isEmpty ? String(word) : " " + word
        }
        if !current.isEmpty { rows.append(current) }
        return rows.map(guarded).joined(separator: "\n")
    }

    static func lowercasedFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.lowercased() + text.dropFirst()
    }
}
