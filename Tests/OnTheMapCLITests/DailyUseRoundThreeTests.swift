import Foundation
import OnTheMapModels
import OnTheMapTestSupport
import Testing

/// The CLI's items of #40: a mistyped command, a second login, `open` of what is not there, and a
/// logout the server never heard of. The real client against the real daemon and server.
@Suite("Daily use, third round", .ownThreads)
struct DailyUseRoundThreeTests {
    @Test func aMistypedCommandIsToldTheOneMeant() throws {
        let typo = try runCommand(BuiltProducts.path("onthemap"), ["stauts"])
        #expect(typo.status == 64)
        // After "onthemap: ", as every other message, not ArgumentParser's "Error: "; the usage follows.
        #expect(typo.stderr.hasPrefix("onthemap: unknown command 'stauts'. Did you mean 'status'?\nUsage: onthemap "), "\(typo.stderr)")
        #expect(typo.stdout.isEmpty)
        // Options first, as `onthemap --socket PATH stauts` is written.
        let moved = try runCommand(BuiltProducts.path("onthemap"), ["--socket", "/nonexistent", "mpyin"])
        #expect(moved.status == 64 && moved.stderr.contains("Did you mean 'mypin'?"), "\(moved.stderr)")
        // Nothing close: the list of commands is one `--help` away.
        let far = try runCommand(BuiltProducts.path("onthemap"), ["frobnicate"])
        #expect(far.status == 64 && far.stderr.hasPrefix("onthemap: unknown command 'frobnicate'. `onthemap --help` lists the commands."), "\(far.stderr)")
    }

    /// ArgumentParser's own errors (an option mistyped, a value missing) begin "onthemap: " too, with
    /// the usage after them and status 64; help and the version are as ever, on stdout, status 0.
    @Test func usageErrorsBeginWithTheProgramsName() throws {
        let environment = ["ONTHEMAP_SOCKET": "/nonexistent/sock"]
        for (arguments, first) in [
            (["students", "--limt", "3"], "onthemap: unknown option '--limt'. Did you mean '--limit'?"),
            (["geocode"], "onthemap: missing expected argument '<place>'"),
            (["students", "--limit", "many"], "onthemap: the value 'many' is invalid for '--limit <limit>'"),
            (["status", "--format", "bogus"], "onthemap: the value 'bogus' is invalid for '--format <format>'"),
            // Two outputs asked for: one is chosen, as students --json --tsv is (the bar's line won, silently).
            (["status", "--json", "--format", "waybar"], "onthemap: choose one of --json (the daemon's status object) and --format"),
            (["post", "Paris", "https://ada.example/", "--json", "--yes", "--frob"], "onthemap: unknown option '--frob'"),
        ] {
            let run = try runCommand(BuiltProducts.path("onthemap"), arguments, environment: environment)
            #expect(run.status == 64, "\(arguments): \(run.stderr)")
            #expect(run.stderr.hasPrefix(first), "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("\nUsage: onthemap \(arguments[0]) "), "\(arguments): \(run.stderr)")
            #expect(!run.stderr.contains("Error:") && run.stdout.isEmpty, "\(arguments): \(run.stderr)")
        }
        for arguments in [["--help"], ["help"], ["students", "--help"], ["help", "post"]] {
            let help = try runCommand(BuiltProducts.path("onthemap"), arguments, environment: environment)
            #expect(help.status == 0 && help.stderr.isEmpty, "\(arguments): \(help.stderr)")
            #expect(help.stdout.hasPrefix("OVERVIEW: ") && help.stdout.contains("USAGE: onthemap"), "\(arguments): \(help.stdout)")
        }
        let version = try runCommand(BuiltProducts.path("onthemap"), ["--version"], environment: environment)
        #expect(version.status == 0 && version.stderr.isEmpty && version.stdout.hasSuffix("\n") && !version.stdout.contains(" "), "\(version.stdout)")
    }

