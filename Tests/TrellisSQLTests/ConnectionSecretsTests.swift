import Foundation
import Testing
import TrellisCLI
import TrellisSQL

@Suite("Passwords never shown")
struct ConnectionSecretsTests {
    @Test(
        "every spelling libpq takes a password in is redacted: user information, query parameters (encoded too), key/value strings (quoted too)",
        arguments: [
            ("postgresql://ana:Hunter2Secret@db/school", "postgresql://ana:…@db/school"),
            ("postgres://ana:p%40ss%3Aword@db:5432/school?sslmode=require", "postgres://ana:…@db:5432/school?sslmode=require"),
            ("postgresql://ana@db/school?password=Hunter2Secret&sslmode=require", "postgresql://ana@db/school?password=…&sslmode=require"),
            ("postgresql://db/school?pass%77ord=Hunter2Secret", "postgresql://db/school?pass%77ord=…"),
            ("postgresql://db/school?PASSWORD=Hunter2Secret", "postgresql://db/school?PASSWORD=…"),
            ("host=db password=Hunter2Secret dbname=school", "host=db password=… dbname=school"),
            ("host=db password = 'Hunter 2 \\' Secret' dbname=school", "host=db password = … dbname=school"),
            ("host=db sslpassword=KeyPhrase99", "host=db sslpassword=…"),
            (
                "cannot connect to 'postgresql://u:Hunter2Secret@[::1': end of string in \"postgresql://u:Hunter2Secret@[::1\"",
                "cannot connect to 'postgresql://u:…@[::1': end of string in \"postgresql://u:…@[::1\""
            ),
            ("postgresql://u:password=x@h/d", "postgresql://u:…"),  // overlapping spellings: taken as one, the more
            ("no password here: host=db user=ana", "no password here: host=db user=ana"),
        ])
    func spellings(text: String, expected: String) {
        #expect(ConnectionSecrets.redact(text) == expected)
    }

    @Test("a password given is removed wherever it appears, as written and as libpq reads it")
    func givenSecrets() {
        let passwords = ConnectionSecrets.passwords(in: "host=db password='Hunter 2 \\' Secret' user=x")
        #expect(passwords.contains("Hunter 2 ' Secret"))
        #expect(ConnectionSecrets.redact("missing \"=\" after \"Hunter 2 ' Secret\"", secrets: passwords) == "missing \"=\" after \"…\"")
        let encoded = ConnectionSecrets.passwords(in: "postgresql://ana:p%40ssw0rd@db/x")
        #expect(encoded.contains("p@ssw0rd"))
        #expect(ConnectionSecrets.isConnectionString("host=db dbname=school"))
        #expect(ConnectionSecrets.isConnectionString("postgres://db"))
        #expect(!ConnectionSecrets.isConnectionString("scores.csv"))
        #expect(!ConnectionSecrets.isConnectionString("a=b.csv"))
    }

    func run(_ arguments: [String]) -> (status: Int32, stdout: String, stderr: String) {
        var io = CommandIO(standardInput: { Data() })
        let status = TrellisCommandLine.run(arguments, io: &io)
        return (status, io.stdout, io.stderr)
    }

    @Test(
        "no message of any command shows a password: a refused connection, a malformed URL, a key/value string, the viewer's refusal of a pipe",
        arguments: [
            ["sort", "postgresql://ana@127.0.0.1:1/school?password=Hunter2Secret", "--table", "t"],
            ["sort", "postgresql://ana:Hunter2Secret@127.0.0.1:1/school", "--query", "SELECT 1"],
            ["sort", "postgresql://u:Hunter2Secret@[::1", "--table", "t"],
            ["sort", "postgresql://ana@127.0.0.1:1/school?pass%77ord=Hunter2Secret&sslmode=bogus", "--table", "t"],
            ["sort", "host=127.0.0.1 port=1 password=Hunter2Secret", "--table", "t"],
            ["sort", "host=127.0.0.1 port=1 password=Hunter2Secret"],
            ["sort", "host=127.0.0.1 port=1 password='Hunter2 Secret' dbname=x", "--table", "t"],
            ["view", "postgresql://ana:Hunter2Secret@127.0.0.1:1/school", "--table", "t"],
            ["view", "postgresql://ana@127.0.0.1:1/school?password=Hunter2Secret", "--table", "t"],
        ])
    func commands(arguments: [String]) {
        let result = run(arguments)
        #expect(result.status != 0)
        #expect(!result.stderr.isEmpty)
        for text in [result.stdout, result.stderr] {
            #expect(!text.contains("Hunter2"), "\(text)")
            #expect(!text.contains("Secret"), "\(text)")
        }
    }
}
