import Foundation

/// `trellis --generate-completion-script bash|zsh|fish`: completion of subcommands, their options
/// and, for options that take a value from a fixed set (formats, sort placements), those values;
/// files otherwise. Generated from the same definitions the parsers use, so they cannot drift.
enum CompletionScripts {
    static let shells = ["bash", "zsh", "fish"]

    /// The fixed values some options take.
    static let choices: [String: [String]] = [
        "--format": ["text", "csv", "json", "html", "svg"],
        "--nulls": ["last", "first", "smallest"],
        "--recompute": ["mean", "sum", "count", "min", "max"],
    ]

    static func script(for shell: String) -> String? {
        let commands = TrellisCommandLine.commands
        switch shell {
        case "bash":
            var out = "# bash completion for trellis; source it, or put it in bash-completion's folder.\n"
            out += "_trellis() {\n  local cur prev words cword\n  cur=\"${COMP_WORDS[COMP_CWORD]}\"\n"
            out += "  prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n"
            out += "  if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
            out += "    COMPREPLY=($(compgen -W \"\(commands.map(\.name).joined(separator: " ")) help --help --version "
                + "--generate-completion-script\" -- \"$cur\"))\n    return\n  fi\n"
            out += "  case \"$prev\" in\n    --generate-completion-script) COMPREPLY=($(compgen -W \"\(shells.joined(separator: " "))\" -- \"$cur\")); return ;;\n"
            for (option, values) in choices.sorted(by: { $0.key < $1.key }) {
                out += "    \(option)) COMPREPLY=($(compgen -W \"\(values.joined(separator: " "))\" -- \"$cur\")); return ;;\n"
            }
            out += "  esac\n  case \"${COMP_WORDS[1]}\" in\n"
            for command in commands {
                let options = command.definition.options.flatMap(\.names).joined(separator: " ")
                out += "    \(command.name)) COMPREPLY=($(compgen -W \"\(options)\" -- \"$cur\") $(compgen -f -- \"$cur\")) ;;\n"
            }
            out += "    help) COMPREPLY=($(compgen -W \"\(commands.map(\.name).joined(separator: " "))\" -- \"$cur\")) ;;\n"
            out += "  esac\n}\ncomplete -F _trellis trellis\n"
            return out
        case "zsh":
            var out = "#compdef trellis\n# zsh completion for trellis; put it on your $fpath as _trellis.\n"
            out += "_trellis() {\n  local -a subcommands\n  subcommands=(\n"
            for command in commands { out += "    '\(command.name):\(escape(command.summary, quote: "'"))'\n" }
            out += "    'help:Show help for a subcommand.'\n  )\n"
            out += "  if (( CURRENT == 2 )); then\n    _describe 'subcommand' subcommands\n    return\n  fi\n"
            out += "  case $words[2] in\n"
            for command in commands {
                out += "    \(command.name))\n      _arguments \\\n"
                for option in command.definition.options {
                    let help = escape(option.help.replacingOccurrences(of: "\n", with: " "), quote: "'")
                        .replacingOccurrences(of: "[", with: "\\[").replacingOccurrences(of: "]", with: "\\]")
                    let value = option.valueName.map { name in
                        ":\(name):" + (choices[option.key].map { "(\($0.joined(separator: " ")))" } ?? "_files")
                    } ?? ""
                    let repeats = option.repeatable ? "*" : ""
                    for name in option.names { out += "        '\(repeats)\(name)[\(help)]\(value)' \\\n" }
                }
                out += "        '*:file:_files' ;;\n"
            }
            out += "  esac\n}\n_trellis \"$@\"\n"
            return out
        case "fish":
            var out = "# fish completion for trellis; put it in ~/.config/fish/completions/trellis.fish.\n"
            out += "complete -c trellis -f\n"
            for command in commands {
                out += "complete -c trellis -n '__fish_use_subcommand' -a \(command.name) -d '\(escape(command.summary, quote: "'"))'\n"
                for option in command.definition.options {
                    var line = "complete -c trellis -n '__fish_seen_subcommand_from \(command.name)'"
                    for name in option.names {
                        line += name.hasPrefix("--") ? " -l \(name.dropFirst(2))" : " -s \(name.dropFirst(1))"
                    }
                    if option.valueName != nil {
                        line += choices[option.key].map { " -x -a '\($0.joined(separator: " "))'" } ?? " -r -F"
                    }
                    line += " -d '\(escape(option.help.split(separator: "\n").first.map(String.init) ?? "", quote: "'"))'"
                    out += line + "\n"
                }
                out += "complete -c trellis -n '__fish_seen_subcommand_from \(command.name)' -F\n"
            }
            out += "complete -c trellis -n '__fish_use_subcommand' -a help -d 'Show help for a subcommand.'\n"
            out += "complete -c trellis -n '__fish_use_subcommand' -l generate-completion-script -x -a '\(shells.joined(separator: " "))'\n"
            return out
        default:
            return nil
        }
    }

    static func escape(_ text: String, quote: Character) -> String {
        quote == "'" ? text.replacingOccurrences(of: "'", with: "'\\''") : text
    }
}
