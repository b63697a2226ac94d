import Foundation
import NIOHTTP1
import OnTheMapTestSupport
import Testing

/// `user`, `pin`, `session`, `backup` and `restore`, as an operator runs them, on the suite's backend.
@Suite("Administration commands", .ownThreads)
struct AdminCommandTests {
    let server = BuiltProducts.path("onthemap-server")

    /// On a terminal the tables fit it, as the client's do: the longest names the server takes (100
    /// wide characters each) are cut with "…" and every row stays one line, where they made every row
    /// of `user list` 263 columns and of `pin list` over 450; ids and times stay whole.
    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
    func tablesFitTheTerminal() async throws {
        let fixture = try ServerFixture()
        defer { fixture.tearDown() }
        let wide = String(repeating: "\u{FF58}", count: 100)
        let key = try fixture.addUser(email: "wide@example.com", password: "wide-names-1", first: String(repeating: "W", count: 100), last: wide)
        let (_, session) = try await ServerHTTP.login(fixture.baseURL, email: "wide@example.com", password: "wide-names-1")
        let posted = try await ServerHTTP.send(
            .POST, fixture.baseURL + "/StudentLocation", body: ServerHTTP.pin(key), headers: [("X-OnTheMap-Session", session)])
        let objectId = try #require(posted.json["objectId"] as? String)
        for (command, id) in [("user list", key), ("pin list", objectId), ("session list", "live")] {
            let run = "\(server) \(command) --database \(fixture.databasePath)"
            let terminal = try TmuxSession(command: TmuxSession.reportingExit(run), width: 80, height: 20, environment: ["COLUMNS": ""])
            defer { terminal.tearDown() }
            #expect(try terminal.waitForExit(timeout: 30) == 0, "\(command)")
            let lines = try terminal.screen(history: true).filter { !$0.isEmpty && !$0.hasPrefix("EXITED=") && !$0.hasPrefix("Pane is dead") }
            #expect(lines.count == 2, "\(command): a header and one row, each on one line: \(lines.joined(separator: "\n"))")
            #expect(lines.last?.contains(id) == true, "\(command): the id whole: \(lines.joined(separator: "\n"))")
            if command == "user list" {
                #expect(lines.last?.contains("WWW…") == true, "\(command): \(lines.joined(separator: "\n"))")
            }
        }
    }

