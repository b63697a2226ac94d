import Foundation
import NIOHTTP1
import OnTheMapModels
import OnTheMapTestSupport
import Testing

/// Passwords, sessions and pins as an operator manages them, on the suite's backend (SQLite, or
/// PostgreSQL with `ONTHEMAP_TEST_DATABASE=postgres`).
@Suite("Accounts, sessions and pins from the command line", .ownThreads)
struct AccountCommandTests {
    let server = BuiltProducts.path("onthemap-server")

    @Test func passwordsHaveAMinimumLength() throws {
        let fixture = try ServerFixture()
        defer { fixture.tearDown() }
        let db = ["--database", fixture.databasePath, "--bcrypt-cost", "4"]
        let add = ["user", "add", "--email", "ada@example.com", "--first", "Ada", "--last", "Lovelace", "--password-stdin"] + db
        let short = try runCommand(server, add, stdin: "1234567\n")
        #expect(short.status == 1)
        #expect(short.stderr == "onthemap-server: The password is too short: use at least 8 characters. Nothing changed.\n", "\(short.stderr)")
        #expect(try runCommand(server, ["user", "show", "ada@example.com", "--database", fixture.databasePath]).status == 1)
        // Characters, not bytes: eight of them, sixteen bytes.
        #expect(try runCommand(server, add, stdin: "éééééééé\n").status == 0)
        let passwd = ["user", "passwd", "ada@example.com", "--password-stdin"] + db
        let shortAgain = try runCommand(server, passwd, stdin: "x\n")
        #expect(shortAgain.status == 1 && shortAgain.stderr.contains("at least 8 characters"), "\(shortAgain.stderr)")
        // Configurable, by flag and in the settings file.
        #expect(try runCommand(server, passwd + ["--min-password-length", "4"], stdin: "abcd\n").status == 0)
        let settings = fixture.directory.file("server.conf")
        try "min-password-length = 12\n".write(toFile: settings, atomically: true, encoding: .utf8)
        let strict = try runCommand(server, passwd + ["--config", settings], stdin: "eleven-char\n")
        #expect(strict.status == 1 && strict.stderr.contains("at least 12 characters"), "\(strict.stderr)")
        let zero = try runCommand(server, passwd + ["--min-password-length", "0"], stdin: "abcd\n")
        #expect(zero.status == 64 && zero.stderr.contains("--min-password-length"), "\(zero.stderr)")
    }

    @Test func aNewPasswordEndsTheSessionsUnlessKept() async throws {
        let fixture = try ServerFixture()
        defer { fixture.tearDown() }
        let key = try fixture.addUser(email: "grace@example.com", password: "cobol-1959")
        func post(_ session: String) async throws -> Int {
            try await ServerHTTP.send(
                .POST, fixture.baseURL + "/StudentLocation", body: ServerHTTP.pin(key), headers: [("X-OnTheMap-Session", session)]
            ).status
        }
        let passwd = ["user", "passwd", key, "--password-stdin", "--bcrypt-cost", "4", "--database", fixture.databasePath]
        let (_, kept) = try await ServerHTTP.login(fixture.baseURL, email: "grace@example.com", password: "cobol-1959")
        let keeping = try runCommand(server, passwd + ["--keep-sessions"], stdin: "flow-matic\n")
        #expect(keeping.stdout.contains("its sessions were kept"), "\(keeping.stdout)\(keeping.stderr)")
        #expect(try await post(kept) == 201)

        let (_, other) = try await ServerHTTP.login(fixture.baseURL, email: "grace@example.com", password: "flow-matic")
        let changed = try runCommand(server, passwd, stdin: "a-new-one-1959\n")
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(changed.stdout.contains("ended 2 sessions"), "\(changed.stdout)")
        #expect(try await post(kept) == 401)
        #expect(try await post(other) == 401)
        _ = try await ServerHTTP.login(fixture.baseURL, email: "grace@example.com", password: "a-new-one-1959")
    }

