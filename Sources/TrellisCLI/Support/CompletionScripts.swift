import Foundation
import TrellisGrid
import TrellisSQL

/// `trellis --generate-completion-script bash|zsh|fish`: completion of subcommands, their options,
/// the values of options that take one from a fixed set (each command's own: `--format` is json,
/// svg or html for `layout`, text, csv, json or html for `sort`), the column names of the file on
/// the line after `--by`, `--pin-top`, `--pin-bottom` and `--type` (asked of `trellis
/// --complete-columns FILE`), and files otherwise, folders ending in `/`. Generated from the same
/// definitions the parsers use, so they cannot drift.
enum CompletionScripts {
    static let shells = ["bash", "zsh", "fish"]

    /// The options whose value starts with a column name, and what follows the name.
    static let columnOptions: [String: String] = ["--by": "", "--pin-top": "=", "--pin-bottom": "=", "--type": "="]

    /// Every option that takes a value, over every command: skipped, with its value, when a
    /// script looks for the file on the line.
    static var valuedOptions: [String] {
        Array(Set(TrellisCommandLine.commands.flatMap { $0.definition.options.filter { $0.valueName != nil }.flatMap(\.names) })).sorted()
    }

    static func script(for shell: String) -> String? {
        let commands = TrellisCommandLine.commands
        switch shell {
        case "bash":
            var out = "# bash completion for trellis; source it, or put it in bash-completion's folder.\n"
            out += """
                # The column names of the file on the line (and its --table), one per line.
                _trellis_columns() {
                  local file="" table="" i word
                  for ((i=2; i<COMP_CWORD; i++)); do
                    word="${COMP_WORDS[i]}"
                    case "$word" in
                      --table) table="${COMP_WORDS[i+1]}"; ((i++)) ;;
                      \(valuedOptions.joined(separator: "|"))) ((i++)) ;;
                      -*) ;;
                      *) [ -z "$file" ] && file="$word" ;;
                    esac
                  done
                  [ -n "$file" ] || return
                  file="${file/#\\~/$HOME}"
                  if [ -n "$table" ]; then
                    "${COMP_WORDS[0]}" --complete-columns "$file" --table "$table" 2>/dev/null
                  else
                    "${COMP_WORDS[0]}" --complete-columns "$file" 2>/dev/null
                  fi
                }

                """
            out += "_trellis() {\n  local cur prev\n  cur=\"${COMP_WORDS[COMP_CWORD]}\"\n"
            out += "  prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n"
            out += "  if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
            out +=
                "    COMPREPLY=($(compgen -W \"\(commands.map(\.name).joined(separator: " ")) help --help --version "
                + "--generate-completion-script --generate-man-page\" -- \"$cur\"))\n    return\n  fi\n"
            out +=
                "  case \"$prev\" in\n    --generate-completion-script) COMPREPLY=($(compgen -W \"\(shells.joined(separator: " "))\" -- \"$cur\")); return ;;\n"
            for (option, suffix) in columnOptions.sorted(by: { $0.key < $1.key }) {
                out += "    \(option))\n      local IFS=$'\\n'\n"
                out += "      COMPREPLY=($(compgen -S '\(suffix)' -W \"$(_trellis_columns)\" -- \"$cur\"))\n"
                out += "      COMPREPLY=(\"${COMPREPLY[@]// /\\\\ }\")\n"
                if !suffix.isEmpty { out += "      compopt -o nospace 2>/dev/null\n" }
                out += "      return ;;\n"
            }
            out += "  esac\n  case \"${COMP_WORDS[1]}\" in\n"
            for command in commands {
                // This command's options with fixed values.
                let fixed = command.definition.options.filter { !$0.choices.isEmpty }
                if !fixed.isEmpty {
                    out += "    \(command.name))\n      case \"$prev\" in\n"
                    for option in fixed {
                        out +=
                            "        \(option.names.joined(separator: "|"))) COMPREPLY=($(compgen -W \"\(option.choices.joined(separator: " "))\" -- \"$cur\")); return ;;\n"
                    }
                    out += "      esac ;;\n"
                }
            }
            out += "  esac\n  case \"${COMP_WORDS[1]}\" in\n"
            out += "    help) COMPREPLY=($(compgen -W \"\(commands.map(\.name).joined(separator: " "))\" -- \"$cur\")) ;;\n"
            out += "    *)\n      if [[ \"$cur\" == -* ]]; then\n        case \"${COMP_WORDS[1]}\" in\n"
            for command in commands {
                let options = command.definition.options.flatMap(\.names).joined(separator: " ")
                out += "          \(command.name)) COMPREPLY=($(compgen -W \"\(options)\" -- \"$cur\")) ;;\n"
            }
            out += "        esac\n      else\n"
            out += "        # Files and folders, a folder ending in / and names quoted as a file name is.\n"
            out += "        compopt -o filenames 2>/dev/null\n        COMPREPLY=($(compgen -f -- \"$cur\"))\n      fi ;;\n"
            out += "  esac\n}\ncomplete -F _trellis trellis\n"
            return out
        case "zsh":
            var out = "#compdef trellis\n# zsh completion for trellis; put it on your $fpath as _trellis.\n"
            out += """
                # The column names of the file on the line (and its --table).
                _trellis_columns() {
                  local file="" table="" i
                  for ((i=3; i<CURRENT; i++)); do
                    case "$words[i]" in
                      --table) table="$words[i+1]"; ((i++)) ;;
                      \(valuedOptions.joined(separator: "|"))) ((i++)) ;;
                      -*) ;;
                      *) [[ -z "$file" ]] && file="$words[i]" ;;
                    esac
                  done
                  [[ -n "$file" ]] || return 1
                  local -a columns
                  if [[ -n "$table" ]]; then
                    columns=("${(@f)$($words[1] --complete-columns "${~file}" --table "$table" 2>/dev/null)}")
                  else
                    columns=("${(@f)$($words[1] --complete-columns "${~file}" 2>/dev/null)}")
                  fi
                  compadd -S "$1" -- "${columns[@]}"
                }

                """
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
                    let value =
                        option.valueName.map { name in
                            ":\(name):"
                                + (!option.choices.isEmpty
                                    ? "(\(option.choices.joined(separator: " ")))"
                                    : columnOptions[option.key].map { "{_trellis_columns '\($0)'}" } ?? "_files")
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
            out += """
                # The column names of the file on the line (and its --table).
                function __trellis_columns
                    set -l words (commandline -opc)
                    set -l file ""
                    set -l table ""
                    set -l i 3
                    while test $i -le (count $words)
                        switch $words[$i]
                            case --table
                                set i (math $i + 1)
                                test $i -le (count $words); and set table $words[$i]
                            case \(valuedOptions.joined(separator: " "))
                                set i (math $i + 1)
                            case '-*'
                            case '*'
                                test -z "$file"; and set file $words[$i]
                        end
                        set i (math $i + 1)
                    end
                    test -n "$file"; or return
                    if test -n "$table"
                        $words[1] --complete-columns $file --table $table 2>/dev/null
                    else
                        $words[1] --complete-columns $file 2>/dev/null
                    end
                end

                """
            out += "complete -c trellis -f\n"
            for command in commands {
                out += "complete -c trellis -n '__fish_use_subcommand' -a \(command.name) -d '\(escape(command.summary, quote: "'"))'\n"
                for option in command.definition.options {
                    var line = "complete -c trellis -n '__fish_seen_subcommand_from \(command.name)'"
                    for name in option.names {
                        line += name.hasPrefix("--") ? " -l \(name.dropFirst(2))" : " -s \(name.dropFirst(1))"
                    }
                    if option.valueName != nil {
                        if !option.choices.isEmpty {
                            line += " -x -a '\(option.choices.joined(separator: " "))'"
                        } else if let suffix = columnOptions[option.key] {
                            line += suffix.isEmpty ? " -x -a '(__trellis_columns)'" : " -x -a '(__trellis_columns)\(suffix)'"
                        } else {
                            line += " -r -F"
                        }
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

    /// `trellis --complete-columns FILE [--table NAME]`: the file's column names, one per line,
    /// for the completion scripts. A CSV file is read only as far as its first lines (a header
    /// and a little more, so that its encoding and delimiter are found as a sort finds them).
    static func columns(_ arguments: [String], io: inout CommandIO) throws(CommandError) {
        guard let path = arguments.first else { throw CommandError(.rule("'--complete-columns' takes a file")) }
        var table: String?
        if arguments.count == 3, arguments[1] == "--table" {
            table = arguments[2]
        } else if arguments.count != 1 {
            throw CommandError(.rule("'--complete-columns' takes a file and, for a database, --table NAME"))
        }
        let names: [String]
        if table != nil || ConnectionSecrets.isConnectionString(path) {
            guard table != nil else { return }
            names = try io.openSource(path, table: table, query: nil, types: [:]).columns.map(\.identifier)
        } else {
            guard let handle = FileHandle(forReadingAtPath: io.url(for: path).path) else {
                throw .noInput("cannot read \(Excerpt.of(path))")
            }
            defer { try? handle.close() }
            var head = (try? handle.read(upToCount: 64 << 10)) ?? Data()
            // The whole lines read, so that a record is not cut in the middle.
            if head.count == 64 << 10, let end = head.lastIndex(of: 0x0A) { head = head.prefix(through: end) }
            do {
                names = try CSV.table(head).columns.map(\.identifier)
            } catch {
                throw .data("\(error)")
            }
        }
        io.stdout += names.map { $0.replacingOccurrences(of: "\n", with: " ") + "\n" }.joined()
    }
}
