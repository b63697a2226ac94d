import Foundation
import OnTheMapTestSupport
import Testing

/// One exit status scheme across `onthemap-server` — 0 done, 1 failed, 64 a usage or settings
/// mistake — and one line per error, with the usage text only after a mistake in the command line.
@Suite("Exit statuses and error lines", .ownThreads)
struct ExitStatusTests {
    let server = BuiltProducts.path("onthemap-server")

    private func newDatabase(_ directory: TemporaryDirectory) throws -> String {
        let database = directory.file("db.sqlite")
        #expect(try runCommand(server, ["migrate", "--create", "--db", database]).status == 0)
        return database
    }

    @Test(arguments: ["99999", "65536", "-1", "http"])
    func aPortOutsideTheRangeIsAUsageError(port: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Under `timeout`: a port let through would start a server that serves until killed (124).
        // Both spellings: `--port -1` was read as a missing value followed by an option `-1`.
        for spelling in [["--port=\(port)"], ["--port", port]] {
            let result = try runCommand(
                "/usr/bin/timeout", ["20", server, "serve", "--create", "--db", directory.file("db.sqlite")] + spelling)
            #expect(result.status == 64, "\(spelling): \(result.stdout)\(result.stderr)")
            let expected = Int(port) == nil
                ? "The value '\(port)' is invalid for '--port <port>'" : "--port must be from 1 to 65535, or 0 for any free port."
            // After "onthemap-server: ", as every message of the server, not ArgumentParser's "Error: ".
            #expect(result.stderr.hasPrefix("onthemap-server: \(expected)"), "\(spelling): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: directory.file("db.sqlite")))
        }
    }

    /// Every number the server takes names its range, a negative one included (`--web-pins -5` read
    /// as a flag and said "Missing value for '--web-pins'").
    @Test(arguments: [
        (["serve", "--pool-size", "-1"], "--pool-size must be 1 or more."),
        (["serve", "--session-lifetime", "-1"], "--session-lifetime must be 1 second or more."),
        (["serve", "--min-password-length", "-1"], "--min-password-length must be from 1 to 72."),
        (["serve", "--max-login-failures", "-1"], "--max-login-failures must be 1 or more."),
        (["serve", "--max-login-attempts-per-address", "0"], "--max-login-attempts-per-address must be 1 or more."),
        (["serve", "--idle-timeout", "-1"], "--idle-timeout must be 1 second or more."),
        (["serve", "--max-connections", "-1"], "--max-connections must be 1 or more."),
        (["serve", "--max-request-memory", "-1"], "--max-request-memory must be from 1 to 1048576 MiB."),
        (["serve", "--integrity-check-interval", "-1"], "--integrity-check-interval must be 1 second or more, or 0 for a check at start only."),
        (["serve", "--threads", "-1"], "--threads must be from 1 to 256."),
        (["serve", "--web-pins", "-5"], "--web-pins must be from 1 to 10000."),
        (["serve", "--web-poll-seconds", "-1"], "--web-poll-seconds must be from 1 to 3600 seconds."),
        (["pin", "list", "--limit", "-3"], "--limit must be 1 or more."),
        (["seed", "--demo", "--count", "-1"], "--count must be 0 or more."),
        (["seed", "--demo", "--bcrypt-cost", "-1"], "--bcrypt-cost must be from 4 to 31."),
        (["user", "add", "--email", "a@example.com", "--first", "Ada", "--last", "L", "--password-stdin", "--min-password-length", "-2"],
         "--min-password-length must be from 1 to 72."),
    ])
    func aNumberOutOfRangeIsAUsageErrorNamingTheRange(arguments: [String], message: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Under `timeout`: a `serve` let through would serve until killed (124).
        let result = try runCommand("/usr/bin/timeout", ["20", server] + arguments + ["--db", directory.file("db.sqlite")], stdin: "")
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.hasPrefix("onthemap-server: \(message)\nUsage: onthemap-server "), "\(arguments): \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("db.sqlite")), "\(arguments)")
    }