    /// `user add` and `user rename` take names by the rule the API applies to a pin's: an account
    /// with an empty first name could never post, and one with ESC in its name would write it to
    /// every terminal that lists it. Refused with the option named and why (status 64).
    @Test func namesFollowThePinsRule() async throws {
        let fixture = try ServerFixture()
        defer { fixture.tearDown() }
        let db = ["--database", fixture.databasePath]
        let add = ["user", "add", "--email", "ada@example.com", "--password-stdin", "--bcrypt-cost", "4"] + db
        let refusals: [([String], String)] = [
            (["--first", "", "--last", "Lovelace"], "--first is empty"),
            (["--first", "Ada", "--last", " "], "--last is empty"),
            (["--first", "Ada\u{1B}[2J", "--last", "Lovelace"], "--first contains a control character (U+001B)"),
            (["--first", "Ada", "--last", "Love\u{9B}lace"], "--last contains a control character (U+009B)"),
            // Only U+0085, a control character that is also a line end: not "empty".
            (["--first", "Ada", "--last", "\u{85}"], "--last contains a control character (U+0085)"),
            // One letter as drawn, 200 marks stacked on it: as long as the 201 code points it is.
            (["--first", "Z" + String(repeating: "\u{301}", count: 200), "--last", "Lovelace"], "--first is longer than 100 characters"),
        ]
        for (names, message) in refusals {
            let result = try runCommand(server, add + names, stdin: "analytical\n")
            #expect(result.status == 64, "\(names): \(result.stderr)")
            #expect(result.stderr.hasPrefix("onthemap-server: \(message)"), "\(result.stderr)")
        }
        #expect(try runCommand(server, ["user", "show", "ada@example.com"] + db).status == 1, "no account was added")

        let key = try fixture.addUser(email: "ada@example.com", password: "analytical", first: "Ada", last: "Lovelace")
        let (_, session) = try await ServerHTTP.login(fixture.baseURL, email: "ada@example.com", password: "analytical")
        #expect(
            try await ServerHTTP.send(
                .POST, fixture.baseURL + "/StudentLocation", body: ServerHTTP.pin(key), headers: [("X-OnTheMap-Session", session)]
            ).status == 201)
        let refused = try runCommand(server, ["user", "rename", key, "--last", "x\u{7}"] + db)
        #expect(refused.status == 64 && refused.stderr.hasPrefix("onthemap-server: --last contains a control character (U+0007)"), "\(refused.stderr)")
        let neither = try runCommand(server, ["user", "rename", key] + db)
        #expect(neither.status == 64 && neither.stderr.contains("--first, --last or both"), "\(neither.stderr)")

