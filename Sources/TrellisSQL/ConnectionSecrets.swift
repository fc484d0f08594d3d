import Foundation

/// The passwords a PostgreSQL connection string holds, and their removal from any text that is
/// shown: no message, warning or status line ever carries one.
///
/// libpq takes a password in three spellings, each of which is recognised: a URI's user
/// information (`postgresql://user:PASSWORD@host/db`), a URI's query parameter
/// (`?password=PASSWORD`, its name or value percent-encoded or not), and a key/value string
/// (`host=db password=PASSWORD` or `password = 'a quoted \' one'`). ``redact(_:secrets:)`` replaces
/// each with `…` wherever such a spelling appears in a text (libpq's own messages quote the URI
/// they could not read), and every occurrence of a password given in `secrets` (from the
/// connection strings the command was given, ``passwords(in:)``) as well.
///
/// ```swift
/// ConnectionSecrets.redact("cannot connect to 'postgresql://ana:hunter22@db/school?sslmode=on'")
/// // cannot connect to 'postgresql://ana:…@db/school?sslmode=on'
/// ```
public enum ConnectionSecrets {
    /// libpq's connection keywords: a string whose first word is one of these, followed by `=`,
    /// is a key/value connection string rather than a file's name.
    public static let keywords: Set<String> = [
        "host", "hostaddr", "port", "dbname", "user", "password", "passfile", "require_auth", "channel_binding",
        "connect_timeout", "client_encoding", "options", "application_name", "fallback_application_name", "keepalives",
        "keepalives_idle", "keepalives_interval", "keepalives_count", "tcp_user_timeout", "replication", "gssencmode",
        "sslmode", "requiressl", "sslcompression", "sslcert", "sslkey", "sslpassword", "sslcertmode", "sslrootcert",
        "sslcrl", "sslcrldir", "sslsni", "requirepeer", "ssl_min_protocol_version", "ssl_max_protocol_version",
        "krbsrvname", "gsslib", "gssdelegation", "service", "target_session_attrs", "load_balance_hosts",
    ]

    /// The keywords whose values are secret.
    static let secretKeys: Set<String> = ["password", "sslpassword"]

    /// Whether `text` names a PostgreSQL server: a `postgresql://` or `postgres://` URI, or a
    /// key/value string that begins with one of libpq's keywords (`host=db dbname=school`).
    public static func isConnectionString(_ text: String) -> Bool {
        if text.hasPrefix("postgresql://") || text.hasPrefix("postgres://") { return true }
        let trimmed = text.drop { $0 == " " || $0 == "\t" }
        guard let equals = trimmed.firstIndex(of: "=") else { return false }
        let key = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
        return keywords.contains(key)
    }

    /// The passwords in a connection string, as written and as libpq reads them (unquoted,
    /// unescaped, percent-decoded).
    public static func passwords(in connection: String) -> [String] {
        var found: [String] = []
        for span in secretSpans(in: connection) {
            let value = String(connection[span])
            found.append(value)
            if let decoded = value.removingPercentEncoding, decoded != value { found.append(decoded) }
            let unquoted = unquote(value)
            if unquoted != value { found.append(unquoted) }
        }
        return found.filter { !$0.isEmpty }
    }

    /// `text` with every password spelt as libpq takes one replaced by `…`, and every password in
    /// `secrets` of four characters or more wherever it appears (a shorter one would take other
    /// words with it; libpq quotes passwords only in the spellings above).
    public static func redact(_ text: String, secrets: [String] = []) -> String {
        // The spans in order, overlapping ones (`://u:password=x@h`) taken as one.
        var result = "", last = text.startIndex
        for range in secretSpans(in: text) {
            if range.lowerBound >= last {
                result += text[last..<range.lowerBound] + "…"
                last = range.upperBound
            } else if range.upperBound > last {
                last = range.upperBound
            }
        }
        result += text[last...]
        for secret in Set(secrets).sorted(by: { $0.count > $1.count }) where secret.count >= 4 {
            result = result.replacingOccurrences(of: secret, with: "…")
        }
        return result
    }

    /// Where passwords are in `text`, in order.
    static func secretSpans(in text: String) -> [Range<String.Index>] {
        var spans: [Range<String.Index>] = []
        // A URI's user information: scheme://user:PASSWORD@host.
        var searchFrom = text.startIndex
        while let scheme = text.range(of: "://", range: searchFrom..<text.endIndex) {
            let authorityEnd = text[scheme.upperBound...].firstIndex { "/?#\"' \t\n".contains($0) } ?? text.endIndex
            let authority = text[scheme.upperBound..<authorityEnd]
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":"),
                text.index(after: colon) < at
            {
                spans.append(text.index(after: colon)..<at)
            }
            searchFrom = scheme.upperBound
        }
        // key=value, in a URI's query or a key/value string: the key percent-decoded, any case.
        var i = text.startIndex
        while i < text.endIndex {
            guard text[i] == "=" else { i = text.index(after: i); continue }
            // The key: the word before `=` (spaces allowed between, as libpq allows them).
            var keyEnd = i
            while keyEnd > text.startIndex, text[text.index(before: keyEnd)] == " " { keyEnd = text.index(before: keyEnd) }
            var keyStart = keyEnd
            while keyStart > text.startIndex {
                let c = text[text.index(before: keyStart)]
                guard c.isLetter || c.isNumber || c == "_" || c == "%" else { break }
                keyStart = text.index(before: keyStart)
            }
            let key = (String(text[keyStart..<keyEnd]).removingPercentEncoding ?? String(text[keyStart..<keyEnd])).lowercased()
            var valueStart = text.index(after: i)
            guard secretKeys.contains(key) else { i = valueStart; continue }
            while valueStart < text.endIndex, text[valueStart] == " " { valueStart = text.index(after: valueStart) }
            var valueEnd = valueStart
            if valueStart < text.endIndex, text[valueStart] == "'" {
                // A quoted value: up to the closing quote, backslashes escaping.
                valueEnd = text.index(after: valueStart)
                while valueEnd < text.endIndex, text[valueEnd] != "'" {
                    if text[valueEnd] == "\\", text.index(after: valueEnd) < text.endIndex { valueEnd = text.index(after: valueEnd) }
                    valueEnd = text.index(after: valueEnd)
                }
                if valueEnd < text.endIndex { valueEnd = text.index(after: valueEnd) }
            } else {
                while valueEnd < text.endIndex, !"&#\"' \t\n".contains(text[valueEnd]) { valueEnd = text.index(after: valueEnd) }
                // In a message, a colon or a full stop after the string is the sentence's (the
                // password itself is among the secrets, and goes whole).
                while valueEnd > valueStart, ":,;.)".contains(text[text.index(before: valueEnd)]) {
                    valueEnd = text.index(before: valueEnd)
                }
            }
            if valueStart < valueEnd { spans.append(valueStart..<valueEnd) }
            i = valueEnd
        }
        return spans.sorted { $0.lowerBound < $1.lowerBound }
    }

    /// A key/value string's quoted value as libpq reads it.
    static func unquote(_ value: String) -> String {
        guard value.hasPrefix("'") else { return value }
        var out = "", escaped = false
        for c in value.dropFirst() {
            if escaped { out.append(c); escaped = false; continue }
            if c == "\\" { escaped = true; continue }
            if c == "'" { break }
            out.append(c)
        }
        return out
    }
}