    /// Text longer than the daemon reads is a usage error in the user's words, said before anything is
    /// sent: the daemon's refusal named its param ("query is too long") and blamed mismatched versions.
    @Test func textLongerThanTheDaemonReadsIsAUsageError() throws {
        let long = String(repeating: "a", count: 400)
        for (arguments, what) in [
            (["students", "--search", long], "--search is too long: at most 200 bytes, and it has 400."),
            (["students", "--near", long], "--near is too long: at most 300 bytes, and it has 400."),
            (["map", "--near", long], "--near is too long: at most 300 bytes, and it has 400."),
            (["geocode", long], "the place is too long: at most 300 bytes, and it has 400."),
            (["post", long, "https://example.com/me", "--yes"], "the place is too long: at most 300 bytes, and it has 400."),
            (["open", long], "the name is too long: at most 200 bytes, and it has 400."),
        ] {
            let run = try runCommand(BuiltProducts.path("onthemap"), arguments, environment: ["ONTHEMAP_SOCKET": "/nonexistent/sock"])
            #expect(run.status == 64, "\(arguments[0]): \(run.stderr)")
            #expect(run.stderr.hasPrefix("onthemap: " + what), "\(arguments[0]): \(run.stderr)")
            #expect(!run.stderr.contains("query") && !run.stderr.contains("versions"), "\(run.stderr)")
        }
    }

    @Test func openOfARowOrANameThatIsNotThereExitsOne() throws {
        let bed = try CLITestBed()
        let none = try bed.run(["open", "1"], extra: ["ONTHEMAP_OPENER": "/bin/echo"])
        #expect(none.status == 1 && none.stderr.contains("no table or map to pick from yet"), "\(none.stderr)")
        // Through a pipe, as a person reads it in a pager: the last table.
        #expect(try bed.run(["students", "--limit", "4"]).status == 0)
        let row = try bed.run(["open", "7"], extra: ["ONTHEMAP_OPENER": "/bin/echo"])
        #expect(row.status == 1, "\(row.stderr)")
        #expect(row.stderr == "onthemap: no row 7: the last table or map has rows 1 to 4\n")
        #expect(row.stdout.isEmpty)
        let name = try bed.run(["open", "Zebedee Quux"], extra: ["ONTHEMAP_OPENER": "/bin/echo"])
        #expect(name.status == row.status, "the same failure, the same status: \(name.stderr)")
        // A name in several words needs no quotes.
        let unquoted = try bed.run(["open", "Zebedee", "Quux"], extra: ["ONTHEMAP_OPENER": "/bin/echo"])
        #expect(unquoted.status == name.status && unquoted.stderr == name.stderr, "\(unquoted.stderr)")
        // A number in the table opens (the opener prints the link it was handed).
        let opened = try bed.run(["open", "4"], extra: ["ONTHEMAP_OPENER": "/bin/echo"])
        #expect(opened.status == 0 && opened.stdout.hasPrefix("http"), "\(opened.stderr)")
    }

    /// A name is matched as the daemon's search matches it, without case or accents: `open queretaro`
    /// opens Ana Querétaro, although the search also finds a student in Querétaro (the CLI's own
    /// lower-casing lost her, and it listed both). Accents written as a letter and a combining mark too.
    @Test func openMatchesANameWithoutItsAccents() throws {
        let bed = try CLITestBed(login: false)
        let people = [("Ana", "Quer\u{E9}taro", "Paris, France"), ("Ada", "Quintero", "Quer\u{E9}taro, Mexico"),
                      ("Rene\u{301}", "Nu\u{301}n\u{303}ez", "Lima, Peru")]
        for (index, person) in people.enumerated() {
            let email = "accent\(index)@example.com"
            try bed.server.addUser(email: email, password: "accent-test-\(index)", first: person.0, last: person.1)
            #expect(try bed.run(["login", "--force", "--username", email, "--password-stdin"], stdin: "accent-test-\(index)\n").status == 0)
            let posted = try bed.run(["post", person.2, "https://accent.example/\(index)", "--yes", "--overwrite"])
            #expect(posted.status == 0, "\(posted.stderr)")
        }
        let place = try bed.run(["students", "--search", "queretaro", "--json"])
        #expect(place.stdout.contains("Quintero"), "the search finds the student in Querétaro too: \(place.stdout)")
        for (name, index) in [(["queretaro"], 0), (["rene", "NUNEZ"], 2)] {
            let opened = try bed.run(["open"] + name, extra: ["ONTHEMAP_OPENER": "/bin/echo"])
            #expect(opened.status == 0, "\(name): \(opened.stderr)")
            #expect(opened.stdout == "https://accent.example/\(index)\n", "\(name): \(opened.stdout)")
        }
    }