        let renamed = try runCommand(server, ["user", "rename", "ada@example.com", "--last", "King"] + db)
        #expect(renamed.status == 0, "\(renamed.stderr)")
        #expect(renamed.stdout == "renamed ada@example.com to Ada King (1 pin renamed too)\n", "\(renamed.stdout)")
        let shown = try runCommand(server, ["user", "show", key, "--json"] + db).stdout
        #expect(shown.contains("Ada King"), "\(shown)")
        // The pin shows it at once (on PostgreSQL, by the change watch's notification).
        #expect(
            try await eventually(timeout: .seconds(5)) {
                try await ServerHTTP.pins(fixture.baseURL, of: key).first?["lastName"] as? String == "King"
            })
    }

    /// An email is checked like a link (no control, no bidi or other invisible character), and what other people wrote
    /// (a name, a browser's User-Agent) reaches the operator's terminal shown, never obeyed: the
    /// tables and messages go through the one sanitiser; `--json` keeps the data exact.
    @Test func whatOthersWroteIsShownNotObeyed() async throws {
        let fixture = try ServerFixture()
        defer { fixture.tearDown() }
        let db = ["--database", fixture.databasePath]
        let add = ["user", "add", "--first", "Ada", "--last", "Lovelace", "--password-stdin", "--bcrypt-cost", "4"] + db
        for (email, message) in [
            ("e\u{1B}[2K@x.example", "--email contains a control character (U+001B)"),
            ("evil\u{202E}moc.x@x.example", "--email contains a bidirectional control (U+202E), which can make an address read as another"),
            ("ada\u{200B}@x.example", "--email contains an invisible character (U+200B), which can make an address read as another"),
        ] {
            let refused = try runCommand(server, add + ["--email", email], stdin: "analytical\n")
            #expect(refused.status == 64 && refused.stderr.hasPrefix("onthemap-server: \(message)"), "\(refused.stderr)")
        }
        let key = try fixture.addUser(email: "ada@example.com", password: "analytical", first: "Ada", last: "Lovelace")
        // Names may hold bidi controls (right-to-left names need them); shown, they are dropped.
        let renamed = try runCommand(server, ["user", "rename", key, "--first", "Right\u{202E}Left"] + db)
        #expect(renamed.status == 0 && renamed.stdout == "renamed ada@example.com to RightLeft Lovelace (0 pins renamed too)\n", "\(renamed.stdout)")
        let hostileAgent = "curl\u{9B}31mRED\u{202E}exe.gnp\tnext"
        let login = try await ServerHTTP.send(
            .POST, fixture.baseURL + "/session", body: #"{"udacity":{"username":"ada@example.com","password":"analytical"}}"#,
            headers: [("User-Agent", hostileAgent)])
        #expect(login.status == 200)
        for command in [["session", "list"], ["user", "list"], ["user", "show", key]] {
            let shown = try runCommand(server, command + db)
            #expect(shown.status == 0, "\(command): \(shown.stderr)")
            let obeyed = shown.stdout.unicodeScalars.filter { ($0 != "\n" && $0 != "\t" && DisplayText.isControl($0)) || DisplayText.isBidiControl($0) }
            #expect(obeyed.isEmpty, "\(command): \(shown.stdout.debugDescription)")
            #expect(shown.stdout.split(separator: "\n").count == 2, "a header and one row: \(shown.stdout.debugDescription)")
        }
        let sessions = try runCommand(server, ["session", "list", "--json"] + db).stdout
        let agents = try JSONDecoder().decode([[String: String?]].self, from: Data(sessions.utf8)).compactMap { $0["userAgent"] ?? nil }
        #expect(agents == [hostileAgent], "exact in JSON: \(sessions.debugDescription)")
        // Exact, and escaped where JSON would leave them raw (C1, bidi): read on a terminal, nothing acts.
        #expect(!sessions.unicodeScalars.contains { DisplayText.isControl($0) && $0 != "\n" || DisplayText.isBidiControl($0) },
                "\(sessions.debugDescription)")
        #expect(sessions.contains(#"\u009b"#) && sessions.contains(#"\u202e"#), "\(sessions)")
    }

    /// Counts read as people say them: "1 session", "2 sessions".
    @Test func countsAreSingularForOne() async throws {
        let fixture = try ServerFixture()
        defer { fixture.tearDown() }
        let key = try fixture.addUser(email: "grace@example.com", password: "cobol-1959")
        _ = try await ServerHTTP.login(fixture.baseURL, email: "grace@example.com", password: "cobol-1959")
        let passwd = ["user", "passwd", key, "--password-stdin", "--bcrypt-cost", "4", "--database", fixture.databasePath]
        let changed = try runCommand(server, passwd, stdin: "flow-matic\n")
        #expect(changed.stdout == "password changed for grace@example.com; ended 1 session\n", "\(changed.stdout)\(changed.stderr)")
        let none = try runCommand(server, passwd, stdin: "flow-matic-2\n")
        #expect(none.stdout == "password changed for grace@example.com; no session was live\n", "\(none.stdout)")
    }

    @Test func sessionListShowsWhereAndWhenEachIsUsed() async throws {
        let fixture = try ServerFixture()
        defer { fixture.tearDown() }
        let key = try fixture.addUser(email: "grace@example.com", password: "cobol-1959")
        let login = try await ServerHTTP.send(
            .POST, fixture.baseURL + "/session", body: #"{"udacity":{"username":"grace@example.com","password":"cobol-1959"}}"#,
            headers: [("User-Agent", "OnTheMap-Test/2.0 (tabs\tand more)")])
        let session = try #require((login.json["session"] as? [String: Any])?["id"] as? String)
        func listed() throws -> [String: Any] {
            let list = try runCommand(server, ["session", "list", "--json", "--database", fixture.databasePath])
            let rows = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]]
            return try #require(rows?.first, "\(list.stdout)\(list.stderr)")
        }
        let fresh = try listed()
        #expect(fresh["address"] as? String == "127.0.0.1")
        #expect(fresh["userAgent"] as? String == "OnTheMap-Test/2.0 (tabs\tand more)", "exact in JSON")
        #expect(fresh["lastUsed"] as? String == "", "not used since login: \(fresh)")
        #expect(fresh["created"] is String && fresh["state"] as? String == "live")

        let sending = Date()
        let used = try await ServerHTTP.send(
            .POST, fixture.baseURL + "/StudentLocation", body: ServerHTTP.pin(key), headers: [("X-OnTheMap-Session", session)])
        let answered = Date()
        #expect(used.status == 201)
        let after = try listed()
        let lastUsed = try #require(after["lastUsed"] as? String, "\(after)")
        let stamp = try #require(ISO8601DateFormatter().date(from: lastUsed))
        // The time of that request, not of the listing (which may wait for a launch slot while
        // another test holds a thousand sockets); the stamp is written in whole seconds.
        #expect(stamp >= sending.addingTimeInterval(-1) && stamp <= answered.addingTimeInterval(1), "\(lastUsed): sent \(sending), answered \(answered)")
        let table = try runCommand(server, ["session", "list", "--database", fixture.databasePath]).stdout
        #expect(table.hasPrefix("session\taccount\tcreated\tlastUsed\texpires\taddress\tuserAgent\tstate\n"), "\(table)")
    }

    /// Every path that takes a session notes its use the one way (`liveSession`): the web page's
    /// place lookups and Parse's /users/me left "lastUsed" empty.
    @Test func placeLookupsAndParsesMeNoteASessionsUse() async throws {
        let fixture = try ServerFixture()
        defer { fixture.tearDown() }
        _ = try fixture.addUser(email: "grace@example.com", password: "cobol-1959")
        let root = String(fixture.baseURL.dropLast("/v1".count))
        let udacity = try await ServerHTTP.send(
            .POST, fixture.baseURL + "/session", body: #"{"udacity":{"username":"grace@example.com","password":"cobol-1959"}}"#)
        let viaGeocode = try #require((udacity.json["session"] as? [String: Any])?["id"] as? String)
        let parse = try await ServerHTTP.send(
            .POST, root + "/parse/login", body: #"{"username":"grace@example.com","password":"cobol-1959"}"#,
            headers: ServerHTTP.parseHeaders())
        let viaMe = try #require(parse.json["sessionToken"] as? String, "\(parse.body)")
        let found = try await ServerHTTP.send(.GET, fixture.baseURL + "/geocode?q=Oslo", headers: [("X-OnTheMap-Session", viaGeocode)])
        #expect(found.status == 200, "\(found.body)")
        let me = try await ServerHTTP.send(.GET, root + "/parse/users/me", headers: ServerHTTP.parseHeaders(session: viaMe))
        #expect(me.status == 200, "\(me.body)")
        let list = try runCommand(server, ["session", "list", "--json", "--database", fixture.databasePath])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]], "\(list.stdout)")
        #expect(rows.count == 2, "\(rows)")
        for row in rows { #expect((row["lastUsed"] as? String)?.isEmpty == false, "\(row)") }
    }

    @Test func pinListPagesAndPrintsNumbers() async throws {
        let fixture = try ServerFixture(arguments: ["--open-writes"])
        defer { fixture.tearDown() }
        // 1,100 demo pins (one account each), so pages go past the old cap of 1,000.
        try fixture.seedDemo(count: 1100)
        let db = ["--database", fixture.databasePath]
        func page(_ arguments: [String]) throws -> [[String: Any]] {
            let result = try runCommand(server, ["pin", "list", "--json"] + arguments + db)
            #expect(result.status == 0, "\(result.stderr)")
            return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        }
        let all = try page(["--limit", "5000"])
        #expect(all.count == 1100)
        #expect(all.allSatisfy { $0["latitude"] is Double || $0["latitude"] is Int }, "JSON numbers: \(all.prefix(2))")
        #expect(!(all.first?["latitude"] is String))

        var paged: [[String: Any]] = []
        var after: [String] = []
        for _ in 0..<4 {
            let next = try page(["--limit", "300"] + after)
            paged += next
            guard let last = next.last?["objectId"] as? String else { break }
            after = ["--after", last]
        }
        #expect(paged.count == 1100)
        #expect(paged.map { $0["objectId"] as? String } == all.map { $0["objectId"] as? String }, "pages neither repeat nor skip")
        #expect(try page(["--limit", "10"] + after).isEmpty)

        for bad in ["0", "-3"] {
            let refused = try runCommand(server, ["pin", "list", "--limit", bad] + db)
            #expect(refused.status == 64)
            #expect(refused.stderr.contains("--limit must be 1 or more"), "\(bad): \(refused.stderr)")
        }
        let unknown = try runCommand(server, ["pin", "list", "--after", "no-such-pin"] + db)
        #expect(unknown.status == 1 && unknown.stderr.contains("No pin has the objectId no-such-pin"), "\(unknown.stderr)")

        let shown = try runCommand(server, ["user", "show", "demo@onthemap.example", "--json"] + db)
        let account = try #require((try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [[String: Any]])?.first)
        #expect(account["pins"] as? Int == 0 && account["sessions"] as? Int == 0, "\(shown.stdout)")
    }
}