    @Test func usersPinsAndSessionsCanBeManaged() async throws {
        let fixture = try ServerFixture()
        defer { fixture.tearDown() }
        let db = ["--database", fixture.databasePath]
        let key = try fixture.addUser(email: "grace@example.com", password: "cobol-1959")
        let (_, session) = try await ServerHTTP.login(fixture.baseURL, email: "grace@example.com", password: "cobol-1959")
        let posted = try await ServerHTTP.send(
            .POST, fixture.baseURL + "/StudentLocation", body: ServerHTTP.pin(key), headers: [("X-OnTheMap-Session", session)])
        let objectId = try #require(posted.json["objectId"] as? String)

        let list = try runCommand(server, ["user", "list", "--json"] + db)
        #expect(list.status == 0, "\(list.stderr)")
        let users = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: String]])
        #expect(users.map { $0["email"] } == ["grace@example.com"])
        let shown = try runCommand(server, ["user", "show", "grace@example.com"] + db)
        #expect(shown.stdout.contains(key) && shown.stdout.contains("active"))

        // `pin list`: JSON for scripts, by account (key or email), tab-separated when piped.
        let pins = try runCommand(server, ["pin", "list", "--user", "grace@example.com", "--json"] + db)
        #expect(pins.status == 0, "\(pins.stderr)")
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(pins.stdout.utf8)) as? [[String: Any]])
        #expect(listed.map { $0["objectId"] as? String } == [objectId], "\(pins.stdout)")
        #expect(listed.first?["uniqueKey"] as? String == key && listed.first?["name"] as? String == "Grace Hopper", "\(pins.stdout)")
        #expect(listed.first?["latitude"] as? Double == 48.85, "a number, not a string: \(pins.stdout)")
        let table = try runCommand(server, ["pin", "list"] + db).stdout.split(separator: "\n")
        #expect(table.first == "objectId\tuniqueKey\tname\tplace\tlatitude\tlongitude\tupdated\tlink", "\(table)")
        #expect(table.count == 2 && table.last?.hasPrefix("\(objectId)\t\(key)\t") == true, "\(table)")
        let none = try runCommand(server, ["pin", "list", "--user", "nobody@example.com"] + db)
        #expect(none.status != 0 && none.stderr.contains("nobody@example.com"), "\(none.stderr)")

        let sessions = try runCommand(server, ["session", "list", "--json"] + db)
        #expect(!sessions.stdout.contains(session), "a session id is a credential and is never printed whole")
        #expect(sessions.stdout.contains("live"))

        // Destructive commands refuse without --yes when stdin is not a terminal.
        let refused = try runCommand(server, ["pin", "remove", objectId] + db)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("--yes"))
        #expect(try await ServerHTTP.pins(fixture.baseURL, of: key).count == 1)

        let disabled = try runCommand(server, ["user", "disable", key, "--yes"] + db)
        #expect(disabled.status == 0, "\(disabled.stderr)")
        let write = try await ServerHTTP.send(
            .POST, fixture.baseURL + "/StudentLocation", body: ServerHTTP.pin(key), headers: [("X-OnTheMap-Session", session)])
        #expect(write.status == 401, "disabling ends the account's sessions")
        let login = try await ServerHTTP.send(
            .POST, fixture.baseURL + "/session", body: #"{"udacity":{"username":"grace@example.com","password":"cobol-1959"}}"#)
        #expect(login.status == 423, "the password is right: told it is disabled, not that the credentials are wrong")
        #expect(login.json["error"] as? String == "This account is disabled; ask the server's operator.")
        // The email as `user add` takes it, --email, names the account too; given twice, or not at
        // all, the usage says so.
        let twice = try runCommand(server, ["user", "enable", key, "--email", "grace@example.com"] + db)
        #expect(twice.status == 64 && twice.stderr.contains("Name the account once"), "\(twice.stderr)")
        let unnamed = try runCommand(server, ["user", "enable"] + db)
        #expect(unnamed.status == 64 && unnamed.stderr.contains("Name the account: its key or email, or --email EMAIL."), "\(unnamed.stderr)")
        #expect(try runCommand(server, ["user", "enable", "--email", "grace@example.com"] + db).status == 0)
        let passwd = try runCommand(
            server, ["user", "passwd", key, "--password-stdin", "--bcrypt-cost", "4"] + db, stdin: "new-secret\n")
        #expect(passwd.status == 0, "\(passwd.stderr)")
        _ = try await ServerHTTP.login(fixture.baseURL, email: "grace@example.com", password: "new-secret")

        #expect(try runCommand(server, ["pin", "remove", objectId, "--yes"] + db).status == 0)
        // Another process's write: on PostgreSQL the server learns of it by notification, normally
        // within a millisecond and at worst after its change watch's next check (docs/DEPLOY.md).
        #expect(try await eventually(timeout: .seconds(5)) { try await ServerHTTP.pins(fixture.baseURL, of: key).isEmpty })
        let revoked = try runCommand(server, ["session", "revoke", "--user", key, "--yes"] + db)
        #expect(revoked.stdout == "revoked 1 session\n", "\(revoked.stdout)\(revoked.stderr)")
        // Again: nothing to end, said as such (it said "revoked 0 sessions").
        let again = try runCommand(server, ["session", "revoke", "--user", key, "--yes"] + db)
        #expect(again.status == 0 && again.stdout == "grace@example.com had no live session\n", "\(again.stdout)\(again.stderr)")
        #expect(try runCommand(server, ["user", "remove", "grace@example.com", "--yes"] + db).status == 0)
        #expect(try runCommand(server, ["user", "show", key] + db).status != 0)
    }

    /// Output that cannot be written (here /dev/full) is an error, one line on stderr and exit 1,
    /// as for `onthemap` (issue 39): `pin list --json > pins.json` on a full disk left an empty file
    /// and a success. A reader that goes away (`| head`) ends it quietly.
    @Test func listsThatCannotBeWrittenAreAnError() throws {
        let fixture = try ServerFixture()
        defer { fixture.tearDown() }
        _ = try fixture.addUser(email: "grace@example.com", password: "cobol-1959")
        let db = ["--database", fixture.databasePath]
        for command in [["user", "list"] + db, ["user", "list", "--json"] + db, ["pin", "list", "--json"] + db, ["--help"], ["--version"]] {
            let result = try runCommand("/bin/sh", ["-c", "exec \"$0\" \"$@\" >/dev/full", server] + command)
            #expect(result.status == 1, "\(command): \(result.stderr)")
            #expect(result.stderr == "onthemap-server: could not write the output (No space left on device); it is incomplete\n",
                    "\(command): \(result.stderr)")
        }
        let daemon = try runCommand("/bin/sh", ["-c", "exec \"$0\" --help >/dev/full", BuiltProducts.path("onthemapd")])
        #expect(daemon.status == 1 && daemon.stderr.hasPrefix("onthemapd: could not write the output"), "\(daemon.stderr)")
        let piped = try runCommand("/bin/sh", ["-c", "\"$0\" --help | head -1 >/dev/null; echo done", server])
        #expect(piped.stdout == "done\n" && piped.stderr.isEmpty, "\(piped.stderr)")
    }

    @Test func backupWhileServingAndRestore() async throws {
        let fixture = try ServerFixture(arguments: ["--open-writes"])
        defer { fixture.tearDown() }
        try fixture.seedDemo(count: 60)
        let before = try await ServerHTTP.send(.GET, fixture.baseURL + "/StudentLocation?limit=1000&order=objectId")
        let backupFile = fixture.directory.file("backup.sqlite")
        let backup = try runCommand(server, ["backup", "--database", fixture.databasePath, "--to", backupFile])
        #expect(backup.status == 0, "\(backup.stderr)")
        let checksum = try #require(backup.stdout.firstMatch(of: /backed up 1 accounts, 0 sessions, 60 pins .*checksum ([0-9a-f]+)/)?.1)

        let target = try TestDatabase.fresh(in: fixture.directory, name: "restored.sqlite")
        let restored = try runCommand(server, ["restore", "--database", target, "--from", backupFile])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.stdout.contains("checksum \(checksum)"))
        let again = try runCommand(server, ["restore", "--database", target, "--from", backupFile])
        #expect(again.status != 0)
        #expect(again.stderr.contains("Refusing to overwrite data"))

        let copy = try ServerProcess.start(databasePath: target)
        defer { copy.stop() }
        let after = try await ServerHTTP.send(.GET, copy.baseURL + "/StudentLocation?limit=1000&order=objectId")
        #expect(after.body == before.body)
    }

    /// A backup that fails on a full disk leaves no file behind, which would pass for a backup.
    @Test(.enabled(if: Self.canMountTmpfs(), "needs to mount a small tmpfs, a disk that fills (root, with CAP_SYS_ADMIN)"))
    func aFailedBackupLeavesNoFile() throws {
        let fixture = try ServerFixture()
        defer { fixture.tearDown() }
        try fixture.seedDemo(count: 2000)
        let small = fixture.directory.file("small")
        try FileManager.default.createDirectory(atPath: small, withIntermediateDirectories: true)
        let mounted = try runCommand("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", small])
        try #require(mounted.status == 0, "mount: \(mounted.stderr)")
        defer { _ = try? runCommand("/bin/umount", [small]) }
        let failed = try runCommand(server, ["backup", "--database", fixture.databasePath, "--to", small + "/b.sqlite"])
        #expect(failed.status == 1, "\(failed.stdout)\(failed.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: small) == [], "nothing left in the full folder")
    }

    /// Whether this process may mount a tmpfs: root in a container without CAP_SYS_ADMIN may not.
    static func canMountTmpfs() -> Bool {
        guard getuid() == 0, let probe = try? TemporaryDirectory() else { return false }
        defer { probe.remove() }
        guard (try? runCommand("/bin/mount", ["-t", "tmpfs", "-o", "size=16k", "tmpfs", probe.path]))?.status == 0 else { return false }
        _ = try? runCommand("/bin/umount", [probe.path])
        return true
    }
}