    /// Logged in already, a script is done as it asks: with nothing to log in with, it is told who is
    /// logged in and succeeds (exit 0, as `gh` and `tailscale up` when there is nothing to do); with a
    /// password piped in, it logs in with it, and a wrong one is refused and leaves the session as it
    /// was. `--force` logs in again, as ever.
    @Test func aSecondLoginFromAScriptDoesWhatItAsks() throws {
        let bed = try CLITestBed()
        let key = try #require(try JSONDecoder().decode(WireJSON.self, from: Data(try bed.run(["status", "--json"]).stdout.utf8))["account"]?["key"]?.stringValue)
        let nothing = try bed.run(["login"], stdin: "")
        #expect(nothing.status == 0, "\(nothing.stderr)")
        #expect(
            nothing.stderr == "already logged in as Ada Lovelace (\(key)): nothing changed; `onthemap login --force` logs in again\n",
            "\(nothing.stderr)")
        let asJSON = try bed.run(["login", "--json"], stdin: "")
        #expect(asJSON.status == 0 && asJSON.stdout.contains(#""key":"\#(key)""#), "\(asJSON.stdout)")
        // An email with no password: what is missing is said, as when logged out.
        let partial = try bed.run(["login", "--username", "demo@onthemap.example"], stdin: "")
        #expect(partial.status == 64 && partial.stderr.contains("give --password-stdin"), "\(partial.stderr)")