    @Test func failuresAreOneLineWithStatus1AndNoUsage() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try newDatabase(directory)
        let add = ["user", "add", "--db", db, "--email", "ada@example.com", "--first", "Ada", "--last", "Lovelace",
                   "--password-stdin", "--bcrypt-cost", "4"]
        #expect(try runCommand(server, add, stdin: "analytical\n").status == 0)
        let failures: [(String, CommandResult, String)] = [
            ("a taken email", try runCommand(server, add, stdin: "different-one\n"), "An account with the email ada@example.com already exists."),
            ("user add with nothing on stdin", try runCommand(server, add, stdin: ""), "No password on standard input"),
            ("user passwd with nothing on stdin",
             try runCommand(server, ["user", "passwd", "ada@example.com", "--password-stdin", "--db", db], stdin: ""),
             "No password on standard input"),
            ("a settings file that is not there",
             try runCommand(server, ["user", "list", "--config", directory.file("missing.conf")]),
             "Cannot read the settings file \(directory.file("missing.conf")): there is no such file."),
            ("an unknown account", try runCommand(server, ["user", "show", "nobody@example.com", "--db", db]),
             "No account has the key or email nobody@example.com."),
        ]
        for (what, result, message) in failures {
            #expect(result.status == 1, "\(what): \(result.status)")
            #expect(result.stderr.hasPrefix("onthemap-server: ") && result.stderr.contains(message), "\(what): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(what): one line, not \(result.stderr)")
            #expect(!result.stderr.contains("Usage:"), "\(what): \(result.stderr)")
        }
        // A mistake in the command line is a usage error, with the usage text.
        let usage = try runCommand(server, ["user", "add", "--db", db, "--email", "ada@example.com"])
        #expect(usage.status == 64)
        #expect(usage.stderr.contains("Usage:"), "\(usage.stderr)")
    }

    @Test func aBadSettingIsNamedByFileAndLine() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try newDatabase(directory)
        let settings = directory.file("server.conf")
        let cases: [(String, String)] = [
            ("open-writes = nope", "line 3: `open-writes` is a switch: write `open-writes = true` or `false`, not `nope`."),
            ("idle-timeout = 0", "line 3: `idle-timeout = 0`: --idle-timeout must be 1 second or more."),
            ("port = http", "line 3: `port = http`: The value 'http' is invalid for '--port <port>'"),
            ("pins-per-account = three", "line 3: `pins-per-account = three`:"),
            ("no-such-option = 1", "line 3: `no-such-option = 1`: Unknown option '--no-such-option'"),
        ]
        for (line, message) in cases {
            try "# the server\ndb = \(db)\n\(line)\n".write(toFile: settings, atomically: true, encoding: .utf8)
            // No --port here: the command line's would win over the file's (as it should).
            let result = try runCommand("/usr/bin/timeout", ["20", server, "serve", "--config", settings])
            #expect(result.status == 64, "\(line): \(result.status) \(result.stderr)")
            #expect(result.stderr.hasPrefix("onthemap-server: \(settings) \(message)"), "\(line): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(line): \(result.stderr)")
            #expect(!result.stderr.contains("Usage:"), "\(line): \(result.stderr)")
        }
        // The other commands pass over the keys that are serve's alone.
        try "db = \(db)\nopen-writes = true\nport = 8081\n".write(toFile: settings, atomically: true, encoding: .utf8)
        let list = try runCommand(server, ["user", "list", "--config", settings])
        #expect(list.status == 0, "\(list.stderr)")
    }

    @Test func helpShowsEachDefaultOnceAndOnlyOptionsThatApply() throws {
        for command in [["serve"], ["user", "list"], ["user", "add"], ["pin", "list"], ["migrate"], ["backup"], ["restore"]] {
            let help = try runCommand(server, command + ["--help"])
            #expect(help.status == 0)
            // ArgumentParser adds "(default: 10)" itself: a help string that says it too doubles it.
            let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(!text.contains("(default "), "\(command): \(help.stdout)")
            // Connections in a pool matter to a server holding many requests, not to one command.
            #expect(help.stdout.contains("--pool-size") == (command == ["serve"]), "\(command)")
        }
    }
}
