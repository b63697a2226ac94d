import Foundation
import OnTheMapModels
import OnTheMapTestSupport
import Testing

/// `--json` on every command (#40), each printing one documented JSON value on stdout and nothing
/// else there: the real client against the real daemon and server.
@Suite("--json everywhere", .ownThreads)
struct JSONEverywhereTests {
    /// Every command `onthemap --experimental-dump-help` lists takes `--json`, so a new command
    /// without it fails here.
    @Test func everyCommandTakesJSON() throws {
        let dump = try runCommand(BuiltProducts.path("onthemap"), ["--experimental-dump-help"])
        #expect(dump.status == 0, "\(dump.stderr)")
        let tool = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        let root = try #require(tool["command"] as? [String: Any])
        let commands = try #require(root["subcommands"] as? [[String: Any]])
        var without: [String] = []
        for command in commands {
            let name = command["commandName"] as? String ?? "?"
            if name == "help" { continue }
            let options = (command["arguments"] as? [[String: Any]] ?? []).flatMap { $0["names"] as? [[String: Any]] ?? [] }
            if !options.contains(where: { $0["name"] as? String == "json" && $0["kind"] as? String == "long" }) { without.append(name) }
        }
        #expect(commands.count > 10 && without.isEmpty, "without --json: \(without)")
    }

    @Test func refreshLoginExportAndLogoutPrintTheirAnswers() throws {
        let bed = try CLITestBed()
        let refresh = try bed.run(["refresh", "--json"])
        #expect(refresh.status == 0, "\(refresh.stderr)")
        let refreshed = try JSONText.parse(refresh.stdout)
        #expect(refreshed["count"] == .number(100), "\(refresh.stdout)")
        #expect(refreshed["refreshedAt"]?.stringValue?.hasSuffix("Z") == true, "\(refresh.stdout)")
        #expect(refresh.stderr.isEmpty, "\(refresh.stderr)")

        let login = try bed.run(["login", "--force", "--json", "--username", "demo@onthemap.example", "--password-stdin"], stdin: "onthemap-demo\n")
        #expect(login.status == 0, "\(login.stderr)")
        let account = try JSONText.parse(login.stdout)
        #expect(account["firstName"] == .string("Ada") && account["lastName"] == .string("Lovelace"), "\(login.stdout)")
        #expect(account["key"]?.stringValue?.isEmpty == false, "\(login.stdout)")

        let file = bed.cacheHome.file("map.svg")
        let export = try bed.run(["export", "--svg", file, "--json"])
        #expect(export.status == 0, "\(export.stderr)")
        let written = try JSONText.parse(export.stdout)
        #expect(written["file"] == .string(file) && written["format"] == .string("svg") && written["students"] == .number(100), "\(export.stdout)")
        #expect(FileManager.default.fileExists(atPath: file))
        // The document and the JSON cannot both be standard output.
        let both = try bed.run(["export", "--html", "-", "--json"])
        #expect(both.status == 64 && both.stderr.contains("give a file to write, or leave out --json"), "\(both.stderr)")

        let logout = try bed.run(["logout", "--json"])
        #expect(logout.status == 0, "\(logout.stderr)")
        let loggedOut = try JSONText.parse(logout.stdout)
        #expect(loggedOut["loggedOut"] == .bool(true) && loggedOut["upstream"] == .string("ended"), "\(logout.stdout)")
        #expect(logout.stderr.contains("logged out"), "\(logout.stderr)")
    }

    /// What the opener prints goes to stderr, so stdout is the JSON alone.
    @Test func openAndSignupPrintTheLinkOpened() throws {
        let bed = try CLITestBed()
        let tsv = try bed.run(["students", "--limit", "2", "--tsv"])
        let second = tsv.stdout.split(separator: "\n")[2].split(separator: "\t", omittingEmptySubsequences: false)
        _ = try bed.run(["students", "--limit", "2"])
        let opened = try bed.run(["open", "2", "--json"], extra: ["ONTHEMAP_OPENER": "/bin/echo"])
        #expect(opened.status == 0, "\(opened.stderr)")
        let link = try JSONText.parse(opened.stdout)
        #expect(link["name"] == .string("\(second[0]) \(second[1])") && link["link"] == .string(String(second[3])), "\(opened.stdout)")
        #expect(opened.stderr.contains(String(second[3])), "the opener's own output: \(opened.stderr)")

        // A name several students match: them, as `students --json` prints them, and exit 1.
        let several = try bed.run(["open", "--json", "a"], extra: ["ONTHEMAP_OPENER": "/bin/echo"])
        #expect(several.status == 1, "\(several.stderr)")
        let matches = try WireCoding.decoder().decode([StudentLocation].self, from: Data(several.stdout.utf8))
        #expect(matches.count > 1, "\(several.stdout)")
        #expect(several.stderr.contains("students match \"a\""), "\(several.stderr)")
        // One count of the matches, and which of them are listed.
        #expect(several.stderr.contains("of them, newest first") && !several.stderr.contains("(the first"), "\(several.stderr)")

        let signup = try bed.run(["signup", "--json"], extra: ["ONTHEMAP_OPENER": "/bin/echo", "ONTHEMAP_SOCKET": bed.cacheHome.file("nope.sock")])
        #expect(signup.status == 0, "\(signup.stderr)")
        #expect(try JSONText.parse(signup.stdout)["link"] == .string("https://auth.udacity.com/sign-up"), "\(signup.stdout)")
    }

    @Test func watchAndCallTakeJSON() throws {
        let bed = try CLITestBed()
        let watch = try RunningProcess(BuiltProducts.path("onthemap"), ["watch", "--json"], environment: bed.environment)
        defer { watch.stop() }
        #expect(watch.waitForLine { (try? JSONText.parse($0))?["loggedIn"] == .bool(true) }, "\(watch.lines)")
        let clash = try bed.run(["watch", "--json", "--format", "waybar"])
        #expect(clash.status == 64 && clash.stderr.contains("give one of --json and --format waybar"), "\(clash.stderr)")

        let call = try bed.run(["call", "status", "--json"])
        #expect(call.status == 0, "\(call.stderr)")
        #expect(try JSONText.parse(call.stdout)["loggedIn"] == .bool(true), "\(call.stdout)")
    }
}