        let wrong = try bed.run(["login", "--username", "demo@onthemap.example", "--password-stdin"], stdin: "wrong password\n")
        #expect(wrong.status == 1 && wrong.stderr.contains("check the email and password"), "\(wrong.stderr)")
        #expect(try bed.run(["status", "--json"]).stdout.contains(#""loggedIn":true"#), "a refused login keeps the session")
        let again = try bed.run(["login", "--username", "demo@onthemap.example", "--password-stdin"], stdin: "onthemap-demo\n")
        #expect(again.status == 0 && again.stderr == "logged in as Ada Lovelace\n", "\(again.stderr)")
        let forced = try bed.run(["login", "--force", "--username", "demo@onthemap.example", "--password-stdin"], stdin: "onthemap-demo\n")
        #expect(forced.status == 0 && forced.stderr == "logged in as Ada Lovelace\n", "\(forced.stderr)")
    }

    /// An account the server's operator disabled is told so, with the right password, and is not sent
    /// to check its email and password.
    @Test func aDisabledAccountIsToldItIsDisabled() throws {
        let bed = try CLITestBed(login: false)
        let disable = try runCommand(
            BuiltProducts.path("onthemap-server"),
            ["user", "disable", "demo@onthemap.example", "--yes", "--database", bed.server.databasePath])
        #expect(disable.status == 0, "\(disable.stderr)")
        let refused = try bed.run(["login", "--username", "demo@onthemap.example", "--password-stdin"], stdin: "onthemap-demo\n")
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(
            refused.stderr == "onthemap: this account is disabled; ask the server's operator.\n", "\(refused.stderr)")
        #expect(try bed.run(["status", "--json"]).stdout.contains(#""loggedIn":false"#))
    }

    /// On a terminal it asks first; no is no, yes asks for the email and password.
    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
    func aSecondLoginOnATerminalAsksFirst() throws {
        let bed = try CLITestBed()
        let command = "\(BuiltProducts.path("onthemap")) login"
        var terminal = try TmuxSession(command: TmuxSession.reportingExit(command), width: 100, height: 20, environment: bed.environment)
        var (asked, screen) = try terminal.waitForScreen { $0.contains { $0.contains("Log in again? [y/N]") } }
        #expect(asked, "\(screen.joined(separator: "\n"))")
        #expect(screen.contains { $0.hasPrefix("already logged in as Ada Lovelace (") }, "\(screen.joined(separator: "\n"))")
        try terminal.send("n", "Enter")
        #expect(try terminal.waitForExit(timeout: 30) == 1)
        #expect(try terminal.screen(history: true).contains { $0.hasPrefix("onthemap: nothing changed: still logged in as Ada Lovelace") })
        #expect(!(try terminal.screen(history: true)).contains { $0.contains("Email:") })
        terminal.tearDown()

        terminal = try TmuxSession(command: TmuxSession.reportingExit(command), width: 100, height: 20, environment: bed.environment)
        defer { terminal.tearDown() }
        (asked, screen) = try terminal.waitForScreen { $0.contains { $0.contains("Log in again? [y/N]") } }
        #expect(asked)
        try terminal.send("y", "Enter")
        (asked, screen) = try terminal.waitForScreen { $0.contains { $0.contains("Email:") } }
        #expect(asked, "\(screen.joined(separator: "\n"))")
        try terminal.send("demo@onthemap.example", "Enter")
        (asked, screen) = try terminal.waitForScreen { $0.contains { $0.contains("Password:") } }
        try terminal.send("onthemap-demo", "Enter")
        #expect(try terminal.waitForExit(timeout: 30) == 0)
        #expect(try terminal.screen(history: true).contains { $0.hasPrefix("logged in as Ada Lovelace") })
    }

    /// The server cannot be reached: the session is forgotten here, and the message says it stays
    /// valid on the server, and how its operator ends it.
    @Test func anOfflineLogoutSaysTheSessionLivesOnTheServer() throws {
        let bed = try CLITestBed()
        let key = try #require(try JSONDecoder().decode(WireJSON.self, from: Data(try bed.run(["status", "--json"]).stdout.utf8))["account"]?["key"]?.stringValue)
        bed.server.stopServer()
        let logout = try bed.run(["logout"])
        #expect(logout.status == 0, "\(logout.stderr)")
        let said = logout.stderr
        #expect(said.split(separator: "\n").count == 1, "one line: \(said)")
        #expect(said.hasPrefix("logged out on this machine, but the server at \(bed.server.baseURL) did not end the session ("), "\(said)")
        #expect(said.contains("it stays valid there until it expires"), "\(said)")
        #expect(said.hasSuffix("`onthemap-server session revoke --user \(key)`.\n"), "one sentence, ended: \(said)")
        #expect(!said.contains("retry"), "the reason alone, not a request's advice to retry: \(said)")
        #expect(said.contains("did not end the session (cannot reach "), "the reason as a clause of the sentence: \(said)")
        #expect(try bed.run(["status"]).stdout.hasPrefix("logged out"), "forgotten here")
    }

    /// A self-hosted server's sign-up page is the one its operator names (`serve --signup-url`), read
    /// where its web page reads it; one that names none, or serves no page, makes accounts through
    /// its operator, and `signup` says so.
    @Test func signupOpensTheServersOwnPage() throws {
        let page = "https://accounts.example/join?class=2026&lang=en"
        for (arguments, expected) in [(["--signup-url", page], page as String?), ([], nil), (["--no-web"], nil)] {
            let server = try ServerFixture(arguments: arguments)
            defer { server.tearDown() }
            let daemon = try DaemonProcess(apiURL: server.baseURL)
            defer { daemon.tearDown() }
            let signup = try runCommand(
                BuiltProducts.path("onthemap"), ["signup"],
                environment: ["ONTHEMAP_SOCKET": daemon.socketPath, "ONTHEMAP_OPENER": "/bin/echo", "NO_COLOR": "1"])
            if let expected {
                #expect(signup.status == 0, "\(arguments): \(signup.stderr)")
                #expect(signup.stdout == expected + "\n", "the page, handed to the opener: \(signup.stdout)")
                #expect(!signup.stdout.contains("udacity"))
            } else {
                #expect(signup.status == 1, "\(arguments): \(signup.stdout)")
                #expect(signup.stdout.isEmpty, "opened something: \(signup.stdout)")
                #expect(
                    signup.stderr == "onthemap: the server at \(server.baseURL) names no sign-up page, and Udacity accounts do not work there: ask its operator for an account (they add one with `onthemap-server user add`)\n",
                    "\(signup.stderr)")
            }
        }
    }

    /// Offline, `status --format json` and a piped `watch` print one documented shape,
    /// `{"offline":true,"reason":…}`, the reason being the line `status` says on stderr.
    @Test func theOfflineJSONIsOneShapeWithTheAdvice() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let environment = ["ONTHEMAP_SOCKET": directory.file("nobody.sock"), "NO_COLOR": "1"]
        let said = try runCommand(BuiltProducts.path("onthemap"), ["status"], environment: environment)
        #expect(said.status == 2)
        let line = try #require(said.stderr.split(separator: "\n").first.map { String($0.dropFirst("onthemap: ".count)) })
        let status = try runCommand(BuiltProducts.path("onthemap"), ["status", "--format", "json"], environment: environment)
        #expect(status.status == 0)
        let expected = WireJSON.object([("offline", .bool(true)), ("reason", .string(line))]).serialized + "\n"
        #expect(status.stdout == expected, "\(status.stdout)")
        let watch = try RunningProcess(BuiltProducts.path("onthemap"), ["watch"], environment: environment)
        defer { watch.stop() }
        #expect(watch.waitForLine { $0 + "\n" == expected }, "\(watch.lines)")
    }
}

/// Issue 40, lists beyond the cache: the daemon caches the 100 newest of the server's 120; a search
/// and `--near` look at all 120 (a pin older than the cache is found), and with the server down the
/// 100 cached are looked at and the note says so.
@Suite("Lists beyond the cache", .ownThreads)
struct ListsBeyondTheCacheTests {
    private func students(_ result: CommandResult) throws -> [StudentLocation] {
        try WireCoding.decoder().decode([StudentLocation].self, from: Data(result.stdout.utf8))
    }

    @Test func aSearchAndNearFindAStudentOlderThanTheCache() throws {
        let bed = try CLITestBed()
        let all = try students(try bed.run(["students", "--limit", "120", "--json"]))
        #expect(all.count == 120)
        let oldest = try #require(all.last)
        let cached = try students(try bed.run(["students", "--limit", "100", "--json"]))
        #expect(cached.count == 100 && !cached.contains { $0.objectId == oldest.objectId }, "the oldest is not cached")

        let found = try bed.run(["students", "--search", oldest.fullName, "--json"])
        #expect(found.status == 0, "\(found.stderr)")
        #expect(try students(found).contains { $0.objectId == oldest.objectId }, "\(found.stdout.prefix(300))")
        let point = "\(oldest.latitude),\(oldest.longitude)"
        let near = try bed.run(["students", "--near", point, "--radius", "1", "--json"])
        #expect(near.status == 0, "\(near.stderr)")
        #expect(try students(near).contains { $0.objectId == oldest.objectId }, "\(near.stdout.prefix(300))")
        #expect(!found.stderr.contains("looked at") && !near.stderr.contains("looked at"), "\(found.stderr)\(near.stderr)")

        // The server gone: the cache answers, and says it is all that was looked at.
        _ = bed.server.stopServer()
        let offline = try bed.run(["students", "--search", oldest.fullName])
        #expect(offline.stderr.contains("the server could not be reached: only the 100 cached students were looked at"), "\(offline.stderr)")
        // Found nowhere in the cache: one line, the finding qualified by how far it looked, not
        // "no student matches" first and then that only the cache was looked at.
        let nowhere = try bed.run(["students", "--search", oldest.fullName, "--limit", "1"])
        #expect(
            nowhere.stderr == "no student matches \"\(oldest.fullName)\" (the server could not be reached: only the 100 cached students were looked at)\n",
            "\(nowhere.stderr)")
    }

    /// A server holding more than the 10,000 a search looks at: the CLI says so on stderr, after the
    /// note of the matches cut by --limit, and the list itself stays clean for a pipe.
    @Test func aSearchOverMoreThanTenThousandSaysSo() throws {
        let bed = try CLITestBed(students: 10_001, daemonArguments: ["--cache-size", "1100"])
        let found = try bed.run(["students", "--search", "a", "--limit", "5", "--tsv"])
        #expect(found.status == 0, "\(found.stderr)")
        let notes = found.stderr.split(separator: "\n").map(String.init)
        #expect(notes.count == 2 && notes[0].hasPrefix("onthemap: 5 of "), "\(found.stderr)")
        #expect(notes.last == "onthemap: only the newest 10,000 students were looked at; the server has more", "\(found.stderr)")
        #expect(found.stdout.split(separator: "\n").count == 6, "a header and 5 rows: \(found.stdout.prefix(300))")
    }
}
